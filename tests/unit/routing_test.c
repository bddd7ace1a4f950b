// SPDX-License-Identifier: GPL-2.0
/*
 * Routing engines and the checker: hand-computed cases from papers 000,
 * 003 and 004, D-Mod-K = Dmodc on complete PGFTs, thread-count
 * invariance, properties on randomly degraded PGFTs, checker self-tests.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

static struct ftsw_routing *route(const char *eng, const struct ftsw_topo *t,
				  unsigned lmc, unsigned threads)
{
	struct ftsw_route_opts o = { .lmc = lmc, .threads = threads };

	return ut_route(eng, t, &o);
}

/*
 * Paper 000, Fig. 3 / §4.2: d-mod-k routes 0 -> 63 in XGFT(3;4,4,4;1,4,2)
 * over Path 7: 0 -> 64 -> 83 -> 103 -> 95 -> 79 -> 63.
 */
TEST(dmodk_paper000_path7)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("xgft:3;4,4,4;1,4,2", &err);
	struct ftsw_routing *r;
	uint32_t sw[8];
	int n, i;
	static const uint32_t want[] = { 64, 83, 103, 95, 79 };

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0, 1);
	ASSERT_NE(NULL, r);
	n = ftsw_trace(r, 0, ftsw_host_lid(r, 63), sw, NULL, 8);
	ASSERT_EQ(5, n);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(want[i], t->switches[sw[i]]);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Paper 003, Fig. 6: leaves route up through port q = j mod 4, level-2
 * switches through q = floor(j / 4) mod 4. In PGFT(3;4,4,4;1,4,4;1,1,1)
 * the rightmost leaf (index 15, digits a3 = 3, a2 = 3) sends destination 9
 * up through up-port 1 (InfiniBand port 2) to the level-2 switch with
 * b2 = 1, i.e. index 3*4 + 1 = 13, node 64 + 16 + 13 = 93; that switch
 * sends it up through up-port floor(9/4) mod 4 = 2 (port 3) to the top
 * switch with digits (2, 1), index (0*4 + 1)*4 + 2 = 6, node 102.
 */
TEST(dmodk_paper003_fig6)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;4,4,4;1,4,4;1,1,1", &err);
	struct ftsw_routing *r;
	uint32_t leaf, l2, top, j;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0, 2);
	ASSERT_NE(NULL, r);
	leaf = t->nodes[64 + 15].index;
	l2 = t->nodes[93].index;
	top = t->nodes[102].index;
	EXPECT_EQ(2, ftsw_lft(r, leaf)[ftsw_host_lid(r, 9)]);
	EXPECT_EQ(93, ftsw_port(t, 64 + 15, 2)->peer);
	EXPECT_EQ(3, ftsw_lft(r, l2)[ftsw_host_lid(r, 9)]);
	EXPECT_EQ(102, ftsw_port(t, 93, 3)->peer);
	/* every 4 consecutive destinations leave a leaf by 4 distinct ports */
	for (j = 16; j < 60; j++)	/* 60..63 are below this leaf */
		EXPECT_EQ(j % 4 + 1, ftsw_lft(r, leaf)[ftsw_host_lid(r, j)]);
	(void)top;
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* Paper 004, Fig. 4: Pi_s = 4, d = 20, two closer groups, 3 ports. */
TEST(dmodc_paper004_fig4_formula)
{
	unsigned g, p;

	ftsw_dmodc_select(20, 4, 2, 3, 0, &g, &p);
	EXPECT_EQ(1, g);	/* floor(20 / 4) mod 2 */
	EXPECT_EQ(2, p);	/* floor(20 / (4 * 2)) mod 3 */
}

/*
 * The same case on a graph: leaf A (hosts 0..19) has 4 upper switches
 * s, X1, X2, X3, so Pi_s = 1 * 4. s has one link to T1 and three parallel
 * links to T2 (GUID T1 < T2); leaf B (host 20) hangs below Y, linked to
 * both T1 and T2. Cost to B: Y 1, T1 = T2 = 2, s 3, so C_s = [T1, T2],
 * group 1 = T2, and its port index 2 = the third link, s's port 4.
 */
