/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw utilities shared by every folder: the error report every call
 * fills, atomic file writes, a monotonic clock and a seeded PRNG. Nothing
 * here knows about fabrics.
 */
#ifndef LIBFTSW_UTIL_H
#define LIBFTSW_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

/*
 * Error report: every failing libftsw call fills msg (what failed, with the
 * file:line, switch/port or option at fault) and code, a positive errno
 * value a program can test: ENOENT, EACCES... from the system call that
 * failed, EINVAL for input refused, ERANGE for a number out of its bounds,
 * ENOMEM, or the errno the kernel replied with. The caller owns the
 * structure (usually on its stack); nothing in it is allocated. A call that
 * succeeds may leave it as it was.
 */
struct ftsw_err {
	char msg[512];
	int code;
};

/* Fill err (when not NULL) with the message and the code EINVAL. */
void ftsw_err_set(struct ftsw_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Fill err with the message and code e (a positive errno value; a negative
 * one is negated, 0 becomes EINVAL).
 */
void ftsw_err_errno(struct ftsw_err *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Progress of a long call, for a terminal: what (a step: "sim: load
 * points", "stage"...), done of total. A note (total 0) is a line of its
 * own; what NULL means the call is done (clear the line). Called from one
 * thread at a time, not always the caller's. The library never writes to
 * stdout or stderr itself: a caller that wants progress passes this.
 */
typedef void (*ftsw_progress_fn)(const char *what, uint64_t done,
				 uint64_t total, void *arg);

/*
 * Atomic file write: ftsw_atomic_open() creates a temporary file next to
 * path; ftsw_atomic_commit() flushes, syncs and renames it over path, or
 * removes it on any error. Readers never see a half-written file. A
 * character device or a FIFO (/dev/null, a pipe) is opened and written in
 * place (*tmp is then NULL); a directory or other non-regular target is
 * refused.
 */
FILE *ftsw_atomic_open(const char *path, char **tmp, struct ftsw_err *err);
int ftsw_atomic_commit(FILE *f, const char *path, char *tmp,
		       struct ftsw_err *err);
/* Give an atomic write up: the temporary file removed, path untouched. */
void ftsw_atomic_abort(FILE *f, char *tmp);
/*
 * write(obj, f) into path atomically, or to standard output when path is
 * NULL or "-". 0, or -EIO with err set.
 */
int ftsw_write_path(const char *path, int (*write)(const void *obj, FILE *f),
		    const void *obj, struct ftsw_err *err);

/*
 * Room for one more element in array v of n elements of size bytes and
 * capacity *cap: v itself, or v grown to *cap * 2 + add elements (*cap
 * updated). NULL when out of memory (v is then unchanged).
 */
void *ftsw_grow(void *v, size_t n, size_t *cap, size_t size, size_t add);

/*
 * Whether pid is a process that lives (not a zombie) and is named comm
 * (/proc/PID/stat): a pid file's pid may be another process's by now.
 */
bool ftsw_pid_live(long pid, const char *comm);

/* Monotonic clock in microseconds. */
uint64_t ftsw_now_us(void);

/* Deterministic PRNG (splitmix64) for everything seeded. */
uint64_t ftsw_rand_next(uint64_t *state);

#pragma GCC visibility pop

#endif
