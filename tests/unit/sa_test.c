// SPDX-License-Identifier: GPL-2.0
/*
 * SA PathRecords (sa/sa.h): the query's bytes and the answer's parser.
 * Every expected value is placed by hand from IBA vol. 1: the MAD header
 * (13.4.3), the SA header (15.2.1.1: AttributeOffset at 44 in 8-byte
 * words, ComponentMask at 48, records from 56) and the PathRecord
 * (15.2.5.16: DLID at 40, SLID at 42, P_Key at 50, QoSClass and SL in
 * 52..53, SL the low 4 bits of 53, MTU and rate the low 6 bits of 54, 55);
 * ComponentMask bit 5 is SLID.
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "common.h"
#include "gw/simproto.h"
#include "sa/sa.h"

#define TID 0x0102030405060708ull

/* A GetTableResp answering TID with n records of 64 bytes (room for
 * len bytes): record i from SLID 5 to DLID dl[i] with SL sl[i]. */
static size_t answer(uint8_t *m, size_t room, unsigned n,
		     const uint16_t *dl, const uint8_t *sl)
{
	size_t len = 56 + (size_t)n * 64;
	unsigned i;

	memset(m, 0, room);
	m[0] = 1;
	m[1] = 0x03;
	m[2] = 2;
	m[3] = 0x92;
	for (i = 0; i < 8; i++)
		m[8 + i] = (uint8_t)(TID >> (56 - 8 * i));
	m[16] = 0x00;
	m[17] = 0x35;
	m[24] = 1;
	m[26] = 0x07;		/* Active, First, Last */
	m[45] = n ? 8 : 0;	/* 64 bytes */
	for (i = 0; i < n; i++) {
		uint8_t *r = m + 56 + i * 64;

		r[40] = (uint8_t)(dl[i] >> 8);
		r[41] = (uint8_t)dl[i];
		r[43] = 5;
		r[50] = 0xff;
		r[51] = 0xff;
		r[52] = 0xab;	/* QoSClass bits: not the SL */
		r[53] = (uint8_t)(0xc0 | sl[i]);
		r[54] = 0x80 | 4;	/* selector 2, MTU 2048 */
		r[55] = 0x80 | 3;	/* selector 2, 10 Gb/s */
	}
	return len;
}

TEST(query_bytes)
{
	uint8_t m[256];

	ftsw_sa_pr_query(m, TID, 0x1234);
	EXPECT_EQ(1, m[0]);
	EXPECT_EQ(0x03, m[1]);
	EXPECT_EQ(2, m[2]);
	EXPECT_EQ(0x12, m[3]);		/* GetTable */
	EXPECT_EQ(0, m[4]);
	EXPECT_EQ(0x01, m[8]);
	EXPECT_EQ(0x08, m[15]);
	EXPECT_EQ(0x00, m[16]);
	EXPECT_EQ(0x35, m[17]);
	EXPECT_EQ(0, m[26] & 1);	/* one MAD, not RMPP-active */
	EXPECT_EQ(0, m[48]);
	EXPECT_EQ(0x20, m[55]);		/* ComponentMask: SLID */
	EXPECT_EQ(0x12, m[56 + 42]);
	EXPECT_EQ(0x34, m[56 + 43]);
	EXPECT_EQ(0, m[56 + 40]);	/* DLID: any */
	EXPECT_EQ(0, m[56 + 41]);
}

