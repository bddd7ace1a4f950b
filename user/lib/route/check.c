// SPDX-License-Identifier: GPL-2.0
/*
 * Routing validation (`ftsw route check`) and path tracing.
 *
 * Forwarding follows the emulator: a packet from host n enters its leaf
 * switch, each switch looks up LFT[DLID] and sends on that port; a port
 * with no route, an uncabled port, a hop count past the limit or delivery
 * to a host that doesn't own the DLID are failures.
 *
 * Destination-based tables make the path from a switch to a LID the same
 * for every source, so per destination LID one memoised walk over the
 * switches classifies all of them (delivered with hop count, no route,
 * loop, ...), in O(switches) per LID instead of O(hosts) walks. From it:
 * delivery of every (host, LID) pair, minimality (against BFS distances),
 * up*down* legality (by the routing's ranks), and the channel dependency
 * graph per virtual layer, checked for cycles. Switch LIDs (management
 * traffic, VL15 on InfiniBand) are checked for delivery only.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "route/routing.h"
#include "route/hopsel.h"
#include "route/check_int.h"


int ftsw_trace(const struct ftsw_routing *r, uint32_t src_host, uint32_t dlid,
	       uint32_t *sw_path, uint8_t *port_path, unsigned max)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t hn = t->hosts[src_host], node;
	unsigned hp = ftsw_host_port(t, hn), hops = 0;
	unsigned limit = t->nswitches + 2;

	if (!hp)
		return -3;
	node = ftsw_port(t, hn, hp)->peer;
	while (t->nodes[node].kind == FTSW_SWITCH) {
		uint32_t s = t->nodes[node].index;
		uint8_t p = dlid <= r->max_lid ? ftsw_lft(r, s)[dlid] : FTSW_PORT_NONE;
		const struct ftsw_port *x;

		if (hops < max) {
			if (sw_path)
				sw_path[hops] = s;
			if (port_path)
				port_path[hops] = p;
		}
		hops++;
		if (hops > limit)
			return -2;
		if (p == FTSW_PORT_NONE || p == 0)
			return -1;
		if (p > t->nodes[node].nports)
			return -3;
		x = ftsw_port(t, node, p);
		if (x->peer == FTSW_NONE)
			return -3;
		node = x->peer;
	}
	{
		uint32_t idx;
		unsigned off;

		if (ftsw_lid_owner(r, dlid, &idx, &off) != FTSW_HOST ||
		    t->hosts[idx] != node)
			return -4;
	}
	return (int)hops;
}


/* The VLs the CDG is checked on: the routing's, or o->vls (SL mod vls). */
uint32_t ftsw_ck_nvl(const struct ftsw_routing *r,
		       const struct ftsw_check_opts *o)
{
	return o->vls ? o->vls : r->nvls ? r->nvls : 1;
}

void ftsw_ck_report(struct ck *c, const char *fmt, ...)
{
	va_list ap;
	char buf[512];
	int n;

	if (c->nrep++ >= c->maxrep)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (c->replen + (size_t)n + 2 > c->repcap) {
		size_t cap = (c->repcap + n + 2) * 2;
		char *p = realloc(c->rep, cap);

		if (!p)
			return;
		c->rep = p;
		c->repcap = cap;
	}
	memcpy(c->rep + c->replen, buf, (size_t)n);
	c->replen += (size_t)n;
	c->rep[c->replen++] = '\n';
	c->rep[c->replen] = 0;
}

int ftsw_ck_hop_is_up(const struct ftsw_routing *r, uint32_t u, uint32_t v)
{
	int hu = r->rank_from_top ? -r->rank[u] : r->rank[u];
	int hv = r->rank_from_top ? -r->rank[v] : r->rank[v];

	return hv > hu || (hv == hu && v > u);
}

const char *ftsw_ck_swname(const struct ftsw_topo *t, uint32_t s)
{
	const char *d = t->nodes[t->switches[s]].desc;

	return d ? d : "?";
}

