/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw routing: the LID plan, the routing result and the engine
 * interface. Every engine (dmodk, dmodc, minhop, updn, and later sssp,
 * dfsssp, multipath, osrm, ...) fills the same struct ftsw_routing, which
 * the validator, the analyzer, the OpenSM dump writer and the emulator
 * upload consume.
 *
 * LIDs (the addressing plan, Documentation/design.md): host n (topology
 * order) owns the 2^lmc LIDs starting at (n + 1) << lmc; switch i owns
 * LID ((nhosts + 1) << lmc) + i.
 * The unicast space ends at 0xBFFF; assignment fails clearly beyond it
 * unless extended LIDs are asked for (analysis-only runs of fabrics larger
 * than InfiniBand can address, e.g. 65,536 hosts).
 *
 * A routing (ftsw_route, ftsw_route_make, ftsw_lfts_read, ftsw_routing_new)
 * is the caller's, freed by ftsw_routing_free; it points at its topology
 * without owning it (free the routing first). The checker and the tracer
 * only read it: threads may share it.
 */
#ifndef LIBFTSW_ROUTING_H
#define LIBFTSW_ROUTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topo/topology.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_LID_MAX		0xBFFF	/* last unicast LID */
#define FTSW_LID_EXT_MAX	0xFFFFFF
#define FTSW_LMC_MAX		7
#define FTSW_PORT_NONE		255	/* LFT entry: no route */
#define FTSW_OFFSET_ANY		255	/* policy: spread over allowed offsets */

/* Per-source path policy, applied by the source's edge port. */
struct ftsw_path_policy {
	uint64_t allowed[2];	/* bitmap of allowed LMC offsets 0..127 */
	uint8_t fixed_offset;	/* FTSW_OFFSET_ANY, or the one offset used */
};

/* What an engine promises; `ftsw route check` verifies the promises. */
enum ftsw_routing_flags {
	FTSW_RT_MINIMAL = 1u << 0,	/* every path shortest in hops */
	FTSW_RT_UPDOWN = 1u << 1,	/* every path up*, down* by rank[] */
	FTSW_RT_SWITCH_LIDS = 1u << 2,	/* switch LIDs are routed too */
	/*
	 * Engine flag (not kept in the routing): the engine sets every LFT
	 * byte itself, calling ftsw_routing_init_lfts() or filling each row,
	 * so ftsw_route() hands it uninitialised tables.
	 */
	FTSW_ENGINE_INITS_LFTS = 1u << 16,
};

/*
 * Adaptive routing groups (Documentation/congestion.md, "Adaptive
 * routing"; routing.md): per switch and LID, a set of allowed output
 * ports beside the LFT's static port, which the set always holds; the
 * switch sends each packet (or flowlet) to the least loaded of them.
 * Sets are shared: grp[sw * lft_size + lid] is 0 (no group: the static
 * port only) or the index of a set, bit p of sets[g][p / 64] = port p
 * (sets[0] is unused). Read with ftsw_ar_ports().
 */
struct ftsw_ar {
	uint16_t *grp;
	uint64_t (*sets)[4];
	uint32_t nsets, cap;	/* sets used (0 included), allocated */
	uint64_t entries;	/* (switch, LID) entries with a group */
};

#define FTSW_AR_MAX_SETS	65535

