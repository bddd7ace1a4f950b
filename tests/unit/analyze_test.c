// SPDX-License-Identifier: GPL-2.0
/*
 * Analyzer: the tracer's kernel semantics, hand-computed loads on FT(4,2),
 * contention-free D-Mod-K + topology order (paper 003 Theorems 1-2 and
 * §V.B, §VI), Table 2 pattern definitions, matchings against brute force,
 * the exact oblivious ratio against brute force over all permutations,
 * PERF = 1 of a UMULTI-like multipath routing, the sampling rule.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "analyze/analyze.h"


static struct ftsw_routing *route(const char *eng, const struct ftsw_topo *t,
				  unsigned lmc)
{
	struct ftsw_route_opts o = { .lmc = lmc, .threads = 1 };

	return ut_route(eng, t, &o);
}

/* Link id of switch sw_index's port p. */
static uint32_t swlink(const struct ftsw_topo *t, uint32_t sw, unsigned p)
{
	return ftsw_link_id(t, t->switches[sw], p);
}

/*
 * FT(4,2): leaves L0..L3 hold hosts {0,1} {2,3} {4,5} {6,7}; two top
 * switches. D-Mod-K sends destination d up through up-port d mod 2 (port
 * d mod 2 + 1). Flows 0->2 and 1->4 both go up L0 port 1 to top 0, then
 * down to L1 and L2: load 2 on L0's port 1, 1 on the two down links.
 * baseload 1; ML(TM): L0's subtree sends 2 over its 2 up-links = 1.
 */
TEST(hand_loads_ft42)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_load_result res;
	struct ftsw_tm tm;
	struct ftsw_err err;
	double *load;
	uint32_t am, top0;
	bool exact;
	struct ftsw_path p;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	load = calloc(t->nports, sizeof(*load));
	ftsw_tm_init(&tm, 8);
	ftsw_tm_add(&tm, 0, 2, 1);
	ftsw_tm_add(&tm, 1, 4, 1);
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, NULL, load, NULL, &res, &err));
	EXPECT_EQ(2, res.delivered);
	EXPECT_EQ(2.0, ftsw_max_load(t, load, false, &am));
	EXPECT_EQ(swlink(t, 0, 1), am);
	/* the path of 0 -> 2: L0 port 1, top 0, L1 */
	ASSERT_EQ(FTSW_TRACE_OK, ftsw_trace_path(r, 0, 2, 0, 0, &p));
	ASSERT_EQ(3, p.nhops);
	EXPECT_EQ(0, p.hops[0].sw);
	EXPECT_EQ(1, p.hops[0].port);
	EXPECT_EQ(1, p.hops[2].sw);
	top0 = p.hops[1].sw;
	EXPECT_EQ(1.0, load[swlink(t, top0, p.hops[1].port)]);
	EXPECT_EQ(2.0, load[swlink(t, 0, 1)]);
	EXPECT_EQ(0.0, load[swlink(t, 0, 2)]);
	EXPECT_EQ(1.0, ftsw_baseload(&tm));
	EXPECT_EQ(1.0, ftsw_ml_bound(t, &tm, &exact));
	EXPECT_TRUE(exact);
	ftsw_tm_free(&tm);

	/*
	 * All-to-all: host links carry 7; a leaf up-link carries its 2 hosts
	 * to the 3 remote destinations of its residue = 6; a down link carries
	 * the 6 remote sources to its one destination = 6. ML(TM) = 7.
	 */
	ftsw_tm_init(&tm, 8);
	tm.all_to_all = true;
	tm.a2a = 1;
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, NULL, load, NULL, &res, &err));
	EXPECT_EQ(56, res.delivered);
	EXPECT_EQ(7.0, ftsw_max_load(t, load, false, NULL));
	EXPECT_EQ(6.0, ftsw_max_load(t, load, true, NULL));
	EXPECT_EQ(6.0, load[swlink(t, 0, 1)]);
	EXPECT_EQ(6.0, load[swlink(t, 0, 2)]);
	EXPECT_EQ(7.0, ftsw_baseload(&tm));
	EXPECT_EQ(7.0, ftsw_ml_bound(t, &tm, &exact));
	EXPECT_EQ(8, res.path_hist[1]);
	EXPECT_EQ(48, res.path_hist[3]);
	free(load);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* The tracer reports what the kernel would drop, and why. */
