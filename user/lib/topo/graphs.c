// SPDX-License-Identifier: GPL-2.0
/*
 * Switch graphs beyond fat-trees, the topologies of paper 001 §V-VI
 * (Documentation/topology.md defines each): k-ary n-cubes (tori) and
 * meshes, Kautz graphs, random switch graphs (randtopo.c), dragonflies
 * and the Deimos cluster (deimos.c). Every switch carries its hosts on its
 * first ports; hosts are numbered switch by switch.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topo/graphs.h"


/* ------------------------------------------------------------ spec parser */

/* Each kind's grammar, for the messages (Documentation/topology.md). */
static const struct {
	const char *kind, *usage;
} gkinds[] = {
	{ "torus", "torus:K1,..,Kn[,hosts=H][,ports=P]" },
	{ "mesh", "mesh:K1,..,Kn[,hosts=H][,ports=P]" },
	{ "kautz", "kautz:B,N[,hosts=H|endpoints=E][,ports=P]" },
	{ "random", "random:SWITCHES,PORTS,HOSTS,LINKS,SEED" },
	{ "dragonfly", "dragonfly:A,P,H[,groups=G]" },
	{ "deimos", "deimos" },
};

const char *ftsw_graph_usage(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(gkinds) / sizeof(gkinds[0]); i++)
		if (!strcmp(kind, gkinds[i].kind))
			return gkinds[i].usage;
	return "kind:V1,..[,key=V..]";
}

int ftsw_gspec_parse(const char *spec, struct ftsw_gspec *g,
		     struct ftsw_err *err)
{
	const char *s = spec;
	size_t n = 0;

	memset(g, 0, sizeof(*g));
	while (isalpha((unsigned char)*s) && n < sizeof(g->kind) - 1)
		g->kind[n++] = (char)tolower((unsigned char)*s++);
	g->kind[n] = 0;
	if (!*s)
		return 0;
	if (*s != ':') {
		ftsw_err_set(err, "topology spec '%s': expected ':' after '%s' "
			     "(%s)", spec, g->kind, ftsw_graph_usage(g->kind));
		return -EINVAL;
	}
	s++;
	if (!*s && !strchr(ftsw_graph_usage(g->kind), ':')) {
		ftsw_err_set(err, "topology spec '%s': %s takes no parameters "
			     "(write '%s')", spec, g->kind, g->kind);
		return -EINVAL;
	}
	if (!*s) {
		ftsw_err_set(err, "topology spec '%s': nothing after ':' (%s)",
			     spec, ftsw_graph_usage(g->kind));
		return -EINVAL;
	}
	for (;;) {
		const char *at = s;
		char key[16] = "", *e;
		unsigned long long x;
		unsigned i;
		size_t k = 0;

		while (isalpha((unsigned char)*s) && k < sizeof(key) - 1)
			key[k++] = (char)tolower((unsigned char)*s++);
		key[k] = 0;
		if (k && *s != '=') {
			size_t len = strcspn(at, ",");

			ftsw_err_set(err, "topology spec '%s': '%.*s' is neither "
				     "a whole number nor a key=value option (%s)",
				     spec, (int)(len > 64 ? 64 : len), at,
				     ftsw_graph_usage(g->kind));
			return -EINVAL;
		}
		if (k)
			s++;
		if (!isdigit((unsigned char)*s)) {
			if ((!*s || *s == ',') && k)
				ftsw_err_set(err, "topology spec '%s': no value "
					     "after '%s=' (%s)", spec, key,
					     ftsw_graph_usage(g->kind));
			else if (!*s || *s == ',')
				ftsw_err_set(err, "topology spec '%s': value %u "
					     "is missing (%s)", spec, g->nval + 1,
					     ftsw_graph_usage(g->kind));
			else
				ftsw_err_set(err, "topology spec '%s': bad value "
					     "at '%.64s' (whole numbers expected: "
					     "%s)", spec, s,
					     ftsw_graph_usage(g->kind));
			return -EINVAL;
		}
		errno = 0;
		x = strtoull(s, &e, 10);
		if (errno || x > UINT32_MAX) {
			ftsw_err_set(err, "topology spec '%s': value at '%.64s' too "
				     "large", spec, s);
			return -EINVAL;
		}
		s = e;
		if (k) {
			for (i = 0; i < g->nopt; i++)
				if (!strcmp(g->okey[i], key)) {
					ftsw_err_set(err, "topology spec '%s': "
						     "option '%s' given twice",
						     spec, key);
					return -EINVAL;
				}
			if (g->nopt == FTSW_GSPEC_MAX) {
				ftsw_err_set(err, "topology spec '%s': too many "
					     "options", spec);
				return -EINVAL;
			}
			memcpy(g->okey[g->nopt], key, sizeof(key));
			g->oval[g->nopt++] = (unsigned)x;
		} else {
			if (g->nopt) {
				ftsw_err_set(err, "topology spec '%s': positional "
					     "value after a key=value option "
					     "(%s)", spec,
					     ftsw_graph_usage(g->kind));
				return -EINVAL;
			}
			if (g->nval == FTSW_GSPEC_MAX) {
				ftsw_err_set(err, "topology spec '%s': too many "
					     "values (at most %d)", spec,
					     FTSW_GSPEC_MAX);
				return -EINVAL;
			}
			g->val[g->nval++] = (unsigned)x;
		}
		if (!*s)
			return 0;
		if (*s++ != ',') {
			ftsw_err_set(err, "topology spec '%s': expected ',' at "
				     "'%.64s' (%s)", spec, s - 1,
				     ftsw_graph_usage(g->kind));
			return -EINVAL;
		}
	}
}

