// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab: a fat-tree of namespaces with real packets (user/lib/lab/lab.h).
 * The commands and their options are the tables below (cli.h): they parse
 * the command line, print the help and feed `ftsw completion bash`.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lab.h"
#include "fm/fm.h"
#include "lab/lab.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/parse.h"
#include "view/view.h"

enum { N_NAME, N_N };
static const struct cli_opt name_opts[N_N + 1] = {
	[N_NAME] = LAB_OPT_NAME,
};

enum { P_NAME, P_ALL, P_COUNT, P_WAIT, P_N };
static const struct cli_opt ping_opts[P_N + 1] = {
	[P_NAME] = LAB_OPT_NAME,
	[P_ALL] = { "--all", NULL, CLI_FLAG,
		    .help = "every pair (the default without SRC)" },
	[P_COUNT] = { "-c", "--count", CLI_NUM, "N", 0, 1000,
		      .help = "echoes per pair" },
	[P_WAIT] = { "-W", "--wait", CLI_NUM, "MS", 0, 600000,
		     .help = "wait for replies (default 2000)" },
};

enum { T_NAME, T_COUNT, T_N };
static const struct cli_opt trace_opts[T_N + 1] = {
	[T_NAME] = LAB_OPT_NAME,
	[T_COUNT] = { "-c", "--count", CLI_NUM, "PROBES", 0, 1000,
		      .help = "probe echoes (default 5)" },
};

enum { F_NAME, F_ALL, F_N };
static const struct cli_opt fail_opts[F_N + 1] = {
	[F_NAME] = LAB_OPT_NAME,
	[F_ALL] = { "--all", NULL, CLI_FLAG,
		    .help = "link: every cable between A and B" },
};

enum { C_NAME, C_COUNT, C_SEED, C_N };
static const struct cli_opt chaos_opts[C_N + 1] = {
	[C_NAME] = LAB_OPT_NAME,
	[C_COUNT] = { "--count", NULL, CLI_NUM, "K", 0, 100000,
		      .required = true, .help = "switch-to-switch cables to fail" },
	[C_SEED] = CLI_OPT_SEED,
};

enum { X_NAME, X_PATTERN, X_ORDER, X_PACKETS, X_SIZE, X_SEED, X_STAGES,
       X_PER_STAGE, X_SVG, X_PPS, X_DURATION, X_RANDOM_DST, X_FAIL, X_FAIL_AT,
       X_N };
static const struct cli_opt traffic_opts[X_N + 1] = {
	[X_NAME] = LAB_OPT_NAME,
	[X_PATTERN] = { "-p", "--pattern", CLI_PATTERN, "PATTERN",
			.required = true,
			.help = "all2all, cps, or any of ftsw analyze -p's" },
	[X_ORDER] = { "--order", NULL, CLI_ORDER, "ORDER",
		      .help = "rank -> host order (default topology)" },
	[X_PACKETS] = { "--packets", NULL, CLI_NUM, "N", 0, 100000,
			.help = "UDP packets per flow per stage (default 10)" },
	[X_SIZE] = { "--size", NULL, CLI_NUM, "BYTES", 0, 1472,
		     .help = "UDP payload (default 64; 1400 if shaped, 1420 "
			     "if lossless with a rate)" },
	[X_SEED] = CLI_OPT_SEED,
	[X_STAGES] = { "--stages", NULL, CLI_NUM, "N", 0, 1u << 20,
		       .help = "at most N stages (default all)" },
	[X_PER_STAGE] = { "--per-stage", NULL, CLI_FLAG,
			  .help = "print every stage" },
	[X_SVG] = { "--svg", NULL, CLI_FILE, "FILE",
		    .help = "link-load picture" },
	[X_PPS] = { "--pps", NULL, CLI_NUM, "N", 0, 100000000,
		    .help = "pace the sending (packets/s, all flows)" },
	[X_DURATION] = { "--duration", NULL, CLI_NUM, "MS", 0, 3600000,
			 .help = "shaped lab: sending time per stage "
				 "(default 2500)" },
	[X_RANDOM_DST] = { "--random-dst", NULL, CLI_FLAG,
			   .help = "shaped lab: each datagram to one of its "
				   "host's flows at random (uniform traffic)" },
	[X_FAIL] = { "--fail", NULL, CLI_STR, "A B",
		     .help = "fail cable A - B during every stage" },
	[X_FAIL_AT] = { "--fail-at", NULL, CLI_NUM, "ROUND", 0, 1000000,
			.help = "... before this round of packets" },
};

/*
 * lab mpirun and lab capture (cmd_lab_tools.c) read their own words, which
 * end with "-- PROGRAM ...": these tables describe them for the help and
 * the completion only.
 */
