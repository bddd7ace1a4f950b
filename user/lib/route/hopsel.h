/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LIBFTSW_HOPSEL_H
#define LIBFTSW_HOPSEL_H

#include "route/routing.h"

/*
 * Balanced shortest-path tables to host LIDs (minhop, updn). With height
 * != NULL only legal up*down* paths (hop u -> v goes up when height[v] >
 * height[u], ties by switch index).
 */
int ftsw_hopsel(const struct ftsw_topo *t, struct ftsw_routing *r,
		const int *height, unsigned threads, struct ftsw_err *err);

#endif
