// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw route: compute routing tables with an engine, write them in
 * OpenSM's dump format, check them.
 *
 *   ftsw route [-a ENGINE] -t TOPO [OPTIONS] [-o FILE]
 *   ftsw route check -t TOPO [-a ENGINE | -i LFTS] [OPTIONS]
 *   ftsw route list
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "route/routing.h"
#include "util/output.h"
#include "util/parse.h"

enum {
	R_ENGINE, R_TOPO, R_IN, R_OUT, R_LMC, R_THREADS, R_ROOTS, R_UPDOWN,
	R_NO_SWLIDS, R_EXT_LIDS, R_SEED, R_PATHS, R_MAX_VLS, R_CHECK, R_LFTS,
	R_ADAPTIVE, R_GROUPS, R_WGROUPS, R_N
};

#define ROUTE_OPTS(check_help)						\
	[R_ENGINE] = CLI_OPT_ENGINE,					\
	[R_TOPO] = CLI_OPT_TOPO_REQUIRED,				\
	[R_IN] = { "-i", "--input", CLI_FILE, "LFTS",			\
		   .help = "read an OpenSM LFT dump instead of routing" },\
	[R_OUT] = { "-o", "--output", CLI_FILE, "LFTS",			\
		    .help = "write OpenSM's opensm-lfts.dump format "	\
			    "(-: stdout, the summary then on stderr)" },\
	[R_LMC] = CLI_OPT_LMC,						\
	[R_THREADS] = CLI_OPT_THREADS,					\
	[R_ROOTS] = { "--roots", NULL, CLI_STR, "S,..",			\
		      .help = "updn roots: switch indices, names or "	\
			      "0xGUIDs" },				\
	[R_UPDOWN] = { "--updown-cost", NULL, CLI_FLAG,			\
		       .help = "dmodc: strict up-down cost variant" },	\
	[R_NO_SWLIDS] = { "--no-switch-lids", NULL, CLI_FLAG,		\
			  .help = "don't route switch LIDs" },		\
	[R_EXT_LIDS] = CLI_OPT_EXTENDED_LIDS,				\
	[R_SEED] = CLI_OPT_SEED,					\
	[R_PATHS] = CLI_OPT_PATHS,					\
	[R_MAX_VLS] = CLI_OPT_MAX_VLS,					\
	[R_CHECK] = { "--check", NULL, CLI_FLAG, .help = check_help },	\
	[R_LFTS] = { "--lfts", NULL, CLI_FLAG,				\
		     .help = "with -j: include the tables (and groups)" },\
	[R_ADAPTIVE] = CLI_OPT_ADAPTIVE,				\
	[R_GROUPS] = CLI_OPT_GROUPS,					\
	[R_WGROUPS] = { "--write-groups", NULL, CLI_FILE, "FILE",	\
			.help = "write the adaptive groups (-: stdout)" }

static const struct cli_opt route_opts[R_N + 1] = {
	ROUTE_OPTS("check the routing after computing it")
};

static const struct cli_opt check_opts[R_N + 1] = {
	ROUTE_OPTS("(implied)")
};

static const char route_notes[] =
"Without --lmc the engine gets the smallest LMC it accepts (--paths K\n"
"needs 2^LMC >= K). Exit status 1 when pairs are left unroutable or the\n"
"check fails.\n";

struct ropts {
	const char *topo, *out, *wgroups;
	struct ftsw_route_req q;	/* -i LFTS is q.lfts */
	uint32_t roots[1024];
	const char *roots_arg;
	bool check, lfts;
};

static void take_opts(const struct cli_args *a, struct ropts *ro)
{
	cli_route_req(a, &ro->q);
	ro->q.lfts = a->v[R_IN].s;
	ro->topo = a->v[R_TOPO].s;
	ro->out = a->v[R_OUT].s;
	ro->wgroups = a->v[R_WGROUPS].s;
	ro->roots_arg = a->v[R_ROOTS].s;
	ro->q.o.updown_cost = a->v[R_UPDOWN].n;
	ro->q.o.no_switch_lids = a->v[R_NO_SWLIDS].n;
	ro->check = a->v[R_CHECK].n;
	ro->lfts = a->v[R_LFTS].n;
}

