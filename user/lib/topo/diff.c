// SPDX-License-Identifier: GPL-2.0
/*
 * Two topologies compared node by node, by GUID (topology.h,
 * ftsw_topo_diff): what `ftsw topo diff` prints, e.g. the lab's plan
 * against what ibnetdiscover found in band.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topology.h"

struct gent {
	uint64_t guid;
	uint32_t node;
};

static int cmp_gent(const void *x, const void *y)
{
	const struct gent *a = x, *b = y;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* t's nodes sorted by GUID; NULL with err set on a repeated GUID. */
static struct gent *by_guid(const struct ftsw_topo *t, struct ftsw_err *err)
{
	struct gent *g = malloc(((size_t)t->nnodes + 1) * sizeof(*g));
	uint32_t i;

	if (!g) {
		ftsw_err_errno(err, ENOMEM, "topology diff: out of memory");
		return NULL;
	}
	for (i = 0; i < t->nnodes; i++)
		g[i] = (struct gent){ t->nodes[i].guid, i };
	qsort(g, t->nnodes, sizeof(*g), cmp_gent);
	for (i = 1; i < t->nnodes; i++)
		if (g[i].guid == g[i - 1].guid) {
			ftsw_err_set(err, "topology diff: node GUID 0x%016llx "
				     "twice (\"%s\", \"%s\")",
				     (unsigned long long)g[i].guid,
				     t->nodes[g[i - 1].node].desc ?
				     t->nodes[g[i - 1].node].desc : "",
				     t->nodes[g[i].node].desc ?
				     t->nodes[g[i].node].desc : "");
			free(g);
			return NULL;
		}
	return g;
}

static uint32_t find(const struct gent *g, uint32_t n, uint64_t guid)
{
	struct gent key = { guid, 0 };
	const struct gent *e = bsearch(&key, g, n, sizeof(*g), cmp_gent);

	return e ? e->node : FTSW_NONE;
}

struct dctx {
	struct ftsw_topo_diff *d;
	size_t max, cap;
	int nomem;
};

/* A new entry about the node x[0] / x[1] (either may be NULL); NULL when
 * only counted. */
static struct ftsw_topo_delta *add(struct dctx *c, enum ftsw_topo_delta_kind k,
				   const struct ftsw_node *const x[2],
				   unsigned port)
{
	struct ftsw_topo_diff *d = c->d;
	struct ftsw_topo_delta *e;

	d->ndeltas++;
	if (d->nkept >= c->max || c->nomem)
		return NULL;
	if (d->nkept == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct ftsw_topo_delta *n = realloc(d->deltas, cap * sizeof(*n));

		if (!n) {
			c->nomem = 1;
			return NULL;
		}
		d->deltas = n;
		c->cap = cap;
	}
	e = &d->deltas[d->nkept++];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->guid = x[0] ? x[0]->guid : x[1]->guid;
	e->port = port;
	e->desc[0] = x[0] ? x[0]->desc : NULL;
	e->desc[1] = x[1] ? x[1]->desc : NULL;
	return e;
}

static uint64_t port_guid(const struct ftsw_topo *t, uint32_t n, unsigned p)
{
	return t->port_guids ? t->port_guids[t->nodes[n].first_port + p - 1] : 0;
}

/* The far end of port p of node n: its GUID (0: none) and port. */
static uint64_t far_end(const struct ftsw_topo *t, uint32_t n, unsigned p,
			unsigned *pp)
{
	const struct ftsw_port *x;

	*pp = 0;
	if (n == FTSW_NONE || p > t->nodes[n].nports)
		return 0;
	x = ftsw_port(t, n, p);
	if (x->peer == FTSW_NONE)
		return 0;
	*pp = x->peer_port;
	return t->nodes[x->peer].guid;
}

static bool same_desc(const char *x, const char *y)
{
	return !strcmp(x ? x : "", y ? y : "");
}