TEST(trace_failures)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_path p;
	uint32_t lid;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	lid = ftsw_host_lid(r, 2);
	EXPECT_EQ(FTSW_TRACE_OK, ftsw_trace_path(r, 0, 2, FTSW_OFFSET_ANY, 0, &p));
	EXPECT_EQ(lid, p.dlid);
	/* offset 1 with LMC 0 is not the host's */
	EXPECT_EQ(FTSW_TRACE_BAD_OFFSET, ftsw_trace_path(r, 0, 2, 1, 0, &p));
	/* misdelivery: L1 sends host 2's LID to host 3's port */
	ftsw_lft(r, 1)[lid] = ftsw_lft(r, 1)[ftsw_host_lid(r, 3)];
	EXPECT_EQ(FTSW_TRACE_MISDELIVERED, ftsw_trace_path(r, 0, 2, 0, 0, &p));
	/* loop: L1 sends it back up to top 0, which sends it to L1 */
	ftsw_lft(r, 1)[lid] = 1;
	EXPECT_EQ(FTSW_TRACE_LOOP, ftsw_trace_path(r, 0, 2, 0, 0, &p));
	EXPECT_EQ(FTSW_HOP_LIMIT + 1, p.nhops);
	/* no route */
	ftsw_lft(r, 0)[lid] = FTSW_PORT_NONE;
	EXPECT_EQ(FTSW_TRACE_NO_ROUTE, ftsw_trace_path(r, 0, 2, 0, 0, &p));
	EXPECT_EQ(1, p.nhops);
	ftsw_routing_free(r);

	/* hop limit: 2 link hops pass with limit 2, fail with limit 1 */
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(FTSW_TRACE_OK, ftsw_trace_path(r, 0, 2, 0, 2, &p));
	EXPECT_EQ(FTSW_TRACE_LOOP, ftsw_trace_path(r, 0, 2, 0, 1, &p));
	/* a fixed offset policy refuses other offsets */
	ftsw_routing_free(r);
	r = route("dmodk", t, 1);
	ASSERT_NE(NULL, r);
	r->policy[0].fixed_offset = 1;
	EXPECT_EQ(FTSW_TRACE_BAD_OFFSET, ftsw_trace_path(r, 0, 2, 0, 0, &p));
	EXPECT_EQ(FTSW_TRACE_OK, ftsw_trace_path(r, 0, 2, 1, 0, &p));
	EXPECT_EQ(ftsw_host_lid(r, 2) + 1, p.dlid);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* Three hand-made stages on FT(4,2) for ftsw_analyze_pattern. */
static void three_stages(struct ftsw_pattern *p)
{
	static const char *const names[] = { "A", "B", "C" };
	unsigned k;

	memset(p, 0, sizeof(*p));
	p->n = 8;
	p->nstages = 3;
	p->stages = calloc(3, sizeof(*p->stages));
	p->stage_names = calloc(3, sizeof(char *));
	for (k = 0; k < 3; k++) {
		ftsw_tm_init(&p->stages[k], 8);
		p->stage_names[k] = strdup(names[k]);
	}
	ftsw_tm_add(&p->stages[0], 0, 2, 1);	/* A: as hand_loads_ft42 */
	ftsw_tm_add(&p->stages[0], 1, 4, 1);
	ftsw_tm_add(&p->stages[1], 0, 1, 1);	/* B: within leaf L0 */
	/* C: no flow (a partial allocation leaves stages empty) */
}

static int stop_after_first(unsigned stage, const struct ftsw_tm *tm,
			    const double *load, const double *flows,
			    const struct ftsw_stage_metrics *m, void *arg,
			    struct ftsw_err *err)
{
	unsigned *calls = arg;

	(void)tm;
	(void)load;
	(void)flows;
	(void)m;
	(void)err;
	(*calls)++;
	return stage == 0 ? 1 : 0;
}

/*
 * ftsw_analyze_pattern on the stages above, in topology order. A: MLOAD
 * 2 (L0's up-port 1 carries both flows), baseload 1, ML(TM) 1 (exact),
 * PERF 2, two paths of 3 switches. B: one path of 1 switch, MLOAD 1,
 * PERF 1. C: nothing delivered, so it does not count in the hot-spot
 * degree (paper 003 averages over stages with flows): (2 + 1) / 2 = 1.5;
 * its PERF is 1 (ML(TM) = 0), so the average PERF is (2 + 1 + 1) / 3.
 * A callback returning 1 stops after that stage.
 */
TEST(analyze_pattern_per_stage)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_analyze_opts o = { 0 };
	struct ftsw_pattern_metrics m;
	struct ftsw_routing *r;
	struct ftsw_pattern p;
	struct ftsw_err err;
	uint32_t order[8], i;
	unsigned calls = 0;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	for (i = 0; i < 8; i++)
		order[i] = i;
	three_stages(&p);
	ASSERT_EQ(0, ftsw_analyze_pattern(r, &p, order, NULL, &m, &err));
	ASSERT_EQ(3, m.nstages);
	EXPECT_STREQ("A", m.stages[0].name);
	EXPECT_EQ(2, m.stages[0].flows);
	EXPECT_EQ(2.0, m.stages[0].mload);
	EXPECT_EQ(1.0, m.stages[0].baseload);
	EXPECT_EQ(1.0, m.stages[0].oload);
	EXPECT_TRUE(m.stages[0].exact);
	EXPECT_EQ(2.0, m.stages[0].perf);
	EXPECT_EQ(1.0, m.stages[1].mload);
	EXPECT_EQ(1.0, m.stages[1].perf);
	EXPECT_FALSE(m.stages[2].busy);
	EXPECT_EQ(0.0, m.stages[2].mload);
	EXPECT_EQ(1.5, m.hot_spot_degree);
	EXPECT_EQ(0, m.worst_stage);
	EXPECT_EQ(2.0, m.max_mload);
	EXPECT_EQ(2.0, m.max_perf);
	EXPECT_TRUE(fabs(m.avg_perf - 4.0 / 3) < 1e-12);
	EXPECT_EQ(3, m.total.flows);
	EXPECT_EQ(0, m.total.failed);
	EXPECT_EQ(2, m.total.path_hist[3]);
	EXPECT_EQ(1, m.total.path_hist[1]);
	EXPECT_EQ(2.0, m.worst_load[swlink(t, 0, 1)]);
	ftsw_pattern_metrics_free(&m);
	ftsw_pattern_free(&p);

	three_stages(&p);
	o.stage_fn = stop_after_first;
	o.arg = &calls;
	ASSERT_EQ(0, ftsw_analyze_pattern(r, &p, order, &o, &m, &err));
	EXPECT_EQ(1, calls);
	EXPECT_EQ(1, m.nstages);
	EXPECT_EQ(2.0, m.hot_spot_degree);
	ftsw_pattern_metrics_free(&m);
	ftsw_pattern_free(&p);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

