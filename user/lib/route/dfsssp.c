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

int ftsw_dfsssp_layers(const struct ftsw_topo *t, struct ftsw_routing *r,
		       const struct ftsw_dfsssp_opts *o,
		       struct ftsw_dfsssp_stats *st, struct ftsw_err *err)
{
	uint32_t ns = t->nswitches, nh = t->nhosts, s, d;
	unsigned noff = 1u << r->lmc, L = o->max_vls ? o->max_vls : 8, i;
	uint32_t *srcs = NULL, nsrc = 0, *swsrc = NULL, *ch = NULL;
	uint32_t *ekey = NULL, *emap = NULL;
	uint64_t *ebase = NULL, nkeys, npaths, p, k;
	struct cdg c = { 0 };
	/* DFS state */
	uint8_t *color = NULL;
	uint32_t *stk = NULL, *sit = NULL;
	uint64_t pathcount[16] = { 0 };
	int rc = -1;
	double t0 = now();

	memset(st, 0, sizeof(*st));
	if (L < 1 || L > 15) {
		ftsw_err_set(err, "dfsssp: --max-vls %u: 1..15 virtual layers "
			     "(InfiniBand data VLs)", L);
		return -1;
	}
	c.L = L;
	c.nch = t->nports;
	/* sources: switches with hosts */
	swsrc = malloc((ns + 1) * sizeof(uint32_t));
	srcs = malloc((ns + 1) * sizeof(uint32_t));
	ch = malloc((ns + 2) * sizeof(uint32_t));
	if (!swsrc || !srcs || !ch)
		goto oom;
	for (s = 0; s < ns; s++)
		swsrc[s] = UINT32_MAX;
	for (d = 0; d < nh; d++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[d]);

