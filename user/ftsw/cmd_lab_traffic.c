// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab traffic's report: the result ftsw_lab_traffic() returns
 * (lab/lab.h) as text or JSON (util/output.h), and the link-load picture
 * (--svg). The library measures; this file only prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_lab.h"
#include "analyze/picture.h"
#include "util/output.h"

/* Bytes a datagram adds on a fabric link: UDP, IPv4, Ethernet, fabric. */
#define FRAME_EXTRA	(8 + 20 + 14 + FTSW_HLEN)

static int svg_write(const void *pic, FILE *f)
{
	return ftsw_picture_svg(pic, f);
}

/*
 * --svg: the packets each port sent during the run, drawn as every picture
 * of ftsw is (analyze/picture.h); a host's half of its cable is what its
 * edge port received from it.
 */
static int traffic_svg(const struct ftsw_lab *lab,
		       const struct ftsw_lab_traffic_opts *o,
		       const struct ftsw_lab_traffic_result *res,
		       const char *path, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	struct ftsw_picture pic = { .t = t, .spec = lab->spec,
				    .unit = "packets", .hosts = -1,
				    .labels = -1 };
	double *load = calloc(t->nports + 1, sizeof(*load));
	struct ftsw_sw_port it;
	char title[256];
	int rc;

	if (!load) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	ftsw_for_each_switch_port(t, &it, 0) {
		size_t k = (size_t)it.sw * (res->maxports + 1) + it.port;
		const struct ftsw_port *x = it.x;

		if (it.port > res->maxports)
			continue;
		load[ftsw_link_id(t, it.node, it.port)] = (double)res->tx[k];
		if (x->peer != FTSW_NONE && t->nodes[x->peer].kind == FTSW_HOST)
			load[ftsw_link_id(t, x->peer, x->peer_port)] =
				(double)res->rx[k];
	}
	snprintf(title, sizeof(title), "lab %.30s: %.50s, %.50s order, "
		 "packets sent on each link", lab->name, o->pattern,
		 res->order_spec);
	pic.title = title;
	pic.load = load;
	rc = ftsw_write_path(path, svg_write, &pic, err);
	free(load);
	return rc ? -1 : 0;
}

static void print_header(const struct ftsw_lab_traffic_opts *o,
			 const struct ftsw_lab_traffic_result *r)
{
	printf("pattern %s (%u stage%s), order %s; model: the analyzer "
	       "(ftsw analyze -p %s --order %s) on the tables read back from "
	       "the kernel\n", o->pattern, r->pattern_stages,
	       r->pattern_stages == 1 ? "" : "s", r->order_spec,
	       r->pattern_spec, r->order_spec);
	if (r->rate_mode)
		printf("lab %s at %.3f Mbit/s per fabric link: each stage "
		       "sends for %u ms, %u-byte datagrams, %s; throughput at "
		       "the receivers over the last %u ms, in fabric frame "
		       "bits (payload + %d bytes)\n", r->lossless ?
		       "lossless" : "shaped", r->rate_mbps,
		       r->duration_ms, r->size, o->pps ? "paced by --pps" :
		       "each flow offered 1.5x the rate", r->window_ms,
		       FRAME_EXTRA);
	else
		printf("%u packets of %u bytes per flow%s\n", r->packets,
		       r->size, r->multipath ? " (several LIDs per "
		       "destination: flows spread over paths by hash; only "
		       "totals compared)" : "");
}

/* --fail: losses of the flows that crossed the failed cable and others. */
static void print_fail(const struct ftsw_lab_traffic_opts *o,
		       const struct ftsw_lab_traffic_result *r,
		       const struct ftsw_lab_traffic_stage *st)
{
	printf("failure of %s - %s after %u of %u packets per flow (%.1f ms "
	       "into the stage, %u packets/s):\n"
	       "  %" PRIu64 " flows crossed it: %" PRIu64 " packets lost (at "
	       "most %" PRIu64 " per flow, %.1f ms of traffic)\n  %" PRIu32
	       " flows did not: %" PRIu64 " packets lost\n", o->fail_a,
	       o->fail_b, o->fail_at, r->packets, st->fail_ms, o->pps,
	       st->crossed, st->crossed_lost, st->crossed_max_lost,
	       o->pps ? st->crossed_max_lost * 1e3 * st->nflows / o->pps : 0.0,
	       st->nflows - (uint32_t)st->crossed, st->other_lost);
}

static void print_flow(const struct ftsw_lab_flow_rate *r, double rate_mbps)
{
	char link[32] = "-", pred[16] = "-";

	if (r->share > 0) {
		snprintf(link, sizeof(link), "s%" PRIu32 ":%u", r->hot_sw,
			 r->hot_port);
		snprintf(pred, sizeof(pred), "%.3f", rate_mbps / r->share);
	}
	printf("  h%-4" PRIu32 " -> h%-4" PRIu32 " %-10s %5.3g %9s %9.3f "
	       "%9.3f\n", r->src, r->dst, link, r->share > 0 ? r->share : 0,
	       pred, r->offered, r->mbps);
}