static int pair_in(const struct ftsw_tm *tm, uint32_t s, uint32_t d)
{
	size_t i;

	for (i = 0; i < tm->nflows; i++)
		if (tm->f[i].src == s && tm->f[i].dst == d)
			return 1;
	return 0;
}

/*
 * Table 2 of paper 003 on small N: the stages, their sizes (-1: not
 * checked) and flows (stage, source, destination) computed by hand.
 */
static const struct t2_case {
	const char *spec;
	uint32_t n, nstages;
	int nflows[4];
	uint32_t nf, f[6][3];
} t2[] = {
	/* Binomial, N = 8: stage s has i -> i + 2^s for i < 2^s */
	{ "binomial", 8, 3, { 1, 2, 4, -1 },
	  4, { { 0, 0, 1 }, { 1, 0, 2 }, { 1, 1, 3 }, { 2, 3, 7 } } },
	/* Tournament, N = 8: i + 2^s -> i for i = 0 mod 2^(s+1) */
	{ "tournament", 8, 3, { 4, 2, 1, -1 },
	  3, { { 0, 7, 6 }, { 1, 6, 4 }, { 2, 4, 0 } } },
	/* Ring: one stage */
	{ "ring", 4, 1, { -1, -1, -1, -1 }, 1, { { 0, 3, 0 } } },
	/*
	 * Recursive doubling, N = 6 (not a power of two): pre 4 -> 0, 5 -> 1;
	 * i <-> i ^ 1 and i <-> i ^ 2 among 0..3; post 0 -> 4, 1 -> 5.
	 */
	{ "recdbl", 6, 4, { 2, 4, -1, -1 },
	  6, { { 0, 4, 0 }, { 0, 5, 1 }, { 1, 2, 3 }, { 1, 3, 2 },
	       { 2, 1, 3 }, { 3, 1, 5 } } },
	/* Recursive halving: the same, distances 2 then 1 */
	{ "rechalv", 8, 3, { -1, -1, -1, -1 },
	  3, { { 0, 0, 4 }, { 1, 0, 2 }, { 2, 0, 1 } } },
};

TEST(table2_definitions)
{
	struct ftsw_pattern p;
	struct ftsw_err err;
	uint32_t i, s;
	size_t k;

	for (k = 0; k < sizeof(t2) / sizeof(t2[0]); k++) {
		const struct t2_case *c = &t2[k];

		ASSERT_EQ(0, ftsw_pattern_make(c->spec, c->n, NULL, &p, &err));
		ASSERT_EQ(c->nstages, p.nstages) TH_LOG("%s", c->spec);
		for (s = 0; s < c->nstages; s++)
			if (c->nflows[s] >= 0)
				EXPECT_EQ(c->nflows[s], p.stages[s].nflows)
					TH_LOG("%s stage %u", c->spec, s);
		for (i = 0; i < c->nf; i++)
			EXPECT_TRUE(pair_in(&p.stages[c->f[i][0]], c->f[i][1],
					    c->f[i][2]))
				TH_LOG("%s stage %u: %u -> %u", c->spec,
				       c->f[i][0], c->f[i][1], c->f[i][2]);
		if (!strcmp(c->spec, "recdbl"))
			EXPECT_STREQ("pre", p.stage_names[0]);
		ftsw_pattern_free(&p);
	}

	/* Dissemination, N = 5: 3 stages, i -> i + 1, 2, 4 mod 5 */
	ASSERT_EQ(0, ftsw_pattern_make("dissemination", 5, NULL, &p, &err));
	ASSERT_EQ(3, p.nstages);
	for (s = 0; s < 3; s++) {
		EXPECT_EQ(5, p.stages[s].nflows);
		for (i = 0; i < 5; i++)
			EXPECT_TRUE(pair_in(&p.stages[s], i, (i + (1u << s)) % 5));
	}
	ftsw_pattern_free(&p);

	/* Shift, N = 6: stages s = 1..5, each a permutation i -> i + s */
	ASSERT_EQ(0, ftsw_pattern_make("shift", 6, NULL, &p, &err));
	ASSERT_EQ(5, p.nstages);
	for (s = 0; s < 5; s++)
		for (i = 0; i < 6; i++)
			EXPECT_TRUE(pair_in(&p.stages[s], i, (i + s + 1) % 6));
	ftsw_pattern_free(&p);

	/* Random permutation: a permutation; bisection: a perfect matching */
	ASSERT_EQ(0, ftsw_pattern_make("perm:7", 100, NULL, &p, &err));
	{
		int seen_s[100] = { 0 }, seen_d[100] = { 0 };

		ASSERT_EQ(100, p.stages[0].nflows);
		for (i = 0; i < 100; i++) {
			seen_s[p.stages[0].f[i].src]++;
			seen_d[p.stages[0].f[i].dst]++;
		}
		for (i = 0; i < 100; i++) {
			EXPECT_EQ(1, seen_s[i]);
			EXPECT_EQ(1, seen_d[i]);
		}
	}
	ftsw_pattern_free(&p);
	ASSERT_EQ(0, ftsw_pattern_make("bisect:3", 10, NULL, &p, &err));
	EXPECT_EQ(10, p.stages[0].nflows);
	for (i = 0; i < 10; i++)
		EXPECT_TRUE(pair_in(&p.stages[0], p.stages[0].f[i].dst,
				    p.stages[0].f[i].src));
	ftsw_pattern_free(&p);

	/* Clustered, groups of 4 in 8: 2 groups x 12 ordered pairs */
	ASSERT_EQ(0, ftsw_pattern_make("cluster:4:5", 8, NULL, &p, &err));
	EXPECT_EQ(24, p.stages[0].nflows);
	ftsw_pattern_free(&p);

	/* Uniform p = 1: every off-diagonal entry; p = 0: none */
	ASSERT_EQ(0, ftsw_pattern_make("uniform:1", 6, NULL, &p, &err));
	EXPECT_EQ(30, p.stages[0].nflows);
	ftsw_pattern_free(&p);
	ASSERT_EQ(0, ftsw_pattern_make("uniform:0", 6, NULL, &p, &err));
	EXPECT_EQ(0, p.stages[0].nflows);
	ftsw_pattern_free(&p);

	EXPECT_NE(0, ftsw_pattern_make("nonsense", 6, NULL, &p, &err));
	EXPECT_NE(0, ftsw_pattern_make("uniform:2", 6, NULL, &p, &err));
}

