// SPDX-License-Identifier: GPL-2.0
/*
 * Exact oblivious performance ratio by bipartite matching.
 *
 * PERF(r) = max over traffic matrices TM of MLOAD(r, TM) / OPTU(TM). On a
 * fat-tree where OPTU(TM) = baseload(TM) for every TM (paper 002 §4:
 * OMRMN attains baseload on FT(m, n); paper 000 Theorem 1: UMULTI attains
 * ML(TM) on XGFT, and ML(TM) <= baseload(TM) when every subtree has at
 * least as many up-links as hosts), scaling TM so baseload = 1 gives
 *
 *   PERF(r) = max_l max { sum_{s,d} tm_sd f_sd(l) : row and column sums of
 *                                                  TM at most 1 }
 *
 * where f_sd(l) is the fraction of (s, d) traffic crossing link l. The
 * inner maximum is a linear function over doubly sub-stochastic matrices,
 * whose vertices are partial permutation matrices (Birkhoff-von Neumann):
 * it is attained by a matching between sources and destinations. Single
 * path routing (f in {0, 1}): a maximum cardinality matching in the graph
 * of SD pairs routed over l (Hopcroft-Karp). Multipath: a maximum weight
 * matching with weights f_sd(l) (Hungarian method). Elsewhere OPTU >=
 * baseload still holds, so the same number is an upper bound of PERF(r).
 *
 * SD pairs are collected per link in CSR form, in chunks of links so that
 * memory stays bounded (each chunk re-traces every pair).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/analyze.h"

/* ------------------------------------------------------- Hopcroft-Karp */

uint32_t ftsw_hopcroft_karp(uint32_t nl, uint32_t nr, const uint32_t *start,
			    const uint32_t *adj, uint32_t *match_l)
{
	uint32_t *match_r = malloc((nr + 1) * sizeof(*match_r));
	uint32_t *dist = malloc((nl + 1) * sizeof(*dist));
	uint32_t *queue = malloc((nl + 1) * sizeof(*queue));
	uint32_t *it = malloc((nl + 1) * sizeof(*it));
	uint32_t *stack = malloc((nl + 1) * sizeof(*stack));
	uint32_t size = 0, u, i;
	const uint32_t INF = UINT32_MAX, NIL = UINT32_MAX;

	if (!match_r || !dist || !queue || !it || !stack) {
		size = UINT32_MAX;
		goto out;
	}
	for (u = 0; u < nl; u++)
		match_l[u] = NIL;
	for (i = 0; i < nr; i++)
		match_r[i] = NIL;
	for (;;) {
		uint32_t qh = 0, qt = 0, found = INF;

		/* BFS layers from free left vertices */
		for (u = 0; u < nl; u++) {
			if (match_l[u] == NIL) {
				dist[u] = 0;
				queue[qt++] = u;
			} else {
				dist[u] = INF;
			}
		}
		while (qh < qt) {
			u = queue[qh++];
			if (dist[u] >= found)
				continue;
			for (i = start[u]; i < start[u + 1]; i++) {
				uint32_t w = match_r[adj[i]];

				if (w == NIL) {
					if (found == INF)
						found = dist[u] + 1;
				} else if (dist[w] == INF) {
					dist[w] = dist[u] + 1;
					queue[qt++] = w;
				}
			}
		}
		if (found == INF)
			break;
		/* DFS augmenting along layers (iterative) */
		for (u = 0; u < nl; u++)
			it[u] = start[u];
		for (u = 0; u < nl; u++) {
			uint32_t sp = 0;

			if (match_l[u] != NIL)
				continue;
			stack[sp++] = u;
			while (sp) {
				uint32_t x = stack[sp - 1];
				bool pushed = false;

				while (it[x] < start[x + 1]) {
					uint32_t v = adj[it[x]], w = match_r[v];

					if (w == NIL ? dist[x] + 1 == found :
					    dist[w] == dist[x] + 1) {
						if (w == NIL) {
							/* augment along stack */
							uint32_t k = sp;

							while (k--) {
								uint32_t a = stack[k];
								uint32_t vv = adj[it[a]];
								uint32_t nxt = match_l[a];

								match_l[a] = vv;
								match_r[vv] = a;
								(void)nxt;
							}
							size++;
							sp = 0;
							pushed = true;
							break;
						}
						stack[sp++] = w;
						pushed = true;
						break;
					}
					it[x]++;
				}
				if (!sp)
					break;
				if (!pushed) {
					dist[x] = INF;	/* dead end */
					sp--;
					if (sp)
						it[stack[sp - 1]]++;
				}
			}
		}
	}
out:
	free(match_r);
	free(dist);
	free(queue);
	free(it);
	free(stack);
	return size;
}

