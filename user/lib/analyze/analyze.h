/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw analysis: path tracing with the kernel's forwarding semantics,
 * traffic patterns (papers 000, 001, 002, 003), node orders, link loads and
 * the metrics of the fat-tree routing literature (MLOAD, baseload, ML(TM),
 * PERF, hot-spot degree, effective bisection bandwidth, exact oblivious
 * performance ratio); pictures in analyze/picture.h. Documentation/analysis.md explains
 * every definition and where it is exact.
 *
 * Directed links are named by the port record that transmits on them:
 * link id = topo->nodes[node].first_port + port - 1, so a load array has
 * topo->nports entries. Host ports are included (host -> leaf), as are
 * switch ports towards hosts (leaf -> host).
 *
 * Every result with a _free partner is the caller's to free with it. The
 * calls only read topologies and routings: they may run side by side.
 */
#ifndef LIBFTSW_ANALYZE_H
#define LIBFTSW_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "route/routing.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

/* ------------------------------------------------------------ tracing */

#define FTSW_HOP_LIMIT	64	/* the kernel's default fabric hop limit */

enum ftsw_trace_status {
	FTSW_TRACE_OK = 0,
	FTSW_TRACE_NO_ROUTE = -1,	/* LFT entry 255 / 0, or port past nports */
	FTSW_TRACE_LOOP = -2,		/* hop limit exceeded */
	FTSW_TRACE_DEAD = -3,		/* uncabled port, host not attached */
	FTSW_TRACE_MISDELIVERED = -4,	/* reached a host not owning the DLID */
	FTSW_TRACE_BAD_OFFSET = -5,	/* offset not allowed by the policy */
};

const char *ftsw_trace_status_str(int status);

/* One hop: the switch (index) and the port it sends the packet out of. */
struct ftsw_hop {
	uint32_t sw;
	uint8_t port;
};

struct ftsw_path {
	int status;		/* enum ftsw_trace_status */
	uint32_t dlid;
	uint8_t offset, sl;
	unsigned nhops;		/* switches traversed (hops[] entries) */
	struct ftsw_hop hops[FTSW_HOP_LIMIT + 2];
};

/*
 * The LMC offsets the source's edge port spreads flows to dst over, with
 * the fraction of flows each receives (the kernel hashes flows uniformly
 * over its offset list): the fixed offset if the policy has one, else every
 * allowed offset below 2^lmc. Returns the number of offsets (0 = none).
 */
unsigned ftsw_path_offsets(const struct ftsw_routing *r, uint32_t src,
			   uint8_t *offsets, double *weights);

/*
 * Trace the packet host src sends to host dst at LMC offset `offset`
 * (FTSW_OFFSET_ANY: the policy's first allowed offset), exactly as the
 * kernel forwards it: DLID = base LID of dst + offset, leaf LFT lookup,
 * LFT lookup per switch, hop count limited to hop_limit link hops
 * (0 = FTSW_HOP_LIMIT), delivery only if the host reached owns the DLID.
 * Fills p and returns p->status.
 */
int ftsw_trace_path(const struct ftsw_routing *r, uint32_t src, uint32_t dst,
		    unsigned offset, unsigned hop_limit, struct ftsw_path *p);

/* Link id of (switch index, port) and of a host's uplink. */
static inline uint32_t ftsw_link_id(const struct ftsw_topo *t, uint32_t node,
				    unsigned port)
{
	return t->nodes[node].first_port + port - 1;
}

/* ------------------------------------------------------ traffic matrix */

struct ftsw_flow {
	uint32_t src, dst;	/* host indices (after node order) */
	double amount;
};

/*
 * A traffic matrix over n endpoints: a list of flows (duplicates add up),
 * or, with all_to_all set, every ordered pair s != d with amount a2a.
 */
struct ftsw_tm {
	uint32_t n;
	size_t nflows, cap;
	struct ftsw_flow *f;
	bool all_to_all;
	double a2a;
};

void ftsw_tm_init(struct ftsw_tm *tm, uint32_t n);
void ftsw_tm_free(struct ftsw_tm *tm);
void ftsw_tm_clear(struct ftsw_tm *tm);
int ftsw_tm_add(struct ftsw_tm *tm, uint32_t src, uint32_t dst, double amount);
/* Map ranks to hosts: src/dst := order[src/dst]; n := nhosts. */
void ftsw_tm_apply_order(struct ftsw_tm *tm, const uint32_t *order,
			 uint32_t nhosts);

