// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics on link loads: maximum load, baseload, the subtree bound ML(TM)
 * of paper 000, per-level statistics, the sampling rule of paper 000 §5,
 * the hot-spot degree of paper 003 §II and the ORCS effective bisection
 * bandwidth of paper 001 §V.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"

void ftsw_node_levels(const struct ftsw_topo *t, int *level)
{
	uint32_t i;
	int *rank = NULL;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == FTSW_SWITCH && t->nodes[i].level < 0)
			break;
	if (i < t->nnodes) {
		rank = malloc(t->nswitches * sizeof(*rank));
		if (rank)
			ftsw_rank_from_leaves(t, rank);
	}
	for (i = 0; i < t->nnodes; i++) {
		const struct ftsw_node *n = &t->nodes[i];

		if (n->kind == FTSW_HOST)
			level[i] = 0;
		else if (n->level >= 0)
			level[i] = n->level;
		else
			level[i] = rank && rank[n->index] >= 0 ?
				   rank[n->index] + 1 : -1;
	}
	free(rank);
}

unsigned ftsw_level_stats(const struct ftsw_topo *t, const double *load,
			  struct ftsw_level_stat *st, unsigned max)
{
	int *lv = malloc(t->nnodes * sizeof(*lv));
	unsigned n = 0, k;
	uint32_t v, p;

	if (!lv)
		return 0;
	ftsw_node_levels(t, lv);
	for (v = 0; v < t->nnodes; v++)
		for (p = 1; p <= t->nodes[v].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, v, p);
			double l;

			if (x->peer == FTSW_NONE)
				continue;
			for (k = 0; k < n; k++)
				if (st[k].from_level == lv[v] &&
				    st[k].to_level == lv[x->peer])
					break;
			if (k == n) {
				if (n == max)
					continue;
				memset(&st[n], 0, sizeof(st[n]));
				st[n].from_level = lv[v];
				st[n].to_level = lv[x->peer];
				n++;
			}
			l = load[ftsw_link_id(t, v, p)];
			st[k].links++;
			st[k].used += l > 0;
			st[k].sum += l;
			if (l > st[k].max)
				st[k].max = l;
		}
	free(lv);
	/* order: up links by level, then down links */
	for (k = 1; k < n; k++) {
		struct ftsw_level_stat x = st[k];
		unsigned j = k;

		while (j > 0) {
			const struct ftsw_level_stat *y = &st[j - 1];
			int ku = x.to_level > x.from_level, yu = y->to_level >
								 y->from_level;
			int kx = ku ? x.from_level : 1000 - x.from_level;
			int ky = yu ? y->from_level : 1000 - y->from_level;

			if (ky <= kx)
				break;
			st[j] = st[j - 1];
			j--;
		}
		st[j] = x;
	}
	return n;
}

double ftsw_max_load(const struct ftsw_topo *t, const double *load,
		     bool switch_links_only, uint32_t *argmax)
{
	double m = 0;
	uint32_t v, p, am = FTSW_NONE;

	for (v = 0; v < t->nnodes; v++) {
		if (switch_links_only && t->nodes[v].kind != FTSW_SWITCH)
			continue;
		for (p = 1; p <= t->nodes[v].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, v, p);
			uint32_t l = ftsw_link_id(t, v, p);

			if (x->peer == FTSW_NONE ||
			    (switch_links_only &&
			     t->nodes[x->peer].kind != FTSW_SWITCH))
				continue;
			if (load[l] > m) {
				m = load[l];
				am = l;
			}
		}
	}
	if (argmax)
		*argmax = am;
	return m;
}

double ftsw_baseload(const struct ftsw_tm *tm)
{
	double *out, *in, m = 0;
	size_t i;

	if (tm->all_to_all && !tm->nflows)
		return tm->n > 1 ? (tm->n - 1) * tm->a2a : 0;
	out = calloc(tm->n, sizeof(*out));
	in = calloc(tm->n, sizeof(*in));
	if (!out || !in) {
		free(out);
		free(in);
		return NAN;
	}
	for (i = 0; i < tm->nflows; i++) {
		const struct ftsw_flow *f = &tm->f[i];

		if (f->src == f->dst)
			continue;
		out[f->src] += f->amount;
		in[f->dst] += f->amount;
	}
	if (tm->all_to_all)
		for (i = 0; i < tm->n; i++) {
			out[i] += (tm->n - 1) * tm->a2a;
			in[i] += (tm->n - 1) * tm->a2a;
		}
	for (i = 0; i < tm->n; i++) {
		if (out[i] > m)
			m = out[i];
		if (in[i] > m)
			m = in[i];
	}
	free(out);
	free(in);
	return m;
}

