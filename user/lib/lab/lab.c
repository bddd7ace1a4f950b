// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: build, describe, fail and tear down a lab (see lab.h).
 *
 * Interface indexes are chosen, not discovered: the fabric namespace is new,
 * so the device of topology port record k (topo->ports[k]) gets ifindex
 * LAB_IFINDEX_BASE + k, and every host's eth0 gets LAB_HOST_IFINDEX in its
 * own namespace. That makes every later request (binding, failing, tc)
 * possible without a lookup.
 */
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

#include "util/output.h"
#include "util/parse.h"
#include "lab/lab.h"
#include "lab/lab_rtnl.h"

#define LAB_IFINDEX_BASE	0x10000
/*
 * A host's eth0: clear of lo and the fallback tunnel devices a new
 * namespace may get (sit0, ...) at low indexes, and not above 65535: Open
 * MPI keeps kernel interface indexes in 16 bits and loses such an eth0
 * (ftsw lab mpirun).
 */
#define LAB_HOST_IFINDEX	0x8000

static int port_ifindex(const struct ftsw_topo *t, uint32_t node, unsigned p)
{
	return LAB_IFINDEX_BASE + (int)(t->nodes[node].first_port + p - 1);
}

void ftsw_lab_host_ns(const char *lab, uint32_t host, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s-h%" PRIu32, lab, host);
}

void ftsw_lab_port_dev(uint32_t sw, unsigned port, char *buf, size_t sz)
{
	snprintf(buf, sz, "s%" PRIu32 "p%u", sw, port);
}

uint32_t ftsw_lab_host_ip(uint32_t host)
{
	return htonl((198u << 24 | 18u << 16) + host + 1);
}

void ftsw_lab_host_ip6(uint32_t host, uint8_t addr[16])
{
	uint32_t low = host + 1;

	memset(addr, 0, 16);
	addr[0] = 0x20;		/* 2001:2::/48, RFC 5180 benchmarking */
	addr[1] = 0x01;
	addr[3] = 0x02;
	addr[12] = low >> 24;
	addr[13] = low >> 16;
	addr[14] = low >> 8;
	addr[15] = low;
}

static void host_mac(uint32_t lid, uint8_t mac[6])
{
	mac[0] = FTSW_MAC_PREFIX0;
	mac[1] = FTSW_MAC_PREFIX1;
	mac[2] = FTSW_MAC_PREFIX2;
	mac[3] = FTSW_MAC_PREFIX3;
	mac[4] = lid >> 8;
	mac[5] = lid & 0xff;
}

static int check_name(const char *name, struct ftsw_err *err)
{
	size_t i, n = strlen(name);

	if (!n || n > FTSW_LAB_NAME_MAX) {
		ftsw_err_set(err, "lab name '%s': 1..%d characters", name,
			     FTSW_LAB_NAME_MAX);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      (c == '-' && i)))
			goto bad;
	}
	return 0;
bad:
	ftsw_err_set(err, "lab name '%s': letters, digits, '_', '.', '-' only",
		     name);
	return -1;
}

static void rundir(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, FTSW_LAB_RUNDIR "/%s", name);
}

static const char *default_engine(const struct ftsw_topo *t)
{
	if (t->is_pgft && !t->degraded)
		return "dmodk";
	if (t->is_pgft)
		return "dmodc";
	if (ftsw_engine_find("dfsssp"))
		return "dfsssp";
	return "updn";
}

/* ------------------------------------------------------------ up */

struct lab_build {
	const struct ftsw_lab_opts *o;
	const char *name;
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	int fabric_fd;
	int *host_fd;
	struct ftsw_lab_times *tm;
	bool tty;
	bool fb_changed;	/* fallback tunnels turned off: restore */
	long fb_old;
};

/*
 * Every cable's fabric end (both ends of a cable between switches) is in a
 * device group of LAB_GROUP_CABLES cables, numbered from 1: the hosts'
 * cables first (host n's in group host_group(n)), then the fabric's. `lab
 * down` deletes the lab group by group (see there), and `ip -n LAB link
 * show group G` lists one.
 */
#define LAB_GROUP_CABLES 512u

static uint32_t host_group(uint32_t n)
{
	return 1 + n / LAB_GROUP_CABLES;
}

static void progress(const struct lab_build *b, const char *what,
		     uint64_t done, uint64_t total)
{
	if (b->o->progress && (done == total || (done & 63) == 0))
		b->o->progress(what, done, total, b->o->progress_arg);
}

