// SPDX-License-Identifier: GPL-2.0
/*
 * madfuzz: a seeded, reproducible campaign of hostile management datagrams
 * from a lab host into the fabric (selftest 96 runs it briefly, `make
 * fuzz-mad` for long; issue 41).
 *
 *   madfuzz [--dev DEV] --seed S [--first I] [--count N] [--seconds T]
 *           [--sweep-every K] [--lid-base LID] [--min-answered PCT]
 *           [--trace] [--hex]
 *
 * It speaks the frame contract of Documentation/sm.md on DEV (eth0 of a
 * host namespace, AF_PACKET, ethertype 0x88B6) and is its own subnet
 * manager first: a sweep of directed-route SMPs discovers the fabric
 * (NodeInfo through every port of every switch), enables ports a Set
 * disabled, gives the switches LIDs from LID-BASE, activates every link and
 * writes the LFT blocks that route every CA's and switch's LIDs. A sweep
 * runs at the start and before every unit whose number is a multiple of K,
 * so the fabric the units reach is the same whatever they broke.
 *
 * A unit is one frame, built from its own random stream (seed S, unit I:
 * the same seed and topology give the same frames; units I..J can be
 * replayed alone with --first I --count J-I+1 --trace --hex). Its class:
 *   - SMP, directed route or LID-routed, Get or Set of every attribute the
 *     agents know and some they do not, to any node: the modifier fields
 *     (ports, blocks, positions) and the payload fields that index (LFT
 *     entries, LinearFDBTop, MulticastFDBTop, LocalPortNum, PortState,
 *     PortPhysicalState, LID, LMC, NeighborMTU, OperationalVLs, VL
 *     nibbles of SL-to-VL and VL arbitration) at 0, at the node's count,
 *     just past it, at their largest, or random;
 *   - PMA (class 0x04) of ClassPortInfo, PortCounters, PortCountersExtended
 *     and attributes nobody answers, PortSelect (byte 1 of every one of
 *     them, ClassPortInfo's ClassVersion included) and CounterSelect so;
 *   - congestion control (class 0x21) to every switch and CA: Get and Set
 *     of every attribute and of some nobody has, other methods and class
 *     versions, SwitchPortCongestionSetting's and CongestionControlTable's
 *     block and CCTI_Limit at their edges, with the node's CC_Key or not;
 *   - SA (0x03) and other classes, with RMPP headers;
 *   - directed-route paths: hop counts, pointers, path ports, the D bit,
 *     LID-routed parts;
 *   - header fields (versions, method, status, QPs, SL, flags, P_Key,
 *     LIDs), frames cut short or padded, and random bytes;
 * and a quarter of the structured ones get random bytes on top. Before
 * the campaign, management keys' protection levels are checked on a
 * switch and a CA (mkey_check()); no unit keys a node. Then a switch and
 * a CA get a CC_Key with the protect bit (cckey_check(): the key's table
 * checked) and keep it: a CC unit to them without the key must not be
 * answered.
 *
 * What comes back is checked: every frame of 0x88B6 is 286 bytes from the
 * fabric's MAC; an answer to a unit has the unit's TID, class and
 * attribute, GetResp, the D bit as its class says, and a status IBA
 * gives an agent; a unit whose one changed field is an index (a Get, or
 * a Set whose modifier is out of range) must get exactly the status the
 * specification gives for it (Documentation/sm.md, "Fields that index
 * something"); a P_KeyTable Set of a table that exists and an MFT Set of a
 * block and position in range (payloads: the invalid keys, every port's
 * bit, bits past the ports, random) must succeed, the answer holding what
 * was set (the MFT's bits of the ports the switch has). /dev/kmsg is read after every frame: a kernel report
 * (KASAN, lockdep, BUG, WARNING...) stops the run at once, naming the
 * unit that sent it and how long the campaign had run.
 *
 * Exit 0: no failure; 1: a failed check or a kernel report; 2: usage or
 * set-up error (no fabric found).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ftsw.h>
#include "fuzzrng.h"

#define MAD		256
#define MH		16		/* struct ftsw_mad_hdr */
#define FRAME		(ETH_HLEN + MH + MAD)
#define MAXN		64		/* nodes */
#define MAXP		255		/* ports of a switch */
#define NPEND		4096		/* units whose answer may come */
#define TID_UNIT	0x4d46000000000000ULL	/* "MF": a unit's TID */
#define TID_SWEEP	0x5357000000000000ULL	/* "SW": the sweep's */
#define TID_PROBE	0x5350000000000000ULL	/* "SP": its probes */
#define TID_MASK	0x0000ffffffffffffULL

/* MAD classes, methods, attributes (IBA vol. 1, 13.4, 14.2.5, 16.1). */
#define C_SMP		0x01
#define C_SA		0x03
#define C_PMA		0x04
#define C_DR		0x81
#define GET		0x01
#define SET		0x02
#define GETRESP		0x81
#define A_ND		0x0010
#define A_NI		0x0011
#define A_SI		0x0012
#define A_GUID		0x0014
#define A_PI		0x0015
#define A_PKEY		0x0016
#define A_SL2VL		0x0017
#define A_VLARB		0x0018
#define A_LFT		0x0019
#define A_RFT		0x001a
#define A_MFT		0x001b
#define A_SMINFO	0x0020
#define A_NOTICE	0x0002
#define P_CPI		0x0001
#define P_PC		0x0012
#define P_PCX		0x001d
#define C_CC		0x21		/* congestion control, version 2 */
#define CC_VERSION	2
#define CC_CPI		0x0001
#define CC_INFO		0x0011
#define CC_KEYINFO	0x0012
#define CC_LOG		0x0013
#define CC_SW		0x0014		/* SwitchCongestionSetting */
#define CC_SWPORT	0x0015		/* SwitchPortCongestionSetting */
#define CC_CA		0x0016		/* CACongestionSetting */
#define CC_TABLE	0x0017		/* CongestionControlTable */
#define CC_TIME		0x0018		/* TimeStamp */
#define ST_VERSION	0x04
#define ST_METHOD	0x08
#define ST_ATTR		0x0c
#define ST_VALUE	0x1c
#define ANY		(-1)		/* no status expected in particular */

/* Offsets in a MAD. */
#define O_TID		8
#define O_ATTR		16
#define O_MOD		20
#define O_MKEY		24		/* an SMP's M_Key */
#define O_DRSLID	32
#define O_DRDLID	34
#define O_DATA		64		/* SMP and PMA data */
#define O_IPATH		128
#define O_RPATH		192

/* ---------------------------------------------------------------- fabric */

struct node {
	uint64_t guid;
	bool sw;
	uint8_t nports;		/* a CA: 1 */
	uint8_t inport;		/* the port the sweep's path comes in by */
	uint8_t hops, path[64];	/* path[1..hops] */
	uint16_t lid;		/* a switch's port 0, a CA's base */
	uint8_t lmc;
	int16_t peer[MAXP + 1];	/* node at port p, -1: none seen */
	uint8_t peer_port[MAXP + 1];
};

static struct node nodes[MAXN];
static int nnodes;
static int self = -1;		/* our own CA */
static int self_sw = -1;	/* the switch our cable goes to, */
static uint8_t self_sw_port;	/* and its port */

/* ---------------------------------------------------------------- state */

static uint64_t seed = 1, first_unit, nunits = 1000;
static double seconds;			/* --seconds: time instead of a count */
static uint64_t sweep_every = 500;
static uint16_t lid_base = 0x200;
static unsigned int min_answered;	/* --min-answered PCT of oracle units */
static bool trace, hexdump, kmsg_found, count_given;
static int sk = -1, kmsg = -1, ifindex;
static uint64_t sweep_tid;
static struct timespec t0;

enum kind {
	K_DR_SMP, K_LR_SMP, K_PMA, K_SA, K_CLASS, K_DR_PATH, K_HDR, K_RANDOM,
	K_CC, NKIND
};

static const char *const kind_name[NKIND] = {
	"SMP directed route", "SMP LID-routed", "PMA", "SA", "other classes",
	"directed-route paths", "header fields", "random bytes",
	"congestion control",
};

static const unsigned int kind_weight[NKIND] = { 22, 13, 25, 5, 5, 15, 10, 5, 10 };

struct pend {
	uint64_t tid;
	uint32_t mod;
	uint16_t lid;		/* LID-routed: who must answer, by its SLID */
	enum kind kind;
	uint8_t class, method;
	uint16_t attr;
	int expect;		/* ANY, or the status the unit must get */
	bool no_answer, plain_dr;
	bool silent;		/* it must not be answered (CC_Key) */
	bool echo;		/* a status 0 answer carries data & dmask */
	uint8_t data[64], dmask[64];
	char what[200];
};

static struct pend pend[NPEND];
static uint64_t units_by[NKIND], answers_by[NKIND], oracle_units, oracle_ok;
static uint64_t oracle_answered, status_seen[0x80], frames_in, unmatched;
static int mkey_checks;		/* nodes whose M_Key levels were checked */
static int cckey_checks;	/* nodes whose CC_Key was checked */
static bool cc_keyed[MAXN];	/* nodes the campaign keeps a CC_Key on */
static uint64_t back_to_host, sweeps, sent;
static unsigned int failures;

static double elapsed(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) +
	       (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
}

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
		printf(" (replay: --seed %" PRIu64 " --first %" PRIu64
		       " --count 1 --trace --hex)", seed, u);
	printf("\n");
	failures++;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "madfuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v & 0xffffffff);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* ---------------------------------------------------------------- frames */

struct frame {
	uint8_t b[FRAME + 128];
	size_t len;
};

/* The MAD header and the MAD of a frame. */
#define FMH(f)	((f)->b + ETH_HLEN)
#define FMAD(f)	((f)->b + ETH_HLEN + MH)

/* A MAD frame: broadcast, ethertype 0x88B6, the MAD header for @dlid. */
static void frame_init(struct frame *f, uint16_t dlid, uint8_t class)
{
	uint32_t qp = class == C_SMP || class == C_DR ? FTSW_MAD_QP_SMI :
						      FTSW_MAD_QP_GSI;

	memset(f, 0, sizeof(*f));
	memset(f->b, 0xff, ETH_ALEN);
	f->b[6] = 0x02;
	f->b[11] = 0x01;
	put16(f->b + 12, FTSW_ETH_P_MAD);
	put16(FMH(f), dlid);
	put32(FMH(f) + 4, qp);
	put32(FMH(f) + 8, qp);
	put16(FMH(f) + 14, FTSW_MAD_PKEY_DEFAULT);
	f->len = FRAME;
}