static const char *const mpi_words[] = { "openmpi", "mpich", NULL };
enum { M_NAME, M_MPI, M_ORDER, M_N, M_MPIRUN, M_TIMEOUT, M_VERBOSE, M_MCA,
       M_NOPTS };
static const struct cli_opt mpirun_opts[M_NOPTS + 1] = {
	[M_NAME] = LAB_OPT_NAME,
	[M_MPI] = { "--mpi", NULL, CLI_WORD, "MPI", .words = mpi_words,
		    .help = "openmpi (mpirun.openmpi, the default) or mpich "
			    "(mpiexec.hydra)" },
	[M_ORDER] = { "--order", NULL, CLI_ORDER, "ORDER",
		      .help = "rank -> host order (default topology)" },
	[M_N] = { "-n", "-np", CLI_NUM, "N", 1, UINT32_MAX,
		  .help = "ranks (default: every host)" },
	[M_MPIRUN] = { "--mpirun", NULL, CLI_FILE, "PATH",
		       .help = "the launcher (default by --mpi)" },
	[M_TIMEOUT] = { "--timeout", NULL, CLI_NUM, "SECONDS", 1, 86400 * 7,
			.help = "stop the job after that long (exit status "
				"124)" },
	[M_VERBOSE] = { "-v", "--verbose", CLI_FLAG,
			.help = "print the placement and mpirun's command" },
	[M_MCA] = { "--mca", NULL, CLI_STR, "KEY VALUE", .repeat = true,
		    .help = "an MCA parameter for Open MPI's mpirun" },
};

enum { K_NAME, K_WRITE, K_COUNT, K_N };
static const struct cli_opt capture_opts[K_N + 1] = {
	[K_NAME] = LAB_OPT_NAME,
	[K_WRITE] = { "-w", NULL, CLI_FILE, "FILE",
		      .help = "write the frames there (pcap)" },
	[K_COUNT] = { "-c", NULL, CLI_NUM, "COUNT", 1, UINT64_MAX,
		      .help = "stop after COUNT frames" },
};


static const char up_notes[] =
"TOPO: a generator spec (ftmn:4,3, pgft:...) or an ibnetdiscover file.\n"
"K: paths per pair for shift1, disjoint, random (default 2^LMC; without\n"
"--lmc the LMC is the smallest that carries K).\n";
static const char host_notes[] =
"HOST: h3, 3 or a node name; switches: s5 or a node name.\n";
static const char ib_notes[] =
"HOST: h3, 3 or a node name. TOOL runs in HOST's namespace with ibsim-utils'\n"
"libumad2sim.so preloaded and IBSIM_SOCKNAME=" FTSW_LAB_GW_SOCK ", through HOST's\n"
"gateway (started if it is not running; lab down stops it): ibnetdiscover,\n"
"ibroute, ibtracert, perfquery, smpquery, saquery, iblinkinfo... On ports an SM\n"
"keyed (opensm.conf m_key, protection level 2 or 3) SMP tools need the key:\n"
"-y KEY (Documentation/sm.md, \"Management keys\").\n";
static const char sm_notes[] =
"On a lab built with --sm opensm: OpenSM is stopped and started again with\n"
"these options (the gateways keep running), its LID cache seeded with the\n"
"plan for the LMC, and the command returns at SUBNET UP, when OpenSM has\n"
"written its dumps (opensm-lfts.dump...) in /run/ftsw/LAB. The last run's log\n"
"is kept as opensm.log.prev. A new LMC moves the hosts' LIDs: every host\n"
"forgets its neighbours and asks again (Documentation/sm.md).\n"
"Path SLs (default with lash, dfsssp, nue, torus-2QoS; --path-sl, --no-path-sl):\n"
"after SUBNET UP every host's edge port gets the SLs of the SA's PathRecords\n"
"from its LIDs (one GetTable per LID through the SM host's gateway), as a\n"
"host's own path resolution would; lab ping and lab traffic ask again when\n"
"OpenSM has swept since. `lab sm path-sl` asks now (--no-path-sl: removes them).\n"
"`lab sm mcast`: every host's IP multicast groups (its kernel's, on eth0) joined\n"
"or left through the SA from its gateway, the MLIDs given to its edge port;\n"
"--follow: again every --interval MS (default 1000), a line for each pass that\n"
"joined or left, until SIGINT/SIGTERM or the lab goes down.\n";
static const char traffic_notes[] =
"PATTERN: all2all, cps (every shift), or any of ftsw analyze -p's (shift:K,\n"
"perm, a2a, bisect, file:PATH, ...); ORDER: topology, random, or any of\n"
"ftsw analyze --order's. On a shaped lab (up --rate) each stage sends for\n"
"--duration MS (default 2500) and per-flow throughput is measured.\n"
"--fail A B --fail-at ROUND: the loss across a live failure.\n";