/* ----------------------------------------------------------- Hungarian */

/*
 * Maximum weight matching of a dense nl x nr matrix (weights >= 0): the
 * minimum cost assignment of the smaller side with cost -w (potentials,
 * O(n^2 m)). Zero-weight pairs in the assignment are reported unmatched.
 */
double ftsw_max_weight_matching(uint32_t nl, uint32_t nr, const double *w,
				uint32_t *match_l)
{
	bool tr = nl > nr;
	uint32_t n = tr ? nr : nl, m = tr ? nl : nr, i, j;
	double *u = calloc(n + 1, sizeof(*u)), *v = calloc(m + 1, sizeof(*v));
	double *minv = malloc((m + 1) * sizeof(*minv)), total = 0;
	uint32_t *p = calloc(m + 1, sizeof(*p)), *way = calloc(m + 1, sizeof(*way));
	bool *used = malloc(m + 1);

	if (!u || !v || !minv || !p || !way || !used) {
		total = NAN;
		goto out;
	}
#define COST(a, b) (-(tr ? w[(size_t)(b) * nr + (a)] : w[(size_t)(a) * nr + (b)]))
	for (i = 1; i <= n; i++) {
		uint32_t j0 = 0;

		p[0] = i;
		for (j = 0; j <= m; j++) {
			minv[j] = INFINITY;
			used[j] = false;
		}
		do {
			uint32_t i0 = p[j0], j1 = 0;
			double delta = INFINITY;

			used[j0] = true;
			for (j = 1; j <= m; j++) {
				if (used[j])
					continue;
				double cur = COST(i0 - 1, j - 1) - u[i0] - v[j];

				if (cur < minv[j]) {
					minv[j] = cur;
					way[j] = j0;
				}
				if (minv[j] < delta) {
					delta = minv[j];
					j1 = j;
				}
			}
			for (j = 0; j <= m; j++) {
				if (used[j]) {
					u[p[j]] += delta;
					v[j] -= delta;
				} else {
					minv[j] -= delta;
				}
			}
			j0 = j1;
		} while (p[j0] != 0);
		do {
			uint32_t j1 = way[j0];

			p[j0] = p[j1];
			j0 = j1;
		} while (j0);
	}
	if (match_l)
		for (i = 0; i < nl; i++)
			match_l[i] = UINT32_MAX;
	for (j = 1; j <= m; j++) {
		double x;

		if (!p[j])
			continue;
		x = -COST(p[j] - 1, j - 1);
		if (x <= 0)
			continue;
		total += x;
		if (match_l) {
			if (tr)
				match_l[j - 1] = p[j] - 1;
			else
				match_l[p[j] - 1] = j - 1;
		}
	}
#undef COST
out:
	free(u);
	free(v);
	free(minv);
	free(p);
	free(way);
	free(used);
	return total;
}

/* ------------------------------------------------------ the ratio itself */