static void mad_common(struct frame *f, uint8_t class, uint8_t method,
		       uint16_t attr, uint32_t mod, uint64_t tid)
{
	uint8_t *m = FMAD(f);

	m[0] = 1;
	m[1] = class;
	m[2] = class == C_SA ? 2 : 1;
	m[3] = method;
	put64(m + O_TID, tid);
	put16(m + O_ATTR, attr);
	put32(m + O_MOD, mod);
}

/* A directed-route SMP along @path[1..hops], permissive both ends. */
static void dr_smp(struct frame *f, const uint8_t *path, int hops,
		   uint8_t method, uint16_t attr, uint32_t mod, uint64_t tid)
{
	frame_init(f, FTSW_LID_PERMISSIVE, C_DR);
	mad_common(f, C_DR, method, attr, mod, tid);
	FMAD(f)[7] = (uint8_t)hops;
	put16(FMAD(f) + O_DRSLID, FTSW_LID_PERMISSIVE);
	put16(FMAD(f) + O_DRDLID, FTSW_LID_PERMISSIVE);
	for (int i = 1; i <= hops; i++)
		FMAD(f)[O_IPATH + i] = path[i];
}

static void send_frame(const struct frame *f)
{
	struct sockaddr_ll a = {
		.sll_family = AF_PACKET, .sll_ifindex = ifindex,
		.sll_protocol = htons(FTSW_ETH_P_MAD), .sll_halen = ETH_ALEN,
	};

	memset(a.sll_addr, 0xff, ETH_ALEN);
	if (sendto(sk, f->b, f->len, 0, (struct sockaddr *)&a, sizeof(a)) < 0 &&
	    errno != ENOBUFS && errno != ENXIO && errno != ENETDOWN &&
	    errno != EMSGSIZE && errno != EINVAL)
		die("send: %s", strerror(errno));
	sent++;
}

/* One frame from the fabric into @buf (FRAME + 1 bytes), or 0 if none. */
static ssize_t recv_frame(uint8_t *buf, int timeout_ms)
{
	struct sockaddr_ll a;
	socklen_t al;
	ssize_t n;

	for (;;) {
		struct pollfd p = { .fd = sk, .events = POLLIN };

		if (timeout_ms && poll(&p, 1, timeout_ms) <= 0)
			return 0;
		al = sizeof(a);
		n = recvfrom(sk, buf, FRAME + 1, MSG_DONTWAIT | MSG_TRUNC,
			     (struct sockaddr *)&a, &al);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			die("recv: %s", strerror(errno));
		}
		if (a.sll_pkttype != PACKET_OUTGOING)
			return n;
	}
}

/*
 * Every frame the fabric gives a host is Ethernet | MAD header | MAD, 286
 * bytes, broadcast from 02:66:74:00:ff:ff (Documentation/sm.md).
 */
static bool frame_ok(const uint8_t *b, ssize_t n, uint64_t u)
{
	static const uint8_t src[ETH_ALEN] = { 0x02, 0x66, 0x74, 0x00, 0xff, 0xff };

	if (n != FRAME || memcmp(b + ETH_ALEN, src, ETH_ALEN) ||
	    get16(b + 12) != FTSW_ETH_P_MAD) {
		fail(u, "a frame of %zd bytes from %02x:%02x:%02x:%02x:%02x:%02x, ethertype 0x%04x (want %d bytes, 02:66:74:00:ff:ff, 0x88b6)",
		     n, b[6], b[7], b[8], b[9], b[10], b[11], get16(b + 12),
		     FRAME);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- kmsg */

/* Kernel reports that fail a run (tests/vm/run's list). */
static const char *const reports[] = {
	"Kernel panic", "Oops", "BUG:", "WARNING:", "KASAN", "kmemleak:",
	"unreferenced object", "possible recursive locking", "circular locking",
	"inconsistent lock state", "suspicious RCU usage",
	"lock held when returning", "general protection fault", "UBSAN",
	"refcount_t:", "list_add corruption", "list_del corruption",
	"stack-protector", "hung_task", "soft lockup", "RCU stall",
	"scheduling while atomic", "sleeping function called from invalid context",
};

/* A kernel report printed since the last look: the unit that sent last. */
static void kmsg_check(uint64_t u)
{
	char rec[2048];
	ssize_t n;

	if (kmsg < 0)
		return;
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) != 0) {
		const char *msg;

		if (n < 0) {
			if (errno == EPIPE)
				continue;	/* overwritten records */
			return;		/* EAGAIN: nothing new */
		}
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++) {
			if (!strstr(msg, reports[i]))
				continue;
			rec[strcspn(rec, "\n")] = 0;
			printf("# KERNEL REPORT after %.1f s of campaign, %" PRIu64
			       " frames sent, right after unit %" PRIu64 ": %s\n",
			       elapsed(), sent, u, msg);
			fail(u, "kernel report: %s", msg);
			kmsg_found = true;
			return;
		}
	}
}

/* ---------------------------------------------------------------- sweep */

/* Send @f (a sweep SMP) and wait for its answer into @ans; false: none. */
static bool ask(struct frame *f, uint8_t *ans, int timeout_ms)
{
	uint64_t tid = get64(FMAD(f) + O_TID);
	uint8_t buf[FRAME + 1];
	double end = elapsed() + timeout_ms / 1000.0;
	ssize_t n;

	send_frame(f);
	while (elapsed() < end) {
		n = recv_frame(buf, 10);
		if (n != FRAME || get64(buf + ETH_HLEN + MH + O_TID) != tid ||
		    !(buf[ETH_HLEN + MH + 3] & 0x80))
			continue;
		memcpy(ans, buf + ETH_HLEN + MH, MAD);
		return true;
	}
	return false;
}

static uint16_t mad_status(const uint8_t *mad)
{
	return get16(mad + 4) & 0x7fff;
}

/* A directed-route Get/Set of node @n; its answer's 64 data bytes. */
static bool node_smp(int n, uint8_t method, uint16_t attr, uint32_t mod,
		     const uint8_t *data, uint8_t *out)
{
	struct node *nd = &nodes[n];
	uint8_t ans[MAD];
	struct frame f;

	dr_smp(&f, nd->path, nd->hops, method, attr, mod,
	       TID_SWEEP | ++sweep_tid);
	if (data)
		memcpy(FMAD(&f) + O_DATA, data, 64);
	for (int tries = 0; tries < 3; tries++) {
		if (!ask(&f, ans, 200))
			continue;
		if (mad_status(ans))
			return false;
		if (out)
			memcpy(out, ans + O_DATA, 64);
		return true;
	}
	return false;
}

static int node_find(uint64_t guid)
{
	for (int i = 0; i < nnodes; i++)
		if (nodes[i].guid == guid)
			return i;
	return -1;
}

/* A node answered NodeInfo @ni along @path: known, or new. */
static int node_add(const uint8_t *ni, const uint8_t *path, int hops)
{
	uint64_t guid = get64(ni + 12);
	int i = node_find(guid);
	struct node *nd;

	if (i >= 0 || nnodes == MAXN)
		return i;
	nd = &nodes[nnodes];
	memset(nd, 0, sizeof(*nd));
	memset(nd->peer, 0xff, sizeof(nd->peer));
	nd->guid = guid;
	nd->sw = ni[2] == 2;
	nd->nports = ni[3];
	nd->inport = ni[36];
	nd->hops = (uint8_t)hops;
	memcpy(nd->path, path, (size_t)hops + 1);
	return nnodes++;
}

/*
 * Discover the fabric: NodeInfo through every port of every switch found,
 * breadth first, the probes of one switch all at once (TID: the probe
 * round, the node, the port).
 */
static void discover(void)
{
	static uint64_t round;
	uint8_t path[64] = { 0 }, buf[FRAME + 1], ans[MAD];
	struct frame f;
	int head = 0;

	nnodes = 0;
	self = self_sw = -1;
	dr_smp(&f, path, 0, GET, A_NI, 0, TID_SWEEP | ++sweep_tid);
	if (!ask(&f, ans, 500) && !ask(&f, ans, 1000))
		die("no answer to NodeInfo at hop 0 on this device: no ftsw edge port behind it?");
	self = node_add(ans + O_DATA, path, 0);
	round++;
	for (; head < nnodes; head++) {
		struct node *nd = &nodes[head];
		uint64_t base = TID_PROBE | (round & 0xffff) << 24 |
				(uint64_t)head << 16;
		int want = 0, got = 0;
		double end;

		if (!nd->sw && head != self)
			continue;
		for (int p = 1; p <= nd->nports; p++) {
			if (nd->hops >= 62 || (nd->sw && p == nd->inport))
				continue;
			memcpy(path, nd->path, 64);
			path[nd->hops + 1] = (uint8_t)p;
			dr_smp(&f, path, nd->hops + 1, GET, A_NI, 0,
			       base | (uint64_t)p);
			send_frame(&f);
			want++;
		}
		end = elapsed() + 0.3;
		while (got < want && elapsed() < end) {
			ssize_t n = recv_frame(buf, 10);
			uint8_t *m = buf + ETH_HLEN + MH, *ni = m + O_DATA;
			uint64_t tid;
			int p, k;

			if (n != FRAME || !(m[3] & 0x80))
				continue;
			tid = get64(m + O_TID);
			if ((tid & ~0xffffULL) != base)
				continue;
			got++;
			if (mad_status(m))
				continue;
			p = (int)(tid & 0xffff);
			memcpy(path, nd->path, 64);
			path[nd->hops + 1] = (uint8_t)p;
			k = node_add(ni, path, nd->hops + 1);
			if (k < 0)
				continue;
			nd->peer[p] = (int16_t)k;
			nd->peer_port[p] = ni[36];
			nodes[k].peer[ni[36]] = (int16_t)head;
			nodes[k].peer_port[ni[36]] = (uint8_t)p;
			if (head == self) {
				self_sw = k;
				self_sw_port = ni[36];
			}
		}
	}
}

/* PortInfo fields (IBA vol. 1, 14.2.5.6) at their byte offsets. */
#define PI_LID		16
#define PI_STATE	32	/* low nibble; LinkSpeedSupported high */
#define PI_PHYS		33	/* high nibble; LinkDownDefaultState low */
#define PI_LMC		34	/* low 3 bits */
#define PS_DOWN		1
#define PS_INIT		2
#define PS_ARMED	3
#define PS_ACTIVE	4
#define PHYS_POLLING	2
#define PHYS_DISABLED	3