/* --roots I,J,..: switch indices, descriptions or 0xGUIDs */
static int resolve_roots(const struct ftsw_topo *t, struct ropts *ro)
{
	char *dup = strdup(ro->roots_arg), *s, *tok, *save = NULL;
	struct ftsw_err err;

	if (!dup)
		return -1;
	for (s = dup; (tok = strtok_r(s, ",", &save)); s = NULL) {
		uint32_t n = ftsw_topo_find(t, tok);
		uint64_t x;

		if (ro->q.o.nroots == 1024) {
			cli_err("route: --roots: at most 1024 roots");
			free(dup);
			return -1;
		}
		if (n != FTSW_NONE && t->nodes[n].kind == FTSW_SWITCH)
			x = t->nodes[n].index;
		else if (!t->nswitches ||
			 ftsw_parse_u64("--roots", tok, 0, t->nswitches - 1,
					&x, &err)) {
			cli_err("route: --roots: no switch '%s' (index 0..%u, "
				"name or 0xGUID)", tok,
				t->nswitches ? t->nswitches - 1 : 0);
			free(dup);
			return -1;
		}
		ro->roots[ro->q.o.nroots++] = (uint32_t)x;
	}
	free(dup);
	ro->q.o.roots = ro->roots;
	return 0;
}

/* The checker's result: inside the routing's object or as {"check":...}. */
static void print_check(const struct ftsw_check_result *res,
			const struct ftsw_check_opts *co, bool r_has_groups,
			double secs)
{
	ftsw_out_open_object("check");
	ftsw_out_bool("ok", NULL, res->ok);
	ftsw_out_text("check %s", res->ok ? "ok" : "FAILED");
	ftsw_out_uint("pairs", NULL, res->pairs);
	ftsw_out_uint("delivered", NULL, res->delivered);
	ftsw_out_uint("host_delivered", ": %" PRIu64, res->host_delivered);
	ftsw_out_uint("host_pairs", "/%" PRIu64 " host pairs", res->host_pairs);
	if (res->pairs > res->host_pairs) {
		ftsw_out_uint(NULL, " and %" PRIu64,
			      res->delivered - res->host_delivered);
		ftsw_out_uint(NULL, "/%" PRIu64 " host-to-switch pairs",
			      res->pairs - res->host_pairs);
	}
	ftsw_out_text(" delivered");
	ftsw_out_uint("max_hops", ", max %" PRIu64 " hops", res->max_hops);
	ftsw_out_uint("no_route", "; no route %" PRIu64, res->no_route);
	ftsw_out_uint("loops", ", loops %" PRIu64, res->loops);
	ftsw_out_uint("dead_port", ", dead port %" PRIu64, res->dead_port);
	ftsw_out_uint("misdelivered", ", misdelivered %" PRIu64,
		      res->misdelivered);
	ftsw_out_uint("non_minimal", ", non-minimal %" PRIu64,
		      res->non_minimal);
	ftsw_out_text("%s", co->minimal ? "" : " (not promised)");
	ftsw_out_uint("updown_violations", ", up*down* violations %" PRIu64,
		      res->updown_violations);
	ftsw_out_text("%s", co->updown ? "" : " (not checked)");
	ftsw_out_uint("cdg_cyclic_vls", ", VLs with CDG cycles %" PRIu64,
		      res->cdg_cyclic_vls);
	if (r_has_groups) {
		ftsw_out_uint("adaptive_entries", "; adaptive entries on paths %"
			      PRIu64, res->ar_entries);
		ftsw_out_uint("adaptive_faults", ", faulty group ports %" PRIu64,
			      res->ar_bad);
	}
	ftsw_out_uint("bad_entries", NULL, res->bad_entries);
	if (co->all_entries)
		ftsw_out_text("%s", res->bad_entries ?
			      ", faulty table entries (see below)" :
			      ", every table entry delivers");
	ftsw_out_float("seconds", " (%.3f s)\n", secs);
	if (res->report && !res->ok)
		ftsw_out_text("%s", res->report);
	ftsw_out_close_object();
}

