// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab view: the live view of a lab over HTTP (view/view.h): the page,
 * its push stream and /metrics, on loopback unless --listen says where;
 * in the foreground, or as a daemon (-d) that returns once it listens.
 * --stop stops the lab's view (lab down does it too).
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
#include "cmd_lab.h"
#include "util/output.h"
#include "util/rundir.h"
#include "view/view.h"

static const char *const hosts_words[] = { "auto", "yes", "no", NULL };

enum { V_NAME, V_LISTEN, V_INTERVAL, V_HOSTS, V_MAX_CLIENTS, V_TIMEOUT,
       V_DAEMON, V_STOP, V_N };
const struct cli_opt lab_view_opts[V_N + 1] = {
	[V_NAME] = LAB_OPT_NAME,
	[V_LISTEN] = { "--listen", NULL, CLI_STR, "ADDR:PORT",
		       .help = "where to listen (default 127.0.0.1:8470; port "
			       "0: any free one; [ADDR6]:PORT)" },
	[V_INTERVAL] = { "--interval", NULL, CLI_NUM, "MS", 100, 60000,
			 .help = "between samples of the kernel's counters "
				 "(default 500: two a second)" },
	[V_HOSTS] = { "--hosts", NULL, CLI_WORD, "auto|yes|no",
		      .words = hosts_words,
		      .help = "draw every host (auto: up to 256 hosts)" },
	[V_MAX_CLIENTS] = { "--max-clients", NULL, CLI_NUM, "N", 1, 4096,
			    .help = "connections at once (default 1024)" },
	[V_TIMEOUT] = { "--timeout", NULL, CLI_NUM, "SECONDS", 1, 3600,
			.help = "an idle connection is closed after (15)" },
	[V_DAEMON] = { "-d", "--daemon", CLI_FLAG,
		       .help = "run in the background (log: the lab's "
			       "view.log), print the URL once listening" },
	[V_STOP] = { "--stop", NULL, CLI_FLAG,
		     .help = "stop the lab's view" },
};

static volatile int view_stop;

static void on_signal(int sig)
{
	(void)sig;
	view_stop = 1;
}

struct ready {
	int fd;			/* the daemon's pipe to its parent, or -1 */
};

static void ready(const char *url, void *arg)
{
	struct ready *r = arg;

	if (r->fd >= 0) {
		if (write(r->fd, url, strlen(url)) < 0)
			perror("lab view: ready");
		close(r->fd);
		r->fd = -1;
		return;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("url", "lab view: %s", url);
	ftsw_out_int("pid", " (pid %" PRId64 ")\n", (int64_t)getpid());
	ftsw_out_close_object();
	ftsw_out_end();
	fflush(stdout);
}

/*
 * -d: the parent returns once the child listens (its URL through a pipe);
 * the child goes on with its output in log. 1 in the parent (*rc set).
 */
static int daemonize(const char *lab, const char *log, struct ready *r,
		     int *rc)
{
	char url[160];
	int pfd[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd) < 0 || (pid = fork()) < 0) {
		cli_err("lab view: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		close(pfd[1]);
		n = read(pfd[0], url, sizeof(url) - 1);
		if (n <= 0) {
			waitpid(pid, &st, 0);
			cli_err("lab view: the daemon failed (see %s)", log);
			*rc = 1;
			return 1;
		}
		url[n] = 0;
		ftsw_out_begin(stdout, cli.json);
		ftsw_out_open_object(NULL);
		ftsw_out_str("lab", "lab view of %s: ", lab);
		ftsw_out_str("url", "%s", url);
		ftsw_out_int("pid", " (pid %" PRId64, pid);
		ftsw_out_str("log", ", log %s)\n", log);
		ftsw_out_close_object();
		ftsw_out_end();
		*rc = 0;
		return 1;
	}
	close(pfd[0]);
	cli_detach(log);
	r->fd = pfd[1];
	return 0;
}

static int view_stop_cmd(const char *name)
{
	struct ftsw_err err;
	int rc = ftsw_view_stop(name, 5000, &err);

	if (rc < 0) {
		cli_err("lab view --stop: %s", err.msg);
		return 1;
	}
	if (rc == 1)
		printf("lab view: lab %s has no view running\n", name);
	return 0;
}

int lab_view(const struct cli_args *a)
{
	struct ftsw_view_opts vo = { .hosts = -1 };
	struct ftsw_view_server_opts so = { 0 };
	struct ftsw_view_listener l;
	struct ready r = { .fd = -1 };
	struct ftsw_view *v;
	struct ftsw_lab lab;
	struct ftsw_err err;
	struct sigaction sa;
	const char *name = lab_name(a->v[V_NAME].s, false);
	char log[320], url[128];
	long other;
	int rc = 1;

	if (a->v[V_STOP].n)
		return view_stop_cmd(name);
	if (a->v[V_HOSTS].n && a->v[V_HOSTS].u)
		vo.hosts = a->v[V_HOSTS].u == 1;
	vo.interval_ms = (unsigned)a->v[V_INTERVAL].u;
	so.max_clients = (unsigned)a->v[V_MAX_CLIENTS].u;
	so.timeout_s = (unsigned)a->v[V_TIMEOUT].u;
	so.stop = &view_stop;
	so.ready = ready;
	so.ready_arg = &r;
	so.listener = &l;
	other = ftsw_view_running(name, url, sizeof(url));
	if (other) {
		cli_err("lab view: lab %s is watched already: lab view pid %ld "
			"at %s", name, other, url);
		return 1;
	}
	/* the socket first: it stays in the namespace it is made in, where
	 * the user's browser is (a lab without root is opened in the user's
	 * own namespaces) */
	if (ftsw_view_listen(a->v[V_LISTEN].s, &l, &err)) {
		cli_err("lab view: %s", err.msg);
		return 1;
	}
	if (open_lab(a, &lab)) {
		close(l.fd);
		return 1;
	}
	if (a->v[V_DAEMON].n) {
		int prc = 1;

		snprintf(log, sizeof(log), "%s/%s/view.log", ftsw_rundir(),
			 lab.name);
		if (daemonize(lab.name, log, &r, &prc)) {
			close(l.fd);
			ftsw_lab_close(&lab);
			return prc;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ftsw_lab_raise_nofile();
	v = ftsw_view_open(&lab, &vo, &err);
	if (v && !ftsw_view_serve(v, &so, &err))
		rc = 0;
	else
		cli_err("lab view: %s", err.msg);
	if (!v)
		close(l.fd);
	ftsw_view_close(v);
	ftsw_lab_close(&lab);
	return rc;
}