/* A PortInfo Set of @n's port @p from what a Get read (@pi, edited). */
static bool pi_set(int n, uint32_t p, uint8_t *pi)
{
	pi[PI_STATE] &= 0xf0;	/* PortState: no change */
	pi[PI_PHYS] &= 0x0f;	/* PortPhysicalState: no change */
	return node_smp(n, SET, A_PI, p, pi, pi);
}

/* Ports a Set disabled, enabled again from their switch. How many. */
static int enable_ports(void)
{
	uint8_t pi[64];
	int fixed = 0;

	for (int n = 0; n < nnodes; n++) {
		if (!nodes[n].sw)
			continue;
		for (int p = 1; p <= nodes[n].nports; p++) {
			if (!node_smp(n, GET, A_PI, (uint32_t)p, NULL, pi) ||
			    pi[PI_PHYS] >> 4 != PHYS_DISABLED)
				continue;
			pi[PI_STATE] &= 0xf0;
			pi[PI_PHYS] = PHYS_POLLING << 4 | (pi[PI_PHYS] & 0x0f);
			fixed += node_smp(n, SET, A_PI, (uint32_t)p, pi, NULL);
		}
	}
	return fixed;
}

static bool lid_taken(uint16_t lid, int but)
{
	for (int i = 0; i < nnodes; i++) {
		const struct node *nd = &nodes[i];

		if (i != but && nd->lid && lid >= nd->lid &&
		    lid < nd->lid + (1U << nd->lmc))
			return true;
	}
	return false;
}

/* CA LIDs as they are; switches get LID-BASE + i where it is free. */
static void assign_lids(void)
{
	uint8_t pi[64];
	uint16_t next = lid_base;

	for (int n = 0; n < nnodes; n++) {
		nodes[n].lid = 0;
		if (nodes[n].sw || !node_smp(n, GET, A_PI, 1, NULL, pi))
			continue;
		nodes[n].lid = get16(pi + PI_LID);
		nodes[n].lmc = pi[PI_LMC] & 7;
		if (nodes[n].lid > 0xbfff)
			nodes[n].lid = 0;
	}
	for (int n = 0; n < nnodes; n++) {
		if (!nodes[n].sw || !node_smp(n, GET, A_PI, 0, NULL, pi))
			continue;
		while (lid_taken(next, n) && next < 0xbfff)
			next++;
		nodes[n].lid = next++;
		if (get16(pi + PI_LID) == nodes[n].lid)
			continue;
		put16(pi + PI_LID, nodes[n].lid);
		if (!pi_set(n, 0, pi))
			printf("# sweep: switch 0x%" PRIx64 " took no LID\n",
			       nodes[n].guid);
	}
}

/* Every link Armed, then Active (as an SM's last step). */
static void activate(void)
{
	uint8_t pi[64];

	for (int want = PS_ARMED; want <= PS_ACTIVE; want++) {
		for (int n = 0; n < nnodes; n++) {
			for (int p = 1; p <= nodes[n].nports; p++) {
				int st;

				if (nodes[n].peer[p] < 0)
					continue;
				if (!node_smp(n, GET, A_PI, (uint32_t)p, NULL, pi))
					continue;
				st = pi[PI_STATE] & 0xf;
				if (st == PS_DOWN || st >= want)
					continue;
				pi[PI_PHYS] &= 0x0f;
				pi[PI_STATE] = (pi[PI_STATE] & 0xf0) | (uint8_t)want;
				node_smp(n, SET, A_PI, (uint32_t)p, pi, NULL);
			}
		}
	}
}

/* The port of switch @s towards node @t on a shortest path (0: @t is @s). */
static int next_port(int s, int t)
{
	int dist[MAXN], q[MAXN], first[MAXN], h = 0, e = 0;

	if (s == t)
		return 0;
	for (int i = 0; i < nnodes; i++)
		dist[i] = -1;
	dist[s] = 0;
	first[s] = 0;
	q[e++] = s;
	while (h < e) {
		int u = q[h++];

		if (!nodes[u].sw && u != s)
			continue;	/* a CA forwards nothing */
		for (int p = 1; p <= nodes[u].nports; p++) {
			int v = nodes[u].peer[p];

			if (v < 0 || dist[v] >= 0)
				continue;
			dist[v] = dist[u] + 1;
			first[v] = u == s ? p : first[u];
			if (v == t)
				return first[v];
			q[e++] = v;
		}
	}
	return -1;
}

/* Write the LFT blocks holding every node's LIDs into every switch. */
static void route(void)
{
	uint8_t blk[64];
	bool need[0xc000 / 64] = { false };

	for (int t = 0; t < nnodes; t++)
		for (uint32_t l = nodes[t].lid; nodes[t].lid &&
		     l < nodes[t].lid + (1U << nodes[t].lmc) && l <= 0xbfff; l++)
			need[l / 64] = true;
	for (int s = 0; s < nnodes; s++) {
		if (!nodes[s].sw)
			continue;
		for (uint32_t b = 0; b < 0xc000 / 64; b++) {
			if (!need[b])
				continue;
			memset(blk, 0xff, sizeof(blk));
			for (int t = 0; t < nnodes; t++) {
				int port = next_port(s, t);

				if (port < 0 || !nodes[t].lid)
					continue;
				for (uint32_t l = nodes[t].lid;
				     l < nodes[t].lid + (1U << nodes[t].lmc); l++)
					if (l / 64 == b)
						blk[l % 64] = (uint8_t)port;
			}
			node_smp(s, SET, A_LFT, b, blk, NULL);
		}
	}
}

/* SL i to VL i on every switch and CA (a Set may have sent SLs to VL15). */
static void sl2vl_identity(void)
{
	uint8_t t[64] = { 0 };

	for (int i = 0; i < 8; i++)
		t[i] = (uint8_t)(2 * i << 4 | (2 * i + 1));
	for (int n = 0; n < nnodes; n++)
		node_smp(n, SET, A_SL2VL, 0, t, NULL);
}

/*
 * The campaign's subnet manager: the fabric found, disabled ports enabled
 * (and found again), LIDs, Active links, routes, SL-to-VL identity.
 */
static void sweep(void)
{
	for (int round = 0; round < 3; round++) {
		discover();
		if (!enable_ports())
			break;
		usleep(500 * 1000);	/* the links train */
	}
	assign_lids();
	activate();
	route();
	sl2vl_identity();
	sweeps++;
}

static void print_fabric(void)
{
	for (int n = 0; n < nnodes; n++) {
		const struct node *nd = &nodes[n];

		printf("# node %d: %s GUID 0x%016" PRIx64 ", %u port%s, LID 0x%x, %u hop%s%s\n",
		       n, nd->sw ? "switch" : "CA", nd->guid, nd->nports,
		       nd->nports == 1 ? "" : "s", nd->lid, nd->hops,
		       nd->hops == 1 ? "" : "s", n == self ? " (this host)" : "");
	}
}

/* ---------------------------------------------------------------- units */

struct unit {
	enum kind kind;
	struct frame f;
	int expect;		/* ANY, or the status IBA gives */
	uint16_t lid;		/* LID-routed: the LID of the node that answers */
	int node;		/* the node it was built for, -1: none */
	bool no_answer;		/* a response or trap: nothing answers it */
	bool plain_dr;		/* a directed route left as built */
	bool silent;		/* it must not be answered (CC_Key) */
	bool echo;		/* answered 0, the data holds what was set */
	uint8_t dmask[64];	/* ... in these bits */
	char what[200];
};

static void say(struct unit *x, const char *fmt, ...)
{
	size_t n = strlen(x->what);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->what + n, sizeof(x->what) - n, fmt, ap);
	va_end(ap);
}

/*
 * A value for an index field whose valid values are 0..@last and whose
 * width allows up to @max: 0, @last, one past it, @max, a valid one, an
 * invalid one, or any.
 */
static uint32_t edge(struct rng *r, uint32_t last, uint32_t max)
{
	switch (rnd(r, 7)) {
	case 0:
		return 0;
	case 1:
		return last;
	case 2:
		return last < max ? last + 1 : max;
	case 3:
		return max;
	case 4:
		return last == UINT32_MAX ? (uint32_t)rnd64(r) : rnd(r, last + 1);
	case 5:
		return last < max ? last + 1 + rnd(r, max - last) : max;
	default:
		return (uint32_t)rnd64(r) & max;
	}
}

/* A LID of node @n (a CA: any of its 2^LMC), or now and then any. */
static uint16_t lid_of(struct rng *r, int n)
{
	static const uint16_t odd[] = { 0, 1, 0xbfff, 0xc000, 0xfffe, 0xffff };

	if (pct(r, 5))
		return pct(r, 50) ? PICK(r, odd) : (uint16_t)rnd64(r);
	return (uint16_t)(nodes[n].lid + rnd(r, 1U << nodes[n].lmc));
}

static uint8_t any_method(struct rng *r)
{
	static const uint8_t m[] = { 0x03, 0x05, 0x06, 0x07, 0x12, 0x13, 0x14,
				     0x15, 0x81, 0x86, 0x92, 0x00, 0x7f, 0xff };

	return pct(r, 75) ? PICK(r, m) : (uint8_t)rnd(r, 256);
}

/* Methods nobody answers: responses, traps, trap represses. */
static bool silent_method(uint8_t m)
{
	return (m & 0x80) || m == 0x05 || m == 0x07;
}

/*
 * The status of an SMP Get or Set of @attr with modifier @mod at node @nd,
 * as far as the modifier decides it (Documentation/sm.md): ANY when more
 * than the modifier does (a Set's payload) or nobody answers.
 */
