// SPDX-License-Identifier: GPL-2.0
/*
 * D-Mod-K (Zahavi, paper 003, eq. (1)) for complete PGFTs/RLFTs.
 *
 * A switch at level l routes destination host j (its PGFT index) down when
 * j lies in its subtree (the unique downward path: the child whose digit l
 * equals the host's digit a_l), else up through up-port
 *   q = floor(j / (w_1 .. w_l)) mod (w_{l+1} p_{l+1}),
 * i.e. to the parent with digit b_{l+1} = q mod w_{l+1} over its parallel
 * link k = floor(q / w_{l+1}). Among the p_l parallel links of the down
 * path the link floor(j / (w_1 .. w_l)) mod p_l is taken, which is what
 * Dmodc (paper 004) computes on a complete PGFT too.
 *
 * LMC offset o (multipath, ftsw's extension): y = floor(j / W_l) + o picks
 * b = y mod w and k = floor(y / w) mod p (down: k = y mod p); o = 0 is eq. (1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/fastdiv.h"
#include "route/routing.h"
#include "route/engines.h"

struct dk {
	const struct ftsw_topo *t;
	struct ftsw_routing *r;
	const struct ftsw_pgft *g;
	/*
	 * Per level l (1..h) and host n, what eq. (1) needs of the host's
	 * PGFT index j: its subtree floor(j / (m_1..m_l)), its digit a_l and
	 * floor(j / (w_1..w_l)); computed once, shared by the level's switches.
	 */
	uint32_t *sub[FTSW_PGFT_MAX_H + 1];
	uint32_t *quo[FTSW_PGFT_MAX_H + 1];
	uint16_t *dig[FTSW_PGFT_MAX_H + 1];
	uint64_t W[FTSW_PGFT_MAX_H + 1], M[FTSW_PGFT_MAX_H + 1];
};

static void dk_switch(size_t si, void *arg)
{
	struct dk *a = arg;
	const struct ftsw_topo *t = a->t;
	const struct ftsw_pgft *g = a->g;
	struct ftsw_routing *r = a->r;
	uint32_t node = t->switches[si];
	unsigned l = (unsigned)t->nodes[node].level, h = g->h;
	const uint16_t *dg = &t->digits[(size_t)node * h];
	uint8_t *lft = ftsw_lft(r, (uint32_t)si);
	unsigned up = l < h ? g->w[l] * g->p[l] : 0;
	unsigned w = l < h ? g->w[l] : 1, p = l < h ? g->p[l] : 1;
	unsigned ml = g->m[l - 1], pl = g->p[l - 1];
	struct fdiv fw = fdiv_make(w), fp = fdiv_make(p), fpl = fdiv_make(pl);
	const uint32_t *sub = a->sub[l], *quo = a->quo[l];
	const uint16_t *dig = a->dig[l];
	uint32_t mysub = 0;
	unsigned noff = 1u << r->lmc, i, o;
	uint32_t n;

	memset(lft, FTSW_PORT_NONE, r->lft_size);
	/* subtree of s: digits a_h..a_{l+1} as a number */
	for (i = h; i > l; i--)
		mysub = mysub * g->m[i - 1] + dg[i - 1];
	for (n = 0; n < t->nhosts; n++) {
		uint32_t lid = ftsw_host_lid(r, n), y0 = quo[n];

		if (sub[n] == mysub) {
			for (o = 0; o < noff; o++)
				lft[lid + o] = (uint8_t)(up + dig[n] +
					fdiv_mod(y0 + o, fpl) * ml + 1);
		} else {
			for (o = 0; o < noff; o++) {
				uint32_t y = y0 + o, q = fdiv_div(y, fw);
				unsigned b = y - q * w, k = fdiv_mod(q, fp);

				lft[lid + o] = (uint8_t)(b + k * w + 1);
			}
		}
	}
}

int ftsw_route_dmodk(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err)
{
	struct dk a = { .t = t, .r = r, .g = &t->pgft };
	unsigned h = t->pgft.h, l, i;
	uint32_t n;

	if (!t->is_pgft || !t->digits) {
		ftsw_err_set(err, "dmodk: the topology is not a generated PGFT "
			     "(no '# ftsw-topology:' PGFT spec recognised); "
			     "use dmodc for arbitrary fat-trees");
		return -1;
	}
	if (t->degraded) {
		ftsw_err_set(err, "dmodk: %s is degraded (links, switches or hosts "
			     "missing); D-Mod-K needs the complete PGFT, use dmodc",
			     t->spec);
		return -1;
	}
	a.W[0] = a.M[0] = 1;
	for (l = 1; l <= h; l++) {
		a.W[l] = a.W[l - 1] * t->pgft.w[l - 1];
		a.M[l] = a.M[l - 1] * t->pgft.m[l - 1];
	}
	r->rank = malloc((t->nswitches + 1) * sizeof(int));
	if (!r->rank)
		goto oom;
	for (l = 1; l <= h; l++) {
		a.sub[l] = malloc((t->nhosts + 1) * sizeof(uint32_t));
		a.quo[l] = malloc((t->nhosts + 1) * sizeof(uint32_t));
		a.dig[l] = malloc((t->nhosts + 1) * sizeof(uint16_t));
		if (!a.sub[l] || !a.quo[l] || !a.dig[l])
			goto oom;
	}
	for (n = 0; n < t->nhosts; n++) {
		const uint16_t *dg = &t->digits[(size_t)t->hosts[n] * h];
		uint64_t j = 0;

		for (i = h; i >= 1; i--)
			j = j * t->pgft.m[i - 1] + dg[i - 1];
		for (l = 1; l <= h; l++) {
			a.sub[l][n] = (uint32_t)(j / a.M[l]);
			a.quo[l][n] = (uint32_t)(j / a.W[l]);
			a.dig[l][n] = dg[l - 1];
		}
	}
	for (n = 0; n < t->nswitches; n++)
		r->rank[n] = t->nodes[t->switches[n]].level - 1;
	ftsw_parallel_for(o->threads, t->nswitches, dk_switch, &a);
	for (l = 1; l <= h; l++) {
		free(a.sub[l]);
		free(a.quo[l]);
		free(a.dig[l]);
	}
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, r->rank, o->threads, err);
	return 0;
oom:
	for (l = 1; l <= h; l++) {
		free(a.sub[l]);
		free(a.quo[l]);
		free(a.dig[l]);
	}
	ftsw_err_errno(err, ENOMEM, "dmodk: out of memory");
	return -1;
}
