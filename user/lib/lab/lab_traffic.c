// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: real UDP traffic per stage of a pattern from every host,
 * per-port counters before and after, next to the analyzer's model:
 * model == reality, link by link, packet by packet.
 *
 * The model is the analyzer's (analyze.h): the pattern and the node order
 * are the ones `ftsw analyze -p PATTERN --order ORDER` builds, the routing
 * is read back from the kernel (LFTs, down ports) with each source's LMC
 * offset list as its edge port holds it, and ftsw_link_loads() says how
 * many flows, and how many datagrams, each directed link carries.
 *
 * One UDP socket per host, created in the host's namespace and bound to
 * LAB_UDP_PORT, both sends and receives, so no ICMP "port unreachable"
 * ever adds to the counters. Each datagram names its stage and flow;
 * per-flow receive counts give losses.
 *
 * On a shaped lab (`lab up --rate`), each stage instead sends for a fixed
 * time, every flow offered LAB_RATE_OFFER times the link rate, and the
 * receivers count each flow's bytes over the steady part of that window:
 * per-flow throughput next to the share the model predicts, rate / k for
 *
 * This file runs the stages and fills the result (lab.h); lab_traffic_net.c
 * has the sockets and the sending, lab_traffic_model.c the model's inputs.
 * lab_traffic_int.h is what they share. The CLI prints the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "util/evlog.h"
#include "analyze/analyze.h"
#include "lab/lab.h"
#include "lab/lab_traffic_int.h"

/* The options against the lab: 0, or -1 with err set. */
static int traffic_check(struct trun *x, struct ftsw_err *err)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	struct ftsw_lab *lab = x->lab;

	if (!o->pattern || !*o->pattern) {
		ftsw_err_set(err, "no pattern (all2all, cps, shift:K, perm, or "
			     "any of ftsw analyze -p's)");
		return -1;
	}
	if (x->size < sizeof(struct udp_hdr) || x->size > LAB_UDP_LIMIT) {
		ftsw_err_set(err, "datagram size %u: %zu..%d bytes", x->size,
			     sizeof(struct udp_hdr), LAB_UDP_LIMIT);
		return -1;
	}
	if (x->rate_mode && o->fail_a) {
		ftsw_err_set(err, "lab %s is shaped (lab up --rate): --fail "
			     "needs an unshaped lab", lab->name);
		return -1;
	}
	if (!x->rate_mode && o->random_dst) {
		ftsw_err_set(err, "lab %s has no link rate: --random-dst needs "
			     "a shaped lab (lab up --rate) or a lossless one "
			     "with a rate", lab->name);
		return -1;
	}
	if (lab->topo->nhosts < 2) {
		ftsw_err_set(err, "lab %s: fewer than 2 hosts", lab->name);
		return -1;
	}
	return 0;
}

/* The model's inputs: pattern, order, the kernel's tables and lists. */
static int traffic_model_inputs(struct trun *x, struct ftsw_err *err)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	const struct ftsw_topo *t = x->lab->topo;

	lab_tr_pattern_spec(o->pattern, o->seed, x->pspec, sizeof(x->pspec));
	lab_tr_order_spec(o->order ? o->order : "topology", o->seed, x->ospec,
		   sizeof(x->ospec));
	if (ftsw_pattern_make(x->pspec, t->nhosts, t, &x->pat, err)) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		ftsw_err_errno(err, err->code, "lab %s: %.400s; also all2all, "
			       "cps", x->lab->name, m);
		return -1;
	}
	x->order = malloc(sizeof(uint32_t) * t->nhosts);
	if (!x->order) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	if (ftsw_order_make(x->ospec, t, t->nhosts, x->order, err))
		return -1;
	x->r = ftsw_lab_read_routing(x->lab, err);
	if (!x->r)
		return -1;
	x->lists = calloc(t->nhosts + 1, sizeof(*x->lists));
	x->path = malloc(sizeof(*x->path));
	if (!x->lists || !x->path) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	return lab_tr_read_offset_lists(x->lab, x->r, x->lists, &x->multipath, err);
}

