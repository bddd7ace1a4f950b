// SPDX-License-Identifier: GPL-2.0
/*
 * Dmodc (Gliksberg et al., paper 004): fault-resilient D-Mod-K for
 * (degraded) PGFTs and fat-tree-like graphs.
 *
 *  1. Ranking: leaves (switches with hosts) rank 0, BFS upwards; a link
 *     goes "up" from rank r to rank r + 1.
 *  2. Port groups: the ports of a switch leading to one neighbour switch,
 *     groups ordered by the neighbour's GUID, ports by number.
 *  3. Procedure 1: cost c[s][l] (up-down hop count from switch s to leaf
 *     l) by an ascending pass (propagate to upper neighbours) and a
 *     descending pass (propagate to lower neighbours); divider Pi_s, the
 *     largest product of upward arities (number of upper neighbour
 *     switches) along any down-path, Pi = 1 at leaves.
 *  4. Routes, eqs. (1)-(4): C = groups whose switch is closer to the
 *     destination's leaf; group C[floor(d / Pi) mod #C], port
 *     g[floor(d / (Pi #C)) mod #g]. d is the destination host's index.
 *  5. Validity (§4.1): every leaf pair must have a finite cost; pairs
 *     that don't are counted and reported.
 *
 * The passes are computed "pull" style, one rank at a time, each switch
 * reading only its neighbours of the previous rank, so any number of
 * threads gives bit-identical costs, dividers and tables.
 *
 * Up-down cost variant (§3.2/3.4, opts->updown_cost): a down-only cost is
 * kept as well (the costs after the ascending pass), and eq. (1) compares
 * it for lower neighbours instead of the full cost.
 *
 * LMC offset o (multipath, ftsw's extension): y = floor(d / Pi) + o, group
 * C[y mod #C], port g[floor(y / #C) mod #g]; o = 0 is the paper's formula.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/fastdiv.h"
#include "route/routing.h"
#include "route/engines.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define INF 255

struct group {
	uint32_t sw;		/* neighbour switch index */
	uint32_t first;		/* index into ports[] */
	uint16_t n;		/* ports in the group */
	uint8_t up;		/* 1 up, 0 down, 2 same rank */
};

struct dc {
	const struct ftsw_topo *t;
	struct ftsw_routing *r;
	const struct ftsw_route_opts *o;
	int *rank;
	uint32_t nl;		/* leaves */
	uint32_t nlp;		/* cost row stride: nl rounded up to 64 */
	uint32_t *leaf_of_sw;	/* switch -> leaf index or NONE */
	uint32_t *leaf_sw;	/* leaf index -> switch */
	uint8_t *c, *cd;	/* costs [sw * nl + leaf], cd: down-only */
	uint64_t *pi;
	uint32_t *gfirst;	/* per switch: first group, gfirst[ns] = total */
	struct group *groups;
	uint8_t *gports;
	uint32_t *byrank;	/* switches sorted by rank */
	uint32_t *rankstart;	/* start of each rank in byrank */
	int nranks;
	uint32_t *lhosts;	/* hosts grouped by leaf */
	uint32_t *lhstart;	/* per leaf start in lhosts */
	struct { uint32_t d, n; } *runs;	/* runs of consecutive hosts */
	uint32_t *runstart;	/* per leaf start in runs */
	int cur_rank;
};

void ftsw_dmodc_select(uint64_t d, uint64_t pi, unsigned ngroups,
		       unsigned gsize, unsigned offset, unsigned *gi,
		       unsigned *pidx)
{
	uint64_t y = d / pi + offset;

	*gi = (unsigned)(y % ngroups);
	*pidx = (unsigned)((y / ngroups) % gsize);
}