/*
 * Walk from switch s towards lid, memoised in st/hops/legal/down.
 * legal: the path from s is up*down*; down: it is down* only.
 */
static uint8_t walk(struct ck *c, uint32_t lid, uint32_t s, uint8_t *st,
		    uint16_t *hops, uint8_t *flags, uint32_t *stack)
{
	const struct ftsw_topo *t = c->t;
	const struct ftsw_routing *r = c->r;
	uint32_t sp = 0, cur = s;
	uint8_t res;

	/* iterative: push until a known state, then unwind */
	for (;;) {
		uint8_t p;
		const struct ftsw_port *x;
		uint32_t node = t->switches[cur];

		if (st[cur] == ST_BUSY) {
			res = ST_LOOP;
			break;
		}
		if (st[cur] != ST_UNK) {
			res = st[cur];
			break;
		}
		st[cur] = ST_BUSY;
		stack[sp++] = cur;
		p = ftsw_lft(r, cur)[lid];
		if (p == FTSW_PORT_NONE || p == 0) {
			res = ST_NOROUTE;
			break;
		}
		if (p > t->nodes[node].nports ||
		    (x = ftsw_port(t, node, p))->peer == FTSW_NONE) {
			res = ST_DEAD;
			break;
		}
		if (t->nodes[x->peer].kind == FTSW_HOST) {
			uint32_t idx;

			if (ftsw_lid_owner(r, lid, &idx, NULL) == FTSW_HOST &&
			    t->hosts[idx] == x->peer) {
				st[cur] = ST_OK;
				hops[cur] = 1;
				flags[cur] = 3;
				sp--;
				res = ST_OK;
			} else {
				res = ST_MIS;
			}
			break;
		}
		cur = t->nodes[x->peer].index;
		if (ftsw_lid_owner(r, lid, &(uint32_t){ 0 }, NULL) == FTSW_SWITCH &&
		    lid - ftsw_switch_lid(r, 0) == cur) {
			/* delivered to the destination switch */
			uint32_t prev = stack[sp - 1];
			int up = r->rank ? ftsw_ck_hop_is_up(r, prev, cur) : 1;

			st[prev] = ST_OK;
			hops[prev] = 1;
			flags[prev] = up ? 1 : 3;
			sp--;
			res = ST_OK;
			break;
		}
	}
	/* unwind: every switch on the stack gets the result */
	while (sp > 0) {
		uint32_t v = stack[--sp];

		if (res == ST_OK) {
			uint32_t nx = t->nodes[ftsw_port(t, t->switches[v],
				ftsw_lft(r, v)[lid])->peer].index;
			int up = r->rank ? ftsw_ck_hop_is_up(r, v, nx) : 1;
			uint8_t f = flags[nx];

			hops[v] = hops[nx] + 1;
			/* legal: up then legal, or down then down-only */
			flags[v] = (uint8_t)(((up && (f & 1)) || (!up && (f & 2))) |
					     ((!up && (f & 2)) ? 2 : 0));
			st[v] = ST_OK;
		} else {
			st[v] = res == ST_OK ? ST_OK : res;
		}
	}
	return res;
}

void ftsw_ck_dep_add(struct ck *c, uint64_t *dep, uint32_t s, uint8_t p,
		    uint8_t q)
{
	const struct ftsw_topo *t = c->t;
	uint32_t ch = t->nodes[t->switches[s]].first_port + p - 1;

	atomic_fetch_or_explicit((_Atomic uint64_t *)&dep[(size_t)ch * 4 + (q >> 6)],
				 1ULL << (q & 63), memory_order_relaxed);
}

/*
 * The cycle the DFS closed, in words: the channels on the stack from nx
 * to its top, each a switch's output port, and back to the first
 * ("cycle of 6 channels: T0 port 3 -> T1 port 3 -> ... -> T0 port 3");
 * the first 16 named, then how many in all.
 */