static int smp_expect(const struct node *nd, uint8_t method, uint16_t attr,
		      uint32_t mod)
{
	uint32_t n = nd->nports, blk, port;
	bool sw = nd->sw, ro = false;
	int bad;

	if (method != GET && method != SET)
		return silent_method(method) || !sw ? ANY : 0x08;
	switch (attr) {
	case A_ND:
	case A_NI:
		bad = 0;
		ro = true;
		break;
	case A_GUID:
		bad = mod != 0;
		ro = true;
		break;
	case A_SI:
		if (!sw)
			return ST_ATTR;
		bad = 0;
		break;
	case A_PI:
		bad = mod > (sw ? n : 1);
		break;
	case A_PKEY:
		bad = (mod & 0xffff) || (sw && mod >> 16 > n);
		break;
	case A_SL2VL:
		bad = sw ? (mod >> 8 & 0xff) > n || (mod & 0xff) > n ||
			   mod >> 16 : mod != 0;
		break;
	case A_VLARB:
		blk = mod >> 16;
		port = mod & 0xffff;
		if (blk < 1 || blk > 4)
			bad = 1;
		else if (!sw)
			bad = 0;
		else if (!port || port > n)
			bad = 1;
		else
			bad = nd->peer[port] >= 0 ? 0 : -1;	/* bound? */
		break;
	case A_LFT:
		if (!sw)
			return ST_ATTR;
		bad = mod >= 0xc000 / 64;
		break;
	case A_MFT:
		if (!sw)
			return ST_ATTR;
		bad = (mod & 0x1ff) >= 8 || (mod >> 28) * 16 > n;
		break;
	default:
		/* a CA gives SMInfo, notices and vendor attributes to its host */
		if (!sw && (attr == A_SMINFO || attr == A_NOTICE ||
			    attr >= 0xff00))
			return ANY;
		return ST_ATTR;
	}
	if (method == GET)
		return bad < 0 ? ANY : bad ? ST_VALUE : 0;
	if (ro)
		return ST_ATTR;
	return bad == 1 ? ST_VALUE : ANY;
}

/* The modifier of @attr at @nd: its index fields at their edges. */
static uint32_t smp_mod(struct rng *r, const struct node *nd, uint16_t attr)
{
	uint32_t n = nd->sw ? nd->nports : 1;

	if (pct(r, 5))
		return (uint32_t)rnd64(r);
	switch (attr) {
	case A_PI:
		return edge(r, n, pct(r, 80) ? 255 : UINT32_MAX);
	case A_PKEY:
		return edge(r, nd->sw ? n : 0xffff, 0xffff) << 16 |
		       (pct(r, 80) ? 0 : edge(r, 0, 0xffff));
	case A_SL2VL:
		if (!nd->sw)
			return pct(r, 80) ? 0 : edge(r, 0, UINT32_MAX);
		return edge(r, n, 255) << 8 | edge(r, n, 255) |
		       (pct(r, 90) ? 0 : edge(r, 0, 0xffff) << 16);
	case A_VLARB:
		return (pct(r, 70) ? 1 + rnd(r, 4) : edge(r, 4, 0xffff)) << 16 |
		       edge(r, n, 0xffff);
	case A_LFT:
		return edge(r, 767, pct(r, 80) ? 0xffff : UINT32_MAX);
	case A_MFT:
		return edge(r, nd->sw ? n / 16 : 0, 15) << 28 |
		       (pct(r, 90) ? 0 : rnd(r, 1U << 19) << 9) |
		       edge(r, 7, 0x1ff);
	case A_GUID:
		return pct(r, 50) ? 0 : edge(r, 0, UINT32_MAX);
	default:
		return pct(r, 80) ? 0 : (uint32_t)rnd64(r);
	}
}

/*
 * Management keys (IBA vol. 1, 14.2.4; Documentation/sm.md): the table of
 * protection levels checked on one switch other than ours and one CA
 * other than ours before the campaign. Each is keyed by a PortInfo Set
 * (M_Key MK_KEY, level L), then: a Get without the key is answered at
 * levels 0 (M_Key shown) and 1 (M_Key 0) and refused (no answer) at 2 and
 * 3; a Set without it is refused at every level; with the key a Get is
 * answered showing the key, level and one M_KeyViolation per refusal, and
 * a Set of M_Key 0 unkeys the node. The campaign's units never key a node
 * (keep_keys()): a key would lock the campaign out of it.
 */
#define MK_KEY		0x6d6b65797a7a7a7aULL
#define PI_MKEY		0	/* M_Key, 8 bytes */
#define PI_LEASE	26	/* M_KeyLeasePeriod */
#define PI_VIOL		44	/* M_KeyViolations */
#define PI_PROT		0xc0	/* M_KeyProtectBits in byte PI_LMC */

/* One PortInfo SMP of node @n with M_Key @key; true: answered, into @out. */
static bool mk_smp(int n, uint8_t method, uint64_t key, const uint8_t *data,
		   uint8_t *out)
{
	struct node *nd = &nodes[n];
	uint8_t ans[MAD];
	struct frame f;

	dr_smp(&f, nd->path, nd->hops, method, A_PI, nd->sw ? 0 : 1,
	       TID_SWEEP | ++sweep_tid);
	put64(FMAD(&f) + O_MKEY, key);
	if (data)
		memcpy(FMAD(&f) + O_DATA, data, 64);
	if (!ask(&f, ans, 300))
		return false;
	memcpy(out, ans + O_DATA, 64);
	return !mad_status(ans);
}

static void mkey_node(int n)
{
	uint8_t pi[64], set[64], got[64];
	const char *what = nodes[n].sw ? "switch" : "CA";
	uint16_t viol;

	if (!mk_smp(n, GET, 0, NULL, pi)) {
		fail(~0ULL, "M_Key: %s %d: no PortInfo", what, n);
		return;
	}
	pi[PI_STATE] &= 0xf0;
	pi[PI_PHYS] &= 0x0f;
	for (int prot = 0; prot < 4; prot++) {
		memcpy(set, pi, 64);
		put64(set + PI_MKEY, MK_KEY);
		set[PI_LMC] = (uint8_t)(prot << 6 | (pi[PI_LMC] & 7));
		put16(set + PI_LEASE, 0);
		put16(set + PI_VIOL, 0);
		if (!mk_smp(n, SET, 0, set, got)) {
			fail(~0ULL, "M_Key: %s %d not keyed at level %d", what, n, prot);
			return;
		}
		viol = 0;
		if (mk_smp(n, GET, MK_KEY ^ 1, NULL, got) != (prot < 2))
			fail(~0ULL, "M_Key: %s %d, level %d: a Get without the key %s",
			     what, n, prot, prot < 2 ? "refused" : "answered");
		else if (prot < 2 && get64(got + PI_MKEY) != (prot ? 0 : MK_KEY))
			fail(~0ULL, "M_Key: %s %d, level %d: a Get without the key shows M_Key 0x%" PRIx64,
			     what, n, prot, get64(got + PI_MKEY));
		viol += prot >= 2;
		put64(set + PI_MKEY, 0);
		if (mk_smp(n, SET, 0, set, got))
			fail(~0ULL, "M_Key: %s %d, level %d: a Set without the key answered",
			     what, n, prot);
		viol++;
		if (!mk_smp(n, GET, MK_KEY, NULL, got) ||
		    get64(got + PI_MKEY) != MK_KEY || (got[PI_LMC] & PI_PROT) >> 6 != prot ||
		    get16(got + PI_VIOL) != viol)
			fail(~0ULL, "M_Key: %s %d, level %d: with the key: M_Key 0x%" PRIx64 " level %d violations %u, want %u",
			     what, n, prot, get64(got + PI_MKEY), (got[PI_LMC] & PI_PROT) >> 6,
			     get16(got + PI_VIOL), viol);
		/* unkeyed again: M_Key 0, level 0 */
		memcpy(set, pi, 64);
		put64(set + PI_MKEY, 0);
		set[PI_LMC] &= 7;
		if (!mk_smp(n, SET, MK_KEY, set, got) || get64(got + PI_MKEY)) {
			fail(~0ULL, "M_Key: %s %d, level %d: not unkeyed", what, n, prot);
			return;
		}
	}
	mkey_checks++;
}

/* @check on the first switch and the first CA other than our own. */
static void key_nodes(void (*check)(int n))
{
	int sw = -1, ca = -1;

	for (int n = 0; n < nnodes; n++) {
		if (nodes[n].sw && n != self_sw && sw < 0)
			sw = n;
		if (!nodes[n].sw && n != self && ca < 0)
			ca = n;
	}
	if (sw >= 0)
		check(sw);
	if (ca >= 0)
		check(ca);
}

static void mkey_check(void)
{
	key_nodes(mkey_node);
	printf("# M_Key protection levels checked on %d node%s\n", mkey_checks,
	       mkey_checks == 1 ? "" : "s");
}

/*
 * A PortInfo Set of a unit leaves M_Key, its level and lease 0 (random
 * bytes included): see mkey_check().
 */
static void keep_keys(struct unit *x)
{
	uint8_t *m = FMAD(&x->f);

	if ((m[1] != C_SMP && m[1] != C_DR) || m[3] != SET ||
	    get16(m + O_ATTR) != A_PI)
		return;
	memset(m + O_DATA + PI_MKEY, 0, 8);
	put16(m + O_DATA + PI_LEASE, 0);
	m[O_DATA + PI_LMC] &= (uint8_t)~PI_PROT;
}

/*
 * May a PortInfo Set disable port @port of node @n? Not our own cable (our
 * CA's port, the switch port across): we would be cut off, the device of
 * the edge port down until the operator brings it up.
 */
static bool may_disable(int n, uint32_t port)
{
	return n != self && !(n == self_sw && port == self_sw_port);
}

/*
 * The last word on a frame before it goes: a PortInfo Set that would
 * disable a port is kept only when it is a directed route left as built
 * to a port may_disable() allows; LID-routed, changed or random ones
 * could reach our own CA (a LID of ours, a byte of the path).
 */
static void keep_own_cable(struct unit *x, int n, uint32_t port)
{
	uint8_t *m = FMAD(&x->f);

	if ((m[1] != C_SMP && m[1] != C_DR) || m[3] != SET ||
	    get16(m + O_ATTR) != A_PI || m[O_DATA + PI_PHYS] >> 4 != PHYS_DISABLED)
		return;
	if (x->plain_dr && n >= 0 && may_disable(n, port))
		return;
	m[O_DATA + PI_PHYS] &= 0x0f;
}

/*
 * A P_KeyTable Set of a table that exists (a CA's, a switch's own at port
 * 0, a bound external port's; modifier block 0) must be taken whole: every
 * 16-bit value is an entry (IBA vol. 1, 10.9: 0x0000 and 0x8000 the
 * invalid key, the top bit the membership), and the GetResp holds the
 * table as it now is: the 32 keys written.
 */
static void pkey_expect(struct unit *x, const struct node *nd, uint32_t mod)
{
	uint32_t port = mod >> 16;

	if ((mod & 0xffff) || (nd->sw && (port > nd->nports ||
					  (port && nd->peer[port] < 0))))
		return;
	x->expect = 0;
	x->echo = true;
	memset(x->dmask, 0xff, 64);
	say(x, "; the table read back");
}

