// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's hosts join IP multicast groups as IPoIB would (issue 38;
 * Documentation/sm.md, "Multicast"): one pass reads each host's groups
 * from its kernel (/proc/net/igmp and igmp6 of its eth0, in its network
 * namespace), joins the new ones through the SA from the host's own
 * gateway (an MCMemberRecord Set, full member, MGID per RFC 4391 in the
 * default partition), leaves the ones it no longer has (Delete), and
 * gives the host's edge port the groups with the MLIDs the SA answered
 * (PORT_MCAST). The SM routes the groups (MFTs) by itself. Selftest 154.
 *
 * The hosts join at once, as a fabric's IPoIB ports do after a boot: one
 * SA client per host with something to join or leave (opened in its
 * namespace, so its gateway sees the host's port), every host's requests
 * in flight together
 * (ftsw_sa_mcm_batch), the answers taken as they come (by chunks of
 * LAB_MCAST_CHUNK hosts, so that a big lab's sockets stay within the
 * file limit). One at a time, a pass cost a round trip through the
 * fabric and OpenSM per request.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/lab.h"
#include "lab/lab_int.h"
#include "lab/mcast.h"
#include "nl/ns.h"
#include "sa/sa.h"

#define LAB_MCAST_QKEY		0x0b1b	/* IPoIB's (RFC 4391) */
#define LAB_MCAST_PKEY		0xffff	/* the default partition, full */
#define LAB_MCAST_FILE_MAX	(64 * 1024)
/* Hosts whose SA clients are open at once (3 sockets each). */
#define LAB_MCAST_CHUNK		128

/* OpenSM creates a group only with these (and joins with them too). */
#define LAB_MCAST_COMP	(FTSW_SA_MCM_MGID | FTSW_SA_MCM_PORT_GID | \
			 FTSW_SA_MCM_QKEY | FTSW_SA_MCM_PKEY | \
			 FTSW_SA_MCM_TCLASS | FTSW_SA_MCM_FLOW_LABEL | \
			 FTSW_SA_MCM_SL | FTSW_SA_MCM_JOIN_STATE)

struct mc_host {
	struct lab_mgroup want[LAB_MCAST_MAX_GROUPS];
	size_t nwant;
	struct ftsw_sa_client sa;
	bool sa_open;
	uint16_t sm_lid;
	uint8_t gid[16];
	/* its edge port, and the groups the kernel gives it */
	bool found;
	uint32_t switch_id, port;
	struct ftsw_mcast_ent ents[FTSW_MCAST_MAX];
	size_t n;
	bool changed;
};

