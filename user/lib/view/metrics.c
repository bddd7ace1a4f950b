// SPDX-License-Identifier: GPL-2.0
/*
 * /metrics: the snapshot in Prometheus' text exposition format (0.0.4).
 * One series per cabled switch port with the labels the infiniband-exporter
 * and its dashboards use (component, local_guid, local_name, local_port,
 * remote_guid, remote_name, remote_port) and ftsw's own (lab, local_node,
 * remote_node: s3, h5); its counters under the exporter's names where they
 * apply (infiniband_portxmitpkts_total...: the port's transmit counters,
 * data in 4-byte words as InfiniBand counts it), the rest under ftsw_;
 * per VL in lossless mode; the fabric manager's and OpenSM's state. The
 * labels are made once per port (the model), the text once per sample.
 * A new counter family is one row of a table below.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_int.h"

/* A label value: \, " and newline escaped, bytes not UTF-8 as '?'. */
static void label_value(struct ftsw_vbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		unsigned need = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 :
				(*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ?
				3 : 9, k;

		for (k = 1; need < 9 && k <= need; k++)
			if ((p[k] & 0xc0) != 0x80)
				need = 9;
		if (need == 9) {
			ftsw_vbuf_put(b, "?", 1);
			p++;
		} else if (*p == '\\' || *p == '"') {
			ftsw_vbuf_put(b, "\\", 1);
			ftsw_vbuf_put(b, (const char *)p++, 1);
		} else if (*p == '\n') {
			ftsw_vbuf_put(b, "\\n", 2);
			p++;
		} else {
			ftsw_vbuf_put(b, (const char *)p, need + 1);
			p += need + 1;
		}
	}
}

/* The labels of each cabled switch port, made once. 0 or -ENOMEM. */
int ftsw_view_labels(struct ftsw_view *v)
{
	const struct ftsw_topo *t = v->t;
	uint32_t i;
	unsigned q;

	v->labels = calloc(t->nports + 1, sizeof(*v->labels));
	v->label_len = calloc(t->nports + 1, sizeof(*v->label_len));
	if (!v->labels || !v->label_len)
		return -1;
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];

		for (q = 1; q <= t->nodes[node].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, node, q);
			struct ftsw_vbuf b = { 0 };

			if (x->peer == FTSW_NONE)
				continue;
			ftsw_vbuf_printf(&b, "component=\"switch\",lab=\"");
			label_value(&b, v->name);
			ftsw_vbuf_printf(&b, "\",local_guid=\"%s\",local_name=\"",
					 v->node[node].guid);
			label_value(&b, t->nodes[node].desc);
			ftsw_vbuf_printf(&b, "\",local_node=\"%s\",local_port="
					 "\"%u\",remote_guid=\"%s\",remote_name=\"",
					 v->node[node].name, q,
					 v->node[x->peer].guid);
			label_value(&b, t->nodes[x->peer].desc);
			ftsw_vbuf_printf(&b, "\",remote_node=\"%s\",remote_port="
					 "\"%u\"", v->node[x->peer].name,
					 x->peer_port);
			if (b.oom) {
				ftsw_vbuf_free(&b);
				return -1;
			}
			v->labels[ftsw_link_id(t, node, q)] = b.p;
			v->label_len[ftsw_link_id(t, node, q)] = b.n;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ families */

enum kind { COUNTER, GAUGE };

struct family {
	const char *name, *help;
	enum kind kind;
	double (*value)(const struct ftsw_view_port *p);
};

static double xmitpkts(const struct ftsw_view_port *p) { return (double)p->txp; }
static double rcvpkts(const struct ftsw_view_port *p) { return (double)p->rxp; }
static double xmitdata(const struct ftsw_view_port *p) { return p->txb / 4.0; }
static double rcvdata(const struct ftsw_view_port *p) { return p->rxb / 4.0; }
static double port_up(const struct ftsw_view_port *p)
{
	return p->state == FTSW_VIEW_UP;
}
static double drops(const struct ftsw_view_port *p) { return (double)p->drops; }

static const struct family port_families[] = {
	{ "infiniband_portxmitpkts_total", "Packets the port transmitted on "
	  "all VLs.", COUNTER, xmitpkts },
	{ "infiniband_portrcvpkts_total", "Packets the port received on all "
	  "VLs.", COUNTER, rcvpkts },
	{ "infiniband_portxmitdata_total", "Octets the port transmitted on "
	  "all VLs, divided by 4 (as InfiniBand's PortXmitData).", COUNTER,
	  xmitdata },
	{ "infiniband_portrcvdata_total", "Octets the port received on all "
	  "VLs, divided by 4 (as InfiniBand's PortRcvData).", COUNTER,
	  rcvdata },
	{ "ftsw_port_up", "1 when the port is administratively up and its "
	  "link is up.", GAUGE, port_up },
	{ "ftsw_port_drops_total", "Frames the port dropped, every reason "
	  "(ftsw -s port show names them).", COUNTER, drops },
};

