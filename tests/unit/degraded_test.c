// SPDX-License-Identifier: GPL-2.0
/*
 * Dmodc on a degraded fat-tree, the small instance of Gliksberg et al.
 * 2020's quality study (tests/bench/dmodc-repro,
 * Documentation/results/dmodc-fault.md), with loads computed by hand.
 *
 * XGFT(2;4,4;1,4): leaves L0..L3 hold hosts 4j..4j+3, each leaf has one
 * up-link to each of the top switches T0..T3. With T0 removed every leaf
 * keeps 3 up-links, and Dmodc's leaf divider is 1 (Gliksberg et al. 2020,
 * §3.3: the product of the up-switch counts below the leaf, none), so
 * destination d leaves every leaf through its ((d / 1) mod 3)-th remaining
 * up-port, the same residue at every leaf, so every flow to d crosses one
 * top switch.
 *
 * All-to-all: a leaf sends 4 hosts x 12 remote destinations = 48 flows up.
 * 0..15 hold residue 0 six times, 1 and 2 five times each; leaf j's own
 * destinations 4j..4j+3 take residues (0,1,2,0), (1,2,0,1), (2,0,1,2),
 * (0,1,2,0) away, leaving remote counts (4,4,4), (5,3,4), (5,4,3), (4,4,4):
 * up-links of 16, 16, 16 at L0 and L3 and of 12, 16, 20 at L1 and L2
 * (x 4 sources), each leaf's total 48. Down: leaf j's destinations
 * 4j..4j+3 are 4 consecutive integers, one residue twice, so one
 * down-link carries 2 destinations x 12 remote sources = 24 (the even
 * split would be 16: Dmodc keeps Dmodk's destination-based choice and
 * cannot spread one destination). Host links carry 15. On the complete
 * tree (d mod 4) every down-link carries 12.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "analyze/analyze.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static double a2a(const struct ftsw_routing *r, double *load)
{
	struct ftsw_load_result res;
	struct ftsw_err err;
	struct ftsw_tm tm;
	int rc;

	ftsw_tm_init(&tm, r->topo->nhosts);
	tm.all_to_all = true;
	tm.a2a = 1;
	rc = ftsw_link_loads(r, &tm, NULL, load, NULL, &res, &err);
	ftsw_tm_free(&tm);
	if (rc || res.delivered != 16 * 15)
		return -1;
	return ftsw_max_load(r->topo, load, true, NULL);
}

TEST(dmodc_all_to_all_one_top_switch_removed)
{
	struct ftsw_topo *t = ut_gen("xgft:2;4,4;1,4"), *g;
	struct ftsw_route_opts o = { .threads = 1 };
	struct ftsw_routing *r, *rc;
	struct ftsw_err err;
	uint32_t top0, up[4], down[4];
	struct ftsw_degrade d = { 0 };
	unsigned i, p, nup, ndown, n24, nleaf = 0;
	bool mid;
	double *load;

	ASSERT_NE(NULL, t);
	top0 = ftsw_topo_find(t, "S2-0");
	ASSERT_NE(FTSW_NONE, top0);
	d.switches = &top0;
	d.nswitch = 1;
	g = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, g) TH_LOG("%s", err.msg);
	ASSERT_EQ(7, g->nswitches);
	r = ut_route("dmodc", g, &o);
	rc = ut_route("dmodc", t, &o);
	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, rc);
	ASSERT_EQ(0, r->unroutable_pairs);

	load = calloc(t->nports > g->nports ? t->nports : g->nports, sizeof(*load));
	ASSERT_NE(NULL, load);
	/* complete: every switch link carries 12 */
	EXPECT_EQ(12.0, a2a(rc, load));
	EXPECT_EQ(24.0, a2a(r, load));
	EXPECT_EQ(24.0, ftsw_max_load(g, load, false, NULL));

	/* every leaf's up-links as above; its down-links 24, 12, 12 */
	for (i = 0; i < g->nswitches; i++) {
		const struct ftsw_node *n = &g->nodes[g->switches[i]];

		if (strncmp(n->desc, "S1-", 3))
			continue;
		nup = ndown = n24 = 0;
		for (p = 1; p <= n->nports; p++) {
			uint32_t peer = ftsw_port(g, g->switches[i], p)->peer;
			uint8_t pp = ftsw_port(g, g->switches[i], p)->peer_port;

			if (peer == FTSW_NONE || g->nodes[peer].kind != FTSW_SWITCH)
				continue;
			ASSERT_GT(4, nup);
			up[nup++] = (uint32_t)load[ftsw_link_id(g, g->switches[i], p)];
			down[ndown++] = (uint32_t)load[ftsw_link_id(g, peer, pp)];
		}
		ASSERT_EQ(3, nup);
		qsort(up, nup, sizeof(up[0]), cmp_u32);
		mid = !strcmp(n->desc, "S1-1") || !strcmp(n->desc, "S1-2");
		EXPECT_EQ(mid ? 12 : 16, up[0]) TH_LOG("%s", n->desc);
		EXPECT_EQ(16, up[1]) TH_LOG("%s", n->desc);
		EXPECT_EQ(mid ? 20 : 16, up[2]) TH_LOG("%s", n->desc);
		for (p = 0; p < nup; p++)
			n24 += down[p] == 24;
		nleaf++;
		/* 4 destinations over 3 residues: 2 + 1 + 1 (x 12 sources) */
		EXPECT_EQ(1, n24) TH_LOG("%s", n->desc);
		EXPECT_EQ(48, down[0] + down[1] + down[2]) TH_LOG("%s", n->desc);
	}
	EXPECT_EQ(4, nleaf);
	free(load);
	ftsw_routing_free(r);
	ftsw_routing_free(rc);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
