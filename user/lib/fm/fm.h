/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw fabric manager: an OpenSM-style subnet manager for the emulated
 * fabric of one network namespace.
 *
 * It discovers the fabric from the kernel alone: switches and bound ports
 * from the "ftsw" family, and which port each veth peer is bound to from
 * rtnetlink (IFLA_LINK of a fabric device names its peer); edge ports give
 * the hosts (host n = base LID >> LMC - 1). It routes (Dmodc by default, any
 * engine), uploads the tables that changed and commits, then listens to the
 * event group. It reasons per cable: a switch-to-switch cable is usable iff
 * both ends are up, an edge cable iff its port is up; a wake-up whose events
 * change the set of usable cables triggers one sweep, logged as detection ->
 * routes computed -> uploaded -> committed, in microseconds; other events are
 * counted and logged as "no change". An event overrun (ENOBUFS) is repaired
 * from a port dump.
 */
#ifndef LIBFTSW_FM_H
#define LIBFTSW_FM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topo/topology.h"

struct ftsw_fm_opts {
	const char *netns;	/* fabric namespace (a lab name); NULL: ours */
	const char *engine;	/* NULL: dmodc */
	const char *status;	/* status file (NULL: default for netns) */
	FILE *log;		/* one line per sweep (NULL: stdout) */
	bool once;		/* route, commit and return */
	bool json;		/* log lines as JSON */
	unsigned threads;
	int rcvbuf;		/* event socket receive buffer; 0: FTSW_FM_RCVBUF */
	volatile int *stop;	/* set by a signal handler: return cleanly */
	/* Called once the first sweep is committed (e.g. a daemon's parent
	 * waits for it). */
	void (*ready)(void *arg);
	void *ready_arg;
};

/* Default event receive buffer: room for thousands of port events. */
#define FTSW_FM_RCVBUF (8 << 20)

/* Timings of one sweep, microseconds from detection. */
struct ftsw_fm_sweep {
	uint64_t routed_us, uploaded_us, committed_us;
	uint32_t switches_changed;
	uint64_t generation;
	uint64_t unreachable;	/* ordered host pairs without a path */
};

/* Run until *stop (or once). 0 on clean exit, -1 with err. */
int ftsw_fm_run(const struct ftsw_fm_opts *o, struct ftsw_err *err);

/* Default status file of the manager of namespace netns (NULL: ours). */
void ftsw_fm_status_path(const char *netns, char *buf, size_t sz);

#endif
