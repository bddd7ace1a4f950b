// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw fabric manager (see fm.h).
 *
 * Two genl clients: one subscribed to the event group, one for requests
 * (events never mix with replies). The manager subscribes before it
 * discovers, so a change during discovery is seen as an event afterwards.
 * The manager reasons per cable, not per port: a switch-to-switch cable is
 * usable iff both its ends are up, an edge cable iff its port is up. Every
 * event pending at a wake-up is applied; a sweep runs only when the set of
 * usable cables differs from the one of the last sweep, so the two ends of
 * one failed cable (which often report in separate wake-ups) cost one sweep,
 * not two, and no delay window is added to wait for the second end. A sweep
 * routes the usable cabling, uploads only the switches whose table changed,
 * and commits once: the kernel swaps all tables at once.
 *
 * A multicast receive buffer that overflows loses events (ENOBUFS): the
 * manager then drops what is queued, re-reads every port state with a port
 * dump and sweeps if the usable set changed.
 *
 * This file is the manager's loop: events, resynchronisation, start and
 * stop. Discovery is fm_discover.c, sweeps fm_sweep.c, the status file
 * fm_status.c; fm_int.h is what they share.
 */
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

#include "util/evlog.h"
#include "fm/fm.h"
#include "fm/fm_int.h"
#include "nl/ns.h"
#include "nl/rtnl.h"
#include "route/routing.h"
#include "util/output.h"
#include "util/parse.h"

/* The events of one wake-up. */
struct ev_arg {
	struct fm *fm;
	unsigned events;	/* port events read */
	unsigned flips;		/* events that flipped their cable's usability */
	char cause[96];		/* the first event that flipped a cable */
	char first[96];		/* the first event */
};

/* Port k is now up/down: 1 if its cable's usability flipped. */
static int port_set(struct fm *fm, size_t k, bool up)
{
	size_t c = fm->cable_of[k];
	bool before;

	if (!c) {
		fm->ports[k].up = up;
		return 0;
	}
	before = fm_cable_usable(fm, c - 1);
	fm->ports[k].up = up;
	return fm_cable_usable(fm, c - 1) != before;
}

static int ev_cb(const struct ftsw_event *ev, void *arg)
{
	struct ev_arg *a = arg;
	struct fm *fm = a->fm;
	char what[96];
	uint32_t s;
	size_t k = 0;
	bool up;

	if (ev->cmd != FTSW_CMD_PORT_EVENT)
		return 0;
	fm->events++;
	a->events++;
	up = ev->port.oper_up && ev->port.admin_up;
	if (ev->port.reason == FTSW_REASON_UNBIND ||
	    ev->port.reason == FTSW_REASON_UNREGISTER ||
	    ev->port.reason == FTSW_REASON_RESET)
		up = false;
	snprintf(what, sizeof(what), "switch %" PRIu32 " port %u %s (%s)",
		 ev->port.switch_id, ev->port.port, up ? "up" : "down",
		 ftsw_reason_name(ev->port.reason));
	if (a->events == 1)
		snprintf(a->first, sizeof(a->first), "%s", what);
	s = fm_sw_index(fm, ev->port.switch_id);
	if (s != UINT32_MAX && ev->port.port)
		k = fm->port_at[(size_t)s * 256 + ev->port.port];
	if (!k)
		return 0;	/* a port we did not discover: ignore */
	if (port_set(fm, k - 1, up) && !a->flips++)
		snprintf(a->cause, sizeof(a->cause), "%s", what);
	return 0;
}

struct resync_arg {
	struct fm *fm;
	unsigned changed;	/* ports whose state differed */
};

static int resync_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct resync_arg *a = arg;
	struct fm *fm = a->fm;
	uint32_t s = fm_sw_index(fm, pi->switch_id);
	size_t k;
	bool up = pi->oper_up && pi->admin_up;

	if (s == UINT32_MAX || !pi->port)
		return 0;
	k = fm->port_at[(size_t)s * 256 + pi->port];
	if (!k || fm->ports[k - 1].up == up)
		return 0;
	a->changed++;
	port_set(fm, k - 1, up);
	return 0;
}

/*
 * Events were lost (receive buffer overrun). What is still queued predates
 * the loss and would be stale after a dump: drop it, then read every port's
 * state. Events queued after this point are newer than or equal to the
 * dump's states, and each carries a port's whole state, so applying them
 * later keeps the view right.
 */
static int resync(struct fm *fm, unsigned *changed, struct ftsw_err *err)
{
	struct resync_arg a = { .fm = fm };
	int fd = ftsw_nl_event_fd(fm->ev);
	char buf[8192];
	unsigned i;

	for (i = 0; i < 1000000; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && errno != ENOBUFS && errno != EINTR)
			break;	/* EAGAIN: empty */
	}
	if (ftsw_nl_port_dump(fm->nl, -1, resync_cb, &a)) {
		ftsw_err_errno(err, ftsw_nl_errno(fm->nl),
			       "resynchronising: port dump: %s",
			       ftsw_nl_error(fm->nl));
		return -1;
	}
	*changed = a.changed;
	return 0;
}

/* A larger receive buffer for the event socket (root may exceed rmem_max). */
static void set_rcvbuf(struct fm *fm, int bytes)
{
	int fd = ftsw_nl_event_fd(fm->ev);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
}

/*
 * Events were read (or lost): sweep if the usable set changed. t0: the
 * wake-up.
 */
