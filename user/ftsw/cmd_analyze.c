// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw analyze: link loads and metrics of a routing under a traffic
 * pattern (Documentation/analysis.md).
 *
 *   ftsw analyze -t TOPO [-a ENGINE | -r LFTS] [-p PATTERN] [OPTIONS]
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/picture.h"
#include "analyze/analyze.h"
#include "cli.h"
#include "util/output.h"
#include "util/parse.h"

enum {
	A_TOPO, A_ENGINE, A_LFTS, A_LMC, A_SEED, A_EXT_LIDS, A_PATHS,
	A_THREADS, A_MAX_VLS, A_PATTERN, A_ORDER, A_RANKS, A_SAMPLES,
	A_ORDERS, A_OBLIVIOUS, A_TRACE, A_BUNDLE, A_STAGES, A_DOT, A_PICTURE,
	A_NO_HOSTS, A_ADAPTIVE, A_GROUPS, A_N
};

static const struct cli_opt analyze_opts[A_N + 1] = {
	[A_TOPO] = CLI_OPT_TOPO_REQUIRED,
	[A_ENGINE] = CLI_OPT_ENGINE,
	[A_LFTS] = { "-r", "--lfts", CLI_FILE, "LFTS",
		     .help = "read an OpenSM LFT dump instead of routing" },
	[A_LMC] = CLI_OPT_LMC,
	[A_SEED] = CLI_OPT_SEED,
	[A_EXT_LIDS] = CLI_OPT_EXTENDED_LIDS,
	[A_PATHS] = CLI_OPT_PATHS,
	[A_THREADS] = CLI_OPT_THREADS,
	[A_MAX_VLS] = CLI_OPT_MAX_VLS,
	[A_PATTERN] = CLI_OPT_PATTERN,
	[A_ORDER] = CLI_OPT_ORDER,
	[A_RANKS] = CLI_OPT_RANKS,
	[A_SAMPLES] = { "--samples", NULL, CLI_NUM, "N", 1, 1u << 24,
			.help = "random patterns: exactly N samples" },
	[A_ORDERS] = { "--orders", NULL, CLI_NUM, "K", 1, 1u << 20,
		       .help = "hot-spot degree over K random node orders" },
	[A_OBLIVIOUS] = { "--oblivious", NULL, CLI_FLAG,
			  .help = "exact oblivious performance ratio" },
	[A_TRACE] = { "--trace", NULL, CLI_STR, "S:D[:O]",
		      .help = "the path of host S to host D (offset O)" },
	[A_BUNDLE] = { "--bundle", NULL, CLI_FLAG,
		       .help = "hot-spot degree per switch pair" },
	[A_STAGES] = { "--stages", NULL, CLI_FLAG,
		       .help = "list every stage" },
	[A_DOT] = { "--dot", NULL, CLI_FILE, "FILE",
		    .help = "Graphviz picture of the worst stage's loads" },
	[A_PICTURE] = { "--picture", NULL, CLI_FILE, "F.svg",
			.help = "render it with dot(1) (.svg, .png, .pdf)" },
	[A_NO_HOSTS] = { "--no-hosts", NULL, CLI_FLAG,
			 .help = "leave hosts out of the picture" },
	[A_ADAPTIVE] = CLI_OPT_ADAPTIVE,
	[A_GROUPS] = CLI_OPT_GROUPS,
};

static const char analyze_notes[] =
"PATTERN (default perm): perm[:SEED] shift[:S] ring dissemination\n"
"  tournament binomial binomial-gather recdbl rechalv topo-recdbl a2a\n"
"  uniform:P[:SEED] cluster:G[:SEED] bisect[:SEED] file:PATH\n"
"ORDER (default topo): topo, random[:SEED], shuffle[:SEED] (first N\n"
"  hosts, ranks shuffled), contig-random[:SEED], file:PATH\n"
"Without --lmc the engine gets the smallest LMC it accepts (past 0xBFFF\n"
"LIDs with extended LIDs: analysis only). Random patterns without\n"
"--samples: 1000 samples, doubled until the 99% CI is within 1% of the\n"
"mean. --orders averages over random orders (or shuffles with --order\n"
"shuffle). --bundle sums parallel links. Documentation/analysis.md.\n";

