// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw route: compute routing tables with an engine, write them in
 * OpenSM's dump format, check them.
 *
 *   ftsw route -a ENGINE -t TOPO [OPTIONS] [-o FILE]
 *   ftsw route check -t TOPO (-a ENGINE | -i LFTS) [OPTIONS]
 *   ftsw route list
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "route/routing.h"

static void route_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw route -a ENGINE -t TOPO [OPTIONS] [-o LFTS]\n"
		"       ftsw route check -t TOPO (-a ENGINE | -i LFTS) [OPTIONS]\n"
		"       ftsw route list\n"
		"Options:\n"
		"  --lmc N            2^N LIDs (paths) per host (default 0)\n"
		"  --threads N        worker threads (default: all CPUs)\n"
		"  --roots S,..       updn roots: switch indices, names or 0xGUIDs\n"
		"  --updown-cost      dmodc: strict up-down cost variant\n"
		"  --no-switch-lids   don't route switch LIDs\n"
		"  --extended-lids    allow LIDs past 0xBFFF (analysis only)\n"
		"  --seed S           seed for randomised engines\n"
		"  --paths K          multipath engines: K paths per pair\n"
		"                     (default 2^lmc; needs --lmc >= log2 K)\n"
		"  --max-vls N        dfsssp: virtual layers allowed, 1..15\n"
		"                     (default 8)\n"
		"  --check            check the routing after computing it\n"
		"  --lfts             with -j: include the tables\n"
		"  -o FILE            write OpenSM's opensm-lfts.dump format\n");
}

struct ropts {
	const char *engine, *topo, *in, *out;
	struct ftsw_route_opts o;
	uint32_t roots[1024];
	const char *roots_arg;
	bool check, lfts;
};

static int parse_num(const char *opt, const char *v, unsigned long long max,
		     unsigned long long *out)
{
	char *e;

	if (!v) {
		cli_err("%s: value expected", opt);
		return -1;
	}
	*out = strtoull(v, &e, 0);
	if (e == v || *e || *out > max) {
		cli_err("%s: '%s' is not a number in 0..%llu", opt, v, max);
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct ropts *ro)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long long x;

		if (!strcmp(a, "-a") || !strcmp(a, "-t") || !strcmp(a, "-o") ||
		    !strcmp(a, "-i")) {
			if (!v) {
				cli_err("%s: argument expected", a);
				return -1;
			}
			if (a[1] == 'a')
				ro->engine = v;
			else if (a[1] == 't')
				ro->topo = v;
			else if (a[1] == 'o')
				ro->out = v;
			else
				ro->in = v;
			i++;
		} else if (!strcmp(a, "--lmc")) {
			if (parse_num(a, v, FTSW_LMC_MAX, &x))
				return -1;
			ro->o.lmc = (unsigned)x;
			i++;
		} else if (!strcmp(a, "--threads")) {
			if (parse_num(a, v, 256, &x))
				return -1;
			ro->o.threads = (unsigned)x;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (parse_num(a, v, ~0ULL, &x))
				return -1;
			ro->o.seed = x;
			i++;
		} else if (!strcmp(a, "--paths")) {
			if (parse_num(a, v, 128, &x))
				return -1;
			if (!x) {
				cli_err("--paths: K must be at least 1");
				return -1;
			}
			ro->o.paths = (unsigned)x;
			i++;
		} else if (!strcmp(a, "--max-vls")) {
			if (parse_num(a, v, 15, &x))
				return -1;
			if (!x) {
				cli_err("--max-vls: at least 1 layer");
				return -1;
			}
			ro->o.max_vls = (unsigned)x;
			i++;
		} else if (!strcmp(a, "--roots")) {
			if (!v) {
				cli_err("--roots: switches expected");
				return -1;
			}
			ro->roots_arg = v;
			i++;
		} else if (!strcmp(a, "--updown-cost")) {
			ro->o.updown_cost = true;
		} else if (!strcmp(a, "--no-switch-lids")) {
			ro->o.no_switch_lids = true;
		} else if (!strcmp(a, "--extended-lids")) {
			ro->o.extended_lids = true;
		} else if (!strcmp(a, "--check")) {
			ro->check = true;
		} else if (!strcmp(a, "--lfts")) {
			ro->lfts = true;
		} else {
			cli_err("route: unknown argument '%s' (ftsw route help)", a);
			return -1;
		}
	}
	return 0;
}

