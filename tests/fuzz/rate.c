// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: rates (lab up --rate, sim --rate, port set rate: util's
 * ftsw_parse_rate) and the lab's parameters in the simulator's units
 * (ftsw_sim_lab_apply). An accepted rate is within its bounds; an
 * accepted mapping has packets of at least one flit and buffers of at
 * least one packet; a refusal names the option.
 */
#include "fuzz.h"
#include "sim/sim.h"
#include "util/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_sim_lab l = { 0 };
	struct ftsw_sim_lab_map m;
	struct ftsw_sim_opts o;
	struct ftsw_err err;
	uint64_t bits;
	char *s;

	if (size < 8)
		return 0;
	s = fuzz_str(data + 8, size - 8);
	if (!s)
		return 0;
	if (!ftsw_parse_rate("--rate", s, 1000, 1000000000000ULL, &bits,
			     &err)) {
		FUZZ_ASSERT(bits >= 1000 && bits <= 1000000000000ULL);
		l.rate_bits = bits;
	} else {
		FUZZ_ASSERT(strstr(err.msg, "--rate"));
	}
	l.frame_bytes = (unsigned)data[0] << 8 | data[1];
	l.in_buf_bytes = (unsigned)data[2] << 16 | (unsigned)data[3] << 8;
	l.out_buf_bytes = (unsigned)data[4] << 16 | (unsigned)data[5] << 8 |
			  data[6];
	ftsw_sim_opts_default(&o);
	if (!ftsw_sim_lab_apply(&l, &o, &m, &err)) {
		FUZZ_ASSERT(o.packet_flits >= 1 && o.in_buf >= 1 &&
			    o.out_buf >= 1 && o.in_buf <= 255 &&
			    o.out_buf <= 255);
		FUZZ_ASSERT((uint64_t)o.packet_flits * FTSW_SIM_FLIT_BYTES >=
			    l.frame_bytes);
		FUZZ_ASSERT(m.frame_share > 0 && m.frame_share <= 1);
	} else {
		FUZZ_ASSERT(strstr(err.msg, "--"));
	}
	free(s);
	return 0;
}
