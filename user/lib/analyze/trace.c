// SPDX-License-Identifier: GPL-2.0
/*
 * Path tracing with the kernel's forwarding semantics (kmod/datapath.c)
 * and link loads of a traffic matrix.
 *
 * The source edge port picks the LMC offset by flow hash among its allowed
 * offsets (uniformly: the hash is spread over the offset list), forms
 * DLID = destination base LID + offset, and forwards by its leaf's LFT.
 * Every switch looks up LFT[DLID]; port 0, 255 or a port past the switch's
 * count is "no route"; an uncabled port is "dead". A frame arriving on a
 * link port is dropped when it has already taken hop_limit link hops. The
 * edge port reached delivers only if the DLID lies in its host's LID range.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"

const char *ftsw_trace_status_str(int status)
{
	switch (status) {
	case FTSW_TRACE_OK: return "delivered";
	case FTSW_TRACE_NO_ROUTE: return "no route";
	case FTSW_TRACE_LOOP: return "hop limit (loop)";
	case FTSW_TRACE_DEAD: return "dead port";
	case FTSW_TRACE_MISDELIVERED: return "misdelivered";
	case FTSW_TRACE_BAD_OFFSET: return "offset not allowed";
	}
	return "?";
}

static bool offset_allowed(const struct ftsw_path_policy *pol, unsigned o)
{
	return o < 128 && (pol->allowed[o / 64] >> (o % 64)) & 1;
}

unsigned ftsw_path_offsets(const struct ftsw_routing *r, uint32_t src,
			   uint8_t *offsets, double *weights)
{
	const struct ftsw_path_policy *pol = &r->policy[src];
	unsigned n = 0, o, lim = 1u << r->lmc;

	if (pol->fixed_offset != FTSW_OFFSET_ANY) {
		if (pol->fixed_offset >= lim)
			return 0;
		offsets[0] = pol->fixed_offset;
		weights[0] = 1.0;
		return 1;
	}
	for (o = 0; o < lim; o++)
		if (offset_allowed(pol, o))
			offsets[n++] = (uint8_t)o;
	for (o = 0; o < n; o++)
		weights[o] = 1.0 / n;
	return n;
}

unsigned ftsw_offsets_weighted(const struct ftsw_offset_list *l, unsigned lmc,
			       uint8_t *offsets, double *weights)
{
	unsigned cnt[128] = { 0 }, i, n = 0, lim = 1u << lmc, tot = 0;

	for (i = 0; i < l->n && i < 128; i++)
		if (l->off[i] < lim) {
			cnt[l->off[i]]++;
			tot++;
		}
	for (i = 0; i < lim && tot; i++)
		if (cnt[i]) {
			offsets[n] = (uint8_t)i;
			weights[n++] = (double)cnt[i] / tot;
		}
	return n;
}

static int trace_impl(const struct ftsw_routing *r, uint32_t src, uint32_t dst,
		      unsigned offset, unsigned hop_limit, bool policy,
		      struct ftsw_path *p);

int ftsw_trace_path(const struct ftsw_routing *r, uint32_t src, uint32_t dst,
		    unsigned offset, unsigned hop_limit, struct ftsw_path *p)
{
	return trace_impl(r, src, dst, offset, hop_limit, true, p);
}

/* policy false: the offset comes from the kernel's list, not r->policy */
static int trace_impl(const struct ftsw_routing *r, uint32_t src, uint32_t dst,
		      unsigned offset, unsigned hop_limit, bool policy,
		      struct ftsw_path *p)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t hn, node, lid, idx;
	unsigned hp, links = 0, off;

	if (!hop_limit || hop_limit > FTSW_HOP_LIMIT)
		hop_limit = FTSW_HOP_LIMIT;
	memset(p, 0, offsetof(struct ftsw_path, hops));
	if (offset == FTSW_OFFSET_ANY) {
		uint8_t o[128];
		double w[128];

		if (!ftsw_path_offsets(r, src, o, w)) {
			p->status = FTSW_TRACE_BAD_OFFSET;
			return p->status;
		}
		offset = o[0];
	} else if (offset >= (1u << r->lmc) ||
		   (policy && (r->policy[src].fixed_offset != FTSW_OFFSET_ANY ?
			       r->policy[src].fixed_offset != offset :
			       !offset_allowed(&r->policy[src], offset)))) {
		p->status = FTSW_TRACE_BAD_OFFSET;
		return p->status;
	}
	lid = ftsw_host_lid(r, dst) + offset;
	p->dlid = lid;
	p->offset = (uint8_t)offset;
	p->sl = r->sl ? r->sl[(size_t)src * r->nhosts + dst] : 0;
	hn = t->hosts[src];
	hp = ftsw_host_port(t, hn);
	if (!hp) {
		p->status = FTSW_TRACE_DEAD;
		return p->status;
	}
	node = ftsw_port(t, hn, hp)->peer;
	for (;;) {
		uint32_t s = t->nodes[node].index;
		uint8_t port = lid <= r->max_lid ? ftsw_lft(r, s)[lid] :
			       FTSW_PORT_NONE;
		const struct ftsw_port *x;

		p->hops[p->nhops].sw = s;
		p->hops[p->nhops].port = port;
		p->nhops++;
		if (port == FTSW_PORT_NONE || port == 0 ||
		    port > t->nodes[node].nports) {
			p->status = FTSW_TRACE_NO_ROUTE;
			return p->status;
		}
		x = ftsw_port(t, node, port);
		if (x->peer == FTSW_NONE) {
			p->status = FTSW_TRACE_DEAD;
			return p->status;
		}
		if (t->nodes[x->peer].kind == FTSW_HOST) {
			node = x->peer;
			break;
		}
		/* a link port receives it: hop limit, then count */
		if (links >= hop_limit) {
			p->status = FTSW_TRACE_LOOP;
			return p->status;
		}
		links++;
		node = x->peer;
	}
	if (ftsw_lid_owner(r, lid, &idx, &off) != FTSW_HOST ||
	    t->hosts[idx] != node) {
		p->status = FTSW_TRACE_MISDELIVERED;
		return p->status;
	}
	p->status = FTSW_TRACE_OK;
	return p->status;
}

