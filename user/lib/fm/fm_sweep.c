// SPDX-License-Identifier: GPL-2.0
/* libftsw fabric manager: sweeps (route the usable cabling, upload, commit). */
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

bool fm_cable_usable(const struct fm *fm, size_t c)
{
	const struct fm_cable *x = &fm->cables[c];

	return fm->ports[x->a].up && (x->b == NO_PORT || fm->ports[x->b].up);
}

/* Cables whose usability differs from the last sweep's. */
size_t fm_cables_changed(const struct fm *fm)
{
	size_t c, n = 0;

	for (c = 0; c < fm->ncables; c++)
		n += fm_cable_usable(fm, c) != fm->swept[c];
	return n;
}

/* Ordered host pairs (every LID offset) without a delivered path. */
static void count_unreachable(struct fm *fm, const struct ftsw_routing *r)
{
	uint32_t s, d, maxh = r->nswitches + 2;
	unsigned off, noff = 1u << r->lmc;

	fm->unreachable = 0;
	fm->nunreach = 0;
	for (s = 0; s < r->nhosts; s++)
		for (d = 0; d < r->nhosts; d++) {
			bool bad = false;

			if (s == d)
				continue;
			for (off = 0; off < noff && !bad; off++)
				bad = ftsw_trace(r, s, ftsw_host_lid(r, d) + off,
						 NULL, NULL, maxh) < 0;
			if (!bad)
				continue;
			fm->unreachable++;
			if (fm->nunreach < FTSW_FM_UNREACH_LIST) {
				fm->unreach[fm->nunreach][0] = s;
				fm->unreach[fm->nunreach++][1] = d;
			}
		}
}

/* What the lab's timeline shows of a report (util/evlog.h). */
static void fm_evlog(const struct fm *fm, const struct ftsw_fm_report *r)
{
	const char *lab = fm->o->netns;

	switch (r->kind) {
	case FTSW_FM_SWEPT:
		ftsw_evlog(lab, "fm-sweep", "fm sweep %llu: %s; generation %llu, "
			   "%u switches changed, %zu of %zu cables usable, "
			   "%llu unreachable pairs, committed in %.1f ms",
			   (unsigned long long)r->sweeps, r->cause ? r->cause : "",
			   (unsigned long long)r->sweep->generation,
			   r->sweep->switches_changed, r->cables_usable,
			   r->cables, (unsigned long long)r->sweep->unreachable,
			   r->sweep->committed_us / 1e3);
		break;
	case FTSW_FM_OVERRUN:
	case FTSW_FM_FAILED:
		ftsw_evlog(lab, "fm-error", "fm: %s", r->error ? r->error : "?");
		break;
	case FTSW_FM_RESYNCED:
		ftsw_evlog(lab, "fm-resync", "fm resynchronised: %u port states "
			   "changed", r->changed);
		break;
	default:
		break;
	}
}

/* A report of the manager's current state, of the given kind. */
void fm_report(struct fm *fm, enum ftsw_fm_report_kind kind,
		   struct ftsw_fm_report *r)
{
	r->kind = kind;
	r->sweeps = fm->sweeps;
	r->cables = fm->ncables;
	r->cables_usable = fm->usable_swept;
	r->hosts = fm->nhosts;
	fm_evlog(fm, r);
	if (fm->o->report)
		fm->o->report(r, fm->o->report_arg);
}

/* The routing of the usable cables (t: the cabling it routed). */
static struct ftsw_routing *route_usable(struct fm *fm, const bool *usable,
					 struct ftsw_topo **tp,
					 struct ftsw_err *err)
{
	struct ftsw_route_req q = { .engine = fm->engine, .lmc_given = true,
				    .o = { .lmc = fm->lmc,
					   .threads = fm->o->threads } };
	struct ftsw_routing *r;
	struct ftsw_topo *t;
	bool *keep;
	size_t k;

	keep = malloc(fm->topo->nnodes + 1);
	if (!keep) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	memset(keep, 1, fm->topo->nnodes + 1);
	t = ftsw_topo_subset(fm->topo, keep, err);
	free(keep);
	if (!t)
		return NULL;
	for (k = 0; k < fm->ncables; k++) {
		const struct fm_port *p = &fm->ports[fm->cables[k].a];

		if (!usable[k])
			ftsw_topo_disconnect(t, p->sw, p->port);
	}
	r = ftsw_route_make(t, &q, err);
	if (!r) {
		/* The LIDs are the edge ports': the LMC cannot be raised. */
		struct ftsw_routing *more;
		struct ftsw_err e2;

		q.o.lmc++;
		q.lmc_given = false;
		more = ftsw_route_make(t, &q, &e2);
		if (more)
			ftsw_err_set(err, "engine %s needs LMC %u, the fabric's "
				     "edge ports have LMC %u (bring the lab up "
				     "with --lmc %u)", fm->engine, more->lmc,
				     fm->lmc, more->lmc);
		ftsw_routing_free(more);
		ftsw_topo_free(t);
		return NULL;
	}
	*tp = t;
	return r;
}