/* Subtree of height k holding host h: digits a_{k+1}..a_h as a number. */
static uint64_t subtree_id(const struct ftsw_topo *t, uint32_t host, unsigned k)
{
	const uint16_t *a = &t->digits[(size_t)t->hosts[host] * t->pgft.h];
	uint64_t id = 0;
	unsigned i;

	for (i = t->pgft.h; i > k; i--)
		id = id * t->pgft.m[i - 1] + a[i - 1];
	return id;
}

double ftsw_ml_bound(const struct ftsw_topo *t, const struct ftsw_tm *tm,
		     bool *exact)
{
	const struct ftsw_pgft *g = &t->pgft;
	double ml = 0, *out = NULL, *in = NULL;
	uint64_t *cnt = NULL;
	unsigned k;

	*exact = false;
	if (!t->is_pgft || t->degraded || !t->digits)
		return ftsw_baseload(tm);
	for (k = 0; k < g->h; k++) {
		uint64_t nsub = 1, tl = 1, s;
		unsigned i;
		size_t f;

		for (i = k + 1; i <= g->h; i++)
			nsub *= g->m[i - 1];
		for (i = 1; i <= k; i++)
			tl *= g->w[i - 1];
		tl *= (uint64_t)g->w[k] * g->p[k];
		out = calloc(nsub, sizeof(*out));
		in = calloc(nsub, sizeof(*in));
		cnt = calloc(nsub, sizeof(*cnt));
		if (!out || !in || !cnt)
			goto oom;
		for (f = 0; f < tm->nflows; f++) {
			uint64_t a = subtree_id(t, tm->f[f].src, k);
			uint64_t b = subtree_id(t, tm->f[f].dst, k);

			if (a != b) {
				out[a] += tm->f[f].amount;
				in[b] += tm->f[f].amount;
			}
		}
		if (tm->all_to_all) {
			for (f = 0; f < tm->n; f++)
				cnt[subtree_id(t, (uint32_t)f, k)]++;
			for (s = 0; s < nsub; s++) {
				double x = (double)cnt[s] * (tm->n - cnt[s]) *
					   tm->a2a;

				out[s] += x;
				in[s] += x;
			}
		}
		for (s = 0; s < nsub; s++) {
			double mt = out[s] > in[s] ? out[s] : in[s];

			if (mt / tl > ml)
				ml = mt / tl;
		}
		free(out);
		free(in);
		free(cnt);
		out = in = NULL;
		cnt = NULL;
	}
	*exact = true;
	return ml;
oom:
	free(out);
	free(in);
	free(cnt);
	return NAN;
}

/* ------------------------------------------------------------ sampling */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int ftsw_sample(const struct ftsw_sample_opts *o,
		double (*value)(uint64_t i, void *arg), void *arg,
		struct ftsw_sampled *out)
{
	/* z for a two-sided 99% interval of the normal distribution */
	const double z = 2.5758293035489004;
	uint64_t target = o->first ? o->first : 1000, i = 0;
	uint64_t cap = o->max ? o->max : 1u << 20;
	double mean = 0, m2 = 0, last = now();
	double rel = o->rel > 0 ? o->rel : 0.01;

	memset(out, 0, sizeof(*out));
	out->min = INFINITY;
	out->max = -INFINITY;
	for (;;) {
		for (; i < target; i++) {
			double x = value(i, arg), d = x - mean;

			mean += d / (double)(i + 1);
			m2 += d * (x - mean);
			if (x < out->min)
				out->min = x;
			if (x > out->max)
				out->max = x;
			if (o->progress && now() - last > 0.5) {
				char what[48];

				last = now();
				snprintf(what, sizeof(what),
					 "samples (mean %.4f)", mean);
				o->progress(what, i, target, o->progress_arg);
			}
		}
		out->samples = i;
		out->mean = mean;
		out->half = i > 1 ? z * sqrt(m2 / (double)(i - 1)) /
				    sqrt((double)i) : 0;
		if (out->half <= rel * fabs(mean) || target >= cap)
			break;
		target *= 2;
		if (target > cap)
			target = cap;
	}
	if (o->progress)
		o->progress(NULL, 0, 0, o->progress_arg);
	return 0;
}

