// SPDX-License-Identifier: GPL-2.0
/*
 * Generators beyond fat-trees (user/lib/topo/graphs.c, deimos.c): counts,
 * degrees, diameters and small instances checked by hand from the
 * definitions in Documentation/topology.md.
 */
#include "common.h"
#include "topo/graphs.h"

/* Switch-to-switch cables between switch indices a and b. */
static unsigned cables(const struct ftsw_topo *t, uint32_t a, uint32_t b)
{
	uint32_t na = t->switches[a], nb = t->switches[b];
	unsigned p, n = 0;

	for (p = 1; p <= t->nodes[na].nports; p++)
		n += ftsw_port(t, na, p)->peer == nb;
	return n;
}

/* Switch index behind port p of switch s, FTSW_NONE if none. */
static uint32_t peer(const struct ftsw_topo *t, uint32_t s, unsigned p)
{
	return ftsw_peer_switch(t, &t->nodes[t->switches[s]], p);
}

/* Switch graph diameter by BFS from every switch; -1 when disconnected. */
static int diameter(const struct ftsw_topo *t)
{
	uint32_t ns = t->nswitches, s, *q = malloc(ns * sizeof(*q));
	int *d = malloc(ns * sizeof(*d)), best = 0;

	for (s = 0; s < ns && best >= 0; s++) {
		uint32_t h = 0, tl = 0, i;

		for (i = 0; i < ns; i++)
			d[i] = -1;
		d[s] = 0;
		q[tl++] = s;
		while (h < tl) {
			uint32_t u = q[h++];
			const struct ftsw_node *n = &t->nodes[t->switches[u]];
			unsigned p;

			for (p = 1; p <= n->nports; p++) {
				uint32_t v = ftsw_peer_switch(t, n, p);

				if (v != FTSW_NONE && d[v] < 0) {
					d[v] = d[u] + 1;
					q[tl++] = v;
				}
			}
		}
		for (i = 0; i < ns; i++) {
			if (d[i] < 0)
				best = -1;
			if (best >= 0 && d[i] > best)
				best = d[i];
		}
	}
	free(q);
	free(d);
	return best;
}

static unsigned hosts_on(const struct ftsw_topo *t, uint32_t s)
{
	const struct ftsw_node *n = &t->nodes[t->switches[s]];
	unsigned p, h = 0;

	for (p = 1; p <= n->nports; p++) {
		uint32_t x = ftsw_port(t, t->switches[s], p)->peer;

		h += x != FTSW_NONE && t->nodes[x].kind == FTSW_HOST;
	}
	return h;
}

TEST(torus_4x4_by_hand)
{
	struct ftsw_topo *t = ut_gen("torus:4,4");
	uint32_t s;

	ASSERT_NE(NULL, t);
	/* 16 switches, one host each, 2 links per switch per dimension / 2 */
	EXPECT_EQ(16, t->nswitches);
	EXPECT_EQ(16, t->nhosts);
	EXPECT_EQ(32, ftsw_topo_nlinks(t) - 16);
	for (s = 0; s < 16; s++)
		EXPECT_EQ(5, ftsw_node_degree(t, t->switches[s]));
	/* switch 0 = (0,0): port 2 +x (1,0) = 1, 3 -x wraps to (3,0) = 3,
	 * port 4 +y (0,1) = 4, port 5 -y wraps to (0,3) = 12 */
	EXPECT_EQ(1, peer(t, 0, 2));
	EXPECT_EQ(3, peer(t, 0, 3));
	EXPECT_EQ(4, peer(t, 0, 4));
	EXPECT_EQ(12, peer(t, 0, 5));
	/* switch 5 = (1,1): ports to 6, 4, 9, 1 */
	EXPECT_EQ(6, peer(t, 5, 2));
	EXPECT_EQ(4, peer(t, 5, 3));
	EXPECT_EQ(9, peer(t, 5, 4));
	EXPECT_EQ(1, peer(t, 5, 5));
	EXPECT_EQ(4, diameter(t));	/* 4/2 + 4/2 */
	EXPECT_STREQ("T1.1", t->nodes[t->switches[5]].desc);
	ftsw_topo_free(t);
}

