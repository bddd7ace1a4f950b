// SPDX-License-Identifier: GPL-2.0
/*
 * lash: LAyered SHortest path routing (Skeie, Lysne, Theiss, "Layered
 * shortest path (LASH) routing in irregular system area networks", IPDPS
 * 2002; OpenSM's lash), the deadlock-free engine paper 001 compares
 * DFSSSP against.
 *
 * Paths: minimal, balanced by port use (minhop's tables). Layers: the
 * paths are taken one by one, (source switch, destination host) in switch
 * then host order, and each goes into the first virtual layer whose
 * channel dependency graph stays acyclic with the path's dependencies
 * added (a new layer when none does) -- LASH's online assignment, where
 * DFSSSP instead breaks the cycles of one complete CDG afterwards. The
 * VL of a (source host, destination host) pair is its path's layer.
 *
 * Cycle test: every layer keeps a topological order of its CDG (Pearce
 * and Kelly's dynamic topological sort, JEA 2006). A new dependency
 * c1 -> c2 with ord(c1) < ord(c2) is free; otherwise a forward search from
 * c2 over channels ordered before c1 either meets c1 (a cycle: the path's
 * dependencies added so far are withdrawn and the next layer is tried) or
 * the searched region is reordered. Removing dependencies never breaks a
 * topological order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/engines.h"
#include "route/hopsel.h"

struct edge {
	uint32_t to;
	uint32_t cnt;		/* paths of this layer inducing it */
};

struct vec {
	struct edge *e;
	uint32_t n, cap;
};

struct layer {
	struct vec *out, *in;	/* per channel */
	uint32_t *ord;		/* channel -> position */
	uint32_t *at;		/* position -> channel */
};

struct lash {
	const struct ftsw_topo *t;
	uint32_t nch;
	struct layer *ly;
	unsigned nly, maxly;
	/* search scratch */
	uint8_t *mark;
	uint32_t *stk, *fw, *bw, *pos, nfw, nbw;
};

static struct edge *vec_find(struct vec *v, uint32_t to)
{
	uint32_t i;

	for (i = 0; i < v->n; i++)
		if (v->e[i].to == to)
			return &v->e[i];
	return NULL;
}

static int vec_add(struct vec *v, uint32_t to)
{
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? 2 * v->cap : 4;
		struct edge *e = realloc(v->e, cap * sizeof(*e));

		if (!e)
			return -1;
		v->e = e;
		v->cap = cap;
	}
	v->e[v->n].to = to;
	v->e[v->n++].cnt = 1;
	return 0;
}

static void vec_del(struct vec *v, uint32_t to)
{
	uint32_t i;

	for (i = 0; i < v->n; i++)
		if (v->e[i].to == to) {
			v->e[i] = v->e[--v->n];
			return;
		}
}

static int layer_new(struct lash *a)
{
	struct layer *l = &a->ly[a->nly];
	uint32_t c;

	l->out = calloc(a->nch, sizeof(struct vec));
	l->in = calloc(a->nch, sizeof(struct vec));
	l->ord = malloc(a->nch * sizeof(uint32_t));
	l->at = malloc(a->nch * sizeof(uint32_t));
	if (!l->out || !l->in || !l->ord || !l->at)
		return -1;
	for (c = 0; c < a->nch; c++)
		l->ord[c] = l->at[c] = c;
	a->nly++;
	return 0;
}

/* DFS over out (dir 1, positions < ub) or in edges (dir 0, > lb). */
static int search(struct lash *a, struct layer *l, uint32_t from, int dir,
		  uint32_t bound, uint32_t target, uint32_t *list,
		  uint32_t *n)
{
	uint32_t sp = 0;

	a->stk[sp++] = from;
	a->mark[from] = 1;
	list[(*n)++] = from;
	while (sp) {
		uint32_t c = a->stk[--sp], i;
		struct vec *v = dir ? &l->out[c] : &l->in[c];

		for (i = 0; i < v->n; i++) {
			uint32_t x = v->e[i].to;

			if (x == target)
				return 1;
			if (a->mark[x] || (dir ? l->ord[x] > bound :
					   l->ord[x] < bound))
				continue;
			a->mark[x] = 1;
			list[(*n)++] = x;
			a->stk[sp++] = x;
		}
	}
	return 0;
}

