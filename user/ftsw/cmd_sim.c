// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw sim: the flit-level simulator (Documentation/sim.md).
 *
 *   ftsw sim -t TOPO [-a ENGINE | -r LFTS] [--load SPEC|auto] [OPTIONS]
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "analyze/picture.h"
#include "sim/sim.h"
#include "util/output.h"
#include "util/parse.h"
#include "cli.h"
#include "cmd_sim.h"

enum {
	S_TOPO, S_ENGINE, S_LFTS, S_LMC, S_PATHS, S_MAX_VLS, S_EXT_LIDS,
	S_PATTERN, S_ORDER, S_RANKS, S_LOAD, S_COUNT, S_POLICY,
	S_PACKET, S_MESSAGE, S_BUFFER, S_IN_BUF, S_OUT_BUF, S_LINK_LAT,
	S_ROUTER_LAT, S_VLS, S_WARMUP, S_MEASURE, S_DRAIN, S_DEADLOCK,
	S_SEED, S_THREADS, S_LINKS, S_PLOT, S_PICTURE, S_DOT,
	S_SPEEDUP, S_VOQ, S_INTERLEAVE, S_PHASED, S_RATE, S_FRAME,
	S_BUF_BYTES, S_IN_BYTES, S_OUT_BYTES, S_ADAPTIVE, S_GROUPS,
	S_FLOWLET, S_CC, S_CC_UNIT, S_SWITCHING, S_BUF_FLITS, S_FLOWS, S_N
};

#define SIM_NUM(nm, a, lo, hi, h) { nm, NULL, CLI_NUM, a, lo, hi, .help = h }

