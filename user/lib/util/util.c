// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw utilities: errors, atomic files, clock, PRNG.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

void ftsw_err_set(struct ftsw_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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

FILE *ftsw_atomic_open(const char *path, char **tmp, struct ftsw_err *err)
{
	size_t n = strlen(path) + 32;
	FILE *f;
	int fd;

	*tmp = malloc(n);
	if (!*tmp) {
		ftsw_err_set(err, "%s: out of memory", path);
		return NULL;
	}
	snprintf(*tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		ftsw_err_set(err, "%s: cannot create temporary file: %s", path,
			     strerror(errno));
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
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
	}
	return f;
}

int ftsw_atomic_commit(FILE *f, const char *path, char *tmp,
		       struct ftsw_err *err)
{
	int bad = ferror(f);

	if (fflush(f) || fsync(fileno(f)))
		bad = 1;
	if (fclose(f))
		bad = 1;
	if (bad) {
		ftsw_err_set(err, "%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -EIO;
	}
	if (rename(tmp, path)) {
		ftsw_err_set(err, "%s: rename: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -errno;
	}
	free(tmp);
	return 0;
}