static int write_conf(const struct lab_build *b, struct ftsw_err *err)
{
	char dir[256], path[300];
	FILE *f;

	rundir(b->name, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/topo.net", dir);
	if (ftsw_net_write(b->t, path, err))
		return -1;
	/* Written aside and renamed: readers never see half a file. */
	snprintf(path, sizeof(path), "%s/lab.conf.tmp", dir);
	f = fopen(path, "w");
	if (!f) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "spec=%s\nengine=%s%s\nlmc=%u\nrate=%" PRIu64
		"\nhosts=%" PRIu32 "\nswitches=%" PRIu32 "\ncables=%s\n",
		b->o->topo, b->o->lft_file ? "lft:" : "",
		b->o->lft_file ? b->o->lft_file : b->r->engine, b->r->lmc,
		b->o->rate_bytes, b->t->nhosts, b->t->nswitches,
		b->o->patch ? "patch" : "veth");
	if (fclose(f)) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/lab.conf");
	if (rename(path, dir)) {
		ftsw_err_set(err, "%s: %s", dir, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

/* The switch port a host's one cable reaches (the topology's first cable
 * of that host); -1 with err when it has none or more than one. */
static int host_cable(const struct ftsw_topo *t, uint32_t h, uint32_t *sw_node,
		      unsigned *sw_port, struct ftsw_err *err)
{
	uint32_t node = t->hosts[h];
	unsigned p, n = 0;

	for (p = 1; p <= t->nodes[node].nports; p++) {
		const struct ftsw_port *x = ftsw_port(t, node, p);

		if (x->peer == FTSW_NONE)
			continue;
		if (n++)
			break;
		*sw_node = x->peer;
		*sw_port = x->peer_port;
	}
	if (n == 1 && t->nodes[*sw_node].kind == FTSW_SWITCH)
		return 0;
	ftsw_err_set(err, "host %" PRIu32 ": %s", h, !n ? "no cable" :
		     n > 1 ? "more than one cable (a lab host has one eth0)" :
		     "cabled to another host");
	return -1;
}

/*
 * One host, in one visit of its new namespace: the namespace, then on one
 * socket there, pipelined, lo up, the cable and eth0's addresses. The cable
 * is created as its switch end, directly in the fabric namespace and up,
 * with eth0 here as its peer; eth0 is brought up by the next request (a
 * veth peer cannot be opened in the request that creates the pair). So the
 * hosts' threads do all the work of a host cable, both ends.
 */
struct host_cost {
	uint64_t nmsgs;
	uint64_t netns_us;	/* unshare + bind mount */
	uint64_t cfg_us;	/* sysctls, rtnetlink, back home */
};

static int make_host(const struct lab_build *b, uint32_t n,
		     struct host_cost *hc, struct ftsw_err *err)
{
	const struct ftsw_topo *t = b->t;
	char ns[64], what[48], sp[16];
	uint8_t mac[6], a6[16];
	struct lab_rt rt;
	uint32_t sw_node;
	unsigned sw_port;
	uint64_t t0, t1;
	int rc = -1;
	struct lab_veth v = {
		.name = sp, .netns_fd = b->fabric_fd,
		.mtu = FTSW_LAB_HOST_MTU, .peer = "eth0",
		.peer_ifindex = LAB_HOST_IFINDEX, .peer_mac = mac,
		.peer_mtu = FTSW_LAB_HOST_MTU, .peer_netns_fd = -1,
		.up = true, .peer_ll_none = true,
		.group = host_group(n),
	};

	if (host_cable(t, n, &sw_node, &sw_port, err))
		return -1;
	ftsw_lab_port_dev(t->nodes[sw_node].index, sw_port, sp, sizeof(sp));
	v.ifindex = port_ifindex(t, sw_node, sw_port);
	host_mac(ftsw_host_lid(b->r, n), mac);
	ftsw_lab_host_ns(b->name, n, ns, sizeof(ns));
	t0 = ftsw_now_us();
	if (ftsw_netns_add(ns, err))
		return -1;
	t1 = ftsw_now_us();
	hc->netns_us += t1 - t0;
	/*
	 * IPv6 with the plan's address only: no link-local address (so no
	 * link-local DAD, no router solicitation), set on eth0 over rtnetlink
	 * before it is up (peer_ll_none). No sysctl is written here: a write
	 * to /proc/sys takes the kernel's one global sysctl lock many times
	 * over (the path walk, the handler), the lock every namespace and
	 * every device being made registers its sysctls under: the two
	 * writes per host this did cost 30% of lab up's CPU time, mostly
	 * spinning on that lock (perf, FT(12,3), 2 CPUs of a loaded host).
	 * keep_addr_on_down is set on eth0 when its cable fails (host_eth0).
	 */
	if (lab_rt_open(&rt, err))
		goto home;
	snprintf(what, sizeof(what), "host %" PRIu32 " lo", n);
	if (lab_rt_link_up(&rt, 1, true, what, err) ||
	    lab_rt_veth(&rt, &v, err))
		goto close;
	snprintf(what, sizeof(what), "host %" PRIu32 " address", n);
	if (lab_rt_addr4(&rt, LAB_HOST_IFINDEX, ftsw_lab_host_ip(n), 15, what,
			 err))
		goto close;
	ftsw_lab_host_ip6(n, a6);
	snprintf(what, sizeof(what), "host %" PRIu32 " IPv6 address", n);
	if (lab_rt_addr6(&rt, LAB_HOST_IFINDEX, a6, 64, what, err))
		goto close;
	rc = lab_rt_flush(&rt, err);
close:
	hc->nmsgs += rt.nmsgs;
	lab_rt_close(&rt);
home:
	/* Back home before the next one: fds are opened on demand, so no
	 * limit on open files caps the lab's size. */
	if (ftsw_netns_home(rc ? NULL : err))
		rc = -1;
	hc->cfg_us += ftsw_now_us() - t1;
	return rc;
}

/*
 * The hosts are independent: a few threads make them at once (each thread
 * has its own current namespace), so the kernel's namespace set-up, which
 * runs mostly outside the RTNL lock, overlaps across CPUs. One thread per
 * CPU (FTSW_LAB_THREADS overrides), at most 8.
 */
struct host_pass {
	const struct lab_build *b;
	pthread_mutex_t lock;
	uint32_t next, done;
	struct host_cost cost;
	int error;
	struct ftsw_err err;
};

static void *host_worker(void *arg)
{
	struct host_pass *hp = arg;
	const struct lab_build *b = hp->b;

	for (;;) {
		struct ftsw_err e;
		struct host_cost hc = { 0 };
		uint32_t n;
		int rc;

		pthread_mutex_lock(&hp->lock);
		n = hp->error ? b->t->nhosts : hp->next++;
		pthread_mutex_unlock(&hp->lock);
		if (n >= b->t->nhosts)
			return NULL;
		rc = make_host(b, n, &hc, &e);
		pthread_mutex_lock(&hp->lock);
		hp->cost.nmsgs += hc.nmsgs;
		hp->cost.netns_us += hc.netns_us;
		hp->cost.cfg_us += hc.cfg_us;
		if (rc && !hp->error) {
			hp->error = -1;
			hp->err = e;
		}
		hp->done++;
		if (!rc)
			progress(b, "hosts", hp->done, b->t->nhosts);
		pthread_mutex_unlock(&hp->lock);
	}
}

static unsigned lab_threads(uint32_t nhosts)
{
	const char *e = getenv("FTSW_LAB_THREADS");
	long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	if (n > 8)
		n = 8;
	if ((uint32_t)n > nhosts)
		n = (long)nhosts;
	return (unsigned)n;
}

/* The fabric's cables between switches (the host cables are made, up, with
 * their hosts). */
static int make_links(struct lab_build *b, struct lab_rt *rt,
		      struct ftsw_err *err)
{
	const struct ftsw_topo *t = b->t;
	uint64_t t0 = ftsw_now_us(), done = 0;
	uint32_t i;

	if (lab_rt_link_up(rt, 1, true, "lo", err))
		return -1;
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, node, p);
			char a[16], c[16];
			struct lab_veth v = {
				.name = a, .ifindex = port_ifindex(t, node, p),
				.peer = c, .peer_netns_fd = -1, .up = true,
				.mtu = FTSW_LAB_LINK_MTU,
				.peer_mtu = FTSW_LAB_LINK_MTU,
			};

			if (x->peer == FTSW_NONE)
				continue;
			ftsw_lab_port_dev(i, p, a, sizeof(a));
			if (t->nodes[x->peer].kind != FTSW_SWITCH ||
			    x->peer < node ||
			    (x->peer == node && x->peer_port < p))
				continue;	/* a host's, or the other end */
			if (b->o->patch)
				continue;	/* joined in the module */
			ftsw_lab_port_dev(t->nodes[x->peer].index,
					  x->peer_port, c, sizeof(c));
			v.peer_ifindex = port_ifindex(t, x->peer, x->peer_port);
			v.group = v.peer_group = host_group(t->nhosts - 1) + 1 +
						 (uint32_t)(done / LAB_GROUP_CABLES);
			if (lab_rt_veth(rt, &v, err))
				return -1;
			done++;
			progress(b, "fabric cables", done,
				 ftsw_topo_nlinks(t) - t->nhosts);
		}
	}
	if (lab_rt_flush(rt, err))
		return -1;
	b->tm->nlinks = done + t->nhosts;
	b->tm->links = ftsw_now_us() - t0;
	return 0;
}

