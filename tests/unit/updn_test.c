// SPDX-License-Identifier: GPL-2.0
/*
 * Up*-Down* on irregular fabrics: a property test over hundreds of random
 * switch graphs and roots (no up*down* violation, every VL's channel
 * dependency graph acyclic, every pair delivered when the graph is
 * connected), the unroutable-pair count every engine reports the same way,
 * and the roots updn picked.
 */
#include <stdlib.h>
#include <string.h>
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "route/routing.h"

static int check(const struct ftsw_routing *r, bool minimal,
		 struct ftsw_check_result *res)
{
	struct ftsw_check_opts co = { .minimal = minimal, .updown = true,
				      .cdg = true, .switch_lids = true,
				      .threads = 1 };
	struct ftsw_err err;

	if (ftsw_routing_check(r, &co, res, &err)) {
		fprintf(stderr, "# check: %s\n", err.msg);
		return 0;
	}
	return res->ok;
}

/*
 * The shapes of the issue (16 switches x 8 ports, 32 links; 6 x 5, 8
 * links) and a few more, each over many seeds and every root.
 */
TEST(updn_random_graphs_every_root)
{
	static const struct { unsigned nsw, ports, hosts, links, seeds; } g[] = {
		{ 16, 8, 2, 32, 12 }, { 6, 5, 2, 8, 30 }, { 6, 5, 1, 10, 20 },
		{ 10, 6, 2, 15, 15 }, { 12, 8, 3, 20, 10 },
	};
	unsigned i, seed, root, runs = 0;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		for (seed = 1; seed <= g[i].seeds; seed++) {
			struct ftsw_err err;
			struct ftsw_topo *t = ftsw_topo_gen_random(g[i].nsw,
				g[i].ports, g[i].hosts, g[i].links, seed, &err);

			ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
			for (root = 0; root < g[i].nsw; root++) {
				struct ftsw_route_opts o = { .roots = &root,
							     .nroots = 1,
							     .threads = 1 };
				struct ftsw_check_result res;
				struct ftsw_routing *r = ftsw_route("updn", t, &o, &err);

				ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
				EXPECT_EQ(0, r->unroutable_pairs);
				EXPECT_TRUE(check(r, false, &res))
					TH_LOG("%ux%u %u links seed %u root %u: "
					       "%s", g[i].nsw, g[i].ports,
					       g[i].links, seed, root,
					       res.report ? res.report : "");
				EXPECT_EQ(0, res.updown_violations);
				EXPECT_EQ(0, res.cdg_cyclic_vls);
				EXPECT_EQ(res.pairs, res.delivered);
				ftsw_check_result_free(&res);
				ftsw_routing_free(r);
				runs++;
			}
			ftsw_topo_free(t);
		}
	EXPECT_GE(runs, 500);
}

/* Default roots: the result names them and why. */
TEST(updn_names_its_roots)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,4;1,1", &err);
	struct ftsw_route_opts o = { .threads = 1 };
	uint32_t two[2] = { 5, 1 };
	struct ftsw_routing *r;
	unsigned i;

	ASSERT_NE(NULL, t);
	r = ftsw_route("updn", t, &o, &err);
	ASSERT_NE(NULL, r);
	/* 4 leaves (switches 0..3), 4 top switches (4..7) */
	ASSERT_EQ(4, r->nroots);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(4 + i, r->roots[i]);
	EXPECT_NE(NULL, strstr(r->roots_why, "farthest from any host"));
	ftsw_routing_free(r);
	o.roots = two;
	o.nroots = 2;
	r = ftsw_route("updn", t, &o, &err);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(2, r->nroots);
	EXPECT_EQ(5, r->roots[0]);
	EXPECT_EQ(1, r->roots[1]);
	EXPECT_NE(NULL, strstr(r->roots_why, "--roots"));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Two switches each with a host and no cable between them: 2 ordered
 * host pairs have no route, and every engine that routes such a fabric
 * says so with the same count.
 */
static struct ftsw_topo *two_islands(void)
{
	struct ftsw_topo *t = ftsw_topo_new();
	struct ftsw_err err;
	uint32_t a = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x10, "A", &err);
	uint32_t b = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x20, "B", &err);
	uint32_t c = ftsw_topo_add_node(t, FTSW_SWITCH, 4, 0x30, "C", &err);
	uint32_t h0 = ftsw_topo_add_node(t, FTSW_HOST, 1, 0x1, "h0", &err);
	uint32_t h1 = ftsw_topo_add_node(t, FTSW_HOST, 1, 0x2, "h1", &err);
	uint32_t h2 = ftsw_topo_add_node(t, FTSW_HOST, 1, 0x3, "h2", &err);

	if (ftsw_topo_connect(t, h0, 1, a, 1, &err) ||
	    ftsw_topo_connect(t, h1, 1, b, 1, &err) ||
	    ftsw_topo_connect(t, h2, 1, c, 1, &err) ||
	    ftsw_topo_connect(t, a, 2, b, 2, &err) ||	/* C is an island */
	    ftsw_topo_finish(t, &err)) {
		ftsw_topo_free(t);
		return NULL;
	}
	return t;
}