/* The failure to cause, the counters before, buffers and sockets. */
static int traffic_setup(struct trun *x, struct ftsw_err *err)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	const struct ftsw_topo *t = x->lab->topo;
	struct traffic *tr = &x->tr;
	uint32_t i;

	if (o->fail_a && (ftsw_lab_find_node(x->lab, o->fail_a, &x->fa, err) ||
			  ftsw_lab_find_node(x->lab, o->fail_b, &x->fb, err)))
		return -1;
	if (ftsw_lab_counters(x->lab, &x->c0, err))
		return -1;
	x->maxp = x->c0.maxports;
	x->nslots = (size_t)t->nswitches * (x->maxp + 1);
	tr->fd = malloc(sizeof(int) * tr->n);
	tr->pfd = calloc(tr->n, sizeof(*tr->pfd));
	tr->buf = malloc(2048);
	x->dload = calloc(t->nports + 1, sizeof(double));
	x->pred = calloc(x->nslots + 1, sizeof(double));
	x->pflows = calloc(x->nslots + 1, sizeof(double));
	if (!tr->fd || !tr->pfd || !tr->buf || !x->dload || !x->pred ||
	    !x->pflows) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < tr->n; i++)
		tr->fd[i] = -1;
	return lab_tr_open_sockets(tr, err);
}

/* The flows a stage sends (a host to itself left out) into tr->fl. */
static int stage_flows(struct trun *x, const struct ftsw_tm *tm,
		       struct ftsw_err *err)
{
	struct traffic *tr = &x->tr;
	size_t need, k;

	need = tm->nflows + (tm->all_to_all ? (size_t)tm->n * tm->n : 0);
	if (need > x->fcap) {
		struct lflow *nfl = realloc(tr->fl, sizeof(*nfl) * (need + 1));
		uint32_t *nt;

		if (nfl)
			tr->fl = nfl;
		nt = nfl ? realloc(tr->turn, sizeof(*nt) * (need + 1)) : NULL;
		if (!nt) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
		tr->turn = nt;
		x->fcap = need;
	}
	tr->nf = 0;
	ftsw_tm_clear(&x->dg);
	for (k = 0; k < need; k++) {
		uint32_t fs, fd;
		double a;
		long pk;

		if (k < tm->nflows) {
			fs = tm->f[k].src;
			fd = tm->f[k].dst;
			a = tm->f[k].amount;
		} else {
			fs = (uint32_t)((k - tm->nflows) / tm->n);
			fd = (uint32_t)((k - tm->nflows) % tm->n);
			a = tm->a2a;
		}
		pk = lround(a * x->packets);
		if (fs == fd || a <= 0 || (!x->rate_mode && pk <= 0))
			continue;
		memset(&tr->fl[tr->nf], 0, sizeof(tr->fl[tr->nf]));
		tr->fl[tr->nf].src = fs;
		tr->fl[tr->nf].dst = fd;
		tr->fl[tr->nf].packets = (unsigned)pk;
		tr->nf++;
		if (!x->rate_mode && ftsw_tm_add(&x->dg, fs, fd, (double)pk)) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
	}
	return 0;
}

/*
 * The model's per-port predictions of a stage: datagrams (the analyzer's
 * loads of the matrix whose amounts are each flow's datagram count) and
 * flows. Returns the most flows on one port.
 */
static int stage_predict(struct trun *x, const double *flows,
			 const struct ftsw_load_opts *lo, double *max_flows,
			 struct ftsw_err *err)
{
	const struct ftsw_topo *t = x->lab->topo;
	struct ftsw_load_result res;
	struct ftsw_sw_port it;

	*max_flows = 0;
	if (!x->rate_mode &&
	    ftsw_link_loads(x->r, &x->dg, lo, x->dload, NULL, &res, err))
		return -1;
	ftsw_for_each_switch_port(t, &it, 0) {
		uint32_t l = ftsw_link_id(t, it.node, it.port);
		size_t slot = (size_t)it.sw * (x->maxp + 1) + it.port;

		if (it.port > x->maxp)
			continue;
		if (!x->rate_mode)
			x->pred[slot] += x->dload[l];
		x->pflows[slot] += flows[l];
		if (flows[l] > *max_flows)
			*max_flows = flows[l];
	}
	if (*max_flows > x->max_flows_all)
		x->max_flows_all = *max_flows;
	return 0;
}

/* Reality: send the stage's datagrams and wait for them to arrive. */
static int stage_send(struct trun *x, unsigned s, uint64_t *stage_sent,
		      uint64_t *received, uint64_t *t0s, struct ftsw_err *err)
{
	struct traffic *tr = &x->tr;
	uint64_t before, last;
	uint32_t f;

	tr->stage = s;
	tr->win_a = tr->win_b = 0;
	before = tr->rx_total;
	*t0s = ftsw_now_us();
	*stage_sent = 0;
	if (x->rate_mode) {
		if (lab_tr_send_timed(tr, x->size, x->rate_bits, x->dur_ms,
				      err))
			return -1;
	} else if (lab_tr_send_counted(tr, x->size, &x->failed, &x->fail_us, err))
		return -1;
	for (f = 0; f < tr->nf; f++)
		*stage_sent += tr->fl[f].sent;
	last = ftsw_now_us();
	while (tr->rx_total - before < *stage_sent &&
	       ftsw_now_us() - last < 500000) {
		uint64_t b = tr->rx_total;

		lab_tr_drain(tr, 20);
		if (tr->rx_total != b)
			last = ftsw_now_us();
	}
	*received = tr->rx_total - before;
	x->sent += *stage_sent;
	x->lost += *stage_sent - *received;
	return 0;
}

