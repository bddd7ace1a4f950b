// SPDX-License-Identifier: GPL-2.0
/*
 * The switch graphs as families (graphs.c generates them): a spec's kind
 * and size checked before anything is built, the generator dispatch, a
 * net file recognised as the family its ftsw-topology line names, the
 * family and its parameters in words (topo show), and endpoints= specs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topo/graphs.h"

/* ------------------------------------------------------------ dispatch */

int ftsw_graph_kind(const char *spec)
{
	static const char *const kinds[] = { "torus", "mesh", "kautz",
					     "random", "dragonfly", "deimos" };
	size_t i, n = 0;

	while (isalpha((unsigned char)spec[n]))
		n++;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (n == strlen(kinds[i]) && !strncasecmp(spec, kinds[i], n) &&
		    (spec[n] == ':' || !spec[n]))
			return 1;
	return 0;
}

static struct ftsw_topo *gen_random_spec(const char *spec,
					 struct ftsw_err *err)
{
	struct ftsw_gspec s;

	if (ftsw_gspec_parse(spec, &s, err))
		return NULL;
	if (s.nval != 5 || s.nopt) {
		ftsw_err_set(err, "topology spec '%s': random:SWITCHES,PORTS,"
			     "HOSTS,LINKS,SEED expected", spec);
		return NULL;
	}
	return ftsw_topo_gen_random(s.val[0], s.val[1], s.val[2], s.val[3],
				    s.val[4], err);
}

struct ftsw_topo *ftsw_topo_gen_graph(const char *spec, struct ftsw_err *err)
{
	struct ftsw_gspec s;

	if (ftsw_gspec_parse(spec, &s, err))
		return NULL;
	if (!strcmp(s.kind, "torus") || !strcmp(s.kind, "mesh")) {
		struct ftsw_grid g;

		return ftsw_grid_parse(spec, &g, err) ? NULL :
		       ftsw_topo_gen_grid(&g, spec, err);
	}
	if (!strcmp(s.kind, "kautz")) {
		struct ftsw_kautz k;

		return ftsw_kautz_parse(spec, &k, err) ? NULL :
		       ftsw_topo_gen_kautz(&k, spec, err);
	}
	if (!strcmp(s.kind, "dragonfly")) {
		struct ftsw_dragonfly df;

		return ftsw_dragonfly_parse(spec, &df, err) ? NULL :
		       ftsw_topo_gen_dragonfly(&df, spec, err);
	}
	if (!strcmp(s.kind, "random"))
		return gen_random_spec(spec, err);
	if (!strcmp(s.kind, "deimos")) {
		if (s.nval || s.nopt) {
			ftsw_err_set(err, "topology spec '%s': deimos takes no "
				     "parameters", spec);
			return NULL;
		}
		return ftsw_topo_gen_deimos(err);
	}
	ftsw_err_set(err, "topology spec '%s': unknown kind", spec);
	return NULL;
}

/* ------------------------------------------- sizes, net files, words */

/*
 * Switches, hosts and ports of the fabric a graph spec generates, from
 * the spec alone (nothing is generated).
 */
static int graph_size(const char *spec, uint64_t *nsw, uint64_t *nhosts,
		      uint64_t *nports, struct ftsw_err *err)
{
	struct ftsw_gspec s;

	if (ftsw_gspec_parse(spec, &s, err))
		return -EINVAL;
	if (!strcmp(s.kind, "torus") || !strcmp(s.kind, "mesh")) {
		struct ftsw_grid g;

		if (ftsw_grid_parse(spec, &g, err))
			return -EINVAL;
		*nsw = g.nsw;
		*nhosts = (uint64_t)g.nsw * g.hosts;
		*nports = (uint64_t)g.nsw * g.ports;
	} else if (!strcmp(s.kind, "kautz")) {
		struct ftsw_kautz k;

		if (ftsw_kautz_parse(spec, &k, err))
			return -EINVAL;
		*nsw = k.nsw;
		*nhosts = k.endpoints;
		*nports = (uint64_t)k.nsw * k.ports;
	} else if (!strcmp(s.kind, "dragonfly")) {
		struct ftsw_dragonfly df;

		if (ftsw_dragonfly_parse(spec, &df, err))
			return -EINVAL;
		*nsw = (uint64_t)df.a * df.g;
		*nhosts = *nsw * df.p;
		*nports = *nsw * df.ports;
	} else if (!strcmp(s.kind, "random")) {
		if (s.nval != 5 || s.nopt) {
			ftsw_err_set(err, "topology spec '%s': %s expected",
				     spec, ftsw_graph_usage("random"));
			return -EINVAL;
		}
		*nsw = s.val[0];
		*nhosts = (uint64_t)s.val[0] * s.val[2];
		*nports = (uint64_t)s.val[0] * s.val[1];
	} else if (!strcmp(s.kind, "deimos")) {
		if (s.nval || s.nopt) {
			ftsw_err_set(err, "topology spec '%s': deimos takes no "
				     "parameters", spec);
			return -EINVAL;
		}
		*nsw = 108;
		*nhosts = 724;
		*nports = 108 * 24;
	} else {
		ftsw_err_set(err, "topology spec '%s': unknown kind", spec);
		return -EINVAL;
	}
	*nports += *nhosts;
	return 0;
}

