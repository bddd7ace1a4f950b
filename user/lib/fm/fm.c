// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw fabric manager (see fm.h).
 *
 * Two genl clients: one subscribed to the event group, one for requests
 * (events never mix with replies). The manager subscribes before it
 * discovers, so a change during discovery is seen as an event afterwards.
 * The manager reasons per cable, not per port: a switch-to-switch cable is
 * usable iff both its ends are up, an edge cable iff its port is up. Every
 * event pending at a wake-up is applied; a sweep runs only when the set of
 * usable cables differs from the one of the last sweep, so the two ends of
 * one failed cable (which often report in separate wake-ups) cost one sweep,
 * not two, and no delay window is added to wait for the second end. A sweep
 * routes the usable cabling, uploads only the switches whose table changed,
 * and commits once: the kernel swaps all tables at once.
 *
 * A multicast receive buffer that overflows loses events (ENOBUFS): the
 * manager then drops what is queued, re-reads every port state with a port
 * dump and sweeps if the usable set changed.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fm/fm.h"
#include "lab/lab.h"
#include "lab/lab_rtnl.h"
#include "route/routing.h"

struct fm_port {
	uint32_t sw;		/* switch index */
	uint8_t port;
	uint8_t kind;
	int ifindex;
	uint16_t base_lid;
	bool up;
};

/* A cable: two link ports (b = NO_PORT for an edge port's host cable). */
#define NO_PORT SIZE_MAX
struct fm_cable {
	size_t a, b;		/* ports indexes */
};

struct fm {
	const struct ftsw_fm_opts *o;
	struct ftsw_nl *nl, *ev;
	FILE *log;
	char status[300];
	const char *engine;
	/* discovery */
	uint32_t nsw, *sw_id;		/* switch index -> kernel id */
	struct fm_port *ports;
	size_t nports;
	size_t *port_at;		/* [sw * 256 + port] -> ports index + 1 */
	struct ftsw_topo *topo;		/* full cabling */
	struct fm_cable *cables;
	size_t ncables;
	size_t *cable_of;		/* ports index -> cables index + 1 */
	bool *swept;			/* usable cables at the last sweep */
	size_t usable_swept;		/* how many */
	uint8_t lmc;
	uint32_t nhosts;
	/* state */
	uint8_t *lft;			/* last uploaded, nsw * lft_size */
	size_t lft_size;
	uint64_t events, sweeps, generation;
	uint64_t no_change;		/* events that changed no usable cable */
	uint64_t overruns;		/* resynchronisations after ENOBUFS */
	struct ftsw_fm_sweep last;
	char last_cause[128];
	uint64_t unreachable;
	char unreach_list[1024];
};

void ftsw_fm_status_path(const char *netns, char *buf, size_t sz)
{
	if (netns)
		snprintf(buf, sz, FTSW_LAB_RUNDIR "/%s/fm.status", netns);
	else
		snprintf(buf, sz, FTSW_LAB_RUNDIR "/fm.status");
}

/* ------------------------------------------------------------ discovery */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

struct sw_list {
	struct ftsw_switch_info *v;
	size_t n, cap;
};

static int sw_cb(const struct ftsw_switch_info *si, void *arg)
{
	struct sw_list *l = arg;

	if (l->n == l->cap) {
		void *p = realloc(l->v, sizeof(*l->v) * (l->cap * 2 + 16));

		if (!p)
			return -ENOMEM;
		l->v = p;
		l->cap = l->cap * 2 + 16;
	}
	l->v[l->n++] = *si;
	return 0;
}

struct port_list {
	struct fm *fm;
	size_t cap;
	int error;
};

