// SPDX-License-Identifier: GPL-2.0
/* The simulator's hosts: message arrivals, injection, the arrivals heap. */
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
	m->src = h;
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
uint32_t sim_host_pkt(struct sim *s, uint32_t h, uint32_t mi)
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
	p->fecn = 0;
	if (s->cm)
		sim_cm_inject(s, h, p);
	if (!s->g) {
		p->known = s->nomemo ? 0 : m->known;
		memcpy(p->route, m->route, sizeof(p->route));
	} else {
		unsigned k;

		p->known = 0;
		for (k = 0; k < 8 && !s->nomemo; k++)
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

/*
 * Congestion control: message m of host h must wait for its unit's
 * inter-packet delay; the link wakes when it ends (or within the wheel's
 * reach, to look again).
 */
static bool cc_wait(struct sim *s, uint32_t o, uint32_t h,
		    const struct msg *m)
{
	uint32_t until = sim_cc_until(s, h, m);

	if (until <= s->now)
		return false;
	sim_cc_waited(s);
	if (until - s->now > s->wmask)
		until = s->now + s->wmask;
	push_ev(s, until, EV(EV_LINK, o));
	return true;
}

void sim_host_link(struct sim *s, uint32_t o, uint32_t h)
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
	if (s->cc_on && cc_wait(s, o, h, m))
		return;
	if (!cred_avail(s, (size_t)o * s->V + m->vl)) {
		sim_cred_wait(s, (size_t)o * s->V + m->vl, o);
		return;
	}
	pi = sim_host_pkt(s, h, mi);
	if (pi == NO_PKT)
		return;
	if (s->cc_on)
		sim_cc_sent(s, h, m);
	if (!m->to_inject) {
		q->head = (q->head + 1) % q->cap;
		q->cnt--;
	}
	sim_transmit(s, o, m->vl, pi);
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
		if (s->cc_on && cc_wait(s, o, h, m))
			continue;
		if (!cred_avail(s, (size_t)o * s->V + m->vl)) {
			sim_cred_wait(s, (size_t)o * s->V + m->vl, o);
			tried |= 1u << m->vl;
			continue;
		}
		pi = sim_host_pkt(s, h, mi);
		if (pi == NO_PKT)
			return;
		if (s->cc_on)
			sim_cc_sent(s, h, m);
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
		sim_transmit(s, o, m->vl, pi);
		if (q->cnt)
			push_ev(s, s->now + s->P, EV(EV_LINK, o));
		return;
	}
}

/* ------------------------------------------------------ heap of hosts */

static inline bool heap_less(const struct hent *a, const struct hent *b)
{
	return a->next < b->next || (a->next == b->next && a->h < b->h);
}

void sim_heap_down(struct sim *s, uint32_t i)
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
void sim_run_arrivals(struct sim *s)
{
	while (s->nheap && s->heap[0].next <= s->now) {
		uint32_t h = s->heap[0].h;

		host_arrival(s, h);
		next_arrival(s, h);
		s->heap[0].next = s->hq[h].next;
		if (isinf(s->hq[h].next)) {
			s->heap[0] = s->heap[--s->nheap];
		}
		sim_heap_down(s, 0);
	}
}

/* The events of bucket b, in its order. */
