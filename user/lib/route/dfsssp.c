// SPDX-License-Identifier: GPL-2.0
/*
 * dfsssp: SSSP routing made deadlock-free with virtual layers, the offline
 * variant of paper 001 (§IV, Algorithm 2).
 *
 * A path here is (source switch, destination host): every host behind a
 * switch reaches a destination over the same switch-to-switch channels
 * (destination-based tables), and the kernel takes the SL per (source
 * host, destination host), so all LMC offsets of a destination share the
 * path's layer; the path's dependencies are those of all its offsets.
 *
 * Channel dependency graph (CDG): vertices are switch-to-switch channels,
 * an edge c1 -> c2 when a path leaves a switch on c2 after entering it on
 * c1 (host channels cannot close a cycle and are left out). Bookkeeping:
 *   - per path, the list of CDG edges it induces (CSR);
 *   - per CDG edge, the list of paths inducing it (CSR), and per layer the
 *     number of those paths currently in that layer;
 *   - per path, its layer.
 * The memory is O(layers * edges + sum of path lengths), the paper's
 * O(nabla * d * N^2) term being the path lists.
 *
 * Layer i: a depth-first search over the edges with a non-zero count in
 * layer i. On a cycle, one of its edges is chosen (weakest: fewest paths;
 * strongest: most paths; first: the first edge of the cycle in discovery
 * order) and every layer-i path inducing it moves to layer i + 1. The
 * search then resumes; vertices already finished stay finished (removing
 * edges cannot create a cycle through them). When layer i is acyclic the
 * next one is processed; a cycle in the last allowed layer is a failure.
 *
 * Balancing: the free layers are shared among the needed ones in
 * proportion to their path counts (largest remainders), and each needed
 * layer deals its paths round-robin over itself and its share. A subset of
 * an acyclic layer is acyclic, so no further cycle search is needed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "route/engines.h"

int ftsw_heuristic_parse(const char *s, enum ftsw_vl_heuristic *h,
			 struct ftsw_err *err)
{
	if (!strcmp(s, "weakest"))
		*h = FTSW_VL_WEAKEST;
	else if (!strcmp(s, "strongest"))
		*h = FTSW_VL_STRONGEST;
	else if (!strcmp(s, "first"))
		*h = FTSW_VL_FIRST;
	else {
		ftsw_err_set(err, "dfsssp: heuristic '%s' unknown (weakest, "
			     "strongest, first)", s);
		return -1;
	}
	return 0;
}

const char *ftsw_heuristic_name(enum ftsw_vl_heuristic h)
{
	return h == FTSW_VL_STRONGEST ? "strongest" :
	       h == FTSW_VL_FIRST ? "first" : "weakest";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct cdg {
	uint32_t nch;		/* channels (global port record index space) */
	uint32_t nedges;
	uint32_t *estart;	/* [nch + 1]: edges out of a channel (CSR) */
	uint32_t *eto;		/* edge -> target channel */
	uint32_t *cnt;		/* [edge * L + layer] paths in that layer */
	uint64_t *pstart;	/* [npaths + 1]: path -> edges */
	uint32_t *pedge;
	uint64_t *qstart;	/* [nedges + 1]: edge -> paths */
	uint32_t *qpath;
	uint8_t *layer;		/* [npaths] */
	unsigned L;
};

/* Walk (source switch s, destination LID): channels into ch[], count. */
static int walk(const struct ftsw_topo *t, const struct ftsw_routing *r,
		uint32_t s, uint32_t lid, uint32_t *ch, unsigned max)
{
	unsigned n = 0, hops = 0;
	uint32_t node = t->switches[s];

	for (;;) {
		const struct ftsw_node *nd = &t->nodes[node];
		uint8_t p = ftsw_lft(r, nd->index)[lid];
		const struct ftsw_port *x;

		if (p == FTSW_PORT_NONE || p == 0 || p > nd->nports)
			return -1;
		x = &t->ports[nd->first_port + p - 1];
		if (x->peer == FTSW_NONE)
			return -1;
		if (t->nodes[x->peer].kind != FTSW_SWITCH)
			return (int)n;
		if (n < max)
			ch[n++] = nd->first_port + p - 1;
		node = x->peer;
		if (++hops > t->nswitches)
			return -1;
	}
}