/* The fabric's namespace and the hosts, each host by one of a few threads. */
static int make_namespaces(struct lab_build *b, struct ftsw_err *err)
{
	struct host_pass hp = { .b = b };
	pthread_t th[8];
	unsigned nt, k, started = 0;
	uint64_t t0 = ftsw_now_us();

	if (ftsw_netns_add(b->name, err))
		return -1;
	if (lab_sysctl("net/ipv6/conf/all/disable_ipv6", "1", err) ||
	    lab_sysctl("net/ipv6/conf/default/disable_ipv6", "1", err))
		return -1;
	b->fabric_fd = ftsw_netns_open(b->name, err);
	if (b->fabric_fd < 0 || ftsw_netns_home(err))
		return -1;
	nt = lab_threads(b->t->nhosts);
	pthread_mutex_init(&hp.lock, NULL);
	/* This thread is one of the workers. */
	for (k = 0; k + 1 < nt; k++)
		if (pthread_create(&th[k], NULL, host_worker, &hp) == 0)
			started++;
	host_worker(&hp);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&hp.lock);
	b->tm->hosts = ftsw_now_us() - t0;	/* namespaces included */
	b->tm->nmsgs += hp.cost.nmsgs;
	b->tm->netns = hp.cost.netns_us;
	b->tm->hostcfg = hp.cost.cfg_us;
	b->tm->threads = nt;
	if (hp.error) {
		*err = hp.err;
		return -1;
	}
	b->tm->nnetns = b->t->nhosts + 1;
	return 0;
}

static void policy_cfg(const struct ftsw_routing *r, uint32_t h,
		       struct ftsw_port_cfg *c)
{
	const struct ftsw_path_policy *pp = &r->policy[h];
	unsigned k, n = 1u << r->lmc;

	if (!r->lmc)
		return;
	if (pp->fixed_offset != FTSW_OFFSET_ANY) {
		c->n_offsets = 1;
		c->offsets[0] = pp->fixed_offset;
		return;
	}
	c->n_offsets = 0;
	for (k = 0; k < n; k++)
		if (pp->allowed[k / 64] & (1ULL << (k % 64)))
			c->offsets[c->n_offsets++] = k;
	if (c->n_offsets == (int)n)
		c->n_offsets = 0;	/* all: the default */
}

static int nlerr(struct ftsw_nl *nl, struct ftsw_err *err, const char *fmt,
		 uint32_t a, unsigned b)
{
	char what[96];

	snprintf(what, sizeof(what), fmt, a, b);
	ftsw_err_set(err, "%s: %s", what, ftsw_nl_error(nl));
	return -1;
}

/* Upload every switch's LFT (staged) and, if asked, commit. */
static int upload_lfts(struct ftsw_nl *nl, const struct ftsw_routing *r,
		       struct ftsw_err *err)
{
	uint32_t i;

	for (i = 0; i < r->nswitches; i++) {
		size_t off, len = r->lft_size > FTSW_LFT_SIZE ? FTSW_LFT_SIZE :
				   r->lft_size;

		for (off = 0; off < len; off += 0x4000) {
			size_t n = len - off > 0x4000 ? 0x4000 : len - off;

			if (ftsw_nl_lft_set(nl, i, off, ftsw_lft(r, i) + off, n))
				return nlerr(nl, err, "switch %" PRIu32
					     " LFT block at LID %u", i,
					     (unsigned)off);
		}
	}
	return 0;
}

/*
 * The address plan (ARCHITECTURE.md): host n owns base LID (n + 1) << LMC,
 * 198.18.0.0 + n + 1 and 2001:2::n+1; edge ports answer ARP and neighbour
 * solicitations from it. Staged: the commit that publishes the LFTs
 * publishes it.
 */
static int upload_plan(struct ftsw_nl *nl, uint32_t nhosts, unsigned lmc,
		       struct ftsw_err *err)
{
	struct ftsw_plan_info p = {
		.hosts = nhosts, .lid = 1u << lmc, .lmc = lmc,
		.ip4 = ftsw_lab_host_ip(0),
	};

	ftsw_lab_host_ip6(0, p.ip6);
	if (ftsw_nl_plan_set(nl, &p)) {
		ftsw_err_set(err, "address plan of %" PRIu32 " hosts: %s",
			     nhosts, ftsw_nl_error(nl));
		return -1;
	}
	return 0;
}

/*
 * Hosts resolve on demand, so each holds neighbour entries only for the
 * peers it talks to; but the kernel's neighbour tables are shared by every
 * namespace and refuse new entries past gc_thresh3 (1024 by default): one
 * host talking to all others, and their answers, need 2 (N - 1). Raised,
 * never lowered, best effort (a rootless lab cannot, and needs less).
 *
 * gc_thresh2 is left alone on purpose. Above it (512 by default) the
 * kernel collects, every 5 s at most, the entries nobody references that
 * were not confirmed in the last 5 s, and multicast ones at once. Here
 * that costs nothing: a host's next packet to a collected peer is resolved
 * again by its own edge port, one frame each way, nothing crosses the
 * fabric. And it keeps the tables small, which matters more than it
 * seems: in 6.1 a table's hash only grows, and every device that goes
 * down or away scans it whole, up to 7 times (Documentation/lab.md).
 */
static void neigh_room(uint32_t nhosts)
{
	static const char *const fam[] = { "ipv4", "ipv6" };
	unsigned long need3 = 4ul * nhosts + 1024;
	char path[64];
	unsigned i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "net/%s/neigh/default/gc_thresh3",
			 fam[i]);
		lab_sysctl_raise(path, need3);
	}
}

static int make_switches(struct lab_build *b, struct ftsw_nl *nl,
			 struct ftsw_err *err)
{
	const struct ftsw_topo *t = b->t;
	const struct ftsw_routing *r = b->r;
	uint64_t t0 = ftsw_now_us();
	uint8_t *slt = NULL;
	uint32_t i;

	if (r->sl)
		slt = calloc(r->max_lid + 1, 1);
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		struct ftsw_switch_info si = { .id = i };
		unsigned p;

