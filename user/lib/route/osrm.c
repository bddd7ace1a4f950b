// SPDX-License-Identifier: GPL-2.0
/*
 * osrm2 / osrm3: optimal oblivious single-path routing on FT(m, 2) and
 * FT(m, 3) (paper 002, §3.2, Figs. 8 and 9), realized with LMC: a
 * source's group is its fixed LID offset, and every switch routes offset g
 * of a destination along the path the paper gives to sources of group g.
 *
 * FT(m, 2) = PGFT(2; m/2, m; 1, m/2): host (s0, s1) is host s1 of leaf s0
 * (digits a_2 = s0, a_1 = s1); top switch j is the leaf's parent j. With
 * m2 = m/2, Zs = ceil(sqrt(m2)), Zd = floor(sqrt(m2)), Ns = ceil(m2 / Zs),
 * Nd = ceil(m2 / Zd): the source group is g = s1 / Ns (Gs = ceil(m2 / Ns)
 * groups), the destination group d1 / Nd (Gd = ceil(m2 / Nd) groups), and
 * a pair in different leaves crosses top switch g * Gd + d1 / Nd. When
 * sqrt(m2) is an integer Gs = Gd = Ns = Nd = Z and this is Fig. 8 exactly:
 * the up link to top j carries the Z sources of group j / Z, the down link
 * from top j the Z destinations of group j mod Z. Fig. 8 as printed
 * multiplies by Nd instead of Gd, which overruns the m2 top switches for
 * non-square m2 (m2 = 8: g = 2, Nd = 4 gives top 8); with Gd the index
 * stays below Gs * Gd <= m2 except for m2 = r^2 + 1 .. r^2 + r - 1
 * (m2 = 5: 3 * 2 = 6 > 5), where it is taken mod m2 (two source groups
 * then share the first top switches; documented in
 * Documentation/engines-arbitrary.md).
 *
 * FT(m, 3) = PGFT(3; m/2, m/2, m; 1, m/2, m/2): host (p0, p1, p2) has
 * digits a_3 = p0, a_2 = p1, a_1 = p2; switch ((i0, i1), 1) of the paper is
 * level 2 here, the leaf's parent i1; top ((i1, X), 0) is that switch's
 * parent X. Fig. 9: a source climbs to ((s0, s2), 1) (parent s2 of its
 * leaf), then to top ((s2, d2), 0) (parent d2), and down. The group is s2
 * (m/2 groups), so the leaf routes offset g to its parent g and the level-2
 * switch routes to its parent d2 whatever the offset.
 */
#include <stdlib.h>

#include "route/xgft.h"
#include "route/engines.h"

struct osrm {
	unsigned m2, Ns, Nd, Gs, Gd;
};

static unsigned isqrt(unsigned x)
{
	unsigned r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

static unsigned osrm2_choose(void *ctx, const struct ftsw_xgft *x, uint32_t sw,
			     unsigned l, unsigned k, uint32_t dhost, unsigned off)
{
	struct osrm *o = ctx;
	unsigned d1 = ftsw_xgft_digit(x, x->t->hosts[dhost], 1);

	(void)sw;
	(void)l;
	(void)k;
	return ((off % o->Gs) * o->Gd + d1 / o->Nd) % o->m2;
}

static unsigned osrm3_choose(void *ctx, const struct ftsw_xgft *x, uint32_t sw,
			     unsigned l, unsigned k, uint32_t dhost, unsigned off)
{
	struct osrm *o = ctx;

	(void)sw;
	(void)k;
	if (l == 1)
		return off % o->m2;
	return ftsw_xgft_digit(x, x->t->hosts[dhost], 1);
}

static unsigned ceil_log2(unsigned n)
{
	unsigned l = 0;

	while ((1u << l) < n)
		l++;
	return l;
}

static int osrm_route(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, unsigned want_n, struct ftsw_err *err)
{
	const char *name = want_n == 2 ? "osrm2" : "osrm3";
	struct ftsw_xgft x;
	struct osrm s = { 0 };
	unsigned m, n, groups, lmc;
	uint32_t h;
	int rc = -1;

	if (ftsw_xgft_init(&x, t, name, err))
		return -1;
	if (ftsw_xgft_ftmn(&x, &m, &n, name, err))
		goto out;
	if (n != want_n) {
		ftsw_err_set(err, "%s: defined on FT(m, %u); %s is FT(%u, %u)",
			     name, want_n, t->spec, m, n);
		goto out;
	}
	s.m2 = m / 2;
	if (want_n == 2) {
		unsigned zd = isqrt(s.m2), zs = zd * zd == s.m2 ? zd : zd + 1;

		s.Ns = (s.m2 + zs - 1) / zs;
		s.Nd = (s.m2 + zd - 1) / zd;
		s.Gs = (s.m2 + s.Ns - 1) / s.Ns;
		s.Gd = (s.m2 + s.Nd - 1) / s.Nd;
		groups = s.Gs;
	} else {
		groups = s.m2;
	}
	lmc = ceil_log2(groups);
	if (o->lmc < lmc) {
		ftsw_err_set(err, "%s: the %u source groups of FT(%u, %u) need "
			     "--lmc %u at least (have --lmc %u)", name, groups, m,
			     n, lmc, o->lmc);
		goto out;
	}
	if (ftsw_xgft_fill(&x, r, want_n == 2 ? osrm2_choose : osrm3_choose,
			   &s, o, err))
		goto out;
	for (h = 0; h < t->nhosts; h++) {
		unsigned a1 = ftsw_xgft_digit(&x, t->hosts[h], 1);

		ftsw_policy_fixed(r, h, want_n == 2 ? a1 / s.Ns : a1);
	}
	rc = 0;
out:
	ftsw_xgft_free(&x);
	return rc;
}

int ftsw_route_osrm2(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err)
{
	return osrm_route(t, o, r, 2, err);
}

int ftsw_route_osrm3(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err)
{
	return osrm_route(t, o, r, 3, err);
}
