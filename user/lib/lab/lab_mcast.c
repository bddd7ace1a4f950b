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
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "lab/lab_int.h"
#include "lab/mcast.h"
#include "nl/ns.h"
#include "sa/sa.h"

#define LAB_MCAST_QKEY		0x0b1b	/* IPoIB's (RFC 4391) */
#define LAB_MCAST_PKEY		0xffff	/* the default partition, full */
#define LAB_MCAST_FILE_MAX	(64 * 1024)

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

/* In the host's namespace: its eth0's groups, and its SA client. */
static int host_in(void *arg, struct ftsw_err *err)
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
	if (ftsw_sa_open(&h->sa, FTSW_LAB_GW_SOCK, err))
		goto out;
	h->sa_open = true;
	rc = 0;
out:
	free(buf);
	return rc;
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
	uint32_t host;
	struct ftsw_port_info *pi;
	bool found;
};

static int find_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct mc_find *f = arg;

	if (lab_edge_host(f->t, pi) == (int64_t)f->host) {
		*f->pi = *pi;
		f->found = true;
	}
	return 0;
}

/* Host host's edge port, as the kernel has it (its groups included). */
static int lab_host_edge(struct ftsw_lab *lab, uint32_t host,
			 struct ftsw_port_info *pi, struct ftsw_err *err)
{
	struct mc_find f = { .t = lab->topo, .host = host, .pi = pi };

	if (ftsw_nl_port_dump(lab->nl, -1, find_cb, &f)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "lab %s: %s",
			       lab->name, ftsw_nl_error(lab->nl));
		return -1;
	}
	if (!f.found) {
		ftsw_err_set(err, "lab %s: no edge port for h%" PRIu32,
			     lab->name, host);
		return -1;
	}
	return 0;
}

/* One MCMemberRecord request of host h's port for group g. */
static int mc_ask(struct mc_host *h, uint16_t sm_lid, const uint8_t gid[16],
		  const struct lab_mgroup *g, uint8_t method,
		  struct ftsw_sa_mcm *out, struct ftsw_err *err)
{
	struct ftsw_sa_mcm m = { .qkey = LAB_MCAST_QKEY,
				 .pkey = LAB_MCAST_PKEY,
				 .join_state = FTSW_SA_JOIN_FULL };
	uint16_t status = 0;

	lab_mcast_mgid(g, LAB_MCAST_PKEY, m.mgid);
	memcpy(m.port_gid, gid, 16);
	if (ftsw_sa_mcm(&h->sa, sm_lid, method, LAB_MCAST_COMP, &m, out,
			&status, err))
		return -1;
	if (status) {
		ftsw_err_set(err, "the SA refused the %s (MAD status 0x%04x)",
			     method == FTSW_SA_METHOD_SET ? "join" : "leave",
			     status);
		return -1;
	}
	return 0;
}

/*
 * Host host's groups: joined, left, its edge port's table set. What it
 * did is added to r.
 */
static int mc_host_sync(struct ftsw_lab *lab, uint32_t host,
			struct ftsw_lab_mcast *r, struct ftsw_err *err)
{
	struct ftsw_port_info *pi = calloc(1, sizeof(*pi));
	struct ftsw_mcast_ent ents[LAB_MCAST_MAX_GROUPS];
	struct mc_host h = { .sa_open = false };
	uint16_t lid, sm_lid;
	struct ftsw_port_cfg pc;
	struct ftsw_sa_mcm out;
	struct lab_mgroup g;
	uint8_t gid[16], key[16];
	size_t i, j, n = 0;
	int fd, rc = -1;
	bool keep;

	if (!pi) {
		ftsw_err_set(err, "multicast: out of memory");
		return -1;
	}
	if (lab_host_edge(lab, host, pi, err) ||
	    ftsw_lab_gw_start(lab->name, host, err))
		goto out;
	fd = ftsw_lab_host_fd(lab, host, err);
	if (fd < 0 || ftsw_netns_run(fd, "host", host_in, &h, err) ||
	    ftsw_sa_port_lids(&h.sa, &lid, &sm_lid, err) ||
	    ftsw_sa_port_gid(&h.sa, gid, err))
		goto out;
	/* the port's groups the host left: leave them at the SA too */
	for (i = 0; i < pi->mcast_n; i++) {
		key_group(pi->mcast[i].group, &g);
		keep = false;
		for (j = 0; j < h.nwant && !keep; j++)
			keep = lab_mgroup_eq(&g, &h.want[j]);
		if (keep) {
			ents[n++] = pi->mcast[i];
			continue;
		}
		if (mc_ask(&h, sm_lid, gid, &g, FTSW_SA_METHOD_DELETE, &out,
			   err))
			goto out;
		r->left++;
	}
	/* the new ones: joined, with the MLID the SA gives */
	for (j = 0; j < h.nwant; j++) {
		group_key(&h.want[j], key);
		for (i = 0; i < n && memcmp(ents[i].group, key, 16); i++)
			;
		if (i < n)
			continue;
		if (mc_ask(&h, sm_lid, gid, &h.want[j], FTSW_SA_METHOD_SET,
			   &out, err))
			goto out;
		memset(&ents[n], 0, sizeof(ents[n]));
		memcpy(ents[n].group, key, 16);
		ents[n].mlid = htons(out.mlid);
		ents[n].pkey = htons(out.pkey);
		ents[n].sl = out.sl & 0x0f;
		n++;
		r->joined++;
	}
	r->groups += n;
	ftsw_port_cfg_init(&pc);
	pc.switch_id = pi->switch_id;
	pc.port = pi->port;
	pc.mcast = ents;
	pc.mcast_n = (uint32_t)n;
	if (ftsw_nl_port_set(lab->nl, &pc)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "switch %" PRIu32 " port %u: %s", pi->switch_id,
			       pi->port, ftsw_nl_error(lab->nl));
		goto out;
	}
	rc = 0;
out:
	if (h.sa_open)
		ftsw_sa_close(&h.sa);
	free(pi);
	return rc;
}

int ftsw_lab_mcast_sync(struct ftsw_lab *lab, struct ftsw_lab_mcast *r,
			struct ftsw_err *err)
{
	uint32_t host;

	memset(r, 0, sizeof(*r));
	for (host = 0; host < lab->topo->nhosts; host++) {
		if (mc_host_sync(lab, host, r, err)) {
			char m[sizeof(err->msg)];

			snprintf(m, sizeof(m), "%.400s", err->msg);
			ftsw_err_set(err, "multicast groups of h%" PRIu32 ": %s",
				     host, m);
			return -1;
		}
		r->hosts++;
	}
	return 0;
}