		si.guid = t->nodes[node].guid;
		snprintf(si.name, sizeof(si.name), "%s",
			 t->nodes[node].desc ? t->nodes[node].desc : "");
		si.nports = t->nodes[node].nports;
		if (ftsw_switch_lid(r, i) <= FTSW_MAX_LID)
			si.lid = ftsw_switch_lid(r, i);
		if (ftsw_nl_switch_new(nl, &si)) {
			free(slt);
			return nlerr(nl, err, "switch %" PRIu32 "%.0u", i, 0);
		}
		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, node, p);
			struct ftsw_port_cfg c;

			if (x->peer == FTSW_NONE ||
			    (b->o->patch &&
			     t->nodes[x->peer].kind == FTSW_SWITCH))
				continue;
			ftsw_port_cfg_init(&c);
			c.switch_id = i;
			c.port = p;
			c.ifindex = port_ifindex(t, node, p);
			c.kind = FTSW_PORT_LINK;
			if (t->nodes[x->peer].kind == FTSW_HOST) {
				uint32_t h = t->nodes[x->peer].index, d;
				unsigned k;

				c.kind = FTSW_PORT_EDGE;
				c.base_lid = ftsw_host_lid(r, h);
				c.lmc = r->lmc;
				policy_cfg(r, h, &c);
				if (slt) {
					bool any = false;

					for (d = 0; d < r->nhosts; d++)
						for (k = 0; k < (1u << r->lmc); k++) {
							uint8_t s = r->sl[(size_t)h * r->nhosts + d];

							slt[ftsw_host_lid(r, d) + k] = s;
							any |= s != 0;
						}
					if (any) {
						c.sl_table = slt;
						c.sl_table_len = r->max_lid + 1;
					}
				}
			}
			if (ftsw_nl_port_bind(nl, &c)) {
				free(slt);
				return nlerr(nl, err, "switch %" PRIu32 " port %u",
					     i, p);
			}
		}
		progress(b, "switches", i + 1, t->nswitches);
	}
	free(slt);
	/* Patch cables, once every switch exists: from the lower end. */
	for (i = 0; b->o->patch && i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, node, p);
			struct ftsw_port_cfg c;

			if (x->peer == FTSW_NONE ||
			    t->nodes[x->peer].kind != FTSW_SWITCH ||
			    x->peer < node ||
			    (x->peer == node && x->peer_port < p))
				continue;
			ftsw_port_cfg_init(&c);
			c.switch_id = i;
			c.port = p;
			c.kind = FTSW_PORT_LINK;
			c.peer_switch = t->nodes[x->peer].index;
			c.peer_port = x->peer_port;
			if (ftsw_nl_port_bind(nl, &c))
				return nlerr(nl, err, "switch %" PRIu32 " port %u",
					     i, p);
		}
	}
	b->tm->switches = ftsw_now_us() - t0;
	t0 = ftsw_now_us();
	if (upload_lfts(nl, r, err))
		return -1;
	if (!b->o->no_neigh && upload_plan(nl, t->nhosts, r->lmc, err))
		return -1;
	if (ftsw_nl_commit(nl, NULL)) {
		ftsw_err_set(err, "commit: %s", ftsw_nl_error(nl));
		return -1;
	}
	b->tm->upload = ftsw_now_us() - t0;
	return 0;
}

static int shape_links(struct lab_build *b, struct lab_rt *rt,
		       struct ftsw_err *err)
{
	const struct ftsw_topo *t = b->t;
	uint64_t t0 = ftsw_now_us();
	uint32_t i;

	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, node, p);
			char what[48];

			if (x->peer == FTSW_NONE ||
			    t->nodes[x->peer].kind != FTSW_SWITCH)
				continue;
			snprintf(what, sizeof(what), "switch %" PRIu32
				 " port %u qdisc", i, p);
			if (lab_rt_tbf(rt, port_ifindex(t, node, p),
				       b->o->rate_bytes, what, err))
				return -1;
		}
	}
	if (lab_rt_flush(rt, err))
		return -1;
	b->tm->shape = ftsw_now_us() - t0;
	return 0;
}

/*
 * The topology and its routing, first (fail fast): the engine given, else
 * the default for the topology, at the smallest LMC it accepts unless the
 * LMC was given; or an OpenSM LFT dump.
 */
static int lab_route(struct lab_build *b, struct ftsw_err *err)
{
	const struct ftsw_lab_opts *o = b->o;
	struct ftsw_route_opts ro = { .lmc = o->lmc, .seed = o->seed,
				       .paths = o->paths };
	uint64_t t1;

	b->t = ftsw_topo_open(o->topo, err);
	if (!b->t)
		return -1;
	if (!b->t->nhosts) {
		ftsw_err_set(err, "topology %s: no hosts", o->topo);
		return -1;
	}
	t1 = ftsw_now_us();
	if (o->lft_file) {
		b->r = ftsw_lfts_read(b->t, o->lft_file, o->lmc, err);
	} else {
		const char *eng = o->engine ? o->engine : default_engine(b->t);

		if (o->lmc_auto)
			b->r = ftsw_route_min_lmc(eng, b->t, &ro, false, err);
		else
			b->r = ftsw_route(eng, b->t, &ro, err);
		if (b->r && b->r->lmc != o->lmc && o->progress) {
			char note[96];

			snprintf(note, sizeof(note), "%s needs LMC %u", eng,
				 b->r->lmc);
			o->progress(note, 0, 0, o->progress_arg);
		}
	}
	if (!b->r)
		return -1;
	b->tm->route = ftsw_now_us() - t1;
	b->tm->lmc = b->r->lmc;
	snprintf(b->tm->engine, sizeof(b->tm->engine), "%s", b->r->engine);
	return 0;
}

/*
 * The kernel adds its fallback tunnel devices (sit0, tunl0, ip6tnl0, gre0...
 * those of the tunnel drivers built in or loaded) to every new namespace:
 * one more device per host to register and, at the clean-up, to unregister
 * (every device that goes scans the shared neighbour tables). No lab
 * namespace uses them, so they are turned off (only the initial namespace
 * has them) while the lab's namespaces are made, and the setting restored
 * afterwards. Best effort: a rootless lab cannot, and gets them.
 */
#define FB_TUNNELS "net/core/fb_tunnels_only_for_init_net"

static void fb_tunnels_off(struct lab_build *b)
{
	b->fb_changed = lab_sysctl_swap(FB_TUNNELS, 1, &b->fb_old) == 1;
}

static void fb_tunnels_restore(struct lab_build *b)
{
	long dummy;

	if (b->fb_changed)
		lab_sysctl_swap(FB_TUNNELS, b->fb_old, &dummy);
	b->fb_changed = false;
}

/* Namespaces, cables, hosts, switches and shaping of a routed lab. */
static int lab_build(struct lab_build *b, struct lab_rt *rt,
		     struct ftsw_nl **nl, struct ftsw_err *err)
{
	neigh_room(b->t->nhosts);
	fb_tunnels_off(b);
	if (write_conf(b, err))
		return -1;
	if (make_namespaces(b, err))
		return -1;
	fb_tunnels_restore(b);	/* at home: the setting is the first namespace's */
	if (ftsw_netns_enter_fd(b->fabric_fd, b->name, err) ||
	    lab_rt_open(rt, err))
		return -1;
	if (make_links(b, rt, err))
		return -1;
	b->tm->nmsgs += rt->nmsgs;
	if (ftsw_netns_home(err))
		return -1;
	*nl = ftsw_nl_open_in(b->name, err);
	if (!*nl || make_switches(b, *nl, err))
		return -1;
	if (b->o->rate_bytes &&
	    (ftsw_netns_enter_fd(b->fabric_fd, b->name, err) ||
	     shape_links(b, rt, err)))
		return -1;
	return 0;
}

/* The run directory marks the lab as ours from here on. */
static int make_rundir(const struct lab_build *b, struct ftsw_err *err)
{
	char dir[256];

	if (mkdir(FTSW_LAB_RUNDIR, 0755) < 0 && errno != EEXIST) {
		ftsw_err_set(err, "%s: %s", FTSW_LAB_RUNDIR, strerror(errno));
		return -1;
	}
	rundir(b->name, dir, sizeof(dir));
	if (mkdir(dir, 0755) < 0) {
		ftsw_err_set(err, "lab %s: %s", b->name, errno == EEXIST ?
			     "exists already (ftsw lab down first)" :
			     strerror(errno));
		return -1;
	}
	return 0;
}