/* Stage the LFT entries that differ from the last upload; *changed switches. */
static int upload_changed(struct fm *fm, const struct ftsw_routing *r,
			  uint32_t *changed, struct ftsw_err *err)
{
	uint32_t i;

	if (!fm->lft) {
		fm->lft_size = r->lft_size;
		fm->lft = malloc(fm->nsw * fm->lft_size);
		if (!fm->lft) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
		memset(fm->lft, 0xfe, fm->nsw * fm->lft_size);	/* all differ */
	}
	*changed = 0;
	for (i = 0; i < fm->nsw; i++) {
		uint8_t *old = fm->lft + (size_t)i * fm->lft_size;
		const uint8_t *nw = ftsw_lft(r, i);
		size_t lo = 0, hi = r->lft_size;

		while (lo < hi && old[lo] == nw[lo])
			lo++;
		if (lo == hi)
			continue;
		while (hi > lo && old[hi - 1] == nw[hi - 1])
			hi--;
		if (ftsw_nl_lft_upload(fm->nl, fm->sw_id[i], nw, lo, hi,
				       NULL)) {
			ftsw_err_errno(err, ftsw_nl_errno(fm->nl),
				       "switch %" PRIu32 " LFT: %s",
				       fm->sw_id[i], ftsw_nl_error(fm->nl));
			ftsw_nl_lft_discard(fm->nl, -1);
			return -1;
		}
		(*changed)++;
	}
	return 0;
}

/* The sweep is committed: it is the reference for the next events. */
static void sweep_done(struct fm *fm, const struct ftsw_routing *r,
		       const bool *usable, const uint64_t t[4],
		       uint32_t changed, const char *cause)
{
	struct ftsw_fm_report rep = { .cause = cause, .sweep = &fm->last };
	uint32_t i;
	size_t k;

	for (i = 0; i < fm->nsw; i++)
		memcpy(fm->lft + (size_t)i * fm->lft_size, ftsw_lft(r, i),
		       fm->lft_size);
	memcpy(fm->swept, usable, fm->ncables);
	fm->usable_swept = 0;
	for (k = 0; k < fm->ncables; k++)
		fm->usable_swept += usable[k];
	fm->sweeps++;
	fm->last.routed_us = t[1] - t[0];
	fm->last.uploaded_us = t[2] - t[0];
	fm->last.committed_us = t[3] - t[0];
	fm->last.switches_changed = changed;
	fm->last.generation = fm->generation;
	snprintf(fm->last_cause, sizeof(fm->last_cause), "%s", cause);
	count_unreachable(fm, r);
	fm->last.unreachable = fm->unreachable;
	rep.unreach = (const uint32_t (*)[2])fm->unreach;
	rep.nunreach = fm->nunreach;
	fm_report(fm, FTSW_FM_SWEPT, &rep);
	fm_write_status(fm);
}

/*
 * Route the usable cabling, upload what changed, commit. t0: when the
 * change was detected.
 */
int fm_sweep(struct fm *fm, uint64_t t0, const char *cause,
		 struct ftsw_err *err)
{
	struct ftsw_topo *t = NULL;
	struct ftsw_routing *r;
	uint64_t ts[4] = { t0 };
	uint32_t changed = 0;
	bool *usable;
	size_t k;
	int rc = -1;

	usable = malloc(fm->ncables + 1);
	if (!usable) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (k = 0; k < fm->ncables; k++)
		usable[k] = fm_cable_usable(fm, k);
	r = route_usable(fm, usable, &t, err);
	if (!r)
		goto out;
	ts[1] = ftsw_now_us();
	ftsw_routing_own_lids(r);
	if (upload_changed(fm, r, &changed, err))
		goto out;
	ts[2] = ftsw_now_us();
	if (ftsw_nl_commit(fm->nl, &fm->generation)) {
		ftsw_err_errno(err, ftsw_nl_errno(fm->nl), "commit: %s",
			       ftsw_nl_error(fm->nl));
		ftsw_nl_lft_discard(fm->nl, -1);
		goto out;
	}
	ts[3] = ftsw_now_us();
	sweep_done(fm, r, usable, ts, changed, cause);
	rc = 0;
out:
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	free(usable);
	return rc;
}
