// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's congestion management (sim/cm.c; Documentation/sim.md):
 * congestion control that marks nothing changes nothing, bit for bit; an
 * inter-packet delay from the table gives a lone flow the rate worked out
 * by hand; a hot spot is marked and throttled and stays saturated; adaptive
 * routing spreads two flows that d-mod-k puts on one up-link, and with
 * flowlets keeps each flow in order. Every run also checks every cycle
 * that no resource able to act was left asleep (verify).
 */
#include <math.h>
#include <unistd.h>

#include "common.h"
#include "sim/sim.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 180

/* The lab's frames: 23 flits, one per message, 4 per buffer. */
static void lab_opts(struct ftsw_sim_opts *o)
{
	ftsw_sim_opts_default(o);
	o->packet_flits = 23;
	o->msg_packets = 1;
	o->speedup = 23;
	o->warmup = 2000;
	o->measure = 20000;
	o->threads = 1;
	o->verify = true;
	o->cycle_ns = 512000;	/* 1 Mbit/s: 512 us a flit */
}

static int traffic(const struct ftsw_topo *t, const char *flows,
		   struct ftsw_sim_traffic *tr)
{
	char path[] = "/tmp/ftsw-sim-cm-XXXXXX", spec[64];
	struct ftsw_err err;
	int fd = mkstemp(path), rc;
	FILE *f = fdopen(fd, "w");

	fputs(flows, f);
	fclose(f);
	snprintf(spec, sizeof(spec), "file:%s", path);
	rc = ftsw_sim_traffic_make(t, spec, "topo", 0, tr, &err);
	if (rc)
		fprintf(stderr, "# %s\n", err.msg);
	unlink(path);
	return rc;
}

/* Flits per cycle over the link into host h in the measured window. */
static double into_host(const struct ftsw_topo *t,
			const struct ftsw_sim_result *x, uint32_t h)
{
	uint32_t hn = t->hosts[h], p = t->nodes[hn].first_port;
	const struct ftsw_port *hp = &t->ports[p];
	uint32_t sp = ftsw_link_id(t, hp->peer, hp->peer_port);
	uint64_t f = 0;
	unsigned v;

	for (v = 0; v < x->vls; v++)
		f += x->link_flits[(size_t)sp * x->vls + v];
	return (double)f / x->window;
}

static void same_numbers(struct __test_metadata *_metadata,
			 const struct ftsw_sim_result *a,
			 const struct ftsw_sim_result *b)
{
	EXPECT_EQ(a->cycles, b->cycles);
	EXPECT_EQ(a->flit_hops, b->flit_hops);
	EXPECT_EQ(a->pkts_delivered, b->pkts_delivered);
	EXPECT_EQ(a->accepted, b->accepted);
	EXPECT_EQ(a->msg_lat_avg, b->msg_lat_avg);
	EXPECT_EQ(a->msg_lat_p99, b->msg_lat_p99);
}

/*
 * Congestion control off, or on with a threshold that never marks and no
 * table: the same run as without it. Uniform traffic near saturation.
 */
TEST(cc_that_marks_nothing_changes_nothing)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_result base, x;
	struct ftsw_sim_traffic tr;
	struct ftsw_cc_params p;
	struct ftsw_sim_opts o;
	struct ftsw_err err;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	lab_opts(&o);
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &base, &err)) TH_LOG("%s",
									err.msg);
	ftsw_cc_params_default(&p);
	o.cc = &p;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &x, &err));
	same_numbers(_metadata, &base, &x);
	EXPECT_EQ(0, x.cc_marked);
	ftsw_sim_result_free(&x);
	/* on, but Control_Map bit 2 clear: the switches' threshold is 0 */
	p.congestion_control = true;
	p.cc_sw_cong_setting_threshold = 15;
	p.cc_ca_cong_setting_control_map = 1;
	p.cc_ca_cong_setting_ccti_increase[0] = 1;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &x, &err)) TH_LOG("%s",
								     err.msg);
	same_numbers(_metadata, &base, &x);
	EXPECT_EQ(0, x.cc_marked);
	EXPECT_EQ(0, x.cc_becns);
	ftsw_sim_result_free(&x);
	ftsw_sim_result_free(&base);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * A lone flow whose unit sits at CCTI_Min = 1: every packet of 23 cycles
 * is followed by the entry's delay. Entry 0:1 is 23 * 1 >> 0 = 23 cycles:
 * 23 / 46 = 0.5 of the link; entry 2:3 is 23 * 3 >> 2 = 17 cycles:
 * 23 / 40 = 0.575.
 */
