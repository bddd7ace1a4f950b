// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: a seeded, reproducible hostile generic netlink campaign against
 * the "ftsw" family (selftest 95 runs it briefly, `make fuzz-netlink` long).
 *
 *   nlfuzz --seed S --count N [--first I] [--dev DEV]... [--foreign IFINDEX]...
 *          [--no-admin] [--churn] [--batch B] [--trace] [--hex]
 *
 * The campaign is a sequence of units numbered from 0. Unit I draws every
 * random number from its own generator, seeded by (S, I) alone, and never
 * from what the kernel answered: the same seed gives the same messages,
 * and units I..J can be replayed on their own with --first I --count J-I+1
 * (--trace prints each unit's class and answer, --hex its bytes).
 *
 * A unit is one of:
 *   - valid set-up (switches, ports bound to DEVs, LFT blocks, commits,
 *     SL2VL, port changes, address plans) so that the deep paths run;
 *   - a hostile request of one mutation class (see enum cls): unknown
 *     command numbers, wrong-length, truncated, wrongly nested, duplicated,
 *     unknown-type attributes, huge values, out-of-range LFT blocks and
 *     ports, foreign, vanished or never-existing ifindexes, odd header
 *     fields, the dump flag on any command;
 *   - a dump read a datagram at a time on a socket of its own with
 *     deletes, resets and table writes in between, some abandoned half way;
 *   - with --churn, one of the campaign's own veth pairs deleted and made
 *     anew (rtnetlink), so bound ports lose their device and the old
 *     ifindexes vanish.
 * Single-message units are sent in batches of B requests per sendmsg (each
 * asks for an ack; every answer is read, matched by sequence number). A
 * request left unanswered for 60 s, a header the genl core must refuse
 * (reserved field, stray nlmsg_flags) not refused with EINVAL, an
 * unprivileged mutation with a good header not refused with EPERM, or a
 * dump that never ends fails the run. Prints a
 * summary (units, messages and answers per class); exit 1 on failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <linux/ftsw.h>
#include "fuzzrng.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

#define MSG_MAX		(70 * 1024)	/* one request, at most */
#define BATCH_BYTES	(190 * 1024)	/* below the default socket sndbuf */
#define BATCH_MAX	256
#define TIMEOUT_MS	60000
#define NSW		5		/* switch ids 1..5 take the set-up */
#define NCHURN		2		/* veth pairs of our own (--churn) */

/* ---------------------------------------------------------------- classes */

enum cls {
	C_VALID,		/* well-formed set-up */
	C_UNKNOWN_CMD,		/* command 0, above FTSW_CMD_MAX, up to 255 */
	C_WRONG_LEN,		/* a known attribute with the wrong length */
	C_TRUNCATED,		/* last attribute runs past the message */
	C_SHORT_NLA,		/* attribute length below its own header */
	C_NESTED,		/* NLA_F_NESTED on a scalar, nests of junk */
	C_DUPLICATE,		/* the same attribute twice, differing */
	C_UNKNOWN_ATTR,		/* attribute types the family does not know */
	C_HUGE,			/* all-ones values, 60 KB blobs, long names */
	C_LFT_RANGE,		/* blocks past LID 0xBFFF, ports > nports */
	C_PORT_RANGE,		/* port 0, 255, above the switch's count */
	C_IFINDEX,		/* foreign, vanished, never existed, 0, ~0 */
	C_HEADER,		/* genl version/reserved, nlmsg flags, junk */
	C_DUMP_FLAG,		/* NLM_F_DUMP on any command */
	C_MIXED,		/* random attributes of every sort */
	C_DUMP,			/* dump with changes in between */
	C_CHURN,		/* our own veth deleted and made anew */
	NCLS
};

static const char *const cls_name[NCLS] = {
	"valid set-up", "unknown command", "wrong length", "truncated attribute",
	"attribute below header", "wrongly nested", "duplicate attribute",
	"unknown attribute type", "huge values", "out-of-range LFT block",
	"out-of-range port", "foreign/vanished ifindex", "odd header fields",
	"dump flag on any command", "mixed random attributes",
	"dump with changes", "device churn",
};

/* ---------------------------------------------------------------- state */

static uint64_t seed = 1;
static uint64_t first_unit, nunits = 1000;
static bool no_admin, churn, trace, hexdump, dry;
static uint64_t digest;			/* XOR of every unit's hash */
static unsigned int batch_max = 32;
static int ifx[64], nifx;		/* ifindexes of --dev */
static int foreign[16], nforeign;	/* --foreign */
static int vanished[256], nvanished;	/* ifindexes churn deleted */
static int churn_idx[NCHURN][2];	/* current ifindexes of our veths */
static uint16_t fam;
static int sk;				/* the campaign's socket */
static uint32_t seqno = 1;

static uint64_t units_by[NCLS], msgs_by[NCLS], ok_by[NCLS], eperm_by[NCLS];
static uint64_t err_by[NCLS], lost_by[NCLS];
static uint64_t cmd_seen[256], errno_seen[256];
static uint64_t messages, dumps, abandoned, dump_datagrams, enobufs;
static unsigned int failures;

/* A failure of unit @u (or of the whole run when @u is ~0). */
static void fail(uint64_t u, const char *fmt, ...)
{
	va_list ap;

	printf("# FAIL ");
	if (u != ~0ULL)
		printf("unit %" PRIu64 ": ", u);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (u != ~0ULL)
		printf(" (replay: --seed %" PRIu64 " --first %" PRIu64 " --count 1 --trace,"
		       " or --first 0 --count %" PRIu64 ")", seed, u, u + 1);
	printf("\n");
	failures++;
}

static void die(const char *what)
{
	fprintf(stderr, "nlfuzz: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---------------------------------------------------------------- builder */

struct msg {
	uint8_t *buf;
	size_t len;		/* bytes so far, nlmsghdr included */
};

static struct nlmsghdr *msg_hdr(struct msg *m)
{
	return (struct nlmsghdr *)m->buf;
}

static void put(struct msg *m, const void *p, size_t n)
{
	if (m->len + n > MSG_MAX)
		n = MSG_MAX - m->len;
	memcpy(m->buf + m->len, p, n);
	m->len += n;
}

static void pad(struct msg *m)
{
	while (m->len % 4 && m->len < MSG_MAX)
		m->buf[m->len++] = 0;
}

/* An attribute; the declared length is the real one unless @declared. */
static void attr_len(struct msg *m, uint16_t type, const void *p, size_t n,
		     int declared)
{
	struct nlattr a;

	/* A message is at most MSG_MAX bytes: cut the payload to fit. */
	if (m->len + NLA_HDRLEN + 4 > MSG_MAX)
		return;
	if (n > MSG_MAX - m->len - NLA_HDRLEN - 4)
		n = MSG_MAX - m->len - NLA_HDRLEN - 4;
	a.nla_len = declared >= 0 ? (uint16_t)declared : (uint16_t)(NLA_HDRLEN + n);
	a.nla_type = type;
	put(m, &a, sizeof(a));
	put(m, p, n);
	pad(m);
}

static void attr(struct msg *m, uint16_t type, const void *p, size_t n)
{
	attr_len(m, type, p, n, -1);
}

static void a_u8(struct msg *m, uint16_t t, uint8_t v) { attr(m, t, &v, 1); }
static void a_u16(struct msg *m, uint16_t t, uint16_t v) { attr(m, t, &v, 2); }
static void a_u32(struct msg *m, uint16_t t, uint32_t v) { attr(m, t, &v, 4); }
static void a_flag(struct msg *m, uint16_t t) { attr(m, t, NULL, 0); }

/* Start a request of the family: nlmsghdr + genlmsghdr. */
static void begin(struct msg *m, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_type = fam, .nlmsg_flags = flags };
	struct genlmsghdr g = { .cmd = cmd, .version = FTSW_GENL_VERSION };

	m->len = 0;
	put(m, &h, sizeof(h));
	put(m, &g, sizeof(g));
}

static void finish(struct msg *m)
{
	msg_hdr(m)->nlmsg_len = (uint32_t)m->len;
}

/* ---------------------------------------------------------------- values */

static const uint32_t edge32[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0xbfff, 0xc000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
};

static uint32_t any_swid(struct rng *r)
{
	static const uint32_t odd[] = { 0, 6, 0x7fffffff, 0xffffffff, 16384, 16385 };

	if (pct(r, 80))
		return 1 + rnd(r, NSW);
	return pct(r, 50) ? PICK(r, odd) : (uint32_t)rnd64(r);
}

static int any_ifindex(struct rng *r)
{
	uint32_t k = rnd(r, 100);

	if (k < 70 && nifx)
		return ifx[rnd(r, nifx)];
	if (k < 78 && nforeign)
		return foreign[rnd(r, nforeign)];
	if (k < 88 && nvanished)
		return vanished[rnd(r, nvanished)];
	if (k < 93)
		return (int)PICK(r, edge32);
	return 1 + (int)rnd(r, 5000);		/* never existed (mostly) */
}

static int live_ifindex(struct rng *r)
{
	if (!nifx)
		return any_ifindex(r);
	return ifx[rnd(r, nifx)];
}

/* An LFT block: ports 0..4 and 255 of a 4-port switch. */
static void lft_data(struct rng *r, uint8_t *d, uint32_t n, uint8_t maxport)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = rnd(r, 8);

		d[i] = k == 7 ? 255 : (uint8_t)(k % (maxport + 1u));
	}
}