int ftsw_lab_up(const struct ftsw_lab_opts *o, struct ftsw_lab_times *tm,
		struct ftsw_err *err)
{
	struct ftsw_lab_times tm0;
	struct lab_build b = { .o = o, .fabric_fd = -1 };
	struct ftsw_nl *nl = NULL;
	struct lab_rt rt = { 0 };
	uint64_t t0 = ftsw_now_us();
	uint32_t n;
	int rc = -1;
	bool made = false;

	memset(tm ? tm : &tm0, 0, sizeof(tm0));
	b.tm = tm ? tm : &tm0;
	b.name = o->name ? o->name : FTSW_LAB_DEFAULT;
	if (check_name(b.name, err))
		return -1;
	if (!o->topo) {
		ftsw_err_set(err, "lab %s: no topology (-t)", b.name);
		return -1;
	}
	if (o->patch && o->rate_bytes) {
		ftsw_err_set(err, "lab %s: a patch cable has no device to "
			     "shape: --rate needs veth cables", b.name);
		return -1;
	}
	if (lab_route(&b, err))
		goto out;
	b.host_fd = malloc(sizeof(int) * b.t->nhosts);
	if (!b.host_fd) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	for (n = 0; n < b.t->nhosts; n++)
		b.host_fd[n] = -1;
	if (make_rundir(&b, err))
		goto out;
	made = true;
	if (lab_build(&b, &rt, &nl, err))
		goto out;
	rc = 0;
out:
	ftsw_netns_home(NULL);
	fb_tunnels_restore(&b);
	lab_rt_close(&rt);
	ftsw_nl_close(nl);
	if (b.host_fd)
		for (n = 0; n < b.t->nhosts; n++)
			if (b.host_fd[n] >= 0)
				close(b.host_fd[n]);
	if (b.fabric_fd >= 0)
		close(b.fabric_fd);
	free(b.host_fd);
	if (rc && made) {
		struct ftsw_err e2;

		if (o->progress)
			o->progress("failed, rolling back", 0, 0,
				    o->progress_arg);
		ftsw_lab_down(b.name, &e2);
	}
	ftsw_routing_free(b.r);
	ftsw_topo_free(b.t);
	b.tm->total = ftsw_now_us() - t0;
	return rc;
}

/* ------------------------------------------------------------ down */

/*
 * Tearing a lab down is unmounting its namespaces; the kernel frees each
 * one once nothing holds it, asynchronously (cleanup_net), in batches: every
 * namespace released since the last batch began goes in the next one, whose
 * devices are unregistered together and which waits for RCU (a grace period,
 * a barrier) once for the whole batch. Released one at a time, as each
 * unmount returns, the namespaces of a big lab trickle into many small
 * batches, each paying those waits and scanning the namespace-id tables of
 * the namespaces still alive. So the lab holds every namespace open while
 * it unmounts them, and then lets them all go at once (closing the
 * descriptors, the fabric's first): the kernel gets them in one or two
 * batches. Past the limit on open files, in chunks of what it could open.
 *
 * An unmount waits for an RCU grace period (namespace_unlock); concurrent
 * unmounts share them, so a few threads unmount at once: one per 32
 * namespaces, 2 to 32 (thread start-up costs more than it saves on a small
 * lab: 2 measured best at 16 hosts in the 1-CPU test VM).
 */
struct del_job {
	char **names;
	int *fds;		/* held while unmounting, -1: not held */
	size_t n, cap;
	size_t first, end;	/* the chunk being unmounted */
	size_t next;
	pthread_mutex_t lock;
	int error;
	struct ftsw_err err;
};

static int del_job_add(struct del_job *j, const char *name)
{
	if (j->n == j->cap) {
		size_t cap = j->cap * 2 + 64;
		char **p = realloc(j->names, sizeof(char *) * cap);
		int *f;

		if (!p)
			return -1;
		j->names = p;
		f = realloc(j->fds, sizeof(int) * cap);
		if (!f)
			return -1;
		j->fds = f;
		j->cap = cap;
	}
	j->fds[j->n] = -1;
	j->names[j->n] = strdup(name);
	return j->names[j->n++] ? 0 : -1;
}

static void del_job_free(struct del_job *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		free(j->names[i]);
		if (j->fds[i] >= 0)
			close(j->fds[i]);
	}
	free(j->names);
	free(j->fds);
}

static void *del_worker(void *arg)
{
	struct del_job *j = arg;
	struct ftsw_err e;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&j->lock);
		i = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->end)
			return NULL;
		if (ftsw_netns_del(j->names[i], &e)) {
			pthread_mutex_lock(&j->lock);
			if (!j->error) {
				j->error = -1;
				j->err = e;
			}
			pthread_mutex_unlock(&j->lock);
		}
	}
}

/* Unmount names [first, end) with a few threads. */
static void del_chunk(struct del_job *j)
{
	pthread_t th[31];
	size_t n = j->end - j->first;
	unsigned nt, k, started = 0;

	/* Besides this thread. */
	nt = n / 32 > 32 ? 31 : n / 32 > 2 ? (unsigned)(n / 32) - 1 : 1;
	if (nt >= n)
		nt = n ? (unsigned)n - 1 : 0;
	j->next = j->first;
	for (k = 0; k < nt; k++)
		if (pthread_create(&th[k], NULL, del_worker, j) == 0)
			started++;
		else
			break;
	del_worker(j);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
}

static int del_job_run(struct del_job *j, struct ftsw_err *err)
{
	struct rlimit rl, rl0;
	bool raised = false;
	size_t i;

	/*
	 * Room to hold a big lab's namespaces: raised for the while, as far
	 * as allowed (root may raise the hard limit, up to fs.nr_open).
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl0) == 0 && rl0.rlim_cur < j->n + 64) {
		rl.rlim_cur = j->n + 64;
		rl.rlim_max = rl0.rlim_max > rl.rlim_cur ? rl0.rlim_max :
			      rl.rlim_cur;
		raised = setrlimit(RLIMIT_NOFILE, &rl) == 0;
		if (!raised && rl0.rlim_cur < rl0.rlim_max) {
			rl = rl0;
			rl.rlim_cur = rl.rlim_max;
			raised = setrlimit(RLIMIT_NOFILE, &rl) == 0;
		}
	}
	pthread_mutex_init(&j->lock, NULL);
	for (j->first = 0; j->first < j->n && !j->error; j->first = j->end) {
		/* Hold what can be held (at least one more each chunk). */
		for (j->end = j->first; j->end < j->n; j->end++) {
			char path[300];

			snprintf(path, sizeof(path), FTSW_NETNS_DIR "/%s",
				 j->names[j->end]);
			j->fds[j->end] = open(path, O_RDONLY | O_CLOEXEC);
			if (j->fds[j->end] < 0 &&
			    (errno == EMFILE || errno == ENFILE)) {
				if (j->end == j->first)
					j->end++;
				break;
			}
		}
		del_chunk(j);
		/* Let the chunk go, all at once. */
		for (i = j->first; i < j->end; i++) {
			if (j->fds[i] >= 0)
				close(j->fds[i]);
			j->fds[i] = -1;
		}
	}
	pthread_mutex_destroy(&j->lock);
	if (raised)
		setrlimit(RLIMIT_NOFILE, &rl0);
	if (j->error)
		*err = j->err;
	return j->error;
}

