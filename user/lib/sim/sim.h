/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw simulation: a flit-level simulator of a lossless InfiniBand-style
 * fabric (paper 000 §5, made explicit; Documentation/sim.md), on any
 * routing result ftsw computes or reads.
 *
 * Model. Virtual cut-through: every switch port has an input and an output
 * buffer per VL (capacity in packets), every link carries one flit per
 * cycle each way, and a packet starts over a link only when the input
 * buffer of its VL at the far end has room for the whole packet (credits,
 * returned when the packet's tail leaves that buffer). Packets are P flits,
 * messages M packets. Forwarding is the kernel's (analyze/trace.c): the
 * source picks the message's LMC offset from its allowed offsets (path
 * policy), DLID = destination base LID + offset, every switch looks its LFT
 * up on the DLID; SL per pair from the routing, VL = SL (mod the data VLs).
 * Output ports grant the crossbar round robin over (input port, VL), links
 * serve their VLs round robin. Hosts queue their messages without bound and
 * sink at link rate.
 *
 * Traffic: Poisson message arrivals per source at an offered load
 * normalised to link capacity (flits per cycle per host), destinations
 * uniform random or from an analyzer pattern and node order; or a fixed
 * number of messages per flow (count mode) run until drained.
 *
 * Determinism: one load point is one single-threaded run fully determined
 * by its options and seed; sweeps run points on parallel threads and give
 * the same numbers for any thread count.
 */
#ifndef LIBFTSW_SIM_H
#define LIBFTSW_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/analyze.h"
#include "cc/cc.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_SIM_MAX_VLS	15

enum ftsw_sim_policy {
	FTSW_SIM_RANDOM = 0,	/* per message, uniform over allowed offsets */
	FTSW_SIM_HASH,		/* per (source, destination) pair, fixed */
	FTSW_SIM_RR,		/* per source, round robin over its offsets */
	FTSW_SIM_PACKET,	/* per packet, uniform (not the kernel's) */
	FTSW_SIM_SPREAD,	/* per packet, round robin per (source,
				 * destination) pair: the flow-level model's
				 * even split (not the kernel's) */
};

/*
 * Switching. Virtual cut-through on the event engine (the default; a
 * packet moves on only when the next buffer has room for all of it), or
 * on the flit-level engine (sim/flit.c, every flit every cycle: small
 * fabrics): wormhole (a flit moves on when the next buffer has room for
 * it; buffers may be smaller than a packet, which then spans several
 * switches), or virtual cut-through flit by flit (a cross-check of the
 * two engines).
 */
enum ftsw_sim_switching {
	FTSW_SIM_VCT = 0,
	FTSW_SIM_WORMHOLE,
	FTSW_SIM_VCT_FLITS,
};

struct ftsw_sim_opts {
	unsigned packet_flits;	/* P (10) */
	unsigned msg_packets;	/* M (10) */
	unsigned in_buf, out_buf;	/* packets per port per VL (4, 4) */
	unsigned link_latency;	/* cycles a flit takes over a link (1) */
	unsigned router_latency;	/* head at input -> head at output (1) */
	unsigned vls;		/* data VLs (0 = the routing's nvls) */
	enum ftsw_sim_policy policy;
	unsigned speedup;	/* crossbar speedup S: an input moves a
				 * packet to an output buffer at S flits
				 * per cycle (1; 0 = 1) */
	bool voq;		/* input buffers are not FIFO: an output may
				 * take the oldest packet of any input buffer
				 * that goes to it (as virtual output queues
				 * in the input buffer); default off */
	unsigned interleave;	/* a source sends the packets of up to this
				 * many of its arrived messages in turn, one
				 * packet each (0 or 1: one message after
				 * the other, the default; UINT_MAX: all) */
	uint64_t seed;
	uint32_t warmup, measure;	/* cycles (10000, 20000) */
	uint32_t drain;		/* extra cycles for measured messages
				 * (0 = measure) */
	uint32_t deadlock_cycles;	/* no progress this long = deadlock
					 * (0 = 2000; cycles checked every
					 * half of it) */
	uint32_t count;		/* count mode: messages per flow (0 = off) */
	unsigned threads;	/* sweeps: 0 = all CPUs */
	bool phased;		/* the phased engine (Documentation/sim.md):
				 * each cycle's events in a fixed order and
				 * every effect on another node applied at
				 * the cycle's end, so one point can run on
				 * several threads with the same numbers */
	unsigned point_threads;	/* threads of one point (0 = 1; ftsw_sim_sweep
				 * sets it from threads): the phased engine
				 * when phased, or when it gives the event
				 * engine's numbers (one VL, FIFO inputs)
				 * on a large fabric */
	/* a sweep's points, or a single run's cycles (NULL: quiet) */
	ftsw_progress_fn progress;
	void *progress_arg;
	bool verify;		/* check every cycle that no resource able
				 * to act was left asleep (slow; tests) */
	/*
	 * Congestion management (Documentation/congestion.md): congestion
	 * control's parameters (NULL: off; on needs cycle_ns), the length
	 * of a cycle in ns (the lab's rate: CCTI_Timer's unit in cycles),
	 * an output queue's capacity for the marking threshold in flits
	 * (0: out_buf * P; the lab's queue in 64-byte blocks otherwise);
	 * adaptive routing over the routing's groups (r->ar) with flowlets
	 * of flowlet_gap cycles (0: a choice per packet). Not with the
	 * phased engine or --voq.
	 */
	const struct ftsw_cc_params *cc;
	double cycle_ns;
	unsigned out_cap_flits;
	bool adaptive;
	uint32_t flowlet_gap;
	/*
	 * The flit engine (switching not VCT): input and output buffers of
	 * buf_flits flits per port per VL (0: in_buf, out_buf packets of P).
	 * Not with congestion control, adaptive routing, --voq, --phased or
	 * --interleave.
	 */
	enum ftsw_sim_switching switching;
	unsigned buf_flits;
};

