/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw lab: a fat-tree of network namespaces with real packets.
 *
 * A lab NAME is one fabric namespace NAME (bound at NSDIR/NAME: /run/netns
 * for root, inside the user's holder for anyone else, nl/ns.h) that
 * holds every switch port device, and one namespace NAME-hN per host, each
 * with one device eth0 (the other end of a veth pair whose fabric end is an
 * edge port). Switch i of the topology is kernel switch id i; its port p is
 * device "s<i>p<p>" of the fabric namespace. Links between switches are veth
 * pairs at MTU 9000 (or, with opts.patch, patch cables inside the module,
 * with no device at either end), host links MTU 1500. The addressing plan
 * (Documentation/design.md): host n has MAC 02:66:74:00:<base LID>,
 * 198.18.0.0 + n + 1 /15 and 2001:2::n+1 /64; the fabric answers ARP and
 * neighbour solicitations from its address plan, so hosts resolve on demand
 * and hold no static table.
 *
 * Everything is done through netlink from this process: namespaces are
 * created with unshare(2) and bind mounts (as ip-netns does), devices,
 * addresses and qdiscs through rtnetlink, the switches through
 * the "ftsw" generic netlink family. The lab's description (topology, LMC,
 * engine) is kept in RUNDIR/NAME/ (/run/ftsw/NAME for root, util/rundir.h)
 * so later commands find it.
 *
 * Every function returns 0 or -1 with err naming the object at fault.
 *
 * A lab (ftsw_lab_open) is freed by ftsw_lab_close, every result with
 * arrays by its _free partner. The calls switch namespaces (nl/ns.h): use a
 * lab from one thread. Nothing is printed: progress through the
 * ftsw_progress_fn in the options, results as data.
 */
#ifndef LIBFTSW_LAB_H
#define LIBFTSW_LAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topo/topology.h"
#include "route/routing.h"
#include "nl/nl.h"
#include "nl/ns.h"
#include "sim/sim.h"
#include "util/rundir.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_LAB_DEFAULT	"ftsw"
#define FTSW_LAB_NAME_MAX	24
#define FTSW_LAB_LINK_MTU	9000
#define FTSW_LAB_HOST_MTU	1500
/* lab up --rate: 8k..16G bit/s, as bytes/s (0: not shaped). */
#define FTSW_LAB_RATE_MIN	1000ULL
#define FTSW_LAB_RATE_MAX	2000000000ULL
/* The hosts' pfifo in lossless mode, packets. */
#define FTSW_LAB_HOST_QLEN	1000

/* ------------------------------------------------------------ the lab */

/*
 * Progress of lab up or lab down: what, done of total; a note (the LMC
 * picked, a roll-back) has total 0.
 */
typedef ftsw_progress_fn ftsw_lab_progress_fn;	/* util/util.h */

struct ftsw_lab_sm;

struct ftsw_lab_opts {
	const char *name;	/* NULL: FTSW_LAB_DEFAULT */
	const char *topo;	/* generator spec or ibnetdiscover file */
	const char *engine;	/* NULL: dmodk on a complete PGFT, dmodc on a
				 * degraded one, updn otherwise */
	const char *lft_file;	/* OpenSM opensm-lfts.dump instead of an engine */
	unsigned lmc;
	bool lmc_auto;		/* raise the LMC until the engine accepts it */
	unsigned paths;		/* multipath engines: K paths (0: 2^LMC) */
	uint64_t rate_bytes;	/* bytes/s; 0: no shaping; else tbf on every
				 * fabric link */
	uint64_t seed;
	bool no_neigh;		/* no address plan: the fabric answers no
				 * ARP/ND (hosts bring their own neighbours) */
	bool patch;		/* cables between switches are patch cables
				 * in the module, not veth pairs (no device:
				 * no shaping, no capture; far fewer devices) */
	const struct ftsw_lab_sm *sm;	/* a subnet manager routes the lab
					 * (lab_sm.c); NULL: ftsw does */
	/*
	 * Lossless mode (Documentation/lab.md, "Lossless mode"): the fabric
	 * in the kernel's lossless mode, every port at link_rate_bits (0:
	 * the kernel's default) with in_buf/out_buf bytes per VL (0: the
	 * kernel's), HOQ and switch lifetimes when set; rate_bytes (tbf)
	 * must be 0. Hosts get a pfifo qdisc on eth0: the edge port stops
	 * their transmit queue when its buffer is full.
	 */
	bool lossless;
	uint64_t link_rate_bits;
	uint32_t in_buf, out_buf;
	bool hoq_life_set, switch_life_set;
	uint8_t hoq_life, switch_life;
	/*
	 * Adaptive routing (Documentation/congestion.md): the engine's groups
	 * (route --adaptive), or with lft_file the groups file given, staged
	 * with the LFTs; lossless mode only. flowlet_ns: the switches' gap
	 * (0: per packet).
	 */
	bool adaptive;
	const char *groups_file;
	uint64_t flowlet_ns;
	/*
	 * Congestion control: the length of CCTI_Timer's unit, ns (0: the
	 * kernel's default, IBA's 1024; Documentation/congestion.md).
	 */
	uint32_t cc_timer_ns;
	ftsw_lab_progress_fn progress;	/* NULL: quiet */
	void *progress_arg;
};

