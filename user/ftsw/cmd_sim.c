// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw sim: the flit-level simulator (Documentation/sim.md).
 *
 *   ftsw sim -t TOPO (-a ENGINE | -r LFTS) [--load SPEC|auto] [OPTIONS]
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "sim/sim.h"
#include "util/output.h"
#include "util/parse.h"
#include "cli.h"

static void sim_usage(FILE *f)
{
	fprintf(f,
"Usage: ftsw sim -t TOPO (-a ENGINE | -r LFTS) [--load SPEC|auto] [OPTIONS]\n"
"TOPO is a net file or a generator spec (xgft:3;4,4,8;1,4,4, ftmn:24,3, ...).\n"
"Routing (as ftsw analyze):\n"
"  -a ENGINE | -r LFTS, --lmc N, --paths K, --max-vls N, --extended-lids\n"
"Traffic:\n"
"  -p PATTERN       uniform (default: each message to a uniformly random\n"
"                   other host) or any analyze pattern (perm, shift:S, ...)\n"
"  --order SPEC     rank->host order (topo), --ranks N\n"
"  --load SPEC      offered load per host, flits/cycle: L or FROM:TO:STEP\n"
"                   (default 0.5), or auto (saturation search)\n"
"  --count N        N messages per flow, then drain (no warm-up window)\n"
"  --path-policy P  LMC offset per message: random (default), hash, rr\n"
"Model (defaults in brackets):\n"
"  --packet P [10] flits, --message M [10] packets, --buffer B [4] packets\n"
"  per port per VL (--in-buffer, --out-buffer), --link-latency [1],\n"
"  --router-latency [1] cycles, --vls N [routing's] data VLs (VL = SL mod N)\n"
"Run:\n"
"  --warmup C [10000], --measure C [20000], --drain C [= measure] cycles,\n"
"  --deadlock C [2000] cycles without progress, --seed S [1], --threads N\n"
"Output:\n"
"  --links          per-link, per-VL utilisation of every point\n"
"  --plot PREFIX    PREFIX-latency.svg and PREFIX-throughput.svg (gnuplot)\n"
"  --picture F.svg  link-utilisation heat map of the saturation point (or\n"
"                   the last), --dot F.dot its Graphviz source\n"
"Exit status 3 when a deadlock was found.\n");
}

struct sopts {
	const char *topo, *engine, *lfts, *pattern, *order, *load;
	const char *plot, *picture, *dot;
	struct ftsw_route_opts ro;
	struct ftsw_sim_opts so;
	uint32_t ranks;
	bool lmc_given, links;
};

