// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's parameters in the simulator's units (Documentation/sim.md,
 * "The lab's parameters"): a flit is one credit block of the kernel's
 * lossless mode (64 bytes), a packet is a frame of the lab rounded up to
 * whole blocks (what its credits cost), a cycle is the time a flit takes
 * at the link rate, and a buffer of B bytes holds as many whole packets as
 * its blocks allow (virtual cut-through: a frame needs room for all of it).
 * The kernel moves a frame from an input buffer to an output queue at once
 * (its crossbar has no transfer time): unless --speedup says otherwise,
 * the simulator's crossbar moves a packet in one cycle (speedup P).
 */
#include <math.h>

#include "sim/sim.h"

int ftsw_sim_lab_apply(const struct ftsw_sim_lab *l, struct ftsw_sim_opts *o,
		       struct ftsw_sim_lab_map *m, struct ftsw_err *err)
{
	unsigned P, bin, bout;

	if (!l->frame_bytes || l->frame_bytes > FTSW_SIM_FLIT_BYTES * 4096u) {
		ftsw_err_set(err, "--frame-bytes: %u is not a frame size in "
			     "1..%u bytes", l->frame_bytes,
			     FTSW_SIM_FLIT_BYTES * 4096u);
		return -1;
	}
	if (!l->rate_bits) {
		ftsw_err_set(err, "--rate: a link rate is needed with "
			     "--frame-bytes");
		return -1;
	}
	P = (l->frame_bytes + FTSW_SIM_FLIT_BYTES - 1) / FTSW_SIM_FLIT_BYTES;
	bin = l->in_buf_bytes / FTSW_SIM_FLIT_BYTES / P;
	bout = l->out_buf_bytes / FTSW_SIM_FLIT_BYTES / P;
	if ((l->in_buf_bytes && !bin) || (l->out_buf_bytes && !bout)) {
		ftsw_err_set(err, "--%s-buffer-bytes: %u bytes hold no frame "
			     "of %u bytes (%u blocks of %u)",
			     l->in_buf_bytes && !bin ? "in" : "out",
			     l->in_buf_bytes && !bin ? l->in_buf_bytes :
			     l->out_buf_bytes, l->frame_bytes, P,
			     FTSW_SIM_FLIT_BYTES);
		return -1;
	}
	if (bin > 255 || bout > 255) {
		ftsw_err_set(err, "--buffer-bytes: more than 255 frames of %u "
			     "bytes per buffer", l->frame_bytes);
		return -1;
	}
	o->packet_flits = P;
	if (!o->speedup)
		o->speedup = P < 64 ? P : 64;
	if (bin)
		o->in_buf = bin;
	if (bout)
		o->out_buf = bout;
	m->packet_flits = P;
	m->in_buf = o->in_buf;
	m->out_buf = o->out_buf;
	m->cycle_s = FTSW_SIM_FLIT_BYTES * 8.0 / (double)l->rate_bits;
	/* congestion control: the timer's cycles, the queue's blocks */
	o->cycle_ns = m->cycle_s * 1e9;
	if (l->out_buf_bytes)
		o->out_cap_flits = l->out_buf_bytes / FTSW_SIM_FLIT_BYTES;
	m->out_cap_flits = o->out_cap_flits;
	m->frame_share = (double)l->frame_bytes / (P * FTSW_SIM_FLIT_BYTES);
	m->rate_bits = l->rate_bits;
	return 0;
}

double ftsw_sim_lab_bits(const struct ftsw_sim_lab_map *m, double flits)
{
	return flits * (double)m->rate_bits * m->frame_share;
}