/*
 * The DFS stack stk[0..top-1] ends in a cycle from vertex w (somewhere on
 * the stack) back to w through edge e out of the top vertex; frame j left
 * its vertex on edge sit[j] - 1. Pick the edge to break.
 */
static uint32_t pick_edge(const struct cdg *c, unsigned i,
			  enum ftsw_vl_heuristic h, const uint32_t *stk,
			  const uint32_t *sit, uint32_t top, uint32_t w,
			  uint32_t e)
{
	uint32_t at = top - 1, pick = e, best = 0, j;

	while (stk[at] != w)
		at--;
	for (j = at; j < top; j++) {
		uint32_t ej = j + 1 < top ? sit[j] - 1 : e;
		uint32_t cj = c->cnt[(uint64_t)ej * c->L + i];

		if (h == FTSW_VL_FIRST)
			return ej;
		if (j == at || (h == FTSW_VL_WEAKEST ? cj < best : cj > best)) {
			best = cj;
			pick = ej;
		}
	}
	return pick;
}

/* Move every layer-i path inducing edge e to layer i + 1. */
static void move_paths(struct cdg *c, unsigned i, uint32_t e)
{
	unsigned L = c->L;
	uint64_t q, x;

	for (q = c->qstart[e]; q < c->qstart[e + 1]; q++) {
		uint32_t pp = c->qpath[q];

		if (c->layer[pp] != i)
			continue;
		c->layer[pp] = (uint8_t)(i + 1);
		for (x = c->pstart[pp]; x < c->pstart[pp + 1]; x++) {
			c->cnt[(uint64_t)c->pedge[x] * L + i]--;
			c->cnt[(uint64_t)c->pedge[x] * L + i + 1]++;
		}
	}
}

/* The layering of one routing: its paths, their channels, the CDG. */
struct layering {
	const struct ftsw_topo *t;
	struct ftsw_routing *r;
	uint32_t nsrc;		/* source switches (switches with hosts) */
	uint32_t *srcs;		/* [nsrc]: switch index of source i */
	uint32_t *swsrc;	/* [nswitches]: source index, or UINT32_MAX */
	uint32_t *ch;		/* walk buffer */
	uint64_t npaths;	/* nsrc * nhosts */
	uint64_t *ebase;	/* [nch + 1]: candidate edge keys per channel */
	uint64_t nkeys;
	uint32_t *emap;		/* key -> edge, UINT32_MAX if unused */
	uint64_t at;		/* fill cursor into c.pedge */
	uint64_t pathcount[16];	/* paths per layer after breaking */
	struct cdg c;
};

/* Sources: the switches with hosts, in switch order of their first host. */
static int find_sources(struct layering *ly)
{
	const struct ftsw_topo *t = ly->t;
	uint32_t ns = t->nswitches, s, d;

	ly->swsrc = malloc((ns + 1) * sizeof(uint32_t));
	ly->srcs = malloc((ns + 1) * sizeof(uint32_t));
	ly->ch = malloc((ns + 2) * sizeof(uint32_t));
	if (!ly->swsrc || !ly->srcs || !ly->ch)
		return -1;
	for (s = 0; s < ns; s++)
		ly->swsrc[s] = UINT32_MAX;
	for (d = 0; d < t->nhosts; d++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[d]);

		if (sw == FTSW_NONE)
			continue;
		sw = t->nodes[sw].index;
		if (ly->swsrc[sw] == UINT32_MAX) {
			ly->swsrc[sw] = ly->nsrc;
			ly->srcs[ly->nsrc++] = sw;
		}
	}
	ly->npaths = (uint64_t)ly->nsrc * t->nhosts;
	return 0;
}

