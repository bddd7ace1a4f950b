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

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

struct ftsw_fm_report;

struct ftsw_fm_opts {
	const char *netns;	/* fabric namespace (a lab name); NULL: ours */
	const char *engine;	/* NULL: dmodc */
	const char *status;	/* status file (NULL: default for netns) */
	bool once;		/* route, commit and return */
	unsigned threads;
	int rcvbuf;		/* event socket receive buffer; 0: FTSW_FM_RCVBUF */
	volatile int *stop;	/* set by a signal handler: return cleanly */
	/*
	 * What happens (sweeps, wake-ups without change, overruns) is
	 * reported here, one call each; the caller prints it. The status
	 * file is written after the call returns (through util/output.h:
	 * the call must end any document it starts).
	 */
	void (*report)(const struct ftsw_fm_report *r, void *arg);
	void *report_arg;
	/* Called once the first sweep is committed (e.g. a daemon's parent
	 * waits for it). */
	void (*ready)(void *arg);
	void *ready_arg;
};

/* Default event receive buffer: room for thousands of port events. */
#define FTSW_FM_RCVBUF (8 << 20)
/* Unreachable host pairs listed by a sweep and in the status file. */
#define FTSW_FM_UNREACH_LIST 20

/* Timings of one sweep, microseconds from detection. */
struct ftsw_fm_sweep {
	uint64_t routed_us, uploaded_us, committed_us;
	uint32_t switches_changed;
	uint64_t generation;
	uint64_t unreachable;	/* ordered host pairs without a path */
};

enum ftsw_fm_report_kind {
	FTSW_FM_SWEPT,		/* a sweep committed */
	FTSW_FM_NO_CHANGE,	/* events that changed no usable cable */
	FTSW_FM_OVERRUN,	/* events lost: resynchronising */
	FTSW_FM_RESYNCED,	/* resynchronised from a port dump */
	FTSW_FM_FAILED,		/* a sweep or a resynchronisation failed */
};

struct ftsw_fm_report {
	enum ftsw_fm_report_kind kind;
	const char *cause;	/* SWEPT: why; NO_CHANGE: the first event */
	const char *error;	/* OVERRUN, FAILED: why */
	uint64_t sweeps;	/* sweeps so far (SWEPT: this one's number) */
	const struct ftsw_fm_sweep *sweep;	/* SWEPT */
	size_t cables, cables_usable;
	uint32_t hosts;
	/* SWEPT: the first unreachable (src, dst) host pairs */
	const uint32_t (*unreach)[2];
	unsigned nunreach;
	unsigned events;	/* NO_CHANGE: events of the wake-up */
	bool more;		/* NO_CHANGE: more than one event */
	unsigned changed;	/* RESYNCED: port states that differed */
};

/* Run until *stop (or once). 0 on clean exit, -1 with err. */
int ftsw_fm_run(const struct ftsw_fm_opts *o, struct ftsw_err *err);

/* Default status file of the manager of namespace netns (NULL: ours). */
void ftsw_fm_status_path(const char *netns, char *buf, size_t sz);

/* The manager's status file, read back. */
struct ftsw_fm_status {
	long pid;
	char netns[64], engine[64];
	uint64_t switches, hosts, lmc, cables, cables_usable;
	uint64_t generation, events, no_change_events, overruns, sweeps;
	char cause[160];	/* of the last sweep */
	uint64_t routed_us, uploaded_us, committed_us, switches_changed;
	uint64_t unreachable_pairs;
	uint32_t unreach[FTSW_FM_UNREACH_LIST][2];
	unsigned nunreach;
};

int ftsw_fm_status_read(const char *path, struct ftsw_fm_status *st,
			struct ftsw_err *err);

/*
 * Stop the manager of namespace netns (NULL: ours) that its status file
 * names, if it still runs: SIGTERM, then up to wait_ms for it to exit.
 * 0 when one was stopped, 1 when none runs, -1 with err.
 */
int ftsw_fm_stop(const char *netns, unsigned wait_ms, struct ftsw_err *err);

#pragma GCC visibility pop

#endif
