// SPDX-License-Identifier: GPL-2.0
/* The simulator's traffic: who sends to whom, by weight (sim.h). */
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

/* ------------------------------------------------------------- traffic */

void ftsw_sim_traffic_free(struct ftsw_sim_traffic *tr)
{
	free(tr->start);
	free(tr->dst);
	free(tr->cum);
	memset(tr, 0, sizeof(*tr));
}

/*
 * One stage's flows, one pass: pass 0 counts them per source in cnt[],
 * pass 1 writes them at cnt[src] (the sources' running offsets).
 */
static void traffic_stage(struct ftsw_sim_traffic *tr,
			  const struct ftsw_tm *tm, uint32_t *cnt, int pass)
{
	uint32_t a, b;
	size_t i;

	if (tm->all_to_all) {
		for (a = 0; a < tm->n; a++)
			for (b = 0; b < tm->n; b++) {
				if (a == b)
					continue;
				if (pass == 0) {
					cnt[a]++;
					continue;
				}
				i = cnt[a]++;
				tr->dst[i] = b;
				tr->cum[i] = tm->a2a;
			}
		return;
	}
	for (i = 0; i < tm->nflows; i++) {
		const struct ftsw_flow *f = &tm->f[i];
		size_t k;

		if (f->src == f->dst || f->amount <= 0)
			continue;
		if (pass == 0) {
			cnt[f->src]++;
			continue;
		}
		k = cnt[f->src]++;
		tr->dst[k] = f->dst;
		tr->cum[k] = f->amount;
	}
}

/* After the counting pass: the CSR arrays, cnt[] turned into offsets. */
static int traffic_alloc(struct ftsw_sim_traffic *tr, uint32_t nhosts,
			 uint32_t *cnt, struct ftsw_err *err)
{
	size_t total = 0;
	uint32_t h;

	tr->start = malloc((nhosts + 1) * sizeof(*tr->start));
	for (h = 0; h < nhosts; h++)
		total += cnt[h];
	tr->dst = malloc((total + 1) * sizeof(*tr->dst));
	tr->cum = malloc((total + 1) * sizeof(*tr->cum));
	if (!tr->start || !tr->dst || !tr->cum || total > UINT32_MAX) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	total = 0;
	for (h = 0; h < nhosts; h++) {
		tr->start[h] = (uint32_t)total;
		total += cnt[h];
		cnt[h] = tr->start[h];
	}
	tr->start[nhosts] = (uint32_t)total;
	return 0;
}

/* Amounts into cumulative sums per source; count the active sources. */
static void traffic_cumulate(struct ftsw_sim_traffic *tr)
{
	uint32_t h;
	size_t i;

	for (h = 0; h < tr->nhosts; h++) {
		double c = 0;

		for (i = tr->start[h]; i < tr->start[h + 1]; i++) {
			c += tr->cum[i];
			tr->cum[i] = c;
		}
		if (tr->start[h + 1] > tr->start[h])
			tr->active++;
	}
}

/* The pattern's flows (ordered by ord) as per-source destination lists. */
static int traffic_fill(struct ftsw_sim_traffic *tr, struct ftsw_pattern *p,
			const uint32_t *ord, uint32_t nhosts, uint32_t *cnt,
			struct ftsw_err *err)
{
	unsigned s;

	/* two passes over every stage: count per source, then fill */
	for (int pass = 0; pass < 2; pass++) {
		for (s = 0; s < p->nstages; s++) {
			if (pass == 0)
				ftsw_tm_apply_order(&p->stages[s], ord, nhosts);
			traffic_stage(tr, &p->stages[s], cnt, pass);
		}
		if (pass == 0 && traffic_alloc(tr, nhosts, cnt, err))
			return -1;
	}
	traffic_cumulate(tr);
	return 0;
}

int ftsw_sim_traffic_make(const struct ftsw_topo *t, const char *pattern,
			  const char *order, uint32_t ranks,
			  struct ftsw_sim_traffic *tr, struct ftsw_err *err)
{
	struct ftsw_pattern p;
	uint32_t *ord, *cnt;
	int rc;

	memset(tr, 0, sizeof(*tr));
	tr->nhosts = t->nhosts;
	snprintf(tr->name, sizeof(tr->name), "%s", pattern);
	if (t->nhosts < 2) {
		ftsw_err_set(err, "the fabric needs at least 2 hosts");
		return -1;
	}
	if (!strcmp(pattern, "uniform")) {
		tr->uniform = true;
		tr->active = t->nhosts;
		return 0;
	}
	if (!ranks)
		ranks = t->nhosts;
	if (ranks < 2 || ranks > t->nhosts) {
		ftsw_err_set(err, "--ranks %u: must be 2..%u", ranks,
			     t->nhosts);
		return -EINVAL;
	}
	ord = malloc(t->nhosts * sizeof(*ord));
	cnt = calloc(t->nhosts + 1, sizeof(*cnt));
	if (!ord || !cnt) {
		free(ord);
		free(cnt);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	rc = ftsw_order_make(order, t, ranks, ord, err);
	if (!rc)
		rc = ftsw_pattern_make(pattern, ranks, t, &p, err);
	if (rc) {
		free(ord);
		free(cnt);
		return rc == -EINVAL ? -EINVAL : -1;
	}
	rc = traffic_fill(tr, &p, ord, t->nhosts, cnt, err);
	ftsw_pattern_free(&p);
	free(ord);
	free(cnt);
	if (rc) {
		ftsw_sim_traffic_free(tr);
		return -1;
	}
	if (!tr->active) {
		ftsw_err_set(err, "pattern '%s' has no flow between distinct "
			     "hosts", pattern);
		ftsw_sim_traffic_free(tr);
		return -1;
	}
	return 0;
}