static int cmp_group(const void *x, const void *y, void *arg)
{
	const struct group *a = x, *b = y;
	const struct ftsw_topo *t = arg;
	uint64_t ga = t->nodes[t->switches[a->sw]].guid;
	uint64_t gb = t->nodes[t->switches[b->sw]].guid;

	if (ga != gb)
		return ga < gb ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

static int build_groups(struct dc *a)
{
	const struct ftsw_topo *t = a->t;
	uint32_t ns = t->nswitches, s, total = 0, np = 0;
	uint32_t *last = malloc((ns + 1) * sizeof(uint32_t));

	a->gfirst = malloc((ns + 1) * sizeof(uint32_t));
	a->groups = malloc(((size_t)t->nports + 1) * sizeof(struct group));
	a->gports = malloc((size_t)t->nports + 1);
	if (!last || !a->gfirst || !a->groups || !a->gports) {
		free(last);
		return -1;
	}
	for (s = 0; s < ns; s++)
		last[s] = FTSW_NONE;
	for (s = 0; s < ns; s++) {
		const struct ftsw_node *n = &t->nodes[t->switches[s]];
		uint32_t g0 = total, g;
		unsigned p;

		a->gfirst[s] = total;
		/* count ports per neighbour, in port order */
		for (p = 1; p <= n->nports; p++) {
			const struct ftsw_port *x = &t->ports[n->first_port + p - 1];
			uint32_t u;

			if (x->peer == FTSW_NONE ||
			    t->nodes[x->peer].kind != FTSW_SWITCH)
				continue;
			u = t->nodes[x->peer].index;
			if (u == s)
				continue;
			if (last[u] == FTSW_NONE || last[u] < g0) {
				last[u] = total;
				a->groups[total++] = (struct group){ u, 0, 0, 0 };
			}
			a->groups[last[u]].n++;
		}
		/* sort groups by GUID, then lay out their ports */
		qsort_r(&a->groups[g0], total - g0, sizeof(struct group),
			cmp_group, (void *)t);
		for (g = g0; g < total; g++) {
			struct group *gr = &a->groups[g];
			int ru = a->rank[gr->sw], rs = a->rank[s];

			gr->first = np;
			gr->up = ru > rs ? 1 : ru < rs ? 0 : 2;
			last[gr->sw] = g;
			np += gr->n;
			gr->n = 0;
		}
		for (p = 1; p <= n->nports; p++) {
			const struct ftsw_port *x = &t->ports[n->first_port + p - 1];
			struct group *gr;

			if (x->peer == FTSW_NONE ||
			    t->nodes[x->peer].kind != FTSW_SWITCH ||
			    t->nodes[x->peer].index == s)
				continue;
			gr = &a->groups[last[t->nodes[x->peer].index]];
			a->gports[gr->first + gr->n++] = (uint8_t)p;
		}
	}
	a->gfirst[ns] = total;
	free(last);
	return 0;
}

/* dst = min(dst, src + 1), saturating at INF; n is a multiple of 64 */
static inline void relax(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint32_t i;

#if defined(__SSE2__)
	const __m128i one = _mm_set1_epi8(1);

	for (i = 0; i < n; i += 16) {
		__m128i v = _mm_adds_epu8(_mm_loadu_si128((const void *)(src + i)), one);
		__m128i d = _mm_loadu_si128((const void *)(dst + i));

		_mm_storeu_si128((void *)(dst + i), _mm_min_epu8(d, v));
	}
#else
	for (i = 0; i < n; i++) {
		uint8_t v = src[i] + (src[i] != INF);

		dst[i] = dst[i] < v ? dst[i] : v;
	}
#endif
}

/* 64 bits: bit i set where a[i] < b[i] */
static inline uint64_t less64(const uint8_t *a, const uint8_t *b)
{
	uint64_t m = 0;
	unsigned i;

#if defined(__SSE2__)
	for (i = 0; i < 64; i += 16) {
		__m128i x = _mm_loadu_si128((const void *)(a + i));
		__m128i y = _mm_loadu_si128((const void *)(b + i));
		/* x >= y where min(x, y) == y */
		unsigned ge = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_min_epu8(x, y), y));

		m |= (uint64_t)(~ge & 0xffff) << i;
	}
#else
	for (i = 0; i < 64; i++)
		m |= (uint64_t)(a[i] < b[i]) << i;
