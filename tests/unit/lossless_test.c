// SPDX-License-Identifier: GPL-2.0
/*
 * The lossless lab's userspace logic that needs no kernel: the cycle of
 * full buffers waiting on each other (lab/lab_waits.c) and its check
 * against the routing's channel dependency graph. The buffers are built by
 * hand from the topology's cables, so the expected cycles are known.
 */
#include <errno.h>
#include <math.h>

#include "common.h"
#include "lab/lab.h"
#include "util/parse.h"

/* The port of switch a cabled to switch b (topology walk, not the code). */
static unsigned port_to(const struct ftsw_topo *t, uint32_t a, uint32_t b)
{
	const struct ftsw_node *n = &t->nodes[t->switches[a]];
	unsigned p;

	for (p = 1; p <= n->nports; p++)
		if (ftsw_peer_switch(t, n, p) == b)
			return p;
	return 0;
}

/*
 * The ring of 6 switches (torus:6, one host each): switch i's input
 * buffer from switch i - 1 (step -1: i + 1) on VL vl, full and waiting
 * for the port to i + 1 (i - 1), for each i; plus, when feeder, switch 0's
 * host buffer full and waiting on the same output (a tail into the cycle).
 */
static size_t ring_bufs(const struct ftsw_topo *t, int step, unsigned vl,
			bool feeder, struct ftsw_lab_buf *v)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 6; i++) {
		uint32_t prev = (uint32_t)((i - step + 6) % 6);
		uint32_t next = (uint32_t)((i + step + 6) % 6);

		v[n++] = (struct ftsw_lab_buf){
			.sw = (uint32_t)i, .port = (uint8_t)port_to(t, i, prev),
			.vl = (uint8_t)vl,
			.wait_port = (uint8_t)port_to(t, i, next),
			.wait_vl = (uint8_t)vl, .full = true,
		};
	}
	if (feeder)
		v[n++] = (struct ftsw_lab_buf){
			.sw = 0, .port = 1, .vl = (uint8_t)vl,
			.wait_port = v[0].wait_port, .wait_vl = (uint8_t)vl,
			.full = true,
		};
	return n;
}

TEST(ring_cycle_found_once_in_cable_order)
{
	struct ftsw_topo *t = ut_gen("torus:6");
	struct ftsw_lab_buf v[8];
	struct ftsw_lab_cycles cs;
	struct ftsw_err err;
	size_t n;
	unsigned k;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(6, t->nswitches);
	n = ring_bufs(t, 1, 0, true, v);
	/* shuffle: the order of the kernel's dump must not matter */
	{
		struct ftsw_lab_buf x = v[0];

		v[0] = v[4];
		v[4] = x;
	}
	ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
	ASSERT_EQ(1, cs.n);
	ASSERT_EQ(6, cs.v[0].n);
	/* from switch 0, then 1, 2, ... 5: the cables' order */
	for (k = 0; k < 6; k++) {
		ASSERT_EQ(k, cs.v[0].bufs[k].sw);
		ASSERT_EQ(port_to(t, k, (k + 5) % 6), cs.v[0].bufs[k].in_port);
		ASSERT_EQ(port_to(t, k, (k + 1) % 6), cs.v[0].bufs[k].out_port);
		ASSERT_EQ(0, cs.v[0].bufs[k].vl);
	}
	ftsw_lab_cycles_free(&cs);
	ftsw_topo_free(t);
}

