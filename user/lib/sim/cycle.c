// SPDX-License-Identifier: GPL-2.0
/*
 * Deadlock cycles against the channel dependency graph: every dependency of
 * a cycle the simulator reports must be induced by a path the tracer
 * (analyze/trace.c, the kernel's semantics) finds.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int ftsw_sim_cycle_check(const struct ftsw_routing *r,
			 const struct ftsw_sim_wait *c, unsigned n,
			 unsigned vls, char *why, size_t sz)
{
	const struct ftsw_topo *t = r->topo;
	bool *seen;
	struct ftsw_path *p;
	uint32_t s, d;
	unsigned k, i;

	if (!n) {
		snprintf(why, sz, "empty cycle");
		return 0;
	}
	if (!vls)
		vls = r->nvls ? r->nvls : 1;
	if ((uint64_t)t->nhosts * t->nhosts << r->lmc > (1ull << 26)) {
		snprintf(why, sz, "fabric too large to trace every path");
		return -1;
	}
	for (k = 0; k < n; k++) {
		const struct ftsw_sim_wait *a = &c[k], *b = &c[(k + 1) % n];
		uint32_t node = t->switches[a->sw];
		const struct ftsw_port *x;

		if (a->vl != c[0].vl) {
			snprintf(why, sz, "buffers of different VLs");
			return 0;
		}
		if (!a->out_port || a->out_port > t->nodes[node].nports) {
			snprintf(why, sz, "switch %u: bad output port %u",
				 a->sw, a->out_port);
			return 0;
		}
		x = ftsw_port(t, node, a->out_port);
		if (x->peer != t->switches[b->sw] || x->peer_port != b->in_port) {
			snprintf(why, sz, "switch %u port %u is not cabled to "
				 "switch %u port %u", a->sw, a->out_port, b->sw,
				 b->in_port);
			return 0;
		}
	}
	seen = calloc(n, sizeof(*seen));
	p = malloc(sizeof(*p));
	if (!seen || !p) {
		free(seen);
		free(p);
		snprintf(why, sz, "out of memory");
		return -1;
	}
	for (s = 0; s < t->nhosts; s++) {
		uint8_t offs[128];
		double w[128];
		unsigned no = ftsw_path_offsets(r, s, offs, w), o;

		for (d = 0; d < t->nhosts; d++) {
			unsigned sl;

			if (s == d)
				continue;
			sl = r->sl ? r->sl[(size_t)s * r->nhosts + d] : 0;
			if (sl % vls != c[0].vl)
				continue;
			for (o = 0; o < no; o++) {
				if (ftsw_trace_path(r, s, d, offs[o], 0, p))
					continue;
				for (i = 0; i + 1 < p->nhops; i++)
					for (k = 0; k < n; k++) {
						const struct ftsw_sim_wait *a =
							&c[k], *b = &c[(k + 1) % n];

						if (p->hops[i].sw == a->sw &&
						    p->hops[i].port == a->out_port &&
						    p->hops[i + 1].sw == b->sw &&
						    p->hops[i + 1].port == b->out_port)
							seen[k] = true;
					}
			}
		}
	}
	for (k = 0; k < n && seen[k]; k++)
		;
	if (k < n)
		snprintf(why, sz, "no path takes switch %u port %u then switch "
			 "%u port %u on VL %u", c[k].sw, c[k].out_port,
			 c[(k + 1) % n].sw, c[(k + 1) % n].out_port, c[0].vl);
	else
		snprintf(why, sz, "every dependency of the cycle is taken by a "
			 "path");
	free(seen);
	free(p);
	return k == n;
}