#endif
	return m;
}

/* In place: afterwards bit j of a[i] is what bit i of a[j] was. */
static void transpose64(uint64_t a[64])
{
	unsigned j, k;
	uint64_t m, t;

	for (j = 32, m = 0x00000000FFFFFFFFULL; j; j >>= 1, m ^= m << j)
		for (k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			t = ((a[k] >> j) ^ a[k | j]) & m;
			a[k | j] ^= t;
			a[k] ^= t << j;
		}
}

/* Ascending pass for one switch of rank cur_rank: pull from lower. */
static void asc_one(size_t i, void *arg)
{
	struct dc *a = arg;
	uint32_t s = a->byrank[a->rankstart[a->cur_rank] + i], g;
	uint8_t *cs = &a->c[(size_t)s * a->nlp];
	uint64_t pi = 1;

	for (g = a->gfirst[s]; g < a->gfirst[s + 1]; g++) {
		const struct group *gr = &a->groups[g];
		uint32_t lo = gr->sw, ups = 0, h;

		if (gr->up != 0)
			continue;
		relax(cs, &a->c[(size_t)lo * a->nlp], a->nlp);
		for (h = a->gfirst[lo]; h < a->gfirst[lo + 1]; h++)
			ups += a->groups[h].up == 1;
		if (a->pi[lo] * ups > pi)
			pi = a->pi[lo] * ups;
	}
	a->pi[s] = pi;
}

/* Descending pass for one switch of rank cur_rank: pull from upper. */
static void desc_one(size_t i, void *arg)
{
	struct dc *a = arg;
	uint32_t s = a->byrank[a->rankstart[a->cur_rank] + i], g;
	uint8_t *cs = &a->c[(size_t)s * a->nlp];

	for (g = a->gfirst[s]; g < a->gfirst[s + 1]; g++) {
		const struct group *gr = &a->groups[g];

		if (gr->up != 1)
			continue;
		relax(cs, &a->c[(size_t)gr->sw * a->nlp], a->nlp);
	}
}

/* No route from this switch to leaf l's hosts. */
static void no_route(const struct dc *a, const struct ftsw_routing *r,
		     uint8_t *lft, uint32_t l)
{
	uint32_t h;

	for (h = a->lhstart[l]; h < a->lhstart[l + 1]; h++)
		memset(lft + ftsw_host_lid(r, a->lhosts[h]), FTSW_PORT_NONE,
		       (size_t)1 << r->lmc);
}

/* Per-switch state of route_one. */
struct dsw {
	struct dc *a;
	uint32_t s, g0, ng, nw;
	const uint8_t *cs;		/* this switch's cost row */
	uint8_t *lft;
	const uint8_t **crow;		/* [group]: the neighbour's cost row */
	struct fdiv *gdiv;		/* [group]: divider by its size */
	uint64_t *mask;			/* [leaf in block * nw + word] */
	uint64_t prev[4];		/* the mask C was built from */
	/* C: the closer groups of the current leaf, in GUID order */
	uint32_t nc;
	int single;			/* every group in C is one port */
	const uint8_t **cfirst;
	struct fdiv *cdiv;
	uint8_t cport[2 * (FTSW_TOPO_MAX_PORTS + 1) + 2];
	int cport_ok;
	struct fdiv ncdiv[FTSW_TOPO_MAX_PORTS + 1];
	struct fdiv pidiv;
};

/* The "closer" masks of leaves l..l+63 (l a multiple of 64). */
static void leaf_masks(struct dsw *w, uint32_t l)
{
	uint64_t blk[64];
	uint32_t gi, x;

	for (x = 0; x < w->nw; x++) {
		for (gi = 0; gi < 64; gi++)
			blk[gi] = x * 64 + gi < w->ng ?
				  less64(w->crow[x * 64 + gi] + l, w->cs + l) : 0;
		transpose64(blk);
		for (gi = 0; gi < 64; gi++)
			w->mask[(size_t)gi * w->nw + x] = blk[gi];
	}
}

