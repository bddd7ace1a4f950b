// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw utilities: errors, atomic files, clock, PRNG.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

static void err_vset(struct ftsw_err *err, int e, const char *fmt,
		     va_list ap)
{
	char msg[sizeof(err->msg)];

	/* through a copy: the arguments may point into err->msg itself */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(err->msg, msg, sizeof(msg));
	err->code = e < 0 ? -e : e ? e : EINVAL;
}

void ftsw_err_set(struct ftsw_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	err_vset(err, EINVAL, fmt, ap);
	va_end(ap);
}

void ftsw_err_errno(struct ftsw_err *err, int e, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	err_vset(err, e, fmt, ap);
	va_end(ap);
}

uint64_t ftsw_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

uint64_t ftsw_rand_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Temporary files of atomic writes in progress, unlinked by a SIGINT /
 * SIGTERM / SIGHUP handler so that an interrupted write leaves nothing
 * behind. The handler only reads this table and calls unlink(), both
 * async-signal-safe; it then re-raises the signal with its default action.
 * It is installed only over a default disposition (a program that handles
 * these signals itself keeps its handler).
 */
#define TMP_SLOTS 32
static char *_Atomic tmp_slots[TMP_SLOTS];
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void tmp_cleanup_handler(int sig)
{
	unsigned i;

	for (i = 0; i < TMP_SLOTS; i++) {
		char *p = atomic_load(&tmp_slots[i]);

		if (p)
			unlink(p);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void tmp_handlers_install(void)
{
	static atomic_flag done = ATOMIC_FLAG_INIT;
	unsigned i;

	if (atomic_flag_test_and_set(&done))
		return;
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++) {
		struct sigaction old, sa = { .sa_handler = tmp_cleanup_handler };

		if (sigaction(tmp_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		sigaction(tmp_signals[i], &sa, NULL);
	}
}

static void tmp_register(char *path)
{
	unsigned i;

	tmp_handlers_install();
	for (i = 0; i < TMP_SLOTS; i++) {
		char *expect = NULL;

		if (atomic_compare_exchange_strong(&tmp_slots[i], &expect, path))
			return;
	}
}

static void tmp_unregister(char *path)
{
	unsigned i;

	for (i = 0; i < TMP_SLOTS; i++) {
		char *expect = path;

		if (atomic_compare_exchange_strong(&tmp_slots[i], &expect, NULL))
			return;
	}
}

/* What path is when it is not a regular file, or NULL. */
static const char *not_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	return "a socket";
}

/*
 * Why the temporary file next to path could not be created (mkstemp's
 * errno e), said of the directory it goes in: "No such file or
 * directory" for /proc/version would name neither.
 */
static void atomic_why(const char *path, int e, struct ftsw_err *err)
{
	const char *slash = strrchr(path, '/');
	char dir[512];
	struct statfs sf;
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st)) {
		ftsw_err_errno(err, errno, "%s: directory '%s' %s", path, dir,
			       errno == ENOENT ? "does not exist" :
			       strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		ftsw_err_errno(err, ENOTDIR, "%s: '%s' is not a directory",
			       path, dir);
		return;
	}
	if (e == EACCES) {
		ftsw_err_errno(err, e, "%s: directory '%s' is not writable "
			       "(the file is written as a temporary file "
			       "there, then renamed)", path, dir);
		return;
	}
	if (e == EROFS) {
		ftsw_err_errno(err, e, "%s: directory '%s' is on a read-only "
			       "file system", path, dir);
		return;
	}
	if (!statfs(dir, &sf) && (sf.f_type == PROC_SUPER_MAGIC ||
				  sf.f_type == SYSFS_MAGIC)) {
		ftsw_err_errno(err, e, "%s: directory '%s' is in the %s file "
			       "system, where no new file can be created (the "
			       "file is written as a temporary file there, "
			       "then renamed)", path, dir,
			       sf.f_type == SYSFS_MAGIC ? "sys" : "proc");
		return;
	}
	ftsw_err_errno(err, e, "%s: no new file can be created in directory "
		       "'%s' (%s)", path, dir, strerror(e));
}

FILE *ftsw_atomic_open(const char *path, char **tmp, struct ftsw_err *err)
{
	size_t n = strlen(path) + 32;
	struct stat st;
	FILE *f;
	int fd, e;
	sigset_t all, old;

	*tmp = NULL;
	/*
	 * A character device or a FIFO (-o /dev/null, a pipe) is written
	 * in place: there is no file to replace, and replacing it by one
	 * would destroy it. Anything else that is not a regular file is
	 * refused.
	 */
	if (!stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		f = fopen(path, "w");
		if (!f)
			ftsw_err_errno(err, errno, "%s: %s", path,
				       strerror(errno));
		return f;
	}
	if (!stat(path, &st) && not_regular(&st)) {
		ftsw_err_errno(err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
			       "%s: %s, not a regular file (written files "
			       "replace their target; '-' is standard output)",
			       path, not_regular(&st));
		return NULL;
	}
	*tmp = malloc(n);
	if (!*tmp) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", path);
		return NULL;
	}
	snprintf(*tmp, n, "%s.tmpXXXXXX", path);
	/* no signal between creating the file and registering it */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	fd = mkstemp(*tmp);
	e = errno;
	if (fd >= 0)
		tmp_register(*tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		atomic_why(path, e, err);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	{
		/* mkstemp creates 0600: give the file the usual mode */
		mode_t m = umask(0);

		umask(m);
		fchmod(fd, 0666 & ~m);
	}
	f = fdopen(fd, "w");
	if (!f) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(*tmp);
		tmp_unregister(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

int ftsw_atomic_commit(FILE *f, const char *path, char *tmp,
		       struct ftsw_err *err)
{
	int bad = ferror(f), rc = 0;

	if (!tmp) {	/* a device or FIFO, written in place */
		if (bad || fclose(f)) {
			ftsw_err_errno(err, errno, "%s: write failed: %s",
				       path, strerror(errno));
			return -EIO;
		}
		return 0;
	}
	if (fflush(f) || fsync(fileno(f)))
		bad = 1;
	if (fclose(f))
		bad = 1;
	if (bad) {
		ftsw_err_errno(err, errno, "%s: write failed: %s", path,
			       strerror(errno));
		unlink(tmp);
		rc = -EIO;
	} else if (rename(tmp, path)) {
		rc = -errno;
		ftsw_err_errno(err, errno, "%s: rename: %s", path,
			       strerror(errno));
		unlink(tmp);
	}
	tmp_unregister(tmp);
	free(tmp);
	return rc;
}

void ftsw_atomic_abort(FILE *f, char *tmp)
{
	fclose(f);
	if (!tmp)
		return;
	unlink(tmp);
	tmp_unregister(tmp);
	free(tmp);
}

int ftsw_write_path(const char *path, int (*write)(const void *obj, FILE *f),
		    const void *obj, struct ftsw_err *err)
{
	char *tmp;
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		if (write(obj, stdout) || fflush(stdout)) {
			ftsw_err_errno(err, EIO, "stdout: write error");
			return -EIO;
		}
		return 0;
	}
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -EIO;
	write(obj, f);
	return ftsw_atomic_commit(f, path, tmp, err);
}

void *ftsw_grow(void *v, size_t n, size_t *cap, size_t size, size_t add)
{
	size_t nc = *cap * 2 + add;

	if (n < *cap)
		return v;
	v = realloc(v, size * nc);
	if (v)
		*cap = nc;
	return v;
}

bool ftsw_pid_live(long pid, const char *comm)
{
	char path[64], line[256], *open, *close;
	FILE *f;

	if (pid <= 1)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	/* "PID (COMM) STATE ...": COMM may hold spaces and parentheses */
	open = strchr(line, '(');
	close = strrchr(line, ')');
	if (!open || !close || close < open || close[1] != ' ')
		return false;
	*close = 0;
	return !strcmp(open + 1, comm) && close[2] != 'Z' && close[2] != 'X';
}
