/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The routing engines' entry points, one file each, behind the one engine
 * table of routing.c (struct ftsw_engine.route). Private to user/lib/route:
 * everyone else runs an engine by name with ftsw_route().
 */
#ifndef LIBFTSW_ROUTE_ENGINES_H
#define LIBFTSW_ROUTE_ENGINES_H

#include "route/routing.h"

/*
 * Every engine has the one signature of struct ftsw_engine.route: fill r
 * (allocated by the caller with ftsw_routing_new) from t under o.
 */
typedef int ftsw_engine_fn(const struct ftsw_topo *t,
			   const struct ftsw_route_opts *o,
			   struct ftsw_routing *r, struct ftsw_err *err);

ftsw_engine_fn ftsw_route_dmodk, ftsw_route_dmodc, ftsw_route_minhop,
	ftsw_route_updn, ftsw_route_sssp, ftsw_route_dfsssp,
	ftsw_route_dfsssp_strongest, ftsw_route_dfsssp_first,
	ftsw_route_shift1, ftsw_route_disjoint, ftsw_route_random,
	ftsw_route_umulti, ftsw_route_osrm2, ftsw_route_osrm3, ftsw_route_mlid,
	ftsw_route_wsr, ftsw_route_lash, ftsw_route_dor;

#endif