static void print_stage(const struct ftsw_lab_traffic_opts *o,
			const struct lab_traffic_show *show,
			const struct ftsw_lab_traffic_result *r,
			const struct ftsw_lab_traffic_stage *st)
{
	uint32_t f;

	if (o->fail_a)
		print_fail(o, r, st);
	if (!(show->per_stage || (r->rate_mode && (cli.verbose ||
	    (r->pattern_stages == 1 && st->nflows <= 32)))))
		return;
	printf("stage %u (%s): %" PRIu32 " flows, %" PRIu64 " sent, %" PRIu64
	       " received, busiest port carries %.3g flows\n", st->stage,
	       st->name, st->nflows, st->sent, st->received, st->max_flows);
	if (!r->rate_mode)
		return;
	printf("  %-14s %-10s %5s %9s %9s %9s\n", "flow", "busiest", "flows",
	       "predicted", "offered", "measured");
	for (f = 0; f < st->nflows; f++)
		print_flow(&r->rates[st->first_rate + f], r->rate_mbps);
	printf("  (Mbit/s; predicted: rate / flows on the busiest shaped "
	       "link)\n");
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The groups, by increasing share, into *out (malloc): their number. */
static size_t share_groups(const struct ftsw_lab_flow_rate *fr, size_t nfr,
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

static void rate_summary_text(const struct ftsw_lab_traffic_result *r)
{
	struct share_group *g;
	size_t ng = share_groups(r->rates, r->nrates, &g), i;

	for (i = 0; i < ng; i++) {
		double avg = g[i].sum / g[i].flows;

		if (g[i].share > 0)
			printf("  %" PRIu64 " flows with %.3g on their busiest "
			       "shaped link: predicted %.3f, measured "
			       "%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n",
			       g[i].flows, g[i].share,
			       r->rate_mbps / g[i].share, g[i].min, avg,
			       g[i].max);
		else
			printf("  %" PRIu64 " flows %s: measured "
			       "%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n",
			       g[i].flows, g[i].share < 0 ? "over several "
			       "paths (the kernel picks one by flow hash)" :
			       "crossing no shaped link", g[i].min, avg,
			       g[i].max);
	}
	free(g);
}

/* "shares": the groups as JSON (in an open object). */
static void rate_summary_json(const struct ftsw_lab_traffic_result *r)
{
	struct share_group *g;
	size_t ng = share_groups(r->rates, r->nrates, &g), i;

	ftsw_out_open_array("shares");
	for (i = 0; i < ng; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_float("share", NULL, g[i].share);
		ftsw_out_uint("flows", NULL, g[i].flows);
		if (g[i].share > 0)
			ftsw_out_float("predicted_mbps", NULL,
				       r->rate_mbps / g[i].share);
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

static void print_json_flows(const struct ftsw_lab_traffic_result *r)
{
	size_t i;

	ftsw_out_float("rate_mbps", NULL, r->rate_mbps);
	ftsw_out_uint("duration_ms", NULL, r->duration_ms);
	ftsw_out_uint("window_ms", NULL, r->window_ms);
	ftsw_out_uint("size", NULL, r->size);
	ftsw_out_uint("sender_bound", NULL, r->sender_bound);
	ftsw_out_open_array("flows");
	for (i = 0; i < r->nrates; i++) {
		const struct ftsw_lab_flow_rate *fr = &r->rates[i];

		ftsw_out_open_object(NULL);
		ftsw_out_uint("stage", NULL, fr->stage);
		ftsw_out_uint("src", NULL, fr->src);
		ftsw_out_uint("dst", NULL, fr->dst);
		ftsw_out_float("share", NULL, fr->share);
		if (fr->share > 0) {
			ftsw_out_uint("switch", NULL, fr->hot_sw);
			ftsw_out_uint("port", NULL, fr->hot_port);
			ftsw_out_float("predicted_mbps", NULL,
				       r->rate_mbps / fr->share);
		}
		ftsw_out_float("offered_mbps", NULL, fr->offered);
		ftsw_out_float("mbps", NULL, fr->mbps);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	rate_summary_json(r);
}

/* The run as one JSON document on stdout. */
static void print_json(const struct ftsw_lab_traffic_opts *o,
		       const struct ftsw_lab_traffic_result *r)
{
	uint64_t i;

	ftsw_out_begin(stdout, true);
	ftsw_out_open_object(NULL);
	ftsw_out_str("pattern", NULL, o->pattern);
	ftsw_out_str("analyzer_pattern", NULL, r->pattern_spec);
	ftsw_out_str("order", NULL, r->order_spec);
	ftsw_out_str("mode", NULL, r->rate_mode ? "rate" : "count");
	ftsw_out_uint("stages", NULL, r->nstages);
	ftsw_out_uint("sent", NULL, r->sent);
	ftsw_out_uint("lost", NULL, r->lost);
	ftsw_out_float("max_flows_per_port", NULL, r->max_flows);
	ftsw_out_float("hot_spot_degree", NULL, r->hot_spot_degree);
	ftsw_out_uint("undelivered", NULL, r->undelivered);
	ftsw_out_uint("ports", NULL, r->nports);
	ftsw_out_uint("mismatches", NULL, r->mismatches);
	ftsw_out_bool("exact", NULL, r->exact);
	ftsw_out_bool("multipath", NULL, r->multipath);
	ftsw_out_uint("drops", NULL, r->drops);
	ftsw_out_bool("lossless", NULL, r->lossless);
	ftsw_out_uint("hoq_discards", NULL, r->hoq_discards);
	ftsw_out_uint("life_discards", NULL, r->life_discards);
	ftsw_out_uint("in_wait_ns", NULL, r->in_wait_ns);
	ftsw_out_uint("out_wait_ns", NULL, r->out_wait_ns);
	if (r->rate_mode)
		print_json_flows(r);
	ftsw_out_open_array("links");
	for (i = 0; i < r->nports; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_uint("switch", NULL, r->ports[i].sw);
		ftsw_out_uint("port", NULL, r->ports[i].port);
		ftsw_out_float("flows", NULL, r->ports[i].flows);
		if (!r->rate_mode)
			ftsw_out_float("predicted", NULL, r->ports[i].pred);
		ftsw_out_uint("measured", NULL, r->ports[i].meas);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
}

static void print_verdict(const struct ftsw_lab_traffic_result *r)
{
	if (r->multipath)
		printf("total tx: %" PRIu64 " measured, %.0f expected on "
		       "average; paths chosen by flow hash\n", r->tx_measured,
		       r->tx_predicted);
	else if (r->rate_mode)
		printf("traffic on exactly the model's ports: %s (%" PRIu64
		       " ports, %" PRIu64 " differ)\n", r->mismatches ? "NO" :
		       "yes", r->nports, r->mismatches);
	else
		printf("model == reality: %s (%" PRIu64 " ports, %" PRIu64
		       " differ; %.0f packets predicted, %" PRIu64
		       " counted)\n", r->exact ? "yes" : "NO", r->nports,
		       r->mismatches, r->tx_predicted, r->tx_measured);
}

static void print_text(const struct ftsw_lab_traffic_result *r)
{
	uint64_t show = cli.verbose ? r->nports : 10, i;

	printf("%" PRIu64 " packets sent, %" PRIu64 " lost%s, %" PRIu64
	       " fabric drops; busiest port carries %.3g flows in one stage; "
	       "hot-spot degree %.4g\n", r->sent, r->lost,
	       r->rate_mode ? " (shaped)" : "", r->drops, r->max_flows,
	       r->hot_spot_degree);
	if (r->lossless)
		printf("lossless: lifetime discards HOQ %" PRIu64 ", switch %"
		       PRIu64 "; heads waited %.3f s for an output, %.3f s "
		       "for credit (every port and VL, summed)\n",
		       r->hoq_discards, r->life_discards, r->in_wait_ns / 1e9,
		       r->out_wait_ns / 1e9);
	if (r->undelivered)
		printf("the model delivers no path for %" PRIu64 " flows, "
		       "first: %s\n", r->undelivered, r->first_failure);
	if (r->rate_mode) {
		printf("per-flow throughput at %.3f Mbit/s per fabric link:\n",
		       r->rate_mbps);
		if (r->sender_bound)
			printf("  warning: %" PRIu64 " flows offered less than "
			       "their predicted share (this machine sends too "
			       "slowly for the rate): their throughput is the "
			       "sender's\n", r->sender_bound);
		rate_summary_text(r);
		printf("  %-12s %10s %10s\n", "port", "flows", "measured");
	} else {
		printf("  %-12s %10s %10s\n", "port", "predicted", "measured");
	}
	for (i = 0; i < r->nports && i < show; i++) {
		const struct ftsw_lab_port_load *row = &r->ports[i];
		bool mis = !r->multipath &&
			   (r->rate_mode ? !row->meas != !row->flows :
			    row->pred != (double)row->meas);

		printf("  s%-4" PRIu32 ":%-6u %10.4g %10" PRIu64 "%s\n",
		       row->sw, row->port, r->rate_mode ? row->flows :
		       row->pred, row->meas, mis ? "  MISMATCH" : "");
	}
	if (r->nports > show)
		printf("  ... %" PRIu64 " more ports (-v)\n", r->nports - show);
	print_verdict(r);
}

int lab_traffic_print(const struct ftsw_lab *lab,
		      const struct ftsw_lab_traffic_opts *o,
		      const struct lab_traffic_show *show,
		      const struct ftsw_lab_traffic_result *r,
		      struct ftsw_err *err)
{
	size_t s;

	if (cli.json) {
		print_json(o, r);
	} else {
		print_header(o, r);
		for (s = 0; s < r->nstages; s++)
			print_stage(o, show, r, &r->stages[s]);
		print_text(r);
	}
	if (!show->svg)
		return 0;
	if (traffic_svg(lab, o, r, show->svg, err))
		return -1;
	if (!cli.json)
		printf("link-load picture: %s\n", show->svg);
	return 0;
}