int ftsw_graph_check(const char *spec, struct ftsw_err *err)
{
	uint64_t nsw, nhosts, nports;
	char what[160];

	if (graph_size(spec, &nsw, &nhosts, &nports, err))
		return -EINVAL;
	snprintf(what, sizeof(what), "topology spec '%.128s'", spec);
	return ftsw_gen_limits(what, nsw, nhosts, nports, err);
}

int ftsw_topo_match_graph(struct ftsw_topo *t, const char *spec,
			  struct ftsw_err *err)
{
	uint64_t nodes, nsw, nhosts, nports;
	struct ftsw_topo_diff d;
	struct ftsw_topo *g;
	uint32_t i;
	int rc = -EINVAL;

	if (!ftsw_graph_kind(spec) ||
	    graph_size(spec, &nsw, &nhosts, &nports, err))
		return -EINVAL;
	nodes = nsw + nhosts;
	if (nodes != t->nnodes) {
		ftsw_err_set(err, "'%s' has %llu nodes, the fabric %u", spec,
			     (unsigned long long)nodes, t->nnodes);
		return -EINVAL;
	}
	g = ftsw_topo_gen_graph(spec, err);
	if (!g)
		return -EINVAL;
	/* the same nodes in the same order (coordinates are indices) */
	if (g->nswitches != t->nswitches || g->nhosts != t->nhosts)
		goto differ;
	for (i = 0; i < t->nswitches; i++)
		if (g->nodes[g->switches[i]].guid !=
		    t->nodes[t->switches[i]].guid)
			goto differ;
	for (i = 0; i < t->nhosts; i++)
		if (g->nodes[g->hosts[i]].guid != t->nodes[t->hosts[i]].guid)
			goto differ;
	if (ftsw_topo_diff(g, t, 0, &d, err))
		goto out;
	nodes = d.ndeltas;
	ftsw_topo_diff_free(&d);
	if (nodes)
		goto differ;
	snprintf(t->spec, sizeof(t->spec), "%s", g->spec);
	t->degraded = false;
	rc = 0;
	goto out;
differ:
	ftsw_err_set(err, "the fabric is not the one '%s' generates", spec);
out:
	ftsw_topo_free(g);
	return rc;
}

static const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

