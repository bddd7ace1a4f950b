// SPDX-License-Identifier: GPL-2.0
/* libftsw lab: failing and healing cables, chaos (see lab.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "util/evlog.h"
#include "util/output.h"
#include "util/parse.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "nl/rtnl.h"

/* ------------------------------------------------------------ failures */

static int change_add(struct ftsw_lab_changes *ch, uint32_t a, unsigned ap,
		      uint32_t b, unsigned bp, bool up, struct ftsw_err *err)
{
	if (!ch)
		return 0;
	if (ch->n == ch->cap) {
		size_t cap = ch->cap * 2 + 8;
		void *p = realloc(ch->v, sizeof(*ch->v) * cap);

		if (!p) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
		ch->v = p;
		ch->cap = cap;
	}
	ch->v[ch->n++] = (struct ftsw_lab_change){ .a = a, .a_port = ap,
						   .b = b, .b_port = bp,
						   .up = up };
	return 0;
}

void ftsw_lab_changes_free(struct ftsw_lab_changes *ch)
{
	free(ch->v);
	memset(ch, 0, sizeof(*ch));
}

/* A switch port's device, or a host's eth0, up or down: */
struct link_job {
	const struct ftsw_topo *t;
	uint32_t node;		/* switch ends: node's port, its peer's too */
	unsigned port;
	bool both, up;
	uint32_t host;		/* eth0 of host */
};

/*
 * A host's eth0, in its namespace, down or up. Down, it loses its
 * neighbour entries; it keeps its IPv4 address and (keep_addr_on_down) its
 * IPv6 one, and once up again the prefix routes come back: the host
 * resolves its peers afresh through the fabric, as it did at first.
 */
static int host_eth0_in(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	const struct link_job *j = arg;
	char what[64];

	/* eth0 keeps its IPv6 address while down (IPv4 always does). */
	if (!j->up &&
	    ftsw_sysctl("net/ipv6/conf/eth0/keep_addr_on_down", "1", err))
		return -1;
	snprintf(what, sizeof(what), "host h%" PRIu32 " eth0 %s", j->host,
		 j->up ? "up" : "down");
	return ftsw_rt_link_up(rt, LAB_HOST_IFINDEX, j->up, what, err);
}

static int host_eth0(struct ftsw_lab *lab, uint32_t h, bool up,
		     struct ftsw_err *err)
{
	struct link_job j = { .host = h, .up = up };
	char what[64];
	int fd;

	fd = ftsw_lab_host_fd(lab, h, err);
	if (fd < 0)
		return -1;
	snprintf(what, sizeof(what), "host h%" PRIu32, h);
	return ftsw_rt_run(fd, what, host_eth0_in, &j, NULL, err);
}

/* The fabric-namespace end(s) of a cable. */
static int fabric_ends_in(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	const struct link_job *j = arg;
	const struct ftsw_topo *t = j->t;
	const struct ftsw_port *x = ftsw_port(t, j->node, j->port);
	char what[64];

	snprintf(what, sizeof(what), "switch s%" PRIu32 ":%u",
		 t->nodes[j->node].index, j->port);
	if (ftsw_rt_link_up(rt, lab_port_ifindex(t, j->node, j->port), j->up,
			    what, err))
		return -1;
	if (!j->both)
		return 0;
	snprintf(what, sizeof(what), "switch s%" PRIu32 ":%u",
		 t->nodes[x->peer].index, x->peer_port);
	return ftsw_rt_link_up(rt, lab_port_ifindex(t, x->peer, x->peer_port),
			       j->up, what, err);
}

static int fabric_ends(struct ftsw_lab *lab, uint32_t node, unsigned port,
		       bool both, bool up, struct ftsw_err *err)
{
	struct link_job j = { .t = lab->topo, .node = node, .port = port,
			      .both = both, .up = up };

	return ftsw_rt_run(lab->fabric_fd, lab->name, fabric_ends_in, &j, NULL,
			   err);
}

/* Both ends of a patch cable, administratively up or down. */
static int patch_ends(struct ftsw_lab *lab, uint32_t node, unsigned port,
		      bool up, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	const struct ftsw_port *x = ftsw_port(t, node, port);
	uint32_t ends[2] = { node, x->peer };
	unsigned ports[2] = { port, x->peer_port }, k;

	for (k = 0; k < 2; k++) {
		struct ftsw_port_cfg c;

		ftsw_port_cfg_init(&c);
		c.switch_id = t->nodes[ends[k]].index;
		c.port = (uint8_t)ports[k];
		c.admin_up = up;
		if (ftsw_nl_port_set(lab->nl, &c)) {
			ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
				       "switch s%" PRIu32 ":%u: %s",
				       c.switch_id, ports[k],
				       ftsw_nl_error(lab->nl));
			return -1;
		}
	}
	return 0;
}

