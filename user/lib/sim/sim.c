// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level simulator's entry point (sim.h; the model in
 * Documentation/sim.md): its options, one run from set-up to results.
 * The engine is in engine.c and hosts.c, the set-up in setup.c, the
 * checks in check.c, the threaded engine in phased.c, the traffic in
 * traffic.c; sim_int.h holds what they share.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim/sim_int.h"
#include "util/parse.h"

void ftsw_sim_opts_default(struct ftsw_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->packet_flits = 10;
	o->msg_packets = 10;
	o->in_buf = 4;
	o->out_buf = 4;
	o->link_latency = 1;
	o->router_latency = 1;
	o->seed = 1;
	o->warmup = 10000;
	o->measure = 20000;
}

const char *ftsw_sim_switching_name(enum ftsw_sim_switching w)
{
	switch (w) {
	case FTSW_SIM_VCT: return "vct";
	case FTSW_SIM_WORMHOLE: return "wormhole";
	case FTSW_SIM_VCT_FLITS: return "vct-flits";
	}
	return "?";
}

int ftsw_sim_switching_parse(const char *s, enum ftsw_sim_switching *w,
			     struct ftsw_err *err)
{
	static const enum ftsw_sim_switching all[] = {
		FTSW_SIM_VCT, FTSW_SIM_WORMHOLE, FTSW_SIM_VCT_FLITS,
	};
	unsigned i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, ftsw_sim_switching_name(all[i]))) {
			*w = all[i];
			return 0;
		}
	ftsw_err_set(err, "--switching '%s': expected vct, wormhole or "
		     "vct-flits", s);
	return -1;
}

const char *ftsw_sim_policy_name(enum ftsw_sim_policy p)
{
	switch (p) {
	case FTSW_SIM_RANDOM: return "random";
	case FTSW_SIM_HASH: return "hash";
	case FTSW_SIM_RR: return "rr";
	case FTSW_SIM_PACKET: return "packet";
	case FTSW_SIM_SPREAD: return "spread";
	}
	return "?";
}

int ftsw_sim_policy_parse(const char *s, enum ftsw_sim_policy *p,
			  struct ftsw_err *err)
{
	if (!strcmp(s, "random"))
		*p = FTSW_SIM_RANDOM;
	else if (!strcmp(s, "hash"))
		*p = FTSW_SIM_HASH;
	else if (!strcmp(s, "rr") || !strcmp(s, "round-robin"))
		*p = FTSW_SIM_RR;
	else if (!strcmp(s, "packet"))
		*p = FTSW_SIM_PACKET;
	else if (!strcmp(s, "spread"))
		*p = FTSW_SIM_SPREAD;
	else {
		ftsw_err_set(err, "--path-policy '%s': expected random, hash, "
			     "rr, packet or spread", s);
		return -1;
	}
	return 0;
}

int sim_run_sample(struct sim *s, const struct ftsw_sim_opts *o,
		      double load, uint32_t end, uint64_t *last_progress)
{
	struct ftsw_sim_result *res = s->res;

	if (o->progress) {
		uint64_t us = ftsw_now_us();

		if (us - *last_progress > 500000) {
			char what[48];

			*last_progress = us;
			snprintf(what, sizeof(what), "sim: load %.3g, cycle",
				 load);
			o->progress(what, s->now, o->count ? s->now : end,
				    o->progress_arg);
		}
	}
	if (sim_conservation(s))
		return -1;
	if (s->pk_in_net && s->now - s->last_move >=
	    s->o.deadlock_cycles / 2 && sim_find_deadlock(s)) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		return 1;
	}
	if (s->pk_in_net && s->now - s->last_move >= s->o.deadlock_cycles) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		snprintf(res->note, sizeof(res->note),
			 "no flit moved for %u cycles with %llu "
			 "packets in the fabric", s->now - s->last_move,
			 (unsigned long long)s->pk_in_net);
		return 1;
	}
	/* a partial deadlock: some cycle stuck, others move */
	if (s->pk_in_net && sim_find_deadlock(s)) {
		res->deadlock = true;
		res->deadlock_at = s->now;
		return 1;
	}
	return 0;
}

/* The cycle loop, until the end, the drain, a deadlock or an error. */
static int run_loop(struct sim *s, const struct ftsw_sim_opts *o,
		    double load, struct ftsw_err *err)
{
	uint32_t end, sample_every, next_sample;
	uint64_t last_progress = ftsw_now_us();
	int rc;

	end = o->count ? UINT32_MAX - 2 * s->wmask - 2 :
	      s->win1 + s->o.drain;
	sample_every = s->o.deadlock_cycles / 2 ? s->o.deadlock_cycles / 2 : 1;
	next_sample = sample_every;
	for (s->now = 0; s->now < end; s->now++) {
		sim_run_cycle(s);
		if (o->verify && !s->failed && sim_verify_idle(s))
			return -1;
		if (s->failed) {
			ftsw_err_errno(err, ENOMEM,
				       "out of memory during the simulation");
			return -1;
		}
		if (s->now == next_sample) {
			next_sample += sample_every;
			rc = sim_run_sample(s, o, load, end, &last_progress);
			if (rc < 0)
				return -1;
			if (rc)
				break;
		}
		if (o->count && !s->nheap && !s->msgs_left)
			break;
		/* measured messages all delivered: stop draining */
		if (!o->count && s->now >= s->win1 && s->msgs_done ==
		    s->msgs_measured)
			break;
	}
	return 0;
}