static int cmp_pos(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Sort channel list by order in l (insertion sort: the regions are small). */
static void sort_by_ord(const struct layer *l, uint32_t *c, uint32_t n)
{
	uint32_t i, j;

	for (i = 1; i < n; i++) {
		uint32_t x = c[i];

		for (j = i; j > 0 && l->ord[c[j - 1]] > l->ord[x]; j--)
			c[j] = c[j - 1];
		c[j] = x;
	}
}

/* Pearce-Kelly: 0 and x -> y ordered, or 1 when y reaches x (a cycle). */
static int pk_order(struct lash *a, struct layer *l, uint32_t x, uint32_t y)
{
	uint32_t lb = l->ord[y], ub = l->ord[x], i;
	int cyc;

	if (lb > ub)
		return 0;
	a->nfw = a->nbw = 0;
	cyc = search(a, l, y, 1, ub, x, a->fw, &a->nfw);
	if (!cyc)
		search(a, l, x, 0, lb, FTSW_NONE, a->bw, &a->nbw);
	for (i = 0; i < a->nfw; i++)
		a->mark[a->fw[i]] = 0;
	for (i = 0; i < a->nbw; i++)
		a->mark[a->bw[i]] = 0;
	if (cyc)
		return 1;
	sort_by_ord(l, a->fw, a->nfw);
	sort_by_ord(l, a->bw, a->nbw);
	for (i = 0; i < a->nbw; i++)
		a->pos[i] = l->ord[a->bw[i]];
	for (i = 0; i < a->nfw; i++)
		a->pos[a->nbw + i] = l->ord[a->fw[i]];
	qsort(a->pos, a->nbw + a->nfw, sizeof(uint32_t), cmp_pos);
	/* the backward region first, then the forward one */
	for (i = 0; i < a->nbw; i++) {
		l->ord[a->bw[i]] = a->pos[i];
		l->at[a->pos[i]] = a->bw[i];
	}
	for (i = 0; i < a->nfw; i++) {
		l->ord[a->fw[i]] = a->pos[a->nbw + i];
		l->at[a->pos[a->nbw + i]] = a->fw[i];
	}
	return 0;
}

/* Withdraw dependencies dep[0..n) (pairs c1, c2) from layer l. */
static void withdraw(struct layer *l, const uint32_t *ch, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct edge *e = vec_find(&l->out[ch[i]], ch[i + 1]);

		if (e && !--e->cnt) {
			vec_del(&l->out[ch[i]], ch[i + 1]);
			vec_del(&l->in[ch[i + 1]], ch[i]);
		}
	}
}

/*
 * Add the path over channels ch[0..n] (n dependencies) to layer l:
 * 0, 1 when it would close a cycle (l unchanged), -1 out of memory.
 */
static int try_layer(struct lash *a, struct layer *l, const uint32_t *ch,
		     unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct edge *e = vec_find(&l->out[ch[i]], ch[i + 1]);

		if (e) {
			e->cnt++;
			continue;
		}
		if (pk_order(a, l, ch[i], ch[i + 1])) {
			withdraw(l, ch, i);
			return 1;
		}
		if (vec_add(&l->out[ch[i]], ch[i + 1]) ||
		    vec_add(&l->in[ch[i + 1]], ch[i])) {
			withdraw(l, ch, i);
			return -1;
		}
	}
	return 0;
}

/* The switch-to-switch channels of (source switch s, lid) into ch. */
static unsigned walk(const struct ftsw_topo *t, const struct ftsw_routing *r,
		     uint32_t s, uint32_t lid, uint32_t *ch, unsigned max)
{
	unsigned n = 0;
	uint32_t node = t->switches[s];

	while (n < max) {
		const struct ftsw_node *nd = &t->nodes[node];
		uint8_t p = ftsw_lft(r, nd->index)[lid];
		const struct ftsw_port *x;

		if (p == FTSW_PORT_NONE || p == 0 || p > nd->nports)
			break;
		x = &t->ports[nd->first_port + p - 1];
		if (x->peer == FTSW_NONE || t->nodes[x->peer].kind != FTSW_SWITCH)
			break;
		ch[n++] = nd->first_port + p - 1;
		node = x->peer;
	}
	return n;
}

/*
 * The layer for path (s, host h) over all of h's LIDs: the dependencies
 * of every offset go into the same layer.
 */
static int place(struct lash *a, const struct ftsw_routing *r, uint32_t s,
		 uint32_t h, uint32_t *ch, uint8_t *out, struct ftsw_err *err)
{
	const struct ftsw_topo *t = a->t;
	uint32_t nlid = 1u << r->lmc, l, max = t->nswitches + 1;
	unsigned i, lens[128], tot = 0;

	for (l = 0; l < nlid; l++) {
		lens[l] = walk(t, r, s, ftsw_host_lid(r, h) + l, ch + tot, max);
		tot += lens[l];
	}
	for (i = 0; i < a->maxly; i++) {
		unsigned off = 0, placed;
		int rc = 0;

		if (i == a->nly && layer_new(a))
			goto oom;
		for (l = 0, placed = 0; l < nlid && !rc; l++, placed++) {
			if (lens[l] >= 2)
				rc = try_layer(a, &a->ly[i], ch + off,
					       lens[l] - 1);
			off += lens[l];
		}
		if (rc < 0)
			goto oom;
		if (!rc) {
			*out = (uint8_t)i;
			return 0;
		}
		/* withdraw the offsets placed before the one that failed */
		for (l = 0, off = 0; l + 1 < placed; l++) {
			if (lens[l] >= 2)
				withdraw(&a->ly[i], ch + off, lens[l] - 1);
			off += lens[l];
		}
	}
	ftsw_err_set(err, "lash: no deadlock-free layer within %u virtual "
		     "layer%s for the path from switch %s to host %s (allow "
		     "more with --max-vls, at most 15)", a->maxly,
		     a->maxly == 1 ? "" : "s",
		     t->nodes[t->switches[s]].desc ? t->nodes[t->switches[s]].desc : "?",
		     t->nodes[t->hosts[h]].desc ? t->nodes[t->hosts[h]].desc : "?");
	return -1;
oom:
	ftsw_err_errno(err, ENOMEM, "lash: out of memory");
	return -1;
}