/* Shaped lab: each flow's share, offered and measured throughput. */
static int keep_rate_results(struct trun *x, unsigned s,
			     struct ftsw_err *err)
{
	const struct traffic *tr = &x->tr;
	double win = (double)(tr->win_b - tr->win_a);
	uint32_t f;

	if (x->nfr + tr->nf > x->capfr) {
		size_t nc = (x->nfr + tr->nf) * 2;
		struct ftsw_lab_flow_rate *n2 = realloc(x->fr, sizeof(*x->fr) * nc);

		if (!n2) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
		x->fr = n2;
		x->capfr = nc;
	}
	for (f = 0; f < tr->nf; f++) {
		struct ftsw_lab_flow_rate *r = &x->fr[x->nfr++];

		r->stage = s;
		r->src = tr->fl[f].src;
		r->dst = tr->fl[f].dst;
		r->share = tr->fl[f].share;
		r->hot_sw = tr->fl[f].hot_sw;
		r->hot_port = tr->fl[f].hot_port;
		r->offered = (double)tr->fl[f].sent *
			     (x->size + LAB_FRAME_EXTRA) * 8 / (x->dur_ms * 1e3);
		r->mbps = win > 0 ? (double)tr->fl[f].win_bytes * 8 / win : 0;
	}
	return 0;
}

/* --fail: losses of the flows that crossed the failed cable and others. */
static void stage_fail(const struct trun *x, uint64_t t0s,
		       struct ftsw_lab_traffic_stage *st)
{
	const struct traffic *tr = &x->tr;
	uint32_t f;

	st->fail_ms = x->fail_us >= t0s ? (double)(x->fail_us - t0s) / 1e3 :
		      -1.0;
	for (f = 0; f < tr->nf; f++) {
		uint64_t l = tr->fl[f].sent - tr->fl[f].rx;

		if (tr->fl[f].affected) {
			st->crossed++;
			st->crossed_lost += l;
			if (l > st->crossed_max_lost)
				st->crossed_max_lost = l;
		} else {
			st->other_lost += l;
		}
	}
}

/* The stage's numbers into the result. */
static int stage_record(struct trun *x, unsigned s, uint64_t stage_sent,
			uint64_t received, double max_flows, uint64_t t0s,
			struct ftsw_err *err)
{
	struct ftsw_lab_traffic_result *res = x->res;
	struct ftsw_lab_traffic_stage *st;

	st = ftsw_grow(res->stages, res->nstages, &x->capst, sizeof(*st), 8);
	if (!st) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	res->stages = st;
	st = &st[res->nstages++];
	memset(st, 0, sizeof(*st));
	st->stage = s;
	snprintf(st->name, sizeof(st->name), "%s", x->pat.stage_names ?
		 x->pat.stage_names[s] : "");
	st->nflows = x->tr.nf;
	st->sent = stage_sent;
	st->received = received;
	st->max_flows = max_flows;
	st->first_rate = x->nfr - (x->rate_mode ? x->tr.nf : 0);
	st->fail_ms = -1;
	if (x->o->fail_a)
		stage_fail(x, t0s, st);
	return 0;
}

/*
 * One stage, after the analyzer computed its loads and flows per link
 * (ftsw_analyze_pattern): the flows, the model's per-port predictions,
 * the real datagrams, their losses. Stops (1) after --stages stages.
 */
static int traffic_stage(unsigned s, const struct ftsw_tm *tm,
			 const double *load, const double *flows,
			 const struct ftsw_stage_metrics *sm, void *arg,
			 struct ftsw_err *err)
{
	struct trun *x = arg;
	struct ftsw_load_opts lo = { .count_flows = true, .lists = x->lists };
	uint64_t stage_sent, received, t0s;
	double max_flows;

