// SPDX-License-Identifier: GPL-2.0
/* libftsw lab traffic: the hosts' UDP sockets, sending and receiving. */
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

void lab_tr_drain(struct traffic *tr, int ms)
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
	char pkt[LAB_UDP_LIMIT];
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

int lab_tr_open_sockets(struct traffic *tr, struct ftsw_err *err)
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
			ftsw_err_errno(err, errno,
				       "host %" PRIu32 ": bind UDP port %d: %s",
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

/* Count mode: every flow's datagrams, in rounds, a window in flight. */
int lab_tr_send_counted(struct traffic *tr, unsigned size, bool *failed,
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
				lab_tr_drain(tr, (int)((due - ftsw_now_us()) / 1000));
		}
		for (f = 0; f < tr->nf; f++) {
			if (pk >= tr->fl[f].packets)
				continue;
			while (!o->pps &&
			       stage_sent - (tr->rx_total - before) >=
			       LAB_UDP_WINDOW) {
				uint64_t b = tr->rx_total;

				lab_tr_drain(tr, 20);
				if (tr->rx_total == b)
					break;	/* lost: don't stall */
			}
			stage_sent += send_one(tr, f, size);
			if ((stage_sent & 63) == 0)
				lab_tr_drain(tr, 0);
		}
	}
	return 0;
}

/*
 * A rate-mode round of every flow, in a new order each round: flows
 * meeting at a full drop-tail queue in a fixed order would share it by
 * their phase (the first to arrive after a departure gets the free place)
 * instead of equally. Odd rounds reverse the even round's random order,
 * so any two flows take turns at arriving first.
 */
static void round_all(struct traffic *tr, uint64_t k, unsigned size)
{
	uint32_t f;

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
}

/*
 * --random-dst: the flows grouped by sending host, by[start[s] ..
 * start[s + 1]) being sender s's flows, and tr->turn[s] = s. Returns the
 * number of senders, or -1 when out of memory (by and start freed).
 */
static int64_t group_by_source(struct traffic *tr, uint32_t **by,
			       uint32_t **start)
{
	uint32_t *snd = malloc(sizeof(*snd) * (tr->n + 1)), f, h, ns = 0;
	uint32_t *pos = calloc(tr->n + 1, sizeof(*pos));

	*by = malloc(sizeof(**by) * (tr->nf + 1));
	*start = calloc(tr->n + 2, sizeof(**start));
	if (!snd || !pos || !*by || !*start) {
		free(snd);
		free(pos);
		free(*by);
		free(*start);
		return -1;
	}
	for (f = 0; f < tr->nf; f++)
		pos[tr->fl[f].src]++;		/* flows per host */
	for (h = 0; h < tr->n; h++) {
		if (!pos[h])
			continue;
		snd[h] = ns;
		(*start)[ns + 1] = (*start)[ns] + pos[h];
		ns++;
	}
	for (h = 0; h < ns; h++) {
		pos[h] = (*start)[h];		/* next slot of sender h */
		tr->turn[h] = h;
	}
	for (f = 0; f < tr->nf; f++)
		(*by)[pos[snd[tr->fl[f].src]]++] = f;
	free(snd);
	free(pos);
	return ns;
}

/* A --random-dst round: each sender once, in a random order, to one of
 * its flows at random. */
static void round_random(struct traffic *tr, const uint32_t *by,
			 const uint32_t *start, uint32_t ns, unsigned size)
{
	uint32_t i;

	ftsw_shuffle(tr->turn, ns, &tr->rng);
	for (i = 0; i < ns; i++) {
		uint32_t s = tr->turn[i], k = start[s + 1] - start[s];

		send_one(tr, by[start[s] + ftsw_rand_next(&tr->rng) % k],
			 size);
	}
}

/*
 * Rate mode: rounds of one datagram per flow (with --random-dst: per
 * sending host, to one of its flows at random), paced so that each flow
 * (sender) offers LAB_RATE_OFFER times the link rate (or --pps in all),
 * for dur_ms; throughput is counted over the last four fifths (the first
 * fifth spends tbf's burst and fills the queues).
 */
int lab_tr_send_timed(struct traffic *tr, unsigned size, double rate_bits,
		      unsigned dur_ms, struct ftsw_err *err)
{
	const struct ftsw_lab_traffic_opts *o = tr->o;
	uint64_t t0 = ftsw_now_us(), end = t0 + (uint64_t)dur_ms * 1000, now;
	uint32_t *by = NULL, *start = NULL, f;
	int64_t per_round = tr->nf;
	double ivl;
	uint64_t k;

	if (o->random_dst)
		per_round = group_by_source(tr, &by, &start);
	if (per_round < 0) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	ivl = o->pps ? 1e6 * (double)per_round / o->pps :
	      1e6 * (size + LAB_FRAME_EXTRA) * 8 / (LAB_RATE_OFFER * rate_bits);
	tr->win_a = t0 + (uint64_t)dur_ms * 1000 / 5;
	tr->win_b = end;
	if (!o->random_dst)
		for (f = 0; f < tr->nf; f++)
			tr->turn[f] = f;
	for (k = 0;; k++) {
		uint64_t due = t0 + (uint64_t)(k * ivl);

		if (due >= end)
			break;
		while ((now = ftsw_now_us()) < due)
			lab_tr_drain(tr, (int)((due - now + 999) / 1000));
		if (now >= end)
			break;
		if (o->random_dst)
			round_random(tr, by, start, (uint32_t)per_round, size);
		else
			round_all(tr, k, size);
		lab_tr_drain(tr, 0);
	}
	while ((now = ftsw_now_us()) < end)
		lab_tr_drain(tr, (int)((end - now + 999) / 1000));
	free(by);
	free(start);
	return 0;
}