TEST(dmodc_paper004_fig4_graph)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_new();
	uint32_t A, B, s, x[3], T1, T2, Y, h;
	struct ftsw_routing *r;
	struct ftsw_check_result res;
	int i;

	ASSERT_NE(NULL, t);
	for (h = 0; h < 21; h++)
		ASSERT_NE(FTSW_NONE, ftsw_topo_add_node(t, FTSW_HOST, 1, 0x100 + h,
							 "h", &err));
	A = ftsw_topo_add_node(t, FTSW_SWITCH, 24, 0x10, "A", &err);
	B = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x11, "B", &err);
	s = ftsw_topo_add_node(t, FTSW_SWITCH, 8, 0x20, "s", &err);
	for (i = 0; i < 3; i++)
		x[i] = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x21 + i, "X", &err);
	Y = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x25, "Y", &err);
	T1 = ftsw_topo_add_node(t, FTSW_SWITCH, 8, 0x30, "T1", &err);
	T2 = ftsw_topo_add_node(t, FTSW_SWITCH, 8, 0x31, "T2", &err);
	for (h = 0; h < 20; h++)
		ASSERT_EQ(0, ftsw_topo_connect(t, h, 1, A, h + 1, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, 20, 1, B, 1, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, A, 21, s, 1, &err));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, ftsw_topo_connect(t, A, 22 + i, x[i], 1, &err));
		ASSERT_EQ(0, ftsw_topo_connect(t, x[i], 2, T1, 5 + i, &err));
	}
	ASSERT_EQ(0, ftsw_topo_connect(t, s, 2, T1, 1, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, s, 3, T2, 1, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, s, 4, T2, 2, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, s, 5, T2, 3, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, B, 2, Y, 1, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, Y, 2, T1, 2, &err));
	ASSERT_EQ(0, ftsw_topo_connect(t, Y, 3, T2, 4, &err));
	ASSERT_EQ(0, ftsw_topo_finish(t, &err));
	r = route("dmodc", t, 0, 1);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(5, ftsw_lft(r, t->nodes[s].index)[ftsw_host_lid(r, 20)]);
	EXPECT_TRUE(ut_check(r, false, true, &res));
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

static int same_host_lfts(const struct ftsw_routing *a,
			  const struct ftsw_routing *b)
{
	uint32_t s, lid, end = (a->nhosts + 1) << a->lmc;

	for (s = 0; s < a->nswitches; s++)
		for (lid = 1u << a->lmc; lid < end; lid++)
			if (ftsw_lft(a, s)[lid] != ftsw_lft(b, s)[lid]) {
				fprintf(stderr, "# switch %u LID %u: %u vs %u\n", s,
					lid, ftsw_lft(a, s)[lid], ftsw_lft(b, s)[lid]);
				return 0;
			}
	return 1;
}

/*
 * Paper 004 §3.3: on a complete PGFT the dividers equal D-Mod-K's
 * products of w and the GUID-ordered groups are D-Mod-K's parents, so
 * Dmodc chooses D-Mod-K's ports (eq. (1) of paper 003), here including
 * parallel links (paper 004's Fig. 1 PGFT) and LMC offsets.
 */
TEST(dmodc_equals_dmodk_on_complete_pgft)
{
	static const char *specs[] = {
		"pgft:3;2,2,3;1,2,2;1,2,1",
		"pgft:3;4,4,4;1,4,4;1,1,1",
		"pgft:2;4,8;1,2;1,2",
		"xgft:3;4,4,4;1,4,2",
		"rlft:3;6,6,12;1,6,6;1,1,1",
		"ftmn:6,3",
	};
	unsigned i, lmc;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		for (lmc = 0; lmc <= 1; lmc++) {
			struct ftsw_err err;
			struct ftsw_topo *t = ftsw_topo_gen(specs[i], &err);
			struct ftsw_routing *k, *c;

			ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
			k = route("dmodk", t, lmc, 2);
			c = route("dmodc", t, lmc, 2);
			ASSERT_NE(NULL, k);
			ASSERT_NE(NULL, c);
			EXPECT_TRUE(same_host_lfts(k, c)) TH_LOG("%s lmc %u", specs[i], lmc);
			ftsw_routing_free(k);
			ftsw_routing_free(c);
			ftsw_topo_free(t);
		}
}