static uint8_t scratch[MSG_MAX];

/* ---------------------------------------------------------------- valid */

/*
 * An edge port's multicast groups (PORT_MCAST, struct ftsw_mcast_ent[]):
 * up to 4 well-formed entries (an IPv6 or IPv4-mapped group, an MLID
 * 0xC000..0xFFFE, a valid P_Key, SL 0..15, zero padding), sometimes with
 * one broken as include/uapi/linux/ftsw.h forbids: a unicast MLID or
 * 0xFFFF, P_Key 0 or 0x8000, SL past 15, padding set, a unicast group, a
 * group twice; or more than FTSW_MCAST_MAX entries, or a length no whole
 * number of entries. True when broken: the kernel must refuse it.
 */
static bool mcast_attr(struct rng *r, struct msg *m)
{
	struct ftsw_mcast_ent *e = (struct ftsw_mcast_ent *)scratch;
	uint32_t n = pct(r, 5) ? FTSW_MCAST_MAX + 1 + rnd(r, 3) : rnd(r, 5);
	size_t len = n * sizeof(*e);
	bool bad = n > FTSW_MCAST_MAX;

	memset(e, 0, len);
	for (uint32_t i = 0; i < n; i++) {
		if (pct(r, 50)) {
			e[i].group[0] = 0xff;
			e[i].group[1] = (uint8_t)(0x10 | rnd(r, 16));
		} else {
			e[i].group[10] = e[i].group[11] = 0xff;
			e[i].group[12] = (uint8_t)(224 + rnd(r, 16));
		}
		e[i].group[15] = (uint8_t)i;	/* each group once */
		e[i].mlid = htons((uint16_t)(0xc000 + rnd(r, 0x3fff)));
		e[i].pkey = htons(pct(r, 70) ? 0xffff : (uint16_t)(1 + rnd(r, 0xfffe)));
		if (!(ntohs(e[i].pkey) & 0x7fff))
			e[i].pkey = htons(0x7fff);
		e[i].sl = (uint8_t)rnd(r, 16);
	}
	if (n && n <= FTSW_MCAST_MAX && pct(r, 30)) {
		struct ftsw_mcast_ent *x = &e[rnd(r, n)];

		bad = true;
		switch (rnd(r, 7)) {
		case 0:
			x->mlid = htons((uint16_t)PICK(r, ((const uint32_t[]){
				0, 1, 0xbfff, 0xffff })));
			break;
		case 1:
			x->pkey = htons(pct(r, 50) ? 0 : 0x8000);
			break;
		case 2:
			x->sl = (uint8_t)(16 + rnd(r, 240));
			break;
		case 3:
			x->pad[rnd(r, 3)] = (uint8_t)(1 + rnd(r, 255));
			break;
		case 4:		/* a unicast IPv6 group */
			x->group[0] = (uint8_t)(1 + rnd(r, 0xfe));
			break;
		case 5:		/* a unicast IPv4-mapped group */
			memset(x->group, 0, 16);
			x->group[10] = x->group[11] = 0xff;
			x->group[12] = (uint8_t)PICK(r, ((const uint32_t[]){
				10, 192, 223, 240 }));
			break;
		default:
			if (n < 2) {
				x->mlid = 0;
				break;
			}
			memcpy(e[0].group, e[1].group, 16);
			break;
		}
	}
	if (pct(r, 5)) {
		len += 1 + rnd(r, sizeof(*e) - 1);
		bad = true;
	}
	attr(m, FTSW_ATTR_PORT_MCAST, scratch, len);
	return bad;
}

/* Set by valid(): its request carries a table the kernel must refuse. */
static bool valid_must_fail;
/* Taken by queue() for the request it queues. */
static bool queue_must_fail;

