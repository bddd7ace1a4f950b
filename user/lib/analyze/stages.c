// SPDX-License-Identifier: GPL-2.0
/*
 * A pattern's metrics, computed in one place: per stage for a staged
 * pattern (analyze.h: ftsw_analyze_pattern; what `ftsw analyze` prints and
 * what the lab's traffic model compares the kernel's counters with), and
 * over samples for a random one (ftsw_analyze_random).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

#include "analyze/analyze.h"

static void add_result(struct ftsw_load_result *tot,
		       const struct ftsw_load_result *res)
{
	unsigned k;

	if (res->failed && !tot->failed)
		snprintf(tot->first_failure, sizeof(tot->first_failure), "%s",
			 res->first_failure);
	tot->flows += res->flows;
	tot->delivered += res->delivered;
	tot->failed += res->failed;
	tot->failed_amount += res->failed_amount;
	for (k = 0; k < 6; k++)
		tot->fail_status[k] += res->fail_status[k];
	for (k = 0; k < FTSW_HOP_LIMIT + 2; k++)
		tot->path_hist[k] += res->path_hist[k];
	tot->ar_paths += res->ar_paths;
	if (res->ar_paths_max > tot->ar_paths_max)
		tot->ar_paths_max = res->ar_paths_max;
}

/* The metrics of one stage whose loads are in load. */
static void stage_metrics(const struct ftsw_topo *t, const struct ftsw_tm *tm,
			  const char *name, const double *load,
			  const struct ftsw_load_result *res,
			  struct ftsw_stage_metrics *sm)
{
	snprintf(sm->name, sizeof(sm->name), "%s", name ? name : "");
	sm->flows = tm->all_to_all ? (size_t)tm->n * (tm->n - 1) : tm->nflows;
	sm->mload = ftsw_max_load(t, load, false, NULL);
	sm->baseload = ftsw_baseload(tm);
	sm->oload = ftsw_ml_bound(t, tm, &sm->exact);
	sm->perf = sm->oload > 0 ? sm->mload / sm->oload : 1;
	sm->busy = res->delivered > 0;
}

/* Fold one stage into the pattern's totals. */
static void fold_stage(const struct ftsw_topo *t, unsigned s,
		       const struct ftsw_stage_metrics *sm, const double *load,
		       bool bundle, struct ftsw_pattern_metrics *m,
		       double *hs_sum, unsigned *busy)
{
	if (sm->busy) {
		/* hot-spot degree: over the stages with flows */
		*hs_sum += bundle ? ftsw_max_bundle_load(t, load) : sm->mload;
		(*busy)++;
	}
	m->avg_perf += sm->perf;
	if (sm->perf > m->max_perf)
		m->max_perf = sm->perf;
	m->oload_exact &= sm->exact;
	if (sm->mload > m->max_mload || !s) {
		m->max_mload = sm->mload;
		m->worst_stage = s;
		memcpy(m->worst_load, load, t->nports * sizeof(double));
	}
}

static void progress(const struct ftsw_analyze_opts *o, unsigned s,
		     unsigned n, uint64_t *last)
{
	if (ftsw_now_us() - *last < 500000)
		return;
	*last = ftsw_now_us();
	o->progress("stage", s + 1, n, o->progress_arg);
}

int ftsw_analyze_pattern(const struct ftsw_routing *r, struct ftsw_pattern *p,
			 const uint32_t *order,
			 const struct ftsw_analyze_opts *o,
			 struct ftsw_pattern_metrics *m, struct ftsw_err *err)
{
	static const struct ftsw_analyze_opts none;
	const struct ftsw_topo *t = r->topo;
	bool count = false;
	double *load, *flows = NULL, hs_sum = 0;
	uint64_t t0 = ftsw_now_us(), last = t0;
	unsigned s, busy = 0;
	int rc = 0;

	if (!o)
		o = &none;
	count = o->load && o->load->count_flows;
	memset(m, 0, sizeof(*m));
	m->oload_exact = true;
	load = malloc((t->nports + 1) * sizeof(double));
	if (count)
		flows = malloc((t->nports + 1) * sizeof(double));
	m->worst_load = calloc(t->nports + 1, sizeof(double));
	m->stages = calloc(p->nstages + 1, sizeof(*m->stages));
	if (!load || (count && !flows) || !m->worst_load || !m->stages) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		rc = -1;
		goto out;
	}
	for (s = 0; s < p->nstages && !rc; s++) {
		struct ftsw_stage_metrics *sm = &m->stages[s];
		struct ftsw_tm *tm = &p->stages[s];
		struct ftsw_load_result res;

		ftsw_tm_apply_order(tm, order, t->nhosts);
		if (ftsw_link_loads(r, tm, o->load, load, flows, &res, err)) {
			rc = -1;
			break;
		}
		add_result(&m->total, &res);
		stage_metrics(t, tm, p->stage_names ? p->stage_names[s] : NULL,
			      load, &res, sm);
		fold_stage(t, s, sm, load, o->bundle, m, &hs_sum, &busy);
		m->nstages = s + 1;
		if (o->stage_fn)
			rc = o->stage_fn(s, tm, load, flows, sm, o->arg, err);
		ftsw_tm_free(tm);	/* stages are large; free as we go */
		if (o->progress)
			progress(o, s, p->nstages, &last);
	}
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	if (rc > 0)
		rc = 0;
	m->hot_spot_degree = busy ? hs_sum / busy : 0;
	if (m->nstages)
		m->avg_perf /= m->nstages;
	m->seconds = (double)(ftsw_now_us() - t0) / 1e6;
out:
	free(load);
	free(flows);
	if (rc)
		ftsw_pattern_metrics_free(m);
	return rc;
}