/*
 * A MulticastForwardingTable Set (14.2.5.12): 32 PortMasks of 16 bits,
 * the ports of position mod[31:28] (bit i port 16 * position + i): none,
 * every one, every bit (past the switch's ports too: OpenSM writes whole
 * positions), random. A switch takes blocks 0..7 (MLIDs 0xC000..0xC0FF,
 * the lab's MulticastFDBCap 256) of positions up to its ports: status 0,
 * and the answer's mask bits of ports the switch has are the ones set.
 */
static void mft_payload(struct rng *r, struct unit *x, const struct node *nd,
			uint32_t mod, uint8_t *d)
{
	uint32_t pos = mod >> 28, i;
	uint16_t ports = 0;

	for (i = 0; i < 16; i++)
		if (pos * 16 + i <= nd->nports)
			ports |= (uint16_t)(1u << i);
	for (i = 0; i < 32; i++)
		put16(d + 2 * i, PICK(r, ((const uint16_t[]){ 0, ports, 0xffff,
					(uint16_t)rnd64(r) })));
	if (!nd->sw || (mod & 0x1ff) >= 8 || pos * 16 > nd->nports)
		return;
	x->expect = 0;
	x->echo = true;
	for (i = 0; i < 32; i++)
		put16(x->dmask + 2 * i, ports);
	say(x, "; port masks 0x%04x.. read back (ports 0x%04x)", get16(d),
	    ports);
}

/*
 * A Set's payload for @attr at node @n: the fields that index at their
 * edges. *@expect: the status it must get, where the payload decides it
 * (LFT entries, SwitchInfo's tops); left alone otherwise.
 */
static void smp_payload(struct rng *r, struct unit *x, int n, uint16_t attr,
			uint32_t mod, uint8_t *d)
{
	const struct node *nd = &nodes[n];
	uint32_t np = nd->sw ? nd->nports : 1;
	bool bad = false;
	uint16_t v;

	switch (attr) {
	case A_PI:
		put16(d + PI_LID, pct(r, 70) ? nd->lid : (uint16_t)edge(r, 0xbfff, 0xffff));
		d[28] = (uint8_t)edge(r, np, 255);		/* LocalPortNum */
		d[PI_STATE] = (uint8_t)(pct(r, 80) ? 0 : rnd(r, 16));
		d[PI_PHYS] = (uint8_t)((pct(r, 80) ? 0 : rnd(r, 16)) << 4);
		d[PI_LMC] = (uint8_t)(pct(r, 80) ? nd->lmc : rnd(r, 8));
		d[36] = (uint8_t)((pct(r, 70) ? 0 : rnd(r, 16)) << 4 |
				  rnd(r, 16));			/* MTU, SMSL */
		d[41] = (uint8_t)(pct(r, 70) ? 0 : rnd(r, 256));	/* HOQ */
		d[42] = (uint8_t)((pct(r, 70) ? 0 : rnd(r, 16)) << 4);	/* OpVLs */
		d[38] = (uint8_t)rnd(r, 256);			/* VLHighLimit */
		if (pct(r, 20))
			put16(d + 18, (uint16_t)rnd64(r));	/* MasterSMLID */
		if (pct(r, 20))
			d[51] = (uint8_t)rnd(r, 32);		/* SubnetTimeOut */
		say(x, " LID 0x%x LocalPortNum %u state %u phys %u", get16(d + PI_LID),
		    d[28], d[PI_STATE], d[PI_PHYS] >> 4);
		break;
	case A_LFT:
		for (int i = 0; i < 64; i++) {
			d[i] = (uint8_t)(pct(r, 90) ? rnd(r, np + 1) :
					 edge(r, np, 255));
			bad |= d[i] > np && d[i] != 0xff;
		}
		if (nd->sw && mod < 768)
			x->expect = bad ? ST_VALUE : 0;
		say(x, " entries%s", bad ? " naming ports the switch has not" : "");
		break;
	case A_SI:
		v = (uint16_t)edge(r, 0xbfff, 0xffff);
		put16(d + 6, v);				/* LinearFDBTop */
		bad = v > 0xbfff;
		v = pct(r, 30) ? 0 : (uint16_t)(0xc000 + edge(r, 0xff, 0x3fff));
		if (pct(r, 10))
			v = (uint16_t)rnd64(r);
		put16(d + 18, v);				/* MulticastFDBTop */
		bad |= v && (v < 0xc000 || v > 0xc0ff);
		for (int i = 8; i < 11; i++)			/* default ports */
			d[i] = (uint8_t)edge(r, np, 255);
		d[11] = (uint8_t)rnd(r, 256);			/* LifeTime, PSC */
		if (nd->sw)
			x->expect = bad ? ST_VALUE : 0;
		say(x, " LinearFDBTop 0x%x MulticastFDBTop 0x%x", get16(d + 6), v);
		break;
	case A_SL2VL:
	case A_VLARB:
		/* VL nibbles 0..15 (15: VL15, no data VL), weights */
		rnd_bytes(r, d, 16);
		break;
	case A_PKEY:
		/* any 16 bits are an entry: the invalid keys 0x0000 and
		 * 0x8000, limited and full members */
		for (int i = 0; i < 32; i++)
			put16(d + 2 * i, pct(r, 50) ? 0xffff : pct(r, 30) ?
			      PICK(r, ((const uint16_t[]){ 0, 0x8000, 0x7fff,
							   0x8001, 0x0001 })) :
			      (uint16_t)rnd64(r));
		pkey_expect(x, nd, mod);
		break;
	case A_MFT:
		mft_payload(r, x, nd, mod, d);
		break;
	default:
		if (pct(r, 70))
			rnd_bytes(r, d, 64);
		break;
	}
}

static const uint16_t smp_attrs[] = {
	A_ND, A_NI, A_SI, A_GUID, A_PI, A_PI, A_PKEY, A_SL2VL, A_VLARB,
	A_LFT, A_LFT, A_RFT, A_MFT, A_SMINFO, A_NOTICE, 0x0030, 0x0031,
	0xff00, 0xffff,
};

/* An SMP, directed route (@dr) or LID-routed, to any node. */
static void unit_smp(struct rng *r, struct unit *x, uint64_t tid, bool dr)
{
	int n = (int)rnd(r, (uint32_t)nnodes);
	const struct node *nd = &nodes[n];
	uint16_t attr = pct(r, 95) ? PICK(r, smp_attrs) : (uint16_t)rnd64(r);
	uint8_t method = pct(r, 55) ? GET : pct(r, 90) ? SET : any_method(r);
	uint32_t mod = smp_mod(r, nd, attr);
	uint16_t dlid = dr ? FTSW_LID_PERMISSIVE : lid_of(r, n);

	if (dr) {
		dr_smp(&x->f, nd->path, nd->hops, method, attr, mod, tid);
		x->plain_dr = true;
	} else {
		frame_init(&x->f, dlid, C_SMP);
		mad_common(&x->f, C_SMP, method, attr, mod, tid);
	}
	x->expect = smp_expect(nd, method, attr, mod);
	x->no_answer = silent_method(method);
	x->lid = dr ? 0 : nd->lid;
	x->node = n;
	say(x, "%s %s node %d (%s) method 0x%02x attr 0x%04x mod 0x%x",
	    dr ? "DR" : "LID-routed", dr ? "to" : "to LID", n,
	    nd->sw ? "switch" : "CA", method, attr, mod);
	if (!dr)
		say(x, " (LID 0x%x)", dlid);
	if (method == SET)
		smp_payload(r, x, n, attr, mod, FMAD(&x->f) + O_DATA);
	if (!dr && (dlid < nd->lid || dlid >= nd->lid + (1U << nd->lmc)))
		x->expect = ANY;	/* to some other LID, or none */
}

/* PMA attributes: three the agents answer, others nobody serves. */
static const uint16_t pma_attrs[] = {
	P_CPI, P_CPI, P_PC, P_PC, P_PCX, P_PCX, 0x0010, 0x0011, 0x0013,
	0x0014, 0x0015, 0x0016, 0x0017, 0x0018, 0x001b, 0x001c, 0x001e,
	0x001f, 0x0036, 0x0037, 0xff00,
};

static int pma_expect(const struct node *nd, uint8_t method, uint16_t attr,
		      uint8_t port)
{
	if (method != GET && method != SET)
		return silent_method(method) || !nd->sw ? ANY : 0x08;
	if (attr == P_CPI)
		return method == GET ? 0 : ST_ATTR;
	if (attr != P_PC && attr != P_PCX)
		return ST_ATTR;
	return port > (nd->sw ? nd->nports : 1) ? ST_VALUE : 0;
}

/*
 * A PMA GMP to a node's LID. PortSelect, byte 1 of the data of every
 * attribute (ClassPortInfo's ClassVersion too: what a tool confusing the
 * two sends), at its edges; CounterSelect any.
 */
static void unit_pma(struct rng *r, struct unit *x, uint64_t tid)
{
	int n = (int)rnd(r, (uint32_t)nnodes);
	const struct node *nd = &nodes[n];
	uint16_t attr = pct(r, 95) ? PICK(r, pma_attrs) : (uint16_t)rnd64(r);
	uint8_t method = pct(r, 65) ? GET : pct(r, 90) ? SET : any_method(r);
	uint16_t dlid = lid_of(r, n);
	uint8_t *d = FMAD(&x->f) + O_DATA, port;

	frame_init(&x->f, dlid, C_PMA);
	mad_common(&x->f, C_PMA, method, attr, pct(r, 90) ? 0 : (uint32_t)rnd64(r), tid);
	if (pct(r, 20))
		rnd_bytes(r, d, 192);
	port = (uint8_t)edge(r, nd->sw ? nd->nports : 1, 255);
	d[1] = port;
	put16(d + 2, pct(r, 30) ? 0xffff : (uint16_t)rnd64(r));
	x->expect = pma_expect(nd, method, attr, port);
	x->no_answer = silent_method(method);
	x->lid = nd->lid;
	if (dlid < nd->lid || dlid >= nd->lid + (1U << nd->lmc))
		x->expect = ANY;
	say(x, "PMA to LID 0x%x (node %d, %s) method 0x%02x attr 0x%04x byte 1 (PortSelect) %u CounterSelect 0x%04x",
	    dlid, n, nd->sw ? "switch" : "CA", method, attr, port, get16(d + 2));
}

