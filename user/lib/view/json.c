// SPDX-License-Identifier: GPL-2.0
/*
 * The page's JSON (Documentation/lab.md, "Watching the fabric"): the
 * topology once (nodes where the layout puts them, cables by their two
 * directed links), then snapshots: every directed link's state, rates and
 * packets, the lossless state (buffers, credit waits, discards, waiting
 * heads, their cycles), the managers' state and the timeline's new
 * events; a delta holds only the links that changed.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analyze/analyze.h"
#include "view/view_int.h"

void ftsw_view_json_topology(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	const struct ftsw_topo *t = v->t;
	const struct ftsw_layout *l = &v->layout;
	uint32_t i, q;
	bool first = true;

	ftsw_vbuf_printf(b, "{\"lab\":");
	ftsw_vbuf_json_str(b, v->name);
	ftsw_vbuf_printf(b, ",\"spec\":");
	ftsw_vbuf_json_str(b, v->spec);
	ftsw_vbuf_printf(b, ",\"engine\":");
	ftsw_vbuf_json_str(b, v->engine);
	ftsw_vbuf_printf(b, ",\"lmc\":%u,\"switches\":%u,\"hosts\":%u,"
			 "\"records\":%u,\"layout\":\"%s\",\"width\":%.0f,"
			 "\"height\":%.0f,\"levels\":%d,\"groups\":%u,"
			 "\"draw_hosts\":%s,\"interval\":%.3f,\"nodes\":[",
			 v->lmc, t->nswitches, t->nhosts, t->nports,
			 ftsw_layout_kind_name(l->kind), l->width, l->height,
			 l->nlevels, l->ngroups, v->hosts ? "true" : "false",
			 v->interval_ms / 1000.0);
	for (i = 0; i < t->nnodes; i++) {
		ftsw_vbuf_printf(b, "%s{\"n\":\"%s\",\"d\":", i ? "," : "",
				 v->node[i].name);
		ftsw_vbuf_json_str(b, t->nodes[i].desc);
		ftsw_vbuf_printf(b, ",\"x\":%.1f,\"y\":%.1f,\"l\":%d,\"g\":%d}",
				 l->x[i], l->y[i], l->level[i],
				 l->group[i] == FTSW_NONE ? -1 : (int)l->group[i]);
	}
	/* cables: [node a, port a, node b, port b, record a, record b, bent] */
	ftsw_vbuf_printf(b, "],\"cables\":[");
	for (i = 0; i < t->nnodes; i++)
		for (q = 1; q <= t->nodes[i].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, i, q);

			if (x->peer == FTSW_NONE || x->peer < i ||
			    (x->peer == i && x->peer_port < q))
				continue;
			ftsw_vbuf_printf(b, "%s[%u,%u,%u,%u,%u,%u,%d]",
					 first ? "" : ",", i, q, x->peer,
					 x->peer_port, ftsw_link_id(t, i, q),
					 ftsw_link_id(t, x->peer, x->peer_port),
					 ftsw_layout_bent(l, i, x->peer));
			first = false;
		}
	ftsw_vbuf_printf(b, "]}");
}

/* The changes of record r since the sample before. */
static bool changed(const struct ftsw_view_port *p,
		    const struct ftsw_view_port *o)
{
	return p->state != o->state || p->txp != o->txp ||
	       fabs(p->pps - o->pps) > 1e-9 || fabs(p->bps - o->bps) > 1e-9;
}

static bool ll_changed(const struct ftsw_view_port *p,
		       const struct ftsw_view_port *o)
{
	return p->in_bytes != o->in_bytes || p->out_bytes != o->out_bytes ||
	       p->waiting != o->waiting || p->hoq + p->life != o->hoq + o->life ||
	       fabs(p->credit_wait - o->credit_wait) > 1e-9;
}

static double occupancy(const struct ftsw_view_port *p)
{
	return p->in_buf && p->nvl ? (double)p->in_bytes / p->in_buf : 0;
}

static void json_links(const struct ftsw_view *v, bool full,
		       struct ftsw_vbuf *b)
{
	const struct ftsw_view_snap *s = &v->snap;
	const struct ftsw_view_port *o = v->prev.p;
	bool first = true;
	uint32_t r;

