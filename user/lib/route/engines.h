/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The routing engines' entry points, one file each, behind the one engine
 * table of routing.c (struct ftsw_engine.route). Private to user/lib/route:
 * everyone else runs an engine by name with ftsw_route().
 */
#ifndef LIBFTSW_ROUTE_ENGINES_H
#define LIBFTSW_ROUTE_ENGINES_H

#include "route/routing.h"

int ftsw_route_dmodk(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_dmodc(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		     struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_minhop(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err);
int ftsw_route_updn(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err);
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

#endif
