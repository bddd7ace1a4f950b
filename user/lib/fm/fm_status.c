// SPDX-License-Identifier: GPL-2.0
/* libftsw fabric manager: the status file, written and read back; stop. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fm/fm.h"
#include "fm/fm_int.h"
#include "nl/ns.h"
#include "nl/rtnl.h"
#include "route/routing.h"
#include "util/output.h"
#include "util/parse.h"
#include "util/rundir.h"
#include "util/text.h"

void ftsw_fm_status_path(const char *netns, char *buf, size_t sz)
{
	if (netns)
		snprintf(buf, sz, "%s/%s/fm.status", ftsw_rundir(), netns);
	else
		snprintf(buf, sz, "%s/fm.status", ftsw_rundir());
}

/*
 * The status file, replaced atomically: one JSON object (the same writer
 * as every -j output), read back by ftsw_fm_status_read() and by tests.
 */
void fm_write_status(struct fm *fm)
{
	struct ftsw_err err;
	unsigned i;
	char *tmp;
	FILE *f;

	f = ftsw_atomic_open(fm->status, &tmp, &err);
	if (!f)
		return;
	ftsw_out_begin(f, true);
	ftsw_out_open_object(NULL);
	ftsw_out_int("pid", NULL, getpid());
	ftsw_out_str("netns", NULL, fm->o->netns ? fm->o->netns : "");
	ftsw_out_str("engine", NULL, fm->engine);
	ftsw_out_uint("switches", NULL, fm->nsw);
	ftsw_out_uint("hosts", NULL, fm->nhosts);
	ftsw_out_uint("lmc", NULL, fm->lmc);
	ftsw_out_uint("cables", NULL, fm->ncables);
	ftsw_out_uint("cables_usable", NULL, fm->usable_swept);
	ftsw_out_uint("generation", NULL, fm->generation);
	ftsw_out_uint("events", NULL, fm->events);
	ftsw_out_uint("no_change_events", NULL, fm->no_change);
	ftsw_out_uint("overruns", NULL, fm->overruns);
	ftsw_out_uint("sweeps", NULL, fm->sweeps);
	ftsw_out_open_object("last");
	ftsw_out_str("cause", NULL, fm->last_cause);
	ftsw_out_uint("routed_us", NULL, fm->last.routed_us);
	ftsw_out_uint("uploaded_us", NULL, fm->last.uploaded_us);
	ftsw_out_uint("committed_us", NULL, fm->last.committed_us);
	ftsw_out_uint("switches_changed", NULL, fm->last.switches_changed);
	ftsw_out_close_object();
	ftsw_out_uint("unreachable_pairs", NULL, fm->unreachable);
	ftsw_out_open_array("unreachable");
	for (i = 0; i < fm->nunreach; i++) {
		ftsw_out_open_array(NULL);
		ftsw_out_uint(NULL, NULL, fm->unreach[i][0]);
		ftsw_out_uint(NULL, NULL, fm->unreach[i][1]);
		ftsw_out_close_array();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_atomic_commit(f, fm->status, tmp, &err);
}

/*
 * The status file is one JSON object written by fm_write_status(); its keys
 * are unique at every depth, so a key is found by scanning the strings of
 * the document: the string equal to it that a ':' follows.
 */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* End of the JSON string starting at p (at its '"'), or NULL. */
static const char *string_end(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p ? p : NULL;
}

static const char *json_value(const char *doc, const char *key)
{
	size_t n = strlen(key);
	const char *p = doc, *e;

	while ((p = strchr(p, '"'))) {
		e = string_end(p);
		if (!e)
			return NULL;
		if ((size_t)(e - p - 1) == n && !memcmp(p + 1, key, n) &&
		    *skip_ws(e + 1) == ':')
			return skip_ws(skip_ws(e + 1) + 1);
		p = e + 1;
	}
	return NULL;
}

static int status_u64(const char *doc, const char *path, const char *key,
		      uint64_t *v, struct ftsw_err *err)
{
	const char *p = json_value(doc, key);
	char what[400], tok[32];
	size_t n;

	snprintf(what, sizeof(what), "%s: %s", path, key);
	if (!p) {
		ftsw_err_set(err, "%s: missing", what);
		return -1;
	}
	n = strcspn(p, ",}] \t\r\n");
	snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
	return ftsw_parse_u64(what, tok, 0, UINT64_MAX, v, err) ? -1 : 0;
}

/* Decode the JSON string value of key into buf (\uXXXX as UTF-8). */
static int status_str(const char *doc, const char *path, const char *key,
		      char *buf, size_t sz, struct ftsw_err *err)
{
	const char *p = json_value(doc, key), *e;
	size_t n = 0;

	if (!p || *p != '"' || !(e = string_end(p))) {
		ftsw_err_set(err, "%s: %s: string expected", path, key);
		return -1;
	}
	for (p++; p < e && n + 4 < sz; p++) {
		unsigned c = (unsigned char)*p;

		if (c == '\\') {
			c = (unsigned char)*++p;
			if (c == 'u') {
				char hex[5] = { 0 };

				memcpy(hex, p + 1, e - p > 4 ? 4 : 0);
				c = (unsigned)strtoul(hex, NULL, 16);
				p += e - p > 4 ? 4 : 0;
				if (c >= 0x800) {
					buf[n++] = (char)(0xe0 | c >> 12);
					buf[n++] = (char)(0x80 | (c >> 6 & 0x3f));
					buf[n++] = (char)(0x80 | (c & 0x3f));
					continue;
				}
				if (c >= 0x80) {
					buf[n++] = (char)(0xc0 | c >> 6);
					buf[n++] = (char)(0x80 | (c & 0x3f));
					continue;
				}
			} else {
				c = c == 'n' ? '\n' : c == 't' ? '\t' :
				    c == 'r' ? '\r' : c == 'b' ? '\b' :
				    c == 'f' ? '\f' : c;
			}
		}
		buf[n++] = (char)c;
	}
	buf[n] = 0;
	return 0;
}

/* "unreachable": [[s, d], ...] */
static int status_pairs(const char *doc, const char *path,
			struct ftsw_fm_status *st, struct ftsw_err *err)
{
	const char *p = json_value(doc, "unreachable");
	char what[400];
	uint64_t v[2];
	int i;

	snprintf(what, sizeof(what), "%s: unreachable", path);
	if (!p || *p != '[')
		goto bad;
	for (p = skip_ws(p + 1); *p == '['; p = skip_ws(p)) {
		for (i = 0, p++; i < 2; i++) {
			if (ftsw_parse_u64_prefix(what, skip_ws(p), 0, UINT32_MAX,
						  &v[i], &p, err))
				return -1;
			p = skip_ws(p);
			if (*p++ != (i ? ']' : ','))
				goto bad;
		}
		if (st->nunreach < FTSW_FM_UNREACH_LIST) {
			st->unreach[st->nunreach][0] = (uint32_t)v[0];
			st->unreach[st->nunreach++][1] = (uint32_t)v[1];
		}
		p = skip_ws(p);
		if (*p == ',')
			p++;
	}
	if (*p == ']')
		return 0;
bad:
	ftsw_err_set(err, "%s: [[SRC, DST], ...] expected", what);
	return -1;
}

int ftsw_fm_status_read(const char *path, struct ftsw_fm_status *st,
			struct ftsw_err *err)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
#define NUM(k) { #k, offsetof(struct ftsw_fm_status, k) }
		NUM(switches), NUM(hosts), NUM(lmc), NUM(cables),
		NUM(cables_usable), NUM(generation), NUM(events),
		NUM(no_change_events), NUM(overruns), NUM(sweeps),
		NUM(routed_us), NUM(uploaded_us), NUM(committed_us),
		NUM(switches_changed), NUM(unreachable_pairs),
#undef NUM
	};
	char buf[8192];
	struct ftsw_text x;
	uint64_t pid;
	size_t n = 0, i;
	int got;

	memset(st, 0, sizeof(*st));
	/* a longer file is refused, never cut at the buffer's end and read */
	if (ftsw_text_open(&x, path, sizeof(buf) - 2, sizeof(buf) - 2, err))
		return -1;
	while ((got = ftsw_text_line(&x, err)) > 0) {
		memcpy(buf + n, x.line, x.len);
		n += x.len;
		buf[n++] = '\n';
	}
	ftsw_text_close(&x);
	if (got < 0)
		return -1;
	buf[n] = 0;
	if (status_u64(buf, path, "pid", &pid, err))
		return -1;
	st->pid = pid > INT32_MAX ? 0 : (long)pid;
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (status_u64(buf, path, nums[i].key,
			       (uint64_t *)((char *)st + nums[i].off), err))
			return -1;
	if (status_str(buf, path, "netns", st->netns, sizeof(st->netns), err) ||
	    status_str(buf, path, "engine", st->engine, sizeof(st->engine), err) ||
	    status_str(buf, path, "cause", st->cause, sizeof(st->cause), err))
		return -1;
	return status_pairs(buf, path, st, err);
}

int ftsw_fm_stop(const char *netns, unsigned wait_ms, struct ftsw_err *err)
{
	struct ftsw_fm_status st;
	char path[320];
	unsigned waited;

	ftsw_fm_status_path(netns, path, sizeof(path));
	if (access(path, F_OK))
		return 1;
	if (ftsw_fm_status_read(path, &st, err))
		return -1;
	if (!ftsw_pid_live(st.pid, "ftsw"))
		return 1;
	if (kill((pid_t)st.pid, SIGTERM) < 0) {
		ftsw_err_errno(err, errno, "fabric manager (pid %ld): %s",
			       st.pid, strerror(errno));
		return -1;
	}
	for (waited = 0; waited < wait_ms && kill((pid_t)st.pid, 0) == 0;
	     waited += 20)
		usleep(20000);
	if (kill((pid_t)st.pid, 0) == 0) {
		ftsw_err_set(err, "fabric manager (pid %ld) still runs %u ms "
			     "after SIGTERM", st.pid, wait_ms);
		return -1;
	}
	return 0;
}
