// SPDX-License-Identifier: GPL-2.0
/*
 * The view's timeline: the fabric's events (the kernel's port states and
 * commits), the lab's events file (lab fail/heal, fm sweeps, traffic runs:
 * util/evlog.h) and OpenSM's log (its sweeps, the traps it receives), in
 * the order they reach the sampler, the last FTSW_VIEW_TIMELINE kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_int.h"

void ftsw_view_event_add(struct ftsw_view *v, double wall, const char *kind,
			 const char *fmt, ...)
{
	struct ftsw_view_timeline *tl = &v->tl;
	struct ftsw_view_event *e = &tl->ev[tl->next % FTSW_VIEW_TIMELINE];
	va_list ap;

	memset(e, 0, sizeof(*e));
	e->seq = tl->next++;
	e->time = wall;
	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

size_t ftsw_view_recent(const struct ftsw_view *v, struct ftsw_view_event *out,
			size_t max)
{
	const struct ftsw_view_timeline *tl = &v->tl;
	uint64_t first = tl->next > FTSW_VIEW_TIMELINE ?
			 tl->next - FTSW_VIEW_TIMELINE : 0, s;
	size_t n = 0;

	if (tl->next - first > max)
		first = tl->next - max;
	for (s = first; s < tl->next; s++)
		out[n++] = tl->ev[s % FTSW_VIEW_TIMELINE];
	return n;
}

/* The text after key in line (of len bytes), or NULL. */
static const char *after(const char *line, size_t len, const char *key)
{
	size_t k = strlen(key), i;

	for (i = 0; i + k <= len; i++)
		if (!memcmp(line + i, key, k))
			return line + i + k;
	return NULL;
}

/* A decimal or 0x number at s (inside the line's len), or -1. */
static long long number_at(const char *s, const char *end)
{
	char buf[24];
	size_t n = 0;

	while (s + n < end && n + 1 < sizeof(buf) &&
	       strchr("0123456789abcdefxABCDEF", s[n])) {
		buf[n] = s[n];
		n++;
	}
	buf[n] = 0;
	return n ? strtoll(buf, NULL, 0) : -1;
}

static double now_wall(const struct ftsw_view *v)
{
	return v->snap.wall;
}

/*
 * OpenSM's lines of note (opensm.log at its default verbosity): SUBNET UP
 * ends each heavy sweep; "Received Generic Notice type:T num:N ... from
 * LID:L" is a trap it took in (128: a link's state changed).
 */
void ftsw_view_sm_line(struct ftsw_view *v, const char *line, size_t len)
{
	const char *end = line + len, *p;

	if (after(line, len, "SUBNET UP")) {
		v->mgr.sm_sweeps++;
		ftsw_view_event_add(v, now_wall(v), "sm-sweep", "OpenSM: SUBNET "
				    "UP (sweep %llu done)",
				    (unsigned long long)v->mgr.sm_sweeps);
		return;
	}
	p = after(line, len, "Received Generic Notice");
	if (p) {
		const char *num = after(p, (size_t)(end - p), "num:");
		const char *lid = after(p, (size_t)(end - p), "LID:");

		v->mgr.sm_traps++;
		ftsw_view_event_add(v, now_wall(v), "sm-trap", "OpenSM: trap "
				    "%lld%s from LID %lld",
				    num ? number_at(num, end) : -1LL,
				    num && number_at(num, end) == 128 ?
				    " (a port's state changed)" : "",
				    lid ? number_at(lid, end) : -1LL);
		return;
	}
	if (after(line, len, "Entering MASTER state") ||
	    after(line, len, "Exiting SM"))
		ftsw_view_event_add(v, now_wall(v), "sm", "OpenSM: %.*s",
				    (int)(len > 160 ? 160 : len), line);
}

void ftsw_view_evlog_line(struct ftsw_view *v, const char *line, size_t len)
{
	struct ftsw_evlog_line e;

	if (ftsw_evlog_parse(line, len, &e))
		return;
	ftsw_view_event_add(v, e.time, e.kind, "%s", e.text);
}
