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

/*
 * Scratch space of ftsw_oblivious_ratio, reused link after link: the
 * sources (rows) and destinations (columns) of the link's matching, with
 * stamps telling which hosts and groups the current link has seen.
 */
struct obl_work {
	const struct ftsw_topo *t;
	struct groups G;
	uint64_t *cnt, *pos;		/* entries per link, their offsets */
	uint32_t *lid_s, *lid_d;	/* host -> row, column */
	uint32_t *stamp_s, *stamp_d, *stamp_g, stamp;
	double *gmax, *dmax;		/* per group, destination: max weight */
	uint32_t *gs, *gd;		/* row, column -> host */
	uint32_t *start, *adj, *match;	/* bipartite graph in CSR form */
	uint64_t maxadj;
	double *wm;			/* multipath: dense weights */
	struct entry *ent;
	uint32_t nl, nr;		/* rows and columns of the link */
};

static int obl_alloc(struct obl_work *w, const struct ftsw_routing *r)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t n = t->nhosts;

	w->t = t;
	w->cnt = calloc(t->nports + 1, sizeof(*w->cnt));
	w->pos = calloc(t->nports + 1, sizeof(*w->pos));
	w->lid_s = malloc(n * sizeof(uint32_t));
	w->lid_d = malloc(n * sizeof(uint32_t));
	w->stamp_s = calloc(n, sizeof(uint32_t));
	w->stamp_d = calloc(n, sizeof(uint32_t));
	w->stamp_g = calloc(n, sizeof(uint32_t));
	w->gmax = calloc(n, sizeof(double));
	w->dmax = calloc(n, sizeof(double));
	w->gs = malloc(n * sizeof(uint32_t));
	w->gd = malloc(n * sizeof(uint32_t));
	w->start = malloc((n + 2) * sizeof(uint32_t));
	w->match = malloc(n * sizeof(uint32_t));
	if (!w->cnt || !w->pos || !w->lid_s || !w->lid_d || !w->stamp_s ||
	    !w->stamp_d || !w->stamp_g || !w->gmax || !w->dmax || !w->gs ||
	    !w->gd || !w->start || !w->match)
		return -1;
	return groups_make(r, &w->G);
}

static void obl_free(struct obl_work *w)
{
	groups_free(&w->G);
	free(w->cnt);
	free(w->pos);
	free(w->lid_s);
	free(w->lid_d);
	free(w->stamp_s);
	free(w->stamp_d);
	free(w->stamp_g);
	free(w->gmax);
	free(w->dmax);
	free(w->gs);
	free(w->gd);
	free(w->start);
	free(w->adj);
	free(w->match);
	free(w->ent);
	free(w->wm);
}

/* A new link: every host and group unseen. */
static void obl_next_stamp(struct obl_work *w)
{
	uint32_t n = w->t->nhosts;

	if (++w->stamp == 0) {
		memset(w->stamp_s, 0, n * sizeof(uint32_t));
		memset(w->stamp_d, 0, n * sizeof(uint32_t));
		memset(w->stamp_g, 0, n * sizeof(uint32_t));
		w->stamp = 1;
	}
}

/*
 * Upper bound of the link's matching: the smaller of the sum of column
 * maxima (destinations) and of row maxima (sources, per group times its
 * members). Numbers the columns.
 */
static double obl_bound(struct obl_work *w, uint64_t b, uint64_t e)
{
	const struct entry *ent = w->ent;
	double ub_s = 0, ub_d = 0;
	uint64_t i;
	uint32_t u;

	w->nr = 0;
	for (i = b; i < e; i++) {
		uint32_t g = ent[i].g, d = ent[i].d;

		if (w->stamp_g[g] != w->stamp) {
			w->stamp_g[g] = w->stamp;
			w->gmax[g] = 0;
		}
		if (w->stamp_d[d] != w->stamp) {
			w->stamp_d[d] = w->stamp;
			w->dmax[d] = 0;
			w->gd[w->nr] = d;
			w->lid_d[d] = w->nr++;
		}
		if (ent[i].w > w->gmax[g])
			w->gmax[g] = ent[i].w;
		if (ent[i].w > w->dmax[d])
			w->dmax[d] = ent[i].w;
	}
	for (i = b; i < e; i++)
		if (w->stamp_g[ent[i].g] == w->stamp) {
			uint32_t g = ent[i].g;

			ub_s += w->gmax[g] * (w->G.start[g + 1] - w->G.start[g]);
			w->stamp_g[g] = w->stamp - 1;	/* once */
		}
	for (u = 0; u < w->nr; u++)
		ub_d += w->dmax[w->gd[u]];
	return ub_s < ub_d ? ub_s : ub_d;
}

