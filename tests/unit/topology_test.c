// SPDX-License-Identifier: GPL-2.0
/*
 * Topology generators, degradations, LID plan. Expected values are
 * computed by hand from the papers' definitions (003 §IV.B, 000 §3.1,
 * 002 §2.2).
 */
#include <string.h>
#include "common.h"

static int linked(const struct ftsw_topo *t, uint32_t a, uint32_t b)
{
	unsigned p;

	for (p = 1; p <= t->nodes[a].nports; p++)
		if (ftsw_port(t, a, p)->peer == b)
			return 1;
	return 0;
}

TEST(pgft_counts_rlft_3456)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("rlft:3;12,12,24;1,12,12;1,1,1", &err);

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	/* hosts 12*12*24, level 1: 12*24*1, level 2: 24*1*12, top: 1*12*12 */
	EXPECT_EQ(3456, t->nhosts);
	EXPECT_EQ(288 + 288 + 144, t->nswitches);
	/* every switch has 24 ports, all cabled */
	EXPECT_EQ(24, t->nodes[t->switches[0]].nports);
	EXPECT_EQ(24, ftsw_node_degree(t, t->switches[719]));
	EXPECT_TRUE(t->is_pgft);
	EXPECT_FALSE(t->degraded);
	ftsw_topo_free(t);
}

TEST(ftmn_paper002_fig3)
{
	struct ftsw_err err;
	/* FT(4,3): (2n-1)(m/2)^(n-1) = 20 switches, m(m/2)^(n-1) = 16 hosts */
	struct ftsw_topo *t = ftsw_topo_gen("ftmn:4,3", &err);
	uint32_t s;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	EXPECT_EQ(16, t->nhosts);
	EXPECT_EQ(20, t->nswitches);
	/* every switch has m = 4 ports, all cabled (roots use all m down) */
	for (s = 0; s < t->nswitches; s++)
		EXPECT_EQ(4, ftsw_node_degree(t, t->switches[s]));
	ftsw_topo_free(t);
	t = ftsw_topo_gen("ftmn:5,3", &err);
	EXPECT_EQ(NULL, t);
	EXPECT_NE(NULL, strstr(err.msg, "multiple of 2"));
}

TEST(kary_ntree)
{
	struct ftsw_err err;
	/* 2-ary 3-tree: 8 hosts, 3 levels of 4 switches */
	struct ftsw_topo *t = ftsw_topo_gen("kary:2,3", &err);

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	EXPECT_EQ(8, t->nhosts);
	EXPECT_EQ(12, t->nswitches);
	ftsw_topo_free(t);
}

TEST(rlft_conditions_named)
{
	struct ftsw_err err;

	EXPECT_EQ(NULL, ftsw_topo_gen("rlft:2;4,4;1,2;1,1", &err));
	EXPECT_NE(NULL, strstr(err.msg, "constant bisection")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, ftsw_topo_gen("rlft:3;4,4,4;1,4,4;1,1,1", &err));
	EXPECT_NE(NULL, strstr(err.msg, "same port count")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, ftsw_topo_gen("rlft:2;4,4;2,4;1,1", &err));
	EXPECT_NE(NULL, strstr(err.msg, "single cable")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, ftsw_topo_gen("pgft:2;4,x;1,2;1,1", &err));
	EXPECT_NE(NULL, strstr(err.msg, "bad m value")) TH_LOG("%s", err.msg);
	EXPECT_EQ(NULL, ftsw_topo_gen("pgft:3;4,4;1,2,2;1,1,1", &err));
	EXPECT_NE(NULL, strstr(err.msg, "2 m values")) TH_LOG("%s", err.msg);
}

/*
 * Zahavi's connection rule on paper 004's Fig. 1, PGFT(3;2,2,3;1,2,2;1,2,1):
 * leaf 0 (digits 0,0,0) has w2*p2 = 4 up-ports. Up-port q = b2 + k*w2
 * goes to the level-2 switch with b2 = q mod 2 over its k-th parallel
 * link, arriving at down-port r = a2 + k*m2 = 0 + 2k. Level-2 switches
 * have w3*p3 = 2 up-ports first, so down-port r is port 2 + r + 1.
 */
