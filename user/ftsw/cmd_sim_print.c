// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw sim's report of one load point: the row (throughput, latencies,
 * link use), then what -s/--links/--flows and a deadlock add.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "util/output.h"
#include "cli.h"
#include "cmd_sim.h"

static const char *swname(const struct ftsw_topo *t, uint32_t sw, char *buf,
			  size_t sz)
{
	const char *d = t->nodes[t->switches[sw]].desc;

	if (d && *d)
		return d;
	snprintf(buf, sz, "switch %u", sw);
	return buf;
}

/* The utilisation of the measured window: maximum, average, per VL. */
static void point_util(const struct ftsw_topo *t,
		       const struct ftsw_sim_result *x)
{
	double *vl = calloc(x->vls, sizeof(double));
	double maxu = 0, sumu = 0;
	uint32_t p, used = 0, nl = 0;
	unsigned v;

	for (p = 0; p < x->nports; p++) {
		uint64_t tot = 0;
		double u;

		if (t->ports[p].peer == FTSW_NONE)
			continue;
		for (v = 0; v < x->vls; v++) {
			tot += x->link_flits[(size_t)p * x->vls + v];
			vl[v] += x->link_flits[(size_t)p * x->vls + v];
		}
		u = x->window ? (double)tot / x->window : 0;
		nl++;
		used += tot > 0;
		sumu += u;
		if (u > maxu)
			maxu = u;
	}
	ftsw_out_float("link_util_max", " %6.3f", maxu);
	ftsw_out_float("link_util_avg", " %6.3f", nl ? sumu / nl : 0);
	ftsw_out_uint("links_used", NULL, used);
	ftsw_out_open_array("vl_util");
	for (v = 0; v < x->vls; v++)
		ftsw_out_float(NULL, v ? "/%.3f" : " %.3f",
			       nl && x->window ? vl[v] / nl / x->window : 0);
	ftsw_out_close_array();
	free(vl);
}

