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
 * link (k), measured against rate / k.
 */
static void rate_summary(FILE *out, bool json, const struct fres *fr,
			 size_t nfr, double rate_mbps)
{
	double *ks = malloc(sizeof(double) * (nfr + 1));
	size_t nk = 0, i, j;
	bool first = true;

	if (!ks)
		return;
	for (i = 0; i < nfr; i++)
		ks[nk++] = fr[i].share;
	qsort(ks, nk, sizeof(double), cmp_double);
	if (json)
		fprintf(out, ",\"shares\":[");
	for (i = 0; i < nk; i++) {
		double mn = 1e300, mx = 0, sum = 0;
		uint64_t cnt = 0;

		if (i && ks[i] == ks[i - 1])
			continue;
		for (j = 0; j < nfr; j++) {
			if (fr[j].share != ks[i])
				continue;
			cnt++;
			sum += fr[j].mbps;
			mn = fr[j].mbps < mn ? fr[j].mbps : mn;
			mx = fr[j].mbps > mx ? fr[j].mbps : mx;
		}
		if (json) {
			fprintf(out, "%s{\"share\":%.6g,\"flows\":%" PRIu64
				",\"predicted_mbps\":", first ? "" : ",",
				ks[i], cnt);
			if (ks[i] > 0)
				fprintf(out, "%.6g", rate_mbps / ks[i]);
			else
				fprintf(out, "null");
			fprintf(out, ",\"min_mbps\":%.6g,\"avg_mbps\":%.6g,"
				"\"max_mbps\":%.6g}", mn, sum / cnt, mx);
		} else if (ks[i] > 0) {
			fprintf(out, "  %" PRIu64 " flows with %.3g on their "
				"busiest shaped link: predicted %.3f, measured "
				"%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n", cnt,
				ks[i], rate_mbps / ks[i], mn, sum / cnt, mx);
		} else {
			fprintf(out, "  %" PRIu64 " flows %s: measured "
				"%.3f/%.3f/%.3f Mbit/s (min/avg/max)\n", cnt,
				ks[i] < 0 ? "over several paths (the kernel "
				"picks one by flow hash)" : "crossing no "
				"shaped link", mn, sum / cnt, mx);
		}
		first = false;
	}
	if (json)
		fprintf(out, "]");
	free(ks);
}