/* Timings of `lab up`, in microseconds. */
struct ftsw_lab_times {
	/*
	 * hosts: namespaces, cables and addresses of the hosts, made by
	 * `threads` threads at once (wall); of it, summed over the threads,
	 * netns in making the namespaces (unshare, mount) and hostcfg in
	 * configuring them (sysctls, cables, addresses). links: the cables
	 * between switches.
	 */
	uint64_t netns, hostcfg, links, hosts, neigh, switches, route, upload,
		 shape, total;
	uint64_t nnetns, nlinks, nneigh, nmsgs;
	unsigned threads;
	unsigned lmc;		/* the LMC used */
	unsigned vls;		/* the routing's VLs (1 under OpenSM) */
	char engine[32];	/* the engine used */
	char warning[384];	/* the routing's warning, "" when none */
};

int ftsw_lab_up(const struct ftsw_lab_opts *o, struct ftsw_lab_times *tm,
		struct ftsw_err *err);
/* Remove everything of lab NAME; tolerant of half-built labs. */
int ftsw_lab_down(const char *name, struct ftsw_err *err);
/* The same, with progress (NULL: quiet). */
int ftsw_lab_down_progress(const char *name, ftsw_lab_progress_fn progress,
			   void *arg, struct ftsw_err *err);

/* A lab as described by its run directory. */
struct ftsw_lab {
	char name[FTSW_LAB_NAME_MAX + 1];
	char spec[256];		/* what -t said */
	char engine[64];	/* engine or "lft:FILE" */
	unsigned lmc;
	uint64_t rate_bytes;	/* bytes/s per fabric link, 0: not shaped */
	bool patch;		/* switch-to-switch cables are patch cables */
	bool lossless;		/* lossless mode (lab up --lossless) */
	uint64_t link_rate_bits;	/* its ports' rate, 0: the kernel's */
	struct ftsw_topo *topo;
	struct ftsw_nl *nl;	/* genl client in the fabric namespace */
	int fabric_fd;		/* fabric namespace */
	int *host_fd;		/* host namespaces, opened on demand (-1) */
};

int ftsw_lab_open(const char *name, struct ftsw_lab *lab, struct ftsw_err *err);
void ftsw_lab_close(struct ftsw_lab *lab);
/* Names of existing labs, one callback each. */
int ftsw_lab_list(int (*cb)(const char *name, void *arg), void *arg);
/* Whether RUNDIR/NAME holds a lab (its lab.conf; util/rundir.h). */
bool ftsw_lab_exists(const char *name);
/*
 * How many labs there are; their names, ", "-separated, into buf (may be
 * NULL), the first one's into first (may be NULL).
 */
unsigned ftsw_lab_names(char *buf, size_t sz, char *first, size_t first_sz);
/*
 * The lab a command means (lab_name.c): given, else $FTSW_LAB, else (unless
 * create: lab up names a new one) the only lab when there is exactly one
 * (its name written into buf), else FTSW_LAB_DEFAULT.
 */
const char *ftsw_lab_pick(const char *given, bool create, char *buf,
			  size_t sz);
/* When lab NAME does not exist: "; labs here: ... (name one with ...)"
 * into buf, else "". */