/* The words of a graph family's spec, with its parameters. */
static void graph_words(const char *spec, char *buf, size_t sz)
{
	struct ftsw_gspec s;
	struct ftsw_err e;
	size_t n = 0;
	unsigned d;

	buf[0] = 0;
	if (ftsw_gspec_parse(spec, &s, &e))
		return;
	if (!strcmp(s.kind, "torus") || !strcmp(s.kind, "mesh")) {
		struct ftsw_grid g;

		if (ftsw_grid_parse(spec, &g, &e))
			return;
		n = (size_t)snprintf(buf, sz, "%s ", g.torus ? "torus" : "mesh");
		for (d = 0; d < g.n && n < sz; d++)
			n += (size_t)snprintf(buf + n, sz - n, "%s%u",
					      d ? " x " : "", g.k[d]);
		if (n < sz)
			snprintf(buf + n, sz - n, " (%s, %u dimension%s), %u "
				 "host%s and %u ports per switch",
				 g.torus ? "k-ary n-cube" : "grid without "
				 "wrap-around links", g.n, plural(g.n), g.hosts,
				 plural(g.hosts), g.ports);
	} else if (!strcmp(s.kind, "kautz")) {
		struct ftsw_kautz k;

		if (!ftsw_kautz_parse(spec, &k, &e))
			snprintf(buf, sz, "Kautz(%u, %u) switch graph: %u "
				 "switches of %u ports, %u endpoints",
				 k.b, k.n, k.nsw, k.ports, k.endpoints);
	} else if (!strcmp(s.kind, "dragonfly")) {
		struct ftsw_dragonfly df;

		if (!ftsw_dragonfly_parse(spec, &df, &e))
			snprintf(buf, sz, "dragonfly: %u groups of %u routers, "
				 "%u host%s and %u global link%s per router",
				 df.g, df.a, df.p, plural(df.p), df.h,
				 plural(df.h));
	} else if (!strcmp(s.kind, "random") && s.nval == 5) {
		snprintf(buf, sz, "random switch graph: %u switches of %u "
			 "ports, %u host%s each, %u links, seed %u", s.val[0],
			 s.val[1], s.val[2], plural(s.val[2]), s.val[3],
			 s.val[4]);
	} else if (!strcmp(s.kind, "deimos")) {
		snprintf(buf, sz, "the Deimos cluster (Domke et al. 2011): 3 "
			 "chassis of 36 24-port chips, 30 links between the "
			 "chassis, 724 hosts");
	}
}

/* The other names of a PGFT: XGFT, k-ary n-tree, FT(m, n). */
static void pgft_words(const struct ftsw_pgft *g, char *buf, size_t sz)
{
	unsigned i, h = g->h;
	bool xgft = true, kary = true, ftmn = true;
	size_t n;

	ftsw_pgft_format(g, buf, sz);
	for (i = 0; i < h; i++) {
		xgft &= g->p[i] == 1;
		kary &= g->m[i] == g->m[0] && g->w[i] == (i ? g->m[0] : 1u);
		ftmn &= g->m[i] == (i + 1 < h ? g->m[h - 1] / 2 : g->m[h - 1]) &&
			g->w[i] == (i ? g->m[h - 1] / 2 : 1u);
	}
	ftmn &= g->m[h - 1] % 2 == 0 && (h == 1 || g->m[h - 1] >= 2);
	n = strlen(buf);
	if (xgft && n < sz) {
		n += (size_t)snprintf(buf + n, sz - n, " = XGFT(%u", h);
		for (i = 0; i < h && n < sz; i++)
			n += (size_t)snprintf(buf + n, sz - n, "%s%u",
					      i ? "," : ";", g->m[i]);
		for (i = 0; i < h && n < sz; i++)
			n += (size_t)snprintf(buf + n, sz - n, "%s%u",
					      i ? "," : ";", g->w[i]);
		if (n < sz)
			n += (size_t)snprintf(buf + n, sz - n, ")");
	}
	if (xgft && kary && n < sz)
		n += (size_t)snprintf(buf + n, sz - n, ", the %u-ary %u-tree",
				      g->m[0], h);
	if (xgft && ftmn && n < sz)
		snprintf(buf + n, sz - n, ", FT(%u, %u) (the %u-port %u-tree)",
			 g->m[h - 1], h, g->m[h - 1], h);
}

const char *ftsw_topo_family(const struct ftsw_topo *t, char *desc,
			     size_t sz)
{
	static const char *const kinds[] = { "torus", "mesh", "kautz",
					     "random", "dragonfly", "deimos" };
	struct ftsw_gspec s;
	struct ftsw_err e;
	size_t i, n;

	desc[0] = 0;
	if (t->is_pgft) {
		pgft_words(&t->pgft, desc, sz);
		return "pgft";
	}
	if (!t->spec[0] || !ftsw_graph_kind(t->spec) ||
	    ftsw_gspec_parse(t->spec, &s, &e))
		return "";
	graph_words(t->spec, desc, sz);
	n = strlen(desc);
	if (t->degraded && n < sz)
		snprintf(desc + n, sz - n, "; degraded (links, switches or "
			 "hosts missing)");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(s.kind, kinds[i]))
			return kinds[i];
	return "";
}

/* --------------------------------------- fat-trees as switch topologies */

