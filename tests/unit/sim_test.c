// SPDX-License-Identifier: GPL-2.0
/*
 * Simulator: idle latency by hand, per-link flit counts against the
 * analyzer's loads, accepted <= offered <= 1, conservation and no missed
 * wake-up at every cycle, the same numbers for any thread count, deadlock
 * on a ring, a torus and a random fabric with one VL and its cycle against
 * the channel dependency graph, DFSSSP's layers and Up*\/Down* never
 * deadlocking, an OpenSM dump simulating as the engine's tables; the
 * paper model's options (speedup, non-FIFO inputs, per-packet even split)
 * and the Table 1 claim under it.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
/* the harness compares int literals with unsigned values */
#pragma GCC diagnostic ignored "-Wsign-compare"
/* blocks right after ASSERT_* (the harness ends them with a for) */
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
#include "kselftest_harness.h"
#include "sim/sim.h"

/*
 * Each test takes seconds on an idle core; the shared machines that run
 * make check can be twenty times slower than that.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 180

static struct ftsw_topo *gen(const char *spec)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen(spec, &err);

	if (!t)
		fprintf(stderr, "# %s: %s\n", spec, err.msg);
	return t;
}

static struct ftsw_routing *route(const char *eng, const struct ftsw_topo *t,
				  unsigned lmc, uint64_t seed)
{
	struct ftsw_route_opts o = { .lmc = lmc, .threads = 1, .seed = seed };
	struct ftsw_err err;
	struct ftsw_routing *r = ftsw_route(eng, t, &o, &err);

	if (!r)
		fprintf(stderr, "# %s: %s\n", eng, err.msg);
	return r;
}

/*
 * A ring of n switches (port 1 clockwise, port 2 anticlockwise) or a
 * w x h torus (ports 1..4 east, west, north, south), hosts on the ports
 * after those.
 */
static struct ftsw_topo *grid(unsigned w, unsigned h, unsigned hosts)
{
	unsigned n = w * h, i, k, sp = (h > 1 ? 4 : 2) + hosts;
	struct ftsw_topo *t = ftsw_topo_new();
	struct ftsw_err err;
	uint32_t *sw = calloc(n, sizeof(*sw));
	char name[32];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sw%u", i);
		sw[i] = ftsw_topo_add_node(t, FTSW_SWITCH, sp, 0x1000 + i, name,
					   &err);
	}
	for (i = 0; i < n; i++) {
		unsigned x = i % w, y = i / w;

		ftsw_topo_connect(t, sw[i], 1, sw[y * w + (x + 1) % w], 2, &err);
		if (h > 1)
			ftsw_topo_connect(t, sw[i], 3, sw[((y + 1) % h) * w + x],
					  4, &err);
		for (k = 0; k < hosts; k++) {
			uint32_t hn;

			snprintf(name, sizeof(name), "h%u-%u", i, k);
			hn = ftsw_topo_add_node(t, FTSW_HOST, 1,
						0x100000 + i * 16 + k, name,
						&err);
			ftsw_topo_connect(t, sw[i], sp - hosts + 1 + k, hn, 1,
					  &err);
		}
	}
	free(sw);
	if (ftsw_topo_finish(t, &err)) {
		fprintf(stderr, "# grid: %s\n", err.msg);
		ftsw_topo_free(t);
		return NULL;
	}
	return t;
}

static void opts(struct ftsw_sim_opts *o)
{
	ftsw_sim_opts_default(o);
	o->warmup = 1000;
	o->measure = 3000;
	o->threads = 1;
}

/* opts() under the paper model: spread, non-FIFO inputs, speedup 2 */
static void paper_opts(struct ftsw_sim_opts *o)
{
	opts(o);
	o->policy = FTSW_SIM_SPREAD;
	o->voq = true;
	o->speedup = 2;
}

/* One packet on an idle fabric: (h + 1) L + h R + P by hand. */
TEST(idle_latency)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_err err;
	/* host 0 -> host 127: different top subtrees: 5 switches, 6 links */
	const char *path = "/tmp/ftsw-sim-test-flow";
	FILE *f = fopen(path, "w");
	unsigned L, R, P, ph;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, f);
	fprintf(f, "0 127\n");
	fclose(f);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "file:/tmp/ftsw-sim-test-flow",
					   "topo", 0, &tr, &err));
	/* the same timing in both engines (ph: --phased) */
	for (ph = 0; ph < 2; ph++)
	for (L = 1; L <= 3; L += 2)
		for (R = 1; R <= 4; R += 3)
			for (P = 1; P <= 16; P += 15) {
				opts(&o);
				o.phased = ph;
				o.count = 1;
				o.msg_packets = 1;
				o.packet_flits = P;
				o.link_latency = L;
				o.router_latency = R;
				o.verify = true;
				ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &res,
							  &err));
				ASSERT_EQ(1, res.pkts_delivered);
				ASSERT_EQ(6 * L + 5 * R + P, res.pkt_lat_avg);
				ASSERT_EQ(6 * L + 5 * R + P, res.msg_lat_avg);
				/* the packet's flits crossed 6 links */
				ASSERT_EQ(6 * P, res.flit_hops);
				ftsw_sim_result_free(&res);
			}
	/* same leaf (hosts 0 and 1): one switch, two links */
	f = fopen(path, "w");
	fprintf(f, "0 1\n");
	fclose(f);
	ftsw_sim_traffic_free(&tr);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "file:/tmp/ftsw-sim-test-flow",
					   "topo", 0, &tr, &err));
	opts(&o);
	o.count = 1;
	o.msg_packets = 3;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &res, &err));
	/* 3 packets back to back: the last leaves P * 2 after the first */
	ASSERT_EQ(2 * 1 + 1 + 10 + 20, res.msg_lat_avg);
	ftsw_sim_result_free(&res);
	ftsw_sim_traffic_free(&tr);
	unlink(path);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * One message per flow of a permutation at low load: each link carries
 * exactly its analyzer load times the message's flits (single path, and
 * with the hash policy on a multipath routing: one offset per pair).
 */