/*
 * Topology-aware recursive doubling (003 §VI) on PGFT(2;12,12;1,12;1,2):
 * m_1 = 12, L_1 = 3, E_1 = 8: pre-stage 1.-1 sends j -> j - 8 for the
 * 4 hosts with j mod 12 >= 8 of every leaf; stages 1.0..1.2 flip bits of
 * the leaf digit among the first 8 hosts; level 2 the same on the leaf
 * index. Every pair stays inside a subtree of its level.
 */
TEST(topo_recdbl_eqs)
{
	struct ftsw_topo *t = ut_gen("pgft:2;12,12;1,12;1,2");
	struct ftsw_pattern p;
	struct ftsw_err err;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_pattern_make("topo-recdbl", 144, t, &p, &err));
	/* level 1: pre, 3, post; level 2: pre, 3, post */
	ASSERT_EQ(10, p.nstages);
	EXPECT_STREQ("1.-1", p.stage_names[0]);
	EXPECT_EQ(48, p.stages[0].nflows);
	EXPECT_TRUE(pair_in(&p.stages[0], 8, 0));
	EXPECT_TRUE(pair_in(&p.stages[0], 23, 15));
	EXPECT_STREQ("1.2", p.stage_names[3]);
	EXPECT_TRUE(pair_in(&p.stages[3], 13, 17));
	EXPECT_EQ(96, p.stages[3].nflows);
	EXPECT_STREQ("2.-1", p.stage_names[5]);
	/* level 2: E_2 = 12 * 8 = 96; j = i + 96 for j mod 144 >= 96 */
	EXPECT_EQ(48, p.stages[5].nflows);
	EXPECT_TRUE(pair_in(&p.stages[5], 96, 0));
	EXPECT_STREQ("2.1", p.stage_names[7]);
	EXPECT_TRUE(pair_in(&p.stages[7], 5, 29));
	ftsw_pattern_free(&p);
	ftsw_topo_free(t);
}

static double hsd(const struct ftsw_routing *r, const char *pat, uint32_t n,
		  const char *order)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_pattern p;
	struct ftsw_err err;
	struct ftsw_hsd h;
	uint32_t *o = malloc(t->nhosts * sizeof(*o));
	double v;

	if (ftsw_order_make(order, t, n, o, &err) ||
	    ftsw_pattern_make(pat, n, t, &p, &err)) {
		fprintf(stderr, "# %s\n", err.msg);
		free(o);
		return -1;
	}
	if (ftsw_hot_spot(r, &p, o, false, &h, &err)) {
		fprintf(stderr, "# %s\n", err.msg);
		v = -1;
	} else {
		v = h.max;
	}
	free(h.per_stage);
	ftsw_pattern_free(&p);
	free(o);
	return v;
}

/*
 * Paper 003 Theorems 1-2: D-Mod-K with topology order routes every stage
 * of Shift (hence every unidirectional CPS) with at most one flow per
 * link on complete RLFTs, including the paper's Table 3 trees, and for
 * partial allocations of N = i * prod(w) hosts (§V.B); topology-aware
 * recursive doubling too (§VI). A random order is not contention free.
 */