TEST(three_records)
{
	static const uint16_t dl[] = { 1, 2, 0x20 };
	static const uint8_t sl[] = { 0, 1, 15 };
	struct ftsw_sa_path_rec r[4];
	struct ftsw_err err;
	uint8_t m[512];
	size_t n, len = answer(m, sizeof(m), 3, dl, sl);

	ASSERT_EQ(248, len);
	ASSERT_EQ(0, ftsw_sa_pr_parse(m, len, TID, 5, r, 4, &n, &err));
	ASSERT_EQ(3, n);
	EXPECT_EQ(1, r[0].dlid);
	EXPECT_EQ(5, r[0].slid);
	EXPECT_EQ(0, r[0].sl);
	EXPECT_EQ(2, r[1].dlid);
	EXPECT_EQ(1, r[1].sl);
	EXPECT_EQ(0x20, r[2].dlid);
	EXPECT_EQ(15, r[2].sl);
	EXPECT_EQ(4, r[2].mtu);
	EXPECT_EQ(3, r[2].rate);
	EXPECT_EQ(0xffff, r[2].pkey);
	/* 20 bytes past the last record: padding, still 3 */
	ASSERT_EQ(0, ftsw_sa_pr_parse(m, len + 20, TID, 5, r, 4, &n, &err));
	EXPECT_EQ(3, n);
	/* 3 records, room for 2: refused */
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(m, len, TID, 5, r, 2, &n, &err));
	EXPECT_EQ(0, n);
}

TEST(no_records)
{
	struct ftsw_sa_path_rec r[1];
	struct ftsw_err err;
	uint8_t m[256];
	size_t n = 9;

	answer(m, sizeof(m), 0, NULL, NULL);
	ASSERT_EQ(0, ftsw_sa_pr_parse(m, 56, TID, 5, r, 1, &n, &err));
	EXPECT_EQ(0, n);
	/* AttributeOffset 0 with a record's bytes after the header */
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(m, 120, TID, 5, r, 1, &n, &err));
	EXPECT_NE(NULL, strstr(err.msg, "AttributeOffset"));
}

TEST(hostile)
{
	static const uint16_t dl[] = { 3, 4 };
	static const uint8_t sl[] = { 2, 3 };
	struct ftsw_sa_path_rec r[4];
	struct ftsw_err err;
	uint8_t m[512], b[512];
	size_t n, len = answer(m, sizeof(m), 2, dl, sl);

	ASSERT_EQ(0, ftsw_sa_pr_parse(m, len, TID, 5, r, 4, &n, &err));
	ASSERT_EQ(2, n);
#define BAD(off, val, what) do { \
	memcpy(b, m, sizeof(b)); \
	b[off] = (val); \
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(b, len, TID, 5, r, 4, &n, &err)); \
	EXPECT_NE(NULL, strstr(err.msg, what)); \
} while (0)
	BAD(0, 2, "base version");
	BAD(1, 0x04, "class");
	BAD(2, 1, "version");
	BAD(3, 0x81, "method");
	BAD(15, 0x09, "TID");
	BAD(4, 0x03, "no records");	/* SA status ERR_NO_RECORDS */
	BAD(5, 0x1c, "status");
	BAD(17, 0x36, "attribute");
	BAD(45, 4, "AttributeOffset");	/* 32 bytes a record */
	BAD(56 + 64 + 43, 6, "SLID 6");	/* record 1 from another LID */
	BAD(56 + 40, 0xc0, "DLID 0xc003");	/* multicast */
	memcpy(b, m, sizeof(b));
	b[56 + 41] = 0;			/* DLID 0 */
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(b, len, TID, 5, r, 4, &n, &err));
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(m, len, TID, 6, r, 4, &n, &err));
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(m, 55, TID, 5, r, 4, &n, &err));
	EXPECT_EQ(-EINVAL, ftsw_sa_pr_parse(NULL, 0, TID, 5, r, 4, &n, &err));
	/* a larger AttributeOffset (72 bytes) steps over its extra bytes:
	 * 2 records of 72 in 56 + 144 */
	memcpy(b, m, sizeof(b));
	b[45] = 9;
	memmove(b + 56 + 72, m + 56 + 64, 64);
	memset(b + 56 + 64, 0, 8);
	ASSERT_EQ(0, ftsw_sa_pr_parse(b, 56 + 144, TID, 5, r, 4, &n, &err));
	EXPECT_EQ(2, n);
	EXPECT_EQ(4, r[1].dlid);
	EXPECT_EQ(3, r[1].sl);
}

/*
 * MCMemberRecords (15.2.5.17, placed by hand): the join IPoIB sends for
 * its broadcast group of the default partition (MGID ff12:401b:ffff::
 * ffff:ffff, ComponentMask MGID | PortGID | JoinState = 0x10003), and
 * the SA's answer: MLID 0xC000, Q_Key 0x0B1B, MTU 2048 and 10 Gb/s
 * "exactly" (0x84, 0x83), P_Key 0xFFFF, SL 3, scope 2, a full member.
 */