	/* [record, state, packets/s, bits/s, packets] */
	ftsw_vbuf_printf(b, ",\"links\":[");
	for (r = 0; r < v->t->nports; r++) {
		const struct ftsw_view_port *p = &s->p[r];

		if (v->t->ports[r].peer == FTSW_NONE ||
		    (!full && o && !changed(p, &o[r])))
			continue;
		ftsw_vbuf_printf(b, "%s[%u,%u,", first ? "" : ",", r, p->state);
		ftsw_vbuf_num(b, p->pps);
		ftsw_vbuf_put(b, ",", 1);
		ftsw_vbuf_num(b, p->bps);
		ftsw_vbuf_printf(b, ",%" PRIu64 "]", p->txp);
		first = false;
	}
	ftsw_vbuf_put(b, "]", 1);
	if (!s->lossless)
		return;
	/* [record, input occupancy (share), credit wait (share), waiting,
	 * discards, buffered bytes in, out] */
	ftsw_vbuf_printf(b, ",\"ll\":[");
	first = true;
	for (r = 0; r < v->t->nports; r++) {
		const struct ftsw_view_port *p = &s->p[r];

		if (!p->nvl || (!full && o && !ll_changed(p, &o[r])))
			continue;
		ftsw_vbuf_printf(b, "%s[%u,", first ? "" : ",", r);
		ftsw_vbuf_num(b, occupancy(p));
		ftsw_vbuf_put(b, ",", 1);
		ftsw_vbuf_num(b, p->credit_wait);
		ftsw_vbuf_printf(b, ",%d,%" PRIu64 ",%u,%u]", p->waiting,
				 p->hoq + p->life, p->in_bytes, p->out_bytes);
		first = false;
	}
	ftsw_vbuf_put(b, "]", 1);
}

static void json_waits(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	const struct ftsw_view_snap *s = &v->snap;
	size_t i;
	unsigned k;

	/* waiting input heads: [switch, port, VL, waits for port, VL, ms,
	 * full] */
	ftsw_vbuf_printf(b, ",\"heads\":[");
	for (i = 0; i < s->nheads; i++) {
		const struct ftsw_lab_buf *h = &s->heads[i];

		ftsw_vbuf_printf(b, "%s[%u,%u,%u,%u,%u,%.0f,%d]", i ? "," : "",
				 h->sw, h->port, h->vl, h->wait_port,
				 h->wait_vl, h->waited_ns / 1e6, h->full);
	}
	ftsw_vbuf_printf(b, "],\"cycles\":[");
	for (i = 0; i < s->cycles.n; i++) {
		const struct ftsw_lab_cycle *c = &s->cycles.v[i];

		ftsw_vbuf_printf(b, "%s{\"vl\":%u,\"cdg\":%d,\"why\":", i ? "," : "",
				 c->n ? c->bufs[0].vl : 0, c->cdg);
		ftsw_vbuf_json_str(b, c->why);
		ftsw_vbuf_printf(b, ",\"bufs\":[");
		for (k = 0; k < c->n; k++)
			ftsw_vbuf_printf(b, "%s[%u,%u,%u,%u]", k ? "," : "",
					 c->bufs[k].sw, c->bufs[k].in_port,
					 c->bufs[k].vl, c->bufs[k].out_port);
		ftsw_vbuf_printf(b, "]}");
	}
	ftsw_vbuf_put(b, "]", 1);
}

