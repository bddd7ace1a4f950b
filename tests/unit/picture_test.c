// SPDX-License-Identifier: GPL-2.0
/*
 * The one layout and drawing of every picture (analyze/picture.h): a
 * fat-tree by levels in a stable order, a torus as its grid, a ring as a
 * circle, anything else by Graphviz; the SVG's cables, colours, numbers and
 * legend; the pinned DOT; the torus:4,4 MinHop deadlock of ftsw sim drawn
 * on its 4x4 grid with the cycle. Expected values by hand.
 */
#include <math.h>

#include "common.h"
#include "analyze/analyze.h"
#include "analyze/picture.h"
#include "sim/sim.h"

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static char *svg_of(const struct ftsw_picture *p, bool dot)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (dot ? ftsw_picture_dot(p, f) : ftsw_picture_svg(p, f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

/* hsl(0, 80%, 42%) by hand: C = 0.84 * 0.8, m = 0.42 - C / 2: #c11515;
 * hsl(60, 80%, 42%): the same with green = red: #c1c115. */
TEST(colour_scale)
{
	char c[16];

	ftsw_pic_colour(1, c, sizeof(c));
	EXPECT_STREQ("#c11515", c);
	ftsw_pic_colour(0.5, c, sizeof(c));
	EXPECT_STREQ("#c1c115", c);
	ftsw_pic_colour(0, c, sizeof(c));
	EXPECT_STREQ(FTSW_PIC_IDLE, c);
	EXPECT_EQ(1, ftsw_pic_width(0));
	EXPECT_EQ(6.5, ftsw_pic_width(1));
	EXPECT_EQ(6.5, ftsw_pic_width(3));	/* past the top: the top */
}

/*
 * FT(4,3): 8 leaves (s0..s7), 8 middle (s8..s15), 4 top (s16..s19), 16
 * hosts. Levels bottom-up; four subtrees of 2 leaves and 2 middle switches
 * each, in index order, left to right; the top level spans them.
 */
TEST(fat_tree_levels)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,3");
	struct ftsw_layout l;
	struct ftsw_err err;
	uint32_t i;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_layout_make(t, NULL, true, &l, &err));
	EXPECT_EQ(FTSW_LAYOUT_LEVELS, l.kind);
	EXPECT_EQ(3, l.nlevels);
	EXPECT_EQ(4, l.ngroups);
	for (i = 0; i < 20; i++) {
		uint32_t v = t->switches[i];
		int lv = i < 8 ? 1 : i < 16 ? 2 : 3;

		EXPECT_EQ(lv, l.level[v]);
		EXPECT_EQ((3 - lv) * FTSW_LAYOUT_LEVEL_STEP, l.y[v]);
		EXPECT_EQ(i < 16 ? (i % 8) / 2 : FTSW_NONE, l.group[v]);
		/* stable order: left to right by index within a level */
		if (i % 8)
			EXPECT_LT(l.x[t->switches[i - 1]], l.x[v]);
	}
	/* hosts at the bottom, h0..h15 left to right, under their leaf */
	for (i = 0; i < 16; i++) {
		uint32_t v = t->hosts[i];

		EXPECT_EQ(3 * FTSW_LAYOUT_LEVEL_STEP, l.y[v]);
		EXPECT_EQ(i / 4, l.group[v]);
		if (i)
			EXPECT_LT(l.x[t->hosts[i - 1]], l.x[v]);
	}
	/* a subtree is as wide as its widest level: 2 switches of 44 (not
	 * 4 hosts of 18), so hosts are 88 / 4 = 22 apart, h0 leftmost, and
	 * leaf 0 sits over hosts 0 and 1 */
	EXPECT_EQ(0, l.x[t->hosts[0]]);
	EXPECT_EQ(22, l.x[t->hosts[1]] - l.x[t->hosts[0]]);
	EXPECT_EQ((l.x[t->hosts[0]] + l.x[t->hosts[1]]) / 2,
		  l.x[t->switches[0]]);
	ftsw_layout_free(&l);
	ftsw_topo_free(t);
}