TEST(unroutable_pairs_counted_alike)
{
	static const char *eng[] = { "minhop", "updn", "sssp", "dfsssp" };
	struct ftsw_topo *t = two_islands();
	unsigned i;

	ASSERT_NE(NULL, t);
	for (i = 0; i < sizeof(eng) / sizeof(eng[0]); i++) {
		struct ftsw_route_opts o = { .threads = 1 };
		struct ftsw_err err;
		struct ftsw_routing *r = ftsw_route(eng[i], t, &o, &err);

		ASSERT_NE(NULL, r) TH_LOG("%s: %s", eng[i], err.msg);
		/* h2 <-> h0, h2 <-> h1, both directions */
		EXPECT_EQ(4, r->unroutable_pairs) TH_LOG("%s", eng[i]);
		EXPECT_NE(NULL, strstr(r->warning, "unroutable"))
			TH_LOG("%s: '%s'", eng[i], r->warning);
		ftsw_routing_free(r);
	}
	ftsw_topo_free(t);
}

/*
 * route check -i checks every entry: on dmodk's PGFT(2;4,4;1,2;1,1)
 * tables, an entry no host path uses (found by tracing every pair) is
 * broken; the host-pair check still passes, the all-entries check finds
 * exactly that one entry.
 */
TEST(check_all_entries_finds_unused_fault)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,2;1,1", &err);
	struct ftsw_route_opts o = { .threads = 1 };
	struct ftsw_check_opts co = { .cdg = true, .threads = 1 };
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	uint8_t *used;
	uint32_t a, b, s, lid, hit = FTSW_NONE, hitlid = 0;

	ASSERT_NE(NULL, t);
	r = ftsw_route("dmodk", t, &o, &err);
	ASSERT_NE(NULL, r);
	used = calloc((size_t)r->nswitches * r->lft_size, 1);
	ASSERT_NE(NULL, used);
	for (a = 0; a < r->nhosts; a++)
		for (b = 0; b < r->nhosts; b++) {
			uint32_t sw[8];
			int n = ftsw_trace(r, a, ftsw_host_lid(r, b), sw, NULL, 8), i;

			ASSERT_GT(n, 0);
			for (i = 0; i < n; i++)
				used[(size_t)sw[i] * r->lft_size + ftsw_host_lid(r, b)] = 1;
		}
	for (s = 0; s < r->nswitches && hit == FTSW_NONE; s++)
		for (lid = 1; lid <= r->nhosts; lid++)
			if (!used[(size_t)s * r->lft_size + lid] &&
			    ftsw_lft(r, s)[lid] != FTSW_PORT_NONE) {
				hit = s;
				hitlid = lid;
				break;
			}
	ASSERT_NE(FTSW_NONE, hit);
	/* a port past the switch's last one: a dead port */
	ftsw_lft(r, hit)[hitlid] = t->nodes[t->switches[hit]].nports + 1;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_TRUE(res.ok);
	ftsw_check_result_free(&res);
	co.all_entries = true;
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &res, &err));
	EXPECT_FALSE(res.ok);
	EXPECT_EQ(1, res.bad_entries);
	EXPECT_NE(NULL, res.report ? strstr(res.report, "dead port") : NULL);
	ftsw_check_result_free(&res);
	free(used);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Default roots on random graphs where every switch has hosts: the top
 * rank from the leaves is every switch, which leaves pairs without a
 * legal path; updn then takes the centre as its one root and routes every
 * pair, legally, and says so.
 */
TEST(updn_default_roots_route_every_pair)
{
	unsigned seed, centre = 0;

	for (seed = 1; seed <= 60; seed++) {
		struct ftsw_err err;
		struct ftsw_topo *t = seed % 2 ?
			ftsw_topo_gen_random(16, 8, 2, 32, seed, &err) :
			ftsw_topo_gen_random(6, 5, 2, 8, seed, &err);
		struct ftsw_route_opts o = { .threads = 1 };
		struct ftsw_check_result res;
		struct ftsw_routing *r;

		ASSERT_NE(NULL, t);
		r = ftsw_route("updn", t, &o, &err);
		ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
		EXPECT_EQ(0, r->unroutable_pairs) TH_LOG("seed %u: %s", seed, r->warning);
		EXPECT_TRUE(check(r, false, &res)) TH_LOG("seed %u", seed);
		EXPECT_EQ(res.pairs, res.delivered);
		ASSERT_GE(r->nroots, 1);
		if (strstr(r->roots_why, "centre")) {
			EXPECT_EQ(1, r->nroots);
			centre++;
		}
		ftsw_check_result_free(&res);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
	EXPECT_GT(centre, 0);
}

TEST_HARNESS_MAIN