static char *cycle_words(const struct ftsw_topo *t, const uint32_t *owner,
			 const uint32_t *stk, uint32_t sp, uint32_t nx)
{
	uint32_t j = sp, k, len;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	while (j > 0 && stk[j - 1] != nx)
		j--;
	j = j ? j - 1 : 0;
	len = sp - j;
	f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	fprintf(f, "cycle of %u channel%s: ", len, len == 1 ? "" : "s");
	for (k = j; k < sp && k < j + 16; k++) {
		uint32_t ch = stk[k], o = owner[ch];

		fprintf(f, "%s port %u -> ", t->nodes[o].desc ?
			t->nodes[o].desc : "?", ch - t->nodes[o].first_port + 1);
	}
	if (len > 16)
		fprintf(f, "... (%u more) -> ", len - 16);
	fprintf(f, "%s port %u", t->nodes[owner[nx]].desc ?
		t->nodes[owner[nx]].desc : "?",
		nx - t->nodes[owner[nx]].first_port + 1);
	fclose(f);
	return buf;
}

/* DFS for a cycle in the channel dependency graph (one VL). */
static int cdg_cyclic(struct ck *c, char **cycle_desc)
{
	const struct ftsw_topo *t = c->t;
	uint32_t nch = t->nports, i;
	uint8_t *color = calloc(nch + 1, 1);
	uint32_t *stk = malloc(((size_t)nch + 1) * sizeof(uint32_t));
	uint16_t *it = calloc(nch + 1, sizeof(uint16_t));
	uint32_t *owner = malloc(((size_t)nch + 1) * sizeof(uint32_t));
	int cyc = 0;

	*cycle_desc = NULL;
	if (!color || !stk || !it || !owner)
		goto out;
	for (i = 0; i < t->nnodes; i++) {
		unsigned p;

		for (p = 0; p < t->nodes[i].nports; p++)
			owner[t->nodes[i].first_port + p] = i;
	}
	for (i = 0; i < nch && !cyc; i++) {
		uint32_t sp = 0;

		if (color[i])
			continue;
		stk[sp++] = i;
		color[i] = 1;
		it[i] = 0;
		while (sp && !cyc) {
			uint32_t ch = stk[sp - 1];
			const uint64_t *d = &c->dep[(size_t)ch * 4];
			const struct ftsw_port *x = &t->ports[ch];
			int pushed = 0;

			while (it[ch] < 256) {
				unsigned q = it[ch]++;
				uint32_t nx;

				if (!(d[q >> 6] & (1ULL << (q & 63))))
					continue;
				nx = t->nodes[x->peer].first_port + q - 1;
				if (color[nx] == 1) {
					*cycle_desc = cycle_words(t, owner, stk,
								  sp, nx);
					cyc = 1;
					break;
				}
				if (color[nx] == 0) {
					color[nx] = 1;
					it[nx] = 0;
					stk[sp++] = nx;
					pushed = 1;
					break;
				}
			}
			if (!pushed && !cyc) {
				color[ch] = 2;
				sp--;
			}
		}
	}
out:
	free(color);
	free(stk);
	free(it);
	free(owner);
	return cyc;
}

/* Shared, read-only state of one check, and the blocks' own results. */
struct ckshared {
	const struct ftsw_routing *r;
	const struct ftsw_check_opts *o;
	const uint32_t *hostleaf;
	const struct src *srcs;
	uint32_t nsrc, nblocks;
	bool per_host;
	struct ck *blocks;	/* per block: counters, reports */
	atomic_size_t done;
	atomic_flag busy;	/* a thread is reporting progress */
};

/* 1024 more LIDs walked: progress, from one thread at a time. */
static void check_progress(struct ckshared *sh)
{
	size_t d = atomic_fetch_add(&sh->done, 1024) + 1024;

	if (atomic_flag_test_and_set(&sh->busy))
		return;		/* another thread is reporting: skip */
	sh->o->progress("check: LID", d, sh->r->max_lid, sh->o->progress_arg);
	atomic_flag_clear(&sh->busy);
}


