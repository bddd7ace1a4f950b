// SPDX-License-Identifier: GPL-2.0
/*
 * Engines for arbitrary topologies, multipath and oblivious routing:
 * sssp, dfsssp (papers 001), shift1/disjoint/random/umulti (paper 000),
 * osrm2/osrm3/mlid/wsr (paper 002). Expected values are hand-computed from
 * the papers' definitions (see the comments).
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"

static struct ftsw_routing *route_k(const char *eng, const struct ftsw_topo *t,
				    unsigned lmc, unsigned K)
{
	struct ftsw_route_opts o = { .lmc = lmc, .threads = 1, .paths = K,
				     .seed = 42 };

	return ut_route(eng, t, &o);
}

static int check_ok(const struct ftsw_routing *r, bool minimal, bool updown,
		    struct ftsw_check_result *res)
{
	int ok;

	memset(res, 0, sizeof(*res));
	ok = ut_check(r, minimal, updown, res);
	ftsw_check_result_free(res);
	return ok;
}

/* ring of n switches, one host each (switch i port 1 = host, 2 = next, 3 = prev) */
static struct ftsw_topo *ring(unsigned n)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_new();
	uint32_t s[64], h;
	unsigned i;

	for (i = 0; i < n; i++)
		s[i] = ftsw_topo_add_node(t, FTSW_SWITCH, 3, 0x1000 + i, "S", &err);
	for (i = 0; i < n; i++) {
		h = ftsw_topo_add_node(t, FTSW_HOST, 1, 0x2000 + i, "H", &err);
		ftsw_topo_connect(t, s[i], 1, h, 1, &err);
	}
	for (i = 0; i < n; i++)
		ftsw_topo_connect(t, s[i], 2, s[(i + 1) % n], 3, &err);
	ftsw_topo_finish(t, &err);
	return t;
}

/* a x b torus, 2 hosts per switch; ports 1-2 hosts, 3 E, 4 W, 5 N, 6 S */
static struct ftsw_topo *torus(unsigned a, unsigned b)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_new();
	uint32_t s[64];
	unsigned i, j;

	for (i = 0; i < a * b; i++)
		s[i] = ftsw_topo_add_node(t, FTSW_SWITCH, 6, 0x1000 + i, "S", &err);
	for (i = 0; i < a * b; i++)
		for (j = 0; j < 2; j++) {
			uint32_t h = ftsw_topo_add_node(t, FTSW_HOST, 1,
							0x2000 + 2 * i + j, "H", &err);

			ftsw_topo_connect(t, s[i], j + 1, h, 1, &err);
		}
	for (i = 0; i < a; i++)
		for (j = 0; j < b; j++) {
			ftsw_topo_connect(t, s[i * b + j], 3,
					  s[i * b + (j + 1) % b], 4, &err);
			ftsw_topo_connect(t, s[i * b + j], 5,
					  s[((i + 1) % a) * b + j], 6, &err);
		}
	ftsw_topo_finish(t, &err);
	return t;
}