TEST(no_cycle_when_one_buffer_can_drain)
{
	struct ftsw_topo *t = ut_gen("torus:6");
	struct ftsw_lab_buf v[8];
	struct ftsw_lab_cycles cs;
	struct ftsw_err err;
	size_t n;

	ASSERT_NE(NULL, t);
	/* one buffer not full: its upstream has credit, the chain opens */
	n = ring_bufs(t, 1, 0, false, v);
	v[3].full = false;
	ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
	ASSERT_EQ(0, cs.n);
	ftsw_lab_cycles_free(&cs);
	/* one head not waiting */
	n = ring_bufs(t, 1, 0, false, v);
	v[2].wait_port = 0;
	ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
	ASSERT_EQ(0, cs.n);
	ftsw_lab_cycles_free(&cs);
	/* a wait on another VL than the next buffer's */
	n = ring_bufs(t, 1, 0, false, v);
	v[5].wait_vl = 1;
	ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
	ASSERT_EQ(0, cs.n);
	ftsw_lab_cycles_free(&cs);
	/* the same buffer twice is refused, naming it */
	n = ring_bufs(t, 1, 0, false, v);
	v[n] = v[2];
	ASSERT_EQ(-1, ftsw_lab_wait_cycles(t, v, n + 1, &cs, &err));
	ASSERT_NE(NULL, strstr(err.msg, "switch 2 port"));
	ftsw_topo_free(t);
}

TEST(two_cycles_two_vls)
{
	struct ftsw_topo *t = ut_gen("torus:6");
	struct ftsw_lab_buf v[16];
	struct ftsw_lab_cycles cs;
	struct ftsw_err err;
	size_t n;

	ASSERT_NE(NULL, t);
	n = ring_bufs(t, 1, 0, false, v);
	n += ring_bufs(t, -1, 1, false, v + n);
	ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
	ASSERT_EQ(2, cs.n);
	ASSERT_EQ(6, cs.v[0].n);
	ASSERT_EQ(6, cs.v[1].n);
	ASSERT_NE(cs.v[0].bufs[0].vl, cs.v[1].bufs[0].vl);
	ftsw_lab_cycles_free(&cs);
	ftsw_topo_free(t);
}

/*
 * MinHop on the ring, one VL: host i -> host i + 2 (and i - 2) cross two
 * links in one direction whatever the tie-break, so every dependency of
 * either direction's cycle is taken: both are CDG cycles. DFSSSP's layers
 * are acyclic per VL (route check), so no cycle on one of its VLs is one.
 */
TEST(cycles_against_the_cdg)
{
	struct ftsw_topo *t = ut_gen("torus:6");
	struct ftsw_route_opts ro = { .threads = 1, .seed = 1 };
	struct ftsw_routing *mh, *df;
	struct ftsw_check_result cr;
	struct ftsw_lab_buf v[8];
	struct ftsw_lab_cycles cs;
	struct ftsw_err err;
	unsigned vl;
	size_t n;
	int dir;

	ASSERT_NE(NULL, t);
	mh = ut_route("minhop", t, &ro);
	df = ut_route("dfsssp", t, &ro);
	ASSERT_NE(NULL, mh);
	ASSERT_NE(NULL, df);
	ASSERT_TRUE(ut_check(df, false, false, &cr));
	ASSERT_EQ(0, cr.cdg_cyclic_vls);
	ftsw_check_result_free(&cr);
	ASSERT_GE(df->nvls, 2);
	for (dir = -1; dir <= 1; dir += 2) {
		n = ring_bufs(t, dir, 0, false, v);
		ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
		ASSERT_EQ(1, cs.n);
		ftsw_lab_cycles_check(mh, &cs, 1);
		ASSERT_EQ(1, cs.v[0].cdg);
		ftsw_lab_cycles_free(&cs);
		/* on one VL the cycle's VL number does not matter */
		n = ring_bufs(t, dir, 3, false, v);
		ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
		ftsw_lab_cycles_check(mh, &cs, 1);
		ASSERT_EQ(1, cs.v[0].cdg);
		ASSERT_EQ(3, cs.v[0].bufs[0].vl);
		ftsw_lab_cycles_free(&cs);
		for (vl = 0; vl < df->nvls; vl++) {
			n = ring_bufs(t, dir, vl, false, v);
			ASSERT_EQ(0, ftsw_lab_wait_cycles(t, v, n, &cs, &err));
			ftsw_lab_cycles_check(df, &cs, df->nvls);
			ASSERT_EQ(0, cs.v[0].cdg);
			ASSERT_NE(NULL, strstr(cs.v[0].why, "no path takes"));
			ftsw_lab_cycles_free(&cs);
		}
	}
	ftsw_routing_free(mh);
	ftsw_routing_free(df);
	ftsw_topo_free(t);
}