TEST(dmodk_refuses_degraded_and_foreign)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,2;1,1", &err);
	struct ftsw_degrade d = { .rand_links = 1, .seed = 1 };
	struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
	struct ftsw_route_opts o = { 0 };

	ASSERT_NE(NULL, g);
	EXPECT_EQ(NULL, ftsw_route("dmodk", g, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "degraded")) TH_LOG("%s", err.msg);
	g->is_pgft = false;
	EXPECT_EQ(NULL, ftsw_route("dmodk", g, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "not a generated PGFT")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, ftsw_route("nosuch", t, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "unknown routing engine"));
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

TEST(all_engines_check_on_complete_pgfts)
{
	static const char *specs[] = {
		"pgft:3;2,2,3;1,2,2;1,2,1", "rlft:3;4,4,8;1,4,4;1,1,1",
		"kary:3,3",
	};
	static const struct { const char *e; bool min, ud; } eng[] = {
		{ "dmodk", true, true }, { "dmodc", true, true },
		{ "minhop", true, false }, { "updn", true, true },
	};
	unsigned i, j, lmc;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			for (lmc = 0; lmc <= 2; lmc += 2) {
				struct ftsw_err err;
				struct ftsw_topo *t = ftsw_topo_gen(specs[i], &err);
				struct ftsw_routing *r = route(eng[j].e, t, lmc, 2);
				struct ftsw_check_result res;

				ASSERT_NE(NULL, r);
				EXPECT_TRUE(ut_check(r, eng[j].min, eng[j].ud, &res))
					TH_LOG("%s on %s lmc %u", eng[j].e, specs[i], lmc);
				EXPECT_EQ(res.pairs, res.delivered);
				EXPECT_LE(res.max_hops, 2 * t->pgft.h);
				ftsw_check_result_free(&res);
				ftsw_routing_free(r);
				ftsw_topo_free(t);
			}
}

static void lfts_equal(struct __test_metadata *_metadata,
		       const struct ftsw_routing *a, const struct ftsw_routing *b)
{
	ASSERT_EQ(a->lft_size, b->lft_size);
	EXPECT_EQ(0, memcmp(a->lft, b->lft, a->lft_size * a->nswitches));
}

TEST(dmodc_thread_count_invariant)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("rlft:3;8,8,16;1,8,8;1,1,1", &err);
	struct ftsw_degrade d = { .rand_links = 60, .rand_switches = 3, .seed = 11 };
	struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
	struct ftsw_routing *r1 = route("dmodc", g, 1, 1);
	struct ftsw_routing *r2 = route("dmodc", g, 1, 2);
	struct ftsw_routing *r7 = route("dmodc", g, 1, 7);
	struct ftsw_routing *u1 = route("updn", g, 0, 1);
	struct ftsw_routing *u3 = route("updn", g, 0, 3);

	ASSERT_NE(NULL, r1);
	ASSERT_NE(NULL, r2);
	ASSERT_NE(NULL, r7);
	lfts_equal(_metadata, r1, r2);
	lfts_equal(_metadata, r1, r7);
	lfts_equal(_metadata, u1, u3);
	ftsw_routing_free(r1);
	ftsw_routing_free(r2);
	ftsw_routing_free(r7);
	ftsw_routing_free(u1);
	ftsw_routing_free(u3);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

/*
 * Independent up*down* connectivity between leaf switches: ranks by BFS
 * from the leaves; a two-phase search (going up, then only down).
 */