/* A well-formed request that drives the deep paths; returns its command. */
static uint8_t valid(struct rng *r, struct msg *m, uint16_t flags)
{
	uint32_t k = rnd(r, 100), s = 1 + rnd(r, NSW);
	uint8_t cmd;

	if (k < 14) {
		begin(m, cmd = FTSW_CMD_SWITCH_NEW, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u8(m, FTSW_ATTR_SWITCH_NPORTS, PICK(r, ((const uint8_t[]){ 4, 4, 8, 254 })));
		if (pct(r, 50)) {
			char name[16];

			snprintf(name, sizeof(name), "sw%u", s);
			attr(m, FTSW_ATTR_SWITCH_NAME, name, strlen(name) + 1);
		}
		if (pct(r, 30))
			a_u16(m, FTSW_ATTR_SWITCH_LID, (uint16_t)(1 + rnd(r, FTSW_MAX_LID)));
		if (pct(r, 20)) {
			uint64_t g = rnd64(r);

			attr(m, FTSW_ATTR_SWITCH_GUID, &g, 8);
		}
	} else if (k < 19) {
		begin(m, cmd = FTSW_CMD_SWITCH_DEL, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
	} else if (k < 38) {
		bool edge = pct(r, 50);

		begin(m, cmd = FTSW_CMD_PORT_BIND, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
		a_u32(m, FTSW_ATTR_PORT_IFINDEX, (uint32_t)live_ifindex(r));
		a_u8(m, FTSW_ATTR_PORT_KIND, edge ? FTSW_PORT_EDGE : FTSW_PORT_LINK);
		if (pct(r, 20))
			a_u8(m, FTSW_ATTR_PORT_ADMIN_UP, (uint8_t)rnd(r, 2));
		if (edge) {
			uint8_t lmc = (uint8_t)rnd(r, 3);

			a_u16(m, FTSW_ATTR_PORT_BASE_LID, (uint16_t)((1 + rnd(r, 255)) << lmc));
			a_u8(m, FTSW_ATTR_PORT_LMC, lmc);
			if (pct(r, 30)) {
				uint32_t n = 1 + rnd(r, 1u << lmc);

				for (uint32_t i = 0; i < n; i++)
					scratch[i] = (uint8_t)rnd(r, 1u << lmc);
				attr(m, FTSW_ATTR_PORT_OFFSETS, scratch, n);
			}
			if (pct(r, 20)) {
				uint32_t n = rnd(r, 3000);

				for (uint32_t i = 0; i < n; i++)
					scratch[i] = (uint8_t)rnd(r, 16);
				attr(m, FTSW_ATTR_PORT_SL_TABLE, scratch, n);
			}
		}
	} else if (k < 44) {
		begin(m, cmd = FTSW_CMD_PORT_UNBIND, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
	} else if (k < 52) {
		begin(m, cmd = FTSW_CMD_PORT_SET, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
		a_u8(m, FTSW_ATTR_PORT_ADMIN_UP, (uint8_t)rnd(r, 2));
		if (pct(r, 30))
			a_u8(m, FTSW_ATTR_PORT_SL, (uint8_t)rnd(r, 16));
		if (pct(r, 20)) {
			uint32_t n = rnd(r, 64);

			for (uint32_t i = 0; i < n; i++)
				scratch[i] = (uint8_t)rnd(r, 16);
			attr(m, FTSW_ATTR_PORT_SL_TABLE, scratch, n);
		}
		if (pct(r, 30))
			valid_must_fail = mcast_attr(r, m);
	} else if (k < 72) {
		uint32_t first, n;

		/* Mostly small blocks; sometimes a whole table. */
		if (pct(r, 90)) {
			first = rnd(r, FTSW_LFT_SIZE);
			n = PICK(r, ((const uint32_t[]){ 1, 2, 16, 64, 300 }));
		} else {
			first = 0;
			n = FTSW_LFT_SIZE;
		}
		if (n > FTSW_LFT_SIZE - first)
			n = FTSW_LFT_SIZE - first;
		begin(m, cmd = FTSW_CMD_LFT_SET, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u16(m, FTSW_ATTR_LFT_FIRST_LID, (uint16_t)first);
		lft_data(r, scratch, n, 4);
		attr(m, FTSW_ATTR_LFT_DATA, scratch, n);
	} else if (k < 80) {
		begin(m, cmd = FTSW_CMD_COMMIT, flags);
	} else if (k < 84) {
		begin(m, cmd = FTSW_CMD_SL2VL_SET, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		for (int i = 0; i < FTSW_NUM_SL; i++)
			scratch[i] = (uint8_t)rnd(r, FTSW_NUM_VL);
		attr(m, FTSW_ATTR_SL2VL, scratch, FTSW_NUM_SL);
	} else if (k < 87) {
		begin(m, cmd = FTSW_CMD_LFT_DISCARD, flags);
		if (pct(r, 50))
			a_u32(m, FTSW_ATTR_SWITCH_ID, s);
	} else if (k < 90) {
		begin(m, cmd = FTSW_CMD_PORT_CLEAR, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
	} else if (k < 92) {
		begin(m, cmd = FTSW_CMD_FABRIC_SET, flags);
		a_u8(m, FTSW_ATTR_HOP_LIMIT, (uint8_t)(1 + rnd(r, 255)));
	} else if (k < 95) {
		uint32_t hosts = pct(r, 20) ? 0 : 1 + rnd(r, 64);

		begin(m, cmd = FTSW_CMD_PLAN_SET, flags);
		a_u32(m, FTSW_ATTR_PLAN_HOSTS, hosts);
		if (hosts) {
			uint8_t ip4[4] = { 198, 18, 0, 1 }, ip6[16] = { 0x20, 1, 0xd, 0xb8 };

			a_u16(m, FTSW_ATTR_PLAN_LID, (uint16_t)(1 + rnd(r, 256)));
			a_u8(m, FTSW_ATTR_PLAN_LMC, (uint8_t)rnd(r, 3));
			if (pct(r, 70))
				attr(m, FTSW_ATTR_PLAN_IP4, ip4, 4);
			if (pct(r, 50))
				attr(m, FTSW_ATTR_PLAN_IP6, ip6, 16);
		}
	} else if (k < 96) {
		begin(m, cmd = FTSW_CMD_FABRIC_RESET, flags);
	} else {
		static const uint8_t gets[] = {
			FTSW_CMD_FABRIC_GET, FTSW_CMD_SWITCH_GET, FTSW_CMD_PORT_GET,
			FTSW_CMD_SL2VL_GET, FTSW_CMD_PLAN_GET,
		};

		begin(m, cmd = PICK(r, gets), flags);
		if (cmd == FTSW_CMD_SWITCH_GET || cmd == FTSW_CMD_SL2VL_GET ||
		    cmd == FTSW_CMD_PORT_GET)
			a_u32(m, FTSW_ATTR_SWITCH_ID, s);
		if (cmd == FTSW_CMD_PORT_GET)
			a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
		if (cmd == FTSW_CMD_PLAN_GET && pct(r, 50))
			a_flag(m, FTSW_ATTR_PLAN_STAGED);
	}
	return cmd;
}

/* ---------------------------------------------------------------- hostile */

static void value(struct rng *r, uint8_t *b, size_t n)
{
	uint32_t k = rnd(r, 10);

	if (k < 3)
		memset(b, 0, n);
	else if (k < 6)
		memset(b, 0xff, n);
	else
		rnd_bytes(r, b, n);
}

/* A random attribute, any type, any size, sometimes a nest of them. */
static void junk_attr(struct rng *r, struct msg *m, int depth)
{
	uint16_t t = pct(r, 95) ? (uint16_t)rnd(r, FTSW_ATTR_MAX + 5) : (uint16_t)rnd(r, 1 << 16);
	uint32_t k = rnd(r, 100);
	size_t n;

	if (k < 15 && depth < 3) {
		size_t at = m->len;
		struct nlattr *a;
		int kids = (int)rnd(r, 4);

		put(m, &(struct nlattr){ 0, (uint16_t)(t | NLA_F_NESTED) }, NLA_HDRLEN);
		for (int i = 0; i < kids && m->len < MSG_MAX - 1024; i++)
			junk_attr(r, m, depth + 1);
		a = (struct nlattr *)(m->buf + at);
		a->nla_len = (uint16_t)(m->len - at);
		return;
	}
	n = k < 50 ? PICK(r, ((const size_t[]){ 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33 }))
		   : k < 60 ? PICK(r, ((const size_t[]){ 128, 129, 4096, 0xc000, 0xc001 }))
			    : rnd(r, 64);
	value(r, scratch, n);
	if (pct(r, 10))
		t |= NLA_F_NET_BYTEORDER;
	attr(m, t, scratch, n);
}

/* A known attribute with a boundary value and a size of 1, 2, 4 or 8. */
static void typed_attr(struct rng *r, struct msg *m)
{
	uint16_t t = (uint16_t)(1 + rnd(r, FTSW_ATTR_MAX));
	uint64_t v = PICK(r, edge32);
	size_t n = PICK(r, ((const size_t[]){ 1, 2, 4, 8 }));

	switch (t) {
	case FTSW_ATTR_SWITCH_ID:
		a_u32(m, t, any_swid(r));
		return;
	case FTSW_ATTR_PORT_IFINDEX:
		a_u32(m, t, (uint32_t)any_ifindex(r));
		return;
	case FTSW_ATTR_PORT_NUM:
		a_u8(m, t, PICK(r, ((const uint8_t[]){ 0, 1, 2, 3, 4, 5, 8, 254, 255 })));
		return;
	}
	attr(m, t, &v, n);
}

/* The first attribute of the body at @body (an offset into @m): its size. */
static size_t first_attr_size(const struct msg *m, size_t body)
{
	const struct nlattr *a = (const struct nlattr *)(m->buf + body);

	if (m->len < body + NLA_HDRLEN || a->nla_len < NLA_HDRLEN)
		return 0;
	return (size_t)NLA_ALIGN(a->nla_len) <= m->len - body ? (size_t)NLA_ALIGN(a->nla_len) : 0;
}

#define BODY (NLMSG_HDRLEN + GENL_HDRLEN)

/* A mutated request of class @c; returns the command number used. */
static uint8_t hostile(struct rng *r, struct msg *m, enum cls c)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	uint8_t cmd = (uint8_t)(1 + rnd(r, FTSW_CMD_MAX));
	uint32_t n;

	switch (c) {
	case C_UNKNOWN_CMD:
		cmd = pct(r, 30) ? 0 : pct(r, 60) ? (uint8_t)(FTSW_CMD_MAX + 1 + rnd(r, 4))
						  : (uint8_t)(FTSW_CMD_MAX + 1 + rnd(r, 255 - FTSW_CMD_MAX));
		begin(m, cmd, flags);
		for (n = rnd(r, 4); n; n--)
			typed_attr(r, m);
		break;
	case C_WRONG_LEN: {
		/* A valid request whose attributes are re-sized at random. */
		size_t at;
		uint16_t t;

		cmd = valid(r, m, flags);
		if (m->len > BODY && pct(r, 50)) {
			/* drop the first attribute, re-add it with a bad size */
			t = ((struct nlattr *)(m->buf + BODY))->nla_type;
			at = first_attr_size(m, BODY);
			memmove(m->buf + BODY, m->buf + BODY + at, m->len - BODY - at);
			m->len -= at;
		} else {
			t = (uint16_t)(1 + rnd(r, FTSW_ATTR_MAX));
		}
		n = PICK(r, ((const uint32_t[]){ 0, 1, 2, 3, 5, 6, 7, 9, 15, 17, 33 }));
		value(r, scratch, n);
		attr(m, t, scratch, n);
		break;
	}
	case C_TRUNCATED:
		cmd = valid(r, m, flags);
		/* the last attribute claims more than the message holds */
		value(r, scratch, 8);
		attr_len(m, (uint16_t)(1 + rnd(r, FTSW_ATTR_MAX)), scratch, rnd(r, 8),
			 PICK(r, ((const int[]){ 8, 12, 200, 0x8000, 0xffff })));
		m->len -= m->len % 4 == 0 && pct(r, 50) ? rnd(r, 4) : 0;
		break;
	case C_SHORT_NLA:
		cmd = valid(r, m, flags);
		if (pct(r, 50)) {
			struct nlattr a = { (uint16_t)rnd(r, NLA_HDRLEN),
					    (uint16_t)(1 + rnd(r, FTSW_ATTR_MAX)) };

			put(m, &a, sizeof(a));
		} else if (m->len > BODY) {
			((struct nlattr *)(m->buf + BODY))->nla_len = (uint16_t)rnd(r, NLA_HDRLEN);
		}
		break;
	case C_NESTED:
		cmd = valid(r, m, flags);
		if (m->len > BODY && pct(r, 50)) {
			((struct nlattr *)(m->buf + BODY))->nla_type |= NLA_F_NESTED;
		} else {
			size_t at = m->len;

			put(m, &(struct nlattr){ 0, (uint16_t)((1 + rnd(r, FTSW_ATTR_MAX)) |
					NLA_F_NESTED) }, NLA_HDRLEN);
			for (n = 1 + rnd(r, 3); n; n--)
				pct(r, 50) ? typed_attr(r, m) : junk_attr(r, m, 1);
			((struct nlattr *)(m->buf + at))->nla_len = (uint16_t)(m->len - at);
		}
		break;
	case C_DUPLICATE: {
		size_t a;

		cmd = valid(r, m, flags);
		a = first_attr_size(m, BODY);
		if (a) {
			memcpy(scratch, m->buf + BODY, a);
			if (pct(r, 50) && a > NLA_HDRLEN)
				scratch[NLA_HDRLEN] ^= (uint8_t)(1 + rnd(r, 255));
			put(m, scratch, a);
		} else {
			typed_attr(r, m);
		}
		break;
	}
	case C_UNKNOWN_ATTR:
		cmd = valid(r, m, flags);
		n = pct(r, 70) ? FTSW_ATTR_MAX + 1 + rnd(r, 8) : rnd(r, 1 << 14);
		value(r, scratch, 8);
		attr(m, (uint16_t)n, scratch, rnd(r, 9));
		break;
	case C_HUGE: {
		static const uint16_t t32[] = {
			FTSW_ATTR_SWITCH_ID, FTSW_ATTR_PORT_IFINDEX, FTSW_ATTR_PLAN_HOSTS,
		};
		static const uint16_t blobs[] = {
			FTSW_ATTR_LFT_DATA, FTSW_ATTR_PORT_SL_TABLE, FTSW_ATTR_PORT_OFFSETS,
			FTSW_ATTR_SWITCH_NAME, FTSW_ATTR_SL2VL, FTSW_ATTR_PLAN_IP6,
			FTSW_ATTR_PORT_MCAST,
		};

		cmd = pct(r, 80) ? PICK(r, ((const uint8_t[]){
			FTSW_CMD_LFT_SET, FTSW_CMD_PORT_BIND, FTSW_CMD_PORT_SET,
			FTSW_CMD_SWITCH_NEW, FTSW_CMD_PLAN_SET, FTSW_CMD_SL2VL_SET })) : cmd;
		begin(m, cmd, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, pct(r, 60) ? 1 + rnd(r, NSW) : 0xffffffff);
		a_u8(m, FTSW_ATTR_PORT_NUM, pct(r, 50) ? 1 : 0xff);
		for (n = 1 + rnd(r, 3); n; n--) {
			if (pct(r, 40)) {
				a_u32(m, PICK(r, t32), PICK(r, ((const uint32_t[]){
					0xffffffff, 0x7fffffff, 0x80000000, 0xc000 })));
			} else if (pct(r, 30)) {
				a_u16(m, PICK(r, ((const uint16_t[]){ FTSW_ATTR_LFT_FIRST_LID,
					FTSW_ATTR_PORT_BASE_LID, FTSW_ATTR_SWITCH_LID,
					FTSW_ATTR_PLAN_LID })), 0xffff);
			} else {
				size_t len = PICK(r, ((const size_t[]){ 129, 4096, 0xc000, 0xc001, 60000 }));

				value(r, scratch, len);
				attr(m, PICK(r, blobs), scratch, len);
			}
		}
		break;
	}
	case C_LFT_RANGE: {
		uint32_t f = PICK(r, ((const uint32_t[]){ 0, 1, 0xbfff, 0xbff0, 0xc000, 0xffff }));

		n = PICK(r, ((const uint32_t[]){ 0, 1, 16, 17, 0xc000, 0xc001 }));
		begin(m, cmd = FTSW_CMD_LFT_SET, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, any_swid(r));
		if (pct(r, 90))
			a_u16(m, FTSW_ATTR_LFT_FIRST_LID, (uint16_t)f);
		lft_data(r, scratch, n, pct(r, 50) ? 254 : 4);
		if (pct(r, 30) && n)
			scratch[rnd(r, n)] = (uint8_t)(5 + rnd(r, 250)); /* beyond nports */
		if (pct(r, 95))
			attr(m, FTSW_ATTR_LFT_DATA, scratch, n);
		break;
	}
	case C_PORT_RANGE: {
		static const uint8_t pc[] = {
			FTSW_CMD_PORT_BIND, FTSW_CMD_PORT_UNBIND, FTSW_CMD_PORT_SET,
			FTSW_CMD_PORT_GET, FTSW_CMD_PORT_CLEAR, FTSW_CMD_SWITCH_NEW,
		};

		begin(m, cmd = PICK(r, pc), flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, any_swid(r));
		if (cmd == FTSW_CMD_SWITCH_NEW) {
			a_u8(m, FTSW_ATTR_SWITCH_NPORTS, PICK(r, ((const uint8_t[]){ 0, 255 })));
			break;
		}
		a_u8(m, FTSW_ATTR_PORT_NUM, PICK(r, ((const uint8_t[]){ 0, 5, 8, 9, 254, 255 })));
		if (cmd == FTSW_CMD_PORT_BIND) {
			a_u32(m, FTSW_ATTR_PORT_IFINDEX, (uint32_t)live_ifindex(r));
			a_u8(m, FTSW_ATTR_PORT_KIND, (uint8_t)rnd(r, 4));
		}
		break;
	}
	case C_IFINDEX: {
		bool edge = pct(r, 50);

		begin(m, cmd = FTSW_CMD_PORT_BIND, flags);
		a_u32(m, FTSW_ATTR_SWITCH_ID, 1 + rnd(r, NSW));
		a_u8(m, FTSW_ATTR_PORT_NUM, (uint8_t)(1 + rnd(r, 4)));
		n = rnd(r, 100);
		a_u32(m, FTSW_ATTR_PORT_IFINDEX,
		      n < 35 && nvanished ? (uint32_t)vanished[rnd(r, nvanished)] :
		      n < 60 && nforeign ? (uint32_t)foreign[rnd(r, nforeign)] :
		      n < 70 ? 1 /* lo */ : n < 85 ? PICK(r, edge32) : 1 + rnd(r, 100000));
		a_u8(m, FTSW_ATTR_PORT_KIND, edge ? FTSW_PORT_EDGE : FTSW_PORT_LINK);
		if (edge)
			a_u16(m, FTSW_ATTR_PORT_BASE_LID, (uint16_t)(1 + rnd(r, 255)));
		break;
	}
	case C_HEADER: {
		struct genlmsghdr *g;

		cmd = valid(r, m, flags);
		g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
		n = rnd(r, 4);
		if (n == 0)
			g->version = (uint8_t)rnd(r, 256);
		else if (n == 1)
			g->reserved = (uint16_t)(1 + rnd(r, 0xffff));
		else if (n == 2)
			msg_hdr(m)->nlmsg_flags |= PICK(r, ((const uint16_t[]){
				NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC, NLM_F_ECHO,
				NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE, NLM_F_APPEND,
				NLM_F_DUMP_INTR, 0x40, 0x8000 }));
		else {
			n = 1 + rnd(r, 3);
			rnd_bytes(r, scratch, n);
			put(m, scratch, n);		/* trailing junk */
		}
		break;
	}
	case C_DUMP_FLAG:
		if (pct(r, 70)) {
			cmd = valid(r, m, flags | NLM_F_DUMP);
		} else {
			cmd = (uint8_t)rnd(r, FTSW_CMD_MAX + 3);
			begin(m, cmd, flags | NLM_F_DUMP);
		}
		if (pct(r, 30))
			typed_attr(r, m);
		break;
	default: /* C_MIXED */
		cmd = pct(r, 90) ? (uint8_t)rnd(r, FTSW_CMD_MAX + 3) : (uint8_t)rnd(r, 256);
		begin(m, cmd, flags | (pct(r, 10) ? NLM_F_DUMP : 0));
		for (n = rnd(r, 7); n; n--)
			pct(r, 50) ? typed_attr(r, m) : junk_attr(r, m, 0);
		break;
	}
	return cmd;
}

static bool mutating(uint8_t cmd)
{
	switch (cmd) {
	case FTSW_CMD_FABRIC_SET: case FTSW_CMD_FABRIC_RESET:
	case FTSW_CMD_SWITCH_NEW: case FTSW_CMD_SWITCH_DEL:
	case FTSW_CMD_PORT_BIND: case FTSW_CMD_PORT_UNBIND:
	case FTSW_CMD_PORT_SET: case FTSW_CMD_LFT_SET:
	case FTSW_CMD_LFT_DISCARD: case FTSW_CMD_SL2VL_SET:
	case FTSW_CMD_COMMIT: case FTSW_CMD_PORT_CLEAR:
	case FTSW_CMD_PLAN_SET:
		return true;
	}
	return false;
}

/* ---------------------------------------------------------------- sockets */

static int nl_open(int proto)
{
	int one = 1, big = 4 << 20;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (s < 0)
		die("netlink socket");
	setsockopt(s, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(s, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* As root take a large receive buffer; else what rmem_max allows. */
	if (setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)))
		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)))
		die("netlink bind");
	return s;
}

static uint8_t rbuf[1 << 20];

/* Receive one datagram within the time limit: bytes, 0 on timeout, -errno. */
static ssize_t nl_recv(int s, size_t size, int ms)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return 0;
	n = recv(s, rbuf, size, 0);
	return n < 0 ? -errno : n;
}

static void family(void)
{
	uint8_t b[256];
	struct msg m = { .buf = b };
	struct nlmsghdr h = { .nlmsg_type = GENL_ID_CTRL,
			      .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 1 };
	struct genlmsghdr g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 };

	put(&m, &h, sizeof(h));
	put(&m, &g, sizeof(g));
	attr(&m, CTRL_ATTR_FAMILY_NAME, FTSW_GENL_NAME, sizeof(FTSW_GENL_NAME));
	finish(&m);
	if (send(sk, b, m.len, 0) < 0)
		die("family request");
	for (;;) {
		ssize_t n = nl_recv(sk, sizeof(rbuf), TIMEOUT_MS);
		struct nlmsghdr *nh;
		int len;

		if (n <= 0) {
			errno = n ? (int)-n : ETIMEDOUT;
			die("family reply");
		}
		len = (int)n;
		for (nh = (struct nlmsghdr *)rbuf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
			if (nh->nlmsg_type == NLMSG_ERROR) {
				if (!fam) {
					fprintf(stderr, "nlfuzz: no \"%s\" family (module not loaded?)\n",
						FTSW_GENL_NAME);
					exit(2);
				}
				return;
			}
			if (nh->nlmsg_type == GENL_ID_CTRL) {
				struct nlattr *a = (struct nlattr *)((uint8_t *)NLMSG_DATA(nh) + GENL_HDRLEN);
				int rem = (int)nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

				for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
				     rem -= NLA_ALIGN(a->nla_len),
				     a = (struct nlattr *)((uint8_t *)a + NLA_ALIGN(a->nla_len)))
					if (a->nla_type == CTRL_ATTR_FAMILY_ID)
						memcpy(&fam, (uint8_t *)a + NLA_HDRLEN, 2);
			}
		}
	}
}

/* ---------------------------------------------------------------- batches */

struct pending {
	uint32_t seq;
	uint64_t unit;
	enum cls cls;
	uint8_t cmd;
	bool dump;		/* NLM_F_DUMP set */
	bool hdr_bad;		/* a header the genl core refuses (EINVAL) */
	bool must_fail;		/* a broken PORT_MCAST: never answered 0 */
	bool done;
};

static uint8_t bbuf[BATCH_BYTES + MSG_MAX];
static size_t blen;
static struct pending pend[BATCH_MAX];
static unsigned int npend;

static void print_hex(uint64_t unit, const uint8_t *p, size_t n)
{
	printf("# unit %" PRIu64 " bytes %zu:", unit, n);
	for (size_t i = 0; i < n && i < 512; i++)
		printf("%s%02x", i % 32 ? "" : "\n#   ", p[i]);
	printf("%s\n", n > 512 ? " ..." : "");
}

/* The answer to one request: count it, check the unprivileged rule. */
static void answered(struct pending *p, int err)
{
	p->done = true;
	if (err == 0)
		ok_by[p->cls]++;
	else
		err_by[p->cls]++;
	if (err == -EPERM)
		eperm_by[p->cls]++;
	errno_seen[(unsigned int)(-err) & 0xff]++;
	if (trace)
		printf("# unit %" PRIu64 " %s cmd %u%s: %s\n", p->unit, cls_name[p->cls],
		       p->cmd, p->dump ? " (dump)" : "", err ? strerror(-err) : "ok");
	if (dry)
		return;
	/*
	 * The core checks the header before the permissions: a reserved
	 * field or nlmsg_flags beyond REQUEST, ACK, ECHO (and DUMP) are
	 * refused with EINVAL for every command (the family validates all).
	 */
	if (p->hdr_bad && err != -EINVAL)
		fail(p->unit, "%s command %u with a bad header answered %s, not EINVAL",
		     cls_name[p->cls], p->cmd, err ? strerror(-err) : "ok");
	if (no_admin && mutating(p->cmd) && !p->dump && !p->hdr_bad && err != -EPERM)
		fail(p->unit, "unprivileged %s command %u answered %s, not EPERM",
		     cls_name[p->cls], p->cmd, err ? strerror(-err) : "ok");
	if (p->must_fail && !err)
		fail(p->unit, "a PORT_SET with a broken PORT_MCAST table accepted");
}

/* Send the batch in one sendmsg and read every answer. */
static void flush(void)
{
	unsigned int left = npend;
	struct timespec t0, t;

	if (!npend)
		return;
	if (dry) {
		for (unsigned int i = 0; i < npend; i++)
			answered(&pend[i], 0);
		blen = 0;
		npend = 0;
		return;
	}
	if (send(sk, bbuf, blen, 0) < 0)
		die("send batch");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left) {
		ssize_t n = nl_recv(sk, sizeof(rbuf), 1000);
		struct nlmsghdr *nh;
		int len;

		if (n == -ENOBUFS) {
			/* Answers were dropped: count them lost, go on. */
			enobufs++;
			for (unsigned int i = 0; i < npend; i++)
				if (!pend[i].done) {
					pend[i].done = true;
					lost_by[pend[i].cls]++;
				}
			/* Drain what is still queued for this batch. */
			while (nl_recv(sk, sizeof(rbuf), 50) > 0)
				;
			break;
		}
		if (n < 0)
			die("recv");
		if (n == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec < TIMEOUT_MS / 1000)
				continue;
			for (unsigned int i = 0; i < npend; i++)
				if (!pend[i].done)
					fail(pend[i].unit, "no answer to command %u in %d s",
					     pend[i].cmd, TIMEOUT_MS / 1000);
			break;
		}
		len = (int)n;
		for (nh = (struct nlmsghdr *)rbuf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
			struct pending *p = NULL;
			int err = 0;

			if (nh->nlmsg_seq >= pend[0].seq && nh->nlmsg_seq - pend[0].seq < npend)
				p = &pend[nh->nlmsg_seq - pend[0].seq];
			if (!p || p->done)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR)
				memcpy(&err, NLMSG_DATA(nh), sizeof(err));
			else if (nh->nlmsg_type == NLMSG_DONE) {
				if (nh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					memcpy(&err, NLMSG_DATA(nh), sizeof(err));
			} else {
				continue;	/* a reply or dump part */
			}
			answered(p, err);
			left--;
		}
	}
	blen = 0;
	npend = 0;
}