struct ftsw_routing {
	const struct ftsw_topo *topo;	/* not owned */
	char engine[32];
	unsigned flags;			/* enum ftsw_routing_flags */
	uint8_t lmc;
	uint8_t nvls;			/* virtual layers used (>= 1) */
	uint32_t nswitches, nhosts;
	uint32_t max_lid;		/* highest LID assigned */
	size_t lft_size;		/* bytes per LFT = max_lid + 1 */
	/* lft[sw * lft_size + lid] = output port (1..254) or FTSW_PORT_NONE */
	uint8_t *lft;
	/* policy[host]: allowed offsets (default all), fixed offset */
	struct ftsw_path_policy *policy;
	/*
	 * Optional SL per (source, destination) host pair:
	 * sl[src * nhosts + dst]; NULL means SL 0 everywhere. VL = SL.
	 */
	uint8_t *sl;
	/* Optional switch ranks used for up/down (rank[sw], 0 = leaves). */
	int *rank;
	bool rank_from_top;		/* rank 0 = top (updn) instead of leaves */
	char warning[384];		/* non-fatal problems (unroutable pairs) */
	char info[256];			/* what the engine did (layers used) */
	/*
	 * Ordered (source host, destination host) pairs, source != destination,
	 * for which some LID of the destination is not delivered from the
	 * source's switch by the tables (counted by ftsw_route() after every
	 * engine, the same way for all; the warning then names the first).
	 */
	uint64_t unroutable_pairs;
	/* bytes of warning that are that count's note: counting again
	 * replaces it instead of repeating it */
	size_t warning_unr;
	/*
	 * Roots the engine ranked the fabric from (updn), NULL/0 for engines
	 * without roots, and why these: "--roots" or the default rule.
	 */
	uint32_t *roots;
	uint32_t nroots;
	char roots_why[192];
	/* adaptive routing groups, NULL: none (ftsw_route_adaptive) */
	struct ftsw_ar *ar;
};

/*
 * Count r->unroutable_pairs from the tables (see above) and, when there
 * are any, write the warning naming the first pair. Returns the count.
 */
uint64_t ftsw_routing_count_unroutable(struct ftsw_routing *r,
				       unsigned threads);

/* LID plan. */
static inline uint32_t ftsw_host_lid(const struct ftsw_routing *r, uint32_t host)
{
	return (host + 1) << r->lmc;
}

static inline uint32_t ftsw_switch_lid(const struct ftsw_routing *r, uint32_t sw)
{
	return ((r->nhosts + 1) << r->lmc) + sw;
}

static inline uint8_t *ftsw_lft(const struct ftsw_routing *r, uint32_t sw)
{
	return r->lft + (size_t)sw * r->lft_size;
}

/* LID owner: returns FTSW_HOST / FTSW_SWITCH and its index, or 0 if none. */
int ftsw_lid_owner(const struct ftsw_routing *r, uint32_t lid, uint32_t *idx,
		   unsigned *offset);

/*
 * Allocate a routing for t (LFTs all FTSW_PORT_NONE, default policies),
 * checking the LID space. extended allows LIDs past 0xBFFF.
 */
struct ftsw_routing *ftsw_routing_new(const struct ftsw_topo *t, unsigned lmc,
				      bool extended, struct ftsw_err *err);
void ftsw_routing_free(struct ftsw_routing *r);
/* Set every LFT entry to FTSW_PORT_NONE (in parallel). */
void ftsw_routing_init_lfts(struct ftsw_routing *r, unsigned threads);
/*
 * Port 0 at each switch's own LID in its own table: the switch's agents,
 * as a subnet manager programs a switch, so LID-routed SMPs and PMA
 * queries reach it (Documentation/sm.md). The engines leave that entry
 * FTSW_PORT_NONE; the tables are given this before they go to the kernel.
 */
void ftsw_routing_own_lids(struct ftsw_routing *r);
/* Largest LID this topology needs at this LMC (hosts and switches). */
uint64_t ftsw_lid_need(const struct ftsw_topo *t, unsigned lmc);

/* Engine interface. */
struct ftsw_route_opts {
	unsigned lmc;		/* LMC: 2^lmc LIDs, i.e. paths, per host */
	unsigned threads;	/* 0 = all online CPUs */
	uint64_t seed;		/* for engines with random choices */
	const uint32_t *roots;	/* switch indices (updn roots), NULL = default */
	size_t nroots;
	bool updown_cost;	/* dmodc: strict up-down cost variant */
	bool no_switch_lids;	/* don't route switch LIDs */
	bool extended_lids;	/* allow LIDs past 0xBFFF (analysis only) */
	unsigned paths;		/* multipath engines: K paths (0 = 2^lmc) */
	unsigned max_vls;	/* dfsssp: virtual layers allowed (0 = 8) */
	bool adaptive;		/* ftsw_route_make: adaptive routing groups */
};

struct ftsw_engine {
	const char *name;
	const char *summary;
	const char *paper;	/* reference, for documentation and help */
	unsigned flags;		/* what the engine promises (ftsw_routing_flags) */
	/* Fill r (allocated by the caller with ftsw_routing_new). */
	int (*route)(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err);
};

