/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw's live view of a lab (Documentation/lab.md, "Watching the
 * fabric"): one sampler per lab reads the kernel's counters with netlink
 * dumps at a fixed rate and listens to the fabric's events, the lab's
 * events file and OpenSM's log; everything it learns is one snapshot that
 * every client shares (a client never causes a kernel request): the page
 * of `ftsw lab view` and its push stream, `/metrics` for Prometheus, and
 * `ftsw lab top`.
 *
 *	ftsw_view_listen(addr, &listener, &err);	(before the lab opens)
 *	v = ftsw_view_open(&lab, &opts, &err);
 *	ftsw_view_serve(v, &server_opts, &err);	(or, for lab top:)
 *	for (;;) { ftsw_view_sample(v, &err); ftsw_view_top(v, ...); }
 *	ftsw_view_close(v);
 *
 * Rates are over the interval between the last two samples. A view is
 * used from one thread.
 */
#ifndef LIBFTSW_VIEW_H
#define LIBFTSW_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/lab.h"

#pragma GCC visibility push(default)

#define FTSW_VIEW_INTERVAL_MS	500	/* two samples a second */
#define FTSW_VIEW_PORT		8470	/* lab view's default TCP port */

struct ftsw_view;

struct ftsw_view_opts {
	unsigned interval_ms;	/* between samples (0: the default) */
	int hosts;		/* the page draws hosts: -1 up to 256 */
};

/*
 * The view of an open lab (kept open by the caller until it closes the
 * view): its model (the layout, names, labels), an event subscription in
 * its fabric, the files it follows. NULL with err.
 */
struct ftsw_view *ftsw_view_open(struct ftsw_lab *lab,
				 const struct ftsw_view_opts *o,
				 struct ftsw_err *err);
void ftsw_view_close(struct ftsw_view *v);
/*
 * One sample: every port (a dump), the fabric, the fabric's pending
 * events, the events file and OpenSM's log; after a commit the active
 * tables and SL-to-VL maps for the paths. 0, or -1 with err.
 */
int ftsw_view_sample(struct ftsw_view *v, struct ftsw_err *err);
/* The fabric's event socket, for poll(2); ftsw_view_events() reads it. */
int ftsw_view_event_fd(const struct ftsw_view *v);
void ftsw_view_events(struct ftsw_view *v);
unsigned ftsw_view_interval_ms(const struct ftsw_view *v);

/* ------------------------------------------------------------ server */

/*
 * Where the server listens: a socket bound and listening, and the page's
 * URL. Made before the lab is opened: a socket stays in the network
 * namespace it was made in, and ftsw_lab_open() of a rootless lab joins
 * the user's lab namespaces (nl/ns.h), where the user's browser would not
 * reach it.
 */
struct ftsw_view_listener {
	int fd;
	char url[128];
};

/*
 * Listen on spec, "ADDR:PORT" or "[ADDR6]:PORT" (NULL: 127.0.0.1 and
 * FTSW_VIEW_PORT; port 0: any free one). 0, or -1 with err.
 */
int ftsw_view_listen(const char *spec, struct ftsw_view_listener *l,
		     struct ftsw_err *err);

struct ftsw_view_server_opts {
	/* from ftsw_view_listen(), the server's from then on (closed when
	 * it returns); NULL: the server listens on listen itself */
	struct ftsw_view_listener *listener;
	const char *listen;
	unsigned max_clients;	/* connections at once (0: 1024) */
	unsigned timeout_s;	/* an idle connection is closed (0: 15) */
	volatile int *stop;	/* set by a signal handler: return */
	/* called once listening, with the page's URL */
	void (*ready)(const char *url, void *arg);
	void *ready_arg;
};

/*
 * Serve the view over HTTP until *stop (libmicrohttpd). One server per
 * lab: its pid and URL are in RUNDIR/LAB/view.pid while it runs (a second
 * is refused, naming the first). 0, or -1 with err.
 */
int ftsw_view_serve(struct ftsw_view *v, const struct ftsw_view_server_opts *o,
		    struct ftsw_err *err);
/*
 * The server of lab's view that runs (view.pid, a live ftsw process):
 * its pid and URL (url may be NULL); 0 when none runs.
 */