/* The run's counters and histograms into res. */
static int run_results(struct sim *s, const struct ftsw_sim_opts *o,
		       struct ftsw_sim_result *res, int rc,
		       struct ftsw_err *err)
{
	res->cycles = s->now;
	if (o->count) {
		s->win1 = s->now;
	}
	res->window = s->win1 - s->win0;
	res->offered = res->window ? (double)s->flits_offered /
		       ((double)s->tr->active * res->window) : 0;
	res->accepted = res->window ? (double)s->flits_accepted /
			((double)s->tr->active * res->window) : 0;
	res->msgs_measured = s->msgs_measured;
	res->msgs_done = s->msgs_done;
	res->pkts_done = s->hpkt.n;
	res->msg_lat_avg = s->hmsg.n ? s->hmsg.sum / s->hmsg.n : NAN;
	res->pkt_lat_avg = s->hpkt.n ? s->hpkt.sum / s->hpkt.n : NAN;
	res->net_lat_avg = s->net_n ? s->net_sum / s->net_n : NAN;
	res->msg_lat_p50 = sim_hist_q(&s->hmsg, 0.5);
	res->msg_lat_p99 = sim_hist_q(&s->hmsg, 0.99);
	res->pkt_lat_p50 = sim_hist_q(&s->hpkt, 0.5);
	res->pkt_lat_p99 = sim_hist_q(&s->hpkt, 0.99);
	res->flit_hops = s->flit_hops;
	res->pkts_injected = s->pk_injected;
	res->pkts_delivered = s->pk_delivered;
	res->pkts_dropped = s->pk_dropped;
	sim_cm_results(s, res);
	res->link_flits = malloc((size_t)s->nports * s->V * sizeof(uint64_t));
	if (res->link_flits)
		for (size_t i = 0; i < (size_t)s->nports * s->V; i++)
			res->link_flits[i] = PV(s, i)->flits;
	else if (!rc) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		rc = -1;
	}
	if (!res->note[0] && res->deadlock && !s->hmsg.n)
		snprintf(res->note, sizeof(res->note),
			 "deadlocked before any measured message was delivered "
			 "(measured from cycle %llu): no latency to report",
			 (unsigned long long)s->win0);
	if (!res->note[0] && s->msgs_done < s->msgs_measured && !res->deadlock)
		snprintf(res->note, sizeof(res->note),
			 "%llu of %llu measured messages undelivered after "
			 "the drain: saturated, latencies are lower bounds",
			 (unsigned long long)(s->msgs_measured - s->msgs_done),
			 (unsigned long long)s->msgs_measured);
	return rc;
}

/*
 * Run the point on its engine: the phased one when asked for, or when
 * threads are offered and it gives the event engine's numbers (falling
 * back to the event engine, with res->fell_back, when it has no memory
 * for its pools), else the event engine. *cpu: the engine's CPU seconds.
 */
static int run_engine(struct sim *s, const struct ftsw_sim_opts *o,
		      double load, struct ftsw_sim_result *res, double *cpu,
		      struct ftsw_err *err)
{
	struct timespec c0, c1;
	int rc;

	if (o->switching != FTSW_SIM_VCT) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		rc = sim_run_flit(s, o, load, err);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		*cpu = (c1.tv_sec - c0.tv_sec) +
		       (c1.tv_nsec - c0.tv_nsec) * 1e-9;
		return rc;
	}
	if (o->phased || (o->point_threads > 1 && sim_phased_auto(s))) {
		rc = sim_run_phased(s, o, load, err, cpu, &res->threads);
		if (rc != PH_NOMEM)
			return rc;
		if (o->phased)
			return -1;
		/* Threads were only offered: the event engine gives the
		 * same numbers on one, in far less memory.
		 */
		res->fell_back = true;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	rc = run_loop(s, o, load, err);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	*cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	return rc;
}

int ftsw_sim_run(const struct ftsw_routing *r,
		 const struct ftsw_sim_traffic *tr,
		 const struct ftsw_sim_opts *o, double load,
		 struct ftsw_sim_result *res, struct ftsw_err *err)
{
	struct sim s;
	uint64_t t0 = ftsw_now_us();
	double cpu = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.res = res;
	res->load = load;
	if (sim_setup(&s, r, tr, o, load, err)) {
		sim_free(&s);
		return -1;
	}
	res->vls = s.V;
	res->nports = s.nports;
	res->threads = 1;
	rc = run_engine(&s, o, load, res, &cpu, err);
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	/* the flit engine checks its own flits (flit.c) */
	if (!rc && o->switching == FTSW_SIM_VCT && sim_conservation(&s))
		rc = -1;
	rc = run_results(&s, o, res, rc, err);
	res->seconds = (ftsw_now_us() - t0) * 1e-6;
	res->cpu_seconds = cpu;
	sim_free(&s);
	return rc;
}
