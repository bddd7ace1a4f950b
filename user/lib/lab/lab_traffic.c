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
 * a flow whose busiest shaped link carries k flows.
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

#include "analyze/analyze.h"
#include "util/output.h"
#include "lab/lab.h"

#define LAB_UDP_PORT	7777
#define LAB_UDP_MAGIC	0x66747375u
#define LAB_UDP_WINDOW	512
#define LAB_UDP_MAX	1400	/* payload: fits the hosts' MTU of 1500 */
/*
 * Bytes a datagram adds to its payload on a fabric link, i.e. what tbf
 * counts there: UDP, IPv4 and Ethernet headers and the fabric header.
 */
#define LAB_FRAME_EXTRA	(8 + 20 + 14 + FTSW_HLEN)
/* Shaped lab: what each flow offers, times the link rate. */
#define LAB_RATE_OFFER	1.5
#define LAB_RATE_DURATION_MS	2500

/* One flow of the current stage. */
struct lflow {
	uint32_t src, dst;
	unsigned packets;	/* count mode: datagrams to send */
	uint64_t sent, rx;
	uint64_t win_bytes;	/* rate mode: frame bytes received in the window */
	/*
	 * Rate mode: flows on the busiest shaped link of the path (0: the
	 * path crosses none; -1: several paths, the kernel picks by hash).
	 */
	double share;
	uint32_t hot_sw;
	unsigned hot_port;
	bool affected;		/* --fail: the path crosses the failed cable */
};

/* A per-flow throughput result (rate mode), kept for the summary. */
struct fres {
	unsigned stage;
	uint32_t src, dst;
	double share, offered, mbps;
	uint32_t hot_sw;
	unsigned hot_port;
};

struct udp_hdr {
	uint32_t magic;
	uint32_t flow;
	uint32_t stage;
};

struct traffic {
	struct ftsw_lab *lab;
	const struct ftsw_lab_traffic_opts *o;
	uint32_t n;
	int *fd;		/* per host */
	struct pollfd *pfd;
	struct lflow *fl;	/* flows of the current stage */
	uint32_t nf;
	uint32_t *turn;		/* rate mode: this round's sending order */
	uint64_t rng;
	uint64_t rx_total;
	uint32_t stage;
	uint64_t win_a, win_b;	/* rate window [a, b) in us; 0: none */
	char *buf;
};

static void drain(struct traffic *tr, int ms)
{
	uint64_t now;
	bool in_win;
	uint32_t h;

	if (poll(tr->pfd, tr->n, ms) <= 0)
		return;
	now = ftsw_now_us();
	in_win = now >= tr->win_a && now < tr->win_b;
	for (h = 0; h < tr->n; h++) {
		if (!(tr->pfd[h].revents & POLLIN))
			continue;
		for (;;) {
			ssize_t k = recv(tr->fd[h], tr->buf, 2048, MSG_DONTWAIT);
			const struct udp_hdr *u = (const struct udp_hdr *)tr->buf;
			struct lflow *f;

			if (k < 0)
				break;
			if ((size_t)k < sizeof(*u) || u->magic != LAB_UDP_MAGIC ||
			    u->stage != tr->stage || u->flow >= tr->nf)
				continue;
			f = &tr->fl[u->flow];
			f->rx++;
			tr->rx_total++;
			if (in_win)
				f->win_bytes += (uint64_t)k + LAB_FRAME_EXTRA;
		}
	}
}

static int send_one(struct traffic *tr, uint32_t f, unsigned size)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_port = htons(LAB_UDP_PORT),
		.sin_addr.s_addr = ftsw_lab_host_ip(tr->fl[f].dst),
	};
	char pkt[LAB_UDP_MAX];
	struct udp_hdr *u = (struct udp_hdr *)pkt;

	memset(pkt, 0, size);
	u->magic = LAB_UDP_MAGIC;
	u->flow = f;
	u->stage = tr->stage;
	if (sendto(tr->fd[tr->fl[f].src], pkt, size, MSG_DONTWAIT,
		   (struct sockaddr *)&to, sizeof(to)) != (ssize_t)size)
		return 0;
	tr->fl[f].sent++;
	return 1;
}

