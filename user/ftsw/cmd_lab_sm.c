// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab sm restart | path-sl: the lab's OpenSM again with other options,
 * its hosts' path SLs asked again or removed (user/lib/lab/lab_sm.c,
 * lab_pathsl.c; Documentation/sm.md).
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lab.h"
#include "lab/lab.h"
#include "util/output.h"

/* --path-sl, --no-path-sl: the mode, or -1 after an error. */
int lab_path_sl_mode(const struct cli_args *a, unsigned on, unsigned off,
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

enum { S_NAME, S_ENGINE, S_ROOT, S_CN, S_QOS, S_CONF, S_ARGS, S_HOST,
       S_TIMEOUT, S_LMC, S_PATH_SL, S_NO_PATH_SL, S_PARTITIONS, S_FOLLOW,
       S_INTERVAL, S_N };
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
	[S_PARTITIONS] = OPT_SM_PARTITIONS,
	[S_FOLLOW] = { "--follow", NULL, CLI_FLAG,
		       .help = "mcast: go on, a pass every --interval, until "
			       "SIGINT/SIGTERM or lab down" },
	[S_INTERVAL] = { "--interval", NULL, CLI_NUM, "MS", 100, 600000,
			 .help = "mcast --follow: between passes (default "
				 "1000)" },
};

int lab_path_sl_load(const char *lab, struct ftsw_lab_path_sl *r,
		     const char *cmd)
{
	struct ftsw_err err;

	if (!ftsw_lab_path_sl_read(lab, r, &err))
		return 1;
	if (err.code == ENOENT)
		return 0;
	cli_err("%s: %s", cmd, err.msg);
	return -1;
}

void lab_path_sl_print(const struct ftsw_lab_path_sl *path_sl)
{
	struct ftsw_lab_path_sl r;
	unsigned i;

	if (!path_sl)
		return;
	r = *path_sl;
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
	ftsw_out_bool("pkeys", "  P_Keys      %s", r.pkeys);
	if (r.pkeys) {
		ftsw_out_text(" (OpenSM's partitions: the PathRecords' keys; ");
		/* the pair counts once in JSON: here without path SLs */
		ftsw_out_uint(r.on ? NULL : "pairs", "%" PRIu64, r.pairs);
		ftsw_out_text(" host pairs share a partition, ");
		ftsw_out_uint(r.on ? NULL : "missing", "%" PRIu64, r.missing);
		ftsw_out_text(" do not)");
	} else {
		ftsw_out_text(" (hosts send with their CA's first key)");
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
	int have = lab_path_sl_load(lab->name, &r, "lab sm path-sl");

	if (have < 0)
		return 1;
	if (!a->v[S_HOST].n && have)
		host = r.host;
	if (strncmp(lab->engine, "opensm:", 7)) {
		cli_err("lab sm path-sl: lab %s is not under OpenSM (%s)",
			lab->name, lab->engine);
		return 1;
	}
	/* the P_Keys of partitions stay as they were */
	if (ftsw_lab_path_sl(lab, host,
			     (a->v[S_NO_PATH_SL].n ? 0 : FTSW_PATHS_SL) |
			     (have && r.pkeys ? FTSW_PATHS_PKEY : 0), &r,
			     &err)) {
		cli_err("lab sm path-sl: %s", err.msg);
		return 1;
	}
	return 0;
}

/* One pass's report: what a one-shot prints, or a --follow pass. */
static void mcast_print(const char *lab, const struct ftsw_lab_mcast *r,
			uint64_t t0)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s: ", lab);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts, ", r->hosts);
	ftsw_out_uint("groups", "%" PRIu64 " memberships", r->groups);
	ftsw_out_uint("joined", " (%" PRIu64 " joined", r->joined);
	ftsw_out_uint("left", ", %" PRIu64 " left)", r->left);
	ftsw_out_float("seconds", " in %.3f s\n", (ftsw_now_us() - t0) / 1e6);
	ftsw_out_close_object();
	ftsw_out_end();
	fflush(stdout);
}

static volatile int mcast_stop;

static void mcast_on_signal(int sig)
{
	(void)sig;
	mcast_stop = 1;
}

struct mcast_follow {
	const char *lab;
	uint64_t t0;
};

static void mcast_pass(const struct ftsw_lab_mcast *r,
		       const struct ftsw_err *e, void *arg)
{
	struct mcast_follow *f = arg;

	if (e)
		cli_err("lab sm mcast: %s (trying again)", e->msg);
	else
		mcast_print(f->lab, r, f->t0);
	f->t0 = ftsw_now_us();
}