/* A pattern: one or more stages (permutation sequences have many). */
struct ftsw_pattern {
	char name[64];
	uint32_t n;		/* ranks */
	unsigned nstages;
	struct ftsw_tm *stages;
	char **stage_names;	/* optional, e.g. "pre", "s=3", "2.-1" */
};

void ftsw_pattern_free(struct ftsw_pattern *p);

/*
 * Pattern specifications (also what `ftsw analyze -p` takes):
 *   perm[:SEED]               random permutation (may map i to i)
 *   shift | ring | dissemination | tournament | binomial | binomial-gather
 *   recdbl | rechalv          the collective permutation sequences of
 *                             paper 003 Table 2 (pre/post stages for
 *                             non-powers of two)
 *   shift:S                   one shift stage i -> i + S mod N
 *   topo-recdbl               paper 003 §VI eqs. (3)-(7) (needs a PGFT)
 *   a2a | all-to-all          every ordered pair
 *   all2all | cps             shift (every shift stage: lab traffic's names)
 *   uniform:P[:SEED]          each entry 1 with probability P (002 §5)
 *   cluster:G[:SEED]          random groups of G, all-to-all inside (002 §5)
 *   bisect[:SEED]             random bisection matching, both directions
 *                             (001 §V, ORCS)
 *   file:PATH                 "src dst [amount]" lines, # comments
 * n is the number of ranks; t (may be NULL) is needed by topo-recdbl.
 * 0, or with err set: -EINVAL for a spec refused as such (unknown, a bad
 * argument, out of range for n ranks), -EIO when its file cannot be read
 * or topo-recdbl's topology does not fit, -ENOMEM.
 */
int ftsw_pattern_make(const char *spec, uint32_t n, const struct ftsw_topo *t,
		      struct ftsw_pattern *p, struct ftsw_err *err);
/*
 * What ftsw_pattern_make(spec) would refuse whatever the ranks: an unknown
 * kind, an argument where none is taken, a number that is no number. Also
 * accepted: "uniform" alone (ftsw sim's: each message to a random other
 * host) and "all2all", "cps" (lab traffic's names of shift). 0, or -EINVAL
 * with err. Ranges that depend on the ranks (shift:S, cluster:G) are
 * ftsw_pattern_make's, a file's content ftsw_tm_read's.
 */
int ftsw_pattern_check(const char *spec, struct ftsw_err *err);
/* Pattern is random (resampled per sample) and its seed-free spec kind. */
bool ftsw_pattern_is_random(const char *spec);
/* A traffic file: a regular file, bounded (Documentation/topology.md). */
#define FTSW_TM_MAX_LINE	4096
#define FTSW_TM_MAX_FILE	(1ULL << 30)
int ftsw_tm_read(const char *path, uint32_t n, struct ftsw_tm *tm,
		 struct ftsw_err *err);

/* Random helpers (splitmix64 state). */
void ftsw_shuffle(uint32_t *a, uint32_t n, uint64_t *state);
double ftsw_rand_unit(uint64_t *state);

/* --------------------------------------------------------------- order */

/*
 * Node order: rank -> host index. Specs:
 *   topo | topology           rank i on host i (topology order)
 *   random[:SEED]             seeded random permutation (of a random
 *                             subset of hosts in a partial allocation)
 *   shuffle[:SEED]            the first nranks hosts, ranks shuffled
 *   file:PATH                 one host per line (index or node name), in
 *                             rank order; or "RANK HOST" lines
 * With nranks < nhosts (a partial allocation), the hosts used are the
 * first nranks in topology order ("topo"), a random subset in topology
 * order ("contig-random[:SEED]": random hosts excluded), or the file's.
 */
#define FTSW_ORDER_MAX_LINE	4096
#define FTSW_ORDER_MAX_FILE	(256ULL << 20)
int ftsw_order_make(const char *spec, const struct ftsw_topo *t,
		    uint32_t nranks, uint32_t *order, struct ftsw_err *err);