static void flit_counts(struct __test_metadata *_metadata, const char *eng,
			unsigned lmc, enum ftsw_sim_policy pol)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route(eng, t, lmc, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_pattern p;
	struct ftsw_load_result lr;
	struct ftsw_err err;
	uint32_t *ord = malloc(t->nhosts * sizeof(*ord));
	double *load = malloc(t->nports * sizeof(double));
	uint32_t l, i;
	uint64_t total = 0;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "perm:7", "topo", 0, &tr, &err));
	opts(&o);
	o.count = 1;
	o.policy = pol;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.02, &res, &err));
	ASSERT_EQ(0, res.pkts_dropped);
	ASSERT_FALSE(res.deadlock);
	/* the analyzer, with the offset the hash policy gives each pair */
	ASSERT_EQ(0, ftsw_order_make("topo", t, t->nhosts, ord, &err));
	ASSERT_EQ(0, ftsw_pattern_make("perm:7", t->nhosts, t, &p, &err));
	ftsw_tm_apply_order(&p.stages[0], ord, t->nhosts);
	if (pol == FTSW_SIM_HASH) {
		/* per flow: count its own path's links */
		memset(load, 0, t->nports * sizeof(double));
		for (i = 0; i < p.stages[0].nflows; i++) {
			const struct ftsw_flow *fl = &p.stages[0].f[i];
			struct ftsw_path path;
			uint8_t off[128];
			double w[128];
			unsigned n = ftsw_path_offsets(r, fl->src, off, w), k;
			uint64_t x = ((uint64_t)fl->src << 32) ^ fl->dst ^ o.seed;

			if (fl->src == fl->dst)
				continue;
			/* splitmix finaliser, as documented for hash */
			x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
			x ^= x >> 27; x *= 0x94d049bb133111ebULL;
			x ^= x >> 31;
			ASSERT_EQ(0, ftsw_trace_path(r, fl->src, fl->dst,
						     off[x % n], 0, &path));
			load[ftsw_link_id(t, t->hosts[fl->src],
					  ftsw_host_port(t, t->hosts[fl->src]))]++;
			for (k = 0; k < path.nhops; k++)
				load[ftsw_link_id(t, t->switches[path.hops[k].sw],
						  path.hops[k].port)]++;
		}
	} else {
		ASSERT_EQ(0, ftsw_link_loads(r, &p.stages[0], NULL, load, NULL,
					     &lr, &err));
	}
	for (l = 0; l < t->nports; l++) {
		uint64_t fl = 0;
		unsigned v;

		for (v = 0; v < res.vls; v++)
			fl += res.link_flits[(size_t)l * res.vls + v];
		ASSERT_EQ((uint64_t)llround(load[l] * 100), fl);
		total += fl;
	}
	ASSERT_EQ(total, res.flit_hops);
	ASSERT_GT(total, 0);
	ftsw_pattern_free(&p);
	ftsw_sim_result_free(&res);
	ftsw_sim_traffic_free(&tr);
	free(ord);
	free(load);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(flits_equal_analyzer_loads)
{
	flit_counts(_metadata, "dmodk", 0, FTSW_SIM_RANDOM);
	flit_counts(_metadata, "disjoint", 2, FTSW_SIM_HASH);
}

/*
 * A sweep: accepted <= offered (up to Poisson noise in the window) and
 * <= 1, conservation checked at every sample and no resource left asleep
 * at any cycle; with saturation the accepted throughput stops following
 * the offered load.
 */
TEST(sweep_bounds_and_verify)
{
	struct ftsw_topo *t = gen("xgft:2;4,8;1,4");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res[4];
	double loads[4] = { 0.1, 0.4, 0.7, 1.0 };
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	o.verify = true;
	o.deadlock_cycles = 200;	/* samples every 100 cycles */
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 4, res, &err));
	for (i = 0; i < 4; i++) {
		ASSERT_LE(res[i].accepted, 1.0);
		ASSERT_LE(res[i].accepted, res[i].offered * 1.02 + 0.005);
		ASSERT_GE(res[i].samples, (res[i].cycles) / 100);
		ASSERT_FALSE(res[i].deadlock);
		ftsw_sim_result_free(&res[i]);
	}
	/* low load: every measured message delivered, all offered accepted */
	ASSERT_EQ(res[0].msgs_measured, res[0].msgs_done);
	ASSERT_LT(fabs(res[0].accepted - res[0].offered), 0.01);
	/* full load: saturated below the offered load */
	ASSERT_LT(res[3].accepted, 0.9);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* No missed wake-up with several VLs (DFSSSP's layers on a torus). */
TEST(verify_vls)
{
	struct ftsw_topo *t = grid(4, 4, 1);
	struct ftsw_routing *r = route("dfsssp", t, 0, 3);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res[2];
	double loads[2] = { 0.3, 0.9 };
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_GE(r->nvls, 2);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	o.verify = true;
	o.threads = 0;
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 2, res, &err));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(r->nvls, res[i].vls);
		ASSERT_FALSE(res[i].deadlock);
		ASSERT_GT(res[i].msgs_done, 0);
		ftsw_sim_result_free(&res[i]);
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* The same numbers for 1 and 2 threads, and for a point run alone. */
TEST(deterministic)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("disjoint", t, 2, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a[3], b[3], c;
	double loads[3] = { 0.2, 0.5, 0.9 };
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 3, a, &err));
	o.threads = 2;
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 3, b, &err));
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &c, &err));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(a[i].flit_hops, b[i].flit_hops);
		ASSERT_EQ(a[i].accepted, b[i].accepted);
		ASSERT_EQ(a[i].msg_lat_avg, b[i].msg_lat_avg);
		ASSERT_EQ(0, memcmp(a[i].link_flits, b[i].link_flits,
				    (size_t)t->nports * a[i].vls * 8));
	}
	ASSERT_EQ(a[1].flit_hops, c.flit_hops);
	ASSERT_EQ(a[1].pkt_lat_p99, c.pkt_lat_p99);
	/* another seed gives other numbers */
	ftsw_sim_result_free(&c);
	o.seed = 2;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &c, &err));
	ASSERT_NE(a[1].flit_hops, c.flit_hops);
	ftsw_sim_result_free(&c);
	for (i = 0; i < 3; i++) {
		ftsw_sim_result_free(&a[i]);
		ftsw_sim_result_free(&b[i]);
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Deadlock with one VL: the run stops, the cycle it names is a cycle of
 * full buffers joined by cables, every dependency of it is taken by a
 * traced path, and ftsw route check finds the CDG cyclic.
 */
static void expect_deadlock(struct __test_metadata *_metadata,
			    struct ftsw_topo *t, const char *eng, double load,
			    bool cdg_check)
{
	struct ftsw_routing *r = route(eng, t, 0, 3);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_check_opts co = { .cdg = true, .threads = 1 };
	struct ftsw_check_result cr;
	struct ftsw_err err;
	char why[200];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	o.vls = 1;
	o.measure = 30000;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, load, &res, &err));
	ASSERT_TRUE(res.deadlock);
	ASSERT_GE(res.ncycle, 2);
	ASSERT_EQ(1, ftsw_sim_cycle_check(r, res.cycle, res.ncycle, 1, why,
					  sizeof(why)));
	ASSERT_EQ(0, ftsw_routing_check(r, &co, &cr, &err));
	/* with layers the CDG is acyclic: only one VL made it deadlock */
	ASSERT_EQ(cdg_check, cr.cdg_cyclic_vls >= 1);
	ftsw_check_result_free(&cr);
	/* a broken cycle is refused: drop its last buffer */
	if (res.ncycle > 2)
		ASSERT_EQ(0, ftsw_sim_cycle_check(r, res.cycle, res.ncycle - 1,
						  1, why, sizeof(why)));
	ftsw_sim_result_free(&res);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
}