static int do_check(const struct ftsw_routing *r, const struct ropts *ro,
		    double *secs)
{
	struct ftsw_check_opts co = { 0 };
	struct ftsw_check_result res;
	struct ftsw_err err;
	uint64_t t0 = ftsw_now_us();
	int rc;

	co.minimal = r->flags & FTSW_RT_MINIMAL;
	co.updown = (r->flags & FTSW_RT_UPDOWN) && r->rank;
	co.cdg = true;
	co.switch_lids = (r->flags & FTSW_RT_SWITCH_LIDS) && !ro->q.o.no_switch_lids;
	co.progress = isatty(STDERR_FILENO) ? cli_progress : NULL;
	co.threads = ro->q.o.threads;
	co.all_entries = ro->q.lfts != NULL;	/* a dump: every entry counts */
	if (ftsw_routing_check(r, &co, &res, &err)) {
		cli_err("%s", err.msg);
		return -1;
	}
	*secs = cli_seconds_since(t0);
	print_check(&res, &co, r->ar != NULL, *secs);
	rc = res.ok ? 0 : 1;
	ftsw_check_result_free(&res);
	return rc;
}

/* A switch's adaptive groups: LID -> its allowed ports. */
static void print_groups(const struct ftsw_routing *r, uint32_t s)
{
	uint8_t ports[255];
	char key[16];
	uint32_t lid;
	unsigned i, n;

	ftsw_out_open_object("groups");
	for (lid = 1; lid <= r->max_lid; lid++) {
		if (!ftsw_ar_has(r, s, lid))
			continue;
		snprintf(key, sizeof(key), "%u", lid);
		n = ftsw_ar_ports(r, s, lid, ports);
		ftsw_out_open_array(key);
		for (i = 0; i < n; i++)
			ftsw_out_uint(NULL, NULL, ports[i]);
		ftsw_out_close_array();
	}
	ftsw_out_close_object();
}