static const struct cli_opt sim_opts[S_N + 1] = {
	[S_TOPO] = CLI_OPT_TOPO_REQUIRED,
	[S_ENGINE] = CLI_OPT_ENGINE,
	[S_LFTS] = { "-r", NULL, CLI_FILE, "LFTS",
		     .help = "simulate an OpenSM LFT dump instead of -a" },
	[S_LMC] = CLI_OPT_LMC,
	[S_PATHS] = CLI_OPT_PATHS,
	[S_MAX_VLS] = CLI_OPT_MAX_VLS,
	[S_EXT_LIDS] = CLI_OPT_EXTENDED_LIDS,
	[S_PATTERN] = { "-p", "--pattern", CLI_PATTERN, "PATTERN",
			.help = "traffic pattern (default uniform: each "
				"message to a random other host)" },
	[S_ORDER] = CLI_OPT_ORDER,
	/* as CLI_OPT_RANKS, but traffic needs two ranks */
	[S_RANKS] = SIM_NUM("--ranks", "N", 2, UINT32_MAX,
			    "ranks: a partial allocation (default all hosts)"),
	[S_LOAD] = { "--load", NULL, CLI_STR, "SPEC",
		     .help = "offered load per host, flits/cycle: L or "
			     "FROM:TO:STEP (default 0.5), or auto" },
	[S_COUNT] = SIM_NUM("--count", "N", 1, 1000000,
			    "N messages per flow, then drain (no warm-up)"),
	[S_POLICY] = { "--path-policy", NULL, CLI_STR, "P",
		       .help = "LMC offset per message: random (default), "
			       "hash, rr; per packet: packet, spread" },
	[S_PACKET] = SIM_NUM("--packet", "P", 1, 4096, "flits per packet (10)"),
	[S_MESSAGE] = SIM_NUM("--message", "M", 1, 65535,
			      "packets per message (10)"),
	[S_BUFFER] = SIM_NUM("--buffer", "B", 1, 255,
			     "packets per port per VL, in and out (4)"),
	[S_IN_BUF] = SIM_NUM("--in-buffer", "B", 1, 255,
			     "input buffer, packets per port per VL"),
	[S_OUT_BUF] = SIM_NUM("--out-buffer", "B", 1, 255,
			      "output buffer, packets per port per VL"),
	[S_LINK_LAT] = SIM_NUM("--link-latency", "C", 1, 1000,
			       "cycles per link (1)"),
	[S_ROUTER_LAT] = SIM_NUM("--router-latency", "C", 1, 1000,
				 "cycles per router (1)"),
	[S_VLS] = SIM_NUM("--vls", "N", 1, FTSW_SIM_MAX_VLS,
			  "data VLs, VL = SL mod N (default: the routing's)"),
	[S_WARMUP] = SIM_NUM("--warmup", "C", 0, 1000000000,
			     "warm-up cycles (10000)"),
	[S_MEASURE] = SIM_NUM("--measure", "C", 1, 1000000000,
			      "measured cycles (20000)"),
	[S_DRAIN] = SIM_NUM("--drain", "C", 1, 1000000000,
			    "drain cycles (default: = measure)"),
	[S_DEADLOCK] = SIM_NUM("--deadlock", "C", 2, 100000000,
			       "cycles without progress that are a deadlock "
			       "(2000)"),
	[S_SEED] = CLI_OPT_SEED,
	[S_THREADS] = CLI_OPT_THREADS,
	[S_LINKS] = { "--links", NULL, CLI_FLAG,
		      .help = "per-link, per-VL utilisation of every point" },
	[S_PLOT] = { "--plot", NULL, CLI_STR, "PREFIX",
		     .help = "PREFIX-latency.svg, PREFIX-throughput.svg "
			     "(gnuplot)" },
	[S_PICTURE] = { "--picture", NULL, CLI_FILE, "F.svg",
			.help = "link-utilisation heat map of the saturation "
				"point (or the last)" },
	[S_DOT] = { "--dot", NULL, CLI_FILE, "F.dot",
		    .help = "the heat map's Graphviz source" },
	[S_SPEEDUP] = SIM_NUM("--speedup", "S", 1, 64,
			      "crossbar speedup: input to output buffer at "
			      "S flits/cycle (1)"),
	[S_VOQ] = { "--voq", NULL, CLI_FLAG,
		    .help = "input buffers not FIFO: an output takes the "
			    "oldest packet for it from any input buffer" },
	[S_INTERLEAVE] = SIM_NUM("--interleave", "N", 0, 65535,
				 "a source sends its first N queued messages "
				 "packet by packet in turn (1; 0: all)"),
	[S_PHASED] = { "--phased", NULL, CLI_FLAG,
		       .help = "the phased engine: one point also runs on "
			       "several threads, same numbers" },
	[S_RATE] = { "--rate", NULL, CLI_STR, "RATE",
		     .help = "the lab's link rate (500kbit, 1M, ...): "
			     "throughput also in bit/s" },
	[S_FRAME] = SIM_NUM("--frame-bytes", "F", 1, 262144,
			    "the lab's frame: packets of ceil(F/64) flits "
			    "(with --rate)"),
	[S_BUF_BYTES] = SIM_NUM("--buffer-bytes", "B", 64, 16777216,
				"the lab's buffers per port per VL, bytes "
				"(with --frame-bytes)"),
	[S_IN_BYTES] = SIM_NUM("--in-buffer-bytes", "B", 64, 16777216,
			       "the lab's input buffer, bytes"),
	[S_OUT_BYTES] = SIM_NUM("--out-buffer-bytes", "B", 64, 16777216,
				"the lab's output queue, bytes"),
	[S_ADAPTIVE] = CLI_OPT_ADAPTIVE,
	[S_GROUPS] = CLI_OPT_GROUPS,
	[S_FLOWLET] = SIM_NUM("--flowlet-gap", "C", 0, 1000000000,
			      "adaptive routing per flowlet: a flow keeps its "
			      "port while its packets come less than C cycles "
			      "apart (0: per packet)"),
	[S_CC] = { "--cc", NULL, CLI_FILE, "FILE",
		   .help = "congestion control: the cc_* keys of an "
			   "opensm.conf (with --rate)" },
	[S_CC_UNIT] = SIM_NUM("--cc-timer-unit", "NS", 1, 1000000000,
			      "CCTI_Timer's unit, ns (1024, IBA's)"),
	[S_SWITCHING] = { "--switching", NULL, CLI_STR, "S",
			  .help = "vct (default), wormhole or vct-flits (the "
				  "flit engine: small fabrics)" },
	[S_BUF_FLITS] = SIM_NUM("--buffer-flits", "F", 1, 65535,
				"flit engine: buffers of F flits per port per "
				"VL (may be < a packet with wormhole)"),
	[S_FLOWS] = { "--flows", NULL, CLI_FLAG,
		      .help = "per-flow throughput of every point (what each "
			      "destination received)" },
};

#undef SIM_NUM

