// SPDX-License-Identifier: GPL-2.0
/*
 * updn: Up* / Down* routing. Switches are ranked by BFS from the roots
 * (default: the top rank of the ranking from the leaves, i.e. the switches
 * farthest from any host); a hop goes "up" towards a smaller BFS rank,
 * ties broken by switch index; when those default roots leave pairs
 * without a legal path, one root at the centre of the switch graph. Every
 * path is some up hops then some down
 * hops, which makes the routing deadlock-free on one virtual layer. The
 * tables keep that by construction (hopsel.c): a switch that can reach the
 * destination going only down does, every other one goes up along its
 * shortest legal path; ports balanced by use. The roots and why they were
 * picked are kept in the routing (r->roots, r->roots_why).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "route/hopsel.h"
#include "route/engines.h"

/* Rank from r->roots, route the host LIDs (and switch LIDs). */
static int updn_tables(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		       struct ftsw_routing *r, int *height, struct ftsw_err *err)
{
	uint32_t s;

	ftsw_rank_from_roots(t, r->roots, r->nroots, r->rank);
	r->rank_from_top = true;
	/* height: up = towards the roots */
	for (s = 0; s < t->nswitches; s++)
		height[s] = r->rank[s] < 0 ? -1000000 : -r->rank[s];
	if (ftsw_hopsel(t, r, height, o->threads, err))
		return -1;
	if (!o->no_switch_lids)
		ftsw_route_switch_lids(t, r, height, o->threads, err);
	return 0;
}

/*
 * The centre of the switch graph: the switch reaching the most switches,
 * then with the smallest eccentricity, then the lowest index. One BFS per
 * switch; only run when the default roots leave pairs unroutable.
 */
static uint32_t updn_centre(const struct ftsw_topo *t, unsigned *ecc_out)
{
	uint32_t ns = t->nswitches, s, best = FTSW_NONE, best_n = 0;
	unsigned best_ecc = ~0u;
	int *rank = malloc((ns + 1) * sizeof(int));

	if (!rank)
		return FTSW_NONE;
	for (s = 0; s < ns; s++) {
		uint32_t v, n = 0;
		int ecc;

		ecc = ftsw_rank_from_roots(t, &s, 1, rank);
		for (v = 0; v < ns; v++)
			n += rank[v] >= 0;
		if (n > best_n || (n == best_n && (unsigned)ecc < best_ecc)) {
			best = s;
			best_n = n;
			best_ecc = (unsigned)ecc;
		}
	}
	free(rank);
	*ecc_out = best_ecc ? best_ecc - 1 : 0;
	return best;
}

int ftsw_route_updn(const struct ftsw_topo *t, const struct ftsw_route_opts *o,
		    struct ftsw_routing *r, struct ftsw_err *err)
{
	uint32_t ns = t->nswitches, s;
	int *leafrank = malloc((ns + 1) * sizeof(int));
	int *height = malloc((ns + 1) * sizeof(int));
	int rc = -1, top;
	uint64_t unr;
	unsigned ecc;
	size_t i;

	r->rank = malloc((ns + 1) * sizeof(int));
	r->roots = malloc((ns + 1) * sizeof(uint32_t));
	if (!leafrank || !height || !r->rank || !r->roots)
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
		rc = updn_tables(t, o, r, height, err);
		goto out;
	}
	/* default: the top rank from the leaves (a fat tree's top switches) */
	top = ftsw_rank_from_leaves(t, leafrank) - 1;
	for (s = 0; s < ns; s++)
		if (top >= 0 && leafrank[s] == top)
			r->roots[r->nroots++] = s;
	if (!r->nroots) {
		ftsw_err_set(err, "updn: no root switch found (no switch is "
			     "connected to a host's switch)");
		goto out;
	}
	snprintf(r->roots_why, sizeof(r->roots_why),
		 "default: the switches farthest from any host (%d hops from "
		 "the nearest host's switch)", top);
	if (updn_tables(t, o, r, height, err))
		goto out;
	unr = ftsw_routing_count_unroutable(r, o->threads);
	if (!unr || r->nroots == 1) {
		rc = 0;
		goto out;
	}
	/*
	 * Several roots that leave pairs without a legal path (irregular
	 * graphs, degraded trees; on a graph where every switch has hosts
	 * every switch is such a root): one root at the centre instead,
	 * which connects every pair of a connected fabric.
	 */
	s = updn_centre(t, &ecc);
	if (s == FTSW_NONE)
		goto oom;
	ftsw_routing_init_lfts(r, o->threads);
	r->roots[0] = s;
	snprintf(r->roots_why, sizeof(r->roots_why),
		 "default: the centre of the switch graph (eccentricity %u), "
		 "as the %u switches farthest from any host left %llu pairs "
		 "unroutable", ecc, r->nroots, (unsigned long long)unr);
	r->nroots = 1;
	r->unroutable_pairs = 0;
	r->warning[0] = 0;
	r->warning_unr = 0;
	rc = updn_tables(t, o, r, height, err);
	goto out;
oom:
	ftsw_err_errno(err, ENOMEM, "updn: out of memory");
out:
	free(leafrank);
	free(height);
	return rc;
}