/* The same grammar, checked without a topology: 0, or -EINVAL with err. */
int ftsw_order_check(const char *spec, struct ftsw_err *err);
/* Number of hosts for `i` congestion-free units, i * prod(w) (003 §V.B). */
uint64_t ftsw_order_cf_unit(const struct ftsw_topo *t);

enum ftsw_order_format {
	FTSW_ORDER_OMPI_RANKFILE,	/* rank R=HOST slot=0 */
	FTSW_ORDER_OMPI_HOSTFILE,	/* HOST slots=1 */
	FTSW_ORDER_MPICH_HOSTFILE,	/* HOST:1 */
	FTSW_ORDER_PLAIN,		/* RANK HOSTINDEX HOSTNAME */
};
int ftsw_order_write(const struct ftsw_topo *t, const uint32_t *order,
		     uint32_t nranks, enum ftsw_order_format fmt,
		     const char *path, struct ftsw_err *err);
const char *ftsw_host_name(const struct ftsw_topo *t, uint32_t host,
			   char *buf, size_t sz);

/* --------------------------------------------------------------- loads */

/*
 * A source's offset list as the kernel holds it (FTSW_ATTR_PORT_OFFSETS):
 * flows hash uniformly over the n entries, so an offset listed twice gets
 * twice the weight.
 */
struct ftsw_offset_list {
	uint8_t n;
	uint8_t off[128];
};

/* Distinct offsets of a list below 2^lmc with weights count / n. */
unsigned ftsw_offsets_weighted(const struct ftsw_offset_list *l, unsigned lmc,
			       uint8_t *offsets, double *weights);

struct ftsw_load_opts {
	unsigned hop_limit;	/* 0 = FTSW_HOP_LIMIT */
	bool count_flows;	/* also fill flows[] (flows per link) */
	/* per source host: the kernel's offset lists instead of r->policy */
	const struct ftsw_offset_list *lists;
	/*
	 * With adaptive groups (r->ar): every path's amount split evenly over
	 * the allowed ports at every switch from the source's leaf on (what
	 * an adaptive fabric spreads without congestion: the static part of
	 * adaptive routing), counting the paths the groups allow.
	 */
	bool adaptive_split;
};

struct ftsw_load_result {
	uint64_t flows, delivered, failed;	/* (src, dst, offset) paths */
	uint64_t fail_status[6];		/* by -status */
	uint64_t path_hist[FTSW_HOP_LIMIT + 2];	/* switches per path */
	double failed_amount;
	char first_failure[160];
	/* adaptive_split: delivered (src, dst, offset) paths and the group
	 * paths they allow, in all and at most per path */
	uint64_t ar_paths, ar_paths_max;
};

/*
 * Per directed link load of tm: load[link] += amount * fraction for every
 * path. load (and flows, when asked) have topo->nports entries and are
 * zeroed first.
 */
int ftsw_link_loads(const struct ftsw_routing *r, const struct ftsw_tm *tm,
		    const struct ftsw_load_opts *o, double *load,
		    double *flows, struct ftsw_load_result *res,
		    struct ftsw_err *err);

/* Per-level link statistics: by the level of the transmitting node. */
struct ftsw_level_stat {
	int from_level, to_level;	/* PGFT level or rank; 0 = host */
	uint64_t links, used;
	double max, sum;
};
#define FTSW_MAX_LEVEL_STATS 32
unsigned ftsw_level_stats(const struct ftsw_topo *t, const double *load,
			  struct ftsw_level_stat *st, unsigned max);

/* Levels of nodes: PGFT level, else 0 for hosts and 1 + rank from leaves. */
void ftsw_node_levels(const struct ftsw_topo *t, int *level);

double ftsw_max_load(const struct ftsw_topo *t, const double *load,
		     bool switch_links_only, uint32_t *argmax);
double ftsw_baseload(const struct ftsw_tm *tm);
/*
 * ML(TM) of paper 000 §4.1 on a complete PGFT / XGFT: the largest traffic
 * into or out of a subtree divided by the links joining it to the rest.
 * *exact is set when OLOAD(TM) = ML(TM) holds (complete PGFT, UMULTI
 * argument); else the value is baseload(TM), a lower bound of OLOAD.
 */
