// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw's run directory (util/rundir.h): /run/ftsw for root, a directory
 * of the user's own for a rootless lab.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/rundir.h"

/* The identity map of the initial user namespace, as /proc shows it. */
static bool initial_userns(void)
{
	unsigned long a, b, n;
	FILE *f = fopen("/proc/self/uid_map", "re");
	int k;

	if (!f)
		return true;	/* no /proc: nothing to tell us otherwise */
	k = fscanf(f, "%lu %lu %lu", &a, &b, &n);
	fclose(f);
	return k == 3 && a == 0 && b == 0 && n == 4294967295UL;
}

bool ftsw_privileged(void)
{
	static int priv = -1;

	if (priv < 0)
		priv = geteuid() == 0 && initial_userns();
	return priv;
}

/* A directory of our own: a path, absolute, a directory we own. */
static bool own_dir(const char *p)
{
	struct stat st;

	return p && p[0] == '/' && !stat(p, &st) && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

const char *ftsw_rundir(void)
{
	static char dir[FTSW_RUNDIR_MAX + 1];
	static bool done;
	const char *x, *home;
	struct passwd *pw;
	char p[PATH_MAX];

	if (done)
		return dir;
	done = true;
	if (ftsw_privileged()) {
		snprintf(dir, sizeof(dir), "%s", FTSW_RUNDIR);
		return dir;
	}
	p[0] = 0;
	x = getenv("XDG_RUNTIME_DIR");
	home = getenv("HOME");
	if (!home || home[0] != '/') {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (own_dir(x) && strlen(x) < sizeof(p) - 8)
		snprintf(p, sizeof(p), "%s/ftsw", x);
	else if ((x = getenv("XDG_CACHE_HOME")) && x[0] == '/' &&
		 strlen(x) < sizeof(p) - 12)
		snprintf(p, sizeof(p), "%s/ftsw/run", x);
	else if (home && home[0] == '/' && strlen(home) < sizeof(p) - 20)
		snprintf(p, sizeof(p), "%s/.cache/ftsw/run", home);
	/* too long for the lab's paths: none (ftsw_rundir_make says so) */
	if (strlen(p) < sizeof(dir))
		snprintf(dir, sizeof(dir), "%s", p);
	else
		snprintf(dir, sizeof(dir), "%s", "");
	return dir;
}

int ftsw_rundir_make(struct ftsw_err *err)
{
	const char *dir = ftsw_rundir();
	char path[PATH_MAX], *s;

	if (!*dir) {
		ftsw_err_set(err, "no run directory: a lab without root needs "
			     "$XDG_RUNTIME_DIR or a home directory (a path of "
			     "at most %d bytes)", FTSW_RUNDIR_MAX - 12);
		return -1;
	}
	if (ftsw_privileged()) {
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			ftsw_err_errno(err, errno, "%s: %s", dir,
				       strerror(errno));
			return -1;
		}
		return 0;
	}
	/* Rootless: the parents too (~/.cache/ftsw/run), private. */
	snprintf(path, sizeof(path), "%s", dir);
	for (s = strchr(path + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = 0;
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			ftsw_err_errno(err, errno, "%s: %s", path,
				       strerror(errno));
			return -1;
		}
		if (!s)
			return 0;
		*s = '/';
	}
}

static int lock_fd = -1;
static unsigned lock_depth;

static void lock_path(char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/.lock", ftsw_rundir());
}

int ftsw_rundir_lock(struct ftsw_err *err)
{
	char path[FTSW_RUNDIR_MAX + 16];
	struct stat a, b;
	int fd;

	if (lock_depth) {
		lock_depth++;
		return 0;
	}
	if (ftsw_rundir_make(err))
		return -1;
	lock_path(path, sizeof(path));
	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			ftsw_err_errno(err, errno, "%s: %s", path,
				       strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX) < 0) {
			ftsw_err_errno(err, errno, "%s: lock: %s", path,
				       strerror(errno));
			close(fd);
			return -1;
		}
		/* the last lab down removes the file: lock the one there is */
		if (!fstat(fd, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			break;
		close(fd);
	}
	lock_fd = fd;
	lock_depth = 1;
	return 0;
}

void ftsw_rundir_unlock(void)
{
	if (!lock_depth || --lock_depth)
		return;
	close(lock_fd);
	lock_fd = -1;
}

bool ftsw_rundir_busy(void)
{
	DIR *d = opendir(ftsw_rundir());
	struct dirent *de;
	bool busy = false;

	if (!d)
		return false;
	while (!busy && (de = readdir(d)))
		busy = de->d_name[0] != '.';
	closedir(d);
	return busy;
}

void ftsw_rundir_prune(void)
{
	char path[FTSW_RUNDIR_MAX + 16];

	if (!lock_depth || ftsw_rundir_busy())
		return;
	lock_path(path, sizeof(path));
	unlink(path);
	/* rmdir(2) removes only an empty directory: nothing else can go */
	rmdir(ftsw_rundir());
}
