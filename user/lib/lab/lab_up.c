// SPDX-License-Identifier: GPL-2.0
/* libftsw lab: lab up, building a lab from a topology (see lab.h). */
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

	lab_rundir(b->name, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/topo.net", dir);
	if (ftsw_net_write(b->t, path, err))
		return -1;
	/* Written aside and renamed: readers never see half a file. */
	snprintf(path, sizeof(path), "%s/lab.conf.tmp", dir);
	f = fopen(path, "w");
	if (!f) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "spec=%s\nengine=%s%s\nlmc=%u\nrate=%" PRIu64
		"\nhosts=%" PRIu32 "\nswitches=%" PRIu32 "\ncables=%s\n",
		b->o->topo, b->o->sm ? "opensm:" : b->o->lft_file ? "lft:" : "",
		b->o->sm ? (b->o->sm->engine ? b->o->sm->engine : "default") :
		b->o->lft_file ? b->o->lft_file : b->r->engine, b->r->lmc,
		b->o->rate_bytes, b->t->nhosts, b->t->nswitches,
		b->o->patch ? "patch" : "veth");
	if (b->o->lossless)
		fprintf(f, "lossless=1\nlink_rate=%" PRIu64 "\n",
			b->o->link_rate_bits);
	if (fclose(f)) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/lab.conf");
	if (rename(path, dir)) {
		ftsw_err_errno(err, errno, "%s: %s", dir, strerror(errno));
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
	struct ftsw_rt rt;
	uint32_t sw_node;
	unsigned sw_port;
	uint64_t t0, t1;
	int rc = -1;
	struct ftsw_veth v = {
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
	v.ifindex = lab_port_ifindex(t, sw_node, sw_port);
	ftsw_lid_to_mac(ftsw_host_lid(b->r, n), mac);
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
	if (ftsw_rt_open(&rt, err))
		goto home;
	snprintf(what, sizeof(what), "host %" PRIu32 " lo", n);
	if (ftsw_rt_link_up(&rt, 1, true, what, err) ||
	    ftsw_rt_veth(&rt, &v, err))
		goto close;
	snprintf(what, sizeof(what), "host %" PRIu32 " address", n);
	if (ftsw_rt_addr4(&rt, LAB_HOST_IFINDEX, ftsw_lab_host_ip(n), 15, what,
			 err))
		goto close;
	ftsw_lab_host_ip6(n, a6);
	snprintf(what, sizeof(what), "host %" PRIu32 " IPv6 address", n);
	if (ftsw_rt_addr6(&rt, LAB_HOST_IFINDEX, a6, 64, what, err))
		goto close;
	/* lossless: the edge port stops eth0's queue, which needs one */
	snprintf(what, sizeof(what), "host %" PRIu32 " qdisc", n);
	if (b->o->lossless &&
	    ftsw_rt_pfifo(&rt, LAB_HOST_IFINDEX, FTSW_LAB_HOST_QLEN, what, err))
		goto close;
	rc = ftsw_rt_flush(&rt, err);
close:
	hc->nmsgs += rt.nmsgs;
	ftsw_rt_close(&rt);
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
static int make_links(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	struct lab_build *b = arg;
	const struct ftsw_topo *t = b->t;
	uint64_t t0 = ftsw_now_us(), done = 0;
	struct ftsw_sw_port it;

	if (ftsw_rt_link_up(rt, 1, true, "lo", err))
		return -1;
	/* each cable between switches once; patch cables are the module's */
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_ONCE) {
		const struct ftsw_port *x = it.x;
		char a[16], c[16];
		struct ftsw_veth v = {
			.name = a, .peer = c, .peer_netns_fd = -1, .up = true,
			.ifindex = lab_port_ifindex(t, it.node, it.port),
			.mtu = FTSW_LAB_LINK_MTU,
			.peer_mtu = FTSW_LAB_LINK_MTU,
		};

		if (b->o->patch)
			break;
		ftsw_lab_port_dev(it.sw, it.port, a, sizeof(a));
		ftsw_lab_port_dev(t->nodes[x->peer].index, x->peer_port, c,
				  sizeof(c));
		v.peer_ifindex = lab_port_ifindex(t, x->peer, x->peer_port);
		v.group = v.peer_group = host_group(t->nhosts - 1) + 1 +
					 (uint32_t)(done / LAB_GROUP_CABLES);
		if (ftsw_rt_veth(rt, &v, err))
			return -1;
		done++;
		progress(b, "fabric cables", done,
			 ftsw_topo_nlinks(t) - t->nhosts);
	}
	if (ftsw_rt_flush(rt, err))
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
	if (ftsw_sysctl("net/ipv6/conf/all/disable_ipv6", "1", err) ||
	    ftsw_sysctl("net/ipv6/conf/default/disable_ipv6", "1", err))
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
	ftsw_err_errno(err, ftsw_nl_errno(nl), "%s: %s", what,
		       ftsw_nl_error(nl));
	return -1;
}

/* Upload every switch's LFT (staged) and, if asked, commit. */
static int upload_lfts(struct ftsw_nl *nl, const struct ftsw_routing *r,
		       struct ftsw_err *err)
{
	uint32_t i;
	size_t at;

	for (i = 0; i < r->nswitches; i++)
		if (ftsw_nl_lft_upload(nl, i, ftsw_lft(r, i), 0, r->lft_size,
				       &at))
			return nlerr(nl, err, "switch %" PRIu32
				     " LFT block at LID %u", i, (unsigned)at);
	return 0;
}

/*
 * The address plan (Documentation/design.md): host n owns base LID (n + 1) << LMC,
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
		ftsw_err_errno(err, ftsw_nl_errno(nl),
			       "address plan of %" PRIu32 " hosts: %s", nhosts,
			       ftsw_nl_error(nl));
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
		ftsw_sysctl_raise(path, need3);
	}
}

static int make_switches(struct lab_build *b, struct ftsw_nl *nl,
			 struct ftsw_err *err)
{
	const struct ftsw_topo *t = b->t;
	const struct ftsw_routing *r = b->r;
	uint64_t t0 = ftsw_now_us();
	struct ftsw_sw_port it;
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
		/* Under OpenSM links come up in Init; else ftsw activates them. */
		si.inband_sm = b->o->sm != NULL;
		if (ftsw_switch_lid(r, i) <= FTSW_MAX_LID && !b->o->sm)
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
			c.ifindex = lab_port_ifindex(t, node, p);
			c.kind = FTSW_PORT_LINK;
			if (t->nodes[x->peer].kind == FTSW_HOST) {
				uint32_t h = t->nodes[x->peer].index, d;
				unsigned k;

				c.kind = FTSW_PORT_EDGE;
				/* the CA answers as the host */
				c.ca_guid = t->nodes[x->peer].guid;
				c.node_desc = t->nodes[x->peer].desc;
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
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_ONCE) {
		struct ftsw_port_cfg c;

		if (!b->o->patch)
			break;
		ftsw_port_cfg_init(&c);
		c.switch_id = it.sw;
		c.port = it.port;
		c.kind = FTSW_PORT_LINK;
		c.peer_switch = t->nodes[it.x->peer].index;
		c.peer_port = it.x->peer_port;
		if (ftsw_nl_port_bind(nl, &c))
			return nlerr(nl, err, "switch %" PRIu32 " port %u",
				     it.sw, it.port);
	}
	b->tm->switches = ftsw_now_us() - t0;
	t0 = ftsw_now_us();
	if (!b->o->sm && (upload_lfts(nl, r, err) ||
			  lab_upload_groups(nl, r, b->o, err)))
		return -1;
	if (!b->o->no_neigh && upload_plan(nl, t->nhosts, r->lmc, err))
		return -1;
	if (ftsw_nl_commit(nl, NULL)) {
		ftsw_err_errno(err, ftsw_nl_errno(nl), "commit: %s",
			       ftsw_nl_error(nl));
		return -1;
	}
	b->tm->upload = ftsw_now_us() - t0;
	return 0;
}

