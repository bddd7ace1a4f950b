/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generators of switch graphs beyond fat-trees (graphs.c, deimos.c,
 * randtopo.c): the SPEC kinds torus, mesh, kautz, random, dragonfly and
 * deimos of every -t (Documentation/topology.md defines each).
 */
#ifndef LIBFTSW_GRAPHS_H
#define LIBFTSW_GRAPHS_H

#include "topo/topology.h"

/* "kind:V1,V2,..,key=V,.." */
#define FTSW_GSPEC_MAX	16
struct ftsw_gspec {
	char kind[16];
	unsigned val[FTSW_GSPEC_MAX], nval;
	char okey[FTSW_GSPEC_MAX][16];
	unsigned oval[FTSW_GSPEC_MAX], nopt;
	unsigned taken;		/* options read by ftsw_gspec_opt */
};
/* A graph kind's grammar ("torus:K1,..,Kn[,hosts=H][,ports=P]"). */
const char *ftsw_graph_usage(const char *kind);
int ftsw_gspec_parse(const char *spec, struct ftsw_gspec *g,
		     struct ftsw_err *err);
unsigned ftsw_gspec_opt(struct ftsw_gspec *g, const char *key, unsigned dflt,
			bool *given);
int ftsw_gspec_done(const struct ftsw_gspec *g, const char *spec,
		    const char *known, struct ftsw_err *err);

/* Builder shared by the generators: switches first, then their hosts. */
struct ftsw_gbuild {
	struct ftsw_topo *t;
	uint32_t *sw;		/* switch index -> node id */
	uint32_t nsw, nhosts;
};
/*
 * 0, or -ERANGE with err set when nsw switches, nhosts hosts and nports
 * ports pass the generators' limits (FTSW_GEN_MAX_NODES/PORTS): checked
 * before anything is allocated; what names the spec.
 */
int ftsw_gen_limits(const char *what, uint64_t nsw, uint64_t nhosts,
		    uint64_t nports, struct ftsw_err *err);
int ftsw_gbuild_begin(struct ftsw_gbuild *b, uint64_t nsw, unsigned ports,
		      uint64_t nhosts, const char *what, struct ftsw_err *err);
int ftsw_gbuild_switch(struct ftsw_gbuild *b, uint32_t i, unsigned level,
		       unsigned ports, const char *desc, struct ftsw_err *err);
int ftsw_gbuild_hosts(struct ftsw_gbuild *b, uint32_t i, unsigned nh,
		      struct ftsw_err *err);
struct ftsw_topo *ftsw_gbuild_end(struct ftsw_gbuild *b, const char *spec,
				  struct ftsw_err *err);
void ftsw_gbuild_abort(struct ftsw_gbuild *b);

/*
 * k-ary n-cube (torus) or mesh: switch index = sum c_d * prod_{e<d} k_e;
 * ports 1..hosts hosts, port hosts + 2d + 1 to the + neighbour in
 * dimension d, hosts + 2d + 2 to the - neighbour.
 */
#define FTSW_GRID_MAX_D	8
struct ftsw_grid {
	bool torus;
	unsigned n, k[FTSW_GRID_MAX_D];
	unsigned hosts, ports;
	uint32_t nsw;
};
int ftsw_grid_parse(const char *spec, struct ftsw_grid *g,
		    struct ftsw_err *err);
/* Neighbour index in dimension d, dir +1/-1, or FTSW_NONE at a mesh edge. */
uint32_t ftsw_grid_step(const struct ftsw_grid *g, uint32_t i, unsigned d,
			int dir);
void ftsw_grid_coords(const struct ftsw_grid *g, uint32_t i, unsigned *c);
struct ftsw_topo *ftsw_topo_gen_grid(const struct ftsw_grid *g,
				     const char *spec, struct ftsw_err *err);

/* Kautz(b, n) switch graph, (b + 1) b^(n-1) switches. */
struct ftsw_kautz {
	unsigned b, n, ports, hosts, endpoints;
	uint32_t nsw;
};
int ftsw_kautz_parse(const char *spec, struct ftsw_kautz *k,
		     struct ftsw_err *err);
struct ftsw_topo *ftsw_topo_gen_kautz(const struct ftsw_kautz *k,
				      const char *spec, struct ftsw_err *err);

/* Dragonfly: G groups of A routers, P hosts and H global links each. */
struct ftsw_dragonfly {
	unsigned a, p, h, g, ports;
};
int ftsw_dragonfly_parse(const char *spec, struct ftsw_dragonfly *df,
			 struct ftsw_err *err);
struct ftsw_topo *ftsw_topo_gen_dragonfly(const struct ftsw_dragonfly *df,
					  const char *spec,
					  struct ftsw_err *err);

struct ftsw_topo *ftsw_topo_gen_deimos(struct ftsw_err *err);

#endif