/* Node nd[0] of t[0] against nd[1] of t[1] (either may be FTSW_NONE). */
static void diff_node(struct dctx *c, const struct ftsw_topo *t[2],
		      const uint32_t nd[2])
{
	const struct ftsw_node *x[2] = {
		nd[0] == FTSW_NONE ? NULL : &t[0]->nodes[nd[0]],
		nd[1] == FTSW_NONE ? NULL : &t[1]->nodes[nd[1]],
	};
	struct ftsw_topo_delta *e;
	unsigned p, np, i;
	bool same = true;

	if (!x[0] || !x[1]) {
		add(c, x[0] ? FTSW_DELTA_ONLY_FIRST : FTSW_DELTA_ONLY_SECOND, x,
		    0);
	} else {
		if (x[0]->kind != x[1]->kind) {
			same = false;
			e = add(c, FTSW_DELTA_KIND, x, 0);
			if (e)
				for (i = 0; i < 2; i++)
					e->val[i] = x[i]->kind;
		}
		if (x[0]->nports != x[1]->nports) {
			same = false;
			e = add(c, FTSW_DELTA_PORTS, x, 0);
			if (e)
				for (i = 0; i < 2; i++)
					e->val[i] = x[i]->nports;
		}
		if (!same_desc(x[0]->desc, x[1]->desc)) {
			same = false;
			add(c, FTSW_DELTA_DESC, x, 0);
		}
		for (p = 1; x[0]->kind == FTSW_HOST && p <= x[0]->nports &&
		     p <= x[1]->nports; p++) {
			uint64_t g0 = port_guid(t[0], nd[0], p);
			uint64_t g1 = port_guid(t[1], nd[1], p);

			if (g0 && g1 && g0 != g1) {
				same = false;
				e = add(c, FTSW_DELTA_PORT_GUID, x, p);
				if (e) {
					e->val[0] = g0;
					e->val[1] = g1;
				}
			}
		}
		c->d->nodes_same += same;
	}
	/* Cables: every port of the node, in either. */
	np = x[0] && x[1] ? (x[0]->nports > x[1]->nports ? x[0]->nports :
			     x[1]->nports) : x[0] ? x[0]->nports : x[1]->nports;
	for (p = 1; p <= np; p++) {
		unsigned pp[2];
		uint64_t g[2];

		for (i = 0; i < 2; i++)
			g[i] = far_end(t[i], nd[i], p, &pp[i]);
		if (g[0] == g[1] && pp[0] == pp[1]) {
			c->d->cables_same += g[0] != 0;
			continue;
		}
		e = add(c, FTSW_DELTA_CABLE, x, p);
		if (e)
			for (i = 0; i < 2; i++) {
				e->val[i] = g[i];
				e->peer_port[i] = pp[i];
			}
	}
}

int ftsw_topo_diff(const struct ftsw_topo *a, const struct ftsw_topo *b,
		   size_t max_deltas, struct ftsw_topo_diff *d,
		   struct ftsw_err *err)
{
	const struct ftsw_topo *t[2] = { a, b };
	struct dctx c = { .d = d, .max = max_deltas };
	struct gent *ga, *gb;
	uint32_t i, nd[2];

	memset(d, 0, sizeof(*d));
	ga = by_guid(a, err);
	gb = ga ? by_guid(b, err) : NULL;
	if (!gb) {
		free(ga);
		return -1;
	}
	for (i = 0; i < a->nnodes; i++) {
		nd[0] = ga[i].node;
		nd[1] = find(gb, b->nnodes, ga[i].guid);
		diff_node(&c, t, nd);
	}
	for (i = 0; i < b->nnodes; i++) {
		nd[0] = FTSW_NONE;
		nd[1] = gb[i].node;
		if (find(ga, a->nnodes, gb[i].guid) == FTSW_NONE)
			diff_node(&c, t, nd);
	}
	free(ga);
	free(gb);
	if (c.nomem) {
		ftsw_topo_diff_free(d);
		ftsw_err_errno(err, ENOMEM, "topology diff: out of memory");
		return -1;
	}
	return 0;
}

void ftsw_topo_diff_free(struct ftsw_topo_diff *d)
{
	free(d->deltas);
	memset(d, 0, sizeof(*d));
}
