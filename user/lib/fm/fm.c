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
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fm/fm.h"
#include "nl/ns.h"
#include "nl/rtnl.h"
#include "route/routing.h"
#include "util/output.h"
#include "util/parse.h"

struct fm_port {
	uint32_t sw;		/* switch index */
	uint8_t port;
	uint8_t kind;
	int ifindex;
	uint16_t base_lid;
	bool up;
	uint32_t patch_sw;	/* a patch cable's far end (switch index), */
	uint8_t patch_port;	/* or UINT32_MAX */
};

/* A cable: two link ports (b = NO_PORT for an edge port's host cable). */
#define NO_PORT SIZE_MAX
struct fm_cable {
	size_t a, b;		/* ports indexes */
};

struct fm {
	const struct ftsw_fm_opts *o;
	struct ftsw_nl *nl, *ev;
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
	uint32_t unreach[FTSW_FM_UNREACH_LIST][2];	/* the first ones */
	unsigned nunreach;
};

void ftsw_fm_status_path(const char *netns, char *buf, size_t sz)
{
	if (netns)
		snprintf(buf, sz, FTSW_RUNDIR "/%s/fm.status", netns);
	else
		snprintf(buf, sz, FTSW_RUNDIR "/fm.status");
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
	void *v = ftsw_grow(l->v, l->n, &l->cap, sizeof(*l->v), 16);

	if (!v)
		return -ENOMEM;
	l->v = v;
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
	p = ftsw_grow(fm->ports, fm->nports, &l->cap, sizeof(*p), 64);
	if (!p)
		return -ENOMEM;
	fm->ports = p;
	p = &fm->ports[fm->nports++];
	p->sw = s;
	p->port = pi->port;
	p->kind = pi->kind;
	p->ifindex = (int)pi->ifindex;
	p->base_lid = pi->base_lid;
	p->up = pi->oper_up && pi->admin_up;
	p->patch_sw = pi->patch ? sw_index(fm, pi->peer_switch) : UINT32_MAX;
	p->patch_port = pi->peer_port;
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

/* Every switch of the fabric, sorted by kernel id into fm->sw_id. */
static int discover_switches(struct fm *fm, struct sw_list *sl,
			     struct ftsw_err *err)
{
	size_t k;

	if (ftsw_nl_switch_dump(fm->nl, sw_cb, sl)) {
		ftsw_err_set(err, "switch dump: %s", ftsw_nl_error(fm->nl));
		return -1;
	}
	if (!sl->n) {
		ftsw_err_set(err, "no switches in this fabric");
		return -1;
	}
	fm->nsw = (uint32_t)sl->n;
	fm->sw_id = malloc(sizeof(uint32_t) * sl->n);
	if (!fm->sw_id) {
		ftsw_err_set(err, "discovery: out of memory");
		return -1;
	}
	for (k = 0; k < sl->n; k++)
		fm->sw_id[k] = sl->v[k].id;
	qsort(fm->sw_id, sl->n, sizeof(uint32_t), cmp_u32);
	return 0;
}

/*
 * Every bound port; the hosts from the edge ports (base LID >> LMC - 1).
 * *maxif: the largest ifindex of a port.
 */
static int discover_ports(struct fm *fm, int *maxif, struct ftsw_err *err)
{
	struct port_list pl = { .fm = fm };
	uint32_t maxhost = 0;
	size_t k;

	fm->nhosts = 0;
	if (ftsw_nl_port_dump(fm->nl, -1, port_cb, &pl)) {
		ftsw_err_set(err, "port dump: %s", ftsw_nl_error(fm->nl));
		return -1;
	}
	if (pl.error) {
		ftsw_err_set(err, "edge ports disagree on the LMC");
		return -1;
	}
	*maxif = 0;
	for (k = 0; k < fm->nports; k++) {
		const struct fm_port *p = &fm->ports[k];

		if (p->ifindex > *maxif)
			*maxif = p->ifindex;
		if (p->kind != FTSW_PORT_EDGE)
			continue;
		if ((p->base_lid >> fm->lmc) < 1 ||
		    (p->base_lid & ((1u << fm->lmc) - 1))) {
			ftsw_err_set(err, "switch %" PRIu32 " port %u: base LID %u "
				     "is not (n + 1) << LMC %u",
				     fm->sw_id[p->sw], p->port, p->base_lid,
				     fm->lmc);
			return -1;
		}
		if ((uint32_t)(p->base_lid >> fm->lmc) > maxhost)
			maxhost = p->base_lid >> fm->lmc;
	}
	fm->nhosts = maxhost;
	return 0;
}

/* Which device is whose peer (rtnetlink), and which port owns an ifindex. */
static int discover_peers(struct fm *fm, struct peer_map *pm,
			  uint32_t **by_if, int maxif, struct ftsw_err *err)
{
	struct ftsw_rt rt;
	size_t k;
	int i;

	pm->max = maxif + 1;
	pm->peer = calloc((size_t)pm->max + 1, sizeof(int));
	*by_if = malloc(sizeof(uint32_t) * ((size_t)pm->max + 1));
	if (!pm->peer || !*by_if) {
		ftsw_err_set(err, "discovery: out of memory");
		return -1;
	}
	for (i = 0; i < pm->max; i++)
		(*by_if)[i] = UINT32_MAX;
	for (k = 0; k < fm->nports; k++)
		(*by_if)[fm->ports[k].ifindex] = (uint32_t)k;
	if (ftsw_rt_open(&rt, err))
		return -1;
	if (ftsw_rt_dump_links(&rt, peer_cb, pm, err)) {
		ftsw_rt_close(&rt);
		return -1;
	}
	ftsw_rt_close(&rt);
	return 0;
}

/* The nodes of the cabling: switches (by id), then hosts. */
static int cabling_nodes(struct fm *fm, struct ftsw_topo *t,
			 const struct sw_list *sl, struct ftsw_err *err)
{
	size_t k, j;
	uint32_t i;

	for (k = 0; k < sl->n; k++) {
		const struct ftsw_switch_info *si = NULL;

		for (j = 0; j < sl->n; j++)
			if (sl->v[j].id == fm->sw_id[k])
				si = &sl->v[j];
		if (ftsw_topo_add_node(t, FTSW_SWITCH, si->nports,
				       si->guid ? si->guid : si->id + 1,
				       si->name[0] ? si->name : NULL,
				       err) == FTSW_NONE)
			return -1;
	}
	for (i = 0; i < fm->nhosts; i++) {
		char name[32];

		snprintf(name, sizeof(name), "h%" PRIu32, i);
		if (ftsw_topo_add_node(t, FTSW_HOST, 1, 0, name, err) ==
		    FTSW_NONE)
			return -1;
	}
	return 0;
}

/* The cables: an edge port to its host, a link port to its bound peer. */
static int cabling_links(struct fm *fm, struct ftsw_topo *t,
			 const struct peer_map *pm, const uint32_t *by_if,
			 struct ftsw_err *err)
{
	size_t k;

	for (k = 0; k < fm->nports; k++) {
		const struct fm_port *p = &fm->ports[k];

		if (p->kind == FTSW_PORT_EDGE) {
			uint32_t h = (p->base_lid >> fm->lmc) - 1;

			if (ftsw_topo_connect(t, p->sw, p->port, fm->nsw + h, 1,
					      err))
				return -1;
			fm->cables[fm->ncables].a = k;
			fm->cables[fm->ncables++].b = NO_PORT;
		} else {
			int pi = pm->peer[p->ifindex];
			size_t q;

			if (p->patch_sw != UINT32_MAX) {
				/* A patch cable: the kernel names the far end. */
				q = fm->port_at[(size_t)p->patch_sw * 256 +
						p->patch_port];
				if (!q--)
					continue;
			} else if (pi <= 0 || pi >= pm->max ||
				   by_if[pi] == UINT32_MAX) {
				continue;	/* peer not bound (yet) */
			} else {
				q = by_if[pi];
			}
			if (q < k)
				continue;	/* cabled from the other end */
			if (ftsw_topo_connect(t, p->sw, p->port,
					      fm->ports[q].sw,
					      fm->ports[q].port, err))
				return -1;
			fm->cables[fm->ncables].a = k;
			fm->cables[fm->ncables++].b = q;
		}
	}
	return 0;
}

/* The cable of each port. */
static void index_cables(struct fm *fm)
{
	size_t k;

	for (k = 0; k < fm->ncables; k++) {
		fm->cable_of[fm->cables[k].a] = k + 1;
		if (fm->cables[k].b != NO_PORT)
			fm->cable_of[fm->cables[k].b] = k + 1;
	}
}

/* The port at (switch, port number), + 1 (0: none). */
static int index_ports(struct fm *fm, struct ftsw_err *err)
{
	size_t k;

	fm->port_at = calloc((size_t)fm->nsw * 256, sizeof(size_t));
	if (!fm->port_at) {
		ftsw_err_set(err, "discovery: out of memory");
		return -1;
	}
	for (k = 0; k < fm->nports; k++)
		fm->port_at[(size_t)fm->ports[k].sw * 256 + fm->ports[k].port] =
			k + 1;
	return 0;
}

static int discover(struct fm *fm, struct ftsw_err *err)
{
	struct sw_list sl = { 0 };
	struct peer_map pm = { 0 };
	struct ftsw_topo *t = NULL;
	uint32_t *by_if = NULL;
	int maxif, rc = -1;

	if (discover_switches(fm, &sl, err) ||
	    discover_ports(fm, &maxif, err) ||
	    discover_peers(fm, &pm, &by_if, maxif, err))
		goto out;
	/* At most one cable per port. */
	fm->cables = malloc(sizeof(*fm->cables) * (fm->nports + 1));
	fm->cable_of = calloc(fm->nports + 1, sizeof(size_t));
	fm->swept = calloc(fm->nports + 1, sizeof(bool));
	t = ftsw_topo_new();
	if (!fm->cables || !fm->cable_of || !fm->swept || !t) {
		ftsw_err_set(err, "discovery: out of memory");
		goto out;
	}
	if (index_ports(fm, err) || cabling_nodes(fm, t, &sl, err) ||
	    cabling_links(fm, t, &pm, by_if, err) ||
	    ftsw_topo_finish(t, err))
		goto out;
	index_cables(fm);
	fm->topo = t;
	t = NULL;
	rc = 0;
out:
	ftsw_topo_free(t);
	free(sl.v);
	free(pm.peer);
	free(by_if);
	return rc;
}

/* ------------------------------------------------------------ sweeps */

/*
 * The status file, replaced atomically: one JSON object (the same writer
 * as every -j output), read back by ftsw_fm_status_read() and by tests.
 */
static void write_status(struct fm *fm)
{
	struct ftsw_err err;
	unsigned i;
	char *tmp;
	FILE *f;

	f = ftsw_atomic_open(fm->status, &tmp, &err);
	if (!f)
		return;
	ftsw_out_begin(f, true);
	ftsw_out_open_object(NULL);
	ftsw_out_int("pid", NULL, getpid());
	ftsw_out_str("netns", NULL, fm->o->netns ? fm->o->netns : "");
	ftsw_out_str("engine", NULL, fm->engine);
	ftsw_out_uint("switches", NULL, fm->nsw);
	ftsw_out_uint("hosts", NULL, fm->nhosts);
	ftsw_out_uint("lmc", NULL, fm->lmc);
	ftsw_out_uint("cables", NULL, fm->ncables);
	ftsw_out_uint("cables_usable", NULL, fm->usable_swept);
	ftsw_out_uint("generation", NULL, fm->generation);
	ftsw_out_uint("events", NULL, fm->events);
	ftsw_out_uint("no_change_events", NULL, fm->no_change);
	ftsw_out_uint("overruns", NULL, fm->overruns);
	ftsw_out_uint("sweeps", NULL, fm->sweeps);
	ftsw_out_open_object("last");
	ftsw_out_str("cause", NULL, fm->last_cause);
	ftsw_out_uint("routed_us", NULL, fm->last.routed_us);
	ftsw_out_uint("uploaded_us", NULL, fm->last.uploaded_us);
	ftsw_out_uint("committed_us", NULL, fm->last.committed_us);
	ftsw_out_uint("switches_changed", NULL, fm->last.switches_changed);
	ftsw_out_close_object();
	ftsw_out_uint("unreachable_pairs", NULL, fm->unreachable);
	ftsw_out_open_array("unreachable");
	for (i = 0; i < fm->nunreach; i++) {
		ftsw_out_open_array(NULL);
		ftsw_out_uint(NULL, NULL, fm->unreach[i][0]);
		ftsw_out_uint(NULL, NULL, fm->unreach[i][1]);
		ftsw_out_close_array();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_atomic_commit(f, fm->status, tmp, &err);
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
	unsigned off, noff = 1u << r->lmc;

	fm->unreachable = 0;
	fm->nunreach = 0;
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
			if (fm->nunreach < FTSW_FM_UNREACH_LIST) {
				fm->unreach[fm->nunreach][0] = s;
				fm->unreach[fm->nunreach++][1] = d;
			}
		}
}

/* A report of the manager's current state, of the given kind. */
static void report(struct fm *fm, enum ftsw_fm_report_kind kind,
		   struct ftsw_fm_report *r)
{
	r->kind = kind;
	r->sweeps = fm->sweeps;
	r->cables = fm->ncables;
	r->cables_usable = fm->usable_swept;
	r->hosts = fm->nhosts;
	if (fm->o->report)
		fm->o->report(r, fm->o->report_arg);
}

/* The routing of the usable cables (t: the cabling it routed). */
static struct ftsw_routing *route_usable(struct fm *fm, const bool *usable,
					 struct ftsw_topo **tp,
					 struct ftsw_err *err)
{
	struct ftsw_route_opts ro = { .lmc = fm->lmc, .threads = fm->o->threads };
	struct ftsw_routing *r;
	struct ftsw_topo *t;
	bool *keep;
	size_t k;

	keep = malloc(fm->topo->nnodes + 1);
	if (!keep) {
		ftsw_err_set(err, "out of memory");
		return NULL;
	}
	memset(keep, 1, fm->topo->nnodes + 1);
	t = ftsw_topo_subset(fm->topo, keep, err);
	free(keep);
	if (!t)
		return NULL;
	for (k = 0; k < fm->ncables; k++) {
		const struct fm_port *p = &fm->ports[fm->cables[k].a];

		if (!usable[k])
			ftsw_topo_disconnect(t, p->sw, p->port);
	}
	r = ftsw_route(fm->engine, t, &ro, err);
	if (!r) {
		/* The LIDs are the edge ports': the LMC cannot be raised. */
		struct ftsw_routing *more;
		struct ftsw_err e2;

		ro.lmc++;
		more = ftsw_route_min_lmc(fm->engine, t, &ro, false, &e2);
		if (more)
			ftsw_err_set(err, "engine %s needs LMC %u, the fabric's "
				     "edge ports have LMC %u (bring the lab up "
				     "with --lmc %u)", fm->engine, more->lmc,
				     fm->lmc, more->lmc);
		ftsw_routing_free(more);
		ftsw_topo_free(t);
		return NULL;
	}
	*tp = t;
	return r;
}

/* Stage the LFT entries that differ from the last upload; *changed switches. */
static int upload_changed(struct fm *fm, const struct ftsw_routing *r,
			  uint32_t *changed, struct ftsw_err *err)
{
	uint32_t i;

	if (!fm->lft) {
		fm->lft_size = r->lft_size;
		fm->lft = malloc(fm->nsw * fm->lft_size);
		if (!fm->lft) {
			ftsw_err_set(err, "out of memory");
			return -1;
		}
		memset(fm->lft, 0xfe, fm->nsw * fm->lft_size);	/* all differ */
	}
	*changed = 0;
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
				return -1;
			}
		}
		(*changed)++;
	}
	return 0;
}