static void json_mgr(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	const struct ftsw_view_mgr *m = &v->mgr;
	const struct ftsw_view_snap *s = &v->snap;
	uint64_t drops = 0;
	unsigned d;

	for (d = 0; d <= FTSW_DROP_MAX; d++)
		drops += s->drops[d];
	ftsw_vbuf_printf(b, ",\"fm\":");
	if (m->fm_running)
		ftsw_vbuf_printf(b, "{\"sweeps\":%" PRIu64 ",\"generation\":%"
				 PRIu64 ",\"cables\":%" PRIu64 ",\"usable\":%"
				 PRIu64 ",\"unreachable\":%" PRIu64 "}",
				 m->fm.sweeps, m->fm.generation, m->fm.cables,
				 m->fm.cables_usable, m->fm.unreachable_pairs);
	else
		ftsw_vbuf_printf(b, "null");
	ftsw_vbuf_printf(b, ",\"sm\":");
	if (m->sm)
		ftsw_vbuf_printf(b, "{\"running\":%s,\"sweeps\":%" PRIu64
				 ",\"traps\":%" PRIu64 "}",
				 m->sm_running ? "true" : "false", m->sm_sweeps,
				 m->sm_traps);
	else
		ftsw_vbuf_printf(b, "null");
	ftsw_vbuf_printf(b, ",\"drops\":%" PRIu64 ",\"ports_down\":%u,"
			 "\"waiting\":%u,\"sample_ms\":%.1f", drops,
			 s->ports_down, s->nwaiting, s->sample_ms);
}

static void json_events(const struct ftsw_view *v, uint64_t since,
			struct ftsw_vbuf *b)
{
	const struct ftsw_view_timeline *tl = &v->tl;
	uint64_t first = tl->next > FTSW_VIEW_TIMELINE ?
			 tl->next - FTSW_VIEW_TIMELINE : 0, s, s0;

	ftsw_vbuf_printf(b, "\"events\":[");
	s0 = since > first ? since : first;
	for (s = s0; s < tl->next; s++) {
		const struct ftsw_view_event *e = &tl->ev[s % FTSW_VIEW_TIMELINE];

		ftsw_vbuf_printf(b, "%s{\"seq\":%" PRIu64 ",\"time\":%.3f,"
				 "\"kind\":", s > s0 ? "," : "", e->seq, e->time);
		ftsw_vbuf_json_str(b, e->kind);
		ftsw_vbuf_printf(b, ",\"text\":");
		ftsw_vbuf_json_str(b, e->text);
		ftsw_vbuf_put(b, "}", 1);
	}
	ftsw_vbuf_printf(b, "],\"next_event\":%" PRIu64, tl->next);
}

void ftsw_view_json_timeline(const struct ftsw_view *v, uint64_t since,
			     struct ftsw_vbuf *b)
{
	ftsw_vbuf_put(b, "{", 1);
	json_events(v, since, b);
	ftsw_vbuf_put(b, "}", 1);
}

void ftsw_view_json_snap(const struct ftsw_view *v, bool full, uint64_t since,
			 struct ftsw_vbuf *b)
{
	const struct ftsw_view_snap *s = &v->snap;

	ftsw_vbuf_printf(b, "{\"type\":\"%s\",\"seq\":%" PRIu64 ",\"time\":%.3f,"
			 "\"interval\":%.3f,\"generation\":%" PRIu64
			 ",\"lossless\":%s", full ? "snap" : "delta", s->seq,
			 s->wall, s->interval, s->generation,
			 s->lossless ? "true" : "false");
	if (s->p)
		json_links(v, full || !v->prev.p, b);
	json_waits(v, b);
	json_mgr(v, b);
	ftsw_vbuf_put(b, ",", 1);
	json_events(v, since, b);
	ftsw_vbuf_put(b, "}", 1);
}