/*
 * FNV-1a of a request for unit @u without its sequence number: the XOR of
 * these over a run (the digest) is the same however the units are split
 * into runs, and the same seed always gives the same digest.
 */
static void digest_add(uint64_t u, const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ mix64(u);

	for (size_t i = 0; i < n; i++) {
		uint8_t b = i >= 8 && i < 12 ? 0 : p[i];	/* nlmsg_seq */

		h = (h ^ b) * 0x100000001b3ULL;
	}
	digest ^= mix64(h);
}

/* Queue the request in @m for unit @u. */
static void queue(struct msg *m, uint64_t u, enum cls c, uint8_t cmd)
{
	struct nlmsghdr *h;
	struct pending *p;
	uint16_t f;

	finish(m);
	/* A truncated message keeps its declared length: fix the header. */
	h = msg_hdr(m);
	h->nlmsg_seq = seqno++;
	h->nlmsg_len = (uint32_t)m->len;
	if (hexdump)
		print_hex(u, m->buf, m->len);
	digest_add(u, m->buf, m->len);
	p = &pend[npend++];
	*p = (struct pending){ .seq = h->nlmsg_seq, .unit = u, .cls = c, .cmd = cmd,
			       .dump = (h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP,
			       .must_fail = queue_must_fail };
	queue_must_fail = false;
	f = h->nlmsg_flags & ~(p->dump ? NLM_F_DUMP : 0);
	p->hdr_bad = ((struct genlmsghdr *)NLMSG_DATA(h))->reserved ||
		     (f & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO));
	blen += NLMSG_ALIGN(m->len);
	messages++;
	msgs_by[c]++;
	cmd_seen[cmd]++;
	if (npend == batch_max || npend == BATCH_MAX || blen > BATCH_BYTES - MSG_MAX)
		flush();
}