static uint32_t sw_index(const struct fm *fm, uint32_t id)
{
	uint32_t lo = 0, hi = fm->nsw;

	while (lo < hi) {
		uint32_t m = (lo + hi) / 2;

		if (fm->sw_id[m] < id)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < fm->nsw && fm->sw_id[lo] == id ? lo : UINT32_MAX;
}

static int port_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct port_list *l = arg;
	struct fm *fm = l->fm;
	struct fm_port *p;
	uint32_t s = sw_index(fm, pi->switch_id);

	if (s == UINT32_MAX)
		return 0;
	if (fm->nports == l->cap) {
		void *q = realloc(fm->ports, sizeof(*fm->ports) * (l->cap * 2 + 64));

		if (!q)
			return -ENOMEM;
		fm->ports = q;
		l->cap = l->cap * 2 + 64;
	}
	p = &fm->ports[fm->nports++];
	p->sw = s;
	p->port = pi->port;
	p->kind = pi->kind;
	p->ifindex = (int)pi->ifindex;
	p->base_lid = pi->base_lid;
	p->up = pi->oper_up && pi->admin_up;
	if (pi->kind == FTSW_PORT_EDGE) {
		if (l->error == 0 && fm->nhosts && pi->lmc != fm->lmc)
			l->error = 1;
		fm->lmc = pi->lmc;
		fm->nhosts = 1;	/* marks "seen an edge port" */
	}
	return 0;
}

struct peer_map {
	int *peer;		/* ifindex -> IFLA_LINK (same namespace) */
	int max;
};

static int peer_cb(int ifindex, const char *name, int link, bool other,
		   bool up, bool carrier, void *arg)
{
	struct peer_map *m = arg;

	(void)name;
	(void)up;
	(void)carrier;
	if (ifindex >= 0 && ifindex < m->max && !other)
		m->peer[ifindex] = link;
	return 0;
}