TEST(pgft_port_rule)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;2,2,3;1,2,2;1,2,1", &err);
	uint32_t leaf0, l2_0, l2_1;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	/* hosts 2*2*3 = 12, level 1: 2*3 = 6, level 2: 3*2 = 6, top 4 */
	ASSERT_EQ(12, t->nhosts);
	ASSERT_EQ(16, t->nswitches);
	leaf0 = 12;		/* node ids: hosts first, then by level */
	l2_0 = 12 + 6;		/* level-2 index 0: a3 = 0, b2 = 0 */
	l2_1 = 12 + 6 + 1;	/* a3 = 0, b2 = 1 */
	EXPECT_EQ(l2_0, ftsw_port(t, leaf0, 1)->peer);	/* q = 0 */
	EXPECT_EQ(3, ftsw_port(t, leaf0, 1)->peer_port);	/* r = 0 */
	EXPECT_EQ(l2_1, ftsw_port(t, leaf0, 2)->peer);	/* q = 1 */
	EXPECT_EQ(3, ftsw_port(t, leaf0, 2)->peer_port);
	EXPECT_EQ(l2_0, ftsw_port(t, leaf0, 3)->peer);	/* q = 2: k = 1 */
	EXPECT_EQ(5, ftsw_port(t, leaf0, 3)->peer_port);	/* r = 2 */
	EXPECT_EQ(l2_1, ftsw_port(t, leaf0, 4)->peer);
	EXPECT_EQ(5, ftsw_port(t, leaf0, 4)->peer_port);
	/* hosts 0 and 1 on leaf 0's down-ports 0, 1 (ports 5, 6) */
	EXPECT_EQ(leaf0, ftsw_port(t, 0, 1)->peer);
	EXPECT_EQ(5, ftsw_port(t, 0, 1)->peer_port);
	EXPECT_EQ(6, ftsw_port(t, 1, 1)->peer_port);
	ftsw_topo_free(t);
}

/*
 * Paper 000, Fig. 3: XGFT(3;4,4,4;1,4,2), nodes numbered hosts 0..63,
 * level 1 64..79, level 2 80..95, top 96..103. The 8 shortest paths from
 * 0 to 63 go through top switch 96 + i:
 *   0 -> 64 -> 80 + i/2 -> 96 + i -> 92 + i/2 -> 79 -> 63
 */
TEST(xgft_paper000_fig3_paths)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("xgft:3;4,4,4;1,4,2", &err);
	unsigned i, tops = 0;
	uint32_t s;

	ASSERT_NE(NULL, t) TH_LOG("%s", err.msg);
	ASSERT_EQ(104, t->nnodes);
	for (i = 0; i < 8; i++) {
		EXPECT_TRUE(linked(t, 0, 64));
		EXPECT_TRUE(linked(t, 64, 80 + i / 2));
		EXPECT_TRUE(linked(t, 80 + i / 2, 96 + i));
		EXPECT_TRUE(linked(t, 96 + i, 92 + i / 2));
		EXPECT_TRUE(linked(t, 92 + i / 2, 79));
		EXPECT_TRUE(linked(t, 79, 63));
	}
	/* and there are no others: each top switch has exactly one child
	 * above host 0's leaf and one above host 63's */
	for (s = 96; s < 104; s++) {
		unsigned a = 0, b = 0, c;

		for (c = 80; c < 96; c++) {
			a += linked(t, s, c) && linked(t, c, 64);
			b += linked(t, s, c) && linked(t, c, 79);
		}
		EXPECT_EQ(1, a);
		EXPECT_EQ(1, b);
		tops++;
	}
	EXPECT_EQ(8, tops);
	ftsw_topo_free(t);
}

TEST(degrade_seeded)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:3;4,4,4;1,4,4;1,1,1", &err);
	struct ftsw_degrade d = { .rand_links = 10, .seed = 5 };
	struct ftsw_topo *a, *b, *c;
	uint64_t full;
	uint32_t i;
	int differ = 0;

	ASSERT_NE(NULL, t);
	full = ftsw_topo_nlinks(t);
	a = ftsw_topo_degrade(t, &d, &err);
	b = ftsw_topo_degrade(t, &d, &err);
	d.seed = 6;
	c = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(full - 10, ftsw_topo_nlinks(a));
	EXPECT_TRUE(a->degraded);
	EXPECT_FALSE(t->degraded);
	/* same seed, same result; another seed, another one */
	for (i = 0; i < a->nports; i++)
		EXPECT_EQ(a->ports[i].peer, b->ports[i].peer);
	for (i = 0; i < a->nports; i++)
		differ |= a->ports[i].peer != c->ports[i].peer;
	EXPECT_TRUE(differ);
	/* host links are never removed by --links */
	for (i = 0; i < a->nhosts; i++)
		EXPECT_NE(FTSW_NONE, ftsw_host_switch(a, a->hosts[i]));
	ftsw_topo_free(a);
	ftsw_topo_free(b);
	ftsw_topo_free(c);

	/* partial tree: hosts removed, the others keep their order */
	memset(&d, 0, sizeof(d));
	d.rand_hosts = 5;
	d.rand_switches = 2;
	d.seed = 1;
	a = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(t->nhosts - 5, a->nhosts);
	EXPECT_EQ(t->nswitches - 2, a->nswitches);
	for (i = 1; i < a->nhosts; i++)
		EXPECT_LT(a->nodes[a->hosts[i - 1]].guid, a->nodes[a->hosts[i]].guid);
	ftsw_topo_free(a);
	d.rand_links = 100000;
	EXPECT_EQ(NULL, ftsw_topo_degrade(t, &d, &err));
	EXPECT_NE(NULL, strstr(err.msg, "--links"));
	ftsw_topo_free(t);
}