TEST(mesh_and_small_rings)
{
	struct ftsw_topo *t = ut_gen("mesh:3,3,hosts=2");
	uint32_t s;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(9, t->nswitches);
	EXPECT_EQ(18, t->nhosts);
	/* 3 rows and 3 columns of 2 links */
	EXPECT_EQ(12, ftsw_topo_nlinks(t) - 18);
	EXPECT_EQ(4, diameter(t));	/* (3-1) + (3-1) */
	/* corner 0: 2 hosts + 2 links; centre 4: 2 hosts + 4 links */
	EXPECT_EQ(4, ftsw_node_degree(t, t->switches[0]));
	EXPECT_EQ(6, ftsw_node_degree(t, t->switches[4]));
	EXPECT_EQ(FTSW_NONE, peer(t, 0, 4));	/* no -x at the edge */
	for (s = 0; s < 9; s++)
		EXPECT_EQ(2, hosts_on(t, s));
	ftsw_topo_free(t);
	/* a torus dimension of 2 is one cable, of 1 none: 3 + 6 links */
	t = ut_gen("torus:2,3,1");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(6, t->nswitches);
	EXPECT_EQ(9, ftsw_topo_nlinks(t) - 6);
	EXPECT_EQ(1, cables(t, 0, 1));
	EXPECT_EQ(2, diameter(t));	/* 1 + 1 */
	ftsw_topo_free(t);
	/* 3-D 4-ary cube: 64 switches, 3 * 64 links, diameter 6 */
	t = ut_gen("torus:4,4,4,hosts=4,ports=12");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(192, ftsw_topo_nlinks(t) - 256);
	EXPECT_EQ(12, t->nodes[t->switches[0]].nports);
	EXPECT_EQ(6, diameter(t));
	ftsw_topo_free(t);
}

TEST(kautz_2_2_by_hand)
{
	struct ftsw_topo *t = ut_gen("kautz:2,2,endpoints=64");
	uint32_t s, k01 = FTSW_NONE, k10 = FTSW_NONE, k12 = FTSW_NONE,
		 k20 = FTSW_NONE, k21 = FTSW_NONE;

	ASSERT_NE(NULL, t);
	/* strings 01 02 10 12 20 21; arcs s1s2 -> s2x, x != s2 */
	EXPECT_EQ(6, t->nswitches);
	EXPECT_EQ(64, t->nhosts);
	EXPECT_EQ(12, ftsw_topo_nlinks(t) - 64);
	for (s = 0; s < 6; s++) {
		const char *d = t->nodes[t->switches[s]].desc;

		if (!strcmp(d, "K0.1"))
			k01 = s;
		if (!strcmp(d, "K1.0"))
			k10 = s;
		if (!strcmp(d, "K1.2"))
			k12 = s;
		if (!strcmp(d, "K2.0"))
			k20 = s;
		if (!strcmp(d, "K2.1"))
			k21 = s;
		/* 64 = 6 * 10 + 4: the first four switches carry 11 */
		EXPECT_EQ(s < 4 ? 11 : 10, hosts_on(t, s));
		EXPECT_EQ(36, t->nodes[t->switches[s]].nports);
	}
	ASSERT_NE(FTSW_NONE, k21);
	/* 01 -> 10, 01 -> 12, 10 -> 01, 20 -> 01; none between 01 and 21 */
	EXPECT_EQ(2, cables(t, k01, k10));
	EXPECT_EQ(1, cables(t, k01, k12));
	EXPECT_EQ(1, cables(t, k01, k20));
	EXPECT_EQ(0, cables(t, k01, k21));
	EXPECT_EQ(2, diameter(t));
	ftsw_topo_free(t);
}

TEST(kautz_paper001_table1)
{
	/* Table I with 36-port switches: Kautz(b, n) has (b+1) b^(n-1)
	 * switches, b (b+1) b^(n-1) links, diameter n */
	static const struct { const char *spec; unsigned sw, links, hosts; int diam; }
	k[] = {
		{ "kautz:2,3,endpoints=256", 12, 24, 256, 3 },
		{ "kautz:3,3,endpoints=1024", 36, 108, 1024, 3 },
		{ "kautz:4,3,endpoints=2048", 80, 320, 2048, 3 },
		{ "kautz:6,3,endpoints=4096", 252, 1512, 4096, 3 },
	};
	unsigned i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct ftsw_topo *t = ut_gen(k[i].spec);
		uint32_t s;

		ASSERT_NE(NULL, t);
		EXPECT_EQ(k[i].sw, t->nswitches);
		EXPECT_EQ(k[i].hosts, t->nhosts);
		EXPECT_EQ(k[i].links, ftsw_topo_nlinks(t) - t->nhosts);
		EXPECT_EQ(k[i].diam, diameter(t));
		for (s = 0; s < t->nswitches; s++)
			EXPECT_GE(36, ftsw_node_degree(t, t->switches[s]));
		ftsw_topo_free(t);
	}
}