/*
 * Take option `key` (default dflt); every option must be taken by the
 * generator, ftsw_gspec_done() names one that was not.
 */
unsigned ftsw_gspec_opt(struct ftsw_gspec *g, const char *key, unsigned dflt,
			bool *given)
{
	unsigned i;

	if (given)
		*given = false;
	for (i = 0; i < g->nopt; i++)
		if (!strcmp(g->okey[i], key)) {
			g->taken |= 1u << i;
			if (given)
				*given = true;
			return g->oval[i];
		}
	return dflt;
}

int ftsw_gspec_done(const struct ftsw_gspec *g, const char *spec,
		    const char *known, struct ftsw_err *err)
{
	unsigned i;

	for (i = 0; i < g->nopt; i++)
		if (!(g->taken & (1u << i))) {
			ftsw_err_set(err, "topology spec '%s': unknown option "
				     "'%s' (%s takes %s)", spec, g->okey[i],
				     g->kind, known);
			return -EINVAL;
		}
	return 0;
}

/* ------------------------------------------------------------ builder */

/* The generators' size limit, checked before anything is allocated. */
int ftsw_gen_limits(const char *what, uint64_t nsw, uint64_t nhosts,
		      uint64_t nports, struct ftsw_err *err)
{
	if (nsw + nhosts <= FTSW_GEN_MAX_NODES && nports <= FTSW_GEN_MAX_PORTS)
		return 0;
	ftsw_err_errno(err, ERANGE, "%s: %llu nodes (%llu switches, %llu "
		       "hosts) and %llu ports, beyond the generators' limit of "
		       "%u nodes and %u ports (about 1 GB)", what,
		       (unsigned long long)(nsw + nhosts),
		       (unsigned long long)nsw, (unsigned long long)nhosts,
		       (unsigned long long)nports, FTSW_GEN_MAX_NODES,
		       FTSW_GEN_MAX_PORTS);
	return -ERANGE;
}

int ftsw_gbuild_begin(struct ftsw_gbuild *b, uint64_t nsw, unsigned ports,
		      uint64_t nhosts, const char *what, struct ftsw_err *err)
{
	memset(b, 0, sizeof(*b));
	if (!nsw || !ports || ports > FTSW_TOPO_MAX_PORTS) {
		ftsw_err_set(err, "%s: %llu switches of %u ports (need 1+ "
			     "switches of 1..%d ports)", what,
			     (unsigned long long)nsw, ports, FTSW_TOPO_MAX_PORTS);
		return -EINVAL;
	}
	if (ftsw_gen_limits(what, nsw, nhosts, nsw * ports + nhosts, err))
		return -ERANGE;
	b->t = ftsw_topo_new();
	b->sw = malloc(nsw * sizeof(uint32_t));
	if (!b->t || !b->sw) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		ftsw_gbuild_abort(b);
		return -ENOMEM;
	}
	b->nsw = (uint32_t)nsw;
	return 0;
}