/* The commands' run functions (below). */
static int lab_down(const struct cli_args *a);
static int lab_status(const struct cli_args *a);
static int lab_list(const struct cli_args *a);
static int lab_ping(const struct cli_args *a);
static int lab_trace(const struct cli_args *a);
static int lab_fail_cmd(const struct cli_args *a);
static int lab_heal(const struct cli_args *a);
static int lab_chaos(const struct cli_args *a);
static int lab_traffic(const struct cli_args *a);
static int lab_exec(const struct cli_object *obj, const struct cli_cmd *cmd,
		    int argc, char **argv);

const struct cli_cmd cli_cmds_lab[] = {
	{ "up", "-t TOPO [-a ENGINE | --lft FILE] [--lmc N] [--paths K] "
	  "[--name LAB] [--rate RATE] [--seed S] [--no-neigh] [--patch] "
	  "[--sm opensm [--sm-engine E] [--sm-conf FILE] "
	  "[--sm-partitions FILE] [--sm-args ARGS]...] "
	  "[--lossless [--in-buffer B] [--out-buffer B] [--hoq-life V] "
	  "[--switch-life V]]",
	  "build a lab and route it", .opts = lab_up_opts_table,
	  .notes = up_notes, .run = lab_up },
	{ "down", "[--name LAB]", "remove a lab", .opts = name_opts,
	  .run = lab_down },
	{ "status", "[--name LAB]", "what a lab is and how it does",
	  .opts = name_opts, .run = lab_status },
	{ "show", "[--name LAB]", "the same as status", .opts = name_opts,
	  .run = lab_status },
	{ "list", NULL, "the labs of this machine", .opts = NULL,
	  .run = lab_list },
	{ "exec", "[--name LAB] HOST -- CMD [ARGS...]",
	  "run a command as a host (as ip netns exec: its own /sys)", CLI_STR, 1, 1,
	  .opts = name_opts, .notes = host_notes, .raw = lab_exec },
	{ "ib", "[--name LAB] HOST -- TOOL [ARGS...]",
	  "run an infiniband-diags tool (or OpenSM) on a host, through its "
	  "gateway", CLI_STR, 1, 1, .opts = name_opts, .notes = ib_notes,
	  .raw = lab_exec },
	{ "sm", "[--name LAB] restart [--sm-engine E] [--lmc N] "
	  "[--sm-conf FILE] [--sm-partitions FILE] [--sm-args ARGS]... "
	  "[--sm-timeout S] "
	  "[--path-sl | --no-path-sl] | "
	  "path-sl [--no-path-sl] [--sm-host N] | "
	  "mcast [--follow [--interval MS]]",
	  "restart the lab's OpenSM with other options, wait for SUBNET UP; "
	  "set the hosts' SLs from the SA's PathRecords again; join the "
	  "hosts' IP multicast groups through the SA",
	  CLI_STR, 1, 1, .opts = lab_sm_opts_table, .notes = sm_notes,
	  .run = lab_sm },
	{ "ping", "[--name LAB] [--all | SRC [DST]] [-c N] [-W MS]",
	  "ICMP echo between hosts (every pair by default)", CLI_STR, 0, 2,
	  .opts = ping_opts, .notes = host_notes, .run = lab_ping },
	{ "trace", "[--name LAB] SRC DST [-c PROBES]",
	  "the path from the kernel's tables, confirmed by counters",
	  CLI_STR, 2, 2, .opts = trace_opts, .notes = host_notes,
	  .run = lab_trace },
	{ "fail", "[--name LAB] link A B [--all] | switch S | port S:P",
	  "take cables down (both ends)", CLI_STR, 2, 3, .opts = fail_opts,
	  .notes = host_notes, .run = lab_fail_cmd },
	{ "heal", "[--name LAB] link A B [--all] | switch S | port S:P",
	  "bring cables back up", CLI_STR, 2, 3, .opts = fail_opts,
	  .notes = host_notes, .run = lab_heal },
	{ "chaos", "[--name LAB] --count K [--seed S]",
	  "fail K random switch-to-switch cables", .opts = chaos_opts,
	  .run = lab_chaos },
	{ "traffic", "[--name LAB] -p PATTERN [--order ORDER] [--packets N] "
	  "[--size BYTES] [--seed S] [--stages N] [--per-stage] [--svg FILE] "
	  "[--pps N] [--duration MS] [--random-dst] [--fail A B --fail-at ROUND]",
	  "send a pattern, compare every port's counter with the model",
	  CLI_STR, 0, 1, .opts = traffic_opts, .notes = traffic_notes,
	  .run = lab_traffic },
	{ "mpirun", "[--name LAB] [--mpi openmpi|mpich] [--order ORDER] [-n N] "
	  "[--mpirun PATH] [--timeout S] [-v] [--mca KEY VALUE]... -- PROG "
	  "[ARGS...]",
	  "an MPI job across the lab (Open MPI or MPICH), one rank per host",
	  .opts = mpirun_opts, .raw = cmd_lab_mpirun },
	{ "mpi-agent", "HOST CMD...", "the MPI launchers' agent (hidden)",
	  .raw = cmd_lab_mpi_agent, .hidden = true },
	{ "waits", "[--name LAB] [--min-wait MS]",
	  "lossless: buffers waiting on each other, their cycles against "
	  "the CDG", .opts = lab_waits_opts, .run = lab_waits },
	{ "view", "[--name LAB] [--listen ADDR:PORT] [--interval MS] "
	  "[--hosts auto|yes|no] [-d] | --stop",
	  "watch the lab live in a browser: its page, a push stream, "
	  "/metrics for Prometheus", .opts = lab_view_opts, .run = lab_view },
	{ "top", "[--name LAB] [-b] [-n N] [-d MS] [--sort KEY] [--switch S] "
	  "[--trace SRC DST] [--lines N]",
	  "watch the lab live in a terminal: busiest links, waits, events",
	  CLI_STR, 0, 1, .opts = lab_top_opts, .run = lab_top },
	{ "capture", "[--name LAB] LINK [-w FILE] [-c COUNT] "
	  "[-- TCPDUMP-ARGS]", "tcpdump on a cable of the lab", CLI_STR, 1, 1,
	  .opts = capture_opts, .raw = cmd_lab_capture },
	{ NULL }
};