const char *ftsw_sim_switching_name(enum ftsw_sim_switching w);
int ftsw_sim_switching_parse(const char *s, enum ftsw_sim_switching *w,
			     struct ftsw_err *err);

void ftsw_sim_opts_default(struct ftsw_sim_opts *o);
const char *ftsw_sim_policy_name(enum ftsw_sim_policy p);
int ftsw_sim_policy_parse(const char *s, enum ftsw_sim_policy *p,
			  struct ftsw_err *err);

/*
 * Destinations per source host. "uniform" (each message to a host drawn
 * uniformly among the others) or any analyzer pattern (ftsw_pattern_make;
 * all stages together, a flow's amount its weight) placed by a node order
 * (ftsw_order_make) on the first `ranks` ranks (0 = all hosts).
 */
struct ftsw_sim_traffic {
	uint32_t nhosts;
	bool uniform;
	uint32_t *start;	/* CSR over sources, nhosts + 1 */
	uint32_t *dst;
	double *cum;		/* cumulative weight per source */
	uint32_t active;	/* sources with at least one destination */
	char name[96];
};

/*
 * The traffic of pattern (analyze's patterns, or "uniform") in order:
 * 0, -EINVAL for a pattern, order or rank count refused as such (a usage
 * error), -1 for anything else (a file, memory), err set.
 */
int ftsw_sim_traffic_make(const struct ftsw_topo *t, const char *pattern,
			  const char *order, uint32_t ranks,
			  struct ftsw_sim_traffic *tr, struct ftsw_err *err);
void ftsw_sim_traffic_free(struct ftsw_sim_traffic *tr);

/* One buffer of a deadlock cycle: switch input buffer and where it waits. */
struct ftsw_sim_wait {
	uint32_t sw;		/* switch index */
	uint8_t in_port, out_port, vl;
};

struct ftsw_sim_result {
	double load;		/* nominal offered load */
	double offered, accepted;	/* flits / (host * cycle), measured */
	uint64_t msgs_measured, msgs_done;	/* created / delivered */
	uint64_t pkts_done;
	double msg_lat_avg, pkt_lat_avg, net_lat_avg;	/* cycles */
	double msg_lat_p50, msg_lat_p99, pkt_lat_p50, pkt_lat_p99;
	uint64_t cycles;	/* simulated */
	uint64_t flit_hops;	/* flits moved over links, whole run */
	uint64_t pkts_injected, pkts_delivered, pkts_dropped;
	uint64_t samples;	/* conservation checks passed */
	double seconds;		/* wall time of the run, set-up included */
	double cpu_seconds;	/* CPU time of the cycle loop (its threads) */
	unsigned threads;	/* threads that ran the point */
	bool fell_back;		/* threads were offered but the phased engine
				 * found no memory: the event engine ran */
	unsigned vls;
	uint32_t nports;
	/* flits per (link, VL) in the measured window: link * vls + vl */
	uint64_t *link_flits;
	uint32_t window;	/* cycles of the measured window */
	/*
	 * Congestion management, whole run: packets marked FECN, BECNs that
	 * reached a source, CCTI trigger events, times a source's head
	 * packet waited for its inter-packet delay, the highest CCTI; the
	 * adaptive choices made and how many left the static port.
	 * Packets delivered after a later packet of their (source,
	 * destination) pair, in all and per destination host (ooo, malloc,
	 * NULL when not counted: only with adaptive routing, at most 4096
	 * hosts).
	 */
	uint64_t cc_marked, cc_becns, cc_triggers, cc_waits;
	unsigned cc_max_ccti;
	uint64_t ar_choices, ar_moved;
	uint64_t ooo_total;
	uint64_t *ooo;
	bool deadlock;
	uint64_t deadlock_at;	/* cycle it was found */
	struct ftsw_sim_wait *cycle;	/* the wait-for cycle (malloc) */
	unsigned ncycle;
	char note[160];
};