void ftsw_lab_hint(const char *name, char *buf, size_t sz);

/* Names. */
void ftsw_lab_host_ns(const char *lab, uint32_t host, char *buf, size_t sz);
void ftsw_lab_port_dev(uint32_t sw, unsigned port, char *buf, size_t sz);
/* Host address (network order) of host n. */
uint32_t ftsw_lab_host_ip(uint32_t host);
/* Host n's IPv6 address: 2001:2::n+1 (/64). */
void ftsw_lab_host_ip6(uint32_t host, uint8_t addr[16]);
/* Resolve "h3" / "3" / node description to a host index. */
int ftsw_lab_find_host(const struct ftsw_lab *lab, const char *s,
		       uint32_t *host, struct ftsw_err *err);
/* Resolve "s3" / node description / "h3" (hosts) to a node id. */
int ftsw_lab_find_node(const struct ftsw_lab *lab, const char *s,
		       uint32_t *node, struct ftsw_err *err);
/* Enter a host's namespace (for exec). */
int ftsw_lab_enter_host(struct ftsw_lab *lab, uint32_t host,
			struct ftsw_err *err);
int ftsw_lab_host_fd(struct ftsw_lab *lab, uint32_t host, struct ftsw_err *err);
/*
 * Become a host, as `ip netns exec` makes a process one (lab_ns.c): its
 * network namespace and ftsw_netns_view's mount namespace (its own /sys).
 * For a process about to exec; single-threaded.
 */
int ftsw_lab_become_host(struct ftsw_lab *lab, uint32_t host,
			 struct ftsw_err *err);

/*
 * The routing currently active in the kernel, read back from the switches'
 * LFTs and the edge ports' LMC (for tracing: model == reality).
 */
struct ftsw_routing *ftsw_lab_read_routing(struct ftsw_lab *lab,
					   struct ftsw_err *err);

/* ------------------------------------------------------------ subnet manager */

/*
 * lab up --sm opensm (lab_sm.c): the lab is built without LFTs and without
 * switch LIDs (edge ports keep the address plan's LIDs, which the kernel
 * needs, and OpenSM's LID cache is seeded with them); then the gateway of
 * host `host` and Debian's opensm, with libumad2sim.so preloaded, start in
 * that host's namespace, and lab up waits for SUBNET UP in OpenSM's log.
 * OpenSM's files (opensm.log, opensm.out, guid2lid...) are in the lab's run
 * directory; lab down stops OpenSM and every gateway.
 */
#define FTSW_LAB_GW_SOCK	"ftsw"	/* the lab gateways' IBSIM_SOCKNAME */

/* Hosts send with the SLs of the SA's PathRecords (lab_pathsl.c). */
enum ftsw_lab_path_sl_mode {
	FTSW_PATH_SL_AUTO,	/* for engines that give paths SLs */
	FTSW_PATH_SL_ON,
	FTSW_PATH_SL_OFF,
};

struct ftsw_lab_sm {
	const char *engine;	/* opensm -R (NULL: OpenSM's default) */
	const char *root_guids;	/* -a FILE: root switch GUIDs */
	const char *cn_guids;	/* -u FILE: compute node GUIDs */
	bool qos;		/* -Q */
	const char *conf;	/* opensm.conf lines (qos_*...) added to the lab's */
	/*
	 * OpenSM's partitions.conf (partition_config_file): copied into the
	 * run directory; hosts then send with the P_Keys of the SA's
	 * PathRecords (ftsw_lab_path_sl, FTSW_PATHS_PKEY). NULL: none.
	 */
	const char *partitions;
	const char *args;	/* more opensm arguments, blank-separated */
	unsigned timeout_s;	/* SUBNET UP within (0: 120 s) */
	unsigned host;		/* the SM's host */
	enum ftsw_lab_path_sl_mode path_sl;
};

/* libumad2sim.so ($FTSW_UMAD2SIM, else Debian's paths), or NULL. */
const char *ftsw_lab_umad2sim(void);
/*
 * libftsw-umad.so, which carries whole RMPP messages between a tool and
 * the gateway ($FTSW_UMAD_SHIM, else beside the running ftsw binary, else
 * in ../lib/ftsw from it), or NULL.
 */