void ftsw_pattern_metrics_free(struct ftsw_pattern_metrics *m)
{
	free(m->stages);
	free(m->worst_load);
	m->stages = NULL;
	m->worst_load = NULL;
}

/* ---------------------------------------------------- random patterns */

struct sample_ctx {
	const struct ftsw_routing *r;
	const struct ftsw_random_opts *o;
	const char *kind;	/* pattern spec without seed */
	uint64_t seed0;
	double *load, *flows;
	double perf_sum, base_sum, ml_sum;
	bool exact, ebb;
	int failed;
	struct ftsw_err err;
};

/* Sample i's rank -> host order: a random order gets its own seed. */
static int sample_order(struct sample_ctx *c, uint64_t i, uint32_t *order)
{
	const struct ftsw_topo *t = c->r->topo;
	char os[64];

	if (strncmp(c->o->order, "random", 6))
		return ftsw_order_make(c->o->order, t, c->o->ranks, order,
				       &c->err);
	snprintf(os, sizeof(os), "random:%llu",
		 (unsigned long long)(c->seed0 + 7919 * (i + 1)));
	ftsw_order_make(os, t, c->o->ranks, order, &c->err);
	return 0;
}

/* The metric of sample i (NaN with c->failed set on an error). */
static double one_sample(uint64_t i, void *arg)
{
	struct sample_ctx *c = arg;
	const struct ftsw_topo *t = c->r->topo;
	uint32_t *order = malloc(t->nhosts * sizeof(*order));
	struct ftsw_load_result res;
	struct ftsw_pattern p;
	double m = NAN, ml;
	char spec[160];
	bool exact;

	/* spec:...:SEED with a seed per sample */
	snprintf(spec, sizeof(spec), "%s:%llu", c->kind,
		 (unsigned long long)(c->seed0 + i));
	if (!order || ftsw_pattern_make(spec, c->o->ranks, t, &p, &c->err)) {
		if (!order)
			ftsw_err_errno(&c->err, ENOMEM, "out of memory");
		c->failed = 1;
		free(order);
		return NAN;
	}
	if (sample_order(c, i, order)) {
		c->failed = 1;
	} else {
		ftsw_tm_apply_order(&p.stages[0], order, t->nhosts);
		if (c->ebb) {
			m = ftsw_ebb(c->r, &p.stages[0], c->flows);
		} else if (!ftsw_link_loads(c->r, &p.stages[0], &(struct
					    ftsw_load_opts){ .adaptive_split =
					    c->o->adaptive_split }, c->load,
					    NULL, &res, &c->err)) {
			m = ftsw_max_load(t, c->load, false, NULL);
			ml = ftsw_ml_bound(t, &p.stages[0], &exact);
			c->exact = exact;
			c->ml_sum += ml;
			c->base_sum += ftsw_baseload(&p.stages[0]);
			c->perf_sum += ml > 0 ? m / ml : 1;
		} else {
			c->failed = 1;
		}
	}
	ftsw_pattern_free(&p);
	free(order);
	return m;
}

/* Split the seed off: perm[:SEED], bisect[:SEED], uniform:P[:SEED], ... */
static int split_seed(const char *pattern, char *kind, size_t sz,
		      uint64_t *seed, struct ftsw_err *err)
{
	char *colon;

	if (strlen(pattern) >= sz) {
		ftsw_err_set(err, "pattern '%.64s...': too long", pattern);
		return -1;
	}
	snprintf(kind, sz, "%s", pattern);
	colon = strrchr(kind, ':');
	*seed = 1;
	if (colon && (!strncmp(kind, "perm", 4) ||
		      !strncmp(kind, "bisect", 6) ||
		      strchr(kind, ':') != colon)) {
		if (ftsw_parse_u64("pattern seed", colon + 1, 0, UINT64_MAX,
				   seed, err))
			return -1;
		*colon = 0;
	}
	return 0;
}

int ftsw_analyze_random(const struct ftsw_routing *r,
			const struct ftsw_random_opts *o,
			struct ftsw_random_metrics *m, struct ftsw_err *err)
{
	const struct ftsw_topo *t = r->topo;
	struct sample_ctx c = { .r = r, .o = o };
	struct ftsw_sample_opts so = { .rel = 0.01, .progress = o->progress,
				      .progress_arg = o->progress_arg };
	int rc;

	memset(m, 0, sizeof(*m));
	if (split_seed(o->pattern, m->kind, sizeof(m->kind), &c.seed0, err))
		return -EINVAL;
	c.kind = m->kind;
	c.ebb = m->ebb = !strncmp(m->kind, "bisect", 6);
	c.load = malloc(t->nports * sizeof(double));
	c.flows = malloc(t->nports * sizeof(double));
	if (!c.load || !c.flows) {
		free(c.load);
		free(c.flows);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	if (o->samples) {
		so.first = so.max = o->samples;
	} else {
		so.first = 1000;
		so.max = 1u << 17;
	}
	ftsw_sample(&so, one_sample, &c, &m->s);
	free(c.load);
	free(c.flows);
	if (c.failed) {
		struct ftsw_pattern p;

		/*
		 * A sample's spec has its seed appended; a pattern refused
		 * as such is reported in the user's words
		 */
		*err = c.err;
		rc = ftsw_pattern_make(o->pattern, o->ranks, t, &p, err);
		if (rc)
			return rc == -EINVAL ? -EINVAL : -1;
		ftsw_pattern_free(&p);
		*err = c.err;
		return -1;
	}
	if (m->s.samples) {
		m->avg_baseload = c.base_sum / m->s.samples;
		m->avg_oload = c.ml_sum / m->s.samples;
		m->avg_perf = c.perf_sum / m->s.samples;
	}
	m->oload_exact = c.exact;
	return 0;
}