static uint64_t disconnected_leaf_pairs(const struct ftsw_topo *t)
{
	uint32_t ns = t->nswitches, a, b, s;
	uint64_t *hosts = calloc(ns + 1, sizeof(uint64_t)), n = t->nhosts, k = 0;
	int *rank = malloc(ns * sizeof(int));
	uint8_t *upv = malloc(ns), *dnv = malloc(ns);
	uint32_t *q = malloc(2 * ns * sizeof(uint32_t));
	uint64_t bad = 0;

	/* counted as ordered host pairs, as every engine reports them */
	for (s = 0; s < t->nhosts; s++) {
		uint32_t sw = ftsw_host_switch(t, t->hosts[s]);

		if (sw == FTSW_NONE)
			k++;
		else
			hosts[t->nodes[sw].index]++;
	}
	ftsw_rank_from_leaves(t, rank);
	for (a = 0; a < ns; a++) {
		uint32_t qh = 0, qn = 0;

		if (rank[a] != 0)
			continue;
		memset(upv, 0, ns);
		memset(dnv, 0, ns);
		upv[a] = 1;
		q[qn++] = a << 1;
		while (qh < qn) {
			uint32_t v = q[qh] >> 1, down = q[qh] & 1;
			const struct ftsw_node *n = &t->nodes[t->switches[v]];
			unsigned p;

			qh++;
			for (p = 1; p <= n->nports; p++) {
				uint32_t peer = ftsw_port(t, t->switches[v], p)->peer, u;

				if (peer == FTSW_NONE || t->nodes[peer].kind != FTSW_SWITCH)
					continue;
				u = t->nodes[peer].index;
				if (rank[u] > rank[v] && !down && !upv[u]) {
					upv[u] = 1;
					q[qn++] = u << 1;
				} else if (rank[u] < rank[v] && !dnv[u]) {
					dnv[u] = 1;
					q[qn++] = u << 1 | 1;
				}
			}
		}
		for (b = 0; b < ns; b++)
			if (rank[b] == 0 && b != a && !upv[b] && !dnv[b])
				bad += hosts[a] * hosts[b];
	}
	/* pairs with a host on no switch (its leaf removed) */
	bad += n * (n - 1) - (n - k) * (n - k - 1);
	free(hosts);
	free(rank);
	free(upv);
	free(dnv);
	free(q);
	return bad;
}

/*
 * Properties on randomly degraded PGFTs: Dmodc reports exactly the
 * ordered host pairs without an up-down path between their leaves; when there are none,
 * every pair is delivered on up*down* paths, no table entry points to a
 * removed (uncabled) port, and the channel dependency graph is acyclic.
 */
TEST(dmodc_random_degraded_pgfts)
{
	static const char *specs[] = {
		"pgft:3;2,2,3;1,2,2;1,2,1", "rlft:3;4,4,8;1,4,4;1,1,1",
		"pgft:3;4,4,4;1,4,2;1,1,2",
	};
	unsigned i, seed, routable = 0, unroutable = 0;

	for (i = 0; i < 3; i++)
		for (seed = 1; seed <= 20; seed++) {
			struct ftsw_err err;
			struct ftsw_topo *t = ftsw_topo_gen(specs[i], &err);
			uint64_t nl = ftsw_topo_nlinks(t) - t->nhosts;
			struct ftsw_degrade d = {
				.rand_links = (unsigned)(nl * (seed % 5 + 1) / 12),
				.rand_switches = seed % 3 == 0, .seed = seed };
			struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
			struct ftsw_routing *r;
			struct ftsw_check_result res;
			uint64_t bad;
			uint32_t s, lid;

			ASSERT_NE(NULL, g) TH_LOG("%s", err.msg);
			bad = disconnected_leaf_pairs(g);
			r = route("dmodc", g, 0, 2);
			ASSERT_NE(NULL, r);
			EXPECT_EQ(bad, r->unroutable_pairs) TH_LOG("%s seed %u", specs[i], seed);
			for (s = 0; s < r->nswitches; s++)
				for (lid = 1; lid <= r->max_lid; lid++) {
					uint8_t p = ftsw_lft(r, s)[lid];

					if (p != FTSW_PORT_NONE) {
						ASSERT_NE(FTSW_NONE,
							  ftsw_port(g, g->switches[s], p)->peer);
					}
				}
			if (!bad) {
				routable++;
				EXPECT_TRUE(ut_check(r, false, true, &res))
					TH_LOG("%s seed %u", specs[i], seed);
				ftsw_check_result_free(&res);
			} else {
				unroutable++;
			}
			ftsw_routing_free(r);
			ftsw_topo_free(g);
			ftsw_topo_free(t);
		}
	/* the sample exercises both outcomes */
	EXPECT_GT(routable, 10);
	EXPECT_GT(unroutable, 0);
}

/* A ring of 5 switches: minhop's shortest paths close a dependency cycle,
 * Up*-Down* from one root breaks it. */
