// SPDX-License-Identifier: GPL-2.0
/*
 * minhop: shortest paths with the output ports balanced by use, OpenSM's
 * default routing, as a baseline. No deadlock freedom promised.
 */
#include "route/hopsel.h"
#include "route/engines.h"

int ftsw_route_minhop(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		      struct ftsw_routing *r, struct ftsw_err *err)
{
	if (ftsw_hopsel(t, r, NULL, o->threads, err))
		return -1;
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, NULL, o->threads, err);
	return 0;
}