static void print_lfts(const struct ftsw_routing *r)
{
	const struct ftsw_topo *t = r->topo;
	char key[16], guid[24];
	uint32_t s, lid;

	ftsw_out_open_array("lfts");
	for (s = 0; s < r->nswitches; s++) {
		const struct ftsw_node *n = &t->nodes[t->switches[s]];
		const uint8_t *l = ftsw_lft(r, s);

		ftsw_out_open_object(NULL);
		snprintf(guid, sizeof(guid), "0x%016" PRIx64, n->guid);
		ftsw_out_str("guid", NULL, guid);
		ftsw_out_uint("lid", NULL, ftsw_switch_lid(r, s));
		ftsw_out_str("name", NULL, n->desc);
		ftsw_out_open_object("routes");
		for (lid = 1; lid <= r->max_lid; lid++) {
			if (l[lid] == FTSW_PORT_NONE)
				continue;
			snprintf(key, sizeof(key), "%u", lid);
			ftsw_out_uint(key, NULL, l[lid]);
		}
		ftsw_out_close_object();
		if (r->ar)
			print_groups(r, s);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

/* The roots an engine picked (updn) and why: a list, then the reason. */
static void print_roots(const struct ftsw_routing *r)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t i;

	if (!r->nroots)
		return;
	ftsw_out_open_array("roots");
	for (i = 0; i < r->nroots; i++) {
		const char *d = t->nodes[t->switches[r->roots[i]]].desc;

		ftsw_out_open_object(NULL);
		ftsw_out_uint("index", NULL, r->roots[i]);
		ftsw_out_str("name", NULL, d ? d : "?");
		ftsw_out_close_object();
		if (i < 8)
			ftsw_out_text("%s%s", i ? "," : "roots ", d ? d : "?");
	}
	ftsw_out_close_array();
	if (r->nroots > 8)
		ftsw_out_text(",... (%u in all)", r->nroots);
	ftsw_out_str("roots_why", ": %s; ", r->roots_why);
}

/* The routing's summary (text) or object (JSON), "check" left open. */
static void print_routing(const struct ftsw_routing *r, double secs,
			  bool lfts)
{
	ftsw_out_str("engine", "%s: ", r->engine);
	ftsw_out_uint("lmc", NULL, r->lmc);
	ftsw_out_uint("vls", NULL, r->nvls);
	ftsw_out_uint("switches", "%" PRIu64 " switches, ", r->nswitches);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts, ", r->nhosts);
	ftsw_out_uint(NULL, "LMC %" PRIu64 ", ", r->lmc);
	ftsw_out_uint("max_lid", "LIDs 1..%" PRIu64 ", ", r->max_lid);
	ftsw_out_text("%u VL%s, ", r->nvls, r->nvls == 1 ? "" : "s");
	ftsw_out_uint("unroutable_pairs", NULL, r->unroutable_pairs);
	if (r->warning[0])
		ftsw_out_str("warning", NULL, r->warning);
	if (r->info[0])
		ftsw_out_str("info", "%s; ", r->info);
	print_roots(r);
	if (r->ar) {
		ftsw_out_uint("adaptive_entries", "adaptive groups on %" PRIu64
			      " entries", r->ar->entries);
		ftsw_out_uint("adaptive_sets", " (%" PRIu64 " port sets); ",
			      r->ar->nsets - 1);
	}
	if (lfts)
		print_lfts(r);
	ftsw_out_float("seconds", "%.3f s\n", secs);
}

static int route_run(const struct cli_args *a, bool check_cmd)
{
	struct ropts ro = { 0 };
	struct ftsw_routing *r = NULL;
	struct ftsw_topo *t;
	struct ftsw_err err;
	double tr, tc = 0;
	uint64_t t0;
	int rc = 0;

	take_opts(a, &ro);
	if (ro.q.engine && ro.q.lfts) {
		cli_err("route%s: -a ENGINE and -i LFTS exclude each other",
			check_cmd ? " check" : "");
		return 2;
	}
	if (ro.q.o.adaptive && ro.q.groups) {
		cli_err("route%s: --adaptive and --groups exclude each other",
			check_cmd ? " check" : "");
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
	t0 = ftsw_now_us();
	r = ftsw_route_make(t, &ro.q, &err);
	tr = cli_seconds_since(t0);
	if (!r) {
		cli_err("%s", err.msg);
		ftsw_topo_free(t);
		return 1;
	}
	/* the warning once: in the JSON document with -j, else on stderr */
	cli_route_warning(r);
	if (r->unroutable_pairs)
		rc = 1;
	if (ro.out && ftsw_lfts_write(r, ro.out, &err)) {
		cli_err("%s", err.msg);
		rc = 1;
	}
	if (ro.wgroups && !r->ar) {
		cli_err("route: --write-groups: the routing has no adaptive "
			"groups (--adaptive or --groups)");
		rc = 1;
	} else if (ro.wgroups && ftsw_ar_write(r, ro.wgroups, &err)) {
		cli_err("%s", err.msg);
		rc = 1;
	}
	/* with the tables on stdout, the summary goes to stderr */
	ftsw_out_begin((ro.out && !strcmp(ro.out, "-")) ||
		       (ro.wgroups && !strcmp(ro.wgroups, "-")) ? stderr :
		       stdout, cli.json);
	ftsw_out_open_object(NULL);
	if (!check_cmd)
		print_routing(r, tr, ro.lfts);
	else if (r->warning[0])
		ftsw_out_str("warning", NULL, r->warning);
	if ((check_cmd || ro.check) && do_check(r, &ro, &tc))
		rc = 1;
	ftsw_out_close_object();
	if (ftsw_out_end())
		rc = 1;
	if (cli.stats)
		fprintf(stderr, "route: %.3f s routing, %.3f s check\n", tr, tc);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	return rc;
}

static int route_list(const struct cli_args *a)
{
	size_t i, n;
	const struct ftsw_engine *e = ftsw_engines(&n);

	(void)a;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_open_array("engines");
	for (i = 0; i < n; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_str("name", "%-8s ", e[i].name);
		ftsw_out_str("summary", "%s", e[i].summary);
		ftsw_out_str("paper", " (%s)\n", e[i].paper);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

static int route_compute(const struct cli_args *a)
{
	return route_run(a, false);
}

static int route_check(const struct cli_args *a)
{
	return route_run(a, true);
}

const struct cli_cmd cli_cmds_route[] = {
	{ "", "[-a ENGINE] -t TOPO [OPTIONS] [-o LFTS]",
	  "compute routing tables", .opts = route_opts, .notes = route_notes,
	  .run = route_compute },
	{ "check", "-t TOPO [-a ENGINE | -i LFTS] [OPTIONS]",
	  "check routing tables: delivery, loops, minimality, up*/down*, "
	  "deadlock freedom", .opts = check_opts, .run = route_check },
	{ "list", NULL, "the routing engines", .run = route_list },
	{ NULL }
};