struct vl_family {
	const char *name, *help;
	enum kind kind;
	double (*value)(const struct ftsw_view_vl *y);
};

static double vl_in(const struct ftsw_view_vl *y) { return y->in_bytes; }
static double vl_out(const struct ftsw_view_vl *y) { return y->out_bytes; }
static double vl_credits(const struct ftsw_view_vl *y) { return y->credits; }
static double vl_cwait(const struct ftsw_view_vl *y)
{
	return y->out_wait_ns / 1e9;
}
static double vl_iwait(const struct ftsw_view_vl *y)
{
	return y->in_wait_ns / 1e9;
}
static double vl_hoq(const struct ftsw_view_vl *y) { return (double)y->hoq; }
static double vl_life(const struct ftsw_view_vl *y) { return (double)y->life; }

static const struct vl_family vl_families[] = {
	{ "ftsw_port_vl_input_buffer_bytes", "Bytes in the port's input "
	  "buffer of the VL.", GAUGE, vl_in },
	{ "ftsw_port_vl_output_queue_bytes", "Bytes in the port's output "
	  "queue of the VL.", GAUGE, vl_out },
	{ "ftsw_port_vl_credits", "64-byte blocks the far input buffer of "
	  "the VL grants now.", GAUGE, vl_credits },
	{ "ftsw_port_vl_credit_wait_seconds_total", "Time the output head of "
	  "the VL waited for credit.", COUNTER, vl_cwait },
	{ "ftsw_port_vl_input_wait_seconds_total", "Time the input head of the "
	  "VL waited for a full output.", COUNTER, vl_iwait },
	{ "ftsw_port_vl_hoq_discards_total", "Frames discarded at the head of "
	  "the output queue (HOQLife).", COUNTER, vl_hoq },
	{ "ftsw_port_vl_lifetime_discards_total", "Frames discarded for "
	  "outliving the switch lifetime.", COUNTER, vl_life },
};

static void header(struct ftsw_vbuf *b, const char *name, const char *help,
		   enum kind kind)
{
	ftsw_vbuf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
			 kind == COUNTER ? "counter" : "gauge");
}