static void lash_free(struct lash *a)
{
	unsigned i;
	uint32_t c;

	for (i = 0; i < a->nly; i++) {
		for (c = 0; c < a->nch; c++) {
			free(a->ly[i].out[c].e);
			free(a->ly[i].in[c].e);
		}
		free(a->ly[i].out);
		free(a->ly[i].in);
		free(a->ly[i].ord);
		free(a->ly[i].at);
	}
	if (a->ly && a->nly < a->maxly) {	/* a layer half made */
		free(a->ly[a->nly].out);
		free(a->ly[a->nly].in);
		free(a->ly[a->nly].ord);
		free(a->ly[a->nly].at);
	}
	free(a->ly);
	free(a->mark);
	free(a->stk);
	free(a->fw);
	free(a->bw);
	free(a->pos);
}

/* Switch index of each host (nswitches when detached). */
static uint32_t *host_switches(const struct ftsw_topo *t)
{
	uint32_t *hs = malloc(((size_t)t->nhosts + 1) * sizeof(uint32_t)), h;

	if (!hs)
		return NULL;
	for (h = 0; h < t->nhosts; h++) {
		uint32_t sn = ftsw_host_switch(t, t->hosts[h]);

		hs[h] = sn == FTSW_NONE ? t->nswitches : t->nodes[sn].index;
	}
	return hs;
}

static int lash_layers(struct lash *a, struct ftsw_routing *r,
		       struct ftsw_err *err)
{
	const struct ftsw_topo *t = a->t;
	uint32_t ns = t->nswitches, nh = t->nhosts, s, h, h2;
	uint32_t *ch = malloc(((size_t)ns + 1) * (1u << r->lmc) * sizeof(uint32_t));
	uint8_t *vl = malloc((size_t)(ns + 1) * nh + 1);
	uint32_t *hs = host_switches(t);
	int rc = -1;

	r->sl = malloc((size_t)nh * nh + 1);
	if (!ch || !vl || !hs || !r->sl) {
		ftsw_err_errno(err, ENOMEM, "lash: out of memory");
		goto out;
	}
	memset(vl, 0, (size_t)(ns + 1) * nh + 1);
	for (s = 0; s < ns; s++)
		for (h = 0; h < nh; h++)
			if (hs[h] != s &&
			    place(a, r, s, h, ch, &vl[(size_t)s * nh + h], err))
				goto out;
	for (h = 0; h < nh; h++)
		for (h2 = 0; h2 < nh; h2++)
			r->sl[(size_t)h * nh + h2] = vl[(size_t)hs[h] * nh + h2];
	r->nvls = (uint8_t)(a->nly ? a->nly : 1);
	rc = 0;
out:
	free(ch);
	free(vl);
	free(hs);
	return rc;
}

int ftsw_route_lash(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	struct lash a = { .t = t, .nch = t->nports + 1 };
	int rc = -1;

	a.maxly = o->max_vls ? o->max_vls : 8;
	if (a.maxly > 15) {
		ftsw_err_set(err, "lash: --max-vls %u: at most 15 data VLs",
			     a.maxly);
		return -1;
	}
	if (o->lmc > 7 || ftsw_hopsel(t, r, NULL, o->threads, err))
		return -1;
	if (!o->no_switch_lids &&
	    ftsw_route_switch_lids(t, r, NULL, o->threads, err))
		return -1;
	a.ly = calloc(a.maxly, sizeof(struct layer));
	a.mark = calloc(a.nch, 1);
	a.stk = malloc(a.nch * sizeof(uint32_t));
	a.fw = malloc(a.nch * sizeof(uint32_t));
	a.bw = malloc(a.nch * sizeof(uint32_t));
	a.pos = malloc(2 * (size_t)a.nch * sizeof(uint32_t));
	if (!a.ly || !a.mark || !a.stk || !a.fw || !a.bw || !a.pos) {
		ftsw_err_errno(err, ENOMEM, "lash: out of memory");
		goto out;
	}
	if (lash_layers(&a, r, err))
		goto out;
	snprintf(r->info, sizeof(r->info), "lash: %u virtual layer%s",
		 a.nly ? a.nly : 1, a.nly > 1 ? "s" : "");
	rc = 0;
out:
	lash_free(&a);
	return rc;
}