int ftsw_lab_set_link(struct ftsw_lab *lab, uint32_t node, unsigned port,
		      bool up, struct ftsw_lab_changes *ch,
		      struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	const struct ftsw_port *x;
	uint32_t peer;

	if (port < 1 || port > t->nodes[node].nports) {
		ftsw_err_set(err, "port %u: node %s has ports 1..%u", port,
			     t->nodes[node].desc ? t->nodes[node].desc : "?",
			     t->nodes[node].nports);
		return -1;
	}
	x = ftsw_port(t, node, port);
	if (x->peer == FTSW_NONE) {
		ftsw_err_set(err, "port %u of %s is not cabled", port,
			     t->nodes[node].desc ? t->nodes[node].desc : "?");
		return -1;
	}
	if (t->nodes[node].kind == FTSW_HOST) {
		/* Always name the cable from its switch end. */
		uint32_t sw = x->peer;

		port = x->peer_port;
		node = sw;
		x = ftsw_port(t, node, port);
	}
	peer = x->peer;
	if (t->nodes[peer].kind == FTSW_SWITCH && lab->patch) {
		/*
		 * A patch cable: both ends' admin state, so that healing it
		 * from either end undoes a failure made from the other.
		 * Each end's link follows the far end's admin state, so
		 * both switches see it go down at the first request.
		 */
		if (patch_ends(lab, node, port, up, err))
			return -1;
	} else if (t->nodes[peer].kind == FTSW_SWITCH) {
		/* Both veth ends: both switches see the port go down. */
		if (fabric_ends(lab, node, port, true, up, err))
			return -1;
	} else if (up) {
		/*
		 * Host cable: the host's end first (eth0 up),
		 * then the switch's, so that the fabric sees the edge port up
		 * only once the host can talk.
		 */
		if (host_eth0(lab, t->nodes[peer].index, true, err) ||
		    fabric_ends(lab, node, port, false, true, err))
			return -1;
	} else {
		/* The switch's end first: the fabric reacts at once. */
		if (fabric_ends(lab, node, port, false, false, err) ||
		    host_eth0(lab, t->nodes[peer].index, false, err))
			return -1;
	}
	ftsw_evlog(lab->name, up ? "heal" : "fail", "cable s%u:%u - %c%u%s%.0u %s",
		   t->nodes[node].index, port,
		   t->nodes[peer].kind == FTSW_SWITCH ? 's' : 'h',
		   t->nodes[peer].index,
		   t->nodes[peer].kind == FTSW_SWITCH ? ":" : "",
		   t->nodes[peer].kind == FTSW_SWITCH ? x->peer_port : 0,
		   up ? "up" : "down");
	return change_add(ch, node, port, peer, x->peer_port, up, err);
}

struct dev_state {
	const struct ftsw_topo *t;
	bool *up;	/* by port record */
};

static int dev_state_cb(int ifindex, const char *name, int link, bool other,
			bool up, bool carrier, void *arg)
{
	struct dev_state *d = arg;
	long k = (long)ifindex - LAB_IFINDEX_BASE;

	(void)name;
	(void)link;
	(void)other;
	(void)carrier;
	if (k >= 0 && k < (long)d->t->nports)
		d->up[k] = up;
	return 0;
}

static int patch_state_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct dev_state *d = arg;
	uint32_t node;

	if (!pi->patch || pi->switch_id >= d->t->nswitches)
		return 0;
	node = d->t->switches[pi->switch_id];
	if (pi->port >= 1 && pi->port <= d->t->nodes[node].nports)
		d->up[d->t->nodes[node].first_port + pi->port - 1] =
			pi->admin_up && pi->oper_up;
	return 0;
}

static int dev_states_in(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	return ftsw_rt_dump_links(rt, dev_state_cb, arg, err);
}

/*
 * State of every switch port, by port record: a device's admin state, or
 * for a patch cable's end, the cable's (both ends admin up).
 */
static bool *port_states(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct dev_state d = { .t = lab->topo };

	d.up = calloc(lab->topo->nports + 1, sizeof(bool));
	if (!d.up) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (ftsw_rt_run(lab->fabric_fd, lab->name, dev_states_in, &d, NULL,
			err)) {
		free(d.up);
		return NULL;
	}
	if (lab->patch && ftsw_nl_port_dump(lab->nl, -1, patch_state_cb, &d)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "lab %s: port dump: %s", lab->name,
			       ftsw_nl_error(lab->nl));
		free(d.up);
		return NULL;
	}
	return d.up;
}

