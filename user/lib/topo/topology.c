// SPDX-License-Identifier: GPL-2.0
/*
 * Topology graph: builder, queries, rankings, statistics, subsets and
 * degradations.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo/topology.h"
#include "util/parse.h"

struct ftsw_topo *ftsw_topo_new(void)
{
	return calloc(1, sizeof(struct ftsw_topo));
}

void ftsw_topo_free(struct ftsw_topo *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nnodes; i++)
		free(t->nodes[i].desc);
	free(t->nodes);
	free(t->ports);
	free(t->port_guids);
	free(t->switches);
	free(t->hosts);
	free(t->digits);
	free(t);
}

uint32_t ftsw_topo_add_node(struct ftsw_topo *t, enum ftsw_node_kind kind,
			    unsigned nports, uint64_t guid, const char *desc,
			    struct ftsw_err *err)
{
	struct ftsw_node *n;
	uint32_t i;

	if (nports < 1 || nports > FTSW_TOPO_MAX_PORTS) {
		ftsw_err_set(err, "node '%s': %u ports (1..%u allowed)",
			     desc ? desc : "?", nports, FTSW_TOPO_MAX_PORTS);
		return FTSW_NONE;
	}
	if (t->nnodes == t->cap_nodes) {
		uint32_t cap = t->cap_nodes ? t->cap_nodes * 2 : 64;
		void *p = realloc(t->nodes, cap * sizeof(*t->nodes));

		if (!p)
			goto oom;
		t->nodes = p;
		t->cap_nodes = cap;
	}
	if (t->nports + nports > t->cap_ports) {
		uint32_t cap = t->cap_ports ? t->cap_ports : 256;
		void *p;

		while (cap < t->nports + nports)
			cap *= 2;
		p = realloc(t->ports, (size_t)cap * sizeof(*t->ports));
		if (!p)
			goto oom;
		t->ports = p;
		if (t->port_guids) {
			p = realloc(t->port_guids, (size_t)cap * sizeof(uint64_t));
			if (!p)
				goto oom;
			t->port_guids = p;
		}
		t->cap_ports = cap;
	}
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->guid = guid;
	n->desc = desc ? strdup(desc) : NULL;
	n->kind = kind;
	n->nports = nports;
	n->level = -1;
	n->first_port = t->nports;
	n->index = FTSW_NONE;
	for (i = 0; i < nports; i++) {
		t->ports[t->nports + i].peer = FTSW_NONE;
		t->ports[t->nports + i].peer_port = 0;
		if (t->port_guids)
			t->port_guids[t->nports + i] = 0;
	}
	t->nports += nports;
	return t->nnodes++;
oom:
	ftsw_err_errno(err, ENOMEM, "out of memory adding node %u", t->nnodes);
	return FTSW_NONE;
}

int ftsw_topo_connect(struct ftsw_topo *t, uint32_t a, unsigned pa,
		      uint32_t b, unsigned pb, struct ftsw_err *err)
{
	struct ftsw_port *x, *y;

	if (a >= t->nnodes || b >= t->nnodes || pa < 1 || pb < 1 ||
	    pa > t->nodes[a].nports || pb > t->nodes[b].nports) {
		ftsw_err_set(err, "link %u/%u - %u/%u: no such node or port",
			     a, pa, b, pb);
		return -EINVAL;
	}
	if (a == b && pa == pb) {
		ftsw_err_set(err, "node %u port %u: linked to itself", a, pa);
		return -EINVAL;
	}
	x = ftsw_port(t, a, pa);
	y = ftsw_port(t, b, pb);
	if (x->peer != FTSW_NONE && (x->peer != b || x->peer_port != pb)) {
		ftsw_err_set(err, "%s port %u: already linked",
			     t->nodes[a].desc ? t->nodes[a].desc : "node", pa);
		return -EEXIST;
	}
	if (y->peer != FTSW_NONE && (y->peer != a || y->peer_port != pa)) {
		ftsw_err_set(err, "%s port %u: already linked",
			     t->nodes[b].desc ? t->nodes[b].desc : "node", pb);
		return -EEXIST;
	}
	x->peer = b;
	x->peer_port = pb;
	y->peer = a;
	y->peer_port = pa;
	return 0;
}

void ftsw_topo_disconnect(struct ftsw_topo *t, uint32_t a, unsigned pa)
{
	struct ftsw_port *x = ftsw_port(t, a, pa);

	if (x->peer != FTSW_NONE) {
		struct ftsw_port *y = ftsw_port(t, x->peer, x->peer_port);

		y->peer = FTSW_NONE;
		y->peer_port = 0;
	}
	x->peer = FTSW_NONE;
	x->peer_port = 0;
}

int ftsw_topo_finish(struct ftsw_topo *t, struct ftsw_err *err)
{
	uint32_t i, ns = 0, nh = 0;

	free(t->switches);
	free(t->hosts);
	for (i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].kind == FTSW_SWITCH)
			ns++;
		else
			nh++;
	}
	t->switches = malloc((ns + 1) * sizeof(uint32_t));
	t->hosts = malloc((nh + 1) * sizeof(uint32_t));
	if (!t->switches || !t->hosts) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	t->nswitches = ns;
	t->nhosts = nh;
	ns = nh = 0;
	for (i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].kind == FTSW_SWITCH) {
			t->nodes[i].index = ns;
			t->switches[ns++] = i;
		} else {
			t->nodes[i].index = nh;
			t->hosts[nh++] = i;
		}
	}
	return 0;
}

unsigned ftsw_node_degree(const struct ftsw_topo *t, uint32_t node)
{
	const struct ftsw_node *n = &t->nodes[node];
	unsigned p, d = 0;

	for (p = 0; p < n->nports; p++)
		if (t->ports[n->first_port + p].peer != FTSW_NONE)
			d++;
	return d;
}

unsigned ftsw_host_port(const struct ftsw_topo *t, uint32_t host_node)
{
	const struct ftsw_node *n = &t->nodes[host_node];
	unsigned p;

	for (p = 0; p < n->nports; p++)
		if (t->ports[n->first_port + p].peer != FTSW_NONE)
			return p + 1;
	return 0;
}

uint32_t ftsw_host_switch(const struct ftsw_topo *t, uint32_t host_node)
{
	unsigned p = ftsw_host_port(t, host_node);
	uint32_t peer;

	if (!p)
		return FTSW_NONE;
	peer = ftsw_port(t, host_node, p)->peer;
	return t->nodes[peer].kind == FTSW_SWITCH ? peer : FTSW_NONE;
}

uint64_t ftsw_topo_nlinks(const struct ftsw_topo *t)
{
	uint64_t n = 0;
	uint32_t i;
	unsigned p;

	for (i = 0; i < t->nnodes; i++)
		for (p = 1; p <= t->nodes[i].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, i, p);

			if (x->peer != FTSW_NONE &&
			    (x->peer > i || (x->peer == i && x->peer_port > p)))
				n++;
		}
	return n;
}

static int bfs_rank(const struct ftsw_topo *t, uint32_t *queue, uint32_t qn,
		    int *rank)
{
	uint32_t qh = 0;
	int maxr = qn ? 0 : -1;

	while (qh < qn) {
		uint32_t s = queue[qh++];
		const struct ftsw_node *n = &t->nodes[t->switches[s]];
		unsigned p;

		for (p = 1; p <= n->nports; p++) {
			uint32_t j = ftsw_peer_switch(t, n, p);

			if (j == FTSW_NONE || rank[j] >= 0)
				continue;
			rank[j] = rank[s] + 1;
			if (rank[j] > maxr)
				maxr = rank[j];
			queue[qn++] = j;
		}
	}
	return maxr + 1;
}

/*
 * Ranks by BFS from roots (nroots of them), or, with leaves, from every
 * leaf switch (one with a host) in switch order, so that the ranking does
 * not depend on the order of the hosts.
 */