/* A message built at the end of the batch buffer (room: see queue()). */
static struct msg batch_msg(void)
{
	return (struct msg){ .buf = bbuf + blen };
}

/* ---------------------------------------------------------------- dumps */

static void send_one(struct msg *m, uint64_t u, enum cls c, uint8_t cmd)
{
	uint8_t *dst = bbuf + blen;

	if (m->buf != dst)
		memmove(dst, m->buf, m->len);
	m->buf = dst;
	queue(m, u, c, cmd);
	flush();
}

static uint8_t mbuf[MSG_MAX];

/* One datagram of a dump: 1 when it ended, 0 if not, -1 on timeout. */
static int dump_datagram(int d, uint32_t seq, size_t size, int ms)
{
	struct nlmsghdr *nh;
	ssize_t n;
	int len;

	if (dry)
		return 1;
	n = nl_recv(d, size, ms);
	if (n == 0)
		return -1;
	if (n < 0)
		return 1;	/* e.g. ENOBUFS: the dump is over for us */
	dump_datagrams++;
	len = (int)n;
	for (nh = (struct nlmsghdr *)rbuf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len))
		if (nh->nlmsg_seq == seq &&
		    (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR))
			return 1;
	return 0;
}

/*
 * A dump on a socket of its own, read a datagram at a time with changes
 * (mostly deletes) on the campaign's socket in between; 30% are abandoned
 * with the dump still running. The changes do not depend on how the dump
 * went: the same unit sends the same messages.
 */
