// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab up: build a lab and route it (user/lib/lab/lab.h, lab_up.c),
 * in today's mode or lossless (--lossless, Documentation/lab.md); ftsw lab
 * sm restart: its OpenSM again with other options (lab_sm.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lab.h"
#include "lab/lab.h"
#include "util/output.h"
#include "util/parse.h"

/* OpenSM's options: lab up --sm and lab sm restart take the same. */
#define OPT_SM_ENGINE { "--sm-engine", NULL, CLI_STR, "ENGINE", \
	.help = "opensm -R: minhop, updn, dnup, ftree, sssp, dfsssp, nue, " \
		"lash, dor..." }
#define OPT_SM_ROOT { "--sm-root", NULL, CLI_FILE, "FILE", \
	.help = "opensm -a: root switch GUIDs (updn, ftree)" }
#define OPT_SM_CN { "--sm-cn", NULL, CLI_FILE, "FILE", \
	.help = "opensm -u: compute node GUIDs (ftree)" }
#define OPT_SM_QOS { "--sm-qos", NULL, CLI_FLAG, .help = "opensm -Q" }
#define OPT_SM_CONF { "--sm-conf", NULL, CLI_FILE, "FILE", \
	.help = "opensm.conf keys (qos_swe_sl2vl...) added to the lab's" }
#define OPT_SM_ARGS { "--sm-args", NULL, CLI_STR, "'ARGS'", \
	.help = "more opensm arguments, blank-separated" }
#define OPT_SM_HOST { "--sm-host", NULL, CLI_NUM, "N", 0, UINT32_MAX, \
	.help = "the host OpenSM runs on (default 0)" }
#define OPT_SM_TIMEOUT { "--sm-timeout", NULL, CLI_NUM, "S", 1, 3600, \
	.help = "wait this long for SUBNET UP (default 120)" }
#define OPT_PATH_SL { "--path-sl", NULL, CLI_FLAG, \
	.help = "hosts send with the SLs of the SA's PathRecords (default " \
		"for lash, dfsssp, nue, torus-2QoS)" }
#define OPT_NO_PATH_SL { "--no-path-sl", NULL, CLI_FLAG, \
	.help = "hosts send with their edge port's SL" }

/* --path-sl, --no-path-sl: the mode, or -1 after an error. */
static int path_sl_mode(const struct cli_args *a, unsigned on, unsigned off,
			const char *cmd)
{
	if (a->v[on].n && a->v[off].n) {
		cli_err("%s: --path-sl and --no-path-sl exclude each other",
			cmd);
		return -1;
	}
	return a->v[on].n ? FTSW_PATH_SL_ON :
	       a->v[off].n ? FTSW_PATH_SL_OFF : FTSW_PATH_SL_AUTO;
}

enum { U_TOPO, U_ENGINE, U_LFT, U_LMC, U_PATHS, U_NAME, U_RATE, U_SEED,
       U_NO_NEIGH, U_PATCH, U_SM, U_SM_ENGINE, U_SM_ROOT, U_SM_CN, U_SM_QOS,
       U_SM_CONF, U_SM_ARGS, U_SM_HOST, U_SM_TIMEOUT, U_PATH_SL, U_NO_PATH_SL,
       U_LOSSLESS, U_IN_BUF, U_OUT_BUF,
       U_HOQ_LIFE, U_SW_LIFE, U_N };