/* The cycle of buffers a deadlock left, and the CDG's word on it. */
static void point_deadlock(const struct ftsw_routing *r,
			   const struct ftsw_sim_result *x)
{
	const struct ftsw_topo *t = r->topo;
	char nb[64];
	unsigned k;

	ftsw_out_uint("deadlock_cycle", "      DEADLOCK at cycle %" PRIu64,
		      x->deadlock_at);
	ftsw_out_text(": %u buffers wait on each other\n", x->ncycle);
	ftsw_out_open_array("deadlock");
	for (k = 0; k < x->ncycle; k++) {
		const struct ftsw_sim_wait *w = &x->cycle[k];

		ftsw_out_open_object(NULL);
		ftsw_out_str("switch", "        %s", swname(t, w->sw, nb,
							    sizeof(nb)));
		ftsw_out_uint("switch_index", NULL, w->sw);
		ftsw_out_uint("in_port", " in port %" PRIu64, w->in_port);
		ftsw_out_uint("vl", " VL %" PRIu64, w->vl);
		ftsw_out_uint("out_port", " -> out port %" PRIu64 "\n",
			      w->out_port);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	if (x->ncycle) {
		char why[200];
		int c = ftsw_sim_cycle_check(r, x->cycle, x->ncycle, x->vls,
					     why, sizeof(why));

		ftsw_out_str("cdg_cycle", "      CDG cross-check: %s",
			     c > 0 ? "yes" : c == 0 ? "no" : "not checked");
		ftsw_out_str("cdg_why", " (%s)\n", why);
	}
}

/* --links: every cabled port's per-VL utilisation. */
static void point_links(const struct ftsw_topo *t,
			const struct ftsw_sim_result *x)
{
	uint32_t p;
	unsigned v;

	ftsw_out_open_array("links");
	for (p = 0; p < x->nports; p++) {
		uint32_t node;

		if (t->ports[p].peer == FTSW_NONE)
			continue;
		for (node = 0; node + 1 < t->nnodes &&
		     t->nodes[node + 1].first_port <= p; node++)
			;
		ftsw_out_open_object(NULL);
		ftsw_out_str("node", "      %-20s",
			     t->nodes[node].desc ? t->nodes[node].desc : "?");
		ftsw_out_uint("port", " port %-3" PRIu64,
			      p - t->nodes[node].first_port + 1);
		/* a host's cable: its delivered flits (per-flow throughput) */
		if (t->nodes[t->ports[p].peer].kind == FTSW_HOST)
			ftsw_out_uint("to_host", " to h%-4" PRIu64,
				      t->nodes[t->ports[p].peer].index);
		ftsw_out_open_array("vl_util");
		for (v = 0; v < x->vls; v++)
			ftsw_out_float(NULL, " %.3f", x->window ?
				       (double)x->link_flits[(size_t)p *
							     x->vls + v] /
				       x->window : 0);
		ftsw_out_close_array();
		ftsw_out_text("\n");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

/* Congestion control and adaptive routing's counters of a point. */
static void point_cm(const struct ftsw_topo *t, const struct ftsw_sim_opts *so,
		     const struct ftsw_sim_result *x)
{
	uint32_t h;

	if (so->cc && so->cc->congestion_control) {
		ftsw_out_uint("cc_marked", "      congestion control: %" PRIu64
			      " packets marked FECN", x->cc_marked);
		ftsw_out_uint("cc_becns", ", %" PRIu64 " BECNs", x->cc_becns);
		ftsw_out_uint("cc_max_ccti", ", CCTI up to %" PRIu64,
			      x->cc_max_ccti);
		ftsw_out_uint("cc_waits", ", %" PRIu64 " waits for the "
			      "inter-packet delay", x->cc_waits);
		ftsw_out_uint("cc_triggers", ", %" PRIu64 " trigger events\n",
			      x->cc_triggers);
	}
	if (!so->adaptive)
		return;
	ftsw_out_uint("ar_choices", "      adaptive routing: %" PRIu64
		      " choices", x->ar_choices);
	ftsw_out_uint("ar_moved", ", %" PRIu64 " off the static port",
		      x->ar_moved);
	if (!x->ooo) {
		ftsw_out_text(" (order not counted: more than 4096 hosts)\n");
		return;
	}
	ftsw_out_uint("out_of_order", ", %" PRIu64 " packets out of order",
		      x->ooo_total);
	ftsw_out_float("reorder_rate", " (%.4f of those delivered)\n",
		       x->pkts_delivered ? (double)x->ooo_total /
		       (double)x->pkts_delivered : 0);
	ftsw_out_open_array("out_of_order_by_host");
	for (h = 0; h < t->nhosts; h++)
		ftsw_out_uint(NULL, NULL, x->ooo[h]);
	ftsw_out_close_array();
}

/*
 * A latency column: the number, or "-" when there is none (no measured
 * message delivered; null in JSON).
 */
static void latency(const char *key, int width, const char *fmt, double v)
{
	if (isfinite(v)) {
		ftsw_out_float(key, fmt, v);
		return;
	}
	ftsw_out_float(key, NULL, v);
	ftsw_out_text(" %*s", width, "-");
}

/* --flows: what each destination received in the point's window. */
static void point_flows(const struct ftsw_topo *t,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_result *x,
			const struct ftsw_sim_lab_map *lab)
{
	struct ftsw_sim_flow *f;
	struct ftsw_err err;
	char who[48];
	size_t n, i;

	if (ftsw_sim_flows(t, tr, x, &f, &n, &err)) {
		cli_err("%s", err.msg);
		return;
	}
	ftsw_out_text("      flows (accepted into the destination, flits per "
		      "cycle%s):\n", lab->rate_bits ? "; bit/s of frames" : "");
	ftsw_out_open_array("flows");
	for (i = 0; i < n; i++) {
		ftsw_out_open_object(NULL);
		if (f[i].src != FTSW_NONE) {
			snprintf(who, sizeof(who), "h%u -> h%u", f[i].src,
				 f[i].dst);
			ftsw_out_uint("src", NULL, f[i].src);
		} else {
			snprintf(who, sizeof(who), "%u sources -> h%u",
				 f[i].sources, f[i].dst);
			ftsw_out_null("src", NULL);
		}
		ftsw_out_text("        %-22s", who);
		ftsw_out_uint("dst", NULL, f[i].dst);
		ftsw_out_uint("sources", NULL, f[i].sources);
		ftsw_out_float("accepted", " %8.4f", f[i].accepted);
		if (lab->rate_bits)
			ftsw_out_float("accepted_bits", " %10.4g",
				       ftsw_sim_lab_bits(lab, f[i].accepted));
		ftsw_out_text("\n");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	free(f);
}

void sim_print_point(const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_result *x, const struct sopts *o)
{
	const struct ftsw_sim_lab_map *lab = &o->lab;

	ftsw_out_open_object(NULL);
	ftsw_out_float("load", "  %6.3f", x->load);
	ftsw_out_float("offered", " %8.4f", x->offered);
	ftsw_out_float("accepted", " %8.4f", x->accepted);
	if (lab->rate_bits) {
		ftsw_out_float("offered_bits", NULL,
			       ftsw_sim_lab_bits(lab, x->offered));
		ftsw_out_float("accepted_bits", " %10.4g",
			       ftsw_sim_lab_bits(lab, x->accepted));
	}
	latency("msg_latency_avg", 9, " %9.1f", x->msg_lat_avg);
	latency("msg_latency_p50", 8, " %8.0f", x->msg_lat_p50);
	latency("msg_latency_p99", 8, " %8.0f", x->msg_lat_p99);
	latency("pkt_latency_avg", 9, " %9.1f", x->pkt_lat_avg);
	latency("pkt_latency_p50", 8, " %8.0f", x->pkt_lat_p50);
	latency("pkt_latency_p99", 8, " %8.0f", x->pkt_lat_p99);
	ftsw_out_float("net_latency_avg", NULL, x->net_lat_avg);
	ftsw_out_uint("messages_measured", NULL, x->msgs_measured);
	ftsw_out_uint("messages_delivered", NULL, x->msgs_done);
	ftsw_out_uint("cycles", NULL, x->cycles);
	ftsw_out_uint("flit_hops", NULL, x->flit_hops);
	ftsw_out_uint("packets_dropped", NULL, x->pkts_dropped);
	ftsw_out_uint("conservation_checks", NULL, x->samples);
	ftsw_out_float("seconds", " %7.2f", x->seconds);
	ftsw_out_float("cpu_seconds", NULL, x->cpu_seconds);
	ftsw_out_float("flit_hops_per_cpu_s", NULL, x->cpu_seconds > 0 ?
		       x->flit_hops / x->cpu_seconds : 0);
	ftsw_out_uint("threads", NULL, x->threads);
	ftsw_out_bool("phased_fallback", NULL, x->fell_back);
	point_util(r->topo, x);
	if (x->note[0])
		ftsw_out_str("note", "\n      %s", x->note);
	if (x->fell_back)
		ftsw_out_text("\n      the phased engine found no memory "
			      "(ulimit -v?): the event engine ran this point "
			      "on one thread, same numbers");
	ftsw_out_text("\n");
	point_cm(r->topo, &o->so, x);
	if (x->deadlock)
		point_deadlock(r, x);
	if (o->links)
		point_links(r->topo, x);
	if (o->flows)
		point_flows(r->topo, tr, x, lab);
	ftsw_out_close_object();
}
