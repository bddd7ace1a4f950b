// SPDX-License-Identifier: GPL-2.0
/*
 * The gateway's wire formats (gw/simproto.h) on hand-built messages. The
 * bytes are those libumad2sim.so (ibsim-utils 0.10) was seen to send and
 * receive under strace against ibsim, and the in-band frame as
 * include/uapi/linux/ftsw.h lays it out; every malformed message is
 * refused with a reason.
 */
#include "common.h"
#include "gw/simproto.h"
#include "gw/gw_int.h"

/* A control message as umad2sim writes it (host order, little endian). */
static void ctl_bytes(uint8_t *b, uint32_t magic, uint32_t id, uint32_t type,
		      uint32_t len)
{
	memset(b, 0, GW_SIM_CTL_SIZE);
	memcpy(b, &magic, 4);
	memcpy(b + 4, &id, 4);
	memcpy(b + 8, &type, 4);
	memcpy(b + 12, &len, 4);
}

TEST(ctl_connect_decodes)
{
	/* CONNECT from pid 23404 (0x5b6c), no node, not SM: as seen */
	static const uint8_t seen[16 + 4] = {
		0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0, 1, 0, 0, 0, 0x2c, 0, 0, 0,
		0x6c, 0x5b, 0, 0,
	};
	uint8_t b[GW_SIM_CTL_SIZE] = { 0 }, out[GW_SIM_CTL_SIZE];
	struct gw_client_info ci;
	struct ftsw_err err;
	struct gw_ctl c;

	memcpy(b, seen, sizeof(seen));
	ASSERT_EQ(0, gw_ctl_decode(b, sizeof(b), &c, &err));
	EXPECT_EQ(GW_SIM_MAGIC, c.magic);
	EXPECT_EQ(GW_CTL_CONNECT, c.type);
	EXPECT_EQ(44, c.len);
	ASSERT_EQ(0, gw_info_decode(&c, &ci, &err));
	EXPECT_EQ(23404, ci.id);
	EXPECT_EQ(0, ci.qp);
	EXPECT_EQ(0, ci.issm);
	EXPECT_STREQ("", ci.nodeid);
	/* the answer: client 3 at node "H0" */
	ci.id = 3;
	strcpy(ci.nodeid, "H0");
	gw_info_encode(&ci, &c);
	gw_ctl_encode(&c, out);
	EXPECT_EQ(3, out[16]);
	EXPECT_EQ('H', out[28]);
	EXPECT_EQ('0', out[29]);
	EXPECT_EQ(0, out[30]);
	EXPECT_EQ(0, memcmp(out, b, 16));
}

TEST(ctl_refusals)
{
	uint8_t b[GW_SIM_CTL_SIZE + 1];
	struct gw_client_info ci;
	struct ftsw_err err;
	struct gw_ctl c;

	ctl_bytes(b, GW_SIM_MAGIC, 0, GW_CTL_GET_NODEINFO, 64);
	EXPECT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE - 1, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "79 bytes"));
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE + 1, &c, &err));
	ctl_bytes(b, 0xdeadbeee, 0, GW_CTL_GET_NODEINFO, 64);
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "magic"));
	ctl_bytes(b, GW_SIM_MAGIC, 0, GW_CTL_ERROR, 0);
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	ctl_bytes(b, GW_SIM_MAGIC, 0, 11, 0);
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "type 11"));
	ctl_bytes(b, GW_SIM_MAGIC, 0, GW_CTL_GET_PORT, 65);
	EXPECT_EQ(-EINVAL, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	/* CONNECT: wrong length, unterminated or unprintable name, qp 2 */
	ctl_bytes(b, GW_SIM_MAGIC, 0, GW_CTL_CONNECT, 43);
	ASSERT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(-EINVAL, gw_info_decode(&c, &ci, &err));
	ctl_bytes(b, GW_SIM_MAGIC, 0, GW_CTL_CONNECT, 44);
	memset(b + 28, 'a', 32);
	ASSERT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(-EINVAL, gw_info_decode(&c, &ci, &err));
	EXPECT_NE(NULL, strstr(err.msg, "not terminated"));
	b[59] = 0;
	ASSERT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(0, gw_info_decode(&c, &ci, &err));
	EXPECT_EQ(31, strlen(ci.nodeid));
	b[28] = '\n';
	ASSERT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(-EINVAL, gw_info_decode(&c, &ci, &err));
	b[28] = 'a';
	b[20] = 2;	/* qp */
	ASSERT_EQ(0, gw_ctl_decode(b, GW_SIM_CTL_SIZE, &c, &err));
	EXPECT_EQ(-EINVAL, gw_info_decode(&c, &ci, &err));
}