/*
 * lab sm mcast: the hosts' IP multicast groups joined and left through
 * the SA now, their edge ports given the MLIDs (ftsw_lab_mcast_sync);
 * with --follow again and again (ftsw_lab_mcast_follow), a line (JSON: an
 * object) for each pass that changed something.
 */
static int lab_sm_mcast(const struct cli_args *a)
{
	uint64_t t0 = ftsw_now_us();
	struct ftsw_lab_mcast r;
	struct ftsw_lab lab;
	struct ftsw_err err;

	if (open_lab(a, &lab))
		return 1;
	if (strncmp(lab.engine, "opensm:", 7)) {
		cli_err("lab sm mcast: lab %s is not under OpenSM (%s)",
			lab.name, lab.engine);
		ftsw_lab_close(&lab);
		return 1;
	}
	if (a->v[S_FOLLOW].n) {
		struct sigaction sa = { .sa_handler = mcast_on_signal };
		struct mcast_follow f = { .lab = lab.name, .t0 = t0 };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		ftsw_lab_mcast_follow(&lab, a->v[S_INTERVAL].n ?
				      (unsigned)a->v[S_INTERVAL].u : 1000,
				      &mcast_stop, mcast_pass, &f);
		ftsw_lab_close(&lab);
		return 0;
	}
	if (ftsw_lab_mcast_sync(&lab, &r, &err)) {
		cli_err("lab sm mcast: %s", err.msg);
		ftsw_lab_close(&lab);
		return 1;
	}
	mcast_print(lab.name, &r, t0);
	ftsw_lab_close(&lab);
	return 0;
}

/* lab sm restart | path-sl | mcast: the library does it all
 * (ftsw_lab_sm_restart, ftsw_lab_path_sl, ftsw_lab_mcast_sync). */
int lab_sm(const struct cli_args *a)
{
	struct ftsw_lab_sm sm = {
		.engine = a->v[S_ENGINE].s, .root_guids = a->v[S_ROOT].s,
		.cn_guids = a->v[S_CN].s, .qos = a->v[S_QOS].n,
		.conf = a->v[S_CONF].s, .partitions = a->v[S_PARTITIONS].s,
		.args = a->v[S_ARGS].s, .host = (unsigned)a->v[S_HOST].u,
		.timeout_s = (unsigned)a->v[S_TIMEOUT].u,
	};
	static const int restart_only[] = {
		S_ENGINE, S_ROOT, S_CN, S_QOS, S_CONF, S_ARGS, S_TIMEOUT,
		S_LMC, S_PATH_SL, S_PARTITIONS,
	};
	static const int mcast_only[] = { S_FOLLOW, S_INTERVAL };
	uint64_t t0 = ftsw_now_us();
	bool restart = !strcmp(a->pos[0], "restart");
	size_t i;
	struct ftsw_lab lab;
	struct ftsw_lab_path_sl r;
	struct ftsw_err err;
	int have, ps = lab_path_sl_mode(a, S_PATH_SL, S_NO_PATH_SL, "lab sm");

	if (ps < 0)
		return 2;
	sm.path_sl = (enum ftsw_lab_path_sl_mode)ps;
	if (!strcmp(a->pos[0], "mcast")) {
		if (a->v[S_INTERVAL].n && !a->v[S_FOLLOW].n) {
			cli_err("lab sm mcast: --interval is for --follow");
			return 2;
		}
		return lab_sm_mcast(a);
	}
	if (!restart && strcmp(a->pos[0], "path-sl")) {
		cli_err("lab sm: '%s': restart, path-sl or mcast expected",
			a->pos[0]);
		return 2;
	}
	for (i = 0; i < sizeof(mcast_only) / sizeof(*mcast_only); i++)
		if (a->v[mcast_only[i]].n) {
			cli_err("lab sm %s: %s is for mcast only", a->pos[0],
				a->cmd->opts[mcast_only[i]].name);
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
	have = lab_path_sl_load(lab.name, &r, restart ? "lab sm restart" :
				"lab sm path-sl");
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s: ", lab.name);
	ftsw_out_str("engine", "OpenSM %s ", lab.engine + 7);
	ftsw_out_uint("lmc", "(LMC %" PRIu64 ")", lab.lmc);
	ftsw_out_float("seconds", restart ? " SUBNET UP in %.3f s\n" :
		       " path SLs in %.3f s\n", (ftsw_now_us() - t0) / 1e6);
	lab_path_sl_print(have > 0 ? &r : NULL);
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_lab_close(&lab);
	return have < 0;
}
