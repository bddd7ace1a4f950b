// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the path policy of an edge port, which plays its host's channel
 * adapter: the host's LID range (base LID, LMC), the DLID offsets its
 * outgoing packets may take (one picked by flow hash) and the SL by DLID.
 * Set by netlink (PORT_BIND, PORT_SET) or by a subnet manager's PortInfo
 * Set (sma.c), replaced as a whole with RCU. Pure logic.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include "path.h"

/* The LMC offset of a flow: its hash scaled over the allowed offsets. */
u8 ftsw_pick_offset(const struct ftsw_policy *pol, u32 hash)
{
	if (pol->n_offsets <= 1)
		return pol->n_offsets ? pol->offsets[0] : 0;
	return pol->offsets[reciprocal_scale(hash, pol->n_offsets)];
}

/* The SL of a packet to @dlid: the per-DLID table, else the default. */
u8 ftsw_pick_sl(const struct ftsw_policy *pol, u16 dlid)
{
	if (dlid < pol->sl_len)
		return pol->sl[dlid];
	return pol->default_sl;
}

/* Is @dlid one of the host's 2^LMC LIDs? */
bool ftsw_lid_in_range(const struct ftsw_policy *pol, u16 dlid)
{
	return dlid >= pol->base_lid &&
	       dlid - pol->base_lid < (1U << pol->lmc);
}

/*
 * Check an edge port's endpoint and path policy as a whole. Offsets may
 * repeat (a repeated offset takes a larger share of the flows).
 */
int ftsw_policy_check(u16 base_lid, u8 lmc, const u8 *offsets, u32 n_offsets,
		      const u8 *sl, u32 sl_len, const char **msg)
{
	u32 i;

	if (lmc > FTSW_MAX_LMC) {
		*msg = "LMC must be 0..7";
		return -EINVAL;
	}
	if (!base_lid || base_lid > FTSW_MAX_LID) {
		*msg = "base LID must be 1..0xBFFF";
		return -EINVAL;
	}
	if (base_lid & ((1U << lmc) - 1)) {
		*msg = "base LID must be a multiple of 2^LMC";
		return -EINVAL;
	}
	if (base_lid + (1U << lmc) - 1 > FTSW_MAX_LID) {
		*msg = "LID range of the host runs past 0xBFFF";
		return -ERANGE;
	}
	if (!n_offsets || n_offsets > FTSW_MAX_OFFSETS) {
		*msg = "between 1 and 128 offsets";
		return -EINVAL;
	}
	for (i = 0; i < n_offsets; i++) {
		if (offsets[i] >= (1U << lmc)) {
			*msg = "offset not below 2^LMC";
			return -EINVAL;
		}
	}
	if (sl_len > FTSW_LFT_SIZE) {
		*msg = "SL table longer than the LID space";
		return -EINVAL;
	}
	for (i = 0; i < sl_len; i++) {
		if (sl[i] >= FTSW_NUM_SL) {
			*msg = "SL table entry not below 16";
			return -EINVAL;
		}
	}
	return 0;
}

struct ftsw_policy *ftsw_policy_alloc(u32 sl_len)
{
	struct ftsw_policy *pol;

	pol = kvzalloc(struct_size(pol, sl, sl_len), GFP_KERNEL_ACCOUNT);
	if (pol)
		pol->sl_len = sl_len;
	return pol;
}

/* An LMC and all its 2^@lmc offsets, as a new edge port has them. */
void ftsw_policy_defaults(struct ftsw_policy *pol, u8 lmc)
{
	int i;

	pol->lmc = lmc;
	pol->n_offsets = 1U << lmc;
	for (i = 0; i < pol->n_offsets; i++)
		pol->offsets[i] = i;
}
