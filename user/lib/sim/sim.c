// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level simulator (sim.h; the model in Documentation/sim.md).
 *
 * Virtual cut-through moves whole packets whose flits follow each other one
 * per cycle, so a packet's progress is exactly described by the cycle its
 * head reaches each buffer: the engine keeps packets, not flits, and a
 * time wheel of wake-ups per resource (an output port's crossbar, a link,
 * a returning credit). Each wake-up re-runs that resource's arbitration;
 * wake-ups are idempotent, so every condition that blocks a packet only
 * needs the event that lifts it to schedule one. Flit timing is exact:
 * a link or a crossbar port is busy P cycles per packet, a buffer slot is
 * held until the packet's tail has left it.
 *
 * Timing of one hop (L link latency, R router latency, P flits):
 *   head leaves on a link at s          -> head in the next input buffer
 *                                          at s + L
 *   head in input buffer at a           -> crossbar may start at a + R - 1,
 *                                          head in the output buffer one
 *                                          cycle later (a + R when idle)
 *   crossbar start x                    -> input slot free at x + P, the
 *                                          credit upstream at x + P - 1 + L
 *   link start s                        -> output slot free at s + P
 * A packet of h switches on an idle fabric: (h + 1) L + h R cycles for the
 * head, plus P for the tail to be received.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim/sim.h"
#include "util/parse.h"

void ftsw_sim_opts_default(struct ftsw_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->packet_flits = 10;
	o->msg_packets = 10;
	o->in_buf = 4;
	o->out_buf = 4;
	o->link_latency = 1;
	o->router_latency = 1;
	o->seed = 1;
	o->warmup = 10000;
	o->measure = 20000;
}

const char *ftsw_sim_policy_name(enum ftsw_sim_policy p)
{
	switch (p) {
	case FTSW_SIM_RANDOM: return "random";
	case FTSW_SIM_HASH: return "hash";
	case FTSW_SIM_RR: return "rr";
	case FTSW_SIM_PACKET: return "packet";
	case FTSW_SIM_SPREAD: return "spread";
	}
	return "?";
}