TEST(lid_plan)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("pgft:2;4,4;1,2;1,1", &err);
	struct ftsw_routing *r;
	uint32_t idx;
	unsigned off;

	ASSERT_NE(NULL, t);
	r = ftsw_routing_new(t, 2, false, &err);
	ASSERT_NE(NULL, r);
	/* host n: (n + 1) << 2; switches after (16 + 1) << 2 = 68 */
	EXPECT_EQ(4, ftsw_host_lid(r, 0));
	EXPECT_EQ(64, ftsw_host_lid(r, 15));
	EXPECT_EQ(68, ftsw_switch_lid(r, 0));
	EXPECT_EQ(73, r->max_lid);
	EXPECT_EQ(FTSW_HOST, ftsw_lid_owner(r, 67, &idx, &off));
	EXPECT_EQ(15, idx);
	EXPECT_EQ(3, off);
	EXPECT_EQ(FTSW_SWITCH, ftsw_lid_owner(r, 69, &idx, &off));
	EXPECT_EQ(1, idx);
	EXPECT_EQ(0, ftsw_lid_owner(r, 2, &idx, &off));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	/* 16384 hosts at LMC 2 need (16385 << 2) + switches > 0xBFFF */
	t = ftsw_topo_gen("pgft:2;128,128;1,64;1,1", &err);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, ftsw_routing_new(t, 2, false, &err));
	EXPECT_NE(NULL, strstr(err.msg, "LID space exhausted")) TH_LOG("%s", err.msg);
	r = ftsw_routing_new(t, 1, false, &err);
	EXPECT_NE(NULL, r) TH_LOG("%s", err.msg);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

static struct ftsw_topo *net_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ftsw_err err;
	struct ftsw_topo *t = f ? ftsw_net_read_file(f, "x.net", &err) : NULL;

	if (f)
		fclose(f);
	return t;
}

/*
 * Two net files of one switch (GUID 0x10): the second moves host 0x3 from
 * port 2 to port 3, renames it and gives its port another GUID, and adds
 * host 0x7. By hand, nodes in GUID order 0x1, 0x3, 0x10, then 0x7: host
 * 0x3's description, port GUID and cable; the switch's ports 2 and 3;
 * 0x7 in the second only. Same: nodes 0x1 and 0x10, the cable ends of
 * 0x1 port 1 and 0x10 port 1.
 */
