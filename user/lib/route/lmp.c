// SPDX-License-Identifier: GPL-2.0
/*
 * Limited multipath on XGFTs (paper 000, §4.2), realized with LMC.
 *
 * A pair with its NCA at level k has X = w_1 * .. * w_k shortest paths,
 * numbered by the top switch of the level-k sub-XGFT they cross (Path 0 the
 * leftmost). The d-mod-k path i takes parent floor(d / (w_1..w_l)) mod
 * w_{l+1} at level l. The heuristics select K of the X paths:
 *   shift1    i, i+1, .., i+K-1 (mod X)
 *   disjoint  i + t_1 P_1 + t_2 P_2 + .. + t_k P_k (mod X), P_l = w_{l+1}..w_k,
 *             t_1 varying fastest, then t_2, ..: paths forking at the lowest
 *             level first (level-1 disjoint paths from i, then from
 *             i + P_2, .., i.e. the paper's recursive sequence)
 *   random    K distinct paths drawn uniformly (seeded per destination
 *             and NCA level)
 *   umulti    all X
 * Only min(K, X) distinct paths exist for a pair; the selection is cut
 * there.
 *
 * Realization: the destination owns 2^LMC LIDs, LMC = ceil(log2 K). The
 * choice at each switch depends on (switch level, NCA level, destination,
 * offset) only, so offset j of d is routed, at every switch on the way up,
 * along selected path number j mod K' (K' = min(K, X) for the NCA level
 * the switch implies). Offsets >= K alias valid ones the same way. Source
 * policies allow offsets 0..K-1, so each of the K' paths of a pair carries
 * either floor(K / K') or ceil(K / K') of K equal shares (exactly 1/K' when
 * K' divides K, e.g. always when K <= X).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/xgft.h"
#include "route/engines.h"

uint64_t ftsw_dmodk_path_index(const struct ftsw_pgft *g, uint64_t d,
			       unsigned k)
{
	uint64_t W = 1, idx = 0;
	unsigned l;

	for (l = 0; l < k; l++) {
		unsigned b = (unsigned)((d / W) % g->w[l]);

		idx = idx * g->w[l] + b;
		W *= g->w[l];
	}
	return idx;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

unsigned ftsw_lmp_select(const struct ftsw_pgft *g, enum ftsw_lmp_kind kind,
			 uint64_t d, unsigned k, unsigned K, uint64_t seed,
			 uint32_t *out)
{
	uint64_t X = 1, i, P[FTSW_PGFT_MAX_H + 1];
	unsigned l, n, j;

	for (l = 0; l < k; l++)
		X *= g->w[l];
	if (kind == FTSW_LMP_UMULTI)
		K = (unsigned)X;
	n = K < X ? K : (unsigned)X;
	i = ftsw_dmodk_path_index(g, d, k);
	switch (kind) {
	case FTSW_LMP_SHIFT1:
	case FTSW_LMP_UMULTI:
		for (j = 0; j < n; j++)
			out[j] = (uint32_t)((i + j) % X);
		break;
	case FTSW_LMP_DISJOINT:
		/* P_l: place value of digit b_l (b_1 most significant) */
		P[k] = 1;
		for (l = k; l > 1; l--)
			P[l - 1] = P[l] * g->w[l - 1];
		for (j = 0; j < n; j++) {
			uint64_t rest = j, sum = 0;

			for (l = 1; l <= k; l++) {
				sum += (rest % g->w[l - 1]) * P[l];
				rest /= g->w[l - 1];
			}
			out[j] = (uint32_t)((i + sum) % X);
		}
		break;
	case FTSW_LMP_RANDOM: {
		/* partial Fisher-Yates over 0..X-1 (X <= 2^32 here) */
		uint32_t *perm = malloc(X * sizeof(uint32_t));
		uint64_t st = mix(seed ^ mix(d * 64 + k));

		if (!perm) {
			/* fall back to shift-1 rather than fail mid-fill */
			for (j = 0; j < n; j++)
				out[j] = (uint32_t)((i + j) % X);
			break;
		}
		for (j = 0; j < X; j++)
			perm[j] = j;
		for (j = 0; j < n; j++) {
			uint64_t r = j + ftsw_rand_next(&st) % (X - j);
			uint32_t tmp = perm[j];

			perm[j] = perm[r];
			perm[r] = tmp;
			out[j] = perm[j];
		}
		free(perm);
		break;
	}
	}
	return n;
}