/*
 * Call fn(ly, path, key) for every CDG edge key path p induces, over all
 * LMC offsets of its destination: the key of channel c1 -> c2 is
 * ebase[c1] + (c2's index among the ports of c1's peer).
 */
static void for_each_path_key(struct layering *ly, uint64_t p,
			      void (*fn)(struct layering *, uint64_t, uint64_t))
{
	const struct ftsw_topo *t = ly->t;
	uint32_t nh = t->nhosts, sw = ly->srcs[p / nh], d = (uint32_t)(p % nh);
	unsigned noff = 1u << ly->r->lmc, off;

	for (off = 0; off < noff; off++) {
		int n = walk(t, ly->r, sw, ftsw_host_lid(ly->r, d) + off,
			     ly->ch, t->nswitches + 1), j;

		for (j = 1; j < n; j++) {
			uint32_t c1 = ly->ch[j - 1];
			uint32_t q = ly->ch[j] -
				     t->nodes[t->ports[c1].peer].first_port;

			fn(ly, p, ly->ebase[c1] + q);
		}
	}
}

static void count_key(struct layering *ly, uint64_t p, uint64_t key)
{
	ly->emap[key]++;		/* uses per key, before compaction */
	ly->c.pstart[p + 1]++;
}

static void fill_key(struct layering *ly, uint64_t p, uint64_t key)
{
	uint32_t e = ly->emap[key];

	(void)p;
	ly->c.pedge[ly->at++] = e;	/* paths are filled in order */
	ly->c.cnt[(uint64_t)e * ly->c.L]++;
}

/* Pass 1: the candidate key space, and dependencies per path and per key. */
static int count_dependencies(struct layering *ly, struct ftsw_dfsssp_stats *st)
{
	const struct ftsw_topo *t = ly->t;
	struct cdg *c = &ly->c;
	uint64_t k, p;

	ly->ebase = malloc(((uint64_t)c->nch + 1) * sizeof(uint64_t));
	if (!ly->ebase)
		return -1;
	for (k = 0; k < c->nch; k++) {
		uint32_t peer = t->ports[k].peer;

		ly->ebase[k] = ly->nkeys;
		if (peer != FTSW_NONE && t->nodes[peer].kind == FTSW_SWITCH)
			ly->nkeys += t->nodes[peer].nports;
	}
	ly->ebase[c->nch] = ly->nkeys;
	ly->emap = calloc(ly->nkeys + 1, sizeof(uint32_t));
	c->pstart = calloc(ly->npaths + 1, sizeof(uint64_t));
	if (!ly->emap || !c->pstart)
		return -1;
	for (p = 0; p < ly->npaths; p++)
		for_each_path_key(ly, p, count_key);
	for (p = 0; p < ly->npaths; p++)
		c->pstart[p + 1] += c->pstart[p];
	st->path_deps = c->pstart[ly->npaths];
	return 0;
}

/* Compact the used keys into edges, CSR by source channel. */
static int compact_edges(struct layering *ly, struct ftsw_dfsssp_stats *st)
{
	const struct ftsw_topo *t = ly->t;
	struct cdg *c = &ly->c;
	uint64_t k, e, L = c->L;

	c->estart = calloc((uint64_t)c->nch + 1, sizeof(uint32_t));
	if (!c->estart)
		return -1;
	for (k = 0; k < c->nch; k++) {
		c->estart[k] = c->nedges;
		for (e = ly->ebase[k]; e < ly->ebase[k + 1]; e++)
			ly->emap[e] = ly->emap[e] ? c->nedges++ : UINT32_MAX;
		st->channels += ly->ebase[k + 1] > ly->ebase[k];
	}
	c->estart[c->nch] = c->nedges;
	st->dependencies = c->nedges;
	c->eto = malloc(((uint64_t)c->nedges + 1) * sizeof(uint32_t));
	c->cnt = calloc(((uint64_t)c->nedges + 1) * L, sizeof(uint32_t));
	c->qstart = calloc((uint64_t)c->nedges + 1, sizeof(uint64_t));
	c->pedge = malloc((st->path_deps + 1) * sizeof(uint32_t));
	c->qpath = malloc((st->path_deps + 1) * sizeof(uint32_t));
	c->layer = calloc(ly->npaths + 1, 1);
	if (!c->eto || !c->cnt || !c->qstart || !c->pedge || !c->qpath ||
	    !c->layer)
		return -1;
	for (k = 0; k < c->nch; k++) {
		uint32_t peer = t->ports[k].peer;

		for (e = ly->ebase[k]; e < ly->ebase[k + 1]; e++)
			if (ly->emap[e] != UINT32_MAX)
				c->eto[ly->emap[e]] = t->nodes[peer].first_port +
						      (uint32_t)(e - ly->ebase[k]);
	}
	return 0;
}