double ftsw_ml_bound(const struct ftsw_topo *t, const struct ftsw_tm *tm,
		     bool *exact);

/* ------------------------------------------------------------ metrics */

/* Mean of samples with the 99% confidence half-width (normal). */
struct ftsw_sampled {
	double mean, half, min, max;
	uint64_t samples;
};

struct ftsw_sample_opts {
	uint64_t first;		/* initial samples (1000 in 000 §5) */
	uint64_t max;		/* give up doubling here */
	double rel;		/* stop when half-width <= rel * mean (0.01) */
	ftsw_progress_fn progress;	/* samples done (NULL: quiet) */
	void *progress_arg;
};

/* Sampling rule of paper 000 §5: value(i, arg) for samples i = 0, 1, ... */
int ftsw_sample(const struct ftsw_sample_opts *o,
		double (*value)(uint64_t i, void *arg), void *arg,
		struct ftsw_sampled *out);

/*
 * Hot-spot degree (paper 003 §II): per stage, the most flows on any
 * link (bundle: on any switch pair); the average over the stages that
 * carry flows (partial allocations leave some empty).
 */
struct ftsw_hsd {
	double avg, max;		/* over stages of the per-stage maximum */
	unsigned nstages;
	double *per_stage;		/* malloc, nstages entries */
};
int ftsw_hot_spot(const struct ftsw_routing *r, const struct ftsw_pattern *p,
		  const uint32_t *order, bool bundle, struct ftsw_hsd *h,
		  struct ftsw_err *err);
/*
 * Most load on one switch pair: parallel cables between two nodes summed
 * (how a model that treats a bundle of p links as one link counts).
 */
double ftsw_max_bundle_load(const struct ftsw_topo *t, const double *load);

/*
 * Effective bisection bandwidth of one traffic matrix (ORCS, 001 §V):
 * each flow's path gets 1 / (most flows on a link of the path); the mean
 * over flows (weighted by the offset fractions for multipath).
 */
double ftsw_ebb(const struct ftsw_routing *r, const struct ftsw_tm *tm,
		double *scratch_flows);

/*
 * Exact oblivious performance ratio (Documentation/analysis.md): for each
 * directed link, the maximum over doubly sub-stochastic TMs of the traffic
 * the link carries, i.e. a maximum (weight) bipartite matching between the
 * sources and destinations routed over it; the maximum over links. It
 * equals PERF(r) when OPTU(TM) = baseload(TM) for every TM (complete PGFT
 * whose every subtree has at least as many up-links as hosts); otherwise it
 * is an upper bound of PERF(r) (exact = false).
 */
struct ftsw_oblivious {
	double ratio;
	bool exact, multipath;
	uint32_t link;			/* a link attaining it */
	uint32_t *witness_src, *witness_dst;	/* matching on that link */
	uint32_t nwitness;
	double seconds;
	char why[160];			/* why exact / not exact */
};
int ftsw_oblivious_ratio(const struct ftsw_routing *r,
			 ftsw_progress_fn progress, void *progress_arg,
			 struct ftsw_oblivious *res, struct ftsw_err *err);
void ftsw_oblivious_free(struct ftsw_oblivious *res);
/* Full bisection test used by the above. */
bool ftsw_full_bisection(const struct ftsw_topo *t, char *why, size_t sz);

/* Matchings (exported for tests). */
/* Max cardinality bipartite matching (Hopcroft-Karp); adj in CSR form. */
uint32_t ftsw_hopcroft_karp(uint32_t nl, uint32_t nr, const uint32_t *start,
			    const uint32_t *adj, uint32_t *match_l);
/* Max weight bipartite matching (Hungarian), dense w[nl * nr] >= 0. */
double ftsw_max_weight_matching(uint32_t nl, uint32_t nr, const double *w,
				uint32_t *match_l);

/* ------------------------------------------------- a pattern's stages */

/* One stage's metrics (paper 000 §4, 003 §II). */
struct ftsw_stage_metrics {
	char name[32];
	size_t flows;		/* flows of the matrix (all-to-all expanded) */
	double mload;		/* most load on a link (MLOAD) */
	double baseload;	/* baseload(TM) */
	double oload;		/* ML(TM) when exact, else baseload */
	double perf;		/* mload / oload (1 when oload is 0) */
	bool exact;		/* oload = OLOAD(TM) */
	bool busy;		/* some path delivered */
};

