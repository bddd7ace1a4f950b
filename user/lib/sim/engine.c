// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level simulator's engine (sim.h; the model in Documentation/sim.md).
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

#include "sim/sim_int.h"
#include "util/parse.h"


__attribute__((noinline)) void sim_mail(struct sim *s, unsigned to,
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


/* A full bucket grows (rarely: buckets keep their size between laps). */
__attribute__((noinline)) int sim_bucket_grow(struct sim *s,
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


/* Link o found no credit for VL idx: wake it when one arrives. */
void sim_cred_wait(struct sim *s, size_t idx, uint32_t o)
{
	struct spv *x = PV(s, idx);

	if (x->cr_cnt)
		push_ev(s, CRQ(s, idx)[x->cr_head], EV(EV_LINK, o));
	else
		x->cwait = 1;
}

void sim_cred_return(struct sim *s, size_t idx, uint32_t when)
{
	struct spv *x = PV(s, idx);

	CRQ(s, idx)[wrap(x->cr_head + x->cr_cnt, s->Bin)] = when;
	x->cr_cnt++;
	if (x->cwait) {
		x->cwait = 0;
		push_ev(s, when, EV(EV_LINK, div_v(s, idx)));
	}
}

void sim_deliver(struct sim *s, struct pkt *p, uint32_t pi, uint32_t tail)
{
	struct msg *m = &s->ms[p->msg];

	if (s->cm)
		sim_cm_deliver(s, p, tail);
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

void sim_drop(struct sim *s, uint32_t pi)
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
	sim_mail(s, hp == FTSW_NONE || s->pt[hp].peer == FTSW_NONE ? 0 :
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
void sim_arrive(struct sim *s, uint32_t pi, uint32_t pp,
			  unsigned v)
{
	struct pkt *p = &s->pk[pi];
	uint32_t base = s->pt[pp].pbase, idx = pp * s->V + v;
	uint8_t out = p->out;

	INQ(s, idx)[wrap(PV(s, idx)->in_head + PV(s, idx)->in_cnt, s->Bin)] = pi;
	if (PV(s, idx)->in_cnt++ == 0) {
		uint32_t when = p->t + s->R - 1;

		/* adaptive routing: the switch chooses at the head */
		if (s->ar_on)
			out = p->out = sim_ar_choose(s, pp, v, p);
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

/* Put packet pi on link o (credit checked by the caller) at s->now. */
void sim_transmit(struct sim *s, uint32_t o, unsigned v, uint32_t pi)
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
		sim_deliver(s, p, pi, s->now + s->L + P);
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
		} else if (k < 8 && !s->nomemo) {
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
		sim_mail(s, owner(s->g, pp), M_ARRIVE, pi, idx);
	else
		sim_arrive(s, pi, pp, v);
}

/* Next message of host h (Poisson arrival already due). */
static int link_pick(const struct sim *s, uint32_t o);

static void link_ev(struct sim *s, uint32_t o)
{
	size_t idx;
	uint32_t pi;
	int v;

	if (s->pt[o].link_free > s->now || s->pt[o].peer == FTSW_NONE)
		return;
	if (s->pt[o].pflags & PF_HOST) {
		sim_host_link(s, o, s->pt[o].pidx);
		return;
	}
	v = link_pick(s, o);
	if (v < 0) {
		unsigned w;

		/* ready heads without credit: wake with the next return */
		for (w = 0; w < s->V; w++) {
			idx = (size_t)o * s->V + w;
			if (PV(s, idx)->out_cnt && PV(s, idx)->out_ht <= s->now &&
			    !cred_avail(s, idx)) {
				sim_cred_wait(s, idx, o);
				PV(s, idx)->starved = 1;
			}
		}
		return;
	}
	idx = (size_t)o * s->V + v;
	pi = OUTQ(s, idx)[PV(s, idx)->out_head];
	/* congestion control: FECN as it starts, counted in its queue */
	if (s->cc_on)
		sim_cc_link(s, o, (unsigned)v, pi);
	PV(s, idx)->out_head = (uint8_t)wrap(PV(s, idx)->out_head + 1u, s->Bout);
	if (--PV(s, idx)->out_cnt)
		PV(s, idx)->out_ht = s->pk[OUTQ(s, idx)[PV(s, idx)->out_head]].t;
	s->pt[o].rr_vl = (uint8_t)wrap((unsigned)v + 1, s->V);
	/* the slot frees with the tail: the crossbar may refill it */
	if (!(s->pt[o].pflags & PF_MASK) || s->pt[o].reqmask || s->o.voq)
		push_ev(s, s->now + s->P, EV(EV_XBAR, o));
	sim_transmit(s, o, (unsigned)v, pi);
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
		sim_mail(s, owner(s->g, s->pt[in].peer), M_CREDIT,
		     s->pt[in].peer * V + v, xfree - 1 + s->L);
	else
		sim_cred_return(s, (size_t)s->pt[in].peer * V + v,
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

/*
 * Output o granted nothing: if its buffer may be full only until the tail
 * on its link has left, look again then. The link's own wake-up at that
 * tail (link_ev) only covers inputs that requested o when the packet
 * started; an input whose head came later, woken when the buffer was not
 * yet full and finding it filled meanwhile by another input, would wait
 * for the next packet's tail (found by verify with speedup > 1).
 */
static void xbar_retry(struct sim *s, uint32_t o)
{
	if (s->pt[o].link_free > s->now &&
	    (!(s->pt[o].pflags & PF_MASK) || s->pt[o].reqmask))
		push_ev(s, s->pt[o].link_free, EV(EV_XBAR, o));
}

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

	if (idx == SIZE_MAX) {
		xbar_retry(s, o);
		return;
	}
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

		if (s->ar_on)
			nx->out = sim_ar_choose(s, in, v, nx);
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

	if (idx == SIZE_MAX) {
		xbar_retry(s, o);
		return;
	}
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
			if (cred_avail(s, (size_t)o * s->V + m->vl) &&
			    (!s->cc_on || sim_cc_until(s, h, m) <= s->now))
				return true;
		}
		return false;
	}
	m = &s->ms[q->id[q->head]];
	return m->created <= s->now &&
	       cred_avail(s, (size_t)o * s->V + m->vl) &&
	       (!s->cc_on || sim_cc_until(s, h, m) <= s->now);
}

/*
 * Verification mode: after a cycle's events, no resource may be able to
 * act (a wake-up was missed otherwise).
 */
int sim_verify_idle(struct sim *s)
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


void sim_run_events(struct sim *s, struct bucket *b)
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
void sim_run_cycle(struct sim *s)
{
	uint32_t i;

	if (s->cc_on)
		sim_cc_run_becns(s);
	sim_run_arrivals(s);
	sim_run_events(s, &s->wheel[s->now & s->wmask]);
	for (i = 0; i < s->ndrop; i++)
		sim_drop(s, s->dropq[i]);
	s->ndrop = 0;
}

/*
 * The periodic checks: progress line, conservation, deadlock. 0 to go
 * on, 1 when a deadlock stops the run, -1 on a failed check.
 */