TEST(deadlock_ring_torus_random)
{
	struct ftsw_topo *ring = grid(6, 1, 2), *torus = grid(4, 4, 1);
	struct ftsw_topo *rnd;
	struct ftsw_err err;

	ASSERT_NE(NULL, ring);
	ASSERT_NE(NULL, torus);
	rnd = ftsw_topo_gen_random(16, 8, 2, 28, 5, &err);
	ASSERT_NE(NULL, rnd);
	expect_deadlock(_metadata, ring, "minhop", 0.9, true);
	expect_deadlock(_metadata, ring, "sssp", 0.9, true);
	expect_deadlock(_metadata, torus, "minhop", 0.9, true);
	expect_deadlock(_metadata, torus, "sssp", 0.9, true);
	expect_deadlock(_metadata, rnd, "minhop", 0.9, true);
	ftsw_topo_free(ring);
	ftsw_topo_free(torus);
	ftsw_topo_free(rnd);
}

/* DFSSSP on its layers and Up*\/Down*: never, over seeds and loads. */
TEST(no_deadlock_dfsssp_updn)
{
	struct ftsw_topo *t[3];
	struct ftsw_err err;
	const char *eng[2] = { "dfsssp", "updn" };
	unsigned i, e, seed;

	t[0] = grid(6, 1, 2);
	t[1] = grid(4, 4, 1);
	t[2] = ftsw_topo_gen_random(16, 8, 2, 28, 5, &err);
	for (i = 0; i < 3; i++) {
		ASSERT_NE(NULL, t[i]);
		for (e = 0; e < 2; e++) {
			struct ftsw_routing *r = route(eng[e], t[i], 0, 3);
			struct ftsw_sim_traffic tr;
			double loads[3] = { 0.3, 0.7, 1.0 };
			struct ftsw_sim_result res[3];
			struct ftsw_sim_opts o;

			struct ftsw_check_opts co = { .cdg = true, .threads = 1 };
			struct ftsw_check_result cr;

			ASSERT_NE(NULL, r);
			if (e == 0)
				ASSERT_GE(r->nvls, 2);
			ASSERT_EQ(0, ftsw_routing_check(r, &co, &cr, &err));
			ftsw_check_result_free(&cr);
			ASSERT_EQ(0, cr.cdg_cyclic_vls);
			ASSERT_EQ(0, ftsw_sim_traffic_make(t[i], "uniform",
							   "topo", 0, &tr,
							   &err));
			for (seed = 1; seed <= 2; seed++) {
				unsigned k;

				opts(&o);
				o.seed = seed;
				o.threads = 0;
				o.measure = 5000;
				ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 3,
							    res, &err));
				for (k = 0; k < 3; k++) {
					if (res[k].deadlock)
						fprintf(stderr, "# %s on fabric %u "
							"seed %u load %g: %s, "
							"%u buffers\n", eng[e], i,
							seed, loads[k],
							res[k].note,
							res[k].ncycle);
					ASSERT_FALSE(res[k].deadlock);
					ASSERT_GT(res[k].msgs_done, 0);
					ftsw_sim_result_free(&res[k]);
				}
			}
			ftsw_sim_traffic_free(&tr);
			ftsw_routing_free(r);
		}
		ftsw_topo_free(t[i]);
	}
}

/* DFSSSP squeezed onto one VL deadlocks like SSSP: the layers matter. */
TEST(dfsssp_on_one_vl_deadlocks)
{
	struct ftsw_topo *t = grid(4, 4, 1);

	ASSERT_NE(NULL, t);
	expect_deadlock(_metadata, t, "dfsssp", 0.9, false);
	ftsw_topo_free(t);
}

