// SPDX-License-Identifier: GPL-2.0
/*
 * updn: Up* / Down* routing. Switches are ranked by BFS from the roots
 * (default: the top rank of the ranking from the leaves, i.e. the switches
 * farthest from any host); a hop goes "up" towards a smaller BFS rank,
 * ties broken by switch index. Every path is some up hops then some down
 * hops, which makes the routing deadlock-free on one virtual layer. The
 * tables keep that by construction (hopsel.c): a switch that can reach the
 * destination going only down does, every other one goes up along its
 * shortest legal path; ports balanced by use. The roots and why they were
 * picked are kept in the routing (r->roots, r->roots_why).
 */
#include <stdio.h>
#include <stdlib.h>

#include "route/hopsel.h"
#include "route/engines.h"

int ftsw_route_updn(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	uint32_t ns = t->nswitches, s;
	int *leafrank = malloc((ns + 1) * sizeof(int));
	int *height = malloc((ns + 1) * sizeof(int));
	int nr, rc = -1;
	size_t i;

	r->rank = malloc((ns + 1) * sizeof(int));
	if (!leafrank || !height || !r->rank)
		goto oom;
	r->roots = malloc((ns + 1) * sizeof(uint32_t));
	if (!r->roots)
		goto oom;
	if (o->roots && o->nroots) {
		for (i = 0; i < o->nroots; i++)
			if (o->roots[i] >= ns) {
				ftsw_err_set(err, "updn: root switch %u does not "
					     "exist (%u switches)", o->roots[i], ns);
				goto out;
			}
		for (i = 0; i < o->nroots && r->nroots < ns; i++)
			r->roots[r->nroots++] = o->roots[i];
		snprintf(r->roots_why, sizeof(r->roots_why),
			 "given with --roots");
		nr = ftsw_rank_from_roots(t, o->roots, o->nroots, r->rank);
	} else {
		int top = ftsw_rank_from_leaves(t, leafrank) - 1;

		for (s = 0; s < ns; s++)
			if (top >= 0 && leafrank[s] == top)
				r->roots[r->nroots++] = s;
		if (!r->nroots) {
			ftsw_err_set(err, "updn: no root switch found (no switch "
				     "is connected to a host's switch)");
			goto out;
		}
		snprintf(r->roots_why, sizeof(r->roots_why),
			 "default: the switches farthest from any host (%d "
			 "hops from the nearest host's switch)", top);
		nr = ftsw_rank_from_roots(t, r->roots, r->nroots, r->rank);
	}
	(void)nr;
	r->rank_from_top = true;
	/* height: up = towards the roots */
	for (s = 0; s < ns; s++)
		height[s] = r->rank[s] < 0 ? -1000000 : -r->rank[s];
	if (ftsw_hopsel(t, r, height, o->threads, err))
		goto out;
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, height, o->threads, err);
	rc = 0;
	goto out;
oom:
	ftsw_err_set(err, "updn: out of memory");
out:
	free(leafrank);
	free(height);
	return rc;
}