/* torus:4,4: switch (c0, c1) = index c0 + 4 c1 at (120 c0, 120 c1); the
 * wrap-around cables (c0 0 - 3) are bent, the others straight. */
TEST(torus_grid_and_ring)
{
	struct ftsw_topo *t = ut_gen("torus:4,4");
	struct ftsw_layout l;
	struct ftsw_err err;
	uint32_t i;
	double r;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_layout_make(t, NULL, true, &l, &err));
	EXPECT_EQ(FTSW_LAYOUT_GRID, l.kind);
	for (i = 0; i < 16; i++) {
		uint32_t v = t->switches[i], v0 = t->switches[0];

		EXPECT_EQ((i % 4) * FTSW_LAYOUT_GRID_STEP, l.x[v] - l.x[v0]);
		EXPECT_EQ((i / 4) * FTSW_LAYOUT_GRID_STEP, l.y[v] - l.y[v0]);
	}
	EXPECT_TRUE(ftsw_layout_bent(&l, t->switches[0], t->switches[3]));
	EXPECT_TRUE(ftsw_layout_bent(&l, t->switches[1], t->switches[13]));
	EXPECT_FALSE(ftsw_layout_bent(&l, t->switches[0], t->switches[1]));
	EXPECT_FALSE(ftsw_layout_bent(&l, t->switches[0], t->switches[4]));
	ftsw_layout_free(&l);
	ftsw_topo_free(t);

	/* a ring of 6: a circle, every switch as far from its centre */
	t = ut_gen("torus:6");
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_layout_make(t, NULL, true, &l, &err));
	EXPECT_EQ(FTSW_LAYOUT_RING, l.kind);
	{
		double cx = 0, cy = 0;

		for (i = 0; i < 6; i++) {
			cx += l.x[t->switches[i]] / 6;
			cy += l.y[t->switches[i]] / 6;
		}
		r = hypot(l.x[t->switches[0]] - cx, l.y[t->switches[0]] - cy);
		for (i = 1; i < 6; i++)
			EXPECT_LT(fabs(hypot(l.x[t->switches[i]] - cx,
					     l.y[t->switches[i]] - cy) - r), 1e-6);
	}
	ftsw_layout_free(&l);
	ftsw_topo_free(t);
}

/* Neither a tree nor a grid: Graphviz places it, no two switches at one
 * spot. A torus spec that does not describe t is not taken for it. */
TEST(other_graphs_by_graphviz)
{
	struct ftsw_topo *t = ut_gen("kautz:2,3");
	struct ftsw_layout l;
	struct ftsw_err err;
	uint32_t i, j;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ftsw_layout_make(t, NULL, true, &l, &err));
	EXPECT_EQ(FTSW_LAYOUT_GRAPHVIZ, l.kind);
	for (i = 0; i < t->nswitches; i++)
		for (j = i + 1; j < t->nswitches; j++)
			EXPECT_LT(1, hypot(l.x[t->switches[i]] -
					   l.x[t->switches[j]],
					   l.y[t->switches[i]] -
					   l.y[t->switches[j]]));
	ftsw_layout_free(&l);
	ASSERT_EQ(0, ftsw_layout_make(t, "torus:3,4", true, &l, &err));
	EXPECT_EQ(FTSW_LAYOUT_GRAPHVIZ, l.kind);
	ftsw_layout_free(&l);
	ftsw_topo_free(t);
}

/*
 * FT(4,2): 8 host and 8 switch cables, two halves each; leaf s0's port 1
 * (up, to s4) sends 3 flows, the top of the scale: red (#c11515), width
 * 6.5, its number beside it; every other half idle. The DOT pins the same
 * nodes and colours each edge by its two halves.
 */
