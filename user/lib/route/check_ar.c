// SPDX-License-Identifier: GPL-2.0
/*
 * The checker's part for adaptive routing groups (route check of a routing
 * with struct ftsw_ar, Documentation/congestion.md): every allowed port of
 * a group must deliver, minimal and up*down* where checked, its
 * dependencies go into the VL's CDG, and no loop among allowed ports.
 */
#include <stdatomic.h>
#include <string.h>

#include "route/check_int.h"

/* One group port that fails, counted and (the first) reported. */
static void ar_fault(struct ck *c, uint32_t s, uint32_t lid, unsigned q,
		     const char *why)
{
	if (!c->ar_bad)
		ftsw_ck_report(c, "adaptive: switch %s, LID %u, port %u %s",
		       ftsw_ck_swname(c->t, s), lid, q, why);
	c->ar_bad++;
}

/* A loop among the allowed ports of the reached switches (DFS). */
static void ar_loops(struct ck *c, uint32_t lid, struct ckscratch *x)
{
	const struct ftsw_topo *t = c->t;
	uint32_t ns = t->nswitches, s0;
	uint8_t ports[256];

	memset(x->color, 0, ns);
	for (s0 = 0; s0 < ns; s0++) {
		uint32_t sp = 0;

		if (!x->reach[s0] || x->color[s0])
			continue;
		x->dfs_s[sp] = s0;
		x->dfs_i[sp++] = 0;
		x->color[s0] = 1;
		while (sp) {
			uint32_t s = x->dfs_s[sp - 1], v;
			unsigned np = ftsw_ar_ports(c->r, s, lid, ports);
			const struct ftsw_node *n = &t->nodes[t->switches[s]];

			if (x->dfs_i[sp - 1] >= np) {
				x->color[s] = 2;
				sp--;
				continue;
			}
			v = ftsw_peer_switch(t, n, ports[x->dfs_i[sp - 1]++]);
			if (v == FTSW_NONE || x->color[v] == 2)
				continue;
			if (x->color[v] == 1) {
				ar_fault(c, s, lid, ports[x->dfs_i[sp - 1] - 1],
					 "closes a loop");
				return;
			}
			x->color[v] = 1;
			x->dfs_s[sp] = v;
			x->dfs_i[sp++] = 0;
		}
	}
}

/*
 * Host LID lid with adaptive groups: from the leaves of the sources on
 * each VL, every switch a packet may reach over the allowed ports (static
 * and group). Each allowed port of those must lead to a switch or deliver
 * to the LID's host, shortest (minimal) and never up after a down hop
 * (updown) when checked; each pair of consecutive allowed switch-to-switch
 * channels is a dependency of the VL's CDG; no loop.
 */
void ftsw_ck_ar(struct ck *c, uint32_t lid, uint32_t idx,
		     uint32_t dleaf, struct ckscratch *x)
{
	const struct ftsw_routing *r = c->r;
	const struct ftsw_topo *t = c->t;
	uint32_t ns = t->nswitches, nvl = ftsw_ck_nvl(r, c->o), vl, s;
	bool ud = c->o->updown && r->rank;
	uint8_t ports[256], next[256];

	memset(x->reach, 0, ns);
	for (vl = 0; vl < nvl; vl++) {
		uint64_t *dep = c->dep ? c->dep + (size_t)vl * t->nports * 4 : NULL;
		uint32_t qh = 0, qt = 0;
		uint8_t *st = x->color;	/* per switch: 1 up only, 2 after down */

		memset(st, 0, ns);
		for (s = 0; s < ns; s++)
			if (x->start[(size_t)vl * ns + s]) {
				st[s] = 1;
				x->queue[qt++] = s;
			}
		while (qh < qt) {
			const struct ftsw_node *n;
			unsigned np, i, j, nn;

			s = x->queue[qh++];
			n = &t->nodes[t->switches[s]];
			np = ftsw_ar_ports(r, s, lid, ports);
			if (!x->reach[s] && ftsw_ar_has(r, s, lid))
				c->ar_entries++;
			x->reach[s] = 1;
			for (i = 0; i < np; i++) {
				unsigned q = ports[i];
				uint32_t peer = q <= n->nports ?
					ftsw_port(t, t->switches[s], q)->peer :
					FTSW_NONE;
				uint32_t v;
				uint8_t ns_st;

				if (peer == FTSW_NONE) {
					ar_fault(c, s, lid, q, "is dead");
					continue;
				}
				if (t->nodes[peer].kind == FTSW_HOST) {
					if (peer != t->hosts[idx])
						ar_fault(c, s, lid, q, "delivers "
							 "to the wrong host");
					continue;
				}
				v = t->nodes[peer].index;
				if (c->dist && dleaf != FTSW_NONE &&
				    c->dist[(size_t)c->leaf_of_sw[dleaf] * ns + v] + 1 !=
				    c->dist[(size_t)c->leaf_of_sw[dleaf] * ns + s])
					ar_fault(c, s, lid, q, "is not on a "
						 "shortest path");
				ns_st = 2;
				if (ud && ftsw_ck_hop_is_up(r, s, v)) {
					if (!(st[s] & 1))
						ar_fault(c, s, lid, q, "goes up "
							 "after a down hop");
					ns_st = 1;
				}
				if (dep) {
					nn = ftsw_ar_ports(r, v, lid, next);
					for (j = 0; j < nn; j++)
						if (ftsw_peer_switch(t,
							&t->nodes[peer],
							next[j]) != FTSW_NONE)
							ftsw_ck_dep_add(c, dep, s, (uint8_t)q,
								next[j]);
				}
				/* a switch is queued at most once per state */
				if ((st[v] | ns_st) != st[v]) {
					x->queue[qt++] = v;
					st[v] |= ns_st;
				}
			}
		}
	}
	ar_loops(c, lid, x);
}