void ftsw_sim_result_free(struct ftsw_sim_result *res);

/* One load point (count mode: load is the arrival rate while sending). */
int ftsw_sim_run(const struct ftsw_routing *r,
		 const struct ftsw_sim_traffic *tr,
		 const struct ftsw_sim_opts *o, double load,
		 struct ftsw_sim_result *res, struct ftsw_err *err);

/* Load points over o->threads threads; res[i] for loads[i]. */
int ftsw_sim_sweep(const struct ftsw_routing *r,
		   const struct ftsw_sim_traffic *tr,
		   const struct ftsw_sim_opts *o, const double *loads,
		   size_t n, struct ftsw_sim_result *res,
		   struct ftsw_err *err);

/*
 * Saturation search: loads 0.1..1.0 by 0.1, then 10 points by 0.02 around
 * the one with the most accepted throughput. *res (n_out of them, sorted
 * by load, malloc) holds every point; *best the index of the maximum.
 */
int ftsw_sim_saturation(const struct ftsw_routing *r,
			const struct ftsw_sim_traffic *tr,
			const struct ftsw_sim_opts *o,
			struct ftsw_sim_result **res, size_t *n_out,
			size_t *best, struct ftsw_err *err);

/*
 * Parse "A:B:STEP" (or one number) into loads in (0, 1]; *loads malloc.
 */
int ftsw_sim_loads_parse(const char *s, double **loads, size_t *n,
			 struct ftsw_err *err);

/*
 * The lab's parameters in the simulator's units (labmap.c; sim.md, "The
 * lab's parameters"). A flit is a credit block of the kernel's lossless
 * mode, FTSW_SIM_FLIT_BYTES; a frame of F bytes (from its Ethernet header
 * on) is a packet of P = ceil(F / 64) flits; a cycle is 64 * 8 / rate
 * seconds; a buffer of B bytes holds floor(floor(B / 64) / P) packets.
 * Throughput in flits per cycle is rate * F / (P * 64) bit/s of frames.
 */
#define FTSW_SIM_FLIT_BYTES	64

struct ftsw_sim_lab {
	unsigned frame_bytes;	/* the lab's frame, Ethernet header on */
	uint64_t rate_bits;	/* link rate, bit/s */
	unsigned in_buf_bytes, out_buf_bytes;	/* per port per VL (0: keep) */
};

struct ftsw_sim_lab_map {
	unsigned packet_flits, in_buf, out_buf;	/* what o got */
	unsigned out_cap_flits;	/* the output queue's blocks (o too) */
	double cycle_s;		/* seconds per cycle */
	double frame_share;	/* F / (P * 64): frame bytes per flit byte */
	uint64_t rate_bits;
};

/* Set o's packet and buffer sizes from l; -1 with err naming the option. */
int ftsw_sim_lab_apply(const struct ftsw_sim_lab *l, struct ftsw_sim_opts *o,
		       struct ftsw_sim_lab_map *m, struct ftsw_err *err);
/* Flits per cycle (of one host or link) as bit/s of the lab's frames. */
double ftsw_sim_lab_bits(const struct ftsw_sim_lab_map *m, double flits);

/*
 * Is a reported deadlock cycle one of the routing's channel dependency
 * graph? Independently of the simulator: consecutive buffers must be
 * joined by the cable out of the previous one's output port, and every
 * dependency (channel k -> channel k + 1) on the cycle's VL must be taken
 * by some traced path (any source, destination and allowed offset, SL mod
 * vls = VL). Returns 1 yes, 0 no (why says which dependency is missing),
 * -1 when the fabric is too large to trace every pair (more than 2^26
 * paths).
 */
int ftsw_sim_cycle_check(const struct ftsw_routing *r,
			 const struct ftsw_sim_wait *c, unsigned n,
			 unsigned vls, char *why, size_t sz);

/*
 * Per-flow throughput of a point (sim/flows.c), one entry per destination
 * host of the traffic: the flits per cycle the link into it carried in
 * the measured window. With one source (src) it is that flow's
 * throughput; with several (src FTSW_NONE) their sum. Flows of one
 * source come first, by source, then the destinations of several.
 */
struct ftsw_sim_flow {
	uint32_t src;		/* the one source, or FTSW_NONE */
	uint32_t dst;
	uint32_t sources;	/* hosts sending to dst */
	double accepted;	/* flits per cycle into dst */
};
int ftsw_sim_flows(const struct ftsw_topo *t,
		   const struct ftsw_sim_traffic *tr,
		   const struct ftsw_sim_result *x, struct ftsw_sim_flow **flows,
		   size_t *n, struct ftsw_err *err);

#pragma GCC visibility pop

#endif
