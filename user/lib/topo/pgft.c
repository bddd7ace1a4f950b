// SPDX-License-Identifier: GPL-2.0
/*
 * Fat-tree generators: PGFT (Zahavi), XGFT (Mahapatra et al., all p = 1),
 * RLFT (a PGFT meeting Zahavi's three RLFT restrictions), k-ary n-trees and
 * FT(m, n) (Yuan et al.), all built by one PGFT constructor.
 *
 * Nodes are tuples (l, a_h..a_1): digit a_i < m_i for i > l (which subtree)
 * and a_i < w_i for i <= l (which switch within it). A level-l node and a
 * level-(l+1) node are linked iff their digits agree except digit l+1; the
 * k-th of the p_{l+1} parallel links joins up-port q = b_{l+1} + k w_{l+1} of
 * the lower node and down-port r = a_{l+1} + k m_{l+1} of the upper one.
 *
 * Numbering (Mahapatra's XGFT labelling, which the recursive construction
 * gives): node ids are hosts first, then switches level by level; within a
 * level the index is the subtree digits a_h..a_{l+1} (a_h most significant)
 * followed by the switch digits a_1..a_l (a_1 most significant). Ports are
 * numbered up-ports first: InfiniBand port q + 1 for up-port q, then
 * w_{l+1} p_{l+1} + r + 1 for down-port r (top switches: r + 1).
 *
 * GUIDs: 0x6674 ("ft"), level, index (FTSW_GEN_GUID); ordering switches by
 * GUID within a level is index order, so a node's parents sorted by GUID
 * come in the order of their digit b_{l+1}, as D-Mod-K numbers them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topology.h"

uint64_t ftsw_pgft_level_size(const struct ftsw_pgft *g, unsigned l)
{
	uint64_t n = 1;
	unsigned i;

	for (i = 1; i <= g->h; i++)
		n *= i > l ? g->m[i - 1] : g->w[i - 1];
	return n;
}

void ftsw_pgft_format(const struct ftsw_pgft *g, char *buf, size_t sz)
{
	size_t o = 0;
	unsigned i, k;
	const unsigned *v[3] = { g->m, g->w, g->p };

	o += snprintf(buf + o, sz - o, "PGFT(%u", g->h);
	for (k = 0; k < 3 && o < sz; k++)
		for (i = 0; i < g->h && o < sz; i++)
			o += snprintf(buf + o, sz - o, "%s%u", i ? "," : ";",
				      v[k][i]);
	if (o < sz)
		snprintf(buf + o, sz - o, ")");
}

static int parse_list(const char **s, unsigned *v, unsigned max, unsigned *n,
		      const char *what, const char *spec, struct ftsw_err *err)
{
	*n = 0;
	for (;;) {
		char *e;
		unsigned long x;

		while (isspace((unsigned char)**s))
			(*s)++;
		x = strtoul(*s, &e, 10);
		if (e == *s || x == 0 || x > 65535) {
			ftsw_err_set(err, "topology spec '%s': bad %s value at '%s'"
				     " (positive integers expected)", spec, what, *s);
			return -EINVAL;
		}
		if (*n == max) {
			ftsw_err_set(err, "topology spec '%s': too many %s values "
				     "(at most %u)", spec, what, max);
			return -EINVAL;
		}
		v[(*n)++] = (unsigned)x;
		*s = e;
		while (isspace((unsigned char)**s))
			(*s)++;
		if (**s != ',')
			return 0;
		(*s)++;
	}
}

int ftsw_pgft_parse(const char *spec, struct ftsw_pgft *g, char *kind,
		    size_t kindsz, struct ftsw_err *err)
{
	const char *s = spec;
	unsigned vals[4][FTSW_PGFT_MAX_H + 1], cnt[4] = { 0 }, nl = 0, i;
	char k[16];
	size_t n = 0;
	static const char *what[4] = { "h", "m", "w", "p" };

	while (isalpha((unsigned char)*s) && n < sizeof(k) - 1)
		k[n++] = (char)tolower((unsigned char)*s++);
	k[n] = 0;
	if (!n || (strcmp(k, "pgft") && strcmp(k, "xgft") && strcmp(k, "rlft") &&
		   strcmp(k, "kary") && strcmp(k, "ftmn") && strcmp(k, "ft"))) {
		ftsw_err_set(err, "topology spec '%s': unknown kind (pgft, xgft, "
			     "rlft, kary, ftmn, torus, mesh, kautz, random, "
			     "dragonfly, deimos)", spec);
		return -EINVAL;
	}
	if (!strcmp(k, "ft"))
		strcpy(k, "ftmn");
	if (*s != ':' && *s != '(') {
		ftsw_err_set(err, "topology spec '%s': expected ':' or '(' after "
			     "'%s'", spec, k);
		return -EINVAL;
	}
	s++;
	memset(g, 0, sizeof(*g));
	if (!strcmp(k, "kary") || !strcmp(k, "ftmn")) {
		unsigned a[2], na;

		if (parse_list(&s, a, 2, &na, "parameter", spec, err))
			return -EINVAL;
		if (na != 2) {
			ftsw_err_set(err, "topology spec '%s': two parameters "
				     "expected", spec);
			return -EINVAL;
		}
		if (a[1] < 1 || a[1] > FTSW_PGFT_MAX_H) {
			ftsw_err_set(err, "topology spec '%s': n must be 1..%d",
				     spec, FTSW_PGFT_MAX_H);
			return -EINVAL;
		}
		g->h = a[1];
		if (!strcmp(k, "kary")) {
			/* k-ary n-tree: XGFT(n; k..k; 1, k..k) */
			for (i = 0; i < g->h; i++) {
				g->m[i] = a[0];
				g->w[i] = i ? a[0] : 1;
				g->p[i] = 1;
			}
		} else {
			/* FT(m, n): PGFT(n; m/2..m/2, m; 1, m/2..m/2; 1..1) */
			if (a[0] % 2 || a[0] < 2) {
				ftsw_err_set(err, "topology spec '%s': m must be a "
					     "positive multiple of 2", spec);
				return -EINVAL;
			}
			for (i = 0; i < g->h; i++) {
				g->m[i] = i == g->h - 1 ? a[0] : a[0] / 2;
				g->w[i] = i ? a[0] / 2 : 1;
				g->p[i] = 1;
			}
		}
	} else {
		for (nl = 0; nl < 4; nl++) {
			if (parse_list(&s, vals[nl], FTSW_PGFT_MAX_H, &cnt[nl],
				       what[nl], spec, err))
				return -EINVAL;
			if (*s != ';')
				break;
			s++;
		}
		if (nl < 2 || (nl < 3 && strcmp(k, "xgft"))) {
			ftsw_err_set(err, "topology spec '%s': expected "
				     "H;M1,..;W1,..%s", spec,
				     strcmp(k, "xgft") ? ";P1,.." : "");
			return -EINVAL;
		}
		if (cnt[0] != 1 || vals[0][0] > FTSW_PGFT_MAX_H) {
			ftsw_err_set(err, "topology spec '%s': h must be one number "
				     "1..%d", spec, FTSW_PGFT_MAX_H);
			return -EINVAL;
		}
		g->h = vals[0][0];
		for (i = 1; i <= (nl < 3 ? 2u : 3u); i++)
			if (cnt[i] != g->h) {
				ftsw_err_set(err, "topology spec '%s': %u %s values "
					     "for h = %u", spec, cnt[i], what[i],
					     g->h);
				return -EINVAL;
			}
		if (!strcmp(k, "xgft") && nl >= 3) {
			for (i = 0; i < g->h; i++)
				if (vals[3][i] != 1) {
					ftsw_err_set(err, "topology spec '%s': an "
						     "XGFT has all p = 1", spec);
					return -EINVAL;
				}
		}
		for (i = 0; i < g->h; i++) {
			g->m[i] = vals[1][i];
			g->w[i] = vals[2][i];
			g->p[i] = nl >= 3 ? vals[3][i] : 1;
		}
	}
	while (isspace((unsigned char)*s) || *s == ')')
		s++;
	if (*s) {
		ftsw_err_set(err, "topology spec '%s': trailing '%s'", spec, s);
		return -EINVAL;
	}
	if (kind)
		snprintf(kind, kindsz, "%s", k);
	return 0;
}