static const char *const sm_words[] = { "opensm", NULL };
const struct cli_opt lab_up_opts_table[U_N + 1] = {
	[U_TOPO] = { "-t", "--topo", CLI_TOPO, "TOPO", .required = true,
		     .help = "a net file or a generator spec (ftmn:4,3, "
			     "pgft:...)" },
	[U_ENGINE] = CLI_OPT_ENGINE,
	[U_LFT] = { "--lft", NULL, CLI_FILE, "FILE",
		    .help = "OpenSM opensm-lfts.dump instead of an engine" },
	[U_LMC] = CLI_OPT_LMC,
	[U_PATHS] = CLI_OPT_PATHS,
	[U_NAME] = LAB_OPT_NAME,
	[U_RATE] = { "--rate", NULL, CLI_STR, "RATE",
		     .help = "shape every switch-to-switch link (tbf), or with "
			     "--lossless every port's link rate: bit/s with "
			     "k, M, G" },
	[U_SEED] = CLI_OPT_SEED,
	[U_NO_NEIGH] = { "--no-neigh", NULL, CLI_FLAG,
			 .help = "no address plan: the fabric answers no ARP "
				 "or ND" },
	[U_PATCH] = { "--patch", NULL, CLI_FLAG,
		      .help = "join switches by patch cables in the module, "
			      "not veth pairs (no capture, no --rate)" },
	[U_SM] = { "--sm", NULL, CLI_WORD, "SM", .words = sm_words,
		   .help = "a subnet manager routes the lab in band: opensm "
			   "(Documentation/sm.md)" },
	[U_SM_ENGINE] = OPT_SM_ENGINE,
	[U_SM_ROOT] = OPT_SM_ROOT,
	[U_SM_CN] = OPT_SM_CN,
	[U_SM_QOS] = OPT_SM_QOS,
	[U_SM_CONF] = OPT_SM_CONF,
	[U_SM_ARGS] = OPT_SM_ARGS,
	[U_SM_HOST] = OPT_SM_HOST,
	[U_SM_TIMEOUT] = OPT_SM_TIMEOUT,
	[U_PATH_SL] = OPT_PATH_SL,
	[U_NO_PATH_SL] = OPT_NO_PATH_SL,
	[U_LOSSLESS] = { "--lossless", NULL, CLI_FLAG,
			 .help = "lossless mode: per-VL buffers, credits, link "
				 "rates, lifetimes (Documentation/lab.md)" },
	[U_IN_BUF] = { "--in-buffer", NULL, CLI_NUM, "BYTES", FTSW_BUF_MIN,
		       FTSW_BUF_MAX, .help = "lossless: input buffer per port "
					     "per VL (default 6144)" },
	[U_OUT_BUF] = { "--out-buffer", NULL, CLI_NUM, "BYTES", FTSW_BUF_MIN,
			FTSW_BUF_MAX, .help = "lossless: output queue per port "
					      "per VL (default 6144)" },
	[U_HOQ_LIFE] = { "--hoq-life", NULL, CLI_NUM, "V", 0, FTSW_LIFE_MAX,
			 .help = "lossless: HOQLife, 4.096 us * 2^V (20..31: "
				 "none; default 18)" },
	[U_SW_LIFE] = { "--switch-life", NULL, CLI_NUM, "V", 0, FTSW_LIFE_MAX,
			.help = "lossless: switch lifetime, 4.096 us * 2^V "
				"(default 18)" },
};

/* "100M" bit/s (util/parse.h's rates) -> bytes/s */
static int parse_rate(const char *v, uint64_t *bytes)
{
	struct ftsw_err err;
	uint64_t bits;

	if (ftsw_parse_rate("--rate", v, 8 * FTSW_LAB_RATE_MIN,
			    8 * FTSW_LAB_RATE_MAX, &bits, &err)) {
		cli_err("lab up: --rate: '%s' is not a rate in 8k..16G bit/s",
			v);
		return 2;
	}
	*bytes = bits / 8;
	return 0;
}

/* --sm and its options (static storage: o points at it). */
static int lab_up_sm_opts(const struct cli_args *a, struct ftsw_lab_opts *o)
{
	static struct ftsw_lab_sm sm;
	unsigned i;
	int ps;

	if (!a->v[U_SM].n) {
		for (i = U_SM_ENGINE; i <= U_NO_PATH_SL; i++)
			if (a->v[i].n) {
				cli_err("lab up: %s needs --sm opensm",
					lab_up_opts_table[i].name);
				return 2;
			}
		return 0;
	}
	if (o->engine || o->lft_file) {
		cli_err("lab up: --sm routes the lab: no %s",
			o->engine ? "-a (use --sm-engine)" : "--lft");
		return 2;
	}
	ps = path_sl_mode(a, U_PATH_SL, U_NO_PATH_SL, "lab up");
	if (ps < 0)
		return 2;
	sm = (struct ftsw_lab_sm){
		.engine = a->v[U_SM_ENGINE].s, .root_guids = a->v[U_SM_ROOT].s,
		.cn_guids = a->v[U_SM_CN].s, .qos = a->v[U_SM_QOS].n,
		.conf = a->v[U_SM_CONF].s,
		.args = a->v[U_SM_ARGS].s, .host = (unsigned)a->v[U_SM_HOST].u,
		.timeout_s = (unsigned)a->v[U_SM_TIMEOUT].u,
		.path_sl = (enum ftsw_lab_path_sl_mode)ps,
	};
	o->sm = &sm;
	o->lmc_auto = false;	/* the SM's LMC: --lmc, default 0 */
	return 0;
}