/* Rebuild C from leaf l's mask when it differs from the last one. */
static void closer_groups(struct dsw *w, uint32_t l)
{
	const uint64_t *m0 = &w->mask[(size_t)(l & 63) * w->nw];
	int same = 1;
	uint32_t x;

	for (x = 0; x < w->nw; x++)
		if (m0[x] != w->prev[x])
			same = 0;
	if (same && w->nc)
		return;
	w->nc = 0;
	w->single = 1;
	w->cport_ok = 0;
	for (x = 0; x < w->nw; x++) {
		uint64_t m = m0[x];

		w->prev[x] = m;
		while (m) {
			uint32_t g = x * 64 + (uint32_t)__builtin_ctzll(m);
			const struct group *gr = &w->a->groups[w->g0 + g];

			w->cfirst[w->nc] = w->a->gports + gr->first;
			w->cdiv[w->nc] = w->gdiv[g];
			w->single &= gr->n == 1;
			w->nc++;
			m &= m - 1;
		}
	}
}

/* Leaf l is this switch: each host by its own port. */
static void route_own_hosts(struct dsw *w, uint32_t l)
{
	const struct ftsw_topo *t = w->a->t;
	struct ftsw_routing *r = w->a->r;
	unsigned noff = 1u << r->lmc, o;
	uint32_t h;

	for (h = w->a->lhstart[l]; h < w->a->lhstart[l + 1]; h++) {
		uint32_t n = w->a->lhosts[h], hn = t->hosts[n];
		unsigned hp = ftsw_host_port(t, hn);
		uint8_t port = ftsw_port(t, hn, hp)->peer_port;
		uint32_t lid = ftsw_host_lid(r, n);

		for (o = 0; o < noff; o++)
			w->lft[lid + o] = port;
	}
}

/*
 * No parallel links, LMC 0: eq. (4) picks the group's only port. Hosts
 * of a leaf usually have consecutive d, so floor(d / Pi) and its residue
 * mod #C are stepped instead of divided.
 */
static void route_leaf_single(struct dsw *w, uint32_t l)
{
	const struct dc *a = w->a;
	uint32_t pi32 = w->pidiv.d, nc = w->nc, gi, h;

	if (!w->cport_ok) {
		/* C's ports, repeated when pi = 1: then they cycle host by
		 * host and a run is one copy */
		uint32_t len = nc;

		for (gi = 0; gi < nc; gi++)
			w->cport[gi] = *w->cfirst[gi];
		while (pi32 == 1 && len < nc + FTSW_TOPO_MAX_PORTS + 1) {
			uint32_t n2 = len;

			if (n2 > sizeof(w->cport) - len)
				n2 = (uint32_t)(sizeof(w->cport) - len);
			memcpy(w->cport + len, w->cport, n2);
			len += n2;
		}
		w->cport_ok = 1;
	}
	for (h = a->runstart[l]; h < a->runstart[l + 1]; h++) {
		/* a run of consecutive hosts: consecutive LIDs */
		uint32_t d = a->runs[h].d, run = a->runs[h].n;
		uint32_t y0, rem, gi2;
		uint8_t *out = w->lft + ftsw_host_lid(a->r, d);

		y0 = fdiv_div(d, w->pidiv);
		rem = d - y0 * pi32;
		gi2 = y0 - fdiv_div(y0, w->ncdiv[nc]) * nc;
		if (pi32 == 1) {
			memcpy(out, w->cport + gi2, run);
			continue;
		}
		/* each port for pi consecutive destinations */
		while (run) {
			uint32_t len = pi32 - rem < run ? pi32 - rem : run;

			memset(out, w->cport[gi2], len);
			out += len;
			run -= len;
			rem = 0;
			if (++gi2 == nc)
				gi2 = 0;
		}
	}
}