/* All options in one place (so a declarative table can replace it). */
static int sim_parse(int argc, char **argv, struct sopts *o)
{
	static const struct {
		const char *name;
		int kind;	/* 0 string, 1 uint, 2 u64, 3 flag */
		size_t off;
		unsigned min, max;
	} opts[] = {
#define S(n, f) { n, 0, offsetof(struct sopts, f), 0, 0 }
#define U(n, f, lo, hi) { n, 1, offsetof(struct sopts, f), lo, hi }
		S("-t", topo), S("-a", engine), S("-r", lfts),
		S("-p", pattern), S("--order", order), S("--load", load),
		S("--plot", plot), S("--picture", picture), S("--dot", dot),
		U("--lmc", ro.lmc, 0, FTSW_LMC_MAX),
		U("--paths", ro.paths, 1, 128),
		U("--max-vls", ro.max_vls, 1, FTSW_SIM_MAX_VLS),
		U("--threads", so.threads, 0, 4096),
		U("--ranks", ranks, 2, UINT32_MAX),
		U("--packet", so.packet_flits, 1, 4096),
		U("--message", so.msg_packets, 1, 65535),
		U("--in-buffer", so.in_buf, 1, 255),
		U("--out-buffer", so.out_buf, 1, 255),
		U("--link-latency", so.link_latency, 1, 1000),
		U("--router-latency", so.router_latency, 1, 1000),
		U("--vls", so.vls, 1, FTSW_SIM_MAX_VLS),
		U("--warmup", so.warmup, 0, 1000000000),
		U("--measure", so.measure, 1, 1000000000),
		U("--drain", so.drain, 1, 1000000000),
		U("--deadlock", so.deadlock_cycles, 2, 100000000),
		U("--count", so.count, 1, 1000000),
		{ "--seed", 2, 0, 0, 0 },
		{ "--buffer", 4, 0, 1, 255 },
		{ "--path-policy", 5, 0, 0, 0 },
		{ "--extended-lids", 3, offsetof(struct sopts, ro.extended_lids), 0, 0 },
		{ "--links", 3, offsetof(struct sopts, links), 0, 0 },
#undef S
#undef U
	};
	struct ftsw_err err;
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		size_t k;

		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (!strcmp(a, opts[k].name))
				break;
		if (k == sizeof(opts) / sizeof(opts[0])) {
			cli_err("sim: unknown argument '%s' (ftsw sim help)", a);
			return -1;
		}
		if (opts[k].kind == 3) {
			*(bool *)((char *)o + opts[k].off) = true;
			continue;
		}
		if (!v) {
			cli_err("sim: %s: argument expected", a);
			return -1;
		}
		i++;
		switch (opts[k].kind) {
		case 0:
			*(const char **)((char *)o + opts[k].off) = v;
			break;
		case 1: {
			unsigned x;

			if (ftsw_parse_uint(a, v, opts[k].min, opts[k].max, &x,
					    &err))
				goto bad;
			if (opts[k].off == offsetof(struct sopts, ranks))
				o->ranks = x;
			else
				*(unsigned *)((char *)o + opts[k].off) = x;
			if (!strcmp(a, "--lmc"))
				o->lmc_given = true;
			break;
		}
		case 2:
			if (ftsw_parse_u64(a, v, 0, UINT64_MAX, &o->so.seed,
					   &err))
				goto bad;
			o->ro.seed = o->so.seed;
			break;
		case 4: {
			unsigned x;

			if (ftsw_parse_uint(a, v, 1, 255, &x, &err))
				goto bad;
			o->so.in_buf = o->so.out_buf = x;
			break;
		}
		case 5:
			if (ftsw_sim_policy_parse(v, &o->so.policy, &err))
				goto bad;
			break;
		}
	}
	return 0;
bad:
	cli_err("sim: %s", err.msg);
	return -1;
}

static const char *swname(const struct ftsw_topo *t, uint32_t sw, char *buf,
			  size_t sz)
{
	const char *d = t->nodes[t->switches[sw]].desc;

	if (d && *d)
		return d;
	snprintf(buf, sz, "switch %u", sw);
	return buf;
}