/* The sweep is committed: it is the reference for the next events. */
static void sweep_done(struct fm *fm, const struct ftsw_routing *r,
		       const bool *usable, const uint64_t t[4],
		       uint32_t changed, const char *cause)
{
	struct ftsw_fm_report rep = { .cause = cause, .sweep = &fm->last };
	uint32_t i;
	size_t k;

	for (i = 0; i < fm->nsw; i++)
		memcpy(fm->lft + (size_t)i * fm->lft_size, ftsw_lft(r, i),
		       fm->lft_size);
	memcpy(fm->swept, usable, fm->ncables);
	fm->usable_swept = 0;
	for (k = 0; k < fm->ncables; k++)
		fm->usable_swept += usable[k];
	fm->sweeps++;
	fm->last.routed_us = t[1] - t[0];
	fm->last.uploaded_us = t[2] - t[0];
	fm->last.committed_us = t[3] - t[0];
	fm->last.switches_changed = changed;
	fm->last.generation = fm->generation;
	snprintf(fm->last_cause, sizeof(fm->last_cause), "%s", cause);
	count_unreachable(fm, r);
	fm->last.unreachable = fm->unreachable;
	rep.unreach = (const uint32_t (*)[2])fm->unreach;
	rep.nunreach = fm->nunreach;
	report(fm, FTSW_FM_SWEPT, &rep);
	write_status(fm);
}