int ftsw_gbuild_switch(struct ftsw_gbuild *b, uint32_t i, unsigned level,
		       unsigned ports, const char *desc, struct ftsw_err *err)
{
	b->sw[i] = ftsw_topo_add_node(b->t, FTSW_SWITCH, ports,
				      FTSW_GEN_GUID(level, i), desc, err);
	return b->sw[i] == FTSW_NONE ? -1 : 0;
}

/* nh hosts on switch i's ports 1..nh. */
int ftsw_gbuild_hosts(struct ftsw_gbuild *b, uint32_t i, unsigned nh,
		      struct ftsw_err *err)
{
	unsigned j;
	char desc[32];

	for (j = 0; j < nh; j++) {
		uint32_t hn;

		snprintf(desc, sizeof(desc), "H%u", b->nhosts);
		hn = ftsw_topo_add_node(b->t, FTSW_HOST, 1,
					FTSW_GEN_GUID(0, b->nhosts), desc, err);
		if (hn == FTSW_NONE ||
		    ftsw_topo_connect(b->t, b->sw[i], j + 1, hn, 1, err))
			return -1;
		b->nhosts++;
	}
	return 0;
}

struct ftsw_topo *ftsw_gbuild_end(struct ftsw_gbuild *b, const char *spec,
				  struct ftsw_err *err)
{
	struct ftsw_topo *t = b->t;

	b->t = NULL;
	free(b->sw);
	b->sw = NULL;
	if (ftsw_topo_finish(t, err)) {
		ftsw_topo_free(t);
		return NULL;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	return t;
}

void ftsw_gbuild_abort(struct ftsw_gbuild *b)
{
	ftsw_topo_free(b->t);
	free(b->sw);
	b->t = NULL;
	b->sw = NULL;
}

/* ------------------------------------------------------ tori and meshes */

int ftsw_grid_parse(const char *spec, struct ftsw_grid *g,
		    struct ftsw_err *err)
{
	struct ftsw_gspec s;
	unsigned d, links = 0;
	bool pg;

