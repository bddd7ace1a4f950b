// SPDX-License-Identifier: GPL-2.0
/*
 * The paths of a host pair on the tables the sampler read last: every LMC
 * offset's path as the kernel forwards it (the analyzer's tracer, one
 * semantics), with the SL the source's edge port gives that DLID and the
 * VL each switch maps it to, whether the source sends on that offset, and
 * which hops cross a cable that is down now. No kernel request: a client
 * asking never causes one.
 */
#include <errno.h>
#include <string.h>

#include "analyze/analyze.h"
#include "view/view_int.h"

/* The SL host h's edge port gives packets to dlid. */
static unsigned host_sl(const struct ftsw_view *v, uint32_t h, uint32_t dlid)
{
	const struct ftsw_topo *t = v->t;
	uint32_t node = t->hosts[h];
	unsigned hp = ftsw_host_port(t, node);
	const struct ftsw_port *x;

	if (dlid < v->sl_table_len[h] && v->sl_table[h])
		return v->sl_table[h][dlid] & 0xf;
	if (!hp || !v->snap.p)
		return 0;
	x = ftsw_port(t, node, hp);
	return v->snap.p[ftsw_link_id(t, x->peer, x->peer_port)].sl & 0xf;
}

/* Whether the cable out of switch sw's port is down now. */
static bool hop_down(const struct ftsw_view *v, uint32_t sw, unsigned port)
{
	uint32_t r = ftsw_view_rec(v, sw, port);
	const struct ftsw_port *x;

	if (r == FTSW_NONE || !v->snap.p)
		return false;
	x = &v->t->ports[r];
	return v->snap.p[r].state != FTSW_VIEW_UP ||
	       (x->peer != FTSW_NONE &&
		v->snap.p[ftsw_link_id(v->t, x->peer, x->peer_port)].state ==
		FTSW_VIEW_DOWN);
}

static void path_fill(const struct ftsw_view *v, uint32_t s,
		      const struct ftsw_path *tp, struct ftsw_view_path *x)
{
	const struct ftsw_topo *t = v->t;
	uint32_t hn = t->hosts[s];
	unsigned in = ftsw_port(t, hn, ftsw_host_port(t, hn))->peer_port, k;

	x->dlid = tp->dlid;
	x->offset = tp->offset;
	x->status = tp->status;
	x->sl = host_sl(v, s, tp->dlid);
	x->nhops = tp->nhops < 66 ? tp->nhops : 66;
	for (k = 0; k < x->nhops; k++) {
		struct ftsw_view_hop *h = &x->hops[k];
		uint32_t node = t->switches[tp->hops[k].sw];

		h->sw = tp->hops[k].sw;
		h->port = tp->hops[k].port;
		h->in_port = in;
		h->vl = v->sl2vl[h->sw][x->sl] & 0xf;
		h->down = hop_down(v, h->sw, h->port);
		in = h->port && h->port <= t->nodes[node].nports &&
		     ftsw_port(t, node, h->port)->peer != FTSW_NONE ?
		     ftsw_port(t, node, h->port)->peer_port : 0;
	}
}

int ftsw_view_paths(const struct ftsw_view *v, const char *src,
		    const char *dst, struct ftsw_view_paths *p,
		    struct ftsw_err *err)
{
	int64_t s = ftsw_view_find_host(v, src), d = ftsw_view_find_host(v, dst);
	unsigned off, n;

	memset(p, 0, offsetof(struct ftsw_view_paths, path));
	if (s < 0 || d < 0) {
		ftsw_err_set(err, "host '%.40s': lab %s has h0..h%u (or a host's "
			     "node name)", s < 0 ? (src ? src : "") :
			     (dst ? dst : ""), v->name,
			     v->t->nhosts ? v->t->nhosts - 1 : 0);
		return -1;
	}
	if (!v->rt) {
		ftsw_err_errno(err, EAGAIN, "no tables read yet");
		return -1;
	}
	p->src = (uint32_t)s;
	p->dst = (uint32_t)d;
	p->generation = v->rt_generation;
	n = 1u << v->rt->lmc;
	for (off = 0; off < n && off < FTSW_VIEW_MAX_PATHS; off++) {
		struct ftsw_view_path *x = &p->path[p->npaths++];
		struct ftsw_path tp;

		ftsw_trace_path(v->rt, (uint32_t)s, (uint32_t)d, off, 0, &tp);
		memset(x, 0, sizeof(*x));
		path_fill(v, (uint32_t)s, &tp, x);
		x->used = v->used_offsets ?
			  (v->used_offsets[s][off / 64] >> (off % 64)) & 1 : true;
	}
	return 0;
}