/*
 * Adaptive groups: amount a (flows fl) from switch s towards lid, split
 * evenly over its allowed ports at every switch. Returns the number of
 * paths the groups allow from s (a walk that fails or passes the hop
 * limit adds no path).
 */
static uint64_t split_flow(const struct ftsw_routing *r, uint32_t s,
			   uint32_t lid, double a, double fl, unsigned depth,
			   unsigned limit, double *load, double *flows)
{
	const struct ftsw_topo *t = r->topo;
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	uint8_t ports[255];
	unsigned np = ftsw_ar_ports(r, s, lid, ports), i;
	uint64_t paths = 0;

	if (!np || depth > limit)
		return 0;
	for (i = 0; i < np; i++) {
		uint32_t l, peer;

		if (ports[i] > n->nports)
			continue;
		l = ftsw_link_id(t, t->switches[s], ports[i]);
		peer = t->ports[l].peer;
		if (peer == FTSW_NONE)
			continue;
		load[l] += a / np;
		if (flows)
			flows[l] += fl / np;
		if (t->nodes[peer].kind == FTSW_HOST)
			paths++;
		else
			paths += split_flow(r, t->nodes[peer].index, lid, a / np,
					    fl / np, depth + 1, limit, load,
					    flows);
	}
	return paths;
}

/* Add one flow's amount along all its paths. */
static void load_flow(const struct ftsw_routing *r, uint32_t s, uint32_t d,
		      double amount, const struct ftsw_load_opts *o,
		      double *load, double *flows,
		      struct ftsw_load_result *res, struct ftsw_path *p)
{
	const struct ftsw_topo *t = r->topo;
	uint8_t offs[128];
	double w[128];
	unsigned n, k, i;