/*
 * The cables go first, one device group (LAB_GROUP_CABLES cables, both
 * ends) per request, while every namespace still stands. Every device that
 * goes down or away makes the kernel scan its neighbour tables whole, and
 * in 6.1 those tables are shared by every namespace and never shrink: left
 * to the namespace clean-up, all of a lab's devices go in one batch, under
 * one hold of RTNL with no reschedule, and a 4096-host lab whose h0 had
 * talked to every host kept the clean-up worker in it for minutes and
 * stalled RCU. One request per group bounds each section (about a thousand
 * devices), with userspace in between. What is left to the clean-up is
 * each namespace's lo. Best effort: a lab made without groups (an older
 * ftsw), or one this process may not enter, is left whole to the kernel's
 * clean-up as before.
 */
static void del_cables(const char *name, ftsw_lab_progress_fn progress,
		       void *arg)
{
	struct lab_rt rt;
	struct ftsw_err e;
	uint32_t g, max;

	if (ftsw_netns_enter(name, &e))
		return;
	if (!lab_rt_open(&rt, &e)) {
		if (!lab_rt_max_group(&rt, &max, &e))
			for (g = 1; g <= max; g++) {
				if (lab_rt_del_group(&rt, g, &e) < 0)
					break;
				if (progress)
					progress("cable groups deleted", g,
						 max, arg);
			}
		lab_rt_close(&rt);
	}
	ftsw_netns_home(NULL);
}

int ftsw_lab_down(const char *name, struct ftsw_err *err)
{
	return ftsw_lab_down_progress(name, NULL, NULL, err);
}

int ftsw_lab_down_progress(const char *name, ftsw_lab_progress_fn progress,
			   void *arg, struct ftsw_err *err)
{
	char dir[256], path[600], pre[64];
	struct del_job job = { 0 };
	DIR *d;
	struct dirent *de;
	size_t pl;
	bool found = false;

	if (check_name(name, err))
		return -1;
	/*
	 * No fabric reset: the kernel tears the fabric down with its namespace
	 * (pernet exit), asynchronously, as it frees the devices. The work
	 * here is deleting the cables in bounded groups (del_cables) and
	 * unmounting the namespaces.
	 *
	 * The fabric first: if the lab is let go in more than one chunk, its
	 * devices (the switch end of every cable, and with them the host ends)
	 * go in the first batch, and the kernel then drops each host's
	 * namespace id from one small table instead of scanning the fabric's
	 * (unhash_nsid), which made the clean-up quadratic in the hosts.
	 */
	snprintf(path, sizeof(path), FTSW_NETNS_DIR "/%s", name);
	if (access(path, F_OK) == 0) {
		found = true;
		del_cables(name, progress, arg);
		if (del_job_add(&job, name))
			goto nomem;
	}
	snprintf(pre, sizeof(pre), "%s-h", name);
	pl = strlen(pre);
	d = opendir(FTSW_NETNS_DIR);
	if (d) {
		while ((de = readdir(d))) {
			const char *s = de->d_name + pl;

			if (strncmp(de->d_name, pre, pl) || !*s ||
			    strspn(s, "0123456789") != strlen(s))
				continue;
			found = true;
			if (del_job_add(&job, de->d_name)) {
				closedir(d);
				goto nomem;
			}
		}
		closedir(d);
	}
	if (del_job_run(&job, err)) {
		del_job_free(&job);
		return -1;
	}
	del_job_free(&job);
	rundir(name, dir, sizeof(dir));
	d = opendir(dir);
	if (d) {
		found = true;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
		closedir(d);
		if (rmdir(dir) < 0) {
			ftsw_err_set(err, "%s: %s", dir, strerror(errno));
			return -1;
		}
	}
	if (!found) {
		ftsw_err_set(err, "lab %s: no such lab", name);
		return -1;
	}
	return 0;
nomem:
	del_job_free(&job);
	ftsw_err_set(err, "out of memory");
	return -1;
}

/* ------------------------------------------------------------ open */

/* A text value of lab.conf into buf: not empty, and it must fit. */
static int conf_str(const char *what, const char *v, char *buf, size_t sz,
		    struct ftsw_err *err)
{
	size_t n = strlen(v);

	if (!n || n >= sz) {
		ftsw_err_set(err, "%s: %s", what, n ? "too long" : "empty");
		return -1;
	}
	memcpy(buf, v, n + 1);
	return 0;
}

/*
 * lab.conf, as write_conf() writes it: one KEY=VALUE a line. Anything else
 * (a line without '=', an unknown key, a bad value, a missing key) is
 * refused with its file:line, so that a damaged lab.conf is never read as
 * a different lab.
 */
static int conf_read(FILE *f, const char *path, struct ftsw_lab *lab,
		     uint64_t counts[2], struct ftsw_err *err)
{
	enum { C_SPEC, C_ENGINE, C_LMC, C_RATE, C_HOSTS, C_SWITCHES, C_CABLES,
	       C_N };
	static const char *const keys[C_N] = { "spec", "engine", "lmc", "rate",
						"hosts", "switches", "cables" };
	bool seen[C_N] = { false };
	char line[512], what[700];
	unsigned ln = 0, k, u;
	uint64_t x;
	int rc;

	while ((rc = ftsw_read_line(f, line, sizeof(line), path, &ln,
				    err)) > 0) {
		char *v = strchr(line, '=');

		if (!v) {
			ftsw_err_set(err, "%s:%u: not KEY=VALUE", path, ln);
			return -1;
		}
		*v++ = 0;
		for (k = 0; k < C_N && strcmp(line, keys[k]); k++)
			;
		if (k == C_N || seen[k]) {
			ftsw_err_set(err, "%s:%u: %s key '%s'", path, ln,
				     k == C_N ? "unknown" : "repeated", line);
			return -1;
		}
		seen[k] = true;
		snprintf(what, sizeof(what), "%s:%u: %s", path, ln, keys[k]);
		switch (k) {
		case C_SPEC:
			if (conf_str(what, v, lab->spec, sizeof(lab->spec), err))
				return -1;
			break;
		case C_ENGINE:
			if (conf_str(what, v, lab->engine, sizeof(lab->engine),
				     err))
				return -1;
			break;
		case C_LMC:
			if (ftsw_parse_uint(what, v, 0, FTSW_MAX_LMC, &u, err))
				return -1;
			lab->lmc = u;
			break;
		case C_RATE:
			if (ftsw_parse_u64(what, v, 0, FTSW_LAB_RATE_MAX, &x,
					   err))
				return -1;
			if (x && x < FTSW_LAB_RATE_MIN) {
				ftsw_err_set(err, "%s: %" PRIu64 " is neither 0 "
					     "nor in %llu..%llu bytes/s", what,
					     x, FTSW_LAB_RATE_MIN,
					     FTSW_LAB_RATE_MAX);
				return -1;
			}
			lab->rate_bytes = x;
			break;
		case C_HOSTS:
		case C_SWITCHES:
			/* Checked against topo.net by the caller. */
			if (ftsw_parse_u64(what, v, 0, UINT32_MAX,
					   &counts[k - C_HOSTS], err))
				return -1;
			break;
		case C_CABLES:
			if (strcmp(v, "patch") && strcmp(v, "veth")) {
				ftsw_err_set(err, "%s: '%s' is neither patch nor "
					     "veth", what, v);
				return -1;
			}
			lab->patch = !strcmp(v, "patch");
			break;
		}
	}
	if (rc < 0)
		return -1;
	for (k = 0; k < C_N; k++) {
		/* Labs made before cables= was written are veth labs. */
		if (!seen[k] && k != C_CABLES) {
			ftsw_err_set(err, "%s: no '%s=' line", path, keys[k]);
			return -1;
		}
	}
	if (lab->patch && lab->rate_bytes) {
		ftsw_err_set(err, "%s: rate= with cables=patch (a patch cable "
			     "is never shaped)", path);
		return -1;
	}
	return 0;
}