TEST(topo_diff_by_hand)
{
	static const char a_net[] =
		"switchguid=0x10\nSwitch 3 \"S-10\" # \"sw\"\n"
		"[1] \"H-1\"[1]\n[2] \"H-3\"[1]\n\n"
		"Ca 1 \"H-1\" # \"a\"\n[1](2) \"S-10\"[1]\n\n"
		"Ca 1 \"H-3\" # \"b\"\n[1](4) \"S-10\"[2]\n";
	static const char b_net[] =
		"switchguid=0x10\nSwitch 3 \"S-10\" # \"sw\"\n"
		"[1] \"H-1\"[1]\n[3] \"H-3\"[1]\n\n"
		"Ca 1 \"H-1\" # \"a\"\n[1](2) \"S-10\"[1]\n\n"
		"Ca 1 \"H-3\" # \"c\"\n[1](5) \"S-10\"[3]\n\n"
		"Ca 1 \"H-7\" # \"d\"\n";
	struct ftsw_topo *a = net_of(a_net), *b = net_of(b_net);
	const struct ftsw_topo_delta *e;
	struct ftsw_topo_diff d;
	struct ftsw_err err;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, ftsw_topo_diff(a, a, 100, &d, &err));
	EXPECT_EQ(0, d.ndeltas);
	EXPECT_EQ(3, d.nodes_same);
	EXPECT_EQ(4, d.cables_same);	/* two cables, both ends */
	ftsw_topo_diff_free(&d);

	ASSERT_EQ(0, ftsw_topo_diff(a, b, 100, &d, &err));
	ASSERT_EQ(6, d.ndeltas);
	ASSERT_EQ(6, d.nkept);
	EXPECT_EQ(2, d.nodes_same);
	EXPECT_EQ(2, d.cables_same);
	e = d.deltas;
	EXPECT_EQ(FTSW_DELTA_DESC, e[0].kind);
	EXPECT_EQ(0x3, e[0].guid);
	EXPECT_STREQ("b", e[0].desc[0]);
	EXPECT_STREQ("c", e[0].desc[1]);
	EXPECT_EQ(FTSW_DELTA_PORT_GUID, e[1].kind);
	EXPECT_EQ(1, e[1].port);
	EXPECT_EQ(4, e[1].val[0]);
	EXPECT_EQ(5, e[1].val[1]);
	EXPECT_EQ(FTSW_DELTA_CABLE, e[2].kind);
	EXPECT_EQ(0x10, e[2].val[0]);
	EXPECT_EQ(2, e[2].peer_port[0]);
	EXPECT_EQ(3, e[2].peer_port[1]);
	EXPECT_EQ(FTSW_DELTA_CABLE, e[3].kind);
	EXPECT_EQ(0x10, e[3].guid);
	EXPECT_EQ(2, e[3].port);
	EXPECT_EQ(0x3, e[3].val[0]);
	EXPECT_EQ(0, e[3].val[1]);
	EXPECT_EQ(FTSW_DELTA_CABLE, e[4].kind);
	EXPECT_EQ(3, e[4].port);
	EXPECT_EQ(0, e[4].val[0]);
	EXPECT_EQ(0x3, e[4].val[1]);
	EXPECT_EQ(FTSW_DELTA_ONLY_SECOND, e[5].kind);
	EXPECT_EQ(0x7, e[5].guid);
	EXPECT_EQ(NULL, e[5].desc[0]);
	EXPECT_STREQ("d", e[5].desc[1]);
	ftsw_topo_diff_free(&d);

	/* Kept: the first 2; counted: all. */
	ASSERT_EQ(0, ftsw_topo_diff(a, b, 2, &d, &err));
	EXPECT_EQ(6, d.ndeltas);
	EXPECT_EQ(2, d.nkept);
	ftsw_topo_diff_free(&d);
	ftsw_topo_free(a);
	ftsw_topo_free(b);
}

/* How many ports ftsw_for_each_switch_port() visits with flags. */
static unsigned swp_count(const struct ftsw_topo *t, unsigned flags)
{
	struct ftsw_sw_port it;
	unsigned n = 0;

	ftsw_for_each_switch_port(t, &it, flags)
		n++;
	return n;
}

/*
 * The switch-port iterator, by hand on FT(4,2): 4 leaves (2 hosts down, 2
 * spines up) and 2 spines (4 leaves down), every port cabled: 24 switch
 * ports, 16 of them on the 8 switch cables, 8 on host cables; each switch
 * cable once from its lower end. With one switch cable cut: 22, 14, 7,
 * still 24 ports in all.
 */
TEST(switch_port_iterator)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen("ftmn:4,2", &err);
	struct ftsw_degrade d = { .rand_links = 1, .seed = 3 };
	struct ftsw_topo *c;
	struct ftsw_sw_port it;
	uint32_t last = 0;
	unsigned n = 0;

	ASSERT_NE(NULL, t);
	EXPECT_EQ(24, swp_count(t, 0));
	EXPECT_EQ(24, swp_count(t, FTSW_SWP_CABLED));
	EXPECT_EQ(16, swp_count(t, FTSW_SWP_TO_SWITCH));
	EXPECT_EQ(8, swp_count(t, FTSW_SWP_ONCE));
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_ONCE) {
		EXPECT_EQ(t->switches[it.sw], it.node);
		EXPECT_EQ(FTSW_SWITCH, t->nodes[it.x->peer].kind);
		EXPECT_LT(it.node, it.x->peer);
		EXPECT_LE(last, it.sw);
		last = it.sw;
	}
	/* break leaves the loop */
	ftsw_for_each_switch_port(t, &it, 0)
		if (++n == 5)
			break;
	EXPECT_EQ(5, n);
	EXPECT_EQ(1, it.sw);	/* 4 ports on switch 0, the 5th is s1's first */
	EXPECT_EQ(1, it.port);

	c = ftsw_topo_degrade(t, &d, &err);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(24, swp_count(c, 0));
	EXPECT_EQ(22, swp_count(c, FTSW_SWP_CABLED));
	EXPECT_EQ(14, swp_count(c, FTSW_SWP_TO_SWITCH));
	EXPECT_EQ(7, swp_count(c, FTSW_SWP_ONCE));
	ftsw_topo_free(c);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