/* Rows: the member hosts of the groups present on the link. */
static void obl_rows(struct obl_work *w, uint64_t b, uint64_t e)
{
	uint64_t i;
	uint32_t j;

	w->nl = 0;
	for (i = b; i < e; i++) {
		uint32_t g = w->ent[i].g;

		for (j = w->G.start[g]; j < w->G.start[g + 1]; j++) {
			uint32_t h = w->G.mem[j];

			if (w->stamp_s[h] != w->stamp) {
				w->stamp_s[h] = w->stamp;
				w->gs[w->nl] = h;
				w->lid_s[h] = w->nl++;
			}
		}
	}
}

/* Single path: the maximum cardinality matching of the link's pairs. */
static int obl_cardinality(struct obl_work *w, uint64_t b, uint64_t e,
			   double *val, struct ftsw_err *err)
{
	const struct entry *ent = w->ent;
	uint64_t i, na = 0;
	uint32_t j, u;

	memset(w->start, 0, (w->nl + 2) * sizeof(*w->start));
	for (i = b; i < e; i++)
		for (j = w->G.start[ent[i].g]; j < w->G.start[ent[i].g + 1]; j++)
			if (w->G.mem[j] != ent[i].d) {
				w->start[w->lid_s[w->G.mem[j]] + 2]++;
				na++;
			}
	if (na > w->maxadj) {
		free(w->adj);
		w->maxadj = na;
		w->adj = malloc(w->maxadj * sizeof(*w->adj));
		if (!w->adj) {
			ftsw_err_set(err, "out of memory");
			return -1;
		}
	}
	for (u = 0; u < w->nl; u++)
		w->start[u + 2] += w->start[u + 1];
	for (i = b; i < e; i++)
		for (j = w->G.start[ent[i].g]; j < w->G.start[ent[i].g + 1]; j++)
			if (w->G.mem[j] != ent[i].d)
				w->adj[w->start[w->lid_s[w->G.mem[j]] + 1]++] =
					w->lid_d[ent[i].d];
	*val = ftsw_hopcroft_karp(w->nl, w->nr, w->start, w->adj, w->match);
	return 0;
}