TEST(random_paper001)
{
	/* §V-A: 128 switches of 32 ports, 16 hosts each */
	struct ftsw_topo *t = ut_gen("random:128,32,16,256,1");
	struct ftsw_topo *u = ut_gen("random:128,32,16,256,1");
	uint32_t s, diff = 0;

	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, u);
	EXPECT_EQ(128, t->nswitches);
	EXPECT_EQ(2048, t->nhosts);
	EXPECT_EQ(256, ftsw_topo_nlinks(t) - 2048);
	EXPECT_LE(0, diameter(t));	/* connected */
	for (s = 0; s < 128; s++) {
		EXPECT_GE(32, ftsw_node_degree(t, t->switches[s]));
		EXPECT_EQ(16, hosts_on(t, s));
		diff += cables(t, 0, s) != cables(u, 0, s);
	}
	EXPECT_EQ(0, diff);	/* same seed, same graph */
	ftsw_topo_free(t);
	ftsw_topo_free(u);
}

/* Cables between dragonfly groups g1 and g2 of a routers. */
static unsigned group_cables(const struct ftsw_topo *t, uint32_t g1,
			     uint32_t g2, unsigned a)
{
	unsigned n = 0, x, y;

	for (x = 0; x < a; x++)
		for (y = 0; y < a; y++)
			n += cables(t, g1 * a + x, g2 * a + y);
	return n;
}

TEST(dragonfly_balanced)
{
	/* a = 4, p = h = 2: g = a h + 1 = 9 groups, 36 routers of
	 * p + a - 1 + h = 7 ports; local 9 * 6, global 9 * 8 / 2 links */
	struct ftsw_topo *t = ut_gen("dragonfly:4,2,2");
	uint32_t s, g1, g2;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(36, t->nswitches);
	EXPECT_EQ(72, t->nhosts);
	EXPECT_EQ(54 + 36, ftsw_topo_nlinks(t) - 72);
	for (s = 0; s < 36; s++)
		EXPECT_EQ(7, ftsw_node_degree(t, t->switches[s]));
	/* exactly one global link between any two groups */
	for (g1 = 0; g1 < 9; g1++)
		for (g2 = g1 + 1; g2 < 9; g2++) {
			EXPECT_EQ(1, group_cables(t, g1, g2, 4));
		}
	/* router 0 of group 0, global port p + a = 6: j = 0 -> group 1,
	 * arriving on global port j' = 7 = router 3's second (port 7) */
	EXPECT_EQ(4 + 3, peer(t, 0, 6));
	EXPECT_EQ(3, diameter(t));	/* local, global, local */
	ftsw_topo_free(t);
	/* fewer groups: G - 1 | a h; 5 groups, 2 links per pair */
	t = ut_gen("dragonfly:4,2,2,groups=5");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(20, t->nswitches);
	/* local 5 * 6, global 10 pairs * 2 */
	EXPECT_EQ(30 + 20, ftsw_topo_nlinks(t) - 40);
	EXPECT_EQ(2, group_cables(t, 0, 1, 4));
	ftsw_topo_free(t);
}

TEST(deimos_paper001)
{
	struct ftsw_topo *t = ut_gen("deimos");
	uint32_t a, b, x = 0, s;

	ASSERT_NE(NULL, t);
	/* 3 chassis of 24 leaf + 12 spine 24-port chips, 724 hosts */
	EXPECT_EQ(108, t->nswitches);
	EXPECT_EQ(724, t->nhosts);
	/* per chassis 24 * 12 internal links; 30 between chassis */
	EXPECT_EQ(3 * 288 + 30, ftsw_topo_nlinks(t) - 724);
	for (a = 0; a < 108; a++)
		for (b = a + 1; b < 108; b++)
			if (a / 36 != b / 36)
				x += cables(t, a, b);
	EXPECT_EQ(30, x);
	/* 10 per pair of chassis */
	for (x = 0, a = 0; a < 36; a++)
		for (b = 36; b < 72; b++)
			x += cables(t, a, b);
	EXPECT_EQ(10, x);
	for (s = 0; s < 108; s++)
		EXPECT_EQ(24, t->nodes[t->switches[s]].nports);
	/* chassis 0: 242 hosts, 10 on most leaves, 11 on leaves 0 and 1 */
	EXPECT_EQ(11, hosts_on(t, 0));
	EXPECT_EQ(10, hosts_on(t, 23));
	EXPECT_EQ(0, hosts_on(t, 24));	/* a spine */
	/* leaf, spine, leaf, link, leaf, spine, leaf */
	EXPECT_EQ(5, diameter(t));
	ftsw_topo_free(t);
}

