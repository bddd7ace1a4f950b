// SPDX-License-Identifier: GPL-2.0
/*
 * What the simulator's files share (private to user/lib/sim): the
 * engine's records, the phased engine's state, the hot inline helpers.
 */
#ifndef FTSW_SIM_INT_H
#define FTSW_SIM_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "util/util.h"

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
	uint8_t starved;	/* CC: waited for credit since its last start */
	uint16_t mark_skip;	/* CC: the marking rate's count */
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
	uint8_t fecn;		/* CC: marked by a switch */
	uint8_t pad[3];
	uint32_t seq;		/* order within its (source, destination) */
};

struct msg {
	uint32_t created, first;	/* arrival, first flit on the wire */
	uint32_t dst;
	uint16_t to_inject, to_deliver;
	uint8_t offset, vl, measured, known;	/* known: route[] bits */
	uint32_t src;
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
#define PH_NOMEM (-2)	/* sim_run_phased(): no memory for its set-up */

/* Congestion management's state (cm.c): CC units, BECNs, flowlets. */
struct cm;

struct sim {
	const struct ftsw_routing *r;
	const struct ftsw_topo *t;
	const struct ftsw_sim_traffic *tr;
	struct ftsw_sim_opts o;
	unsigned V, P, L, R, Bin, Bout;
	unsigned Px;		/* crossbar time of a packet, ceil(P / S) */
	bool per_packet;	/* the path is chosen per packet */
	bool nomemo;		/* packets of a message may take other
				 * switches: no route memo (per_packet, AR) */
	struct cm *cm;		/* congestion management, NULL: off */
	bool cc_on, ar_on;	/* congestion control, adaptive routing */
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

/* engine.c */
void sim_deliver(struct sim *s, struct pkt *p, uint32_t pi, uint32_t tail);
void sim_arrive(struct sim *s, uint32_t pi, uint32_t pp, unsigned v);
int sim_bucket_grow(struct sim *s, struct bucket *b);
void sim_cred_return(struct sim *s, size_t idx, uint32_t when);
void sim_cred_wait(struct sim *s, size_t idx, uint32_t o);
void sim_drop(struct sim *s, uint32_t pi);
void sim_mail(struct sim *s, unsigned to, uint32_t kind, uint32_t a,
	      uint32_t b);
void sim_run_cycle(struct sim *s);
void sim_run_events(struct sim *s, struct bucket *b);
void sim_transmit(struct sim *s, uint32_t o, unsigned v, uint32_t pi);
int sim_verify_idle(struct sim *s);

/* check.c */
int sim_conservation(struct sim *s);
bool sim_find_deadlock(struct sim *s);

/* cm.c: congestion control, adaptive routing, order */
int sim_cm_setup(struct sim *s, struct ftsw_err *err);
void sim_cm_free(struct sim *s);
void sim_cm_results(struct sim *s, struct ftsw_sim_result *res);
void sim_cc_link(struct sim *s, uint32_t o, unsigned v, uint32_t pi);
void sim_cc_starved(struct sim *s, uint32_t o);
void sim_cm_deliver(struct sim *s, struct pkt *p, uint32_t tail);
void sim_cc_run_becns(struct sim *s);
uint32_t sim_cc_until(const struct sim *s, uint32_t h, const struct msg *m);
void sim_cc_waited(struct sim *s);
void sim_cc_sent(struct sim *s, uint32_t h, const struct msg *m);
uint8_t sim_ar_choose(struct sim *s, uint32_t pp, unsigned v,
		      const struct pkt *p);
void sim_cm_inject(struct sim *s, uint32_t h, struct pkt *p);

/* flit.c: the flit-level engine (wormhole, and VCT flit by flit) */
int sim_run_flit(struct sim *s, const struct ftsw_sim_opts *o, double load,
		 struct ftsw_err *err);

/* hosts.c */
uint32_t sim_host_pkt(struct sim *s, uint32_t h, uint32_t mi);
void sim_heap_down(struct sim *s, uint32_t i);
void sim_host_link(struct sim *s, uint32_t o, uint32_t h);
void sim_run_arrivals(struct sim *s);

/* setup.c */
void sim_hist_free(struct hist *h);
int sim_hist_init(struct hist *h);
double sim_hist_q(const struct hist *h, double q);
void sim_free(struct sim *s);
int sim_setup(struct sim *s, const struct ftsw_routing *r,
	      const struct ftsw_sim_traffic *tr, const struct ftsw_sim_opts *o,
	      double load, struct ftsw_err *err);
void sim_wheel_free(struct sim *s);

/* phased.c: whether s is one the phased engine runs by itself (its numbers
 * the event engine's, the fabric large enough for threads to pay). */
bool sim_phased_auto(const struct sim *s);
int sim_run_phased(struct sim *s, const struct ftsw_sim_opts *o, double load,
	           struct ftsw_err *err, double *cpu, unsigned *nthreads);

/* sim.c */
int sim_run_sample(struct sim *s, const struct ftsw_sim_opts *o, double load,
	           uint32_t end, uint64_t *last_progress);

static inline unsigned owner(const struct phased *g, uint32_t port)
{
	unsigned t = 0;

	while (t + 1 < g->T && port >= g->pstart[t + 1])
		t++;
	return t;
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


static inline void push_ev(struct sim *s, uint32_t when, uint32_t ev)
{
	struct bucket *b = &s->wheel[when & s->wmask];

	if (b->n == b->cap && sim_bucket_grow(s, b))
		return;
	b->ev[b->n++] = ev;
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
		sim_mail(s, i / s->g->pk_per, M_FREE_PKT, i, 0);
		return;
	}
	pool_free(&s->pkp, i);
}

static inline void msg_free(struct sim *s, uint32_t i)
{
	if (s->g && i / s->g->ms_per != s->tid) {
		sim_mail(s, i / s->g->ms_per, M_FREE_MSG, i, 0);
		return;
	}
	pool_free(&s->msp, i);
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


#endif