/* Count (and report) the outcome of the walk of source sr to lid. */
static void check_outcome(struct ck *c, uint8_t rs, uint32_t lid, int kind,
			  uint32_t dleaf, uint32_t n, uint32_t l, uint64_t w,
			  const struct ckscratch *x)
{
	const struct ftsw_topo *t = c->t;
	const struct ftsw_check_opts *o = c->o;
	uint32_t ns = t->nswitches;
	const char *hn = t->nodes[t->hosts[n]].desc;

	switch (rs) {
	case ST_OK:
		c->delivered += w;
		if (kind == FTSW_HOST)
			c->host_delivered += w;
		if ((uint64_t)x->hops[l] + 1 > c->max_hops)
			c->max_hops = (uint64_t)x->hops[l] + 1;
		if (o->minimal && kind == FTSW_HOST && dleaf != FTSW_NONE &&
		    x->hops[l] - 1 != c->dist[(size_t)c->leaf_of_sw[dleaf] * ns + l]) {
			if (!c->nonmin)
				ftsw_ck_report(c, "non-minimal: %s -> LID %u: %u switch "
				       "hops, shortest %u", hn, lid, x->hops[l] - 1,
				       c->dist[(size_t)c->leaf_of_sw[dleaf] * ns + l]);
			c->nonmin += w;
		}
		if (o->updown && kind == FTSW_HOST && !(x->flags[l] & 1)) {
			if (!c->updown)
				ftsw_ck_report(c, "up*down* violated: %s -> LID %u (from "
				       "switch %s)", hn, lid, ftsw_ck_swname(t, l));
			c->updown += w;
		}
		break;
	case ST_NOROUTE:
		c->no_route += w;
		ftsw_ck_report(c, "no route: %s -> LID %u (leaf %s)", hn, lid,
		       ftsw_ck_swname(t, l));
		break;
	case ST_LOOP:
	case ST_DEAD:
		*(rs == ST_LOOP ? &c->loops : &c->dead) += w;
		ftsw_ck_report(c, "%s: %s -> LID %u (leaf %s)",
		       rs == ST_LOOP ? "loop" : "dead port", hn, lid,
		       ftsw_ck_swname(t, l));
		break;
	default:
		c->mis += w;
		ftsw_ck_report(c, "misdelivered: %s -> LID %u", hn, lid);
		break;
	}
}

/* Mark the switches of the path from l on the pair's VL as used. */
static void check_mark_used(struct ck *c, uint32_t lid, uint32_t l,
			    uint32_t n, uint32_t idx, struct ckscratch *x)
{
	const struct ftsw_routing *r = c->r;
	const struct ftsw_topo *t = c->t;
	uint32_t ns = t->nswitches, nvl = ftsw_ck_nvl(r, c->o), cur = l;
	unsigned v = 0;

	if (r->sl)
		v = r->sl[(size_t)n * t->nhosts + idx] % nvl;
	while (cur != FTSW_NONE && !x->used[(size_t)v * ns + cur]) {
		const struct ftsw_port *p;

		x->used[(size_t)v * ns + cur] = 1;
		p = ftsw_port(t, t->switches[cur], ftsw_lft(r, cur)[lid]);
		cur = t->nodes[p->peer].kind == FTSW_SWITCH ?
			t->nodes[p->peer].index : FTSW_NONE;
	}
}

