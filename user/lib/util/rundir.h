/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw's run directory: where ftsw keeps the state of what it runs, one
 * directory per lab, FTSW_RUNDIR/NAME/ (the lab's description lab.conf,
 * OpenSM's files, the path SLs, the MPI rankfile, the fabric manager's
 * status and log), and FTSW_RUNDIR/fm.status for a fabric manager outside
 * a lab. Read and written by lab/ and fm/; Documentation/lab.md.
 */
#ifndef LIBFTSW_UTIL_RUNDIR_H
#define LIBFTSW_UTIL_RUNDIR_H

#define FTSW_RUNDIR		"/run/ftsw"

#endif
