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

int ftsw_oblivious_ratio(const struct ftsw_routing *r, bool progress,
			 struct ftsw_oblivious *res, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	const uint64_t chunk_max = 8u << 20;	/* entries per pass */
	uint64_t *cnt = calloc(t->nports + 1, sizeof(*cnt));
	uint64_t *pos = calloc(t->nports + 1, sizeof(*pos));
	uint32_t *lid_s = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *lid_d = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *stamp_s = calloc(t->nhosts, sizeof(uint32_t));
	uint32_t *stamp_d = calloc(t->nhosts, sizeof(uint32_t));
	uint32_t *stamp_g = calloc(t->nhosts, sizeof(uint32_t));
	double *gmax = calloc(t->nhosts, sizeof(double));
	double *dmax = calloc(t->nhosts, sizeof(double));
	uint32_t *gs = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *gd = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *start = malloc((t->nhosts + 2) * sizeof(uint32_t));
	uint32_t *adj = NULL, *match = malloc(t->nhosts * sizeof(uint32_t));
	struct entry *ent = NULL;
	double t0 = now(), best = 0, last = t0, *wm = NULL;
	uint64_t undelivered = 0, maxent = 0, maxadj = 0;
	uint32_t lo, hi, l, stamp = 0, s;
	struct groups G;
	bool multi = false;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	memset(&G, 0, sizeof(G));
	res->link = FTSW_NONE;
	if (!cnt || !pos || !lid_s || !lid_d || !stamp_s || !stamp_d ||
	    !stamp_g || !gmax || !dmax || !gs || !gd || !start || !match ||
	    groups_make(r, &G)) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	for (s = 0; s < t->nhosts; s++) {
		uint8_t o[128];
		double w[128];

		if (ftsw_path_offsets(r, s, o, w) > 1)
			multi = true;
	}
	res->multipath = multi;
	res->exact = ftsw_full_bisection(t, res->why, sizeof(res->why));
	if (collect(r, &G, 0, t->nports, cnt, NULL, NULL, &undelivered)) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	if (undelivered) {
		ftsw_err_set(err, "%llu paths are not delivered (see ftsw route "
			     "check): the ratio is undefined",
			     (unsigned long long)undelivered);
		goto out;
	}
	/* a host uplink carries its one source: ratio 1 when it sends */
	if (t->nhosts > 1) {
		uint32_t h0 = t->hosts[0];

		best = 1;
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
	for (l = 0; l < t->nports; l++)
		if (cnt[l] > maxent)
			maxent = cnt[l];
	ent = malloc((maxent > chunk_max ? maxent : chunk_max) * sizeof(*ent));
	if (!ent) {
		ftsw_err_set(err, "out of memory (%llu SD groups on one link)",
			     (unsigned long long)maxent);
		goto out;
	}
	for (lo = 0; lo < t->nports; lo = hi) {
		uint64_t tot = 0;

		for (hi = lo; hi < t->nports &&
		     (hi == lo || tot + cnt[hi] <= chunk_max); hi++)
			tot += cnt[hi];
		tot = 0;
		for (l = lo; l < hi; l++) {
			pos[l] = tot;
			tot += cnt[l];
		}
		if (tot && collect(r, &G, lo, hi, NULL, pos, ent, NULL)) {
			ftsw_err_set(err, "out of memory");
			goto out;
		}
		/* pos[l] is now the end of link l's entries */
		for (l = lo; l < hi; l++) {
			uint64_t b = pos[l] - cnt[l], e = pos[l], i, na = 0;
			uint32_t nl = 0, nr = 0, ng = 0, u, j;
			double val, ub_s = 0, ub_d = 0;

			if (!cnt[l])
				continue;
			if (++stamp == 0) {
				memset(stamp_s, 0, t->nhosts * sizeof(uint32_t));
				memset(stamp_d, 0, t->nhosts * sizeof(uint32_t));
				memset(stamp_g, 0, t->nhosts * sizeof(uint32_t));
				stamp = 1;
			}
			/* bounds: sum of column maxima, of row maxima */
			for (i = b; i < e; i++) {
				uint32_t g = ent[i].g, d = ent[i].d;

				if (stamp_g[g] != stamp) {
					stamp_g[g] = stamp;
					gmax[g] = 0;
					ng++;
				}
				if (stamp_d[d] != stamp) {
					stamp_d[d] = stamp;
					dmax[d] = 0;
					gd[nr] = d;
					lid_d[d] = nr++;
				}
				if (ent[i].w > gmax[g])
					gmax[g] = ent[i].w;
				if (ent[i].w > dmax[d])
					dmax[d] = ent[i].w;
			}
			for (i = b; i < e; i++)
				if (stamp_g[ent[i].g] == stamp) {
					uint32_t g = ent[i].g;

					ub_s += gmax[g] * (G.start[g + 1] -
							   G.start[g]);
					stamp_g[g] = stamp - 1;	/* once */
				}
			for (u = 0; u < nr; u++)
				ub_d += dmax[gd[u]];
			if ((ub_s < ub_d ? ub_s : ub_d) <= best + 1e-9)
				continue;	/* cannot beat the best */
			/* rows: the member hosts of the groups present */
			for (i = b; i < e; i++) {
				uint32_t g = ent[i].g;

				for (j = G.start[g]; j < G.start[g + 1]; j++) {
					uint32_t h = G.mem[j];

					if (stamp_s[h] != stamp) {
						stamp_s[h] = stamp;
						gs[nl] = h;
						lid_s[h] = nl++;
					}
				}
			}
			if (!multi) {
				memset(start, 0, (nl + 2) * sizeof(*start));
				for (i = b; i < e; i++)
					for (j = G.start[ent[i].g];
					     j < G.start[ent[i].g + 1]; j++)
						if (G.mem[j] != ent[i].d) {
							start[lid_s[G.mem[j]] + 2]++;
							na++;
						}
				if (na > maxadj) {
					free(adj);
					maxadj = na;
					adj = malloc(maxadj * sizeof(*adj));
					if (!adj) {
						ftsw_err_set(err, "out of memory");
						goto out;
					}
				}
				for (u = 0; u < nl; u++)
					start[u + 2] += start[u + 1];
				for (i = b; i < e; i++)
					for (j = G.start[ent[i].g];
					     j < G.start[ent[i].g + 1]; j++)
						if (G.mem[j] != ent[i].d)
							adj[start[lid_s[G.mem[j]] + 1]++] =
								lid_d[ent[i].d];
				val = ftsw_hopcroft_karp(nl, nr, start, adj,
							 match);
			} else {
				free(wm);
				wm = calloc((size_t)nl * nr, sizeof(*wm));
				if (!wm) {
					ftsw_err_set(err, "out of memory");
					goto out;
				}
				for (i = b; i < e; i++)
					for (j = G.start[ent[i].g];
					     j < G.start[ent[i].g + 1]; j++)
						if (G.mem[j] != ent[i].d)
							wm[(size_t)lid_s[G.mem[j]] * nr +
							   lid_d[ent[i].d]] = ent[i].w;
				val = ftsw_max_weight_matching(nl, nr, wm, match);
			}
			if (val > best + 1e-9) {
				best = val;
				res->link = l;
				free(res->witness_src);
				free(res->witness_dst);
				res->witness_src = malloc(nl * sizeof(uint32_t));
				res->witness_dst = malloc(nl * sizeof(uint32_t));
				res->nwitness = 0;
				for (u = 0; res->witness_src && res->witness_dst &&
				     u < nl; u++)
					if (match[u] != UINT32_MAX) {
						res->witness_src[res->nwitness] = gs[u];
						res->witness_dst[res->nwitness++] =
							gd[match[u]];
					}
			}
			if (progress && now() - last > 0.5) {
				last = now();
				fprintf(stderr, "\r  oblivious ratio: link %u/%u, "
					"best %.3f   ", l, t->nports, best);
			}
		}
	}
	if (progress)
		fprintf(stderr, "\r%60s\r", "");
	res->ratio = best;
	res->seconds = now() - t0;
	rc = 0;
out:
	groups_free(&G);
	free(cnt);
	free(pos);
	free(lid_s);
	free(lid_d);
	free(stamp_s);
	free(stamp_d);
	free(stamp_g);
	free(gmax);
	free(dmax);
	free(gs);
	free(gd);
	free(start);
	free(adj);
	free(match);
	free(ent);
	free(wm);
	return rc;
}

void ftsw_oblivious_free(struct ftsw_oblivious *res)
{
	free(res->witness_src);
	free(res->witness_dst);
	res->witness_src = res->witness_dst = NULL;
}