/* ------------------------------------------------------- hot-spot degree */

double ftsw_max_bundle_load(const struct ftsw_topo *t, const double *load)
{
	double *sum = calloc(t->nnodes, sizeof(*sum)), m = 0;
	uint32_t v, p;

	if (!sum)
		return NAN;
	for (v = 0; v < t->nnodes; v++) {
		const struct ftsw_node *n = &t->nodes[v];

		for (p = 1; p <= n->nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, v, p);

			if (x->peer != FTSW_NONE)
				sum[x->peer] += load[ftsw_link_id(t, v, p)];
		}
		for (p = 1; p <= n->nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, v, p);

			if (x->peer == FTSW_NONE)
				continue;
			if (sum[x->peer] > m)
				m = sum[x->peer];
			sum[x->peer] = 0;
		}
	}
	free(sum);
	return m;
}

int ftsw_hot_spot(const struct ftsw_routing *r, const struct ftsw_pattern *p,
		  const uint32_t *order, bool bundle, struct ftsw_hsd *h,
		  struct ftsw_err *err)
{
	unsigned busy = 0;

	const struct ftsw_topo *t = r->topo;
	double *load = malloc(t->nports * sizeof(*load));
	struct ftsw_load_result res;
	struct ftsw_tm tm;
	unsigned s;

	memset(h, 0, sizeof(*h));
	h->per_stage = calloc(p->nstages ? p->nstages : 1, sizeof(double));
	if (!load || !h->per_stage) {
		free(load);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	h->nstages = p->nstages;
	ftsw_tm_init(&tm, p->n);
	for (s = 0; s < p->nstages; s++) {
		const struct ftsw_tm *st = &p->stages[s];
		size_t i;
		double m;

		ftsw_tm_clear(&tm);
		tm.n = st->n;
		for (i = 0; i < st->nflows; i++)
			ftsw_tm_add(&tm, st->f[i].src, st->f[i].dst, 1);
		tm.all_to_all = st->all_to_all;
		tm.a2a = 1;
		if (order)
			ftsw_tm_apply_order(&tm, order, t->nhosts);
		if (ftsw_link_loads(r, &tm, NULL, load, NULL, &res, err)) {
			ftsw_tm_free(&tm);
			free(load);
			return -1;
		}
		m = bundle ? ftsw_max_bundle_load(t, load) :
			     ftsw_max_load(t, load, false, NULL);
		h->per_stage[s] = m;
		if (res.delivered) {
			h->avg += m;
			busy++;
		}
		if (m > h->max)
			h->max = m;
	}
	if (busy)
		h->avg /= busy;
	ftsw_tm_free(&tm);
	free(load);
	return 0;
}

/* ------------------------------------------------ effective bisection bw */

double ftsw_ebb(const struct ftsw_routing *r, const struct ftsw_tm *tm,
		double *flows)
{
	const struct ftsw_topo *t = r->topo;
	double *load = malloc(t->nports * sizeof(*load)), sum = 0;
	struct ftsw_load_result res;
	struct ftsw_path *p = malloc(sizeof(*p));
	struct ftsw_err err;
	uint64_t nf = 0;
	size_t i;

	if (!load || !p ||
	    ftsw_link_loads(r, tm, NULL, load, flows, &res, &err)) {
		free(load);
		free(p);
		return NAN;
	}
	for (i = 0; i < tm->nflows; i++) {
		const struct ftsw_flow *f = &tm->f[i];
		uint8_t offs[128];
		double w[128], bw = 0;
		unsigned n, k, j;

		if (f->src == f->dst)
			continue;
		nf++;
		n = ftsw_path_offsets(r, f->src, offs, w);
		for (k = 0; k < n; k++) {
			uint32_t hn = t->hosts[f->src];
			double c;

			if (ftsw_trace_path(r, f->src, f->dst, offs[k], 0, p))
				continue;	/* undelivered: bandwidth 0 */
			c = flows[ftsw_link_id(t, hn, ftsw_host_port(t, hn))];
			for (j = 0; j < p->nhops; j++) {
				double x = flows[ftsw_link_id(t,
					t->switches[p->hops[j].sw],
					p->hops[j].port)];

				if (x > c)
					c = x;
			}
			bw += w[k] / (c > 1 ? c : 1);
		}
		sum += bw;
	}
	free(load);
	free(p);
	return nf ? sum / nf : 0;
}