static int discover(struct fm *fm, struct ftsw_err *err)
{
	struct sw_list sl = { 0 };
	struct port_list pl = { .fm = fm };
	struct peer_map pm = { 0 };
	struct lab_rt rt;
	struct ftsw_topo *t = NULL;
	uint32_t *by_if = NULL, maxhost = 0, i;
	size_t k;
	int maxif = 0;

	if (ftsw_nl_switch_dump(fm->nl, sw_cb, &sl)) {
		ftsw_err_set(err, "switch dump: %s", ftsw_nl_error(fm->nl));
		goto fail;
	}
	if (!sl.n) {
		ftsw_err_set(err, "no switches in this fabric");
		goto fail;
	}
	fm->nsw = (uint32_t)sl.n;
	fm->sw_id = malloc(sizeof(uint32_t) * sl.n);
	if (!fm->sw_id)
		goto nomem;
	for (k = 0; k < sl.n; k++)
		fm->sw_id[k] = sl.v[k].id;
	qsort(fm->sw_id, sl.n, sizeof(uint32_t), cmp_u32);
	fm->nhosts = 0;
	if (ftsw_nl_port_dump(fm->nl, -1, port_cb, &pl)) {
		ftsw_err_set(err, "port dump: %s", ftsw_nl_error(fm->nl));
		goto fail;
	}
	if (pl.error) {
		ftsw_err_set(err, "edge ports disagree on the LMC");
		goto fail;
	}
	/* Hosts: base LID >> LMC - 1. */
	for (k = 0; k < fm->nports; k++) {
		const struct fm_port *p = &fm->ports[k];

		if (p->ifindex > maxif)
			maxif = p->ifindex;
		if (p->kind != FTSW_PORT_EDGE)
			continue;
		if ((p->base_lid >> fm->lmc) < 1 ||
		    (p->base_lid & ((1u << fm->lmc) - 1))) {
			ftsw_err_set(err, "switch %" PRIu32 " port %u: base LID %u "
				     "is not (n + 1) << LMC %u",
				     fm->sw_id[p->sw], p->port, p->base_lid,
				     fm->lmc);
			goto fail;
		}
		if ((uint32_t)(p->base_lid >> fm->lmc) > maxhost)
			maxhost = p->base_lid >> fm->lmc;
	}
	fm->nhosts = maxhost;
	/* Which device is whose peer. */
	pm.max = maxif + 1;
	pm.peer = calloc((size_t)pm.max + 1, sizeof(int));
	by_if = malloc(sizeof(uint32_t) * ((size_t)pm.max + 1));
	if (!pm.peer || !by_if)
		goto nomem;
	for (i = 0; i < (uint32_t)pm.max; i++)
		by_if[i] = UINT32_MAX;
	for (k = 0; k < fm->nports; k++)
		by_if[fm->ports[k].ifindex] = (uint32_t)k;
	/* At most one cable per port. */
	fm->cables = malloc(sizeof(*fm->cables) * (fm->nports + 1));
	fm->cable_of = calloc(fm->nports + 1, sizeof(size_t));
	fm->swept = calloc(fm->nports + 1, sizeof(bool));
	if (!fm->cables || !fm->cable_of || !fm->swept)
		goto nomem;
	if (lab_rt_open(&rt, err))
		goto fail;
	if (lab_rt_dump_links(&rt, peer_cb, &pm, err)) {
		lab_rt_close(&rt);
		goto fail;
	}
	lab_rt_close(&rt);
	/* The cabling as a topology: switches (by id), then hosts. */
	t = ftsw_topo_new();
	if (!t)
		goto nomem;
	for (k = 0; k < sl.n; k++) {
		const struct ftsw_switch_info *si = NULL;
		size_t j;

		for (j = 0; j < sl.n; j++)
			if (sl.v[j].id == fm->sw_id[k])
				si = &sl.v[j];
		if (ftsw_topo_add_node(t, FTSW_SWITCH, si->nports,
				       si->guid ? si->guid : si->id + 1,
				       si->name[0] ? si->name : NULL,
				       err) == FTSW_NONE)
			goto fail;
	}
	for (i = 0; i < fm->nhosts; i++) {
		char name[32];

		snprintf(name, sizeof(name), "h%" PRIu32, i);
		if (ftsw_topo_add_node(t, FTSW_HOST, 1, 0, name, err) ==
		    FTSW_NONE)
			goto fail;
	}
	for (k = 0; k < fm->nports; k++) {
		const struct fm_port *p = &fm->ports[k];

		if (p->kind == FTSW_PORT_EDGE) {
			uint32_t h = (p->base_lid >> fm->lmc) - 1;

			if (ftsw_topo_connect(t, p->sw, p->port, fm->nsw + h, 1,
					      err))
				goto fail;
			fm->cables[fm->ncables].a = k;
			fm->cables[fm->ncables++].b = NO_PORT;
		} else {
			int pi = pm.peer[p->ifindex];
			uint32_t q;

			if (pi <= 0 || pi >= pm.max || by_if[pi] == UINT32_MAX)
				continue;	/* peer not bound (yet) */
			q = by_if[pi];
			if (q < k)
				continue;	/* cabled from the other end */
			if (ftsw_topo_connect(t, p->sw, p->port,
					      fm->ports[q].sw,
					      fm->ports[q].port, err))
				goto fail;
			fm->cables[fm->ncables].a = k;
			fm->cables[fm->ncables++].b = q;
		}
	}
	if (ftsw_topo_finish(t, err))
		goto fail;
	for (k = 0; k < fm->ncables; k++) {
		fm->cable_of[fm->cables[k].a] = k + 1;
		if (fm->cables[k].b != NO_PORT)
			fm->cable_of[fm->cables[k].b] = k + 1;
	}
	fm->port_at = calloc((size_t)fm->nsw * 256, sizeof(size_t));
	if (!fm->port_at)
		goto nomem;
	for (k = 0; k < fm->nports; k++)
		fm->port_at[(size_t)fm->ports[k].sw * 256 + fm->ports[k].port] =
			k + 1;
	fm->topo = t;
	free(sl.v);
	free(pm.peer);
	free(by_if);
	return 0;
nomem:
	ftsw_err_set(err, "discovery: out of memory");
fail:
	ftsw_topo_free(t);
	free(sl.v);
	free(pm.peer);
	free(by_if);
	return -1;
}

/* ------------------------------------------------------------ sweeps */

static void write_status(struct fm *fm)
{
	char tmp[320];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", fm->status);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "{\"pid\":%d,\"netns\":\"%s\",\"engine\":\"%s\","
		"\"switches\":%" PRIu32 ",\"hosts\":%" PRIu32 ",\"lmc\":%u,"
		"\"cables\":%zu,\"cables_usable\":%zu,"
		"\"generation\":%" PRIu64 ",\"events\":%" PRIu64
		",\"no_change_events\":%" PRIu64 ",\"overruns\":%" PRIu64
		",\"sweeps\":%" PRIu64 ",\"last\":{\"cause\":\"%s\","
		"\"routed_us\":%" PRIu64 ",\"uploaded_us\":%" PRIu64
		",\"committed_us\":%" PRIu64 ",\"switches_changed\":%" PRIu32
		"},\"unreachable_pairs\":%" PRIu64 ",\"unreachable\":[%s]}\n",
		(int)getpid(), fm->o->netns ? fm->o->netns : "", fm->engine,
		fm->nsw, fm->nhosts, fm->lmc, fm->ncables, fm->usable_swept,
		fm->generation, fm->events, fm->no_change, fm->overruns,
		fm->sweeps, fm->last_cause, fm->last.routed_us,
		fm->last.uploaded_us, fm->last.committed_us,
		fm->last.switches_changed, fm->unreachable, fm->unreach_list);
	if (fclose(f) == 0)
		rename(tmp, fm->status);
	else
		unlink(tmp);
}