/* The channel dependencies the used switches create for lid. */
static void check_deps(struct ck *c, uint32_t lid, int kind, uint32_t idx,
		       const struct ckscratch *x)
{
	const struct ftsw_routing *r = c->r;
	const struct ftsw_topo *t = c->t;
	uint32_t ns = t->nswitches, nvl = ftsw_ck_nvl(r, c->o), vl, s;

	for (vl = 0; vl < nvl; vl++)
		for (s = 0; s < ns; s++) {
			uint8_t p, q;
			const struct ftsw_port *pp;
			uint32_t u;

			if (!x->used[(size_t)vl * ns + s] ||
			    (kind == FTSW_SWITCH && s == idx))
				continue;
			p = ftsw_lft(r, s)[lid];
			pp = ftsw_port(t, t->switches[s], p);
			if (t->nodes[pp->peer].kind != FTSW_SWITCH)
				continue;
			u = t->nodes[pp->peer].index;
			if (kind == FTSW_SWITCH && u == idx)
				continue;
			q = ftsw_lft(r, u)[lid];
			if (q == FTSW_PORT_NONE || q == 0 ||
			    t->nodes[ftsw_port(t, pp->peer, q)->peer].kind
			    != FTSW_SWITCH)
				continue;
			ftsw_ck_dep_add(c, c->dep + (size_t)vl * t->nports * 4, s, p, q);
		}
}

/*
 * Every entry of the tables for lid, used by a host's path or not, must
 * deliver: a loop, dead port or dangling entry in an unused entry is a
 * fault of the tables all the same (a later reroute or a stray packet
 * finds it).
 */
static void check_entries(struct ck *c, uint32_t lid, int kind, uint32_t idx,
			  struct ckscratch *x)
{
	const struct ftsw_routing *r = c->r;
	uint32_t ns = c->t->nswitches, s;
	static const char *const what[] = {
		[ST_NOROUTE] = "leads to a switch without a route",
		[ST_LOOP] = "loops", [ST_DEAD] = "sends to a dead port",
		[ST_MIS] = "delivers to the wrong host",
	};

	for (s = 0; s < ns; s++) {
		uint8_t p = ftsw_lft(r, s)[lid], rs;

		if (p == FTSW_PORT_NONE || p == 0 ||
		    (kind == FTSW_SWITCH && s == idx))
			continue;
		rs = walk(c, lid, s, x->st, x->hops, x->flags, x->stack);
		if (rs == ST_OK)
			continue;
		if (!c->bad_entries)
			ftsw_ck_report(c, "entry: switch %s, LID %u, port %u %s",
			       ftsw_ck_swname(c->t, s), lid, p,
			       rs < sizeof(what) / sizeof(what[0]) && what[rs] ?
			       what[rs] : "fails");
		c->bad_entries++;
	}
}

/*
 * LIDs [lo, hi) of block b: each block has its own scratch and results,
 * merged in block order afterwards, so the outcome is the same for any
 * number of threads; the dependency bits are OR-ed atomically.
 */
