// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level engine (Documentation/sim.md, "Wormhole switching"):
 * every flit, every cycle, on small fabrics. It runs the same fabric,
 * forwarding, traffic and measurement as the event engine (sim_setup, the
 * hosts' arrivals, sim_deliver) with buffers counted in flits:
 *
 *  - every switch port has, per VL, an input buffer and an output buffer
 *    of F flits (--buffer-flits; else the packets' worth of the VCT
 *    model), credits count flits of the next input buffer;
 *  - a cycle: flits on the wire arrive (L cycles after they left),
 *    returned credits arrive, each link sends one flit (its VLs round
 *    robin, flit by flit), then each output port's crossbar moves up to S
 *    flits (S = --speedup) from the input that holds it, each input port
 *    feeding at most S flits a cycle;
 *  - an output VL is held by one packet from its head to its tail at the
 *    crossbar (its flits never mix with another packet's), granted round
 *    robin over the input ports to a head that has spent the router
 *    latency in its input buffer;
 *  - wormhole: a head takes an output VL with room for one flit, a flit
 *    crosses a link with one credit: a blocked packet stays spread over
 *    the buffers it holds. Virtual cut-through (--switching vct-flits): a
 *    head takes an output VL only with room for the whole packet and
 *    crosses a link only with P credits, which its packet then owns.
 *
 * An idle packet through h switches takes (h + 1) L + h R + P cycles, as
 * on the event engine. A deadlock is reported when no flit moves for
 * --deadlock cycles while packets are in the fabric (without its cycle).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

struct fslot {
	uint32_t pk;
	uint16_t idx;		/* flit of its packet: 0 head, P - 1 tail */
};

struct fq {			/* a buffer's flits, in order */
	struct fslot *s;
	uint32_t head, cnt, cap;
};

struct fvl {			/* a port's VL */
	struct fq in, out;
	uint32_t owner;		/* output VL held by this packet (NO_PKT) */
	uint32_t owner_in;	/* ... fed by that input port */
	uint32_t credits;	/* flits the peer's input buffer takes */
	uint32_t rr;		/* crossbar round robin over input ports */
	uint32_t *cr;		/* credits on their way back, by cycle % L */
};

struct fwire {			/* the flit a link sent, by cycle % L */
	uint32_t pk;
	uint16_t idx;
	uint8_t vl, full;
};

struct flit {
	unsigned V, P, L, R, S, F_in, F_out;
	bool worm;
	struct fvl *vl;		/* port * V + v */
	struct fwire *wire;	/* port * L + cycle % L */
	uint32_t *rr_vl;	/* per port: link round robin */
	uint32_t *hpk;		/* per host: the packet it sends, NO_PKT */
	uint16_t *hidx;		/* ... its next flit */
	uint32_t *in_use, *out_use;	/* crossbar flits this cycle */
	uint64_t flits_in_net;
};

static int fq_init(struct fq *q, unsigned cap)
{
	q->s = calloc(cap ? cap : 1, sizeof(*q->s));
	q->cap = cap;
	return q->s ? 0 : -1;
}

static inline struct fslot *fq_front(struct fq *q)
{
	return q->cnt ? &q->s[q->head] : NULL;
}

static inline void fq_push(struct fq *q, uint32_t pk, uint16_t idx)
{
	struct fslot *x = &q->s[(q->head + q->cnt++) % q->cap];

	x->pk = pk;
	x->idx = idx;
}

static inline void fq_pop(struct fq *q)
{
	q->head = (q->head + 1) % q->cap;
	q->cnt--;
}

static void flit_free(struct sim *s, struct flit *f)
{
	size_t i, n = (size_t)s->nports * f->V;

	if (f->vl)
		for (i = 0; i < n; i++) {
			free(f->vl[i].in.s);
			free(f->vl[i].out.s);
			free(f->vl[i].cr);
		}
	free(f->vl);
	free(f->wire);
	free(f->rr_vl);
	free(f->hpk);
	free(f->hidx);
	free(f->in_use);
	free(f->out_use);
}

static int flit_setup(struct sim *s, const struct ftsw_sim_opts *o,
		      struct flit *f, struct ftsw_err *err)
{
	const struct ftsw_topo *t = s->t;
	size_t i, n = (size_t)s->nports * s->V;
	uint32_t p, h;

	memset(f, 0, sizeof(*f));
	f->V = s->V;
	f->P = s->P;
	f->L = s->L;
	f->R = s->R;
	f->S = o->speedup ? o->speedup : 1;
	f->worm = o->switching == FTSW_SIM_WORMHOLE;
	f->F_in = o->buf_flits ? o->buf_flits : s->Bin * s->P;
	f->F_out = o->buf_flits ? o->buf_flits : s->Bout * s->P;
	if (!f->worm && (f->F_in < s->P || f->F_out < s->P)) {
		ftsw_err_set(err, "--switching vct-flits: buffers of %u flits "
			     "hold no packet of %u", f->F_in < f->F_out ?
			     f->F_in : f->F_out, s->P);
		return -1;
	}
	if (f->F_in > 65535 || f->F_out > 65535) {
		ftsw_err_set(err, "--buffer-flits: at most 65535");
		return -1;
	}
	f->vl = calloc(n + 1, sizeof(*f->vl));
	f->wire = calloc((size_t)s->nports * f->L + 1, sizeof(*f->wire));
	f->rr_vl = calloc(s->nports + 1, sizeof(*f->rr_vl));
	f->hpk = malloc((t->nhosts + 1) * sizeof(*f->hpk));
	f->hidx = calloc(t->nhosts + 1, sizeof(*f->hidx));
	f->in_use = calloc(s->nports + 1, sizeof(*f->in_use));
	f->out_use = calloc(s->nports + 1, sizeof(*f->out_use));
	if (!f->vl || !f->wire || !f->rr_vl || !f->hpk || !f->hidx ||
	    !f->in_use || !f->out_use)
		goto oom;
	for (h = 0; h < t->nhosts; h++)
		f->hpk[h] = NO_PKT;
	for (p = 0; p < s->nports; p++) {
		const struct ftsw_port *x = &t->ports[p];
		bool to_host = x->peer != FTSW_NONE &&
			       t->nodes[x->peer].kind == FTSW_HOST;

		for (i = 0; i < f->V; i++) {
			struct fvl *q = &f->vl[(size_t)p * f->V + i];

			q->owner = NO_PKT;
			q->credits = x->peer == FTSW_NONE ? 0 :
				     to_host ? UINT32_MAX : f->F_in;
			q->cr = calloc(f->L, sizeof(*q->cr));
			if (!q->cr || fq_init(&q->in, f->F_in) ||
			    fq_init(&q->out, f->F_out))
				goto oom;
		}
	}
	return 0;
oom:
	ftsw_err_errno(err, ENOMEM, "out of memory for the flit engine");
	return -1;
}

/* ------------------------------------------------------------ a cycle */

/* A flit leaves input buffer (port in, VL v): its credit goes back. */
static void credit_back(struct sim *s, struct flit *f, uint32_t in,
			unsigned v)
{
	uint32_t peer = s->pt[in].peer;

	if (peer != FTSW_NONE)
		f->vl[(size_t)peer * f->V + v].cr[s->now % f->L]++;
}

/* The head flit of packet pk reached switch port pp: route it. */
static void route_head(struct sim *s, uint32_t pk, uint32_t pp, bool transit)
{
	struct pkt *p = &s->pk[pk];
	uint32_t sw = s->pt[pp].pidx, base = s->pt[pp].pbase;
	uint8_t out;

	p->t = s->now;
	if (transit && ++p->hops > FTSW_HOP_LIMIT) {
		p->out = 0;		/* dropped at the head of the buffer */
		return;
	}
	out = p->dlid <= s->r->max_lid ? ftsw_lft(s->r, sw)[p->dlid] :
	      FTSW_PORT_NONE;
	if (out == FTSW_PORT_NONE || out == 0 || out > s->pt[pp].pnp ||
	    s->pt[base + out - 1].peer == FTSW_NONE)
		out = 0;
	p->out = out;
}

/* Flits sent L cycles ago arrive, and credits returned L cycles ago. */
static void arrivals(struct sim *s, struct flit *f)
{
	uint32_t p, slot = s->now % f->L;
	size_t i, n = (size_t)s->nports * f->V;

	for (i = 0; i < n; i++) {
		f->vl[i].credits += f->vl[i].cr[slot];
		f->vl[i].cr[slot] = 0;
	}
	for (p = 0; p < s->nports; p++) {
		struct fwire *w = &f->wire[(size_t)p * f->L + slot];
		uint32_t q = s->pt[p].peer;

		if (!w->full)
			continue;
		w->full = 0;
		if (s->pt[p].pflags & PF_PEER_HOST) {
			f->flits_in_net--;
			if (w->idx == f->P - 1)
				sim_deliver(s, &s->pk[w->pk], w->pk, s->now + 1);
			continue;
		}
		fq_push(&f->vl[(size_t)q * f->V + w->vl].in, w->pk, w->idx);
		if (!w->idx)
			route_head(s, w->pk, q, !(s->pt[p].pflags & PF_HOST));
	}
}

/* Put flit idx of packet pk on link p (VL v). */
static void wire_put(struct sim *s, struct flit *f, uint32_t p, unsigned v,
		     uint32_t pk, uint16_t idx)
{
	struct fwire *w = &f->wire[(size_t)p * f->L + s->now % f->L];

	w->pk = pk;
	w->idx = idx;
	w->vl = (uint8_t)v;
	w->full = 1;
	s->flit_hops++;
	s->last_move = s->now;
	if (in_window(s, s->now))
		PV(s, (size_t)p * f->V + v)->flits++;
}

/*
 * May a flit idx go over a link with this VL's credits? A head takes all
 * of its packet's credits under VCT (the packet owns them), one under
 * wormhole; a body flit takes one under wormhole, none under VCT.
 */
static bool take_credit(struct flit *f, struct fvl *q, uint16_t idx)
{
	if (q->credits == UINT32_MAX)
		return true;
	if (f->worm) {
		if (!q->credits)
			return false;
		q->credits--;
		return true;
	}
	if (idx)
		return true;
	if (q->credits < f->P)
		return false;
	q->credits -= f->P;
	return true;
}

/* Host h's link: the next flit of its packet, or of its next message's. */
static void host_send(struct sim *s, struct flit *f, uint32_t p, uint32_t h)
{
	struct hostq *hq = &s->hq[h];
	struct fvl *q;
	uint32_t pk = f->hpk[h];

	if (pk == NO_PKT) {
		uint32_t mi;
		struct msg *m;

		if (!hq->cnt)
			return;
		mi = hq->id[hq->head];
		m = &s->ms[mi];
		if (m->created > s->now)
			return;
		q = &f->vl[(size_t)p * f->V + m->vl];
		if (!take_credit(f, q, 0))
			return;
		pk = sim_host_pkt(s, h, mi);
		if (pk == NO_PKT)
			return;
		if (!m->to_inject) {
			hq->head = (hq->head + 1) % hq->cap;
			hq->cnt--;
		}
		f->hpk[h] = pk;
		f->hidx[h] = 0;
	} else {
		q = &f->vl[(size_t)p * f->V + s->pk[pk].vl];
		if (!take_credit(f, q, f->hidx[h]))
			return;
	}
	wire_put(s, f, p, s->pk[pk].vl, pk, f->hidx[h]);
	f->flits_in_net++;
	if (++f->hidx[h] == f->P)
		f->hpk[h] = NO_PKT;
}

/* Switch port p's link: one flit of its VLs, round robin. */
static void link_send(struct sim *s, struct flit *f, uint32_t p)
{
	unsigned j;

	for (j = 0; j < f->V; j++) {
		unsigned v = (f->rr_vl[p] + j) % f->V;
		struct fvl *q = &f->vl[(size_t)p * f->V + v];
		struct fslot *x = fq_front(&q->out);

		if (!x || !take_credit(f, q, x->idx))
			continue;
		wire_put(s, f, p, v, x->pk, x->idx);
		fq_pop(&q->out);
		f->rr_vl[p] = (v + 1) % f->V;
		return;
	}
}

/* Heads of packets that are dropped leave their input buffers. */
static void drop_heads(struct sim *s, struct flit *f, uint32_t in,
		       unsigned v)
{
	struct fvl *q = &f->vl[(size_t)in * f->V + v];
	struct fslot *x;

	while ((x = fq_front(&q->in)) && !s->pk[x->pk].out &&
	       f->in_use[in] < f->S) {
		uint32_t pk = x->pk;
		bool tail = x->idx == f->P - 1;

		fq_pop(&q->in);
		credit_back(s, f, in, v);
		f->in_use[in]++;
		f->flits_in_net--;
		s->last_move = s->now;
		if (tail)
			sim_drop(s, pk);
	}
}

/* Output port o, VL v: grant a head, then move the owner's flits. */
static void xbar(struct sim *s, struct flit *f, uint32_t o, unsigned v)
{
	struct fvl *q = &f->vl[(size_t)o * f->V + v];
	uint32_t base = s->pt[o].pbase, np = s->pt[o].pnp, k;
	uint8_t lo = s->pt[o].plocal;

	if (q->owner == NO_PKT) {
		unsigned need = f->worm ? 1 : f->P;

		if (q->out.cap - q->out.cnt < need)
			return;
		for (k = 0; k < np; k++) {
			uint32_t in = base + (q->rr + k) % np;
			struct fslot *x = fq_front(&f->vl[(size_t)in * f->V +
							  v].in);
			const struct pkt *p;

			if (!x || x->idx)
				continue;
			p = &s->pk[x->pk];
			if (p->out != lo || p->t + f->R - 1 > s->now)
				continue;
			q->owner = x->pk;
			q->owner_in = in;
			q->rr = (in - base + 1) % np;
			break;
		}
		if (q->owner == NO_PKT)
			return;
	}
	while (f->out_use[o] < f->S && f->in_use[q->owner_in] < f->S &&
	       q->out.cnt < q->out.cap) {
		struct fvl *iq = &f->vl[(size_t)q->owner_in * f->V + v];
		struct fslot *x = fq_front(&iq->in);
		uint16_t idx;

		if (!x || x->pk != q->owner)
			return;
		idx = x->idx;
		fq_push(&q->out, x->pk, idx);
		fq_pop(&iq->in);
		credit_back(s, f, q->owner_in, v);
		f->in_use[q->owner_in]++;
		f->out_use[o]++;
		s->last_move = s->now;
		if (idx == f->P - 1) {
			q->owner = NO_PKT;
			return;
		}
	}
}

static void flit_cycle(struct sim *s, struct flit *f)
{
	uint32_t p, k, n = s->nports, start = s->now % (n ? n : 1);
	unsigned v;

	/* arrivals of messages at the hosts (they queue them) */
	sim_run_arrivals(s);
	s->wheel[s->now & s->wmask].n = 0;	/* the event engine's wakes */
	arrivals(s, f);
	for (p = 0; p < n; p++) {
		if (s->pt[p].peer == FTSW_NONE)
			continue;
		if (s->pt[p].pflags & PF_HOST)
			host_send(s, f, p, s->pt[p].pidx);
		else
			link_send(s, f, p);
	}
	memset(f->in_use, 0, n * sizeof(*f->in_use));
	memset(f->out_use, 0, n * sizeof(*f->out_use));
	for (k = 0; k < n; k++) {
		p = (start + k) % n;
		if (s->pt[p].pflags & PF_HOST)
			continue;
		for (v = 0; v < f->V; v++)
			drop_heads(s, f, p, v);
	}
	for (k = 0; k < n; k++) {
		p = (start + k) % n;
		if ((s->pt[p].pflags & PF_HOST) || s->pt[p].peer == FTSW_NONE)
			continue;
		for (v = 0; v < f->V; v++)
			xbar(s, f, p, v);
	}
	for (k = 0; k < s->ndrop; k++)
		sim_drop(s, s->dropq[k]);
	s->ndrop = 0;
}

/* Flits counted in every buffer and on every wire against the count. */
static int flit_conservation(struct sim *s, struct flit *f)
{
	uint64_t n = 0;
	size_t i;
	uint32_t p;

	for (i = 0; i < (size_t)s->nports * f->V; i++)
		n += f->vl[i].in.cnt + f->vl[i].out.cnt;
	for (p = 0; p < s->nports; p++)
		for (i = 0; i < f->L; i++)
			n += f->wire[(size_t)p * f->L + i].full;
	if (n != f->flits_in_net) {
		ftsw_err_set(s->err, "flit engine: %llu flits in the fabric's "
			     "buffers and wires at cycle %u, %llu counted",
			     (unsigned long long)n, s->now,
			     (unsigned long long)f->flits_in_net);
		return -1;
	}
	s->res->samples++;
	return 0;
}

int sim_run_flit(struct sim *s, const struct ftsw_sim_opts *o, double load,
		 struct ftsw_err *err)
{
	uint32_t end, every = s->o.deadlock_cycles / 2, next;
	struct flit f;
	int rc = 0;

	(void)load;
	if (o->cc || o->adaptive || o->voq || o->phased || o->interleave > 1) {
		ftsw_err_set(err, "--switching %s: not with --cc, adaptive "
			     "routing, --voq, --phased or --interleave",
			     ftsw_sim_switching_name(o->switching));
		return -1;
	}
	if (flit_setup(s, o, &f, err)) {
		flit_free(s, &f);
		return -1;
	}
	end = o->count ? UINT32_MAX - 2 : s->win1 + s->o.drain;
	next = every ? every : 1;
	for (s->now = 0; s->now < end; s->now++) {
		flit_cycle(s, &f);
		if (s->failed) {
			ftsw_err_errno(err, ENOMEM, "out of memory during the "
				       "simulation");
			rc = -1;
			break;
		}
		if (s->now == next) {
			next += every ? every : 1;
			if (flit_conservation(s, &f)) {
				rc = -1;
				break;
			}
			if (s->pk_in_net &&
			    s->now - s->last_move >= s->o.deadlock_cycles) {
				s->res->deadlock = true;
				s->res->deadlock_at = s->now;
				snprintf(s->res->note, sizeof(s->res->note),
					 "no flit moved for %u cycles with %llu "
					 "packets in the fabric (%s)",
					 s->now - s->last_move,
					 (unsigned long long)s->pk_in_net,
					 ftsw_sim_switching_name(o->switching));
				break;
			}
		}
		if (o->count && !s->nheap && !s->msgs_left)
			break;
		if (!o->count && s->now >= s->win1 &&
		    s->msgs_done == s->msgs_measured)
			break;
	}
	flit_free(s, &f);
	return rc;
}