int ftsw_pgft_check_rlft(const struct ftsw_pgft *g, struct ftsw_err *err)
{
	unsigned l, ports0 = 0;

	if (g->w[0] != 1 || g->p[0] != 1) {
		ftsw_err_set(err, "not an RLFT: hosts need a single cable, "
			     "w1 = p1 = 1 (have w1 = %u, p1 = %u)", g->w[0], g->p[0]);
		return -1;
	}
	for (l = 1; l < g->h; l++)
		if (g->m[l - 1] * g->p[l - 1] != g->w[l] * g->p[l]) {
			ftsw_err_set(err, "not an RLFT: constant bisection needs "
				     "m%u*p%u = w%u*p%u (%u != %u)", l, l, l + 1,
				     l + 1, g->m[l - 1] * g->p[l - 1],
				     g->w[l] * g->p[l]);
			return -1;
		}
	for (l = 1; l <= g->h; l++) {
		unsigned ports = g->m[l - 1] * g->p[l - 1] +
				 (l < g->h ? g->w[l] * g->p[l] : 0);

		if (l == 1)
			ports0 = ports;
		else if (ports != ports0) {
			ftsw_err_set(err, "not an RLFT: all switches need the same "
				     "port count (level 1 has %u, level %u has %u)",
				     ports0, l, ports);
			return -1;
		}
	}
	return 0;
}