static int shape_links(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	struct lab_build *b = arg;
	const struct ftsw_topo *t = b->t;
	uint64_t t0 = ftsw_now_us();
	struct ftsw_sw_port it;

	ftsw_for_each_switch_port(t, &it, FTSW_SWP_TO_SWITCH) {
		char what[48];

		snprintf(what, sizeof(what), "switch %" PRIu32 " port %u qdisc",
			 it.sw, it.port);
		if (ftsw_rt_tbf(rt, lab_port_ifindex(t, it.node, it.port),
			       b->o->rate_bytes, what, err))
			return -1;
	}
	if (ftsw_rt_flush(rt, err))
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
	struct ftsw_route_req q = { .engine = o->engine, .lfts = o->lft_file,
				    .groups = o->groups_file,
				    .lmc_given = !o->lmc_auto,
				    .o = { .lmc = o->lmc, .seed = o->seed,
					   .paths = o->paths,
					   .adaptive = o->adaptive } };
	uint64_t t1;

	b->t = ftsw_topo_open(o->topo, err);
	if (!b->t)
		return -1;
	if (!b->t->nhosts) {
		ftsw_err_set(err, "topology %s: no hosts", o->topo);
		return -1;
	}
	t1 = ftsw_now_us();
	b->r = ftsw_route_make(b->t, &q, err);
	if (!b->r)
		return -1;
	ftsw_routing_own_lids(b->r);
	if (!o->lft_file && b->r->lmc != o->lmc && o->progress) {
		char note[96];

		snprintf(note, sizeof(note), "%s needs LMC %u", b->r->engine,
			 b->r->lmc);
		o->progress(note, 0, 0, o->progress_arg);
	}
	b->tm->route = ftsw_now_us() - t1;
	b->tm->lmc = b->r->lmc;
	b->tm->vls = b->r->nvls ? b->r->nvls : 1;
	snprintf(b->tm->engine, sizeof(b->tm->engine), "%s", b->r->engine);
	snprintf(b->tm->warning, sizeof(b->tm->warning), "%s", b->r->warning);
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
	b->fb_changed = ftsw_sysctl_swap(FB_TUNNELS, 1, &b->fb_old) == 1;
}