	if (ftsw_gspec_parse(spec, &s, err))
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	g->torus = !strcmp(s.kind, "torus");
	if (!s.nval || s.nval > FTSW_GRID_MAX_D) {
		ftsw_err_set(err, "topology spec '%s': 1 to %d dimension sizes "
			     "expected", spec, FTSW_GRID_MAX_D);
		return -EINVAL;
	}
	g->n = s.nval;
	g->nsw = 1;
	for (d = 0; d < g->n; d++) {
		if (s.val[d] < 1 || s.val[d] > 65535) {
			ftsw_err_set(err, "topology spec '%s': dimension %u size "
				     "%u (1..65535)", spec, d, s.val[d]);
			return -EINVAL;
		}
		g->k[d] = s.val[d];
		g->nsw *= g->k[d];
		if (g->nsw > (1u << 22)) {
			ftsw_err_set(err, "topology spec '%s': more than %u "
				     "switches", spec, 1u << 22);
			return -EINVAL;
		}
	}
	links = 2 * g->n;
	g->hosts = ftsw_gspec_opt(&s, "hosts", 1, NULL);
	g->ports = ftsw_gspec_opt(&s, "ports", g->hosts + links, &pg);
	if (ftsw_gspec_done(&s, spec, "hosts=, ports=", err))
		return -EINVAL;
	if (g->hosts + links > g->ports) {
		ftsw_err_set(err, "topology spec '%s': %u hosts and %u dimension "
			     "ports need %u ports per switch, ports=%u", spec,
			     g->hosts, links, g->hosts + links, g->ports);
		return -EINVAL;
	}
	return 0;
}

/* Neighbour of switch index i in dimension d, direction +1 / -1. */
uint32_t ftsw_grid_step(const struct ftsw_grid *g, uint32_t i, unsigned d,
			int dir)
{
	uint32_t stride = 1, c;
	unsigned e;

	for (e = 0; e < d; e++)
		stride *= g->k[e];
	c = i / stride % g->k[d];
	if (dir > 0) {
		if (c + 1 < g->k[d])
			return i + stride;
		/* wrap only on tori of 3+ (a ring of 2 is one cable) */
		return g->torus && g->k[d] > 2 ? i - c * stride : FTSW_NONE;
	}
	if (c > 0)
		return i - stride;
	return g->torus && g->k[d] > 2 ? i + (g->k[d] - 1) * stride :
	       FTSW_NONE;
}

void ftsw_grid_coords(const struct ftsw_grid *g, uint32_t i, unsigned *c)
{
	unsigned d;

	for (d = 0; d < g->n; d++) {
		c[d] = i % g->k[d];
		i /= g->k[d];
	}
}

static void grid_name(const struct ftsw_grid *g, uint32_t i, char *buf,
		      size_t sz)
{
	unsigned c[FTSW_GRID_MAX_D], d;
	size_t n;

	ftsw_grid_coords(g, i, c);
	n = (size_t)snprintf(buf, sz, "%c", g->torus ? 'T' : 'M');
	for (d = 0; d < g->n && n < sz; d++)
		n += (size_t)snprintf(buf + n, sz - n, "%s%u", d ? "." : "",
				      c[d]);
}

struct ftsw_topo *ftsw_topo_gen_grid(const struct ftsw_grid *g,
				     const char *spec, struct ftsw_err *err)
{
	struct ftsw_gbuild b;
	uint32_t i;
	unsigned d;
	char desc[96];

	if (ftsw_gbuild_begin(&b, g->nsw, g->ports, (uint64_t)g->nsw * g->hosts,
			      g->torus ? "torus" : "mesh", err))
		return NULL;
	for (i = 0; i < g->nsw; i++) {
		grid_name(g, i, desc, sizeof(desc));
		if (ftsw_gbuild_switch(&b, i, 1, g->ports, desc, err))
			goto fail;
	}
	for (i = 0; i < g->nsw; i++)
		if (ftsw_gbuild_hosts(&b, i, g->hosts, err))
			goto fail;
	/* port H + 2d + 1 leads to the + neighbour, H + 2d + 2 to the - one */
	for (i = 0; i < g->nsw; i++)
		for (d = 0; d < g->n; d++) {
			uint32_t j = ftsw_grid_step(g, i, d, +1);

			if (j != FTSW_NONE &&
			    ftsw_topo_connect(b.t, b.sw[i], g->hosts + 2 * d + 1,
					      b.sw[j], g->hosts + 2 * d + 2, err))
				goto fail;
		}
	return ftsw_gbuild_end(&b, spec, err);
fail:
	ftsw_gbuild_abort(&b);
	return NULL;
}

/* ------------------------------------------------------------ Kautz */

/*
 * Kautz(b, n): vertices are the strings s_1..s_n over b + 1 symbols with
 * s_i != s_{i+1}; arcs s_1..s_n -> s_2..s_n x, x != s_n. Vertex index:
 * s_1 * b^(n-1) + the digits r_i = (s_i - s_{i-1} - 1) mod (b + 1), i >= 2
 * (r_2 most significant).
 */
static void kautz_string(unsigned b, unsigned n, uint32_t idx, unsigned *s)
{
	uint32_t pw = 1;
	unsigned i;

	for (i = 1; i < n; i++)
		pw *= b;
	s[0] = idx / pw;
	idx %= pw;
	for (i = 1; i < n; i++) {
		pw /= b;
		s[i] = (s[i - 1] + 1 + idx / pw) % (b + 1);
		idx %= pw;
	}
}

static uint32_t kautz_index(unsigned b, unsigned n, const unsigned *s)
{
	uint32_t idx = s[0];
	unsigned i;

	for (i = 1; i < n; i++)
		idx = idx * b + (s[i] + b + 1 - s[i - 1] - 1) % (b + 1);
	return idx;
}

int ftsw_kautz_parse(const char *spec, struct ftsw_kautz *k,
		     struct ftsw_err *err)
{
	struct ftsw_gspec s;
	uint64_t nsw = 1;
	unsigned i, free_ports;
	bool hg, eg;