/* Eqs. (3) and (4) for every host and LMC offset of leaf l. */
static void route_leaf(struct dsw *w, uint32_t l)
{
	const struct dc *a = w->a;
	unsigned noff = 1u << a->r->lmc, o;
	uint32_t nc = w->nc, h;

	for (h = a->lhstart[l]; h < a->lhstart[l + 1]; h++) {
		uint32_t d = a->lhosts[h];
		uint32_t lid = ftsw_host_lid(a->r, d);
		uint32_t y0 = fdiv_div(d, w->pidiv);

		for (o = 0; o < noff; o++) {
			uint32_t y = y0 + o, q = fdiv_div(y, w->ncdiv[nc]);
			uint32_t i = y - q * nc;

			w->lft[lid + o] = w->cfirst[i][fdiv_mod(q, w->cdiv[i])];
		}
	}
}

/*
 * Preset this switch's LFT row: every host LID is written exactly once
 * by route_one (255 where unroutable), so only the rest is preset --
 * unless some host hangs off no leaf, or the switch is unranked (then
 * all of it, and false: nothing more to do).
 */
static bool preset_row(struct dsw *w, bool ok)
{
	const struct dc *a = w->a;
	struct ftsw_routing *r = a->r;

	if (!ok || a->rank[w->s] < 0 || a->lhstart[a->nl] != r->nhosts) {
		memset(w->lft, FTSW_PORT_NONE, r->lft_size);
		return ok && a->rank[w->s] >= 0;
	}
	memset(w->lft, FTSW_PORT_NONE, (size_t)1 << r->lmc);
	memset(w->lft + (((size_t)r->nhosts + 1) << r->lmc), FTSW_PORT_NONE,
	       r->lft_size - (((size_t)r->nhosts + 1) << r->lmc));
	return true;
}

/*
 * Routes of switch s. Eq. (1) for all leaves at once: for each block of
 * 64 leaves, one 64-bit mask per neighbour group of "closer" bits, then a
 * bit-matrix transpose gives per leaf the mask of closer groups (in GUID
 * order); the index list C is rebuilt only when the mask changes.
 */
static void route_one(size_t s, void *arg)
{
	struct dc *a = arg;
	struct dsw w = { .a = a, .s = (uint32_t)s };
	uint64_t pi = a->pi[s];
	uint32_t l, gi;
	bool ok;

	w.g0 = a->gfirst[s];
	w.ng = a->gfirst[s + 1] - w.g0;
	w.nw = (w.ng + 63) / 64;
	w.cs = &a->c[(size_t)s * a->nlp];
	w.lft = ftsw_lft(a->r, (uint32_t)s);
	w.cfirst = malloc((w.ng + 1) * sizeof(*w.cfirst));
	w.cdiv = malloc((w.ng + 1) * sizeof(*w.cdiv));
	w.crow = malloc((w.ng + 1) * sizeof(*w.crow));
	w.gdiv = malloc((w.ng + 1) * sizeof(*w.gdiv));
	w.mask = malloc(((size_t)w.nw * 64 + 1) * sizeof(uint64_t));
	w.pidiv = fdiv_make(pi > UINT32_MAX ? UINT32_MAX : (uint32_t)pi);
	ok = w.cfirst && w.cdiv && w.crow && w.gdiv && w.mask;
	if (!preset_row(&w, ok))
		goto out;
	for (gi = 0; gi < w.ng; gi++) {
		const struct group *gr = &a->groups[w.g0 + gi];
		const uint8_t *base = (a->o->updown_cost && gr->up == 0) ?
				      a->cd : a->c;

		w.crow[gi] = &base[(size_t)gr->sw * a->nlp];
		w.gdiv[gi] = fdiv_make(gr->n);
	}
	for (gi = 1; gi <= w.ng && gi <= FTSW_TOPO_MAX_PORTS; gi++)
		w.ncdiv[gi] = fdiv_make(gi);
	for (l = 0; l < a->nl; l++) {
		if (!(l & 63))
			leaf_masks(&w, l);
		if (a->leaf_sw[l] == s) {
			route_own_hosts(&w, l);
			continue;
		}
		if (w.cs[l] != INF)
			closer_groups(&w, l);
		if (w.cs[l] == INF || !w.nc)
			no_route(a, a->r, w.lft, l);
		else if (w.single && a->r->lmc == 0)
			route_leaf_single(&w, l);
		else
			route_leaf(&w, l);
	}
out:
	free(w.cfirst);
	free(w.cdiv);
	free(w.crow);
	free(w.gdiv);
	free(w.mask);
}