bool ftsw_full_bisection(const struct ftsw_topo *t, char *why, size_t sz)
{
	const struct ftsw_pgft *g = &t->pgft;
	uint64_t hosts = 1, up = 1;
	unsigned k;

	if (!t->is_pgft || t->degraded) {
		snprintf(why, sz, "not a complete PGFT: OPTU(TM) >= baseload(TM) "
			 "only, the ratio is an upper bound");
		return false;
	}
	for (k = 1; k < g->h; k++) {
		hosts *= g->m[k - 1];
		up = 1;
		for (unsigned i = 1; i <= k; i++)
			up *= g->w[i - 1];
		up *= (uint64_t)g->w[k] * g->p[k];
		if (up < hosts) {
			snprintf(why, sz, "a level-%u subtree has %llu hosts but "
				 "%llu up-links: OPTU may exceed baseload, the "
				 "ratio is an upper bound", k,
				 (unsigned long long)hosts,
				 (unsigned long long)up);
			return false;
		}
	}
	snprintf(why, sz, "complete PGFT with full bisection at every level: "
		 "OPTU(TM) = baseload(TM), the ratio is exact");
	return true;
}

/*
 * Sources are grouped by (leaf switch, path policy): LFTs are destination
 * based, so every member of a group sends to destination d over the same
 * switch paths; only its own host uplink differs (that link carries one
 * source: at most 1, accounted for separately). Entries are (group,
 * destination, fraction of the pair's traffic on the link), one per link
 * a (group, d) path set touches.
 */