const char *ftsw_lab_umad_shim(void);
/* What LD_PRELOAD holds for a tool: the shim (if found) before
 * libumad2sim.so, into buf. NULL when libumad2sim.so is not found. */
const char *ftsw_lab_preload(char *buf, size_t n);
/* The port GUID of host h's channel adapter (its edge port's CA agent). */
uint64_t ftsw_lab_ca_port_guid(const struct ftsw_topo *t, uint32_t h);
/* Start host's gateway unless it runs (pid in gw-hN.pid, log gw-hN.log). */
int ftsw_lab_gw_start(const char *lab, uint32_t host, struct ftsw_err *err);
/*
 * sm's --sm-conf and --sm-partitions files as the lab would give them to
 * OpenSM: 0, or -1 with "--sm-conf FILE[:LINE]: why" (or --sm-partitions)
 * in err. lab up and lab sm restart check them before they build or stop
 * anything.
 */
int ftsw_lab_sm_conf_check(const struct ftsw_lab_sm *sm,
			   struct ftsw_err *err);
/* Start OpenSM on a built lab; 0 once SUBNET UP. */
int ftsw_lab_sm_start(const char *lab, const struct ftsw_lab_sm *sm,
		      const struct ftsw_topo *t, const struct ftsw_routing *r,
		      struct ftsw_err *err);
/*
 * lab sm restart: the lab's OpenSM stopped and started again with sm's
 * options (engine, root and CN files, QoS, more arguments, host, timeout)
 * and LMC lmc (< 0: the lab's), its LID cache seeded with the plan as lab
 * up does; 0 once SUBNET UP. The gateways keep running. The last run's log
 * is kept as opensm.log.prev and its dumps (opensm-lfts.dump...) removed
 * first, so the files in the run directory are this run's. lab.conf then
 * names the new engine and LMC, and, when the LMC changed, every host
 * forgets its neighbours (their MACs name the old LIDs).
 */
int ftsw_lab_sm_restart(struct ftsw_lab *lab, const struct ftsw_lab_sm *sm,
			int lmc, struct ftsw_err *err);
/*
 * Path SLs (Documentation/sm.md, "Path SLs"). A host of a real cluster
 * asks the SA for a PathRecord when it resolves a destination and sends
 * with its SL; the lab does it for its hosts: through host `host`'s
 * gateway (started if needed) one GetTable of PathRecords per source LID
 * of every host (SLID set: the paths to every LID), each host's edge port
 * then gets the SLs by DLID (PORT_SL_TABLE). A DLID two of a host's LIDs
 * get different SLs for keeps its base LID's (counted as conflicts). The
 * summary is kept in the run directory (path-sl) for lab status and for
 * ftsw_lab_path_sl_refresh.
 */
struct ftsw_lab_path_sl {
	bool on;		/* the lab fills the SL tables */
	bool pkeys;		/* ... and the P_Key tables (partitions) */
	unsigned host;		/* whose gateway asks the SA */
	uint64_t sweeps;	/* SUBNET UP lines in opensm.log at the fill */
	uint64_t queries, records, conflicts;
	uint64_t pairs;		/* (host, DLID of another host) with a path */
	uint64_t missing;	/* ... without one */
	uint64_t per_sl[FTSW_NUM_SL];	/* pairs by SL */
	uint64_t us;		/* the fill took */
};

/* Whether mode turns path SLs on for engine (NULL: OpenSM's default). */
bool ftsw_lab_path_sl_wanted(enum ftsw_lab_path_sl_mode mode,
			     const char *engine);
/*
 * Multicast (lab_mcast.c; sm.md, "Multicast"): one pass over the hosts,
 * each host's IP multicast groups joined or left through the SA from its
 * own gateway, its edge port given the groups' MLIDs. A lab under OpenSM.
 */
struct ftsw_lab_mcast {
	uint32_t hosts, groups, joined, left;
};
int ftsw_lab_mcast_sync(struct ftsw_lab *lab, struct ftsw_lab_mcast *r,
			struct ftsw_err *err);