static void free_dc(struct dc *a)
{
	free(a->leaf_of_sw);
	free(a->leaf_sw);
	free(a->c);
	free(a->cd);
	free(a->pi);
	free(a->gfirst);
	free(a->groups);
	free(a->gports);
	free(a->byrank);
	free(a->rankstart);
	free(a->lhosts);
	free(a->lhstart);
	free(a->runs);
	free(a->runstart);
}

/* Ranks from the leaves; leaves numbered; switches sorted by rank. */
static int index_switches(struct dc *a, struct ftsw_err *err)
{
	uint32_t ns = a->t->nswitches, s, *fill;
	int rk;

	a->nranks = ftsw_rank_from_leaves(a->t, a->rank);
	if (a->nranks <= 0) {
		ftsw_err_set(err, "dmodc: no leaf switch (no switch has a host)");
		return -EINVAL;
	}
	for (s = 0; s < ns; s++) {
		a->leaf_of_sw[s] = FTSW_NONE;
		if (a->rank[s] == 0) {
			a->leaf_of_sw[s] = a->nl;
			a->leaf_sw[a->nl++] = s;
		}
	}
	/* switches by rank (counting sort, stable by index) */
	a->rankstart = calloc((size_t)a->nranks + 2, sizeof(uint32_t));
	fill = calloc((size_t)a->nranks + 1, sizeof(uint32_t));
	if (!a->rankstart || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (s = 0; s < ns; s++)
		if (a->rank[s] >= 0)
			a->rankstart[a->rank[s] + 1]++;
	for (rk = 0; rk < a->nranks; rk++)
		a->rankstart[rk + 1] += a->rankstart[rk];
	for (s = 0; s < ns; s++)
		if (a->rank[s] >= 0)
			a->byrank[a->rankstart[a->rank[s]] + fill[a->rank[s]]++] = s;
	free(fill);
	return 0;
}

/* Hosts grouped by leaf in host order, and their runs of consecutive indices. */
static int index_hosts(struct dc *a)
{
	const struct ftsw_topo *t = a->t;
	uint32_t n, l, h, nr = 0, *fill;

	a->lhstart = calloc((size_t)a->nl + 2, sizeof(uint32_t));
	fill = calloc((size_t)a->nl + 1, sizeof(uint32_t));
	if (!a->lhstart || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (n = 0; n < t->nhosts; n++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[n]);

		if (sw != FTSW_NONE)
			a->lhstart[a->leaf_of_sw[t->nodes[sw].index] + 1]++;
	}
	for (l = 0; l < a->nl; l++)
		a->lhstart[l + 1] += a->lhstart[l];
	for (n = 0; n < t->nhosts; n++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[n]);

		if (sw != FTSW_NONE) {
			l = a->leaf_of_sw[t->nodes[sw].index];
			a->lhosts[a->lhstart[l] + fill[l]++] = n;
		}
	}
	free(fill);
	/* runs of consecutive host indices per leaf (at most 254 long) */
	a->runs = malloc((t->nhosts + 1) * sizeof(*a->runs));
	a->runstart = malloc(((size_t)a->nl + 2) * sizeof(uint32_t));
	if (!a->runs || !a->runstart)
		return -ENOMEM;
	for (l = 0; l < a->nl; l++) {
		a->runstart[l] = nr;
		for (h = a->lhstart[l]; h < a->lhstart[l + 1]; h++) {
			uint32_t d = a->lhosts[h];

			if (nr > a->runstart[l] &&
			    a->runs[nr - 1].d + a->runs[nr - 1].n == d &&
			    a->runs[nr - 1].n < FTSW_TOPO_MAX_PORTS) {
				a->runs[nr - 1].n++;
			} else {
				a->runs[nr].d = d;
				a->runs[nr].n = 1;
				nr++;
			}
		}
	}
	a->runstart[a->nl] = nr;
	return 0;
}