TEST(fat_trees_as_switch_topologies)
{
	/* paper 001 Table I: XGFT(1;6;3) as switches, 64 endpoints: 6 leaf
	 * switches (64 = 6 * 10 + 4: four of 11) under 3 top switches */
	struct ftsw_topo *t = ut_gen("xgft:1;6;3@64");
	uint32_t s, n13 = 0;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(9, t->nswitches);
	EXPECT_EQ(64, t->nhosts);
	EXPECT_EQ(18, ftsw_topo_nlinks(t) - 64);
	for (s = 0; s < 6; s++)
		EXPECT_EQ(s < 4 ? 11 : 10, hosts_on(t, s));
	EXPECT_EQ(0, hosts_on(t, 6));
	EXPECT_EQ(2, diameter(t));
	ftsw_topo_free(t);
	/* 18-ary 3-tree as switches, 4,096 endpoints: 3 levels of 324
	 * switches, 2 * 324 * 18 links, 4096 = 324 * 12 + 208 */
	t = ut_gen("kary:18,3@4096");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(972, t->nswitches);
	EXPECT_EQ(4096, t->nhosts);
	EXPECT_EQ(11664, ftsw_topo_nlinks(t) - 4096);
	for (s = 0; s < t->nswitches; s++) {
		unsigned h = hosts_on(t, s);

		EXPECT_GE(36, ftsw_node_degree(t, t->switches[s]));
		n13 += h == 13;
		EXPECT_TRUE(h == 0 || h == 12 || h == 13);
	}
	EXPECT_EQ(208, n13);
	ftsw_topo_free(t);
}

TEST(specs_refused)
{
	static const struct { const char *spec, *msg; } bad[] = {
		{ "torus:", "nothing after ':'" },
		/* issue 40: each message says what is wrong */
		{ "torus:4,4,hosts=1,hosts=2", "option 'hosts' given twice" },
		{ "torus:a,b", "'a' is neither a whole number nor a key=value" },
		{ "deimos:", "deimos takes no parameters" },
		{ "torus:4,,4", "value 2 is missing" },
		{ "mesh:4,hosts=", "no value after 'hosts='" },
		/* the node limit, before anything is allocated */
		{ "torus:2048,2048", "8388608 nodes (4194304 switches, 4194304 "
		  "hosts) and 25165824 ports, beyond the generators' limit" },
		{ "random:100000,100,99,100000,1", "10000000 nodes" },
		{ "torus:4,4,hosts=3,ports=6", "need 7 ports" },
		{ "torus:4,0", "dimension 1 size 0" },
		{ "mesh:2,2,2,2,2,2,2,2,2", "1 to 8 dimension" },
		{ "torus:4,4,color=3", "unknown option 'color'" },
		{ "torus:4,4,hosts=1,2", "positional value after" },
		{ "kautz:2", "kautz:B,N expected" },
		{ "kautz:2,2,hosts=40", "only 32 ports are free" },
		{ "kautz:2,2,hosts=1,endpoints=6", "exclude each other" },
		{ "kautz:20,2,ports=36", "cannot hold" },
		{ "random:8,8,2,3,1", "links impossible" },
		{ "random:8,8,2", "random:SWITCHES" },
		{ "dragonfly:4,2", "dragonfly:A,P,H" },
		{ "dragonfly:4,2,2,groups=4", "G - 1 must divide" },
		{ "deimos:3", "no parameters" },
		{ "torus:99999999999", "too large" },
		{ "torus:4;4", "expected ','" },
		{ "kary:6,2@0", "endpoints after '@'" },
		{ "kary:6,2@12x", "endpoints after '@'" },
		{ "fbfly:6,2@12", "unknown kind" },
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ftsw_err err = { 0 };
		struct ftsw_topo *t = ftsw_topo_gen(bad[i].spec, &err);

		EXPECT_EQ(NULL, t) TH_LOG("%s accepted", bad[i].spec);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].msg))
			TH_LOG("%s: '%s'", bad[i].spec, err.msg);
		ftsw_topo_free(t);
	}
}