/* The lab a command means (ftsw_lab_pick: one rule for lab and fm). */
const char *lab_name(const char *given, bool create)
{
	static char only[FTSW_LAB_NAME_MAX + 1];

	return ftsw_lab_pick(given, create, only, sizeof(only));
}

/*
 * lab up's and lab down's progress on a terminal: a counter per step, notes
 * on a line.
 */
void lab_progress(const char *what, uint64_t done, uint64_t total,
			void *arg)
{
	if (!total)
		fprintf(stderr, "lab %s: %s\n", (const char *)arg, what);
	else
		fprintf(stderr, "\r  %-28s %" PRIu64 "/%" PRIu64 "%s", what,
			done, total, done == total ? "\n" : "");
}

/* Open the lab the command names (its first option is LAB_OPT_NAME). */
int open_lab(const struct cli_args *a, struct ftsw_lab *lab)
{
	const char *name = lab_name(a->v[0].s, false);
	struct ftsw_err err;
	char hint[320];

	if (ftsw_lab_open(name, lab, &err)) {
		ftsw_lab_hint(name, hint, sizeof(hint));
		cli_err("%s%s", err.msg, hint);
		return -1;
	}
	return 0;
}

static int lab_down(const struct cli_args *a)
{
	const char *name = lab_name(a->v[N_NAME].s, false);
	struct ftsw_err err;
	int rc = 0;

	/*
	 * The lab's fabric manager first: it would chase every cable going
	 * away, and its sockets would keep the fabric's namespace alive.
	 */
	if (ftsw_fm_stop(name, 5000, &err) < 0) {
		cli_err("lab down: %s; tearing the lab down all the same",
			err.msg);
		rc = 1;
	}
	/* its view too: its sockets would keep the namespace alive */
	if (ftsw_view_stop(name, 5000, &err) < 0) {
		cli_err("lab down: %s; tearing the lab down all the same",
			err.msg);
		rc = 1;
	}
	if (ftsw_lab_down_progress(name, isatty(2) ? lab_progress : NULL,
				   (void *)name, &err)) {
		cli_err("lab down: %s", err.msg);
		return 1;
	}
	return rc;
}