static int open_sockets(struct traffic *tr, struct ftsw_err *err)
{
	uint32_t h;

	ftsw_lab_raise_nofile();
	for (h = 0; h < tr->n; h++) {
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_port = htons(LAB_UDP_PORT) };
		int bufsz = 4 << 20;

		tr->fd[h] = ftsw_lab_host_socket(tr->lab, h, SOCK_DGRAM,
						 IPPROTO_UDP, err);
		if (tr->fd[h] < 0)
			return -1;
		if (bind(tr->fd[h], (struct sockaddr *)&a, sizeof(a)) < 0) {
			ftsw_err_set(err, "host %" PRIu32 ": bind UDP port %d: %s",
				     h, LAB_UDP_PORT, strerror(errno));
			return -1;
		}
		setsockopt(tr->fd[h], SOL_SOCKET, SO_RCVBUF, &bufsz,
			   sizeof(bufsz));
		tr->pfd[h].fd = tr->fd[h];
		tr->pfd[h].events = POLLIN;
	}
	return 0;
}

/* ------------------------------------------------------------ the model */

/*
 * The analyzer's specs for the lab's names: all2all and cps are the shift
 * sequence (one stage per shift 1..N-1); a random pattern or order that
 * names no seed gets --seed's.
 */
static void pattern_spec(const char *p, uint64_t seed, char *buf, size_t sz)
{
	const char *c = strchr(p, ':');

	if (!strcmp(p, "all2all") || !strcmp(p, "cps"))
		snprintf(buf, sz, "shift");
	else if (!strcmp(p, "perm") || !strcmp(p, "bisect"))
		snprintf(buf, sz, "%s:%" PRIu64, p, seed);
	else if ((!strncmp(p, "uniform:", 8) || !strncmp(p, "cluster:", 8)) &&
		 !strchr(c + 1, ':'))
		snprintf(buf, sz, "%s:%" PRIu64, p, seed);
	else
		snprintf(buf, sz, "%s", p);
}

static void order_spec(const char *o, uint64_t seed, char *buf, size_t sz)
{
	if (!strcmp(o, "random") || !strcmp(o, "shuffle") ||
	    !strcmp(o, "contig-random"))
		snprintf(buf, sz, "%s:%" PRIu64, o, seed);
	else
		snprintf(buf, sz, "%s", o);
}

struct olist_arg {
	struct ftsw_offset_list *l;
	unsigned lmc;
	uint32_t nhosts;
};

static int olist_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct olist_arg *a = arg;
	uint32_t h;

	if (!pi->edge || (pi->base_lid >> a->lmc) == 0)
		return 0;
	h = (pi->base_lid >> a->lmc) - 1;
	if (h >= a->nhosts)
		return 0;
	a->l[h].n = pi->n_offsets < sizeof(a->l[h].off) ? pi->n_offsets :
		    (uint8_t)sizeof(a->l[h].off);
	memcpy(a->l[h].off, pi->offsets, a->l[h].n);
	return 0;
}

/*
 * Each source's offset list as its edge port holds it; r's policies made
 * to agree (allowed offsets, the one offset when there is one), so that
 * per-flow traces use the kernel's offsets too. *multipath: some source
 * spreads its flows over several offsets (by flow hash).
 */
static int read_offset_lists(struct ftsw_lab *lab, struct ftsw_routing *r,
			     struct ftsw_offset_list *l, bool *multipath,
			     struct ftsw_err *err)
{
	struct olist_arg a = { .l = l, .lmc = r->lmc, .nhosts = r->nhosts };
	uint32_t h;