/*
 * The same as a daemon, as IPoIB follows its interface's memberships: a
 * pass every interval_ms until *stop (a signal handler's) or the lab is
 * gone; pass() after each pass that joined or left something (r), or
 * failed (e: said once until the failure changes or a pass succeeds; the
 * next pass tries again).
 */
void ftsw_lab_mcast_follow(struct ftsw_lab *lab, unsigned interval_ms,
			   volatile int *stop,
			   void (*pass)(const struct ftsw_lab_mcast *r,
					const struct ftsw_err *e, void *arg),
			   void *arg);

/* What ftsw_lab_path_sl() fills from the PathRecords. */
#define FTSW_PATHS_SL	0x1	/* each host's SL by DLID */
#define FTSW_PATHS_PKEY	0x2	/* each host's P_Key by DLID */
int ftsw_lab_path_sl(struct ftsw_lab *lab, unsigned host, unsigned what,
		     struct ftsw_lab_path_sl *res, struct ftsw_err *err);
/* Turn path SLs off: every edge port's SL table removed, path-sl says
 * off. */
int ftsw_lab_path_sl_off(struct ftsw_lab *lab, struct ftsw_err *err);
/*
 * The last fill's summary, as the lab's run directory keeps it (path-sl):
 * 0, or -1 with err: err->code ENOENT when path SLs were never set up,
 * else the file or line at fault.
 */
int ftsw_lab_path_sl_read(const char *lab, struct ftsw_lab_path_sl *res,
			  struct ftsw_err *err);
/*
 * When path SLs are on and OpenSM finished a heavy sweep since the last
 * fill (its routes, so its SLs, may have changed: a trap, a cable), fill
 * again. 0 or -1.
 */
int ftsw_lab_path_sl_refresh(struct ftsw_lab *lab, struct ftsw_err *err);
/* Stop the lab's OpenSM and gateways (best effort). */
void ftsw_lab_sm_stop(const char *lab);
/*
 * Run argv (an infiniband-diags tool, or any libibumad program) in host's
 * namespace through its gateway (started if needed): libumad2sim.so
 * preloaded, IBSIM_SOCKNAME set, in the run directory's tools/. Returns
 * only on error.
 */
int ftsw_lab_ib_exec(struct ftsw_lab *lab, uint32_t host, char **argv,
		     struct ftsw_err *err);

/* ------------------------------------------------------------ failures */

enum ftsw_lab_fail_kind { FTSW_FAIL_LINK, FTSW_FAIL_SWITCH, FTSW_FAIL_PORT };

/* One cable changed: a is always a switch end, b a switch or a host. */
struct ftsw_lab_change {
	uint32_t a, b;		/* topology nodes */
	unsigned a_port, b_port;
	bool up;		/* new state */
};

struct ftsw_lab_changes {
	struct ftsw_lab_change *v;
	size_t n, cap;
};

void ftsw_lab_changes_free(struct ftsw_lab_changes *ch);

/*
 * Fail (up = false) or heal (up = true) a link A B (the first one between
 * the two nodes that is in the wanted state unless all), every link of a
 * switch, or one port S:P. Both veth ends go administratively down, so both
 * sides lose carrier: for a host cable the host's eth0 in its namespace too
 * (it keeps its addresses and resolves afresh once healed). Every cable changed is
 * appended to ch (if not NULL), also when an error stops the rest.
 */
int ftsw_lab_set_link(struct ftsw_lab *lab, uint32_t node, unsigned port,
		      bool up, struct ftsw_lab_changes *ch,
		      struct ftsw_err *err);
int ftsw_lab_fail(struct ftsw_lab *lab, enum ftsw_lab_fail_kind kind,
		  const char *a, const char *b, bool up, bool all,
		  struct ftsw_lab_changes *ch, struct ftsw_err *err);
/* K random switch-to-switch links failed, seeded. */
int ftsw_lab_chaos(struct ftsw_lab *lab, unsigned count, uint64_t seed,
		   struct ftsw_lab_changes *ch, struct ftsw_err *err);

/* ------------------------------------------------------------ traffic */

struct ftsw_pair_fail {
	uint32_t src, dst;
	unsigned sent, received;
};