	(void)load;
	(void)sm;
	if (stage_flows(x, tm, err))
		return -1;
	if (!x->tr.nf)
		return 0;
	x->nst++;
	if (stage_predict(x, flows, &lo, &max_flows, err))
		return -1;
	/* lossless: every port has the rate, edge ports too */
	lab_tr_flow_paths(x->r, x->lists, flows, x->tr.fl, x->tr.nf, x->fa, x->fb,
			  x->lab->link_rate_bits != 0, x->path);
	if (stage_send(x, s, &stage_sent, &received, &t0s, err))
		return -1;
	if (x->rate_mode && keep_rate_results(x, s, err))
		return -1;
	if (stage_record(x, s, stage_sent, received, max_flows, t0s, err))
		return -1;
	if (x->o->progress)
		x->o->progress("stage", s + 1, x->pat.nstages,
			       x->o->progress_arg);
	return x->o->max_stages && x->nst >= x->o->max_stages ? 1 : 0;
}

/* Busiest port first, then by switch and port. */
static int cmp_rows(const void *a, const void *b)
{
	const struct ftsw_lab_port_load *x = a, *y = b;

	if (x->meas != y->meas)
		return x->meas < y->meas ? 1 : -1;
	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (int)x->port - (int)y->port;
}

/* Measured against predicted, port by port, into x->rows. */
static int traffic_compare(struct trun *x, struct ftsw_err *err)
{
	uint32_t i;

	/* A flow that offered less than its share cannot show the share. */
	for (i = 0; i < x->nfr; i++)
		if (x->fr[i].share > 0 &&
		    x->fr[i].offered < x->rate_mbps / x->fr[i].share)
			x->slow++;
	/* Counters settle: every packet was received, or given up on. */
	if (ftsw_lab_counters(x->lab, &x->c1, err))
		return -1;
	x->rows = calloc(x->nslots + 1, sizeof(*x->rows));
	if (!x->rows) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < x->nslots; i++) {
		uint64_t m = x->c1.tx[i] - x->c0.tx[i];
		uint64_t pr = (uint64_t)llround(x->pred[i]);
		struct ftsw_lab_port_load *row = &x->rows[x->nrows];

		x->tx_measured += m;
		x->tx_predicted += x->pred[i];
		if (!m && !x->pflows[i])
			continue;
		row->sw = (uint32_t)(i / (x->maxp + 1));
		row->port = (unsigned)(i % (x->maxp + 1));
		row->pred = x->pred[i];
		row->flows = x->pflows[i];
		row->meas = m;
		/*
		 * Deterministic paths: every datagram counted where the
		 * model says (count mode); on a shaped lab, where tbf
		 * drops by design, traffic exactly on the links the
		 * model names.
		 */
		if (!x->multipath && (x->rate_mode ? !m != !x->pflows[i] :
				      m != pr))
			x->bad++;
		x->nrows++;
	}
	x->exact = !x->multipath && !x->rate_mode && !x->bad;
	qsort(x->rows, x->nrows, sizeof(*x->rows), cmp_rows);
	return 0;
}

static void traffic_free(struct trun *x)
{
	struct traffic *tr = &x->tr;
	uint32_t i;

	if (tr->fd)
		for (i = 0; i < tr->n; i++)
			if (tr->fd[i] >= 0)
				close(tr->fd[i]);
	free(tr->fd);
	free(tr->pfd);
	free(tr->fl);
	free(tr->turn);
	free(tr->buf);
	free(x->order);
	free(x->lists);
	free(x->path);
	free(x->dload);
	free(x->pred);
	free(x->pflows);
	free(x->rows);
	free(x->fr);
	ftsw_tm_free(&x->dg);
	ftsw_pattern_free(&x->pat);
	ftsw_pattern_metrics_free(&x->m);
	ftsw_lab_counters_free(&x->c0);
	ftsw_lab_counters_free(&x->c1);
	ftsw_routing_free(x->r);
}

