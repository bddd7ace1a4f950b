// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level engine (sim/flit.c): an idle packet's latency by hand in
 * both of its modes; a wormhole chain of one-flit buffers, where each
 * flit waits for the credit of the one before (worked out below); virtual
 * cut-through flit by flit against the event engine; wormhole with
 * buffers smaller than a packet saturating below virtual cut-through; a
 * wormhole deadlock on a ring.
 */
#include <math.h>
#include <unistd.h>

#include "common.h"
#include "sim/sim.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 180

static void opts(struct ftsw_sim_opts *o, enum ftsw_sim_switching w)
{
	ftsw_sim_opts_default(o);
	o->warmup = 1000;
	o->measure = 5000;
	o->threads = 1;
	o->switching = w;
}

static int one_flow(const struct ftsw_topo *t, const char *flow,
		    struct ftsw_sim_traffic *tr)
{
	char path[] = "/tmp/ftsw-flit-XXXXXX", spec[64];
	struct ftsw_err err;
	int fd = mkstemp(path), rc;
	FILE *f = fdopen(fd, "w");

	fputs(flow, f);
	fclose(f);
	snprintf(spec, sizeof(spec), "file:%s", path);
	rc = ftsw_sim_traffic_make(t, spec, "topo", 0, tr, &err);
	unlink(path);
	return rc;
}

/*
 * Host 0 to host 127 of XGFT(3;4,4,8;1,4,4): 5 switches, 6 links. One
 * packet on an idle fabric: (h + 1) L + h R + P, as on the event engine,
 * in both modes with buffers that hold a packet.
 */
TEST(idle_latency_by_hand)
{
	struct ftsw_topo *t = ut_gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result x;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	unsigned L, R, P, w;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, one_flow(t, "0 127\n", &tr));
	for (w = FTSW_SIM_WORMHOLE; w <= FTSW_SIM_VCT_FLITS; w++)
		for (L = 1; L <= 3; L += 2)
			for (R = 1; R <= 4; R += 3)
				for (P = 1; P <= 16; P += 15) {
					opts(&o, w);
					o.count = 1;
					o.msg_packets = 1;
					o.packet_flits = P;
					o.link_latency = L;
					o.router_latency = R;
					ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5,
								  &x, &err))
						TH_LOG("%s", err.msg);
					ASSERT_EQ(1, x.pkts_delivered);
					EXPECT_EQ(6 * L + 5 * R + P, x.net_lat_avg)
						TH_LOG("%u L %u R %u P %u", w, L,
						       R, P);
					EXPECT_EQ(6 * P, x.flit_hops);
					ftsw_sim_result_free(&x);
				}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * A wormhole chain of one-flit buffers (L = R = 1). A flit that reaches
 * an input buffer at cycle c crosses the crossbar at c (the output buffer
 * is empty: its flit left on the link at c), its credit is back upstream
 * at c + 1 and the next flit leaves then: one flit every 2 cycles on
 * every hop. The head takes (h + 1) L + h R as ever, each of the other
 * P - 1 flits 2 cycles more, the tail is received a cycle after it
 * arrives: (h + 1) + h + 2 (P - 1) + 1 = 2h + 2P cycles, 30 for h = 5
 * and P = 10. Two-flit buffers keep up with the link: 6 + 5 + 10 = 21.
 */
TEST(wormhole_chain_by_hand)
{
	struct ftsw_topo *t = ut_gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result x;
	struct ftsw_sim_opts o;
	struct ftsw_err err;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, one_flow(t, "0 127\n", &tr));
	opts(&o, FTSW_SIM_WORMHOLE);
	o.count = 1;
	o.msg_packets = 1;
	o.buf_flits = 1;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &x, &err)) TH_LOG("%s",
								     err.msg);
	EXPECT_EQ(2 * 5 + 2 * 10, x.net_lat_avg);
	ftsw_sim_result_free(&x);
	o.buf_flits = 2;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &x, &err));
	EXPECT_EQ(6 + 5 + 10, x.net_lat_avg);
	ftsw_sim_result_free(&x);
	/* virtual cut-through refuses buffers smaller than a packet */
	opts(&o, FTSW_SIM_VCT_FLITS);
	o.buf_flits = 9;
	EXPECT_EQ(-1, ftsw_sim_run(r, &tr, &o, 0.5, &x, &err));
	EXPECT_NE(NULL, strstr(err.msg, "hold no packet"));
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Virtual cut-through, flit by flit, against the event engine under
 * uniform traffic on FT(4,3): the same model in two engines, whose
 * arbitrations differ in order only: throughput within 1 %, below
 * saturation and at it. Wormhole with 4-flit buffers (packets of 10)
 * saturates clearly lower: a blocked packet holds the buffers of several
 * switches.
 */
TEST(vct_two_engines_agree_wormhole_lower)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,3");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_result a, b, w;
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	static const double loads[] = { 0.3, 0.9 };
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	for (i = 0; i < 2; i++) {
		opts(&o, FTSW_SIM_VCT);
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, loads[i], &a, &err));
		opts(&o, FTSW_SIM_VCT_FLITS);
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, loads[i], &b, &err))
			TH_LOG("%s", err.msg);
		EXPECT_LT(fabs(a.accepted / b.accepted - 1), 0.01)
			TH_LOG("load %.1f: event %.4f, flits %.4f", loads[i],
			       a.accepted, b.accepted);
		opts(&o, FTSW_SIM_WORMHOLE);
		o.buf_flits = 4;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, loads[i], &w, &err));
		if (i)
			EXPECT_LT(w.accepted, 0.9 * a.accepted)
				TH_LOG("wormhole %.4f, vct %.4f", w.accepted,
				       a.accepted);
		EXPECT_LT(0, w.samples);	/* flits conserved */
		ftsw_sim_result_free(&a);
		ftsw_sim_result_free(&b);
		ftsw_sim_result_free(&w);
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* MinHop on a 4x4 torus deadlocks under wormhole: found, reported. */
TEST(wormhole_torus_deadlock)
{
	struct ftsw_topo *t = ut_gen("torus:4,4");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("minhop", t, &ro);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result x;
	struct ftsw_sim_opts o;
	struct ftsw_err err;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o, FTSW_SIM_WORMHOLE);
	o.buf_flits = 2;
	o.measure = 20000;
	o.deadlock_cycles = 2000;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &x, &err)) TH_LOG("%s",
								     err.msg);
	EXPECT_TRUE(x.deadlock);
	EXPECT_NE(NULL, strstr(x.note, "no flit moved"));
	ftsw_sim_result_free(&x);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
