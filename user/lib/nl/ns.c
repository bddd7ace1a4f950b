// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw: named network namespaces without ip(8). A namespace NAME is
 * kept alive by a bind mount of the creating thread's /proc/thread-self/ns/net
 * on /run/netns/NAME (the convention ip-netns and every netns-aware tool
 * follow, so `ip netns exec NAME ...` works on lab namespaces). /run/netns is
 * made a shared mount point so the mounts propagate to mount namespaces
 * copied later (and their removal does too).
 *
 * ftsw_netns_view gives a process that is about to run a program in a
 * namespace the view of the system `ip netns exec` gives (ip-netns(8)):
 * its own mount namespace, /sys describing that network namespace, and
 * the namespace's configuration files from /etc/netns/NAME/ in /etc.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "nl/ns.h"
#include "nl/nl_int.h"
#include "util/rundir.h"

static int home_fd = -1;

static int save_home(struct ftsw_err *err)
{
	if (home_fd >= 0)
		return 0;
	home_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home_fd < 0) {
		ftsw_err_errno(err, errno, "/proc/thread-self/ns/net: %s",
			       strerror(errno));
		return -1;
	}
	return 0;
}

void ftsw_netns_home_reset(void)
{
	if (home_fd >= 0)
		close(home_fd);
	home_fd = -1;
}

int ftsw_netns_home(struct ftsw_err *err)
{
	if (home_fd < 0)
		return 0;
	if (setns(home_fd, CLONE_NEWNET) < 0) {
		ftsw_err_errno(err, errno,
			       "back to the original network namespace: %s",
			       strerror(errno));
		return -1;
	}
	return 0;
}

const char *ftsw_netns_dir(void)
{
	static char dir[PATH_MAX];

	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s", ftsw_privileged() ?
			 FTSW_NETNS_DIR : ftsw_rootless_nsdir());
	return dir;
}

/* NSDIR/name into buf; -1 + err when it does not fit. */
static int ns_path(const char *name, char *buf, size_t sz,
		   struct ftsw_err *err)
{
	if ((size_t)snprintf(buf, sz, "%s/%s", ftsw_netns_dir(), name) < sz)
		return 0;
	ftsw_err_set(err, "namespace %s: path too long", name);
	return -1;
}

static int netns_dir(struct ftsw_err *err)
{
	const char *dir = ftsw_netns_dir();

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		ftsw_err_errno(err, errno, "%s: %s", dir, strerror(errno));
		return -1;
	}
	/* Shared, so that bind mounts below propagate; bind it onto itself
	 * first when it is not a mount point yet. */
	if (mount("", dir, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL) {
		ftsw_err_errno(err, errno, "%s: make shared: %s", dir,
			       strerror(errno));
		return -1;
	}
	if (mount(dir, dir, "none", MS_BIND | MS_REC, NULL) < 0 ||
	    mount("", dir, "none", MS_SHARED | MS_REC, NULL) < 0) {
		ftsw_err_errno(err, errno, "%s: bind mount: %s", dir,
			       strerror(errno));
		return -1;
	}
	return 0;
}

static void netns_dir_prune(void)
{
	const char *dir = ftsw_netns_dir();
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			return;		/* a namespace of someone else's */
		}
	closedir(d);
	/* Not a mount point: EINVAL, and the directory goes all the same. */
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

void ftsw_netns_release_idle(void)
{
	if (!*ftsw_rundir() || access(ftsw_rundir(), F_OK) ||
	    ftsw_rundir_lock(NULL))
		return;
	if (!ftsw_rundir_busy()) {
		if (ftsw_privileged())
			netns_dir_prune();
		else
			ftsw_rootless_stop();
		ftsw_rundir_prune();
	}
	ftsw_rundir_unlock();
}

int ftsw_netns_add(const char *name, struct ftsw_err *err)
{
	static bool dir_ready;
	char path[PATH_MAX];
	int fd;

	if (ftsw_rootless_join(false, err) < 0 || save_home(err) ||
	    ns_path(name, path, sizeof(path), err))
		return -1;
	if (!dir_ready) {
		if (netns_dir(err))
			return -1;
		dir_ready = true;
	}
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		ftsw_err_errno(err, errno, "namespace %s: %s", name,
			       errno == EEXIST ? "exists already" :
			       strerror(errno));
		return -1;
	}
	close(fd);
	if (unshare(CLONE_NEWNET) < 0) {
		/* ENOSPC: past a limit on namespaces, the user's or all's */
		ftsw_err_errno(err, errno, "namespace %s: unshare: %s%s", name,
			       strerror(errno), errno == ENOSPC ?
			       " (sysctl user.max_net_namespaces)" : "");
		unlink(path);
		return -1;
	}
	if (mount("/proc/thread-self/ns/net", path, "none", MS_BIND, NULL) < 0) {
		ftsw_err_errno(err, errno, "namespace %s: bind mount: %s", name,
			       strerror(errno));
		ftsw_netns_home(NULL);
		unlink(path);
		return -1;
	}
	/* The caller stays in the new namespace: it usually configures it. */
	return 0;
}