	if (ftsw_gspec_parse(spec, &s, err))
		return -EINVAL;
	memset(k, 0, sizeof(*k));
	if (s.nval != 2 || s.val[0] < 1 || s.val[1] < 1 || s.val[1] > 16) {
		ftsw_err_set(err, "topology spec '%s': kautz:B,N expected "
			     "(B >= 1, 1 <= N <= 16)", spec);
		return -EINVAL;
	}
	k->b = s.val[0];
	k->n = s.val[1];
	nsw = k->b + 1;
	for (i = 1; i < k->n && nsw <= (1u << 22); i++)
		nsw *= k->b;
	if (nsw > (1u << 22) || 2 * k->b > FTSW_TOPO_MAX_PORTS) {
		ftsw_err_set(err, "topology spec '%s': Kautz(%u, %u) too large "
			     "(at most %u switches of %d ports)", spec, k->b,
			     k->n, 1u << 22, FTSW_TOPO_MAX_PORTS);
		return -EINVAL;
	}
	k->nsw = (uint32_t)nsw;
	k->ports = ftsw_gspec_opt(&s, "ports", 36, NULL);
	k->hosts = ftsw_gspec_opt(&s, "hosts", 0, &hg);
	k->endpoints = ftsw_gspec_opt(&s, "endpoints", 0, &eg);
	if (ftsw_gspec_done(&s, spec, "hosts=, endpoints=, ports=", err))
		return -EINVAL;
	if (hg && eg) {
		ftsw_err_set(err, "topology spec '%s': hosts= and endpoints= "
			     "exclude each other", spec);
		return -EINVAL;
	}
	if (k->ports < 2 * k->b || k->ports > FTSW_TOPO_MAX_PORTS) {
		ftsw_err_set(err, "topology spec '%s': ports=%u cannot hold the "
			     "%u Kautz links of a switch (at most %d)", spec,
			     k->ports, 2 * k->b, FTSW_TOPO_MAX_PORTS);
		return -EINVAL;
	}
	free_ports = k->ports - 2 * k->b;
	if (!hg && !eg)
		k->hosts = free_ports;
	if (eg) {
		k->hosts = (unsigned)((k->endpoints + nsw - 1) / nsw);
	} else {
		k->endpoints = k->hosts * k->nsw;
	}
	if (k->hosts > free_ports) {
		ftsw_err_set(err, "topology spec '%s': %u hosts on a switch but "
			     "only %u ports are free beside the %u Kautz links",
			     spec, k->hosts, free_ports, 2 * k->b);
		return -EINVAL;
	}
	return 0;
}

struct ftsw_topo *ftsw_topo_gen_kautz(const struct ftsw_kautz *k,
				      const char *spec, struct ftsw_err *err)
{
	struct ftsw_gbuild b;
	unsigned s[16], v[16], i, x, nb = k->b, ns = k->n;
	uint32_t u, extra = k->endpoints % k->nsw;
	char desc[64];

	if (ftsw_gbuild_begin(&b, k->nsw, k->ports, k->endpoints, "kautz", err))
		return NULL;
	for (u = 0; u < k->nsw; u++) {
		size_t n = (size_t)snprintf(desc, sizeof(desc), "K");

		kautz_string(nb, ns, u, s);
		for (i = 0; i < ns && n < sizeof(desc); i++)
			n += (size_t)snprintf(desc + n, sizeof(desc) - n, "%s%u",
					      i ? "." : "", s[i]);
		if (ftsw_gbuild_switch(&b, u, 1, k->ports, desc, err))
			goto fail;
	}
	/* endpoints spread evenly: the first E mod S switches one more */
	for (u = 0; u < k->nsw; u++) {
		unsigned nh = k->endpoints / k->nsw + (u < extra);

		if (ftsw_gbuild_hosts(&b, u, nh, err))
			goto fail;
	}
	/*
	 * Arc u -> v (v = s_2..s_n x): u's out-port hosts + 1 + r with
	 * r = (x - s_n - 1) mod (b + 1); v's in-port hosts + b + 1 + q with
	 * q = (v_1 - s_1 - 1) mod (b + 1), distinct over v's predecessors
	 * s_1 v_1..v_{n-1} (s_1 != v_1).
	 */
	for (u = 0; u < k->nsw; u++) {
		kautz_string(nb, ns, u, s);
		for (x = 0; x <= nb; x++) {
			unsigned r, q;

			if (x == s[ns - 1])
				continue;
			for (i = 0; i + 1 < ns; i++)
				v[i] = s[i + 1];
			v[ns - 1] = x;
			r = (x + nb + 1 - s[ns - 1] - 1) % (nb + 1);
			q = (v[0] + nb + 1 - s[0] - 1) % (nb + 1);
			if (ftsw_topo_connect(b.t, b.sw[u], k->hosts + 1 + r,
					      b.sw[kautz_index(nb, ns, v)],
					      k->hosts + nb + 1 + q, err))
				goto fail;
		}
	}
	return ftsw_gbuild_end(&b, spec, err);
fail:
	ftsw_gbuild_abort(&b);
	return NULL;
}

/* ------------------------------------------------------------ dragonfly */

int ftsw_dragonfly_parse(const char *spec, struct ftsw_dragonfly *df,
			 struct ftsw_err *err)
{
	struct ftsw_gspec s;
	uint64_t nsw;