static void print_point(const struct ftsw_routing *r,
			const struct ftsw_sim_result *x, bool links)
{
	const struct ftsw_topo *t = r->topo;
	double *vl = calloc(x->vls, sizeof(double));
	double maxu = 0, sumu = 0;
	uint32_t p, used = 0, nl = 0;
	unsigned v;
	char nb[64];

	ftsw_out_open_object(NULL);
	ftsw_out_float("load", "  %6.3f", x->load);
	ftsw_out_float("offered", " %8.4f", x->offered);
	ftsw_out_float("accepted", " %8.4f", x->accepted);
	ftsw_out_float("msg_latency_avg", " %9.1f", x->msg_lat_avg);
	ftsw_out_float("msg_latency_p50", " %8.0f", x->msg_lat_p50);
	ftsw_out_float("msg_latency_p99", " %8.0f", x->msg_lat_p99);
	ftsw_out_float("pkt_latency_avg", " %9.1f", x->pkt_lat_avg);
	ftsw_out_float("pkt_latency_p50", " %8.0f", x->pkt_lat_p50);
	ftsw_out_float("pkt_latency_p99", " %8.0f", x->pkt_lat_p99);
	ftsw_out_float("net_latency_avg", NULL, x->net_lat_avg);
	ftsw_out_uint("messages_measured", NULL, x->msgs_measured);
	ftsw_out_uint("messages_delivered", NULL, x->msgs_done);
	ftsw_out_uint("cycles", NULL, x->cycles);
	ftsw_out_uint("flit_hops", NULL, x->flit_hops);
	ftsw_out_uint("packets_dropped", NULL, x->pkts_dropped);
	ftsw_out_uint("conservation_checks", NULL, x->samples);
	ftsw_out_float("seconds", " %7.2f", x->seconds);
	ftsw_out_float("cpu_seconds", NULL, x->cpu_seconds);
	ftsw_out_float("flit_hops_per_cpu_s", NULL, x->cpu_seconds > 0 ?
		       x->flit_hops / x->cpu_seconds : 0);
	for (p = 0; p < x->nports; p++) {
		uint64_t tot = 0;
		double u;

		if (t->ports[p].peer == FTSW_NONE)
			continue;
		for (v = 0; v < x->vls; v++) {
			tot += x->link_flits[(size_t)p * x->vls + v];
			vl[v] += x->link_flits[(size_t)p * x->vls + v];
		}
		u = x->window ? (double)tot / x->window : 0;
		nl++;
		used += tot > 0;
		sumu += u;
		if (u > maxu)
			maxu = u;
	}
	ftsw_out_float("link_util_max", " %6.3f", maxu);
	ftsw_out_float("link_util_avg", " %6.3f", nl ? sumu / nl : 0);
	ftsw_out_uint("links_used", NULL, used);
	ftsw_out_open_array("vl_util");
	for (v = 0; v < x->vls; v++)
		ftsw_out_float(NULL, v ? "/%.3f" : " %.3f",
			       nl && x->window ? vl[v] / nl / x->window : 0);
	ftsw_out_close_array();
	if (x->note[0])
		ftsw_out_str("note", "\n      %s", x->note);
	ftsw_out_text("\n");
	if (x->deadlock) {
		unsigned k;

		ftsw_out_uint("deadlock_cycle", "      DEADLOCK at cycle %" PRIu64,
			      x->deadlock_at);
		ftsw_out_text(": %u buffers wait on each other\n", x->ncycle);
		ftsw_out_open_array("deadlock");
		for (k = 0; k < x->ncycle; k++) {
			const struct ftsw_sim_wait *w = &x->cycle[k];

			ftsw_out_open_object(NULL);
			ftsw_out_str("switch", "        %s", swname(t, w->sw, nb,
								    sizeof(nb)));
			ftsw_out_uint("switch_index", NULL, w->sw);
			ftsw_out_uint("in_port", " in port %" PRIu64,
				      w->in_port);
			ftsw_out_uint("vl", " VL %" PRIu64, w->vl);
			ftsw_out_uint("out_port", " -> out port %" PRIu64 "\n",
				      w->out_port);
			ftsw_out_close_object();
		}
		ftsw_out_close_array();
		if (x->ncycle) {
			char why[200];
			int c = ftsw_sim_cycle_check(r, x->cycle, x->ncycle,
						     x->vls, why, sizeof(why));

			ftsw_out_str("cdg_cycle", "      CDG cross-check: %s",
				     c > 0 ? "yes" : c == 0 ? "no" :
				     "not checked");
			ftsw_out_str("cdg_why", " (%s)\n", why);
		}
	}
	if (links) {
		ftsw_out_open_array("links");
		for (p = 0; p < x->nports; p++) {
			uint32_t node;

			if (t->ports[p].peer == FTSW_NONE)
				continue;
			for (node = 0; node + 1 < t->nnodes &&
			     t->nodes[node + 1].first_port <= p; node++)
				;
			ftsw_out_open_object(NULL);
			ftsw_out_str("node", "      %-20s",
				     t->nodes[node].desc ? t->nodes[node].desc :
				     "?");
			ftsw_out_uint("port", " port %-3" PRIu64,
				      p - t->nodes[node].first_port + 1);
			ftsw_out_open_array("vl_util");
			for (v = 0; v < x->vls; v++)
				ftsw_out_float(NULL, " %.3f", x->window ?
					       (double)x->link_flits[(size_t)p *
								     x->vls + v] /
					       x->window : 0);
			ftsw_out_close_array();
			ftsw_out_text("\n");
			ftsw_out_close_object();
		}
		ftsw_out_close_array();
	}
	ftsw_out_close_object();
	free(vl);
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
	struct ftsw_dot_opts d = { .load = u, .max = 1,
				   .hosts = t->nhosts <= 256 };
	struct ftsw_err err;
	char title[256], *dotp = NULL;
	uint32_t p;
	int rc = 0;

	if (!u)
		return -1;
	for (p = 0; p < t->nports; p++) {
		unsigned v;

		for (v = 0; v < x->vls; v++)
			u[p] += x->link_flits[(size_t)p * x->vls + v];
		u[p] = x->window ? u[p] / x->window : 0;
	}
	snprintf(title, sizeof(title), "%s, load %.3f: link utilisation",
		 engine, x->load);
	d.title = title;
	if (o->dot)
		dotp = strdup(o->dot);
	else if (asprintf(&dotp, "%s.dot", o->picture) < 0)
		dotp = NULL;
	if (!dotp || ftsw_dot_write(t, &d, dotp, &err) ||
	    (o->picture && ftsw_dot_render(dotp, o->picture, &err))) {
		cli_err("sim: %s", dotp ? err.msg : "out of memory");
		rc = -1;
	}
	if (!o->dot && dotp)
		unlink(dotp);
	free(dotp);
	free(u);
	return rc;
}