/*
 * Route the usable cabling, upload what changed, commit. t0: when the
 * change was detected.
 */
static int sweep(struct fm *fm, uint64_t t0, const char *cause,
		 struct ftsw_err *err)
{
	struct ftsw_topo *t = NULL;
	struct ftsw_routing *r;
	uint64_t ts[4] = { t0 };
	uint32_t changed = 0;
	bool *usable;
	size_t k;
	int rc = -1;

	usable = malloc(fm->ncables + 1);
	if (!usable) {
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (k = 0; k < fm->ncables; k++)
		usable[k] = cable_usable(fm, k);
	r = route_usable(fm, usable, &t, err);
	if (!r)
		goto out;
	ts[1] = ftsw_now_us();
	if (upload_changed(fm, r, &changed, err))
		goto out;
	ts[2] = ftsw_now_us();
	if (ftsw_nl_commit(fm->nl, &fm->generation)) {
		ftsw_err_set(err, "commit: %s", ftsw_nl_error(fm->nl));
		ftsw_nl_lft_discard(fm->nl, -1);
		goto out;
	}
	ts[3] = ftsw_now_us();
	sweep_done(fm, r, usable, ts, changed, cause);
	rc = 0;
out:
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	free(usable);
	return rc;
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

/*
 * Events were read (or lost): sweep if the usable set changed. t0: the
 * wake-up.
 */
static void wakeup_decide(struct fm *fm, const struct ev_arg *a, bool overrun,
			  unsigned resynced, uint64_t t0)
{
	struct ftsw_fm_report rep = { 0 };
	struct ftsw_err err;
	char cause[160];
	size_t diff = cables_changed(fm);

	if (!diff) {
		/* The usable set is the routed one: nothing to do. */
		fm->no_change += a->events;
		if (a->events) {
			rep.cause = a->first;
			rep.events = a->events;
			rep.more = a->events > 1;
			report(fm, FTSW_FM_NO_CHANGE, &rep);
		}
		if (a->events || overrun)
			write_status(fm);
		return;
	}
	fm->no_change += a->events - a->flips;
	if (overrun)
		snprintf(cause, sizeof(cause), "resynchronised after an "
			 "event overrun (%u port states changed); %zu "
			 "cable%s changed", resynced, diff,
			 diff == 1 ? "" : "s");
	else
		snprintf(cause, sizeof(cause), "%s; %zu cable%s changed "
			 "in %u event%s", a->flips ? a->cause : a->first, diff,
			 diff == 1 ? "" : "s", a->events,
			 a->events == 1 ? "" : "s");
	if (sweep(fm, t0, cause, &err)) {
		char msg[sizeof(err.msg) + 16];

		snprintf(msg, sizeof(msg), "sweep failed: %s", err.msg);
		rep.error = msg;
		report(fm, FTSW_FM_FAILED, &rep);
	}
}

/* One wake-up of the event socket: apply every pending event, then decide. */
static void wakeup(struct fm *fm, struct pollfd *pfd)
{
	struct ftsw_fm_report rep = { 0 };
	struct ev_arg a = { .fm = fm };
	uint64_t t0 = ftsw_now_us();
	bool overrun = false;
	unsigned resynced = 0;
	struct ftsw_err err;

	/* Everything pending now is applied before deciding. */
	do {
		if (ftsw_nl_event_recv(fm->ev, ev_cb, &a) < 0) {
			overrun = true;
			break;
		}
	} while (poll(pfd, 1, 0) > 0);
	if (overrun) {
		fm->overruns++;
		rep.error = ftsw_nl_error(fm->ev);
		report(fm, FTSW_FM_OVERRUN, &rep);
		if (resync(fm, &resynced, &err)) {
			rep.error = err.msg;
			report(fm, FTSW_FM_FAILED, &rep);
			return;
		}
		rep.error = NULL;
		rep.changed = resynced;
		report(fm, FTSW_FM_RESYNCED, &rep);
	}
	wakeup_decide(fm, &a, overrun, resynced, t0);
}

/* Subscribe, discover and make the first sweep. */
static int fm_start(struct fm *fm, struct ftsw_err *err)
{
	const struct ftsw_fm_opts *o = fm->o;
	char cause[160];
	uint64_t t0;
	int rc;

	if (!ftsw_engine_find(fm->engine)) {
		ftsw_err_set(err, "engine '%s': no such engine (ftsw route list)",
			     fm->engine);
		return -1;
	}
	if (o->status)
		snprintf(fm->status, sizeof(fm->status), "%s", o->status);
	else
		ftsw_fm_status_path(o->netns, fm->status, sizeof(fm->status));
	fm->ev = ftsw_nl_open_in(o->netns, err);
	if (!fm->ev)
		return -1;
	if (ftsw_nl_subscribe(fm->ev)) {
		ftsw_err_set(err, "events: %s", ftsw_nl_error(fm->ev));
		return -1;
	}
	set_rcvbuf(fm, o->rcvbuf > 0 ? o->rcvbuf : FTSW_FM_RCVBUF);
	fm->nl = ftsw_nl_open_in(o->netns, err);
	if (!fm->nl)
		return -1;
	t0 = ftsw_now_us();
	if (o->netns && ftsw_netns_enter(o->netns, err))
		return -1;
	rc = discover(fm, err);
	if (ftsw_netns_home(rc ? NULL : err) || rc)
		return -1;
	snprintf(cause, sizeof(cause), "discovered %" PRIu32 " switches, %"
		 PRIu32 " hosts, %" PRIu64 " links, LMC %u in %" PRIu64
		 " us; routing with %s", fm->nsw, fm->nhosts,
		 ftsw_topo_nlinks(fm->topo), fm->lmc, ftsw_now_us() - t0,
		 fm->engine);
	return sweep(fm, ftsw_now_us(), cause, err);
}

static void fm_free(struct fm *fm)
{
	ftsw_nl_close(fm->ev);
	ftsw_nl_close(fm->nl);
	ftsw_topo_free(fm->topo);
	free(fm->sw_id);
	free(fm->ports);
	free(fm->port_at);
	free(fm->cables);
	free(fm->cable_of);
	free(fm->swept);
	free(fm->lft);
}

int ftsw_fm_run(const struct ftsw_fm_opts *o, struct ftsw_err *err)
{
	struct fm fm = { .o = o };
	int rc = -1;

	fm.engine = o->engine ? o->engine : "dmodc";
	if (fm_start(&fm, err))
		goto out;
	if (o->ready)
		o->ready(o->ready_arg);
	while (!o->once && (!o->stop || !*o->stop)) {
		struct pollfd pfd = { .fd = ftsw_nl_event_fd(fm.ev),
				      .events = POLLIN };
		int n = poll(&pfd, 1, 500);

		if (n < 0 && errno != EINTR) {
			ftsw_err_set(err, "poll: %s", strerror(errno));
			goto out;
		}
		if (n > 0)
			wakeup(&fm, &pfd);
	}
	rc = 0;
out:
	ftsw_netns_home(NULL);
	if (rc == 0 && !o->once)
		unlink(fm.status);
	fm_free(&fm);
	return rc;
}

/* ------------------------------------------------------------ status */

/*
 * The status file is one JSON object written by write_status(); its keys
 * are unique at every depth, so a key is found by scanning the strings of
 * the document: the string equal to it that a ':' follows.
 */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* End of the JSON string starting at p (at its '"'), or NULL. */
static const char *string_end(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p ? p : NULL;
}

static const char *json_value(const char *doc, const char *key)
{
	size_t n = strlen(key);
	const char *p = doc, *e;

	while ((p = strchr(p, '"'))) {
		e = string_end(p);
		if (!e)
			return NULL;
		if ((size_t)(e - p - 1) == n && !memcmp(p + 1, key, n) &&
		    *skip_ws(e + 1) == ':')
			return skip_ws(skip_ws(e + 1) + 1);
		p = e + 1;
	}
	return NULL;
}

static int status_u64(const char *doc, const char *path, const char *key,
		      uint64_t *v, struct ftsw_err *err)
{
	const char *p = json_value(doc, key);
	char what[400], tok[32];
	size_t n;

	snprintf(what, sizeof(what), "%s: %s", path, key);
	if (!p) {
		ftsw_err_set(err, "%s: missing", what);
		return -1;
	}
	n = strcspn(p, ",}] \t\r\n");
	snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
	return ftsw_parse_u64(what, tok, 0, UINT64_MAX, v, err) ? -1 : 0;
}

/* Decode the JSON string value of key into buf (\uXXXX as UTF-8). */
static int status_str(const char *doc, const char *path, const char *key,
		      char *buf, size_t sz, struct ftsw_err *err)
{
	const char *p = json_value(doc, key), *e;
	size_t n = 0;

	if (!p || *p != '"' || !(e = string_end(p))) {
		ftsw_err_set(err, "%s: %s: string expected", path, key);
		return -1;
	}
	for (p++; p < e && n + 4 < sz; p++) {
		unsigned c = (unsigned char)*p;

		if (c == '\\') {
			c = (unsigned char)*++p;
			if (c == 'u') {
				char hex[5] = { 0 };

				memcpy(hex, p + 1, e - p > 4 ? 4 : 0);
				c = (unsigned)strtoul(hex, NULL, 16);
				p += e - p > 4 ? 4 : 0;
				if (c >= 0x800) {
					buf[n++] = (char)(0xe0 | c >> 12);
					buf[n++] = (char)(0x80 | (c >> 6 & 0x3f));
					buf[n++] = (char)(0x80 | (c & 0x3f));
					continue;
				}
				if (c >= 0x80) {
					buf[n++] = (char)(0xc0 | c >> 6);
					buf[n++] = (char)(0x80 | (c & 0x3f));
					continue;
				}
			} else {
				c = c == 'n' ? '\n' : c == 't' ? '\t' :
				    c == 'r' ? '\r' : c == 'b' ? '\b' :
				    c == 'f' ? '\f' : c;
			}
		}
		buf[n++] = (char)c;
	}
	buf[n] = 0;
	return 0;
}

/* "unreachable": [[s, d], ...] */
static int status_pairs(const char *doc, const char *path,
			struct ftsw_fm_status *st, struct ftsw_err *err)
{
	const char *p = json_value(doc, "unreachable");
	char what[400];
	uint64_t v[2];
	int i;

	snprintf(what, sizeof(what), "%s: unreachable", path);
	if (!p || *p != '[')
		goto bad;
	for (p = skip_ws(p + 1); *p == '['; p = skip_ws(p)) {
		for (i = 0, p++; i < 2; i++) {
			if (ftsw_parse_u64_prefix(what, skip_ws(p), 0, UINT32_MAX,
						  &v[i], &p, err))
				return -1;
			p = skip_ws(p);
			if (*p++ != (i ? ']' : ','))
				goto bad;
		}
		if (st->nunreach < FTSW_FM_UNREACH_LIST) {
			st->unreach[st->nunreach][0] = (uint32_t)v[0];
			st->unreach[st->nunreach++][1] = (uint32_t)v[1];
		}
		p = skip_ws(p);
		if (*p == ',')
			p++;
	}
	if (*p == ']')
		return 0;
bad:
	ftsw_err_set(err, "%s: [[SRC, DST], ...] expected", what);
	return -1;
}

int ftsw_fm_status_read(const char *path, struct ftsw_fm_status *st,
			struct ftsw_err *err)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
#define NUM(k) { #k, offsetof(struct ftsw_fm_status, k) }
		NUM(switches), NUM(hosts), NUM(lmc), NUM(cables),
		NUM(cables_usable), NUM(generation), NUM(events),
		NUM(no_change_events), NUM(overruns), NUM(sweeps),
		NUM(routed_us), NUM(uploaded_us), NUM(committed_us),
		NUM(switches_changed), NUM(unreachable_pairs),
#undef NUM
	};
	char buf[8192];
	uint64_t pid;
	size_t n, i;
	FILE *f;