TEST(contention_free_shift)
{
	static const char *const trees[] = {
		"pgft:2;12,12;1,6;1,2", "pgft:2;18,18;1,9;1,2",
		"pgft:2;12,12;1,12;1,2", "pgft:2;18,18;1,18;1,2",
		"pgft:3;4,4,8;1,4,4;1,1,1", "ftmn:8,3",
		"pgft:3;6,6,4;1,6,3;1,1,2", "pgft:2;4,8;1,4;1,1",
	};
	static const char *const pats[] = {
		"shift", "ring", "dissemination", "binomial", "binomial-gather",
		"tournament", "topo-recdbl",
	};
	unsigned i, k;

	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct ftsw_topo *t = ut_gen(trees[i]);
		struct ftsw_routing *r;
		uint64_t u;

		ASSERT_NE(NULL, t);
		r = route("dmodk", t, 0);
		ASSERT_NE(NULL, r);
		for (k = 0; k < sizeof(pats) / sizeof(pats[0]); k++) {
			double v = hsd(r, pats[k], t->nhosts, "topo");

			if (v != 1.0)
				fprintf(stderr, "# %s %s: %g\n", trees[i],
					pats[k], v);
			EXPECT_EQ(1.0, v);
		}
		/*
		 * partial allocations: the first i * prod(w_l p_l) hosts; the
		 * paper's i * prod(w) when every p_l = 1
		 */
		u = 1;
		for (k = 0; k < t->pgft.h; k++)
			u *= t->pgft.w[k] * t->pgft.p[k];
		for (k = 1; k * u < t->nhosts; k++)
			EXPECT_EQ(1.0, hsd(r, "shift", (uint32_t)(k * u), "topo"));
		u = ftsw_order_cf_unit(t);
		for (k = 0; k < t->pgft.h && t->pgft.p[k] == 1; k++)
			;
		if (k == t->pgft.h)
			for (k = 1; k * u < t->nhosts; k++)
				EXPECT_EQ(1.0, hsd(r, "shift", (uint32_t)(k * u),
						   "topo"));
		EXPECT_LT(1.0, hsd(r, "shift", t->nhosts, "random:1"));
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

/*
 * Where §V.B's N = i * prod(w) is not enough: PGFT(3;6,6,4;1,6,3;1,1,2)
 * has prod(w) = 18, but level-2 switches choose among w_3 p_3 = 6 up-ports
 * by floor(j / 6) mod 6, a period of 36 hosts. With N = 90 the shift
 * stages wrap around mid-period: sources of one 36-host subtree reach
 * destinations 72..89 and 0..17, whose floor(j / 6) mod 6 repeat {0, 1, 2}
 * at level-2 switches, two flows per up-link. N = 108 = 3 * 36 is clean.
 */
TEST(partial_allocation_parallel_links)
{
	struct ftsw_topo *t = ut_gen("pgft:3;6,6,4;1,6,3;1,1,2");
	struct ftsw_routing *r;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(18, ftsw_order_cf_unit(t));
	EXPECT_EQ(2.0, hsd(r, "shift", 90, "topo"));
	EXPECT_EQ(1.0, hsd(r, "shift", 108, "topo"));
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* ----------------------------------------------------------- matchings */

static uint32_t brute_card(uint32_t nl, uint32_t nr, const bool *e,
			   uint32_t u, uint32_t used)
{
	uint32_t best, v, x;

	if (u == nl)
		return 0;
	best = brute_card(nl, nr, e, u + 1, used);
	for (v = 0; v < nr; v++)
		if (e[u * nr + v] && !(used >> v & 1)) {
			x = 1 + brute_card(nl, nr, e, u + 1, used | 1u << v);
			if (x > best)
				best = x;
		}
	return best;
}

static double brute_weight(uint32_t nl, uint32_t nr, const double *w,
			   uint32_t u, uint32_t used)
{
	double best, x;
	uint32_t v;

	if (u == nl)
		return 0;
	best = brute_weight(nl, nr, w, u + 1, used);
	for (v = 0; v < nr; v++)
		if (!(used >> v & 1)) {
			x = w[u * nr + v] + brute_weight(nl, nr, w, u + 1,
							 used | 1u << v);
			if (x > best)
				best = x;
		}
	return best;
}

TEST(matchings_vs_brute_force)
{
	uint64_t seed = 42;
	unsigned trial;

	for (trial = 0; trial < 400; trial++) {
		uint32_t nl = 1 + ftsw_rand_next(&seed) % 7;
		uint32_t nr = 1 + ftsw_rand_next(&seed) % 7;
		double dens = ftsw_rand_unit(&seed);
		bool e[64];
		double w[64];
		uint32_t start[9], adj[64], match[8], n = 0, u, v, m;

		for (u = 0; u < nl; u++) {
			start[u] = n;
			for (v = 0; v < nr; v++) {
				e[u * nr + v] = ftsw_rand_unit(&seed) < dens;
				w[u * nr + v] = ftsw_rand_unit(&seed) < dens ?
					floor(ftsw_rand_unit(&seed) * 8) / 4 : 0;
				if (e[u * nr + v])
					adj[n++] = v;
			}
		}
		start[nl] = n;
		m = ftsw_hopcroft_karp(nl, nr, start, adj, match);
		EXPECT_EQ(brute_card(nl, nr, e, 0, 0), m);
		/* the matching is valid and of that size */
		{
			uint32_t cnt = 0, usedr = 0;

			for (u = 0; u < nl; u++) {
				if (match[u] == UINT32_MAX)
					continue;
				EXPECT_TRUE(e[u * nr + match[u]]);
				EXPECT_FALSE(usedr >> match[u] & 1);
				usedr |= 1u << match[u];
				cnt++;
			}
			EXPECT_EQ(m, cnt);
		}
		EXPECT_EQ(brute_weight(nl, nr, w, 0, 0),
			  ftsw_max_weight_matching(nl, nr, w, match));
	}
}

/*
 * The matching-based oblivious ratio equals the brute-force maximum of
 * MLOAD / baseload over every permutation TM (the vertices of the doubly
 * stochastic polytope; partial permutations never do better), single and
 * multipath, on FT(4,2) (8 hosts: 8! permutations).
 */
static double brute_ratio(const struct ftsw_routing *r)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t perm[8], c[8] = { 0 }, i = 0, k;
	double *load = malloc(t->nports * sizeof(*load)), best = 0;
	struct ftsw_load_result res;
	struct ftsw_err err;
	struct ftsw_tm tm;

	ftsw_tm_init(&tm, 8);
	for (k = 0; k < 8; k++)
		perm[k] = k;
	/* Heap's algorithm */
	for (;;) {
		double m;

		ftsw_tm_clear(&tm);
		for (k = 0; k < 8; k++)
			ftsw_tm_add(&tm, k, perm[k], 1);
		ftsw_link_loads(r, &tm, NULL, load, NULL, &res, &err);
		m = ftsw_max_load(t, load, false, NULL);
		if (m > best)
			best = m;
		while (i < 8 && c[i] >= i) {
			c[i] = 0;
			i++;
		}
		if (i == 8)
			break;
		k = i % 2 ? c[i] : 0;
		{
			uint32_t x = perm[k];

			perm[k] = perm[i];
			perm[i] = x;
		}
		c[i]++;
		i = 0;
	}
	ftsw_tm_free(&tm);
	free(load);
	return best;
}

TEST(oblivious_vs_brute_force)
{
	static const char *const engines[] = {
		"dmodk", "minhop", "updn", "umulti", "mlid", "osrm2",
	};
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_oblivious ob;
	struct ftsw_err err;
	unsigned i, lmc;

	ASSERT_NE(NULL, t);
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		for (lmc = 0; lmc < 2; lmc++) {
			struct ftsw_routing *r = route(engines[i], t, lmc);

			if (!r && i >= 3)
				continue;	/* needs the other LMC */
			ASSERT_NE(NULL, r);
			ASSERT_EQ(0, ftsw_oblivious_ratio(r, NULL, NULL, &ob,
							  &err));
			EXPECT_TRUE(ob.exact);
			EXPECT_LT(fabs(brute_ratio(r) - ob.ratio), 1e-9);
			ftsw_oblivious_free(&ob);
			ftsw_routing_free(r);
		}
	ftsw_topo_free(t);
}

/*
 * D-Mod-K on FT(m, 2): a leaf's up-link carries its m/2 hosts to the
 * m - 1 remote hosts of one residue, so the ratio is min(m/2, m-1) = m/2;
 * on FT(m, 3) a level-2 up-link carries all (m/2)^2 hosts of its subtree
 * to one host in each of the m - 1 other subtrees: m - 1.
 */
TEST(oblivious_dmodk_closed_form)
{
	static const struct { const char *spec; double want; } c[] = {
		{ "ftmn:8,2", 4 }, { "ftmn:12,2", 6 }, { "ftmn:4,3", 3 },
		{ "ftmn:8,3", 7 },
	};
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ftsw_topo *t = ut_gen(c[i].spec);
		struct ftsw_routing *r = route("dmodk", t, 0);
		struct ftsw_oblivious ob;
		struct ftsw_err err;

		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, ftsw_oblivious_ratio(r, NULL, NULL, &ob,
						  &err));
		EXPECT_EQ(c[i].want, ob.ratio);
		EXPECT_TRUE(ob.exact);
		ftsw_oblivious_free(&ob);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
	/* an oversubscribed tree: only an upper bound */
	{
		struct ftsw_topo *t = ut_gen("xgft:2;4,4;1,2");
		struct ftsw_routing *r = route("dmodk", t, 0);
		struct ftsw_oblivious ob;
		struct ftsw_err err;

		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, ftsw_oblivious_ratio(r, NULL, NULL, &ob,
						  &err));
		EXPECT_FALSE(ob.exact);
		ftsw_oblivious_free(&ob);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

/*
 * A multipath routing that spreads every pair evenly over all shortest
 * paths (the umulti engine; D-Mod-K with 2^LMC = prod(w) offsets on
 * 2-level trees does the same) has PERF = MLOAD / ML(TM) = 1 on random
 * uniform and clustered matrices (paper 000 Theorem 1).
 */
TEST(umulti_perf_one)
{
	static const struct {
		const char *spec, *engine;
		unsigned lmc;
	} c[] = {
		{ "ftmn:4,2", "dmodk", 1 }, { "xgft:2;4,4;1,4", "dmodk", 2 },
		{ "ftmn:4,2", "umulti", 1 }, { "xgft:3;4,4,4;1,4,2", "umulti", 3 },
		{ "ftmn:8,3", "umulti", 4 },
	};
	unsigned i, k;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ftsw_topo *t = ut_gen(c[i].spec);
		struct ftsw_routing *r = route(c[i].engine, t, c[i].lmc);
		double *load = malloc(t->nports * sizeof(*load));

		ASSERT_NE(NULL, r);
		for (k = 0; k < 40; k++) {
			struct ftsw_pattern p;
			struct ftsw_load_result res;
			struct ftsw_err err;
			char spec[64];
			bool exact;
			double m, ml;

			snprintf(spec, sizeof(spec), k % 2 ? "uniform:0.3:%u" :
				 "cluster:3:%u", k);
			ASSERT_EQ(0, ftsw_pattern_make(spec, t->nhosts, t, &p,
						       &err));
			ASSERT_EQ(0, ftsw_link_loads(r, &p.stages[0], NULL, load,
						     NULL, &res, &err));
			m = ftsw_max_load(t, load, false, NULL);
			ml = ftsw_ml_bound(t, &p.stages[0], &exact);
			EXPECT_TRUE(exact);
			if (p.stages[0].nflows)
				EXPECT_LT(fabs(m / ml - 1), 1e-9);
			ftsw_pattern_free(&p);
		}
		free(load);
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
}

/* ------------------------------------------------------------ sampling */

static double constant(uint64_t i, void *arg)
{
	(void)i;
	(void)arg;
	return 3.0;
}

static double noisy(uint64_t i, void *arg)
{
	uint64_t s = i * 7919 + 1;

	(void)arg;
	/* mean 1, values 0..2: needs more than 1000 samples for 1% */
	return 2 * ftsw_rand_unit(&s);
}

TEST(sampling_rule)
{
	struct ftsw_sample_opts o = { .first = 1000, .rel = 0.01 };
	struct ftsw_sampled s;

	ASSERT_EQ(0, ftsw_sample(&o, constant, NULL, &s));
	EXPECT_EQ(1000, s.samples);
	EXPECT_EQ(3.0, s.mean);
	EXPECT_EQ(0.0, s.half);
	ASSERT_EQ(0, ftsw_sample(&o, noisy, NULL, &s));
	/* sd = 2/sqrt(12) = 0.577: 2.576 * 0.577 / sqrt(n) <= 0.01 needs
	 * n >= 22,100, i.e. 32,000 after doubling from 1000 */
	EXPECT_EQ(32000, s.samples);
	EXPECT_LE(s.half, 0.01 * s.mean);
}

/* ---------------------------------------------------------------- order */

TEST(order_and_rankfile)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	uint32_t o[8], i;
	bool seen[8] = { 0 };
	struct ftsw_err err;
	char path[] = "/tmp/ftsw-order-XXXXXX", line[128];
	FILE *f;
	int fd;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_order_make("topo", t, 8, o, &err));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(i, o[i]);
	ASSERT_EQ(0, ftsw_order_make("random:5", t, 8, o, &err));
	for (i = 0; i < 8; i++)
		seen[o[i]] = true;
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(seen[i]);
	ASSERT_EQ(0, ftsw_order_make("contig-random:5", t, 6, o, &err));
	for (i = 1; i < 6; i++)
		EXPECT_LT(o[i - 1], o[i]);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ftsw_order_write(t, o, 6, FTSW_ORDER_OMPI_RANKFILE, path,
				      &err));
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));	/* comment */
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	{
		char want[64], nm[32];

		snprintf(want, sizeof(want), "rank 0=%s slot=0\n",
			 ftsw_host_name(t, o[0], nm, sizeof(nm)));
		EXPECT_STREQ(want, line);
	}
	fclose(f);
	/* read back as an order file of host names */
	ASSERT_EQ(0, ftsw_order_write(t, o, 6, FTSW_ORDER_PLAIN, path, &err));
	{
		uint32_t o2[6];
		char spec[64];

		snprintf(spec, sizeof(spec), "file:%s", path);
		/* plain lines "RANK INDEX NAME" read back */
		ASSERT_EQ(0, ftsw_order_make(spec, t, 6, o2, &err));
		for (i = 0; i < 6; i++)
			EXPECT_EQ(o[i], o2[i]);
		/* "RANK NAME" lines in any order */
		f = fopen(path, "w");
		for (i = 0; i < 6; i++)
			fprintf(f, "%u H%u\n", 5 - i, o[5 - i]);
		fclose(f);
		ASSERT_EQ(0, ftsw_order_make(spec, t, 6, o2, &err));
		for (i = 0; i < 6; i++)
			EXPECT_EQ(o[i], o2[i]);
	}
	unlink(path);
	ftsw_topo_free(t);
}