/* The run's totals, rows and rates into the result (arrays handed over). */
static int traffic_result(struct trun *x, struct ftsw_err *err)
{
	struct ftsw_lab_traffic_result *res = x->res;
	size_t i;

	snprintf(res->pattern_spec, sizeof(res->pattern_spec), "%s", x->pspec);
	snprintf(res->order_spec, sizeof(res->order_spec), "%s", x->ospec);
	res->pattern_stages = x->pat.nstages;
	res->rate_mode = x->rate_mode;
	res->multipath = x->multipath;
	res->exact = x->exact;
	res->rate_mbps = x->rate_mbps;
	res->duration_ms = x->dur_ms;
	res->window_ms = x->dur_ms - x->dur_ms / 5;
	res->size = x->size;
	res->packets = x->packets;
	res->sent = x->sent;
	res->lost = x->lost;
	res->drops = x->c1.drops - x->c0.drops;
	res->lossless = x->lab->lossless;
	res->hoq_discards = x->c1.hoq_discards - x->c0.hoq_discards;
	res->life_discards = x->c1.life_discards - x->c0.life_discards;
	res->in_wait_ns = x->c1.in_wait_ns - x->c0.in_wait_ns;
	res->out_wait_ns = x->c1.out_wait_ns - x->c0.out_wait_ns;
	res->max_flows = x->max_flows_all;
	res->hot_spot_degree = x->m.hot_spot_degree;
	res->undelivered = x->m.total.failed;
	snprintf(res->first_failure, sizeof(res->first_failure), "%s",
		 x->m.total.first_failure);
	res->sender_bound = x->slow;
	res->mismatches = x->bad;
	res->tx_measured = x->tx_measured;
	res->tx_predicted = x->tx_predicted;
	res->tx = calloc(x->nslots + 1, sizeof(uint64_t));
	res->rx = calloc(x->nslots + 1, sizeof(uint64_t));
	if (!res->tx || !res->rx) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < x->nslots; i++) {
		res->tx[i] = x->c1.tx[i] - x->c0.tx[i];
		res->rx[i] = x->c1.rx[i] - x->c0.rx[i];
	}
	res->nswitches = x->lab->topo->nswitches;
	res->maxports = x->maxp;
	res->rates = x->fr;
	res->nrates = x->nfr;
	res->ports = x->rows;
	res->nports = x->nrows;
	x->fr = NULL;
	x->rows = NULL;
	return 0;
}

void ftsw_lab_traffic_result_free(struct ftsw_lab_traffic_result *res)
{
	free(res->stages);
	free(res->rates);
	free(res->ports);
	free(res->tx);
	free(res->rx);
	memset(res, 0, sizeof(*res));
}

int ftsw_lab_traffic(struct ftsw_lab *lab, const struct ftsw_lab_traffic_opts *o,
		     struct ftsw_lab_traffic_result *res, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	struct trun *x = calloc(1, sizeof(*x));
	struct ftsw_load_opts lo = { .count_flows = true };
	struct ftsw_analyze_opts ao = { .load = &lo, .stage_fn = traffic_stage };
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (!x) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	/* OpenSM swept since the hosts' path SLs were set: ask again */
	if (ftsw_lab_path_sl_refresh(lab, err)) {
		free(x);
		return -1;
	}
	x->lab = lab;
	x->o = o;
	x->res = res;
	x->tr = (struct traffic){ .lab = lab, .o = o, .n = t->nhosts,
				  .rng = o->seed ^ 0x7261746555ULL };
	x->fa = x->fb = FTSW_NONE;
	x->packets = o->packets ? o->packets : 10;
	/* a shaped lab, or a lossless one whose links have a set rate */
	x->rate_mode = lab->rate_bytes != 0 || lab->link_rate_bits != 0;
	x->size = o->size ? o->size : !x->rate_mode ? 64 :
		  lab->link_rate_bits ? LAB_UDP_LOSSLESS : LAB_UDP_MAX;
	x->dur_ms = o->duration_ms ? o->duration_ms : LAB_RATE_DURATION_MS;
	/* lab->rate_bytes: bytes per second, as tbf takes it */
	x->rate_bits = lab->link_rate_bits ? (double)lab->link_rate_bits :
		       (double)lab->rate_bytes * 8;
	x->rate_mbps = x->rate_bits / 1e6;
	ftsw_tm_init(&x->dg, t->nhosts);
	ftsw_evlog(lab->name, "traffic", "lab traffic -p %s started", o->pattern);
	if (traffic_check(x, err) || traffic_model_inputs(x, err) ||
	    traffic_setup(x, err))
		goto out;
	/* The model: the analyzer's loads and flows per link, per stage. */
	lo.lists = x->lists;
	ao.arg = x;
	if (ftsw_analyze_pattern(x->r, &x->pat, x->order, &ao, &x->m, err) ||
	    traffic_compare(x, err) || traffic_result(x, err))
		goto out;
	rc = x->multipath || o->fail_a ? 0 : (x->bad ? 1 : 0);
out:
	ftsw_evlog(lab->name, "traffic", "lab traffic -p %s %s: %llu datagrams "
		   "sent, %llu lost", o->pattern, rc < 0 ? "failed" : "done",
		   (unsigned long long)res->sent, (unsigned long long)res->lost);
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	if (rc < 0)
		ftsw_lab_traffic_result_free(res);
	traffic_free(x);
	free(x);
	return rc;
}
