// SPDX-License-Identifier: GPL-2.0
/*
 * A lab's events file and files followed by lines (util/evlog.h). The
 * writer never waits for anyone: a lab command or the fabric manager
 * appends its line with one write(2) and goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/evlog.h"
#include "util/output.h"
#include "util/rundir.h"

/* JSON string s (quotes included) into buf of sz bytes; its length. */
static size_t json_str(char *buf, size_t sz, const char *s)
{
	FILE *f = fmemopen(buf, sz, "w");
	long n;

	if (!f)
		return 0;
	ftsw_json_write_str(f, s);
	n = ftell(f);
	fclose(f);
	return n > 0 && (size_t)n < sz ? (size_t)n : 0;
}

void ftsw_evlog(const char *lab, const char *kind, const char *fmt, ...)
{
	char path[300], old[310], text[FTSW_EVLOG_TEXT_MAX], line[1024];
	char jk[2 * FTSW_EVLOG_KIND_MAX + 8], jt[6 * FTSW_EVLOG_TEXT_MAX + 8];
	struct timespec ts;
	struct stat st;
	va_list ap;
	int fd, n;

	if (!lab || !*lab || strchr(lab, '/'))
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", ftsw_rundir(), lab);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return;
	snprintf(path, sizeof(path), "%s/%s/" FTSW_EVLOG_FILE, ftsw_rundir(),
		 lab);
	if (!lstat(path, &st) && S_ISREG(st.st_mode) &&
	    st.st_size > FTSW_EVLOG_MAX) {
		snprintf(old, sizeof(old), "%s.1", path);
		rename(path, old);
	}
	if (!json_str(jk, sizeof(jk), kind) || !json_str(jt, sizeof(jt), text))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	n = snprintf(line, sizeof(line), "{\"time\":%lld.%03ld,\"kind\":%s,"
		     "\"text\":%s}\n", (long long)ts.tv_sec,
		     ts.tv_nsec / 1000000, jk, jt);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK |
		  O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    write(fd, line, (size_t)n) != n) {
		/* a full disk: the event is lost, the command goes on */
	}
	close(fd);
}

/* ------------------------------------------------------------ reading */

/* The JSON string at s (after its opening quote) into out; its end. */
static const char *json_unstr(const char *s, const char *end, char *out,
			      size_t sz)
{
	size_t n = 0;

	while (s < end && *s != '"') {
		char c = *s++;

		if (c == '\\' && s < end) {
			c = *s++;
			if (c == 'n' || c == 't' || c == 'r')
				c = ' ';
			else if (c == 'u') {
				unsigned v = 0, k;

				for (k = 0; k < 4 && s < end; k++, s++) {
					char h = *s;

					v = v * 16 + (h >= '0' && h <= '9' ? h - '0' :
						      (h | 0x20) >= 'a' &&
						      (h | 0x20) <= 'f' ?
						      (h | 0x20) - 'a' + 10 : 0);
				}
				c = v < 0x80 && v >= 0x20 ? (char)v : '?';
			} else if (c != '"' && c != '\\' && c != '/') {
				return NULL;
			}
		} else if ((unsigned char)c < 0x20) {
			return NULL;
		}
		if (n + 1 < sz)
			out[n++] = c;
	}
	if (s >= end)
		return NULL;
	out[n] = 0;
	return s + 1;
}

/* The value after "key": in line, or NULL. */
static const char *json_key(const char *line, const char *end,
			    const char *key)
{
	size_t k = strlen(key);
	const char *p;

	for (p = line; p + k + 3 <= end; p++)
		if (p[0] == '"' && !memcmp(p + 1, key, k) && p[k + 1] == '"' &&
		    p[k + 2] == ':')
			return p + k + 3;
	return NULL;
}

int ftsw_evlog_parse(const char *line, size_t len, struct ftsw_evlog_line *e)
{
	const char *end = line + len, *v;
	char num[40], *stop;
	size_t n = 0;

	memset(e, 0, sizeof(*e));
	if (!len || line[0] != '{' || end[-1] != '}')
		return -1;
	v = json_key(line, end, "time");
	if (!v)
		return -1;
	while (v + n < end && n + 1 < sizeof(num) &&
	       strchr("0123456789.eE+-", v[n])) {
		num[n] = v[n];
		n++;
	}
	num[n] = 0;
	e->time = strtod(num, &stop);
	if (!n || *stop || !(e->time >= 0))
		return -1;
	v = json_key(line, end, "kind");
	if (!v || *v != '"' || !json_unstr(v + 1, end, e->kind, sizeof(e->kind)))
		return -1;
	v = json_key(line, end, "text");
	if (!v || *v != '"' || !json_unstr(v + 1, end, e->text, sizeof(e->text)))
		return -1;
	return 0;
}

void ftsw_tail_init(struct ftsw_tail *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->fd = -1;
}

void ftsw_tail_close(struct ftsw_tail *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->npart = 0;
	t->skipping = false;
}

/* Split buf into lines, keeping an unended one for the next read. */
static int tail_lines(struct ftsw_tail *t, const char *buf, size_t n,
		      void (*cb)(const char *, size_t, void *), void *arg)
{
	int lines = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (t->npart < sizeof(t->part))
				t->part[t->npart++] = buf[i];
			else
				t->skipping = true;
			continue;
		}
		if (!t->skipping) {
			cb(t->part, t->npart, arg);
			lines++;
		}
		t->npart = 0;
		t->skipping = false;
	}
	return lines;
}

/* Read fd to its end (at most *max bytes, taken off it). */
static int tail_drain(struct ftsw_tail *t, size_t *max,
		      void (*cb)(const char *, size_t, void *), void *arg)
{
	char buf[8192];
	int lines = 0;

	while (*max) {
		ssize_t n = read(t->fd, buf, *max < sizeof(buf) ? *max :
				 sizeof(buf));

		if (n <= 0)
			break;
		*max -= (size_t)n;
		lines += tail_lines(t, buf, (size_t)n, cb, arg);
	}
	return lines;
}

int ftsw_tail_read(struct ftsw_tail *t, bool from_start, size_t max,
		   void (*cb)(const char *line, size_t len, void *arg),
		   void *arg)
{
	struct stat st;
	int lines = 0;
	bool same;

	if (t->fd >= 0) {
		lines += tail_drain(t, &max, cb, arg);
		same = !stat(t->path, &st) && st.st_dev == t->dev &&
		       st.st_ino == t->ino;
		if (same || !max)
			return lines;
		/* rotated or made again: the new file from its start */
		ftsw_tail_close(t);
		from_start = true;
	}
	t->fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd < 0)
		return lines ? lines : -1;
	if (fstat(t->fd, &st) || !S_ISREG(st.st_mode)) {
		ftsw_tail_close(t);
		return lines ? lines : -1;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	if (!from_start && lseek(t->fd, 0, SEEK_END) < 0) {
		ftsw_tail_close(t);
		return -1;
	}
	return lines + tail_drain(t, &max, cb, arg);
}
