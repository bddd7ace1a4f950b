// SPDX-License-Identifier: GPL-2.0
/* libftsw lab traffic: the report (text, JSON, SVG). */
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

#include "analyze/analyze.h"
#include "util/output.h"
#include "lab/lab.h"
#include "lab/lab_traffic_int.h"

/* Link-load picture: switches by rank, links coloured by packets. */
static int write_svg(const struct ftsw_lab *lab, const uint64_t *load,
		     unsigned maxp, const char *path, const char *title,
		     struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	int *rank = malloc(sizeof(int) * (t->nswitches + 1));
	uint32_t *pos = calloc(t->nswitches + 1, sizeof(uint32_t));
	uint32_t cnt[32] = { 0 }, i;
	double *x = malloc(sizeof(double) * (t->nnodes + 1));
	double *y = malloc(sizeof(double) * (t->nnodes + 1));
	int nr, W = 1200, H, l;
	uint64_t maxl = 1;
	FILE *f;

	if (!rank || !pos || !x || !y) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		goto fail;
	}
	nr = ftsw_rank_from_leaves(t, rank);
	if (nr > 30)
		nr = 30;
	H = 120 * (nr + 1) + 80;
	for (i = 0; i < t->nswitches; i++) {
		l = rank[i] < 0 ? nr : rank[i];
		if (l > 30)
			l = 30;
		pos[i] = cnt[l]++;
	}
	for (i = 0; i < t->nswitches; i++) {
		l = rank[i] < 0 ? nr : rank[i];
		if (l > 30)
			l = 30;
		x[t->switches[i]] = 40 + (W - 80) * (pos[i] + 0.5) / cnt[l];
		y[t->switches[i]] = H - 80 - 120.0 * (l + 1);
	}
	for (i = 0; i < t->nhosts; i++) {
		x[t->hosts[i]] = 40 + (W - 80) * (i + 0.5) / t->nhosts;
		y[t->hosts[i]] = H - 60;
	}
	for (i = 0; i < (uint32_t)t->nswitches * (maxp + 1); i++)
		if (load[i] > maxl)
			maxl = load[i];
	f = fopen(path, "w");
	if (!f) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"20\" y=\"24\" font-size=\"16\">%s (lab %s; "
		"width and colour: packets sent on the link, max %" PRIu64
		")</text>\n", W, H, title, lab->name, maxl);
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports; p++) {
			const struct ftsw_port *q = ftsw_port(t, node, p);
			uint64_t v = load[(size_t)i * (maxp + 1) + p];
			double fr;

			if (q->peer == FTSW_NONE)
				continue;
			if (t->nodes[q->peer].kind == FTSW_SWITCH) {
				uint32_t j = t->nodes[q->peer].index;

				if (q->peer < node)
					continue;
				v += load[(size_t)j * (maxp + 1) + q->peer_port];
			}
			fr = (double)v / (double)(2 * maxl);
			if (fr > 1)
				fr = 1;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"rgb(%d,%d,%d)\" "
				"stroke-width=\"%.1f\"><title>s%" PRIu32 ":%u %"
				PRIu64 " packets</title></line>\n",
				x[node], y[node], x[q->peer], y[q->peer],
				(int)(40 + 215 * fr), (int)(160 * (1 - fr)),
				(int)(220 * (1 - fr)), 0.5 + 7 * fr, i, p, v);
		}
	}
	for (i = 0; i < t->nswitches; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"#345\">"
			"<title>s%" PRIu32 " %s</title></circle>\n",
			x[t->switches[i]], y[t->switches[i]], i,
			t->nodes[t->switches[i]].desc ?
			t->nodes[t->switches[i]].desc : "");
	for (i = 0; i < t->nhosts; i++)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" "
			"fill=\"#888\"><title>h%" PRIu32 "</title></rect>\n",
			x[t->hosts[i]] - 3, y[t->hosts[i]] - 3, i);
	fprintf(f, "</svg>\n");
	if (fclose(f)) {
		ftsw_err_errno(err, errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	free(rank);
	free(pos);
	free(x);
	free(y);
	return 0;
fail:
	free(rank);
	free(pos);
	free(x);
	free(y);
	return -1;
}

int lab_tr_cmp_rows(const void *a, const void *b)
{
	const struct linkrow *x = a, *y = b;

	if (x->meas != y->meas)
		return x->meas < y->meas ? 1 : -1;
	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (int)x->port - (int)y->port;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print_flow(FILE *out, const struct fres *r, double rate_mbps)
{
	char link[32] = "-", pred[16] = "-";

	if (r->share > 0) {
		snprintf(link, sizeof(link), "s%" PRIu32 ":%u", r->hot_sw,
			 r->hot_port);
		snprintf(pred, sizeof(pred), "%.3f", rate_mbps / r->share);
	}
	fprintf(out, "  h%-4" PRIu32 " -> h%-4" PRIu32 " %-10s %5.3g %9s "
		"%9.3f %9.3f\n", r->src, r->dst, link, r->share > 0 ? r->share :
		0, pred, r->offered, r->mbps);
}

/*
 * Rate mode summary: flows grouped by the flows on their busiest shaped
 * link (k, the share; 0: no shaped link; -1: several paths), measured
 * against rate / k.
 */
struct share_group {
	double share, min, sum, max;
	uint64_t flows;
};

/* The groups, by increasing share, into *out (malloc): their number. */
static size_t share_groups(const struct fres *fr, size_t nfr,
			   struct share_group **out)
{
	double *ks = malloc(sizeof(double) * (nfr + 1));
	struct share_group *g = calloc(nfr + 1, sizeof(*g));
	size_t ng = 0, i, j;

	*out = g;
	if (!ks || !g) {
		free(ks);
		return 0;
	}
	for (i = 0; i < nfr; i++)
		ks[i] = fr[i].share;
	qsort(ks, nfr, sizeof(double), cmp_double);
	for (i = 0; i < nfr; i++) {
		struct share_group *x = &g[ng];

		if (i && ks[i] == ks[i - 1])
			continue;
		x->share = ks[i];
		x->min = 1e300;
		for (j = 0; j < nfr; j++) {
			if (fr[j].share != ks[i])
				continue;
			x->flows++;
			x->sum += fr[j].mbps;
			x->min = fr[j].mbps < x->min ? fr[j].mbps : x->min;
			x->max = fr[j].mbps > x->max ? fr[j].mbps : x->max;
		}
		ng++;
	}
	free(ks);
	return ng;
}

static void rate_summary_text(FILE *out, const struct fres *fr, size_t nfr,
			      double rate_mbps)
{
	struct share_group *g;
	size_t ng = share_groups(fr, nfr, &g), i;

	for (i = 0; i < ng; i++) {
		double avg = g[i].sum / g[i].flows;

		if (g[i].share > 0)
			fprintf(out, "  %" PRIu64 " flows with %.3g on their "
				"busiest shaped link: predicted %.3f, measured "
				"%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n",
				g[i].flows, g[i].share, rate_mbps / g[i].share,
				g[i].min, avg, g[i].max);
		else
			fprintf(out, "  %" PRIu64 " flows %s: measured "
				"%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n",
				g[i].flows, g[i].share < 0 ? "over several "
				"paths (the kernel picks one by flow hash)" :
				"crossing no shaped link", g[i].min, avg,
				g[i].max);
	}
	free(g);
}

/* "shares": the groups as JSON (util/output.h, in an open object). */
static void rate_summary_json(const struct fres *fr, size_t nfr,
			      double rate_mbps)
{
	struct share_group *g;
	size_t ng = share_groups(fr, nfr, &g), i;

	ftsw_out_open_array("shares");
	for (i = 0; i < ng; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_float("share", NULL, g[i].share);
		ftsw_out_uint("flows", NULL, g[i].flows);
		if (g[i].share > 0)
			ftsw_out_float("predicted_mbps", NULL,
				       rate_mbps / g[i].share);
		else
			ftsw_out_null("predicted_mbps", NULL);
		ftsw_out_float("min_mbps", NULL, g[i].min);
		ftsw_out_float("avg_mbps", NULL, g[i].sum / g[i].flows);
		ftsw_out_float("max_mbps", NULL, g[i].max);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	free(g);
}

void lab_tr_print_header(const struct trun *x)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	FILE *out = x->out;

	if (o->json)
		return;
	fprintf(out, "pattern %s (%u stage%s), order %s; model: the "
		"analyzer (ftsw analyze -p %s --order %s) on the tables "
		"read back from the kernel\n", o->pattern, x->pat.nstages,
		x->pat.nstages == 1 ? "" : "s", x->ospec, x->pspec, x->ospec);
	if (x->rate_mode)
		fprintf(out, "lab shaped at %.3f Mbit/s per fabric link: "
			"each stage sends for %u ms, %u-byte datagrams, "
			"%s; throughput at the receivers over the last "
			"%u ms, in fabric frame bits (payload + %d "
			"bytes)\n", x->rate_mbps, x->dur_ms, x->size, o->pps ?
			"paced by --pps" : "each flow offered 1.5x the "
			"rate", x->dur_ms - x->dur_ms / 5, LAB_FRAME_EXTRA);
	else
		fprintf(out, "%u packets of %u bytes per flow%s\n",
			x->packets, x->size, x->multipath ? " (several LIDs per "
			"destination: flows spread over paths by hash; "
			"only totals compared)" : "");
}

/* --fail: losses of the flows that crossed the failed cable and others. */
void lab_tr_print_fail_report(const struct trun *x, uint64_t t0s)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	const struct traffic *tr = &x->tr;
	uint64_t la = 0, lu = 0, na = 0, maxa = 0;
	uint32_t f;

	for (f = 0; f < tr->nf; f++) {
		uint64_t l = tr->fl[f].sent - tr->fl[f].rx;

		if (tr->fl[f].affected) {
			na++;
			la += l;
			if (l > maxa)
				maxa = l;
		} else {
			lu += l;
		}
	}
	fprintf(x->out, "failure of %s - %s after %u of %u packets "
		"per flow (%.1f ms into the stage, %u packets/s):\n"
		"  %" PRIu64 " flows crossed it: %" PRIu64
		" packets lost (at most %" PRIu64 " per flow, "
		"%.1f ms of traffic)\n  %" PRIu32 " flows did "
		"not: %" PRIu64 " packets lost\n", o->fail_a,
		o->fail_b, o->fail_at, x->packets, x->fail_us >= t0s ?
		(double)(x->fail_us - t0s) / 1e3 : -1.0,
		o->pps, na, la, maxa,
		o->pps ? maxa * 1e3 * tr->nf / o->pps : 0.0,
		tr->nf - (uint32_t)na, lu);
}

void lab_tr_print_stage_line(const struct trun *x, unsigned s,
			     uint64_t stage_sent, uint64_t received,
			     double max_flows)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	const struct traffic *tr = &x->tr;
	FILE *out = x->out;
	uint32_t f;

	if (o->json || !(o->per_stage || (x->rate_mode && (o->verbose ||
	    (x->pat.nstages == 1 && tr->nf <= 32)))))
		return;
	fprintf(out, "stage %u (%s): %" PRIu32 " flows, %" PRIu64
		" sent, %" PRIu64 " received, busiest port "
		"carries %.3g flows\n", s, x->pat.stage_names[s],
		tr->nf, stage_sent, received, max_flows);
	if (!x->rate_mode)
		return;
	fprintf(out, "  %-14s %-10s %5s %9s %9s %9s\n", "flow", "busiest",
		"flows", "predicted", "offered", "measured");
	for (f = 0; f < tr->nf; f++)
		print_flow(out, &x->fr[x->nfr - tr->nf + f], x->rate_mbps);
	fprintf(out, "  (Mbit/s; predicted: rate / flows on the busiest "
		"shaped link)\n");
}