/* Pass 2: path -> edges, and edge -> paths with every path in layer 0. */
static int fill_paths(struct layering *ly)
{
	struct cdg *c = &ly->c;
	uint64_t p, k, *fill;

	ly->at = 0;
	for (p = 0; p < ly->npaths; p++)
		for_each_path_key(ly, p, fill_key);
	for (k = 0; k < c->nedges; k++)
		c->qstart[k + 1] = c->qstart[k] + c->cnt[k * c->L];
	fill = malloc(((uint64_t)c->nedges + 1) * sizeof(uint64_t));
	if (!fill)
		return -1;
	memcpy(fill, c->qstart, c->nedges * sizeof(uint64_t));
	for (p = 0; p < ly->npaths; p++)
		for (k = c->pstart[p]; k < c->pstart[p + 1]; k++)
			c->qpath[fill[c->pedge[k]]++] = (uint32_t)p;
	free(fill);
	return 0;
}
/*
 * Depth-first search of layer i from root; on a cycle, move the paths of
 * the heuristic's edge up one layer and report it (1): the caller searches
 * from the same root again. 0: no cycle reachable from root. -1: a cycle
 * in the last layer allowed.
 */
static int search_layer(struct cdg *c, unsigned i, uint32_t root,
			const struct ftsw_dfsssp_opts *o, uint8_t *color,
			uint32_t *stk, uint32_t *sit)
{
	uint32_t top = 1;

	stk[0] = root;
	sit[0] = c->estart[root];
	color[root] = 1;
	while (top) {
		uint32_t v = stk[top - 1], e = sit[top - 1], w;

		while (e < c->estart[v + 1] && !c->cnt[(uint64_t)e * c->L + i])
			e++;
		if (e >= c->estart[v + 1]) {
			color[v] = 2;
			top--;
			continue;
		}
		sit[top - 1] = e + 1;
		w = c->eto[e];
		if (color[w] == 2)
			continue;
		if (color[w] == 0) {
			color[w] = 1;
			stk[top] = w;
			sit[top] = c->estart[w];
			top++;
			continue;
		}
		/* cycle: stack from w to v, closed by e */
		if (i + 1 >= c->L)
			return -1;
		move_paths(c, i, pick_edge(c, i, o->heuristic, stk, sit, top,
					   w, e));
		/* unwind: gray back to white */
		while (top)
			color[stk[--top]] = 0;
		return 1;
	}
	return 0;
}

/* Break every cycle, layer by layer; fills pathcount and layers_needed. */
static int break_cycles(struct layering *ly, const struct ftsw_dfsssp_opts *o,
			struct ftsw_dfsssp_stats *st, struct ftsw_err *err)
{
	struct cdg *c = &ly->c;
	uint32_t *stk = NULL, *sit = NULL, root;
	uint8_t *color = NULL;
	unsigned i;
	uint64_t p;
	int rc = -1, found;

