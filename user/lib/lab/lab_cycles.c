// SPDX-License-Identifier: GPL-2.0
/*
 * Cycles of full buffers waiting on each other (Documentation/lab.md,
 * "Lossless mode"), from the kernel's state of the switch input buffers
 * but without asking the kernel anything (lab_waits.c reads it; the live
 * view, view/, has its own sampler): a waiting buffer depends on the input
 * buffer at the far end of the output it waits for (that buffer's credits
 * are what the output lacks); following those dependencies among waiting,
 * full buffers either ends or closes a cycle, which nothing can drain: the
 * lab's counterpart of `ftsw sim`'s deadlock report. Each cycle found is
 * checked against the routing's channel dependency graph by the
 * simulator's own check (ftsw_sim_cycle_check, sim/cycle.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "sim/sim.h"

static int buf_cmp(const void *a, const void *b)
{
	const struct ftsw_lab_buf *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return (int)x->vl - (int)y->vl;
}

/* The index in the sorted v of buffer (sw, port, vl), or -1. */
static long buf_find(const struct ftsw_lab_buf *v, size_t n, uint32_t sw,
		     uint8_t port, uint8_t vl)
{
	struct ftsw_lab_buf key = { .sw = sw, .port = port, .vl = vl };
	const struct ftsw_lab_buf *f = bsearch(&key, v, n, sizeof(*v),
					       buf_cmp);

	return f ? f - v : -1;
}

/*
 * The buffer a waiting, full buffer depends on: the input buffer across
 * the cable of the output it waits for, if that one waits and is full too;
 * -1 otherwise (a host, an uncabled port, a buffer that can drain).
 */
static long buf_next(const struct ftsw_topo *t, const struct ftsw_lab_buf *v,
		     size_t n, size_t i)
{
	const struct ftsw_lab_buf *b = &v[i];
	const struct ftsw_node *node;
	const struct ftsw_port *x;
	uint32_t peer;
	long j;

	if (!b->wait_port || !b->full || b->sw >= t->nswitches)
		return -1;
	node = &t->nodes[t->switches[b->sw]];
	if (b->wait_port > node->nports)
		return -1;
	peer = ftsw_peer_switch(t, node, b->wait_port);
	if (peer == FTSW_NONE)
		return -1;
	x = ftsw_port(t, t->switches[b->sw], b->wait_port);
	j = buf_find(v, n, peer, x->peer_port, b->wait_vl);
	if (j < 0 || !v[j].wait_port || !v[j].full)
		return -1;
	return j;
}

static int cycles_add(struct ftsw_lab_cycles *cs, const struct ftsw_lab_buf *v,
		      const long *next, long start)
{
	struct ftsw_lab_cycle *c;
	unsigned len = 0, k;
	long i = start;

	do {
		len++;
		i = next[i];
	} while (i != start);
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 4;
		void *p = realloc(cs->v, cap * sizeof(*cs->v));

		if (!p)
			return -ENOMEM;
		cs->v = p;
		cs->cap = cap;
	}
	c = &cs->v[cs->n];
	memset(c, 0, sizeof(*c));
	c->bufs = calloc(len, sizeof(*c->bufs));
	if (!c->bufs)
		return -ENOMEM;
	/* start at the lowest (switch, port, VL): one spelling per cycle */
	for (k = 0, i = start; k < len; k++, i = next[i])
		if (i < start)
			start = i;
	for (k = 0, i = start; k < len; k++, i = next[i]) {
		c->bufs[k].sw = v[i].sw;
		c->bufs[k].in_port = v[i].port;
		c->bufs[k].vl = v[i].vl;
		c->bufs[k].out_port = v[i].wait_port;
	}
	c->n = len;
	cs->n++;
	return 0;
}

int ftsw_lab_wait_cycles(const struct ftsw_topo *t, struct ftsw_lab_buf *v,
			 size_t n, struct ftsw_lab_cycles *cs,
			 struct ftsw_err *err)
{
	uint8_t *state = NULL;	/* 0 new, 1 on the walk, 2 done */
	long *next = NULL;
	size_t i;

	memset(cs, 0, sizeof(*cs));
	qsort(v, n, sizeof(*v), buf_cmp);
	for (i = 0; i + 1 < n; i++)
		if (!buf_cmp(&v[i], &v[i + 1])) {
			ftsw_err_set(err, "switch %u port %u VL %u: buffer "
				     "listed twice", v[i].sw, v[i].port,
				     v[i].vl);
			return -1;
		}
	next = malloc((n + 1) * sizeof(*next));
	state = calloc(n + 1, 1);
	if (!next || !state)
		goto nomem;
	for (i = 0; i < n; i++)
		next[i] = buf_next(t, v, n, i);
	for (i = 0; i < n; i++) {
		long j = (long)i;

		while (j >= 0 && !state[j]) {
			state[j] = 1;
			j = next[j];
		}
		/* a walk that meets itself closes a new cycle */
		if (j >= 0 && state[j] == 1 && cycles_add(cs, v, next, j))
			goto nomem;
		for (j = (long)i; j >= 0 && state[j] == 1; j = next[j])
			state[j] = 2;
	}
	free(next);
	free(state);
	return 0;
nomem:
	free(next);
	free(state);
	ftsw_lab_cycles_free(cs);
	ftsw_err_errno(err, ENOMEM, "buffer cycles: out of memory");
	return -1;
}

void ftsw_lab_cycles_check(const struct ftsw_routing *r,
			   struct ftsw_lab_cycles *cs, unsigned vls)
{
	size_t k;

	for (k = 0; k < cs->n; k++) {
		struct ftsw_lab_cycle *c = &cs->v[k];
		struct ftsw_sim_wait *b = c->bufs;
		unsigned i;

		/*
		 * One VL: every path's SL maps to it, whichever VL the cycle
		 * is on; the check names VL 0 (a copy of the cycle).
		 */
		if (vls == 1) {
			b = malloc(c->n * sizeof(*b));
			if (!b) {
				c->cdg = -1;
				snprintf(c->why, sizeof(c->why), "out of memory");
				continue;
			}
			for (i = 0; i < c->n; i++) {
				b[i] = c->bufs[i];
				b[i].vl = c->bufs[i].vl == c->bufs[0].vl ? 0 : 1;
			}
		}
		c->cdg = ftsw_sim_cycle_check(r, b, c->n, vls, c->why,
					      sizeof(c->why));
		if (b != c->bufs)
			free(b);
	}
}

void ftsw_lab_cycles_free(struct ftsw_lab_cycles *cs)
{
	size_t k;

	for (k = 0; k < cs->n; k++)
		free(cs->v[k].bufs);
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

void ftsw_lab_buf_of(const struct ftsw_port_info *pi, unsigned vl,
		     struct ftsw_lab_buf *b)
{
	const struct ftsw_vl_stats *x = &pi->ll.vl[vl];

	memset(b, 0, sizeof(*b));
	b->sw = pi->switch_id;
	b->port = pi->port;
	b->vl = (uint8_t)vl;
	b->wait_port = x->head_port;
	b->wait_vl = x->head_vl;
	b->waited_ns = x->head_wait_ns;
	b->bytes = x->in_bytes;
	b->size = pi->ll.in_buf;
	b->full = x->in_bytes + FTSW_LAB_FULL_BYTES > pi->ll.in_buf;
}