TEST(mcmember_join)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff,
		[12] = 0xff, 0xff, 0xff, 0xff };
	static const uint8_t gid[16] = { 0xfe, 0x80, [8] = 0x66, 0x74,
		[15] = 0x11 };
	struct ftsw_sa_mcm m = { .join_state = FTSW_SA_JOIN_FULL }, got;
	struct ftsw_err err;
	uint8_t mad[256];
	uint16_t st;

	memcpy(m.mgid, mgid, 16);
	memcpy(m.port_gid, gid, 16);
	ftsw_sa_mcm_request(mad, TID, FTSW_SA_METHOD_SET, 0x10003, &m);
	EXPECT_EQ(1, mad[0]);
	EXPECT_EQ(0x03, mad[1]);
	EXPECT_EQ(2, mad[2]);
	EXPECT_EQ(0x02, mad[3]);		/* Set */
	EXPECT_EQ(0x08, mad[15]);		/* TID's last byte */
	EXPECT_EQ(0x38, mad[17]);		/* MCMemberRecord */
	EXPECT_EQ(7, mad[45]);			/* 52 bytes: 7 words */
	EXPECT_EQ(0x01, mad[53]);		/* ComponentMask 0x10003 */
	EXPECT_EQ(0x00, mad[54]);
	EXPECT_EQ(0x03, mad[55]);
	EXPECT_EQ(0, memcmp(mad + 56, mgid, 16));
	EXPECT_EQ(0, memcmp(mad + 72, gid, 16));
	EXPECT_EQ(0x01, mad[56 + 48]);		/* JoinState full */
	EXPECT_EQ(0, mad[56 + 36]);		/* MLID: the SA's to give */

	/* the answer: the request's bytes, the SA's fields filled in */
	mad[3] = 0x81;
	mad[56 + 32] = 0x00;
	mad[56 + 33] = 0x00;
	mad[56 + 34] = 0x0b;
	mad[56 + 35] = 0x1b;
	mad[56 + 36] = 0xc0;
	mad[56 + 38] = 0x84;
	mad[56 + 40] = 0xff;
	mad[56 + 41] = 0xff;
	mad[56 + 42] = 0x83;
	mad[56 + 44] = 0x30;			/* SL 3 */
	mad[56 + 47] = 0x00;			/* HopLimit 0 */
	mad[56 + 48] = 0x21;			/* scope 2, full */
	ASSERT_EQ(0, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_SET,
				       &got, &st, &err));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0xc000, got.mlid);
	EXPECT_EQ(0x0b1bu, got.qkey);
	EXPECT_EQ(0x84, got.mtu);
	EXPECT_EQ(0x83, got.rate);
	EXPECT_EQ(0xffff, got.pkey);
	EXPECT_EQ(3, got.sl);
	EXPECT_EQ(2, got.scope);
	EXPECT_EQ(1, got.join_state);
	EXPECT_EQ(0, memcmp(got.mgid, mgid, 16));

	/* the SA refusing (0x0200, request invalid): the status, no record */
	mad[4] = 0x02;
	ASSERT_EQ(0, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_SET,
				       &got, &st, &err));
	EXPECT_EQ(0x0200, st);
	mad[4] = 0;
	/* a DeleteResp to a Set, another TID, MLIDs, short */
	mad[3] = 0x95;
	EXPECT_EQ(-EINVAL, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_SET,
					     &got, &st, &err));
	EXPECT_EQ(0, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_DELETE,
				       &got, &st, &err));
	EXPECT_EQ(-EINVAL, ftsw_sa_mcm_parse(mad, 256, TID + 1,
					     FTSW_SA_METHOD_DELETE, &got, &st,
					     &err));
	/* a leave's answer echoes the request: MLID 0 is fine there */
	mad[56 + 36] = 0x00;
	mad[56 + 37] = 0x00;
	EXPECT_EQ(0, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_DELETE,
				       &got, &st, &err));
	/* but not a unicast one */
	mad[56 + 37] = 0x05;
	EXPECT_EQ(-EINVAL, ftsw_sa_mcm_parse(mad, 256, TID,
					     FTSW_SA_METHOD_DELETE, &got, &st,
					     &err));
	/* a join's answer with a unicast MLID is not */
	mad[3] = 0x81;
	mad[56 + 37] = 0x05;
	EXPECT_EQ(-EINVAL, ftsw_sa_mcm_parse(mad, 256, TID, FTSW_SA_METHOD_SET,
					     &got, &st, &err));
	mad[3] = 0x95;
	mad[56 + 37] = 0x00;	/* well-formed but short */
	EXPECT_EQ(-EINVAL, ftsw_sa_mcm_parse(mad, 56 + 51, TID,
					     FTSW_SA_METHOD_DELETE, &got, &st,
					     &err));
}