/*
 * Congestion control (class 0x21, version 2; IBA vol. 1 Annex A10,
 * Documentation/congestion.md "The CC agents"): every switch and CA has an
 * agent. Attributes, the node that has each, the Get-only ones and the
 * modifiers' ranges are the table there; the CC_Key at byte 24, the data
 * at 64. Before the campaign one switch and one CA other than ours are
 * keyed (cckey_check()) and stay keyed: a unit to them without the key
 * must not be answered.
 */
#define CC_KEY		0x63636b65797a7a7aULL
#define O_CCKEY		24
#define O_CCLOG		32	/* CongestionLog's data */
#define CK_PROTECT	8	/* CongestionKeyInfo: protect bit 7 */
#define CK_LEASE	10
#define CK_VIOL		12
#define CC_PORTS_BLOCK	48	/* SwitchPortCongestionSetting's block */
#define CC_CCT_BLOCKS	2	/* ControlTableCap: 64-entry blocks */
#define CC_CCT_LIMIT	127	/* the largest CCTI_Limit of 2 blocks */

/*
 * A CC request to node @n's LID; its status, or -1: no answer within
 * @ms. The answer's 192 bytes from byte 64 into @out.
 */
static int cc_ask(int n, uint8_t method, uint16_t attr, uint64_t key,
		  const uint8_t *data, uint8_t *out, int ms)
{
	uint8_t ans[MAD];
	struct frame f;

	frame_init(&f, nodes[n].lid, C_CC);
	mad_common(&f, C_CC, method, attr, 0, TID_SWEEP | ++sweep_tid);
	FMAD(&f)[2] = CC_VERSION;
	put64(FMAD(&f) + O_CCKEY, key);
	if (data)
		memcpy(FMAD(&f) + O_DATA, data, MAD - O_DATA);
	if (!ask(&f, ans, ms))
		return -1;
	if (out)
		memcpy(out, ans + O_DATA, MAD - O_DATA);
	return mad_status(ans);
}

/* CongestionKeyInfo's data: key @key, protect bit @prot, lease 0. */
static void cc_keyinfo(uint8_t *d, uint64_t key, bool prot)
{
	memset(d, 0, MAD - O_DATA);
	put64(d, key);
	d[CK_PROTECT] = prot ? 0x80 : 0;
}

/*
 * The CC_Key table on node @n (congestion.md): keyed with the protect
 * bit, a Get or Set without the key is not answered and counts a
 * violation; with the key it is answered and shows them. Without the
 * protect bit a Get passes, a Set still needs the key. @n stays keyed.
 */
static void cckey_node(int n)
{
	const char *what = nodes[n].sw ? "switch" : "CA";
	uint16_t setting = nodes[n].sw ? CC_SW : CC_CA;
	uint8_t d[MAD - O_DATA], got[MAD - O_DATA];
	int st;

	for (int prot = 1; prot >= 0; prot--) {
		cc_keyinfo(d, CC_KEY, prot);
		st = cc_ask(n, SET, CC_KEYINFO, CC_KEY, d, got, 300);
		if (st || get64(got) != CC_KEY || (got[CK_PROTECT] >> 7) != prot) {
			fail(~0ULL, "CC_Key: %s %d not keyed (status %d)", what, n, st);
			return;
		}
		memset(d, 0, sizeof(d));
		/* a Get without the key: refused when protected */
		st = cc_ask(n, GET, CC_INFO, 0, NULL, NULL, 200);
		if (prot ? st != -1 : st != 0)
			fail(~0ULL, "CC_Key: %s %d, protect %d: a Get without the key got %d",
			     what, n, prot, st);
		st = cc_ask(n, GET, CC_CPI, CC_KEY ^ 1, NULL, NULL, 200);
		if (prot ? st != -1 : st != 0)
			fail(~0ULL, "CC_Key: %s %d, protect %d: a Get with a wrong key got %d",
			     what, n, prot, st);
		/* a Set without it: refused either way (a zero setting) */
		st = cc_ask(n, SET, setting, 0, d, NULL, 200);
		if (st != -1)
			fail(~0ULL, "CC_Key: %s %d, protect %d: a Set without the key got %d",
			     what, n, prot, st);
		st = cc_ask(n, GET, CC_KEYINFO, CC_KEY, NULL, got, 300);
		if (st || get64(got) != CC_KEY || get16(got + CK_VIOL) != (prot ? 3 : 1))
			fail(~0ULL, "CC_Key: %s %d, protect %d: with the key: status %d key 0x%" PRIx64 " violations %u, want %u",
			     what, n, prot, st, get64(got), get16(got + CK_VIOL),
			     prot ? 3 : 1);
	}
	cc_keyinfo(d, CC_KEY, true);
	if (cc_ask(n, SET, CC_KEYINFO, CC_KEY, d, NULL, 300)) {
		fail(~0ULL, "CC_Key: %s %d not keyed again", what, n);
		return;
	}
	cc_keyed[n] = true;
	cckey_checks++;
}

static void cckey_check(void)
{
	key_nodes(cckey_node);
	printf("# CC_Key checked and kept on %d node%s\n", cckey_checks,
	       cckey_checks == 1 ? "" : "s");
}

/*
 * A CongestionKeyInfo Set never keys a node the campaign does not keep
 * keyed nor unkeys one it does: to a kept node's LID it writes the key
 * with the protect bit and lease 0 (forever); to anyone else key 0, with
 * key 0 in the MAD, which a kept node refuses.
 */
static void keep_cc_keys(struct unit *x)
{
	uint8_t *m = FMAD(&x->f), *d = m + O_DATA;
	int n = x->node;

	if (m[1] != C_CC || m[3] != SET || get16(m + O_ATTR) != CC_KEYINFO)
		return;
	if (n >= 0 && cc_keyed[n] && get16(FMH(&x->f)) == nodes[n].lid) {
		put64(d, CC_KEY);
		d[CK_PROTECT] |= 0x80;
		put16(d + CK_LEASE, 0);
		return;
	}
	put64(d, 0);
	put64(m + O_CCKEY, 0);
	x->silent = false;
}

/*
 * The status of a CC request to @nd (congestion.md's table), with the
 * key check passed: ANY where two things are wrong at once or nobody
 * answers (a CA gives other methods to its host).
 */
static int cc_expect(const struct node *nd, uint8_t method, uint8_t version,
		     uint16_t attr, uint32_t mod, const uint8_t *d)
{
	bool sw = nd->sw, have, getonly = false, bad;

	if (method != GET && method != SET) {
		if (silent_method(method) || !sw)
			return ANY;
		return version == CC_VERSION ? ST_METHOD : ANY;
	}
	if (version != CC_VERSION)
		return ST_VERSION;
	switch (attr) {
	case CC_CPI:
	case CC_INFO:
	case CC_LOG:
	case CC_TIME:
		have = getonly = true;
		bad = mod != 0;
		break;
	case CC_KEYINFO:
		have = true;
		bad = mod != 0;
		break;
	case CC_SW:
		have = sw;
		bad = mod != 0;
		break;
	case CC_SWPORT:
		have = sw;
		bad = mod > nd->nports / CC_PORTS_BLOCK;
		break;
	case CC_CA:
		have = !sw;
		bad = mod != 0;
		break;
	case CC_TABLE:
		have = !sw;
		bad = mod >= CC_CCT_BLOCKS ||
		      (method == SET && get16(d) > CC_CCT_LIMIT);
		break;
	default:
		return ST_ATTR;
	}
	if (!have)
		return ST_ATTR;
	if (getonly && method == SET)
		return bad ? ANY : ST_ATTR;
	return bad ? ST_VALUE : 0;
}

/* The modifier of CC @attr at @nd: its index at the edges. */
static uint32_t cc_mod(struct rng *r, const struct node *nd, uint16_t attr)
{
	uint32_t max = pct(r, 70) ? 0xff : UINT32_MAX;

	switch (attr) {
	case CC_SWPORT:
		return edge(r, nd->sw ? nd->nports / CC_PORTS_BLOCK : 0, max);
	case CC_TABLE:
		return edge(r, CC_CCT_BLOCKS - 1, max);
	default:
		return pct(r, 80) ? 0 : edge(r, 0, max);
	}
}

/*
 * A CC request to a node's LID: Get and Set of every attribute and of
 * some nobody has, other methods and class versions, the modifiers and
 * CCTI_Limit at their edges, random data, with the node's CC_Key or
 * without it; now and then random bytes on top.
 */
static void unit_cc(struct rng *r, struct unit *x, uint64_t tid)
{
	static const uint16_t attrs[] = {
		CC_CPI, CC_INFO, CC_KEYINFO, CC_LOG, CC_SW, CC_SWPORT, CC_CA,
		CC_TABLE, CC_TIME,
	};
	static const uint16_t odd_attrs[] = {
		0x0000, 0x0002, 0x0010, 0x0019, 0x0020, 0x00ff, 0xff00, 0xffff,
	};
	static const uint8_t odd_versions[] = { 0, 1, 3, 0x80, 0xff };
	int n = (int)rnd(r, (uint32_t)nnodes);
	const struct node *nd = &nodes[n];
	uint16_t attr = pct(r, 90) ? PICK(r, attrs) :
			pct(r, 70) ? PICK(r, odd_attrs) : (uint16_t)rnd64(r);
	uint8_t method = pct(r, 55) ? GET : pct(r, 80) ? SET : any_method(r);
	uint8_t version = pct(r, 90) ? CC_VERSION : PICK(r, odd_versions);
	uint32_t mod = cc_mod(r, nd, attr);
	uint16_t dlid = lid_of(r, n);
	uint8_t *m = FMAD(&x->f), *d = m + O_DATA;
	uint64_t key;

	if (attr == CC_KEYINFO && method == SET)
		dlid = nd->lid;		/* see keep_cc_keys() */
	frame_init(&x->f, dlid, C_CC);
	mad_common(&x->f, C_CC, method, attr, mod, tid);
	m[2] = version;
	if (cc_keyed[n])
		key = pct(r, 60) ? CC_KEY : pct(r, 50) ? 0 : CC_KEY ^ (rnd64(r) | 1);
	else
		key = pct(r, 80) ? 0 : rnd64(r);
	put64(m + O_CCKEY, key);
	if (pct(r, 70))
		rnd_bytes(r, m + O_CCLOG, MAD - O_CCLOG);
	if (attr == CC_TABLE)
		put16(d, (uint16_t)edge(r, CC_CCT_LIMIT, 0xffff));
	x->expect = cc_expect(nd, method, version, attr, mod, d);
	x->no_answer = silent_method(method);
	x->lid = nd->lid;
	x->node = n;
	say(x, "CC to LID 0x%x (node %d, %s%s) version %u method 0x%02x attr 0x%04x mod 0x%x CC_Key 0x%" PRIx64,
	    dlid, n, nd->sw ? "switch" : "CA", cc_keyed[n] ? ", keyed" : "",
	    version, method, attr, mod, key);
	if (cc_keyed[n] && key != CC_KEY && version == CC_VERSION &&
	    (method == GET || method == SET)) {
		x->silent = true;
		x->expect = ANY;
	}
	if (dlid < nd->lid || dlid >= nd->lid + (1U << nd->lmc)) {
		x->expect = ANY;	/* to some other LID, or none */
		x->silent = false;
	}
	if (pct(r, 20)) {
		int k = 1 + (int)rnd(r, 4);

		for (int i = 0; i < k; i++) {
			uint32_t at = rnd(r, MAD - 8);

			m[at < O_TID ? at : at + 8] = (uint8_t)rnd(r, 256);
		}
		x->expect = ANY;
		x->silent = false;
		x->no_answer = silent_method(m[3]);
		say(x, "; %d random bytes", k);
	}
}