	memset(st, 0, sizeof(*st));
	f = fopen(path, "r");
	if (!f) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (status_u64(buf, path, "pid", &pid, err))
		return -1;
	st->pid = pid > INT32_MAX ? 0 : (long)pid;
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (status_u64(buf, path, nums[i].key,
			       (uint64_t *)((char *)st + nums[i].off), err))
			return -1;
	if (status_str(buf, path, "netns", st->netns, sizeof(st->netns), err) ||
	    status_str(buf, path, "engine", st->engine, sizeof(st->engine), err) ||
	    status_str(buf, path, "cause", st->cause, sizeof(st->cause), err))
		return -1;
	return status_pairs(buf, path, st, err);
}

/*
 * Whether the manager a status file names still runs: its pid alive and
 * its command ftsw (a stale file's pid may be another process's by now).
 */
static bool fm_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || kill((pid_t)pid, 0) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	return !strcmp(comm, "ftsw");
}

int ftsw_fm_stop(const char *netns, unsigned wait_ms, struct ftsw_err *err)
{
	struct ftsw_fm_status st;
	char path[320];
	unsigned waited;

	ftsw_fm_status_path(netns, path, sizeof(path));
	if (access(path, F_OK))
		return 1;
	if (ftsw_fm_status_read(path, &st, err))
		return -1;
	if (!fm_alive(st.pid))
		return 1;
	if (kill((pid_t)st.pid, SIGTERM) < 0) {
		ftsw_err_set(err, "fabric manager (pid %ld): %s", st.pid,
			     strerror(errno));
		return -1;
	}
	for (waited = 0; waited < wait_ms && kill((pid_t)st.pid, 0) == 0;
	     waited += 20)
		usleep(20000);
	if (kill((pid_t)st.pid, 0) == 0) {
		ftsw_err_set(err, "fabric manager (pid %ld) still runs %u ms "
			     "after SIGTERM", st.pid, wait_ms);
		return -1;
	}
	return 0;
}