	color = malloc((uint64_t)c->nch + 1);
	stk = malloc(((uint64_t)c->nch + 1) * sizeof(uint32_t));
	sit = malloc(((uint64_t)c->nch + 1) * sizeof(uint32_t));
	if (!color || !stk || !sit) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c->L; i++) {
		uint64_t inlayer = 0;

		for (p = 0; p < ly->npaths; p++)
			inlayer += c->layer[p] == i;
		if (!inlayer)
			break;
		memset(color, 0, c->nch);
		for (root = 0; root < c->nch; root++) {
			if (color[root] || c->estart[root] == c->estart[root + 1])
				continue;
			while ((found = search_layer(c, i, root, o, color, stk,
						     sit)) == 1)
				st->cycles_broken++;
			if (found < 0) {
				ftsw_err_set(err, "dfsssp: more than %u virtual "
					     "layer%s needed (the %s-edge heuristic "
					     "found a cycle in layer %u); allow more "
					     "with --max-vls (up to 15) or use "
					     "another engine", c->L,
					     c->L == 1 ? "" : "s",
					     ftsw_heuristic_name(o->heuristic), c->L);
				st->layers_needed = c->L + 1;
				goto out;
			}
		}
	}
	for (p = 0; p < ly->npaths; p++)
		ly->pathcount[c->layer[p]]++;
	for (i = 0; i < c->L; i++)
		if (ly->pathcount[i])
			st->layers_needed = i + 1;
	rc = 0;
out:
	free(color);
	free(stk);
	free(sit);
	return rc;
}

/*
 * Share the free layers among the needed ones (each free layer to the
 * needed layer with the most paths per layer), then deal each needed
 * layer's paths round-robin over itself and its share.
 */
static void balance_layers(struct layering *ly, const struct ftsw_dfsssp_opts *o,
			   struct ftsw_dfsssp_stats *st)
{
	unsigned need = st->layers_needed, fr, share[16] = { 0 };
	unsigned first[16], nl[16], used = need, f, i;
	uint64_t seen[16] = { 0 }, p;

	fr = o->no_balance || !need ? 0 : ly->c.L - need;
	for (f = 0; f < fr; f++) {
		unsigned bi = need;
		uint64_t bn = 1, bd = 1;

		for (i = 0; i < need; i++) {
			/* pathcount / (1 + share) > bn / bd ? */
			if (ly->pathcount[i] <= 1 + share[i])
				continue;
			if (bi == need ||
			    ly->pathcount[i] * bd > bn * (1 + share[i])) {
				bi = i;
				bn = ly->pathcount[i];
				bd = 1 + share[i];
			}
		}
		if (bi == need)
			break;
		share[bi]++;
	}
	for (i = 0; i < need; i++) {
		first[i] = used;
		nl[i] = 1 + share[i];
		used += share[i];
	}
	for (p = 0; p < ly->npaths; p++) {
		unsigned li = ly->c.layer[p], x = (unsigned)(seen[li]++ % nl[li]);

		if (x)
			ly->c.layer[p] = (uint8_t)(first[li] + x - 1);
	}
	st->layers_used = used ? used : 1;
}

/* The routing's SL per (source host, destination host): its path's layer. */
static int fill_sl(struct layering *ly)
{
	const struct ftsw_topo *t = ly->t;
	uint32_t nh = t->nhosts, s;
	struct ftsw_routing *r = ly->r;

	free(r->sl);
	r->sl = calloc((uint64_t)nh * nh + 1, 1);
	if (!r->sl)
		return -1;
	for (s = 0; s < nh; s++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[s]);

		if (sw == FTSW_NONE)
			continue;
		sw = ly->swsrc[t->nodes[sw].index];
		memcpy(&r->sl[(uint64_t)s * nh], &ly->c.layer[(uint64_t)sw * nh],
		       nh);
	}
	return 0;
}

static void layering_free(struct layering *ly)
{
	free(ly->srcs);
	free(ly->swsrc);
	free(ly->ch);
	free(ly->emap);
	free(ly->ebase);
	free(ly->c.estart);
	free(ly->c.eto);
	free(ly->c.cnt);
	free(ly->c.pstart);
	free(ly->c.pedge);
	free(ly->c.qstart);
	free(ly->c.qpath);
	free(ly->c.layer);
}