/* A whole /proc file into buf (NUL-terminated); its length or -1. */
static ssize_t read_proc(const char *path, char *buf, size_t max,
			 struct ftsw_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (len + 1 < max && (n = read(fd, buf + len, max - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/*
 * The solicited-node groups (ff02::1:ff00:0/104) are left out: the edge
 * port answers neighbour solicitation itself (the kernel's responder), so
 * none is sent into the fabric, and a join per address would only load
 * the SA.
 */
static void skip_solicited(struct mc_host *h)
{
	static const uint8_t sn[13] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff };
	size_t i, n = 0;

	for (i = 0; i < h->nwant; i++)
		if (h->want[i].family != 6 ||
		    memcmp(h->want[i].addr, sn, sizeof(sn)))
			h->want[n++] = h->want[i];
	h->nwant = n;
}

/* In the host's namespace: its eth0's groups. */
static int host_groups(void *arg, struct ftsw_err *err)
{
	struct mc_host *h = arg;
	size_t n4 = 0, n6 = 0;
	char *buf = malloc(LAB_MCAST_FILE_MAX);
	ssize_t len;
	int rc = -1;

	if (!buf) {
		ftsw_err_set(err, "multicast: out of memory");
		return -1;
	}
	/* absent: no IPv4 groups (CONFIG_IP_MULTICAST off, as the VM's) */
	len = access("/proc/net/igmp", F_OK) ? 0 :
	      read_proc("/proc/net/igmp", buf, LAB_MCAST_FILE_MAX, err);
	if (len < 0 || lab_mcast_parse(buf, (size_t)len, false, "eth0",
				       h->want, LAB_MCAST_MAX_GROUPS, &n4, err))
		goto out;
	len = read_proc("/proc/net/igmp6", buf, LAB_MCAST_FILE_MAX, err);
	if (len < 0 || lab_mcast_parse(buf, (size_t)len, true, "eth0",
				       h->want + n4, LAB_MCAST_MAX_GROUPS - n4,
				       &n6, err))
		goto out;
	h->nwant = n4 + n6;
	skip_solicited(h);
	rc = 0;
out:
	free(buf);
	return rc;
}

/* In the host's namespace: its SA client (its gateway's). */
static int host_sa(void *arg, struct ftsw_err *err)
{
	struct mc_host *h = arg;

	if (ftsw_sa_open(&h->sa, FTSW_LAB_GW_SOCK, err))
		return -1;
	h->sa_open = true;
	return 0;
}

/* A group as PORT_MCAST keys it: IPv6, IPv4 mapped. */
static void group_key(const struct lab_mgroup *g, uint8_t key[16])
{
	memset(key, 0, 16);
	if (g->family == 4) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, g->addr, 4);
	} else {
		memcpy(key, g->addr, 16);
	}
}

static void key_group(const uint8_t key[16], struct lab_mgroup *g)
{
	static const uint8_t v4[12] = { [10] = 0xff, [11] = 0xff };

	memset(g, 0, sizeof(*g));
	if (!memcmp(key, v4, sizeof(v4))) {
		g->family = 4;
		memcpy(g->addr, key + 12, 4);
	} else {
		g->family = 6;
		memcpy(g->addr, key, 16);
	}
}

struct mc_find {
	const struct ftsw_topo *t;
	struct mc_host *hosts;
};

static int find_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct mc_find *f = arg;
	int64_t host = lab_edge_host(f->t, pi);
	struct mc_host *h;

	if (host < 0 || host >= (int64_t)f->t->nhosts)
		return 0;
	h = &f->hosts[host];
	h->found = true;
	h->switch_id = pi->switch_id;
	h->port = pi->port;
	h->n = pi->mcast_n < FTSW_MCAST_MAX ? pi->mcast_n : FTSW_MCAST_MAX;
	memcpy(h->ents, pi->mcast, h->n * sizeof(h->ents[0]));
	return 0;
}

/* Every host's edge port, as the kernel has it (its groups included). */
static int mc_edges(struct ftsw_lab *lab, struct mc_host *hosts,
		    struct ftsw_err *err)
{
	struct mc_find f = { .t = lab->topo, .hosts = hosts };
	uint32_t host;

	if (ftsw_nl_port_dump(lab->nl, -1, find_cb, &f)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "lab %s: %s",
			       lab->name, ftsw_nl_error(lab->nl));
		return -1;
	}
	for (host = 0; host < lab->topo->nhosts; host++)
		if (!hosts[host].found) {
			ftsw_err_set(err, "lab %s: no edge port for h%" PRIu32,
				     lab->name, host);
			return -1;
		}
	return 0;
}

/* Host host's groups, read in its namespace. */
static int mc_host_groups(struct ftsw_lab *lab, uint32_t host,
			  struct mc_host *h, struct ftsw_err *err)
{
	int fd = ftsw_lab_host_fd(lab, host, err);

	return fd < 0 || ftsw_netns_run(fd, "host", host_groups, h, err) ?
	       -1 : 0;
}

/*
 * Host host's SA client (its gateway started if it is not running), for
 * its requests q[n]: their client, the SM's LID, the port's GID.
 */
static int mc_host_sa(struct ftsw_lab *lab, uint32_t host, struct mc_host *h,
		      struct ftsw_sa_mcm_req *q, size_t n,
		      struct ftsw_err *err)
{
	uint16_t lid;
	size_t i;
	int fd;

	if (ftsw_lab_gw_start(lab->name, host, err))
		return -1;
	fd = ftsw_lab_host_fd(lab, host, err);
	if (fd < 0 || ftsw_netns_run(fd, "host", host_sa, h, err) ||
	    ftsw_sa_port_lids(&h->sa, &lid, &h->sm_lid, err) ||
	    ftsw_sa_port_gid(&h->sa, h->gid, err))
		return -1;
	for (i = 0; i < n; i++) {
		q[i].c = &h->sa;
		q[i].sm_lid = h->sm_lid;
		memcpy(q[i].in.port_gid, h->gid, 16);
	}
	return 0;
}