TEST(svg_and_dot)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	double *load = calloc(t ? t->nports : 1, sizeof(*load));
	struct ftsw_picture p = { .t = t, .load = load, .unit = "flows",
				  .hosts = 1, .labels = 1, .title = "a<b" };
	char *svg, *dot;

	ASSERT_NE(NULL, t);
	load[ftsw_link_id(t, t->switches[0], 1)] = 3;
	svg = svg_of(&p, false);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(32, count(svg, "<line x1=")) TH_LOG("%s", svg);
	EXPECT_EQ(1, count(svg, "stroke=\"#c11515\" stroke-width=\"6.50\""));
	EXPECT_EQ(31, count(svg, "stroke=\"" FTSW_PIC_IDLE "\""));
	EXPECT_EQ(1, count(svg, "class=\"n\">3</text>"));
	EXPECT_EQ(6, count(svg, "class=\"s\""));	/* switches */
	EXPECT_EQ(8, count(svg, "class=\"h\""));	/* hosts */
	EXPECT_NE(NULL, strstr(svg, ">a&lt;b</text>"));	/* escaped */
	EXPECT_NE(NULL, strstr(svg, "load (flows)"));
	dot = svg_of(&p, true);
	ASSERT_NE(NULL, dot);
	EXPECT_EQ(16, count(dot, " -- n"));
	EXPECT_EQ(14, count(dot, "pos=\"") - 1);	/* and the legend */
	EXPECT_EQ(1, count(dot, "color=\"#c11515;0.5:" FTSW_PIC_IDLE "\""));
	EXPECT_NE(NULL, strstr(dot, "taillabel=\"3\""));
	free(svg);
	free(dot);
	/* hosts left out: only the 8 switch cables */
	p.hosts = 0;
	svg = svg_of(&p, false);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(16, count(svg, "<line x1="));
	EXPECT_EQ(0, count(svg, "class=\"h\""));
	free(svg);
	free(load);
	ftsw_topo_free(t);
}

/*
 * ftsw sim --picture of torus:4,4 routed by MinHop on one VL under
 * uniform traffic: it deadlocks (sim_test's deadlock_ring_torus_random);
 * the picture is the 4x4 grid (four columns and four rows of switches)
 * with one arrow per buffer of the cycle, drawn from its switch along the
 * cable of the output it waits for.
 */
TEST(sim_deadlock_picture)
{
	struct ftsw_topo *t = ut_gen("torus:4,4");
	struct ftsw_route_opts ro = { .seed = 3, .threads = 1 };
	struct ftsw_routing *r;
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_pic_mark marks[64];
	struct ftsw_picture p = { .marks = marks, .marks_label = "cycle" };
	struct ftsw_layout l;
	struct ftsw_err err;
	double xs[16], ys[16];
	unsigned nx = 0, ny = 0, k, j;
	char *svg;

	ASSERT_NE(NULL, t);
	r = ut_route("minhop", t, &ro);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	ftsw_sim_opts_default(&o);
	o.warmup = 1000;
	o.threads = 1;
	o.vls = 1;
	o.measure = 30000;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &res, &err));
	ASSERT_TRUE(res.deadlock);
	ASSERT_LE(2, res.ncycle);
	ASSERT_GE(64, res.ncycle);
	for (k = 0; k < res.ncycle; k++) {
		marks[k].node = t->switches[res.cycle[k].sw];
		marks[k].port = res.cycle[k].out_port;
	}
	p.t = t;
	p.nmarks = res.ncycle;
	svg = svg_of(&p, false);
	ASSERT_NE(NULL, svg);
	/* every buffer an arrow; a wrap-around one in two pieces */
	EXPECT_LE(res.ncycle, count(svg, "class=\"m\"/>"));
	EXPECT_EQ(16, count(svg, "class=\"s\""));
	ASSERT_EQ(0, ftsw_layout_make(t, NULL, true, &l, &err));
	for (k = 0; k < 16; k++) {
		double x = l.x[t->switches[k]], y = l.y[t->switches[k]];

		for (j = 0; j < nx && xs[j] != x; j++)
			;
		if (j == nx)
			xs[nx++] = x;
		for (j = 0; j < ny && ys[j] != y; j++)
			;
		if (j == ny)
			ys[ny++] = y;
	}
	EXPECT_EQ(4, nx);
	EXPECT_EQ(4, ny);
	ftsw_layout_free(&l);
	free(svg);
	ftsw_sim_result_free(&res);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
