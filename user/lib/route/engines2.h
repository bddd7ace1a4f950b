/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engines for arbitrary topologies (sssp, dfsssp), limited multipath on
 * XGFTs (shift1, disjoint, random, umulti) and oblivious single-path
 * routing on FT(m, n) (osrm2, osrm3, mlid, wsr). See
 * Documentation/engines-arbitrary.md.
 */
#ifndef LIBFTSW_ENGINES2_H
#define LIBFTSW_ENGINES2_H

#include "route/routing.h"

/* Engine entry points (struct ftsw_engine.route). */
int ftsw_route_sssp(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_dfsssp(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_dfsssp_strongest(const struct ftsw_topo *t,
				const struct ftsw_route_opts *o,
				struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_dfsssp_first(const struct ftsw_topo *t,
			    const struct ftsw_route_opts *o,
			    struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_shift1(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_disjoint(const struct ftsw_topo *t,
			const struct ftsw_route_opts *o,
			struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_random(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_umulti(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_osrm2(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_osrm3(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_mlid(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_wsr(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		   struct ftsw_routing *r, struct ftsw_err *err);

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
 * Random topology for the virtual-layer experiments (paper 001, Fig. 9):
 * nsw switches of `ports` ports, hosts_per_sw hosts on each, `links`
 * random switch-to-switch links (a random spanning tree first, so the
 * fabric is connected, then uniformly random pairs of switches with free
 * ports; no self links, parallel links allowed).
 */
struct ftsw_topo *ftsw_topo_gen_random(unsigned nsw, unsigned ports,
				       unsigned hosts_per_sw, unsigned links,
				       uint64_t seed, struct ftsw_err *err);

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

#endif