static int rank_from(const struct ftsw_topo *t, const uint32_t *roots,
		     size_t nroots, bool leaves, int *rank)
{
	uint32_t *q = malloc((t->nswitches + 1) * sizeof(uint32_t));
	uint32_t i, qn = 0;
	int r;

	if (!q)
		return -ENOMEM;
	for (i = 0; i < t->nswitches; i++)
		rank[i] = -1;
	for (i = 0; i < nroots; i++)
		if (roots[i] < t->nswitches && rank[roots[i]] < 0) {
			rank[roots[i]] = 0;
			q[qn++] = roots[i];
		}
	for (i = 0; leaves && i < t->nhosts; i++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[i]);

		if (sw != FTSW_NONE)
			rank[t->nodes[sw].index] = 0;
	}
	for (i = 0; leaves && i < t->nswitches; i++)
		if (rank[i] == 0)
			q[qn++] = i;
	r = bfs_rank(t, q, qn, rank);
	free(q);
	return r;
}

int ftsw_rank_from_leaves(const struct ftsw_topo *t, int *rank)
{
	return rank_from(t, NULL, 0, true, rank);
}

int ftsw_rank_from_roots(const struct ftsw_topo *t, const uint32_t *roots,
			 size_t nroots, int *rank)
{
	return rank_from(t, roots, nroots, false, rank);
}

