// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw: rootless labs' holder (nl/ns.h, Documentation/teaching.md).
 *
 * An unprivileged user may make a user namespace and, being root in it,
 * network namespaces, veths and (CAP_NET_ADMIN in the namespace's user
 * namespace) ftsw fabrics in those. What such a user lacks is a place to
 * keep a lab's namespaces between commands: /run/netns is root's. So, as
 * podman's pause process does, one process per user, the holder, owns a
 * user namespace and, inside it, a mount namespace, where a tmpfs on
 * RUNDIR/.netns receives the lab's namespaces bound by name exactly as
 * /run/netns does for root, and a network namespace of its own. Every
 * later command joins the three (setns) and finds the lab there; the
 * holder itself only waits. It goes when the last lab does
 * (ftsw_netns_release_idle), and with it the mount namespace, the tmpfs
 * and every namespace bound there.
 *
 * The network namespace is needed because a command moves its threads
 * into the lab's namespaces and back "home" (ns.c), and setns(2) into a
 * network namespace needs CAP_SYS_ADMIN over its owner: over the user's
 * original one, owned by the initial user namespace, nobody unprivileged
 * has it. A socket keeps the namespace it was made in, so a command that
 * must listen where the user's browser or tools reach it (a lab view)
 * makes its socket before it opens the lab. Each user has their own
 * holder and run directory (0700): no user sees or enters another's
 * (setns needs CAP_SYS_ADMIN over the namespace's owner, and /proc/PID/ns
 * of another user's process cannot even be opened).
 *
 * The holder is forked from the command that starts it, before that
 * command has allocated anything large, so it holds little memory; it
 * closes every descriptor it inherited (the lock's first of all).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nl/ns.h"
#include "nl/nl_int.h"
#include "util/rundir.h"
#include "util/text.h"

#define HOLDER_FILE	".holder"
#define NS_DIR		".netns"

static bool joined;

static void run_path(const char *file, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", ftsw_rundir(), file);
}

const char *ftsw_rootless_nsdir(void)
{
	static char dir[PATH_MAX];

	if (!dir[0])
		run_path(NS_DIR, dir, sizeof(dir));
	return dir;
}

bool ftsw_rootless_joined(void)
{
	return joined;
}

/*
 * PID's start time in clock ticks since boot (stat field 22); 0: gone,
 * or dead and not yet reaped (a zombie's namespaces are gone).
 */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	unsigned field;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* the command may hold spaces and parentheses: after the last ')' */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;
	for (field = 2; p && field < 21; field++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p + 1, "%llu", &t) != 1)
		t = 0;
	return t;
}

pid_t ftsw_rootless_holder(void)
{
	unsigned long long want = 0;
	char path[PATH_MAX + 16];
	struct ftsw_text x;
	struct stat st;
	long pid = 0;
	int got;

	if (ftsw_privileged() || !*ftsw_rundir())
		return 0;
	run_path(HOLDER_FILE, path, sizeof(path));
	if (access(path, F_OK) || ftsw_text_open(&x, path, 64, 64, NULL))
		return 0;
	got = ftsw_text_line(&x, NULL);
	if (got <= 0 || sscanf(x.line, "%ld %llu", &pid, &want) != 2)
		pid = 0;
	ftsw_text_close(&x);
	if (pid <= 0 || pid > INT_MAX)
		return 0;
	/* still that process (not a pid used again), and ours */
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (start_time((pid_t)pid) != want || stat(path, &st) ||
	    st.st_uid != geteuid())
		return 0;
	return (pid_t)pid;
}

/* ------------------------------------------------------------ the holder */

static void holder_fail(int fd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, msg, (size_t)n < sizeof(msg) ? (size_t)n :
			   sizeof(msg) - 1) < 0) {
		/* the command reports "ended at once" */
	}
	_exit(1);
}

/* The holder's loopback up, as a namespace's lo usually is (best effort). */
static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return;
	if (!ioctl(s, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
}

static int write_proc(const char *path, const char *text)
{
	size_t n = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, text, n) == (ssize_t)n ? 0 : -1;
	close(fd);
	return rc;
}

/*
 * The holder: a user namespace mapping this user to root (and nobody
 * else: what an unprivileged process may map alone), a mount and a
 * network namespace in it, the tmpfs for named namespaces, lo up; "ok" on
 * fd, then it waits.
 */