struct ftsw_ping_result {
	uint64_t pairs, ok, failed;
	uint64_t sent, received;
	uint64_t retried;	/* echoes re-sent after a first silence */
	double min_us, avg_us, max_us;
	double elapsed_s;
	struct ftsw_pair_fail *fails;	/* failed pairs (malloc), nfails */
	uint64_t nfails;
};

/*
 * ICMP echo from every source to every destination (NULL: all hosts), count
 * echoes per pair, in parallel (one raw socket per host namespace, one
 * thread). Missing replies are asked for again twice (transient drops on a
 * loaded machine are not broken paths); a pair fails when fewer than count
 * replies arrive in the end.
 */
int ftsw_lab_ping(struct ftsw_lab *lab, const uint32_t *srcs, size_t nsrcs,
		  const uint32_t *dsts, size_t ndsts, unsigned count,
		  unsigned timeout_ms, struct ftsw_ping_result *res,
		  struct ftsw_err *err);
void ftsw_ping_result_free(struct ftsw_ping_result *res);

/* Per-port counters of the fabric, indexed by (switch, port). */
struct ftsw_lab_counters {
	uint32_t nswitches;
	unsigned maxports;
	uint64_t *tx;		/* tx[sw * (maxports + 1) + port] packets, VL15 not */
	uint64_t *rx;
	uint64_t drops;		/* fabric-wide drops, every reason */
	/* lossless mode: every port's and VL's, summed */
	uint64_t hoq_discards, life_discards;
	uint64_t in_wait_ns, out_wait_ns;
};

int ftsw_lab_counters(struct ftsw_lab *lab, struct ftsw_lab_counters *c,
		      struct ftsw_err *err);
void ftsw_lab_counters_free(struct ftsw_lab_counters *c);

/*
 * Traffic patterns, the analyzer's (ftsw_pattern_make, as `ftsw analyze
 * -p` takes them), over ranks placed by the analyzer's node order
 * (ftsw_order_make); also
 *   all2all, cps  every shift 1..N-1, one stage each (analyzer "shift")
 * A random pattern or order naming no seed gets `seed`.
 */
struct ftsw_lab_traffic_opts {
	const char *pattern;
	const char *order;	/* "topology" (default), "random", ... */
	uint64_t seed;
	unsigned packets;	/* UDP packets per flow per stage (default 10) */
	unsigned size;		/* UDP payload bytes (0: 64, 1400 if shaped) */
	unsigned duration_ms;	/* shaped lab: sending time per stage */
	unsigned max_stages;	/* 0: all */
	/*
	 * Failure during traffic: cable fail_a - fail_b fails before round
	 * fail_at of every stage's packets; losses are reported for the flows
	 * whose path crossed it and for the others. pps paces the sending
	 * (packets per second, all flows together; 0: as fast as possible).
	 */
	const char *fail_a, *fail_b;
	unsigned fail_at;
	unsigned pps;
	/*
	 * Shaped lab: each round sends one datagram per sending host, to one
	 * of its flows drawn at random (uniform), instead of one per flow:
	 * on all2all, uniform traffic as ftsw sim -p uniform offers it.
	 */
	bool random_dst;
	/* stages done of the pattern's (what "stage"); NULL: quiet */
	ftsw_progress_fn progress;
	void *progress_arg;
};

/* A flow's throughput on a shaped lab, in Mbit/s of fabric frames. */
struct ftsw_lab_flow_rate {
	unsigned stage;
	uint32_t src, dst;	/* hosts */
	/* flows on its busiest shaped link (0: none; -1: several paths) */
	double share;
	uint32_t hot_sw;	/* that link, when share > 0 */
	unsigned hot_port;
	double offered, mbps;	/* what it sent, what arrived in the window */
};

/* A switch port: the model's prediction beside the kernel's count. */
struct ftsw_lab_port_load {
	uint32_t sw;
	unsigned port;
	double pred;		/* packets predicted (count mode) */
	double flows;		/* flows crossing it, summed over the stages */
	uint64_t meas;		/* packets it sent */
};

/* One stage that carried flows. */
struct ftsw_lab_traffic_stage {
	unsigned stage;		/* in the pattern */
	char name[48];		/* the pattern's name for it */
	uint32_t nflows;
	uint64_t sent, received;
	double max_flows;	/* flows on its busiest port */
	size_t first_rate;	/* rate mode: its flows are rates[first_rate..] */
	/*
	 * --fail: when the cable failed, in ms into the stage (-1: it did
	 * not), the flows whose path crossed it, their lost packets (in all,
	 * at most per flow) and the other flows' lost packets.
	 */
	double fail_ms;
	uint64_t crossed, crossed_lost, crossed_max_lost, other_lost;
};

