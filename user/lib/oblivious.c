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

#include "analyze.h"

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

struct entry {
	uint32_t s, d;
	float w;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Trace every (s, d, offset) path; for each link l in [lo, hi) either count
 * (ent == NULL) or store the entry at pos[l]++.
 */
static int collect(const struct ftsw_routing *r, uint32_t lo, uint32_t hi,
		   uint64_t *cnt, uint64_t *pos, struct entry *ent,
		   uint64_t *undelivered)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_path *p = malloc(sizeof(*p));
	uint32_t s, d;

	if (!p)
		return -1;
	for (s = 0; s < t->nhosts; s++) {
		uint8_t offs[128];
		double w[128];
		unsigned n = ftsw_path_offsets(r, s, offs, w), k, i;
		uint32_t hn = t->hosts[s];
		uint32_t hl = ftsw_link_id(t, hn, ftsw_host_port(t, hn));

		for (d = 0; d < t->nhosts; d++) {
			if (d == s)
				continue;
			for (k = 0; k < n; k++) {
				if (ftsw_trace_path(r, s, d, offs[k], 0, p)) {
					if (undelivered)
						(*undelivered)++;
					continue;
				}
				for (i = 0; i <= p->nhops; i++) {
					uint32_t l = i == p->nhops ? hl :
						ftsw_link_id(t,
						  t->switches[p->hops[i].sw],
						  p->hops[i].port);

					if (l < lo || l >= hi)
						continue;
					if (!ent)
						cnt[l]++;
					else
						ent[pos[l]++] = (struct entry){
							s, d, (float)w[k] };
				}
			}
		}
	}
	free(p);
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
	uint32_t *gs = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *gd = malloc(t->nhosts * sizeof(uint32_t));
	uint32_t *start = malloc((t->nhosts + 2) * sizeof(uint32_t));
	uint32_t *adj = NULL, *match = malloc(t->nhosts * sizeof(uint32_t));
	struct entry *ent = NULL;
	double t0 = now(), best = 0, last = t0, *wm = NULL;
	uint64_t undelivered = 0, maxent = 0;
	uint32_t lo, hi, l, stamp = 0, s;
	bool multi = false;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	res->link = FTSW_NONE;
	if (!cnt || !pos || !lid_s || !lid_d || !stamp_s || !stamp_d || !gs ||
	    !gd || !start || !match) {
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
	if (collect(r, 0, t->nports, cnt, NULL, NULL, &undelivered)) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	if (undelivered) {
		ftsw_err_set(err, "%llu paths are not delivered (see ftsw route "
			     "check): the ratio is undefined",
			     (unsigned long long)undelivered);
		goto out;
	}
	for (l = 0; l < t->nports; l++)
		if (cnt[l] > maxent)
			maxent = cnt[l];
	ent = malloc((maxent > chunk_max ? maxent : chunk_max) * sizeof(*ent));
	adj = malloc((maxent + 1) * sizeof(*adj));
	if (!ent || !adj) {
		ftsw_err_set(err, "out of memory (%llu SD pairs on one link)",
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
		if (collect(r, lo, hi, NULL, pos, ent, NULL)) {
			ftsw_err_set(err, "out of memory");
			goto out;
		}
		/* pos[l] is now the end of link l's entries */
		for (l = lo; l < hi; l++) {
			uint64_t b = pos[l] - cnt[l], e = pos[l], i;
			uint32_t nl = 0, nr = 0, u;
			double val, ub_s = 0, ub_d = 0;

			if (!cnt[l])
				continue;
			if (++stamp == 0) {
				memset(stamp_s, 0, t->nhosts * sizeof(uint32_t));
				memset(stamp_d, 0, t->nhosts * sizeof(uint32_t));
				stamp = 1;
			}
			for (i = b; i < e; i++) {
				if (stamp_s[ent[i].s] != stamp) {
					stamp_s[ent[i].s] = stamp;
					gs[nl] = ent[i].s;
					lid_s[ent[i].s] = nl++;
				}
				if (stamp_d[ent[i].d] != stamp) {
					stamp_d[ent[i].d] = stamp;
					gd[nr] = ent[i].d;
					lid_d[ent[i].d] = nr++;
				}
			}
			if ((nl < nr ? nl : nr) <= best)
				continue;	/* cannot beat the best */
			if (!multi) {
				memset(start, 0, (nl + 2) * sizeof(*start));
				for (i = b; i < e; i++)
					start[lid_s[ent[i].s] + 2]++;
				for (u = 0; u < nl; u++)
					start[u + 2] += start[u + 1];
				for (i = b; i < e; i++)
					adj[start[lid_s[ent[i].s] + 1]++] =
						lid_d[ent[i].d];
				val = ftsw_hopcroft_karp(nl, nr, start, adj,
							 match);
			} else {
				double *rmax, *cmax;

				free(wm);
				wm = calloc((size_t)nl * nr + nl + nr,
					    sizeof(*wm));
				if (!wm) {
					ftsw_err_set(err, "out of memory");
					goto out;
				}
				rmax = wm + (size_t)nl * nr;
				cmax = rmax + nl;
				for (i = b; i < e; i++)
					wm[(size_t)lid_s[ent[i].s] * nr +
					   lid_d[ent[i].d]] += ent[i].w;
				for (i = 0; i < (size_t)nl * nr; i++) {
					u = (uint32_t)(i / nr);
					if (wm[i] > rmax[u])
						rmax[u] = wm[i];
					if (wm[i] > cmax[i % nr])
						cmax[i % nr] = wm[i];
				}
				for (u = 0; u < nl; u++)
					ub_s += rmax[u];
				for (u = 0; u < nr; u++)
					ub_d += cmax[u];
				if ((ub_s < ub_d ? ub_s : ub_d) <= best + 1e-9)
					continue;
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
	free(cnt);
	free(pos);
	free(lid_s);
	free(lid_d);
	free(stamp_s);
	free(stamp_d);
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
