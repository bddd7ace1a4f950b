// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw fm: the fabric manager (user/lib/fm/fm.h).
 *
 *   ftsw fm [--lab NAME] [-a ENGINE] [--once] [-d [--log FILE]] [--rcvbuf B]
 *   ftsw fm status [--lab NAME]
 *   ftsw fm stop [--lab NAME]
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fm/fm.h"
#include "lab/lab.h"
#include "util/output.h"
#include "util/rundir.h"

static volatile int fm_stop;

static void on_signal(int sig)
{
	(void)sig;
	fm_stop = 1;
}

/* The daemon tells its parent the first commit is done. */
static void daemon_ready(void *arg)
{
	int *fd = arg;
	char c = 1;

	if (*fd >= 0) {
		if (write(*fd, &c, 1) < 0)
			perror("fm: ready");
		close(*fd);
		*fd = -1;
	}
}

/* The lab a command works on: the same option for lab and fm. */
#define FM_OPT_LAB { "--lab", "--name", CLI_STR, "LAB", \
	.help = "the lab's fabric (default $FTSW_LAB, else the one lab " \
		"there is, else \"" FTSW_LAB_DEFAULT "\" if it exists, else " \
		"this namespace's)" }

enum { R_LAB, R_ENGINE, R_ONCE, R_DAEMON, R_LOG, R_RCVBUF, R_THREADS, R_N };
static const struct cli_opt run_opts[R_N + 1] = {
	[R_LAB] = FM_OPT_LAB,
	[R_ENGINE] = { "-a", "--engine", CLI_ENGINE, "ENGINE",
		       .help = "routing engine (default dmodc)" },
	[R_ONCE] = { "--once", NULL, CLI_FLAG,
		     .help = "discover, route, commit and exit" },
	[R_DAEMON] = { "-d", "--daemon", CLI_FLAG,
		       .help = "run in the background once the first commit "
			       "is done" },
	[R_LOG] = { "--log", NULL, CLI_FILE, "FILE",
		    .help = "log there (-d: default the lab's fm.log)" },
	[R_RCVBUF] = { "--rcvbuf", NULL, CLI_NUM, "BYTES", 1, 1u << 30,
		       .help = "event socket receive buffer (default 8 MiB)" },
	[R_THREADS] = CLI_OPT_THREADS,
};

enum { S_LAB, S_N };
static const struct cli_opt lab_opts[S_N + 1] = {
	[S_LAB] = FM_OPT_LAB,
};

static const char run_notes[] =
"The manager discovers the fabric from the kernel (switches, ports, the\n"
"cabling; the LMC from the edge ports), routes it, uploads what changed and\n"
"commits, then reroutes on every change of the usable cables. SIGINT or\n"
"SIGTERM stop it cleanly. A tiny --rcvbuf provokes event overruns, which\n"
"the manager repairs from a port dump. With -j the log is JSON lines.\n";

/* One line of the log per report: text, or one JSON document. */
/* The first unreachable (src, dst) host pairs: [a,b],[c,d] as text. */
static void unreach_print(const uint32_t (*pairs)[2], unsigned n)
{
	unsigned i;

	ftsw_out_open_array("unreachable");
	for (i = 0; i < n; i++) {
		ftsw_out_open_array(NULL);
		ftsw_out_uint(NULL, i ? ",[%" PRIu64 : "[%" PRIu64, pairs[i][0]);
		ftsw_out_uint(NULL, ",%" PRIu64 "]", pairs[i][1]);
		ftsw_out_close_array();
	}
	ftsw_out_close_array();
}