static const char sim_notes[] =
"TOPO is a net file or a generator spec (xgft:3;4,4,8;1,4,4, ftmn:24,3, ...).\n"
"At most one of -a ENGINE and -r LFTS. Without --lmc the engine gets the\n"
"smallest LMC it accepts. PATTERN is uniform or any analyze pattern (perm,\n"
"shift:S, ...). --buffer sets both --in-buffer and --out-buffer (which win\n"
"over it). Exit status 3 when a deadlock was found (Documentation/sim.md).\n";

static int sim_run(const struct cli_args *a);

const struct cli_cmd cli_cmds_sim[] = {
	{ "", "-t TOPO [-a ENGINE | -r LFTS] [--load SPEC|auto] [OPTIONS]",
	  "flit-level simulation: throughput, latency, deadlock",
	  .opts = sim_opts, .notes = sim_notes, .run = sim_run },
	{ NULL }
};


/* A number option, if given, into *dst. */
static void take_num(const struct cli_args *a, unsigned k, unsigned *dst)
{
	if (a->v[k].n)
		*dst = (unsigned)a->v[k].u;
}

/* --rate, --frame-bytes, --*buffer-bytes: the lab's parameters. */
static int take_lab(const struct cli_args *a, struct sopts *o)
{
	struct ftsw_sim_lab l = { 0 };
	struct ftsw_err err;

	memset(&o->lab, 0, sizeof(o->lab));
	if (!a->v[S_RATE].n && !a->v[S_FRAME].n) {
		if (a->v[S_BUF_BYTES].n || a->v[S_IN_BYTES].n ||
		    a->v[S_OUT_BYTES].n) {
			cli_err("sim: --*buffer-bytes need --frame-bytes and "
				"--rate");
			return -1;
		}
		return 0;
	}
	if (!a->v[S_RATE].n || !a->v[S_FRAME].n) {
		cli_err("sim: --rate and --frame-bytes go together");
		return -1;
	}
	if (ftsw_parse_rate("--rate", a->v[S_RATE].s, 1000, 1000000000000ULL,
			    &l.rate_bits, &err)) {
		cli_err("sim: %s", err.msg);
		return -1;
	}
	l.frame_bytes = (unsigned)a->v[S_FRAME].u;
	take_num(a, S_BUF_BYTES, &l.in_buf_bytes);
	take_num(a, S_BUF_BYTES, &l.out_buf_bytes);
	take_num(a, S_IN_BYTES, &l.in_buf_bytes);
	take_num(a, S_OUT_BYTES, &l.out_buf_bytes);
	if (ftsw_sim_lab_apply(&l, &o->so, &o->lab, &err)) {
		cli_err("sim: %s", err.msg);
		return -1;
	}
	return 0;
}

/* --cc FILE, --cc-timer-unit: congestion control's parameters. */
static int take_cc(const struct cli_args *a, struct sopts *o)
{
	struct ftsw_err err;

	if (!a->v[S_CC].n) {
		if (a->v[S_CC_UNIT].n) {
			cli_err("sim: --cc-timer-unit needs --cc");
			return -1;
		}
		return 0;
	}
	o->cc_file = a->v[S_CC].s;
	ftsw_cc_params_default(&o->cc);
	if (ftsw_cc_params_read(o->cc_file, &o->cc, &err)) {
		cli_err("sim: --cc %s", err.msg);
		return -1;
	}
	if (a->v[S_CC_UNIT].n)
		o->cc.timer_unit_ns = (uint32_t)a->v[S_CC_UNIT].u;
	if (o->cc.congestion_control && !o->lab.rate_bits) {
		cli_err("sim: --cc needs the lab's --rate and --frame-bytes "
			"(CCTI_Timer counts time)");
		return -1;
	}
	o->so.cc = &o->cc;
	return 0;
}