static bool cable_usable(const struct fm *fm, size_t c)
{
	const struct fm_cable *x = &fm->cables[c];

	return fm->ports[x->a].up && (x->b == NO_PORT || fm->ports[x->b].up);
}

/* Cables whose usability differs from the last sweep's. */
static size_t cables_changed(const struct fm *fm)
{
	size_t c, n = 0;

	for (c = 0; c < fm->ncables; c++)
		n += cable_usable(fm, c) != fm->swept[c];
	return n;
}

/* Ordered host pairs (every LID offset) without a delivered path. */
static void count_unreachable(struct fm *fm, const struct ftsw_routing *r)
{
	uint32_t s, d, maxh = r->nswitches + 2;
	unsigned off, noff = 1u << r->lmc, listed = 0;
	size_t used = 0;

	fm->unreachable = 0;
	fm->unreach_list[0] = 0;
	for (s = 0; s < r->nhosts; s++)
		for (d = 0; d < r->nhosts; d++) {
			bool bad = false;

			if (s == d)
				continue;
			for (off = 0; off < noff && !bad; off++)
				bad = ftsw_trace(r, s, ftsw_host_lid(r, d) + off,
						 NULL, NULL, maxh) < 0;
			if (!bad)
				continue;
			fm->unreachable++;
			if (listed < 20 && used + 40 < sizeof(fm->unreach_list)) {
				used += (size_t)snprintf(fm->unreach_list + used,
					sizeof(fm->unreach_list) - used,
					"%s[%" PRIu32 ",%" PRIu32 "]",
					listed ? "," : "", s, d);
				listed++;
			}
		}
}

static int sweep(struct fm *fm, uint64_t t0, const char *cause,
		 struct ftsw_err *err)
{
	struct ftsw_route_opts ro = { .lmc = fm->lmc, .threads = fm->o->threads };
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	bool *keep, *usable;
	size_t k;
	uint32_t i, changed = 0;
	uint64_t t1, t2, t3;