/*
 * What `lab traffic` measured against what the model predicted. Filled by
 * ftsw_lab_traffic(); its arrays are the library's (malloc), released by
 * ftsw_lab_traffic_result_free().
 */
struct ftsw_lab_traffic_result {
	char pattern_spec[300];	/* the analyzer's -p and --order */
	char order_spec[300];
	unsigned pattern_stages;	/* the pattern's stages */
	bool rate_mode;		/* shaped lab: throughput, not counts */
	bool multipath;		/* several LIDs per host: totals only */
	bool exact;		/* count mode: every port as predicted */
	double rate_mbps;	/* shaped lab: per fabric link */
	unsigned duration_ms, window_ms, size, packets;
	uint64_t sent, lost, drops;
	/*
	 * Lossless lab: lifetime discards and the time heads waited, every
	 * port and VL, during the run (lossless says whether it was one).
	 */
	bool lossless;
	uint64_t hoq_discards, life_discards;
	uint64_t in_wait_ns, out_wait_ns;
	double max_flows;	/* busiest port's flows in one stage */
	double hot_spot_degree;
	uint64_t undelivered;	/* flows the model has no path for */
	char first_failure[160];
	uint64_t sender_bound;	/* flows that offered less than their share */
	struct ftsw_lab_traffic_stage *stages;
	size_t nstages;
	struct ftsw_lab_flow_rate *rates;	/* rate mode, every stage's */
	size_t nrates;
	struct ftsw_lab_port_load *ports;	/* busiest first */
	uint64_t nports;
	uint64_t mismatches;	/* ports not as predicted */
	uint64_t tx_measured;
	double tx_predicted;
	/* packets each port sent: tx[sw * (maxports + 1) + port]; received:
	 * rx[] alike (an edge port receives what its host sends) */
	uint64_t *tx, *rx;
	uint32_t nswitches;
	unsigned maxports;
};

/*
 * Run a pattern on the lab and compare. 0: model == reality; 1: a port's
 * count differs (never with several paths or --fail); -1: error (err).
 * res is filled in every case (empty on error).
 */
int ftsw_lab_traffic(struct ftsw_lab *lab, const struct ftsw_lab_traffic_opts *o,
		     struct ftsw_lab_traffic_result *res, struct ftsw_err *err);
void ftsw_lab_traffic_result_free(struct ftsw_lab_traffic_result *res);

/* One hop of a traced path: the port a switch sends on. */
struct ftsw_lab_hop {
	uint32_t sw;
	unsigned port;
	uint64_t tx_delta;	/* packets it sent during the probes */
};

/* The path to one of the destination's LIDs. */
struct ftsw_lab_trace_path {
	uint32_t dlid;
	int status;		/* 0: delivered; else ftsw_trace()'s error:
				 * -1 no route, -2 loop, -3 dead port,
				 * other: misdelivered */
	unsigned nhops;
	struct ftsw_lab_hop *hops;	/* into the result's hops */
	uint64_t min_delta;	/* fewest packets counted on one hop */
	bool confirmed;		/* delivered and every hop saw the probes */
};

struct ftsw_lab_trace_result {
	uint32_t src, dst;
	unsigned probes;
	uint64_t replies;
	unsigned npaths;	/* 2^LMC */
	struct ftsw_lab_trace_path *paths;
	struct ftsw_lab_hop *hops;	/* storage of every path's hops */
};

/*
 * Trace SRC -> DST: the path to each of DST's LIDs from the kernel's
 * tables, then `probes` echo requests whose counters must show on every
 * hop.
 */
int ftsw_lab_trace(struct ftsw_lab *lab, uint32_t src, uint32_t dst,
		   unsigned probes, struct ftsw_lab_trace_result *res,
		   struct ftsw_err *err);
void ftsw_lab_trace_result_free(struct ftsw_lab_trace_result *res);