void ftsw_topo_stats(const struct ftsw_topo *t, struct ftsw_topo_stats *s)
{
	int *rank = malloc((t->nswitches + 1) * sizeof(int));
	uint32_t i;
	int nl;

	memset(s, 0, sizeof(*s));
	s->min_deg = ~0u;
	for (i = 0; i < t->nswitches; i++) {
		unsigned d = ftsw_node_degree(t, t->switches[i]);

		if (d < s->min_deg)
			s->min_deg = d;
		if (d > s->max_deg)
			s->max_deg = d;
	}
	if (!t->nswitches)
		s->min_deg = 0;
	for (i = 0; i < t->nhosts; i++)
		if (ftsw_host_switch(t, t->hosts[i]) == FTSW_NONE)
			s->unconnected_hosts++;
	s->links = ftsw_topo_nlinks(t);
	for (i = 0; i < t->nnodes; i++) {
		const struct ftsw_node *n = &t->nodes[i];
		unsigned p;

		if (n->kind != FTSW_HOST)
			continue;
		for (p = 0; p < n->nports; p++)
			if (t->ports[n->first_port + p].peer != FTSW_NONE)
				s->host_links++;
	}
	s->switch_links = s->links - s->host_links;
	if (!rank)
		return;
	nl = ftsw_rank_from_leaves(t, rank);
	s->nlevels = nl > 0 ? (unsigned)nl : 0;
	for (i = 0; i < t->nswitches; i++)
		if (rank[i] >= 0 && rank[i] < 16)
			s->per_level[rank[i]]++;
	free(rank);
}

struct ftsw_topo *ftsw_topo_subset(const struct ftsw_topo *t, const bool *keep,
				   struct ftsw_err *err)
{
	struct ftsw_topo *o = ftsw_topo_new();
	uint32_t *map = malloc((t->nnodes + 1) * sizeof(uint32_t));
	uint32_t i;
	unsigned p;

	if (!o || !map)
		goto oom;
	if (t->port_guids) {
		o->port_guids = calloc(1, sizeof(uint64_t));
		if (!o->port_guids)
			goto oom;
	}
	for (i = 0; i < t->nnodes; i++) {
		const struct ftsw_node *n = &t->nodes[i];

		map[i] = FTSW_NONE;
		if (!keep[i])
			continue;
		map[i] = ftsw_topo_add_node(o, n->kind, n->nports, n->guid,
					    n->desc, err);
		if (map[i] == FTSW_NONE)
			goto fail;
		o->nodes[map[i]].level = n->level;
		if (t->port_guids)
			memcpy(&o->port_guids[o->nodes[map[i]].first_port],
			       &t->port_guids[n->first_port],
			       n->nports * sizeof(uint64_t));
	}
	for (i = 0; i < t->nnodes; i++) {
		if (map[i] == FTSW_NONE)
			continue;
		for (p = 1; p <= t->nodes[i].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, i, p);

			if (x->peer == FTSW_NONE || map[x->peer] == FTSW_NONE)
				continue;
			*ftsw_port(o, map[i], p) = (struct ftsw_port){
				map[x->peer], x->peer_port };
		}
	}
	if (ftsw_topo_finish(o, err))
		goto fail;
	o->is_pgft = t->is_pgft;
	o->pgft = t->pgft;
	o->degraded = t->degraded || o->nnodes != t->nnodes;
	memcpy(o->spec, t->spec, sizeof(o->spec));
	if (t->digits && t->is_pgft) {
		unsigned h = t->pgft.h;

		o->digits = malloc((size_t)o->nnodes * h * sizeof(uint16_t) + 2);
		if (!o->digits)
			goto oom;
		for (i = 0; i < t->nnodes; i++)
			if (map[i] != FTSW_NONE)
				memcpy(&o->digits[(size_t)map[i] * h],
				       &t->digits[(size_t)i * h],
				       h * sizeof(uint16_t));
	}
	free(map);
	return o;
