// SPDX-License-Identifier: GPL-2.0
/*
 * A pattern's per-stage metrics (analyze.h: ftsw_analyze_pattern): what
 * `ftsw analyze` prints and what the lab's traffic model compares the
 * kernel's counters with, computed in one place.
 */
#include <stdlib.h>
#include <string.h>

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

static void progress(unsigned s, unsigned n, uint64_t *last)
{
	if (ftsw_now_us() - *last < 500000)
		return;
	*last = ftsw_now_us();
	fprintf(stderr, "\r  stage %u/%u   ", s + 1, n);
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
		ftsw_err_set(err, "out of memory");
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
			progress(s, p->nstages, &last);
	}
	if (o->progress)
		fprintf(stderr, "\r%40s\r", "");
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