	usable = malloc(fm->ncables + 1);
	keep = malloc(fm->topo->nnodes + 1);
	if (!keep || !usable) {
		free(keep);
		free(usable);
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	memset(keep, 1, fm->topo->nnodes + 1);
	t = ftsw_topo_subset(fm->topo, keep, err);
	free(keep);
	if (!t) {
		free(usable);
		return -1;
	}
	/* Route the usable cables only. */
	for (k = 0; k < fm->ncables; k++) {
		const struct fm_port *p = &fm->ports[fm->cables[k].a];

		usable[k] = cable_usable(fm, k);
		if (!usable[k])
			ftsw_topo_disconnect(t, p->sw, p->port);
	}
	r = ftsw_route(fm->engine, t, &ro, err);
	if (!r) {
		ftsw_topo_free(t);
		free(usable);
		return -1;
	}
	t1 = ftsw_now_us();
	if (!fm->lft) {
		fm->lft_size = r->lft_size;
		fm->lft = malloc(fm->nsw * fm->lft_size);
		if (!fm->lft) {
			ftsw_err_set(err, "out of memory");
			goto fail;
		}
		memset(fm->lft, 0xfe, fm->nsw * fm->lft_size);	/* all differ */
	}
	for (i = 0; i < fm->nsw; i++) {
		uint8_t *old = fm->lft + (size_t)i * fm->lft_size;
		const uint8_t *nw = ftsw_lft(r, i);
		size_t lo = 0, hi = r->lft_size, n;

		while (lo < hi && old[lo] == nw[lo])
			lo++;
		if (lo == hi)
			continue;
		while (hi > lo && old[hi - 1] == nw[hi - 1])
			hi--;
		if (hi > FTSW_LFT_SIZE)
			hi = FTSW_LFT_SIZE;
		for (n = lo; n < hi; n += 0x4000) {
			size_t len = hi - n > 0x4000 ? 0x4000 : hi - n;

			if (ftsw_nl_lft_set(fm->nl, fm->sw_id[i], (uint16_t)n,
					    nw + n, (uint32_t)len)) {
				ftsw_err_set(err, "switch %" PRIu32 " LFT: %s",
					     fm->sw_id[i], ftsw_nl_error(fm->nl));
				ftsw_nl_lft_discard(fm->nl, -1);
				goto fail;
			}
		}
		changed++;
	}
	t2 = ftsw_now_us();
	if (ftsw_nl_commit(fm->nl, &fm->generation)) {
		ftsw_err_set(err, "commit: %s", ftsw_nl_error(fm->nl));
		ftsw_nl_lft_discard(fm->nl, -1);
		goto fail;
	}
	t3 = ftsw_now_us();
	for (i = 0; i < fm->nsw; i++)
		memcpy(fm->lft + (size_t)i * fm->lft_size, ftsw_lft(r, i),
		       fm->lft_size);
	/* What the kernel now routes: the reference for the next events. */
	memcpy(fm->swept, usable, fm->ncables);
	fm->usable_swept = 0;
	for (k = 0; k < fm->ncables; k++)
		fm->usable_swept += usable[k];
	fm->sweeps++;
	fm->last.routed_us = t1 - t0;
	fm->last.uploaded_us = t2 - t0;
	fm->last.committed_us = t3 - t0;
	fm->last.switches_changed = changed;
	fm->last.generation = fm->generation;
	snprintf(fm->last_cause, sizeof(fm->last_cause), "%s", cause);
	count_unreachable(fm, r);
	fm->last.unreachable = fm->unreachable;
	if (fm->o->json)
		fprintf(fm->log, "{\"sweep\":%" PRIu64 ",\"cause\":\"%s\","
			"\"routed_us\":%" PRIu64 ",\"uploaded_us\":%" PRIu64
			",\"committed_us\":%" PRIu64 ",\"switches_changed\":%"
			PRIu32 ",\"generation\":%" PRIu64 ",\"cables_usable\":%zu"
			",\"unreachable_pairs\":%" PRIu64 "}\n", fm->sweeps,
			cause, t1 - t0, t2 - t0, t3 - t0, changed,
			fm->generation, fm->usable_swept, fm->unreachable);
	else {
		fprintf(fm->log, "fm: %s: routes computed +%" PRIu64 " us, "
			"uploaded (%" PRIu32 " switches) +%" PRIu64 " us, committed "
			"generation %" PRIu64 " +%" PRIu64 " us", cause, t1 - t0,
			changed, t2 - t0, fm->generation, t3 - t0);
		if (fm->unreachable)
			fprintf(fm->log, "; %" PRIu64 " host pairs UNREACHABLE: %s%s",
				fm->unreachable, fm->unreach_list,
				fm->unreachable > 20 ? ",..." : "");
		else
			fprintf(fm->log, "; all %" PRIu64 " host pairs routed",
				(uint64_t)fm->nhosts * (fm->nhosts - 1));
		fprintf(fm->log, "\n");
	}
	fflush(fm->log);
	write_status(fm);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	free(usable);
	return 0;
fail:
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	free(usable);
	return -1;
}

/* The events of one wake-up. */
struct ev_arg {
	struct fm *fm;
	unsigned events;	/* port events read */
	unsigned flips;		/* events that flipped their cable's usability */
	char cause[96];		/* the first event that flipped a cable */
	char first[96];		/* the first event */
};

/* Port k is now up/down: 1 if its cable's usability flipped. */
static int port_set(struct fm *fm, size_t k, bool up)
{
	size_t c = fm->cable_of[k];
	bool before;

	if (!c) {
		fm->ports[k].up = up;
		return 0;
	}
	before = cable_usable(fm, c - 1);
	fm->ports[k].up = up;
	return cable_usable(fm, c - 1) != before;
}

static int ev_cb(const struct ftsw_event *ev, void *arg)
{
	struct ev_arg *a = arg;
	struct fm *fm = a->fm;
	char what[96];
	uint32_t s;
	size_t k = 0;
	bool up;

	if (ev->cmd != FTSW_CMD_PORT_EVENT)
		return 0;
	fm->events++;
	a->events++;
	up = ev->port.oper_up && ev->port.admin_up;
	if (ev->port.reason == FTSW_REASON_UNBIND ||
	    ev->port.reason == FTSW_REASON_UNREGISTER ||
	    ev->port.reason == FTSW_REASON_RESET)
		up = false;
	snprintf(what, sizeof(what), "switch %" PRIu32 " port %u %s (%s)",
		 ev->port.switch_id, ev->port.port, up ? "up" : "down",
		 ftsw_reason_name(ev->port.reason));
	if (a->events == 1)
		snprintf(a->first, sizeof(a->first), "%s", what);
	s = sw_index(fm, ev->port.switch_id);
	if (s != UINT32_MAX && ev->port.port)
		k = fm->port_at[(size_t)s * 256 + ev->port.port];
	if (!k)
		return 0;	/* a port we did not discover: ignore */
	if (port_set(fm, k - 1, up) && !a->flips++)
		snprintf(a->cause, sizeof(a->cause), "%s", what);
	return 0;
}

struct resync_arg {
	struct fm *fm;
	unsigned changed;	/* ports whose state differed */
};

static int resync_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct resync_arg *a = arg;
	struct fm *fm = a->fm;
	uint32_t s = sw_index(fm, pi->switch_id);
	size_t k;
	bool up = pi->oper_up && pi->admin_up;