	if (ftsw_gspec_parse(spec, &s, err))
		return -EINVAL;
	memset(df, 0, sizeof(*df));
	if (s.nval != 3 || !s.val[0] || !s.val[2]) {
		ftsw_err_set(err, "topology spec '%s': dragonfly:A,P,H expected "
			     "(A routers per group, P hosts and H global links "
			     "per router, A, H >= 1; balanced: A = 2P = 2H)",
			     spec);
		return -EINVAL;
	}
	df->a = s.val[0];
	df->p = s.val[1];
	df->h = s.val[2];
	df->g = ftsw_gspec_opt(&s, "groups", df->a * df->h + 1, NULL);
	if (ftsw_gspec_done(&s, spec, "groups=", err))
		return -EINVAL;
	if (df->g < 2 || df->g > df->a * df->h + 1 ||
	    (df->a * df->h) % (df->g - 1)) {
		ftsw_err_set(err, "topology spec '%s': groups=%u: G - 1 must "
			     "divide A*H = %u (G = A*H + 1 = %u: one global link "
			     "per pair of groups)", spec, df->g, df->a * df->h,
			     df->a * df->h + 1);
		return -EINVAL;
	}
	df->ports = df->p + df->a - 1 + df->h;
	nsw = (uint64_t)df->a * df->g;
	if (df->ports > FTSW_TOPO_MAX_PORTS || nsw > (1u << 22)) {
		ftsw_err_set(err, "topology spec '%s': %u ports per router, "
			     "%llu routers (at most %d and %u)", spec, df->ports,
			     (unsigned long long)nsw, FTSW_TOPO_MAX_PORTS,
			     1u << 22);
		return -EINVAL;
	}
	return 0;
}

/*
 * Global links, "consecutive" arrangement: global port j (0..A*H-1, router
 * j / H, its port j % H) of group i, with j = m (G - 1) + o, leads to group
 * i + o + 1 (mod G), arriving there on global port m (G - 1) + (G - 2 - o).
 * Each pair of groups gets A*H / (G - 1) links.
 */
struct ftsw_topo *ftsw_topo_gen_dragonfly(const struct ftsw_dragonfly *df,
					  const char *spec,
					  struct ftsw_err *err)
{
	struct ftsw_gbuild b;
	uint32_t nsw = df->a * df->g, i, r, x, j, gm = df->g - 1;
	unsigned gport = df->p + df->a;	/* first global port */
	char desc[48];

	if (ftsw_gbuild_begin(&b, nsw, df->ports, (uint64_t)nsw * df->p,
			      "dragonfly", err))
		return NULL;
	for (i = 0; i < nsw; i++) {
		snprintf(desc, sizeof(desc), "G%u.R%u", i / df->a, i % df->a);
		if (ftsw_gbuild_switch(&b, i, 1, df->ports, desc, err))
			goto fail;
	}
	for (i = 0; i < nsw; i++)
		if (ftsw_gbuild_hosts(&b, i, df->p, err))
			goto fail;
	/* local: router r's port P + 1 + x' to router x of its group */
	for (i = 0; i < df->g; i++)
		for (r = 0; r < df->a; r++)
			for (x = r + 1; x < df->a; x++)
				if (ftsw_topo_connect(b.t, b.sw[i * df->a + r],
						      df->p + x, b.sw[i * df->a + x],
						      df->p + r + 1, err))
					goto fail;
	for (i = 0; i < df->g; i++)
		for (j = 0; j < df->a * df->h; j++) {
			uint32_t m = j / gm, o = j % gm;
			uint32_t i2 = (i + o + 1) % df->g;
			uint32_t j2 = m * gm + (gm - 1 - o);

			if (i2 < i || (i2 == i && j2 <= j))
				continue;	/* made from the other end */
			if (ftsw_topo_connect(b.t, b.sw[i * df->a + j / df->h],
					      gport + j % df->h,
					      b.sw[i2 * df->a + j2 / df->h],
					      gport + j2 % df->h, err))
				goto fail;
		}
	return ftsw_gbuild_end(&b, spec, err);
fail:
	ftsw_gbuild_abort(&b);
	return NULL;
}