oom:
	ftsw_err_errno(err, ENOMEM, "out of memory");
fail:
	free(map);
	ftsw_topo_free(o);
	return NULL;
}

/* Uniformly pick k distinct items out of n (partial Fisher-Yates). */
static uint32_t *pick(uint32_t n, unsigned k, uint64_t *seed)
{
	uint32_t *a = malloc((n + 1) * sizeof(uint32_t));
	uint32_t i;

	if (!a)
		return NULL;
	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = 0; i < k && i < n; i++) {
		uint32_t j = i + ftsw_rand_next(seed) % (n - i);
		uint32_t x = a[i];

		a[i] = a[j];
		a[j] = x;
	}
	return a;
}

/* Mark the listed nodes (all of one kind) removed. */
static int drop_listed(const struct ftsw_topo *t, const uint32_t *ids,
		       size_t n, enum ftsw_node_kind kind, bool *keep,
		       struct ftsw_err *err)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (ids[k] >= t->nnodes || t->nodes[ids[k]].kind != kind) {
			ftsw_err_set(err, "remove %s: node %u is not a %s",
				     kind == FTSW_SWITCH ? "switch" : "host",
				     ids[k], kind == FTSW_SWITCH ? "switch" : "host");
			return -EINVAL;
		}
		keep[ids[k]] = false;
	}
	return 0;
}

/* Mark k random nodes of the dense list ids[0..n) removed. */
static int drop_random(const uint32_t *ids, uint32_t n, uint32_t k,
		       const char *opt, const char *what, uint64_t *seed,
		       bool *keep, struct ftsw_err *err)
{
	uint32_t *a, i;

	if (!k)
		return 0;
	if (k > n) {
		ftsw_err_set(err, "%s %u: only %u %s", opt, k, n, what);
		return -EINVAL;
	}
	a = pick(n, k, seed);
	if (!a) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < k; i++)
		keep[ids[a[i]]] = false;
	free(a);
	return 0;
}

/*
 * The kept nodes of t, with the explicitly listed links removed first on a
 * full copy (their node ids are those of t).
 */
static struct ftsw_topo *subset_without_links(const struct ftsw_topo *t,
					      const struct ftsw_degrade *d,
					      const bool *keep,
					      struct ftsw_err *err)
{
	struct ftsw_topo *c, *o;
	bool *all;
	size_t k;

	if (!d->nlinks)
		return ftsw_topo_subset(t, keep, err);
	all = malloc(t->nnodes + 1);
	if (!all) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	memset(all, 1, t->nnodes + 1);
	c = ftsw_topo_subset(t, all, err);
	free(all);
	if (!c)
		return NULL;
	for (k = 0; k < d->nlinks; k++) {
		uint32_t n = d->links[k][0], p = d->links[k][1];

		if (n >= t->nnodes || p < 1 || p > t->nodes[n].nports ||
		    ftsw_port(t, n, p)->peer == FTSW_NONE) {
			ftsw_err_set(err, "remove link: %s port %u is not "
				     "linked", n < t->nnodes && t->nodes[n].desc ?
				     t->nodes[n].desc : "node", p);
			ftsw_topo_free(c);
			return NULL;
		}
		ftsw_topo_disconnect(c, n, p);
	}
	c->degraded = true;
	o = ftsw_topo_subset(c, keep, err);
	ftsw_topo_free(c);
	return o;
}

/*
 * Switch-to-switch link ends of o, each link once (from its end with the
 * smaller node id, or port on a self link): count them, and fill ends[]
 * when it is not NULL.
 */