struct aopts {
	const char *topo, *pattern, *order, *dot, *picture;
	const char *trace;
	struct ftsw_route_req q;
	uint32_t ranks;
	uint64_t samples, orders;
	bool oblivious, stages, no_hosts, bundle;
	ftsw_progress_fn progress;	/* cli_progress on a terminal */
};

static void take_opts(const struct cli_args *a, struct aopts *o)
{
	const struct cli_val *v = a->v;

	o->topo = v[A_TOPO].s;
	o->pattern = v[A_PATTERN].n ? v[A_PATTERN].s : "perm";
	o->order = v[A_ORDER].n ? v[A_ORDER].s : "topo";
	o->dot = v[A_DOT].s;
	o->picture = v[A_PICTURE].s;
	o->trace = v[A_TRACE].s;
	cli_route_req(a, &o->q);
	o->q.extend_lids = true;
	o->ranks = (uint32_t)v[A_RANKS].u;
	o->samples = v[A_SAMPLES].u;
	o->orders = v[A_ORDERS].u;
	o->oblivious = v[A_OBLIVIOUS].n;
	o->bundle = v[A_BUNDLE].n;
	o->stages = v[A_STAGES].n;
	o->no_hosts = v[A_NO_HOSTS].n;
}

/* ---------------------------------------------------------- random runs */

/* What the metrics are, under the report (text only). */
static void metrics_legend(bool ebb)
{
	if (ebb) {
		ftsw_out_text("  effective bisection bandwidth: the mean over "
			      "flows of 1 / (most flows on a link of its\n  "
			      "path), 1 = every flow at full rate (Domke et al. "
			      "2011); Documentation/analysis.md, \"Metrics\"\n");
		return;
	}
	ftsw_out_text("  units: a flow of amount 1 fills a link (each host of a "
		      "permutation sends 1).\n  MLOAD: the busiest directed "
		      "link's load; OLOAD: the least MLOAD any routing\n  can "
		      "reach for the traffic (ML(TM), Mahapatra et al. 2012 "
		      "§4.1; baseload,\n  the busiest host link, where "
		      "not exact); PERF = MLOAD / OLOAD, 1 = optimal\n  (Yuan "
		      "et al. 2007 §4); hot-spot degree: the most flows "
		      "on a link (Zahavi 2011).\n  Documentation/analysis.md, "
		      "\"Metrics\"\n");
}

static int run_random(const struct ftsw_routing *r, const struct aopts *o,
		      uint32_t ranks)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_random_opts ro = { .pattern = o->pattern,
				       .order = o->order, .ranks = ranks,
				       .samples = o->samples,
				       .progress = o->progress };
	struct ftsw_random_metrics rm;
	struct ftsw_sampled sm;
	int rc;
	const char *metric;
	struct ftsw_err err;
	const char *kind;

	rc = ftsw_analyze_random(r, &ro, &rm, &err);
	if (rc) {
		cli_err("analyze: %s", err.msg);
		return rc == -EINVAL ? 2 : 1;
	}
	sm = rm.s;
	kind = rm.kind;
	metric = rm.ebb ? "effective bisection bandwidth" : "max link load";
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s on ", r->engine);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts, ", t->nhosts);
	ftsw_out_str("pattern", "%s", kind);
	ftsw_out_uint("ranks", " (%" PRIu64 " ranks)", ranks);
	ftsw_out_str("order", ", order %s", o->order);
	ftsw_out_str("metric", NULL, rm.ebb ? "ebb" : "mload");
	ftsw_out_uint("samples", ", %" PRIu64 " samples\n", sm.samples);
	ftsw_out_text("  %s: ", metric);
	ftsw_out_float("mean", "mean %.4f", sm.mean);
	ftsw_out_float("ci99", " ± %.4f (99%% CI)", sm.half);
	ftsw_out_float("min", ", min %.4f", sm.min);
	ftsw_out_float("max", ", max %.4f\n", sm.max);
	if (!rm.ebb) {
		ftsw_out_float("avg_baseload", "  avg baseload %.4f",
			       rm.avg_baseload);
		ftsw_out_float("avg_oload", ", avg OLOAD %.4f", rm.avg_oload);
		ftsw_out_bool("oload_exact", NULL, rm.oload_exact);
		ftsw_out_text(" (%s)", rm.oload_exact ? "ML(TM), exact" :
			      "baseload, lower bound");
		ftsw_out_float("avg_perf", ", avg PERF %.4f\n", rm.avg_perf);
	}
	if (r->ar && !rm.ebb) {
		/* the static part of adaptive routing: even splits */
		ro.adaptive_split = true;
		ro.samples = sm.samples;
		rc = ftsw_analyze_random(r, &ro, &rm, &err);
		if (rc) {
			cli_err("analyze: %s", err.msg);
			return 1;
		}
		ftsw_out_open_object("adaptive");
		ftsw_out_uint("entries", "  adaptive groups (%" PRIu64
			      " entries), each path split evenly over its "
			      "allowed ports: ", r->ar->entries);
		ftsw_out_float("mean", "max link load mean %.4f", rm.s.mean);
		ftsw_out_float("ci99", " ± %.4f", rm.s.half);
		ftsw_out_float("max", ", max %.4f", rm.s.max);
		ftsw_out_float("avg_perf", ", avg PERF %.4f\n", rm.avg_perf);
		ftsw_out_close_object();
	}
	metrics_legend(rm.ebb);
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