static bool port_up(const struct ftsw_topo *t, const bool *st, uint32_t node,
		    unsigned p)
{
	const struct ftsw_port *x = ftsw_port(t, node, p);

	if (t->nodes[node].kind == FTSW_HOST)
		return st[t->nodes[x->peer].first_port + x->peer_port - 1];
	return st[t->nodes[node].first_port + p - 1];
}

int ftsw_lab_fail(struct ftsw_lab *lab, enum ftsw_lab_fail_kind kind,
		  const char *a, const char *b, bool up, bool all,
		  struct ftsw_lab_changes *ch, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t na, nb;
	unsigned p, changed = 0;
	bool *st;
	int rc = 0;

	if (kind == FTSW_FAIL_PORT) {
		char node[128], *c;
		unsigned long pp;
		char *e;

		snprintf(node, sizeof(node), "%s", a);
		c = strrchr(node, ':');
		if (!c) {
			ftsw_err_set(err, "port '%s': expected SWITCH:PORT", a);
			return -1;
		}
		*c++ = 0;
		pp = strtoul(c, &e, 10);
		if (*e || !*c || pp > 254) {
			ftsw_err_set(err, "port '%s': bad port number", a);
			return -1;
		}
		if (ftsw_lab_find_node(lab, node, &na, err))
			return -1;
		return ftsw_lab_set_link(lab, na, (unsigned)pp, up, ch, err);
	}
	if (ftsw_lab_find_node(lab, a, &na, err))
		return -1;
	st = port_states(lab, err);
	if (!st)
		return -1;
	if (kind == FTSW_FAIL_SWITCH) {
		if (t->nodes[na].kind != FTSW_SWITCH) {
			ftsw_err_set(err, "'%s' is not a switch", a);
			free(st);
			return -1;
		}
		for (p = 1; p <= t->nodes[na].nports && !rc; p++) {
			if (ftsw_port(t, na, p)->peer == FTSW_NONE ||
			    port_up(t, st, na, p) == up)
				continue;
			rc = ftsw_lab_set_link(lab, na, p, up, ch, err);
			changed++;
		}
		free(st);
		return rc;
	}
	if (ftsw_lab_find_node(lab, b, &nb, err)) {
		free(st);
		return -1;
	}
	for (p = 1; p <= t->nodes[na].nports && !rc; p++) {
		if (ftsw_port(t, na, p)->peer != nb || port_up(t, st, na, p) == up)
			continue;
		rc = ftsw_lab_set_link(lab, na, p, up, ch, err);
		changed++;
		if (!all)
			break;
	}
	free(st);
	if (!rc && !changed) {
		bool cabled = false;

		for (p = 1; p <= t->nodes[na].nports; p++)
			cabled |= ftsw_port(t, na, p)->peer == nb;
		ftsw_err_set(err, cabled ? "link %s - %s: every link between them "
			     "is %s already" : "link %s - %s: not cabled%.0s",
			     a, b, up ? "up" : "down");
		return -1;
	}
	return rc;
}

int ftsw_lab_chaos(struct ftsw_lab *lab, unsigned count, uint64_t seed,
		   struct ftsw_lab_changes *ch, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t *cand, *cnode, nc = 0, i;
	struct ftsw_sw_port it;
	uint8_t *cport;
	uint64_t st = seed;
	bool *up;
	int rc = 0;

	up = port_states(lab, err);
	if (!up)
		return -1;
	cand = malloc(sizeof(uint32_t) * (t->nports + 1));
	if (!cand) {
		free(up);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	cnode = malloc(sizeof(uint32_t) * (t->nports + 1));
	cport = malloc(t->nports + 1);
	if (!cnode || !cport) {
		free(cnode);
		free(cport);
		free(cand);
		free(up);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_ONCE) {
		uint32_t id = t->nodes[it.node].first_port + it.port - 1;

		if (!up[id])
			continue;
		cnode[id] = it.node;
		cport[id] = (uint8_t)it.port;
		cand[nc++] = id;
	}
	if (count > nc) {
		ftsw_err_set(err, "chaos: %u failures asked, %" PRIu32
			     " switch links up", count, nc);
		rc = -1;
	}
	for (i = 0; !rc && i < count; i++) {
		uint32_t j = i + (uint32_t)(ftsw_rand_next(&st) % (nc - i));
		uint32_t k = cand[j];

		cand[j] = cand[i];
		cand[i] = k;
		rc = ftsw_lab_set_link(lab, cnode[k], cport[k], false, ch, err);
	}
	free(cnode);
	free(cport);
	free(cand);
	free(up);
	return rc;
}