/* --lossless and its options: 0, or -1 after an error. */
static int lab_up_lossless(const struct cli_args *a, struct ftsw_lab_opts *o)
{
	struct ftsw_err err;
	unsigned i;

	o->lossless = a->v[U_LOSSLESS].n;
	if (!o->lossless) {
		for (i = U_IN_BUF; i <= U_SW_LIFE; i++)
			if (a->v[i].n) {
				cli_err("lab up: %s needs --lossless",
					lab_up_opts_table[i].name);
				return -1;
			}
		return 0;
	}
	if (a->v[U_RATE].n &&
	    ftsw_parse_rate("--rate", a->v[U_RATE].s, FTSW_RATE_MIN,
			    FTSW_RATE_MAX, &o->link_rate_bits, &err)) {
		cli_err("lab up: %s", err.msg);
		return -1;
	}
	o->in_buf = (uint32_t)a->v[U_IN_BUF].u;
	o->out_buf = (uint32_t)a->v[U_OUT_BUF].u;
	o->hoq_life_set = a->v[U_HOQ_LIFE].n;
	o->hoq_life = (uint8_t)a->v[U_HOQ_LIFE].u;
	o->switch_life_set = a->v[U_SW_LIFE].n;
	o->switch_life = (uint8_t)a->v[U_SW_LIFE].u;
	return 0;
}

/* The options of lab up into o: 0, or an exit status. */
static int lab_up_opts(const struct cli_args *a, struct ftsw_lab_opts *o)
{
	o->topo = a->v[U_TOPO].s;
	o->engine = a->v[U_ENGINE].s;
	o->lft_file = a->v[U_LFT].s;
	o->lmc = (unsigned)a->v[U_LMC].u;
	o->lmc_auto = !a->v[U_LMC].n;
	o->paths = (unsigned)a->v[U_PATHS].u;
	o->name = lab_name(a->v[U_NAME].s, true);
	o->seed = a->v[U_SEED].u;
	o->no_neigh = a->v[U_NO_NEIGH].n;
	o->patch = a->v[U_PATCH].n;
	if (lab_up_lossless(a, o))
		return 2;
	if (!o->lossless && a->v[U_RATE].n &&
	    parse_rate(a->v[U_RATE].s, &o->rate_bytes))
		return 2;
	if (o->patch && o->rate_bytes) {
		cli_err("lab up: --patch and --rate exclude each other (a "
			"patch cable has no device to shape)");
		return 2;
	}
	if (o->engine && o->lft_file) {
		cli_err("lab up: -a and --lft exclude each other");
		return 2;
	}
	return lab_up_sm_opts(a, o);
}

static void lab_up_print(const char *name, const struct ftsw_lab_times *tm)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s up: ", name);
	ftsw_out_uint("namespaces", "%" PRIu64 " namespaces, ", tm->nnetns);
	ftsw_out_uint("links", "%" PRIu64 " links, ", tm->nlinks);
	ftsw_out_str("engine", "routed by %s ", tm->engine);
	ftsw_out_uint("lmc", "(LMC %" PRIu64 ") ", tm->lmc);
	ftsw_out_uint("messages", NULL, tm->nmsgs);
	ftsw_out_float(NULL, "in %.3f s\n", tm->total / 1e6);
	if (cli.verbose)
		ftsw_out_text("  route %.3f s, hosts (namespaces, cables, "
			      "addresses) %.3f s, fabric cables %.3f s, "
			      "switches %.3f s, upload+commit %.3f s, "
			      "shaping %.3f s\n  hosts by %u threads, summed "
			      "over them: namespaces %.3f s, their set-up "
			      "%.3f s\n", tm->route / 1e6,
			      tm->hosts / 1e6, tm->links / 1e6,
			      tm->switches / 1e6, tm->upload / 1e6,
			      tm->shape / 1e6, tm->threads, tm->netns / 1e6,
			      tm->hostcfg / 1e6);
	ftsw_out_open_object("us");
	ftsw_out_uint("route", NULL, tm->route);
	ftsw_out_uint("netns", NULL, tm->netns);
	ftsw_out_uint("hostcfg", NULL, tm->hostcfg);
	ftsw_out_uint("links", NULL, tm->links);
	ftsw_out_uint("hosts", NULL, tm->hosts);
	ftsw_out_uint("switches", NULL, tm->switches);
	ftsw_out_uint("upload", NULL, tm->upload);
	ftsw_out_uint("shape", NULL, tm->shape);
	ftsw_out_uint("total", NULL, tm->total);
	ftsw_out_close_object();
	lab_path_sl_print(name);
	ftsw_out_close_object();
	ftsw_out_end();
}