/* An OpenSM dump of the tables simulates exactly as the engine's result. */
TEST(opensm_dump_same_numbers)
{
	struct ftsw_topo *t = gen("xgft:2;4,8;1,4");
	struct ftsw_routing *r = route("dmodk", t, 0, 0), *d;
	const char *path = "/tmp/ftsw-sim-test-lfts.dump";
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a, b;
	struct ftsw_err err;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_lfts_write(r, path, &err));
	d = ftsw_lfts_read(t, path, 0, false, &err);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.6, &a, &err));
	ASSERT_EQ(0, ftsw_sim_run(d, &tr, &o, 0.6, &b, &err));
	ASSERT_EQ(a.flit_hops, b.flit_hops);
	ASSERT_EQ(a.msg_lat_avg, b.msg_lat_avg);
	ASSERT_EQ(0, memcmp(a.link_flits, b.link_flits,
			    (size_t)t->nports * a.vls * 8));
	ftsw_sim_result_free(&a);
	ftsw_sim_result_free(&b);
	ftsw_sim_traffic_free(&tr);
	unlink(path);
	ftsw_routing_free(d);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * The paper model's options (Documentation/sim.md): a crossbar speedup and
 * non-FIFO input buffers change no latency on an idle fabric (cut-through:
 * a packet's tail still arrives at link rate), so one packet takes
 * (h + 1) L + h R + P and an M-packet message (M - 1) P more, by hand;
 * with spread the packets of the message take different paths of equal
 * length without meeting.
 */
TEST(paper_model_idle_latency)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("disjoint", t, 2, 0);
	const char *path = "/tmp/ftsw-sim-test-flow2";
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_err err;
	FILE *f = fopen(path, "w");
	unsigned S, voq, M, L = 2, R = 3, P = 10;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, f);
	fprintf(f, "0 127\n");
	fclose(f);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "file:/tmp/ftsw-sim-test-flow2",
					   "topo", 0, &tr, &err));
	for (S = 1; S <= 10; S = S == 1 ? 2 : S == 2 ? 4 : S == 4 ? 10 : 11)
		for (voq = 0; voq <= 1; voq++)
			for (M = 1; M <= 3; M += 2) {
				opts(&o);
				o.count = 1;
				o.msg_packets = M;
				o.link_latency = L;
				o.router_latency = R;
				o.speedup = S;
				o.voq = voq;
				o.policy = FTSW_SIM_SPREAD;
				o.verify = true;
				ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &res,
							  &err));
				ASSERT_EQ(M, res.pkts_delivered);
				ASSERT_EQ(6 * L + 5 * R + M * P,
					  res.msg_lat_avg);
				ASSERT_EQ(6 * L + 5 * R + P, res.pkt_lat_p50 -
					  (M == 3 ? P : 0));
				ASSERT_EQ(6 * M * P, res.flit_hops);
				ftsw_sim_result_free(&res);
			}
	ftsw_sim_traffic_free(&tr);
	unlink(path);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * spread: the packets of a pair go round robin over its K offsets, so N
 * packets put exactly N / K packets on each of the K traced paths, counted
 * on the links; one message on K = 2 already splits 5 / 5 (a per-message
 * policy would put all 10 on one path).
 */
TEST(spread_splits_evenly)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	const char *path = "/tmp/ftsw-sim-test-flow3";
	struct ftsw_sim_traffic tr;
	struct ftsw_err err;
	FILE *f = fopen(path, "w");
	unsigned lmc;

	ASSERT_NE(NULL, f);
	fprintf(f, "0 127\n");
	fclose(f);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "file:/tmp/ftsw-sim-test-flow3",
					   "topo", 0, &tr, &err));
	for (lmc = 1; lmc <= 3; lmc++) {
		struct ftsw_routing *r = route("disjoint", t, lmc, 0);
		unsigned K = 1u << lmc, msgs = K / 2, k, h;
		uint64_t *want = calloc(t->nports, sizeof(*want));
		struct ftsw_sim_opts o;
		struct ftsw_sim_result res;
		uint8_t off[128];
		double w[128];
		uint32_t l;

		ASSERT_NE(NULL, r);
		ASSERT_EQ(K, ftsw_path_offsets(r, 0, off, w));
		/* msgs messages of 10 packets: 10 * msgs / K = 5 per path */
		for (k = 0; k < K; k++) {
			struct ftsw_path p;

			ASSERT_EQ(0, ftsw_trace_path(r, 0, 127, off[k], 0, &p));
			for (h = 0; h < p.nhops; h++)
				want[ftsw_link_id(t, t->switches[p.hops[h].sw],
						  p.hops[h].port)] += 5 * 10;
		}
		want[ftsw_link_id(t, t->hosts[0],
				  ftsw_host_port(t, t->hosts[0]))] += 10 * 10 * msgs;
		paper_opts(&o);
		o.count = msgs;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.5, &res, &err));
		ASSERT_EQ(10 * msgs, res.pkts_delivered);
		for (l = 0; l < t->nports; l++)
			ASSERT_EQ(want[l], res.link_flits[l]);
		/* the 5 packets per path are on disjoint top-level links */
		ftsw_sim_result_free(&res);
		free(want);
		ftsw_routing_free(r);
	}
	ftsw_sim_traffic_free(&tr);
	unlink(path);
	ftsw_topo_free(t);
}

/*
 * Loads 0.3 and 0.9 with verify on, once on 1 thread (into a) and once on
 * 2: accepted within its bounds, a sample every 100 cycles, no deadlock,
 * nothing dropped, the same numbers and per-link flits on both, and 0.3
 * carried whole. The caller checks more of a and frees it.
 */
static void verify_1_and_2_threads(struct __test_metadata *_metadata,
				   const struct ftsw_topo *t,
				   const struct ftsw_routing *r,
				   const struct ftsw_sim_traffic *tr,
				   struct ftsw_sim_opts *o,
				   struct ftsw_sim_result a[2])
{
	const double loads[2] = { 0.3, 0.9 };
	struct ftsw_sim_result b[2];
	struct ftsw_err err;
	unsigned i;

