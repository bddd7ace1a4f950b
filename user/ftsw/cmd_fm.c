// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw fm: the fabric manager (user/lib/fm/fm.h).
 *
 *   ftsw fm [--lab NAME] [-a ENGINE] [--once] [-d [--log FILE]] [--rcvbuf B]
 *   ftsw fm status [--lab NAME]
 *   ftsw fm stop [--lab NAME]
 */
#include <errno.h>
#include <fcntl.h>
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

static void fm_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw fm [--lab NAME] [-a ENGINE] [--once] [-d] [--log FILE]\n"
		"               [--rcvbuf BYTES]\n"
		"       ftsw fm status [--lab NAME]\n"
		"       ftsw fm stop [--lab NAME]\n"
		"Without --lab (or $FTSW_LAB) the manager runs the fabric of its\n"
		"own network namespace. -d: daemon (log to FILE, default the\n"
		"lab's fm.log). SIGINT/SIGTERM stop it cleanly. --rcvbuf: the\n"
		"event socket's receive buffer (default 8 MiB; a tiny one\n"
		"provokes event overruns, which the manager repairs).\n");
}

static int read_status(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sz - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

static long status_pid(const char *s)
{
	const char *p = strstr(s, "\"pid\":");

	return p ? strtol(p + 6, NULL, 10) : 0;
}

/* "key": number -> number */
static unsigned long long jnum(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(s, k);
	return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

static int fm_status(const char *lab)
{
	char path[320], buf[4096];
	long pid;
	bool alive;

	ftsw_fm_status_path(lab, path, sizeof(path));
	if (read_status(path, buf, sizeof(buf))) {
		cli_err("fm status: no fabric manager status at %s (is ftsw fm "
			"running?)", path);
		return 1;
	}
	pid = status_pid(buf);
	alive = pid > 0 && kill((pid_t)pid, 0) == 0;
	if (cli.json) {
		buf[strcspn(buf, "\n")] = 0;
		printf("{\"running\":%s,\"status\":%s}\n", alive ? "true" : "false",
		       buf);
		return 0;
	}
	printf("fabric manager %s (pid %ld)%s\n", alive ? "running" : "NOT running",
	       pid, lab ? "" : "");
	printf("  switches %llu, hosts %llu, LMC %llu\n", jnum(buf, "switches"),
	       jnum(buf, "hosts"), jnum(buf, "lmc"));
	printf("  cables usable %llu of %llu\n", jnum(buf, "cables_usable"),
	       jnum(buf, "cables"));
	printf("  generation %llu, %llu port events (%llu without change), "
	       "%llu sweeps, %llu event overruns\n", jnum(buf, "generation"),
	       jnum(buf, "events"), jnum(buf, "no_change_events"),
	       jnum(buf, "sweeps"), jnum(buf, "overruns"));
	{
		const char *c = strstr(buf, "\"cause\":\"");
		char cause[160] = "";

		if (c) {
			c += 9;
			snprintf(cause, sizeof(cause), "%.*s",
				 (int)strcspn(c, "\""), c);
		}
		printf("  last sweep: %s\n", cause);
	}
	printf("    routes computed +%llu us, uploaded +%llu us (%llu switches), "
	       "committed +%llu us\n", jnum(buf, "routed_us"),
	       jnum(buf, "uploaded_us"), jnum(buf, "switches_changed"),
	       jnum(buf, "committed_us"));
	if (jnum(buf, "unreachable_pairs")) {
		const char *u = strstr(buf, "\"unreachable\":[");

		printf("  unreachable host pairs: %llu %.*s\n",
		       jnum(buf, "unreachable_pairs"),
		       u ? (int)strcspn(u + 14, "}") : 0, u ? u + 14 : "");
	} else {
		printf("  every host pair routed\n");
	}
	return alive ? 0 : 1;
}

static int fm_stop_cmd(const char *lab)
{
	char path[320], buf[4096];
	long pid;
	int i;

	ftsw_fm_status_path(lab, path, sizeof(path));
	if (read_status(path, buf, sizeof(buf)) || (pid = status_pid(buf)) <= 0) {
		cli_err("fm stop: no fabric manager status at %s", path);
		return 1;
	}
	if (kill((pid_t)pid, SIGTERM) < 0) {
		cli_err("fm stop: pid %ld: %s", pid, strerror(errno));
		return 1;
	}
	for (i = 0; i < 100 && kill((pid_t)pid, 0) == 0; i++)
		usleep(20000);
	return 0;
}

int cmd_fm(int argc, char **argv)
{
	struct ftsw_fm_opts o = { 0 };
	struct ftsw_err err;
	const char *lab = getenv("FTSW_LAB"), *logpath = NULL;
	char deflog[320];
	bool daemon_mode = false;
	struct sigaction sa;
	int ready_fd = -1;
	int i, cmd = 0;

	if (lab && !*lab)
		lab = NULL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (i == 1 && !strcmp(a, "status"))
			cmd = 1;
		else if (i == 1 && !strcmp(a, "stop"))
			cmd = 2;
		else if (i == 1 && (!strcmp(a, "help") || !strcmp(a, "--help"))) {
			fm_usage(stdout);
			return 0;
		} else if ((!strcmp(a, "--lab") || !strcmp(a, "--name")) && n) {
			lab = n;
			i++;
		} else if ((!strcmp(a, "-a") || !strcmp(a, "--engine")) && n) {
			o.engine = n;
			i++;
		} else if (!strcmp(a, "--log") && n) {
			logpath = n;
			i++;
		} else if (!strcmp(a, "--rcvbuf") && n) {
			char *e;
			long v = strtol(n, &e, 10);

			if (*e || e == n || v < 1 || v > (1L << 30)) {
				cli_err("fm: --rcvbuf '%s': bytes, 1..%ld "
					"expected", n, 1L << 30);
				return 2;
			}
			o.rcvbuf = (int)v;
			i++;
		} else if (!strcmp(a, "--once")) {
			o.once = true;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--daemon")) {
			daemon_mode = true;
		} else {
			cli_err("fm: unknown argument '%s'", a);
			fm_usage(stderr);
			return 2;
		}
	}
	if (cmd == 1)
		return fm_status(lab);
	if (cmd == 2)
		return fm_stop_cmd(lab);
	mkdir(FTSW_LAB_RUNDIR, 0755);
	o.netns = lab;
	o.json = cli.json;
	o.stop = &fm_stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (daemon_mode) {
		int pfd[2], fd;
		pid_t pid;
		char c;

		if (!logpath) {
			if (lab)
				snprintf(deflog, sizeof(deflog), FTSW_LAB_RUNDIR
					 "/%s/fm.log", lab);
			else
				snprintf(deflog, sizeof(deflog), FTSW_LAB_RUNDIR
					 "/fm.log");
			logpath = deflog;
		}
		if (pipe(pfd) < 0) {
			cli_err("fm: pipe: %s", strerror(errno));
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			cli_err("fm: fork: %s", strerror(errno));
			return 1;
		}
		if (pid > 0) {
			close(pfd[1]);
			/* The child closes its end once the first commit is done. */
			if (read(pfd[0], &c, 1) != 1) {
				int st;

				waitpid(pid, &st, 0);
				cli_err("fm: the daemon failed (see %s)", logpath);
				return 1;
			}
			printf("fm: daemon pid %d, log %s\n", (int)pid, logpath);
			return 0;
		}
		close(pfd[0]);
		setsid();
		fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		setvbuf(stdout, NULL, _IOLBF, 0);
		ready_fd = pfd[1];
		o.ready = daemon_ready;
		o.ready_arg = &ready_fd;
	} else if (logpath) {
		o.log = fopen(logpath, "a");
		if (!o.log) {
			cli_err("fm: %s: %s", logpath, strerror(errno));
			return 1;
		}
		setvbuf(o.log, NULL, _IOLBF, 0);
	}
	if (ftsw_fm_run(&o, &err)) {
		cli_err("fm: %s", err.msg);
		return 1;
	}
	if (!o.once)
		fprintf(o.log ? o.log : stdout, "fm: stopped\n");
	return 0;
}