/* The parsed table into the library's options; -1 after an error. */
static int take_opts(const struct cli_args *a, struct sopts *o)
{
	struct ftsw_err err;

	ftsw_sim_opts_default(&o->so);
	o->topo = a->v[S_TOPO].s;
	cli_route_req(a, &o->q);
	o->q.extend_lids = true;
	o->pattern = a->v[S_PATTERN].n ? a->v[S_PATTERN].s : "uniform";
	o->order = a->v[S_ORDER].n ? a->v[S_ORDER].s : "topo";
	o->load = a->v[S_LOAD].n ? a->v[S_LOAD].s : "0.5";
	o->plot = a->v[S_PLOT].s;
	o->picture = a->v[S_PICTURE].s;
	o->dot = a->v[S_DOT].s;
	o->links = a->v[S_LINKS].n;
	o->flows = a->v[S_FLOWS].n;
	o->ranks = (uint32_t)a->v[S_RANKS].u;
	take_num(a, S_THREADS, &o->so.threads);
	take_num(a, S_PACKET, &o->so.packet_flits);
	take_num(a, S_MESSAGE, &o->so.msg_packets);
	take_num(a, S_BUFFER, &o->so.in_buf);
	take_num(a, S_BUFFER, &o->so.out_buf);
	take_num(a, S_IN_BUF, &o->so.in_buf);
	take_num(a, S_OUT_BUF, &o->so.out_buf);
	take_num(a, S_LINK_LAT, &o->so.link_latency);
	take_num(a, S_ROUTER_LAT, &o->so.router_latency);
	take_num(a, S_VLS, &o->so.vls);
	take_num(a, S_WARMUP, &o->so.warmup);
	take_num(a, S_MEASURE, &o->so.measure);
	take_num(a, S_DRAIN, &o->so.drain);
	take_num(a, S_DEADLOCK, &o->so.deadlock_cycles);
	take_num(a, S_COUNT, &o->so.count);
	take_num(a, S_SPEEDUP, &o->so.speedup);
	o->so.voq = a->v[S_VOQ].n;
	o->so.phased = a->v[S_PHASED].n;
	if (a->v[S_INTERLEAVE].n)
		o->so.interleave = a->v[S_INTERLEAVE].u ?
				   (unsigned)a->v[S_INTERLEAVE].u : UINT_MAX;
	if (a->v[S_SEED].n)
		o->so.seed = a->v[S_SEED].u;
	if (a->v[S_POLICY].n &&
	    ftsw_sim_policy_parse(a->v[S_POLICY].s, &o->so.policy, &err)) {
		cli_err("sim: %s", err.msg);
		return -1;
	}
	if (o->q.engine && o->q.lfts) {
		cli_err("sim: -a ENGINE and -r LFTS exclude each other "
			"(ftsw sim help)");
		return -1;
	}
	if (o->q.o.adaptive && o->q.groups) {
		cli_err("sim: --adaptive and --groups exclude each other");
		return -1;
	}
	o->so.adaptive = o->q.o.adaptive || o->q.groups;
	if (a->v[S_FLOWLET].n && !o->so.adaptive) {
		cli_err("sim: --flowlet-gap needs adaptive routing (--adaptive "
			"or --groups)");
		return -1;
	}
	take_num(a, S_FLOWLET, &o->so.flowlet_gap);
	if (a->v[S_SWITCHING].n &&
	    ftsw_sim_switching_parse(a->v[S_SWITCHING].s, &o->so.switching,
				     &err)) {
		cli_err("sim: %s", err.msg);
		return -1;
	}
	if (a->v[S_BUF_FLITS].n && o->so.switching == FTSW_SIM_VCT) {
		cli_err("sim: --buffer-flits needs --switching wormhole or "
			"vct-flits");
		return -1;
	}
	take_num(a, S_BUF_FLITS, &o->so.buf_flits);
	if ((o->so.adaptive || a->v[S_CC].n) && (o->so.phased || o->so.voq)) {
		cli_err("sim: --cc and adaptive routing run on the event engine "
			"with FIFO inputs: not with --phased or --voq");
		return -1;
	}
	return take_lab(a, o) || take_cc(a, o);
}