/* Traffic matrix and order files: errors name file:line. */
TEST(file_errors)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	char path[] = "/tmp/ftsw-tm-XXXXXX", want[128], spec[64];
	struct ftsw_pattern p;
	struct ftsw_err err;
	uint32_t o[8];
	FILE *f;
	int fd;

	ASSERT_NE(NULL, t);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	fprintf(f, "# a comment\n0 5 2.5\n\n1 9\n");
	fclose(f);
	snprintf(spec, sizeof(spec), "file:%s", path);
	EXPECT_NE(0, ftsw_pattern_make(spec, 8, t, &p, &err));
	snprintf(want, sizeof(want), "%s:4: rank outside 0..7: 9", path);
	EXPECT_STREQ(want, err.msg);
	f = fopen(path, "w");
	fprintf(f, "0 5 2.5\n1 x\n");
	fclose(f);
	EXPECT_NE(0, ftsw_pattern_make(spec, 8, t, &p, &err));
	snprintf(want, sizeof(want), "%s:2: expected 'SRC DST [AMOUNT]'", path);
	EXPECT_EQ(0, strncmp(want, err.msg, strlen(want))) TH_LOG("%s", err.msg);
	f = fopen(path, "w");
	fprintf(f, "0 5 2.5\n1 3\n");
	fclose(f);
	ASSERT_EQ(0, ftsw_pattern_make(spec, 8, t, &p, &err));
	ASSERT_EQ(2, p.stages[0].nflows);
	EXPECT_EQ(2.5, p.stages[0].f[0].amount);
	EXPECT_EQ(1.0, p.stages[0].f[1].amount);
	ftsw_pattern_free(&p);
	f = fopen(path, "w");
	fprintf(f, "H1\nH2\nH1\n");
	fclose(f);
	EXPECT_NE(0, ftsw_order_make(spec, t, 3, o, &err));
	snprintf(want, sizeof(want), "%s:3: rank 2 or host 'H1' given twice",
		 path);
	EXPECT_STREQ(want, err.msg);
	unlink(path);
	ftsw_topo_free(t);
}