/*
 * "SPEC@E" (paper 001 Table I): the fat-tree SPEC as a switch topology
 * with E endpoints spread evenly over its leaf switches. For kary:/ftmn:
 * the leaves are the tree's level-1 switches; for pgft:/xgft:/rlft: the
 * tree's level-0 nodes become the leaf switches (a level is added below).
 * Built as the PGFT with ceil(E / leaves) hosts per leaf, of which leaf i
 * keeps its first E / leaves (+ 1 for i < E mod leaves): a partial PGFT,
 * named by the complete PGFT's spec.
 */
/* SPEC@E into the PGFT g2 (m[0]: hosts per leaf), E and the leaves. */
static int endpoints_parse(const char *spec, struct ftsw_pgft *g2,
			   uint64_t *ne, uint64_t *leaves, struct ftsw_err *err)
{
	const char *at = strrchr(spec, '@');
	char base[128], kind[16], *e;
	struct ftsw_pgft g;
	unsigned long long x;
	unsigned l;

	if (!at || (size_t)(at - spec) >= sizeof(base)) {
		ftsw_err_set(err, "topology spec '%s': SPEC@ENDPOINTS expected",
			     spec);
		return -EINVAL;
	}
	memcpy(base, spec, (size_t)(at - spec));
	base[at - spec] = 0;
	errno = 0;
	x = strtoull(at + 1, &e, 10);
	if (!isdigit((unsigned char)at[1]) || *e || errno || !x ||
	    x > (1u << 22)) {
		ftsw_err_set(err, "topology spec '%s': endpoints after '@' must "
			     "be 1..%u", spec, 1u << 22);
		return -EINVAL;
	}
	*ne = x;
	if (ftsw_pgft_parse(base, &g, kind, sizeof(kind), err))
		return -EINVAL;
	*g2 = g;
	if (strcmp(kind, "kary") && strcmp(kind, "ftmn")) {
		if (g.h >= FTSW_PGFT_MAX_H) {
			ftsw_err_set(err, "topology spec '%s': %u levels of "
				     "switches is the most", spec,
				     FTSW_PGFT_MAX_H - 1);
			return -EINVAL;
		}
		g2->h = g.h + 1;
		for (l = 0; l < g.h; l++) {
			g2->m[l + 1] = g.m[l];
			g2->w[l + 1] = g.w[l];
			g2->p[l + 1] = g.p[l];
		}
		g2->w[0] = g2->p[0] = 1;
	}
	g2->m[0] = 1;
	*leaves = ftsw_pgft_level_size(g2, 1);
	if (!*leaves || (*ne + *leaves - 1) / *leaves > 65535) {
		ftsw_err_set(err, "topology spec '%s': %llu endpoints on %llu "
			     "leaf switches", spec, (unsigned long long)*ne,
			     (unsigned long long)*leaves);
		return -EINVAL;
	}
	g2->m[0] = (unsigned)((*ne + *leaves - 1) / *leaves);
	return 0;
}

int ftsw_endpoints_check(const char *spec, struct ftsw_err *err)
{
	uint64_t ne, leaves;
	struct ftsw_pgft g2;

	if (endpoints_parse(spec, &g2, &ne, &leaves, err))
		return -EINVAL;
	return ftsw_pgft_check_size(&g2, err);
}

struct ftsw_topo *ftsw_topo_gen_endpoints(const char *spec,
					  struct ftsw_err *err)
{
	struct ftsw_pgft g2;
	struct ftsw_topo *t = NULL, *o = NULL;
	uint64_t ne, leaves, x;
	bool *keep = NULL;

	if (endpoints_parse(spec, &g2, &ne, &leaves, err))
		return NULL;
	t = ftsw_topo_gen_pgft(&g2, err);
	if (!t)
		return NULL;
	keep = malloc(t->nnodes * sizeof(bool));
	if (!keep) {
		ftsw_err_errno(err, ENOMEM,
			       "topology spec '%s': out of memory", spec);
		goto out;
	}
	for (x = 0; x < t->nnodes; x++)
		keep[x] = true;
	/* hosts are node ids 0..nhosts-1, leaf by leaf, m[0] per leaf */
	for (x = 0; x < t->nhosts; x++) {
		uint64_t leaf = x / g2.m[0], a = x % g2.m[0];

		keep[t->hosts[x]] = a < ne / leaves + (leaf < ne % leaves);
	}
	/* the spec kept (and written to net files) is the complete PGFT's,
	 * so a reader finds the partial tree's coordinates again */
	o = ftsw_topo_subset(t, keep, err);
out:
	free(keep);
	ftsw_topo_free(t);
	return o;
}