/* Level sizes, first node ids and port counts of a PGFT to generate. */
struct pgft_gen {
	const struct ftsw_pgft *g;
	unsigned h;
	uint64_t size[FTSW_PGFT_MAX_H + 1], base[FTSW_PGFT_MAX_H + 2];
	uint64_t wprod[FTSW_PGFT_MAX_H + 1];
	unsigned up[FTSW_PGFT_MAX_H + 1], down[FTSW_PGFT_MAX_H + 1];
	uint64_t total, nports;
};

/* Refuse a fabric beyond the generator's limit, naming its full size. */
static void pgft_too_big(const struct ftsw_pgft *g, struct ftsw_err *err)
{
	double dn = 0, dp = 0;
	unsigned l, i, h = g->h;

	for (l = 0; l <= h; l++) {
		double n = 1;

		for (i = 1; i <= h; i++)
			n *= i > l ? g->m[i - 1] : g->w[i - 1];
		dn += n;
		dp += n * ((l < h ? g->w[l] * g->p[l] : 0) +
			   (l ? g->m[l - 1] * g->p[l - 1] : 0));
	}
	ftsw_err_errno(err, ERANGE,
		       "PGFT: %.0f nodes and %.0f ports, beyond the "
		       "generator's limit of %u nodes and %u ports (about 1 GB)",
		       dn, dp, FTSW_GEN_MAX_NODES, FTSW_GEN_MAX_PORTS);
}

/* Check the parameters and size every level, before any allocation. */
static int pgft_plan(struct pgft_gen *pg, struct ftsw_err *err)
{
	const struct ftsw_pgft *g = pg->g;
	unsigned l, h = g->h;

	if (h < 1 || h > FTSW_PGFT_MAX_H) {
		ftsw_err_set(err, "PGFT: h = %u (1..%d supported)", h,
			     FTSW_PGFT_MAX_H);
		return -1;
	}
	if (g->w[0] != 1 || g->p[0] != 1) {
		ftsw_err_set(err, "PGFT: hosts with several ports (w1 = %u, "
			     "p1 = %u) are not supported; use w1 = p1 = 1",
			     g->w[0], g->p[0]);
		return -1;
	}
	pg->h = h;
	for (l = 0; l <= h; l++) {
		pg->up[l] = l < h ? g->w[l] * g->p[l] : 0;
		pg->down[l] = l ? g->m[l - 1] * g->p[l - 1] : 0;
		if (pg->up[l] + pg->down[l] > FTSW_TOPO_MAX_PORTS ||
		    pg->up[l] + pg->down[l] == 0) {
			ftsw_err_set(err, "PGFT: level %u nodes need %u ports "
				     "(1..%d supported)", l,
				     pg->up[l] + pg->down[l], FTSW_TOPO_MAX_PORTS);
			return -1;
		}
		pg->size[l] = ftsw_pgft_level_size(g, l);
		pg->base[l] = pg->total;
		pg->total += pg->size[l];
		pg->nports += pg->size[l] * (pg->up[l] + pg->down[l]);
		if (pg->total > FTSW_GEN_MAX_NODES ||
		    pg->nports > FTSW_GEN_MAX_PORTS) {
			pgft_too_big(g, err);
			return -1;
		}
	}
	pg->wprod[0] = 1;
	for (l = 1; l <= h; l++)
		pg->wprod[l] = pg->wprod[l - 1] * g->w[l - 1];
	return 0;
}

int ftsw_pgft_check_size(const struct ftsw_pgft *g, struct ftsw_err *err)
{
	struct pgft_gen pg = { .g = g };

	return pgft_plan(&pg, err) ? -ERANGE : 0;
}

/* Node x of level l: its name, GUID and tuple digits (w-part low). */
static int pgft_add_node(const struct pgft_gen *pg, struct ftsw_topo *t,
			 unsigned l, uint64_t x, struct ftsw_err *err)
{
	const struct ftsw_pgft *g = pg->g;
	unsigned h = pg->h, i;
	uint64_t y = x % pg->wprod[l], z = x / pg->wprod[l];
	char desc[96];
	uint16_t *d;
	uint32_t id;

	if (l == 0)
		snprintf(desc, sizeof(desc), "H%llu", (unsigned long long)x);
	else
		snprintf(desc, sizeof(desc), "S%u-%llu", l,
			 (unsigned long long)x);
	id = ftsw_topo_add_node(t, l ? FTSW_SWITCH : FTSW_HOST,
				pg->up[l] + pg->down[l], FTSW_GEN_GUID(l, x),
				desc, err);
	if (id == FTSW_NONE)
		return -1;
	t->nodes[id].level = (int8_t)l;
	/* digits from the index: w-part low, a_1 most significant */
	d = &t->digits[(size_t)id * h];
	for (i = l; i >= 1; i--) {
		d[i - 1] = (uint16_t)(y % g->w[i - 1]);
		y /= g->w[i - 1];
	}
	for (i = l + 1; i <= h; i++) {
		d[i - 1] = (uint16_t)(z % g->m[i - 1]);
		z /= g->m[i - 1];
	}
	return 0;
}