/* --roots I,J,..: switch indices, descriptions or 0xGUIDs */
static int resolve_roots(const struct ftsw_topo *t, struct ropts *ro)
{
	char *dup = strdup(ro->roots_arg), *s, *tok, *save = NULL;

	if (!dup)
		return -1;
	for (s = dup; (tok = strtok_r(s, ",", &save)); s = NULL) {
		uint32_t n = ftsw_topo_find(t, tok);
		char *e;
		unsigned long x = strtoul(tok, &e, 10);

		if (ro->o.nroots == 1024) {
			cli_err("--roots: at most 1024 roots");
			free(dup);
			return -1;
		}
		if (n != FTSW_NONE && t->nodes[n].kind == FTSW_SWITCH)
			x = t->nodes[n].index;
		else if (*e || e == tok || x >= t->nswitches) {
			cli_err("--roots: no switch '%s' (index 0..%u, name or "
				"0xGUID)", tok, t->nswitches ? t->nswitches - 1 : 0);
			free(dup);
			return -1;
		}
		ro->roots[ro->o.nroots++] = (uint32_t)x;
	}
	free(dup);
	ro->o.roots = ro->roots;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int do_check(const struct ftsw_routing *r, const struct ropts *ro,
		    double *secs, bool embedded)
{
	struct ftsw_check_opts co = { 0 };
	struct ftsw_check_result res;
	struct ftsw_err err;
	double t0 = now();

	co.minimal = r->flags & FTSW_RT_MINIMAL;
	co.updown = (r->flags & FTSW_RT_UPDOWN) && r->rank;
	co.cdg = true;
	co.switch_lids = (r->flags & FTSW_RT_SWITCH_LIDS) && !ro->o.no_switch_lids;
	co.progress = isatty(STDERR_FILENO);
	co.threads = ro->o.threads;
	co.all_entries = ro->in != NULL;	/* a dump: every entry counts */
	if (ftsw_routing_check(r, &co, &res, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	*secs = now() - t0;
	if (cli.json) {
		printf("%s{\"ok\":%s,\"pairs\":%" PRIu64 ",\"delivered\":%"
		       PRIu64 ",\"no_route\":%" PRIu64 ",\"loops\":%" PRIu64
		       ",\"dead_port\":%" PRIu64 ",\"misdelivered\":%" PRIu64
		       ",\"non_minimal\":%" PRIu64 ",\"updown_violations\":%" PRIu64
		       ",\"cdg_cyclic_vls\":%u,\"max_hops\":%" PRIu64
		       ",\"bad_entries\":%" PRIu64
		       ",\"seconds\":%.3f}}\n", embedded ? "" : "{\"check\":",
		       res.ok ? "true" : "false", res.pairs, res.delivered,
		       res.no_route, res.loops, res.dead_port, res.misdelivered,
		       res.non_minimal, res.updown_violations, res.cdg_cyclic_vls,
		       res.max_hops, res.bad_entries, *secs);
	} else {
		printf("check %s: %" PRIu64 "/%" PRIu64 " pairs delivered, max %"
		       PRIu64 " hops; no route %" PRIu64 ", loops %" PRIu64
		       ", dead port %" PRIu64 ", misdelivered %" PRIu64
		       ", non-minimal %" PRIu64 "%s, up*down* violations %" PRIu64
		       "%s, VLs with CDG cycles %u%s (%.3f s)\n",
		       res.ok ? "ok" : "FAILED", res.delivered, res.pairs,
		       res.max_hops, res.no_route, res.loops, res.dead_port,
		       res.misdelivered, res.non_minimal,
		       co.minimal ? "" : " (not promised)",
		       res.updown_violations, co.updown ? "" : " (not checked)",
		       res.cdg_cyclic_vls, co.all_entries ? (res.bad_entries ?
		       ", faulty table entries (see below)" : ", every table entry "
		       "delivers") : "", *secs);
		if (res.report && !res.ok)
			fputs(res.report, stdout);
	}
	ftsw_check_result_free(&res);
	return res.ok ? 0 : 1;
}

static int route_run(int argc, char **argv, bool check_cmd)
{
	struct ropts ro = { 0 };
	struct ftsw_routing *r = NULL;
	struct ftsw_topo *t;
	struct ftsw_err err;
	double t0, tr, tc = 0;
	int rc = 0;

	if (parse_opts(argc, argv, &ro))
		return 2;
	if (!ro.topo || (!ro.engine && !ro.in) || (ro.engine && ro.in)) {
		route_usage(stderr);
		return 2;
	}
	t = ftsw_topo_open(ro.topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (ro.roots_arg && resolve_roots(t, &ro)) {
		ftsw_topo_free(t);
		return 2;
	}
	t0 = now();
	if (ro.engine)
		r = ftsw_route(ro.engine, t, &ro.o, &err);
	else
		r = ftsw_lfts_read(t, ro.in, ro.o.lmc, &err);
	tr = now() - t0;
	if (!r) {
		cli_err("%s", err.msg);
		ftsw_topo_free(t);
		return 1;
	}
	if (r->unroutable_pairs) {
		cli_err("%s", r->warning);
		rc = 1;
	}
	if (ro.out && ftsw_lfts_write(r, ro.out, &err)) {
		cli_err("%s", err.msg);
		rc = 1;
	}
	if (cli.json && !check_cmd) {
		/* one object: the routing, plus "seconds" and the check */
		char *buf = NULL;
		size_t n = 0;
		FILE *m = open_memstream(&buf, &n);

		if (m) {
			ftsw_routing_json(r, m, ro.lfts);
			fclose(m);
		}
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '}'))
			buf[--n] = 0;
		printf("%s,\"seconds\":%.6f%s", buf ? buf : "{", tr,
		       ro.check ? ",\"check\":" : "}\n");
		free(buf);
	} else if (!check_cmd)
	{
		printf("%s: %u switches, %u hosts, LMC %u, LIDs 1..%u, %.3f s\n",
		       r->engine, r->nswitches, r->nhosts, r->lmc, r->max_lid, tr);
		for (uint32_t i = 0; i < r->nroots && i < 8; i++) {
			const char *d = t->nodes[t->switches[r->roots[i]]].desc;

			printf("%s%s", i ? "," : "roots: ", d ? d : "?");
		}
		if (r->nroots > 8)
			printf(",... (%u in all)", r->nroots);
		if (r->nroots)
			printf(": %s\n", r->roots_why);
	}
	if (check_cmd || ro.check) {
		if (do_check(r, &ro, &tc, !check_cmd))
			rc = 1;
	}
	if (cli.stats)
		fprintf(stderr, "route: %.3f s routing, %.3f s check\n", tr, tc);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	return rc;
}

int cmd_route(int argc, char **argv)
{
	const struct ftsw_engine *e;
	size_t i, n;

	if (argc >= 2 && !strcmp(argv[1], "help")) {
		route_usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "list")) {
		e = ftsw_engines(&n);
		for (i = 0; i < n; i++) {
			if (cli.json)
				printf("%s{\"name\":\"%s\",\"summary\":\"%s\"}%s",
				       i == 0 ? "[" : "", e[i].name, e[i].summary,
				       i + 1 < n ? "," : "]\n");
			else
				printf("%-8s %s (%s)\n", e[i].name, e[i].summary,
				       e[i].paper);
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return route_run(argc - 2, argv + 2, true);
	if (argc < 2) {
		route_usage(stderr);
		return 2;
	}
	return route_run(argc - 1, argv + 1, false);
}