int lab_up(const struct cli_args *a)
{
	struct ftsw_lab_opts o = { 0 };
	struct ftsw_lab_times tm;
	struct ftsw_err err;
	int rc;

	rc = lab_up_opts(a, &o);
	if (rc)
		return rc;
	if (isatty(2)) {
		o.progress = lab_progress;
		o.progress_arg = (void *)o.name;
	}
	if (ftsw_lab_up(&o, &tm, &err)) {
		cli_err("lab up: %s", err.msg);
		return 1;
	}
	lab_up_print(o.name, &tm);
	return 0;
}


/* ------------------------------------------------------------ lab sm */

enum { S_NAME, S_ENGINE, S_ROOT, S_CN, S_QOS, S_CONF, S_ARGS, S_HOST,
       S_TIMEOUT, S_LMC, S_PATH_SL, S_NO_PATH_SL, S_N };
const struct cli_opt lab_sm_opts_table[S_N + 1] = {
	[S_NAME] = LAB_OPT_NAME,
	[S_ENGINE] = OPT_SM_ENGINE,
	[S_ROOT] = OPT_SM_ROOT,
	[S_CN] = OPT_SM_CN,
	[S_QOS] = OPT_SM_QOS,
	[S_CONF] = OPT_SM_CONF,
	[S_ARGS] = OPT_SM_ARGS,
	[S_HOST] = OPT_SM_HOST,
	[S_TIMEOUT] = OPT_SM_TIMEOUT,
	[S_LMC] = { "--lmc", NULL, CLI_NUM, "N", 0, CLI_LMC_MAX,
		    .help = "2^N LIDs per host (default: the lab's)" },
	[S_PATH_SL] = OPT_PATH_SL,
	[S_NO_PATH_SL] = OPT_NO_PATH_SL,
};

/* The path SLs in effect (lab status, lab sm): text and JSON. */
void lab_path_sl_print(const char *lab)
{
	struct ftsw_lab_path_sl r;
	unsigned i;

	if (ftsw_lab_path_sl_read(lab, &r))
		return;
	ftsw_out_open_object("path_sl");
	ftsw_out_bool("on", "  path SLs    %s", r.on);
	if (r.on) {
		ftsw_out_uint("host", " (the SA's PathRecords, asked through "
			      "h%" PRIu64 "'s gateway", r.host);
		ftsw_out_uint("sweeps", " after OpenSM's sweep %" PRIu64 ")",
			      r.sweeps);
		ftsw_out_uint("pairs", ": %" PRIu64 " host pairs", r.pairs);
		ftsw_out_open_object("per_sl");
		for (i = 0; i < FTSW_NUM_SL; i++) {
			char key[8];

			if (!r.per_sl[i])
				continue;
			snprintf(key, sizeof(key), "%u", i);
			ftsw_out_uint(key, NULL, r.per_sl[i]);
			ftsw_out_text(" SL%u %" PRIu64, i, r.per_sl[i]);
		}
		ftsw_out_close_object();
		ftsw_out_uint("missing", r.missing ? ", %" PRIu64 " without a "
			      "path" : NULL, r.missing);
		ftsw_out_uint("conflicts", r.conflicts ? ", %" PRIu64 " DLIDs "
			      "with two SLs" : NULL, r.conflicts);
		ftsw_out_uint("queries", NULL, r.queries);
		ftsw_out_uint("records", NULL, r.records);
		ftsw_out_float("seconds", "; %.3f s", r.us / 1e6);
	} else {
		ftsw_out_text(" (hosts send with their edge port's SL)");
	}
	ftsw_out_text("\n");
	ftsw_out_close_object();
}