static void fb_tunnels_restore(struct lab_build *b)
{
	long dummy;

	if (b->fb_changed)
		ftsw_sysctl_swap(FB_TUNNELS, b->fb_old, &dummy);
	b->fb_changed = false;
}

/* Namespaces, cables, hosts, switches and shaping of a routed lab. */
static int lab_build(struct lab_build *b, struct ftsw_nl **nl,
		     struct ftsw_err *err)
{
	neigh_room(b->t->nhosts);
	fb_tunnels_off(b);
	if (write_conf(b, err))
		return -1;
	if (make_namespaces(b, err))
		return -1;
	fb_tunnels_restore(b);	/* at home: the setting is the first namespace's */
	if (ftsw_rt_run(b->fabric_fd, b->name, make_links, b, &b->tm->nmsgs,
			err))
		return -1;
	*nl = ftsw_nl_open_in(b->name, err);
	if (!*nl || lab_lossless_fabric(*nl, b->o, err) ||
	    make_switches(b, *nl, err) ||
	    lab_lossless_ports(*nl, b->t, b->o, err))
		return -1;
	if (b->o->rate_bytes &&
	    ftsw_rt_run(b->fabric_fd, b->name, shape_links, b, NULL, err))
		return -1;
	return 0;
}

/*
 * Before anything is made: the module must be there (a lab that cannot
 * have a fabric would be built and rolled back for nothing).
 */
static int module_check(const char *name, struct ftsw_err *err)
{
	struct ftsw_err e;
	struct ftsw_nl *nl = ftsw_nl_open_in(NULL, &e);

	if (!nl) {
		ftsw_err_errno(err, e.code, "lab %s: %s", name, e.msg);
		return -1;
	}
	ftsw_nl_close(nl);
	return 0;
}

/* The run directory marks the lab as ours from here on. */
static int make_rundir(const struct lab_build *b, struct ftsw_err *err)
{
	char dir[256];

	if (ftsw_rundir_make(err))
		return -1;
	lab_rundir(b->name, dir, sizeof(dir));
	if (mkdir(dir, 0755) < 0) {
		ftsw_err_errno(err, errno, "lab %s: %s", b->name,
			       errno == EEXIST ?
			       "exists already (ftsw lab down first)" :
			       strerror(errno));
		return -1;
	}
	return 0;
}