	if (ftsw_nl_port_dump(lab->nl, -1, olist_cb, &a)) {
		ftsw_err_set(err, "lab %s: port dump: %s", lab->name,
			     ftsw_nl_error(lab->nl));
		return -1;
	}
	*multipath = false;
	for (h = 0; h < r->nhosts; h++) {
		uint8_t off[128];
		double w[128];
		unsigned k, n = ftsw_offsets_weighted(&l[h], r->lmc, off, w);
		struct ftsw_path_policy *pol = &r->policy[h];

		if (!n)
			continue;	/* no edge port: the model says so */
		pol->allowed[0] = pol->allowed[1] = 0;
		for (k = 0; k < n; k++)
			pol->allowed[off[k] / 64] |= 1ULL << (off[k] % 64);
		pol->fixed_offset = n == 1 ? off[0] : FTSW_OFFSET_ANY;
		*multipath |= n > 1;
	}
	return 0;
}

/* Is port p of switch sw cabled to a switch (shaped by lab up --rate)? */
static bool is_link_port(const struct ftsw_topo *t, uint32_t sw, unsigned p)
{
	uint32_t node = t->switches[sw];
	const struct ftsw_port *x;

	if (!p || p > t->nodes[node].nports)
		return false;
	x = ftsw_port(t, node, p);
	return x->peer != FTSW_NONE && t->nodes[x->peer].kind == FTSW_SWITCH;
}

/*
 * Per flow, from the analyzer's trace of its path: the most flows on a
 * shaped (switch-to-switch) link of it, and whether it crosses the cable
 * fail_a - fail_b (a, b: nodes, FTSW_NONE when no failure is planned).
 */
static void flow_paths(const struct ftsw_routing *r,
		       const struct ftsw_offset_list *lists, const double *flows,
		       struct lflow *fl, uint32_t nf, uint32_t a, uint32_t b,
		       struct ftsw_path *p)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t f;

	for (f = 0; f < nf; f++) {
		uint8_t off[128];
		double w[128];
		unsigned n = ftsw_offsets_weighted(&lists[fl[f].src], r->lmc,
						   off, w), k, i;

		fl[f].share = 0;
		fl[f].hot_sw = 0;
		fl[f].hot_port = 0;
		fl[f].affected = false;
		if (n > 1)
			fl[f].share = -1;
		for (k = 0; k < n; k++) {
			uint32_t hn = t->hosts[fl[f].src];

			if (ftsw_trace_path(r, fl[f].src, fl[f].dst, off[k], 0, p))
				continue;
			/* the source's own cable: host -> leaf */
			if ((hn == a && t->switches[p->hops[0].sw] == b) ||
			    (hn == b && t->switches[p->hops[0].sw] == a))
				fl[f].affected = true;
			for (i = 0; i < p->nhops; i++) {
				uint32_t sw = p->hops[i].sw;
				uint32_t node = t->switches[sw], peer;
				unsigned port = p->hops[i].port;
				double v;

				if (!port || port > t->nodes[node].nports)
					continue;
				peer = ftsw_port(t, node, port)->peer;
				if ((node == a && peer == b) ||
				    (node == b && peer == a))
					fl[f].affected = true;
				if (!is_link_port(t, sw, port))
					continue;
				v = flows[ftsw_link_id(t, node, port)];
				if (n == 1 && v > fl[f].share) {
					fl[f].share = v;
					fl[f].hot_sw = sw;
					fl[f].hot_port = port;
				}
			}
		}
	}
}

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
		ftsw_err_set(err, "out of memory");
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
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
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
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
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

/* ------------------------------------------------------------ sending */

