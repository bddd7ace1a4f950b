/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the path policy of an edge port (path.c). Pure logic.
 */
#ifndef _FTSW_PATH_H
#define _FTSW_PATH_H

#include "ftsw.h"

u8 ftsw_pick_offset(const struct ftsw_policy *pol, u32 hash);
u8 ftsw_pick_sl(const struct ftsw_policy *pol, u16 dlid);
bool ftsw_lid_in_range(const struct ftsw_policy *pol, u16 dlid);
int ftsw_policy_check(u16 base_lid, u8 lmc, const u8 *offsets, u32 n_offsets,
		      const u8 *sl, u32 sl_len, const char **msg);
struct ftsw_policy *ftsw_policy_alloc(u32 sl_len);
void ftsw_policy_defaults(struct ftsw_policy *pol, u8 lmc);

#endif /* _FTSW_PATH_H */