struct lmp {
	unsigned K, h;
	uint32_t *sel;		/* [(host * h + (k-1)) * K + j] */
	uint8_t *nsel;		/* [host * h + (k-1)] */
};

static unsigned lmp_choose(void *ctx, const struct ftsw_xgft *x, uint32_t sw,
			   unsigned l, unsigned k, uint32_t dhost, unsigned off)
{
	struct lmp *m = ctx;
	size_t b = (size_t)dhost * m->h + (k - 1);
	unsigned j = off % m->K;
	uint64_t p;

	(void)sw;
	j %= m->nsel[b];
	p = m->sel[b * m->K + j];
	return ftsw_xgft_path_digit(x, p, l, k);
}

static int lmp_route(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, enum ftsw_lmp_kind kind,
		     const char *name, struct ftsw_err *err)
{
	struct ftsw_xgft x;
	struct lmp m = { 0 };
	unsigned K, lmc = 0, k;
	uint32_t d;
	int rc = -1;

	if (ftsw_xgft_init(&x, t, name, err))
		return -1;
	m.h = x.h;
	if (kind == FTSW_LMP_UMULTI) {
		K = (unsigned)(x.W[x.h] > 128 ? 129 : x.W[x.h]);
		if (o->paths && o->paths != K) {
			ftsw_err_set(err, "umulti: uses all %llu paths; no K "
				     "(paths %u) to choose", (unsigned long long)
				     x.W[x.h], o->paths);
			goto out;
		}
	} else {
		K = o->paths ? o->paths : 1u << o->lmc;
	}
	while ((1u << lmc) < K)
		lmc++;
	if (K > 128 || lmc > FTSW_LMC_MAX) {
		ftsw_err_errno(err, ERANGE,
			       "%s: K = %u paths need more than 128 LIDs per "
			       "host (LMC 7 at most)", name, K);
		goto out;
	}
	if (o->lmc < lmc) {
		ftsw_err_set(err, "%s: K = %u paths need --lmc %u at least (have "
			     "--lmc %u)", name, K, lmc, o->lmc);
		goto out;
	}
	m.K = K;
	m.sel = malloc((size_t)t->nhosts * m.h * K * sizeof(uint32_t) + 1);
	m.nsel = malloc((size_t)t->nhosts * m.h + 1);
	if (!m.sel || !m.nsel) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", name);
		goto out;
	}
	for (d = 0; d < t->nhosts; d++)
		for (k = 1; k <= m.h; k++) {
			size_t b = (size_t)d * m.h + (k - 1);

			m.nsel[b] = (uint8_t)ftsw_lmp_select(x.g, kind,
							     x.hostnum[d], k, K,
							     o->seed, &m.sel[b * K]);
		}
	if (ftsw_xgft_fill(&x, r, lmp_choose, &m, o, err))
		goto out;
	/* sources spread over the K offsets */
	for (d = 0; d < t->nhosts; d++) {
		r->policy[d].allowed[0] = K >= 64 ? ~0ULL : (1ULL << K) - 1;
		r->policy[d].allowed[1] = K > 64 ? (K >= 128 ? ~0ULL :
				(1ULL << (K - 64)) - 1) : 0;
		r->policy[d].fixed_offset = FTSW_OFFSET_ANY;
	}
	rc = 0;
out:
	free(m.sel);
	free(m.nsel);
	ftsw_xgft_free(&x);
	return rc;
}

int ftsw_route_shift1(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err)
{
	return lmp_route(t, o, r, FTSW_LMP_SHIFT1, "shift1", err);
}

int ftsw_route_disjoint(const struct ftsw_topo *t,
			const struct ftsw_route_opts *o,
			struct ftsw_routing *r, struct ftsw_err *err)
{
	return lmp_route(t, o, r, FTSW_LMP_DISJOINT, "disjoint", err);
}

int ftsw_route_random(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err)
{
	return lmp_route(t, o, r, FTSW_LMP_RANDOM, "random", err);
}

int ftsw_route_umulti(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err)
{
	return lmp_route(t, o, r, FTSW_LMP_UMULTI, "umulti", err);
}