static void dump_unit(struct rng *r, uint64_t u)
{
	static const uint8_t kinds[] = {
		FTSW_CMD_SWITCH_GET, FTSW_CMD_PORT_GET, FTSW_CMD_LFT_GET,
		FTSW_CMD_SL2VL_GET, FTSW_CMD_LFT_GET,
	};
	static const size_t sizes[] = { 4096, 8192, 1 << 16 };
	size_t sz = 4096;
	struct msg m = { .buf = mbuf };
	uint8_t kind = PICK(r, kinds);
	int d = dry ? -1 : nl_open(NETLINK_GENERIC), done = 0, steps = 1 + (int)rnd(r, 5);
	bool abandon;
	uint32_t seq = seqno++;

	flush();
	begin(&m, kind, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP);
	if (pct(r, 30))
		a_u32(&m, FTSW_ATTR_SWITCH_ID, 1 + rnd(r, NSW));
	if (kind == FTSW_CMD_LFT_GET && pct(r, 50))
		a_flag(&m, FTSW_ATTR_LFT_STAGED);
	finish(&m);
	msg_hdr(&m)->nlmsg_seq = seq;
	if (hexdump)
		print_hex(u, m.buf, m.len);
	digest_add(u, m.buf, m.len);
	if (!dry && send(d, m.buf, m.len, 0) < 0)
		die("dump request");
	messages++;
	msgs_by[C_DUMP]++;
	cmd_seen[kind]++;
	dumps++;
	for (int i = 0; i < steps; i++) {
		struct msg c = batch_msg();
		uint8_t cmd;
		size_t pick = PICK(r, sizes);

		/*
		 * Read sizes never shrink: the kernel sizes a dump's next
		 * datagram by the largest read so far, and a smaller read
		 * would cut it (losing NLMSG_DONE with it).
		 */
		sz = pick > sz ? pick : sz;
		if (!done && !dry)
			done = dump_datagram(d, seq, sz, TIMEOUT_MS);
		if (done < 0) {
			fail(u, "dump of command %u sent nothing in %d s",
			     kind, TIMEOUT_MS / 1000);
			break;
		}
		if (pct(r, 50)) {
			begin(&c, cmd = FTSW_CMD_SWITCH_DEL, NLM_F_REQUEST | NLM_F_ACK);
			a_u32(&c, FTSW_ATTR_SWITCH_ID, 1 + rnd(r, NSW));
		} else if (pct(r, 10)) {
			begin(&c, cmd = FTSW_CMD_FABRIC_RESET, NLM_F_REQUEST | NLM_F_ACK);
		} else {
			cmd = valid(r, &c, NLM_F_REQUEST | NLM_F_ACK);
		}
		send_one(&c, u, C_DUMP, cmd);
	}
	abandon = pct(r, 30);
	if (abandon && !done) {
		abandoned++;
	} else {
		while (done == 0)
			done = dump_datagram(d, seq, sizeof(rbuf), TIMEOUT_MS);
		if (done < 0)
			fail(u, "dump of command %u never ended", kind);
	}
	if (d >= 0)
		close(d);
}