TEST(sssp_pgft_minimal_and_valid)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;4,4,4;1,4,2;1,1,2", &err);
	struct ftsw_check_result res;
	struct ftsw_routing *r;

	ASSERT_NE(NULL, t);
	r = route_k("sssp", t, 0, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	/* LMC: every offset routed as its own destination */
	r = route_k("sssp", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Balancing: one leaf with two parallel links (p = 2) to each of 2 spine
 * switches, i.e. 4 equal up channels; the other leaf's 8 destinations
 * reached from the first leaf must spread 2 per channel (weights bumped
 * along each routed path: each destination adds its 8 sources to the
 * channel it takes, so the next one takes an unloaded one).
 */
TEST(sssp_balances_parallel_links)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;8,2;1,2;1,2", &err);
	struct ftsw_routing *r;
	unsigned use[16] = { 0 }, j, n = 0;
	uint32_t leaf0;

	ASSERT_NE(NULL, t);
	r = route_k("sssp", t, 0, 0);
	ASSERT_NE(NULL, r);
	leaf0 = t->nodes[ftsw_host_switch(t, t->hosts[0])].index;
	for (j = 8; j < 16; j++)
		use[ftsw_lft(r, leaf0)[ftsw_host_lid(r, j)]]++;
	for (j = 0; j < 16; j++)
		if (use[j]) {
			EXPECT_EQ(2, use[j]);
			n++;
		}
	EXPECT_EQ(4, n);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(sssp_dfsssp_degraded_and_random)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;4,4,4;1,4,4;1,1,1", &err);
	struct ftsw_degrade d = { .rand_links = 16, .seed = 3 };
	struct ftsw_topo *dt, *rt;
	struct ftsw_check_result res;
	struct ftsw_routing *r;

	ASSERT_NE(NULL, t);
	dt = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, dt);
	r = route_k("sssp", dt, 0, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	r = route_k("dfsssp", dt, 1, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	rt = ftsw_topo_gen_random(16, 12, 4, 30, 7, &err);
	ASSERT_NE(NULL, rt) TH_LOG("%s", err.msg);
	EXPECT_EQ(30, ftsw_topo_nlinks(rt) - 64);
	r = route_k("dfsssp", rt, 0, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	ftsw_topo_free(rt);
	ftsw_topo_free(dt);
	ftsw_topo_free(t);
}

/*
 * Ring of 6: shortest paths of 2 and 3 hops go around in both directions,
 * so the clockwise channels depend on each other in a circle: SSSP on one
 * layer has a cyclic CDG; DFSSSP needs at least 2 layers, each acyclic.
 */
TEST(dfsssp_ring_needs_layers)
{
	struct ftsw_topo *t = ring(6);
	struct ftsw_dfsssp_opts o = { .heuristic = FTSW_VL_WEAKEST };
	struct ftsw_dfsssp_stats st;
	struct ftsw_check_opts co = { .minimal = true, .cdg = true };
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	struct ftsw_err err;
	int hz;

	r = route_k("sssp", t, 0, 0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_GE(res.cdg_cyclic_vls, 1);
	ftsw_check_result_free(&res);
	for (hz = 0; hz < 3; hz++) {
		o.heuristic = (enum ftsw_vl_heuristic)hz;
		o.no_balance = true;
		ASSERT_EQ(0, ftsw_dfsssp_layers(t, r, &o, &st, &err)) TH_LOG("%s", err.msg);
		EXPECT_GE(st.layers_needed, 2);
		EXPECT_EQ(st.layers_needed, r->nvls);
		EXPECT_GE(st.cycles_broken, 1);
		EXPECT_GT(st.cdg_bytes, 0);
		EXPECT_TRUE(check_ok(r, true, false, &res));
		/* balanced onto all 8 layers, still acyclic */
		o.no_balance = false;
		ASSERT_EQ(0, ftsw_dfsssp_layers(t, r, &o, &st, &err));
		EXPECT_EQ(8, r->nvls);
		EXPECT_TRUE(check_ok(r, true, false, &res));
	}
	/* one layer allowed: a clear failure */
	o.max_vls = 1;
	EXPECT_EQ(-1, ftsw_dfsssp_layers(t, r, &o, &st, &err));
	EXPECT_NE(NULL, strstr(err.msg, "more than 1 virtual layer needed"));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(dfsssp_torus_and_tree)
{
	struct ftsw_topo *t = torus(4, 4);
	struct ftsw_dfsssp_opts o = { .no_balance = true };
	struct ftsw_dfsssp_stats st;
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	struct ftsw_err err;

	r = route_k("dfsssp", t, 0, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ASSERT_EQ(0, ftsw_dfsssp_layers(t, r, &o, &st, &err));
	EXPECT_GE(st.layers_needed, 2);
	EXPECT_TRUE(check_ok(r, true, false, &res));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	/* a fat tree's shortest paths are up*down*: one layer suffices */
	t = ftsw_topo_gen("pgft:3;4,4,4;1,4,4;1,1,1", &err);
	ASSERT_NE(NULL, t);
	r = route_k("sssp", t, 0, 0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_dfsssp_layers(t, r, &o, &st, &err));
	EXPECT_EQ(1, st.layers_needed);
	EXPECT_EQ(0, st.cycles_broken);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Paper 000, §4.2 on Fig. 3, XGFT(3;4,4,4;1,4,2), pair (0, 63), NCA at
 * level 3, X = 1*4*2 = 8 paths. d-mod-k: b1 = 63 mod 1 = 0, b2 = 63 mod 4
 * = 3, b3 = floor(63/4) mod 2 = 1, index (0*4 + 3)*2 + 1 = 7.
 * shift-1: 7, 0, 1, .. ; disjoint (P1 = 8, P2 = 2, P3 = 1, t1 always 0):
 * 7, 7+2, 7+4, 7+6, 7+1, 7+3, 7+5, 7+7 (mod 8) = 7, 1, 3, 5, 0, 2, 4, 6.
 */
TEST(lmp_paper000_sequences)
{
	struct ftsw_pgft g;
	struct ftsw_err err;
	uint32_t out[8], out2[8];
	static const uint32_t dis[8] = { 7, 1, 3, 5, 0, 2, 4, 6 };
	unsigned n, i, j;

	ASSERT_EQ(0, ftsw_pgft_parse("xgft:3;4,4,4;1,4,2", &g, NULL, 0, &err));
	EXPECT_EQ(7, ftsw_dmodk_path_index(&g, 63, 3));
	n = ftsw_lmp_select(&g, FTSW_LMP_SHIFT1, 63, 3, 3, 0, out);
	ASSERT_EQ(3, n);
	EXPECT_EQ(7, out[0]);
	EXPECT_EQ(0, out[1]);
	EXPECT_EQ(1, out[2]);
	n = ftsw_lmp_select(&g, FTSW_LMP_DISJOINT, 63, 3, 8, 0, out);
	ASSERT_EQ(8, n);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(dis[i], out[i]);
	/* K > X: only X distinct paths (NCA level 2 has X = 4) */
	EXPECT_EQ(4, ftsw_lmp_select(&g, FTSW_LMP_SHIFT1, 63, 2, 6, 0, out));
	/* random: K distinct paths, the same for the same seed */
	n = ftsw_lmp_select(&g, FTSW_LMP_RANDOM, 63, 3, 5, 9, out);
	ASSERT_EQ(5, n);
	ftsw_lmp_select(&g, FTSW_LMP_RANDOM, 63, 3, 5, 9, out2);
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(out[i], out2[i]);
		EXPECT_LT(out[i], 8);
		for (j = 0; j < i; j++)
			EXPECT_NE(out[i], out[j]);
	}
	EXPECT_EQ(8, ftsw_lmp_select(&g, FTSW_LMP_UMULTI, 63, 3, 1, 0, out));
}

/* Path i of (0, 63): 0 -> 64 -> 80 + i/2 -> 96 + i -> 92 + i/2 -> 79 -> 63. */
static int is_path(const struct ftsw_topo *t, const uint32_t *sw, int n,
		   unsigned i)
{
	uint32_t want[5] = { 64, 80 + i / 2, 96 + i, 92 + i / 2, 79 };
	int k;

	if (n != 5)
		return 0;
	for (k = 0; k < 5; k++)
		if (t->switches[sw[k]] != want[k])
			return 0;
	return 1;
}

TEST(lmp_paper000_fig3_tables)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("xgft:3;4,4,4;1,4,2", &err);
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	uint32_t sw[8];
	int n;
	unsigned j;
	static const unsigned shift[4] = { 7, 0, 1, 7 };	/* offset 3 aliases 0 */
	static const unsigned dis[4] = { 7, 1, 3, 5 };

	ASSERT_NE(NULL, t);
	r = route_k("dmodk", t, 0, 0);
	ASSERT_NE(NULL, r);
	n = ftsw_trace(r, 0, ftsw_host_lid(r, 63), sw, NULL, 8);
	EXPECT_TRUE(is_path(t, sw, n, 7));
	ftsw_routing_free(r);

	r = route_k("shift1", t, 2, 3);
	ASSERT_NE(NULL, r);
	for (j = 0; j < 4; j++) {
		n = ftsw_trace(r, 0, ftsw_host_lid(r, 63) + j, sw, NULL, 8);
		EXPECT_TRUE(is_path(t, sw, n, shift[j])) TH_LOG("offset %u", j);
	}
	EXPECT_EQ(7, r->policy[0].allowed[0]);	/* offsets 0, 1, 2 */
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);

	r = route_k("disjoint", t, 2, 4);
	ASSERT_NE(NULL, r);
	for (j = 0; j < 4; j++) {
		n = ftsw_trace(r, 0, ftsw_host_lid(r, 63) + j, sw, NULL, 8);
		EXPECT_TRUE(is_path(t, sw, n, dis[j])) TH_LOG("offset %u", j);
	}
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);

	/* umulti: all 8 paths, offset j on path (7 + j) mod 8 */
	r = route_k("umulti", t, 3, 0);
	ASSERT_NE(NULL, r);
	for (j = 0; j < 8; j++) {
		n = ftsw_trace(r, 0, ftsw_host_lid(r, 63) + j, sw, NULL, 8);
		EXPECT_TRUE(is_path(t, sw, n, (7 + j) % 8)) TH_LOG("offset %u", j);
	}
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);

	r = route_k("random", t, 2, 3);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);
	/* K needs the LMC */
	EXPECT_EQ(NULL, route_k("disjoint", t, 1, 3));
	ftsw_topo_free(t);
}

/*
 * Count distinct sources per channel and destinations per channel over
 * all pairs, each source on its fixed offset.
 */
static void link_counts(const struct ftsw_routing *r, unsigned *src_max,
			unsigned *src_min, unsigned *dst_max, unsigned *dst_min,
			int level_from, int level_to)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t nh = t->nhosts, s, d, np = t->nports;
	uint8_t *S = calloc((size_t)np * nh, 1), *D = calloc((size_t)np * nh, 1);
	uint32_t sw[16];
	uint8_t pp[16];
	uint64_t c;

	for (s = 0; s < nh; s++)
		for (d = 0; d < nh; d++) {
			int n, i;

			if (s == d)
				continue;
			n = ftsw_trace(r, s, ftsw_host_lid(r, d) +
				       r->policy[s].fixed_offset, sw, pp, 16);
			for (i = 0; i < n; i++) {
				uint32_t id = t->switches[sw[i]];

				c = t->nodes[id].first_port + pp[i] - 1;
				S[c * nh + s] = 1;
				D[c * nh + d] = 1;
			}
		}
	*src_max = *dst_max = 0;
	*src_min = *dst_min = ~0u;
	for (c = 0; c < np; c++) {
		uint32_t peer = t->ports[c].peer;
		unsigned ns = 0, nd = 0;

		if (peer == FTSW_NONE)
			continue;
		/* channel c leaves the node owning port record c */
		{
			uint32_t node = 0;

			while (node + 1 < t->nnodes &&
			       t->nodes[node + 1].first_port <= c)
				node++;
			if (t->nodes[node].level != level_from ||
			    t->nodes[peer].level != level_to)
				continue;
		}
		for (s = 0; s < nh; s++) {
			ns += S[c * nh + s];
			nd += D[c * nh + s];
		}
		if (level_to > level_from) {
			*src_max = ns > *src_max ? ns : *src_max;
			*src_min = ns < *src_min ? ns : *src_min;
		} else {
			*dst_max = nd > *dst_max ? nd : *dst_max;
			*dst_min = nd < *dst_min ? nd : *dst_min;
		}
	}
	free(S);
	free(D);
}