/*
 * A control message for a slot is the slot's tool's only if it comes from
 * "\0BASE:ctlPID" (libumad2sim binds that name, NUL counted): another
 * process cannot disconnect OpenSM's slot or reconnect as its pid.
 */
TEST(ctl_sender_is_own_socket)
{
	static const char own[] = "\0ftsw:ctl4242";	/* + its NUL */

	EXPECT_TRUE(gw_ctl_sender_is("ftsw", 4242, own, sizeof(own)));
	EXPECT_TRUE(gw_ctl_sender_is("ftsw", 4242, own, sizeof(own) - 1));
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 424, own, sizeof(own)));
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 42420, own, sizeof(own)));
	EXPECT_FALSE(gw_ctl_sender_is("diag", 4242, own, sizeof(own)));
	/* a prefix, an unnamed socket, a path name, a longer name */
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 4242, own, sizeof(own) - 2));
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 4242, own, 0));
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 4242, "/ftsw:ctl4242",
				      sizeof("/ftsw:ctl4242")));
	EXPECT_FALSE(gw_ctl_sender_is("ftsw", 4242, "\0ftsw:ctl4242x",
				      sizeof("\0ftsw:ctl4242x")));
}

/* The smpquery nodeinfo datagram as seen: DR SMP Get NodeInfo, hop 0. */
static void seen_request(uint8_t *b)
{
	static const uint8_t head[52] = {
		0xff, 0xff, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x20, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
		0x01, 0x81, 0x01, 0x01, 0, 0, 0, 0,
		0, 0, 0, 0x01, 0x53, 0x73, 0x47, 0x5c, 0, 0x11, 0, 0,
	};

	memset(b, 0, GW_SIM_REQ_SIZE);
	memcpy(b, head, sizeof(head));
	memset(b + 64, 0xff, 4);	/* DrSLID, DrDLID */
}

TEST(request_decodes)
{
	uint8_t b[GW_SIM_REQ_SIZE], out[GW_SIM_REQ_SIZE];
	struct ftsw_err err;
	struct gw_req r;

	seen_request(b);
	ASSERT_EQ(0, gw_req_decode(b, sizeof(b), &r, &err));
	EXPECT_EQ(0xffff, r.dlid);
	EXPECT_EQ(0xffff, r.slid);
	EXPECT_EQ(0, r.dqp);
	EXPECT_EQ(0, r.sqp);
	EXPECT_EQ(256, r.length);
	EXPECT_EQ(0x81, gw_mad_class(r.mad));
	EXPECT_EQ(0x000000015373475cull, gw_mad_tid(r.mad));
	EXPECT_EQ(GW_ATTR_NODE_INFO, gw_mad_attr(r.mad));
	/* a LID-routed GMP to LID 0x0102, QP1: the umad address' bytes */
	b[0] = 0x01; b[1] = 0x02; b[4] = 0; b[5] = 0;
	b[11] = 1; b[15] = 1;
	b[33] = 0x04;	/* PerfMgt */
	ASSERT_EQ(0, gw_req_decode(b, sizeof(b), &r, &err));
	EXPECT_EQ(0x0102, r.dlid);
	EXPECT_EQ(1, r.dqp);
	EXPECT_EQ(1, r.sqp);
	/* encoded back: same bytes but the padding */
	gw_req_encode(&r, out);
	b[20] = b[21] = 0;
	EXPECT_EQ(0, memcmp(b, out, sizeof(b)));
}

TEST(request_refusals)
{
	uint8_t b[GW_SIM_REQ_SIZE + 1];
	struct ftsw_err err;
	struct gw_req r;

	seen_request(b);
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE - 1, &r, &err));
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE + 1, &r, &err));
	b[11] = 2;	/* QP2 */
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "QP"));
	seen_request(b);
	b[11] = 1;	/* an SMP on QP1 */
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE, &r, &err));
	seen_request(b);
	b[32] = 2;	/* base version */
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "base version 2"));
	seen_request(b);
	b[30] = 1; b[31] = 1;	/* length 257 */
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE, &r, &err));
	seen_request(b);
	b[2] = 1;	/* a LID word past 16 bits */
	EXPECT_EQ(-EINVAL, gw_req_decode(b, GW_SIM_REQ_SIZE, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "past 16 bits"));
}