int ftsw_dfsssp_layers(const struct ftsw_topo *t, struct ftsw_routing *r,
		       const struct ftsw_dfsssp_opts *o,
		       struct ftsw_dfsssp_stats *st, struct ftsw_err *err)
{
	struct layering ly = { .t = t, .r = r };
	unsigned L = o->max_vls ? o->max_vls : 8;
	double t0 = now();
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (L < 1 || L > 15) {
		ftsw_err_set(err, "dfsssp: --max-vls %u: 1..15 virtual layers "
			     "(InfiniBand data VLs)", L);
		return -1;
	}
	ly.c.L = L;
	ly.c.nch = t->nports;
	if (find_sources(&ly) || count_dependencies(&ly, st))
		goto oom;
	st->paths = ly.npaths;
	if (compact_edges(&ly, st) || fill_paths(&ly))
		goto oom;
	free(ly.emap);
	ly.emap = NULL;
	free(ly.ebase);
	ly.ebase = NULL;
	st->cdg_bytes = (uint64_t)ly.c.nedges * L * sizeof(uint32_t) +
			((uint64_t)ly.c.nch + 1) * sizeof(uint32_t) +
			(uint64_t)ly.c.nedges * (sizeof(uint32_t) + sizeof(uint64_t)) +
			(ly.npaths + 1) * (sizeof(uint64_t) + 1) +
			st->path_deps * 2 * sizeof(uint32_t) +
			(uint64_t)ly.c.nch * (1 + 2 * sizeof(uint32_t));
	rc = break_cycles(&ly, o, st, err);
	if (rc == -ENOMEM)
		goto oom;
	if (rc)
		goto out;
	balance_layers(&ly, o, st);
	if (fill_sl(&ly))
		goto oom;
	r->nvls = (uint8_t)st->layers_used;
	rc = 0;
	goto out;
oom:
	rc = -1;
	ftsw_err_errno(err, ENOMEM,
		       "dfsssp: out of memory for the channel dependency "
		       "graph (%u switches, %u hosts)", t->nswitches, t->nhosts);
out:
	st->seconds = now() - t0;
	layering_free(&ly);
	return rc;
}

static int dfsssp_run(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, enum ftsw_vl_heuristic h,
		      struct ftsw_err *err)
{
	struct ftsw_dfsssp_opts d = { .heuristic = h, .max_vls = o->max_vls };
	struct ftsw_dfsssp_stats st;

	if (ftsw_sssp_tables(t, r, !o->no_switch_lids, o->threads, err))
		return -1;
	if (ftsw_dfsssp_layers(t, r, &d, &st, err))
		return -1;
	snprintf(r->info, sizeof(r->info),
		 "dfsssp: %u virtual layer%s needed (%s edge, %llu "
		 "cycle%s broken), balanced onto %u; CDG %llu edges, "
		 "bookkeeping %.1f MiB", st.layers_needed,
		 st.layers_needed == 1 ? "" : "s", ftsw_heuristic_name(h),
		 (unsigned long long)st.cycles_broken,
		 st.cycles_broken == 1 ? "" : "s", st.layers_used,
		 (unsigned long long)st.dependencies,
		 st.cdg_bytes / 1048576.0);
	return 0;
}

int ftsw_route_dfsssp(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err)
{
	return dfsssp_run(t, o, r, FTSW_VL_WEAKEST, err);
}

int ftsw_route_dfsssp_strongest(const struct ftsw_topo *t,
				const struct ftsw_route_opts *o,
				struct ftsw_routing *r, struct ftsw_err *err)
{
	return dfsssp_run(t, o, r, FTSW_VL_STRONGEST, err);
}

int ftsw_route_dfsssp_first(const struct ftsw_topo *t,
			    const struct ftsw_route_opts *o,
			    struct ftsw_routing *r, struct ftsw_err *err)
{
	return dfsssp_run(t, o, r, FTSW_VL_FIRST, err);
}