/* Count mode: every flow's datagrams, in rounds, a window in flight. */
static int send_counted(struct traffic *tr, unsigned size, bool *failed,
			uint64_t *fail_us, struct ftsw_err *err)
{
	const struct ftsw_lab_traffic_opts *o = tr->o;
	uint64_t t0 = ftsw_now_us(), stage_sent = 0, before = tr->rx_total;
	unsigned rounds = 0, pk;
	uint32_t f;

	for (f = 0; f < tr->nf; f++)
		if (tr->fl[f].packets > rounds)
			rounds = tr->fl[f].packets;
	for (pk = 0; pk < rounds; pk++) {
		if (o->fail_a && pk == o->fail_at && !*failed) {
			*fail_us = ftsw_now_us();
			if (ftsw_lab_fail(tr->lab, FTSW_FAIL_LINK, o->fail_a,
					  o->fail_b, false, false, NULL, err))
				return -1;
			*failed = true;
		}
		if (o->pps) {
			/* Paced: round pk starts at t0 + pk * nf / pps. */
			uint64_t due = t0 + (uint64_t)pk * tr->nf * 1000000 /
				       o->pps;

			while (ftsw_now_us() < due)
				drain(tr, (int)((due - ftsw_now_us()) / 1000));
		}
		for (f = 0; f < tr->nf; f++) {
			if (pk >= tr->fl[f].packets)
				continue;
			while (!o->pps &&
			       stage_sent - (tr->rx_total - before) >=
			       LAB_UDP_WINDOW) {
				uint64_t b = tr->rx_total;

				drain(tr, 20);
				if (tr->rx_total == b)
					break;	/* lost: don't stall */
			}
			stage_sent += send_one(tr, f, size);
			if ((stage_sent & 63) == 0)
				drain(tr, 0);
		}
	}
	return 0;
}

/*
 * Rate mode: rounds of one datagram per flow, paced so that each flow
 * offers LAB_RATE_OFFER times the link rate (or --pps in all), for
 * dur_ms; throughput is counted over the last four fifths (the first
 * fifth spends tbf's burst and fills the queues).
 */
static void send_timed(struct traffic *tr, unsigned size, double rate_bits,
		       unsigned dur_ms)
{
	const struct ftsw_lab_traffic_opts *o = tr->o;
	uint64_t t0 = ftsw_now_us(), end = t0 + (uint64_t)dur_ms * 1000, now;
	double ivl = o->pps ? 1e6 * tr->nf / o->pps :
		     1e6 * (size + LAB_FRAME_EXTRA) * 8 /
		     (LAB_RATE_OFFER * rate_bits);
	uint64_t k;
	uint32_t f;

	tr->win_a = t0 + (uint64_t)dur_ms * 1000 / 5;
	tr->win_b = end;
	for (f = 0; f < tr->nf; f++)
		tr->turn[f] = f;
	for (k = 0;; k++) {
		uint64_t due = t0 + (uint64_t)(k * ivl);

		if (due >= end)
			break;
		while ((now = ftsw_now_us()) < due)
			drain(tr, (int)((due - now + 999) / 1000));
		if (now >= end)
			break;
		/*
		 * A new order every round: flows meeting at a full drop-tail
		 * queue in a fixed order would share it by their phase (the
		 * first to arrive after a departure gets the free place)
		 * instead of equally. Odd rounds reverse the even round's
		 * random order, so any two flows take turns at arriving first.
		 */
		if (k & 1) {
			for (f = 0; f < tr->nf / 2; f++) {
				uint32_t x = tr->turn[f];

				tr->turn[f] = tr->turn[tr->nf - 1 - f];
				tr->turn[tr->nf - 1 - f] = x;
			}
		} else {
			ftsw_shuffle(tr->turn, tr->nf, &tr->rng);
		}
		for (f = 0; f < tr->nf; f++)
			send_one(tr, tr->turn[f], size);
		drain(tr, 0);
	}
	while ((now = ftsw_now_us()) < end)
		drain(tr, (int)((end - now + 999) / 1000));
}

/* ------------------------------------------------------------ report */

struct linkrow {
	uint32_t sw;
	unsigned port;
	double pred, flows;
	uint64_t meas;
};

static int cmp_rows(const void *a, const void *b)
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

/*
 * One run of `lab traffic`: what it was asked, the model's inputs, the
 * sockets, the per-port predictions and the results, shared by its steps.
 */
