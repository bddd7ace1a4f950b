// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot: one port dump of the kernel laid over the model's directed
 * links (a switch port's record: what it sends and receives; a host's
 * record: what its edge port receives from it), rates against the sample
 * before, the lossless state of every VL; and lab top's rows from it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_int.h"

/* Input heads waiting at least this long count (as lab waits' default). */
#define MIN_HEAD_WAIT_NS	100000000ULL

void ftsw_view_snap_free(struct ftsw_view_snap *s)
{
	free(s->p);
	free(s->vls);
	free(s->heads);
	ftsw_lab_cycles_free(&s->cycles);
	memset(s, 0, sizeof(*s));
}

int ftsw_view_snap_begin(struct ftsw_view *v, double mono, double wall)
{
	struct ftsw_view_snap old = v->prev;
	size_t n = (size_t)v->t->nports + 1;

	/* the last sample becomes the one before; reuse the older arrays */
	v->prev = v->snap;
	v->snap = old;
	ftsw_lab_cycles_free(&v->snap.cycles);
	if (!v->snap.p)
		v->snap.p = calloc(n, sizeof(*v->snap.p));
	if (!v->snap.p)
		return -ENOMEM;
	memset(v->snap.p, 0, n * sizeof(*v->snap.p));
	v->snap.seq = v->prev.seq + 1;
	v->snap.mono = mono;
	v->snap.wall = wall;
	v->snap.interval = v->prev.seq ? mono - v->prev.mono : 0;
	v->snap.nvls = 0;
	v->snap.nheads = 0;
	v->snap.nwaiting = 0;
	v->snap.ports_down = 0;
	return 0;
}

/*
 * A sample that failed half-way: the last whole one is the current again
 * (the next begin makes it the one before, as if this one never began).
 */
void ftsw_view_snap_abort(struct ftsw_view *v)
{
	struct ftsw_view_snap half = v->snap;

	v->snap = v->prev;
	v->prev = half;
}

static int vl_add(struct ftsw_view_snap *s, const struct ftsw_vl_stats *x,
		  unsigned vl)
{
	struct ftsw_view_vl *y;

	if (s->nvls == s->cap_vls) {
		void *p = ftsw_grow(s->vls, s->nvls, &s->cap_vls,
				    sizeof(*s->vls), 64);

		if (!p)
			return -ENOMEM;
		s->vls = p;
	}
	y = &s->vls[s->nvls++];
	y->vl = (uint8_t)vl;
	y->in_bytes = x->in_bytes;
	y->in_packets = x->in_packets;
	y->out_bytes = x->out_bytes;
	y->out_packets = x->out_packets;
	y->credits = x->credits;
	y->in_wait_ns = x->in_wait_ns;
	y->out_wait_ns = x->out_wait_ns;
	y->hoq = x->hoq_discards;
	y->life = x->life_discards;
	y->head_port = x->head_port;
	y->head_vl = x->head_vl;
	y->head_wait_ns = x->head_wait_ns;
	y->credit_wait_ns = x->out_credit_wait_ns;
	return 0;
}

static int head_add(struct ftsw_view_snap *s, const struct ftsw_port_info *pi,
		    unsigned vl)
{
	if (s->nheads == s->cap_heads) {
		void *p = ftsw_grow(s->heads, s->nheads, &s->cap_heads,
				    sizeof(*s->heads), 16);

		if (!p)
			return -ENOMEM;
		s->heads = p;
	}
	ftsw_lab_buf_of(pi, vl, &s->heads[s->nheads++]);
	return 0;
}

/* A port's lossless state: every VL the kernel reported, summed. */
static int snap_lossless(struct ftsw_view_snap *s, struct ftsw_view_port *p,
			 const struct ftsw_port_info *pi)
{
	unsigned vl;

	p->in_buf = pi->ll.in_buf;
	p->vl_first = (uint32_t)s->nvls;
	for (vl = 0; pi->ll.has_vl && vl < FTSW_NUM_DATA_VL; vl++) {
		const struct ftsw_vl_stats *x = &pi->ll.vl[vl];

		if (!x->present)
			continue;
		if (vl_add(s, x, vl))
			return -ENOMEM;
		p->nvl++;
		p->in_bytes += x->in_bytes;
		p->out_bytes += x->out_bytes;
		p->in_wait += x->in_wait_ns;
		p->out_wait += x->out_wait_ns;
		p->hoq += x->hoq_discards;
		p->life += x->life_discards;
		p->waiting |= x->out_credit_wait_ns > 0;
		if (x->head_port && x->head_wait_ns >= MIN_HEAD_WAIT_NS &&
		    head_add(s, pi, vl))
			return -ENOMEM;
	}
	return 0;
}

