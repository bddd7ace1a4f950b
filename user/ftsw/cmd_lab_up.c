// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab up: build a lab and route it (user/lib/lab/lab.h, lab_up.c),
 * in today's mode or lossless (--lossless, Documentation/lab.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lab.h"
#include "lab/lab.h"
#include "util/output.h"
#include "util/parse.h"

enum { U_TOPO, U_ENGINE, U_LFT, U_LMC, U_PATHS, U_NAME, U_RATE, U_SEED,
       U_NO_NEIGH, U_PATCH, U_SM, U_SM_ENGINE, U_SM_ROOT, U_SM_CN, U_SM_QOS,
       U_SM_CONF, U_SM_PARTITIONS, U_SM_ARGS, U_SM_HOST, U_SM_TIMEOUT,
       U_PATH_SL, U_NO_PATH_SL,
       U_LOSSLESS, U_IN_BUF, U_OUT_BUF,
       U_HOQ_LIFE, U_SW_LIFE, U_ADAPTIVE, U_GROUPS, U_FLOWLET, U_CC_TIMER,
       U_N };
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
	[U_SM_PARTITIONS] = OPT_SM_PARTITIONS,
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
	[U_ADAPTIVE] = { "--adaptive", NULL, CLI_FLAG,
			 .help = "lossless: adaptive routing, the engine's "
				 "groups (Documentation/congestion.md)" },
	[U_GROUPS] = { "--groups", NULL, CLI_FILE, "FILE",
		       .help = "lossless: adaptive groups from a file (route "
			       "--write-groups), with --lft" },
	[U_FLOWLET] = { "--flowlet-gap", NULL, CLI_NUM, "NS", 0,
			1000000000000ULL,
			.help = "adaptive routing per flowlet: a flow keeps its "
				"port while its packets come less than NS ns "
				"apart (default 0: per packet)" },
	[U_CC_TIMER] = { "--cc-timer-unit", NULL, CLI_NUM, "NS", 1,
			 FTSW_CC_TIMER_NS_MAX,
			 .help = "lossless: congestion control's CCTI_Timer "
				 "unit (default 1024: IBA's 1.024 us)" },
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
	ps = lab_path_sl_mode(a, U_PATH_SL, U_NO_PATH_SL, "lab up");
	if (ps < 0)
		return 2;
	sm = (struct ftsw_lab_sm){
		.engine = a->v[U_SM_ENGINE].s, .root_guids = a->v[U_SM_ROOT].s,
		.cn_guids = a->v[U_SM_CN].s, .qos = a->v[U_SM_QOS].n,
		.conf = a->v[U_SM_CONF].s,
		.partitions = a->v[U_SM_PARTITIONS].s,
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
		for (i = U_IN_BUF; i <= U_CC_TIMER; i++)
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
	o->adaptive = a->v[U_ADAPTIVE].n;
	o->groups_file = a->v[U_GROUPS].s;
	o->flowlet_ns = a->v[U_FLOWLET].u;
	o->cc_timer_ns = (uint32_t)a->v[U_CC_TIMER].u;
	if (o->adaptive && o->groups_file) {
		cli_err("lab up: --adaptive and --groups exclude each other");
		return -1;
	}
	if (o->groups_file && !o->lft_file) {
		cli_err("lab up: --groups goes with --lft (an engine makes its "
			"own with --adaptive)");
		return -1;
	}
	if (a->v[U_FLOWLET].n && !o->adaptive && !o->groups_file) {
		cli_err("lab up: --flowlet-gap needs adaptive routing "
			"(--adaptive or --groups)");
		return -1;
	}
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

static void lab_up_print(const char *name, const struct ftsw_lab_times *tm,
			 const struct ftsw_lab_path_sl *path_sl)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s up: ", name);
	ftsw_out_uint("namespaces", "%" PRIu64 " namespaces, ", tm->nnetns);
	ftsw_out_uint("links", "%" PRIu64 " links, ", tm->nlinks);
	ftsw_out_str("engine", "routed by %s ", tm->engine);
	ftsw_out_uint("lmc", "(LMC %" PRIu64, tm->lmc);
	ftsw_out_uint("vls", NULL, tm->vls ? tm->vls : 1);
	ftsw_out_text(", %u VL%s) ", tm->vls ? tm->vls : 1,
		      tm->vls > 1 ? "s" : "");
	if (tm->warning[0])
		ftsw_out_str("warning", NULL, tm->warning);
	ftsw_out_uint("messages", NULL, tm->nmsgs);
	ftsw_out_float(NULL, "in %.3f s\n", tm->total / 1e6);
	if (tm->warning[0] && !cli.json)
		cli_err("warning: %s", tm->warning);
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
	lab_path_sl_print(path_sl);
	ftsw_out_close_object();
	ftsw_out_end();
}

int lab_up(const struct cli_args *a)
{
	struct ftsw_lab_opts o = { 0 };
	struct ftsw_lab_path_sl path_sl;
	struct ftsw_lab_times tm;
	struct ftsw_err err;
	int rc, have;

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
	have = lab_path_sl_load(o.name, &path_sl, "lab up");
	lab_up_print(o.name, &tm, have > 0 ? &path_sl : NULL);
	return have < 0;
}