static void check_block(size_t b, void *arg)
{
	struct ckshared *sh = arg;
	struct ck *c = &sh->blocks[b];
	const struct ftsw_routing *r = sh->r;
	const struct ftsw_check_opts *o = sh->o;
	const struct ftsw_topo *t = r->topo;
	uint32_t ns = t->nswitches, nvl = ftsw_ck_nvl(r, o);
	uint32_t span = (r->max_lid + sh->nblocks) / sh->nblocks;
	uint32_t lo = 1 + (uint32_t)b * span, hi = lo + span, lid, k;
	struct ckscratch x = {
		.st = malloc(ns + 1), .flags = malloc(ns + 1),
		.hops = malloc((ns + 1) * sizeof(uint16_t)),
		.stack = malloc((ns + 2) * sizeof(uint32_t)),
		.used = malloc((size_t)(ns + 1) * nvl),
	};

	if (hi > r->max_lid + 1)
		hi = r->max_lid + 1;
	if (r->ar) {
		x.start = malloc((size_t)(ns + 1) * nvl);
		x.reach = malloc(ns + 1);
		x.color = malloc(ns + 1);
		x.queue = malloc((3 * (size_t)ns + 3) * sizeof(uint32_t));
		x.dfs_s = malloc((ns + 1) * sizeof(uint32_t));
		x.dfs_i = malloc((ns + 1) * sizeof(uint16_t));
		if (!x.start || !x.reach || !x.color || !x.queue || !x.dfs_s ||
		    !x.dfs_i) {
			c->oom = true;
			goto out;
		}
	}
	if (!x.st || !x.flags || !x.hops || !x.stack || !x.used) {
		c->oom = true;
		goto out;
	}
	for (lid = lo; lid < hi; lid++) {
		uint32_t idx, dleaf = FTSW_NONE;
		int kind = ftsw_lid_owner(r, lid, &idx, NULL);

		if (o->progress && (lid & 1023) == 0)
			check_progress(sh);
		if (!kind || (kind == FTSW_SWITCH && !o->switch_lids))
			continue;
		if (kind == FTSW_HOST)
			dleaf = sh->hostleaf[idx];
		memset(x.st, ST_UNK, ns);
		if (c->dep)
			memset(x.used, 0, (size_t)ns * nvl);
		if (r->ar)
			memset(x.start, 0, (size_t)ns * nvl);
		for (k = 0; k < sh->nsrc; k++) {
			const struct src *sr = &sh->srcs[k];
			uint32_t l = sr->leaf, n = sr->host;
			uint64_t w = sr->cnt;
			uint8_t rs;

			if (kind == FTSW_HOST && dleaf == l && l != FTSW_NONE &&
			    (sr->cnt > 1 || n == idx)) {
				/* the destination is one of this group's hosts */
				if (sh->per_host && n == idx)
					continue;
				if (!sh->per_host) {
					w--;
					if (n == idx)
						n = sr->host2;
				}
			}
			if (!w)
				continue;
			c->pairs += w;
			if (kind == FTSW_HOST)
				c->host_pairs += w;
			if (l == FTSW_NONE) {
				c->dead += w;
				ftsw_ck_report(c, "host %s is not cabled",
				       t->nodes[t->hosts[n]].desc);
				continue;
			}
			if (kind == FTSW_SWITCH && l == idx) {
				c->delivered += w;
				continue;
			}
			rs = walk(c, lid, l, x.st, x.hops, x.flags, x.stack);
			check_outcome(c, rs, lid, kind, dleaf, n, l, w, &x);
			if (c->dep && rs == ST_OK && kind == FTSW_HOST)
				check_mark_used(c, lid, l, n, idx, &x);
			if (r->ar && rs == ST_OK && kind == FTSW_HOST)
				x.start[(size_t)(r->sl ? r->sl[(size_t)n *
					t->nhosts + idx] % nvl : 0) * ns + l] = 1;
		}
		if (r->ar && kind == FTSW_HOST)
			ftsw_ck_ar(c, lid, idx, dleaf, &x);
		else if (c->dep)
			check_deps(c, lid, kind, idx, &x);
		if (o->all_entries)
			check_entries(c, lid, kind, idx, &x);
	}
out:
	free(x.st);
	free(x.flags);
	free(x.hops);
	free(x.stack);
	free(x.used);
	free(x.start);
	free(x.reach);
	free(x.color);
	free(x.queue);
	free(x.dfs_s);
	free(x.dfs_i);
}

/*
 * The LIDs in blocks over the threads, then the blocks' counters and
 * reports merged into c in block order. Returns -1 when out of memory.
 */
