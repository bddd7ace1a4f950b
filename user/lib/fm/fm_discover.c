// SPDX-License-Identifier: GPL-2.0
/* libftsw fabric manager: discovery of the switches, ports and cables. */
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
#include "fm/fm_int.h"
#include "nl/ns.h"
#include "nl/rtnl.h"
#include "route/routing.h"
#include "util/output.h"
#include "util/parse.h"

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

uint32_t fm_sw_index(const struct fm *fm, uint32_t id)
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
	uint32_t s = fm_sw_index(fm, pi->switch_id);

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
	p->patch_sw = pi->patch ? fm_sw_index(fm, pi->peer_switch) : UINT32_MAX;
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
		ftsw_err_errno(err, ftsw_nl_errno(fm->nl), "switch dump: %s",
			       ftsw_nl_error(fm->nl));
		return -1;
	}
	if (!sl->n) {
		ftsw_err_set(err, "no switches in this fabric");
		return -1;
	}
	fm->nsw = (uint32_t)sl->n;
	fm->sw_id = malloc(sizeof(uint32_t) * sl->n);
	if (!fm->sw_id) {
		ftsw_err_errno(err, ENOMEM, "discovery: out of memory");
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
		ftsw_err_errno(err, ftsw_nl_errno(fm->nl), "port dump: %s",
			       ftsw_nl_error(fm->nl));
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
		ftsw_err_errno(err, ENOMEM, "discovery: out of memory");
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
		ftsw_err_errno(err, ENOMEM, "discovery: out of memory");
		return -1;
	}
	for (k = 0; k < fm->nports; k++)
		fm->port_at[(size_t)fm->ports[k].sw * 256 + fm->ports[k].port] =
			k + 1;
	return 0;
}

int fm_discover(struct fm *fm, struct ftsw_err *err)
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
		ftsw_err_errno(err, ENOMEM, "discovery: out of memory");
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