	o->warmup = 500;
	o->measure = 2000;
	o->verify = true;
	o->deadlock_cycles = 200;	/* samples every 100 cycles */
	o->threads = 1;
	ASSERT_EQ(0, ftsw_sim_sweep(r, tr, o, loads, 2, a, &err));
	o->threads = 2;
	ASSERT_EQ(0, ftsw_sim_sweep(r, tr, o, loads, 2, b, &err));
	for (i = 0; i < 2; i++) {
		ASSERT_LE(a[i].accepted, 1.0);
		ASSERT_LE(a[i].accepted, a[i].offered * 1.02 + 0.005);
		ASSERT_GE(a[i].samples, a[i].cycles / 100);
		ASSERT_FALSE(a[i].deadlock);
		ASSERT_EQ(0, a[i].pkts_dropped);
		ASSERT_EQ(a[i].flit_hops, b[i].flit_hops);
		ASSERT_EQ(a[i].accepted, b[i].accepted);
		ASSERT_EQ(a[i].msg_lat_avg, b[i].msg_lat_avg);
		ASSERT_EQ(a[i].vls, b[i].vls);
		ASSERT_EQ(0, memcmp(a[i].link_flits, b[i].link_flits,
				    (size_t)t->nports * a[i].vls * 8));
		ftsw_sim_result_free(&b[i]);
	}
	ASSERT_LT(fabs(a[0].accepted - a[0].offered), 0.01);
}

/*
 * Under the paper model (spread, non-FIFO inputs, speedup 2): bounds,
 * conservation at every sample, no resource left asleep at any cycle
 * (verify), no deadlock, and the same numbers for 1 and 2 threads.
 */
TEST(paper_model_verify_deterministic)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("disjoint", t, 2, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a[2];
	struct ftsw_err err;
	unsigned i;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	paper_opts(&o);
	verify_1_and_2_threads(_metadata, t, r, &tr, &o, a);
	for (i = 0; i < 2; i++)
		ftsw_sim_result_free(&a[i]);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * Paper 000's Table 1 claim in its shortest form, under the paper model on
 * XGFT(3;4,4,8;1,4,4): at an offered load of 0.7, beyond d-mod-k's
 * saturation (about 0.58 accepted), disjoint(4) accepts more than d-mod-k.
 * Measured over seeds 1..5 (2,000 + 8,000 cycles) the difference was
 * 0.043..0.068 (mean 0.057) with a seed-to-seed standard deviation of
 * about 0.01; the margin asked, 0.03, is three of those below the mean.
 * (Under the kernel model it is the other way round: d-mod-k 0.44,
 * disjoint(4) 0.41; Documentation/results/sim-table1.md.)
 */
TEST(paper_claim_disjoint_beats_dmodk)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *d = route("dmodk", t, 0, 0);
	struct ftsw_routing *j = route("disjoint", t, 2, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a, b;
	struct ftsw_err err;

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, j);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	paper_opts(&o);
	o.warmup = 2000;
	o.measure = 8000;
	ASSERT_EQ(0, ftsw_sim_run(d, &tr, &o, 0.7, &a, &err));
	ASSERT_EQ(0, ftsw_sim_run(j, &tr, &o, 0.7, &b, &err));
	/* d-mod-k is saturated: it accepts well below the offered load */
	ASSERT_LT(a.accepted, 0.9 * a.offered);
	ASSERT_GT(b.accepted, a.accepted + 0.03);
	ftsw_sim_result_free(&a);
	ftsw_sim_result_free(&b);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(j);
	ftsw_routing_free(d);
	ftsw_topo_free(t);
}

/*
 * --interleave: a source sends its queued messages packet by packet in
 * turn instead of one after the other. One uncontended flow (host 0 to
 * host 127, d-mod-k: one path, nothing else in the fabric) of 20 messages
 * at an offered load of 1.0, so that messages overlap in the source's
 * queue: the source's link is work-conserving either way, so the same
 * packets leave at the same cycles and the run ends at the same cycle with
 * the same flit-hops; but with equal messages on one server, round robin
 * finishes every overlapping message later than first-come first-served,
 * so the average message latency is strictly larger (and grows with the
 * number interleaved), while interleave 1 is exactly the default.
 */
TEST(interleave_round_robin_at_the_source)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	const char *path = "/tmp/ftsw-sim-test-flow4";
	unsigned il[4] = { 0, 1, 2, UINT_MAX }, i;
	struct ftsw_sim_result res[4];
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	FILE *f = fopen(path, "w");

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, f);
	fprintf(f, "0 127\n");
	fclose(f);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "file:/tmp/ftsw-sim-test-flow4",
					   "topo", 0, &tr, &err));
	for (i = 0; i < 4; i++) {
		opts(&o);
		o.count = 20;
		o.interleave = il[i];
		o.verify = true;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 1.0, &res[i], &err));
		ASSERT_EQ(200, res[i].pkts_delivered);
		ASSERT_EQ(20, res[i].msgs_done);
		ASSERT_EQ(200 * 10 * 6, res[i].flit_hops);
		/* 10 packets of one message: never faster than idle */
		ASSERT_GE(res[i].msg_lat_p50, 6 + 5 + 100);
	}
	/* interleave 0 and 1: the default, bit for bit */
	ASSERT_EQ(res[0].cycles, res[1].cycles);
	ASSERT_EQ(res[0].msg_lat_avg, res[1].msg_lat_avg);
	ASSERT_EQ(res[0].pkt_lat_avg, res[1].pkt_lat_avg);
	for (i = 2; i < 4; i++) {
		/* same work-conserving link: same last cycle */
		ASSERT_EQ(res[1].cycles, res[i].cycles);
		ASSERT_GT(res[i].msg_lat_avg, res[1].msg_lat_avg + 1);
	}
	ASSERT_GE(res[3].msg_lat_avg, res[2].msg_lat_avg);
	for (i = 0; i < 4; i++)
		ftsw_sim_result_free(&res[i]);
	ftsw_sim_traffic_free(&tr);
	unlink(path);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * --interleave under uniform traffic, kernel and paper model: bounds,
 * conservation at every sample, no resource left asleep at any cycle
 * (verify: the source's link is woken for every message's VL credit), no
 * deadlock, and the same numbers for 1 and 2 threads; the pairs' SLs set
 * to (source + destination) mod 2 on two VLs, so that a source's messages
 * wait on different credits (any VL assignment is deadlock-free on a
 * fat-tree's up-down paths).
 */
TEST(interleave_verify_deterministic)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *rs[2] = { route("disjoint", t, 2, 0),
				       route("disjoint", t, 2, 0) };
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a[2];
	struct ftsw_err err;
	unsigned i, m, v, n = t->nhosts;

	ASSERT_NE(NULL, rs[0]);
	ASSERT_NE(NULL, rs[1]);
	for (m = 0; m < 2; m++) {
		free(rs[m]->sl);
		rs[m]->sl = malloc((size_t)n * n);
		ASSERT_NE(NULL, rs[m]->sl);
		for (i = 0; i < n * n; i++)
			rs[m]->sl[i] = (uint8_t)((i / n + i % n) & 1);
		rs[m]->nvls = 2;
	}
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	for (m = 0; m < 2; m++) {
		if (m)
			paper_opts(&o);
		else
			opts(&o);
		o.interleave = m ? UINT_MAX : 3;
		verify_1_and_2_threads(_metadata, t, rs[m], &tr, &o, a);
		for (i = 0; i < 2; i++) {
			/* both VLs carry traffic */
			ASSERT_EQ(2, a[i].vls);
			for (v = 0; v < 2; v++) {
				uint64_t sum = 0;
				uint32_t l;

				for (l = 0; l < t->nports; l++)
					sum += a[i].link_flits[l * 2 + v];
				ASSERT_GT(sum, 0);
			}
			ftsw_sim_result_free(&a[i]);
		}
	}
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(rs[0]);
	ftsw_routing_free(rs[1]);
	ftsw_topo_free(t);
}