int ftsw_netns_del(const char *name, struct ftsw_err *err)
{
	char path[PATH_MAX];

	if (ns_path(name, path, sizeof(path), err))
		return -1;
	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL &&
	    errno != ENOENT) {
		ftsw_err_errno(err, errno, "namespace %s: umount: %s", name,
			       strerror(errno));
		return -1;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		ftsw_err_errno(err, errno, "namespace %s: %s", name,
			       strerror(errno));
		return -1;
	}
	return 0;
}

int ftsw_netns_open(const char *name, struct ftsw_err *err)
{
	char path[PATH_MAX];
	int fd;

	if (ftsw_rootless_join(false, err) < 0 ||
	    ns_path(name, path, sizeof(path), err))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ftsw_err_errno(err, errno, "namespace %s: %s", name,
			       errno == ENOENT ? "no such namespace" :
			       strerror(errno));
	return fd;
}

int ftsw_netns_enter_fd(int fd, const char *name, struct ftsw_err *err)
{
	if (save_home(err))
		return -1;
	if (setns(fd, CLONE_NEWNET) < 0) {
		ftsw_err_errno(err, errno, "namespace %s: setns: %s", name,
			       strerror(errno));
		return -1;
	}
	return 0;
}

int ftsw_netns_run(int fd, const char *name,
		   int (*fn)(void *arg, struct ftsw_err *err), void *arg,
		   struct ftsw_err *err)
{
	int rc;

	if (ftsw_netns_enter_fd(fd, name, err))
		return -1;
	rc = fn(arg, err);
	if (ftsw_netns_home(rc ? NULL : err))
		rc = -1;
	return rc;
}

int ftsw_netns_run_name(const char *name,
			int (*fn)(void *arg, struct ftsw_err *err), void *arg,
			struct ftsw_err *err)
{
	int fd, rc;

	if (!name)
		return fn(arg, err);
	fd = ftsw_netns_open(name, err);
	if (fd < 0)
		return -1;
	rc = ftsw_netns_run(fd, name, fn, arg, err);
	close(fd);
	return rc;
}

int ftsw_netns_enter(const char *name, struct ftsw_err *err)
{
	int fd = ftsw_netns_open(name, err), rc;

	if (fd < 0)
		return -1;
	rc = ftsw_netns_enter_fd(fd, name, err);
	close(fd);
	return rc;
}

struct nl_open_job {
	const char *netns;
	struct ftsw_nl *nl;
};

static int nl_open_in(void *arg, struct ftsw_err *err)
{
	struct nl_open_job *j = arg;
	int e;

	j->nl = ftsw_nl_open();
	if (j->nl)
		return 0;
	e = errno;
	ftsw_err_errno(err, e, "%s%s%s: %s", j->netns ? "namespace " : "",
		       j->netns ? j->netns : "",
		       j->netns ? ": ftsw netlink" : "ftsw netlink",
		       e == ENOENT ? "family not found (is ftsw.ko loaded?)" :
		       strerror(e));
	return -1;
}

struct ftsw_nl *ftsw_nl_open_in(const char *netns, struct ftsw_err *err)
{
	struct nl_open_job j = { .netns = netns };

	if (ftsw_netns_run_name(netns, nl_open_in, &j, err)) {
		ftsw_nl_close(j.nl);
		return NULL;
	}
	return j.nl;
}

/* /etc/netns/NAME/FILE over /etc/FILE, for every FILE there (as ip does:
 * one that cannot be bound is reported, the others still are). */
static void bind_etc(const char *name)
{
	char dir[NAME_MAX + 16], from[PATH_MAX], to[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (strlen(name) > NAME_MAX - 16)
		return;
	snprintf(dir, sizeof(dir), "/etc/netns/%s", name);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, de->d_name);
		snprintf(to, sizeof(to), "/etc/%s", de->d_name);
		if (mount(from, to, "none", MS_BIND, NULL) < 0)
			fprintf(stderr, "ftsw: bind %s on %s: %s\n", from, to,
				strerror(errno));
	}
	closedir(d);
}

int ftsw_netns_view(const char *name, struct ftsw_err *err)
{
	/*
	 * nosuid, nodev, noexec as the sysfs it covers has them on most
	 * systems: a rootless lab may mount one only as restricted as that.
	 */
	unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
	struct statvfs vfs;

	if (unshare(CLONE_NEWNS) < 0) {
		ftsw_err_set(err, "namespace %s: own mount namespace: %s", name,
			     strerror(errno));
		return -1;
	}
	/* Mounts made here stay here. */
	if (mount("", "/", "none", MS_SLAVE | MS_REC, NULL) < 0) {
		ftsw_err_set(err, "namespace %s: make / a slave: %s", name,
			     strerror(errno));
		return -1;
	}
	/*
	 * sysfs shows the network devices of the namespace that mounts it:
	 * a new instance on /sys, read-only if the old one cannot go and is.
	 */
	if (umount2("/sys", MNT_DETACH) < 0 && !statvfs("/sys", &vfs) &&
	    (vfs.f_flag & ST_RDONLY))
		flags |= MS_RDONLY;
	if (mount(name, "/sys", "sysfs", flags, NULL) < 0) {
		ftsw_err_set(err, "namespace %s: mount sysfs on /sys: %s", name,
			     strerror(errno));
		return -1;
	}
	bind_etc(name);
	return 0;
}
