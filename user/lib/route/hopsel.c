// SPDX-License-Identifier: GPL-2.0
/*
 * Port selection shared by minhop and updn: per destination leaf switch,
 * the hop distance of every switch's path; then every switch picks, for
 * each destination LID in order, the least used of its ports on such a
 * path, ties to the lowest port number. Per-switch counters make switches
 * independent, so they are computed in parallel with identical results.
 *
 * minhop: unrestricted shortest paths.
 *
 * updn (with a height): up*down* by construction. One table entry per
 * (switch, destination) serves every path through the switch, so a switch
 * that some path enters by a down hop must itself go down. The rule:
 * a switch that can reach the destination leaf by down hops alone does so
 * (shortest such path, dD); every other switch goes up, to the up
 * neighbours whose own path is shortest (dA, computed from the top of the
 * height order down, since an up neighbour is always higher). A down hop
 * lands on a switch with a finite dD, which only goes down, so no path
 * turns up again; up hops climb the height order and down hops shorten dD,
 * so no path loops. A pair is routed exactly when a legal path exists. The
 * price: a switch with a down path never takes a shorter up-then-down one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "route/hopsel.h"

#define INF 255

static inline int hop_up(const int *h, uint32_t u, uint32_t v)
{
	return h[v] > h[u] || (h[v] == h[u] && v > u);
}

struct hs {
	const struct ftsw_topo *t;
	struct ftsw_routing *r;
	const int *height;
	uint32_t nl, *leaf_sw, *leaf_of_sw, *lhosts, *lhstart;
	uint32_t *order;	/* updn: switches, highest first */
	uint8_t *dA, *dD;	/* [leaf * ns + sw] */
};

void ftsw_switch_bfs(const struct ftsw_topo *t, uint32_t root,
		     const int *height, uint8_t *d, uint32_t *q)
{
	uint32_t qh = 0, qn = 0;

	memset(d, INF, t->nswitches);
	d[root] = 0;
	q[qn++] = root;
	while (qh < qn) {
		uint32_t v = q[qh++];
		const struct ftsw_node *n = &t->nodes[t->switches[v]];
		unsigned p;

		if (d[v] >= INF - 1)
			continue;
		for (p = 1; p <= n->nports; p++) {
			uint32_t u = ftsw_peer_switch(t, n, p);

			/* with a height, u -> v must be a down hop */
			if (u == FTSW_NONE || d[u] != INF ||
			    (height && hop_up(height, u, v)))
				continue;
			d[u] = d[v] + 1;
			q[qn++] = u;
		}
	}
}

/*
 * updn: dD, the down-only distances (a reverse BFS from the leaf over down
 * hops), then dA, the length of the path each switch will take: dD where
 * finite, else one more than the best up neighbour's, highest first.
 */
static void bfs_updn(struct hs *a, uint32_t root, uint8_t *dA, uint8_t *dD,
		     uint32_t *q)
{
	const struct ftsw_topo *t = a->t;
	uint32_t ns = t->nswitches, i;

	ftsw_switch_bfs(t, root, a->height, dD, q);
	for (i = 0; i < ns; i++) {
		uint32_t v = a->order[i];
		const struct ftsw_node *n = &t->nodes[t->switches[v]];
		unsigned p, best = INF;

		if (dD[v] != INF) {
			dA[v] = dD[v];
			continue;
		}
		for (p = 1; p <= n->nports; p++) {
			uint32_t u = ftsw_peer_switch(t, n, p);

			if (u != FTSW_NONE && hop_up(a->height, v, u) &&
			    dA[u] + 1u < best)
				best = dA[u] + 1u;
		}
		dA[v] = best >= INF ? INF : (uint8_t)best;
	}
}

static void bfs_leaf(size_t l, void *arg)
{
	struct hs *a = arg;
	uint32_t ns = a->t->nswitches;
	uint8_t *dA = &a->dA[l * ns];
	uint32_t *q = malloc((ns + 1) * sizeof(uint32_t));

	memset(dA, INF, ns);
	if (!q)
		return;
	if (a->dD)
		bfs_updn(a, a->leaf_sw[l], dA, &a->dD[l * ns], q);
	else
		ftsw_switch_bfs(a->t, a->leaf_sw[l], NULL, dA, q);
	free(q);
}