static void holder_main(int fd, const char *nsdir)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	struct sigaction sa;
	char map[48];
	int null;

	/* nothing of the command's: its lock above all */
	if (fd > 3)
		close_range(3, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
	setsid();
	prctl(PR_SET_NAME, "ftsw-holder", 0, 0, 0);
	if (unshare(CLONE_NEWUSER) < 0)
		holder_fail(fd, "a user namespace of one's own: %s%s",
			    strerror(errno), errno == EPERM || errno == ENOSPC ?
			    " (unprivileged user namespaces are off: sysctl "
			    "kernel.unprivileged_userns_clone=1, "
			    "user.max_user_namespaces)" : "");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	if (write_proc("/proc/self/setgroups", "deny") ||
	    write_proc("/proc/self/uid_map", map))
		holder_fail(fd, "user namespace: uid_map: %s", strerror(errno));
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
	if (write_proc("/proc/self/gid_map", map))
		holder_fail(fd, "user namespace: gid_map: %s", strerror(errno));
	if (unshare(CLONE_NEWNS | CLONE_NEWNET) < 0)
		holder_fail(fd, "a mount and a network namespace: %s%s",
			    strerror(errno), errno == ENOSPC ?
			    " (sysctl user.max_net_namespaces)" : "");
	lo_up();
	if (mount("ftsw", nsdir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0700") < 0)
		holder_fail(fd, "tmpfs on %s: %s", nsdir, strerror(errno));
	if (chdir("/") < 0)
		holder_fail(fd, "chdir /: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	if (write(fd, "ok", 2) != 2)
		_exit(1);
	close(fd);
	for (;;)
		pause();
}

static pid_t holder_start(struct ftsw_err *err)
{
	const char *nsdir = ftsw_rootless_nsdir();
	char msg[256], path[PATH_MAX + 16], *tmp;
	size_t got = 0;
	ssize_t n;
	pid_t pid;
	FILE *f;
	int p[2];

	if (mkdir(nsdir, 0700) < 0 && errno != EEXIST) {
		ftsw_err_errno(err, errno, "%s: %s", nsdir, strerror(errno));
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		ftsw_err_errno(err, errno, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ftsw_err_errno(err, errno, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		holder_main(p[1], nsdir);
	}
	close(p[1]);
	while (got < sizeof(msg) - 1 &&
	       (n = read(p[0], msg + got, sizeof(msg) - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
	}
	close(p[0]);
	msg[got] = 0;
	if (strcmp(msg, "ok")) {
		waitpid(pid, NULL, 0);
		rmdir(nsdir);
		ftsw_err_set(err, "rootless lab: %s", got ? msg :
			     "the holder process ended at once");
		return -1;
	}
	run_path(HOLDER_FILE, path, sizeof(path));
	f = ftsw_atomic_open(path, &tmp, err);
	if (f) {
		fprintf(f, "%d %llu\n", (int)pid, start_time(pid));
		if (!ftsw_atomic_commit(f, path, tmp, err))
			return pid;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	rmdir(nsdir);
	return -1;
}

/* Whether fd is the namespace of that type this process is in. */
static bool same_ns(int fd, const char *type)
{
	struct stat a, b;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/ns/%s", type);
	return !fstat(fd, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
	       a.st_dev == b.st_dev;
}

/* Into the holder's namespaces, in the same directory. */
static int holder_join(pid_t pid, struct ftsw_err *err)
{
	static const struct { const char *ns; int type; } ns[] = {
		{ "user", CLONE_NEWUSER }, { "mnt", CLONE_NEWNS },
		{ "net", CLONE_NEWNET },
	};
	char path[64], cwd[PATH_MAX];
	bool here = getcwd(cwd, sizeof(cwd)) != NULL;
	int fd[3], i, rc = 0;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid,
			 ns[i].ns);
		fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fd[i] < 0) {
			ftsw_err_errno(err, errno, "rootless lab holder %d: "
				       "%s: %s", (int)pid, path,
				       strerror(errno));
			while (i--)
				close(fd[i]);
			return -1;
		}
	}
	for (i = 0; i < 3 && !rc; i++) {
		/* a program a lab command started is in them already */
		if (same_ns(fd[i], ns[i].ns))
			continue;
		if (setns(fd[i], ns[i].type) < 0) {
			ftsw_err_errno(err, errno, "rootless lab holder %d: "
				       "join its %s namespace: %s%s", (int)pid,
				       ns[i].ns, strerror(errno),
				       errno == EINVAL ? " (a process joins "
				       "it before it starts threads)" : "");
			rc = -1;
		}
	}
	for (i = 0; i < 3; i++)
		close(fd[i]);
	/* "home" is the holder's network namespace from now on */
	if (!rc)
		ftsw_netns_home_reset();
	/* setns(CLONE_NEWNS) moved us to its root: back where we were */
	if (!rc && here && chdir(cwd) < 0) {
		ftsw_err_errno(err, errno, "%s: %s (in the lab's mount "
			       "namespace)", cwd, strerror(errno));
		rc = -1;
	}
	return rc;
}

int ftsw_rootless_join(bool create, struct ftsw_err *err)
{
	pid_t pid;

	if (ftsw_privileged() || joined)
		return 0;
	pid = ftsw_rootless_holder();
	if (!pid && !create)
		return 1;
	if (!pid) {
		if (ftsw_rundir_lock(err))
			return -1;
		pid = ftsw_rootless_holder();
		if (!pid)
			pid = holder_start(err);
		ftsw_rundir_unlock();
		if (pid <= 0)
			return -1;
	}
	if (holder_join(pid, err))
		return -1;
	joined = true;
	return 0;
}

void ftsw_rootless_stop(void)
{
	char path[PATH_MAX + 16];
	pid_t pid = ftsw_rootless_holder();
	int i;

	if (pid && !kill(pid, SIGTERM))
		for (i = 0; i < 200; i++) {
			/* reaped, if it is our child (a lab up that failed) */
			if (waitpid(pid, NULL, WNOHANG) == pid ||
			    !start_time(pid))
				break;
			usleep(5000);
		}
	run_path(HOLDER_FILE, path, sizeof(path));
	unlink(path);
	/* inside, the tmpfs is ours to take off; outside it is a directory */
	if (joined)
		umount2(ftsw_rootless_nsdir(), MNT_DETACH);
	rmdir(ftsw_rootless_nsdir());
}
