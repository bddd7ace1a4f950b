// SPDX-License-Identifier: GPL-2.0
/*
 * sssp: single-source shortest-path routing with global balancing
 * (paper 001, Algorithm 1) on any topology.
 *
 * The switch graph is a directed multigraph: every cabled switch-to-switch
 * port is a channel with its own weight, so parallel links are balanced
 * like any other choice. Destinations (host LIDs, every LMC offset) are
 * routed one after the other: a Dijkstra run from the destination's switch
 * over the reversed channels gives every switch its next channel towards
 * the destination (a tree), which becomes its LFT entry. Then every
 * channel of the tree is charged with the number of hosts whose traffic to
 * this destination crosses it (the source hosts below it in the tree), so
 * the next destinations avoid the loaded channels.
 *
 * No detours (§II): every channel starts at a base weight W larger than the
 * sum of all charges that can ever be made along one path; a shortest path
 * of L hops then costs less than L*W + W, which is at most what any path of
 * L + 1 hops costs, so only minimum-hop paths are ever chosen. With at most
 * nlids * nhosts charges per round and fewer than nswitches hops per path,
 * W = nlids * nhosts * nswitches + 1 suffices (64-bit arithmetic).
 *
 * Switch LIDs (management traffic) are routed by plain shortest paths.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/engines.h"

struct heap {
	uint64_t *key;
	uint32_t *val;
	size_t n;
};

static void heap_push(struct heap *h, uint64_t k, uint32_t v)
{
	size_t i = h->n++;

	while (i) {
		size_t p = (i - 1) / 2;

		if (h->key[p] < k || (h->key[p] == k && h->val[p] <= v))
			break;
		h->key[i] = h->key[p];
		h->val[i] = h->val[p];
		i = p;
	}
	h->key[i] = k;
	h->val[i] = v;
}

static void heap_pop(struct heap *h, uint64_t *k, uint32_t *v)
{
	uint64_t lk;
	uint32_t lv;
	size_t i = 0, n;

	*k = h->key[0];
	*v = h->val[0];
	n = --h->n;
	if (!n)
		return;
	lk = h->key[n];
	lv = h->val[n];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && (h->key[c + 1] < h->key[c] ||
				  (h->key[c + 1] == h->key[c] &&
				   h->val[c + 1] < h->val[c])))
			c++;
		if (lk < h->key[c] || (lk == h->key[c] && lv <= h->val[c]))
			break;
		h->key[i] = h->key[c];
		h->val[i] = h->val[c];
		i = c;
	}
	h->key[i] = lk;
	h->val[i] = lv;
}

/* Compact switch graph: per switch its switch-to-switch ports. */
struct sgraph {
	uint32_t ns;
	uint32_t *start;	/* [ns + 1] into the arrays below */
	uint32_t *peer;		/* peer switch index */
	uint8_t *port;		/* own port number */
	uint32_t *rev;		/* index of the reverse channel */
	uint32_t *hosts;	/* hosts per switch */
};

static void sgraph_free(struct sgraph *g)
{
	free(g->start);
	free(g->peer);
	free(g->port);
	free(g->rev);
	free(g->hosts);
}

static int sgraph_build(const struct ftsw_topo *t, struct sgraph *g)
{
	uint32_t ns = t->nswitches, s, n = 0, i;

	memset(g, 0, sizeof(*g));
	g->ns = ns;
	g->start = calloc(ns + 1, sizeof(uint32_t));
	g->hosts = calloc(ns + 1, sizeof(uint32_t));
	if (!g->start || !g->hosts)
		return -1;
	for (s = 0; s < ns; s++) {
		const struct ftsw_node *nd = &t->nodes[t->switches[s]];
		unsigned p;

		g->start[s] = n;
		for (p = 1; p <= nd->nports; p++) {
			const struct ftsw_port *x = &t->ports[nd->first_port + p - 1];

			if (x->peer == FTSW_NONE)
				continue;
			if (t->nodes[x->peer].kind == FTSW_SWITCH)
				n++;
			else
				g->hosts[s]++;
		}
	}
	g->start[ns] = n;
	g->peer = malloc((n + 1) * sizeof(uint32_t));
	g->port = malloc(n + 1);
	g->rev = malloc((n + 1) * sizeof(uint32_t));
	if (!g->peer || !g->port || !g->rev)
		return -1;
	for (s = 0; s < ns; s++) {
		const struct ftsw_node *nd = &t->nodes[t->switches[s]];
		unsigned p;

		i = g->start[s];
		for (p = 1; p <= nd->nports; p++) {
			const struct ftsw_port *x = &t->ports[nd->first_port + p - 1];

			if (x->peer == FTSW_NONE ||
			    t->nodes[x->peer].kind != FTSW_SWITCH)
				continue;
			g->peer[i] = t->nodes[x->peer].index;
			g->port[i] = (uint8_t)p;
			i++;
		}
	}
	/* reverse channels: the peer's port whose peer port is ours */
	for (s = 0; s < ns; s++)
		for (i = g->start[s]; i < g->start[s + 1]; i++) {
			uint32_t v = g->peer[i], j;
			const struct ftsw_port *x =
				ftsw_port(t, t->switches[s], g->port[i]);

			g->rev[i] = UINT32_MAX;
			for (j = g->start[v]; j < g->start[v + 1]; j++)
				if (g->port[j] == x->peer_port) {
					g->rev[i] = j;
					break;
				}
		}
	return 0;
}