void ftsw_view_json_paths(const struct ftsw_view *v,
			  const struct ftsw_view_paths *p, struct ftsw_vbuf *b)
{
	const struct ftsw_topo *t = v->t;
	unsigned i, k;

	ftsw_vbuf_printf(b, "{\"src\":\"h%u\",\"dst\":\"h%u\",\"generation\":%"
			 PRIu64 ",\"paths\":[", p->src, p->dst, p->generation);
	for (i = 0; i < p->npaths; i++) {
		const struct ftsw_view_path *x = &p->path[i];

		ftsw_vbuf_printf(b, "%s{\"dlid\":%u,\"offset\":%u,\"sl\":%u,"
				 "\"used\":%s,\"status\":", i ? "," : "", x->dlid,
				 x->offset, x->sl, x->used ? "true" : "false");
		ftsw_vbuf_json_str(b, ftsw_trace_status_str(x->status));
		/* the host's own link first, then each switch's output */
		ftsw_vbuf_printf(b, ",\"records\":[%u",
				 ftsw_link_id(t, t->hosts[p->src],
					      ftsw_host_port(t, t->hosts[p->src])));
		for (k = 0; k < x->nhops; k++)
			ftsw_vbuf_printf(b, ",%u", ftsw_view_rec(v, x->hops[k].sw,
								 x->hops[k].port));
		ftsw_vbuf_printf(b, "],\"hops\":[");
		for (k = 0; k < x->nhops; k++)
			ftsw_vbuf_printf(b, "%s{\"sw\":\"s%u\",\"in\":%u,\"out\":%u,"
					 "\"vl\":%u,\"down\":%s}", k ? "," : "",
					 x->hops[k].sw, x->hops[k].in_port,
					 x->hops[k].port, x->hops[k].vl,
					 x->hops[k].down ? "true" : "false");
		ftsw_vbuf_put(b, "]}", 2);
	}
	ftsw_vbuf_put(b, "]}", 2);
}

void ftsw_view_json_port(const struct ftsw_view *v, uint32_t sw,
			 unsigned port, struct ftsw_vbuf *b)
{
	uint32_t r = ftsw_view_rec(v, sw, port);
	const struct ftsw_view_port *p;
	const struct ftsw_port *x;
	uint32_t i;

	if (r == FTSW_NONE || !v->snap.p) {
		ftsw_vbuf_printf(b, "{\"error\":\"no such port\"}");
		return;
	}
	p = &v->snap.p[r];
	x = &v->t->ports[r];
	ftsw_vbuf_printf(b, "{\"sw\":%u,\"port\":%u,\"name\":\"s%u:%u\",\"to\":",
			 sw, port, sw, port);
	if (x->peer == FTSW_NONE)
		ftsw_vbuf_printf(b, "null");
	else
		ftsw_vbuf_printf(b, "\"%s:%u\"", v->node[x->peer].name,
				 x->peer_port);
	ftsw_vbuf_printf(b, ",\"state\":%u,\"tx_packets\":%" PRIu64 ",\"tx_bytes\":%"
			 PRIu64 ",\"rx_packets\":%" PRIu64 ",\"rx_bytes\":%"
			 PRIu64 ",\"drops\":%" PRIu64 ",\"pps\":", p->state,
			 p->txp, p->txb, p->rxp, p->rxb, p->drops);
	ftsw_vbuf_num(b, p->pps);
	ftsw_vbuf_printf(b, ",\"bps\":");
	ftsw_vbuf_num(b, p->bps);
	ftsw_vbuf_printf(b, ",\"in_buf\":%u,\"credit_wait\":", p->in_buf);
	ftsw_vbuf_num(b, p->credit_wait);
	ftsw_vbuf_printf(b, ",\"vls\":[");
	for (i = 0; i < p->nvl && p->vl_first + i < v->snap.nvls; i++) {
		const struct ftsw_view_vl *y = &v->snap.vls[p->vl_first + i];

		ftsw_vbuf_printf(b, "%s{\"vl\":%u,\"in_bytes\":%u,\"in_packets\":%u,"
				 "\"out_bytes\":%u,\"out_packets\":%u,\"credits\":"
				 "%u,\"in_wait_ns\":%" PRIu64 ",\"out_wait_ns\":%"
				 PRIu64 ",\"hoq_discards\":%" PRIu64
				 ",\"life_discards\":%" PRIu64 ",\"head_port\":%u,"
				 "\"head_vl\":%u,\"head_wait_ms\":%.1f,"
				 "\"credit_wait_ms\":%.1f}", i ? "," : "", y->vl,
				 y->in_bytes, y->in_packets, y->out_bytes,
				 y->out_packets, y->credits, y->in_wait_ns,
				 y->out_wait_ns, y->hoq, y->life, y->head_port,
				 y->head_vl, y->head_wait_ns / 1e6,
				 y->credit_wait_ns / 1e6);
	}
	ftsw_vbuf_put(b, "]}", 2);
}