static int check_run_blocks(struct ck *cp, const uint32_t *hostleaf,
			    const struct src *srcs, uint32_t nsrc, bool per_host)
{
	struct ck c = *cp;
	const struct ftsw_routing *r = c.r;
	const struct ftsw_check_opts *o = c.o;
	struct ckshared sh = { .r = r, .o = o, .hostleaf = hostleaf,
			       .srcs = srcs, .nsrc = nsrc,
			       .per_host = per_host };
	unsigned nt = ftsw_threads(o->threads), bi;

	sh.nblocks = nt * 8;
	if (sh.nblocks > r->max_lid)
		sh.nblocks = r->max_lid ? r->max_lid : 1;
	atomic_init(&sh.done, 0);
	atomic_flag_clear(&sh.busy);
	sh.blocks = calloc(sh.nblocks, sizeof(struct ck));
	if (!sh.blocks)
		return -1;
	for (bi = 0; bi < sh.nblocks; bi++) {
		sh.blocks[bi] = c;
		sh.blocks[bi].rep = NULL;
		sh.blocks[bi].replen = sh.blocks[bi].repcap = 0;
	}
	ftsw_parallel_for(nt, sh.nblocks, check_block, &sh);
	for (bi = 0; bi < sh.nblocks; bi++) {
		struct ck *x = &sh.blocks[bi];
		const char *line = x->rep;

		c.oom |= x->oom;
		c.pairs += x->pairs;
		c.delivered += x->delivered;
		c.host_pairs += x->host_pairs;
		c.host_delivered += x->host_delivered;
		c.no_route += x->no_route;
		c.loops += x->loops;
		c.mis += x->mis;
		c.dead += x->dead;
		c.nonmin += x->nonmin;
		c.updown += x->updown;
		c.bad_entries += x->bad_entries;
		c.ar_entries += x->ar_entries;
		c.ar_bad += x->ar_bad;
		if (x->max_hops > c.max_hops)
			c.max_hops = x->max_hops;
		while (line && *line) {
			const char *nl = strchr(line, '\n');
			int len = nl ? (int)(nl - line) : (int)strlen(line);

			ftsw_ck_report(&c, "%.*s", len, line);
			line += len + (nl ? 1 : 0);
		}
		free(x->rep);
	}
	free(sh.blocks);
	*cp = c;
	return c.oom ? -1 : 0;
}

/* Number the leaf switches (c->leaf_of_sw, c->nl); each host's leaf. */
static int check_leaves(struct ck *c, uint32_t *hostleaf)
{
	const struct ftsw_topo *t = c->t;
	uint32_t n, s;

	c->leaf_of_sw = malloc((t->nswitches + 1) * sizeof(uint32_t));
	if (!c->leaf_of_sw)
		return -1;
	for (s = 0; s < t->nswitches; s++)
		c->leaf_of_sw[s] = FTSW_NONE;
	for (n = 0; n < t->nhosts; n++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[n]);

		hostleaf[n] = sw == FTSW_NONE ? FTSW_NONE : t->nodes[sw].index;
		if (sw != FTSW_NONE && c->leaf_of_sw[t->nodes[sw].index] == FTSW_NONE)
			c->leaf_of_sw[t->nodes[sw].index] = c->nl++;
	}
	return 0;
}

/*
 * Sources: hosts on one leaf share every path (tables depend on the
 * destination only), so one walk per leaf counts for all of them;
 * with per-pair SLs each host is its own source (its VL may differ).
 * Returns the array (*nsrc entries) or NULL when out of memory.
 */
static struct src *check_sources(const struct ftsw_topo *t,
				 const uint32_t *hostleaf, bool per_host,
				 uint32_t *nsrc)
{
	struct src *srcs = malloc(((size_t)t->nhosts + 1) * sizeof(*srcs));
	uint32_t *srcof = malloc(((size_t)t->nswitches + 1) * sizeof(uint32_t));
	uint32_t n, s;

	*nsrc = 0;
	if (!srcs || !srcof) {
		free(srcs);
		free(srcof);
		return NULL;
	}
	for (s = 0; s < t->nswitches; s++)
		srcof[s] = FTSW_NONE;
	for (n = 0; n < t->nhosts; n++) {
		uint32_t l = hostleaf[n];

		if (!per_host && l != FTSW_NONE && srcof[l] != FTSW_NONE) {
			struct src *sr = &srcs[srcof[l]];

			if (sr->cnt++ == 1)
				sr->host2 = n;
			continue;
		}
		if (l != FTSW_NONE)
			srcof[l] = *nsrc;
		srcs[(*nsrc)++] = (struct src){ n, n, l, 1 };
	}
	free(srcof);
	return srcs;
}

