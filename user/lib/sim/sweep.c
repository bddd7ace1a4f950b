// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: load points of one simulation spread over threads (each point is
 * a seeded run whose numbers do not depend on the thread count: one
 * thread, or the threads left over when there are fewer points than
 * threads, in the phased engine), the saturation search, the --load
 * syntax.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "util/parse.h"

struct sweep {
	const struct ftsw_routing *r;
	const struct ftsw_sim_traffic *tr;
	const struct ftsw_sim_opts *o;
	const double *loads;
	size_t n;
	unsigned point_threads;
	struct ftsw_sim_result *res;
	atomic_size_t next, done;
	pthread_mutex_t lock;
	int failed;
	struct ftsw_err err;
};

static void *sweep_worker(void *arg)
{
	struct sweep *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
		struct ftsw_sim_opts o = *w->o;
		struct ftsw_err e;

		if (w->n > 1)
			o.progress = NULL;	/* the points, not the cycles */
		o.point_threads = w->point_threads;
		if (ftsw_sim_run(w->r, w->tr, &o, w->loads[i], &w->res[i],
				 &e)) {
			pthread_mutex_lock(&w->lock);
			if (!w->failed)
				w->err = e;
			w->failed = 1;
			pthread_mutex_unlock(&w->lock);
		}
		size_t d = atomic_fetch_add(&w->done, 1) + 1;

		if (w->o->progress && w->n > 1) {
			pthread_mutex_lock(&w->lock);
			w->o->progress("sim: load points", d, w->n,
				       w->o->progress_arg);
			pthread_mutex_unlock(&w->lock);
		}
	}
	return NULL;
}

int ftsw_sim_sweep(const struct ftsw_routing *r,
		   const struct ftsw_sim_traffic *tr,
		   const struct ftsw_sim_opts *o, const double *loads,
		   size_t n, struct ftsw_sim_result *res,
		   struct ftsw_err *err)
{
	struct sweep w = { .r = r, .tr = tr, .o = o, .loads = loads, .n = n,
			   .res = res };
	unsigned nt = ftsw_threads(o->threads), i;
	pthread_t *th;

	if (!n)
		return 0;
	/* threads no point takes run inside the points (phased engine) */
	w.point_threads = nt > n ? nt / (unsigned)n : 1;
	if (nt > n)
		nt = (unsigned)n;
	pthread_mutex_init(&w.lock, NULL);
	th = calloc(nt, sizeof(*th));
	if (!th) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 1; i < nt; i++)
		if (pthread_create(&th[i], NULL, sweep_worker, &w))
			th[i] = 0;
	sweep_worker(&w);
	for (i = 1; i < nt; i++)
		if (th[i])
			pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_destroy(&w.lock);
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	if (w.failed) {
		*err = w.err;
		for (i = 0; i < n; i++)
			ftsw_sim_result_free(&res[i]);
		return -1;
	}
	return 0;
}

static int by_load(const void *a, const void *b)
{
	const struct ftsw_sim_result *x = a, *y = b;

	return (x->load > y->load) - (x->load < y->load);
}

int ftsw_sim_saturation(const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_opts *o,
			struct ftsw_sim_result **res, size_t *n_out,
			size_t *best, struct ftsw_err *err)
{
	double loads[20], c;
	struct ftsw_sim_result *all = calloc(20, sizeof(*all));
	size_t i, n = 0, b = 0;

	if (!all) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < 10; i++)
		loads[i] = 0.1 * (i + 1);
	if (ftsw_sim_sweep(r, tr, o, loads, 10, all, err)) {
		free(all);
		return -1;
	}
	for (i = 1; i < 10; i++)
		if (all[i].accepted > all[b].accepted)
			b = i;
	/* 10 points by 0.02 around the best, none repeated */
	c = loads[b];
	for (i = 0; i < 11 && n < 10; i++) {
		double l = c - 0.1 + 0.02 * i;

		if (l <= 0.0001 || l > 1.0001 ||
		    fabs(remainder(l, 0.1)) < 1e-6)
			continue;
		loads[10 + n++] = l;
	}
	if (ftsw_sim_sweep(r, tr, o, loads + 10, n, all + 10, err)) {
		for (i = 0; i < 10; i++)
			ftsw_sim_result_free(&all[i]);
		free(all);
		return -1;
	}
	n += 10;
	qsort(all, n, sizeof(*all), by_load);
	for (b = 0, i = 1; i < n; i++)
		if (all[i].accepted > all[b].accepted)
			b = i;
	*res = all;
	*n_out = n;
	*best = b;
	return 0;
}

int ftsw_sim_loads_parse(const char *s, double **loads, size_t *n,
			 struct ftsw_err *err)
{
	char buf[128], *p[3], *save = NULL, *tok;
	double a, b, st;
	unsigned k = 0;
	size_t i, cnt;
	double *l;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ":", &save); tok && k < 3;
	     tok = strtok_r(NULL, ":", &save))
		p[k++] = tok;
	if (tok || !k || k == 2) {
		ftsw_err_set(err, "--load '%s': expected LOAD or FROM:TO:STEP",
			     s);
		return -1;
	}
	if (ftsw_parse_double("--load", p[0], 1e-6, 1, &a, err))
		return -1;
	b = a;
	st = 1;
	if (k == 3 && (ftsw_parse_double("--load (to)", p[1], a, 1, &b, err) ||
		       ftsw_parse_double("--load (step)", p[2], 1e-4, 1, &st,
					 err)))
		return -1;
	cnt = (size_t)floor((b - a) / st + 1e-6) + 1;
	l = malloc(cnt * sizeof(*l));
	if (!l) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < cnt; i++) {
		l[i] = a + st * i;
		if (l[i] > 1)
			l[i] = 1;
		/* print-friendly: 0.1 + 0.05 * 3 is 0.25, not 0.2500000001 */
		l[i] = round(l[i] * 1e9) / 1e9;
	}
	*loads = l;
	*n = cnt;
	return 0;
}
