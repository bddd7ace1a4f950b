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

/*
 * BFS hop distances from every switch to switch root into d[nswitches]
 * (255: not reached; a switch 254 hops away is not expanded), q a queue
 * of nswitches entries. With height != NULL only over down hops: u -> v
 * counts when v is not up from u, so d is the down-only distance.
 */
void ftsw_switch_bfs(const struct ftsw_topo *t, uint32_t root,
		     const int *height, uint8_t *d, uint32_t *q);

#endif