TEST(check_finds_cdg_cycle_and_broken_tables)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_new();
	uint32_t sw[5], i;
	struct ftsw_routing *r;
	struct ftsw_check_result res;
	struct ftsw_check_opts co = { .cdg = true };

	for (i = 0; i < 5; i++)
		ftsw_topo_add_node(t, FTSW_HOST, 1, 0x100 + i, "h", &err);
	for (i = 0; i < 5; i++)
		sw[i] = ftsw_topo_add_node(t, FTSW_SWITCH, 3, 0x10 + i, "s", &err);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, ftsw_topo_connect(t, i, 1, sw[i], 3, &err));
		ASSERT_EQ(0, ftsw_topo_connect(t, sw[i], 1, sw[(i + 1) % 5], 2, &err));
	}
	ASSERT_EQ(0, ftsw_topo_finish(t, &err));
	r = route("minhop", t, 0, 1);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_EQ(res.pairs, res.delivered);
	EXPECT_EQ(1, res.cdg_cyclic_vls);
	EXPECT_FALSE(res.ok);
	ftsw_check_result_free(&res);
	/* break a table: a loop between switches 0 and 1 for host 3's LID,
	 * then a missing entry for host 4's */
	ftsw_lft(r, 0)[ftsw_host_lid(r, 3)] = 1;
	ftsw_lft(r, 1)[ftsw_host_lid(r, 3)] = 2;
	ftsw_lft(r, 2)[ftsw_host_lid(r, 4)] = FTSW_PORT_NONE;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_GT(res.loops, 0);
	EXPECT_GT(res.no_route, 0);
	EXPECT_NE(NULL, strstr(res.report, "loop"));
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	{
		struct ftsw_route_opts o = { .roots = (uint32_t[]){ 0 }, .nroots = 1 };

		r = ftsw_route("updn", t, &o, &err);
		ASSERT_NE(NULL, r);
		co.updown = true;
		ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
		EXPECT_TRUE(res.ok) TH_LOG("%s", res.report ? res.report : "");
		EXPECT_EQ(0, res.cdg_cyclic_vls);
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
	}
	ftsw_topo_free(t);
}

/* The checker's blocks run in parallel; counts and report do not depend
 * on the number of threads. */
TEST(check_thread_count_invariant)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("rlft:3;4,4,8;1,4,4;1,1,1", &err);
	struct ftsw_degrade d = { .rand_links = 20, .rand_switches = 2, .seed = 8 };
	struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
	struct ftsw_routing *r = route("minhop", g, 1, 1);
	struct ftsw_check_result a, b;
	struct ftsw_check_opts co = { .minimal = true, .cdg = true,
				      .switch_lids = true, .max_report = 50 };
	uint32_t s;

	ASSERT_NE(NULL, r);
	/* damage some tables so that there is plenty to report */
	for (s = 0; s < r->nswitches; s += 3)
		ftsw_lft(r, s)[ftsw_host_lid(r, s % r->nhosts)] = FTSW_PORT_NONE;
	co.threads = 1;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &a, &err));
	co.threads = 5;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &b, &err));
	EXPECT_GT(a.no_route, 0);
	EXPECT_EQ(a.pairs, b.pairs);
	EXPECT_EQ(a.delivered, b.delivered);
	EXPECT_EQ(a.no_route, b.no_route);
	EXPECT_EQ(a.dead_port, b.dead_port);
	EXPECT_EQ(a.non_minimal, b.non_minimal);
	EXPECT_EQ(a.cdg_cyclic_vls, b.cdg_cyclic_vls);
	ASSERT_NE(NULL, a.report);
	ASSERT_NE(NULL, b.report);
	EXPECT_STREQ(a.report, b.report);
	ftsw_check_result_free(&a);
	ftsw_check_result_free(&b);
	ftsw_routing_free(r);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

TEST(dmodc_updown_cost_variant)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("rlft:3;4,4,8;1,4,4;1,1,1", &err);
	struct ftsw_degrade d = { .rand_links = 12, .seed = 4 };
	struct ftsw_topo *g = ftsw_topo_degrade(t, &d, &err);
	struct ftsw_route_opts o = { .updown_cost = true };
	struct ftsw_routing *r = ftsw_route("dmodc", g, &o, &err);
	struct ftsw_check_result res;

	ASSERT_NE(NULL, r);
	if (!r->unroutable_pairs) {
		EXPECT_TRUE(ut_check(r, false, true, &res));
	} else {
		ut_check(r, false, true, &res);
	}
	EXPECT_EQ(0, res.updown_violations);
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