/*
 * A net file keeps the family: written, read back, the spec is the one
 * generated (so dor finds a torus's coordinates in a file as from the
 * spec), and the cabling is the same.
 */
TEST(net_file_round_trip)
{
	static const char *const specs[] = { "torus:3,3,hosts=2", "kautz:2,2",
					     "dragonfly:2,1,1", "deimos",
					     "mesh:3,4", "random:8,6,2,10,5",
					     "torus:4,4" };
	const unsigned n = sizeof(specs) / sizeof(specs[0]);
	char path[] = "/tmp/ftsw-graphs-XXXXXX";
	int fd = mkstemp(path);
	unsigned i;

	ASSERT_LE(0, fd);
	close(fd);
	for (i = 0; i < n; i++) {
		struct ftsw_err err;
		struct ftsw_topo *t = ut_gen(specs[i]), *u;
		uint32_t a, b, diff = 0;

		ASSERT_NE(NULL, t);
		ASSERT_EQ(0, ftsw_net_write(t, path, &err)) TH_LOG("%s", err.msg);
		u = ftsw_net_read(path, &err);
		ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
		EXPECT_EQ(t->nswitches, u->nswitches);
		EXPECT_EQ(t->nhosts, u->nhosts);
		EXPECT_EQ(ftsw_topo_nlinks(t), ftsw_topo_nlinks(u));
		for (a = 0; a < t->nswitches && t->nswitches < 40; a++)
			for (b = 0; b < t->nswitches; b++)
				diff += cables(t, a, b) != cables(u, a, b);
		EXPECT_EQ(0, diff);
		EXPECT_STREQ(specs[i], u->spec);
		EXPECT_FALSE(u->degraded);
		ftsw_topo_free(t);
		ftsw_topo_free(u);
	}
	unlink(path);
}

/*
 * The 4x4 torus from a net file routes as from its spec: dor's dateline
 * VLs, 2^2 = 4 (both rings of 4 wrap), an acyclic CDG on each. A mesh's
 * file claiming to be that torus is not taken for it: no coordinates.
 */
TEST(torus_file_keeps_its_coordinates)
{
	char path[] = "/tmp/ftsw-graphs-XXXXXX", cmd[256];
	struct ftsw_route_opts o = { 0 };
	struct ftsw_check_result res;
	struct ftsw_routing *r;
	struct ftsw_topo *t = ut_gen("torus:4,4"), *u;
	struct ftsw_err err;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_net_write(t, path, &err));
	u = ftsw_net_read(path, &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	r = ut_route("dor", u, &o);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(4, r->nvls);
	EXPECT_STREQ("", r->warning);
	EXPECT_TRUE(ut_check(r, true, false, &res));
	EXPECT_EQ(0, res.cdg_cyclic_vls);
	ftsw_check_result_free(&res);
	ftsw_routing_free(r);
	ftsw_topo_free(u);
	/* a 4x4 mesh's file whose line claims torus:4,4: same nodes, the
	 * wrap-around cables missing, so not the torus (no coordinates) */
	ftsw_topo_free(t);
	t = ut_gen("mesh:4,4");
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_net_write(t, path, &err));
	snprintf(cmd, sizeof(cmd), "sed -i 's/^# ftsw-topology: mesh:4,4$/"
		 "# ftsw-topology: torus:4,4/' %s && grep -q 'torus:4,4' %s",
		 path, path);
	ASSERT_EQ(0, system(cmd));
	u = ftsw_net_read(path, &err);
	ASSERT_NE(NULL, u) TH_LOG("%s", err.msg);
	EXPECT_STREQ("", u->spec);
	r = ut_route("dor", u, &o);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(1, r->nvls);
	EXPECT_NE(NULL, strstr(r->warning, "no torus coordinates"));
	ftsw_routing_free(r);
	ftsw_topo_free(u);
	ftsw_topo_free(t);
	unlink(path);
}

TEST_HARNESS_MAIN