TEST(response_to_client_encodes)
{
	struct gw_req r = { .dlid = 7, .slid = 0x0105, .dqp = 1, .sqp = 1,
			    .length = 256 };
	uint8_t out[GW_SIM_REQ_SIZE];

	gw_req_encode(&r, out);
	/* umad2sim takes addr.lid = slid word, addr.qpn = sqp word */
	EXPECT_EQ(0x01, out[4]);
	EXPECT_EQ(0x05, out[5]);
	EXPECT_EQ(0, out[6]);
	EXPECT_EQ(1, out[15]);
	EXPECT_EQ(1, out[30]);	/* be64 256 */
	EXPECT_EQ(0, out[31]);
}

TEST(frame_round_trip)
{
	uint8_t b[GW_FRAME_SIZE + 4] = { 0 }, out[GW_FRAME_SIZE];
	struct ftsw_err err;
	struct gw_frame f;

	b[0] = 0x01; b[1] = 0x02;	/* dlid */
	b[2] = 0x00; b[3] = 0x09;	/* slid */
	b[7] = 1; b[11] = 1;		/* QP1 -> QP1 */
	b[12] = 3;			/* sl */
	b[14] = b[15] = 0xff;		/* pkey */
	b[16] = 1; b[17] = 0x03; b[18] = 2; b[19] = 0x81;	/* SA GetResp */
	ASSERT_EQ(0, gw_frame_decode(b, sizeof(b), &f, &err));	/* padded */
	EXPECT_EQ(0x0102, f.dlid);
	EXPECT_EQ(9, f.slid);
	EXPECT_EQ(1, f.dqpn);
	EXPECT_EQ(3, f.sl);
	EXPECT_EQ(0xffff, f.pkey);
	EXPECT_TRUE(gw_mad_is_response(f.mad));
	gw_frame_encode(&f, out);
	EXPECT_EQ(0, memcmp(b, out, sizeof(out)));
	EXPECT_EQ(-EINVAL, gw_frame_decode(b, GW_FRAME_SIZE - 1, &f, &err));
	b[17] = 0x81;	/* DR SMP on QP1 */
	EXPECT_EQ(-EINVAL, gw_frame_decode(b, sizeof(b), &f, &err));
	b[7] = 0; b[11] = 3;
	EXPECT_EQ(-EINVAL, gw_frame_decode(b, sizeof(b), &f, &err));
}

TEST(own_port_smp)
{
	uint8_t m[GW_MAD_SIZE];
	struct ftsw_err err;

	gw_smp_hop0_get(m, GW_ATTR_PORT_INFO, 1, 0x6674000000000007ull);
	EXPECT_EQ(1, m[0]);
	EXPECT_EQ(0x81, m[1]);
	EXPECT_EQ(1, m[2]);
	EXPECT_EQ(1, m[3]);
	EXPECT_EQ(0, m[6]);	/* hop pointer */
	EXPECT_EQ(0, m[7]);	/* hop count */
	EXPECT_EQ(0x66, m[8]);
	EXPECT_EQ(0x07, m[15]);
	EXPECT_EQ(0x00, m[16]);
	EXPECT_EQ(0x15, m[17]);
	EXPECT_EQ(1, m[23]);
	EXPECT_EQ(0xff, m[32]);
	EXPECT_EQ(0xff, m[35]);
	/* the answer: GetResp, D bit set, status 0 */
	m[3] = 0x81;
	m[4] = 0x80;
	EXPECT_EQ(0, gw_smp_check_resp(m, GW_ATTR_PORT_INFO,
				       0x6674000000000007ull, &err));
	EXPECT_EQ(-EINVAL, gw_smp_check_resp(m, GW_ATTR_NODE_INFO,
					     0x6674000000000007ull, &err));
	EXPECT_EQ(-EINVAL, gw_smp_check_resp(m, GW_ATTR_PORT_INFO, 8, &err));
	m[5] = 0x0c;	/* unsupported attribute */
	EXPECT_EQ(-EINVAL, gw_smp_check_resp(m, GW_ATTR_PORT_INFO,
					     0x6674000000000007ull, &err));
	EXPECT_NE(NULL, strstr(err.msg, "0x000c"));
}

