// SPDX-License-Identifier: GPL-2.0
/* The simulator's checks: flit conservation, the deadlock walk. */
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

/* ------------------------------------------------- checks and deadlock */

/* Independent count of the packets in the fabric's buffers. */
int sim_conservation(struct sim *s)
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

bool sim_find_deadlock(struct sim *s)
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