int ftsw_lab_open(const char *name, struct ftsw_lab *lab, struct ftsw_err *err)
{
	char dir[256], path[600];
	FILE *f;
	uint64_t counts[2] = { 0, 0 };
	uint32_t n;
	int rc;

	memset(lab, 0, sizeof(*lab));
	lab->fabric_fd = -1;
	name = name ? name : FTSW_LAB_DEFAULT;
	if (check_name(name, err))
		return -1;
	snprintf(lab->name, sizeof(lab->name), "%s", name);
	rundir(name, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/lab.conf", dir);
	f = fopen(path, "r");
	if (!f) {
		ftsw_err_set(err, "lab %s: %s", name, errno == ENOENT ?
			     "no such lab (ftsw lab list)" : strerror(errno));
		return -1;
	}
	rc = conf_read(f, path, lab, counts, err);
	fclose(f);
	if (rc)
		return -1;
	snprintf(path, sizeof(path), "%s/topo.net", dir);
	lab->topo = ftsw_net_read(path, err);
	if (!lab->topo)
		return -1;
	if (counts[0] != lab->topo->nhosts ||
	    counts[1] != lab->topo->nswitches) {
		ftsw_err_set(err, "%s/lab.conf: %" PRIu64 " hosts and %" PRIu64
			     " switches, but %s has %" PRIu32 " and %" PRIu32,
			     dir, counts[0], counts[1], path,
			     lab->topo->nhosts, lab->topo->nswitches);
		ftsw_lab_close(lab);
		return -1;
	}
	lab->host_fd = malloc(sizeof(int) * (lab->topo->nhosts + 1));
	if (!lab->host_fd) {
		ftsw_lab_close(lab);
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (n = 0; n < lab->topo->nhosts; n++)
		lab->host_fd[n] = -1;
	lab->fabric_fd = ftsw_netns_open(name, err);
	if (lab->fabric_fd < 0) {
		ftsw_lab_close(lab);
		return -1;
	}
	lab->nl = ftsw_nl_open_in(name, err);
	if (!lab->nl) {
		ftsw_lab_close(lab);
		return -1;
	}
	return 0;
}

void ftsw_lab_close(struct ftsw_lab *lab)
{
	uint32_t n;

	if (lab->host_fd && lab->topo)
		for (n = 0; n < lab->topo->nhosts; n++)
			if (lab->host_fd[n] >= 0)
				close(lab->host_fd[n]);
	free(lab->host_fd);
	lab->host_fd = NULL;
	if (lab->fabric_fd >= 0)
		close(lab->fabric_fd);
	lab->fabric_fd = -1;
	ftsw_nl_close(lab->nl);
	lab->nl = NULL;
	ftsw_topo_free(lab->topo);
	lab->topo = NULL;
}

int ftsw_lab_list(int (*cb)(const char *name, void *arg), void *arg)
{
	DIR *d = opendir(FTSW_LAB_RUNDIR);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return 0;
	while (!rc && (de = readdir(d)))
		if (de->d_name[0] != '.')
			rc = cb(de->d_name, arg);
	closedir(d);
	return rc;
}

int ftsw_lab_host_fd(struct ftsw_lab *lab, uint32_t host, struct ftsw_err *err)
{
	char ns[64];

	if (host >= lab->topo->nhosts) {
		ftsw_err_set(err, "host %" PRIu32 ": lab %s has %" PRIu32
			     " hosts", host, lab->name, lab->topo->nhosts);
		return -1;
	}
	if (lab->host_fd[host] < 0) {
		ftsw_lab_host_ns(lab->name, host, ns, sizeof(ns));
		lab->host_fd[host] = ftsw_netns_open(ns, err);
	}
	return lab->host_fd[host];
}

int ftsw_lab_enter_host(struct ftsw_lab *lab, uint32_t host,
			struct ftsw_err *err)
{
	int fd = ftsw_lab_host_fd(lab, host, err);

	if (fd < 0)
		return -1;
	return ftsw_netns_enter_fd(fd, "host", err);
}

static bool parse_index(const char *s, char prefix, uint32_t *v)
{
	char *e;
	unsigned long x;

	if (prefix) {
		if (s[0] != prefix && s[0] != prefix - 32)
			return false;
		s++;
	}
	if (*s < '0' || *s > '9')
		return false;
	x = strtoul(s, &e, 10);
	if (*e || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

int ftsw_lab_find_host(const struct ftsw_lab *lab, const char *s,
		       uint32_t *host, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t i;

	if (parse_index(s, 'h', host) || parse_index(s, 0, host)) {
		if (*host < t->nhosts)
			return 0;
		ftsw_err_set(err, "host '%s': lab %s has hosts 0..%" PRIu32, s,
			     lab->name, t->nhosts - 1);
		return -1;
	}
	for (i = 0; i < t->nhosts; i++) {
		const char *d = t->nodes[t->hosts[i]].desc;

		if (d && !strcmp(d, s)) {
			*host = i;
			return 0;
		}
	}
	ftsw_err_set(err, "host '%s': no such host in lab %s (h0..h%" PRIu32
		     " or a node name)", s, lab->name, t->nhosts - 1);
	return -1;
}

int ftsw_lab_find_node(const struct ftsw_lab *lab, const char *s,
		       uint32_t *node, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t i;

	if (parse_index(s, 's', &i)) {
		if (i < t->nswitches) {
			*node = t->switches[i];
			return 0;
		}
		ftsw_err_set(err, "switch '%s': lab %s has switches s0..s%" PRIu32,
			     s, lab->name, t->nswitches - 1);
		return -1;
	}
	if (parse_index(s, 'h', &i)) {
		if (i < t->nhosts) {
			*node = t->hosts[i];
			return 0;
		}
		ftsw_err_set(err, "host '%s': lab %s has hosts h0..h%" PRIu32,
			     s, lab->name, t->nhosts - 1);
		return -1;
	}
	for (i = 0; i < t->nnodes; i++) {
		const char *d = t->nodes[i].desc;

		if (d && !strcmp(d, s)) {
			*node = i;
			return 0;
		}
	}
	ftsw_err_set(err, "node '%s': no such switch or host in lab %s "
		     "(s0.., h0.. or a node name)", s, lab->name);
	return -1;
}

/* ------------------------------------------------------------ routing */

struct port_state_arg {
	struct ftsw_topo *t;
};

struct rd_arg {
	struct ftsw_topo *t;
	struct ftsw_routing *r;
};

static int port_down_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct rd_arg *a = arg;
	struct ftsw_topo *t = a->t;
	uint32_t node;

	if (pi->switch_id >= t->nswitches)
		return 0;
	node = t->switches[pi->switch_id];
	if (pi->port > t->nodes[node].nports)
		return 0;
	if (!pi->oper_up || !pi->admin_up)
		ftsw_topo_disconnect(t, node, pi->port);
	/* An edge port allowed one LMC offset: the source's path is fixed. */
	if (a->r && pi->edge && pi->n_offsets == 1 && pi->base_lid) {
		uint32_t h = (pi->base_lid >> a->r->lmc) - 1;

		if (h < a->r->nhosts)
			a->r->policy[h].fixed_offset = pi->offsets[0];
	}
	return 0;
}

struct ftsw_routing *ftsw_lab_read_routing(struct ftsw_lab *lab,
					   struct ftsw_err *err)
{
	struct ftsw_routing *r;
	struct rd_arg a = { .t = lab->topo };
	uint8_t *table;
	uint32_t i;

	r = ftsw_routing_new(lab->topo, lab->lmc, false, err);
	if (!r)
		return NULL;
	a.r = r;
	/* Down ports are cables the model must not use either. */
	if (ftsw_nl_port_dump(lab->nl, -1, port_down_cb, &a)) {
		ftsw_err_set(err, "lab %s: port dump: %s", lab->name,
			     ftsw_nl_error(lab->nl));
		ftsw_routing_free(r);
		return NULL;
	}
	snprintf(r->engine, sizeof(r->engine), "kernel");
	table = malloc(FTSW_LFT_SIZE);
	if (!table) {
		ftsw_routing_free(r);
		ftsw_err_set(err, "out of memory");
		return NULL;
	}
	for (i = 0; i < lab->topo->nswitches; i++) {
		uint32_t size = 0;
		bool staged = false;
		size_t n = r->lft_size < FTSW_LFT_SIZE ? r->lft_size :
			   FTSW_LFT_SIZE;

		if (ftsw_nl_lft_get(lab->nl, i, false, table, &size, &staged)) {
			ftsw_err_set(err, "switch %" PRIu32 " LFT: %s", i,
				     ftsw_nl_error(lab->nl));
			free(table);
			ftsw_routing_free(r);
			return NULL;
		}
		memcpy(ftsw_lft(r, i), table, n);
	}
	free(table);
	return r;
}

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
			ftsw_err_set(err, "out of memory");
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

/*
 * A host's eth0, in its namespace, down or up. Down, it loses its
 * neighbour entries; it keeps its IPv4 address and (keep_addr_on_down) its
 * IPv6 one, and once up again the prefix routes come back: the host
 * resolves its peers afresh through the fabric, as it did at first.
 */
static int host_eth0(struct ftsw_lab *lab, uint32_t h, bool up,
		     struct ftsw_err *err)
{
	struct lab_rt rt;
	char what[64];
	int fd, rc;

	fd = ftsw_lab_host_fd(lab, h, err);
	if (fd < 0)
		return -1;
	snprintf(what, sizeof(what), "host h%" PRIu32, h);
	if (ftsw_netns_enter_fd(fd, what, err))
		return -1;
	/* eth0 keeps its IPv6 address while down (IPv4 always does). */
	rc = up ? 0 : lab_sysctl("net/ipv6/conf/eth0/keep_addr_on_down", "1",
				 err);
	if (!rc)
		rc = lab_rt_open(&rt, err);
	if (rc)
		goto home;
	snprintf(what, sizeof(what), "host h%" PRIu32 " eth0 %s", h,
		 up ? "up" : "down");
	rc = lab_rt_link_up(&rt, LAB_HOST_IFINDEX, up, what, err);
	if (!rc)
		rc = lab_rt_flush(&rt, err);
	lab_rt_close(&rt);
home:
	if (ftsw_netns_home(rc ? NULL : err))
		rc = -1;
	return rc;
}

/* The fabric-namespace end(s) of a cable. */
static int fabric_ends(struct ftsw_lab *lab, uint32_t node, unsigned port,
		       bool both, bool up, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	const struct ftsw_port *x = ftsw_port(t, node, port);
	struct lab_rt rt;
	char what[64];
	int rc;

	if (ftsw_netns_enter_fd(lab->fabric_fd, lab->name, err))
		return -1;
	rc = lab_rt_open(&rt, err);
	if (rc)
		goto home;
	snprintf(what, sizeof(what), "switch s%" PRIu32 ":%u",
		 t->nodes[node].index, port);
	rc = lab_rt_link_up(&rt, port_ifindex(t, node, port), up, what, err);
	if (!rc && both) {
		snprintf(what, sizeof(what), "switch s%" PRIu32 ":%u",
			 t->nodes[x->peer].index, x->peer_port);
		rc = lab_rt_link_up(&rt, port_ifindex(t, x->peer, x->peer_port),
				    up, what, err);
	}
	if (!rc)
		rc = lab_rt_flush(&rt, err);
	lab_rt_close(&rt);
home:
	if (ftsw_netns_home(rc ? NULL : err))
		rc = -1;
	return rc;
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
			ftsw_err_set(err, "switch s%" PRIu32 ":%u: %s",
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

/*
 * State of every switch port, by port record: a device's admin state, or
 * for a patch cable's end, the cable's (both ends admin up).
 */
static bool *port_states(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct dev_state d = { .t = lab->topo };
	struct lab_rt rt;
	int rc;

	d.up = calloc(lab->topo->nports + 1, sizeof(bool));
	if (!d.up) {
		ftsw_err_set(err, "out of memory");
		return NULL;
	}
	if (ftsw_netns_enter_fd(lab->fabric_fd, lab->name, err))
		goto fail;
	rc = lab_rt_open(&rt, err);
	if (!rc) {
		rc = lab_rt_dump_links(&rt, dev_state_cb, &d, err);
		lab_rt_close(&rt);
	}
	if (ftsw_netns_home(err) || rc)
		goto fail;
	if (lab->patch && ftsw_nl_port_dump(lab->nl, -1, patch_state_cb, &d)) {
		ftsw_err_set(err, "lab %s: port dump: %s", lab->name,
			     ftsw_nl_error(lab->nl));
		free(d.up);
		return NULL;
	}
	return d.up;
fail:
	ftsw_netns_home(NULL);
	free(d.up);
	return NULL;
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
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	cnode = malloc(sizeof(uint32_t) * (t->nports + 1));
	cport = malloc(t->nports + 1);
	if (!cnode || !cport) {
		free(cnode);
		free(cport);
		free(cand);
		free(up);
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, node, p);

			if (x->peer == FTSW_NONE || x->peer < node ||
			    t->nodes[x->peer].kind != FTSW_SWITCH ||
			    (x->peer == node && x->peer_port < p) ||
			    !up[t->nodes[node].first_port + p - 1])
				continue;
			cnode[t->nodes[node].first_port + p - 1] = node;
			cport[t->nodes[node].first_port + p - 1] = p;
			cand[nc++] = t->nodes[node].first_port + p - 1;
		}
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
