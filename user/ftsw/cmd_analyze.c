// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw analyze: link loads and metrics of a routing under a traffic
 * pattern (Documentation/analysis.md).
 *
 *   ftsw analyze -t TOPO (-a ENGINE | -r LFTS) [-p PATTERN] [OPTIONS]
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "cli.h"

enum {
	A_TOPO, A_ENGINE, A_LFTS, A_LMC, A_SEED, A_EXT_LIDS, A_PATHS,
	A_THREADS, A_MAX_VLS, A_PATTERN, A_ORDER, A_RANKS, A_SAMPLES,
	A_ORDERS, A_OBLIVIOUS, A_TRACE, A_BUNDLE, A_STAGES, A_DOT, A_PICTURE,
	A_NO_HOSTS, A_N
};

static const struct cli_opt analyze_opts[A_N + 1] = {
	[A_TOPO] = { "-t", "--topo", CLI_TOPO, "TOPO", .required = true,
		     .help = "a net file or a generator spec (ftmn:8,2, "
			     "pgft:...)" },
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

const struct cli_cmd cli_cmds_analyze[] = {
	{ "", "-t TOPO (-a ENGINE | -r LFTS) [-p PATTERN] [OPTIONS]",
	  "link loads and metrics of a routing under traffic",
	  .opts = analyze_opts, .notes = analyze_notes },
	{ NULL }
};

struct aopts {
	const char *topo, *engine, *lfts, *pattern, *order, *dot, *picture;
	const char *trace;
	struct ftsw_route_opts ro;
	uint32_t ranks;
	uint64_t samples, orders;
	bool oblivious, stages, no_hosts, progress, lmc_given, bundle;
};

static void take_opts(const struct cli_args *a, struct aopts *o)
{
	const struct cli_val *v = a->v;

	o->topo = v[A_TOPO].s;
	o->engine = v[A_ENGINE].s;
	o->lfts = v[A_LFTS].s;
	o->pattern = v[A_PATTERN].n ? v[A_PATTERN].s : "perm";
	o->order = v[A_ORDER].n ? v[A_ORDER].s : "topo";
	o->dot = v[A_DOT].s;
	o->picture = v[A_PICTURE].s;
	o->trace = v[A_TRACE].s;
	o->ro.lmc = (unsigned)v[A_LMC].u;
	o->lmc_given = v[A_LMC].n;
	o->ro.seed = v[A_SEED].u;
	o->ro.extended_lids = v[A_EXT_LIDS].n;
	o->ro.paths = (unsigned)v[A_PATHS].u;
	o->ro.threads = (unsigned)v[A_THREADS].u;
	o->ro.max_vls = (unsigned)v[A_MAX_VLS].u;
	o->ranks = (uint32_t)v[A_RANKS].u;
	o->samples = v[A_SAMPLES].u;
	o->orders = v[A_ORDERS].u;
	o->oblivious = v[A_OBLIVIOUS].n;
	o->bundle = v[A_BUNDLE].n;
	o->stages = v[A_STAGES].n;
	o->no_hosts = v[A_NO_HOSTS].n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* ---------------------------------------------------------- random runs */

struct sample_ctx {
	const struct ftsw_routing *r;
	const char *kind;	/* pattern spec without seed */
	const char *order;
	uint32_t ranks;
	uint64_t seed0;
	double *load, *flows;
	double perf_sum, ebb_sum, base_sum, ml_sum;
	bool exact, ebb;
	int failed;
	struct ftsw_err err;
};

static double one_sample(uint64_t i, void *arg)
{
	struct sample_ctx *c = arg;
	const struct ftsw_topo *t = c->r->topo;
	struct ftsw_pattern p;
	struct ftsw_load_result res;
	char spec[160];
	uint32_t *order = malloc(t->nhosts * sizeof(*order));
	double m = NAN, ml;
	bool exact;

	/* spec:...:SEED with a seed per sample */
	snprintf(spec, sizeof(spec), "%s:%llu", c->kind,
		 (unsigned long long)(c->seed0 + i));
	if (!order || ftsw_pattern_make(spec, c->ranks, t, &p, &c->err)) {
		c->failed = 1;
		free(order);
		return NAN;
	}
	if (!strncmp(c->order, "random", 6)) {
		char os[64];

		snprintf(os, sizeof(os), "random:%llu",
			 (unsigned long long)(c->seed0 + 7919 * (i + 1)));
		ftsw_order_make(os, t, c->ranks, order, &c->err);
	} else if (ftsw_order_make(c->order, t, c->ranks, order, &c->err)) {
		c->failed = 1;
	}
	if (!c->failed) {
		ftsw_tm_apply_order(&p.stages[0], order, t->nhosts);
		if (c->ebb) {
			m = ftsw_ebb(c->r, &p.stages[0], c->flows);
		} else if (!ftsw_link_loads(c->r, &p.stages[0], NULL, c->load,
					    NULL, &res, &c->err)) {
			m = ftsw_max_load(t, c->load, false, NULL);
			ml = ftsw_ml_bound(t, &p.stages[0], &exact);
			c->exact = exact;
			c->ml_sum += ml;
			c->base_sum += ftsw_baseload(&p.stages[0]);
			c->perf_sum += ml > 0 ? m / ml : 1;
		} else {
			c->failed = 1;
		}
	}
	ftsw_pattern_free(&p);
	free(order);
	return m;
}

static int run_random(const struct ftsw_routing *r, const struct aopts *o,
		      uint32_t ranks)
{
	const struct ftsw_topo *t = r->topo;
	struct sample_ctx c = { .r = r, .order = o->order, .ranks = ranks };
	struct ftsw_sample_opts so = { .rel = 0.01, .progress = o->progress };
	struct ftsw_sampled sm;
	char kind[128], *colon;
	const char *metric;

	/* split the seed off: perm[:SEED], uniform:P[:SEED], ... */
	snprintf(kind, sizeof(kind), "%s", o->pattern);
	colon = strrchr(kind, ':');
	c.seed0 = 1;
	if ((!strncmp(kind, "perm", 4) || !strncmp(kind, "bisect", 6)) && colon) {
		c.seed0 = strtoull(colon + 1, NULL, 0);
		*colon = 0;
	} else if (colon && strchr(kind, ':') != colon) {
		c.seed0 = strtoull(colon + 1, NULL, 0);
		*colon = 0;
	}
	c.kind = kind;
	c.ebb = !strncmp(kind, "bisect", 6);
	c.load = malloc(t->nports * sizeof(double));
	c.flows = malloc(t->nports * sizeof(double));
	if (!c.load || !c.flows) {
		cli_err("out of memory");
		return 1;
	}
	if (o->samples) {
		so.first = so.max = o->samples;
	} else {
		so.first = 1000;
		so.max = 1u << 17;
	}
	ftsw_sample(&so, one_sample, &c, &sm);
	free(c.load);
	free(c.flows);
	if (c.failed) {
		cli_err("%s", c.err.msg);
		return 1;
	}
	metric = c.ebb ? "effective bisection bandwidth" : "max link load";
	if (cli.json) {
		printf("{\"engine\":\"%s\",\"hosts\":%u,\"ranks\":%u,"
		       "\"pattern\":\"%s\",\"order\":\"%s\",\"metric\":\"%s\","
		       "\"samples\":%" PRIu64 ",\"mean\":%.6g,\"ci99\":%.6g,"
		       "\"min\":%.6g,\"max\":%.6g",
		       r->engine, t->nhosts, ranks, kind, o->order,
		       c.ebb ? "ebb" : "mload", sm.samples, sm.mean, sm.half,
		       sm.min, sm.max);
		if (!c.ebb)
			printf(",\"avg_baseload\":%.6g,\"avg_oload\":%.6g,"
			       "\"oload_exact\":%s,\"avg_perf\":%.6g",
			       c.base_sum / sm.samples, c.ml_sum / sm.samples,
			       c.exact ? "true" : "false",
			       c.perf_sum / sm.samples);
		printf("}\n");
	} else {
		printf("%s on %u hosts, %s (%u ranks), order %s, %" PRIu64
		       " samples\n", r->engine, t->nhosts, kind, ranks,
		       o->order, sm.samples);
		printf("  %s: mean %.4f ± %.4f (99%% CI), min %.4f, max %.4f\n",
		       metric, sm.mean, sm.half, sm.min, sm.max);
		if (!c.ebb)
			printf("  avg baseload %.4f, avg OLOAD %.4f (%s), avg "
			       "PERF %.4f\n", c.base_sum / sm.samples,
			       c.ml_sum / sm.samples,
			       c.exact ? "ML(TM), exact" : "baseload, lower bound",
			       c.perf_sum / sm.samples);
	}
	return 0;
}

/* ----------------------------------------------------------- trace */

static int run_trace(const struct ftsw_routing *r, const char *spec)
{
	const struct ftsw_topo *t = r->topo;
	unsigned long s, d, off = FTSW_OFFSET_ANY;
	struct ftsw_path p;
	char *e;
	unsigned i;

	s = strtoul(spec, &e, 0);
	if (*e != ':')
		goto bad;
	d = strtoul(e + 1, &e, 0);
	if (*e == ':')
		off = strtoul(e + 1, &e, 0);
	if (*e || s >= t->nhosts || d >= t->nhosts)
		goto bad;
	ftsw_trace_path(r, (uint32_t)s, (uint32_t)d, (unsigned)off, 0, &p);
	if (cli.json) {
		printf("{\"src\":%lu,\"dst\":%lu,\"dlid\":%u,\"offset\":%u,"
		       "\"sl\":%u,\"status\":\"%s\",\"hops\":[", s, d, p.dlid,
		       p.offset, p.sl, ftsw_trace_status_str(p.status));
		for (i = 0; i < p.nhops; i++)
			printf("%s{\"switch\":%u,\"name\":\"%s\",\"port\":%u}",
			       i ? "," : "", p.hops[i].sw,
			       t->nodes[t->switches[p.hops[i].sw]].desc ?
			       t->nodes[t->switches[p.hops[i].sw]].desc : "",
			       p.hops[i].port);
		printf("]}\n");
	} else {
		printf("host %lu -> host %lu: DLID %u (offset %u), SL %u: %s\n",
		       s, d, p.dlid, p.offset, p.sl,
		       ftsw_trace_status_str(p.status));
		for (i = 0; i < p.nhops; i++)
			printf("  %2u  switch %u (%s) port %u\n", i,
			       p.hops[i].sw,
			       t->nodes[t->switches[p.hops[i].sw]].desc ?
			       t->nodes[t->switches[p.hops[i].sw]].desc : "?",
			       p.hops[i].port);
	}
	return p.status ? 1 : 0;
bad:
	cli_err("analyze: --trace '%s': expected SRC:DST[:OFFSET] with hosts "
		"in 0..%u", spec, t->nhosts - 1);
	return 2;
}

/* ---------------------------------------------------------- oblivious */

static int run_oblivious(const struct ftsw_routing *r, bool progress)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_oblivious ob;
	struct ftsw_err err;
	uint32_t i, node = FTSW_NONE, port = 0;

	if (ftsw_oblivious_ratio(r, progress, &ob, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (ob.link != FTSW_NONE) {
		for (node = 0; node + 1 < t->nnodes &&
		     t->nodes[node + 1].first_port <= ob.link; node++)
			;
		port = ob.link - t->nodes[node].first_port + 1;
	}
	if (cli.json) {
		printf("{\"engine\":\"%s\",\"hosts\":%u,\"lmc\":%u,"
		       "\"oblivious_ratio\":%.6g,\"exact\":%s,\"multipath\":%s,"
		       "\"why\":\"%s\",\"seconds\":%.3f", r->engine, t->nhosts,
		       r->lmc, ob.ratio, ob.exact ? "true" : "false",
		       ob.multipath ? "true" : "false", ob.why, ob.seconds);
		if (node != FTSW_NONE) {
			printf(",\"link\":{\"node\":\"%s\",\"port\":%u},"
			       "\"witness\":[", t->nodes[node].desc ?
			       t->nodes[node].desc : "", port);
			for (i = 0; i < ob.nwitness; i++)
				printf("%s[%u,%u]", i ? "," : "",
				       ob.witness_src[i], ob.witness_dst[i]);
			printf("]");
		}
		printf("}\n");
	} else {
		printf("%s on %u hosts (LMC %u, %s): oblivious performance "
		       "ratio %s %.4f (%.2f s)\n  %s\n", r->engine, t->nhosts,
		       r->lmc, ob.multipath ? "multipath" : "single path",
		       ob.exact ? "=" : "<=", ob.ratio, ob.seconds, ob.why);
		if (node != FTSW_NONE) {
			printf("  attained on link %s port %u by the traffic "
			       "matrix of %u unit flows:", t->nodes[node].desc ?
			       t->nodes[node].desc : "?", port, ob.nwitness);
			for (i = 0; i < ob.nwitness && i < 16; i++)
				printf(" %u->%u", ob.witness_src[i],
				       ob.witness_dst[i]);
			printf("%s\n", ob.nwitness > 16 ? " ..." : "");
		}
	}
	ftsw_oblivious_free(&ob);
	return 0;
}

/* ------------------------------------------------------ staged patterns */

static int run_stages(const struct ftsw_routing *r, const struct aopts *o,
		      uint32_t ranks, const uint32_t *order)
{
	const struct ftsw_topo *t = r->topo;
	struct ftsw_pattern p;
	struct ftsw_err err;
	double *load = malloc(t->nports * sizeof(double));
	double *worst = malloc(t->nports * sizeof(double));
	double worst_m = -1, sum_m = 0, sum_perf = 0, max_perf = 0;
	unsigned busy = 0;
	struct ftsw_load_result res, tot;
	struct ftsw_level_stat ls[FTSW_MAX_LEVEL_STATS];
	struct ftsw_table_stats ts;
	unsigned s, nls, k, worst_s = 0;
	bool exact_all = true;
	double t0 = now(), last = t0;
	int rc = 0;

	if (!load || !worst) {
		cli_err("out of memory");
		return 1;
	}
	if (ftsw_pattern_make(o->pattern, ranks, t, &p, &err)) {
		cli_err("%s", err.msg);
		free(load);
		free(worst);
		return 1;
	}
	memset(&tot, 0, sizeof(tot));
	if (cli.json)
		printf("{\"engine\":\"%s\",\"hosts\":%u,\"ranks\":%u,\"lmc\":%u,"
		       "\"pattern\":\"%s\",\"order\":\"%s\",\"stages\":[",
		       r->engine, t->nhosts, ranks, r->lmc, o->pattern,
		       o->order);
	else
		printf("%s on %u hosts, pattern %s (%u ranks, %u stages), "
		       "order %s\n", r->engine, t->nhosts, o->pattern, ranks,
		       p.nstages, o->order);
	if (!cli.json && o->stages)
		printf("  %-10s %8s %10s %10s %10s %8s\n", "stage", "flows",
		       "MLOAD", "baseload", "OLOAD", "PERF");
	for (s = 0; s < p.nstages; s++) {
		struct ftsw_tm *tm = &p.stages[s];
		double m, base, ml, perf;
		bool exact;

		ftsw_tm_apply_order(tm, order, t->nhosts);
		if (ftsw_link_loads(r, tm, NULL, load, NULL, &res, &err)) {
			cli_err("%s", err.msg);
			rc = 1;
			break;
		}
		if (res.failed && !tot.failed)
			snprintf(tot.first_failure, sizeof(tot.first_failure),
				 "%s", res.first_failure);
		tot.flows += res.flows;
		tot.delivered += res.delivered;
		tot.failed += res.failed;
		for (k = 0; k < FTSW_HOP_LIMIT + 2; k++)
			tot.path_hist[k] += res.path_hist[k];
		m = ftsw_max_load(t, load, false, NULL);
		base = ftsw_baseload(tm);
		ml = ftsw_ml_bound(t, tm, &exact);
		exact_all &= exact;
		perf = ml > 0 ? m / ml : 1;
		if (res.delivered) {
			/* hot-spot degree: over the stages with flows */
			sum_m += o->bundle ? ftsw_max_bundle_load(t, load) : m;
			busy++;
		}
		sum_perf += perf;
		if (perf > max_perf)
			max_perf = perf;
		if (m > worst_m) {
			worst_m = m;
			worst_s = s;
			memcpy(worst, load, t->nports * sizeof(double));
		}
		if (cli.json && (o->stages || p.nstages <= 64))
			printf("%s{\"stage\":\"%s\",\"flows\":%zu,\"mload\":%.6g,"
			       "\"baseload\":%.6g,\"oload\":%.6g,\"perf\":%.6g}",
			       s ? "," : "", p.stage_names[s],
			       tm->all_to_all ? (size_t)tm->n * (tm->n - 1) :
			       tm->nflows, m, base, ml, perf);
		else if (!cli.json && o->stages)
			printf("  %-10s %8zu %10.4g %10.4g %10.4g %8.4f\n",
			       p.stage_names[s], tm->all_to_all ?
			       (size_t)tm->n * (tm->n - 1) : tm->nflows, m, base,
			       ml, perf);
		ftsw_tm_free(tm);	/* stages are large; free as we go */
		if (o->progress && now() - last > 0.5) {
			last = now();
			fprintf(stderr, "\r  stage %u/%u   ", s + 1, p.nstages);
		}
	}
	if (o->progress)
		fprintf(stderr, "\r%40s\r", "");
	if (rc)
		goto out;
	nls = ftsw_level_stats(t, worst, ls, FTSW_MAX_LEVEL_STATS);
	ftsw_table_stats(r, &ts);
	if (cli.json) {
		printf("],\"hot_spot_degree\":%.6g,\"max_mload\":%.6g,"
		       "\"avg_perf\":%.6g,\"max_perf\":%.6g,\"oload_exact\":%s,"
		       "\"paths\":%" PRIu64 ",\"undelivered\":%" PRIu64
		       ",\"worst_stage\":\"%s\",\"levels\":[",
		       busy ? sum_m / busy : 0, worst_m,
		       p.nstages ? sum_perf / p.nstages : 0, max_perf,
		       exact_all ? "true" : "false", tot.flows, tot.failed,
		       p.nstages ? p.stage_names[worst_s] : "");
		for (k = 0; k < nls; k++)
			printf("%s{\"from\":%d,\"to\":%d,\"links\":%" PRIu64
			       ",\"used\":%" PRIu64 ",\"max\":%.6g,\"avg\":%.6g}",
			       k ? "," : "", ls[k].from_level, ls[k].to_level,
			       ls[k].links, ls[k].used, ls[k].max,
			       ls[k].links ? ls[k].sum / ls[k].links : 0);
		printf("],\"path_switches\":{");
		for (k = 0, s = 0; k < FTSW_HOP_LIMIT + 2; k++)
			if (tot.path_hist[k])
				printf("%s\"%u\":%" PRIu64, s++ ? "," : "", k,
				       tot.path_hist[k]);
		printf("},\"lft\":{\"switches\":%u,\"entries\":%" PRIu64
		       ",\"used\":%" PRIu64 ",\"min_used\":%u,\"max_used\":%u},"
		       "\"seconds\":%.3f}\n", r->nswitches, ts.total_entries,
		       ts.used_entries, ts.min_used, ts.max_used, now() - t0);
	} else {
		printf("  hot-spot degree (avg over stages of max flows per link): "
		       "%.4f, worst stage %s with %.4g\n",
		       busy ? sum_m / busy : 0,
		       p.nstages ? p.stage_names[worst_s] : "-", worst_m);
		printf("  PERF = MLOAD / OLOAD: avg %.4f, max %.4f (OLOAD %s)\n",
		       p.nstages ? sum_perf / p.nstages : 0, max_perf,
		       exact_all ? "= ML(TM), exact" :
		       "= baseload, a lower bound: PERF is an upper bound");
		printf("  paths %" PRIu64 ", undelivered %" PRIu64 "%s%s\n",
		       tot.flows, tot.failed, tot.failed ? ", first: " : "",
		       tot.failed ? tot.first_failure : "");
		printf("  links of the worst stage by level:\n"
		       "    %-9s %7s %7s %10s %10s\n", "level", "links", "used",
		       "max", "avg");
		for (k = 0; k < nls; k++) {
			char lv[24];

			snprintf(lv, sizeof(lv), "%d->%d", ls[k].from_level,
				 ls[k].to_level);
			printf("    %-9s %7" PRIu64 " %7" PRIu64 " %10.4g %10.4g\n",
			       lv, ls[k].links, ls[k].used, ls[k].max,
			       ls[k].links ? ls[k].sum / ls[k].links : 0);
		}
		printf("  path length (switches):");
		for (k = 0; k < FTSW_HOP_LIMIT + 2; k++)
			if (tot.path_hist[k])
				printf(" %u:%" PRIu64, k, tot.path_hist[k]);
		printf("\n  LFTs: %u switches x %zu entries, used per switch "
		       "%u..%u (%.2f s)\n", r->nswitches, r->lft_size,
		       ts.min_used, ts.max_used, now() - t0);
	}
	if (tot.failed)
		rc = 1;
	if (o->dot || o->picture) {
		struct ftsw_dot_opts d = { .load = worst,
					   .hosts = !o->no_hosts &&
						    t->nhosts <= 256 };
		char title[256], *dotp = NULL;

		snprintf(title, sizeof(title), "%s, %s, stage %s: max load %.3g",
			 r->engine, o->pattern,
			 p.nstages ? p.stage_names[worst_s] : "-", worst_m);
		d.title = title;
		if (o->dot) {
			dotp = strdup(o->dot);
		} else if (asprintf(&dotp, "%s.dot", o->picture) < 0) {
			dotp = NULL;
		}
		if (!dotp || ftsw_dot_write(t, &d, dotp, &err) ||
		    (o->picture && ftsw_dot_render(dotp, o->picture, &err))) {
			cli_err("%s", dotp ? err.msg : "out of memory");
			rc = 1;
		}
		if (!o->dot && dotp)
			unlink(dotp);
		free(dotp);
	}
out:
	ftsw_pattern_free(&p);
	free(load);
	free(worst);
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

	if (c)
		seed0 = strtoull(c + 1, NULL, 0);
	if (!order || ftsw_pattern_make(o->pattern, ranks, t, &p, &err)) {
		cli_err("%s", order ? err.msg : "out of memory");
		free(order);
		return 1;
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
			fprintf(stderr, "\r  order %llu/%llu   ",
				(unsigned long long)k + 1,
				(unsigned long long)o->orders);
	}
	if (o->progress)
		fprintf(stderr, "\r%40s\r", "");
	if (cli.json)
		printf("{\"engine\":\"%s\",\"hosts\":%u,\"ranks\":%u,"
		       "\"pattern\":\"%s\",\"orders\":%llu,\"avg_hsd\":%.6g,"
		       "\"min_hsd\":%.6g,\"max_hsd\":%.6g}\n", r->engine,
		       t->nhosts, ranks, o->pattern,
		       (unsigned long long)o->orders, sum / o->orders, mn, mx);
	else
		printf("%s on %u hosts, %s (%u ranks, %u stages): hot-spot "
		       "degree over %llu random orders: avg %.4f (min %.4f, "
		       "max %.4f)\n", r->engine, t->nhosts, o->pattern, ranks,
		       p.nstages, (unsigned long long)o->orders,
		       sum / o->orders, mn, mx);
	ftsw_pattern_free(&p);
	free(order);
	return 0;
}

/* The routing: the engine at the LMC asked for or the smallest it takes. */
static struct ftsw_routing *analyze_routing(const struct ftsw_topo *t,
					    const struct aopts *o,
					    struct ftsw_err *err)
{
	struct ftsw_routing *r;

	if (o->lfts)
		return ftsw_lfts_read(t, o->lfts, o->ro.lmc, err);
	if (o->lmc_given)
		return ftsw_route(o->engine, t, &o->ro, err);
	r = ftsw_route_min_lmc(o->engine, t, &o->ro, true, err);
	if (r && r->max_lid > FTSW_LID_MAX && !o->ro.extended_lids &&
	    !cli.json)
		fprintf(stderr, "ftsw: note: LMC %u needs LIDs past 0xBFFF "
			"(extended LIDs, analysis only)\n", r->lmc);
	return r;
}

static int analyze_run(struct aopts *o)
{
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	struct ftsw_err err;
	uint32_t *order = NULL, ranks;
	int rc;

	if (!o->engine == !o->lfts) {
		cli_err("analyze: one of -a ENGINE and -r LFTS is needed");
		return 2;
	}
	o->progress = isatty(2) && !cli.json;
	o->ro.progress = o->progress;
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

int cmd_analyze(int argc, char **argv)
{
	const struct cli_object *obj = cli_find_object("analyze");
	const struct cli_cmd *cmd;
	struct aopts o = { 0 };
	struct cli_args a;
	int shift, rc;

	cmd = cli_find_cmd(obj, argc, argv, &shift);
	if (!cmd)
		return shift ? 2 : 0;
	if (argc < 2) {
		cli_usage(stderr, obj, NULL);
		return 2;
	}
	rc = cli_parse(obj, cmd, argc - shift, argv + shift, &a);
	if (!rc) {
		take_opts(&a, &o);
		rc = analyze_run(&o);
	} else {
		rc = cli_parse_exit(rc);
	}
	cli_args_free(&a);
	return rc;
}