/* Multipath: the maximum weight matching of the link's fractions. */
static int obl_weight(struct obl_work *w, uint64_t b, uint64_t e,
		      double *val, struct ftsw_err *err)
{
	const struct entry *ent = w->ent;
	uint64_t i;
	uint32_t j;

	free(w->wm);
	w->wm = calloc((size_t)w->nl * w->nr, sizeof(*w->wm));
	if (!w->wm) {
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (i = b; i < e; i++)
		for (j = w->G.start[ent[i].g]; j < w->G.start[ent[i].g + 1]; j++)
			if (w->G.mem[j] != ent[i].d)
				w->wm[(size_t)w->lid_s[w->G.mem[j]] * w->nr +
				      w->lid_d[ent[i].d]] = ent[i].w;
	*val = ftsw_max_weight_matching(w->nl, w->nr, w->wm, w->match);
	return 0;
}

/* The matching that attains the best value so far, as the witness. */
static void obl_witness(const struct obl_work *w, uint32_t link,
			struct ftsw_oblivious *res)
{
	uint32_t u;

	res->link = link;
	free(res->witness_src);
	free(res->witness_dst);
	res->witness_src = malloc(w->nl * sizeof(uint32_t));
	res->witness_dst = malloc(w->nl * sizeof(uint32_t));
	res->nwitness = 0;
	for (u = 0; res->witness_src && res->witness_dst && u < w->nl; u++)
		if (w->match[u] != UINT32_MAX) {
			res->witness_src[res->nwitness] = w->gs[u];
			res->witness_dst[res->nwitness++] = w->gd[w->match[u]];
		}
}

/* A host uplink carries its one source: ratio 1 when it sends. */
static double obl_host_uplink(const struct ftsw_topo *t,
			      struct ftsw_oblivious *res)
{
	uint32_t h0 = t->hosts[0];

	res->link = ftsw_host_port(t, h0) ?
		    ftsw_link_id(t, h0, ftsw_host_port(t, h0)) : FTSW_NONE;
	res->witness_src = malloc(sizeof(uint32_t));
	res->witness_dst = malloc(sizeof(uint32_t));
	if (res->witness_src && res->witness_dst) {
		res->witness_src[0] = 0;
		res->witness_dst[0] = 1;
		res->nwitness = 1;
	}
	return 1;
}

/*
 * The links [lo, hi) whose entries sit in w->ent (pos[l]: the end of
 * link l's): each link's matching, kept in res when it beats *best.
 */
static int obl_links(struct obl_work *w, uint32_t lo, uint32_t hi,
		     bool multi, double *best, struct ftsw_oblivious *res,
		     struct ftsw_err *err)
{
	uint32_t l;

	for (l = lo; l < hi; l++) {
		uint64_t b = w->pos[l] - w->cnt[l], e = w->pos[l];
		double val;

		if (!w->cnt[l])
			continue;
		obl_next_stamp(w);
		if (obl_bound(w, b, e) <= *best + 1e-9)
			continue;	/* cannot beat the best */
		obl_rows(w, b, e);
		if ((multi ? obl_weight : obl_cardinality)(w, b, e, &val, err))
			return -1;
		if (val > *best + 1e-9) {
			*best = val;
			obl_witness(w, l, res);
		}
	}
	return 0;
}

/* Is any source's traffic spread over several offsets? */
static bool obl_multipath(const struct ftsw_routing *r)
{
	uint32_t s;

	for (s = 0; s < r->topo->nhosts; s++) {
		uint8_t o[128];
		double wt[128];

		if (ftsw_path_offsets(r, s, o, wt) > 1)
			return true;
	}
	return false;
}

int ftsw_oblivious_ratio(const struct ftsw_routing *r, bool progress,
			 struct ftsw_oblivious *res, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	const uint64_t chunk_max = 8u << 20;	/* entries per pass */
	struct obl_work w = { 0 };
	uint64_t t0 = ftsw_now_us();
	double best = 0, last = now();
	uint64_t undelivered = 0, maxent = 0;
	uint32_t lo, hi, l;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	res->link = FTSW_NONE;
	if (obl_alloc(&w, r)) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	res->multipath = obl_multipath(r);
	res->exact = ftsw_full_bisection(t, res->why, sizeof(res->why));
	if (collect(r, &w.G, 0, t->nports, w.cnt, NULL, NULL, &undelivered)) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	if (undelivered) {
		ftsw_err_set(err, "%llu paths are not delivered (see ftsw route "
			     "check): the ratio is undefined",
			     (unsigned long long)undelivered);
		goto out;
	}
	if (t->nhosts > 1)
		best = obl_host_uplink(t, res);
	for (l = 0; l < t->nports; l++)
		if (w.cnt[l] > maxent)
			maxent = w.cnt[l];
	w.ent = malloc((maxent > chunk_max ? maxent : chunk_max) *
		       sizeof(*w.ent));
	if (!w.ent) {
		ftsw_err_set(err, "out of memory (%llu SD groups on one link)",
			     (unsigned long long)maxent);
		goto out;
	}
	for (lo = 0; lo < t->nports; lo = hi) {
		uint64_t tot = 0;

		for (hi = lo; hi < t->nports &&
		     (hi == lo || tot + w.cnt[hi] <= chunk_max); hi++)
			tot += w.cnt[hi];
		tot = 0;
		for (l = lo; l < hi; l++) {
			w.pos[l] = tot;
			tot += w.cnt[l];
		}
		if (tot && collect(r, &w.G, lo, hi, NULL, w.pos, w.ent, NULL)) {
			ftsw_err_set(err, "out of memory");
			goto out;
		}
		/* pos[l] is now the end of link l's entries */
		if (obl_links(&w, lo, hi, res->multipath, &best, res, err))
			goto out;
		if (progress && now() - last > 0.5) {
			last = now();
			fprintf(stderr, "\r  oblivious ratio: link %u/%u, "
				"best %.3f   ", hi, t->nports, best);
		}
	}
	if (progress)
		fprintf(stderr, "\r%60s\r", "");
	res->ratio = best;
	/* from whole microseconds: prints without float noise */
	res->seconds = (double)(ftsw_now_us() - t0) / 1e6;
	rc = 0;
out:
	obl_free(&w);
	return rc;
}

void ftsw_oblivious_free(struct ftsw_oblivious *res)
{
	free(res->witness_src);
	free(res->witness_dst);
	res->witness_src = res->witness_dst = NULL;
}
