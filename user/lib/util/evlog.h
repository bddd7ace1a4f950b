/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lab's events file, RUNDIR/LAB/events (util/rundir.h) (Documentation/lab.md,
 * "Watching the fabric"): what the kernel does not announce (a cable
 * failed or healed by `lab fail`, a fabric manager's sweep, `lab up`, a
 * traffic run), one JSON object per line:
 *
 *	{"time":1764393600.123,"kind":"fail","text":"cable s1:4 - h3 down"}
 *
 * appended by the commands and the fabric manager, followed by the live
 * view (lab view, lab top) for its timeline. Appending never waits on a
 * reader: one write(2) of the whole line to a regular file opened
 * O_APPEND | O_NONBLOCK (a FIFO or anything else is left alone), nothing
 * reported when it fails. Past FTSW_EVLOG_MAX bytes the file is renamed to
 * events.1 and begun again; a follower that holds the old file open reads
 * it to its end first, so it loses nothing.
 *
 * ftsw_tail follows any growing text file by whole lines (the events file,
 * OpenSM's log).
 */
#ifndef LIBFTSW_UTIL_EVLOG_H
#define LIBFTSW_UTIL_EVLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FTSW_EVLOG_FILE		"events"
#define FTSW_EVLOG_MAX		(256 << 10)
#define FTSW_EVLOG_KIND_MAX	24
#define FTSW_EVLOG_TEXT_MAX	240

/*
 * Append an event of lab (NULL or "": nothing) to its events file, if the
 * lab's run directory exists. kind: a short word ("fail", "fm-sweep"...).
 */
void ftsw_evlog(const char *lab, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct ftsw_evlog_line {
	double time;		/* Unix seconds */
	char kind[FTSW_EVLOG_KIND_MAX];
	char text[FTSW_EVLOG_TEXT_MAX];
};

/* One line of an events file parsed: 0, or -1 when it is not one. */
int ftsw_evlog_parse(const char *line, size_t len, struct ftsw_evlog_line *e);

/* A file followed by lines: from where it was when opened, or from 0. */
#define FTSW_TAIL_LINE_MAX	1024
struct ftsw_tail {
	char path[300];
	int fd;			/* -1: not open (yet) */
	dev_t dev;
	ino_t ino;
	char part[FTSW_TAIL_LINE_MAX];	/* a line not ended yet */
	size_t npart;
	bool skipping;		/* in a line longer than part: dropped */
};

void ftsw_tail_init(struct ftsw_tail *t, const char *path);
/*
 * Open the file if it is not (from_start: from its beginning, else from
 * its end), read what it gained, at most max bytes, and call cb for every
 * whole line (without its newline; longer lines than FTSW_TAIL_LINE_MAX
 * are dropped). When the path names another file now (renamed, rotated,
 * made again), the old one is read to its end first. The number of lines,
 * or -1 when the file is not there.
 */
int ftsw_tail_read(struct ftsw_tail *t, bool from_start, size_t max,
		   void (*cb)(const char *line, size_t len, void *arg),
		   void *arg);
void ftsw_tail_close(struct ftsw_tail *t);

#endif