static uint64_t switch_links(const struct ftsw_topo *o, uint32_t (*ends)[2])
{
	struct ftsw_sw_port it;
	uint64_t nl = 0;

	ftsw_for_each_switch_port(o, &it, FTSW_SWP_ONCE) {
		if (ends) {
			ends[nl][0] = it.node;
			ends[nl][1] = it.port;
		}
		nl++;
	}
	return nl;
}

/* Disconnect k random switch-to-switch links of o. */
static int cut_random_links(struct ftsw_topo *o, uint32_t k, uint64_t *seed,
			    struct ftsw_err *err)
{
	uint64_t nl = switch_links(o, NULL);
	uint32_t (*ends)[2], *a, i;

	if (k > nl) {
		ftsw_err_set(err, "--links %u: only %llu switch-switch links",
			     k, (unsigned long long)nl);
		return -EINVAL;
	}
	ends = malloc((nl + 1) * sizeof(*ends));
	a = ends ? (switch_links(o, ends), pick((uint32_t)nl, k, seed)) : NULL;
	if (!a) {
		free(ends);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < k; i++)
		ftsw_topo_disconnect(o, ends[a[i]][0], ends[a[i]][1]);
	free(a);
	free(ends);
	o->degraded = true;
	return 0;
}

struct ftsw_topo *ftsw_topo_degrade(const struct ftsw_topo *t,
				    const struct ftsw_degrade *d,
				    struct ftsw_err *err)
{
	bool *keep = malloc(t->nnodes + 1);
	struct ftsw_topo *o = NULL;
	uint64_t seed = d->seed;

	if (!keep) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	memset(keep, 1, t->nnodes + 1);
	if (drop_listed(t, d->switches, d->nswitch, FTSW_SWITCH, keep, err) ||
	    drop_listed(t, d->hostlist, d->nhostlist, FTSW_HOST, keep, err) ||
	    drop_random(t->switches, t->nswitches, d->rand_switches,
			"--switches", "switches", &seed, keep, err) ||
	    drop_random(t->hosts, t->nhosts, d->rand_hosts, "--hosts", "hosts",
			&seed, keep, err))
		goto fail;
	o = subset_without_links(t, d, keep, err);
	if (!o)
		goto fail;
	if (d->rand_links && cut_random_links(o, d->rand_links, &seed, err))
		goto fail;
	free(keep);
	return o;
fail:
	free(keep);
	ftsw_topo_free(o);
	return NULL;
}

uint32_t ftsw_topo_find(const struct ftsw_topo *t, const char *name)
{
	uint64_t g = 0;
	bool by_guid = false;
	char *e;
	uint32_t i;

	if (!strncmp(name, "0x", 2) || !strncmp(name, "0X", 2)) {
		g = strtoull(name + 2, &e, 16);
		by_guid = e != name + 2 && !*e;
	} else if ((name[0] == 'S' || name[0] == 'H') && name[1] == '-') {
		g = strtoull(name + 2, &e, 16);
		by_guid = e != name + 2 && !*e;
	}
	for (i = 0; i < t->nnodes; i++)
		if (by_guid ? t->nodes[i].guid == g :
		    (t->nodes[i].desc && !strcmp(t->nodes[i].desc, name)))
			return i;
	return FTSW_NONE;
}

int ftsw_topo_find_host(const struct ftsw_topo *t, const char *name,
			uint32_t *host, struct ftsw_err *err)
{
	const char *d = name + ((name[0] == 'h' || name[0] == 'H') &&
				name[1] >= '0' && name[1] <= '9');
	uint64_t x;
	uint32_t n;

	if (*d >= '0' && *d <= '9') {
		if (ftsw_parse_u64("host", d, 0, UINT32_MAX, &x, NULL) ||
		    x >= t->nhosts) {
			ftsw_err_set(err, "host '%s': the hosts are 0..%u (h0.."
				     "h%u, a number or a node name)", name,
				     t->nhosts ? t->nhosts - 1 : 0,
				     t->nhosts ? t->nhosts - 1 : 0);
			return -EINVAL;
		}
		*host = (uint32_t)x;
		return 0;
	}
	n = ftsw_topo_find(t, name);
	if (n == FTSW_NONE || t->nodes[n].kind != FTSW_HOST) {
		ftsw_err_set(err, "host '%s': no such host (h0..h%u, a number "
			     "or a node name)", name,
			     t->nhosts ? t->nhosts - 1 : 0);
		return -EINVAL;
	}
	*host = t->nodes[n].index;
	return 0;
}