int cmd_sim(int argc, char **argv)
{
	struct sopts o = { .pattern = "uniform", .order = "topo",
			   .load = "0.5" };
	struct ftsw_sim_traffic tr;
	struct ftsw_sim_result *res = NULL;
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	struct ftsw_err err;
	double *loads = NULL;
	size_t n = 0, i, best = 0;
	bool deadlock = false, sat;
	int rc = 0;

	if (argc >= 2 && !strcmp(argv[1], "help")) {
		sim_usage(stdout);
		return 0;
	}
	ftsw_sim_opts_default(&o.so);
	if (sim_parse(argc - 1, argv + 1, &o))
		return 2;
	if (!o.topo || !o.engine == !o.lfts) {
		sim_usage(stderr);
		return 2;
	}
	sat = !strcmp(o.load, "auto");
	if (!sat && ftsw_sim_loads_parse(o.load, &loads, &n, &err)) {
		cli_err("sim: %s", err.msg);
		return 2;
	}
	o.so.progress = isatty(2) && !cli.json;
	o.ro.progress = o.so.progress;
	t = ftsw_topo_open(o.topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		free(loads);
		return 1;
	}
	if (o.engine) {
		/* without --lmc: the smallest LMC the engine accepts */
		r = ftsw_route(o.engine, t, &o.ro, &err);
		while (!r && !o.lmc_given && o.ro.lmc < FTSW_LMC_MAX) {
			struct ftsw_err e2;

			o.ro.lmc++;
			if (ftsw_lid_need(t, o.ro.lmc) > FTSW_LID_MAX)
				o.ro.extended_lids = true;
			r = ftsw_route(o.engine, t, &o.ro, &e2);
		}
	} else {
		r = ftsw_lfts_read(t, o.lfts, o.ro.lmc, &err);
	}
	if (!r) {
		cli_err("%s", err.msg);
		ftsw_topo_free(t);
		free(loads);
		return 1;
	}
	if (ftsw_sim_traffic_make(t, o.pattern, o.order, o.ranks, &tr, &err)) {
		cli_err("sim: %s", err.msg);
		rc = 1;
		goto out_r;
	}
	if (sat) {
		if (ftsw_sim_saturation(r, &tr, &o.so, &res, &n, &best, &err))
			goto fail;
	} else {
		res = calloc(n, sizeof(*res));
		if (!res) {
			ftsw_err_set(&err, "out of memory");
			goto fail;
		}
		if (ftsw_sim_sweep(r, &tr, &o.so, loads, n, res, &err)) {
			free(res);
			res = NULL;
			goto fail;
		}
		for (i = 1; i < n; i++)
			if (res[i].accepted > res[best].accepted)
				best = i;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s", r->engine);
	ftsw_out_str("topology", " on %s", t->spec[0] ? t->spec : o.topo);
	ftsw_out_uint("hosts", " (%" PRIu64 " hosts", t->nhosts);
	ftsw_out_uint("switches", ", %" PRIu64 " switches)", t->nswitches);
	ftsw_out_uint("lmc", ", LMC %" PRIu64, r->lmc);
	ftsw_out_str("path_policy", " (%s)",
		     ftsw_sim_policy_name(o.so.policy));
	ftsw_out_uint("vls", ", %" PRIu64 " VLs", res[0].vls);
	ftsw_out_str("pattern", ", traffic %s", tr.name);
	ftsw_out_str("order", NULL, o.order);
	ftsw_out_text("\n");
	ftsw_out_open_object("model");
	ftsw_out_uint("packet_flits", "  packets of %" PRIu64 " flits",
		      o.so.packet_flits);
	ftsw_out_uint("message_packets", ", messages of %" PRIu64 " packets",
		      o.so.msg_packets);
	ftsw_out_uint("in_buffer", ", buffers %" PRIu64, o.so.in_buf);
	ftsw_out_uint("out_buffer", "+%" PRIu64 " packets per port per VL",
		      o.so.out_buf);
	ftsw_out_uint("link_latency", ", latency link %" PRIu64,
		      o.so.link_latency);
	ftsw_out_uint("router_latency", " router %" PRIu64 " cycles",
		      o.so.router_latency);
	ftsw_out_uint("warmup", o.so.count ? NULL : ", warm-up %" PRIu64,
		      o.so.warmup);
	ftsw_out_uint("measure", o.so.count ? NULL : ", measured %" PRIu64
		      " cycles", o.so.measure);
	ftsw_out_uint("count", o.so.count ? ", %" PRIu64 " messages per flow"
		      : NULL, o.so.count);
	ftsw_out_uint("seed", ", seed %" PRIu64 "\n", o.so.seed);
	ftsw_out_close_object();
	ftsw_out_text("  %6s %8s %8s %9s %8s %8s %9s %8s %8s %7s %6s %6s %s\n",
		      "load", "offered", "accepted", "msg-avg", "msg-p50",
		      "msg-p99", "pkt-avg", "pkt-p50", "pkt-p99", "wall-s",
		      "umax", "uavg", "VL util");
	ftsw_out_open_array("points");
	for (i = 0; i < n; i++) {
		print_point(r, &res[i], o.links);
		deadlock |= res[i].deadlock;
	}
	ftsw_out_close_array();
	if (!deadlock) {
		ftsw_out_float("max_throughput",
			       "  maximum accepted throughput %.4f", res[best].accepted);
		ftsw_out_float("max_throughput_load", " at load %.3f\n",
			       res[best].load);
	}
	if (deadlock) {
		struct ftsw_check_opts co = { .cdg = true, .threads = 0 };
		struct ftsw_check_result cr;

		if (!ftsw_routing_check(r, &co, &cr, &err)) {
			ftsw_out_uint("cdg_cyclic_vls",
				      "  ftsw route check: %" PRIu64
				      " VL(s) with a cyclic CDG\n",
				      cr.cdg_cyclic_vls);
			ftsw_check_result_free(&cr);
		}
	}
	ftsw_out_close_object();
	if (ftsw_out_end())
		rc = 1;
	if (o.plot && plot(o.plot, r->engine, res, n))
		rc = 1;
	if ((o.picture || o.dot) && heatmap(&o, t, &res[best], r->engine))
		rc = 1;
	if (!rc && deadlock)
		rc = 3;
	for (i = 0; i < n; i++)
		ftsw_sim_result_free(&res[i]);
	free(res);
	goto out_tr;
fail:
	cli_err("sim: %s", err.msg);
	rc = 1;
out_tr:
	ftsw_sim_traffic_free(&tr);
out_r:
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	free(loads);
	return rc;
}