/*
 * Paper 000's "more paths, more throughput" under the reading of its
 * uniform random traffic in which each source sends to one randomly
 * selected destination (a random permutation, perm:1), in the paper model:
 * at an offered load of 0.9, beyond every one's saturation but K = 16's,
 * disjoint(2) < disjoint(4) < disjoint(8) < disjoint(16), and disjoint
 * beats shift-1 at K = 4 and 8. Measured by saturation search on
 * permutations 1 and 2 (Documentation/results/sim-table1.md): disjoint
 * 61.6 / 62.9, 79.2 / 82.6, 85.6 / 88.0, 94.8 / 94.8 for K = 2, 4, 8, 16,
 * shift-1 61.9 / 67.7 (K = 4) and 73.1 / 76.0 (K = 8), gaps of at least
 * 5 points between neighbours; the margins asked are 0.02 between
 * successive K and 0.05 from K = 2 to 4 and against shift-1 (this run,
 * deterministic: disjoint 0.61, 0.77, 0.83, 0.88, shift-1 0.62, 0.74,
 * printed). Flows that are a
 * permutation cannot contend for a destination, so what is left is the
 * links the routing puts them on: the flow-level picture of Fig. 4.
 */
TEST(paper_claim_more_paths_on_a_permutation)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result res;
	struct ftsw_err err;
	double dj[5], sh[5];
	unsigned lmc;

	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "perm:1", "topo", 0, &tr, &err));
	/* a random permutation: a fixed point or two stay silent */
	ASSERT_GE(tr.active, 120);
	paper_opts(&o);
	o.warmup = 2000;
	o.measure = 8000;
	for (lmc = 1; lmc <= 4; lmc++) {
		struct ftsw_routing *r = route("disjoint", t, lmc, 0);

		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &res, &err));
		dj[lmc] = res.accepted;
		ASSERT_LE(res.accepted, res.offered * 1.02 + 0.005);
		ftsw_sim_result_free(&res);
		ftsw_routing_free(r);
		if (lmc == 1 || lmc == 4)
			continue;
		r = route("shift1", t, lmc, 0);
		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.9, &res, &err));
		sh[lmc] = res.accepted;
		ftsw_sim_result_free(&res);
		ftsw_routing_free(r);
	}
	fprintf(stderr, "# disjoint %.3f %.3f %.3f %.3f, shift-1 %.3f %.3f\n",
		dj[1], dj[2], dj[3], dj[4], sh[2], sh[3]);
	ASSERT_GT(dj[2], dj[1] + 0.05);
	ASSERT_GT(dj[3], dj[2] + 0.02);
	ASSERT_GT(dj[4], dj[3] + 0.02);
	ASSERT_GT(dj[2], sh[2] + 0.05);
	ASSERT_GT(dj[3], sh[3] + 0.05);
	ftsw_sim_traffic_free(&tr);
	ftsw_topo_free(t);
}

/*
 * The phased engine (one point on several threads): run alone and on 2 and
 * 3 threads, every cycle verified (no resource left asleep), the same
 * numbers to the last bit, the same deadlock cycle when there is one.
 */