struct entry {
	uint32_t g, d;
	float w;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct groups {
	uint32_t n;		/* groups */
	uint32_t *of;		/* host -> group */
	uint32_t *start, *mem;	/* CSR: members of group g */
	uint32_t *rep;		/* a member */
};

static int host_key_cmp(const void *a, const void *b, void *arg)
{
	const struct ftsw_routing *r = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct ftsw_path_policy *px = &r->policy[x], *py = &r->policy[y];
	uint32_t lx = ftsw_host_switch(r->topo, r->topo->hosts[x]);
	uint32_t ly = ftsw_host_switch(r->topo, r->topo->hosts[y]);

	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (px->fixed_offset != py->fixed_offset)
		return px->fixed_offset < py->fixed_offset ? -1 : 1;
	if (px->allowed[0] != py->allowed[0])
		return px->allowed[0] < py->allowed[0] ? -1 : 1;
	if (px->allowed[1] != py->allowed[1])
		return px->allowed[1] < py->allowed[1] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool same_group(const struct ftsw_routing *r, uint32_t x, uint32_t y)
{
	const struct ftsw_path_policy *px = &r->policy[x], *py = &r->policy[y];

	return ftsw_host_switch(r->topo, r->topo->hosts[x]) ==
	       ftsw_host_switch(r->topo, r->topo->hosts[y]) &&
	       px->fixed_offset == py->fixed_offset &&
	       px->allowed[0] == py->allowed[0] &&
	       px->allowed[1] == py->allowed[1];
}

static void groups_free(struct groups *G)
{
	free(G->of);
	free(G->start);
	free(G->mem);
	free(G->rep);
}

static int groups_make(const struct ftsw_routing *r, struct groups *G)
{
	uint32_t n = r->nhosts, i;

	memset(G, 0, sizeof(*G));
	G->of = malloc(n * sizeof(uint32_t));
	G->start = malloc((n + 1) * sizeof(uint32_t));
	G->mem = malloc(n * sizeof(uint32_t));
	G->rep = malloc(n * sizeof(uint32_t));
	if (!G->of || !G->start || !G->mem || !G->rep)
		return -1;
	for (i = 0; i < n; i++)
		G->mem[i] = i;
	qsort_r(G->mem, n, sizeof(uint32_t), host_key_cmp, (void *)r);
	for (i = 0; i < n; i++) {
		if (!i || !same_group(r, G->mem[i - 1], G->mem[i])) {
			G->start[G->n] = i;
			G->rep[G->n] = G->mem[i];
			G->n++;
		}
		G->of[G->mem[i]] = G->n - 1;
	}
	G->start[G->n] = n;
	return 0;
}

/*
 * Trace every (group, d, offset) path (from a member other than d); per
 * (group, d) sum the fractions per link; for links in [lo, hi) count
 * (ent == NULL) or store entries at pos[l]++.
 */
static int collect(const struct ftsw_routing *r, const struct groups *G,
		   uint32_t lo, uint32_t hi, uint64_t *cnt, uint64_t *pos,
		   struct entry *ent, uint64_t *undelivered)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_path *p = malloc(sizeof(*p));
	uint32_t *touched = malloc(t->nports * sizeof(uint32_t));
	float *acc = calloc(t->nports, sizeof(float));
	uint32_t g, d;

	if (!p || !touched || !acc) {
		free(p);
		free(touched);
		free(acc);
		return -1;
	}
	for (g = 0; g < G->n; g++) {
		uint8_t offs[128];
		double w[128];
		uint32_t rep = G->rep[g], alt;
		unsigned n = ftsw_path_offsets(r, rep, offs, w), k, i;

		alt = G->start[g + 1] - G->start[g] > 1 ?
		      G->mem[G->start[g] + 1] : rep;
		for (d = 0; d < t->nhosts; d++) {
			uint32_t s = d == rep ? alt : rep, nt = 0;

			if (s == d)
				continue;	/* the group is {d} */
			if (!n && undelivered)
				(*undelivered)++;
			for (k = 0; k < n; k++) {
				if (ftsw_trace_path(r, s, d, offs[k], 0, p)) {
					if (undelivered)
						(*undelivered)++;
					continue;
				}
				for (i = 0; i < p->nhops; i++) {
					uint32_t l = ftsw_link_id(t,
						t->switches[p->hops[i].sw],
						p->hops[i].port);

					if (l < lo || l >= hi)
						continue;
					if (acc[l] == 0)
						touched[nt++] = l;
					acc[l] += (float)w[k];
				}
			}
			for (i = 0; i < nt; i++) {
				uint32_t l = touched[i];

				if (!ent)
					cnt[l]++;
				else
					ent[pos[l]++] = (struct entry){ g, d,
									acc[l] };
				acc[l] = 0;
			}
		}
	}
	free(p);
	free(touched);
	free(acc);
	return 0;
}

/* Working state of the oblivious-ratio search over the links. */
struct ob {
	const struct ftsw_routing *r;
	const struct ftsw_topo *t;
	ftsw_progress_fn progress;	/* links scanned (NULL: quiet) */
	void *progress_arg;
	struct groups G;
	bool multi;		/* some source has several paths */
	uint64_t *cnt;		/* [link]: SD-group entries crossing it */
	uint64_t *pos;		/* [link]: fill position, then end */
	struct entry *ent;
	/* per link: rows (sources) and columns (destinations) present */
	uint32_t stamp, *stamp_s, *stamp_d, *stamp_g;
	uint32_t *lid_s, *lid_d, *gs, *gd, nl, nr;
	double *gmax, *dmax;
	/* the matching problem */
	uint32_t *start, *adj, *match;
	uint64_t maxadj;
	double *wm;
	double best;
};

static int ob_alloc(struct ob *ob)
{
	uint32_t nh = ob->t->nhosts;

	ob->cnt = calloc(ob->t->nports + 1, sizeof(*ob->cnt));
	ob->pos = calloc(ob->t->nports + 1, sizeof(*ob->pos));
	ob->lid_s = malloc(nh * sizeof(uint32_t));
	ob->lid_d = malloc(nh * sizeof(uint32_t));
	ob->stamp_s = calloc(nh, sizeof(uint32_t));
	ob->stamp_d = calloc(nh, sizeof(uint32_t));
	ob->stamp_g = calloc(nh, sizeof(uint32_t));
	ob->gmax = calloc(nh, sizeof(double));
	ob->dmax = calloc(nh, sizeof(double));
	ob->gs = malloc(nh * sizeof(uint32_t));
	ob->gd = malloc(nh * sizeof(uint32_t));
	ob->start = malloc((nh + 2) * sizeof(uint32_t));
	ob->match = malloc(nh * sizeof(uint32_t));
	if (!ob->cnt || !ob->pos || !ob->lid_s || !ob->lid_d ||
	    !ob->stamp_s || !ob->stamp_d || !ob->stamp_g || !ob->gmax ||
	    !ob->dmax || !ob->gs || !ob->gd || !ob->start || !ob->match)
		return -1;
	return groups_make(ob->r, &ob->G);
}

static void ob_free(struct ob *ob)
{
	groups_free(&ob->G);
	free(ob->cnt);
	free(ob->pos);
	free(ob->lid_s);
	free(ob->lid_d);
	free(ob->stamp_s);
	free(ob->stamp_d);
	free(ob->stamp_g);
	free(ob->gmax);
	free(ob->dmax);
	free(ob->gs);
	free(ob->gd);
	free(ob->start);
	free(ob->adj);
	free(ob->match);
	free(ob->ent);
	free(ob->wm);
}

/*
 * Upper bounds of link l's value from its entries [b, e): the sum of the
 * source groups' maxima (times their sizes) and of the destinations'
 * maxima. Numbers the destinations present (columns) on the way.
 */
static double ob_bound(struct ob *ob, uint64_t b, uint64_t e)
{
	const struct groups *G = &ob->G;
	double ub_s = 0, ub_d = 0;
	uint64_t i;
	uint32_t u;

	ob->nr = 0;
	for (i = b; i < e; i++) {
		uint32_t g = ob->ent[i].g, d = ob->ent[i].d;

		if (ob->stamp_g[g] != ob->stamp) {
			ob->stamp_g[g] = ob->stamp;
			ob->gmax[g] = 0;
		}
		if (ob->stamp_d[d] != ob->stamp) {
			ob->stamp_d[d] = ob->stamp;
			ob->dmax[d] = 0;
			ob->gd[ob->nr] = d;
			ob->lid_d[d] = ob->nr++;
		}
		if (ob->ent[i].w > ob->gmax[g])
			ob->gmax[g] = ob->ent[i].w;
		if (ob->ent[i].w > ob->dmax[d])
			ob->dmax[d] = ob->ent[i].w;
	}
	for (i = b; i < e; i++)
		if (ob->stamp_g[ob->ent[i].g] == ob->stamp) {
			uint32_t g = ob->ent[i].g;

			ub_s += ob->gmax[g] * (G->start[g + 1] - G->start[g]);
			ob->stamp_g[g] = ob->stamp - 1;	/* once */
		}
	for (u = 0; u < ob->nr; u++)
		ub_d += ob->dmax[ob->gd[u]];
	return ub_s < ub_d ? ub_s : ub_d;
}

/* Rows: the member hosts of the source groups present on the link. */
static void ob_rows(struct ob *ob, uint64_t b, uint64_t e)
{
	uint64_t i;
	uint32_t j;

	ob->nl = 0;
	for (i = b; i < e; i++) {
		uint32_t g = ob->ent[i].g;

		for (j = ob->G.start[g]; j < ob->G.start[g + 1]; j++) {
			uint32_t h = ob->G.mem[j];

			if (ob->stamp_s[h] != ob->stamp) {
				ob->stamp_s[h] = ob->stamp;
				ob->gs[ob->nl] = h;
				ob->lid_s[h] = ob->nl++;
			}
		}
	}
}

/* Single path: the largest matching of the link's (source, destination) pairs. */
static int ob_match_single(struct ob *ob, uint64_t b, uint64_t e, double *val)
{
	const struct groups *G = &ob->G;
	uint64_t i, na = 0;
	uint32_t j, u;

	memset(ob->start, 0, (ob->nl + 2) * sizeof(*ob->start));
	for (i = b; i < e; i++)
		for (j = G->start[ob->ent[i].g]; j < G->start[ob->ent[i].g + 1]; j++)
			if (G->mem[j] != ob->ent[i].d) {
				ob->start[ob->lid_s[G->mem[j]] + 2]++;
				na++;
			}
	if (na > ob->maxadj) {
		free(ob->adj);
		ob->maxadj = na;
		ob->adj = malloc(ob->maxadj * sizeof(*ob->adj));
		if (!ob->adj)
			return -1;
	}
	for (u = 0; u < ob->nl; u++)
		ob->start[u + 2] += ob->start[u + 1];
	for (i = b; i < e; i++)
		for (j = G->start[ob->ent[i].g]; j < G->start[ob->ent[i].g + 1]; j++)
			if (G->mem[j] != ob->ent[i].d)
				ob->adj[ob->start[ob->lid_s[G->mem[j]] + 1]++] =
					ob->lid_d[ob->ent[i].d];
	*val = ftsw_hopcroft_karp(ob->nl, ob->nr, ob->start, ob->adj, ob->match);
	return 0;
}

/* Multipath: the maximum-weight matching of the link's fractional loads. */
static int ob_match_weighted(struct ob *ob, uint64_t b, uint64_t e, double *val)
{
	const struct groups *G = &ob->G;
	uint64_t i;
	uint32_t j;

	free(ob->wm);
	ob->wm = calloc((size_t)ob->nl * ob->nr, sizeof(*ob->wm));
	if (!ob->wm)
		return -1;
	for (i = b; i < e; i++)
		for (j = G->start[ob->ent[i].g]; j < G->start[ob->ent[i].g + 1]; j++)
			if (G->mem[j] != ob->ent[i].d)
				ob->wm[(size_t)ob->lid_s[G->mem[j]] * ob->nr +
				       ob->lid_d[ob->ent[i].d]] = ob->ent[i].w;
	*val = ftsw_max_weight_matching(ob->nl, ob->nr, ob->wm, ob->match);
	return 0;
}

/* A new best at link l: remember the link and the matched pairs. */
static void ob_witness(struct ob *ob, struct ftsw_oblivious *res, uint32_t l)
{
	uint32_t u;

	res->link = l;
	free(res->witness_src);
	free(res->witness_dst);
	res->witness_src = malloc(ob->nl * sizeof(uint32_t));
	res->witness_dst = malloc(ob->nl * sizeof(uint32_t));
	res->nwitness = 0;
	for (u = 0; res->witness_src && res->witness_dst && u < ob->nl; u++)
		if (ob->match[u] != UINT32_MAX) {
			res->witness_src[res->nwitness] = ob->gs[u];
			res->witness_dst[res->nwitness++] = ob->gd[ob->match[u]];
		}
}

/* Link l's entries are ent[b, e): its value, if it can beat the best. */
static int ob_link(struct ob *ob, struct ftsw_oblivious *res, uint32_t l,
		   uint64_t b, uint64_t e)
{
	uint32_t nh = ob->t->nhosts;
	double val;

	if (++ob->stamp == 0) {
		memset(ob->stamp_s, 0, nh * sizeof(uint32_t));
		memset(ob->stamp_d, 0, nh * sizeof(uint32_t));
		memset(ob->stamp_g, 0, nh * sizeof(uint32_t));
		ob->stamp = 1;
	}
	if (ob_bound(ob, b, e) <= ob->best + 1e-9)
		return 0;	/* cannot beat the best */
	ob_rows(ob, b, e);
	if (ob->multi ? ob_match_weighted(ob, b, e, &val) :
			ob_match_single(ob, b, e, &val))
		return -1;
	if (val > ob->best + 1e-9) {
		ob->best = val;
		ob_witness(ob, res, l);
	}
	return 0;
}

/* A host uplink carries its one source: ratio 1 whenever it sends. */
static void ob_host_uplink(struct ob *ob, struct ftsw_oblivious *res)
{
	const struct ftsw_topo *t = ob->t;
	uint32_t h0 = t->hosts[0];

	if (t->nhosts <= 1)
		return;
	ob->best = 1;
	res->link = ftsw_host_port(t, h0) ?
		    ftsw_link_id(t, h0, ftsw_host_port(t, h0)) : FTSW_NONE;
	res->witness_src = malloc(sizeof(uint32_t));
	res->witness_dst = malloc(sizeof(uint32_t));
	if (res->witness_src && res->witness_dst) {
		res->witness_src[0] = 0;
		res->witness_dst[0] = 1;
		res->nwitness = 1;
	}
}

/*
 * The links in passes of at most chunk_max entries: collect each pass's
 * entries, then evaluate its links one by one.
 */
static int ob_scan(struct ob *ob, struct ftsw_oblivious *res,
		   struct ftsw_err *err)
{
	const uint64_t chunk_max = 8u << 20;	/* entries per pass */
	const struct ftsw_topo *t = ob->t;
	uint64_t maxent = 0, tot;
	double last = now();
	uint32_t lo, hi, l;

