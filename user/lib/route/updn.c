// SPDX-License-Identifier: GPL-2.0
/*
 * updn: Up* / Down* routing. Switches are ranked by BFS from the roots
 * (default: the top rank of the ranking from the leaves, i.e. the switches
 * farthest from any host); a hop goes "up" towards a smaller BFS rank,
 * ties broken by switch index. Every path is some up hops then some down
 * hops, which makes the routing deadlock-free on one virtual layer; among
 * legal paths the shortest are used, balanced by port use.
 */
#include <stdlib.h>

#include "route/hopsel.h"
#include "route/engines.h"

int ftsw_route_updn(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	uint32_t ns = t->nswitches, s, nroots = 0, *roots = NULL;
	int *leafrank = malloc((ns + 1) * sizeof(int));
	int *height = malloc((ns + 1) * sizeof(int));
	int nr, rc = -1;
	size_t i;

	r->rank = malloc((ns + 1) * sizeof(int));
	if (!leafrank || !height || !r->rank)
		goto oom;
	if (o->roots && o->nroots) {
		for (i = 0; i < o->nroots; i++)
			if (o->roots[i] >= ns) {
				ftsw_err_set(err, "updn: root switch %u does not "
					     "exist (%u switches)", o->roots[i], ns);
				goto out;
			}
		nr = ftsw_rank_from_roots(t, o->roots, o->nroots, r->rank);
	} else {
		int top = ftsw_rank_from_leaves(t, leafrank) - 1;

		roots = malloc((ns + 1) * sizeof(uint32_t));
		if (!roots)
			goto oom;
		for (s = 0; s < ns; s++)
			if (top >= 0 && leafrank[s] == top)
				roots[nroots++] = s;
		if (!nroots) {
			ftsw_err_set(err, "updn: no root switch found");
			goto out;
		}
		nr = ftsw_rank_from_roots(t, roots, nroots, r->rank);
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
	free(roots);
	free(leafrank);
	free(height);
	return rc;
}