static void phased_same(struct __test_metadata *_metadata,
			const struct ftsw_topo *t, const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			struct ftsw_sim_opts *o, double load, bool deadlock)
{
	struct ftsw_sim_result a, b;
	struct ftsw_err err;
	unsigned T;

	o->phased = true;
	o->verify = true;
	o->deadlock_cycles = 200;
	o->point_threads = 1;
	ASSERT_EQ(0, ftsw_sim_run(r, tr, o, load, &a, &err));
	ASSERT_EQ(1, a.threads);
	ASSERT_EQ(deadlock, a.deadlock);
	if (deadlock) {
		ASSERT_GE(a.ncycle, 2);
	} else {
		ASSERT_LE(a.accepted, a.offered * 1.02 + 0.005);
		ASSERT_EQ(0, a.pkts_dropped);
		ASSERT_GT(a.msgs_done, 100);
	}
	for (T = 2; T <= 3; T++) {
		o->point_threads = T;
		ASSERT_EQ(0, ftsw_sim_run(r, tr, o, load, &b, &err));
		ASSERT_EQ(T, b.threads);
		ASSERT_EQ(a.cycles, b.cycles);
		ASSERT_EQ(a.flit_hops, b.flit_hops);
		ASSERT_EQ(a.offered, b.offered);
		ASSERT_EQ(a.accepted, b.accepted);
		ASSERT_EQ(a.msgs_measured, b.msgs_measured);
		ASSERT_EQ(a.msgs_done, b.msgs_done);
		ASSERT_EQ(a.pkts_injected, b.pkts_injected);
		ASSERT_EQ(a.pkts_delivered, b.pkts_delivered);
		ASSERT_EQ(a.samples, b.samples);
		ASSERT_EQ(0, memcmp(&a.msg_lat_avg, &b.msg_lat_avg,
				    sizeof(a.msg_lat_avg)));
		ASSERT_EQ(0, memcmp(&a.pkt_lat_avg, &b.pkt_lat_avg,
				    sizeof(a.pkt_lat_avg)));
		ASSERT_EQ(0, memcmp(&a.net_lat_avg, &b.net_lat_avg,
				    sizeof(a.net_lat_avg)));
		ASSERT_EQ(0, memcmp(&a.msg_lat_p99, &b.msg_lat_p99,
				    sizeof(a.msg_lat_p99)));
		ASSERT_EQ(0, memcmp(&a.pkt_lat_p50, &b.pkt_lat_p50,
				    sizeof(a.pkt_lat_p50)));
		ASSERT_EQ(0, memcmp(a.link_flits, b.link_flits,
				    (size_t)t->nports * a.vls * 8));
		ASSERT_EQ(a.deadlock, b.deadlock);
		ASSERT_EQ(a.deadlock_at, b.deadlock_at);
		ASSERT_EQ(a.ncycle, b.ncycle);
		if (a.ncycle)
			ASSERT_EQ(0, memcmp(a.cycle, b.cycle,
					    a.ncycle * sizeof(*a.cycle)));
		ftsw_sim_result_free(&b);
	}
	ftsw_sim_result_free(&a);
}

TEST(phased_same_for_any_thread_count)
{
	struct ftsw_topo *x = gen("xgft:3;4,4,8;1,4,4"), *f = gen("ftmn:8,3");
	struct ftsw_topo *ring = grid(6, 1, 2), *torus = grid(4, 4, 1);
	struct ftsw_routing *rd = route("dmodk", x, 0, 0);
	struct ftsw_routing *rj = route("disjoint", x, 2, 0);
	struct ftsw_routing *rf = route("dmodk", f, 0, 0);
	struct ftsw_routing *rm = route("minhop", ring, 0, 3);
	struct ftsw_routing *rt = route("dfsssp", torus, 0, 0);
	struct ftsw_sim_traffic tx, tf, tg, tt;
	struct ftsw_sim_opts o;
	struct ftsw_err err;

	ASSERT_NE(NULL, rd);
	ASSERT_NE(NULL, rj);
	ASSERT_NE(NULL, rf);
	ASSERT_NE(NULL, rm);
	ASSERT_NE(NULL, rt);
	ASSERT_EQ(0, ftsw_sim_traffic_make(x, "uniform", "topo", 0, &tx, &err));
	ASSERT_EQ(0, ftsw_sim_traffic_make(f, "uniform", "topo", 0, &tf, &err));
	ASSERT_EQ(0, ftsw_sim_traffic_make(ring, "uniform", "topo", 0, &tg,
					   &err));
	ASSERT_EQ(0, ftsw_sim_traffic_make(torus, "uniform", "topo", 0, &tt,
					   &err));
	/* one VL, request masks: below and beyond saturation, two seeds */
	opts(&o);
	o.warmup = 500;
	o.measure = 1500;
	phased_same(_metadata, x, rd, &tx, &o, 0.3, false);
	opts(&o);
	o.warmup = 500;
	o.measure = 1500;
	o.seed = 2;
	phased_same(_metadata, x, rd, &tx, &o, 0.9, false);
	/* per-packet paths, VOQ inputs and speedup 2 */
	paper_opts(&o);
	o.warmup = 500;
	o.measure = 1500;
	phased_same(_metadata, x, rj, &tx, &o, 0.7, false);
	/* 9 VLs: more than 64 (input, VL) pairs, the scan; interleaving */
	opts(&o);
	o.warmup = 300;
	o.measure = 800;
	o.vls = 9;
	o.interleave = 3;
	phased_same(_metadata, f, rf, &tf, &o, 0.6, false);
	/* DFSSSP's layers on the torus; MinHop on one VL deadlocks */
	opts(&o);
	o.warmup = 500;
	o.measure = 1500;
	phased_same(_metadata, torus, rt, &tt, &o, 0.6, false);
	opts(&o);
	o.vls = 1;
	o.measure = 30000;
	phased_same(_metadata, ring, rm, &tg, &o, 0.9, true);
	ftsw_sim_traffic_free(&tx);
	ftsw_sim_traffic_free(&tf);
	ftsw_sim_traffic_free(&tg);
	ftsw_sim_traffic_free(&tt);
	ftsw_routing_free(rd);
	ftsw_routing_free(rj);
	ftsw_routing_free(rf);
	ftsw_routing_free(rm);
	ftsw_routing_free(rt);
	ftsw_topo_free(x);
	ftsw_topo_free(f);
	ftsw_topo_free(ring);
	ftsw_topo_free(torus);
}

/*
 * A sweep of one point with --threads 2 runs it on both threads; with as
 * many points as threads each point runs on one. The numbers are the same.
 */
TEST(phased_sweep_threads)
{
	struct ftsw_topo *t = gen("xgft:3;4,4,8;1,4,4");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a, b[2];
	const double loads[2] = { 0.5, 0.5 };
	struct ftsw_err err;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	o.phased = true;
	o.threads = 2;
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 1, &a, &err));
	ASSERT_EQ(2, a.threads);
	ASSERT_EQ(0, ftsw_sim_sweep(r, &tr, &o, loads, 2, b, &err));
	ASSERT_EQ(1, b[0].threads);
	ASSERT_EQ(1, b[1].threads);
	ASSERT_EQ(a.flit_hops, b[0].flit_hops);
	ASSERT_EQ(a.flit_hops, b[1].flit_hops);
	ASSERT_EQ(0, memcmp(&a.msg_lat_avg, &b[1].msg_lat_avg,
			    sizeof(a.msg_lat_avg)));
	ftsw_sim_result_free(&a);
	ftsw_sim_result_free(&b[0]);
	ftsw_sim_result_free(&b[1]);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/*
 * One VL and FIFO inputs: no two events of a cycle compete, so the phased
 * engine gives the event engine's numbers; a point given two threads on a
 * large fabric (ftmn:24,3, 20,736 ports) runs on both with those numbers.
 * With two VLs it stays on the event engine, on one thread.
 */
