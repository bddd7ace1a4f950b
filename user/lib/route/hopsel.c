// SPDX-License-Identifier: GPL-2.0
/*
 * Shortest-path port selection shared by minhop and updn: per destination
 * leaf switch, hop distances from every switch (unrestricted, or legal
 * up*down* ones); then every switch picks, for each destination LID in
 * order, the least used of its ports on a shortest (legal) path, ties to
 * the lowest port number. Per-switch counters make switches independent,
 * so they are computed in parallel with identical results.
 */
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
	uint8_t *dA, *dD;	/* [leaf * ns + sw] */
};

/* BFS from leaf l: dA (and with height, dD = down-only distances). */
static void bfs_leaf(size_t l, void *arg)
{
	struct hs *a = arg;
	const struct ftsw_topo *t = a->t;
	uint32_t ns = t->nswitches, qh, qn;
	uint8_t *dA = &a->dA[l * ns], *dD = a->dD ? &a->dD[l * ns] : NULL;
	uint32_t *q = malloc((ns + 1) * sizeof(uint32_t));
	uint32_t root = a->leaf_sw[l];

	if (!q)
		return;
	memset(dA, INF, ns);
	if (dD) {
		/* down-only distances: reverse of down hops = go up from root */
		memset(dD, INF, ns);
		dD[root] = 0;
		qh = qn = 0;
		q[qn++] = root;
		while (qh < qn) {
			uint32_t v = q[qh++];
			const struct ftsw_node *n = &t->nodes[t->switches[v]];
			unsigned p;

			for (p = 0; p < n->nports; p++) {
				uint32_t peer = t->ports[n->first_port + p].peer, u;

				if (peer == FTSW_NONE || t->nodes[peer].kind != FTSW_SWITCH)
					continue;
				u = t->nodes[peer].index;
				/* u -> v must be a down hop: v is not up from u */
				if (dD[u] != INF || hop_up(a->height, u, v) ||
				    dD[v] >= INF - 1)
					continue;
				dD[u] = dD[v] + 1;
				q[qn++] = u;
			}
		}
	}
	dA[root] = 0;
	qh = qn = 0;
	q[qn++] = root;
	while (qh < qn) {
		uint32_t v = q[qh++];
		const struct ftsw_node *n = &t->nodes[t->switches[v]];
		unsigned p;

		if (dA[v] >= INF - 1)
			continue;
		for (p = 0; p < n->nports; p++) {
			uint32_t peer = t->ports[n->first_port + p].peer, u;

			if (peer == FTSW_NONE || t->nodes[peer].kind != FTSW_SWITCH)
				continue;
			u = t->nodes[peer].index;
			if (dA[u] != INF)
				continue;
			/* hop u -> v; a down hop needs v's best to be all-down */
			if (dD && !hop_up(a->height, u, v) && dA[v] != dD[v])
				continue;
			dA[u] = dA[v] + 1;
			q[qn++] = u;
		}
	}
	free(q);
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
			const struct ftsw_port *x = &t->ports[n->first_port + p - 1];
			uint32_t u;

			if (x->peer == FTSW_NONE || t->nodes[x->peer].kind != FTSW_SWITCH)
				continue;
			u = t->nodes[x->peer].index;
			if (a->dA[(size_t)l * ns + u] + 1 != ds)
				continue;
			if (a->dD && !hop_up(a->height, (uint32_t)s, u) &&
			    a->dA[(size_t)l * ns + u] != a->dD[(size_t)l * ns + u])
				continue;
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
	if (height)
		a.dD = malloc((size_t)a.nl * ns + 1);
	if (!a.dA || (height && !a.dD))
		goto out;
	ftsw_parallel_for(threads, a.nl, bfs_leaf, &a);
	ftsw_parallel_for(threads, ns, sel_switch, &a);
	rc = 0;
out:
	if (rc)
		ftsw_err_set(err, "%s: out of memory", r->engine);
	free(a.leaf_of_sw);
	free(a.leaf_sw);
	free(a.dA);
	free(a.dD);
	return rc;
}