static void fm_report(const struct ftsw_fm_report *r, void *arg)
{
	FILE *log = arg;

	ftsw_out_begin(log, cli.json);
	ftsw_out_open_object(NULL);
	switch (r->kind) {
	case FTSW_FM_SWEPT:
		ftsw_out_uint("sweep", NULL, r->sweeps);
		ftsw_out_str("cause", "fm: %s: ", r->cause);
		ftsw_out_uint("routed_us", "routes computed +%" PRIu64 " us, ",
			      r->sweep->routed_us);
		ftsw_out_uint("switches_changed", "uploaded (%" PRIu64
			      " switches) ", r->sweep->switches_changed);
		ftsw_out_uint("uploaded_us", "+%" PRIu64 " us, ",
			      r->sweep->uploaded_us);
		ftsw_out_uint("generation", "committed generation %" PRIu64,
			      r->sweep->generation);
		ftsw_out_uint("committed_us", " +%" PRIu64 " us",
			      r->sweep->committed_us);
		ftsw_out_uint("cables_usable", NULL, r->cables_usable);
		ftsw_out_uint("unreachable_pairs", r->sweep->unreachable ?
			      "; %" PRIu64 " host pairs UNREACHABLE: " : NULL,
			      r->sweep->unreachable);
		unreach_print(r->unreach, r->nunreach);
		if (r->sweep->unreachable > r->nunreach)
			ftsw_out_text(",...");
		if (!r->sweep->unreachable)
			ftsw_out_text("; all %" PRIu64 " host pairs routed",
				      (uint64_t)r->hosts * (r->hosts - 1));
		break;
	case FTSW_FM_NO_CHANGE:
		ftsw_out_uint("no_change", NULL, r->events);
		ftsw_out_str("first", "fm: %s", r->cause);
		ftsw_out_text("%s: no change (%u event%s, ", r->more ?
			      " + more" : "", r->events,
			      r->events == 1 ? "" : "s");
		ftsw_out_uint("cables_usable", "%" PRIu64, r->cables_usable);
		ftsw_out_text(" of %zu cables usable)", r->cables);
		break;
	case FTSW_FM_OVERRUN:
		ftsw_out_str("overrun", "fm: event receive: %s (events lost); "
			     "resynchronising from a port dump", r->error);
		break;
	case FTSW_FM_RESYNCED:
		ftsw_out_uint("resynchronised", "fm: resynchronised: %" PRIu64,
			      r->changed);
		ftsw_out_text(" port state%s changed", r->changed == 1 ? "" :
			      "s");
		break;
	case FTSW_FM_FAILED:
		ftsw_out_str("failed", "fm: %s", r->error);
		break;
	}
	ftsw_out_text("\n");
	ftsw_out_close_object();
	ftsw_out_end();
}

static void status_print(const struct ftsw_fm_status *st, bool alive)
{

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_bool("running", NULL, alive);
	ftsw_out_text("fabric manager %s", alive ? "running" : "NOT running");
	ftsw_out_open_object("status");
	ftsw_out_int("pid", " (pid %" PRId64 ")\n", st->pid);
	ftsw_out_str("netns", NULL, st->netns);
	ftsw_out_str("engine", NULL, st->engine);
	ftsw_out_uint("switches", "  switches %" PRIu64, st->switches);
	ftsw_out_uint("hosts", ", hosts %" PRIu64, st->hosts);
	ftsw_out_uint("lmc", ", LMC %" PRIu64 "\n", st->lmc);
	ftsw_out_uint("cables_usable", "  cables usable %" PRIu64,
		      st->cables_usable);
	ftsw_out_uint("cables", " of %" PRIu64 "\n", st->cables);
	ftsw_out_uint("generation", "  generation %" PRIu64, st->generation);
	ftsw_out_uint("events", ", %" PRIu64 " port events", st->events);
	ftsw_out_uint("no_change_events", " (%" PRIu64 " without change), ",
		      st->no_change_events);
	ftsw_out_uint("sweeps", "%" PRIu64 " sweeps, ", st->sweeps);
	ftsw_out_uint("overruns", "%" PRIu64 " event overruns\n",
		      st->overruns);
	ftsw_out_open_object("last");
	ftsw_out_str("cause", "  last sweep: %s\n", st->cause);
	ftsw_out_uint("routed_us", "    routes computed +%" PRIu64 " us, ",
		      st->routed_us);
	ftsw_out_uint("uploaded_us", "uploaded +%" PRIu64 " us ",
		      st->uploaded_us);
	ftsw_out_uint("switches_changed", "(%" PRIu64 " switches), ",
		      st->switches_changed);
	ftsw_out_uint("committed_us", "committed +%" PRIu64 " us\n",
		      st->committed_us);
	ftsw_out_close_object();
	ftsw_out_uint("unreachable_pairs", st->unreachable_pairs ?
		      "  unreachable host pairs: %" PRIu64 " " : NULL,
		      st->unreachable_pairs);
	if (!st->unreachable_pairs)
		ftsw_out_text("  every host pair routed");
	unreach_print(st->unreach, st->nunreach);
	ftsw_out_text("\n");
	ftsw_out_close_object();
	ftsw_out_close_object();
	ftsw_out_end();
}

