// SPDX-License-Identifier: GPL-2.0
/* The simulator's set-up and tear-down: parameters, arrays, ports, hosts. */
#include <errno.h>
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

int sim_hist_init(struct hist *h)
{
	h->fine = calloc(HFINE, sizeof(*h->fine));
	h->coarse = calloc(HFINE, sizeof(*h->coarse));
	return h->fine && h->coarse ? 0 : -1;
}

void sim_hist_free(struct hist *h)
{
	free(h->fine);
	free(h->coarse);
}


double sim_hist_q(const struct hist *h, double q)
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


/* ------------------------------------------------------------- run */

/* The timing wheel of @s: each slot's events, then the slots. */
void sim_wheel_free(struct sim *s)
{
	uint32_t i;

	if (s->wheel)
		for (i = 0; i <= s->wmask; i++)
			free(s->wheel[i].ev);
	free(s->wheel);
}

void sim_free(struct sim *s)
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
	sim_wheel_free(s);
	free(s->visit);
	free(s->dropq);
	free(s->link_flits);
	sim_cm_free(s);
	sim_hist_free(&s->hmsg);
	sim_hist_free(&s->hpkt);
}

void ftsw_sim_result_free(struct ftsw_sim_result *res)
{
	free(res->link_flits);
	free(res->cycle);
	free(res->ooo);
	res->link_flits = NULL;
	res->cycle = NULL;
	res->ooo = NULL;
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
			ftsw_err_errno(err, ERANGE,
				       "crossbar speedup %u: at most 64", S);
			return -1;
		}
	}
	s->per_packet = o->policy == FTSW_SIM_PACKET ||
			o->policy == FTSW_SIM_SPREAD;
	s->nomemo = s->per_packet;
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
		ftsw_err_errno(err, ERANGE,
			       "simulation parameters out of range");
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
			ftsw_err_errno(err, ERANGE,
				       "--path-policy spread keeps a counter "
				       "per host pair: at most 16384 hosts, "
				       "fabric has %u", t->nhosts);
			return -1;
		}
		s->pair_rr = calloc((size_t)t->nhosts * t->nhosts, 1);
		if (!s->pair_rr) {
			ftsw_err_errno(err, ENOMEM,
				       "out of memory for the simulation");
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
	    !s->heap || !s->wheel || sim_hist_init(&s->hmsg) ||
	    sim_hist_init(&s->hpkt)) {
		ftsw_err_errno(err, ENOMEM, "out of memory for the simulation");
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
		sim_heap_down(s, h);
}

int sim_setup(struct sim *s, const struct ftsw_routing *r,
		     const struct ftsw_sim_traffic *tr,
		     const struct ftsw_sim_opts *o, double load,
		     struct ftsw_err *err)
{
	if (setup_params(s, r, tr, o, load, err) ||
	    setup_alloc(s, o, load, err))
		return -1;
	setup_ports(s);
	setup_hosts(s, r, tr, o);
	if (sim_cm_setup(s, err))
		return -1;
	if (o->count) {
		s->win0 = 0;
		s->win1 = UINT32_MAX;
	} else {
		s->win0 = o->warmup;
		s->win1 = o->warmup + o->measure;
	}
	return 0;
}