static void print_json_flows(const struct trun *x)
{
	size_t i;

	ftsw_out_float("rate_mbps", NULL, x->rate_mbps);
	ftsw_out_uint("duration_ms", NULL, x->dur_ms);
	ftsw_out_uint("window_ms", NULL, x->dur_ms - x->dur_ms / 5);
	ftsw_out_uint("size", NULL, x->size);
	ftsw_out_uint("sender_bound", NULL, x->slow);
	ftsw_out_open_array("flows");
	for (i = 0; i < x->nfr; i++) {
		const struct fres *fr = &x->fr[i];

		ftsw_out_open_object(NULL);
		ftsw_out_uint("stage", NULL, fr->stage);
		ftsw_out_uint("src", NULL, fr->src);
		ftsw_out_uint("dst", NULL, fr->dst);
		ftsw_out_float("share", NULL, fr->share);
		if (fr->share > 0) {
			ftsw_out_uint("switch", NULL, fr->hot_sw);
			ftsw_out_uint("port", NULL, fr->hot_port);
			ftsw_out_float("predicted_mbps", NULL,
				       x->rate_mbps / fr->share);
		}
		ftsw_out_float("offered_mbps", NULL, fr->offered);
		ftsw_out_float("mbps", NULL, fr->mbps);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	rate_summary_json(x->fr, x->nfr, x->rate_mbps);
}

/* The run as one JSON document on out (util/output.h). */
void lab_tr_print_json(const struct trun *x)
{
	uint64_t i;

	ftsw_out_begin(x->out, true);
	ftsw_out_open_object(NULL);
	ftsw_out_str("pattern", NULL, x->o->pattern);
	ftsw_out_str("analyzer_pattern", NULL, x->pspec);
	ftsw_out_str("order", NULL, x->ospec);
	ftsw_out_str("mode", NULL, x->rate_mode ? "rate" : "count");
	ftsw_out_uint("stages", NULL, x->nst);
	ftsw_out_uint("sent", NULL, x->sent);
	ftsw_out_uint("lost", NULL, x->lost);
	ftsw_out_float("max_flows_per_port", NULL, x->max_flows_all);
	ftsw_out_float("hot_spot_degree", NULL, x->m.hot_spot_degree);
	ftsw_out_uint("undelivered", NULL, x->m.total.failed);
	ftsw_out_uint("ports", NULL, x->nrows);
	ftsw_out_uint("mismatches", NULL, x->bad);
	ftsw_out_bool("exact", NULL, x->exact);
	ftsw_out_bool("multipath", NULL, x->multipath);
	ftsw_out_uint("drops", NULL, x->c1.drops - x->c0.drops);
	if (x->rate_mode)
		print_json_flows(x);
	ftsw_out_open_array("links");
	for (i = 0; i < x->nrows; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_uint("switch", NULL, x->rows[i].sw);
		ftsw_out_uint("port", NULL, x->rows[i].port);
		ftsw_out_float("flows", NULL, x->rows[i].flows);
		if (!x->rate_mode)
			ftsw_out_float("predicted", NULL, x->rows[i].pred);
		ftsw_out_uint("measured", NULL, x->rows[i].meas);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
}

void lab_tr_print_text(const struct trun *x)
{
	const struct ftsw_lab_traffic_opts *o = x->o;
	uint64_t show = o->verbose ? x->nrows : 10, i;
	FILE *out = x->out;

	fprintf(out, "%" PRIu64 " packets sent, %" PRIu64
		" lost%s, %" PRIu64 " fabric drops; busiest port "
		"carries %.3g flows in one stage; hot-spot degree "
		"%.4g\n", x->sent, x->lost, x->rate_mode ? " (shaped)" : "",
		x->c1.drops - x->c0.drops, x->max_flows_all,
		x->m.hot_spot_degree);
	if (x->m.total.failed)
		fprintf(out, "the model delivers no path for %" PRIu64
			" flows, first: %s\n", x->m.total.failed,
			x->m.total.first_failure);
	if (x->rate_mode) {
		fprintf(out, "per-flow throughput at %.3f Mbit/s per fabric "
			"link:\n", x->rate_mbps);
		if (x->slow)
			fprintf(out, "  warning: %" PRIu64 " flows offered "
				"less than their predicted share (this machine "
				"sends too slowly for the rate): their "
				"throughput is the sender's\n", x->slow);
		rate_summary_text(out, x->fr, x->nfr, x->rate_mbps);
		fprintf(out, "  %-12s %10s %10s\n", "port", "flows",
			"measured");
	} else {
		fprintf(out, "  %-12s %10s %10s\n", "port", "predicted",
			"measured");
	}
	for (i = 0; i < x->nrows && i < show; i++) {
		const struct linkrow *row = &x->rows[i];
		bool mis = !x->multipath &&
			   (x->rate_mode ? !row->meas != !row->flows :
			    row->pred != (double)row->meas);

		fprintf(out, "  s%-4" PRIu32 ":%-6u %10.4g %10" PRIu64 "%s\n",
			row->sw, row->port, x->rate_mode ? row->flows :
			row->pred, row->meas, mis ? "  MISMATCH" : "");
	}
	if (x->nrows > show)
		fprintf(out, "  ... %" PRIu64 " more ports (-v)\n",
			x->nrows - show);
	if (x->multipath)
		fprintf(out, "total tx: %" PRIu64 " measured, %.0f expected "
			"on average; paths chosen by flow hash\n",
			x->tx_measured, x->tx_predicted);
	else if (x->rate_mode)
		fprintf(out, "traffic on exactly the model's ports: %s (%"
			PRIu64 " ports, %" PRIu64 " differ)\n",
			x->bad ? "NO" : "yes", x->nrows, x->bad);
	else
		fprintf(out, "model == reality: %s (%" PRIu64 " ports, %"
			PRIu64 " differ; %.0f packets predicted, %" PRIu64
			" counted)\n", x->exact ? "yes" : "NO", x->nrows,
			x->bad, x->tx_predicted, x->tx_measured);
}

/* --svg: the measured link loads as a picture. */
int lab_tr_traffic_svg(const struct trun *x, struct ftsw_err *err)
{
	uint64_t *lv = calloc(x->nslots + 1, sizeof(uint64_t));
	char title[128];
	size_t i;
	int rc;

	if (!lv) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < x->nslots; i++)
		lv[i] = x->c1.tx[i] - x->c0.tx[i];
	snprintf(title, sizeof(title), "%.50s, %.50s order", x->o->pattern,
		 x->ospec);
	rc = write_svg(x->lab, lv, x->maxp, x->o->svg, title, err);
	free(lv);
	if (!rc && !x->o->json)
		fprintf(x->out, "link-load picture: %s\n", x->o->svg);
	return rc;
}