TEST(inter_packet_delay_by_hand)
{
	static const struct { struct ftsw_cct_entry e; double rate; } c[] = {
		{ { 0, 1 }, 23.0 / 46 }, { { 2, 3 }, 23.0 / 40 },
	};
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_traffic tr;
	struct ftsw_cc_params p;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, traffic(t, "0 7\n", &tr));
	for (i = 0; i < 2; i++) {
		struct ftsw_sim_result x;

		ftsw_cc_params_default(&p);
		p.congestion_control = true;
		p.cc_ca_cong_setting_control_map = 1;
		p.cc_ca_cong_setting_ccti_min[0] = 1;
		p.cc_cct_len = 2;
		p.cc_cct[1] = c[i].e;
		lab_opts(&o);
		o.cc = &p;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &x, &err))
			TH_LOG("%s", err.msg);
		/* one packet more or less in the window: 23 / 20000 */
		EXPECT_LT(fabs(into_host(t, &x, 7) - c[i].rate), 0.002)
			TH_LOG("entry %u: %.4f, by hand %.4f", i,
			       into_host(t, &x, 7), c[i].rate);
		EXPECT_EQ(0, x.cc_marked);
		EXPECT_LT(0, x.cc_waits);
		ftsw_sim_result_free(&x);
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Six sources into host 0 at full load: the port to host 0 is the root of
 * a congestion tree. Marked, notified, throttled, and host 0's link stays
 * busy; a BECN follows every delivered mark (those of the last few cycles
 * may still be on their way).
 */