/* SA (0x03) requests with RMPP headers, and other classes, LID-routed. */
static void unit_class(struct rng *r, struct unit *x, uint64_t tid, bool sa)
{
	static const uint8_t classes[] = {
		0x00, 0x02, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0f, 0x10,
		0x30, 0x4f, 0x50, 0x80, 0x82, 0xff,	/* 0x21: unit_cc() */
	};
	static const uint16_t sa_attrs[] = { 0x0011, 0x0020, 0x0035, 0x0038, 0x00b0, 0xf311 };
	int n = (int)rnd(r, (uint32_t)nnodes);
	uint8_t class = sa ? C_SA : pct(r, 80) ? PICK(r, classes) : (uint8_t)rnd(r, 256);
	uint8_t method = pct(r, 60) ? (uint8_t)(1 + rnd(r, 3)) : any_method(r);
	uint16_t attr = sa ? PICK(r, sa_attrs) : (uint16_t)rnd64(r), dlid = lid_of(r, n);
	uint8_t *m = FMAD(&x->f);

	if (class == C_DR)
		class = C_SMP;	/* directed routes have units of their own */
	frame_init(&x->f, dlid, class);
	mad_common(&x->f, class, method, attr, (uint32_t)rnd64(r), tid);
	if (!sa)
		m[2] = (uint8_t)(pct(r, 50) ? 1 + rnd(r, 2) : rnd(r, 256));
	rnd_bytes(r, m + 24, MAD - 24);
	if (sa && pct(r, 70)) {		/* an RMPP header that looks right */
		m[24] = (uint8_t)(pct(r, 80) ? 1 : rnd(r, 256));
		m[25] = (uint8_t)rnd(r, 5);
		m[26] = (uint8_t)(rnd(r, 8) | 1);
		m[27] = 0;
		put32(m + 28, edge(r, 3, UINT32_MAX));
		put32(m + 32, edge(r, 220 * 3, UINT32_MAX));
	}
	x->no_answer = true;	/* no agent of ftsw serves these */
	say(x, "class 0x%02x version %u method 0x%02x attr 0x%04x to LID 0x%x",
	    class, m[2], method, attr, dlid);
}

static const uint8_t hop_counts[] = { 0, 1, 62, 63, 64, 65, 255 };
static const uint8_t path_ports[] = { 0, 1, 4, 5, 254, 255 };

/* A directed route with its hop count, pointer, paths or LIDs changed. */
static void unit_dr_path(struct rng *r, struct unit *x, uint64_t tid)
{
	int n = (int)rnd(r, (uint32_t)nnodes), k;
	const struct node *nd = &nodes[n];
	uint8_t *m = FMAD(&x->f), h = nd->hops;

	dr_smp(&x->f, nd->path, h, GET, pct(r, 50) ? A_NI : A_PI,
	       pct(r, 50) ? 0 : edge(r, nd->nports, 255), tid);
	say(x, "DR to node %d (%u hops), then", n, h);
	for (int i = 1 + (int)rnd(r, 3); i > 0; i--) {
		switch (rnd(r, 7)) {
		case 0:
			m[7] = pct(r, 50) ? PICK(r, hop_counts) :
					    (uint8_t)(h + rnd(r, 3) - 1);
			say(x, " hop count %u", m[7]);
			break;
		case 1:
			m[6] = (uint8_t)(pct(r, 50) ? h + rnd(r, 3) : PICK(r, hop_counts));
			say(x, " hop pointer %u", m[6]);
			break;
		case 2:
			k = 1 + (int)rnd(r, h ? h + 1 : 63);
			m[O_IPATH + k] = (uint8_t)edge(r, MAXP, 255);
			if (pct(r, 50))
				m[O_IPATH + k] = PICK(r, path_ports);
			say(x, " initial path[%d] %u", k, m[O_IPATH + k]);
			break;
		case 3:
			rnd_bytes(r, m + O_RPATH, 64);
			say(x, " return path random");
			break;
		case 4:
			m[4] |= 0x80;		/* D: as if returning */
			m[6] = (uint8_t)rnd(r, 66);
			say(x, " D bit, hop pointer %u", m[6]);
			break;
		case 5:
			k = (int)rnd(r, (uint32_t)nnodes);
			put16(m + (pct(r, 50) ? O_DRSLID : O_DRDLID), lid_of(r, k));
			put16(FMH(&x->f), lid_of(r, k));
			say(x, " DrSLID 0x%x DrDLID 0x%x LRH DLID 0x%x",
			    get16(m + O_DRSLID), get16(m + O_DRDLID), get16(FMH(&x->f)));
			break;
		default:
			m[3] = any_method(r);
			say(x, " method 0x%02x", m[3]);
			break;
		}
	}
	x->no_answer = silent_method(m[3]);
}

enum hdr_field {
	H_BASE, H_CLASS_VERSION, H_METHOD, H_STATUS, H_RESERVED, H_CLASS,
	H_DQPN, H_SQPN, H_SL_FLAGS, H_PKEY_SLID, H_SHORT, H_LONG, NHDR
};

static const char *const hdr_name[NHDR] = {
	"base version", "class version", "method", "status", "reserved",
	"class", "destination QP", "source QP", "SL and flags", "P_Key and SLID",
	"frame cut short", "frame padded",
};

static const uint8_t versions[] = { 0, 2, 3, 0x80, 0xff };
static const uint32_t qpns[] = { 0, 1, 2, 0xffffff, 0xffffffff };

/* A structured unit, then its headers or length changed. */
static void unit_header(struct rng *r, struct unit *x, uint64_t tid)
{
	uint8_t *m = FMAD(&x->f), *mh = FMH(&x->f);

	switch (rnd(r, 3)) {
	case 0:
		unit_smp(r, x, tid, pct(r, 50));
		break;
	default:
		unit_pma(r, x, tid);
		break;
	}
	say(x, "; then");
	for (int i = 1 + (int)rnd(r, 3); i > 0; i--) {
		int f = (int)rnd(r, NHDR);

		switch (f) {
		case H_BASE:
			m[0] = PICK(r, versions);
			break;
		case H_CLASS_VERSION:
			m[2] = PICK(r, versions);
			break;
		case H_METHOD:
			m[3] = any_method(r);
			break;
		case H_STATUS:
			put16(m + 4, (uint16_t)rnd64(r));
			break;
		case H_RESERVED:
			put16(m + 18, (uint16_t)rnd64(r));
			break;
		case H_CLASS:
			m[1] = (uint8_t)rnd(r, 256);
			break;
		case H_DQPN:
			put32(mh + 4, PICK(r, qpns));
			break;
		case H_SQPN:
			put32(mh + 8, PICK(r, qpns));
			break;
		case H_SL_FLAGS:
			mh[12] = (uint8_t)rnd(r, 256);
			mh[13] = (uint8_t)rnd(r, 256);
			break;
		case H_PKEY_SLID:
			put16(mh + 14, (uint16_t)rnd64(r));
			put16(mh + 2, (uint16_t)rnd64(r));
			break;
		case H_SHORT:
			x->f.len = ETH_HLEN + rnd(r, MH + MAD);
			break;
		default:
			x->f.len = FRAME + 1 + rnd(r, 100);
			rnd_bytes(r, x->f.b + FRAME, x->f.len - FRAME);
			break;
		}
		say(x, " %s", hdr_name[f]);
	}
	x->expect = ANY;
	x->plain_dr = false;
	x->no_answer = silent_method(m[3]);
}

static void unit_random(struct rng *r, struct unit *x)
{
	frame_init(&x->f, 0, C_SMP);
	x->f.len = ETH_HLEN + rnd(r, MH + MAD + 100);
	rnd_bytes(r, x->f.b + ETH_HLEN, x->f.len - ETH_HLEN);
	if (pct(r, 20))
		rnd_bytes(r, x->f.b, ETH_HLEN);
	x->no_answer = true;
	say(x, "%zu random bytes", x->f.len);
}

/* Unit @u: its frame and what its answer must be. */
static void unit_build(uint64_t u, struct unit *x)
{
	uint64_t tid = TID_UNIT | (u & TID_MASK);
	unsigned int w = 0, pick;
	struct rng r;

	memset(x, 0, sizeof(*x));
	x->node = -1;
	rng_unit(&r, seed, u);
	for (int k = 0; k < NKIND; k++)
		w += kind_weight[k];
	pick = rnd(&r, w);
	for (x->kind = 0; pick >= kind_weight[x->kind]; x->kind++)
		pick -= kind_weight[x->kind];
	x->expect = ANY;
	switch (x->kind) {
	case K_DR_SMP:
		unit_smp(&r, x, tid, true);
		break;
	case K_LR_SMP:
		unit_smp(&r, x, tid, false);
		break;
	case K_PMA:
		unit_pma(&r, x, tid);
		break;
	case K_SA:
	case K_CLASS:
		unit_class(&r, x, tid, x->kind == K_SA);
		break;
	case K_DR_PATH:
		unit_dr_path(&r, x, tid);
		break;
	case K_HDR:
		unit_header(&r, x, tid);
		break;
	case K_CC:
		unit_cc(&r, x, tid);
		break;
	default:
		unit_random(&r, x);
		break;
	}
	/* random bytes on top of a quarter of the structured ones */
	if (x->kind <= K_PMA && pct(&r, 25)) {
		int k = 1 + (int)rnd(&r, 4);

		for (int i = 0; i < k; i++) {
			uint32_t at = rnd(&r, MAD - 8);

			/* not the TID: it says which unit an answer is for */
			FMAD(&x->f)[at < O_TID ? at : at + 8] = (uint8_t)rnd(&r, 256);
		}
		x->expect = ANY;
		x->echo = false;
		x->plain_dr = false;
		x->no_answer = silent_method(FMAD(&x->f)[3]);
		say(x, "; %d random bytes", k);
	}
	keep_own_cable(x, x->node, get32(FMAD(&x->f) + O_MOD));
	keep_keys(x);
	keep_cc_keys(x);
}