/*
 * The lab's parameters in the simulator's units, by hand: 64-byte flits;
 * a 1472-byte frame is 23 blocks, a 1450-byte one too (rounded up); 6144
 * bytes are 96 blocks, 4 frames of 23; 1471 bytes are 22 blocks, no frame;
 * the crossbar moves a packet in one cycle (speedup P) unless one is given.
 */
TEST(lab_parameters_in_flits)
{
	struct ftsw_sim_lab l = { .frame_bytes = 1472, .rate_bits = 1000000,
				  .in_buf_bytes = 6144,
				  .out_buf_bytes = 3000 };
	struct ftsw_sim_lab_map m;
	struct ftsw_sim_opts o;
	struct ftsw_err err;

	ftsw_sim_opts_default(&o);
	ASSERT_EQ(0, ftsw_sim_lab_apply(&l, &o, &m, &err));
	ASSERT_EQ(23, o.packet_flits);
	ASSERT_EQ(4, o.in_buf);
	ASSERT_EQ(2, o.out_buf);	/* 46 blocks */
	/* the kernel's crossbar moves a frame at once: one cycle, S = P */
	ASSERT_EQ(23, o.speedup);
	ASSERT_TRUE(m.cycle_s > 0.000511999 && m.cycle_s < 0.000512001);
	ASSERT_TRUE(m.frame_share == 1.0);
	/* one flit per cycle is the link rate */
	ASSERT_TRUE(ftsw_sim_lab_bits(&m, 1.0) == 1e6);
	l.frame_bytes = 1450;
	o.speedup = 2;		/* one given (--speedup) stays */
	ASSERT_EQ(0, ftsw_sim_lab_apply(&l, &o, &m, &err));
	ASSERT_EQ(23, o.packet_flits);
	ASSERT_EQ(2, o.speedup);
	ASSERT_TRUE(fabs(ftsw_sim_lab_bits(&m, 0.5) - 0.5e6 * 1450 / 1472) <
		    1e-6);
	l.in_buf_bytes = 1471;
	ASSERT_EQ(-1, ftsw_sim_lab_apply(&l, &o, &m, &err));
	ASSERT_NE(NULL, strstr(err.msg, "--in-buffer-bytes: 1471"));
	l.in_buf_bytes = 0;	/* 0: the packets already set stay */
	o.in_buf = 7;
	ASSERT_EQ(0, ftsw_sim_lab_apply(&l, &o, &m, &err));
	ASSERT_EQ(7, o.in_buf);
	l.rate_bits = 0;
	ASSERT_EQ(-1, ftsw_sim_lab_apply(&l, &o, &m, &err));
}

TEST(rates)
{
	struct ftsw_err err;
	uint64_t b;

	ASSERT_EQ(0, ftsw_parse_rate("--rate", "500kbit", 1000, 1e12, &b,
				     &err));
	ASSERT_EQ(500000, b);
	ASSERT_EQ(0, ftsw_parse_rate("--rate", "1.5M", 1000, 1e12, &b, &err));
	ASSERT_EQ(1500000, b);
	ASSERT_EQ(0, ftsw_parse_rate("--rate", "2Gbps", 1000, 1e12, &b, &err));
	ASSERT_EQ(2000000000ULL, b);
	ASSERT_EQ(0, ftsw_parse_rate("--rate", "8000", 1000, 1e12, &b, &err));
	ASSERT_EQ(8000, b);
	ASSERT_EQ(-ERANGE, ftsw_parse_rate("--rate", "999", 1000, 1e12, &b,
					   &err));
	ASSERT_NE(NULL, strstr(err.msg, "--rate: '999'"));
	ASSERT_EQ(-EINVAL, ftsw_parse_rate("--rate", "fast", 1000, 1e12, &b,
					   &err));
	ASSERT_EQ(-EINVAL, ftsw_parse_rate("--rate", "k", 1000, 1e12, &b,
					   &err));
	ASSERT_EQ(-EINVAL, ftsw_parse_rate("--rate", "", 1000, 1e12, &b,
					   &err));
}

TEST_HARNESS_MAIN