/*
 * Cable node id (level l) to its parents: for each choice b of digit l+1
 * the parent whose index is the subtree digits a_h..a_{l+2} then the
 * switch digits a_1..a_{l+1}, by p_{l+1} parallel links.
 */
static int pgft_link_up(const struct pgft_gen *pg, struct ftsw_topo *t,
			unsigned l, uint32_t id, struct ftsw_err *err)
{
	const struct ftsw_pgft *g = pg->g;
	unsigned h = pg->h, wl = g->w[l], pl = g->p[l], ml = g->m[l];
	const uint16_t *a = &t->digits[(size_t)id * h];
	unsigned dg[FTSW_PGFT_MAX_H], b, k, i;

	for (i = 0; i < h; i++)
		dg[i] = a[i];
	for (b = 0; b < wl; b++) {
		uint64_t zz = 0, yy = 0, pi;

		dg[l] = b;	/* digit l+1 */
		for (i = h; i > l + 1; i--)
			zz = zz * g->m[i - 1] + dg[i - 1];
		for (i = 1; i <= l + 1; i++)
			yy = yy * g->w[i - 1] + dg[i - 1];
		pi = zz * pg->wprod[l + 1] + yy;
		for (k = 0; k < pl; k++) {
			unsigned q = b + k * wl, r = a[l] + k * ml;

			if (ftsw_topo_connect(t, id, q + 1,
					      (uint32_t)(pg->base[l + 1] + pi),
					      pg->up[l + 1] + r + 1, err))
				return -1;
		}
	}
	return 0;
}

struct ftsw_topo *ftsw_topo_gen_pgft(const struct ftsw_pgft *g,
				     struct ftsw_err *err)
{
	struct pgft_gen pg = { .g = g };
	struct ftsw_topo *t;
	unsigned l;
	uint64_t x;

	if (pgft_plan(&pg, err))
		return NULL;
	t = ftsw_topo_new();
	if (!t)
		goto oom;
	t->nodes = malloc(pg.total * sizeof(*t->nodes));
	t->ports = malloc(pg.nports * sizeof(*t->ports));
	t->digits = malloc(pg.total * pg.h * sizeof(uint16_t));
	if (!t->nodes || !t->ports || !t->digits)
		goto oom;
	t->cap_nodes = (uint32_t)pg.total;
	t->cap_ports = (uint32_t)pg.nports;
	for (l = 0; l <= pg.h; l++)
		for (x = 0; x < pg.size[l]; x++)
			if (pgft_add_node(&pg, t, l, x, err))
				goto fail;
	/* links: every node below the top to its parents */
	for (l = 0; l < pg.h; l++)
		for (x = 0; x < pg.size[l]; x++)
			if (pgft_link_up(&pg, t, l, (uint32_t)(pg.base[l] + x),
					 err))
				goto fail;
	if (ftsw_topo_finish(t, err))
		goto fail;
	t->is_pgft = true;
	t->pgft = *g;
	ftsw_pgft_format(g, t->spec, sizeof(t->spec));
	return t;
oom:
	ftsw_err_errno(err, ENOMEM, "PGFT: out of memory");
fail:
	ftsw_topo_free(t);
	return NULL;
}

int ftsw_topo_spec_check(const char *spec, struct ftsw_err *err)
{
	struct ftsw_pgft g;
	char kind[16];

	if (ftsw_graph_kind(spec))
		return ftsw_graph_check(spec, err);
	if (strchr(spec, '@'))
		return ftsw_endpoints_check(spec, err);
	if (ftsw_pgft_parse(spec, &g, kind, sizeof(kind), err) ||
	    (!strcmp(kind, "rlft") && ftsw_pgft_check_rlft(&g, err)))
		return -EINVAL;
	return ftsw_pgft_check_size(&g, err);
}

struct ftsw_topo *ftsw_topo_gen(const char *spec, struct ftsw_err *err)
{
	struct ftsw_pgft g;
	char kind[16];
	struct ftsw_topo *t;

	if (ftsw_graph_kind(spec))
		return ftsw_topo_gen_graph(spec, err);
	if (strchr(spec, '@'))
		return ftsw_topo_gen_endpoints(spec, err);
	if (ftsw_pgft_parse(spec, &g, kind, sizeof(kind), err))
		return NULL;
	if (!strcmp(kind, "rlft") && ftsw_pgft_check_rlft(&g, err))
		return NULL;
	t = ftsw_topo_gen_pgft(&g, err);
	return t;
}