	if (s == d)
		return;	/* never enters the fabric */
	n = o->lists ? ftsw_offsets_weighted(&o->lists[s], r->lmc, offs, w) :
		       ftsw_path_offsets(r, s, offs, w);
	if (!n) {
		res->flows++;
		res->failed++;
		res->fail_status[-FTSW_TRACE_BAD_OFFSET]++;
		res->failed_amount += amount;
		return;
	}
	for (k = 0; k < n; k++) {
		double a = amount * w[k];
		uint32_t hn = t->hosts[s];

		res->flows++;
		if (trace_impl(r, s, d, offs[k], o->hop_limit, !o->lists, p)) {
			res->failed++;
			res->fail_status[-p->status]++;
			res->failed_amount += a;
			if (!res->first_failure[0])
				snprintf(res->first_failure,
					 sizeof(res->first_failure),
					 "host %u -> host %u (DLID %u): %s", s,
					 d, p->dlid,
					 ftsw_trace_status_str(p->status));
			continue;
		}
		res->delivered++;
		res->path_hist[p->nhops < FTSW_HOP_LIMIT + 1 ? p->nhops :
			       FTSW_HOP_LIMIT + 1]++;
		/* host uplink */
		load[ftsw_link_id(t, hn, ftsw_host_port(t, hn))] += a;
		if (flows)
			flows[ftsw_link_id(t, hn, ftsw_host_port(t, hn))] += w[k];
		if (o->adaptive_split && r->ar && p->nhops) {
			uint64_t np = split_flow(r, p->hops[0].sw, p->dlid, a,
						 w[k], 1, o->hop_limit ?
						 o->hop_limit : FTSW_HOP_LIMIT,
						 load, flows);

			res->ar_paths += np;
			if (np > res->ar_paths_max)
				res->ar_paths_max = np;
			continue;
		}
		for (i = 0; i < p->nhops; i++) {
			uint32_t l = ftsw_link_id(t, t->switches[p->hops[i].sw],
						  p->hops[i].port);
			load[l] += a;
			if (flows)
				flows[l] += w[k];
		}
	}
}

int ftsw_link_loads(const struct ftsw_routing *r, const struct ftsw_tm *tm,
		    const struct ftsw_load_opts *o, double *load,
		    double *flows, struct ftsw_load_result *res,
		    struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_load_opts dflt = { 0 };
	struct ftsw_path *p;
	size_t i;

	if (!o)
		o = &dflt;
	if (tm->n > t->nhosts) {
		ftsw_err_set(err, "traffic matrix over %u endpoints, fabric has "
			     "%u hosts", tm->n, t->nhosts);
		return -1;
	}
	p = malloc(sizeof(*p));
	if (!p) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	memset(res, 0, sizeof(*res));
	memset(load, 0, t->nports * sizeof(*load));
	if (flows)
		memset(flows, 0, t->nports * sizeof(*flows));
	if (tm->all_to_all) {
		uint32_t s, d;

		for (s = 0; s < tm->n; s++)
			for (d = 0; d < tm->n; d++)
				load_flow(r, s, d, tm->a2a, o, load, flows, res, p);
	}
	for (i = 0; i < tm->nflows; i++) {
		const struct ftsw_flow *f = &tm->f[i];

		if (f->src >= t->nhosts || f->dst >= t->nhosts) {
			ftsw_err_errno(err, ERANGE,
				       "flow %zu: host %u -> %u outside "
				       "0..%u", i, f->src, f->dst,
				       t->nhosts - 1);
			free(p);
			return -1;
		}
		load_flow(r, f->src, f->dst, f->amount, o, load, flows, res, p);
	}
	free(p);
	return 0;
}

void ftsw_table_stats(const struct ftsw_routing *r, struct ftsw_table_stats *s)
{
	uint32_t sw;

	memset(s, 0, sizeof(*s));
	s->min_used = UINT32_MAX;
	for (sw = 0; sw < r->nswitches; sw++) {
		const uint8_t *l = ftsw_lft(r, sw);
		uint32_t used = 0;
		size_t i;

		for (i = 1; i < r->lft_size; i++)
			used += l[i] != FTSW_PORT_NONE;
		s->used_entries += used;
		if (used < s->min_used)
			s->min_used = used;
		if (used > s->max_used)
			s->max_used = used;
	}
	if (!r->nswitches)
		s->min_used = 0;
	s->total_entries = (uint64_t)r->nswitches * r->lft_size;
	s->bytes = s->total_entries;
}