struct trun {
	struct ftsw_lab *lab;
	const struct ftsw_lab_traffic_opts *o;
	FILE *out;
	struct traffic tr;
	struct ftsw_routing *r;
	struct ftsw_lab_counters c0, c1;
	struct ftsw_pattern pat;
	struct ftsw_offset_list *lists;
	struct ftsw_path *path;
	struct ftsw_tm dg;		/* datagrams per flow of a stage */
	struct ftsw_pattern_metrics m;	/* the analyzer's, per stage */
	struct linkrow *rows;
	struct fres *fr;
	size_t nfr, capfr, fcap, nslots;
	uint32_t *order, fa, fb;
	double *dload, *pred, *pflows, max_flows_all;
	uint64_t sent, lost, nrows, bad, fail_us, slow;
	uint64_t tx_measured;
	double tx_predicted;
	unsigned nst, maxp, packets, size, dur_ms;
	bool rate_mode, multipath, exact, failed;
	double rate_bits, rate_mbps;
	char pspec[300], ospec[300];
};

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
	if (x->size < sizeof(struct udp_hdr) || x->size > LAB_UDP_MAX) {
		ftsw_err_set(err, "datagram size %u: %zu..%d bytes", x->size,
			     sizeof(struct udp_hdr), LAB_UDP_MAX);
		return -1;
	}
	if (x->rate_mode && o->fail_a) {
		ftsw_err_set(err, "lab %s is shaped (lab up --rate): --fail "
			     "needs an unshaped lab", lab->name);
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

	pattern_spec(o->pattern, o->seed, x->pspec, sizeof(x->pspec));
	order_spec(o->order ? o->order : "topology", o->seed, x->ospec,
		   sizeof(x->ospec));
	if (ftsw_pattern_make(x->pspec, t->nhosts, t, &x->pat, err)) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		ftsw_err_set(err, "lab %s: %.400s; also all2all, cps",
			     x->lab->name, m);
		return -1;
	}
	x->order = malloc(sizeof(uint32_t) * t->nhosts);
	if (!x->order) {
		ftsw_err_set(err, "out of memory");
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
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	return read_offset_lists(x->lab, x->r, x->lists, &x->multipath, err);
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
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (i = 0; i < tr->n; i++)
		tr->fd[i] = -1;
	return open_sockets(tr, err);
}

static void print_header(const struct trun *x)
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
			ftsw_err_set(err, "out of memory");
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
			ftsw_err_set(err, "out of memory");
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
	uint32_t i;

	*max_flows = 0;
	if (!x->rate_mode &&
	    ftsw_link_loads(x->r, &x->dg, lo, x->dload, NULL, &res, err))
		return -1;
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];
		unsigned p;

		for (p = 1; p <= t->nodes[node].nports && p <= x->maxp; p++) {
			uint32_t l = ftsw_link_id(t, node, p);
			size_t slot = (size_t)i * (x->maxp + 1) + p;

			if (!x->rate_mode)
				x->pred[slot] += x->dload[l];
			x->pflows[slot] += flows[l];
			if (flows[l] > *max_flows)
				*max_flows = flows[l];
		}
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
	if (x->rate_mode)
		send_timed(tr, x->size, x->rate_bits, x->dur_ms);
	else if (send_counted(tr, x->size, &x->failed, &x->fail_us, err))
		return -1;
	for (f = 0; f < tr->nf; f++)
		*stage_sent += tr->fl[f].sent;
	last = ftsw_now_us();
	while (tr->rx_total - before < *stage_sent &&
	       ftsw_now_us() - last < 500000) {
		uint64_t b = tr->rx_total;

		drain(tr, 20);
		if (tr->rx_total != b)
			last = ftsw_now_us();
	}
	*received = tr->rx_total - before;
	x->sent += *stage_sent;
	x->lost += *stage_sent - *received;
	return 0;
}

/* --fail: losses of the flows that crossed the failed cable and others. */
static void print_fail_report(const struct trun *x, uint64_t t0s)
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