int ftsw_lab_traffic(struct ftsw_lab *lab, const struct ftsw_lab_traffic_opts *o,
		     FILE *out, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	struct traffic tr = { .lab = lab, .o = o, .n = t->nhosts,
			      .rng = o->seed ^ 0x7261746555ULL };
	struct ftsw_routing *r = NULL;
	struct ftsw_lab_counters c0 = { 0 }, c1 = { 0 };
	struct ftsw_pattern pat = { 0 };
	struct ftsw_offset_list *lists = NULL;
	struct ftsw_path *path = NULL;
	struct ftsw_load_result res;
	struct ftsw_tm dg;
	struct linkrow *rows = NULL;
	struct fres *fr = NULL;
	size_t nfr = 0, capfr = 0, fcap = 0;
	uint32_t *order = NULL, fa = FTSW_NONE, fb = FTSW_NONE;
	double *load = NULL, *flows = NULL, *dload = NULL, *pred = NULL;
	double *pflows = NULL, max_flows_all = 0, hs_sum = 0;
	uint64_t sent = 0, lost = 0, nrows = 0, bad = 0, undelivered = 0;
	uint64_t fail_us = 0, slow = 0;
	unsigned hs_n = 0, nst = 0, maxp, s;
	unsigned packets = o->packets ? o->packets : 10;
	bool rate_mode = lab->rate_bytes != 0, multipath, exact, failed = false;
	unsigned size = o->size ? o->size : rate_mode ? LAB_UDP_MAX : 64;
	unsigned dur_ms = o->duration_ms ? o->duration_ms :
			  LAB_RATE_DURATION_MS;
	/* lab->rate_bytes: bytes per second, as tbf takes it */
	double rate_bits = (double)lab->rate_bytes * 8, rate_mbps = rate_bits / 1e6;
	size_t nslots;
	uint32_t i;
	int rc = -1;
	char pspec[300], ospec[300], first_fail[160] = "";

	ftsw_tm_init(&dg, t->nhosts);
	if (!o->pattern || !*o->pattern) {
		ftsw_err_set(err, "no pattern (all2all, cps, shift:K, perm, or "
			     "any of ftsw analyze -p's)");
		return -1;
	}
	if (size < sizeof(struct udp_hdr) || size > LAB_UDP_MAX) {
		ftsw_err_set(err, "datagram size %u: %zu..%d bytes", size,
			     sizeof(struct udp_hdr), LAB_UDP_MAX);
		return -1;
	}
	if (rate_mode && o->fail_a) {
		ftsw_err_set(err, "lab %s is shaped (lab up --rate): --fail "
			     "needs an unshaped lab", lab->name);
		return -1;
	}
	if (t->nhosts < 2) {
		ftsw_err_set(err, "lab %s: fewer than 2 hosts", lab->name);
		return -1;
	}
	pattern_spec(o->pattern, o->seed, pspec, sizeof(pspec));
	order_spec(o->order ? o->order : "topology", o->seed, ospec,
		   sizeof(ospec));
	if (ftsw_pattern_make(pspec, t->nhosts, t, &pat, err)) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		ftsw_err_set(err, "lab %s: %.400s; also all2all, cps", lab->name,
			     m);
		return -1;
	}
	order = malloc(sizeof(uint32_t) * t->nhosts);
	if (!order) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	if (ftsw_order_make(ospec, t, t->nhosts, order, err))
		goto out;
	r = ftsw_lab_read_routing(lab, err);
	if (!r)
		goto out;
	lists = calloc(t->nhosts + 1, sizeof(*lists));
	path = malloc(sizeof(*path));
	if (!lists || !path) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	if (read_offset_lists(lab, r, lists, &multipath, err))
		goto out;
	if (o->fail_a && (ftsw_lab_find_node(lab, o->fail_a, &fa, err) ||
			  ftsw_lab_find_node(lab, o->fail_b, &fb, err)))
		goto out;
	if (ftsw_lab_counters(lab, &c0, err))
		goto out;
	maxp = c0.maxports;
	nslots = (size_t)t->nswitches * (maxp + 1);
	tr.fd = malloc(sizeof(int) * tr.n);
	tr.pfd = calloc(tr.n, sizeof(*tr.pfd));
	tr.buf = malloc(2048);
	load = calloc(t->nports + 1, sizeof(double));
	flows = calloc(t->nports + 1, sizeof(double));
	dload = calloc(t->nports + 1, sizeof(double));
	pred = calloc(nslots + 1, sizeof(double));
	pflows = calloc(nslots + 1, sizeof(double));
	if (!tr.fd || !tr.pfd || !tr.buf || !load || !flows || !dload ||
	    !pred || !pflows) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	for (i = 0; i < tr.n; i++)
		tr.fd[i] = -1;
	if (open_sockets(&tr, err))
		goto out;
	if (!o->json) {
		fprintf(out, "pattern %s (%u stage%s), order %s; model: the "
			"analyzer (ftsw analyze -p %s --order %s) on the tables "
			"read back from the kernel\n", o->pattern, pat.nstages,
			pat.nstages == 1 ? "" : "s", ospec, pspec, ospec);
		if (rate_mode)
			fprintf(out, "lab shaped at %.3f Mbit/s per fabric link: "
				"each stage sends for %u ms, %u-byte datagrams, "
				"%s; throughput at the receivers over the last "
				"%u ms, in fabric frame bits (payload + %d "
				"bytes)\n", rate_mbps, dur_ms, size, o->pps ?
				"paced by --pps" : "each flow offered 1.5x the "
				"rate", dur_ms - dur_ms / 5, LAB_FRAME_EXTRA);
		else
			fprintf(out, "%u packets of %u bytes per flow%s\n",
				packets, size, multipath ? " (several LIDs per "
				"destination: flows spread over paths by hash; "
				"only totals compared)" : "");
	}
	for (s = 0; s < pat.nstages && (!o->max_stages || nst < o->max_stages);
	     s++) {
		struct ftsw_tm *tm = &pat.stages[s];
		struct ftsw_load_opts lo = { .count_flows = true,
					     .lists = lists };
		uint64_t before, last, t0s, stage_sent = 0;
		double max_flows = 0;
		size_t need, k;
		uint32_t f;

		ftsw_tm_apply_order(tm, order, t->nhosts);
		/* The model: the analyzer's loads and flows per link. */
		if (ftsw_link_loads(r, tm, &lo, load, flows, &res, err))
			goto out;
		undelivered += res.failed;
		if (res.failed && !first_fail[0])
			snprintf(first_fail, sizeof(first_fail), "%s",
				 res.first_failure);
		if (res.delivered) {
			/* hot-spot degree as ftsw analyze computes it */
			hs_sum += ftsw_max_load(t, load, false, NULL);
			hs_n++;
		}
		/* The flows to send: the stage's, host to itself left out. */
		need = tm->nflows + (tm->all_to_all ?
				     (size_t)tm->n * tm->n : 0);
		if (need > fcap) {
			struct lflow *nfl = realloc(tr.fl, sizeof(*nfl) *
						    (need + 1));
			uint32_t *nt;

			if (nfl)
				tr.fl = nfl;
			nt = nfl ? realloc(tr.turn, sizeof(*nt) * (need + 1)) :
				   NULL;
			if (!nt) {
				ftsw_err_set(err, "out of memory");
				goto out;
			}
			tr.turn = nt;
			fcap = need;
		}
		tr.nf = 0;
		ftsw_tm_clear(&dg);
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
			pk = lround(a * packets);
			if (fs == fd || a <= 0 || (!rate_mode && pk <= 0))
				continue;
			memset(&tr.fl[tr.nf], 0, sizeof(tr.fl[tr.nf]));
			tr.fl[tr.nf].src = fs;
			tr.fl[tr.nf].dst = fd;
			tr.fl[tr.nf].packets = (unsigned)pk;
			tr.nf++;
			if (!rate_mode && ftsw_tm_add(&dg, fs, fd, (double)pk)) {
				ftsw_err_set(err, "out of memory");
				goto out;
			}
		}
		if (!tr.nf)
			continue;
		nst++;
		/*
		 * Datagrams per link: the analyzer's loads of the matrix whose
		 * amounts are each flow's datagram count.
		 */
		if (!rate_mode &&
		    ftsw_link_loads(r, &dg, &lo, dload, NULL, &res, err))
			goto out;
		for (i = 0; i < t->nswitches; i++) {
			uint32_t node = t->switches[i];
			unsigned p;

			for (p = 1; p <= t->nodes[node].nports && p <= maxp; p++) {
				uint32_t l = ftsw_link_id(t, node, p);
				size_t slot = (size_t)i * (maxp + 1) + p;

				if (!rate_mode)
					pred[slot] += dload[l];
				pflows[slot] += flows[l];
				if (flows[l] > max_flows)
					max_flows = flows[l];
			}
		}
		if (max_flows > max_flows_all)
			max_flows_all = max_flows;
		flow_paths(r, lists, flows, tr.fl, tr.nf, fa, fb, path);
		/* Reality. */
		tr.stage = s;
		tr.win_a = tr.win_b = 0;
		before = tr.rx_total;
		t0s = ftsw_now_us();
		if (rate_mode) {
			send_timed(&tr, size, rate_bits, dur_ms);
		} else if (send_counted(&tr, size, &failed, &fail_us, err)) {
			goto out;
		}
		for (f = 0; f < tr.nf; f++)
			stage_sent += tr.fl[f].sent;
		last = ftsw_now_us();
		while (tr.rx_total - before < stage_sent &&
		       ftsw_now_us() - last < 500000) {
			uint64_t b = tr.rx_total;

			drain(&tr, 20);
			if (tr.rx_total != b)
				last = ftsw_now_us();
		}
		sent += stage_sent;
		lost += stage_sent - (tr.rx_total - before);
		if (o->fail_a && !o->json) {
			uint64_t la = 0, lu = 0, na = 0, maxa = 0;

			for (f = 0; f < tr.nf; f++) {
				uint64_t l = tr.fl[f].sent - tr.fl[f].rx;

				if (tr.fl[f].affected) {
					na++;
					la += l;
					if (l > maxa)
						maxa = l;
				} else {
					lu += l;
				}
			}
			fprintf(out, "failure of %s - %s after %u of %u packets "
				"per flow (%.1f ms into the stage, %u packets/s):\n"
				"  %" PRIu64 " flows crossed it: %" PRIu64
				" packets lost (at most %" PRIu64 " per flow, "
				"%.1f ms of traffic)\n  %" PRIu32 " flows did "
				"not: %" PRIu64 " packets lost\n", o->fail_a,
				o->fail_b, o->fail_at, packets, fail_us >= t0s ?
				(double)(fail_us - t0s) / 1e3 : -1.0,
				o->pps, na, la, maxa,
				o->pps ? maxa * 1e3 * tr.nf / o->pps : 0.0,
				tr.nf - (uint32_t)na, lu);
		}
		if (rate_mode) {
			double win = (double)(tr.win_b - tr.win_a);

			if (nfr + tr.nf > capfr) {
				size_t nc = (nfr + tr.nf) * 2;
				struct fres *n2 = realloc(fr, sizeof(*fr) * nc);

				if (!n2) {
					ftsw_err_set(err, "out of memory");
					goto out;
				}
				fr = n2;
				capfr = nc;
			}
			for (f = 0; f < tr.nf; f++) {
				struct fres *x = &fr[nfr++];

				x->stage = s;
				x->src = tr.fl[f].src;
				x->dst = tr.fl[f].dst;
				x->share = tr.fl[f].share;
				x->hot_sw = tr.fl[f].hot_sw;
				x->hot_port = tr.fl[f].hot_port;
				x->offered = (double)tr.fl[f].sent *
					     (size + LAB_FRAME_EXTRA) * 8 /
					     (dur_ms * 1e3);
				x->mbps = win > 0 ? (double)tr.fl[f].win_bytes *
					  8 / win : 0;
			}
		}
		if (!o->json && (o->per_stage || (rate_mode && (o->verbose ||
		    (pat.nstages == 1 && tr.nf <= 32))))) {
			fprintf(out, "stage %u (%s): %" PRIu32 " flows, %" PRIu64
				" sent, %" PRIu64 " received, busiest port "
				"carries %.3g flows\n", s, pat.stage_names[s],
				tr.nf, stage_sent, tr.rx_total - before,
				max_flows);
			if (rate_mode) {
				fprintf(out, "  %-14s %-10s %5s %9s %9s %9s\n",
					"flow", "busiest", "flows", "predicted",
					"offered", "measured");
				for (f = 0; f < tr.nf; f++)
					print_flow(out, &fr[nfr - tr.nf + f],
						   rate_mbps);
				fprintf(out, "  (Mbit/s; predicted: rate / flows "
					"on the busiest shaped link)\n");
			}
		}
	}
	/* A flow that offered less than its share cannot show the share. */
	for (i = 0; i < nfr; i++)
		if (fr[i].share > 0 && fr[i].offered < rate_mbps / fr[i].share)
			slow++;
	/* Counters settle: every packet was received, or given up on. */
	if (ftsw_lab_counters(lab, &c1, err))
		goto out;
	rows = calloc(nslots + 1, sizeof(*rows));
	if (!rows) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	{
		uint64_t tm_ = 0;
		double tp = 0;

		for (i = 0; i < nslots; i++) {
			uint64_t m = c1.tx[i] - c0.tx[i];
			uint64_t pr = (uint64_t)llround(pred[i]);

			tm_ += m;
			tp += pred[i];
			if (!m && !pflows[i])
				continue;
			rows[nrows].sw = (uint32_t)(i / (maxp + 1));
			rows[nrows].port = (unsigned)(i % (maxp + 1));
			rows[nrows].pred = pred[i];
			rows[nrows].flows = pflows[i];
			rows[nrows].meas = m;
			/*
			 * Deterministic paths: every datagram counted where the
			 * model says (count mode); on a shaped lab, where tbf
			 * drops by design, traffic exactly on the links the
			 * model names.
			 */
			if (!multipath && (rate_mode ? !m != !pflows[i] :
					   m != pr))
				bad++;
			nrows++;
		}
		exact = !multipath && !rate_mode && !bad;
		qsort(rows, nrows, sizeof(*rows), cmp_rows);
		if (o->json) {
			fprintf(out, "{\"pattern\":");
			ftsw_json_write_str(out, o->pattern);
			fprintf(out, ",\"analyzer_pattern\":");
			ftsw_json_write_str(out, pspec);
			fprintf(out, ",\"order\":");
			ftsw_json_write_str(out, ospec);
			fprintf(out, ",\"mode\":\"%s\",\"stages\":%u,\"sent\":%"
				PRIu64 ",\"lost\":%" PRIu64 ",\"max_flows_per_port\":"
				"%.6g,\"hot_spot_degree\":%.6g,\"undelivered\":%"
				PRIu64 ",\"ports\":%" PRIu64 ",\"mismatches\":%"
				PRIu64 ",\"exact\":%s,\"multipath\":%s,\"drops\":%"
				PRIu64, rate_mode ? "rate" : "count", nst, sent,
				lost, max_flows_all, hs_n ? hs_sum / hs_n : 0,
				undelivered, nrows, bad, exact ? "true" : "false",
				multipath ? "true" : "false",
				c1.drops - c0.drops);
			if (rate_mode) {
				fprintf(out, ",\"rate_mbps\":%.6g,\"duration_ms\":%u,"
					"\"window_ms\":%u,\"size\":%u,\"sender_bound\":%"
					PRIu64 ",\"flows\":[", rate_mbps, dur_ms,
					dur_ms - dur_ms / 5, size, slow);
				for (i = 0; i < nfr; i++) {
					fprintf(out, "%s{\"stage\":%u,\"src\":%" PRIu32
						",\"dst\":%" PRIu32 ",\"share\":%.6g,",
						i ? "," : "", fr[i].stage, fr[i].src,
						fr[i].dst, fr[i].share);
					if (fr[i].share > 0)
						fprintf(out, "\"switch\":%" PRIu32
							",\"port\":%u,\"predicted_mbps\":"
							"%.6g,", fr[i].hot_sw,
							fr[i].hot_port,
							rate_mbps / fr[i].share);
					fprintf(out, "\"offered_mbps\":%.6g,"
						"\"mbps\":%.6g}", fr[i].offered,
						fr[i].mbps);
				}
				fprintf(out, "]");
				rate_summary(out, true, fr, nfr, rate_mbps);
			}
			fprintf(out, ",\"links\":[");
			for (i = 0; i < nrows; i++) {
				fprintf(out, "%s{\"switch\":%" PRIu32 ",\"port\":%u,"
					"\"flows\":%.6g,", i ? "," : "", rows[i].sw,
					rows[i].port, rows[i].flows);
				if (!rate_mode)
					fprintf(out, "\"predicted\":%.6g,",
						rows[i].pred);
				fprintf(out, "\"measured\":%" PRIu64 "}",
					rows[i].meas);
			}
			fprintf(out, "]}\n");
		} else {
			uint64_t show = o->verbose ? nrows : 10;

			fprintf(out, "%" PRIu64 " packets sent, %" PRIu64
				" lost%s, %" PRIu64 " fabric drops; busiest port "
				"carries %.3g flows in one stage; hot-spot degree "
				"%.4g\n", sent, lost, rate_mode ? " (shaped)" : "",
				c1.drops - c0.drops, max_flows_all,
				hs_n ? hs_sum / hs_n : 0);
			if (undelivered)
				fprintf(out, "the model delivers no path for %"
					PRIu64 " flows, first: %s\n", undelivered,
					first_fail);
			if (rate_mode) {
				fprintf(out, "per-flow throughput at %.3f Mbit/s "
					"per fabric link:\n", rate_mbps);
				if (slow)
					fprintf(out, "  warning: %" PRIu64 " flows "
						"offered less than their predicted "
						"share (this machine sends too "
						"slowly for the rate): their "
						"throughput is the sender's\n", slow);
				rate_summary(out, false, fr, nfr, rate_mbps);
				fprintf(out, "  %-12s %10s %10s\n", "port", "flows",
					"measured");
			} else {
				fprintf(out, "  %-12s %10s %10s\n", "port",
					"predicted", "measured");
			}
			for (i = 0; i < nrows && i < show; i++) {
				bool mis = !multipath &&
					   (rate_mode ? !rows[i].meas != !rows[i].flows :
					    rows[i].pred != (double)rows[i].meas);

				fprintf(out, "  s%-4" PRIu32 ":%-6u %10.4g %10"
					PRIu64 "%s\n", rows[i].sw, rows[i].port,
					rate_mode ? rows[i].flows : rows[i].pred,
					rows[i].meas, mis ? "  MISMATCH" : "");
			}
			if (nrows > show)
				fprintf(out, "  ... %" PRIu64 " more ports (-v)\n",
					nrows - show);
			if (multipath)
				fprintf(out, "total tx: %" PRIu64 " measured, %.0f "
					"expected on average; paths chosen by flow "
					"hash\n", tm_, tp);
			else if (rate_mode)
				fprintf(out, "traffic on exactly the model's ports: "
					"%s (%" PRIu64 " ports, %" PRIu64 " differ)\n",
					bad ? "NO" : "yes", nrows, bad);
			else
				fprintf(out, "model == reality: %s (%" PRIu64
					" ports, %" PRIu64 " differ; %.0f "
					"packets predicted, %" PRIu64
					" counted)\n", exact ? "yes" : "NO",
					nrows, bad, tp, tm_);
		}
	}
	if (o->svg) {
		uint64_t *lv = calloc(nslots + 1, sizeof(uint64_t));
		char title[128];

		if (!lv) {
			ftsw_err_set(err, "out of memory");
			goto out;
		}
		for (i = 0; i < nslots; i++)
			lv[i] = c1.tx[i] - c0.tx[i];
		snprintf(title, sizeof(title), "%.50s, %.50s order", o->pattern,
			 ospec);
		if (write_svg(lab, lv, maxp, o->svg, title, err)) {
			free(lv);
			goto out;
		}
		free(lv);
		if (!o->json)
			fprintf(out, "link-load picture: %s\n", o->svg);
	}
	rc = multipath || o->fail_a ? 0 : (bad ? 1 : 0);
out:
	if (tr.fd)
		for (i = 0; i < tr.n; i++)
			if (tr.fd[i] >= 0)
				close(tr.fd[i]);
	free(tr.fd);
	free(tr.pfd);
	free(tr.fl);
	free(tr.turn);
	free(tr.buf);
	free(order);
	free(lists);
	free(path);
	free(load);
	free(flows);
	free(dload);
	free(pred);
	free(pflows);
	free(rows);
	free(fr);
	ftsw_tm_free(&dg);
	ftsw_pattern_free(&pat);
	ftsw_lab_counters_free(&c0);
	ftsw_lab_counters_free(&c1);
	ftsw_routing_free(r);
	return rc;
}