	if (s == UINT32_MAX || !pi->port)
		return 0;
	k = fm->port_at[(size_t)s * 256 + pi->port];
	if (!k || fm->ports[k - 1].up == up)
		return 0;
	a->changed++;
	port_set(fm, k - 1, up);
	return 0;
}

/*
 * Events were lost (receive buffer overrun). What is still queued predates
 * the loss and would be stale after a dump: drop it, then read every port's
 * state. Events queued after this point are newer than or equal to the
 * dump's states, and each carries a port's whole state, so applying them
 * later keeps the view right.
 */
static int resync(struct fm *fm, unsigned *changed, struct ftsw_err *err)
{
	struct resync_arg a = { .fm = fm };
	int fd = ftsw_nl_event_fd(fm->ev);
	char buf[8192];
	unsigned i;

	for (i = 0; i < 1000000; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && errno != ENOBUFS && errno != EINTR)
			break;	/* EAGAIN: empty */
	}
	if (ftsw_nl_port_dump(fm->nl, -1, resync_cb, &a)) {
		ftsw_err_set(err, "resynchronising: port dump: %s",
			     ftsw_nl_error(fm->nl));
		return -1;
	}
	*changed = a.changed;
	return 0;
}

/* A larger receive buffer for the event socket (root may exceed rmem_max). */
static void set_rcvbuf(struct fm *fm, int bytes)
{
	int fd = ftsw_nl_event_fd(fm->ev);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
}

static void log_no_change(struct fm *fm, const struct ev_arg *a,
			  unsigned quiet)
{
	if (fm->o->json)
		fprintf(fm->log, "{\"no_change\":%u,\"first\":\"%s\","
			"\"cables_usable\":%zu}\n", quiet, a->first,
			fm->usable_swept);
	else
		fprintf(fm->log, "fm: %s%s: no change (%u event%s, %zu of %zu "
			"cables usable)\n", a->first,
			a->events > 1 ? " + more" : "", quiet,
			quiet == 1 ? "" : "s", fm->usable_swept, fm->ncables);
	fflush(fm->log);
}