		if (sw == FTSW_NONE)
			continue;
		sw = t->nodes[sw].index;
		if (swsrc[sw] == UINT32_MAX) {
			swsrc[sw] = nsrc;
			srcs[nsrc++] = sw;
		}
	}
	npaths = (uint64_t)nsrc * nh;
	st->paths = npaths;
	/* dense key space of candidate edges: channel c1 -> port of its peer */
	ebase = malloc(((uint64_t)c.nch + 1) * sizeof(uint64_t));
	if (!ebase)
		goto oom;
	nkeys = 0;
	for (k = 0; k < c.nch; k++) {
		uint32_t peer = t->ports[k].peer;

		ebase[k] = nkeys;
		if (peer != FTSW_NONE && t->nodes[peer].kind == FTSW_SWITCH)
			nkeys += t->nodes[peer].nports;
	}
	ebase[c.nch] = nkeys;
	ekey = calloc(nkeys + 1, sizeof(uint32_t));	/* uses per key */
	c.pstart = calloc(npaths + 1, sizeof(uint64_t));
	if (!ekey || !c.pstart)
		goto oom;
	/* pass 1: count dependencies per path and per key */
	for (p = 0; p < npaths; p++) {
		uint32_t sw = srcs[p / nh];
		unsigned off;

		d = (uint32_t)(p % nh);
		for (off = 0; off < noff; off++) {
			int n = walk(t, r, sw, ftsw_host_lid(r, d) + off, ch,
				     ns + 1), j;

			for (j = 1; j < n; j++) {
				uint32_t q = ch[j] - t->nodes[t->ports[ch[j - 1]].peer].first_port;

				ekey[ebase[ch[j - 1]] + q]++;
				c.pstart[p + 1]++;
			}
		}
	}
	for (p = 0; p < npaths; p++)
		c.pstart[p + 1] += c.pstart[p];
	st->path_deps = c.pstart[npaths];
	/* compact the used keys into edges, CSR by source channel */
	emap = malloc((nkeys + 1) * sizeof(uint32_t));
	c.estart = calloc((uint64_t)c.nch + 1, sizeof(uint32_t));
	if (!emap || !c.estart)
		goto oom;
	c.nedges = 0;
	for (k = 0; k < c.nch; k++) {
		uint64_t e;

		c.estart[k] = c.nedges;
		for (e = ebase[k]; e < ebase[k + 1]; e++)
			emap[e] = ekey[e] ? c.nedges++ : UINT32_MAX;
	}
	c.estart[c.nch] = c.nedges;
	st->dependencies = c.nedges;
	c.eto = malloc(((uint64_t)c.nedges + 1) * sizeof(uint32_t));
	c.cnt = calloc(((uint64_t)c.nedges + 1) * L, sizeof(uint32_t));
	c.qstart = calloc((uint64_t)c.nedges + 1, sizeof(uint64_t));
	c.pedge = malloc((st->path_deps + 1) * sizeof(uint32_t));
	c.qpath = malloc((st->path_deps + 1) * sizeof(uint32_t));
	c.layer = calloc(npaths + 1, 1);
	if (!c.eto || !c.cnt || !c.qstart || !c.pedge || !c.qpath || !c.layer)
		goto oom;
	for (k = 0; k < c.nch; k++) {
		uint64_t e;
		uint32_t peer = t->ports[k].peer;

		for (e = ebase[k]; e < ebase[k + 1]; e++)
			if (emap[e] != UINT32_MAX)
				c.eto[emap[e]] = t->nodes[peer].first_port +
						 (uint32_t)(e - ebase[k]);
	}
	{
		uint64_t ch_used = 0;

		for (k = 0; k < c.nch; k++)
			ch_used += ebase[k + 1] > ebase[k];
		st->channels = ch_used;
	}
	free(ekey);
	ekey = NULL;
	/* pass 2: fill path -> edges, count edge -> paths */
	for (p = 0; p < npaths; p++) {
		uint32_t sw = srcs[p / nh];
		uint64_t at = c.pstart[p];
		unsigned off;

		d = (uint32_t)(p % nh);
		for (off = 0; off < noff; off++) {
			int n = walk(t, r, sw, ftsw_host_lid(r, d) + off, ch,
				     ns + 1), j;

			for (j = 1; j < n; j++) {
				uint32_t q = ch[j] - t->nodes[t->ports[ch[j - 1]].peer].first_port;
				uint32_t e = emap[ebase[ch[j - 1]] + q];

				c.pedge[at++] = e;
				c.cnt[(uint64_t)e * L]++;
			}
		}
	}
	free(emap);
	emap = NULL;
	free(ebase);
	ebase = NULL;
	for (k = 0; k < c.nedges; k++)
		c.qstart[k + 1] = c.qstart[k] + c.cnt[k * L];
	{
		uint64_t *fill = malloc(((uint64_t)c.nedges + 1) * sizeof(uint64_t));

		if (!fill)
			goto oom;
		memcpy(fill, c.qstart, c.nedges * sizeof(uint64_t));
		for (p = 0; p < npaths; p++)
			for (k = c.pstart[p]; k < c.pstart[p + 1]; k++)
				c.qpath[fill[c.pedge[k]]++] = (uint32_t)p;
		free(fill);
	}
	st->cdg_bytes = (uint64_t)c.nedges * L * sizeof(uint32_t) +
			((uint64_t)c.nch + 1) * sizeof(uint32_t) +
			(uint64_t)c.nedges * (sizeof(uint32_t) + sizeof(uint64_t)) +
			(npaths + 1) * (sizeof(uint64_t) + 1) +
			st->path_deps * 2 * sizeof(uint32_t) +
			(uint64_t)c.nch * (1 + 2 * sizeof(uint32_t));

	/* cycle breaking, layer by layer */
	color = malloc((uint64_t)c.nch + 1);
	stk = malloc(((uint64_t)c.nch + 1) * sizeof(uint32_t));
	sit = malloc(((uint64_t)c.nch + 1) * sizeof(uint32_t));
	if (!color || !stk || !sit)
		goto oom;
	for (i = 0; i < L; i++) {
		uint32_t root;
		uint64_t inlayer = 0;

		for (p = 0; p < npaths; p++)
			inlayer += c.layer[p] == i;
		if (!inlayer)
			break;
		memset(color, 0, c.nch);
		for (root = 0; root < c.nch; root++) {
			uint32_t top;

			if (color[root] || c.estart[root] == c.estart[root + 1])
				continue;
			top = 0;
			stk[top] = root;
			sit[top] = c.estart[root];
			color[root] = 1;
			top = 1;
			while (top) {
				uint32_t v = stk[top - 1], e = sit[top - 1], w;

				while (e < c.estart[v + 1] &&
				       !c.cnt[(uint64_t)e * L + i])
					e++;
				if (e >= c.estart[v + 1]) {
					color[v] = 2;
					top--;
					continue;
				}
				sit[top - 1] = e + 1;
				w = c.eto[e];
				if (color[w] == 2)
					continue;
				if (color[w] == 0) {
					color[w] = 1;
					stk[top] = w;
					sit[top] = c.estart[w];
					top++;
					continue;
				}
				/* cycle: stack from w to v, closed by e */
				if (i + 1 >= L) {
					ftsw_err_set(err, "dfsssp: more than %u virtual "
						     "layers needed (the %s-edge heuristic "
						     "found a cycle in layer %u); allow more "
						     "with max VLs (up to 15) or use another "
						     "engine", L,
						     ftsw_heuristic_name(o->heuristic), L);
					st->layers_needed = L + 1;
					goto out;
				}
				move_paths(&c, i, pick_edge(&c, i, o->heuristic, stk,
							    sit, top, w, e));
				st->cycles_broken++;
				/* unwind: gray back to white, retry this root */
				while (top)
					color[stk[--top]] = 0;
				root--;
			}
		}
	}
	for (p = 0; p < npaths; p++)
		pathcount[c.layer[p]]++;
	for (i = 0; i < L; i++)
		if (pathcount[i])
			st->layers_needed = i + 1;
	/* balance onto the free layers */
	{
		unsigned need = st->layers_needed, fr, share[16] = { 0 };
		unsigned first[16], nl[16], used = need, f;
		uint64_t seen[16] = { 0 };

		fr = o->no_balance || !need ? 0 : L - need;
		/* each free layer to the needed layer with most paths per layer */
		for (f = 0; f < fr; f++) {
			unsigned bi = need;
			uint64_t bn = 1, bd = 1;

			for (i = 0; i < need; i++) {
				/* pathcount / (1 + share) > bn / bd ? */
				if (pathcount[i] <= 1 + share[i])
					continue;
				if (bi == need ||
				    pathcount[i] * bd > bn * (1 + share[i])) {
					bi = i;
					bn = pathcount[i];
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
		for (p = 0; p < npaths; p++) {
			unsigned li = c.layer[p], x = (unsigned)(seen[li]++ % nl[li]);

			if (x)
				c.layer[p] = (uint8_t)(first[li] + x - 1);
		}
		st->layers_used = used ? used : 1;
	}
	/* SL per (source host, destination host) */
	free(r->sl);
	r->sl = calloc((uint64_t)nh * nh + 1, 1);
	if (!r->sl)
		goto oom;
	for (s = 0; s < nh; s++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[s]);

		if (sw == FTSW_NONE)
			continue;
		sw = swsrc[t->nodes[sw].index];
		memcpy(&r->sl[(uint64_t)s * nh], &c.layer[(uint64_t)sw * nh], nh);
	}
	r->nvls = (uint8_t)st->layers_used;
	rc = 0;
	goto out;
oom:
	ftsw_err_set(err, "dfsssp: out of memory for the channel dependency "
		     "graph (%u switches, %u hosts)", ns, nh);
out:
	st->seconds = now() - t0;
	free(srcs);
	free(swsrc);
	free(ch);
	free(ekey);
	free(emap);
	free(ebase);
	free(c.estart);
	free(c.eto);
	free(c.cnt);
	free(c.pstart);
	free(c.pedge);
	free(c.qstart);
	free(c.qpath);
	free(c.layer);
	free(color);
	free(stk);
	free(sit);
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
	if (!r->warning[0])
		snprintf(r->warning, sizeof(r->warning),
			 "dfsssp: %u virtual layers needed (%s edge, %llu "
			 "cycles broken), balanced onto %u; CDG %llu edges, "
			 "bookkeeping %.1f MiB", st.layers_needed,
			 ftsw_heuristic_name(h),
			 (unsigned long long)st.cycles_broken, st.layers_used,
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