/* Is port p of switch s (peer switch u) on s's path to leaf l? */
static bool on_path(const struct hs *a, uint32_t l, uint32_t s, uint32_t u)
{
	size_t ns = a->t->nswitches, base = (size_t)l * ns;

	if (!a->dD)
		return a->dA[base + u] + 1 == a->dA[base + s];
	if (a->dD[base + s] != INF)	/* down only, to a shorter dD */
		return !hop_up(a->height, s, u) &&
		       a->dD[base + u] + 1 == a->dD[base + s];
	return hop_up(a->height, s, u) &&
	       a->dA[base + u] + 1 == a->dA[base + s];
}

static void sel_switch(size_t s, void *arg)
{
	struct hs *a = arg;
	const struct ftsw_topo *t = a->t;
	struct ftsw_routing *r = a->r;
	uint32_t ns = t->nswitches, l;
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	uint32_t use[FTSW_TOPO_MAX_PORTS + 1] = { 0 };
	uint8_t cand[FTSW_TOPO_MAX_PORTS + 1];
	uint8_t *lft = ftsw_lft(r, (uint32_t)s);
	unsigned noff = 1u << r->lmc, o;
	uint32_t lid, nlid = (r->nhosts + 1) << r->lmc;

	/* destinations in LID order: hosts, each offset */
	for (lid = 1u << r->lmc; lid < nlid; lid += noff) {
		uint32_t d = (lid >> r->lmc) - 1, hn = t->hosts[d], sw;
		unsigned nc = 0, p;
		uint8_t ds;

		sw = ftsw_host_switch(t, hn);
		if (sw == FTSW_NONE)
			continue;
		if (t->nodes[sw].index == s) {
			uint8_t port = ftsw_port(t, hn, ftsw_host_port(t, hn))->peer_port;

			for (o = 0; o < noff; o++)
				lft[lid + o] = port;
			continue;
		}
		l = a->leaf_of_sw[t->nodes[sw].index];
		ds = a->dA[(size_t)l * ns + s];
		if (ds == INF)
			continue;
		for (p = 1; p <= n->nports; p++) {
			uint32_t u = ftsw_peer_switch(t, n, p);

			if (u != FTSW_NONE && on_path(a, l, (uint32_t)s, u))
				cand[nc++] = (uint8_t)p;
		}
		for (o = 0; o < noff && nc; o++) {
			unsigned best = 0, i;

			for (i = 1; i < nc; i++)
				if (use[cand[i]] < use[cand[best]])
					best = i;
			lft[lid + o] = cand[best];
			use[cand[best]]++;
		}
	}
}

/* qsort_r order: higher switches first (v up from u sorts v before u) */
static int cmp_higher_first_r(const void *x, const void *y, void *h)
{
	uint32_t u = *(const uint32_t *)x, v = *(const uint32_t *)y;

	if (u == v)
		return 0;
	return hop_up(h, u, v) ? 1 : -1;
}

int ftsw_hopsel(const struct ftsw_topo *t, struct ftsw_routing *r,
		const int *height, unsigned threads, struct ftsw_err *err)
{
	struct hs a = { .t = t, .r = r, .height = height };
	uint32_t ns = t->nswitches, s, n;
	int rc = -1;

	a.leaf_of_sw = malloc((ns + 1) * sizeof(uint32_t));
	a.leaf_sw = malloc((ns + 1) * sizeof(uint32_t));
	if (!a.leaf_of_sw || !a.leaf_sw)
		goto out;
	for (s = 0; s < ns; s++)
		a.leaf_of_sw[s] = FTSW_NONE;
	for (n = 0; n < t->nhosts; n++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[n]);

		if (sw != FTSW_NONE)
			a.leaf_of_sw[t->nodes[sw].index] = 0;
	}
	for (s = 0; s < ns; s++)
		if (a.leaf_of_sw[s] == 0 || a.leaf_of_sw[s] != FTSW_NONE) {
			a.leaf_of_sw[s] = a.nl;
			a.leaf_sw[a.nl++] = s;
		}
	a.dA = malloc((size_t)a.nl * ns + 1);
	if (height) {
		a.dD = malloc((size_t)a.nl * ns + 1);
		a.order = malloc((ns + 1) * sizeof(uint32_t));
		if (!a.dD || !a.order)
			goto out;
		for (s = 0; s < ns; s++)
			a.order[s] = s;
		qsort_r(a.order, ns, sizeof(uint32_t), cmp_higher_first_r,
			(void *)height);
	}
	if (!a.dA)
		goto out;
	ftsw_parallel_for(threads, a.nl, bfs_leaf, &a);
	ftsw_parallel_for(threads, ns, sel_switch, &a);
	rc = 0;
out:
	if (rc)
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", r->engine);
	free(a.leaf_of_sw);
	free(a.leaf_sw);
	free(a.dA);
	free(a.dD);
	free(a.order);
	return rc;
}
