// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded line reader (util/text.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/text.h"

/* "1 GiB", "64 MiB", "4096 bytes": a bound as the documentation says it */
static const char *size_str(uint64_t n, char *buf, size_t sz)
{
	static const char *const unit[] = { "GiB", "MiB", "KiB" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		uint64_t u = 1ULL << (30 - 10 * i);

		if (n >= u && n % u == 0) {
			snprintf(buf, sz, "%" PRIu64 " %s", n / u, unit[i]);
			return buf;
		}
	}
	snprintf(buf, sz, "%" PRIu64 " bytes", n);
	return buf;
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO (pipe)";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int ftsw_text_attach(struct ftsw_text *x, FILE *f, const char *name,
		     size_t max_line, uint64_t max_file, struct ftsw_err *err)
{
	memset(x, 0, sizeof(*x));
	x->f = f;
	x->path = name;
	x->max_line = max_line;
	x->max_file = max_file;
	/* the line, a '\r' it may end with, the NUL */
	x->line = malloc(max_line + 2);
	if (!x->line) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", name);
		return -1;
	}
	return 0;
}

int ftsw_text_open(struct ftsw_text *x, const char *path, size_t max_line,
		   uint64_t max_file, struct ftsw_err *err)
{
	struct stat st;
	char sz[32];
	FILE *f;
	int fd;

	memset(x, 0, sizeof(*x));
	/* O_NONBLOCK: a FIFO without a writer must not hang the open */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		ftsw_err_set(err, "%s: %s, not a regular file", path,
			     file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > max_file) {
		ftsw_err_set(err, "%s: larger than %s (%" PRIu64 " bytes)", path,
			     size_str(max_file, sz, sizeof(sz)),
			     (uint64_t)st.st_size);
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fdopen(fd, "r");
	if (!f) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (ftsw_text_attach(x, f, path, max_line, max_file, err)) {
		fclose(f);
		return -1;
	}
	x->own = true;
	return 0;
}

int ftsw_text_line(struct ftsw_text *x, struct ftsw_err *err)
{
	size_t n = 0;
	char sz[32];
	int c;

	errno = 0;
	while ((c = getc_unlocked(x->f)) != EOF && c != '\n') {
		if (!c) {
			ftsw_err_set(err, "%s:%u: NUL byte (not a text file)",
				     x->path, x->ln + 1);
			return -1;
		}
		/* one byte more than the bound: a '\r' that ends the line */
		if (n > x->max_line ||
		    (n == x->max_line && c != '\r')) {
			ftsw_err_set(err, "%s:%u: line longer than %zu bytes",
				     x->path, x->ln + 1, x->max_line);
			return -1;
		}
		x->line[n++] = (char)c;
	}
	if (c == EOF && ferror(x->f)) {
		ftsw_err_errno(err, errno ? errno : EIO,
			       "%s:%u: read error: %s", x->path, x->ln + 1,
			       strerror(errno ? errno : EIO));
		return -1;
	}
	if (c == EOF && !n)
		return 0;
	x->bytes += n + (c == '\n');
	if (x->bytes > x->max_file) {
		ftsw_err_set(err, "%s:%u: file longer than %s", x->path,
			     x->ln + 1, size_str(x->max_file, sz, sizeof(sz)));
		return -1;
	}
	if (n && x->line[n - 1] == '\r')
		n--;
	x->line[n] = 0;
	x->len = n;
	x->ln++;
	return 1;
}

void ftsw_text_close(struct ftsw_text *x)
{
	if (x->own && x->f)
		fclose(x->f);
	free(x->line);
	memset(x, 0, sizeof(*x));
}
