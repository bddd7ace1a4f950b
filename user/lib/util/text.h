/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one line reader of libftsw and the CLI. Every text file ftsw reads
 * (net files, LFT dumps, order, traffic and LFT edit files, SL tables,
 * the files of a lab's run directory: lab.conf, path-sl, pid files, through
 * lab_run_open()) goes through here, so that every one is bounded and refused
 * the same way, each message starting with the file (and line) at fault:
 *
 *  - only a regular file is opened: a character device (/dev/zero), a
 *    FIFO (opened without waiting for a writer), a socket or a directory
 *    is refused at once, naming what it is;
 *  - a file larger than the reader's bound is refused before it is read
 *    (and while reading, should it grow);
 *  - a line longer than the reader's bound is refused with its number
 *    ("x.net:1: line longer than 4096 bytes"), never split in two or
 *    grown without limit; a NUL byte ends the read at once (binary input);
 *  - a read error names the line it happened on.
 *
 * A trailing '\r' is stripped (CRLF files), the newline never kept.
 *
 *	struct ftsw_text x;
 *
 *	if (ftsw_text_open(&x, path, FTSW_TEXT_LINE, 1 << 20, err))
 *		return -1;
 *	while ((got = ftsw_text_line(&x, err)) > 0)
 *		... x.line, x.ln ...
 *	ftsw_text_close(&x);
 *	if (got < 0)
 *		return -1;
 */
#ifndef LIBFTSW_UTIL_TEXT_H
#define LIBFTSW_UTIL_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* The line bound every reader uses unless it documents another. */
#define FTSW_TEXT_LINE	4096

struct ftsw_text {
	FILE *f;
	const char *path;	/* the name in messages */
	char *line;		/* the current line, NUL-terminated */
	size_t len;		/* its length in bytes */
	unsigned ln;		/* its number (lines read so far) */
	size_t max_line;	/* longest line accepted, newline excluded */
	uint64_t max_file;	/* largest file accepted, bytes */
	uint64_t bytes;		/* bytes read so far */
	bool own;		/* f opened (and closed) here */
};

/*
 * Open path (a regular file of at most max_file bytes) for lines of at
 * most max_line bytes: 0, or -1 with "path: why" in err.
 */
int ftsw_text_open(struct ftsw_text *x, const char *path, size_t max_line,
		   uint64_t max_file, struct ftsw_err *err);

/*
 * The same bounds over an open stream (fmemopen in tests and fuzzers),
 * named name in messages; f stays the caller's. 0, or -1 (out of memory).
 */
int ftsw_text_attach(struct ftsw_text *x, FILE *f, const char *name,
		     size_t max_line, uint64_t max_file, struct ftsw_err *err);

/* The next line into x->line: 1, 0 at the end, -1 with err set. */
int ftsw_text_line(struct ftsw_text *x, struct ftsw_err *err);

void ftsw_text_close(struct ftsw_text *x);

#endif
