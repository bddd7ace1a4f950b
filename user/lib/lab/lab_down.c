// SPDX-License-Identifier: GPL-2.0
/* libftsw lab: lab down, tearing a lab down (see lab.h). */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "util/output.h"
#include "util/parse.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "nl/rtnl.h"

/* ------------------------------------------------------------ down */

/*
 * Tearing a lab down is unmounting its namespaces; the kernel frees each
 * one once nothing holds it, asynchronously (cleanup_net), in batches: every
 * namespace released since the last batch began goes in the next one, whose
 * devices are unregistered together and which waits for RCU (a grace period,
 * a barrier) once for the whole batch. Released one at a time, as each
 * unmount returns, the namespaces of a big lab trickle into many small
 * batches, each paying those waits and scanning the namespace-id tables of
 * the namespaces still alive. So the lab holds every namespace open while
 * it unmounts them, and then lets them all go at once (closing the
 * descriptors, the fabric's first): the kernel gets them in one or two
 * batches. Past the limit on open files, in chunks of what it could open.
 *
 * An unmount waits for an RCU grace period (namespace_unlock); concurrent
 * unmounts share them, so a few threads unmount at once: one per 32
 * namespaces, 2 to 32 (thread start-up costs more than it saves on a small
 * lab: 2 measured best at 16 hosts in the 1-CPU test VM).
 */
struct del_job {
	char **names;
	int *fds;		/* held while unmounting, -1: not held */
	size_t n, cap;
	size_t first, end;	/* the chunk being unmounted */
	size_t next;
	pthread_mutex_t lock;
	int error;
	struct ftsw_err err;
};

static int del_job_add(struct del_job *j, const char *name)
{
	if (j->n == j->cap) {
		size_t cap = j->cap * 2 + 64;
		char **p = realloc(j->names, sizeof(char *) * cap);
		int *f;

		if (!p)
			return -1;
		j->names = p;
		f = realloc(j->fds, sizeof(int) * cap);
		if (!f)
			return -1;
		j->fds = f;
		j->cap = cap;
	}
	j->fds[j->n] = -1;
	j->names[j->n] = strdup(name);
	return j->names[j->n++] ? 0 : -1;
}

static void del_job_free(struct del_job *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		free(j->names[i]);
		if (j->fds[i] >= 0)
			close(j->fds[i]);
	}
	free(j->names);
	free(j->fds);
}

static void *del_worker(void *arg)
{
	struct del_job *j = arg;
	struct ftsw_err e;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&j->lock);
		i = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->end)
			return NULL;
		if (ftsw_netns_del(j->names[i], &e)) {
			pthread_mutex_lock(&j->lock);
			if (!j->error) {
				j->error = -1;
				j->err = e;
			}
			pthread_mutex_unlock(&j->lock);
		}
	}
}

/* Unmount names [first, end) with a few threads. */
static void del_chunk(struct del_job *j)
{
	pthread_t th[31];
	size_t n = j->end - j->first;
	unsigned nt, k, started = 0;

	/* Besides this thread. */
	nt = n / 32 > 32 ? 31 : n / 32 > 2 ? (unsigned)(n / 32) - 1 : 1;
	if (nt >= n)
		nt = n ? (unsigned)n - 1 : 0;
	j->next = j->first;
	for (k = 0; k < nt; k++)
		if (pthread_create(&th[k], NULL, del_worker, j) == 0)
			started++;
		else
			break;
	del_worker(j);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
}

static int del_job_run(struct del_job *j, struct ftsw_err *err)
{
	struct rlimit rl, rl0;
	bool raised = false;
	size_t i;

	/*
	 * Room to hold a big lab's namespaces: raised for the while, as far
	 * as allowed (root may raise the hard limit, up to fs.nr_open).
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl0) == 0 && rl0.rlim_cur < j->n + 64) {
		rl.rlim_cur = j->n + 64;
		rl.rlim_max = rl0.rlim_max > rl.rlim_cur ? rl0.rlim_max :
			      rl.rlim_cur;
		raised = setrlimit(RLIMIT_NOFILE, &rl) == 0;
		if (!raised && rl0.rlim_cur < rl0.rlim_max) {
			rl = rl0;
			rl.rlim_cur = rl.rlim_max;
			raised = setrlimit(RLIMIT_NOFILE, &rl) == 0;
		}
	}
	pthread_mutex_init(&j->lock, NULL);
	for (j->first = 0; j->first < j->n && !j->error; j->first = j->end) {
		/* Hold what can be held (at least one more each chunk). */
		for (j->end = j->first; j->end < j->n; j->end++) {
			char path[PATH_MAX];

			snprintf(path, sizeof(path), "%s/%s", ftsw_netns_dir(),
				 j->names[j->end]);
			j->fds[j->end] = open(path, O_RDONLY | O_CLOEXEC);
			if (j->fds[j->end] < 0 &&
			    (errno == EMFILE || errno == ENFILE)) {
				if (j->end == j->first)
					j->end++;
				break;
			}
		}
		del_chunk(j);
		/* Let the chunk go, all at once. */
		for (i = j->first; i < j->end; i++) {
			if (j->fds[i] >= 0)
				close(j->fds[i]);
			j->fds[i] = -1;
		}
	}
	pthread_mutex_destroy(&j->lock);
	if (raised)
		setrlimit(RLIMIT_NOFILE, &rl0);
	if (j->error)
		*err = j->err;
	return j->error;
}