/* ---------------------------------------------------------------- churn */

static int rt = -1;

static int rt_do(struct msg *m)
{
	ssize_t n;
	int err = 0;

	finish(m);
	msg_hdr(m)->nlmsg_seq = seqno++;
	if (send(rt, m->buf, m->len, 0) < 0)
		return -errno;
	for (;;) {
		n = nl_recv(rt, sizeof(rbuf), TIMEOUT_MS);
		if (n <= 0)
			return n ? (int)n : -ETIMEDOUT;
		if (((struct nlmsghdr *)rbuf)->nlmsg_type == NLMSG_ERROR) {
			memcpy(&err, NLMSG_DATA((struct nlmsghdr *)rbuf), sizeof(err));
			return err;
		}
	}
}

static void rt_begin(struct msg *m, uint16_t type, uint16_t flags, int index,
		     unsigned int up)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = index,
				 .ifi_flags = up, .ifi_change = up ? IFF_UP : 0 };

	m->len = 0;
	put(m, &h, sizeof(h));
	put(m, &ifi, sizeof(ifi));
}

static size_t nest_start(struct msg *m, uint16_t type)
{
	size_t at = m->len;

	put(m, &(struct nlattr){ 0, type }, NLA_HDRLEN);
	return at;
}

static void nest_end(struct msg *m, size_t at)
{
	((struct nlattr *)(m->buf + at))->nla_len = (uint16_t)(m->len - at);
}

/* Make veth pair number @k (nfzK / nfzKp), up; its ifindexes. */
static int veth_make(int k)
{
	struct msg m = { .buf = mbuf };
	char a[IFNAMSIZ], b[IFNAMSIZ];
	size_t li, data, peer;
	int err;

	snprintf(a, sizeof(a), "nfz%d", k);
	snprintf(b, sizeof(b), "nfz%dp", k);
	/* Up only once both exist (veth cannot open without its peer). */
	rt_begin(&m, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0, 0);
	attr(&m, IFLA_IFNAME, a, strlen(a) + 1);
	li = nest_start(&m, IFLA_LINKINFO);
	attr(&m, IFLA_INFO_KIND, "veth", 5);
	data = nest_start(&m, IFLA_INFO_DATA);
	peer = nest_start(&m, VETH_INFO_PEER);
	put(&m, &(struct ifinfomsg){ .ifi_family = AF_UNSPEC }, sizeof(struct ifinfomsg));
	attr(&m, IFLA_IFNAME, b, strlen(b) + 1);
	nest_end(&m, peer);
	nest_end(&m, data);
	nest_end(&m, li);
	err = rt_do(&m);
	if (err)
		return err;
	churn_idx[k][0] = (int)if_nametoindex(a);
	churn_idx[k][1] = (int)if_nametoindex(b);
	rt_begin(&m, RTM_NEWLINK, 0, churn_idx[k][0], IFF_UP);
	err = rt_do(&m);
	if (err)
		return err;
	rt_begin(&m, RTM_NEWLINK, 0, churn_idx[k][1], IFF_UP);
	return rt_do(&m);
}

/*
 * Make our veth pairs; pairs an earlier run (an earlier chunk of the same
 * campaign) left are deleted first, their ifindexes counted as vanished.
 */