/*
 * Per node: number of distinct neighbours and links to each, above and
 * below; all must agree within a level. Returns -1 on any mismatch.
 */
int ftsw_topo_infer_pgft(const struct ftsw_topo *t, struct ftsw_pgft *g)
{
	uint32_t ns = t->nswitches, i;
	int *rank = malloc((ns + 1) * sizeof(int));
	uint32_t *mark = malloc((t->nnodes + 1) * sizeof(uint32_t));
	int nr, rc = -1;
	unsigned l;
	long up_n[FTSW_PGFT_MAX_H + 1], up_p[FTSW_PGFT_MAX_H + 1];
	long dn_n[FTSW_PGFT_MAX_H + 1], dn_p[FTSW_PGFT_MAX_H + 1];
	uint64_t cnt[FTSW_PGFT_MAX_H + 1] = { 0 };

	memset(g, 0, sizeof(*g));
	if (!rank || !mark || !t->nhosts || !ns)
		goto out;
	nr = ftsw_rank_from_leaves(t, rank);
	if (nr < 1 || nr > FTSW_PGFT_MAX_H)
		goto out;
	for (l = 0; l <= (unsigned)nr; l++)
		up_n[l] = up_p[l] = dn_n[l] = dn_p[l] = -1;
	for (i = 0; i < t->nnodes; i++)
		mark[i] = FTSW_NONE;
	for (i = 0; i < t->nnodes; i++) {
		const struct ftsw_node *n = &t->nodes[i];
		int lv = n->kind == FTSW_HOST ? 0 : rank[n->index] + 1;
		long nu = 0, nd = 0, pu = -1, pd = -1;
		unsigned p;

		if (lv < 0 || (n->kind == FTSW_SWITCH && rank[n->index] < 0))
			goto out;
		cnt[lv]++;
		/* count links per neighbour */
		for (p = 1; p <= n->nports; p++) {
			uint32_t q = ftsw_port(t, i, p)->peer;
			int lq;
			unsigned k, links = 0;

			if (q == FTSW_NONE || mark[q] == i)
				continue;
			mark[q] = i;
			lq = t->nodes[q].kind == FTSW_HOST ? 0 :
				rank[t->nodes[q].index] + 1;
			for (k = p; k <= n->nports; k++)
				links += ftsw_port(t, i, k)->peer == q;
			if (lq == lv + 1) {
				if (pu >= 0 && pu != (long)links)
					goto out;
				pu = links;
				nu++;
			} else if (lq == lv - 1) {
				if (pd >= 0 && pd != (long)links)
					goto out;
				pd = links;
				nd++;
			} else {
				goto out;	/* same level or skipping levels */
			}
		}
		if ((up_n[lv] >= 0 && (up_n[lv] != nu || up_p[lv] != pu)) ||
		    (dn_n[lv] >= 0 && (dn_n[lv] != nd || dn_p[lv] != pd)))
			goto out;
		up_n[lv] = nu;
		up_p[lv] = pu;
		dn_n[lv] = nd;
		dn_p[lv] = pd;
	}
	g->h = (unsigned)nr;
	for (l = 1; l <= g->h; l++) {
		/* w_l, p_l from below (parents of level l-1), m_l from above */
		if (up_n[l - 1] <= 0 || dn_n[l] <= 0 || up_p[l - 1] != dn_p[l])
			goto out;
		g->w[l - 1] = (unsigned)up_n[l - 1];
		g->p[l - 1] = (unsigned)up_p[l - 1];
		g->m[l - 1] = (unsigned)dn_n[l];
	}
	if (up_n[g->h] != 0)
		goto out;
	for (l = 0; l <= g->h; l++)
		if (cnt[l] != ftsw_pgft_level_size(g, l))
			goto out;
	rc = 0;
out:
	if (rc)
		memset(g, 0, sizeof(*g));
	free(rank);
	free(mark);
	return rc;
}