static void status_print(const struct ftsw_lab *lab,
			 const struct ftsw_lab_status *st,
			 const struct ftsw_lab_path_sl *path_sl)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s", lab->name);
	ftsw_out_str("topology", ": %s\n", lab->spec);
	ftsw_out_str("engine", "  routing     %s", lab->engine);
	ftsw_out_uint("lmc", ", LMC %" PRIu64, lab->lmc);
	ftsw_out_text("%s\n", lab->rate_bytes ? ", shaped" : "");
	ftsw_out_uint("rate_bits", lab->rate_bytes ? "  rate        %" PRIu64
		      " bit/s per fabric link\n" : NULL, lab->rate_bytes * 8);
	ftsw_out_bool("lossless", lab->lossless ? "  mode        lossless "
		      "(kernel: %s)" : NULL, st->fabric.lossless);
	ftsw_out_uint("link_rate_bits", lab->lossless ? ", links at %" PRIu64
		      " bit/s (0: the kernel's default)\n" : NULL,
		      lab->link_rate_bits);
	ftsw_out_str("cables", "  cables      %s", lab->patch ? "patch" : "veth");
	ftsw_out_text("%s\n", lab->patch ? " (switch to switch: in the "
		      "module, no devices)" : " (a veth pair each)");
	ftsw_out_uint("hosts", "  hosts       %" PRIu64, lab->topo->nhosts);
	ftsw_out_str(NULL, " (namespaces %s-h0..)\n", lab->name);
	ftsw_out_uint("switches", "  switches    %" PRIu64,
		      st->fabric.nswitches);
	ftsw_out_str(NULL, " (namespace %s)\n", lab->name);
	ftsw_out_uint("links", NULL, ftsw_topo_nlinks(lab->topo));
	ftsw_out_uint("ports", "  ports       %" PRIu64 " bound", st->ports);
	ftsw_out_uint("ports_edge", " (%" PRIu64 " edge), ", st->ports_edge);
	ftsw_out_uint("ports_down", "%" PRIu64 " down\n", st->ports_down);
	ftsw_out_uint("generation", "  generation  %" PRIu64 "\n",
		      st->fabric.generation);
	lab_path_sl_print(path_sl);
	ftsw_out_text("  drops       %" PRIu64, st->drops);
	nlcli_print_drops("drops", st->fabric.drops, " %s=%" PRIu64, true);
	ftsw_out_text("\n");
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_status(const struct cli_args *a)
{
	struct ftsw_lab_path_sl path_sl;
	struct ftsw_lab_status st;
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc, have;

	if (open_lab(a, &lab))
		return 1;
	rc = ftsw_lab_status(&lab, &st, &err);
	if (rc)
		cli_err("lab status: %s", err.msg);
	else if ((have = lab_path_sl_load(lab.name, &path_sl,
					  "lab status")) < 0)
		rc = -1;
	else
		status_print(&lab, &st, have ? &path_sl : NULL);
	ftsw_lab_close(&lab);
	return rc ? 1 : 0;
}

static int list_cb(const char *name, void *arg)
{
	(void)arg;
	ftsw_out_str(NULL, "%s\n", name);
	return 0;
}

static int lab_list(const struct cli_args *a)
{
	(void)a;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_open_array("labs");
	ftsw_lab_list(list_cb, NULL);
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
	return 0;
}

/* lab exec|ib [--name LAB] HOST -- CMD [ARGS...]: the words after "--"
 * are the command's own, never parsed. */