/* Options that exclude each other, before anything is made. */
static int lab_opts_check(const struct ftsw_lab_opts *o, const char *name,
			  struct ftsw_err *err)
{
	if ((o->adaptive || o->groups_file) && !o->lossless) {
		ftsw_err_set(err, "lab %s: adaptive routing needs lossless "
			     "mode (--lossless): without queues a switch has "
			     "nothing to choose by", name);
		return -1;
	}
	if ((o->adaptive || o->groups_file) && o->sm) {
		ftsw_err_set(err, "lab %s: adaptive groups come with ftsw's "
			     "routing, not a subnet manager's", name);
		return -1;
	}
	if (o->lossless && o->rate_bytes) {
		ftsw_err_set(err, "lab %s: lossless mode paces its links "
			     "itself: no tbf (rate_bytes) with it", name);
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
	uint64_t t0 = ftsw_now_us();
	uint32_t n;
	int rc = -1;
	bool made = false, locked = false;

	memset(tm ? tm : &tm0, 0, sizeof(tm0));
	b.tm = tm ? tm : &tm0;
	b.name = o->name ? o->name : FTSW_LAB_DEFAULT;
	if (lab_check_name(b.name, err))
		return -1;
	if (!o->topo) {
		ftsw_err_set(err, "lab %s: no topology (-t)", b.name);
		return -1;
	}
	if (lab_opts_check(o, b.name, err))
		return -1;
	if (o->patch && o->rate_bytes) {
		ftsw_err_set(err, "lab %s: a patch cable has no device to "
			     "shape: --rate needs veth cables", b.name);
		return -1;
	}
	/* a bad --sm-conf is refused before anything is built */
	if (o->sm && ftsw_lab_sm_conf_check(o->sm, err))
		return -1;
	if (module_check(b.name, err))
		return -1;
	/*
	 * Until this lab's run directory exists, no lab down may take away
	 * what labs share (nl/ns.h); a user without root joins (or first
	 * starts) their holder, before any thread or large allocation.
	 */
	if (ftsw_rundir_lock(err))
		return -1;
	locked = true;
	if (ftsw_rootless_join(true, err) < 0 || lab_route(&b, err))
		goto out;
	b.host_fd = malloc(sizeof(int) * b.t->nhosts);
	if (!b.host_fd) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		goto out;
	}
	for (n = 0; n < b.t->nhosts; n++)
		b.host_fd[n] = -1;
	if (make_rundir(&b, err))
		goto out;
	made = true;
	ftsw_rundir_unlock();
	locked = false;
	if (lab_build(&b, &nl, err))
		goto out;
	if (o->sm) {
		ftsw_netns_home(NULL);
		if (o->progress)
			o->progress("OpenSM: waiting for SUBNET UP", 0, 0,
				    o->progress_arg);
		if (ftsw_lab_sm_start(b.name, o->sm, b.t, b.r, err))
			goto out;
		if (o->progress && lab_sm_paths(o->sm))
			o->progress("path SLs and P_Keys from the SA", 0, 0,
				    o->progress_arg);
		if (lab_sm_path_sl_start(b.name, o->sm, err))
			goto out;
		snprintf(b.tm->engine, sizeof(b.tm->engine), "opensm %s",
			 o->sm->engine ? o->sm->engine : "");
	}
	rc = 0;
out:
	ftsw_netns_home(NULL);
	fb_tunnels_restore(&b);
	ftsw_nl_close(nl);
	if (b.host_fd)
		for (n = 0; n < b.t->nhosts; n++)
			if (b.host_fd[n] >= 0)
				close(b.host_fd[n]);
	if (b.fabric_fd >= 0)
		close(b.fabric_fd);
	free(b.host_fd);
	if (locked)
		ftsw_rundir_unlock();
	if (rc && made) {
		struct ftsw_err e2;

		if (o->progress)
			o->progress("failed, rolling back", 0, 0,
				    o->progress_arg);
		ftsw_lab_down(b.name, &e2);
	} else if (rc) {
		/* a holder just started, the run directory just made */
		ftsw_netns_release_idle();
	}
	if (!rc)
		ftsw_evlog(b.name, "up", "lab up: %s, %u hosts, %u switches, %s%s",
			   o->topo, b.t->nhosts, b.t->nswitches,
			   o->sm ? "OpenSM" : b.tm->engine,
			   o->lossless ? ", lossless" : "");
	ftsw_routing_free(b.r);
	ftsw_topo_free(b.t);
	b.tm->total = ftsw_now_us() - t0;
	return rc;
}