/*
 * Called after each stage's loads are computed, before its matrix is
 * freed: the matrix (ranks already mapped to hosts), its per-link loads
 * and flow counts (flows with ftsw_load_opts.count_flows, else NULL), its
 * metrics. Return 0 to go on, > 0 to stop after this stage, < 0 to fail
 * (with err set).
 */
typedef int (*ftsw_stage_fn)(unsigned stage, const struct ftsw_tm *tm,
			     const double *load, const double *flows,
			     const struct ftsw_stage_metrics *m, void *arg,
			     struct ftsw_err *err);

struct ftsw_analyze_opts {
	const struct ftsw_load_opts *load;	/* NULL: the routing's policy */
	bool bundle;		/* hot-spot degree per switch pair */
	ftsw_progress_fn progress;	/* stages done (NULL: quiet) */
	void *progress_arg;
	ftsw_stage_fn stage_fn;	/* may be NULL */
	void *arg;
};

/* What `ftsw analyze` and `ftsw lab traffic` report about a pattern. */
struct ftsw_pattern_metrics {
	unsigned nstages;	/* stages analysed */
	struct ftsw_stage_metrics *stages;	/* malloc, nstages */
	double hot_spot_degree;	/* mean over busy stages of their mload */
	double max_mload;	/* of the worst stage */
	unsigned worst_stage;
	double avg_perf, max_perf;
	bool oload_exact;	/* every stage's oload exact */
	struct ftsw_load_result total;	/* summed over the stages */
	double *worst_load;	/* malloc, topo->nports: the worst stage's */
	double seconds;
};

/*
 * Per-stage metrics of pattern p (ranks mapped to hosts by order, as
 * ftsw_order_make gives it) under routing r: link loads, MLOAD, baseload,
 * ML(TM), PERF, the hot-spot degree over the stages and the loads of the
 * worst stage. The stages' matrices are freed as they are done (the
 * stage names stay): p only holds names afterwards. The one computation
 * behind both `ftsw analyze` and the lab's model.
 */
int ftsw_analyze_pattern(const struct ftsw_routing *r, struct ftsw_pattern *p,
			 const uint32_t *order,
			 const struct ftsw_analyze_opts *o,
			 struct ftsw_pattern_metrics *m, struct ftsw_err *err);
void ftsw_pattern_metrics_free(struct ftsw_pattern_metrics *m);

/*
 * A random pattern (ftsw_pattern_is_random) sampled as paper 000 §5 does:
 * sample i uses the pattern's seed + i and, for a random order, its own
 * order seed. The metric is the most load on a link, or with bisect the
 * effective bisection bandwidth (001 §V).
 */
struct ftsw_random_opts {
	const char *pattern;	/* spec, with or without its seed */
	const char *order;	/* order spec */
	uint32_t ranks;
	uint64_t samples;	/* exactly; 0: 1000 doubled to a 1% 99% CI */
	ftsw_progress_fn progress;	/* samples done (NULL: quiet) */
	void *progress_arg;
	bool adaptive_split;	/* ftsw_load_opts.adaptive_split */
};

struct ftsw_random_metrics {
	char kind[128];		/* the pattern without its seed */
	bool ebb;		/* metric: EBB (bisect), else max link load */
	struct ftsw_sampled s;	/* the metric over the samples */
	double avg_baseload, avg_oload, avg_perf;	/* max link load only */
	bool oload_exact;
};

/* 0, -EINVAL for a pattern spec it cannot read, or -1 (err says why). */
int ftsw_analyze_random(const struct ftsw_routing *r,
			const struct ftsw_random_opts *o,
			struct ftsw_random_metrics *m, struct ftsw_err *err);

/* LFT sizes: used entries per switch (not 255), min / max / total. */
struct ftsw_table_stats {
	uint64_t total_entries, used_entries, bytes;
	uint32_t min_used, max_used;
};
void ftsw_table_stats(const struct ftsw_routing *r, struct ftsw_table_stats *s);

#pragma GCC visibility pop

#endif