static int lab_exec(const struct cli_object *obj, const struct cli_cmd *cmd,
		    int argc, char **argv)
{
	struct ftsw_lab lab;
	struct ftsw_err err;
	struct cli_args a;
	uint32_t h;
	int dash, rc;

	for (dash = 0; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	rc = cli_parse(obj, cmd, dash, argv, &a);
	cli_args_free(&a);
	if (rc)
		return cli_parse_exit(rc);
	if (dash + 1 >= argc) {
		cli_err("lab %s: HOST -- CMD [ARGS...] expected", cmd->name);
		return 2;
	}
	if (open_lab(&a, &lab))
		return 1;
	if (ftsw_lab_find_host(&lab, a.pos[0], &h, &err))
		goto fail;
	if (!strcmp(cmd->name, "ib")) {
		/* returns only on error */
		ftsw_lab_ib_exec(&lab, h, argv + dash + 1, &err);
		goto fail;
	}
	/* exec: the host's namespaces and its own /sys, as ip netns exec */
	if (ftsw_lab_become_host(&lab, h, &err))
		goto fail;
	ftsw_lab_close(&lab);
	argv += dash + 1;
	execvp(argv[0], argv);
	cli_err("lab exec: %s: %s", argv[0], strerror(errno));
	return 127;
fail:
	cli_err("lab %s: %s", cmd->name, err.msg);
	ftsw_lab_close(&lab);
	return 1;
}

/* At most this many failing pairs in text (-j lists all). */
#define PING_SHOW_FAILS 20

static void ping_print(const struct ftsw_ping_result *res)
{
	uint64_t i;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("pairs", "%" PRIu64 " pairs: ", res->pairs);
	ftsw_out_uint("ok", "%" PRIu64 " ok, ", res->ok);
	ftsw_out_uint("failed", "%" PRIu64 " failed; ", res->failed);
	ftsw_out_uint("sent", "%" PRIu64 " echoes sent, ", res->sent);
	ftsw_out_uint("received", "%" PRIu64 " replies ", res->received);
	ftsw_out_float("seconds", "in %.2f s", res->elapsed_s);
	ftsw_out_uint("retried", NULL, res->retried);
	ftsw_out_open_object("rtt_us");
	if (res->received)
		ftsw_out_text("; rtt min/avg/max ");
	ftsw_out_float("min", res->received ? "%.0f/" : NULL,
		       round(res->min_us));
	ftsw_out_float("avg", res->received ? "%.0f/" : NULL,
		       round(res->avg_us));
	ftsw_out_float("max", res->received ? "%.0f us" : NULL,
		       round(res->max_us));
	ftsw_out_close_object();
	if (res->retried)
		ftsw_out_text(" (%" PRIu64 " echoes re-sent after a silence)",
			      res->retried);
	ftsw_out_text("\n");
	ftsw_out_open_array("failures");
	for (i = 0; i < res->nfails; i++) {
		const struct ftsw_pair_fail *f = &res->fails[i];

		if (!cli.json && i >= PING_SHOW_FAILS)
			break;
		ftsw_out_open_object(NULL);
		ftsw_out_uint("src", "  FAIL h%" PRIu64, f->src);
		ftsw_out_uint("dst", " -> h%" PRIu64, f->dst);
		ftsw_out_uint("received", ": %" PRIu64, f->received);
		ftsw_out_text("/%u replies\n", f->sent);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	if (res->nfails > PING_SHOW_FAILS)
		ftsw_out_text("  ... and %" PRIu64 " more failing pairs (-j "
			      "lists all)\n", res->nfails - PING_SHOW_FAILS);
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_ping(const struct cli_args *a)
{
	struct ftsw_ping_result res;
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint32_t hs[2];
	unsigned i;
	int rc = 1;

	if (open_lab(a, &lab))
		return 1;
	for (i = 0; i < a->npos; i++)
		if (ftsw_lab_find_host(&lab, a->pos[i], &hs[i], &err)) {
			cli_err("lab ping: %s", err.msg);
			goto out;
		}
	if (ftsw_lab_ping(&lab, a->npos ? hs : NULL, 1,
			  a->npos == 2 ? hs + 1 : NULL, 1,
			  a->v[P_COUNT].n ? (unsigned)a->v[P_COUNT].u : 1,
			  a->v[P_WAIT].n ? (unsigned)a->v[P_WAIT].u : 2000,
			  &res, &err)) {
		cli_err("lab ping: %s", err.msg);
		goto out;
	}
	ping_print(&res);
	rc = res.failed ? 1 : 0;
	ftsw_ping_result_free(&res);
out:
	ftsw_lab_close(&lab);
	return rc;
}

/* "s3(desc)" / "h5": a node as trace shows it. */
static const char *trace_node(const struct ftsw_topo *t, uint32_t node,
			      char *buf, size_t sz)
{
	const struct ftsw_node *n = &t->nodes[node];

	snprintf(buf, sz, "%c%" PRIu32 "%s%s%s",
		 n->kind == FTSW_SWITCH ? 's' : 'h', n->index,
		 n->desc ? "(" : "", n->desc ? n->desc : "", n->desc ? ")" : "");
	return buf;
}

static const char *trace_verdict(const struct ftsw_lab_trace_result *res,
				 const struct ftsw_lab_trace_path *p)
{
	if (!p->status)
		return p->confirmed ? "(confirmed by counters)" :
		       res->npaths > 1 ? "(not taken by the probe flow)" :
		       "(COUNTERS DISAGREE)";
	return p->status == -1 ? "no route" : p->status == -2 ? "loop" :
	       p->status == -3 ? "dead port" : "misdelivered";
}

static void trace_print(const struct ftsw_lab *lab,
			const struct ftsw_lab_trace_result *res)
{
	const struct ftsw_topo *t = lab->topo;
	char nb[96];
	unsigned i, h;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("src", NULL, res->src);
	ftsw_out_uint("dst", NULL, res->dst);
	ftsw_out_uint("probes", NULL, res->probes);
	ftsw_out_uint("replies", NULL, res->replies);
	ftsw_out_open_array("paths");
	for (i = 0; i < res->npaths; i++) {
		const struct ftsw_lab_trace_path *p = &res->paths[i];

		ftsw_out_open_object(NULL);
		ftsw_out_uint("dlid", "dlid %" PRIu64 ": ", p->dlid);
		ftsw_out_str(NULL, "%s", trace_node(t, t->hosts[res->src], nb,
						    sizeof(nb)));
		ftsw_out_int("status", NULL, p->status);
		ftsw_out_open_array("hops");
		for (h = 0; h < p->nhops; h++) {
			ftsw_out_open_object(NULL);
			ftsw_out_uint("switch", " -> s%" PRIu64, p->hops[h].sw);
			ftsw_out_uint("port", ":%" PRIu64, p->hops[h].port);
			ftsw_out_uint("tx_delta", " [%" PRIu64 "]",
				      p->hops[h].tx_delta);
			ftsw_out_close_object();
		}
		ftsw_out_close_array();
		ftsw_out_bool("confirmed", NULL, p->confirmed);
		if (!p->status)
			ftsw_out_str(NULL, " -> %s", trace_node(t,
				     t->hosts[res->dst], nb, sizeof(nb)));
		ftsw_out_text("  %s\n", trace_verdict(res, p));
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_text("probes: %u sent, %" PRIu64 " replies ([n] = packets "
		      "sent on that port during the probe)\n", res->probes,
		      res->replies);
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_trace(const struct cli_args *a)
{
	struct ftsw_lab_trace_result res;
	unsigned probes = a->v[T_COUNT].n ? (unsigned)a->v[T_COUNT].u : 5;
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint32_t s, d;
	int rc = 1;

	if (open_lab(a, &lab))
		return 1;
	if (ftsw_lab_find_host(&lab, a->pos[0], &s, &err) ||
	    ftsw_lab_find_host(&lab, a->pos[1], &d, &err) ||
	    ftsw_lab_trace(&lab, s, d, probes, &res, &err)) {
		cli_err("lab trace: %s", err.msg);
	} else {
		trace_print(&lab, &res);
		ftsw_lab_trace_result_free(&res);
		rc = 0;
	}
	ftsw_lab_close(&lab);
	return rc;
}

/* "s8" / "h3": the lab's short name of a node. */
static void node_short(const struct ftsw_topo *t, uint32_t node, char *buf,
		       size_t sz)
{
	snprintf(buf, sz, "%c%" PRIu32,
		 t->nodes[node].kind == FTSW_HOST ? 'h' : 's',
		 t->nodes[node].index);
}

/* One end of a changed cable (JSON only). */
static void change_end(const struct ftsw_lab *lab, const char *key,
		       uint32_t node, unsigned port)
{
	const struct ftsw_topo *t = lab->topo;
	char s[24], dev[32], ns[96];
	bool host = t->nodes[node].kind == FTSW_HOST;

	node_short(t, node, s, sizeof(s));
	if (host)
		ftsw_lab_host_ns(lab->name, t->nodes[node].index, ns,
				 sizeof(ns));
	else
		ftsw_lab_port_dev(t->nodes[node].index, port, dev, sizeof(dev));
	ftsw_out_open_object(key);
	ftsw_out_str("node", NULL, s);
	ftsw_out_str("name", NULL, t->nodes[node].desc ? t->nodes[node].desc : s);
	ftsw_out_uint("port", NULL, port);
	/* A patch cable's end has no device. */
	if (host || !lab->patch || t->nodes[ftsw_port(t, node, port)->peer].kind
	    != FTSW_SWITCH)
		ftsw_out_str("dev", NULL, host ? "eth0" : dev);
	ftsw_out_str("netns", NULL, host ? ns : lab->name);
	ftsw_out_close_object();
}

/*
 * Text: one "failed|healed link s8:1 <-> s16:3" line per cable. JSON:
 * {"lab", "action", "count", "changed": [{"a": END, "b": END,
 * "cable": "switch"|"host", "state": "up"|"down"}]}, END = {"node": "s8",
 * "name", "port", "dev", "netns"} ("dev" absent on a patch cable's ends).
 */
static void changes_print(const struct ftsw_lab *lab,
			  const struct ftsw_lab_changes *ch, const char *action)
{
	const struct ftsw_topo *t = lab->topo;
	size_t i;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("lab", NULL, lab->name);
	ftsw_out_str("action", NULL, action);
	ftsw_out_uint("count", NULL, ch->n);
	ftsw_out_open_array("changed");
	for (i = 0; i < ch->n; i++) {
		const struct ftsw_lab_change *c = &ch->v[i];
		bool host = t->nodes[c->b].kind == FTSW_HOST;
		char a[24], b[24];

		node_short(t, c->a, a, sizeof(a));
		node_short(t, c->b, b, sizeof(b));
		ftsw_out_open_object(NULL);
		ftsw_out_text("%s link %s:%u <-> %s", c->up ? "healed" :
			      "failed", a, c->a_port, b);
		if (host)
			ftsw_out_text(" (eth0)\n");
		else
			ftsw_out_text(":%u\n", c->b_port);
		change_end(lab, "a", c->a, c->a_port);
		change_end(lab, "b", c->b, c->b_port);
		ftsw_out_str("cable", NULL, host ? "host" : "switch");
		ftsw_out_str("state", NULL, c->up ? "up" : "down");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_fail(const struct cli_args *a, bool up)
{
	const char *cmd = up ? "heal" : "fail", *what = a->pos[0];
	struct ftsw_lab_changes ch = { 0 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	bool all = a->v[F_ALL].n;
	int rc;

	if (!((a->npos == 3 && !strcmp(what, "link")) ||
	      (a->npos == 2 && (!strcmp(what, "switch") ||
				!strcmp(what, "port"))))) {
		cli_err("lab %s: link A B | switch S | port S:P expected", cmd);
		return 2;
	}
	if (open_lab(a, &lab))
		return 1;
	if (!strcmp(what, "link"))
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_LINK, a->pos[1], a->pos[2],
				   up, all, &ch, &err);
	else if (!strcmp(what, "switch"))
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_SWITCH, a->pos[1], NULL, up,
				   true, &ch, &err);
	else
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_PORT, a->pos[1], NULL, up,
				   false, &ch, &err);
	/* What did change is reported, also before an error. */
	if (!rc || ch.n)
		changes_print(&lab, &ch, cmd);
	if (rc)
		cli_err("lab %s: %s", cmd, err.msg);
	ftsw_lab_changes_free(&ch);
	ftsw_lab_close(&lab);
	return rc ? 1 : 0;
}

static int lab_chaos(const struct cli_args *a)
{
	struct ftsw_lab_changes ch = { 0 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc;

	if (open_lab(a, &lab))
		return 1;
	rc = ftsw_lab_chaos(&lab, (unsigned)a->v[C_COUNT].u,
			    a->v[C_SEED].n ? a->v[C_SEED].u : 1, &ch, &err) ?
	     1 : 0;
	if (!rc || ch.n)
		changes_print(&lab, &ch, "chaos");
	if (rc)
		cli_err("lab chaos: %s", err.msg);
	ftsw_lab_changes_free(&ch);
	ftsw_lab_close(&lab);
	return rc;
}

/* The options of lab traffic into o: 0, or an exit status. */
static int lab_traffic_opts(const struct cli_args *a,
			    struct ftsw_lab_traffic_opts *o,
			    struct lab_traffic_show *show)
{
	o->pattern = a->v[X_PATTERN].s;
	if (a->v[X_ORDER].n)
		o->order = a->v[X_ORDER].s;
	if (a->v[X_PACKETS].n)
		o->packets = (unsigned)a->v[X_PACKETS].u;
	o->size = (unsigned)a->v[X_SIZE].u;
	if (a->v[X_SEED].n)
		o->seed = a->v[X_SEED].u;
	o->max_stages = (unsigned)a->v[X_STAGES].u;
	show->per_stage = a->v[X_PER_STAGE].n;
	show->svg = a->v[X_SVG].s;
	o->pps = (unsigned)a->v[X_PPS].u;
	o->duration_ms = (unsigned)a->v[X_DURATION].u;
	o->random_dst = a->v[X_RANDOM_DST].n;
	o->fail_at = (unsigned)a->v[X_FAIL_AT].u;
	/* --fail A B: B is the one positional word */
	if (a->v[X_FAIL].n != (a->npos == 1)) {
		cli_err(a->npos ? "lab traffic: unknown argument '%s'" :
			"lab traffic: --fail A B: B expected%s",
			a->npos ? a->pos[0] : "");
		return 2;
	}
	o->fail_a = a->v[X_FAIL].s;
	o->fail_b = a->npos ? a->pos[0] : NULL;
	return 0;
}

static int lab_traffic(const struct cli_args *a)
{
	struct ftsw_lab_traffic_opts o = { .order = "topology", .packets = 10,
					   .seed = 1 };
	struct ftsw_lab_traffic_result res;
	struct lab_traffic_show show;
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc;

	rc = lab_traffic_opts(a, &o, &show);
	if (rc)
		return rc;
	if (open_lab(a, &lab))
		return 1;
	if (isatty(2) && !cli.json) {
		o.progress = cli_progress;
		o.progress_arg = "lab traffic";
	}
	rc = ftsw_lab_traffic(&lab, &o, &res, &err);
	if (rc >= 0 && lab_traffic_print(&lab, &o, &show, &res, &err))
		rc = -1;
	if (rc < 0) {
		cli_err("lab traffic: %s", err.msg);
		rc = 1;
	}
	ftsw_lab_traffic_result_free(&res);
	ftsw_lab_close(&lab);
	return rc;
}

static int lab_heal(const struct cli_args *a)
{
	return lab_fail(a, true);
}

static int lab_fail_cmd(const struct cli_args *a)
{
	return lab_fail(a, false);
}