/* An edge port's SLs: the host's default, and its table by DLID. */
static int snap_sls(struct ftsw_view *v, const struct ftsw_port_info *pi,
		    struct ftsw_view_port *p)
{
	const struct ftsw_port *x = ftsw_port(v->t, v->t->switches[pi->switch_id],
					      pi->port);
	uint32_t h, n;

	p->sl = pi->sl;
	if (!pi->edge || x->peer == FTSW_NONE ||
	    v->t->nodes[x->peer].kind != FTSW_HOST)
		return 0;
	h = v->t->nodes[x->peer].index;
	if (pi->n_offsets) {
		v->used_offsets[h][0] = v->used_offsets[h][1] = 0;
		for (n = 0; n < pi->n_offsets && n < FTSW_MAX_OFFSETS; n++)
			v->used_offsets[h][pi->offsets[n] / 64 % 2] |=
				1ULL << (pi->offsets[n] % 64);
	} else {
		v->used_offsets[h][0] = v->used_offsets[h][1] = ~0ULL;
	}
	n = pi->sl_table_len && pi->sl_table_shown ? pi->sl_table_n : 0;
	if (n != v->sl_table_len[h] ||
	    (n && memcmp(v->sl_table[h], pi->sl_table, n))) {
		free(v->sl_table[h]);
		v->sl_table[h] = NULL;
		v->sl_table_len[h] = 0;
		if (n) {
			v->sl_table[h] = malloc(n);
			if (!v->sl_table[h])
				return -ENOMEM;
			memcpy(v->sl_table[h], pi->sl_table, n);
			v->sl_table_len[h] = n;
		}
	}
	return 0;
}

int ftsw_view_snap_port(struct ftsw_view *v, const struct ftsw_port_info *pi)
{
	uint32_t rec = ftsw_view_rec(v, pi->switch_id, pi->port);
	struct ftsw_view_snap *s = &v->snap;
	struct ftsw_view_port *p;
	unsigned d;

	if (rec == FTSW_NONE)
		return 0;	/* a port the lab's topology does not have */
	p = &s->p[rec];
	p->admin_up = pi->admin_up;
	p->state = pi->admin_up && pi->oper_up ? FTSW_VIEW_UP : FTSW_VIEW_DOWN;
	if (pi->has_stats) {
		p->txp = pi->stats.tx_packets;
		p->txb = pi->stats.tx_bytes;
		p->rxp = pi->stats.rx_packets;
		p->rxb = pi->stats.rx_bytes;
		for (d = 0; d <= FTSW_DROP_MAX; d++)
			p->drops += pi->stats.drops[d];
	}
	if (pi->ll.present && snap_lossless(s, p, pi))
		return -ENOMEM;
	return snap_sls(v, pi, p);
}

static double rate(uint64_t now, uint64_t before, double dt)
{
	return dt > 0 && now >= before ? (double)(now - before) / dt : 0;
}

void ftsw_view_snap_end(struct ftsw_view *v)
{
	const struct ftsw_topo *t = v->t;
	struct ftsw_view_snap *s = &v->snap, *o = &v->prev;
	double dt = s->interval;
	uint32_t r, h;

	/* what a host sends is what its edge port receives */
	for (h = 0; h < t->nhosts; h++) {
		uint32_t node = t->hosts[h];
		unsigned q;

		for (q = 1; q <= t->nodes[node].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, node, q);
			struct ftsw_view_port *hp, *ep;

			if (x->peer == FTSW_NONE)
				continue;
			hp = &s->p[ftsw_link_id(t, node, q)];
			ep = &s->p[ftsw_link_id(t, x->peer, x->peer_port)];
			hp->state = ep->state;
			hp->admin_up = ep->admin_up;
			hp->txp = ep->rxp;
			hp->txb = ep->rxb;
			hp->rxp = ep->txp;
			hp->rxb = ep->txb;
		}
	}
	for (r = 0; r < t->nports; r++) {
		struct ftsw_view_port *p = &s->p[r];

		if (t->ports[r].peer == FTSW_NONE)
			continue;
		if (o->seq && o->p) {
			p->pps = rate(p->txp, o->p[r].txp, dt);
			p->bps = 8 * rate(p->txb, o->p[r].txb, dt);
			p->credit_wait = rate(p->out_wait, o->p[r].out_wait,
					      dt) / 1e9;
		}
		s->nwaiting += p->waiting;
		if (t->nodes[v->rec_node[r]].kind == FTSW_SWITCH)
			s->ports_down += p->state == FTSW_VIEW_DOWN;
	}
}