/* lab sm path-sl: the tables filled again now (or removed). */
static int lab_sm_path_sl(const struct cli_args *a, struct ftsw_lab *lab)
{
	struct ftsw_lab_path_sl r;
	struct ftsw_err err;
	unsigned host = (unsigned)a->v[S_HOST].u;
	if (!a->v[S_HOST].n && !ftsw_lab_path_sl_read(lab->name, &r))
		host = r.host;
	if (strncmp(lab->engine, "opensm:", 7)) {
		cli_err("lab sm path-sl: lab %s is not under OpenSM (%s)",
			lab->name, lab->engine);
		return 1;
	}
	if (a->v[S_NO_PATH_SL].n ? ftsw_lab_path_sl_off(lab, &err) :
	    ftsw_lab_path_sl(lab, host, &r, &err)) {
		cli_err("lab sm path-sl: %s", err.msg);
		return 1;
	}
	return 0;
}

/* lab sm restart | path-sl: the library does it all
 * (ftsw_lab_sm_restart, ftsw_lab_path_sl). */
int lab_sm(const struct cli_args *a)
{
	struct ftsw_lab_sm sm = {
		.engine = a->v[S_ENGINE].s, .root_guids = a->v[S_ROOT].s,
		.cn_guids = a->v[S_CN].s, .qos = a->v[S_QOS].n,
		.conf = a->v[S_CONF].s,
		.args = a->v[S_ARGS].s, .host = (unsigned)a->v[S_HOST].u,
		.timeout_s = (unsigned)a->v[S_TIMEOUT].u,
	};
	static const int restart_only[] = {
		S_ENGINE, S_ROOT, S_CN, S_QOS, S_CONF, S_ARGS, S_TIMEOUT,
		S_LMC, S_PATH_SL,
	};
	uint64_t t0 = ftsw_now_us();
	bool restart = !strcmp(a->pos[0], "restart");
	size_t i;
	struct ftsw_lab lab;
	struct ftsw_err err;
	int ps = path_sl_mode(a, S_PATH_SL, S_NO_PATH_SL, "lab sm");

	if (ps < 0)
		return 2;
	sm.path_sl = (enum ftsw_lab_path_sl_mode)ps;
	if (!restart && strcmp(a->pos[0], "path-sl")) {
		cli_err("lab sm: '%s': restart or path-sl expected", a->pos[0]);
		return 2;
	}
	for (i = 0; !restart && i < sizeof(restart_only) / sizeof(*restart_only);
	     i++)
		if (a->v[restart_only[i]].n) {
			cli_err("lab sm path-sl: %s is for restart only",
				a->cmd->opts[restart_only[i]].name);
			return 2;
		}
	if (open_lab(a, &lab))
		return 1;
	if (!restart) {
		if (lab_sm_path_sl(a, &lab)) {
			ftsw_lab_close(&lab);
			return 1;
		}
	} else {
		if (isatty(2))
			lab_progress("OpenSM: waiting for SUBNET UP", 0, 0,
				     lab.name);
		if (ftsw_lab_sm_restart(&lab, &sm,
					a->v[S_LMC].n ? (int)a->v[S_LMC].u : -1,
					&err)) {
			cli_err("lab sm restart: %s", err.msg);
			ftsw_lab_close(&lab);
			return 1;
		}
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s: ", lab.name);
	ftsw_out_str("engine", "OpenSM %s ", lab.engine + 7);
	ftsw_out_uint("lmc", "(LMC %" PRIu64 ")", lab.lmc);
	ftsw_out_float("seconds", restart ? " SUBNET UP in %.3f s\n" :
		       " path SLs in %.3f s\n", (ftsw_now_us() - t0) / 1e6);
	lab_path_sl_print(lab.name);
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_lab_close(&lab);
	return 0;
}