/* The request of a host for group g, Set (join) or Delete (leave); its
 * client, SM and port GID are mc_host_sa()'s to fill in. */
static void mc_req(const struct lab_mgroup *g, uint8_t method,
		   struct ftsw_sa_mcm_req *q)
{
	*q = (struct ftsw_sa_mcm_req){ .method = method,
		.comp = LAB_MCAST_COMP,
		.in = { .qkey = LAB_MCAST_QKEY, .pkey = LAB_MCAST_PKEY,
			.join_state = FTSW_SA_JOIN_FULL } };
	lab_mcast_mgid(g, LAB_MCAST_PKEY, q->in.mgid);
}

/*
 * Host h's requests into q (room for 2 * FTSW_MCAST_MAX): a Delete for
 * each group its port has that the host left (dropped from h->ents), a
 * Set for each it has joined since (want[k], k in wi; -1 for a Delete).
 * Returns how many.
 */
static size_t mc_host_reqs(struct mc_host *h, struct ftsw_sa_mcm_req *q,
			   int32_t *wi)
{
	struct lab_mgroup g;
	uint8_t key[16];
	size_t i, j, n = 0, nq = 0;
	bool keep;

	for (i = 0; i < h->n; i++) {
		key_group(h->ents[i].group, &g);
		keep = false;
		for (j = 0; j < h->nwant && !keep; j++)
			keep = lab_mgroup_eq(&g, &h->want[j]);
		if (keep) {
			h->ents[n++] = h->ents[i];
			continue;
		}
		wi[nq] = -1;
		mc_req(&g, FTSW_SA_METHOD_DELETE, &q[nq++]);
	}
	h->changed = n != h->n;
	h->n = n;
	for (j = 0; j < h->nwant; j++) {
		group_key(&h->want[j], key);
		for (i = 0; i < h->n && memcmp(h->ents[i].group, key, 16); i++)
			;
		if (i < h->n)
			continue;
		wi[nq] = (int32_t)j;
		mc_req(&h->want[j], FTSW_SA_METHOD_SET, &q[nq++]);
	}
	return nq;
}

/* The SA's answer to a join: the group for the host's edge port. */
static void mc_joined(struct mc_host *h, const struct ftsw_sa_mcm_req *q,
		      const struct lab_mgroup *g)
{
	struct ftsw_mcast_ent *e = &h->ents[h->n++];

	memset(e, 0, sizeof(*e));
	group_key(g, e->group);
	e->mlid = htons(q->out.mlid);
	e->pkey = htons(q->out.pkey);
	e->sl = q->out.sl & 0x0f;
	h->changed = true;
}

/* Host h's edge port given its groups (PORT_MCAST). */
static int mc_port_set(struct ftsw_lab *lab, struct mc_host *h,
		       struct ftsw_err *err)
{
	struct ftsw_port_cfg pc;

	ftsw_port_cfg_init(&pc);
	pc.switch_id = h->switch_id;
	pc.port = h->port;
	pc.mcast = h->ents;
	pc.mcast_n = (uint32_t)h->n;
	if (ftsw_nl_port_set(lab->nl, &pc)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "switch %" PRIu32 " port %" PRIu32 ": %s",
			       h->switch_id, h->port, ftsw_nl_error(lab->nl));
		return -1;
	}
	return 0;
}

/* err's message prefixed with "multicast groups of hN: ". */
static void mc_host_err(uint32_t host, struct ftsw_err *err)
{
	char m[sizeof(err->msg)];

	snprintf(m, sizeof(m), "%.400s", err->msg);
	ftsw_err_set(err, "multicast groups of h%" PRIu32 ": %s", host, m);
}

/*
 * Hosts [first, end) of hosts[]: opened, their requests in one batch, the
 * answers given to their edge ports, closed. q, owner and wi have room
 * for 2 * FTSW_MCAST_MAX requests per host.
 */
static int mc_sync_range(struct ftsw_lab *lab, struct mc_host *hosts,
			 uint32_t first, uint32_t end,
			 struct ftsw_sa_mcm_req *q, uint32_t *owner,
			 int32_t *wi, struct ftsw_lab_mcast *r,
			 struct ftsw_err *err)
{
	size_t nq = 0, i, k;
	uint32_t host;
	int rc = -1;