int ftsw_fm_run(const struct ftsw_fm_opts *o, struct ftsw_err *err)
{
	struct fm fm = { .o = o };
	char cause[160];
	int rc = -1;
	uint64_t t0;

	fm.log = o->log ? o->log : stdout;
	fm.engine = o->engine ? o->engine : "dmodc";
	if (!ftsw_engine_find(fm.engine)) {
		ftsw_err_set(err, "engine '%s': no such engine (ftsw route list)",
			     fm.engine);
		return -1;
	}
	if (o->status)
		snprintf(fm.status, sizeof(fm.status), "%s", o->status);
	else
		ftsw_fm_status_path(o->netns, fm.status, sizeof(fm.status));
	fm.ev = ftsw_nl_open_in(o->netns, err);
	if (!fm.ev)
		return -1;
	if (ftsw_nl_subscribe(fm.ev)) {
		ftsw_err_set(err, "events: %s", ftsw_nl_error(fm.ev));
		goto out;
	}
	set_rcvbuf(&fm, o->rcvbuf > 0 ? o->rcvbuf : FTSW_FM_RCVBUF);
	fm.nl = ftsw_nl_open_in(o->netns, err);
	if (!fm.nl)
		goto out;
	t0 = ftsw_now_us();
	if (o->netns && ftsw_netns_enter(o->netns, err))
		goto out;
	rc = discover(&fm, err);
	if (ftsw_netns_home(rc ? NULL : err))
		rc = -1;
	if (rc)
		goto out;
	rc = -1;
	snprintf(cause, sizeof(cause), "discovered %" PRIu32 " switches, %"
		 PRIu32 " hosts, %" PRIu64 " links, LMC %u in %" PRIu64
		 " us; routing with %s", fm.nsw, fm.nhosts,
		 ftsw_topo_nlinks(fm.topo), fm.lmc, ftsw_now_us() - t0,
		 fm.engine);
	if (sweep(&fm, ftsw_now_us(), cause, err))
		goto out;
	if (o->ready)
		o->ready(o->ready_arg);
	if (o->once) {
		rc = 0;
		goto out;
	}
	while (!o->stop || !*o->stop) {
		struct pollfd pfd = { .fd = ftsw_nl_event_fd(fm.ev),
				      .events = POLLIN };
		struct ev_arg a = { .fm = &fm };
		bool overrun = false;
		unsigned resynced = 0;
		size_t diff;
		int n = poll(&pfd, 1, 500);

		if (n < 0 && errno != EINTR) {
			ftsw_err_set(err, "poll: %s", strerror(errno));
			goto out;
		}
		if (n <= 0)
			continue;
		t0 = ftsw_now_us();
		/* Everything pending now is applied before deciding. */
		do {
			if (ftsw_nl_event_recv(fm.ev, ev_cb, &a) < 0) {
				overrun = true;
				break;
			}
		} while (poll(&pfd, 1, 0) > 0);
		if (overrun) {
			fm.overruns++;
			fprintf(fm.log, "fm: event receive: %s (events lost); "
				"resynchronising from a port dump\n",
				ftsw_nl_error(fm.ev));
			if (resync(&fm, &resynced, err)) {
				fprintf(fm.log, "fm: %s\n", err->msg);
				fflush(fm.log);
				continue;
			}
			fprintf(fm.log, "fm: resynchronised: %u port state%s "
				"changed\n", resynced, resynced == 1 ? "" : "s");
			fflush(fm.log);
		}
		diff = cables_changed(&fm);
		if (!diff) {
			/* The usable set is the routed one: nothing to do. */
			fm.no_change += a.events;
			if (a.events)
				log_no_change(&fm, &a, a.events);
			if (a.events || overrun)
				write_status(&fm);
			continue;
		}
		fm.no_change += a.events - a.flips;
		if (overrun)
			snprintf(cause, sizeof(cause), "resynchronised after an "
				 "event overrun (%u port states changed); %zu "
				 "cable%s changed", resynced, diff,
				 diff == 1 ? "" : "s");
		else
			snprintf(cause, sizeof(cause), "%s; %zu cable%s changed "
				 "in %u event%s", a.flips ? a.cause : a.first, diff,
				 diff == 1 ? "" : "s", a.events,
				 a.events == 1 ? "" : "s");
		if (sweep(&fm, t0, cause, err)) {
			fprintf(fm.log, "fm: sweep failed: %s\n", err->msg);
			fflush(fm.log);
		}
	}
	rc = 0;
out:
	ftsw_netns_home(NULL);
	if (rc == 0 && !o->once)
		unlink(fm.status);
	ftsw_nl_close(fm.ev);
	ftsw_nl_close(fm.nl);
	ftsw_topo_free(fm.topo);
	free(fm.sw_id);
	free(fm.ports);
	free(fm.port_at);
	free(fm.cables);
	free(fm.cable_of);
	free(fm.swept);
	free(fm.lft);
	return rc;
}