TEST(threads_inside_a_point_same_numbers)
{
	struct ftsw_topo *t = gen("ftmn:24,3");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a, b;
	struct ftsw_err err;
	unsigned k;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	for (k = 0; k < 3; k++) {
		opts(&o);
		o.warmup = 300;
		o.measure = 300;
		o.drain = 300;
		o.seed = k + 1;
		if (k == 1)
			o.policy = FTSW_SIM_PACKET;
		if (k == 2)
			o.speedup = 2;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.6, &a, &err));
		ASSERT_EQ(1, a.threads);
		o.point_threads = 2;
		ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.6, &b, &err));
		ASSERT_EQ(2, b.threads);
		ASSERT_EQ(a.cycles, b.cycles);
		ASSERT_EQ(a.flit_hops, b.flit_hops);
		ASSERT_EQ(a.accepted, b.accepted);
		ASSERT_EQ(a.msgs_done, b.msgs_done);
		ASSERT_EQ(a.pkts_delivered, b.pkts_delivered);
		ASSERT_EQ(0, memcmp(&a.msg_lat_avg, &b.msg_lat_avg,
				    sizeof(a.msg_lat_avg)));
		ASSERT_EQ(0, memcmp(&a.pkt_lat_p99, &b.pkt_lat_p99,
				    sizeof(a.pkt_lat_p99)));
		ASSERT_EQ(0, memcmp(a.link_flits, b.link_flits,
				    (size_t)t->nports * 8));
		ftsw_sim_result_free(&a);
		ftsw_sim_result_free(&b);
	}
	opts(&o);
	o.warmup = 100;
	o.measure = 100;
	o.vls = 2;
	o.point_threads = 2;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.3, &a, &err));
	ASSERT_EQ(1, a.threads);
	ftsw_sim_result_free(&a);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

/* This process's address space, in bytes (/proc/self/statm, in pages). */
static size_t vm_size(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * Under an address-space limit (ulimit -v) the phased engine cannot
 * reserve its pools. Offered two threads, a point runs on the event
 * engine, on one thread, with the same numbers, and says so; asked for
 * the phased engine by name, it fails, naming the engine and the limit.
 * The harness runs each test in its own process: the limit ends with it.
 */
TEST(phased_without_memory_falls_back)
{
	struct ftsw_topo *t = gen("ftmn:24,3");
	struct ftsw_routing *r = route("dmodk", t, 0, 0);
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_opts o;
	struct ftsw_sim_result a, b;
	struct ftsw_err err;
	struct rlimit rl;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ftsw_sim_traffic_make(t, "uniform", "topo", 0, &tr, &err));
	opts(&o);
	o.warmup = 200;
	o.measure = 200;
	o.drain = 200;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.6, &a, &err));
	ASSERT_EQ(1, a.threads);
	ASSERT_FALSE(a.fell_back);
	/* Room for the event engine (tens of MiB here), not for the phased
	 * engine's reservation (over 2 GiB for this fabric, 2 threads).
	 */
	rl.rlim_cur = rl.rlim_max = vm_size() + (256u << 20);
	ASSERT_EQ(0, setrlimit(RLIMIT_AS, &rl));
	o.point_threads = 2;
	ASSERT_EQ(0, ftsw_sim_run(r, &tr, &o, 0.6, &b, &err));
	ASSERT_EQ(1, b.threads);
	ASSERT_TRUE(b.fell_back);
	ASSERT_EQ(a.cycles, b.cycles);
	ASSERT_EQ(a.flit_hops, b.flit_hops);
	ASSERT_EQ(a.msgs_done, b.msgs_done);
	ASSERT_EQ(a.pkts_delivered, b.pkts_delivered);
	ASSERT_EQ(0, memcmp(&a.accepted, &b.accepted, sizeof(a.accepted)));
	ASSERT_EQ(0, memcmp(&a.msg_lat_avg, &b.msg_lat_avg,
			    sizeof(a.msg_lat_avg)));
	ftsw_sim_result_free(&b);
	o.phased = true;
	ASSERT_EQ(-1, ftsw_sim_run(r, &tr, &o, 0.6, &b, &err));
	ASSERT_NE(NULL, strstr(err.msg, "phased engine"));
	ASSERT_NE(NULL, strstr(err.msg, "ulimit -v"));
	ftsw_sim_result_free(&b);
	ftsw_sim_result_free(&a);
	ftsw_sim_traffic_free(&tr);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
}

TEST(loads_parse)
{
	struct ftsw_err err;
	double *l;
	size_t n;

	ASSERT_EQ(0, ftsw_sim_loads_parse("0.1:1.0:0.05", &l, &n, &err));
	ASSERT_EQ(19, n);
	ASSERT_EQ(0.1, l[0]);
	ASSERT_EQ(0.25, l[3]);
	ASSERT_EQ(1.0, l[18]);
	free(l);
	ASSERT_EQ(0, ftsw_sim_loads_parse("0.3", &l, &n, &err));
	ASSERT_EQ(1, n);
	free(l);
	ASSERT_EQ(-1, ftsw_sim_loads_parse("0:1:0.1", &l, &n, &err));
	ASSERT_NE(NULL, strstr(err.msg, "--load"));
	ASSERT_EQ(-1, ftsw_sim_loads_parse("0.1:0.5", &l, &n, &err));
	ASSERT_EQ(-1, ftsw_sim_loads_parse("1.5", &l, &n, &err));
}

TEST_HARNESS_MAIN
