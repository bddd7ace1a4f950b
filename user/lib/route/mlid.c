// SPDX-License-Identifier: GPL-2.0
/*
 * mlid: the Multiple LID scheme of Lin, Chung and Huang on m-port n-trees,
 * as paper 002 uses it as a baseline: every host owns one LID per root
 * switch, (m/2)^(n-1) of them, and LID offset x climbs to root x, taking
 * parent floor(x / (w_1..w_l)) mod w_{l+1} at level l (lowest digit
 * first). A source picks the offset given by its own position, x = s mod
 * (m/2)^(n-1): the hosts of one leaf leave it on all m/2 up links, and
 * every source reaches every destination over one fixed path (source-mod-k
 * spreading, with LFTs over destination LIDs). LMC = ceil(log2((m/2)^(n-1)))
 * must fit InfiniBand's 7.
 */
#include "route/xgft.h"
#include "route/engines.h"

static unsigned mlid_choose(void *ctx, const struct ftsw_xgft *x, uint32_t sw,
			    unsigned l, unsigned k, uint32_t dhost, unsigned off)
{
	(void)ctx;
	(void)sw;
	(void)k;
	(void)dhost;
	return (unsigned)(((off % x->W[x->h]) / x->W[l]) % x->g->w[l]);
}

int ftsw_route_mlid(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	struct ftsw_xgft x;
	unsigned m, n, lmc = 0;
	uint32_t h;
	int rc = -1;

	if (ftsw_xgft_init(&x, t, "mlid", err))
		return -1;
	if (ftsw_xgft_ftmn(&x, &m, &n, "mlid", err))
		goto out;
	while ((1ULL << lmc) < x.W[x.h])
		lmc++;
	if (lmc > FTSW_LMC_MAX) {
		ftsw_err_set(err, "mlid: FT(%u, %u) has %llu root switches, more "
			     "LIDs per host than LMC %d allows", m, n,
			     (unsigned long long)x.W[x.h], FTSW_LMC_MAX);
		goto out;
	}
	if (o->lmc < lmc) {
		ftsw_err_set(err, "mlid: the %llu root switches of FT(%u, %u) need "
			     "--lmc %u at least (have --lmc %u)",
			     (unsigned long long)x.W[x.h], m, n, lmc, o->lmc);
		goto out;
	}
	if (ftsw_xgft_fill(&x, r, mlid_choose, NULL, o, err))
		goto out;
	for (h = 0; h < t->nhosts; h++)
		ftsw_policy_fixed(r, h, (unsigned)(x.hostnum[h] % x.W[x.h]));
	rc = 0;
out:
	ftsw_xgft_free(&x);
	return rc;
}