/* Lab's fabric manager status (its file's name in path[320]). */
static int status_of(const char *lab, struct ftsw_fm_status *st, char *path,
		     struct ftsw_err *err)
{
	ftsw_fm_status_path(lab, path, 320);
	if (access(path, F_OK)) {
		ftsw_err_set(err, "no fabric manager status at %s (is ftsw fm "
			     "running?)", path);
		return -1;
	}
	return ftsw_fm_status_read(path, st, err);
}

static int fm_status(const char *lab)
{
	struct ftsw_fm_status st;
	struct ftsw_err err;
	char path[320];
	bool alive;

	if (status_of(lab, &st, path, &err)) {
		cli_err("fm status: %s", err.msg);
		return 1;
	}
	alive = st.pid > 0 && kill((pid_t)st.pid, 0) == 0;
	status_print(&st, alive);
	return alive || cli.json ? 0 : 1;
}

static int fm_kill(const char *lab)
{
	struct ftsw_err err;
	char path[320];
	int rc;

	rc = ftsw_fm_stop(lab, 2000, &err);
	if (rc < 0) {
		cli_err("fm stop: %s", err.msg);
		return 1;
	}
	if (rc > 0) {
		ftsw_fm_status_path(lab, path, sizeof(path));
		cli_err("fm stop: no fabric manager runs (status file %s)",
			path);
		return 1;
	}
	return 0;
}

struct fm_args {
	const char *lab, *logpath;
	bool daemon;
	struct ftsw_fm_opts o;
};

/*
 * The lab, by lab's rule (ftsw_lab_pick): the option, else $FTSW_LAB, else
 * the one lab there is, else "ftsw"; when that lab does not exist either,
 * none: the fabric of the namespace fm runs in.
 */
static const char *fm_lab(const struct cli_args *a)
{
	static char only[FTSW_LAB_NAME_MAX + 1];
	const char *e = getenv("FTSW_LAB");
	const char *lab = ftsw_lab_pick(a->v[0].n ? a->v[0].s : NULL, false,
					only, sizeof(only));

	if (!a->v[0].n && !(e && *e) && !ftsw_lab_exists(lab))
		return NULL;
	return lab;
}

/* After a failure in the namespace fm runs in: where it looked, and how to
 * name a lab. */
static void fm_hint(const char *lab)
{
	char names[256];
	unsigned n;

	if (lab)
		return;
	n = ftsw_lab_names(names, sizeof(names), NULL, 0);
	cli_err("fm: it looked at the fabric of the network namespace it runs "
		"in (no lab named, and no lab \"%s\"); name one with --lab LAB "
		"or FTSW_LAB=LAB (%s%s)", FTSW_LAB_DEFAULT,
		n ? "labs here: " : "no lab here: ftsw lab up makes one",
		n ? names : "");
}

static void fm_args(const struct cli_args *a, struct fm_args *fa)
{
	fa->lab = fm_lab(a);
	fa->o.engine = a->v[R_ENGINE].s;
	fa->o.once = a->v[R_ONCE].n;
	fa->daemon = a->v[R_DAEMON].n;
	fa->logpath = a->v[R_LOG].s;
	fa->o.rcvbuf = (int)a->v[R_RCVBUF].u;
	fa->o.threads = (unsigned)a->v[R_THREADS].u;
}

/*
 * The daemon failed before its first commit: what it logged from offset
 * `from` goes to stderr, and a log it created goes (nothing left behind).
 */
static void daemon_failed(const char *logpath, off_t from, bool created)
{
	char line[1024];
	FILE *f = fopen(logpath, "r");

	if (f && fseeko(f, from, SEEK_SET) == 0)
		while (fgets(line, sizeof(line), f))
			fputs(line, stderr);
	if (f)
		fclose(f);
	if (created)
		unlink(logpath);
	cli_err("fm: the daemon failed before its first commit%s%s",
		created ? "" : "; its log: ", created ? "" : logpath);
}