/* What `lab status` shows beyond the lab's description. */
struct ftsw_lab_status {
	struct ftsw_fabric_info fabric;
	uint64_t ports, ports_edge, ports_down;
	uint64_t drops;		/* every reason */
};

int ftsw_lab_status(struct ftsw_lab *lab, struct ftsw_lab_status *st,
		    struct ftsw_err *err);

/* A socket (AF_INET, type, proto) created inside host h's namespace. */
int ftsw_lab_host_socket(struct ftsw_lab *lab, uint32_t h, int type, int proto,
			 struct ftsw_err *err);
/* Raise the open files limit to its hard maximum (one socket per host). */
void ftsw_lab_raise_nofile(void);

/* ------------------------------------------------------------ lossless */

/*
 * One switch input buffer (port, VL) of a lossless lab, as the kernel
 * reports it: whether its head packet waits for an output (port, VL) that
 * has no room, and whether the buffer itself is full.
 */
struct ftsw_lab_buf {
	uint32_t sw;		/* kernel switch id = topology switch index */
	uint8_t port, vl;
	uint8_t wait_port;	/* the output the head waits for (0: none) */
	uint8_t wait_vl;	/* its VL */
	bool full;		/* no room for another frame */
	uint64_t waited_ns;	/* how long the head has waited */
	uint32_t bytes, size;	/* occupancy and capacity */
};

/* A cycle of full buffers waiting on each other (lab_waits.c). */
struct ftsw_lab_cycle {
	struct ftsw_sim_wait *bufs;	/* sw index, in_port, vl, out_port */
	unsigned n;
	int cdg;		/* ftsw_sim_cycle_check: 1 a cycle of the
				 * routing's CDG, 0 not (why), -1 unchecked */
	char why[160];
};

struct ftsw_lab_cycles {
	struct ftsw_lab_cycle *v;
	size_t n, cap;
};

/*
 * The cycles among v's buffers: buffer A depends on B when A is full and
 * its head waits for the output whose cable leads to B (same VL as the
 * wait names), and B is full and waiting too. Each cycle is listed once,
 * from its lowest (switch, port, VL), in the order of the waits. Sorts v.
 */
int ftsw_lab_wait_cycles(const struct ftsw_topo *t, struct ftsw_lab_buf *v,
			 size_t n, struct ftsw_lab_cycles *cs,
			 struct ftsw_err *err);
/*
 * Input buffer (pi's port, VL vl) as the kernel reported it (pi->ll.vl[vl]):
 * what its head waits for and how long, its occupancy, whether it is full.
 */
void ftsw_lab_buf_of(const struct ftsw_port_info *pi, unsigned vl,
		     struct ftsw_lab_buf *b);
/* Check every cycle against the routing's CDG on `vls` VLs (0: nvls). */
void ftsw_lab_cycles_check(const struct ftsw_routing *r,
			   struct ftsw_lab_cycles *cs, unsigned vls);
void ftsw_lab_cycles_free(struct ftsw_lab_cycles *cs);

/*
 * The lab's view (`lab waits`): every switch input buffer whose head has
 * waited at least min_wait_ns, read from the kernel; "full" is no room for
 * a frame of the hosts' MTU (1500 + 24 bytes, FTSW_LAB_FULL_BYTES rounded
 * to credit blocks). The cycles among them, each checked against the
 * routing's CDG: the kernel's LFTs read back, with the SLs of the lab's
 * engine when its tables are the kernel's (else every path counts on
 * every VL: exact with one VL; sls_known says which).
 */
#define FTSW_LAB_FULL_BYTES	1536	/* 24 blocks: a 1524-byte frame */

struct ftsw_lab_waits {
	struct ftsw_lab_buf *bufs;	/* waiting buffers, sorted */
	size_t nbufs;
	uint64_t buffers;	/* input buffers read */
	uint64_t hoq_discards, life_discards;	/* every port, every VL */
	struct ftsw_lab_cycles cycles;
	bool sls_known;
};

int ftsw_lab_waits(struct ftsw_lab *lab, uint64_t min_wait_ns,
		   struct ftsw_lab_waits *w, struct ftsw_err *err);
void ftsw_lab_waits_free(struct ftsw_lab_waits *w);

#pragma GCC visibility pop

#endif