const struct ftsw_engine *ftsw_engine_find(const char *name);
/* The engine table: all engines, *n of them, in listing order. */
const struct ftsw_engine *ftsw_engines(size_t *n);

/* Allocate a routing and run engine `name` on t. */
struct ftsw_routing *ftsw_route(const char *name, const struct ftsw_topo *t,
				const struct ftsw_route_opts *o,
				struct ftsw_err *err);

/*
 * What a command's words ask of a routing: an engine (NULL: the default
 * for the topology) or an OpenSM LFT dump to read instead (-r), the LMC
 * as given or the smallest the engine accepts (from o.lmc up), and
 * whether that smallest LMC may use LIDs past 0xBFFF (extended LIDs,
 * analysis only: no kernel takes them).
 */
struct ftsw_route_req {
	const char *engine;	/* NULL: ftsw_engine_default() */
	const char *lfts;	/* an LFT dump to read instead of an engine */
	const char *groups;	/* adaptive groups to read with lfts */
	struct ftsw_route_opts o;	/* o.lmc: as given, or where to start */
	bool lmc_given;		/* o.lmc exactly, else the smallest from it */
	bool extend_lids;	/* the smallest LMC may take extended LIDs */
};

/*
 * The routing a command asks for (route, analyze, sim, lab up, the fabric
 * manager): the tables read from q->lfts (and their adaptive groups from
 * q->groups), or engine q->engine at the LMC q says (r->lmc says which),
 * with adaptive groups when q->o.adaptive (ftsw_route_adaptive). On
 * failure err holds the engine's complaint at q->o.lmc.
 */
struct ftsw_routing *ftsw_route_make(const struct ftsw_topo *t,
				     const struct ftsw_route_req *q,
				     struct ftsw_err *err);

/*
 * The engine for a topology when none is named: dmodk on a complete PGFT,
 * dmodc on a degraded one, else dfsssp (updn if it is not built in).
 */
const char *ftsw_engine_default(const struct ftsw_topo *t);

/*
 * Adaptive routing groups for r's tables (route/adaptive.c): for every
 * switch and host LID, the ports whose next switch's static path to the
 * LID is as long as the static next switch's and that go the same way
 * (up or down, by the engine's ranks) as the static port; for engines
 * that route up*down* (dmodk, dmodc, updn, the multipath ones) that is
 * every minimal up-port of a fat-tree. For the other engines a port
 * joins only when the channel dependencies it adds keep its VL's graph
 * acyclic (a greedy filter, upstream first; r->info counts those kept
 * and refused); tables that are not deadlock-free already are refused.
 * The checker then proves every path the groups allow. Extended LIDs are
 * refused (16-bit set ids per entry, like the kernel's). 0 or -1.
 */
int ftsw_route_adaptive(struct ftsw_routing *r, unsigned threads,
			struct ftsw_err *err);

/* Allocate r->ar, empty. 0 or -1 (out of memory). */
int ftsw_ar_alloc(struct ftsw_routing *r, struct ftsw_err *err);
void ftsw_ar_free(struct ftsw_ar *ar);
/*
 * Give (sw, lid) the group set[4] (the static port is added): 0, or -1
 * when more than FTSW_AR_MAX_SETS distinct sets are needed. A set of the
 * static port alone clears the group.
 */
int ftsw_ar_set(struct ftsw_routing *r, uint32_t sw, uint32_t lid,
		const uint64_t set[4], struct ftsw_err *err);
/*
 * The allowed ports of (sw, lid), ascending, into ports[255]: the
 * group's, or the static port alone (0 ports when it has none).
 */
unsigned ftsw_ar_ports(const struct ftsw_routing *r, uint32_t sw,
		       uint32_t lid, uint8_t *ports);

static inline bool ftsw_ar_has(const struct ftsw_routing *r, uint32_t sw,
			       uint32_t lid)
{
	return r->ar && r->ar->grp[(size_t)sw * r->lft_size + lid];
}

/*
 * The groups as text (ftsw's own format, routing.md): a "switch 0xGUID
 * 'desc'" line per switch with groups, then one line per run of LIDs with
 * the same group, "0xLID[-0xLID] P,P,...". Reading matches switches by
 * GUID, takes LIDs of r's plan and checks every port is one of the
 * switch's and the static port is in its set (FILE:LINE on refusal).
 */