/*
 * Paper 002, §3.2: on FT(m, 2) with Z = sqrt(m/2) integer, OSRM2 puts on
 * each up link (leaf -> top) exactly Z sources and on each down link (top
 * -> leaf) exactly Z destinations. FT(8, 2): Z = 2; FT(32, 2): Z = 4.
 */
TEST(osrm2_link_counts)
{
	static const char *const specs[] = { "ftmn:8,2", "ftmn:32,2" };
	static const unsigned Z[] = { 2, 4 }, lmc[] = { 1, 2 };
	unsigned i;

	for (i = 0; i < 2; i++) {
		struct ftsw_err err;
		struct ftsw_topo *t = ftsw_topo_gen(specs[i], &err);
		struct ftsw_check_result res;
		struct ftsw_routing *r;
		unsigned smax, smin, dmax, dmin;

		ASSERT_NE(NULL, t);
		r = route_k("osrm2", t, lmc[i], 0);
		ASSERT_NE(NULL, r);
		EXPECT_TRUE(check_ok(r, true, true, &res));
		link_counts(r, &smax, &smin, &dmax, &dmin, 1, 2);
		EXPECT_EQ(Z[i], smax);
		EXPECT_EQ(Z[i], smin);
		link_counts(r, &smax, &smin, &dmax, &dmin, 2, 1);
		EXPECT_EQ(Z[i], dmax);
		EXPECT_EQ(Z[i], dmin);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

/*
 * Non-square m/2 = 8 (FT(16, 2)): Zs = 3, Zd = 2, Ns = 3, Nd = 4, source
 * groups {0,1,2} {3,4,5} {6,7}, destination groups {0..3} {4..7}; up link
 * to top g*2 + j carries the sources of group g: at most Ns = 3; down
 * links at most Nd = 4 destinations; tops 6 and 7 unused.
 */
TEST(osrm2_nonsquare_and_osrm3)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("ftmn:16,2", &err);
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	unsigned smax, smin, dmax, dmin;

	ASSERT_NE(NULL, t);
	r = route_k("osrm2", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	link_counts(r, &smax, &smin, &dmax, &dmin, 1, 2);
	EXPECT_EQ(3, smax);
	EXPECT_EQ(0, smin);
	link_counts(r, &smax, &smin, &dmax, &dmin, 2, 1);
	EXPECT_EQ(4, dmax);
	ftsw_routing_free(r);
	/* osrm2 is defined on FT(m, 2) only */
	EXPECT_EQ(NULL, route_k("osrm3", t, 3, 0));
	ftsw_topo_free(t);

	/*
	 * FT(8, 3): links between a SUBFT(8, 2) and the roots carry exactly
	 * m/2 = 4 sources (up) and 4 destinations (down), Fig. 9.
	 */
	t = ftsw_topo_gen("ftmn:8,3", &err);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, route_k("osrm2", t, 2, 0));
	EXPECT_EQ(NULL, route_k("osrm3", t, 1, 0));	/* 4 groups: LMC 2 */
	r = route_k("osrm3", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	link_counts(r, &smax, &smin, &dmax, &dmin, 2, 3);
	EXPECT_EQ(4, smax);
	EXPECT_EQ(4, smin);
	link_counts(r, &smax, &smin, &dmax, &dmin, 3, 2);
	EXPECT_EQ(4, dmax);
	EXPECT_EQ(4, dmin);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(mlid_wsr_and_refusals)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("ftmn:8,2", &err);
	struct ftsw_topo *rt = ftsw_topo_gen_random(8, 8, 2, 10, 1, &err);
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	unsigned smax, smin, dmax, dmin;
	const char *const only_trees[] = { "shift1", "disjoint", "random",
					   "umulti", "osrm2", "osrm3", "mlid",
					   "wsr" };
	unsigned i;
	struct ftsw_route_opts o = { .lmc = 2 };

	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, rt);
	/* mlid: 4 roots, LMC 2; the 4 hosts of a leaf leave on 4 up links */
	r = route_k("mlid", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	link_counts(r, &smax, &smin, &dmax, &dmin, 1, 2);
	EXPECT_EQ(1, smax);	/* one source per up link */
	ftsw_routing_free(r);
	/* wsr: per-pair paths, offsets = host position under its leaf */
	r = route_k("wsr", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);
	for (i = 0; i < sizeof(only_trees) / sizeof(only_trees[0]); i++) {
		EXPECT_EQ(NULL, ftsw_route(only_trees[i], rt, &o, &err));
		EXPECT_NE(NULL, strstr(err.msg, only_trees[i])) TH_LOG("%s", err.msg);
	}
	ftsw_topo_free(rt);
	ftsw_topo_free(t);
	t = ftsw_topo_gen("ftmn:4,3", &err);
	ASSERT_NE(NULL, t);
	r = route_k("wsr", t, 3, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);
	r = route_k("mlid", t, 2, 0);
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(check_ok(r, true, true, &res));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * WSR (paper 002, §5) by hand on FT(4, 2): hosts 0..7 (leaf = host / 2),
 * leaves are nodes 8..11, top switches 12 (T0) and 13 (T1). Channels U0 =
 * leaf0->T0, U1 = leaf0->T1, Dj(x) = Tj->leaf x, all 0 at first. Source 0:
 * (0,1) same leaf;
 * (0,2): T0 0+0, T1 0+0, tie -> T0; U0 = 1, D0(1) = 1
 * (0,3): T0 1+1, T1 0+0 -> T1; U1 = 1, D1(1) = 1
 * (0,4): T0 1+0, T1 1+0, tie -> T0; U0 = 2, D0(2) = 1
 * (0,5): T0 2+1, T1 1+0 -> T1; U1 = 2, D1(2) = 1
 * (0,6): T0 2+0, T1 2+0, tie -> T0; U0 = 3, D0(3) = 1
 * (0,7): T0 3+1, T1 2+0 -> T1; U1 = 3
 * Source 1: (1,0) same leaf; (1,2): T0 3+1, T1 3+1, tie -> T0.
 */
TEST(wsr_paper002_by_hand)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("ftmn:4,2", &err);
	struct ftsw_routing *r;
	static const unsigned top0[8] = { 0, 0, 12, 13, 12, 13, 12, 13 };
	uint32_t sw[8];
	unsigned d;
	int n;

	ASSERT_NE(NULL, t);
	r = route_k("wsr", t, 1, 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, r->policy[0].fixed_offset);
	EXPECT_EQ(1, r->policy[1].fixed_offset);
	for (d = 2; d < 8; d++) {
		n = ftsw_trace(r, 0, ftsw_host_lid(r, d), sw, NULL, 8);
		ASSERT_EQ(3, n);
		EXPECT_EQ(top0[d], t->switches[sw[1]]) TH_LOG("0 -> %u", d);
	}
	n = ftsw_trace(r, 1, ftsw_host_lid(r, 2) + 1, sw, NULL, 8);
	ASSERT_EQ(3, n);
	EXPECT_EQ(12, t->switches[sw[1]]);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