TEST(tids_route_responses)
{
	static struct gw_tids t;
	uint64_t a, b, orig = 0;
	uint32_t gen = 0, i;

	a = gw_tid_out(&t, 1, 5, 0x1234, 1000);
	b = gw_tid_out(&t, 2, 0, 0x1234, 1000);	/* same TID, two clients */
	EXPECT_NE(a, b);
	EXPECT_EQ(1, gw_tid_in(&t, a, 2000, &orig, &gen));
	EXPECT_EQ(0x1234, orig);
	EXPECT_EQ(5, gen);
	EXPECT_EQ(2, gw_tid_in(&t, b, 2000, &orig, &gen));
	EXPECT_EQ(0, gw_tid_in(&t, 0x1234, 2000, &orig, &gen));
	EXPECT_EQ(0, gw_tid_in(&t, a ^ 1ull << 40, 2000, &orig, &gen));
	/* forgotten after the TTL */
	EXPECT_EQ(0, gw_tid_in(&t, a, 1000 + GW_TID_TTL_US + 1, &orig, &gen));
	/* and once its slot is reused */
	for (i = 0; i < GW_TIDS; i++)
		gw_tid_out(&t, 3, 0, i, 3000);
	EXPECT_EQ(0, gw_tid_in(&t, a, 3000, &orig, &gen));
	EXPECT_EQ(0, gw_tid_in(&t, b, 3000, &orig, &gen));
}

/* A request kept until its response or its due time (the MAD layer's
 * timeout libumad2sim lacks); a forgotten TID matches nothing. */
/* What a client sends keeps its TID only as an answer: a response, or a
 * TrapRepress (the trap's TID, which the switch's SMA matches). */
TEST(trap_repress_keeps_tid)
{
	uint8_t mad[GW_MAD_SIZE] = { 1, 0x01, 1, 0x07 };

	EXPECT_TRUE(gw_mad_keeps_tid(mad));	/* TrapRepress */
	EXPECT_FALSE(gw_mad_wants_response(mad));
	mad[3] = 0x05;				/* Trap */
	EXPECT_FALSE(gw_mad_keeps_tid(mad));
	mad[3] = 0x01;				/* Get */
	EXPECT_FALSE(gw_mad_keeps_tid(mad));
	mad[3] = 0x81;				/* GetResp */
	EXPECT_TRUE(gw_mad_keeps_tid(mad));
}

TEST(requests_wait_and_time_out)
{
	static struct gw_pends p;
	static struct gw_tids t;
	struct gw_frame f = { .dlid = 0xffff };
	uint64_t tid1, tid2, orig, x = 0;
	struct gw_pend *e;
	uint32_t gen, i;

	/* which methods wait for a response (IBA 13.4.5) */
	f.mad[3] = 0x01;
	EXPECT_TRUE(gw_mad_wants_response(f.mad));	/* Get */
	f.mad[3] = 0x12;
	EXPECT_TRUE(gw_mad_wants_response(f.mad));	/* GetTable */
	f.mad[3] = 0x03;
	EXPECT_FALSE(gw_mad_wants_response(f.mad));	/* Send */
	f.mad[3] = 0x07;
	EXPECT_FALSE(gw_mad_wants_response(f.mad));	/* TrapRepress */
	f.mad[3] = 0x81;
	EXPECT_FALSE(gw_mad_wants_response(f.mad));	/* GetResp */

	EXPECT_EQ(UINT64_MAX, gw_pend_next(&p));
	EXPECT_EQ(NULL, gw_pend_due(&p, 1u << 30));
	tid1 = gw_tid_out(&t, 1, 0, 0x11, 0);
	gw_mad_set_tid(f.mad, tid1);
	ASSERT_EQ(0, gw_pend_add(&p, 0, 0, &f, 5000));
	tid2 = gw_tid_out(&t, 2, 7, 0x22, 0);
	gw_mad_set_tid(f.mad, tid2);
	ASSERT_EQ(0, gw_pend_add(&p, 1, 7, &f, 3000));
	EXPECT_EQ(3000, gw_pend_next(&p));
	EXPECT_EQ(NULL, gw_pend_due(&p, 2999));
	e = gw_pend_due(&p, 3000);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(tid2, e->tid);
	EXPECT_EQ(1, e->client);
	EXPECT_EQ(7, e->gen);
	EXPECT_EQ(1, e->sent);
	EXPECT_EQ(tid2, gw_mad_tid(e->f.mad));
	e->due_us = 9000;		/* sent again */
	EXPECT_EQ(5000, gw_pend_next(&p));
	/* tid1's response comes: nothing of it is due any more */
	EXPECT_TRUE(gw_pend_done(&p, tid1));
	EXPECT_FALSE(gw_pend_done(&p, tid1));
	EXPECT_EQ(9000, gw_pend_next(&p));
	/* tid2 times out: its TID is forgotten, a late response is lost */
	EXPECT_EQ(2, gw_tid_in(&t, tid2, 10, &orig, &gen));
	EXPECT_EQ(0x22, orig);
	gw_tid_forget(&t, tid2);
	EXPECT_EQ(0, gw_tid_in(&t, tid2, 10, &orig, &gen));
	EXPECT_TRUE(gw_pend_done(&p, tid2));
	EXPECT_EQ(UINT64_MAX, gw_pend_next(&p));
	/* bounded: GW_PENDING requests, then ENOSPC */
	for (i = 0; i < GW_PENDING; i++) {
		gw_mad_set_tid(f.mad, gw_tid_out(&t, 1, 0, i, 0));
		ASSERT_EQ(0, gw_pend_add(&p, 0, 0, &f, 100 + i));
	}
	gw_mad_set_tid(f.mad, gw_tid_out(&t, 1, 0, x, 0));
	EXPECT_EQ(-ENOSPC, gw_pend_add(&p, 0, 0, &f, 1));
	EXPECT_EQ(100, gw_pend_next(&p));
}

