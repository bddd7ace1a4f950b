// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: VL arbitration of lossless mode (IBA vol. 1, 7.6.9): which data VL
 * of a port sends next, by the port's VLArbitrationTable (a high and a low
 * priority table of (VL, weight) entries, weights in 64-byte blocks, and
 * VLHighLimit), as the SMA and netlink set it. Pure: ll_queue.c keeps
 * where each port's arbitration stands.
 */
#include <linux/bits.h>
#include <linux/kernel.h>
#include "ll_arb.h"

static bool ftsw_arb_weighted(const struct ftsw_arb_cfg *cfg, int t)
{
	int i;

	for (i = 0; i < FTSW_VLARB_CAP; i++)
		if (cfg->ent[t][i][1] && cfg->ent[t][i][0] < FTSW_NUM_DATA_VL)
			return true;
	return false;
}

static bool ftsw_arb_table_ready(const struct ftsw_arb_cfg *cfg, int t,
				 u16 ready)
{
	int i;

	for (i = 0; i < FTSW_VLARB_CAP; i++)
		if (cfg->ent[t][i][1] && cfg->ent[t][i][0] < FTSW_NUM_DATA_VL &&
		    (ready & BIT(cfg->ent[t][i][0])))
			return true;
	return false;
}

/* The next VL of table @t: its current entry until the weight is used. */
static int ftsw_arb_table_pick(const struct ftsw_arb_cfg *cfg,
			       struct ftsw_arb *st, int t, u16 ready,
			       const u16 *blocks)
{
	int n;

	for (n = 0; n <= FTSW_VLARB_CAP; n++) {
		const u8 *e = cfg->ent[t][st->idx[t]];

		if (e[1] && e[0] < FTSW_NUM_DATA_VL && (ready & BIT(e[0])) &&
		    st->used[t] < e[1]) {
			st->used[t] += blocks[e[0]];
			if (st->used[t] >= e[1]) {
				st->idx[t] = (st->idx[t] + 1) % FTSW_VLARB_CAP;
				st->used[t] = 0;
			}
			return e[0];
		}
		st->idx[t] = (st->idx[t] + 1) % FTSW_VLARB_CAP;
		st->used[t] = 0;
	}
	return -1;
}

/*
 * Pick the VL to send next among @ready (bit per VL whose head may go now;
 * @blocks: the size of each head), by the VL arbitration table @cfg, and
 * account for it in @st as sent. -1: none. Pure, for KUnit.
 *
 * Both tables without a weighted entry: round robin, one packet per VL.
 * Else the high table while it has a ready VL, except that once the high
 * VLs sent more than the limit (VLHighLimit * 4096 bytes; 0: one packet;
 * 255: no limit) since the last low packet, a ready low VL sends one.
 * Within a table each entry sends packets until their blocks reach its
 * weight (a packet is never split), then the next entry; an entry whose
 * VL has nothing ready is passed over.
 */
int ftsw_arb_pick(const struct ftsw_arb_cfg *cfg, struct ftsw_arb *st,
		  u16 ready, const u16 *blocks)
{
	bool hi, lo, over;
	int v, i;

	ready &= BIT(FTSW_NUM_DATA_VL) - 1;
	if (!ready)
		return -1;
	if (!ftsw_arb_weighted(cfg, 0) && !ftsw_arb_weighted(cfg, 1)) {
		for (i = 1; i <= FTSW_NUM_DATA_VL; i++) {
			v = (st->rr + i) % FTSW_NUM_DATA_VL;
			if (ready & BIT(v)) {
				st->rr = v;
				return v;
			}
		}
		return -1;
	}
	hi = ftsw_arb_table_ready(cfg, 1, ready);
	lo = ftsw_arb_table_ready(cfg, 0, ready);
	if (!hi && !lo)
		return -1;
	if (cfg->limit == 255)
		over = false;
	else if (!cfg->limit)
		over = st->high_bytes > 0;
	else
		over = st->high_bytes >= (u32)cfg->limit * 4096;
	if (hi && !(lo && over)) {
		v = ftsw_arb_table_pick(cfg, st, 1, ready, blocks);
		if (v >= 0)
			st->high_bytes += blocks[v] * FTSW_CREDIT_BYTES;
		return v;
	}
	v = ftsw_arb_table_pick(cfg, st, 0, ready, blocks);
	st->high_bytes = 0;
	return v;
}