/* Curves with gnuplot: data file, script, two SVGs. */
static int plot(const char *prefix, const char *title,
		const struct ftsw_sim_result *x, size_t n)
{
	char dat[4096], gp[4096], cmd[8400];
	FILE *f;
	size_t i;
	int rc;

	snprintf(dat, sizeof(dat), "%s.dat", prefix);
	snprintf(gp, sizeof(gp), "%s.gp", prefix);
	f = fopen(dat, "w");
	if (!f) {
		cli_err("sim: %s: %m", dat);
		return -1;
	}
	fprintf(f, "# load offered accepted msg_lat_avg msg_lat_p99 "
		   "pkt_lat_avg\n");
	for (i = 0; i < n; i++)
		fprintf(f, "%g %g %g %g %g %g\n", x[i].load, x[i].offered,
			x[i].accepted, x[i].msg_lat_avg, x[i].msg_lat_p99,
			x[i].pkt_lat_avg);
	fclose(f);
	f = fopen(gp, "w");
	if (!f) {
		cli_err("sim: %s: %m", gp);
		return -1;
	}
	fprintf(f, "set terminal svg size 640,420 dynamic\n"
		   "set grid\nset key left top\n"
		   "set xlabel 'offered load (flits/cycle/host)'\n"
		   "set output '%s-latency.svg'\n"
		   "set title '%s: message latency'\n"
		   "set ylabel 'cycles'\n"
		   "plot '%s' using 1:4 with linespoints title 'average', "
		   "'' using 1:5 with linespoints title '99th percentile'\n"
		   "set output '%s-throughput.svg'\n"
		   "set title '%s: throughput'\n"
		   "set ylabel 'accepted (flits/cycle/host)'\n"
		   "set xrange [0:1]\nset yrange [0:1]\n"
		   "plot '%s' using 1:3 with linespoints title 'accepted', "
		   "x with lines dashtype 2 title 'offered'\n",
		   prefix, title, dat, prefix, title, dat);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gnuplot '%s'", gp);
	rc = system(cmd);
	if (rc) {
		cli_err("sim: gnuplot failed (%d): is it installed "
			"(scripts/deps)?", WIFEXITED(rc) ? WEXITSTATUS(rc) : rc);
		return -1;
	}
	return 0;
}

static int heatmap(const struct sopts *o, const struct ftsw_topo *t,
		   const struct ftsw_sim_result *x, const char *engine)
{
	double *u = calloc(t->nports, sizeof(double));
	struct ftsw_pic_mark *marks = calloc(x->ncycle + 1, sizeof(*marks));
	struct ftsw_picture pic = { .t = t, .load = u, .max = 1,
				    .unit = "utilisation", .hosts = -1,
				    .labels = -1, .marks = marks };
	struct ftsw_err err;
	char title[256], mark[64];
	uint32_t p;
	unsigned k;
	int rc = 0;

	if (!u || !marks) {
		free(u);
		free(marks);
		return -1;
	}
	for (p = 0; p < t->nports; p++) {
		unsigned v;

		for (v = 0; v < x->vls; v++)
			u[p] += x->link_flits[(size_t)p * x->vls + v];
		u[p] = x->window ? u[p] / x->window : 0;
	}
	/* a deadlock: the cycle of buffers, each waiting on the next */
	for (k = 0; x->deadlock && k < x->ncycle; k++)
		if (x->cycle[k].sw < t->nswitches) {
			marks[pic.nmarks].node = t->switches[x->cycle[k].sw];
			marks[pic.nmarks++].port = x->cycle[k].out_port;
		}
	snprintf(mark, sizeof(mark), "deadlock cycle on VL %u, each buffer "
		 "waiting on the next", x->ncycle ? x->cycle[0].vl : 0);
	pic.marks_label = mark;
	snprintf(title, sizeof(title), "%s, load %.3f: link utilisation%s",
		 engine, x->load, x->deadlock ? " (DEADLOCK)" : "");
	pic.title = title;
	if (ftsw_picture_write(&pic, o->dot, o->picture, &err)) {
		cli_err("sim: %s", err.msg);
		rc = -1;
	}
	free(u);
	free(marks);
	return rc;
}

/* The sweep (or the saturation search): *res, *n points, *best. */
static int sim_points(const struct ftsw_routing *r,
		      const struct ftsw_sim_traffic *tr, const struct sopts *o,
		      const double *loads, struct ftsw_sim_result **res,
		      size_t *n, size_t *best, struct ftsw_err *err)
{
	size_t i;

	if (!loads)
		return ftsw_sim_saturation(r, tr, &o->so, res, n, best, err);
	*res = calloc(*n, sizeof(**res));
	if (!*res) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	if (ftsw_sim_sweep(r, tr, &o->so, loads, *n, *res, err)) {
		free(*res);
		*res = NULL;
		return -1;
	}
	*best = 0;
	for (i = 1; i < *n; i++)
		if ((*res)[i].accepted > (*res)[*best].accepted)
			*best = i;
	return 0;
}