/* minimality: BFS distances from every leaf switch */
static int check_leaf_dists(struct ck *c, uint32_t *stack)
{
	uint32_t ns = c->t->nswitches, s;

	c->dist = malloc((size_t)c->nl * ns + 1);
	if (!c->dist)
		return -1;
	for (s = 0; s < ns; s++)
		if (c->leaf_of_sw[s] != FTSW_NONE)
			ftsw_switch_bfs(c->t, s, NULL,
					&c->dist[(size_t)c->leaf_of_sw[s] * ns],
					stack);
	return 0;
}

/* A cycle in each VL's channel dependency graph, counted and reported. */
static void check_cdg_vls(struct ck *c, uint32_t nvl,
			  struct ftsw_check_result *res)
{
	uint32_t vl;

	for (vl = 0; vl < nvl; vl++) {
		uint64_t *save = c->dep;
		char *desc = NULL;

		c->dep += (size_t)vl * c->t->nports * 4;
		if (cdg_cyclic(c, &desc)) {
			res->cdg_cyclic_vls++;
			ftsw_ck_report(c, "VL %u: channel dependency graph has a %s",
			       vl, desc ? desc : "cycle");
		}
		free(desc);
		c->dep = save;
	}
}

/* The counters into the result; the report moves over. */
static void check_result(struct ck *c, struct ftsw_check_result *res)
{
	res->pairs = c->pairs;
	res->delivered = c->delivered;
	res->host_pairs = c->host_pairs;
	res->host_delivered = c->host_delivered;
	res->no_route = c->no_route;
	res->loops = c->loops;
	res->misdelivered = c->mis;
	res->dead_port = c->dead;
	res->non_minimal = c->nonmin;
	res->updown_violations = c->updown;
	res->bad_entries = c->bad_entries;
	res->ar_entries = c->ar_entries;
	res->ar_bad = c->ar_bad;
	res->max_hops = c->max_hops;
	res->report = c->rep;
	c->rep = NULL;
	res->ok = c->pairs == c->delivered && !c->nonmin && !c->updown &&
		  !res->cdg_cyclic_vls && !c->bad_entries && !c->ar_bad;
}

int ftsw_routing_check(const struct ftsw_routing *r,
		       const struct ftsw_check_opts *o,
		       struct ftsw_check_result *res, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	struct ck c = { .r = r, .o = o, .t = t };
	uint32_t ns = t->nswitches, nh = t->nhosts, nvl = ftsw_ck_nvl(r, o);
	uint32_t *stack = malloc((ns + 2) * sizeof(uint32_t));
	uint32_t *hostleaf = malloc((nh + 1) * sizeof(uint32_t));
	uint32_t nsrc = 0;
	struct src *srcs = NULL;
	bool per_host = r->sl != NULL;
	int rc = -ENOMEM;

	memset(res, 0, sizeof(*res));
	c.maxrep = o->max_report ? o->max_report : 10;
	if (!stack || !hostleaf)
		goto out;
	if ((o->updown) && !r->rank) {
		ftsw_err_set(err, "check: up*down* asked but the routing has no "
			     "ranks");
		rc = -EINVAL;
		goto out;
	}
	if (o->cdg) {
		c.dep = calloc((size_t)t->nports * 4 * nvl + 1, sizeof(uint64_t));
		if (!c.dep)
			goto out;
	}
	if (check_leaves(&c, hostleaf))
		goto out;
	srcs = check_sources(t, hostleaf, per_host, &nsrc);
	if (!srcs)
		goto out;
	if (o->minimal && check_leaf_dists(&c, stack))
		goto out;
	if (check_run_blocks(&c, hostleaf, srcs, nsrc, per_host))
		goto out;
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	if (c.dep)
		check_cdg_vls(&c, nvl, res);
	check_result(&c, res);
	rc = 0;
out:
	if (rc == -ENOMEM)
		ftsw_err_errno(err, ENOMEM, "check: out of memory");
	free(stack);
	free(hostleaf);
	free(c.dep);
	free(c.dist);
	free(c.leaf_of_sw);
	free(c.rep);
	free(srcs);
	return rc;
}

void ftsw_check_result_free(struct ftsw_check_result *res)
{
	free(res->report);
	res->report = NULL;
}