/* Shaped lab: each flow's share, offered and measured throughput. */
static int keep_rate_results(struct trun *x, unsigned s,
			     struct ftsw_err *err)
{
	const struct traffic *tr = &x->tr;
	double win = (double)(tr->win_b - tr->win_a);
	uint32_t f;

	if (x->nfr + tr->nf > x->capfr) {
		size_t nc = (x->nfr + tr->nf) * 2;
		struct fres *n2 = realloc(x->fr, sizeof(*x->fr) * nc);

		if (!n2) {
			ftsw_err_set(err, "out of memory");
			return -1;
		}
		x->fr = n2;
		x->capfr = nc;
	}
	for (f = 0; f < tr->nf; f++) {
		struct fres *r = &x->fr[x->nfr++];

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

static void print_stage_line(const struct trun *x, unsigned s,
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
	flow_paths(x->r, x->lists, flows, x->tr.fl, x->tr.nf, x->fa, x->fb,
		   x->path);
	if (stage_send(x, s, &stage_sent, &received, &t0s, err))
		return -1;
	if (x->o->fail_a && !x->o->json)
		print_fail_report(x, t0s);
	if (x->rate_mode && keep_rate_results(x, s, err))
		return -1;
	print_stage_line(x, s, stage_sent, received, max_flows);
	return x->o->max_stages && x->nst >= x->o->max_stages ? 1 : 0;
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
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	for (i = 0; i < x->nslots; i++) {
		uint64_t m = x->c1.tx[i] - x->c0.tx[i];
		uint64_t pr = (uint64_t)llround(x->pred[i]);
		struct linkrow *row = &x->rows[x->nrows];

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
static void print_json(const struct trun *x)
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

static void print_text(const struct trun *x)
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
static int traffic_svg(const struct trun *x, struct ftsw_err *err)
{
	uint64_t *lv = calloc(x->nslots + 1, sizeof(uint64_t));
	char title[128];
	size_t i;
	int rc;

	if (!lv) {
		ftsw_err_set(err, "out of memory");
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

int ftsw_lab_traffic(struct ftsw_lab *lab, const struct ftsw_lab_traffic_opts *o,
		     FILE *out, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	struct trun *x = calloc(1, sizeof(*x));
	struct ftsw_load_opts lo = { .count_flows = true };
	struct ftsw_analyze_opts ao = { .load = &lo, .stage_fn = traffic_stage };
	int rc = -1;

	if (!x) {
		ftsw_err_set(err, "out of memory");
		return -1;
	}
	x->lab = lab;
	x->o = o;
	x->out = out;
	x->tr = (struct traffic){ .lab = lab, .o = o, .n = t->nhosts,
				  .rng = o->seed ^ 0x7261746555ULL };
	x->fa = x->fb = FTSW_NONE;
	x->packets = o->packets ? o->packets : 10;
	x->rate_mode = lab->rate_bytes != 0;
	x->size = o->size ? o->size : x->rate_mode ? LAB_UDP_MAX : 64;
	x->dur_ms = o->duration_ms ? o->duration_ms : LAB_RATE_DURATION_MS;
	/* lab->rate_bytes: bytes per second, as tbf takes it */
	x->rate_bits = (double)lab->rate_bytes * 8;
	x->rate_mbps = x->rate_bits / 1e6;
	ftsw_tm_init(&x->dg, t->nhosts);
	if (traffic_check(x, err) || traffic_model_inputs(x, err) ||
	    traffic_setup(x, err))
		goto out;
	print_header(x);
	/* The model: the analyzer's loads and flows per link, per stage. */
	lo.lists = x->lists;
	ao.arg = x;
	if (ftsw_analyze_pattern(x->r, &x->pat, x->order, &ao, &x->m, err) ||
	    traffic_compare(x, err))
		goto out;
	if (o->json)
		print_json(x);
	else
		print_text(x);
	if (o->svg && traffic_svg(x, err))
		goto out;
	rc = x->multipath || o->fail_a ? 0 : (x->bad ? 1 : 0);
out:
	traffic_free(x);
	free(x);
	return rc;
}
