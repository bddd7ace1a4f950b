// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: real UDP traffic per stage of a pattern, per-port counters
 * before and after, next to the loads the routing predicts (the tables are
 * read back from the kernel and traced with the kernel's forwarding
 * semantics): model == reality, link by link, packet by packet.
 *
 * One UDP socket per host, created in the host's namespace and bound to
 * LAB_UDP_PORT, both sends and receives, so no ICMP "port unreachable"
 * ever adds to the counters. Each datagram names its flow; per-flow
 * receive counts give losses and, on a shaped lab, per-flow throughput.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "lab.h"

#define LAB_UDP_PORT	7777
#define LAB_UDP_MAGIC	0x66747375u
#define LAB_UDP_WINDOW	512

struct flow {
	uint32_t src, dst;
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
	uint32_t *order;	/* rank -> host */
	int *fd;		/* per host */
	struct pollfd *pfd;
	uint64_t *rx;		/* per flow of the current stage */
	uint64_t rx_total, rx_bytes;
	uint32_t stage;
	char *buf;
};

static void drain(struct traffic *tr, int ms)
{
	uint32_t h;

	if (poll(tr->pfd, tr->n, ms) <= 0)
		return;
	for (h = 0; h < tr->n; h++) {
		if (!(tr->pfd[h].revents & POLLIN))
			continue;
		for (;;) {
			ssize_t k = recv(tr->fd[h], tr->buf, 2048, 0);
			const struct udp_hdr *u = (const struct udp_hdr *)tr->buf;

			if (k < 0)
				break;
			if ((size_t)k < sizeof(*u) || u->magic != LAB_UDP_MAGIC ||
			    u->stage != tr->stage)
				continue;
			tr->rx[u->flow]++;
			tr->rx_total++;
			tr->rx_bytes += (uint64_t)k;
		}
	}
}