/*
 * Fork the daemon: the parent returns once the child's first commit is
 * done (*parent_rc set), the child returns with its output on logpath.
 */
static int fm_daemonize(struct fm_args *fa, int *ready_fd, int *parent_rc)
{
	struct stat sb;
	bool created = stat(fa->logpath, &sb) < 0;
	off_t from = created ? 0 : sb.st_size;
	int pfd[2], st;
	pid_t pid;
	char c;

	if (pipe(pfd) < 0) {
		cli_err("fm: pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		cli_err("fm: fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		close(pfd[1]);
		/* The child closes its end once the first commit is done. */
		if (read(pfd[0], &c, 1) != 1) {
			waitpid(pid, &st, 0);
			daemon_failed(fa->logpath, from, created);
			*parent_rc = 1;
		} else {
			ftsw_out_begin(stdout, cli.json);
			ftsw_out_open_object(NULL);
			ftsw_out_int("pid", "fm: daemon pid %" PRId64, pid);
			ftsw_out_str("log", ", log %s\n", fa->logpath);
			ftsw_out_close_object();
			ftsw_out_end();
			*parent_rc = 0;
		}
		return 1;
	}
	close(pfd[0]);
	cli_detach(fa->logpath);
	*ready_fd = pfd[1];
	fa->o.ready = daemon_ready;
	fa->o.ready_arg = ready_fd;
	return 0;
}

static int fm_run(const struct cli_args *a)
{
	struct fm_args fa = { 0 };
	struct ftsw_err err;
	char deflog[320];
	struct sigaction sa;
	int ready_fd = -1, rc;
	FILE *log = stdout;

	fm_args(a, &fa);
	/* a lab's fabric manager keeps its files in the lab's directory */
	if (!fa.lab)
		ftsw_rundir_make(NULL);
	fa.o.netns = fa.lab;
	fa.o.stop = &fm_stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (fa.daemon) {
		int parent_rc = 1;

		if (!fa.logpath) {
			if (fa.lab)
				snprintf(deflog, sizeof(deflog), "%s/%s/fm.log",
					 ftsw_rundir(), fa.lab);
			else
				snprintf(deflog, sizeof(deflog), "%s/fm.log",
					 ftsw_rundir());
			fa.logpath = deflog;
		}
		rc = fm_daemonize(&fa, &ready_fd, &parent_rc);
		if (rc)
			return rc < 0 ? 1 : parent_rc;
	} else if (fa.logpath) {
		log = fopen(fa.logpath, "a");
		if (!log) {
			cli_err("fm: %s: %s", fa.logpath, strerror(errno));
			return 1;
		}
		setvbuf(log, NULL, _IOLBF, 0);
	}
	fa.o.report = fm_report;
	fa.o.report_arg = log;
	if (ftsw_fm_run(&fa.o, &err)) {
		cli_err("fm: %s", err.msg);
		fm_hint(fa.lab);
		return 1;
	}
	if (!fa.o.once) {
		ftsw_out_begin(log, cli.json);
		ftsw_out_open_object(NULL);
		ftsw_out_bool("stopped", "fm: stopped\n", true);
		ftsw_out_close_object();
		ftsw_out_end();
	}
	return 0;
}

static int fm_status_cmd(const struct cli_args *a)
{
	return fm_status(fm_lab(a));
}

static int fm_stop_cmd(const struct cli_args *a)
{
	return fm_kill(fm_lab(a));
}

const struct cli_cmd cli_cmds_fm[] = {
	{ "", "[--lab LAB] [-a ENGINE] [--once] [-d] [--log FILE] "
	  "[--rcvbuf BYTES] [--threads N]", "run the fabric manager", .opts = run_opts,
	  .notes = run_notes, .run = fm_run },
	{ "status", "[--lab LAB]", "the running manager's state",
	  .opts = lab_opts, .run = fm_status_cmd },
	{ "stop", "[--lab LAB]", "stop the running manager", .opts = lab_opts,
	  .run = fm_stop_cmd },
	{ NULL }
};
