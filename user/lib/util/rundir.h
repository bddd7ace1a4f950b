/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw's run directory: where ftsw keeps the state of what it runs, one
 * directory per lab, RUNDIR/NAME/ (the lab's description lab.conf,
 * OpenSM's files, the path SLs, the MPI rankfile, the fabric manager's
 * status and log), and RUNDIR/fm.status for a fabric manager outside a
 * lab. Read and written by lab/ and fm/; Documentation/lab.md.
 *
 * RUNDIR is FTSW_RUNDIR for root (of the initial user namespace); for
 * anyone else, whose labs are rootless (nl/ns.h, Documentation/teaching.md),
 * it is $XDG_RUNTIME_DIR/ftsw, or ~/.cache/ftsw/run where there is no
 * runtime directory of the user's own.
 */
#ifndef LIBFTSW_UTIL_RUNDIR_H
#define LIBFTSW_UTIL_RUNDIR_H

#include <stdbool.h>

#include "util/util.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_RUNDIR		"/run/ftsw"
/* The longest run directory: a lab's file paths fit in 256 bytes. */
#define FTSW_RUNDIR_MAX		128

/*
 * Whether this process is root of the initial user namespace (euid 0 and
 * the identity uid map), the one that may build labs the classic way:
 * namespaces bound under /run/netns, state under FTSW_RUNDIR. Decided
 * once, on the first call: a process that later joins a user namespace of
 * its own (a rootless lab's holder) keeps its answer.
 */
bool ftsw_privileged(void);
/*
 * The run directory (see above), decided once; "" when a rootless user
 * has neither $XDG_RUNTIME_DIR nor a home directory (ftsw_rundir_make
 * then says so).
 */
const char *ftsw_rundir(void);
/* Make the run directory (and, rootless, its parents): 0 or -1 + err. */
int ftsw_rundir_make(struct ftsw_err *err);
/*
 * RUNDIR/.lock (made with the directory), taken around what makes or
 * removes the directories every lab shares: lab up holds it from before
 * it makes anything until its own run directory exists, lab down while it
 * removes what the last lab leaves (nl/ns.h ftsw_netns_release_idle), so
 * that one never removes what another is about to use. Nested calls
 * count.
 */
int ftsw_rundir_lock(struct ftsw_err *err);
void ftsw_rundir_unlock(void);
/*
 * Whether the run directory holds anything but ftsw's own dot-files (a
 * lab, a fabric manager's status, kept logs). Lab names never start with
 * a dot.
 */
bool ftsw_rundir_busy(void);
/* With the lock held and nothing in it: the lock file and the directory
 * removed. */
void ftsw_rundir_prune(void);

#pragma GCC visibility pop

#endif