int ftsw_ar_write(const struct ftsw_routing *r, const char *path,
		  struct ftsw_err *err);
int ftsw_ar_write_file(const struct ftsw_routing *r, FILE *f);
int ftsw_ar_read(struct ftsw_routing *r, const char *path,
		 struct ftsw_err *err);

/*
 * Dmodc's closed-form choice, eqs. (3) and (4) of paper 004 (offset 0):
 * group index floor(d / pi) mod ngroups, port index
 * floor(d / (pi * ngroups)) mod gsize; an LMC offset is added to
 * floor(d / pi) first.
 */
void ftsw_dmodc_select(uint64_t d, uint64_t pi, unsigned ngroups,
		       unsigned gsize, unsigned offset, unsigned *gi,
		       unsigned *pidx);

/*
 * Shared helpers for engines: route every switch LID by BFS over switches
 * (shortest paths; with height != NULL only up*down* paths, where a hop
 * u -> v goes up when height[v] > height[u], ties broken by switch index).
 */
int ftsw_route_switch_lids(const struct ftsw_topo *t, struct ftsw_routing *r,
			   const int *height, unsigned threads,
			   struct ftsw_err *err);
unsigned ftsw_threads(unsigned asked);
/* Run fn(i, arg) for i in [0, n) over threads workers (dynamic chunks). */
void ftsw_parallel_for(unsigned threads, size_t n,
		       void (*fn)(size_t i, void *arg), void *arg);

/*
 * Validation (`ftsw route check`). Traces every (source host, destination
 * LID) path with the kernel's forwarding semantics.
 */
struct ftsw_check_opts {
	bool minimal;		/* check shortest paths (default: engine flags) */
	bool updown;		/* check up*down* (default: engine flags) */
	bool cdg;		/* per-VL channel dependency graph acyclic */
	bool switch_lids;	/* also trace to switch LIDs */
	unsigned max_report;	/* problems listed in detail (0 = 10) */
	ftsw_progress_fn progress;	/* LIDs walked (NULL: quiet) */
	void *progress_arg;
	unsigned threads;	/* 0 = all CPUs; results identical for any */
	/*
	 * Also walk every (switch, LID) entry that is set, used by a host's
	 * path or not: each must deliver (route check -i on a dump).
	 */
	bool all_entries;
	/*
	 * Data VLs the SLs are folded onto for the CDG, VL = SL mod vls, as
	 * a fabric with fewer VLs than the routing's layers maps them (ftsw
	 * sim --vls); 0: the routing's own, r->nvls.
	 */
	unsigned vls;
};

struct ftsw_check_result {
	uint64_t pairs, delivered;	/* (source host, destination LID) */
	uint64_t host_pairs, host_delivered;	/* of them: to a host */
	uint64_t no_route, loops, misdelivered, dead_port;
	uint64_t non_minimal, updown_violations;
	uint64_t max_hops;
	unsigned cdg_cyclic_vls;	/* number of VLs with a CDG cycle */
	uint64_t bad_entries;		/* all_entries: entries that fail */
	/*
	 * Adaptive groups (r->ar): (switch, LID) entries a checked path may
	 * reach with a group, and group ports that fail (loop, dead port,
	 * misdelivery, a longer path when minimal, up after down when
	 * updown); the groups' paths are in the CDG.
	 */
	uint64_t ar_entries, ar_bad;
	bool ok;
	char *report;			/* text, one problem per line (malloc) */
};

int ftsw_routing_check(const struct ftsw_routing *r,
		       const struct ftsw_check_opts *o,
		       struct ftsw_check_result *res, struct ftsw_err *err);
void ftsw_check_result_free(struct ftsw_check_result *res);

/*
 * Trace one path from host src to destination LID: fills ports[] with the
 * (switch index, output port) pairs, returns the hop count (switches),
 * or -1 on no route, -2 on loop / hop limit, -3 dead port, -4 misdelivery.
 */
int ftsw_trace(const struct ftsw_routing *r, uint32_t src_host, uint32_t dlid,
	       uint32_t *sw_path, uint8_t *port_path, unsigned max);