/* Agent registrations (simproto.h, section 4), bytes by hand. */
TEST(agent_registrations)
{
	uint8_t m[GW_AGENT_SIZE] = { 'f', 't', 's', 'w', '-', 'a', 'g', 't',
				     1, 0x32, 1, 1 };
	uint8_t out[GW_AGENT_SIZE];
	struct ftsw_err err;
	struct gw_agent a;

	memcpy(m + 12, &(uint32_t){ 5 }, 4);
	ASSERT_EQ(0, gw_agent_decode(m, sizeof(m), &a, &err));
	EXPECT_EQ(GW_AGENT_REGISTER, a.op);
	EXPECT_EQ(0x32, a.mgmt_class);		/* ibping's vendor class */
	EXPECT_EQ(1, a.class_version);
	EXPECT_EQ(1, a.qpn);
	EXPECT_EQ(5u, a.id);
	gw_agent_encode(&a, out);
	EXPECT_EQ(0, memcmp(out, m, sizeof(m)));
	/* one byte short, a wrong magic, op 0 and 4 */
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m) - 1, &a, &err));
	m[0] = 'F';
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	m[0] = 'f';
	m[8] = 0;
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	m[8] = 4;
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	/* an SMP class on QP1, a GMP class on QP0, class 0, id 1024 */
	m[8] = 1;
	m[9] = 0x81;
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	m[11] = 0;
	EXPECT_EQ(0, gw_agent_decode(m, sizeof(m), &a, &err));
	m[9] = 0x04;
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	m[9] = 0;
	m[11] = 1;
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	m[9] = 0x03;
	memcpy(m + 12, &(uint32_t){ GW_AGENT_MAX_ID }, 4);
	EXPECT_EQ(-EINVAL, gw_agent_decode(m, sizeof(m), &a, &err));
	/* "serves no class": nothing else looked at */
	m[8] = GW_AGENT_NONE;
	EXPECT_EQ(0, gw_agent_decode(m, sizeof(m), &a, &err));
}