/* Flows of stage s of the pattern; returns the count, 0 past the end. */
static uint32_t stage_flows(struct traffic *tr, uint32_t s, struct flow *f,
			    uint64_t *rng, char *label, size_t lsz)
{
	const char *p = tr->o->pattern;
	uint32_t n = tr->n, r, nf = 0, k;

	if (!strncmp(p, "shift:", 6)) {
		k = (uint32_t)strtoul(p + 6, NULL, 10) % n;
		if (s > 0 || !k)
			return 0;
		snprintf(label, lsz, "shift %" PRIu32, k);
	} else if (!strcmp(p, "all2all") || !strcmp(p, "cps")) {
		k = s + 1;
		if (k >= n)
			return 0;
		snprintf(label, lsz, "shift %" PRIu32, k);
	} else {		/* perm */
		uint32_t *pi;

		if (s > 0)
			return 0;
		pi = malloc(sizeof(uint32_t) * n);
		if (!pi)
			return 0;
		for (r = 0; r < n; r++)
			pi[r] = r;
		for (r = n - 1; r > 0; r--) {
			uint32_t j = (uint32_t)(ftsw_rand_next(rng) % (r + 1)), x;

			x = pi[r];
			pi[r] = pi[j];
			pi[j] = x;
		}
		for (r = 0; r < n; r++)
			if (pi[r] != r) {
				f[nf].src = tr->order[r];
				f[nf].dst = tr->order[pi[r]];
				nf++;
			}
		free(pi);
		snprintf(label, lsz, "random permutation");
		return nf;
	}
	for (r = 0; r < n; r++) {
		f[nf].src = tr->order[r];
		f[nf].dst = tr->order[(r + k) % n];
		nf++;
	}
	return nf;
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

/* affected[f]: flow f's path uses either end of cable fail_a - fail_b. */
static int mark_affected(struct traffic *tr, const struct ftsw_routing *r,
			 const struct flow *fl, uint32_t nf, bool *affected,
			 uint32_t *swp, uint8_t *pp, unsigned maxh,
			 struct ftsw_err *err)
{
	const struct ftsw_topo *t = tr->lab->topo;
	uint32_t a, b, f;
	unsigned p;

	if (ftsw_lab_find_node(tr->lab, tr->o->fail_a, &a, err) ||
	    ftsw_lab_find_node(tr->lab, tr->o->fail_b, &b, err))
		return -1;
	for (f = 0; f < nf; f++) {
		uint8_t fo = r->policy[fl[f].src].fixed_offset;
		int h = ftsw_trace(r, fl[f].src, ftsw_host_lid(r, fl[f].dst) +
				   (fo == FTSW_OFFSET_ANY ? 0 : fo), swp, pp,
				   maxh), k;

		affected[f] = false;
		for (k = 0; k < h && k < (int)maxh; k++) {
			uint32_t node = t->switches[swp[k]];

			if (node != a && node != b)
				continue;
			p = pp[k];
			if (p && p <= t->nodes[node].nports &&
			    ftsw_port(t, node, p)->peer == (node == a ? b : a))
				affected[f] = true;
		}
	}
	return 0;
}

struct linkrow {
	uint32_t sw;
	unsigned port;
	uint64_t pred, meas;
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

int ftsw_lab_traffic(struct ftsw_lab *lab, const struct ftsw_lab_traffic_opts *o,
		     FILE *out, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	struct traffic tr = { .lab = lab, .o = o, .n = t->nhosts };
	struct ftsw_routing *r = NULL;
	struct ftsw_lab_counters c0 = { 0 }, c1 = { 0 };
	struct flow *fl = NULL;
	struct linkrow *rows = NULL;
	uint64_t *pred = NULL, *stage_load = NULL, rng = o->seed, sent = 0;
	uint64_t lost = 0, max_flows_all = 0, nrows = 0, bad = 0;
	uint32_t s, i, maxh = t->nswitches + 2, *swp = NULL;
	uint8_t *pp = NULL;
	size_t nslots;
	unsigned maxp, packets = o->packets ? o->packets : 10;
	unsigned size = o->size < sizeof(struct udp_hdr) ?
			(unsigned)sizeof(struct udp_hdr) : o->size;
	bool multipath, exact, *affected = NULL;
	uint64_t fail_us = 0;
	int rc = -1;
	char label[64];

	if (!o->pattern || (strcmp(o->pattern, "all2all") &&
			    strcmp(o->pattern, "cps") && strcmp(o->pattern, "perm") &&
			    strncmp(o->pattern, "shift:", 6))) {
		ftsw_err_set(err, "pattern '%s': all2all, cps, shift:K or perm",
			     o->pattern ? o->pattern : "");
		return -1;
	}
	if (strcmp(o->order, "topology") && strcmp(o->order, "random")) {
		ftsw_err_set(err, "order '%s': topology or random", o->order);
		return -1;
	}
	if (t->nhosts < 2) {
		ftsw_err_set(err, "lab %s: fewer than 2 hosts", lab->name);
		return -1;
	}
	r = ftsw_lab_read_routing(lab, err);
	if (!r)
		return -1;
	/* Deterministic paths: LMC 0, or one allowed offset per source. */
	multipath = false;
	for (i = 0; r->lmc && i < r->nhosts; i++)
		multipath |= r->policy[i].fixed_offset == FTSW_OFFSET_ANY;
	if (ftsw_lab_counters(lab, &c0, err))
		goto out;
	maxp = c0.maxports;
	nslots = (size_t)t->nswitches * (maxp + 1);
	tr.order = malloc(sizeof(uint32_t) * tr.n);
	tr.fd = malloc(sizeof(int) * tr.n);
	tr.pfd = calloc(tr.n, sizeof(*tr.pfd));
	tr.rx = calloc(tr.n + 1, sizeof(uint64_t));
	tr.buf = malloc(2048);
	fl = malloc(sizeof(*fl) * (tr.n + 1));
	pred = calloc(nslots + 1, sizeof(uint64_t));
	stage_load = calloc(nslots + 1, sizeof(uint64_t));
	swp = malloc(sizeof(uint32_t) * maxh);
	pp = malloc(maxh);
	affected = calloc(tr.n + 1, sizeof(bool));
	if (!tr.order || !tr.fd || !tr.pfd || !tr.rx || !tr.buf || !fl ||
	    !pred || !stage_load || !swp || !pp || !affected) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	for (i = 0; i < tr.n; i++) {
		tr.order[i] = i;
		tr.fd[i] = -1;
	}
	if (!strcmp(o->order, "random")) {
		uint64_t st = o->seed ^ 0x5eed;

		for (i = tr.n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(ftsw_rand_next(&st) % (i + 1)), x;

			x = tr.order[i];
			tr.order[i] = tr.order[j];
			tr.order[j] = x;
		}
	}
	if (open_sockets(&tr, err))
		goto out;
	if (!o->json)
		fprintf(out, "pattern %s, %s order, %u packets of %u bytes per "
			"flow%s\n", o->pattern, o->order, packets, size,
			multipath ? " (several LIDs per destination: flows "
			"spread over paths by hash; only totals compared)" : "");
	for (s = 0; !o->max_stages || s < o->max_stages; s++) {
		uint32_t nf = stage_flows(&tr, s, fl, &rng, label, sizeof(label));
		uint64_t t0, t1, stage_sent = 0, last, max_flows = 0, before;
		uint32_t f;
		double minr = 1e30, maxr = 0, sumr = 0;

		if (!nf)
			break;
		tr.stage = s;
		memset(tr.rx, 0, sizeof(uint64_t) * (tr.n + 1));
		memset(stage_load, 0, sizeof(uint64_t) * nslots);
		/* The model: every hop of every flow's path. */
		for (f = 0; f < nf; f++) {
			uint8_t fo = r->policy[fl[f].src].fixed_offset;
			int h = ftsw_trace(r, fl[f].src, ftsw_host_lid(r, fl[f].dst) +
					   (fo == FTSW_OFFSET_ANY ? 0 : fo),
					   swp, pp, maxh), k;

			for (k = 0; k < h && k < (int)maxh; k++) {
				size_t slot = (size_t)swp[k] * (maxp + 1) + pp[k];

				stage_load[slot]++;
				if (!multipath)
					pred[slot] += packets;
			}
		}
		for (i = 0; i < nslots; i++) {
			/* edge ports carry one destination: count fabric links */
			if (stage_load[i] > max_flows)
				max_flows = stage_load[i];
		}
		if (max_flows > max_flows_all)
			max_flows_all = max_flows;
		/* Reality. */
		before = tr.rx_total;
		t0 = ftsw_now_us();
		if (o->fail_a) {
			/* Flows whose path crosses the cable about to fail. */
			if (mark_affected(&tr, r, fl, nf, affected, swp, pp, maxh,
					  err))
				goto out;
		}
		for (unsigned pk = 0; pk < packets; pk++) {
			if (o->fail_a && pk == o->fail_at) {
				fail_us = ftsw_now_us();
				if (ftsw_lab_fail(lab, FTSW_FAIL_LINK, o->fail_a,
						  o->fail_b, false, false, NULL,
						  err))
					goto out;
			}
			if (o->pps) {
				/* Paced: round pk starts at t0 + pk * nf / pps. */
				uint64_t due = t0 + (uint64_t)pk * nf * 1000000 /
					       o->pps;

				while (ftsw_now_us() < due)
					drain(&tr, (int)((due - ftsw_now_us()) / 1000));
			}
			for (f = 0; f < nf; f++) {
				struct sockaddr_in to = {
					.sin_family = AF_INET,
					.sin_port = htons(LAB_UDP_PORT),
					.sin_addr.s_addr = ftsw_lab_host_ip(fl[f].dst),
				};
				struct udp_hdr *u = (struct udp_hdr *)tr.buf;
				char pkt[1500];

				memset(pkt, 0, size);
				u = (struct udp_hdr *)pkt;
				u->magic = LAB_UDP_MAGIC;
				u->flow = f;
				u->stage = s;
				while (!o->pps &&
				       stage_sent - (tr.rx_total - before) >=
				       LAB_UDP_WINDOW) {
					uint64_t b = tr.rx_total;

					drain(&tr, 20);
					if (tr.rx_total == b)
						break;	/* lost: don't stall */
				}
				if (sendto(tr.fd[fl[f].src], pkt, size, 0,
					   (struct sockaddr *)&to,
					   sizeof(to)) == (ssize_t)size)
					stage_sent++;
				if ((stage_sent & 63) == 0)
					drain(&tr, 0);
			}
		}
		last = ftsw_now_us();
		while (tr.rx_total - before < stage_sent &&
		       ftsw_now_us() - last < 500000) {
			uint64_t b = tr.rx_total;

			drain(&tr, 20);
			if (tr.rx_total != b)
				last = ftsw_now_us();
		}
		t1 = ftsw_now_us();
		if (o->fail_a) {
			uint64_t la = 0, lu = 0, na = 0, maxa = 0;

			for (f = 0; f < nf; f++) {
				uint64_t l = packets - tr.rx[f];

				if (affected[f]) {
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
				o->fail_b, o->fail_at, packets,
				(fail_us - t0) / 1e3, o->pps, na, la, maxa,
				o->pps ? maxa * 1e3 * nf / o->pps : 0.0,
				nf - (uint32_t)na, lu);
		}
		sent += stage_sent;
		lost += stage_sent - (tr.rx_total - before);
		for (f = 0; f < nf; f++) {
			double mbps = (double)tr.rx[f] * size * 8 /
				      (double)(t1 - t0 + 1);

			if (mbps < minr)
				minr = mbps;
			if (mbps > maxr)
				maxr = mbps;
			sumr += mbps;
		}
		if (o->per_stage && !o->json) {
			fprintf(out, "stage %" PRIu32 " (%s): %" PRIu32 " flows, %"
				PRIu64 " sent, %" PRIu64 " received, busiest "
				"port carries %" PRIu64 " flows", s, label, nf,
				stage_sent, tr.rx_total - before, max_flows);
			if (lab->rate_bps)
				fprintf(out, "; per-flow Mbit/s min/avg/max "
					"%.2f/%.2f/%.2f", minr, sumr / nf, maxr);
			fprintf(out, "\n");
		}
	}
	/* Counters settle: every packet was received, or given up on. */
	if (ftsw_lab_counters(lab, &c1, err))
		goto out;
	rows = calloc(nslots + 1, sizeof(*rows));
	if (!rows) {
		ftsw_err_set(err, "out of memory");
		goto out;
	}
	{
		uint64_t tp = 0, tm = 0;

		for (i = 0; i < nslots; i++) {
			uint64_t m = c1.tx[i] - c0.tx[i];

			tm += m;
			tp += pred[i];
			if (!m && !pred[i])
				continue;
			rows[nrows].sw = (uint32_t)(i / (maxp + 1));
			rows[nrows].port = (unsigned)(i % (maxp + 1));
			rows[nrows].pred = pred[i];
			rows[nrows].meas = m;
			if (!multipath && m != pred[i])
				bad++;
			nrows++;
		}
		exact = !multipath ? !bad : false;
		qsort(rows, nrows, sizeof(*rows), cmp_rows);
		if (o->json) {
			fprintf(out, "{\"pattern\":\"%s\",\"order\":\"%s\",\"sent\":%"
				PRIu64 ",\"lost\":%" PRIu64 ",\"max_flows_per_port\":%"
				PRIu64 ",\"ports\":%" PRIu64 ",\"mismatches\":%" PRIu64
				",\"exact\":%s,\"drops\":%" PRIu64 ",\"links\":[",
				o->pattern, o->order, sent, lost, max_flows_all,
				nrows, bad, exact ? "true" : "false",
				c1.drops - c0.drops);
			for (i = 0; i < nrows; i++)
				fprintf(out, "%s{\"switch\":%" PRIu32 ",\"port\":%u,"
					"\"predicted\":%" PRIu64 ",\"measured\":%"
					PRIu64 "}", i ? "," : "", rows[i].sw,
					rows[i].port, rows[i].pred, rows[i].meas);
			fprintf(out, "]}\n");
		} else {
			uint64_t show = o->verbose ? nrows : 10;

			fprintf(out, "%" PRIu64 " packets sent, %" PRIu64
				" lost, %" PRIu64 " fabric drops; busiest port "
				"carries %" PRIu64 " flows in one stage\n", sent,
				lost, c1.drops - c0.drops, max_flows_all);
			fprintf(out, "  %-12s %10s %10s\n", "port", "predicted",
				"measured");
			for (i = 0; i < nrows && i < show; i++)
				fprintf(out, "  s%-4" PRIu32 ":%-6u %10" PRIu64
					" %10" PRIu64 "%s\n", rows[i].sw,
					rows[i].port, rows[i].pred, rows[i].meas,
					!multipath && rows[i].pred != rows[i].meas ?
					"  MISMATCH" : "");
			if (nrows > show)
				fprintf(out, "  ... %" PRIu64 " more ports (-v)\n",
					nrows - show);
			if (multipath)
				fprintf(out, "total tx: %" PRIu64 " measured, "
					"paths chosen by flow hash\n", tm);
			else
				fprintf(out, "model == reality: %s (%" PRIu64
					" ports, %" PRIu64 " differ; %" PRIu64
					" packets predicted, %" PRIu64
					" counted)\n", exact ? "yes" : "NO",
					nrows, bad, tp, tm);
		}
	}
	if (o->svg) {
		uint64_t *load = calloc(nslots + 1, sizeof(uint64_t));
		char title[128];

		if (!load) {
			ftsw_err_set(err, "out of memory");
			goto out;
		}
		for (i = 0; i < nslots; i++)
			load[i] = c1.tx[i] - c0.tx[i];
		snprintf(title, sizeof(title), "%s, %s order", o->pattern,
			 o->order);
		if (write_svg(lab, load, maxp, o->svg, title, err)) {
			free(load);
			goto out;
		}
		free(load);
		if (!o->json)
			fprintf(out, "link-load picture: %s\n", o->svg);
	}
	rc = multipath || o->fail_a ? 0 : (exact ? 0 : 1);
out:
	if (tr.fd)
		for (i = 0; i < tr.n; i++)
			if (tr.fd[i] >= 0)
				close(tr.fd[i]);
	free(tr.order);
	free(tr.fd);
	free(tr.pfd);
	free(tr.rx);
	free(tr.buf);
	free(fl);
	free(pred);
	free(stage_load);
	free(rows);
	free(swp);
	free(pp);
	free(affected);
	ftsw_lab_counters_free(&c0);
	ftsw_lab_counters_free(&c1);
	ftsw_routing_free(r);
	return rc;
}
