// SPDX-License-Identifier: GPL-2.0
/*
 * One view server per lab: its pid and URL in RUNDIR/LAB/view.pid (util/rundir.h)
 * while it runs, for a second `lab view` to name it and for `lab down` to
 * stop it (its netlink sockets would keep the fabric's namespace alive).
 * A stale file's pid is believed only while it is an ftsw process.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/rundir.h"
#include "view/view_int.h"

static void pid_path(const char *lab, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s/view.pid", ftsw_rundir(), lab);
}

static bool is_ftsw(long pid)
{
	return ftsw_pid_live(pid, "ftsw");
}

long ftsw_view_running(const char *lab, char *url, size_t sz)
{
	char path[320], u[128] = "";
	long pid = 0;
	FILE *f;

	pid_path(lab, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%ld %127s", &pid, u) < 1)
		pid = 0;
	fclose(f);
	if (!is_ftsw(pid) || pid == (long)getpid())
		return 0;
	if (url)
		snprintf(url, sz, "%s", u);
	return pid;
}

int ftsw_view_pid_write(const char *lab, const char *url, struct ftsw_err *err)
{
	char path[320], *tmp;
	FILE *f;

	pid_path(lab, path, sizeof(path));
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -1;
	fprintf(f, "%ld %s\n", (long)getpid(), url);
	return ftsw_atomic_commit(f, path, tmp, err);
}

void ftsw_view_pid_remove(const char *lab)
{
	char path[320], u[128];
	long pid = 0;
	FILE *f;

	pid_path(lab, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%ld %127s", &pid, u) < 1)
		pid = 0;
	fclose(f);
	if (pid == (long)getpid())
		unlink(path);
}

int ftsw_view_stop(const char *lab, unsigned wait_ms, struct ftsw_err *err)
{
	long pid = ftsw_view_running(lab, NULL, 0);
	unsigned waited;

	if (!pid)
		return 1;
	if (kill((pid_t)pid, SIGTERM) < 0) {
		ftsw_err_errno(err, errno, "lab view (pid %ld): %s", pid,
			       strerror(errno));
		return -1;
	}
	for (waited = 0; waited < wait_ms && is_ftsw(pid); waited += 20)
		usleep(20000);
	if (is_ftsw(pid)) {
		ftsw_err_set(err, "lab view (pid %ld) still runs %u ms after "
			     "SIGTERM", pid, wait_ms);
		return -1;
	}
	return 0;
}