/*
 * ftsw_route_make(), what every command's words become: the default
 * engine by topology (dmodk on a complete PGFT, dmodc on a degraded one,
 * dfsssp elsewhere), the smallest LMC the engine takes (shift1 with
 * K = 4 paths needs 2^LMC >= 4: LMC 2), the LMC as given (refused at
 * 0), and -r reading back the very tables a dump holds.
 */
TEST(route_make_from_words)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,2;1,1", &err);
	struct ftsw_degrade d = { .rand_links = 1, .seed = 1 };
	struct ftsw_topo *g, *x;
	struct ftsw_route_req q = { .o = { .threads = 1 } };
	struct ftsw_routing *r, *back;
	char path[] = "/tmp/ftsw-route-make-XXXXXX";
	uint32_t s;
	int fd;

	ASSERT_NE(NULL, t);
	g = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, g);
	x = ftsw_topo_gen_random(6, 8, 2, 8, 3, &err);
	ASSERT_NE(NULL, x) TH_LOG("%s", err.msg);
	ASSERT_FALSE(x->is_pgft);

	EXPECT_STREQ("dmodk", ftsw_engine_default(t));
	EXPECT_STREQ("dmodc", ftsw_engine_default(g));
	EXPECT_STREQ("dfsssp", ftsw_engine_default(x));
	r = ftsw_route_make(g, &q, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_STREQ("dmodc", r->engine);
	EXPECT_EQ(0, r->lmc);
	ftsw_routing_free(r);

	q.engine = "shift1";
	q.o.paths = 4;
	r = ftsw_route_make(t, &q, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_EQ(2, r->lmc);
	ftsw_routing_free(r);
	q.lmc_given = true;
	EXPECT_EQ(NULL, ftsw_route_make(t, &q, &err));
	EXPECT_NE(NULL, strstr(err.msg, "--lmc 2")) TH_LOG("%s", err.msg);

	q = (struct ftsw_route_req){ .engine = "dmodk", .lmc_given = true,
				     .o = { .lmc = 1, .threads = 1 } };
	r = ftsw_route_make(t, &q, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, r->lmc);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ftsw_lfts_write(r, path, &err)) TH_LOG("%s", err.msg);
	q.lfts = path;
	back = ftsw_route_make(t, &q, &err);
	unlink(path);
	ASSERT_NE(NULL, back) TH_LOG("%s", err.msg);
	for (s = 0; s < r->nswitches; s++)
		EXPECT_EQ(0, memcmp(ftsw_lft(r, s), ftsw_lft(back, s),
				    r->lft_size)) TH_LOG("switch %u", s);
	ftsw_routing_free(back);
	ftsw_routing_free(r);
	ftsw_topo_free(x);
	ftsw_topo_free(g);
	ftsw_topo_free(t);
}

/*
 * What goes to the kernel: each switch's own LID is port 0 (its agent), as
 * OpenSM writes it; the engine left it FTSW_PORT_NONE. FT(4,2): 8 hosts,
 * switch i's LID is 8 + 1 + i; only those 6 entries change.
 */
TEST(own_lids_port_0)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	uint8_t *before;
	uint32_t s, l;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0, 1);
	ASSERT_NE(NULL, r);
	before = malloc(r->nswitches * r->lft_size);
	ASSERT_NE(NULL, before);
	memcpy(before, r->lft, r->nswitches * r->lft_size);
	ftsw_routing_own_lids(r);
	for (s = 0; s < 6; s++)
		for (l = 0; l < r->lft_size; l++) {
			uint8_t was = before[s * r->lft_size + l];

			if (l == 9 + s) {
				EXPECT_EQ(FTSW_PORT_NONE, was);
				EXPECT_EQ(0, ftsw_lft(r, s)[l]);
			} else {
				EXPECT_EQ(was, ftsw_lft(r, s)[l]);
			}
		}
	free(before);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