/* The congestion control parameters that act (model.cc). */
static void print_cc(const struct sopts *o)
{
	const struct ftsw_cc_params *p = &o->cc;
	unsigned sl;

	ftsw_out_open_object("cc");
	ftsw_out_str("file", "  congestion control from %s", o->cc_file);
	ftsw_out_bool("on", ": %s", p->congestion_control);
	if (!p->congestion_control) {
		ftsw_out_text(" (congestion_control FALSE: nothing marks)\n");
		ftsw_out_close_object();
		return;
	}
	ftsw_out_uint("threshold", ", threshold %" PRIu64,
		      p->cc_sw_cong_setting_control_map & FTSW_CC_SW_THRESHOLD ?
		      p->cc_sw_cong_setting_threshold : 0);
	ftsw_out_uint("marking_rate", ", marking rate %" PRIu64,
		      p->cc_sw_cong_setting_control_map &
		      FTSW_CC_SW_MARKING_RATE ?
		      p->cc_sw_cong_setting_marking_rate : 0);
	ftsw_out_uint("packet_size", ", packet size %" PRIu64,
		      p->cc_sw_cong_setting_packet_size);
	ftsw_out_uint("queue_flits", ", queues of %" PRIu64 " flits",
		      o->so.out_cap_flits ? o->so.out_cap_flits :
		      (uint64_t)o->so.out_buf * o->so.packet_flits);
	ftsw_out_str("units", ", %s", p->cc_ca_cong_setting_port_control &
		     FTSW_CC_CA_SL_BASED ? "per SL" : "per flow");
	ftsw_out_uint("cct_entries", ", CCT of %" PRIu64 " entries",
		      p->cc_cct_len);
	ftsw_out_uint("timer_unit_ns", ", CCTI_Timer unit %" PRIu64 " ns",
		      p->timer_unit_ns);
	ftsw_out_open_array("sls");
	for (sl = 0; sl < FTSW_CC_SLS; sl++) {
		if (!(p->cc_ca_cong_setting_control_map >> sl & 1))
			continue;
		ftsw_out_open_object(NULL);
		ftsw_out_uint("sl", "; SL %" PRIu64, sl);
		ftsw_out_uint("ccti_increase", ": increase %" PRIu64,
			      p->cc_ca_cong_setting_ccti_increase[sl]);
		ftsw_out_uint("ccti_timer", ", timer %" PRIu64,
			      p->cc_ca_cong_setting_ccti_timer[sl]);
		ftsw_out_float("ccti_timer_cycles", " (%.1f cycles)",
			       p->cc_ca_cong_setting_ccti_timer[sl] *
			       (double)p->timer_unit_ns / o->so.cycle_ns);
		ftsw_out_uint("ccti_min", ", min %" PRIu64,
			      p->cc_ca_cong_setting_ccti_min[sl]);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_text("\n");
	ftsw_out_close_object();
}

static void print_header(const struct sopts *o, const struct ftsw_routing *r,
			 const struct ftsw_sim_traffic *tr, unsigned vls)
{
	const struct ftsw_topo *t = r->topo;
	const struct ftsw_sim_opts *so = &o->so;

	ftsw_out_str("engine", "%s", r->engine);
	ftsw_out_str("topology", " on %s", t->spec[0] ? t->spec : o->topo);
	ftsw_out_uint("hosts", " (%" PRIu64 " hosts", t->nhosts);
	ftsw_out_uint("switches", ", %" PRIu64 " switches)", t->nswitches);
	ftsw_out_uint("lmc", ", LMC %" PRIu64, r->lmc);
	ftsw_out_str("path_policy", ", path choice %s",
		     ftsw_sim_policy_name(so->policy));
	ftsw_out_uint("vls", NULL, vls);
	ftsw_out_text(", %u VL%s", vls, vls == 1 ? "" : "s");
	if (vls != r->nvls) {
		ftsw_out_uint("routing_vls", " (the routing's %" PRIu64, r->nvls);
		ftsw_out_text(" folded onto %u: VL = SL mod %u)", vls, vls);
	}
	ftsw_out_str("pattern", ", traffic %s", tr->name);
	ftsw_out_str("order", NULL, o->order);
	ftsw_out_text("\n");
	ftsw_out_open_object("model");
	ftsw_out_uint("packet_flits", "  packets of %" PRIu64 " flits",
		      so->packet_flits);
	ftsw_out_uint("message_packets", ", messages of %" PRIu64 " packets",
		      so->msg_packets);
	ftsw_out_uint("in_buffer", ", buffers %" PRIu64, so->in_buf);
	ftsw_out_uint("out_buffer", "+%" PRIu64 " packets per port per VL",
		      so->out_buf);
	ftsw_out_uint("link_latency", ", latency link %" PRIu64,
		      so->link_latency);
	ftsw_out_uint("router_latency", " router %" PRIu64 " cycles",
		      so->router_latency);
	ftsw_out_uint("speedup", ", speedup %" PRIu64,
		      so->speedup ? so->speedup : 1);
	ftsw_out_str("switching", so->switching != FTSW_SIM_VCT ?
		     ", %s switching (flit engine)" : NULL,
		     ftsw_sim_switching_name(so->switching));
	ftsw_out_uint("buffer_flits", so->buf_flits ?
		      ", buffers of %" PRIu64 " flits" : NULL, so->buf_flits);
	ftsw_out_bool("voq", so->voq ? ", VOQ inputs: %s" : NULL, so->voq);
	if (so->phased)	/* absent: the event engine */
		ftsw_out_bool("phased", ", phased engine: %s", true);
	/* 0: all of a source's queued messages (UINT_MAX in the library) */
	ftsw_out_uint("interleave", so->interleave > 1 &&
		      so->interleave != UINT_MAX ?
		      ", interleaving %" PRIu64 " messages" : NULL,
		      so->interleave == UINT_MAX ? 0 :
		      so->interleave ? so->interleave : 1);
	if (so->interleave == UINT_MAX)
		ftsw_out_text(", interleaving all queued messages");
	ftsw_out_uint("warmup", so->count ? NULL : ", warm-up %" PRIu64,
		      so->warmup);
	ftsw_out_uint("measure", so->count ? NULL : ", measured %" PRIu64
		      " cycles", so->measure);
	ftsw_out_uint("count", so->count ? ", %" PRIu64 " messages per flow"
		      : NULL, so->count);
	ftsw_out_uint("seed", ", seed %" PRIu64 "\n", so->seed);
	if (so->adaptive) {
		ftsw_out_bool("adaptive", NULL, true);
		ftsw_out_uint("adaptive_entries", "  adaptive routing over %"
			      PRIu64 " group entries", r->ar ? r->ar->entries : 0);
		ftsw_out_uint("flowlet_gap", so->flowlet_gap ?
			      ", per flowlet (gap %" PRIu64 " cycles)\n" :
			      ", per packet\n", so->flowlet_gap);
	}
	if (o->cc_file)
		print_cc(o);
	ftsw_out_close_object();
	if (!o->lab.rate_bits)
		return;
	ftsw_out_open_object("lab");
	ftsw_out_uint("rate_bits", "  the lab's link rate %" PRIu64 " bit/s",
		      o->lab.rate_bits);
	ftsw_out_float("cycle_s", ": a cycle (one 64-byte flit) is %g s",
		       o->lab.cycle_s);
	ftsw_out_float("frame_share", ", frame bytes per flit byte %.4f\n",
		       o->lab.frame_share);
	ftsw_out_close_object();
}

/* A multi-line report: in JSON as it is, in text each line indented. */
static void print_indented(const char *key, const char *text)
{
	const char *l = text, *e;

	ftsw_out_str(key, NULL, text);
	for (; *l; l = *e ? e + 1 : e) {
		e = strchrnul(l, '\n');
		ftsw_out_text("    %.*s\n", (int)(e - l), l);
	}
}

/* What the columns are, under the table (text only). */
static const char columns[] =
"  units: load, offered, accepted in flits per sending host per cycle; msg-,\n"
"  pkt- latencies in cycles from creation to the last flit received (average,\n"
"  median, 99th percentile; - if none); umax, uavg, VL util: utilisation of\n"
"  the busiest link, the average link, per VL (1 = a flit every cycle)%s.\n"
"  Documentation/sim.md, \"Measurement\"\n";

/* The whole report; true when a point deadlocked. */
static bool print_report(const struct sopts *o, const struct ftsw_routing *r,
			 const struct ftsw_sim_traffic *tr,
			 const struct ftsw_sim_result *res, size_t n,
			 size_t best)
{
	bool deadlock = false, bits = o->lab.rate_bits;
	struct ftsw_err err;
	size_t i;

	ftsw_out_open_object(NULL);
	print_header(o, r, tr, res[0].vls);
	ftsw_out_text("  %6s %8s %8s%s %9s %8s %8s %9s %8s %8s %7s %6s %6s %s\n",
		      "load", "offered", "accepted", bits ? "  acc-bit/s" : "",
		      "msg-avg", "msg-p50", "msg-p99", "pkt-avg", "pkt-p50",
		      "pkt-p99", "wall-s", "umax", "uavg", "VL util");
	ftsw_out_open_array("points");
	for (i = 0; i < n; i++) {
		sim_print_point(r, tr, &res[i], o);
		deadlock |= res[i].deadlock;
	}
	ftsw_out_close_array();
	ftsw_out_text(columns, bits ? ";\n  acc-bit/s: accepted, in bit/s of the "
		      "lab's frames" : "");
	if (!deadlock) {
		ftsw_out_float("max_throughput",
			       "  maximum accepted throughput %.4f",
			       res[best].accepted);
		ftsw_out_float("max_throughput_load", " at load %.3f\n",
			       res[best].load);
	} else {
		/* the same VLs as the simulation: SL mod --vls */
		struct ftsw_check_opts co = { .cdg = true, .max_report = 2,
					      .vls = res[0].vls };
		struct ftsw_check_result cr;

		if (!ftsw_routing_check(r, &co, &cr, &err)) {
			ftsw_out_uint("cdg_cyclic_vls",
				      "  ftsw route check, VL = SL mod %" PRIu64,
				      res[0].vls);
			ftsw_out_text(": %u VL%s with a cyclic CDG%s\n",
				      cr.cdg_cyclic_vls,
				      cr.cdg_cyclic_vls == 1 ? "" : "s",
				      cr.cdg_cyclic_vls ? ":" : "");
			if (cr.report && cr.cdg_cyclic_vls)
				print_indented("cdg_report", cr.report);
			ftsw_check_result_free(&cr);
		}
	}
	ftsw_out_close_object();
	return deadlock;
}

/* Simulate r under o: report, plot, picture; the exit status. */
static int sim_routing(struct sopts *o, struct ftsw_routing *r,
		       const double *loads, size_t n)
{
	struct ftsw_sim_result *res = NULL;
	struct ftsw_sim_traffic tr;
	struct ftsw_err err;
	size_t i, best = 0;
	bool deadlock;
	int rc = 0;

	rc = ftsw_sim_traffic_make(r->topo, o->pattern, o->order, o->ranks,
				   &tr, &err);
	if (rc) {
		cli_err("sim: %s", err.msg);
		return rc == -EINVAL ? 2 : 1;
	}
	if (sim_points(r, &tr, o, loads, &res, &n, &best, &err)) {
		cli_err("sim: %s", err.msg);
		ftsw_sim_traffic_free(&tr);
		return 1;
	}
	ftsw_out_begin(stdout, cli.json);
	deadlock = print_report(o, r, &tr, res, n, best);
	if (ftsw_out_end())
		rc = 1;
	if (o->plot && plot(o->plot, r->engine, res, n))
		rc = 1;
	/* the picture: the first point that deadlocked, else the best */
	for (i = 0; i < n && !res[i].deadlock; i++)
		;
	if ((o->picture || o->dot) &&
	    heatmap(o, r->topo, &res[i < n ? i : best], r->engine))
		rc = 1;
	if (!rc && deadlock)
		rc = 3;
	for (i = 0; i < n; i++)
		ftsw_sim_result_free(&res[i]);
	free(res);
	ftsw_sim_traffic_free(&tr);
	return rc;
}

static int sim_run(const struct cli_args *a)
{
	struct sopts o = { 0 };
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	struct ftsw_err err;
	double *loads = NULL;
	size_t n = 0;
	int rc;

	if (take_opts(a, &o))
		return 2;
	if (strcmp(o.load, "auto") &&
	    ftsw_sim_loads_parse(o.load, &loads, &n, &err)) {
		cli_err("sim: %s", err.msg);
		return 2;
	}
	o.so.progress = isatty(2) && !cli.json ? cli_progress : NULL;
	t = ftsw_topo_open(o.topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		free(loads);
		return 1;
	}
	r = ftsw_route_make(t, &o.q, &err);
	if (!r) {
		cli_err("%s", err.msg);
		rc = 1;
	} else {
		cli_route_warning(r);
		rc = sim_routing(&o, r, loads, n);
		ftsw_routing_free(r);
	}
	ftsw_topo_free(t);
	free(loads);
	return rc;
}
