// SPDX-License-Identifier: GPL-2.0
/*
 * lash and dor (user/lib/route/lash.c, dor.c): routes delivered, minimal,
 * and deadlock-free by ftsw's channel dependency check per VL; dor's
 * routes and dateline VLs on a 4x4 torus by hand; the dateline VLs shown
 * necessary (one VL leaves a cycle).
 */
#include "common.h"
#include "analyze/analyze.h"

static const struct ftsw_route_opts opts;

/* Port of switch s's LFT towards host h (LMC 0). */
static uint8_t port_to(const struct ftsw_routing *r, uint32_t s, uint32_t h)
{
	return ftsw_lft(r, s)[ftsw_host_lid(r, h)];
}

TEST(dor_torus_4x4_by_hand)
{
	struct ftsw_topo *t = ut_gen("torus:4,4");
	struct ftsw_routing *r;
	struct ftsw_check_result res;
	uint8_t *sl;

	ASSERT_NE(NULL, t);
	r = ut_route("dor", t, &opts);
	ASSERT_NE(NULL, r);
	/* 2 wrapped dimensions: 4 dateline VLs */
	EXPECT_EQ(4, r->nvls);
	ASSERT_NE(NULL, r->sl);
	/* switch s carries host s. (0,0) -> (2,2): x first, tie of 2 hops
	 * both ways goes + (port 2), then y + (port 4) from (2,0) = 2 */
	EXPECT_EQ(2, port_to(r, 0, 10));
	EXPECT_EQ(2, port_to(r, 1, 10));
	EXPECT_EQ(4, port_to(r, 2, 10));
	EXPECT_EQ(4, port_to(r, 6, 10));
	EXPECT_EQ(1, port_to(r, 10, 10));
	/* (3,0) -> (0,0): one hop + across the x wrap: VL bit 0 */
	EXPECT_EQ(2, port_to(r, 3, 0));
	EXPECT_EQ(1, r->sl[3 * 16 + 0]);
	/* (0,0) -> (0,3): - across the y wrap (port 5): bit 1 */
	EXPECT_EQ(5, port_to(r, 0, 12));
	EXPECT_EQ(2, r->sl[0 * 16 + 12]);
	/* (3,0) -> (0,3): both wraps; (1,1) -> (2,2): none */
	EXPECT_EQ(3, r->sl[3 * 16 + 12]);
	EXPECT_EQ(0, r->sl[5 * 16 + 10]);
	EXPECT_TRUE(ut_check(r, true, false, &res));
	EXPECT_EQ(0, res.cdg_cyclic_vls);
	ftsw_check_result_free(&res);
	/* the same routes on one VL: the rings are cycles */
	sl = r->sl;
	r->sl = NULL;
	r->nvls = 1;
	EXPECT_FALSE(ut_check(r, true, false, &res));
	EXPECT_EQ(1, res.cdg_cyclic_vls);
	ftsw_check_result_free(&res);
	r->sl = sl;
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(dor_meshes_and_limits)
{
	static const struct { const char *spec; unsigned vls; } ok[] = {
		{ "mesh:3,3,hosts=2", 1 },	/* no wrap: one VL */
		{ "mesh:4,3,2", 1 },
		{ "torus:4,4,5", 8 },		/* 2^3 */
		{ "torus:3,3,3", 1 },		/* rings of 3: 1-hop segments */
		{ "torus:2,5", 2 },		/* a ring of 2 has no dateline */
		{ "torus:6", 2 },
	};
	struct ftsw_route_opts o = { .max_vls = 8 };
	struct ftsw_err err;
	struct ftsw_topo *t;
	unsigned i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct ftsw_check_result res;
		struct ftsw_routing *r;

		t = ut_gen(ok[i].spec);
		ASSERT_NE(NULL, t);
		r = ut_route("dor", t, &o);
		ASSERT_NE(NULL, r);
		EXPECT_EQ(ok[i].vls, r->nvls) TH_LOG("%s", ok[i].spec);
		EXPECT_TRUE(ut_check(r, true, false, &res)) TH_LOG("%s", ok[i].spec);
		EXPECT_EQ(0, res.cdg_cyclic_vls);
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
	/* 4 dimensions of 4+ need 16 VLs: refused, with the count */
	t = ut_gen("torus:4,4,4,4");
	ASSERT_NE(NULL, t);
	o.max_vls = 15;
	EXPECT_EQ(NULL, ftsw_route("dor", t, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "needs 16 VLs"));
	ftsw_topo_free(t);
	/* a torus without its spec (as read from a net file): one VL, said */
	t = ut_gen("torus:4,4");
	ASSERT_NE(NULL, t);
	t->spec[0] = 0;
	{
		struct ftsw_routing *r = ut_route("dor", t, &opts);

		ASSERT_NE(NULL, r);
		EXPECT_EQ(1, r->nvls);
		EXPECT_NE(NULL, strstr(r->warning, "no torus coordinates"));
		ftsw_routing_free(r);
	}
	ftsw_topo_free(t);
}

TEST(lash_deadlock_free)
{
	static const struct { const char *spec; unsigned lo, hi; } c[] = {
		/* shortest paths in a fat-tree are up*down*: one layer */
		{ "kary:4,2", 1, 1 },
		{ "ftmn:4,3", 1, 1 },
		/* rings: a 4-ring's shortest paths of 2 hops close the ring */
		{ "torus:4,4", 2, 8 },
		{ "torus:3,3,3", 2, 8 },
		{ "mesh:4,4", 1, 8 },
		{ "kautz:2,3,endpoints=48", 1, 8 },
		{ "random:32,12,4,48,3", 2, 8 },
		{ "dragonfly:4,2,2", 1, 8 },
		{ "deimos", 1, 8 },
	};
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ftsw_topo *t = ut_gen(c[i].spec);
		struct ftsw_check_result res;
		struct ftsw_routing *r;

		ASSERT_NE(NULL, t);
		r = ut_route("lash", t, &opts);
		ASSERT_NE(NULL, r);
		EXPECT_LE(c[i].lo, r->nvls) TH_LOG("%s", c[i].spec);
		EXPECT_GE(c[i].hi, r->nvls) TH_LOG("%s", c[i].spec);
		EXPECT_TRUE(ut_check(r, true, false, &res)) TH_LOG("%s", c[i].spec);
		EXPECT_EQ(0, res.cdg_cyclic_vls);
		EXPECT_EQ(0, r->unroutable_pairs);
		/* the layer count is information, not a warning */
		EXPECT_EQ(0, r->warning[0]) TH_LOG("%s: %s", c[i].spec, r->warning);
		EXPECT_NE(NULL, strstr(r->info, "virtual layer"));
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

TEST(lash_same_routes_as_minhop_and_lmc)
{
	struct ftsw_topo *t = ut_gen("torus:4,4,hosts=2");
	struct ftsw_route_opts o = { .lmc = 1 };
	struct ftsw_routing *a, *b;
	struct ftsw_check_result res;
	struct ftsw_err err;

	ASSERT_NE(NULL, t);
	a = ut_route("lash", t, &o);
	b = ut_route("minhop", t, &o);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	/* LASH only adds layers to minhop's balanced shortest paths */
	EXPECT_EQ(0, memcmp(a->lft, b->lft, a->lft_size * a->nswitches));
	EXPECT_TRUE(ut_check(a, true, false, &res));
	ftsw_check_result_free(&res);
	/* hosts on the same switch talk on layer 0 */
	EXPECT_EQ(0, a->sl[0 * 32 + 1]);
	ftsw_routing_free(a);
	ftsw_routing_free(b);
	/* one layer cannot hold a torus's shortest paths */
	o.lmc = 0;
	o.max_vls = 1;
	EXPECT_EQ(NULL, ftsw_route("lash", t, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "within 1 virtual layer for"));
	o.max_vls = 16;
	EXPECT_EQ(NULL, ftsw_route("lash", t, &o, &err));
	EXPECT_NE(NULL, strstr(err.msg, "at most 15"));
	ftsw_topo_free(t);
}

/* Mean EBB of engine e on t over n random bisections (seeds 1..n). */
static double ebb(const char *e, const struct ftsw_topo *t, unsigned n)
{
	struct ftsw_random_opts ro = { .pattern = "bisect:1", .order = "topo",
				       .ranks = t->nhosts, .samples = n };
	struct ftsw_random_metrics m;
	struct ftsw_routing *r = ut_route(e, t, &opts);
	struct ftsw_err err;
	double v = -1;

	if (r && !ftsw_analyze_random(r, &ro, &m, &err) && m.ebb)
		v = m.s.mean;
	ftsw_routing_free(r);
	return v;
}

/*
 * Paper 001 Figs. 5 and 6 in small (tests/bench/topos runs the full
 * ones): on Table I's 1,024-endpoint XGFT the SSSP routings' effective
 * bisection bandwidth is about twice MinHop's and DOR's the lowest; on a
 * Kautz graph all routings are close. LASH and DFSSSP only add layers to
 * MinHop's and SSSP's tables: the same bandwidth exactly.
 */
TEST(paper001_ebb_small)
{
	struct ftsw_topo *t = ut_gen("xgft:2;10,10;5,5@1024");
	double mh, ss, la, df, dr, v[5];
	static const char *const eng[5] = { "minhop", "updn", "lash", "dor",
					     "dfsssp" };
	unsigned i;

	ASSERT_NE(NULL, t);
	mh = ebb("minhop", t, 100);
	ss = ebb("sssp", t, 100);
	la = ebb("lash", t, 100);
	df = ebb("dfsssp", t, 100);
	dr = ebb("dor", t, 100);
	ASSERT_LT(0, mh);
	EXPECT_GT(ss, 1.5 * mh);
	EXPECT_EQ(mh, la);
	EXPECT_EQ(ss, df);
	EXPECT_LT(dr, mh);
	ftsw_topo_free(t);
	t = ut_gen("kautz:3,3,endpoints=512");
	ASSERT_NE(NULL, t);
	ss = ebb("sssp", t, 100);
	for (i = 0; i < 5; i++) {
		v[i] = ebb(eng[i], t, 100);
		EXPECT_LT(0.75 * ss, v[i]) TH_LOG("%s %f sssp %f", eng[i], v[i], ss);
		EXPECT_GT(1.25 * ss, v[i]) TH_LOG("%s %f sssp %f", eng[i], v[i], ss);
	}
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