/* The value: an integer in decimal without printf, else ftsw_vbuf_num. */
static void value(struct ftsw_vbuf *b, double x)
{
	char d[24];
	int n = sizeof(d);
	uint64_t u;

	if (!(x >= 0 && x < 1e18) || x != (double)(uint64_t)x) {
		ftsw_vbuf_num(b, x);
		return;
	}
	u = (uint64_t)x;
	do {
		d[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	ftsw_vbuf_put(b, d + n, sizeof(d) - n);
}

/*
 * One series: NAME{LABELS EXTRA} VALUE. Tens of thousands of them on a
 * 1024-host lab: copied, not formatted (labels are made once, their
 * lengths known).
 */
static void sample_n(struct ftsw_vbuf *b, const char *name, size_t nl,
		     const char *labels, size_t ll, const char *extra,
		     size_t el, double x)
{
	char *p;

	if (!ftsw_vbuf_reserve(b, nl + ll + el + 48))
		return;
	p = b->p + b->n;
	memcpy(p, name, nl);
	p += nl;
	*p++ = '{';
	memcpy(p, labels, ll);
	p += ll;
	memcpy(p, extra, el);
	p += el;
	*p++ = '}';
	*p++ = ' ';
	b->n = (size_t)(p - b->p);
	value(b, x);
	ftsw_vbuf_put(b, "\n", 1);
}

static void sample(struct ftsw_vbuf *b, const char *name, const char *labels,
		   const char *extra, double x)
{
	sample_n(b, name, strlen(name), labels, strlen(labels), extra,
		 strlen(extra), x);
}

static void ports(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	const struct ftsw_view_snap *s = &v->snap;
	char extra[16];
	size_t f, nl, el;
	uint32_t r, i;

	for (f = 0; f < sizeof(port_families) / sizeof(port_families[0]); f++) {
		nl = strlen(port_families[f].name);
		header(b, port_families[f].name, port_families[f].help,
		       port_families[f].kind);
		for (r = 0; r < v->t->nports; r++)
			if (v->labels[r] && s->p[r].state != FTSW_VIEW_UNBOUND)
				sample_n(b, port_families[f].name, nl,
					 v->labels[r], v->label_len[r], "", 0,
					 port_families[f].value(&s->p[r]));
	}
	if (!s->lossless)
		return;
	for (f = 0; f < sizeof(vl_families) / sizeof(vl_families[0]); f++) {
		nl = strlen(vl_families[f].name);
		header(b, vl_families[f].name, vl_families[f].help,
		       vl_families[f].kind);
		for (r = 0; r < v->t->nports; r++) {
			const struct ftsw_view_port *p = &s->p[r];

			if (!v->labels[r])
				continue;
			for (i = 0; i < p->nvl && p->vl_first + i < s->nvls; i++) {
				const struct ftsw_view_vl *y =
					&s->vls[p->vl_first + i];

				el = (size_t)snprintf(extra, sizeof(extra),
						      ",vl=\"%u\"", y->vl);
				sample_n(b, vl_families[f].name, nl, v->labels[r],
					 v->label_len[r], extra, el,
					 vl_families[f].value(y));
			}
		}
	}
}

static void scalar(struct ftsw_vbuf *b, const char *lab, const char *name,
		   const char *help, enum kind kind, double x)
{
	header(b, name, help, kind);
	sample(b, name, lab, "", x);
}

static void fabric(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	const struct ftsw_view_snap *s = &v->snap;
	const struct ftsw_view_mgr *m = &v->mgr;
	struct ftsw_vbuf lb = { 0 };
	const char *lab;
	char extra[48];
	int d;

	ftsw_vbuf_put(&lb, "lab=\"", 5);
	label_value(&lb, v->name);
	ftsw_vbuf_put(&lb, "\"", 1);
	lab = lb.p ? lb.p : "";
	scalar(b, lab, "ftsw_fabric_generation", "The fabric's commit "
	       "generation.", GAUGE, (double)s->generation);
	scalar(b, lab, "ftsw_fabric_lossless", "1 when the fabric is in "
	       "lossless mode.", GAUGE, s->lossless);
	header(b, "ftsw_fabric_drops_total", "Frames the fabric dropped, by "
	       "reason.", COUNTER);
	for (d = 1; d <= FTSW_DROP_MAX; d++) {
		snprintf(extra, sizeof(extra), ",reason=\"%s\"",
			 ftsw_drop_name(d));
		sample(b, "ftsw_fabric_drops_total", lab, extra,
		       (double)s->drops[d]);
	}
	scalar(b, lab, "ftsw_fabric_buffer_cycles", "Cycles of full input "
	       "buffers waiting on each other (as lab waits finds them).",
	       GAUGE, (double)s->cycles.n);
	scalar(b, lab, "ftsw_fabric_credit_waiting_outputs", "Output VLs "
	       "waiting for credit now.", GAUGE, s->nwaiting);
	scalar(b, lab, "ftsw_fm_up", "1 while the lab's fabric manager runs.",
	       GAUGE, m->fm_running);
	if (m->fm_running) {
		scalar(b, lab, "ftsw_fm_sweeps_total", "Sweeps of the fabric "
		       "manager.", COUNTER, (double)m->fm.sweeps);
		scalar(b, lab, "ftsw_fm_port_events_total", "Port events the "
		       "fabric manager received.", COUNTER,
		       (double)m->fm.events);
		scalar(b, lab, "ftsw_fm_overruns_total", "Event overruns of the "
		       "fabric manager.", COUNTER, (double)m->fm.overruns);
		scalar(b, lab, "ftsw_fm_cables", "Cables the fabric manager "
		       "discovered.", GAUGE, (double)m->fm.cables);
		scalar(b, lab, "ftsw_fm_cables_usable", "Cables it routes over.",
		       GAUGE, (double)m->fm.cables_usable);
		scalar(b, lab, "ftsw_fm_unreachable_pairs", "Ordered host pairs "
		       "without a path after its last sweep.", GAUGE,
		       (double)m->fm.unreachable_pairs);
	}
	scalar(b, lab, "ftsw_sm_up", "1 while the lab's OpenSM runs.", GAUGE,
	       m->sm_running);
	if (m->sm) {
		scalar(b, lab, "ftsw_sm_sweeps_total", "OpenSM's SUBNET UP lines "
		       "(heavy sweeps done).", COUNTER, (double)m->sm_sweeps);
		scalar(b, lab, "ftsw_sm_traps_total", "Traps OpenSM received "
		       "(its log).", COUNTER, (double)m->sm_traps);
	}
	scalar(b, lab, "ftsw_view_samples_total", "Samples the view took.",
	       COUNTER, (double)v->samples);
	scalar(b, lab, "ftsw_view_sample_seconds", "How long the last sample "
	       "took.", GAUGE, s->sample_ms / 1e3);
	ftsw_vbuf_free(&lb);
}

void ftsw_view_metrics(const struct ftsw_view *v, struct ftsw_vbuf *b)
{
	ftsw_vbuf_reserve(b, v->metrics_size + (v->metrics_size >> 3));
	if (v->snap.p)
		ports(v, b);
	fabric(v, b);
}
