// SPDX-License-Identifier: GPL-2.0
/*
 * Destination-based routing tables on complete XGFTs, driven by a
 * per-engine parent choice (see xgft.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/xgft.h"

void ftsw_xgft_free(struct ftsw_xgft *x)
{
	free(x->up);
	free(x->down);
	free(x->hostnum);
	free(x->byhostnum);
	memset(x, 0, sizeof(*x));
}

int ftsw_xgft_init(struct ftsw_xgft *x, const struct ftsw_topo *t,
		   const char *engine, struct ftsw_err *err)
{
	const struct ftsw_pgft *g = &t->pgft;
	struct ftsw_sw_port it;
	unsigned l, i;
	uint32_t n;

	memset(x, 0, sizeof(*x));
	if (!t->is_pgft || !t->digits) {
		ftsw_err_set(err, "%s: the topology is not a generated XGFT (no "
			     "'# ftsw-topology:' spec recognised); %s is defined "
			     "on XGFTs only", engine, engine);
		return -1;
	}
	if (t->degraded) {
		ftsw_err_set(err, "%s: %s is degraded (links, switches or hosts "
			     "missing); %s needs the complete tree", engine,
			     t->spec, engine);
		return -1;
	}
	for (l = 0; l < g->h; l++)
		if (g->p[l] != 1) {
			ftsw_err_set(err, "%s: %s has parallel links (p%u = %u); "
				     "%s is defined on XGFTs (all p = 1)", engine,
				     t->spec, l + 1, g->p[l], engine);
			return -1;
		}
	if (g->w[0] != 1) {
		ftsw_err_set(err, "%s: %s has w1 = %u; hosts with several ports "
			     "are not supported", engine, t->spec, g->w[0]);
		return -1;
	}
	x->t = t;
	x->g = g;
	x->h = g->h;
	x->W[0] = x->M[0] = 1;
	for (l = 1; l <= g->h; l++) {
		x->W[l] = x->W[l - 1] * g->w[l - 1];
		x->M[l] = x->M[l - 1] * g->m[l - 1];
		if (g->w[l - 1] > x->maxw)
			x->maxw = g->w[l - 1];
		if (g->m[l - 1] > x->maxm)
			x->maxm = g->m[l - 1];
	}
	x->up = calloc((size_t)t->nswitches * x->maxw + 1, 1);
	x->down = calloc((size_t)t->nswitches * x->maxm + 1, 1);
	x->hostnum = malloc(((size_t)t->nhosts + 1) * sizeof(uint64_t));
	x->byhostnum = malloc(((size_t)x->M[g->h] + 1) * sizeof(uint32_t));
	if (!x->up || !x->down || !x->hostnum || !x->byhostnum) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", engine);
		ftsw_xgft_free(x);
		return -1;
	}
	for (n = 0; n < x->M[g->h]; n++)
		x->byhostnum[n] = UINT32_MAX;
	for (n = 0; n < t->nhosts; n++) {
		uint64_t j = 0;

		for (i = g->h; i >= 1; i--)
			j = j * g->m[i - 1] + ftsw_xgft_digit(x, t->hosts[n], i);
		x->hostnum[n] = j;
		x->byhostnum[j] = n;
	}
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_CABLED) {
		int lv = t->nodes[it.node].level, pl = t->nodes[it.x->peer].level;

		if (pl == lv + 1)
			x->up[(size_t)it.sw * x->maxw +
			      ftsw_xgft_digit(x, it.x->peer, lv + 1)] =
				(uint8_t)it.port;
		else if (pl == lv - 1)
			x->down[(size_t)it.sw * x->maxm +
				ftsw_xgft_digit(x, it.x->peer, lv)] =
				(uint8_t)it.port;
	}
	return 0;
}

struct fill {
	struct ftsw_xgft *x;
	struct ftsw_routing *r;
	ftsw_xgft_choose_fn choose;
	void *ctx;
};

static void fill_switch(size_t s, void *arg)
{
	struct fill *f = arg;
	struct ftsw_xgft *x = f->x;
	const struct ftsw_topo *t = x->t;
	struct ftsw_routing *r = f->r;
	uint32_t id = t->switches[s], d;
	unsigned l = (unsigned)t->nodes[id].level, h = x->h;
	unsigned noff = 1u << r->lmc, off, i, my[FTSW_PGFT_MAX_H + 1];
	uint8_t *lft = ftsw_lft(r, (uint32_t)s);

	for (i = 1; i <= h; i++)
		my[i] = ftsw_xgft_digit(x, id, i);
	for (d = 0; d < t->nhosts; d++) {
		uint32_t hid = t->hosts[d], lid = ftsw_host_lid(r, d);
		unsigned k = h;

		while (k > l && my[k] == ftsw_xgft_digit(x, hid, k))
			k--;
		/* digits above k agree; k is the NCA level */
		if (k == l) {
			uint8_t p = x->down[s * x->maxm +
					    ftsw_xgft_digit(x, hid, l)];

			for (off = 0; off < noff; off++)
				lft[lid + off] = p;
			continue;
		}
		for (off = 0; off < noff; off++) {
			unsigned b = f->choose(f->ctx, x, (uint32_t)s, l, k, d, off);

			lft[lid + off] = x->up[s * x->maxw + b];
		}
	}
}

int ftsw_xgft_fill(struct ftsw_xgft *x, struct ftsw_routing *r,
		   ftsw_xgft_choose_fn choose, void *ctx,
		   const struct ftsw_route_opts *o, struct ftsw_err *err)
{
	struct fill f = { .x = x, .r = r, .choose = choose, .ctx = ctx };
	const struct ftsw_topo *t = x->t;
	uint32_t s;

	r->rank = malloc(((size_t)t->nswitches + 1) * sizeof(int));
	if (!r->rank) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", r->engine);
		return -1;
	}
	for (s = 0; s < t->nswitches; s++)
		r->rank[s] = t->nodes[t->switches[s]].level - 1;
	ftsw_parallel_for(o->threads, t->nswitches, fill_switch, &f);
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, r->rank, o->threads, err);
	return 0;
}

int ftsw_xgft_ftmn(const struct ftsw_xgft *x, unsigned *m, unsigned *n,
		   const char *engine, struct ftsw_err *err)
{
	const struct ftsw_pgft *g = x->g;
	unsigned h = g->h, i, half = g->m[0];

	for (i = 0; i < h; i++)
		if (g->m[i] != (i == h - 1 ? 2 * half : half) ||
		    g->w[i] != (i ? half : 1))
			break;
	if (h < 2 || i < h) {
		ftsw_err_set(err, "%s: %s is not an m-port n-tree FT(m, n) "
			     "(PGFT(n; m/2..m/2, m; 1, m/2..m/2; 1..1), n >= 2)",
			     engine, x->t->spec);
		return -1;
	}
	*m = 2 * half;
	*n = h;
	return 0;
}

void ftsw_policy_fixed(struct ftsw_routing *r, uint32_t host, unsigned off)
{
	struct ftsw_path_policy *p = &r->policy[host];

	p->allowed[0] = off < 64 ? 1ULL << off : 0;
	p->allowed[1] = off >= 64 ? 1ULL << (off - 64) : 0;
	p->fixed_offset = (uint8_t)off;
}