static void wakeup_decide(struct fm *fm, const struct ev_arg *a, bool overrun,
			  unsigned resynced, uint64_t t0)
{
	struct ftsw_fm_report rep = { 0 };
	struct ftsw_err err;
	char cause[160];
	size_t diff = fm_cables_changed(fm);

	if (!diff) {
		/* The usable set is the routed one: nothing to do. */
		fm->no_change += a->events;
		if (a->events) {
			rep.cause = a->first;
			rep.events = a->events;
			rep.more = a->events > 1;
			fm_report(fm, FTSW_FM_NO_CHANGE, &rep);
		}
		if (a->events || overrun)
			fm_write_status(fm);
		return;
	}
	fm->no_change += a->events - a->flips;
	if (overrun)
		snprintf(cause, sizeof(cause), "resynchronised after an "
			 "event overrun (%u port states changed); %zu "
			 "cable%s changed", resynced, diff,
			 diff == 1 ? "" : "s");
	else
		snprintf(cause, sizeof(cause), "%s; %zu cable%s changed "
			 "in %u event%s", a->flips ? a->cause : a->first, diff,
			 diff == 1 ? "" : "s", a->events,
			 a->events == 1 ? "" : "s");
	if (fm_sweep(fm, t0, cause, &err)) {
		char msg[sizeof(err.msg) + 16];

		snprintf(msg, sizeof(msg), "sweep failed: %s", err.msg);
		rep.error = msg;
		fm_report(fm, FTSW_FM_FAILED, &rep);
	}
}

/* One wake-up of the event socket: apply every pending event, then decide. */
static void wakeup(struct fm *fm, struct pollfd *pfd)
{
	struct ftsw_fm_report rep = { 0 };
	struct ev_arg a = { .fm = fm };
	uint64_t t0 = ftsw_now_us();
	bool overrun = false;
	unsigned resynced = 0;
	struct ftsw_err err;

	/* Everything pending now is applied before deciding. */
	do {
		if (ftsw_nl_event_recv(fm->ev, ev_cb, &a) < 0) {
			overrun = true;
			break;
		}
	} while (poll(pfd, 1, 0) > 0);
	if (overrun) {
		fm->overruns++;
		rep.error = ftsw_nl_error(fm->ev);
		fm_report(fm, FTSW_FM_OVERRUN, &rep);
		if (resync(fm, &resynced, &err)) {
			rep.error = err.msg;
			fm_report(fm, FTSW_FM_FAILED, &rep);
			return;
		}
		rep.error = NULL;
		rep.changed = resynced;
		fm_report(fm, FTSW_FM_RESYNCED, &rep);
	}
	wakeup_decide(fm, &a, overrun, resynced, t0);
}

static int discover_in(void *fm, struct ftsw_err *err)
{
	return fm_discover(fm, err);
}

/* Subscribe, discover and make the first sweep. */
static int fm_start(struct fm *fm, struct ftsw_err *err)
{
	const struct ftsw_fm_opts *o = fm->o;
	char cause[160];
	uint64_t t0;

	if (!ftsw_engine_find(fm->engine)) {
		ftsw_err_set(err, "engine '%s': no such engine (ftsw route list)",
			     fm->engine);
		return -1;
	}
	if (o->status)
		snprintf(fm->status, sizeof(fm->status), "%s", o->status);
	else
		ftsw_fm_status_path(o->netns, fm->status, sizeof(fm->status));
	fm->ev = ftsw_nl_open_in(o->netns, err);
	if (!fm->ev)
		return -1;
	if (ftsw_nl_subscribe(fm->ev)) {
		ftsw_err_errno(err, ftsw_nl_errno(fm->ev), "events: %s",
			       ftsw_nl_error(fm->ev));
		return -1;
	}
	set_rcvbuf(fm, o->rcvbuf > 0 ? o->rcvbuf : FTSW_FM_RCVBUF);
	fm->nl = ftsw_nl_open_in(o->netns, err);
	if (!fm->nl)
		return -1;
	t0 = ftsw_now_us();
	if (ftsw_netns_run_name(o->netns, discover_in, fm, err))
		return -1;
	snprintf(cause, sizeof(cause), "discovered %" PRIu32 " switches, %"
		 PRIu32 " hosts, %" PRIu64 " links, LMC %u in %" PRIu64
		 " us; routing with %s", fm->nsw, fm->nhosts,
		 ftsw_topo_nlinks(fm->topo), fm->lmc, ftsw_now_us() - t0,
		 fm->engine);
	return fm_sweep(fm, ftsw_now_us(), cause, err);
}

static void fm_free(struct fm *fm)
{
	ftsw_nl_close(fm->ev);
	ftsw_nl_close(fm->nl);
	ftsw_topo_free(fm->topo);
	free(fm->sw_id);
	free(fm->ports);
	free(fm->port_at);
	free(fm->cables);
	free(fm->cable_of);
	free(fm->swept);
	free(fm->lft);
}

int ftsw_fm_run(const struct ftsw_fm_opts *o, struct ftsw_err *err)
{
	struct fm fm = { .o = o };
	int rc = -1;

	fm.engine = o->engine ? o->engine : "dmodc";
	if (fm_start(&fm, err))
		goto out;
	if (o->ready)
		o->ready(o->ready_arg);
	while (!o->once && (!o->stop || !*o->stop)) {
		struct pollfd pfd = { .fd = ftsw_nl_event_fd(fm.ev),
				      .events = POLLIN };
		int n = poll(&pfd, 1, 500);

		if (n < 0 && errno != EINTR) {
			ftsw_err_errno(err, errno, "poll: %s", strerror(errno));
			goto out;
		}
		if (n > 0)
			wakeup(&fm, &pfd);
	}
	rc = 0;
out:
	if (!o->once)
		ftsw_evlog(o->netns, "fm-stop", "fm stopped%s%s",
			   rc ? ": " : "", rc ? err->msg : "");
	if (rc == 0 && !o->once)
		unlink(fm.status);
	fm_free(&fm);
	return rc;
}