	for (l = 0; l < t->nports; l++)
		if (ob->cnt[l] > maxent)
			maxent = ob->cnt[l];
	ob->ent = malloc((maxent > chunk_max ? maxent : chunk_max) *
			 sizeof(*ob->ent));
	if (!ob->ent) {
		ftsw_err_errno(err, ENOMEM,
			       "out of memory (%llu SD groups on one link)",
			       (unsigned long long)maxent);
		return -1;
	}
	for (lo = 0; lo < t->nports; lo = hi) {
		for (tot = 0, hi = lo; hi < t->nports &&
		     (hi == lo || tot + ob->cnt[hi] <= chunk_max); hi++)
			tot += ob->cnt[hi];
		for (tot = 0, l = lo; l < hi; l++) {
			ob->pos[l] = tot;
			tot += ob->cnt[l];
		}
		if (tot && collect(ob->r, &ob->G, lo, hi, NULL, ob->pos,
				   ob->ent, NULL))
			goto oom;
		/* pos[l] is now the end of link l's entries */
		for (l = lo; l < hi; l++) {
			if (ob->cnt[l] &&
			    ob_link(ob, res, l, ob->pos[l] - ob->cnt[l], ob->pos[l]))
				goto oom;
			if (ob->progress && now() - last > 0.5) {
				char what[48];

				last = now();
				snprintf(what, sizeof(what), "oblivious ratio "
					 "(best %.3f): link", ob->best);
				ob->progress(what, l, t->nports,
					     ob->progress_arg);
			}
		}
	}
	if (ob->progress)
		ob->progress(NULL, 0, 0, ob->progress_arg);
	return 0;
oom:
	ftsw_err_errno(err, ENOMEM, "out of memory");
	return -1;
}

int ftsw_oblivious_ratio(const struct ftsw_routing *r,
			 ftsw_progress_fn progress, void *progress_arg,
			 struct ftsw_oblivious *res, struct ftsw_err *err)
{
	struct ob ob = { .r = r, .t = r->topo, .progress = progress,
			 .progress_arg = progress_arg };
	uint64_t undelivered = 0, t0 = ftsw_now_us();
	uint32_t s;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	res->link = FTSW_NONE;
	if (ob_alloc(&ob)) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		goto out;
	}
	for (s = 0; s < ob.t->nhosts; s++) {
		uint8_t o[128];
		double w[128];

		if (ftsw_path_offsets(r, s, o, w) > 1)
			ob.multi = true;
	}
	res->multipath = ob.multi;
	res->exact = ftsw_full_bisection(ob.t, res->why, sizeof(res->why));
	if (collect(r, &ob.G, 0, ob.t->nports, ob.cnt, NULL, NULL,
		    &undelivered)) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		goto out;
	}
	if (undelivered) {
		ftsw_err_set(err, "%llu paths are not delivered (see ftsw route "
			     "check): the ratio is undefined",
			     (unsigned long long)undelivered);
		goto out;
	}
	ob_host_uplink(&ob, res);
	if (ob_scan(&ob, res, err))
		goto out;
	res->ratio = ob.best;
	/* from whole microseconds: prints without float noise */
	res->seconds = (double)(ftsw_now_us() - t0) / 1e6;
	rc = 0;
out:
	ob_free(&ob);
	return rc;
}

void ftsw_oblivious_free(struct ftsw_oblivious *res)
{
	free(res->witness_src);
	free(res->witness_dst);
	res->witness_src = res->witness_dst = NULL;
}