long ftsw_view_running(const char *lab, char *url, size_t sz);
/*
 * Stop it (SIGTERM, then up to wait_ms for it to end): 0 when one was
 * stopped, 1 when none runs, -1 with err. lab down does it first.
 */
int ftsw_view_stop(const char *lab, unsigned wait_ms, struct ftsw_err *err);

/* ------------------------------------------------------------ lab top */

enum ftsw_view_sort {
	FTSW_VIEW_BY_PPS,	/* packets/s (default) */
	FTSW_VIEW_BY_BPS,	/* bits/s */
	FTSW_VIEW_BY_WAIT,	/* time waiting for credit */
	FTSW_VIEW_BY_DISCARDS,	/* lifetime discards and drops */
	FTSW_VIEW_BY_PACKETS,	/* packets sent since the lab began */
	FTSW_VIEW_NSORT,
};

/* "pps", "bps", "wait", "discards", "packets". */
const char *ftsw_view_sort_name(enum ftsw_view_sort s);

/* One switch port as last sampled: the link it sends on. */
struct ftsw_view_link {
	uint32_t sw;		/* switch index */
	unsigned port;
	char from[16], to[24];	/* "s3:2", "s9:1" or "h5" */
	bool up;		/* the cable is usable */
	double pps, bps;	/* sent, over the last interval */
	uint64_t packets, bytes;	/* sent, the kernel's counters */
	uint64_t drops;		/* the port's drops, every reason */
	/* lossless mode */
	double credit_wait;	/* share of the interval its outputs waited
				 * for credit (summed over VLs) */
	uint32_t in_bytes, out_bytes;	/* buffered, every VL */
	uint64_t discards;	/* HOQ and lifetime, every VL */
};

/*
 * The switch ports, busiest first by s (only switch sw's when sw >= 0),
 * at most max into out; how many there are in all.
 */
size_t ftsw_view_top(const struct ftsw_view *v, enum ftsw_view_sort s,
		     int64_t sw, struct ftsw_view_link *out, size_t max);

/* A line of the timeline. */
struct ftsw_view_event {
	uint64_t seq;
	double time;		/* Unix seconds */
	char kind[24];		/* port, commit, fail, fm-sweep, sm-sweep... */
	char text[240];
};

/* The last max events, oldest first; how many were copied. */
size_t ftsw_view_recent(const struct ftsw_view *v, struct ftsw_view_event *out,
			size_t max);

/* What the sampler saw last. */
struct ftsw_view_status {
	uint64_t samples;
	double sample_ms;	/* the last sample took */
	uint64_t generation;
	bool lossless;
	uint32_t switches, hosts, ports, ports_down;
	uint64_t drops;		/* the fabric's, every reason */
	unsigned cycles;	/* cycles of buffers waiting on each other */
	unsigned waiting;	/* outputs waiting for credit */
};

void ftsw_view_status(const struct ftsw_view *v, struct ftsw_view_status *st);

/* The paths of a host pair, as the kernel's active tables route them. */
#define FTSW_VIEW_MAX_PATHS	128
struct ftsw_view_hop {
	uint32_t sw;
	unsigned in_port, port;	/* in and out */
	unsigned vl;		/* the SL's VL at this switch */
	bool down;		/* its cable is down now */
};

struct ftsw_view_path {
	uint32_t dlid;
	unsigned offset, sl;
	bool used;		/* the source sends on this offset */
	int status;		/* ftsw_trace_path()'s */
	unsigned nhops;
	struct ftsw_view_hop hops[66];
};

struct ftsw_view_paths {
	uint32_t src, dst;	/* hosts */
	uint64_t generation;	/* of the tables traced */
	unsigned npaths;
	struct ftsw_view_path path[FTSW_VIEW_MAX_PATHS];
};

/*
 * Trace "h3" (or "3", or a node name) to another host on the tables the
 * sampler read last. 0, or -1 with err (an unknown host, no tables yet).
 */
int ftsw_view_paths(const struct ftsw_view *v, const char *src,
		    const char *dst, struct ftsw_view_paths *p,
		    struct ftsw_err *err);

#pragma GCC visibility pop

#endif