/* Linux's answer to a Get or Set no agent takes: GetResp, 0x0C. */
TEST(unmatched_requests)
{
	uint8_t mad[GW_MAD_SIZE] = { 1, 0x32, 1, 0x01 }, was[GW_MAD_SIZE];

	mad[16] = 0x12;
	mad[31] = 0x77;
	memcpy(was, mad, sizeof(mad));
	ASSERT_TRUE(gw_mad_unmatched_resp(mad));
	EXPECT_EQ(0x81, mad[3]);
	EXPECT_EQ(0x00, mad[4]);
	EXPECT_EQ(0x0c, mad[5]);
	EXPECT_EQ(0, memcmp(mad + 6, was + 6, sizeof(mad) - 6));
	/* a directed-route SMP Set: the direction bit too */
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = 0x81;
	mad[2] = 1;
	mad[3] = 0x02;
	ASSERT_TRUE(gw_mad_unmatched_resp(mad));
	EXPECT_EQ(0x81, mad[3]);
	EXPECT_EQ(0x80, mad[4]);
	EXPECT_EQ(0x0c, mad[5]);
	/* Send, Trap, GetTable: not answered, not changed */
	mad[3] = 0x03;
	memcpy(was, mad, sizeof(mad));
	EXPECT_FALSE(gw_mad_unmatched_resp(mad));
	mad[3] = 0x05;
	EXPECT_FALSE(gw_mad_unmatched_resp(mad));
	mad[3] = 0x12;
	EXPECT_FALSE(gw_mad_unmatched_resp(mad));
	mad[3] = 0x03;
	EXPECT_EQ(0, memcmp(mad, was, sizeof(mad)));
}

/*
 * Which client a request from the fabric goes to: OpenSM (the SM, its
 * agents told: 0x01, 0x81, 0x03, 0x04, 0x21), an ibping server (0x32),
 * the lab's SA client (serves nothing), a tool without libftsw-umad.so.
 */
TEST(requests_go_to_their_agent)
{
	static struct gw g;
	struct ftsw_gw_opts o = { 0 };
	uint8_t m[GW_AGENT_SIZE];
	struct gw_agent a;
	const uint8_t osm[] = { 0x01, 0x81, 0x03, 0x04, 0x21 };
	unsigned i;

	g.o = &o;
	g.log = fopen("/dev/null", "w");
	ASSERT_NE(NULL, g.log);
	for (i = 0; i < 4; i++)
		g.cl[i].used = true;
	g.cl[0].issm = true;
	for (i = 0; i < sizeof(osm); i++) {
		a = (struct gw_agent){ GW_AGENT_REGISTER, osm[i], 1,
				       osm[i] == 0x01 || osm[i] == 0x81 ? 0 : 1,
				       i };
		gw_agent_encode(&a, m);
		gw_on_agent(&g, 0, m, sizeof(m));
	}
	a = (struct gw_agent){ GW_AGENT_REGISTER, 0x32, 1, 1, 0 };
	gw_agent_encode(&a, m);
	gw_on_agent(&g, 1, m, sizeof(m));
	a = (struct gw_agent){ .op = GW_AGENT_NONE };
	gw_agent_encode(&a, m);
	gw_on_agent(&g, 2, m, sizeof(m));
	/* client 3 told nothing: the older rule, but the SM is known */
	EXPECT_EQ(0, gw_request_client(&g, 0x03));	/* SA: OpenSM */
	EXPECT_EQ(0, gw_request_client(&g, 0x81));
	EXPECT_EQ(1, gw_request_client(&g, 0x32));	/* ibping */
	EXPECT_EQ(3, gw_request_client(&g, 0x33));	/* the only untold */
	g.cl[3].used = false;
	EXPECT_EQ(-1, gw_request_client(&g, 0x33));	/* nobody: 0x0C */
	EXPECT_EQ(-1, gw_request_client(&g, 0x0a));
	/* the ibping server unregisters; a bad datagram changes nothing */
	a = (struct gw_agent){ GW_AGENT_UNREGISTER, 0x32, 1, 1, 0 };
	gw_agent_encode(&a, m);
	m[11] = 0;
	gw_on_agent(&g, 1, m, sizeof(m));
	EXPECT_EQ(1, gw_request_client(&g, 0x32));
	m[11] = 1;
	gw_on_agent(&g, 1, m, sizeof(m));
	EXPECT_EQ(-1, gw_request_client(&g, 0x32));
	/* without registrations anywhere: the SM, else the only client */
	memset(g.cl, 0, sizeof(g.cl));
	g.cl[5].used = g.cl[5].issm = true;
	g.cl[6].used = true;
	EXPECT_EQ(5, gw_request_client(&g, 0x32));
	g.cl[5].used = false;
	EXPECT_EQ(6, gw_request_client(&g, 0x32));
	fclose(g.log);
}

TEST_HARNESS_MAIN
