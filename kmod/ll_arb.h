/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: VL arbitration of lossless mode (ll_arb.c). Pure logic.
 */
#ifndef _FTSW_LL_ARB_H
#define _FTSW_LL_ARB_H

#include "ftsw.h"

int ftsw_arb_pick(const struct ftsw_arb_cfg *cfg, struct ftsw_arb *st,
		  u16 ready, const u16 *blocks);

#endif /* _FTSW_LL_ARB_H */