/* ---------------------------------------------------------------- answers */

/* Statuses an agent may answer (IBA vol. 1, table 113): busy, redirect,
 * bad version, method, method/attribute, value. */
static bool status_known(uint16_t st)
{
	return st == 0 || st == 0x01 || st == 0x02 || st == 0x04 ||
	       st == 0x08 || st == ST_ATTR || st == ST_VALUE;
}

/* An answer (MAD header @mh, MAD @m) to unit @u, whose request was @p. */
static void check_answer(uint64_t u, struct pend *p, const uint8_t *mh,
			 const uint8_t *m)
{
	uint16_t st = mad_status(m), attr = get16(m + O_ATTR);
	bool d = m[4] & 0x80;

	if (get32(m + O_MOD) != p->mod) {
		unmatched++;	/* another's, whose TID a random frame hit */
		return;
	}
	p->tid = 0;		/* one answer each */
	answers_by[p->kind]++;
	status_seen[st & 0x7f]++;
	if (p->silent && (!p->lid || get16(mh + 2) == p->lid)) {
		fail(u, "answered (status 0x%02x) without the node's CC_Key: %s",
		     st, p->what);
		return;
	}
	if (p->no_answer)
		return;		/* our own request, given back to this host */
	if (m[1] != p->class || attr != p->attr || m[3] != GETRESP ||
	    d != (p->class == C_DR) || !status_known(st)) {
		fail(u, "answer class 0x%02x attr 0x%04x method 0x%02x D %d status 0x%04x to class 0x%02x attr 0x%04x",
		     m[1], attr, m[3], d, st, p->class, p->attr);
		return;
	}
	if (p->plain_dr && m[6] != 0)
		fail(u, "a directed-route answer back with hop pointer %u", m[6]);
	/*
	 * LID-routed, the status is the node's the sweep found at that LID,
	 * unless a unit gave its LID to another or routed it elsewhere since:
	 * the answer's SLID says who answered.
	 */
	if (p->expect == ANY || (p->lid && get16(mh + 2) != p->lid))
		return;
	oracle_answered++;
	if (st == p->expect || (st == 0x01 && p->method == SET))
		oracle_ok++;
	else
		fail(u, "status 0x%02x where IBA gives 0x%02x: %s", st, p->expect,
		     p->what);
	for (int i = 0; p->echo && !st && i < 64; i++)
		if ((m[O_DATA + i] ^ p->data[i]) & p->dmask[i]) {
			fail(u, "the answer's data byte %d 0x%02x, 0x%02x set (mask 0x%02x): %s",
			     i, m[O_DATA + i], p->data[i], p->dmask[i], p->what);
			break;
		}
}

/* Take what came back; wait up to @ms for more. */
static void take(uint64_t u, int ms)
{
	uint8_t buf[FRAME + 1];
	double end = elapsed() + ms / 1000.0;
	ssize_t n;

	do {
		while ((n = recv_frame(buf, 0)) > 0) {
			const uint8_t *m = buf + ETH_HLEN + MH;
			uint64_t tid, w;
			struct pend *p;

			frames_in++;
			if (!frame_ok(buf, n, u))
				continue;
			tid = get64(m + O_TID);
			w = tid & TID_MASK;
			p = &pend[w % NPEND];
			if ((tid & ~TID_MASK) != TID_UNIT || p->tid != tid) {
				unmatched++;
				continue;
			}
			if (!(m[3] & 0x80)) {
				back_to_host++;	/* a request given to this host */
				continue;
			}
			check_answer(w, p, buf + ETH_HLEN, m);
		}
		if (ms)
			usleep(2000);
	} while (elapsed() < end);
}

/* ---------------------------------------------------------------- run */

static void hex(const struct frame *f)
{
	for (size_t i = 0; i < f->len; i++)
		printf("%s%02x", i % 32 ? "" : "\n#   ", f->b[i]);
	printf("\n");
}

static void unit_run(uint64_t u)
{
	struct unit x;
	struct pend *p = &pend[u % NPEND];

	unit_build(u, &x);
	units_by[x.kind]++;
	*p = (struct pend){
		.tid = get64(FMAD(&x.f) + O_TID), .kind = x.kind,
		.class = FMAD(&x.f)[1], .method = FMAD(&x.f)[3],
		.attr = get16(FMAD(&x.f) + O_ATTR), .expect = x.expect,
		.mod = get32(FMAD(&x.f) + O_MOD), .lid = x.lid,
		.no_answer = x.no_answer, .plain_dr = x.plain_dr,
		.silent = x.silent,
		.echo = x.echo,
	};
	memcpy(p->data, FMAD(&x.f) + O_DATA, 64);
	memcpy(p->dmask, x.dmask, 64);
	snprintf(p->what, sizeof(p->what), "%s", x.what);
	if (x.expect != ANY)
		oracle_units++;
	if (trace)
		printf("# unit %" PRIu64 " [%s]: %s%s\n", u, kind_name[x.kind],
		       x.what, x.expect == ANY ? "" : x.expect == 0 ?
		       "; must succeed" : x.expect == ST_VALUE ?
		       "; must get 0x1C" : "; must get another status");
	if (trace && x.silent)
		printf("#   (must not be answered: not the node's CC_Key)\n");
	if (hexdump)
		hex(&x.f);
	send_frame(&x.f);
	kmsg_check(u);
	take(u, trace ? 50 : 0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: madfuzz [--dev DEV] --seed S [--first I] [--count N] [--seconds T]\n"
		"               [--sweep-every K] [--lid-base LID] [--min-answered PCT]\n"
		"               [--trace] [--hex]\n");
	exit(2);
}

static uint64_t num(const char *o, const char *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || !*v || *end || *v == '-') {
		fprintf(stderr, "madfuzz: %s: bad number '%s'\n", o, v);
		exit(2);
	}
	return x;
}

static void summary(uint64_t last, double secs)
{
	printf("# madfuzz seed %" PRIu64 " units %" PRIu64 "..%" PRIu64 ": %" PRIu64
	       " frames sent in %.1f s (%.0f/s), %" PRIu64 " back, %" PRIu64
	       " sweeps\n", seed, first_unit, last, sent, secs,
	       secs > 0 ? (double)sent / secs : 0.0, frames_in, sweeps);
	for (int k = 0; k < NKIND; k++)
		printf("#   %-22s %8" PRIu64 " units, %8" PRIu64 " answered\n",
		       kind_name[k], units_by[k], answers_by[k]);
	printf("#   statuses:");
	for (int i = 0; i < 0x80; i++)
		if (status_seen[i])
			printf(" 0x%02x x %" PRIu64, i, status_seen[i]);
	printf("\n#   index fields with a status IBA fixes: %" PRIu64 " sent, %"
	       PRIu64 " answered, %" PRIu64 " as IBA says\n", oracle_units,
	       oracle_answered, oracle_ok);
	printf("#   %" PRIu64 " requests given back to this host, %" PRIu64
	       " frames of no unit (answers to changed TIDs, traps)\n",
	       back_to_host, unmatched);
}

int main(int argc, char **argv)
{
	const char *dev = "eth0";
	struct sockaddr_ll a = { .sll_family = AF_PACKET };
	uint64_t u;
	double secs;

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--trace")) {
			trace = true;
			continue;
		}
		if (!strcmp(o, "--hex")) {
			hexdump = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(o, "--dev"))
			dev = v;
		else if (!strcmp(o, "--seed"))
			seed = num(o, v);
		else if (!strcmp(o, "--first"))
			first_unit = num(o, v);
		else if (!strcmp(o, "--count"))
			nunits = num(o, v), count_given = true;
		else if (!strcmp(o, "--seconds"))
			seconds = (double)num(o, v);
		else if (!strcmp(o, "--sweep-every"))
			sweep_every = num(o, v) ? num(o, v) : 1;
		else if (!strcmp(o, "--lid-base"))
			lid_base = (uint16_t)num(o, v);
		else if (!strcmp(o, "--min-answered"))
			min_answered = (unsigned int)num(o, v);
		else
			usage();
	}
	if (!seconds)
		count_given = true;
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex)
		die("--dev %s: no such device", dev);
	sk = socket(AF_PACKET, SOCK_RAW, htons(FTSW_ETH_P_MAD));
	if (sk < 0)
		die("AF_PACKET socket: %s", strerror(errno));
	a.sll_protocol = htons(FTSW_ETH_P_MAD);
	a.sll_ifindex = ifindex;
	if (bind(sk, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("bind to %s: %s", dev, strerror(errno));
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	else
		printf("# /dev/kmsg: %s: kernel reports are not watched\n",
		       strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sweep();
	print_fabric();
	if (self_sw < 0)
		die("no switch behind this host's port");
	mkey_check();
	cckey_check();
	for (u = first_unit;; u++) {
		if ((seconds && elapsed() >= seconds) ||
		    (count_given && u >= first_unit + nunits))
			break;
		if (failures >= 20 || (failures && kmsg_found))
			break;
		if (u != first_unit && u % sweep_every == 0) {
			take(u, 100);
			sweep();
		}
		unit_run(u);
	}
	take(u, 300);
	kmsg_check(u ? u - 1 : 0);
	secs = elapsed();
	summary(u ? u - 1 : 0, secs);
	if (min_answered && oracle_units &&
	    oracle_answered * 100 < (uint64_t)min_answered * oracle_units)
		fail(~0ULL, "only %" PRIu64 " of %" PRIu64 " index checks were answered (want %u %%): the campaign reaches too little",
		     oracle_answered, oracle_units, min_answered);
	printf("# next unit %" PRIu64 "\n", u);
	return failures ? 1 : 0;
}