/* ----------------------------------------------------------- trace */

static int run_trace(const struct ftsw_routing *r, const char *spec)
{
	const struct ftsw_topo *t = r->topo;
	uint64_t off = FTSW_OFFSET_ANY;
	uint32_t s, d;
	struct ftsw_err err;
	struct ftsw_path p;
	char buf[256], *c1, *c2;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", spec);
	c1 = strchr(buf, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (c1)
		*c1 = 0;
	if (c2)
		*c2 = 0;
	if (!c1 || strlen(spec) >= sizeof(buf)) {
		cli_err("analyze: --trace '%s': expected SRC:DST[:OFFSET] (hosts "
			"as h0..h%u, numbers or node names)", spec,
			t->nhosts - 1);
		return 2;
	}
	/* hosts as ftsw prints them (H0, h0), numbers or node names */
	if (ftsw_topo_find_host(t, buf, &s, &err) ||
	    ftsw_topo_find_host(t, c1 + 1, &d, &err) ||
	    (c2 && ftsw_parse_u64("OFFSET", c2 + 1, 0, (1u << r->lmc) - 1,
				  &off, &err))) {
		cli_err("analyze: --trace '%s': %s", spec, err.msg);
		return 2;
	}
	ftsw_trace_path(r, (uint32_t)s, (uint32_t)d, (unsigned)off, 0, &p);
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("src", "host %" PRIu64, s);
	ftsw_out_uint("dst", " -> host %" PRIu64, d);
	ftsw_out_str("src_name", " (%s", t->nodes[t->hosts[s]].desc ?
		     t->nodes[t->hosts[s]].desc : "?");
	ftsw_out_str("dst_name", " -> %s)", t->nodes[t->hosts[d]].desc ?
		     t->nodes[t->hosts[d]].desc : "?");
	ftsw_out_uint("dlid", ": DLID %" PRIu64, p.dlid);
	ftsw_out_uint("offset", " (offset %" PRIu64 ")", p.offset);
	ftsw_out_uint("sl", ", SL %" PRIu64, p.sl);
	ftsw_out_str("status", ": %s\n", ftsw_trace_status_str(p.status));
	ftsw_out_open_array("hops");
	for (i = 0; i < p.nhops; i++) {
		const char *desc = t->nodes[t->switches[p.hops[i].sw]].desc;

		ftsw_out_open_object(NULL);
		ftsw_out_uint(NULL, "  %2" PRIu64, i);
		ftsw_out_uint("switch", "  switch %" PRIu64, p.hops[i].sw);
		ftsw_out_str("name", " (%s)", desc ? desc : cli.json ? "" : "?");
		ftsw_out_uint("port", " port %" PRIu64 "\n", p.hops[i].port);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	if (ftsw_out_end())
		return 1;
	return p.status ? 1 : 0;
}

/* ---------------------------------------------------------- oblivious */

static int run_oblivious(const struct ftsw_routing *r,
			 ftsw_progress_fn progress)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_oblivious ob;
	struct ftsw_err err;
	uint32_t i, node = FTSW_NONE, port = 0;

	if (ftsw_oblivious_ratio(r, progress, NULL, &ob, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (ob.link != FTSW_NONE) {
		for (node = 0; node + 1 < t->nnodes &&
		     t->nodes[node + 1].first_port <= ob.link; node++)
			;
		port = ob.link - t->nodes[node].first_port + 1;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s on ", r->engine);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts", t->nhosts);
	ftsw_out_uint("lmc", " (LMC %" PRIu64, r->lmc);
	ftsw_out_bool("multipath", NULL, ob.multipath);
	ftsw_out_text(", %s): oblivious performance ratio %s ",
		      ob.multipath ? "multipath" : "single path",
		      ob.exact ? "=" : "<=");
	ftsw_out_float("oblivious_ratio", "%.4f", ob.ratio);
	ftsw_out_bool("exact", NULL, ob.exact);
	ftsw_out_float("seconds", " (%.2f s)\n", ob.seconds);
	ftsw_out_str("why", "  %s\n", ob.why);
	if (node != FTSW_NONE) {
		const char *desc = t->nodes[node].desc;

		ftsw_out_open_object("link");
		ftsw_out_str("node", "  attained on link %s", desc ? desc :
			     cli.json ? "" : "?");
		ftsw_out_uint("port", " port %" PRIu64, port);
		ftsw_out_close_object();
		ftsw_out_uint(NULL, " by the traffic matrix of %" PRIu64
			      " unit flows:", ob.nwitness);
		ftsw_out_open_array("witness");
		for (i = 0; i < ob.nwitness; i++) {
			if (!cli.json && i >= 16)
				break;
			ftsw_out_open_array(NULL);
			ftsw_out_uint(NULL, " %" PRIu64, ob.witness_src[i]);
			ftsw_out_uint(NULL, "->%" PRIu64, ob.witness_dst[i]);
			ftsw_out_close_array();
		}
		ftsw_out_close_array();
		ftsw_out_text("%s\n", ob.nwitness > 16 ? " ..." : "");
	}
	ftsw_out_close_object();
	if (ftsw_out_end()) {
		ftsw_oblivious_free(&ob);
		return 1;
	}
	ftsw_oblivious_free(&ob);
	return 0;
}

/* ------------------------------------------------------ staged patterns */

static void print_stage(const struct ftsw_stage_metrics *sm)
{
	ftsw_out_open_object(NULL);
	ftsw_out_str("stage", "  %-10s", sm->name);
	ftsw_out_uint("flows", " %8" PRIu64, sm->flows);
	ftsw_out_float("mload", " %10.4g", sm->mload);
	ftsw_out_float("baseload", " %10.4g", sm->baseload);
	ftsw_out_float("oload", " %10.4g", sm->oload);
	ftsw_out_float("perf", " %8.4f\n", sm->perf);
	ftsw_out_close_object();
}

static void print_levels(const struct ftsw_topo *t, const double *worst)
{
	struct ftsw_level_stat ls[FTSW_MAX_LEVEL_STATS];
	unsigned k, nls = ftsw_level_stats(t, worst, ls, FTSW_MAX_LEVEL_STATS);

	ftsw_out_text("  links of the worst stage by level:\n"
		      "    %-9s %7s %7s %10s %10s\n", "level", "links", "used",
		      "max", "avg");
	ftsw_out_open_array("levels");
	for (k = 0; k < nls; k++) {
		char lv[24];

		snprintf(lv, sizeof(lv), "%d->%d", ls[k].from_level,
			 ls[k].to_level);
		ftsw_out_open_object(NULL);
		ftsw_out_int("from", NULL, ls[k].from_level);
		ftsw_out_int("to", NULL, ls[k].to_level);
		ftsw_out_str(NULL, "    %-9s", lv);
		ftsw_out_uint("links", " %7" PRIu64, ls[k].links);
		ftsw_out_uint("used", " %7" PRIu64, ls[k].used);
		ftsw_out_float("max", " %10.4g", ls[k].max);
		ftsw_out_float("avg", " %10.4g\n", ls[k].links ?
			       ls[k].sum / ls[k].links : 0);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

static void print_pattern_metrics(const struct ftsw_routing *r,
				  const struct ftsw_pattern *p,
				  const struct ftsw_pattern_metrics *m,
				  double seconds)
{
	const struct ftsw_load_result *tot = &m->total;
	const char *worst = m->nstages ? p->stage_names[m->worst_stage] : "";
	struct ftsw_table_stats ts;
	char key[16];
	unsigned k;

	ftsw_out_float("hot_spot_degree", "  hot-spot degree (avg over stages "
		       "of max flows per link): %.4f", m->hot_spot_degree);
	ftsw_out_str("worst_stage", ", worst stage %s", m->nstages ? worst :
		     "-");
	ftsw_out_float("max_mload", " with MLOAD %.4g\n", m->max_mload);
	ftsw_out_float("avg_perf", "  PERF = MLOAD / OLOAD: avg %.4f",
		       m->avg_perf);
	ftsw_out_float("max_perf", ", max %.4f", m->max_perf);
	ftsw_out_bool("oload_exact", NULL, m->oload_exact);
	ftsw_out_text(" (OLOAD %s)\n", m->oload_exact ? "= ML(TM), exact" :
		      "= baseload, a lower bound: PERF is an upper bound");
	ftsw_out_uint("paths", "  paths %" PRIu64, tot->flows);
	ftsw_out_uint("undelivered", ", undelivered %" PRIu64, tot->failed);
	ftsw_out_text("%s%s\n", tot->failed ? ", first: " : "",
		      tot->failed ? tot->first_failure : "");
	print_levels(r->topo, m->worst_load);
	ftsw_out_text("  path length (switches):");
	ftsw_out_open_object("path_switches");
	for (k = 0; k < FTSW_HOP_LIMIT + 2; k++) {
		if (!tot->path_hist[k])
			continue;
		snprintf(key, sizeof(key), "%u", k);
		ftsw_out_uint(key, NULL, tot->path_hist[k]);
		ftsw_out_text(" %u:%" PRIu64, k, tot->path_hist[k]);
	}
	ftsw_out_close_object();
	ftsw_table_stats(r, &ts);
	ftsw_out_open_object("lft");
	ftsw_out_uint("switches", "\n  LFTs: %" PRIu64 " switches",
		      r->nswitches);
	ftsw_out_uint("entries", NULL, ts.total_entries);
	ftsw_out_uint(NULL, " x %" PRIu64 " entries", r->lft_size);
	ftsw_out_uint("used", NULL, ts.used_entries);
	ftsw_out_uint("min_used", ", used per switch %" PRIu64, ts.min_used);
	ftsw_out_uint("max_used", "..%" PRIu64, ts.max_used);
	ftsw_out_close_object();
	ftsw_out_float("seconds", " (%.2f s)\n", seconds);
	metrics_legend(false);
}

/*
 * Adaptive groups, the static part: every path split evenly over its
 * allowed ports at each switch (what an adaptive fabric can spread at
 * best without feedback), and the group paths per path.
 */
static int print_adaptive(const struct ftsw_routing *r, const struct aopts *o,
			  uint32_t ranks, const uint32_t *order)
{
	struct ftsw_load_opts lo = { .adaptive_split = true };
	struct ftsw_analyze_opts ao = { .bundle = o->bundle, .load = &lo };
	struct ftsw_pattern_metrics m;
	struct ftsw_pattern p;
	struct ftsw_err err;
	int rc;

	rc = ftsw_pattern_make(o->pattern, ranks, r->topo, &p, &err);
	if (rc || ftsw_analyze_pattern(r, &p, order, &ao, &m, &err)) {
		cli_err("%s", err.msg);
		if (!rc)
			ftsw_pattern_free(&p);
		return rc == -EINVAL ? 2 : 1;
	}
	ftsw_out_open_object("adaptive");
	ftsw_out_uint("entries", "  adaptive groups (%" PRIu64 " entries), "
		      "each path split evenly over its allowed ports:",
		      r->ar->entries);
	ftsw_out_float("hot_spot_degree", " hot-spot degree %.4f",
		       m.hot_spot_degree);
	ftsw_out_float("max_mload", ", max MLOAD %.4g", m.max_mload);
	ftsw_out_float("avg_perf", ", PERF avg %.4f", m.avg_perf);
	ftsw_out_float("max_perf", ", max %.4f", m.max_perf);
	ftsw_out_float("paths_per_path", "; group paths per path: avg %.2f",
		       m.total.delivered ? (double)m.total.ar_paths /
		       (double)m.total.delivered : 0);
	ftsw_out_uint("paths_per_path_max", ", max %" PRIu64 "\n",
		      m.total.ar_paths_max);
	ftsw_out_close_object();
	ftsw_pattern_metrics_free(&m);
	ftsw_pattern_free(&p);
	return 0;
}

static int write_picture(const struct ftsw_routing *r, const struct aopts *o,
			 const struct ftsw_pattern *p,
			 const struct ftsw_pattern_metrics *m)
{
	struct ftsw_picture pic = { .t = r->topo, .load = m->worst_load,
				    .unit = "flows", .labels = -1,
				    .hosts = o->no_hosts ? 0 : -1 };
	struct ftsw_err err;
	char title[256];

	snprintf(title, sizeof(title), "%s, %s, stage %s: max load %.3g",
		 r->engine, o->pattern,
		 m->nstages ? p->stage_names[m->worst_stage] : "-",
		 m->max_mload);
	pic.title = title;
	if (ftsw_picture_write(&pic, o->dot, o->picture, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	return 0;
}

static int run_stages(const struct ftsw_routing *r, const struct aopts *o,
		      uint32_t ranks, const uint32_t *order)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_analyze_opts ao = { .bundle = o->bundle,
					.progress = o->progress };
	struct ftsw_pattern_metrics m;
	struct ftsw_pattern p;
	struct ftsw_err err;
	uint64_t t0 = ftsw_now_us();
	unsigned s, nstages;
	int rc = 0;

	rc = ftsw_pattern_make(o->pattern, ranks, t, &p, &err);
	if (rc) {
		cli_err("%s", err.msg);
		return rc == -EINVAL ? 2 : 1;
	}
	nstages = p.nstages;
	if (ftsw_analyze_pattern(r, &p, order, &ao, &m, &err)) {
		cli_err("%s", err.msg);
		ftsw_pattern_free(&p);
		return 1;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s on ", r->engine);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts", t->nhosts);
	ftsw_out_uint("ranks", NULL, ranks);
	ftsw_out_uint("lmc", NULL, r->lmc);
	ftsw_out_str("pattern", ", pattern %s", o->pattern);
	ftsw_out_uint(NULL, " (%" PRIu64 " ranks", ranks);
	ftsw_out_uint(NULL, ", %" PRIu64, nstages);
	ftsw_out_text(" stage%s)", nstages == 1 ? "" : "s");
	ftsw_out_str("order", ", order %s\n", o->order);
	if (o->stages)
		ftsw_out_text("  %-10s %8s %10s %10s %10s %8s\n", "stage",
			      "flows", "MLOAD", "baseload", "OLOAD", "PERF");
	ftsw_out_open_array("stages");
	for (s = 0; s < m.nstages; s++)
		if (o->stages || (cli.json && m.nstages <= 64))
			print_stage(&m.stages[s]);
	ftsw_out_close_array();
	print_pattern_metrics(r, &p, &m, cli_seconds_since(t0));
	if (r->ar && print_adaptive(r, o, ranks, order))
		rc = 1;
	ftsw_out_close_object();
	if (ftsw_out_end())
		rc = 1;
	if (m.total.failed)
		rc = 1;
	if ((o->dot || o->picture) && write_picture(r, o, &p, &m))
		rc = 1;
	ftsw_pattern_metrics_free(&m);
	ftsw_pattern_free(&p);
	return rc;
}

/* Hot-spot degree over K random node orders (paper 003 §II, Table 3). */
static int run_orders(const struct ftsw_routing *r, const struct aopts *o,
		      uint32_t ranks)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t *order = malloc(t->nhosts * sizeof(*order));
	struct ftsw_pattern p;
	struct ftsw_err err;
	double sum = 0, mn = INFINITY, mx = 0;
	uint64_t k, seed0 = 1;
	const char *c = strchr(o->order, ':');
	int rc;

	if (c && ftsw_parse_u64("--order SEED", c + 1, 0, UINT64_MAX, &seed0,
				&err)) {
		cli_err("analyze: %s", err.msg);
		free(order);
		return 2;
	}
	rc = order ? ftsw_pattern_make(o->pattern, ranks, t, &p, &err) :
		     -ENOMEM;
	if (rc) {
		cli_err("%s", order ? err.msg : "out of memory");
		free(order);
		return rc == -EINVAL ? 2 : 1;
	}
	for (k = 0; k < o->orders; k++) {
		struct ftsw_hsd h;
		char os[64];

		snprintf(os, sizeof(os), "%s:%llu",
			 strncmp(o->order, "shuffle", 7) ? "random" : "shuffle",
			 (unsigned long long)(seed0 + k));
		if (ftsw_order_make(os, t, ranks, order, &err) ||
		    ftsw_hot_spot(r, &p, order, o->bundle, &h, &err)) {
			cli_err("%s", err.msg);
			ftsw_pattern_free(&p);
			free(order);
			return 1;
		}
		sum += h.avg;
		if (h.avg < mn)
			mn = h.avg;
		if (h.avg > mx)
			mx = h.avg;
		free(h.per_stage);
		if (o->progress)
			o->progress("order", k + 1, o->orders, NULL);
	}
	if (o->progress)
		o->progress(NULL, 0, 0, NULL);
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("engine", "%s on ", r->engine);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts, ", t->nhosts);
	ftsw_out_str("pattern", "%s", o->pattern);
	ftsw_out_uint("ranks", " (%" PRIu64 " ranks", ranks);
	ftsw_out_uint(NULL, ", %" PRIu64, p.nstages);
	ftsw_out_text(" stage%s): ", p.nstages == 1 ? "" : "s");
	ftsw_out_uint("orders", "hot-spot degree over %" PRIu64
		      " random orders: ", o->orders);
	ftsw_out_float("avg_hsd", "avg %.4f", sum / o->orders);
	ftsw_out_float("min_hsd", " (min %.4f", mn);
	ftsw_out_float("max_hsd", ", max %.4f)\n", mx);
	ftsw_out_close_object();
	rc = ftsw_out_end() ? 1 : 0;
	ftsw_pattern_free(&p);
	free(order);
	return rc;
}

/* The routing: the engine at the LMC asked for or the smallest it takes. */
static struct ftsw_routing *analyze_routing(const struct ftsw_topo *t,
					    const struct aopts *o,
					    struct ftsw_err *err)
{
	struct ftsw_routing *r = ftsw_route_make(t, &o->q, err);

	if (r && !o->q.lfts && !o->q.lmc_given && r->max_lid > FTSW_LID_MAX &&
	    !o->q.o.extended_lids && !cli.json)
		fprintf(stderr, "ftsw: note: LMC %u needs LIDs past 0xBFFF "
			"(extended LIDs, analysis only)\n", r->lmc);
	if (r)
		cli_route_warning(r);
	return r;
}

static int analyze_run(struct aopts *o)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	struct ftsw_err err;
	uint32_t *order = NULL, ranks;
	int rc;

	if (o->q.engine && o->q.lfts) {
		cli_err("analyze: -a ENGINE and -r LFTS exclude each other");
		return 2;
	}
	o->progress = isatty(2) && !cli.json ? cli_progress : NULL;
	t = ftsw_topo_open(o->topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	r = analyze_routing(t, o, &err);
	if (!r) {
		cli_err("%s", err.msg);
		ftsw_topo_free(t);
		return 1;
	}
	ranks = o->ranks ? o->ranks : t->nhosts;
	if (ranks > t->nhosts || ranks < 2) {
		cli_err("analyze: --ranks %u: must be 2..%u", ranks, t->nhosts);
		rc = 2;
		goto out;
	}
	if (o->trace) {
		rc = run_trace(r, o->trace);
	} else if (o->oblivious) {
		rc = run_oblivious(r, o->progress);
	} else if (o->orders) {
		rc = run_orders(r, o, ranks);
	} else if (ftsw_pattern_is_random(o->pattern) && !o->dot &&
		   !o->picture && !o->stages) {
		/* sampled; with a picture or --stages: the one seeded instance */
		rc = run_random(r, o, ranks);
	} else {
		order = malloc(t->nhosts * sizeof(*order));
		if (!order || ftsw_order_make(o->order, t, ranks, order, &err)) {
			cli_err("%s", order ? err.msg : "out of memory");
			rc = 1;
			goto out;
		}
		rc = run_stages(r, o, ranks, order);
	}
out:
	free(order);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	return rc;
}

static int analyze_cmd(const struct cli_args *a)
{
	struct aopts o = { 0 };

	take_opts(a, &o);
	return analyze_run(&o);
}

const struct cli_cmd cli_cmds_analyze[] = {
	{ "", "-t TOPO [-a ENGINE | -r LFTS] [-p PATTERN] [OPTIONS]",
	  "link loads and metrics of a routing under traffic",
	  .opts = analyze_opts, .notes = analyze_notes, .run = analyze_cmd },
	{ NULL }
};