/* Procedure 1: costs and dividers, ascending then descending the ranks. */
static int procedure1(struct dc *a)
{
	uint32_t ns = a->t->nswitches, s, l;
	int rk;

	memset(a->c, INF, (size_t)ns * a->nlp);
	for (l = 0; l < a->nl; l++)
		a->c[(size_t)a->leaf_sw[l] * a->nlp + l] = 0;
	for (s = 0; s < ns; s++)
		a->pi[s] = 1;
	for (rk = 1; rk < a->nranks; rk++) {
		a->cur_rank = rk;
		ftsw_parallel_for(a->o->threads,
				  a->rankstart[rk + 1] - a->rankstart[rk],
				  asc_one, a);
	}
	if (a->o->updown_cost) {
		a->cd = malloc((size_t)ns * a->nlp + 64);
		if (!a->cd)
			return -ENOMEM;
		memcpy(a->cd, a->c, (size_t)ns * a->nlp);
	}
	for (rk = a->nranks - 2; rk >= 0; rk--) {
		a->cur_rank = rk;
		ftsw_parallel_for(a->o->threads,
				  a->rankstart[rk + 1] - a->rankstart[rk],
				  desc_one, a);
	}
	return 0;
}

/* Validity (§4.1): every leaf pair at finite cost; names the first failure. */
static uint64_t check_leaf_pairs(const struct dc *a, struct ftsw_routing *r)
{
	const struct ftsw_topo *t = a->t;
	uint64_t bad = 0;
	uint32_t l, i;

	for (l = 0; l < a->nl; l++) {
		const uint8_t *cl = &a->c[(size_t)a->leaf_sw[l] * a->nlp];

		for (i = 0; i < a->nl; i++) {
			if (cl[i] != INF)
				continue;
			if (!bad)
				snprintf(r->warning, sizeof(r->warning),
					 "dmodc: no up-down path between "
					 "leaf switches '%s' and '%s'",
					 t->nodes[t->switches[a->leaf_sw[l]]].desc,
					 t->nodes[t->switches[a->leaf_sw[i]]].desc);
			bad++;
		}
	}
	return bad;
}

int ftsw_route_dmodc(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err)
{
	struct dc a = { .t = t, .r = r, .o = o };
	uint32_t ns = t->nswitches;
	int rc;

	r->rank = malloc((ns + 1) * sizeof(int));
	a.rank = r->rank;
	a.leaf_of_sw = malloc((ns + 1) * sizeof(uint32_t));
	a.leaf_sw = malloc((ns + 1) * sizeof(uint32_t));
	a.pi = malloc((ns + 1) * sizeof(uint64_t));
	a.byrank = malloc((ns + 1) * sizeof(uint32_t));
	a.lhosts = malloc((t->nhosts + 1) * sizeof(uint32_t));
	if (!r->rank || !a.leaf_of_sw || !a.leaf_sw || !a.pi || !a.byrank ||
	    !a.lhosts) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = index_switches(&a, err);
	if (rc)
		goto fail;
	a.nlp = (a.nl + 63) & ~63u;
	a.c = malloc((size_t)ns * a.nlp + 64);
	if (!a.c) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = index_hosts(&a);
	if (!rc)
		rc = build_groups(&a) ? -ENOMEM : 0;
	if (!rc)
		rc = procedure1(&a);
	if (rc)
		goto fail;
	r->unroutable_pairs = check_leaf_pairs(&a, r);
	ftsw_parallel_for(o->threads, ns, route_one, &a);
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, a.rank, o->threads, err);
	free_dc(&a);
	return 0;
fail:
	if (rc == -ENOMEM)
		ftsw_err_errno(err, ENOMEM, "dmodc: out of memory");
	free_dc(&a);
	return -1;
}