/*
 * The batch (ftsw_sa_mcm_batch) against a fake gateway (the simulator
 * protocol's server side, in a child): 5 requests of one client in flight
 * at once, answered in the reverse order, the first answer on the
 * long-MAD socket, after a stray answer of a TID nobody asked; each
 * answer carries MLID 0xC000 + the request's place in the batch, so
 * every request must get its own. Then the same batch with the 3rd
 * request given back (status ETIMEDOUT), and with the 5th never
 * answered.
 */
enum fake_mode { FAKE_ALL, FAKE_GIVE_BACK, FAKE_SILENT };

static int fake_sock(const char *base, const char *what, bool num)
{
	struct sockaddr_un a;
	socklen_t len = gw_sim_addr(&a, base, what, 0, num);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0)
		_exit(10);
	return fd;
}

/* A control question on ctl answered: CONNECT with slot 0, others echoed. */
static void fake_ctl(int ctl)
{
	uint8_t buf[GW_SIM_CTL_SIZE];
	struct sockaddr_un from;
	socklen_t fl = sizeof(from);
	struct gw_client_info ci;
	struct gw_ctl q;
	struct ftsw_err err;

	if (recvfrom(ctl, buf, sizeof(buf), 0, (struct sockaddr *)&from,
		     &fl) != GW_SIM_CTL_SIZE ||
	    gw_ctl_decode(buf, sizeof(buf), &q, &err) < 0)
		_exit(11);
	if (q.type == GW_CTL_CONNECT) {
		if (gw_info_decode(&q, &ci, &err) < 0)
			_exit(12);
		ci.id = 0;
		gw_info_encode(&ci, &q);
	}
	gw_ctl_encode(&q, buf);
	if (sendto(ctl, buf, sizeof(buf), 0, (struct sockaddr *)&from, fl) < 0)
		_exit(13);
}