/*
 * OpenSM LFT dump format (opensm-lfts.dump): one "Unicast lids [0x0-0xN] of
 * switch Lid L guid 0x... (desc):" header per switch, then "0xLID PORT :
 * (kind portguid ...)" lines. Switches are matched to the topology by GUID.
 * Reading takes LIDs 1..FTSW_LID_MAX (..FTSW_LID_EXT_MAX when extended), a
 * switch's own LID as port 0 in its own table (or absent), a regular file
 * of at most FTSW_LFTS_MAX_FILE bytes with lines of FTSW_LFTS_MAX_LINE.
 */
#define FTSW_LFTS_MAX_LINE	4096
#define FTSW_LFTS_MAX_FILE	(64ULL << 30)
int ftsw_lfts_write(const struct ftsw_routing *r, const char *path,
		    struct ftsw_err *err);
int ftsw_lfts_write_file(const struct ftsw_routing *r, FILE *f);
struct ftsw_routing *ftsw_lfts_read(const struct ftsw_topo *t, const char *path,
				    unsigned lmc, bool extended,
				    struct ftsw_err *err);

/*
 * SSSP tables to every host LID (paper 001, Alg. 1) on any topology;
 * switch LIDs by shortest paths. Leaves r->nvls / r->sl alone.
 */
int ftsw_sssp_tables(const struct ftsw_topo *t, struct ftsw_routing *r,
		     bool switch_lids, unsigned threads, struct ftsw_err *err);

/* DFSSSP virtual-layer assignment (paper 001, §IV, Alg. 2). */
enum ftsw_vl_heuristic {
	FTSW_VL_WEAKEST = 0,	/* edge induced by the fewest paths (default) */
	FTSW_VL_STRONGEST,	/* edge induced by the most paths */
	FTSW_VL_FIRST,		/* first edge of the cycle as discovered */
};

struct ftsw_dfsssp_opts {
	enum ftsw_vl_heuristic heuristic;
	unsigned max_vls;	/* 1..15, 0 = 8 */
	bool no_balance;	/* keep paths on the layers they need */
};

struct ftsw_dfsssp_stats {
	unsigned layers_needed;		/* non-empty layers after breaking */
	unsigned layers_used;		/* after balancing (= r->nvls) */
	uint64_t paths;			/* (source switch, destination host) */
	uint64_t channels;		/* switch-to-switch channels used */
	uint64_t dependencies;		/* distinct CDG edges */
	uint64_t path_deps;		/* sum over paths of their CDG edges */
	uint64_t cycles_broken;
	uint64_t cdg_bytes;		/* CDG bookkeeping memory at its peak */
	double seconds;			/* layering time */
};

int ftsw_heuristic_parse(const char *s, enum ftsw_vl_heuristic *h,
			 struct ftsw_err *err);
const char *ftsw_heuristic_name(enum ftsw_vl_heuristic h);

/*
 * Assign every (source host, destination host) path of r (any engine's
 * destination-based tables) to a virtual layer so that each layer's
 * channel dependency graph is acyclic: fills r->sl and r->nvls.
 */
int ftsw_dfsssp_layers(const struct ftsw_topo *t, struct ftsw_routing *r,
		       const struct ftsw_dfsssp_opts *o,
		       struct ftsw_dfsssp_stats *st, struct ftsw_err *err);

/*
 * Limited multipath on XGFTs (paper 000, §4.2): the sequence of path
 * indices (0..X-1, Path 0 = leftmost top switch) a heuristic selects for
 * destination host d and NCA level k (1..h). Returns the number written
 * (min(K, X)); random uses seed.
 */
enum ftsw_lmp_kind { FTSW_LMP_SHIFT1, FTSW_LMP_DISJOINT, FTSW_LMP_RANDOM,
		     FTSW_LMP_UMULTI };
unsigned ftsw_lmp_select(const struct ftsw_pgft *g, enum ftsw_lmp_kind kind,
			 uint64_t d, unsigned k, unsigned K, uint64_t seed,
			 uint32_t *out);
/* d-mod-k path index of destination d at NCA level k (paper 000, §3.3). */
uint64_t ftsw_dmodk_path_index(const struct ftsw_pgft *g, uint64_t d,
			       unsigned k);

#pragma GCC visibility pop

#endif