TEST(hot_spot_marked_throttled_saturated)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_routing *r = ut_route("dmodk", t, &ro);
	struct ftsw_sim_result x;
	struct ftsw_sim_traffic tr;
	struct ftsw_cc_params p;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, traffic(t, "2 0\n3 0\n4 0\n5 0\n6 0\n7 0\n", &tr));
	ftsw_cc_params_default(&p);
	p.congestion_control = true;
	p.cc_sw_cong_setting_control_map = FTSW_CC_SW_THRESHOLD;
	p.cc_sw_cong_setting_threshold = 8;
	p.cc_ca_cong_setting_control_map = 1;
	p.cc_ca_cong_setting_ccti_increase[0] = 1;
	p.cc_ca_cong_setting_ccti_timer[0] = 1000;
	p.timer_unit_ns = 102400;
	p.cc_cct_len = 64;
	for (i = 0; i < 64; i++)
		p.cc_cct[i] = (struct ftsw_cct_entry){ 0, (uint16_t)i };
	lab_opts(&o);
	o.cc = &p;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &x, &err)) TH_LOG("%s",
								     err.msg);
	EXPECT_FALSE(x.deadlock);
	EXPECT_LT(0, x.cc_marked);
	EXPECT_LT(0, x.cc_becns);
	EXPECT_LE(x.cc_becns, x.cc_marked);
	EXPECT_LT(0, x.cc_max_ccti);
	EXPECT_LT(0, x.cc_waits);
	EXPECT_GT(into_host(t, &x, 0), 0.9);
	ftsw_sim_result_free(&x);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * FT(4,2): two flows from leaf 0 whose destinations d-mod-k sends up the
 * same port share one up-link (about half of it each); with adaptive
 * routing each gets a link of its own. With flowlets (a gap longer than a
 * packet's time) every packet of a flow follows the one before: in order.
 */
TEST(adaptive_spreads_a_shared_up_link)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,2");
	struct ftsw_route_req q = { .engine = "dmodk", .lmc_given = true };
	struct ftsw_routing *r;
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result x;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	char flows[64];
	uint32_t a = 0, b;
	unsigned mode;

	ASSERT_NE(NULL, t);
	q.o.adaptive = true;
	q.o.threads = 1;
	r = ftsw_route_make(t, &q, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	/* two remote hosts leaf 0 (hosts 0, 1) sends up one port */
	for (a = 2; a < 8; a++)
		for (b = a + 1; b < 8; b++)
			if (ftsw_lft(r, 0)[ftsw_host_lid(r, a)] ==
			    ftsw_lft(r, 0)[ftsw_host_lid(r, b)])
				goto found;
	ASSERT_TRUE(false) TH_LOG("no two destinations share an up-port");
found:
	snprintf(flows, sizeof(flows), "0 %u\n1 %u\n", a, b);
	ASSERT_EQ(0, traffic(t, flows, &tr));
	for (mode = 0; mode < 3; mode++) {
		lab_opts(&o);
		o.adaptive = mode > 0;
		o.flowlet_gap = mode == 2 ? 100 : 0;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &x, &err))
			TH_LOG("%s", err.msg);
		if (!mode) {
			EXPECT_LT(into_host(t, &x, a), 0.6);
			EXPECT_LT(into_host(t, &x, b), 0.6);
			EXPECT_EQ(NULL, x.ooo);
		} else {
			EXPECT_GT(into_host(t, &x, a), 0.95);
			EXPECT_GT(into_host(t, &x, b), 0.95);
			EXPECT_LT(0, x.ar_choices);
			ASSERT_NE(NULL, x.ooo);
		}
		if (mode == 2)
			EXPECT_EQ(0, x.ooo_total);
		ftsw_sim_result_free(&x);
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Adaptive routing under uniform traffic at saturation on FT(4,3), with
 * congestion control too: no deadlock, no missed wake-up, packets
 * conserved (checked by every run), every packet delivered after the
 * drain, and out-of-order packets counted per destination summing to the
 * total.
 */
TEST(adaptive_and_cc_uniform_no_deadlock)
{
	struct ftsw_topo *t = ut_gen("ftmn:4,3");
	struct ftsw_route_req q = { .engine = "dmodk", .lmc_given = true };
	struct ftsw_routing *r;
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result x;
	struct ftsw_cc_params p;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	uint64_t sum = 0;
	uint32_t h;

	ASSERT_NE(NULL, t);
	q.o.adaptive = true;
	q.o.threads = 1;
	r = ftsw_route_make(t, &q, &err);
	ASSERT_NE(NULL, r) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	ftsw_cc_params_default(&p);
	p.congestion_control = true;
	p.cc_sw_cong_setting_control_map = FTSW_CC_SW_THRESHOLD;
	p.cc_sw_cong_setting_threshold = 8;
	p.cc_ca_cong_setting_control_map = 1;
	p.cc_ca_cong_setting_ccti_increase[0] = 1;
	p.cc_ca_cong_setting_ccti_timer[0] = 500;
	p.timer_unit_ns = 102400;
	p.cc_cct_len = 2;
	p.cc_cct[1] = (struct ftsw_cct_entry){ 0, 1 };
	lab_opts(&o);
	o.adaptive = true;
	o.cc = &p;
	o.measure = 10000;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &x, &err)) TH_LOG("%s",
								     err.msg);
	EXPECT_FALSE(x.deadlock);
	EXPECT_LT(0, x.ar_moved);
	ASSERT_NE(NULL, x.ooo);
	for (h = 0; h < t->nhosts; h++)
		sum += x.ooo[h];
	EXPECT_EQ(x.ooo_total, sum);
	EXPECT_LT(x.ooo_total, x.pkts_delivered);
	ftsw_sim_result_free(&x);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST_HARNESS_MAIN