/* ------------------------------------------------------------ lab top */

const char *ftsw_view_sort_name(enum ftsw_view_sort s)
{
	static const char *const names[FTSW_VIEW_NSORT] = {
		"pps", "bps", "wait", "discards", "packets",
	};

	return s < FTSW_VIEW_NSORT ? names[s] : "?";
}

static double sort_key(const struct ftsw_view_link *l, enum ftsw_view_sort s)
{
	switch (s) {
	case FTSW_VIEW_BY_BPS:
		return l->bps;
	case FTSW_VIEW_BY_WAIT:
		return l->credit_wait;
	case FTSW_VIEW_BY_DISCARDS:
		return (double)(l->discards + l->drops);
	case FTSW_VIEW_BY_PACKETS:
		return (double)l->packets;
	default:
		return l->pps;
	}
}

static enum ftsw_view_sort top_sort;

static int top_cmp(const void *a, const void *b)
{
	const struct ftsw_view_link *x = a, *y = b;
	double kx = sort_key(x, top_sort), ky = sort_key(y, top_sort);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (int)x->port - (int)y->port;
}

size_t ftsw_view_top(const struct ftsw_view *v, enum ftsw_view_sort s,
		     int64_t sw, struct ftsw_view_link *out, size_t max)
{
	const struct ftsw_topo *t = v->t;
	struct ftsw_view_link *all;
	size_t n = 0;
	uint32_t i;
	unsigned q;

	if (!v->snap.p)
		return 0;
	all = calloc(t->nports + 1, sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];

		if (sw >= 0 && (uint32_t)sw != i)
			continue;
		for (q = 1; q <= t->nodes[node].nports; q++) {
			uint32_t r = ftsw_link_id(t, node, q);
			const struct ftsw_port *x = &t->ports[r];
			const struct ftsw_view_port *p = &v->snap.p[r];
			struct ftsw_view_link *l = &all[n];

			if (x->peer == FTSW_NONE || p->state == FTSW_VIEW_UNBOUND)
				continue;
			l->sw = i;
			l->port = q;
			snprintf(l->from, sizeof(l->from), "s%u:%u", i, q);
			if (t->nodes[x->peer].kind == FTSW_SWITCH)
				snprintf(l->to, sizeof(l->to), "%s:%u",
					 v->node[x->peer].name, x->peer_port);
			else
				snprintf(l->to, sizeof(l->to), "%s",
					 v->node[x->peer].name);
			l->up = p->state == FTSW_VIEW_UP &&
				v->snap.p[ftsw_link_id(t, x->peer,
						       x->peer_port)].state !=
				FTSW_VIEW_DOWN;
			l->pps = p->pps;
			l->bps = p->bps;
			l->packets = p->txp;
			l->bytes = p->txb;
			l->drops = p->drops;
			l->credit_wait = p->credit_wait;
			l->in_bytes = p->in_bytes;
			l->out_bytes = p->out_bytes;
			l->discards = p->hoq + p->life;
			n++;
		}
	}
	top_sort = s;
	qsort(all, n, sizeof(*all), top_cmp);
	if (out)
		memcpy(out, all, (n < max ? n : max) * sizeof(*out));
	free(all);
	return n;
}

void ftsw_view_status(const struct ftsw_view *v, struct ftsw_view_status *st)
{
	const struct ftsw_view_snap *s = &v->snap;
	uint32_t r;

	memset(st, 0, sizeof(*st));
	st->samples = v->samples;
	st->sample_ms = s->sample_ms;
	st->generation = s->generation;
	st->lossless = s->lossless;
	st->switches = v->t->nswitches;
	st->hosts = v->t->nhosts;
	for (r = 0; s->p && r < v->t->nports; r++) {
		if (v->t->ports[r].peer == FTSW_NONE ||
		    v->t->nodes[v->rec_node[r]].kind != FTSW_SWITCH)
			continue;
		st->ports += s->p[r].state != FTSW_VIEW_UNBOUND;
	}
	st->ports_down = s->ports_down;
	for (r = 0; r <= FTSW_DROP_MAX; r++)
		st->drops += s->drops[r];
	st->cycles = (unsigned)s->cycles.n;
	st->waiting = s->nwaiting;
}