/*
 * The cables go first, one device group (LAB_GROUP_CABLES cables, both
 * ends) per request, while every namespace still stands. Every device that
 * goes down or away makes the kernel scan its neighbour tables whole, and
 * in 6.1 those tables are shared by every namespace and never shrink: left
 * to the namespace clean-up, all of a lab's devices go in one batch, under
 * one hold of RTNL with no reschedule, and a 4096-host lab whose h0 had
 * talked to every host kept the clean-up worker in it for minutes and
 * stalled RCU. One request per group bounds each section (about a thousand
 * devices), with userspace in between. What is left to the clean-up is
 * each namespace's lo. Best effort: a lab made without groups (an older
 * ftsw), or one this process may not enter, is left whole to the kernel's
 * clean-up as before.
 */
struct del_cables_job {
	ftsw_lab_progress_fn progress;
	void *arg;
};

static int del_cables_in(struct ftsw_rt *rt, void *arg, struct ftsw_err *err)
{
	const struct del_cables_job *j = arg;
	uint32_t g, max;

	if (ftsw_rt_max_group(rt, &max, err))
		return -1;
	for (g = 1; g <= max; g++) {
		if (ftsw_rt_del_group(rt, g, err) < 0)
			return -1;
		if (j->progress)
			j->progress("cable groups deleted", g, max, j->arg);
	}
	return 0;
}

static void del_cables(const char *name, ftsw_lab_progress_fn progress,
		       void *arg)
{
	struct del_cables_job j = { .progress = progress, .arg = arg };
	struct ftsw_err e;
	int fd = ftsw_netns_open(name, &e);

	if (fd < 0)
		return;
	ftsw_rt_run(fd, name, del_cables_in, &j, NULL, &e);
	close(fd);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int ftsw_lab_down(const char *name, struct ftsw_err *err)
{
	return ftsw_lab_down_progress(name, NULL, NULL, err);
}

int ftsw_lab_down_progress(const char *name, ftsw_lab_progress_fn progress,
			   void *arg, struct ftsw_err *err)
{
	char dir[256], path[600], pre[64];
	struct del_job job = { 0 };
	DIR *d;
	struct dirent *de;
	size_t pl;
	bool found = false;

	if (lab_check_name(name, err))
		return -1;
	/* without root: in the holder, if one runs (else only files remain) */
	if (ftsw_rootless_join(false, err) < 0)
		return -1;
	/* A subnet manager and gateways first: they live in the namespaces. */
	ftsw_lab_sm_stop(name);
	/*
	 * No fabric reset: the kernel tears the fabric down with its namespace
	 * (pernet exit), asynchronously, as it frees the devices. The work
	 * here is deleting the cables in bounded groups (del_cables) and
	 * unmounting the namespaces.
	 *
	 * The fabric first: if the lab is let go in more than one chunk, its
	 * devices (the switch end of every cable, and with them the host ends)
	 * go in the first batch, and the kernel then drops each host's
	 * namespace id from one small table instead of scanning the fabric's
	 * (unhash_nsid), which made the clean-up quadratic in the hosts.
	 */
	snprintf(path, sizeof(path), "%s/%s", ftsw_netns_dir(), name);
	if (access(path, F_OK) == 0) {
		found = true;
		del_cables(name, progress, arg);
		if (del_job_add(&job, name))
			goto nomem;
	}
	snprintf(pre, sizeof(pre), "%s-h", name);
	pl = strlen(pre);
	d = opendir(ftsw_netns_dir());
	if (d) {
		while ((de = readdir(d))) {
			const char *s = de->d_name + pl;

			if (strncmp(de->d_name, pre, pl) || !*s ||
			    strspn(s, "0123456789") != strlen(s))
				continue;
			found = true;
			if (del_job_add(&job, de->d_name)) {
				closedir(d);
				goto nomem;
			}
		}
		closedir(d);
	}
	if (del_job_run(&job, err)) {
		del_job_free(&job);
		return -1;
	}
	del_job_free(&job);
	lab_rundir(name, dir, sizeof(dir));
	if (access(dir, F_OK) == 0) {
		found = true;
		/* files, and what libumad2sim left under tools/ */
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		if (access(dir, F_OK) == 0 && rmdir(dir) < 0) {
			ftsw_err_errno(err, errno, "%s: %s", dir,
				       strerror(errno));
			return -1;
		}
	}
	/* the last lab: what labs share goes too */
	ftsw_netns_release_idle();
	if (!found) {
		ftsw_err_set(err, "lab %s: no such lab", name);
		return -1;
	}
	return 0;
nomem:
	del_job_free(&job);
	ftsw_err_errno(err, ENOMEM, "out of memory");
	return -1;
}