/*
 * Per switch pair: PGFT(2;2,4;1,2;1,2) has 4 leaves of 2 hosts, 2 tops,
 * 2 cables per leaf-top pair; up-port q leads to top q mod 2. D-Mod-K
 * sends destination d up through up-port d mod 4: flows 0 -> 2 and 1 -> 4
 * take up-ports 2 and 0, both cables to top 0: one flow per cable, two
 * per switch pair.
 */
TEST(hot_spot_bundle)
{
	struct ftsw_topo *t = ut_gen("pgft:2;2,4;1,2;1,2");
	struct ftsw_routing *r;
	struct ftsw_load_result res;
	struct ftsw_err err;
	struct ftsw_tm tm;
	double *load;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	load = calloc(t->nports, sizeof(*load));
	ftsw_tm_init(&tm, 8);
	ftsw_tm_add(&tm, 0, 2, 1);
	ftsw_tm_add(&tm, 1, 4, 1);
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, NULL, load, NULL, &res, &err));
	EXPECT_EQ(1.0, ftsw_max_load(t, load, true, NULL));
	EXPECT_EQ(2.0, ftsw_max_bundle_load(t, load));
	ftsw_tm_free(&tm);
	free(load);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * ORCS effective bisection bandwidth by hand on FT(4,2) with D-Mod-K:
 * 0 -> 2 and 1 -> 4 share L0's up-port 1 (2 flows: 1/2 each); 2 -> 0 goes
 * up L1 port 1 to top 0, 4 -> 1 up L2 port 2 to top 1, each alone on every
 * link (1 each). Mean (1/2 + 1/2 + 1 + 1) / 4 = 3/4.
 */
