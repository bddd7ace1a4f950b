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

static int netns_dir(struct ftsw_err *err)
{
	if (mkdir(FTSW_NETNS_DIR, 0755) < 0 && errno != EEXIST) {
		ftsw_err_errno(err, errno, "%s: %s", FTSW_NETNS_DIR,
			       strerror(errno));
		return -1;
	}
	/* Shared, so that bind mounts below propagate; bind it onto itself
	 * first when it is not a mount point yet. */
	if (mount("", FTSW_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL) {
		ftsw_err_errno(err, errno, "%s: make shared: %s",
			       FTSW_NETNS_DIR, strerror(errno));
		return -1;
	}
	if (mount(FTSW_NETNS_DIR, FTSW_NETNS_DIR, "none", MS_BIND | MS_REC,
		  NULL) < 0 ||
	    mount("", FTSW_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) < 0) {
		ftsw_err_errno(err, errno, "%s: bind mount: %s", FTSW_NETNS_DIR,
			       strerror(errno));
		return -1;
	}
	return 0;
}

int ftsw_netns_add(const char *name, struct ftsw_err *err)
{
	static bool dir_ready;
	char path[256];
	int fd;

	if (save_home(err))
		return -1;
	if (!dir_ready) {
		if (netns_dir(err))
			return -1;
		dir_ready = true;
	}
	snprintf(path, sizeof(path), FTSW_NETNS_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		ftsw_err_errno(err, errno, "namespace %s: %s", name,
			       errno == EEXIST ? "exists already" :
			       strerror(errno));
		return -1;
	}
	close(fd);
	if (unshare(CLONE_NEWNET) < 0) {
		ftsw_err_errno(err, errno, "namespace %s: unshare: %s", name,
			       strerror(errno));
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
	char path[256];

	snprintf(path, sizeof(path), FTSW_NETNS_DIR "/%s", name);
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
	char path[256];
	int fd;

	snprintf(path, sizeof(path), FTSW_NETNS_DIR "/%s", name);
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

int ftsw_netns_enter(const char *name, struct ftsw_err *err)
{
	int fd = ftsw_netns_open(name, err), rc;

	if (fd < 0)
		return -1;
	rc = ftsw_netns_enter_fd(fd, name, err);
	close(fd);
	return rc;
}

struct ftsw_nl *ftsw_nl_open_in(const char *netns, struct ftsw_err *err)
{
	struct ftsw_nl *nl;
	int e;

	if (netns && ftsw_netns_enter(netns, err))
		return NULL;
	nl = ftsw_nl_open();
	e = errno;
	if (netns && ftsw_netns_home(err)) {
		ftsw_nl_close(nl);
		return NULL;
	}
	if (!nl)
		ftsw_err_errno(err, e, "%s%s%s: %s", netns ? "namespace " : "",
			       netns ? netns : "",
			       netns ? ": ftsw netlink" : "ftsw netlink",
			       e == ENOENT ?
			       "family not found (is ftsw.ko loaded?)" :
			       strerror(e));
	return nl;
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
	unsigned long flags = 0;
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
		flags = MS_RDONLY;
	if (mount(name, "/sys", "sysfs", flags, NULL) < 0) {
		ftsw_err_set(err, "namespace %s: mount sysfs on /sys: %s", name,
			     strerror(errno));
		return -1;
	}
	bind_etc(name);
	return 0;
}