static void churn_init(void)
{
	rt = nl_open(NETLINK_ROUTE);
	for (int k = 0; k < NCHURN; k++) {
		char name[IFNAMSIZ];
		int old, err;

		snprintf(name, sizeof(name), "nfz%d", k);
		old = (int)if_nametoindex(name);
		if (old) {
			struct msg m = { .buf = mbuf };

			vanished[nvanished++] = old;
			snprintf(name, sizeof(name), "nfz%dp", k);
			vanished[nvanished++] = (int)if_nametoindex(name);
			rt_begin(&m, RTM_DELLINK, 0, old, 0);
			err = rt_do(&m);
			if (err) {
				errno = -err;
				die("--churn: deleting an old veth pair");
			}
		}
		err = veth_make(k);

		if (err) {
			errno = -err;
			die("--churn: making a veth pair");
		}
		ifx[nifx++] = churn_idx[k][0];
		ifx[nifx++] = churn_idx[k][1];
	}
}

static void set_live(int old, int new)
{
	for (int i = 0; i < nifx; i++)
		if (ifx[i] == old)
			ifx[i] = new;
}

/* Delete pair k (bound ports lose their device) and make it anew. */
static void churn_unit(struct rng *r, uint64_t u)
{
	struct msg m = { .buf = mbuf };
	int k = (int)rnd(r, NCHURN), err;
	int old0 = churn_idx[k][0], old1 = churn_idx[k][1];

	flush();
	rt_begin(&m, RTM_DELLINK, 0, old0, 0);
	err = rt_do(&m);
	if (!err)
		err = veth_make(k);
	if (err) {
		fail(u, "veth churn: %s", strerror(-err));
		return;
	}
	if (nvanished < (int)(sizeof(vanished) / sizeof(vanished[0])) - 2) {
		vanished[nvanished++] = old0;
		vanished[nvanished++] = old1;
	}
	set_live(old0, churn_idx[k][0]);
	set_live(old1, churn_idx[k][1]);
	messages += 2;
	msgs_by[C_CHURN] += 2;
}

/* ---------------------------------------------------------------- main */

static void unit(uint64_t u)
{
	struct rng r;
	uint32_t k;
	enum cls c;

	rng_unit(&r, seed, u);
	k = rnd(&r, 1000);
	if (k < 300)
		c = C_VALID;
	else if (k < 950)
		c = (enum cls)(C_UNKNOWN_CMD + rnd(&r, C_MIXED - C_UNKNOWN_CMD + 1));
	else if (k < 985 || !churn)
		c = C_DUMP;
	else
		c = C_CHURN;
	units_by[c]++;
	if (c == C_DUMP) {
		dump_unit(&r, u);
	} else if (c == C_CHURN) {
		churn_unit(&r, u);
	} else {
		struct msg m = batch_msg();
		uint8_t cmd;

		valid_must_fail = false;
		cmd = c == C_VALID ? valid(&r, &m, NLM_F_REQUEST | NLM_F_ACK)
				   : hostile(&r, &m, c);
		/* hostile classes may change it further (a later PORT_MCAST
		 * of their own wins): only a valid unit's is sure */
		queue_must_fail = c == C_VALID && valid_must_fail;
		queue(&m, u, c, cmd);
	}
}

static void usage(void)
{
	fputs("usage: nlfuzz --seed S --count N [--first I] [--dev DEV]... "
	      "[--foreign IFINDEX]... [--no-admin] [--churn] [--batch B] [--trace] [--hex] [--dry]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	double secs;
	unsigned int ncmd = 0;
	uint64_t eperms = 0;

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!strcmp(o, "--no-admin")) {
			no_admin = true;
		} else if (!strcmp(o, "--churn")) {
			churn = true;
		} else if (!strcmp(o, "--trace")) {
			trace = true;
		} else if (!strcmp(o, "--hex")) {
			hexdump = true;
		} else if (!strcmp(o, "--dry")) {
			dry = true;	/* build and count, send nothing */
		} else if (v && (!strcmp(o, "--seed") || !strcmp(o, "--count") ||
				 !strcmp(o, "--first") || !strcmp(o, "--batch") ||
				 !strcmp(o, "--foreign"))) {
			unsigned long long x;

			errno = 0;
			x = strtoull(v, &end, 0);
			if (errno || !*v || *end || *v == '-') {
				fprintf(stderr, "nlfuzz: %s: bad number '%s'\n", o, v);
				return 2;
			}
			if (!strcmp(o, "--seed"))
				seed = x;
			else if (!strcmp(o, "--count"))
				nunits = x;
			else if (!strcmp(o, "--first"))
				first_unit = x;
			else if (!strcmp(o, "--batch"))
				batch_max = x < 1 ? 1 : x > BATCH_MAX ? BATCH_MAX : (unsigned int)x;
			else if (nforeign < 16)
				foreign[nforeign++] = (int)x;
			i++;
		} else if (v && !strcmp(o, "--dev")) {
			unsigned int ix = if_nametoindex(v);

			if (!ix) {
				fprintf(stderr, "nlfuzz: --dev %s: no such device\n", v);
				return 2;
			}
			if (nifx < 48)
				ifx[nifx++] = (int)ix;
			i++;
		} else {
			usage();
		}
	}
	if (dry) {
		fam = GENL_MIN_ID + 1;
		churn = false;
		if (!nifx)
			ifx[nifx++] = 2;
	} else {
		sk = nl_open(NETLINK_GENERIC);
		family();
		if (churn)
			churn_init();
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t u = first_unit; u < first_unit + nunits && failures < 20; u++)
		unit(u);
	flush();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	for (int i = 0; i < 256; i++)
		ncmd += cmd_seen[i] != 0;

	printf("# nlfuzz seed %" PRIu64 " units %" PRIu64 "..%" PRIu64 ": %" PRIu64
	       " messages in %.1f s (%.0f/s), %u command numbers, batches of %u\n",
	       seed, first_unit, first_unit + nunits - 1, messages, secs,
	       secs > 0 ? (double)messages / secs : 0.0, ncmd, batch_max);
	printf("# digest %016" PRIx64 "\n", digest);
	printf("# %" PRIu64 " dumps (%" PRIu64 " abandoned, %" PRIu64
	       " datagrams read), %d ifindexes vanished, %" PRIu64 " ENOBUFS\n",
	       dumps, abandoned, dump_datagrams, nvanished, enobufs);
	printf("#   %-26s %7s %8s %7s %7s %7s %6s\n", "class", "units", "messages",
	       "ok", "refused", "EPERM", "lost");
	for (int c = 0; c < NCLS; c++)
		if (units_by[c] || msgs_by[c])
			printf("#   %-26s %7" PRIu64 " %8" PRIu64 " %7" PRIu64 " %7" PRIu64
			       " %7" PRIu64 " %6" PRIu64 "\n", cls_name[c], units_by[c],
			       msgs_by[c], ok_by[c], err_by[c], eperm_by[c], lost_by[c]);
	printf("#   answers by errno:");
	for (int e = 0; e < 256; e++)
		if (errno_seen[e])
			printf(" %s %" PRIu64 ";", e ? strerrorname_np(e) : "ok", errno_seen[e]);
	printf("\n");
	for (int c = 0; c < NCLS; c++)
		eperms += eperm_by[c];
	if (no_admin && !eperms)
		fail(~0ULL, "unprivileged: nothing was refused with EPERM");
	return failures ? 1 : 0;
}
