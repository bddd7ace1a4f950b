/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lab traffic's files share (private to user/lib/lab): one run's
 * state and the functions one file calls in another (lab_tr_ prefix).
 */
#ifndef LIBFTSW_LAB_TRAFFIC_INT_H
#define LIBFTSW_LAB_TRAFFIC_INT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/analyze.h"
#include "lab/lab.h"

#define LAB_UDP_PORT	7777
#define LAB_UDP_MAGIC	0x66747375u
#define LAB_UDP_WINDOW	512
#define LAB_UDP_MAX	1400	/* default payload on a shaped lab */
/* the largest: IPv4 and UDP headers, 28 bytes, in the hosts' MTU */
#define LAB_UDP_LIMIT	(FTSW_LAB_HOST_MTU - 28)
/*
 * Bytes a datagram adds to its payload on a fabric link, i.e. what tbf
 * counts there: UDP, IPv4 and Ethernet headers and the fabric header.
 */
#define LAB_FRAME_EXTRA	(8 + 20 + 14 + FTSW_HLEN)
/*
 * A lossless lab's payload: with the 52 bytes of headers (UDP 8, IPv4 20,
 * Ethernet 14, fabric 10) a 1472-byte frame, 23 credit blocks of 64 bytes
 * exactly, as the kernel's link time and ftsw sim --frame-bytes 1472 count
 * it (sim.md).
 */
#define LAB_UDP_LOSSLESS	(1472 - LAB_FRAME_EXTRA)
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

/*
 * One run of `lab traffic`: what it was asked, the model's inputs, the
 * sockets, the per-port predictions and the results, shared by its steps.
 */
struct trun {
	struct ftsw_lab *lab;
	const struct ftsw_lab_traffic_opts *o;
	struct ftsw_lab_traffic_result *res;
	struct traffic tr;
	struct ftsw_routing *r;
	struct ftsw_lab_counters c0, c1;
	struct ftsw_pattern pat;
	struct ftsw_offset_list *lists;
	struct ftsw_path *path;
	struct ftsw_tm dg;		/* datagrams per flow of a stage */
	struct ftsw_pattern_metrics m;	/* the analyzer's, per stage */
	struct ftsw_lab_port_load *rows;
	struct ftsw_lab_flow_rate *fr;
	size_t nfr, capfr, fcap, nslots, capst;
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

/* lab_traffic_net.c */
void lab_tr_drain(struct traffic *tr, int ms);
int lab_tr_open_sockets(struct traffic *tr, struct ftsw_err *err);
int lab_tr_send_counted(struct traffic *tr, unsigned size, bool *failed,
			uint64_t *fail_us, struct ftsw_err *err);
int lab_tr_send_timed(struct traffic *tr, unsigned size, double rate_bits,
		      unsigned dur_ms, struct ftsw_err *err);

/* lab_traffic_model.c */
void lab_tr_pattern_spec(const char *p, uint64_t seed, char *buf, size_t sz);
void lab_tr_order_spec(const char *o, uint64_t seed, char *buf, size_t sz);
int lab_tr_read_offset_lists(struct ftsw_lab *lab, struct ftsw_routing *r,
			     struct ftsw_offset_list *l, bool *multipath,
			     struct ftsw_err *err);
void lab_tr_flow_paths(const struct ftsw_routing *r,
		       const struct ftsw_offset_list *lists,
		       const double *flows, struct lflow *fl, uint32_t nf,
		       uint32_t a, uint32_t b, bool edges, struct ftsw_path *p);

#endif