int ftsw_sssp_tables(const struct ftsw_topo *t, struct ftsw_routing *r,
		     bool switch_lids, unsigned threads, struct ftsw_err *err)
{
	struct sgraph g;
	uint32_t ns = t->nswitches, nh = t->nhosts, d, s;
	unsigned off, noff = 1u << r->lmc;
	uint64_t *w = NULL, *dist = NULL, base, unreach = 0;
	uint32_t *via = NULL, *order = NULL, *sub = NULL;
	struct heap hp = { 0 };
	int rc = -1;

	if (sgraph_build(t, &g))
		goto oom;
	w = malloc((g.start[ns] + 1) * sizeof(uint64_t));
	dist = malloc((ns + 1) * sizeof(uint64_t));
	via = malloc((ns + 1) * sizeof(uint32_t));	/* channel to next hop */
	order = malloc((ns + 1) * sizeof(uint32_t));
	sub = malloc((ns + 1) * sizeof(uint32_t));
	hp.key = malloc((g.start[ns] + ns + 1) * sizeof(uint64_t));
	hp.val = malloc((g.start[ns] + ns + 1) * sizeof(uint32_t));
	if (!w || !dist || !via || !order || !sub || !hp.key || !hp.val)
		goto oom;
	base = (uint64_t)nh * noff * nh * (ns + 1) + 1;
	for (s = 0; s < g.start[ns]; s++)
		w[s] = base;

	for (d = 0; d < nh; d++) {
		uint32_t hn = t->hosts[d], dsw = ftsw_host_switch(t, hn);
		unsigned hport = ftsw_host_port(t, hn);

		if (dsw == FTSW_NONE || !hport) {
			unreach += nh - 1;
			continue;
		}
		dsw = t->nodes[dsw].index;
		/* the leaf's port to the host */
		hport = ftsw_port(t, hn, hport)->peer_port;
		for (off = 0; off < noff; off++) {
			uint32_t lid = ftsw_host_lid(r, d) + off, no = 0, i;

			for (s = 0; s < ns; s++)
				dist[s] = UINT64_MAX;
			hp.n = 0;
			dist[dsw] = 0;
			via[dsw] = UINT32_MAX;
			heap_push(&hp, 0, dsw);
			while (hp.n) {
				uint64_t k;
				uint32_t v;

				heap_pop(&hp, &k, &v);
				if (k != dist[v])
					continue;
				dist[v] = k;
				order[no++] = v;
				/* relax u -> v for every channel into v */
				for (i = g.start[v]; i < g.start[v + 1]; i++) {
					uint32_t u = g.peer[i], c = g.rev[i];
					uint64_t nd;

					if (c == UINT32_MAX)
						continue;
					nd = k + w[c];
					if (nd < dist[u]) {
						dist[u] = nd;
						via[u] = c;
						heap_push(&hp, nd, u);
					}
				}
				/* a popped node keeps its key: mark it final */
				dist[v] = k;
			}
			/* LFT entries and charges, farthest switches first */
			for (s = 0; s < ns; s++)
				sub[s] = 0;
			ftsw_lft(r, dsw)[lid] = (uint8_t)hport;
			for (i = no; i-- > 1;) {
				uint32_t u = order[i], c = via[u], v;

				ftsw_lft(r, u)[lid] = g.port[c];
				sub[u] += g.hosts[u];
				w[c] += sub[u];
				/* the next hop is the peer of channel c */
				v = g.peer[c];
				sub[v] += sub[u];
			}
			if (no < ns)
				for (s = 0; s < ns; s++)
					if (dist[s] == UINT64_MAX)
						unreach += g.hosts[s];
		}
	}
	/* unroutable pairs: counted from the tables by ftsw_route() */
	(void)unreach;
	if (switch_lids)
		ftsw_route_switch_lids(t, r, NULL, threads, err);
	rc = 0;
	goto out;
oom:
	ftsw_err_errno(err, ENOMEM, "sssp: out of memory (%u switches)", ns);
out:
	sgraph_free(&g);
	free(w);
	free(dist);
	free(via);
	free(order);
	free(sub);
	free(hp.key);
	free(hp.val);
	return rc;
}

int ftsw_route_sssp(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	return ftsw_sssp_tables(t, r, !o->no_switch_lids, o->threads, err);
}