	/* a host with nothing to join or leave needs no SA client */
	for (host = first; host < end; host++) {
		if (mc_host_groups(lab, host, &hosts[host], err)) {
			mc_host_err(host, err);
			goto out;
		}
		k = mc_host_reqs(&hosts[host], q + nq, wi + nq);
		if (k && mc_host_sa(lab, host, &hosts[host], q + nq, k, err)) {
			mc_host_err(host, err);
			goto out;
		}
		for (i = nq; i < nq + k; i++)
			owner[i] = host;
		nq += k;
	}
	if (nq && ftsw_sa_mcm_batch(q, nq, err))
		goto out;
	for (i = 0; i < nq; i++) {
		struct mc_host *h = &hosts[owner[i]];

		if (q[i].status) {
			ftsw_err_set(err, "the SA refused the %s (MAD status 0x%04x)",
				     q[i].method == FTSW_SA_METHOD_SET ?
				     "join" : "leave", q[i].status);
			mc_host_err(owner[i], err);
			goto out;
		}
		if (q[i].method == FTSW_SA_METHOD_DELETE) {
			r->left++;
			continue;
		}
		mc_joined(h, &q[i], &h->want[wi[i]]);
		r->joined++;
	}
	for (host = first; host < end; host++) {
		if (hosts[host].changed && mc_port_set(lab, &hosts[host], err)) {
			mc_host_err(host, err);
			goto out;
		}
		r->groups += hosts[host].n;
		r->hosts++;
	}
	rc = 0;
out:
	for (host = first; host < end; host++)
		if (hosts[host].sa_open) {
			ftsw_sa_close(&hosts[host].sa);
			hosts[host].sa_open = false;
		}
	return rc;
}

int ftsw_lab_mcast_sync(struct ftsw_lab *lab, struct ftsw_lab_mcast *r,
			struct ftsw_err *err)
{
	uint32_t nh = lab->topo->nhosts, first, end;
	size_t max = 2 * (size_t)FTSW_MCAST_MAX * LAB_MCAST_CHUNK;
	struct mc_host *hosts = calloc(nh ? nh : 1, sizeof(*hosts));
	struct ftsw_sa_mcm_req *q = calloc(max, sizeof(*q));
	uint32_t *owner = calloc(max, sizeof(*owner));
	int32_t *wi = calloc(max, sizeof(*wi));
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!hosts || !q || !owner || !wi) {
		ftsw_err_set(err, "multicast: out of memory");
		goto out;
	}
	if (mc_edges(lab, hosts, err))
		goto out;
	for (first = 0; first < nh; first = end) {
		end = nh - first > LAB_MCAST_CHUNK ? first + LAB_MCAST_CHUNK : nh;
		if (mc_sync_range(lab, hosts, first, end, q, owner, wi, r, err))
			goto out;
	}
	rc = 0;
out:
	free(hosts);
	free(q);
	free(owner);
	free(wi);
	return rc;
}

/* Sleep ms, in short steps so that *stop is seen within 100 ms. */
static void mc_nap(unsigned ms, volatile int *stop)
{
	struct timespec step = { 0, 100 * 1000 * 1000 };

	while (ms && !*stop) {
		unsigned t = ms < 100 ? ms : 100;

		step.tv_nsec = (long)t * 1000 * 1000;
		nanosleep(&step, NULL);
		ms -= t;
	}
}

void ftsw_lab_mcast_follow(struct ftsw_lab *lab, unsigned interval_ms,
			   volatile int *stop,
			   void (*pass)(const struct ftsw_lab_mcast *r,
					const struct ftsw_err *e, void *arg),
			   void *arg)
{
	struct ftsw_lab_mcast r;
	struct ftsw_err e;
	char last[sizeof(e.msg)] = "";

	while (!*stop) {
		if (!ftsw_lab_mcast_sync(lab, &r, &e)) {
			last[0] = '\0';
			if (r.joined || r.left)
				pass(&r, NULL, arg);
		} else if (!ftsw_lab_exists(lab->name)) {
			return;		/* the lab went down under us */
		} else if (strcmp(last, e.msg)) {
			/* said once, until it changes or a pass succeeds */
			snprintf(last, sizeof(last), "%s", e.msg);
			pass(NULL, &e, arg);
		}
		mc_nap(interval_ms, stop);
	}
}