TEST(ebb_by_hand)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_tm tm;
	double *flows;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 0);
	ASSERT_NE(NULL, r);
	flows = calloc(t->nports, sizeof(*flows));
	ftsw_tm_init(&tm, 8);
	ftsw_tm_add(&tm, 0, 2, 1);
	ftsw_tm_add(&tm, 1, 4, 1);
	ftsw_tm_add(&tm, 2, 0, 1);
	ftsw_tm_add(&tm, 4, 1, 1);
	EXPECT_EQ(0.75, ftsw_ebb(r, &tm, flows));
	ftsw_tm_free(&tm);
	free(flows);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * The kernel's offset lists: FT(4,2) with D-Mod-K at LMC 1 sends the two
 * LIDs of a destination up L0's two different up-ports (both shortest
 * paths). Host 0 listing offsets {1, 1, 0} sends 2/3 of its traffic to
 * host 2 by offset 1's port and 1/3 by the other.
 */
TEST(kernel_offset_lists)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_routing *r;
	struct ftsw_offset_list *lists;
	struct ftsw_load_opts o = { 0 };
	struct ftsw_load_result res;
	struct ftsw_err err;
	struct ftsw_tm tm;
	struct ftsw_path p;
	double *load;
	uint8_t offs[128];
	double w[128];
	unsigned i;

	ASSERT_NE(NULL, t);
	r = route("dmodk", t, 1);
	ASSERT_NE(NULL, r);
	lists = calloc(8, sizeof(*lists));
	for (i = 0; i < 8; i++) {
		lists[i].n = 2;
		lists[i].off[1] = 1;
	}
	lists[0].n = 3;
	lists[0].off[0] = 1;
	lists[0].off[1] = 1;
	lists[0].off[2] = 0;
	ASSERT_EQ(2, ftsw_offsets_weighted(&lists[0], 1, offs, w));
	EXPECT_EQ(0, offs[0]);
	EXPECT_LT(fabs(w[0] - 1.0 / 3), 1e-12);
	EXPECT_LT(fabs(w[1] - 2.0 / 3), 1e-12);
	ASSERT_EQ(FTSW_TRACE_OK, ftsw_trace_path(r, 0, 2, 1, 0, &p));
	load = calloc(t->nports, sizeof(*load));
	ftsw_tm_init(&tm, 8);
	ftsw_tm_add(&tm, 0, 2, 3);
	o.lists = lists;
	ASSERT_EQ(0, ftsw_link_loads(r, &tm, &o, load, NULL, &res, &err));
	EXPECT_EQ(0, res.failed);
	/* up-port q leads through IB port q + 1 */
	EXPECT_LT(fabs(load[swlink(t, 0, p.hops[0].port)] - 2.0), 1e-12);
	EXPECT_LT(fabs(load[swlink(t, 0, 3 - p.hops[0].port)] - 1.0), 1e-12);
	ftsw_tm_free(&tm);
	free(load);
	free(lists);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