int ftsw_sim_policy_parse(const char *s, enum ftsw_sim_policy *p,
			  struct ftsw_err *err)
{
	if (!strcmp(s, "random"))
		*p = FTSW_SIM_RANDOM;
	else if (!strcmp(s, "hash"))
		*p = FTSW_SIM_HASH;
	else if (!strcmp(s, "rr") || !strcmp(s, "round-robin"))
		*p = FTSW_SIM_RR;
	else if (!strcmp(s, "packet"))
		*p = FTSW_SIM_PACKET;
	else if (!strcmp(s, "spread"))
		*p = FTSW_SIM_SPREAD;
	else {
		ftsw_err_set(err, "--path-policy '%s': expected random, hash, "
			     "rr, packet or spread", s);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- traffic */

void ftsw_sim_traffic_free(struct ftsw_sim_traffic *tr)
{
	free(tr->start);
	free(tr->dst);
	free(tr->cum);
	memset(tr, 0, sizeof(*tr));
}

/*
 * One stage's flows, one pass: pass 0 counts them per source in cnt[],
 * pass 1 writes them at cnt[src] (the sources' running offsets).
 */
static void traffic_stage(struct ftsw_sim_traffic *tr,
			  const struct ftsw_tm *tm, uint32_t *cnt, int pass)
{
	uint32_t a, b;
	size_t i;

	if (tm->all_to_all) {
		for (a = 0; a < tm->n; a++)
			for (b = 0; b < tm->n; b++) {
				if (a == b)
					continue;
				if (pass == 0) {
					cnt[a]++;
					continue;
				}
				i = cnt[a]++;
				tr->dst[i] = b;
				tr->cum[i] = tm->a2a;
			}
		return;
	}
	for (i = 0; i < tm->nflows; i++) {
		const struct ftsw_flow *f = &tm->f[i];
		size_t k;

		if (f->src == f->dst || f->amount <= 0)
			continue;
		if (pass == 0) {
			cnt[f->src]++;
			continue;
		}
		k = cnt[f->src]++;
		tr->dst[k] = f->dst;
		tr->cum[k] = f->amount;
	}
}

/* After the counting pass: the CSR arrays, cnt[] turned into offsets. */
static int traffic_alloc(struct ftsw_sim_traffic *tr, uint32_t nhosts,
			 uint32_t *cnt, struct ftsw_err *err)
{
	size_t total = 0;
	uint32_t h;

	tr->start = malloc((nhosts + 1) * sizeof(*tr->start));
	for (h = 0; h < nhosts; h++)
		total += cnt[h];
	tr->dst = malloc((total + 1) * sizeof(*tr->dst));
	tr->cum = malloc((total + 1) * sizeof(*tr->cum));
	if (!tr->start || !tr->dst || !tr->cum || total > UINT32_MAX) {
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	total = 0;
	for (h = 0; h < nhosts; h++) {
		tr->start[h] = (uint32_t)total;
		total += cnt[h];
		cnt[h] = tr->start[h];
	}
	tr->start[nhosts] = (uint32_t)total;
	return 0;
}

/* Amounts into cumulative sums per source; count the active sources. */
static void traffic_cumulate(struct ftsw_sim_traffic *tr)
{
	uint32_t h;
	size_t i;

	for (h = 0; h < tr->nhosts; h++) {
		double c = 0;

		for (i = tr->start[h]; i < tr->start[h + 1]; i++) {
			c += tr->cum[i];
			tr->cum[i] = c;
		}
		if (tr->start[h + 1] > tr->start[h])
			tr->active++;
	}
}

/* The pattern's flows (ordered by ord) as per-source destination lists. */
static int traffic_fill(struct ftsw_sim_traffic *tr, struct ftsw_pattern *p,
			const uint32_t *ord, uint32_t nhosts, uint32_t *cnt,
			struct ftsw_err *err)
{
	unsigned s;

	/* two passes over every stage: count per source, then fill */
	for (int pass = 0; pass < 2; pass++) {
		for (s = 0; s < p->nstages; s++) {
			if (pass == 0)
				ftsw_tm_apply_order(&p->stages[s], ord, nhosts);
			traffic_stage(tr, &p->stages[s], cnt, pass);
		}
		if (pass == 0 && traffic_alloc(tr, nhosts, cnt, err))
			return -1;
	}
	traffic_cumulate(tr);
	return 0;
}

int ftsw_sim_traffic_make(const struct ftsw_topo *t, const char *pattern,
			  const char *order, uint32_t ranks,
			  struct ftsw_sim_traffic *tr, struct ftsw_err *err)
{
	struct ftsw_pattern p;
	uint32_t *ord, *cnt;
	int rc;

	memset(tr, 0, sizeof(*tr));
	tr->nhosts = t->nhosts;
	snprintf(tr->name, sizeof(tr->name), "%s", pattern);
	if (t->nhosts < 2) {
		ftsw_err_set(err, "the fabric needs at least 2 hosts");
		return -1;
	}
	if (!strcmp(pattern, "uniform")) {
		tr->uniform = true;
		tr->active = t->nhosts;
		return 0;
	}
	if (!ranks)
		ranks = t->nhosts;
	if (ranks < 2 || ranks > t->nhosts) {
		ftsw_err_set(err, "--ranks %u: must be 2..%u", ranks,
			     t->nhosts);
		return -1;
	}
	ord = malloc(t->nhosts * sizeof(*ord));
	cnt = calloc(t->nhosts + 1, sizeof(*cnt));
	if (!ord || !cnt) {
		free(ord);
		free(cnt);
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	if (ftsw_order_make(order, t, ranks, ord, err) ||
	    ftsw_pattern_make(pattern, ranks, t, &p, err)) {
		free(ord);
		free(cnt);
		return -1;
	}
	rc = traffic_fill(tr, &p, ord, t->nhosts, cnt, err);
	ftsw_pattern_free(&p);
	free(ord);
	free(cnt);
	if (rc) {
		ftsw_sim_traffic_free(tr);
		return -1;
	}
	if (!tr->active) {
		ftsw_err_set(err, "pattern '%s' has no flow between distinct "
			     "hosts", pattern);
		ftsw_sim_traffic_free(tr);
		return -1;
	}
	return 0;
}

/* ----------------------------------------------------------- the engine */

enum { PF_HOST = 1, PF_PEER_HOST = 2, PF_MASK = 4 };
enum { EV_XBAR = 0, EV_LINK = 1, EV_CREDIT = 2, EV_INFREE = 3 };
#define EV(type, id)	(((uint32_t)(type) << 28) | (id))
#define EV_ID_MAX	((1u << 28) - 1)
#define NO_PKT		UINT32_MAX
#define EV_AHEAD	4	/* events prefetched ahead (run_cycle) */
#define INF_CREDIT	0xffff

/* A port's state, one cache line (64 bytes, aligned). */
struct sport {
	uint32_t link_free, xin_free, xout_free;	/* busy until */
	uint32_t peer;		/* peer's port id, FTSW_NONE */
	uint32_t pnode;		/* node owning the port */
	uint32_t pbase;		/* first port id of its node */
	uint32_t pidx;		/* switch or host index of its node */
	uint16_t rr_in;		/* crossbar round robin */
	uint8_t tx_vl, rr_vl;	/* VL on the wire, link round robin */
	uint8_t plocal;		/* port number on its node */
	uint8_t pnp;		/* ports of its node */
	uint8_t pflags;		/* PF_* */
	uint8_t pad[3];
	uint64_t reqmask;	/* output port: requesting (input, VL), when
				 * the switch has at most 64 of them */
	uint8_t pad_line[16];	/* one record, one cache line */
};

/*
 * A port's VL: credits towards the peer, its two buffer rings. The record
 * is followed in memory by its rings (INQ, CRQ, OUTQ below), so that a
 * buffer's counters and its slots share cache lines.
 */
struct spv {
	uint64_t flits;		/* sent in the measured window */
	uint32_t in_ht, out_ht;	/* head packet's arrival time */
	uint16_t credits;	/* in hand (returns not yet counted aside) */
	uint8_t req;		/* local out port of the input head, 0 none */
	uint8_t in_head, in_cnt, out_head, out_cnt;
	uint8_t cr_head, cr_cnt;	/* credit returns on their way */
	uint8_t cwait;		/* the link waits for a credit of this VL */
};

struct pkt {
	uint32_t msg;
	uint32_t dlid;
	uint32_t t;		/* head arrival at the current buffer */
	uint8_t vl, out;	/* VL, output port at the current switch */
	uint8_t hops;		/* switch-to-switch links taken */
	uint8_t known;		/* route[] bits valid */
	uint8_t route[8];	/* the message's LFT results, as known at
				 * injection (saves reading the message) */
	uint32_t pad;
};

struct msg {
	uint32_t created, first;	/* arrival, first flit on the wire */
	uint32_t dst;
	uint16_t to_inject, to_deliver;
	uint8_t offset, vl, measured, known;	/* known: route[] bits */
	uint32_t pad;
	uint8_t route[8];	/* LFT result at the k-th switch, memoised */
};

struct hostq {		/* a source's queued messages (ring of msg ids) */
	uint32_t *id;
	uint32_t cap, head, cnt;
	uint64_t rng;
	uint32_t rr;		/* round-robin offset counter */
	uint32_t sent;		/* count mode: messages generated */
	uint32_t cur;		/* --interleave: next message's position */
	double next;		/* next arrival time */
};

/*
 * An entry of the arrivals' heap: the host and a copy of its hq.next, so
 * that a comparison reads no hostq (a 65,536-host heap is 16 levels).
 */
struct hent {
	double next;
	uint32_t h;
};

struct bucket {
	uint32_t *ev;
	uint32_t n, cap;
};

/* latency histogram: exact below 2^16 cycles, by 2^16 above */
#define HFINE	65536u
struct hist {
	uint64_t *fine, *coarse;
	uint64_t n;
	double sum;
};

/* Packets and messages: arrays grown by doubling, with a free list. */
struct pool {
	void *items;
	uint32_t *next;		/* free-list links */
	size_t size;		/* bytes per item */
	uint32_t n, cap, free;	/* used, allocated, free-list head */
	bool fixed;		/* phased: a thread's range [n, cap) of a
				 * reserved array that never moves */
};

struct phased;
#define PH_NOMEM (-2)	/* run_phased(): no memory for its set-up */

struct sim {
	const struct ftsw_routing *r;
	const struct ftsw_topo *t;
	const struct ftsw_sim_traffic *tr;
	struct ftsw_sim_opts o;
	unsigned V, P, L, R, Bin, Bout;
	unsigned Px;		/* crossbar time of a packet, ceil(P / S) */
	bool per_packet;	/* the path is chosen per packet */
	uint8_t *pair_rr;	/* spread: next offset index per (src, dst) */
	uint32_t nports, now;
	uint32_t win0, win1;	/* measured window [win0, win1) */
	double load, mean_gap;

	/* per port record (link id), and per port per VL */
	/*
	 * per port record (link id), and per port per VL (port * V + v) a
	 * struct spv and its rings, pv_size bytes apart (PV(), INQ(), ...)
	 */
	struct sport *pt;
	unsigned char *pv;
	size_t pv_size;
	uint64_t *link_flits;

	struct pkt *pk;		/* = pkp.items */
	struct msg *ms;		/* = msp.items */
	struct pool pkp, msp;

	struct hostq *hq;
	uint32_t *hport;	/* host -> port id of its uplink */
	uint8_t *noff;		/* host -> number of offsets */
	uint8_t *offs;		/* host * 128 + i */
	/* arrivals: binary heap of hosts by next arrival time */
	struct hent *heap;
	uint32_t nheap;

	struct bucket *wheel;
	uint32_t wmask;

	struct hist hmsg, hpkt;
	double net_sum;
	uint64_t net_n;
	uint64_t flits_offered, flits_accepted, flit_hops;
	uint64_t pk_injected, pk_delivered, pk_dropped, pk_in_net;
	uint64_t msgs_measured, msgs_done, msgs_total, msgs_left;
	uint32_t last_move;
	uint32_t *visit;	/* deadlock walk stamps, per port * V */
	uint32_t *dropq;	/* packets dropped this cycle (event engine) */
	uint32_t ndrop, dropq_cap;
	struct ftsw_sim_result *res;
	struct ftsw_err *err;
	int failed;

	/* the phased engine: shared state, this thread, sort buffer */
	struct phased *g;
	unsigned tid;
	bool in_b;			/* applying the mails (phase B) */
	uint32_t *tmp;
	uint32_t tmp_cap;
};

_Static_assert(sizeof(struct sport) == 64, "a port record is a cache line");

/*
 * Port VL i's record and its rings: input buffer (Bin packet ids), credit
 * return times (Bin), output buffer (Bout packet ids).
 */
#define PV(s, i)	((struct spv *)((s)->pv + (size_t)(i) * (s)->pv_size))
#define INQ(s, i)	((uint32_t *)(PV(s, i) + 1))
#define CRQ(s, i)	(INQ(s, i) + (s)->Bin)
#define OUTQ(s, i)	(INQ(s, i) + 2 * (s)->Bin)

/*
 * The phased engine (--phased). The ports are split in T ranges on node
 * boundaries, one per thread, each with its own time wheel, arrivals heap,
 * counters and pool ranges. A cycle has two phases separated by barriers:
 * A, each thread runs the arrivals of its hosts and its bucket's events,
 * sorted and without repeats (so in an order that does not depend on the
 * order of the pushes); every effect on another node (a packet reaching
 * the next input buffer, a credit returning upstream, a drop counted at
 * the destination, a pool item going home) becomes a mail, even when the
 * node is the thread's own. B, each thread applies the mails for its
 * ports. These effects commute, and in phase A a node reads and writes
 * only its own state (and constants), so the run is the same for any T.
 */
#define PH_MAXT	64
enum { M_ARRIVE, M_CREDIT, M_DROP, M_FREE_PKT, M_FREE_MSG };

struct mail {
	uint32_t kind, a, b;
};

struct mbox {
	struct mail *m;
	uint32_t n, cap;
};

/* What the threads tell each other at the end of a cycle. */
struct phpub {
	uint64_t msgs_done, msgs_measured, msgs_left;
	uint32_t nheap;
	int failed;
};

struct phased {
	unsigned T;
	uint32_t pstart[PH_MAXT + 1];	/* thread t: [pstart[t], pstart[t+1]) */
	uint32_t pk_per, ms_per;	/* pool items per thread */
	size_t pk_bytes, ms_bytes;	/* the reserved pools' mappings */
	struct sim *th[PH_MAXT];
	struct mbox *box;		/* box[from * T + to] */
	atomic_uint cnt, gen;		/* the barrier */
	struct phpub pub[2][PH_MAXT];	/* by cycle parity */
	struct mbox *defer;		/* per thread: frees from phase B */
	atomic_int go;			/* start gate: 1 run, -1 give up */
	int verdict;			/* thread 0's checks: 0, 1 stop, -1 */
	int rc;
	double cpu[PH_MAXT];
	const struct ftsw_sim_opts *o;
	double load;
	uint64_t last_progress;
};

static inline unsigned owner(const struct phased *g, uint32_t port)
{
	unsigned t = 0;

	while (t + 1 < g->T && port >= g->pstart[t + 1])
		t++;
	return t;
}

static __attribute__((noinline)) void mail(struct sim *s, unsigned to,
					   uint32_t kind, uint32_t a,
					   uint32_t b)
{
	struct mbox *x = &s->g->box[s->tid * s->g->T + to];

	/* phase B (a drop's frees): sent at the next phase A */
	if (s->in_b) {
		x = &s->g->defer[s->tid];
		b = to;
	}
	if (x->n == x->cap) {
		uint32_t nc = x->cap ? x->cap * 2 : 1024;
		struct mail *nm = realloc(x->m, nc * sizeof(*nm));

		if (!nm) {
			s->failed = 1;
			return;
		}
		x->m = nm;
		x->cap = nc;
	}
	x->m[x->n].kind = kind;
	x->m[x->n].a = a;
	x->m[x->n++].b = b;
}

/*
 * Zeroed, cache-aligned memory for the per-port arrays. Large ones (a
 * 65,536-host fabric: tens of MB, read at random every hop) ask for huge
 * pages, which spares most of the TLB misses; the contents are the same.
 */
static void *zalloc_big(size_t sz)
{
	size_t huge = 2u << 20;
	void *p;

	if (sz >= 4 * huge) {
		sz = (sz + huge - 1) & ~(huge - 1);
		p = aligned_alloc(huge, sz);
		if (p)
			madvise(p, sz, MADV_HUGEPAGE);
	} else {
		sz = (sz + 63) & ~(size_t)63;
		p = aligned_alloc(64, sz ? sz : 64);
	}
	if (p)
		memset(p, 0, sz);
	return p;
}

static int hist_init(struct hist *h)
{
	h->fine = calloc(HFINE, sizeof(*h->fine));
	h->coarse = calloc(HFINE, sizeof(*h->coarse));
	return h->fine && h->coarse ? 0 : -1;
}

static void hist_free(struct hist *h)
{
	free(h->fine);
	free(h->coarse);
}

static inline void hist_add(struct hist *h, uint32_t v)
{
	if (v < HFINE)
		h->fine[v]++;
	else
		h->coarse[v >> 16]++;
	h->n++;
	h->sum += v;
}

static double hist_q(const struct hist *h, double q)
{
	uint64_t want, acc = 0;
	uint32_t i;

	if (!h->n)
		return NAN;
	want = (uint64_t)ceil(q * h->n);
	if (want < 1)
		want = 1;
	for (i = 0; i < HFINE; i++) {
		acc += h->fine[i];
		if (acc >= want)
			return i;
	}
	for (i = 1; i < HFINE; i++) {
		acc += h->coarse[i];
		if (acc >= want)
			return (double)i * HFINE;
	}
	return NAN;
}

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static inline double unit(uint64_t *s)
{
	return (ftsw_rand_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* A full bucket grows (rarely: buckets keep their size between laps). */
static __attribute__((noinline)) int bucket_grow(struct sim *s,
						  struct bucket *b)
{
	uint32_t nc = b->cap ? b->cap * 2 : 64;
	uint32_t *ne = realloc(b->ev, nc * sizeof(*ne));

	if (!ne) {
		s->failed = 1;
		return -1;
	}
	b->ev = ne;
	b->cap = nc;
	return 0;
}

static inline void push_ev(struct sim *s, uint32_t when, uint32_t ev)
{
	struct bucket *b = &s->wheel[when & s->wmask];

	if (b->n == b->cap && bucket_grow(s, b))
		return;
	b->ev[b->n++] = ev;
}

/*
 * Index of a free item of a pool: the last freed one, else the next never
 * used, growing the pool (items and free-list links) by doubling.
 */
static uint32_t pool_alloc(struct sim *s, struct pool *p)
{
	uint32_t i = p->free;

	if (i != NO_PKT) {
		p->free = p->next[i];
		return i;
	}
	if (p->fixed) {
		if (p->n == p->cap) {
			s->failed = 1;
			return NO_PKT;
		}
		return p->n++;
	}
	if (p->n == p->cap) {
		uint32_t nc = p->cap * 2;
		void *ni = realloc(p->items, (size_t)nc * p->size);
		uint32_t *nn = ni ? realloc(p->next, nc * sizeof(*nn)) : NULL;

		if (ni)
			p->items = ni;
		if (!ni || !nn) {
			s->failed = 1;
			return NO_PKT;
		}
		p->next = nn;
		p->cap = nc;
	}
	return p->n++;
}

static int pool_init(struct pool *p, size_t size, uint32_t cap)
{
	p->size = size;
	p->cap = cap;
	p->n = 0;
	p->free = NO_PKT;
	p->items = malloc(cap * size);
	p->next = malloc(cap * sizeof(*p->next));
	return p->items && p->next ? 0 : -1;
}

static void pool_free(struct pool *p, uint32_t i)
{
	p->next[i] = p->free;
	p->free = i;
}

/* Phased: an item goes back to the thread whose range holds it. */
static inline void pkt_free(struct sim *s, uint32_t i)
{
	if (s->g && i / s->g->pk_per != s->tid) {
		mail(s, i / s->g->pk_per, M_FREE_PKT, i, 0);
		return;
	}
	pool_free(&s->pkp, i);
}

static inline void msg_free(struct sim *s, uint32_t i)
{
	if (s->g && i / s->g->ms_per != s->tid) {
		mail(s, i / s->g->ms_per, M_FREE_MSG, i, 0);
		return;
	}
	pool_free(&s->msp, i);
}

static uint32_t pkt_alloc(struct sim *s)
{
	uint32_t i = pool_alloc(s, &s->pkp);

	s->pk = s->pkp.items;	/* it may have moved */
	return i;
}

static uint32_t msg_alloc(struct sim *s)
{
	uint32_t i = pool_alloc(s, &s->msp);

	s->ms = s->msp.items;
	return i;
}

/* x mod n for x < 2n, without a division */
static inline unsigned wrap(unsigned x, unsigned n)
{
	return x >= n ? x - n : x;
}

/* x / V and x % V, the division skipped with one VL */
static inline uint32_t div_v(const struct sim *s, size_t x)
{
	return (uint32_t)(s->V == 1 ? x : x / s->V);
}

static inline unsigned mod_v(const struct sim *s, size_t x)
{
	return s->V == 1 ? 0 : (unsigned)(x % s->V);
}

static inline bool in_window(const struct sim *s, uint32_t t)
{
	return t >= s->win0 && t < s->win1;
}

/* Output buffer occupancy: queued plus the one on the wire until its tail. */
static inline unsigned out_occ(const struct sim *s, uint32_t o, unsigned v)
{
	return PV(s, o * s->V + v)->out_cnt +
	       (s->pt[o].link_free > s->now && s->pt[o].tx_vl == v);
}

/*
 * Credits: a return is queued with its arrival time instead of being an
 * event; the sender counts those due. Only a link that found none wakes
 * on the next return.
 */
static inline unsigned cred_avail(const struct sim *s, size_t idx)
{
	const struct spv *x = PV(s, idx);
	unsigned c = x->credits, k, h = x->cr_head;

	for (k = 0; k < x->cr_cnt; k++) {
		if (CRQ(s, idx)[h] > s->now)
			break;
		c++;
		h = wrap(h + 1, s->Bin);
	}
	return c;
}

static inline void cred_take(struct sim *s, size_t idx)
{
	struct spv *x = PV(s, idx);

	while (x->cr_cnt && CRQ(s, idx)[x->cr_head] <= s->now) {
		x->credits++;
		x->cr_head = (uint8_t)wrap(x->cr_head + 1u, s->Bin);
		x->cr_cnt--;
	}
	x->credits--;
}

/* Link o found no credit for VL idx: wake it when one arrives. */
static void cred_wait(struct sim *s, size_t idx, uint32_t o)
{
	struct spv *x = PV(s, idx);

	if (x->cr_cnt)
		push_ev(s, CRQ(s, idx)[x->cr_head], EV(EV_LINK, o));
	else
		x->cwait = 1;
}

static void cred_return(struct sim *s, size_t idx, uint32_t when)
{
	struct spv *x = PV(s, idx);

	CRQ(s, idx)[wrap(x->cr_head + x->cr_cnt, s->Bin)] = when;
	x->cr_cnt++;
	if (x->cwait) {
		x->cwait = 0;
		push_ev(s, when, EV(EV_LINK, div_v(s, idx)));
	}
}

static void deliver(struct sim *s, struct pkt *p, uint32_t pi, uint32_t tail)
{
	struct msg *m = &s->ms[p->msg];

	s->pk_delivered++;
	s->pk_in_net--;
	if (in_window(s, tail))
		s->flits_accepted += s->P;
	if (m->measured) {
		hist_add(&s->hpkt, tail - m->created);
		s->net_sum += tail - m->first;
		s->net_n++;
	}
	if (!--m->to_deliver) {
		if (m->measured) {
			hist_add(&s->hmsg, tail - m->created);
			s->msgs_done++;
		}
		s->msgs_left--;
		msg_free(s, p->msg);
	}
	pkt_free(s, pi);
}

static void drop(struct sim *s, uint32_t pi)
{
	struct msg *m = &s->ms[s->pk[pi].msg];

	s->pk_dropped++;
	s->pk_in_net--;
	if (!--m->to_deliver) {
		s->msgs_left--;
		msg_free(s, s->pk[pi].msg);
	}
	pkt_free(s, pi);
}

/*
 * A packet is lost at a switch. It is counted at the end of the cycle,
 * after the cycle's deliveries: whether a message whose last packets are
 * dropped and delivered in the same cycle counts as delivered does not
 * depend on the order of the cycle's events. Phased: by the thread that
 * delivers the message's other packets (the port to its destination), in
 * phase B.
 */
static void drop_at(struct sim *s, uint32_t pi)
{
	uint32_t dst, hp;

	if (!s->g) {
		if (s->ndrop == s->dropq_cap) {
			uint32_t nc = s->dropq_cap ? 2 * s->dropq_cap : 64;
			uint32_t *nq = realloc(s->dropq, nc * sizeof(*nq));

			if (!nq) {
				s->failed = 1;
				return;
			}
			s->dropq = nq;
			s->dropq_cap = nc;
		}
		s->dropq[s->ndrop++] = pi;
		return;
	}
	dst = s->ms[s->pk[pi].msg].dst;
	hp = s->hport[dst];
	mail(s, hp == FTSW_NONE || s->pt[hp].peer == FTSW_NONE ? 0 :
	     owner(s->g, s->pt[hp].peer), M_DROP, pi, 0);
}

/* Input (port, VL) idx now requests local output port out (0: none). */
static inline void set_req(struct sim *s, size_t idx, uint8_t out)
{
	uint32_t in = div_v(s, idx);

	if (s->pt[in].pflags & PF_MASK) {
		uint32_t base = s->pt[in].pbase;
		unsigned c = (unsigned)(idx - (size_t)base * s->V);

		if (PV(s, idx)->req)
			s->pt[base + PV(s, idx)->req - 1].reqmask &= ~(1ull << c);
		if (out)
			s->pt[base + out - 1].reqmask |= 1ull << c;
	}
	PV(s, idx)->req = out;
}

static void voq_arrive(struct sim *s, uint32_t in, unsigned v,
		       const struct pkt *p);

/*
 * Packet pi (p->out and p->t set) joins input buffer idx of the switch its
 * link reached: the crossbar of its output wakes when it could take it.
 */
static inline void arrive(struct sim *s, uint32_t pi, uint32_t pp,
			  unsigned v)
{
	struct pkt *p = &s->pk[pi];
	uint32_t base = s->pt[pp].pbase, idx = pp * s->V + v;
	uint8_t out = p->out;

	INQ(s, idx)[wrap(PV(s, idx)->in_head + PV(s, idx)->in_cnt, s->Bin)] = pi;
	if (PV(s, idx)->in_cnt++ == 0) {
		uint32_t when = p->t + s->R - 1;

		/* the input port may still be feeding the crossbar */
		if (s->pt[pp].xin_free > when)
			when = s->pt[pp].xin_free;
		if (s->pt[base + out - 1].xout_free > when)
			when = s->pt[base + out - 1].xout_free;
		/* a full output buffer frees a slot with its link's tail */
		if (out_occ(s, base + out - 1, v) >= s->Bout &&
		    s->pt[base + out - 1].link_free > when)
			when = s->pt[base + out - 1].link_free;
		set_req(s, idx, out);
		PV(s, idx)->in_ht = p->t;
		push_ev(s, when, EV(EV_XBAR, base + out - 1));
	} else if (s->o.voq) {
		voq_arrive(s, pp, v, p);
	}
}

/*
 * The message memo read and written by several threads (phased): a
 * route byte is published before its known bit.
 */
static inline bool memo_get(const struct sim *s, struct msg *m, unsigned k,
			    uint8_t *out)
{
	if (!s->g) {
		if (!(m->known >> k & 1))
			return false;
		*out = m->route[k];
		return true;
	}
	if (!(__atomic_load_n(&m->known, __ATOMIC_ACQUIRE) >> k & 1))
		return false;
	*out = __atomic_load_n(&m->route[k], __ATOMIC_RELAXED);
	return true;
}

static inline void memo_set(const struct sim *s, struct msg *m, unsigned k,
			    uint8_t out)
{
	if (!s->g) {
		m->route[k] = out;
		m->known |= (uint8_t)(1u << k);
		return;
	}
	__atomic_store_n(&m->route[k], out, __ATOMIC_RELAXED);
	__atomic_fetch_or(&m->known, (uint8_t)(1u << k), __ATOMIC_RELEASE);
}

/* Put packet pi on link o (credit checked by the caller) at s->now. */
static void transmit(struct sim *s, uint32_t o, unsigned v, uint32_t pi)
{
	uint32_t pp = s->pt[o].peer, sw, lid, idx, base;
	unsigned V = s->V, P = s->P;
	struct pkt *p = &s->pk[pi];
	uint8_t out;

	s->pt[o].link_free = s->now + P;
	s->pt[o].tx_vl = (uint8_t)v;
	s->flit_hops += P;
	s->last_move = s->now;
	if (in_window(s, s->now))
		PV(s, (size_t)o * V + v)->flits += P;
	if (s->pt[o].pflags & PF_PEER_HOST) {
		deliver(s, p, pi, s->now + s->L + P);
		return;
	}
	cred_take(s, (size_t)o * V + v);
	if (!(s->pt[o].pflags & PF_HOST) && ++p->hops > FTSW_HOP_LIMIT) {
		drop_at(s, pi);
		return;
	}
	/* the kernel's lookup at the switch reached */
	sw = s->pt[pp].pidx;
	base = s->pt[pp].pbase;
	lid = p->dlid;
	{
		unsigned k = p->hops;

		/*
		 * Destination-based tables: every packet of a message (same
		 * DLID) gets the same port at its k-th switch, so the first
		 * lookups serve the others (copied into each packet when it
		 * is injected).
		 */
		if (k < 8 && (p->known >> k & 1)) {
			out = p->route[k];
		} else if (k < 8 && !s->per_packet) {
			/*
			 * An earlier packet of the message may have looked
			 * it up since this one was injected: the message is
			 * one cache line, the LFT on a large fabric is not.
			 */
			struct msg *m = &s->ms[p->msg];

			if (!memo_get(s, m, k, &out)) {
				out = lid <= s->r->max_lid ?
				      ftsw_lft(s->r, sw)[lid] : FTSW_PORT_NONE;
				memo_set(s, m, k, out);
			}
		} else {
			out = lid <= s->r->max_lid ? ftsw_lft(s->r, sw)[lid] :
			      FTSW_PORT_NONE;
		}
	}
	if (out == FTSW_PORT_NONE || out == 0 || out > s->pt[pp].pnp ||
	    s->pt[base + out - 1].peer == FTSW_NONE) {
		drop_at(s, pi);
		return;
	}
	p->out = out;
	p->t = s->now + s->L;
	idx = pp * V + v;
	if (s->g)
		mail(s, owner(s->g, pp), M_ARRIVE, pi, idx);
	else
		arrive(s, pi, pp, v);
}

/* Next message of host h (Poisson arrival already due). */
static void host_arrival(struct sim *s, uint32_t h)
{
	struct hostq *q = &s->hq[h];
	const struct ftsw_sim_traffic *tr = s->tr;
	uint32_t when = (uint32_t)ceil(q->next), dst, mi, n;
	struct msg *m;
	uint8_t off;

	if (tr->uniform) {
		dst = (uint32_t)(ftsw_rand_next(&q->rng) % (tr->nhosts - 1));
		if (dst >= h)
			dst++;
	} else {
		uint32_t a = tr->start[h], b = tr->start[h + 1];

		if (s->o.count) {
			dst = tr->dst[a + q->sent % (b - a)];
		} else {
			double x = unit(&q->rng) * tr->cum[b - 1];

			while (a + 1 < b) {	/* first cum > x */
				uint32_t mid = a + (b - a) / 2;

				if (tr->cum[mid - 1] > x)
					b = mid;
				else
					a = mid;
			}
			dst = tr->dst[a];
		}
	}
	n = s->noff[h];
	switch (s->o.policy) {
	case FTSW_SIM_HASH:
		off = s->offs[(size_t)h * 128 +
			      mix64(((uint64_t)h << 32) ^ dst ^ s->o.seed) % n];
		break;
	case FTSW_SIM_RR:
		off = s->offs[(size_t)h * 128 + q->rr++ % n];
		break;
	default:
		off = s->offs[(size_t)h * 128 + ftsw_rand_next(&q->rng) % n];
		break;
	}
	q->sent++;
	mi = msg_alloc(s);
	if (mi == NO_PKT)
		return;
	m = &s->ms[mi];
	m->created = when;
	m->first = 0;
	m->dst = dst;
	m->to_inject = m->to_deliver = (uint16_t)s->o.msg_packets;
	m->offset = off;
	m->known = 0;
	m->vl = (uint8_t)((s->r->sl ? s->r->sl[(size_t)h * s->r->nhosts + dst] :
			   0) % s->V);
	m->measured = in_window(s, when);
	s->msgs_total++;
	s->msgs_left++;
	if (m->measured) {
		s->msgs_measured++;
		s->flits_offered += (uint64_t)s->P * s->o.msg_packets;
	}
	if (q->cnt == q->cap) {
		uint32_t nc = q->cap ? q->cap * 2 : 8, i;
		uint32_t *ni = malloc(nc * sizeof(*ni));

		if (!ni) {
			s->failed = 1;
			return;
		}
		for (i = 0; i < q->cnt; i++)
			ni[i] = q->id[(q->head + i) % q->cap];
		free(q->id);
		q->id = ni;
		q->head = 0;
		q->cap = nc;
	}
	q->id[(q->head + q->cnt++) % q->cap] = mi;
	/* interleaving: the link may wait on another message's VL credit */
	if (q->cnt == 1 || s->o.interleave > 1)
		push_ev(s, s->pt[s->hport[h]].link_free > s->now ?
			s->pt[s->hport[h]].link_free : s->now,
			EV(EV_LINK, s->hport[h]));
}

/*
 * The LMC offset of host h's next packet to dst under a per-packet policy:
 * packet (uniform among the offsets) or spread (the pair's offsets in turn,
 * so that the pair's packets split evenly over its K paths).
 */
static uint8_t pkt_offset(struct sim *s, uint32_t h, uint32_t dst)
{
	unsigned n = s->noff[h], i;

	if (s->o.policy == FTSW_SIM_SPREAD) {
		uint8_t *c = &s->pair_rr[(size_t)h * s->tr->nhosts + dst];

		i = *c;
		*c = (uint8_t)(i + 1 < n ? i + 1 : 0);
	} else {
		i = (unsigned)(ftsw_rand_next(&s->hq[h].rng) % n);
	}
	return s->offs[(size_t)h * 128 + i];
}

static void host_link_mix(struct sim *s, uint32_t o, uint32_t h);

/*
 * The next packet of message mi, from host h: routed as the kernel would
 * (LFT lookup from its DLID, the offset per packet or per message), one
 * fewer left to inject. NO_PKT when the pool is empty.
 */
static uint32_t host_pkt(struct sim *s, uint32_t h, uint32_t mi)
{
	struct msg *m = &s->ms[mi];
	uint32_t pi = pkt_alloc(s);
	struct pkt *p;

	if (pi == NO_PKT)
		return NO_PKT;
	p = &s->pk[pi];
	p->msg = mi;
	p->dlid = ftsw_host_lid(s->r, m->dst) +
		  (s->per_packet ? pkt_offset(s, h, m->dst) : m->offset);
	p->vl = m->vl;
	p->hops = 0;
	if (!s->g) {
		p->known = s->per_packet ? 0 : m->known;
		memcpy(p->route, m->route, sizeof(p->route));
	} else {
		unsigned k;

		p->known = 0;
		for (k = 0; k < 8 && !s->per_packet; k++)
			if (memo_get(s, m, k, &p->route[k]))
				p->known |= (uint8_t)(1u << k);
	}
	if (m->to_inject == s->o.msg_packets)
		m->first = s->now;
	m->to_inject--;
	s->pk_injected++;
	s->pk_in_net++;
	return pi;
}

static void host_link(struct sim *s, uint32_t o, uint32_t h)
{
	struct hostq *q = &s->hq[h];
	struct msg *m;
	uint32_t pi, mi;

	if (!q->cnt)
		return;
	if (s->o.interleave > 1) {
		host_link_mix(s, o, h);
		return;
	}
	mi = q->id[q->head];
	m = &s->ms[mi];
	if (m->created > s->now)
		return;
	if (!cred_avail(s, (size_t)o * s->V + m->vl)) {
		cred_wait(s, (size_t)o * s->V + m->vl, o);
		return;
	}
	pi = host_pkt(s, h, mi);
	if (pi == NO_PKT)
		return;
	if (!m->to_inject) {
		q->head = (q->head + 1) % q->cap;
		q->cnt--;
	}
	transmit(s, o, m->vl, pi);
	if (q->cnt)
		push_ev(s, s->now + s->P, EV(EV_LINK, o));
}

/*
 * --interleave N: host h sends one packet of each of its first N queued
 * messages in turn (all arrived: arrivals are queued when due), skipping
 * those whose VL holds no credit; a message leaves the queue with its last
 * packet, wherever it stands in it.
 */
static void host_link_mix(struct sim *s, uint32_t o, uint32_t h)
{
	struct hostq *q = &s->hq[h];
	uint32_t n = q->cnt < s->o.interleave ? q->cnt : s->o.interleave;
	uint32_t i, k, j, mi, pi, tried = 0;
	struct msg *m;

	for (i = 0; i < n; i++) {
		k = (q->cur + i) % n;
		mi = q->id[(q->head + k) % q->cap];
		m = &s->ms[mi];
		if (tried >> m->vl & 1)
			continue;
		if (!cred_avail(s, (size_t)o * s->V + m->vl)) {
			cred_wait(s, (size_t)o * s->V + m->vl, o);
			tried |= 1u << m->vl;
			continue;
		}
		pi = host_pkt(s, h, mi);
		if (pi == NO_PKT)
			return;
		if (m->to_inject) {
			q->cur = k + 1;
		} else {
			/* out of the queue: the ones behind it move up */
			for (j = k; j + 1 < q->cnt; j++)
				q->id[(q->head + j) % q->cap] =
					q->id[(q->head + j + 1) % q->cap];
			q->cnt--;
			q->cur = k;
		}
		transmit(s, o, m->vl, pi);
		if (q->cnt)
			push_ev(s, s->now + s->P, EV(EV_LINK, o));
		return;
	}
}

static int link_pick(const struct sim *s, uint32_t o);

static void link_ev(struct sim *s, uint32_t o)
{
	size_t idx;
	uint32_t pi;
	int v;

	if (s->pt[o].link_free > s->now || s->pt[o].peer == FTSW_NONE)
		return;
	if (s->pt[o].pflags & PF_HOST) {
		host_link(s, o, s->pt[o].pidx);
		return;
	}
	v = link_pick(s, o);
	if (v < 0) {
		unsigned w;

		/* ready heads without credit: wake with the next return */
		for (w = 0; w < s->V; w++) {
			idx = (size_t)o * s->V + w;
			if (PV(s, idx)->out_cnt && PV(s, idx)->out_ht <= s->now &&
			    !cred_avail(s, idx))
				cred_wait(s, idx, o);
		}
		return;
	}
	idx = (size_t)o * s->V + v;
	pi = OUTQ(s, idx)[PV(s, idx)->out_head];
	PV(s, idx)->out_head = (uint8_t)wrap(PV(s, idx)->out_head + 1u, s->Bout);
	if (--PV(s, idx)->out_cnt)
		PV(s, idx)->out_ht = s->pk[OUTQ(s, idx)[PV(s, idx)->out_head]].t;
	s->pt[o].rr_vl = (uint8_t)wrap((unsigned)v + 1, s->V);
	/* the slot frees with the tail: the crossbar may refill it */
	if (!(s->pt[o].pflags & PF_MASK) || s->pt[o].reqmask || s->o.voq)
		push_ev(s, s->now + s->P, EV(EV_XBAR, o));
	transmit(s, o, (unsigned)v, pi);
	for (v = 0; v < (int)s->V; v++)
		if (PV(s, (size_t)o * s->V + v)->out_cnt) {
			push_ev(s, s->now + s->P, EV(EV_LINK, o));
			break;
		}
}

/*
 * Output port o's crossbar: the (input, VL) index it would grant now, in
 * round-robin order, or SIZE_MAX.
 */
static inline bool xbar_ok(const struct sim *s, uint32_t o, size_t idx,
			   uint32_t in, unsigned v)
{
	/* the output's own state first: no candidate's lines when full */
	if (out_occ(s, o, v) >= s->Bout)
		return false;
	if (s->pt[in].xin_free > s->now)
		return false;
	return PV(s, idx)->in_ht + s->R - 1 <= s->now;
}

static size_t xbar_pick_voq(const struct sim *s, uint32_t o, unsigned *slot);

static inline size_t xbar_pick(const struct sim *s, uint32_t o)
{
	unsigned V = s->V, np, k, total, start;
	uint32_t base;
	uint8_t lo;

	if (s->o.voq) {
		unsigned slot;

		return xbar_pick_voq(s, o, &slot);
	}
	if (s->pt[o].xout_free > s->now)
		return SIZE_MAX;
	base = s->pt[o].pbase;
	np = s->pt[o].pnp;
	total = np * V;
	start = s->pt[o].rr_in % total;
	if (s->pt[o].pflags & PF_MASK) {
		uint64_t m = s->pt[o].reqmask;
		uint64_t hi = start < 64 ? m & (~0ull << start) : 0;
		int pass;

		for (pass = 0; pass < 2; pass++) {
			uint64_t b = pass ? m & ~hi : hi;

			while (b) {
				unsigned c = (unsigned)__builtin_ctzll(b);
				size_t idx = (size_t)base * V + c;

				b &= b - 1;
				if (xbar_ok(s, o, idx, base + div_v(s, c),
					    mod_v(s, c)))
					return idx;
			}
		}
		return SIZE_MAX;
	}
	lo = s->pt[o].plocal;
	for (k = 0; k < total; k++) {
		unsigned c = start + k < total ? start + k : start + k - total;
		size_t idx = (size_t)base * V + c;

		if (PV(s, idx)->req == lo &&
		    xbar_ok(s, o, idx, base + div_v(s, c), mod_v(s, c)))
			return idx;
	}
	return SIZE_MAX;
}

/*
 * When a crossbar transfer granted now ends, for a packet whose head
 * reached the input buffer at in_ht: Px = ceil(P / S) cycles with
 * speedup S, but never before its tail has arrived over the link (cut
 * through: the tail reaches the input at in_ht + P - 1). With S = 1 this
 * is now + P.
 */
static inline uint32_t xbar_done(const struct sim *s, uint32_t in_ht)
{
	uint32_t a = s->now + s->Px, b = in_ht + s->P;

	return a > b ? a : b;
}

/*
 * The crossbar moved packet pi from input in (VL v) towards output o, the
 * input slot free at xfree: the credit goes back upstream when the tail has
 * left, the packet joins the output buffer, the link wakes for it.
 */
static inline void xbar_to_out(struct sim *s, uint32_t in, uint32_t o,
			       unsigned v, uint32_t pi, uint32_t xfree)
{
	unsigned V = s->V;
	size_t oi = (size_t)o * V + v;

	if (s->pt[in].peer == FTSW_NONE)
		;
	else if (s->g)
		mail(s, owner(s->g, s->pt[in].peer), M_CREDIT,
		     s->pt[in].peer * V + v, xfree - 1 + s->L);
	else
		cred_return(s, (size_t)s->pt[in].peer * V + v,
			    xfree - 1 + s->L);
	OUTQ(s, oi)[wrap(PV(s, oi)->out_head + PV(s, oi)->out_cnt, s->Bout)] = pi;
	s->pk[pi].t = s->now + 1;
	if (PV(s, oi)->out_cnt++ == 0) {
		PV(s, oi)->out_ht = s->now + 1;
		push_ev(s, s->pt[o].link_free > s->now + 1 ? s->pt[o].link_free :
			s->now + 1, EV(EV_LINK, o));
	}
}

static void xbar_ev_voq(struct sim *s, uint32_t o);

static void xbar_ev(struct sim *s, uint32_t o)
{
	unsigned V = s->V, v;
	uint32_t in, base, pi, xfree;
	size_t idx;

	if (s->o.voq) {
		xbar_ev_voq(s, o);
		return;
	}
	idx = xbar_pick(s, o);

	if (idx == SIZE_MAX)
		return;
	in = div_v(s, idx);
	v = mod_v(s, idx);
	base = s->pt[o].pbase;
	pi = INQ(s, idx)[PV(s, idx)->in_head];
	s->pt[o].rr_in = (uint16_t)(idx - (size_t)base * V + 1);
	xfree = xbar_done(s, PV(s, idx)->in_ht);
	s->pt[in].xin_free = xfree;
	s->pt[o].xout_free = xfree;
	s->last_move = s->now;
	PV(s, idx)->in_head = (uint8_t)wrap(PV(s, idx)->in_head + 1u, s->Bin);
	if (--PV(s, idx)->in_cnt) {
		struct pkt *nx = &s->pk[INQ(s, idx)[PV(s, idx)->in_head]];

		set_req(s, idx, nx->out);
		PV(s, idx)->in_ht = nx->t;
		uint32_t when = xfree > nx->t + s->R - 1 ?
				xfree : nx->t + s->R - 1;

		if (s->pt[base + nx->out - 1].xout_free > when)
			when = s->pt[base + nx->out - 1].xout_free;
		if (out_occ(s, base + nx->out - 1, v) >= s->Bout &&
		    s->pt[base + nx->out - 1].link_free > when)
			when = s->pt[base + nx->out - 1].link_free;
		push_ev(s, when, EV(EV_XBAR, base + nx->out - 1));
	} else {
		set_req(s, idx, 0);
	}
	if (V > 1)
		push_ev(s, xfree, EV(EV_INFREE, in));
	/* others waiting for this output (a later request wakes itself) */
	if (!(s->pt[o].pflags & PF_MASK) || s->pt[o].reqmask)
		push_ev(s, xfree, EV(EV_XBAR, o));
	/* credit back to the upstream port when the tail has left */
	xbar_to_out(s, in, o, v, pi, xfree);
}

/* The VL link o would serve now (switch ports), or -1. */
static int link_pick(const struct sim *s, uint32_t o)
{
	unsigned V = s->V, j;

	if (s->pt[o].link_free > s->now || s->pt[o].peer == FTSW_NONE)
		return -1;
	for (j = 0; j < V; j++) {
		unsigned v = wrap(s->pt[o].rr_vl + j, V);
		size_t idx = (size_t)o * V + v;

		if (!PV(s, idx)->out_cnt || !cred_avail(s, idx))
			continue;
		if (PV(s, idx)->out_ht > s->now)
			continue;
		return (int)v;
	}
	return -1;
}

/*
 * Non-FIFO input buffers (--voq). An input buffer holds up to Bin packets
 * in arrival order; output o may take the oldest of them that goes to o
 * (so packets to one output stay in order, as in virtual output queues
 * sharing the input buffer), when the input's crossbar port is free, the
 * packet's head has spent the router latency there and o's output buffer
 * has room. Outputs grant round robin over (input, VL) as in FIFO mode.
 * The head-of-buffer request (pv.req, reqmask) is still kept for the
 * deadlock walk; wake-ups do not rely on it.
 */
static size_t xbar_pick_voq(const struct sim *s, uint32_t o, unsigned *slot)
{
	unsigned V = s->V, np = s->pt[o].pnp, total, start, k;
	uint32_t base = s->pt[o].pbase;
	uint8_t lo = s->pt[o].plocal;

	if (s->pt[o].xout_free > s->now)
		return SIZE_MAX;
	total = np * V;
	start = s->pt[o].rr_in % total;
	for (k = 0; k < total; k++) {
		unsigned c = start + k < total ? start + k : start + k - total;
		size_t idx = (size_t)base * V + c;
		const struct spv *x = PV(s, idx);
		unsigned j, h = x->in_head;

		if (!x->in_cnt || s->pt[base + div_v(s, c)].xin_free > s->now)
			continue;
		for (j = 0; j < x->in_cnt; j++, h = wrap(h + 1, s->Bin)) {
			const struct pkt *p = &s->pk[INQ(s, idx)[h]];

			if (p->out != lo)
				continue;
			if (p->t + s->R - 1 <= s->now &&
			    out_occ(s, o, mod_v(s, c)) < s->Bout) {
				*slot = j;
				return idx;
			}
			break;	/* the oldest to o is not ready */
		}
	}
	return SIZE_MAX;
}

/* When output o could take p (just queued at input in, VL v): wake it. */
static void voq_arrive(struct sim *s, uint32_t in, unsigned v,
		       const struct pkt *p)
{
	uint32_t o = s->pt[in].pbase + p->out - 1;
	uint32_t when = p->t + s->R - 1;

	if (s->pt[in].xin_free > when)
		when = s->pt[in].xin_free;
	if (s->pt[o].xout_free > when)
		when = s->pt[o].xout_free;
	if (out_occ(s, o, v) >= s->Bout && s->pt[o].link_free > when)
		when = s->pt[o].link_free;
	push_ev(s, when, EV(EV_XBAR, o));
}

/* Input port in's crossbar port is free: wake every output it holds. */
static void voq_infree(struct sim *s, uint32_t in)
{
	uint32_t base = s->pt[in].pbase;
	uint64_t done = 0;
	unsigned v, j, h;

	for (v = 0; v < s->V; v++) {
		size_t idx = (size_t)in * s->V + v;
		const struct spv *x = PV(s, idx);

		for (j = 0, h = x->in_head; j < x->in_cnt;
		     j++, h = wrap(h + 1, s->Bin)) {
			unsigned out = s->pk[INQ(s, idx)[h]].out;

			if (out < 64 && (done >> out & 1))
				continue;
			if (out < 64)
				done |= 1ull << out;
			xbar_ev(s, base + out - 1);
		}
	}
}

/* Output o's crossbar under --voq: move one packet to its buffer. */
static void xbar_ev_voq(struct sim *s, uint32_t o)
{
	unsigned V = s->V, v, slot = 0, j, h;
	size_t idx = xbar_pick_voq(s, o, &slot);
	uint32_t in, base, pi, xfree;
	struct spv *x;
	struct pkt *p;

	if (idx == SIZE_MAX)
		return;
	in = div_v(s, idx);
	v = mod_v(s, idx);
	x = PV(s, idx);
	base = s->pt[o].pbase;
	h = wrap(x->in_head + slot, s->Bin);
	pi = INQ(s, idx)[h];
	p = &s->pk[pi];
	s->pt[o].rr_in = (uint16_t)(idx - (size_t)base * V + 1);
	xfree = xbar_done(s, p->t);
	s->pt[in].xin_free = xfree;
	s->pt[o].xout_free = xfree;
	s->last_move = s->now;
	/* take the slot out of the ring: the older ones move back by one */
	for (j = slot; j > 0; j--) {
		unsigned to = wrap(x->in_head + j, s->Bin);
		unsigned from = wrap(x->in_head + j - 1, s->Bin);

		INQ(s, idx)[to] = INQ(s, idx)[from];
	}
	x->in_head = (uint8_t)wrap(x->in_head + 1u, s->Bin);
	if (--x->in_cnt) {
		struct pkt *nx = &s->pk[INQ(s, idx)[x->in_head]];

		set_req(s, idx, nx->out);
		x->in_ht = nx->t;
	} else {
		set_req(s, idx, 0);
	}
	/* the input's other packets, and others waiting for o */
	push_ev(s, xfree, EV(EV_INFREE, in));
	push_ev(s, xfree, EV(EV_XBAR, o));
	xbar_to_out(s, in, o, v, pi, xfree);
}

/* Host h could start a packet now. */
static bool host_can(const struct sim *s, uint32_t o, uint32_t h)
{
	const struct hostq *q = &s->hq[h];
	const struct msg *m;

	if (s->pt[o].link_free > s->now || !q->cnt)
		return false;
	if (s->o.interleave > 1) {
		uint32_t i;

		for (i = 0; i < q->cnt && i < s->o.interleave; i++) {
			m = &s->ms[q->id[(q->head + i) % q->cap]];
			if (cred_avail(s, (size_t)o * s->V + m->vl))
				return true;
		}
		return false;
	}
	m = &s->ms[q->id[q->head]];
	return m->created <= s->now &&
	       cred_avail(s, (size_t)o * s->V + m->vl);
}

/*
 * Verification mode: after a cycle's events, no resource may be able to
 * act (a wake-up was missed otherwise).
 */
static int verify_idle(struct sim *s)
{
	uint32_t p;

	for (p = 0; p < s->nports; p++) {
		const struct ftsw_node *n = &s->t->nodes[s->pt[p].pnode];
		bool miss;

		if (s->pt[p].peer == FTSW_NONE)
			continue;
		if (n->kind == FTSW_HOST)
			miss = host_can(s, p, n->index);
		else
			miss = link_pick(s, p) >= 0 || xbar_pick(s, p) != SIZE_MAX;
		if (miss) {
			ftsw_err_set(s->err, "cycle %u: port %u of node %u could "
				     "act but was not woken", s->now,
				     s->pt[p].plocal, s->pt[p].pnode);
			return -1;
		}
	}
	return 0;
}

static void voq_infree(struct sim *s, uint32_t in);

static void infree_ev(struct sim *s, uint32_t in)
{
	const struct ftsw_node *n = &s->t->nodes[s->pt[in].pnode];
	unsigned v;

	if (s->o.voq) {
		voq_infree(s, in);
		return;
	}
	for (v = 0; v < s->V; v++) {
		uint8_t q = PV(s, (size_t)in * s->V + v)->req;

		if (q)
			xbar_ev(s, n->first_port + q - 1);
	}
}

/* ------------------------------------------------------ heap of hosts */

static inline bool heap_less(const struct hent *a, const struct hent *b)
{
	return a->next < b->next || (a->next == b->next && a->h < b->h);
}

static void heap_down(struct sim *s, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;

		if (l < s->nheap && heap_less(&s->heap[l], &s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && heap_less(&s->heap[l + 1], &s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct hent x = s->heap[i];

		s->heap[i] = s->heap[m];
		s->heap[m] = x;
		i = m;
	}
}

/* ------------------------------------------------- checks and deadlock */

/* Independent count of the packets in the fabric's buffers. */
static int conservation(struct sim *s)
{
	uint64_t inbuf = 0;
	size_t i, n = (size_t)s->nports * s->V;

	for (i = 0; i < n; i++)
		inbuf += PV(s, i)->in_cnt + PV(s, i)->out_cnt;
	if (s->pk_injected != s->pk_delivered + s->pk_dropped + inbuf) {
		ftsw_err_set(s->err, "flit conservation broken at cycle %u: "
			     "injected %llu packets, delivered %llu, dropped "
			     "%llu, %llu in buffers", s->now,
			     (unsigned long long)s->pk_injected,
			     (unsigned long long)s->pk_delivered,
			     (unsigned long long)s->pk_dropped,
			     (unsigned long long)inbuf);
		return -1;
	}
	s->res->samples++;
	return 0;
}

/*
 * An input buffer is stuck on the next one when its head waits for an
 * output buffer that is full, idle on its link and without credit, whose
 * link leads to a switch input buffer (which is then full). Following the
 * one edge out of each stuck buffer either ends or closes a cycle: a
 * cycle of full buffers each waiting on the next, which nothing can drain.
 */
static uint32_t stuck_next(struct sim *s, uint32_t idx)
{
	unsigned V = s->V, v = idx % V;
	uint32_t in = idx / V, o, oi, pi;
	const struct ftsw_node *n;

	if (!PV(s, idx)->in_cnt || !PV(s, idx)->req)
		return FTSW_NONE;
	pi = INQ(s, idx)[PV(s, idx)->in_head];
	if (s->pk[pi].t > s->now ||
	    s->now - s->pk[pi].t < s->o.deadlock_cycles)
		return FTSW_NONE;
	n = &s->t->nodes[s->pt[in].pnode];
	o = n->first_port + PV(s, idx)->req - 1;
	oi = o * V + v;
	if (out_occ(s, o, v) < s->Bout || s->pt[o].link_free > s->now ||
	    PV(s, oi)->credits || PV(s, oi)->cr_cnt ||
	    s->pt[o].peer == FTSW_NONE)
		return FTSW_NONE;
	return s->pt[o].peer * V + v;
}

static bool find_deadlock(struct sim *s)
{
	size_t n = (size_t)s->nports * s->V, i;
	uint32_t stamp = 0;

	memset(s->visit, 0, n * sizeof(*s->visit));
	for (i = 0; i < n; i++) {
		uint32_t cur = (uint32_t)i, len = 0;

		if (s->visit[i] || !PV(s, i)->in_cnt)
			continue;
		stamp++;
		while (cur != FTSW_NONE && !s->visit[cur]) {
			s->visit[cur] = stamp;
			cur = stuck_next(s, cur);
		}
		if (cur == FTSW_NONE || s->visit[cur] != stamp)
			continue;
		/* cur is on a cycle: record it */
		{
			uint32_t c = cur;

			do {
				len++;
				c = stuck_next(s, c);
			} while (c != cur);
		}
		s->res->cycle = calloc(len, sizeof(*s->res->cycle));
		if (!s->res->cycle)
			return true;
		s->res->ncycle = len;
		for (uint32_t k = 0, c = cur; k < len; k++) {
			struct ftsw_sim_wait *w = &s->res->cycle[k];
			uint32_t in = c / s->V;

			w->sw = s->t->nodes[s->pt[in].pnode].index;
			w->in_port = s->pt[in].plocal;
			w->vl = (uint8_t)(c % s->V);
			w->out_port = PV(s, c)->req;
			c = stuck_next(s, c);
		}
		return true;
	}
	return false;
}

/* ------------------------------------------------------------- run */

/* The timing wheel of @s: each slot's events, then the slots. */
static void wheel_free(struct sim *s)
{
	uint32_t i;

	if (s->wheel)
		for (i = 0; i <= s->wmask; i++)
			free(s->wheel[i].ev);
	free(s->wheel);
}

static void sim_free(struct sim *s)
{
	uint32_t i;

	free(s->pt);
	free(s->pv);
	free(s->pkp.items);
	free(s->pkp.next);
	free(s->msp.items);
	free(s->msp.next);
	if (s->hq)
		for (i = 0; i < s->t->nhosts; i++)
			free(s->hq[i].id);
	free(s->hq);
	free(s->hport);
	free(s->noff);
	free(s->offs);
	free(s->pair_rr);
	free(s->heap);
	wheel_free(s);
	free(s->visit);
	free(s->dropq);
	free(s->link_flits);
	hist_free(&s->hmsg);
	hist_free(&s->hpkt);
}

void ftsw_sim_result_free(struct ftsw_sim_result *res)
{
	free(res->link_flits);
	free(res->cycle);
	res->link_flits = NULL;
	res->cycle = NULL;
}

/* The model's parameters from o, checked. */
static int setup_params(struct sim *s, const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_opts *o, double load,
			struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;

	s->r = r;
	s->t = t;
	s->tr = tr;
	s->o = *o;
	s->err = err;
	s->P = o->packet_flits;
	s->L = o->link_latency;
	s->R = o->router_latency;
	s->Bin = o->in_buf;
	s->Bout = o->out_buf;
	{
		unsigned S = o->speedup ? o->speedup : 1;

		s->Px = (s->P + S - 1) / S;
		if (S > 64) {
			ftsw_err_set(err, "crossbar speedup %u: at most 64", S);
			return -1;
		}
	}
	s->per_packet = o->policy == FTSW_SIM_PACKET ||
			o->policy == FTSW_SIM_SPREAD;
	s->V = o->vls ? o->vls : (r->nvls ? r->nvls : 1);
	if (!s->o.deadlock_cycles)
		s->o.deadlock_cycles = 2000;
	if (!s->o.drain)
		s->o.drain = o->measure;
	s->load = load;
	if (s->P < 1 || s->P > 4096 || o->msg_packets < 1 ||
	    o->msg_packets > 65535 || s->Bin < 1 || s->Bin > 255 ||
	    s->Bout < 1 || s->Bout > 255 || s->L < 1 || s->L > 1000 ||
	    s->R < 1 || s->R > 1000 || s->V > FTSW_SIM_MAX_VLS) {
		ftsw_err_set(err, "simulation parameters out of range");
		return -1;
	}
	if (!(load > 0) || load > 1) {
		ftsw_err_set(err, "load %g: must be in (0, 1]", load);
		return -1;
	}
	if (tr->nhosts != t->nhosts) {
		ftsw_err_set(err, "traffic for %u hosts, fabric has %u",
			     tr->nhosts, t->nhosts);
		return -1;
	}
	return 0;
}

/* The arrays of the run: ports, port VLs, queues, pools, hosts, wheel. */
static int setup_alloc(struct sim *s, const struct ftsw_sim_opts *o,
		       double load, struct ftsw_err *err)
{
	const struct ftsw_topo *t = s->t;
	size_t pv;
	unsigned w;
	int pools;

	s->nports = t->nports;
	pv = (size_t)t->nports * s->V;
	if (pv > EV_ID_MAX) {
		ftsw_err_set(err, "%zu port VLs: more than the simulator's "
			     "%u", pv, EV_ID_MAX);
		return -1;
	}
	s->mean_gap = (double)s->P * o->msg_packets / load;
	s->pt = zalloc_big(t->nports * sizeof(*s->pt));
	/* the record and its rings, rounded to 16 bytes, cache-aligned */
	s->pv_size = (sizeof(struct spv) + (2 * s->Bin + s->Bout) *
		      sizeof(uint32_t) + 15) & ~(size_t)15;
	s->pv = zalloc_big(pv * s->pv_size);
	s->visit = malloc(pv * sizeof(uint32_t));
	pools = pool_init(&s->pkp, sizeof(*s->pk), 1024) |
		pool_init(&s->msp, sizeof(*s->ms), 1024);
	s->pk = s->pkp.items;
	s->ms = s->msp.items;
	s->hq = calloc(t->nhosts, sizeof(*s->hq));
	s->hport = malloc(t->nhosts * sizeof(uint32_t));
	s->noff = malloc(t->nhosts);
	s->offs = malloc((size_t)t->nhosts * 128);
	if (s->o.policy == FTSW_SIM_SPREAD) {
		if (t->nhosts > 16384) {
			ftsw_err_set(err, "--path-policy spread keeps a counter "
				     "per host pair: at most 16384 hosts, "
				     "fabric has %u", t->nhosts);
			return -1;
		}
		s->pair_rr = calloc((size_t)t->nhosts * t->nhosts, 1);
		if (!s->pair_rr) {
			ftsw_err_set(err, "out of memory for the simulation");
			return -1;
		}
	}
	s->heap = malloc(t->nhosts * sizeof(*s->heap));
	for (w = 64; w < 2 * s->P + s->L + s->R + 8; w *= 2)
		;
	s->wmask = w - 1;
	s->wheel = calloc(w, sizeof(*s->wheel));
	if (!s->pt || !s->pv || !s->visit || pools || !s->hq || !s->hport ||
	    !s->noff || !s->offs ||
	    !s->heap || !s->wheel || hist_init(&s->hmsg) ||
	    hist_init(&s->hpkt)) {
		ftsw_err_set(err, "out of memory for the simulation");
		return -1;
	}
	return 0;
}

/* Per port: where it is, its peer, its credits on every VL. */
static void setup_ports(struct sim *s)
{
	const struct ftsw_topo *t = s->t;
	uint32_t nd, p;

	for (nd = 0; nd < t->nnodes; nd++) {
		const struct ftsw_node *n = &t->nodes[nd];

		for (p = 1; p <= n->nports; p++) {
			uint32_t id = n->first_port + p - 1;
			const struct ftsw_port *x = &t->ports[id];
			unsigned v;

			s->pt[id].pnode = nd;
			s->pt[id].plocal = (uint8_t)p;
			s->pt[id].pbase = n->first_port;
			s->pt[id].pnp = n->nports;
			s->pt[id].pidx = n->index;
			s->pt[id].pflags = (n->kind == FTSW_HOST ? PF_HOST : 0) |
				(x->peer != FTSW_NONE &&
				 t->nodes[x->peer].kind == FTSW_HOST ?
				 PF_PEER_HOST : 0) |
				((unsigned)n->nports * s->V <= 64 ? PF_MASK : 0);
			s->pt[id].peer = x->peer == FTSW_NONE ? FTSW_NONE :
				      ftsw_link_id(t, x->peer, x->peer_port);
			for (v = 0; v < s->V; v++)
				PV(s, (size_t)id * s->V + v)->credits =
					x->peer == FTSW_NONE ? 0 :
					t->nodes[x->peer].kind == FTSW_HOST ?
					INF_CREDIT : (uint16_t)s->Bin;
		}
	}
}

/* Per host: its port, its path offsets, its RNG, its first arrival. */
static void setup_hosts(struct sim *s, const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_opts *o)
{
	const struct ftsw_topo *t = s->t;
	uint32_t h;

	s->nheap = 0;
	for (h = 0; h < t->nhosts; h++) {
		uint32_t hn = t->hosts[h];
		unsigned hp = ftsw_host_port(t, hn), k, no;
		uint8_t offs[128];
		double wts[128];
		struct hostq *q = &s->hq[h];

		no = ftsw_path_offsets(r, h, offs, wts);
		s->noff[h] = (uint8_t)no;
		for (k = 0; k < no; k++)
			s->offs[(size_t)h * 128 + k] = offs[k];
		s->hport[h] = hp ? ftsw_link_id(t, hn, hp) : FTSW_NONE;
		q->rng = mix64(o->seed * 0x9e3779b97f4a7c15ULL + h + 1);
		if (!hp || !no || (!tr->uniform &&
				   tr->start[h] == tr->start[h + 1]))
			continue;	/* never sends */
		q->next = -log(1.0 - unit(&q->rng)) * s->mean_gap;
		s->heap[s->nheap].next = q->next;
		s->heap[s->nheap++].h = h;
	}
	for (h = s->nheap; h-- > 0;)
		heap_down(s, h);
}

static int sim_setup(struct sim *s, const struct ftsw_routing *r,
		     const struct ftsw_sim_traffic *tr,
		     const struct ftsw_sim_opts *o, double load,
		     struct ftsw_err *err)
{
	if (setup_params(s, r, tr, o, load, err) ||
	    setup_alloc(s, o, load, err))
		return -1;
	setup_ports(s);
	setup_hosts(s, r, tr, o);
	if (o->count) {
		s->win0 = 0;
		s->win1 = UINT32_MAX;
	} else {
		s->win0 = o->warmup;
		s->win1 = o->warmup + o->measure;
	}
	return 0;
}

static void next_arrival(struct sim *s, uint32_t h)
{
	struct hostq *q = &s->hq[h];

	if (s->o.count) {
		uint32_t nf = s->tr->uniform ? 1 :
			      s->tr->start[h + 1] - s->tr->start[h];

		if (q->sent >= (uint64_t)s->o.count * nf) {
			q->next = INFINITY;
			return;
		}
	}
	q->next += -log(1.0 - unit(&q->rng)) * s->mean_gap;
}

/* The arrivals due this cycle. */
static void run_arrivals(struct sim *s)
{
	while (s->nheap && s->heap[0].next <= s->now) {
		uint32_t h = s->heap[0].h;

		host_arrival(s, h);
		next_arrival(s, h);
		s->heap[0].next = s->hq[h].next;
		if (isinf(s->hq[h].next)) {
			s->heap[0] = s->heap[--s->nheap];
		}
		heap_down(s, 0);
	}
}

/* The events of bucket b, in its order. */
static void run_events(struct sim *s, struct bucket *b)
{
	uint32_t i;

	for (i = 0; i < b->n; i++) {
		uint32_t ev = b->ev[i], id = ev & EV_ID_MAX;

		/*
		 * Every event starts with its port's record and its first
		 * VL's: ask for a later event's while this one runs (a hint
		 * only; on a large fabric these are cache misses).
		 */
		if (i + EV_AHEAD < b->n) {
			uint32_t a = b->ev[i + EV_AHEAD] & EV_ID_MAX;

			__builtin_prefetch(&s->pt[a], 1);
			__builtin_prefetch(PV(s, (size_t)a * s->V), 1);
		}
		switch (ev >> 28) {
		case EV_XBAR:
			xbar_ev(s, id);
			break;
		case EV_LINK:
			link_ev(s, id);
			break;
		case EV_INFREE:
			infree_ev(s, id);
			break;
		}
	}
	b->n = 0;
}

/*
 * One cycle's work: the arrivals due, the events of its bucket, the
 * packets dropped.
 */
static void run_cycle(struct sim *s)
{
	uint32_t i;

	run_arrivals(s);
	run_events(s, &s->wheel[s->now & s->wmask]);
	for (i = 0; i < s->ndrop; i++)
		drop(s, s->dropq[i]);
	s->ndrop = 0;
}

/*
 * The periodic checks: progress line, conservation, deadlock. 0 to go
 * on, 1 when a deadlock stops the run, -1 on a failed check.
 */
static int run_sample(struct sim *s, const struct ftsw_sim_opts *o,
		      double load, uint32_t end, uint64_t *last_progress)
{
	struct ftsw_sim_result *res = s->res;

	if (o->progress) {
		uint64_t us = ftsw_now_us();

		if (us - *last_progress > 500000) {
			*last_progress = us;
			fprintf(stderr, "\r  sim: load %.3g, cycle "
				"%u of %u   ", load, s->now,
				o->count ? s->now : end);
		}
	}
	if (conservation(s))
		return -1;
	if (s->pk_in_net && s->now - s->last_move >=
	    s->o.deadlock_cycles / 2 && find_deadlock(s)) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		return 1;
	}
	if (s->pk_in_net && s->now - s->last_move >= s->o.deadlock_cycles) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		snprintf(res->note, sizeof(res->note),
			 "no flit moved for %u cycles with %llu "
			 "packets in the fabric", s->now - s->last_move,
			 (unsigned long long)s->pk_in_net);
		return 1;
	}
	/* a partial deadlock: some cycle stuck, others move */
	if (s->pk_in_net && find_deadlock(s)) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		return 1;
	}
	return 0;
}

/* The cycle loop, until the end, the drain, a deadlock or an error. */
static int run_loop(struct sim *s, const struct ftsw_sim_opts *o,
		    double load, struct ftsw_err *err)
{
	uint32_t end, sample_every, next_sample;
	uint64_t last_progress = ftsw_now_us();
	int rc;

	end = o->count ? UINT32_MAX - 2 * s->wmask - 2 :
	      s->win1 + s->o.drain;
	sample_every = s->o.deadlock_cycles / 2 ? s->o.deadlock_cycles / 2 : 1;
	next_sample = sample_every;
	for (s->now = 0; s->now < end; s->now++) {
		run_cycle(s);
		if (o->verify && !s->failed && verify_idle(s))
			return -1;
		if (s->failed) {
			ftsw_err_set(err, "out of memory during the simulation");
			return -1;
		}
		if (s->now == next_sample) {
			next_sample += sample_every;
			rc = run_sample(s, o, load, end, &last_progress);
			if (rc < 0)
				return -1;
			if (rc)
				break;
		}
		if (o->count && !s->nheap && !s->msgs_left)
			break;
		/* measured messages all delivered: stop draining */
		if (!o->count && s->now >= s->win1 && s->msgs_done ==
		    s->msgs_measured)
			break;
	}
	return 0;
}

/* The run's counters and histograms into res. */
static int run_results(struct sim *s, const struct ftsw_sim_opts *o,
		       struct ftsw_sim_result *res, int rc,
		       struct ftsw_err *err)
{
	res->cycles = s->now;
	if (o->count) {
		s->win1 = s->now;
	}
	res->window = s->win1 - s->win0;
	res->offered = res->window ? (double)s->flits_offered /
		       ((double)s->tr->active * res->window) : 0;
	res->accepted = res->window ? (double)s->flits_accepted /
			((double)s->tr->active * res->window) : 0;
	res->msgs_measured = s->msgs_measured;
	res->msgs_done = s->msgs_done;
	res->pkts_done = s->hpkt.n;
	res->msg_lat_avg = s->hmsg.n ? s->hmsg.sum / s->hmsg.n : NAN;
	res->pkt_lat_avg = s->hpkt.n ? s->hpkt.sum / s->hpkt.n : NAN;
	res->net_lat_avg = s->net_n ? s->net_sum / s->net_n : NAN;
	res->msg_lat_p50 = hist_q(&s->hmsg, 0.5);
	res->msg_lat_p99 = hist_q(&s->hmsg, 0.99);
	res->pkt_lat_p50 = hist_q(&s->hpkt, 0.5);
	res->pkt_lat_p99 = hist_q(&s->hpkt, 0.99);
	res->flit_hops = s->flit_hops;
	res->pkts_injected = s->pk_injected;
	res->pkts_delivered = s->pk_delivered;
	res->pkts_dropped = s->pk_dropped;
	res->link_flits = malloc((size_t)s->nports * s->V * sizeof(uint64_t));
	if (res->link_flits)
		for (size_t i = 0; i < (size_t)s->nports * s->V; i++)
			res->link_flits[i] = PV(s, i)->flits;
	else if (!rc) {
		ftsw_err_set(err, "out of memory");
		rc = -1;
	}
	if (!res->note[0] && s->msgs_done < s->msgs_measured && !res->deadlock)
		snprintf(res->note, sizeof(res->note),
			 "%llu of %llu measured messages undelivered after "
			 "the drain: saturated, latencies are lower bounds",
			 (unsigned long long)(s->msgs_measured - s->msgs_done),
			 (unsigned long long)s->msgs_measured);
	return rc;
}

/* ------------------------------------------------- the phased engine */

/* A bucket's events sorted, repeats removed (ids and types < 2^30). */
static void sort_bucket(struct sim *s, struct bucket *b)
{
	uint32_t n = b->n, i, j, *a = b->ev, *t;
	unsigned shift;

	if (n < 2)
		return;
	if (n <= 48) {
		for (i = 1; i < n; i++) {
			uint32_t x = a[i];

			for (j = i; j > 0 && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	} else {
		if (s->tmp_cap < b->cap) {
			uint32_t *nt = realloc(s->tmp, b->cap * sizeof(*nt));

			if (!nt) {
				s->failed = 1;
				return;
			}
			s->tmp = nt;
			s->tmp_cap = b->cap;
		}
		t = s->tmp;
		for (shift = 0; shift < 30; shift += 10) {
			uint32_t cnt[1024], sum = 0, *x;

			memset(cnt, 0, sizeof(cnt));
			for (i = 0; i < n; i++)
				cnt[a[i] >> shift & 1023]++;
			for (i = 0; i < 1024; i++) {
				uint32_t c = cnt[i];

				cnt[i] = sum;
				sum += c;
			}
			for (i = 0; i < n; i++)
				t[cnt[a[i] >> shift & 1023]++] = a[i];
			x = a;
			a = t;
			t = x;
		}
		/* three passes: the sorted copy is the spare buffer */
		{
			uint32_t c = b->cap;

			s->tmp = b->ev;
			b->ev = a;
			b->cap = s->tmp_cap;
			s->tmp_cap = c;
		}
	}
	for (i = 1, j = 1; i < n; i++)
		if (a[i] != a[j - 1])
			a[j++] = a[i];
	b->n = j;
}

static void ph_barrier(struct phased *g)
{
	unsigned gen, spins = 0;

	if (g->T == 1)
		return;
	gen = atomic_load_explicit(&g->gen, memory_order_acquire);
	if (atomic_fetch_add_explicit(&g->cnt, 1, memory_order_acq_rel) + 1 ==
	    g->T) {
		atomic_store_explicit(&g->cnt, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&g->gen, 1, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&g->gen, memory_order_acquire) == gen) {
		if (++spins > 256)
			sched_yield();
#if defined(__x86_64__) || defined(__i386__)
		else
			__builtin_ia32_pause();
#endif
	}
}

/* Phase B: the mails for this thread's ports, from every thread. */
static void apply_mail(struct sim *s)
{
	struct phased *g = s->g;
	unsigned u;
	uint32_t i;

	s->in_b = true;
	for (u = 0; u < g->T; u++) {
		struct mbox *x = &g->box[u * g->T + s->tid];

		for (i = 0; i < x->n; i++) {
			const struct mail *m = &x->m[i];

			switch (m->kind) {
			case M_ARRIVE:
				arrive(s, m->a, div_v(s, m->b), mod_v(s, m->b));
				break;
			case M_CREDIT:
				cred_return(s, m->a, m->b);
				break;
			case M_DROP:
				drop(s, m->a);
				break;
			case M_FREE_PKT:
				pool_free(&s->pkp, m->a);
				break;
			case M_FREE_MSG:
				pool_free(&s->msp, m->a);
				break;
			}
		}
		x->n = 0;
	}
	s->in_b = false;
}

/* Phase A's start: the frees phase B could not send. */
static void send_deferred(struct sim *s)
{
	struct mbox *d = &s->g->defer[s->tid];
	uint32_t i;

	for (i = 0; i < d->n; i++)
		mail(s, d->m[i].b, d->m[i].kind, d->m[i].a, 0);
	d->n = 0;
}

/* The run's counters summed over the threads into a (a copy of one). */
static void ph_totals(const struct phased *g, struct sim *a)
{
	struct sim z;
	unsigned t;

	memset(&z, 0, sizeof(z));
	for (t = 0; t < g->T; t++) {
		const struct sim *x = g->th[t];

		z.flits_offered += x->flits_offered;
		z.flits_accepted += x->flits_accepted;
		z.flit_hops += x->flit_hops;
		z.pk_injected += x->pk_injected;
		z.pk_delivered += x->pk_delivered;
		z.pk_dropped += x->pk_dropped;
		z.pk_in_net += x->pk_in_net;
		z.msgs_measured += x->msgs_measured;
		z.msgs_done += x->msgs_done;
		z.msgs_total += x->msgs_total;
		z.msgs_left += x->msgs_left;
		z.net_sum += x->net_sum;
		z.net_n += x->net_n;
		z.nheap += x->nheap;
		if (x->last_move > z.last_move)
			z.last_move = x->last_move;
	}
	a->flits_offered = z.flits_offered;
	a->flits_accepted = z.flits_accepted;
	a->flit_hops = z.flit_hops;
	a->pk_injected = z.pk_injected;
	a->pk_delivered = z.pk_delivered;
	a->pk_dropped = z.pk_dropped;
	a->pk_in_net = z.pk_in_net;
	a->msgs_measured = z.msgs_measured;
	a->msgs_done = z.msgs_done;
	a->msgs_total = z.msgs_total;
	a->msgs_left = z.msgs_left;
	a->net_sum = z.net_sum;
	a->net_n = z.net_n;
	a->nheap = z.nheap;
	a->last_move = z.last_move;
}

/*
 * Thread 0, the others waiting: verification and the periodic checks on
 * the whole fabric, as run_loop does them.
 */
static int ph_checks(struct sim *s, bool verify, bool sample, uint32_t end)
{
	struct phased *g = s->g;
	struct sim a = *s;

	ph_totals(g, &a);
	if (verify && verify_idle(&a))
		return -1;
	if (sample)
		return run_sample(&a, g->o, g->load, end, &g->last_progress);
	return 0;
}

static void *ph_thread(void *arg)
{
	struct sim *s = arg;
	struct phased *g = s->g;
	const struct ftsw_sim_opts *o = g->o;
	uint32_t end, sample_every, next_sample;
	struct timespec c0, c1;
	int go;

	while (!(go = atomic_load(&g->go)))
		sched_yield();
	if (go < 0)
		return NULL;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	end = o->count ? UINT32_MAX - 2 * s->wmask - 2 :
	      s->win1 + s->o.drain;
	sample_every = s->o.deadlock_cycles / 2 ? s->o.deadlock_cycles / 2 : 1;
	next_sample = sample_every;
	for (s->now = 0; s->now < end; s->now++) {
		struct phpub *pb = g->pub[s->now & 1], sum;
		struct bucket *b = &s->wheel[s->now & s->wmask];
		unsigned t;

		send_deferred(s);
		run_arrivals(s);
		/* one VL, FIFO inputs: the order does not matter (order_free) */
		if (s->V > 1 || s->o.voq)
			sort_bucket(s, b);
		run_events(s, b);
		ph_barrier(g);
		apply_mail(s);
		pb[s->tid].msgs_done = s->msgs_done;
		pb[s->tid].msgs_measured = s->msgs_measured;
		pb[s->tid].msgs_left = s->msgs_left;
		pb[s->tid].nheap = s->nheap;
		pb[s->tid].failed = s->failed;
		ph_barrier(g);
		memset(&sum, 0, sizeof(sum));
		for (t = 0; t < g->T; t++) {
			sum.msgs_done += pb[t].msgs_done;
			sum.msgs_measured += pb[t].msgs_measured;
			sum.msgs_left += pb[t].msgs_left;
			sum.nheap += pb[t].nheap;
			sum.failed |= pb[t].failed;
		}
		if (sum.failed) {
			if (!s->tid) {
				ftsw_err_set(s->err, "out of memory during the "
					     "simulation");
				g->rc = -1;
			}
			break;
		}
		if (o->verify || s->now == next_sample) {
			bool smp = s->now == next_sample;
			int v;

			if (!s->tid)
				g->verdict = ph_checks(s, o->verify, smp, end);
			ph_barrier(g);
			v = g->verdict;
			if (smp)
				next_sample += sample_every;
			if (v < 0 && !s->tid)
				g->rc = -1;
			if (v)
				break;
		}
		if (o->count && !sum.nheap && !sum.msgs_left)
			break;
		/* measured messages all delivered: stop draining */
		if (!o->count && s->now >= s->win1 &&
		    sum.msgs_done == sum.msgs_measured)
			break;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	g->cpu[s->tid] = (c1.tv_sec - c0.tv_sec) +
			 (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	return NULL;
}

/*
 * Address space for a pool of fixed ranges, per items per thread:
 * reserved, not committed; NULL when there is none.
 */
static void *ph_reserve(const struct pool *p, uint32_t per, unsigned T,
			size_t *bytes)
{
	void *m;

	*bytes = (size_t)per * T * (p->size + sizeof(uint32_t));
	m = mmap(NULL, *bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

/* Pool p becomes the reservation m (ph_reserve's, same per and T). */
static void ph_pool(struct pool *p, void *m, uint32_t per, unsigned T)
{
	free(p->items);
	free(p->next);
	p->items = m;
	p->next = (uint32_t *)((char *)m + (size_t)per * T * p->size);
	p->fixed = true;
}

static void ph_thread_init(struct sim *x, struct phased *g, unsigned t)
{
	x->g = g;
	x->tid = t;
	x->pkp.free = x->msp.free = NO_PKT;
	x->pkp.n = t * g->pk_per;
	x->pkp.cap = (t + 1) * g->pk_per;
	x->msp.n = t * g->ms_per;
	x->msp.cap = (t + 1) * g->ms_per;
}

/*
 * T threads for one point: the port ranges, the pools, the copies of the
 * run state (own wheel, heap of own hosts, counters, histograms).
 */
static int ph_setup(struct sim *s0, struct phased *g, unsigned T,
		    struct ftsw_err *err)
{
	uint64_t pk_per = (uint64_t)s0->nports * s0->V *
			  (s0->Bin + s0->Bout) + 64;
	struct hent *all = s0->heap;
	uint32_t nall = s0->nheap, i;
	void *pk, *ms;
	unsigned t;

	if (T > PH_MAXT)
		T = PH_MAXT;
	if (T > s0->t->nnodes)
		T = s0->t->nnodes;
	if (!T)
		T = 1;
	g->T = T;
	g->th[0] = s0;
	g->pstart[0] = 0;
	for (t = 1; t < T; t++) {
		uint32_t p = (uint32_t)((uint64_t)s0->nports * t / T);

		if (p < g->pstart[t - 1])
			p = g->pstart[t - 1];
		while (p < s0->nports && s0->pt[p].plocal != 1)
			p++;
		g->pstart[t] = p;
	}
	g->pstart[T] = s0->nports;
	if (pk_per * T >= NO_PKT) {
		ftsw_err_set(err, "fabric too large for the phased engine");
		return -1;
	}
	g->pk_per = (uint32_t)pk_per;
	g->ms_per = (1u << 26) / T;
	/* The reservations first: without them s0 is left as it was. */
	pk = ph_reserve(&s0->pkp, g->pk_per, T, &g->pk_bytes);
	ms = pk ? ph_reserve(&s0->msp, g->ms_per, T, &g->ms_bytes) : NULL;
	if (!ms) {
		if (pk)
			munmap(pk, g->pk_bytes);
		ftsw_err_set(err, "out of memory for the phased engine (it "
			     "reserves address space for %u threads' packets "
			     "and messages: see ulimit -v)", T);
		return PH_NOMEM;
	}
	ph_pool(&s0->pkp, pk, g->pk_per, T);
	ph_pool(&s0->msp, ms, g->ms_per, T);
	g->box = calloc((size_t)T * T, sizeof(*g->box));
	g->defer = calloc(T, sizeof(*g->defer));
	s0->heap = malloc((nall + 1) * sizeof(*s0->heap));
	if (!g->box || !g->defer || !s0->heap) {
		free(all);
		ftsw_err_set(err, "out of memory for the simulation");
		return -1;
	}
	s0->pk = s0->pkp.items;
	s0->ms = s0->msp.items;
	for (t = 1; t < T; t++) {
		struct sim *x = malloc(sizeof(*x));

		if (!x) {
			free(all);
			ftsw_err_set(err, "out of memory for the simulation");
			return -1;
		}
		*x = *s0;
		x->tmp = NULL;
		x->tmp_cap = 0;
		x->dropq = NULL;
		x->hmsg.fine = x->hmsg.coarse = NULL;
		x->hpkt.fine = x->hpkt.coarse = NULL;
		x->wheel = calloc(s0->wmask + 1, sizeof(*x->wheel));
		x->heap = malloc((nall + 1) * sizeof(*x->heap));
		g->th[t] = x;
		if (!x->wheel || !x->heap || hist_init(&x->hmsg) ||
		    hist_init(&x->hpkt)) {
			free(all);
			ftsw_err_set(err, "out of memory for the simulation");
			return -1;
		}
	}
	for (t = 0; t < T; t++) {
		struct sim *x = g->th[t];

		ph_thread_init(x, g, t);
		x->nheap = 0;
		for (i = 0; i < nall; i++)
			if (owner(g, s0->hport[all[i].h]) == t)
				x->heap[x->nheap++] = all[i];
		for (i = x->nheap; i-- > 0;)
			heap_down(x, i);
	}
	free(all);
	return 0;
}

static void ph_free(struct sim *s0, struct phased *g)
{
	unsigned t;

	for (t = 1; t < g->T; t++) {
		struct sim *x = g->th[t];

		if (!x)
			continue;
		wheel_free(x);
		free(x->heap);
		free(x->tmp);
		hist_free(&x->hmsg);
		hist_free(&x->hpkt);
		free(x);
	}
	if (g->box)
		for (t = 0; t < g->T * g->T; t++)
			free(g->box[t].m);
	if (g->defer)
		for (t = 0; t < g->T; t++)
			free(g->defer[t].m);
	free(g->box);
	free(g->defer);
	if (s0->pkp.fixed && s0->pkp.items)
		munmap(s0->pkp.items, g->pk_bytes);
	if (s0->msp.fixed && s0->msp.items)
		munmap(s0->msp.items, g->ms_bytes);
	if (s0->pkp.fixed)
		s0->pkp.items = s0->pkp.next = NULL;
	if (s0->msp.fixed)
		s0->msp.items = s0->msp.next = NULL;
	free(s0->tmp);
	s0->tmp = NULL;
	free(g);
}

/* The threads' counters and histograms into thread 0's. */
static void ph_merge(struct phased *g)
{
	struct sim *s0 = g->th[0];
	unsigned t;
	uint32_t i;

	ph_totals(g, s0);
	for (t = 1; t < g->T; t++) {
		struct hist *a[2] = { &s0->hmsg, &s0->hpkt };
		struct hist *b[2] = { &g->th[t]->hmsg, &g->th[t]->hpkt };
		unsigned k;

		for (k = 0; k < 2; k++) {
			for (i = 0; i < HFINE; i++) {
				a[k]->fine[i] += b[k]->fine[i];
				a[k]->coarse[i] += b[k]->coarse[i];
			}
			a[k]->n += b[k]->n;
			a[k]->sum += b[k]->sum;
		}
	}
}

/*
 * The event engine's numbers do not depend on the order of a cycle's
 * events when no two of them compete for one resource: with FIFO inputs
 * and one VL an input's only head packet requests one output, so no two
 * outputs want the same input in a cycle; what a link or a crossbar does
 * in a cycle reads no state another event of the cycle changes in a way
 * that matters (a packet joins a buffer L >= 1 cycles after it left, a
 * credit comes back at least a cycle after it was freed, drops count at
 * the cycle's end). The phased engine then gives the event engine's
 * numbers, bit for bit (tests/bench/sim-same), on any number of threads:
 * a point given several threads uses them when the fabric is large enough
 * for the barriers to pay (Documentation/sim.md).
 */
#define PH_AUTO_PORTS	16384
static bool order_free(const struct sim *s)
{
	return s->V == 1 && !s->o.voq && s->nports >= PH_AUTO_PORTS;
}

/*
 * One point on o->point_threads threads; *cpu: their loop CPU seconds.
 * PH_NOMEM: no address space for the engine's pools; nothing ran and *s
 * is as it came, ready for the event engine.
 */
static int run_phased(struct sim *s, const struct ftsw_sim_opts *o,
		      double load, struct ftsw_err *err, double *cpu,
		      unsigned *nthreads)
{
	struct phased *g = calloc(1, sizeof(*g));
	pthread_t th[PH_MAXT];
	unsigned t, started;
	int rc;

	if (!g) {
		ftsw_err_set(err, "out of memory for the simulation");
		return -1;
	}
	g->o = o;
	g->load = load;
	g->last_progress = ftsw_now_us();
	rc = ph_setup(s, g, o->point_threads ? o->point_threads : 1, err);
	if (rc) {
		ph_free(s, g);
		return rc;
	}
	for (started = 1; started < g->T; started++)
		if (pthread_create(&th[started], NULL, ph_thread,
				   g->th[started]))
			break;
	if (started < g->T) {
		atomic_store(&g->go, -1);
		for (t = 1; t < started; t++)
			pthread_join(th[t], NULL);
		ftsw_err_set(err, "cannot start the simulation's threads");
		ph_free(s, g);
		return -1;
	}
	atomic_store(&g->go, 1);
	ph_thread(s);
	for (t = 1; t < g->T; t++)
		pthread_join(th[t], NULL);
	ph_merge(g);
	*cpu = 0;
	for (t = 0; t < g->T; t++)
		*cpu += g->cpu[t];
	*nthreads = g->T;
	rc = g->rc;
	ph_free(s, g);
	return rc;
}

int ftsw_sim_run(const struct ftsw_routing *r,
		 const struct ftsw_sim_traffic *tr,
		 const struct ftsw_sim_opts *o, double load,
		 struct ftsw_sim_result *res, struct ftsw_err *err)
{
	struct sim s;
	uint64_t t0 = ftsw_now_us();
	struct timespec c0, c1;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.res = res;
	res->load = load;
	if (sim_setup(&s, r, tr, o, load, err)) {
		sim_free(&s);
		return -1;
	}
	res->vls = s.V;
	res->nports = s.nports;
	res->threads = 1;
	if (o->phased || (o->point_threads > 1 && order_free(&s))) {
		double cpu = 0;

		rc = run_phased(&s, o, load, err, &cpu, &res->threads);
		if (rc == PH_NOMEM && !o->phased) {
			/* Threads were only offered: the event engine gives
			 * the same numbers on one, in far less memory.
			 */
			res->fell_back = true;
			goto event;
		}
		if (rc == PH_NOMEM)
			rc = -1;
		if (o->progress)
			fprintf(stderr, "\r%50s\r", "");
		if (!rc && conservation(&s))
			rc = -1;
		rc = run_results(&s, o, res, rc, err);
		res->seconds = (ftsw_now_us() - t0) * 1e-6;
		res->cpu_seconds = cpu;
		sim_free(&s);
		return rc;
	}
event:
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	rc = run_loop(&s, o, load, err);
	if (o->progress)
		fprintf(stderr, "\r%50s\r", "");
	if (!rc && conservation(&s))
		rc = -1;
	rc = run_results(&s, o, res, rc, err);
	res->seconds = (ftsw_now_us() - t0) * 1e-6;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	res->cpu_seconds = (c1.tv_sec - c0.tv_sec) +
			   (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	sim_free(&s);
	return rc;
}