static void fake_gw(const char *base, unsigned nreq, enum fake_mode mode,
		    int ready)
{
	int ctl = fake_sock(base, "ctl", false), out = fake_sock(base, "out", true);
	int big = fake_sock(base, "big", false);
	uint8_t buf[GW_SIM_REQ_SIZE], agent[GW_AGENT_SIZE], u[GW_UMAD_HDR + 256];
	uint8_t mads[8][256];
	struct sockaddr_un from, bigto;
	socklen_t fl = sizeof(from), bl;
	struct ftsw_err err;
	struct gw_req r;
	unsigned i;

	if (write(ready, "r", 1) != 1)	/* bound: the client may come */
		_exit(18);
	fake_ctl(ctl);
	if (recv(big, agent, sizeof(agent), 0) != GW_AGENT_SIZE)
		_exit(14);
	for (i = 0; i < nreq; i++) {
		if (recvfrom(out, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &fl) != GW_SIM_REQ_SIZE ||
		    gw_req_decode(buf, sizeof(buf), &r, &err) < 0)
			_exit(15);
		memcpy(mads[i], r.mad, 256);
	}
	/* a stray answer first: a TID nobody asked */
	r = (struct gw_req){ .dqp = 1, .sqp = 1, .length = 256 };
	memcpy(r.mad, mads[0], 256);
	r.mad[3] = 0x81;
	r.mad[15] ^= 0x80;
	gw_req_encode(&r, buf);
	sendto(out, buf, sizeof(buf), 0, (struct sockaddr *)&from, fl);
	for (i = nreq; i-- > 0;) {
		r = (struct gw_req){ .dqp = 1, .sqp = 1, .length = 256 };
		memcpy(r.mad, mads[i], 256);
		r.mad[3] = r.mad[3] == 0x15 ? 0x95 : 0x81;	/* the response */
		r.mad[56 + 36] = 0xc0;
		r.mad[56 + 37] = (uint8_t)i;
		if (mode == FAKE_SILENT && i == nreq - 1)
			continue;
		if (mode == FAKE_GIVE_BACK && i == 2)
			r.status = GW_STATUS_TIMEDOUT;
		if (i == nreq - 1) {	/* the long-MAD socket */
			struct gw_umad m = { .qpn = 1, .lid = 1, .len = 256,
					     .mad = r.mad };
			size_t n = gw_umad_encode(&m, u);

			bl = gw_sim_addr(&bigto, base, "big", (unsigned)getppid(),
					 true);
			if (sendto(big, u, n, 0, (struct sockaddr *)&bigto,
				   bl) < 0)
				_exit(16);
			continue;
		}
		gw_req_encode(&r, buf);
		if (sendto(out, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			   fl) < 0)
			_exit(17);
	}
	fake_ctl(ctl);		/* DISCONNECT */
	_exit(0);
}

static int run_batch(enum fake_mode mode, struct ftsw_sa_mcm_req *q,
		     struct ftsw_err *err)
{
	static const uint8_t gid[16] = { 0xfe, 0x80, [15] = 0x11 };
	char base[64];
	struct ftsw_sa_client c;
	int rc, st, pfd[2];
	char b;
	pid_t pid;
	unsigned i;

	snprintf(base, sizeof(base), "ftsw-satest-%d-%d", (int)getpid(), mode);
	if (pipe(pfd) < 0)
		return -4;
	pid = fork();
	if (pid == 0)
		fake_gw(base, 5, mode, pfd[1]);
	close(pfd[1]);
	rc = (int)read(pfd[0], &b, 1);	/* its sockets bound */
	close(pfd[0]);
	if (rc != 1 || ftsw_sa_open(&c, base, err)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -2;
	}
	/* the silence waited for: short; an answer: the default 10 s */
	c.timeout_ms = mode == FAKE_SILENT ? 300 : 0;
	for (i = 0; i < 5; i++) {
		q[i] = (struct ftsw_sa_mcm_req){ .c = &c, .sm_lid = 1,
			.method = i < 3 ? FTSW_SA_METHOD_SET :
					  FTSW_SA_METHOD_DELETE,
			.comp = 0x10003,
			.in = { .join_state = FTSW_SA_JOIN_FULL } };
		q[i].in.mgid[0] = 0xff;
		q[i].in.mgid[15] = (uint8_t)i;
		memcpy(q[i].in.port_gid, gid, 16);
	}
	rc = ftsw_sa_mcm_batch(q, 5, err);
	ftsw_sa_close(&c);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return -3;
	return rc;
}

TEST(mcm_batch)
{
	struct ftsw_sa_mcm_req q[5];
	struct ftsw_err err;
	unsigned i;

	ASSERT_EQ(0, run_batch(FAKE_ALL, q, &err)) TH_LOG("%s", err.msg);
	for (i = 0; i < 5; i++) {
		EXPECT_TRUE(q[i].done);
		EXPECT_EQ(0, q[i].status);
		EXPECT_EQ(0xc000 + i, q[i].out.mlid);
		EXPECT_EQ(i, q[i].out.mgid[15]);
	}
	EXPECT_EQ(-1, run_batch(FAKE_GIVE_BACK, q, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no answer from the SA"))
		TH_LOG("%s", err.msg);
	EXPECT_EQ(-1, run_batch(FAKE_SILENT, q, &err));
	EXPECT_NE(NULL, strstr(err.msg, "1 of 5 requests without an answer"))
		TH_LOG("%s", err.msg);
}

TEST_HARNESS_MAIN
