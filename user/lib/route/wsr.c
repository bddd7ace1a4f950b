// SPDX-License-Identifier: GPL-2.0
/*
 * wsr: widest shortest routing (paper 002, §5) on XGFTs. Every channel
 * starts at the same weight; the SD pairs are routed in the order (0, 1),
 * (0, 2), .., (0, N-1), (1, 0), (1, 2), .. (hosts by paper number), each on
 * the shortest path (one per top switch of the pair's NCA sub-tree) whose
 * channels have the smallest accumulated weight, ties to the lowest path
 * index; then every channel of the chosen path gains 1.
 *
 * Realization: paths are per pair, so every source needs its own LID
 * offset within the LFTs it shares with other sources. A source only uses
 * switches of its own top-level sub-tree on the way up (level < h), so
 * sources of different sub-trees may share an offset: source s uses offset
 * s mod S, S = m_1..m_{h-1} (hosts per top-level sub-tree), and a switch in
 * sub-tree T routes offset j of d along the path of source T * S + j.
 * LMC = ceil(log2 S) must fit 7 (FT(32, 2): 16 offsets; FT(16, 3): 64).
 */
#include <errno.h>
#include <stdlib.h>

#include "route/xgft.h"
#include "route/engines.h"

struct wsr {
	uint64_t S, N;
	uint32_t *path;		/* [s * N + d] by paper number */
};

static unsigned wsr_choose(void *ctx, const struct ftsw_xgft *x, uint32_t sw,
			   unsigned l, unsigned k, uint32_t dhost, unsigned off)
{
	struct wsr *w = ctx;
	uint32_t id = x->t->switches[sw];
	uint64_t s = ftsw_xgft_digit(x, id, x->h) * w->S + off % w->S;
	uint64_t d = x->hostnum[dhost];

	if (s >= w->N || s == d)
		return 0;
	return ftsw_xgft_path_digit(x, w->path[s * w->N + d], l, k);
}

/* Channels of path p from leaf switch ls to host d (NCA level k). */
static unsigned path_channels(const struct ftsw_xgft *x, uint32_t ls,
			      uint32_t dnode, unsigned k, uint64_t p,
			      uint32_t *ch)
{
	const struct ftsw_topo *t = x->t;
	uint32_t u = ls;
	unsigned l, n = 0;

	for (l = 1; l < k; l++) {
		unsigned b = ftsw_xgft_path_digit(x, p, l, k);
		uint8_t port = x->up[(size_t)u * x->maxw + b];
		uint32_t id = t->switches[u];

		ch[n++] = t->nodes[id].first_port + port - 1;
		u = t->nodes[ftsw_port(t, id, port)->peer].index;
	}
	for (l = k; l > 1; l--) {
		uint8_t port = x->down[(size_t)u * x->maxm +
				       ftsw_xgft_digit(x, dnode, l)];
		uint32_t id = t->switches[u];

		ch[n++] = t->nodes[id].first_port + port - 1;
		u = t->nodes[ftsw_port(t, id, port)->peer].index;
	}
	return n;
}

int ftsw_route_wsr(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		   struct ftsw_routing *r, struct ftsw_err *err)
{
	struct ftsw_xgft x;
	struct wsr w = { 0 };
	uint32_t *wt = NULL, ch[2 * FTSW_PGFT_MAX_H], best[2 * FTSW_PGFT_MAX_H];
	unsigned lmc = 0;
	uint64_t s, d;
	uint32_t h;
	int rc = -1;

	if (ftsw_xgft_init(&x, t, "wsr", err))
		return -1;
	w.N = x.M[x.h];
	w.S = x.M[x.h - 1];
	while ((1ULL << lmc) < w.S)
		lmc++;
	if (lmc > FTSW_LMC_MAX || o->lmc < lmc) {
		ftsw_err_set(err, "wsr: per-pair paths need one LID offset per "
			     "host of a top-level sub-tree (%llu): --lmc %u%s "
			     "(have --lmc %u)", (unsigned long long)w.S, lmc,
			     lmc > FTSW_LMC_MAX ? ", beyond InfiniBand's 7" :
			     " at least", o->lmc);
		goto out;
	}
	if (t->nhosts != w.N) {
		ftsw_err_set(err, "wsr: %s has %u hosts, %llu expected", t->spec,
			     t->nhosts, (unsigned long long)w.N);
		goto out;
	}
	w.path = calloc(w.N * w.N + 1, sizeof(uint32_t));
	wt = calloc((size_t)t->nports + 1, sizeof(uint32_t));
	if (!w.path || !wt) {
		ftsw_err_errno(err, ENOMEM, "wsr: out of memory (%llu hosts)",
			       (unsigned long long)w.N);
		goto out;
	}
	for (s = 0; s < w.N; s++) {
		uint32_t sn = t->hosts[x.byhostnum[s]];
		uint32_t ls = t->nodes[ftsw_host_switch(t, sn)].index;

		for (d = 0; d < w.N; d++) {
			uint32_t dn = t->hosts[x.byhostnum[d]];
			unsigned k = x.h, n = 0, i;
			uint64_t p, bp = 0, bc = UINT64_MAX;

			if (d == s)
				continue;
			while (k > 1 && ftsw_xgft_digit(&x, sn, k) ==
					ftsw_xgft_digit(&x, dn, k))
				k--;
			for (p = 0; p < x.W[k]; p++) {
				uint64_t c = 0;

				n = path_channels(&x, ls, dn, k, p, ch);
				for (i = 0; i < n; i++)
					c += wt[ch[i]];
				if (c < bc) {
					bc = c;
					bp = p;
				}
			}
			n = path_channels(&x, ls, dn, k, bp, best);
			for (i = 0; i < n; i++)
				wt[best[i]]++;
			w.path[s * w.N + d] = (uint32_t)bp;
		}
	}
	if (ftsw_xgft_fill(&x, r, wsr_choose, &w, o, err))
		goto out;
	for (h = 0; h < t->nhosts; h++)
		ftsw_policy_fixed(r, h, (unsigned)(x.hostnum[h] % w.S));
	rc = 0;
out:
	free(w.path);
	free(wt);
	ftsw_xgft_free(&x);
	return rc;
}
