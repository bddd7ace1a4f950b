/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Destination-based tables on complete XGFTs (PGFTs with all p = 1 and
 * w1 = 1), shared by the multipath (lmp.c) and oblivious (osrm.c, mlid.c,
 * wsr.c) engines.
 *
 * Notation (paper 000, §3.1): a node is (l, a_h..a_1); a level-l node
 * reaches its parent b (0 <= b < w_{l+1}) by changing digit l+1 to b; the
 * parent choices b_1..b_k made on the way up from a host name the top
 * switch of the level-k sub-XGFT, i.e. the path, whose index is the
 * mixed-radix number b_1 b_2 .. b_k (b_1 most significant), Path 0 being
 * the leftmost top switch. Hosts are numbered by their digits, a_h most
 * significant (the paper's processing node number).
 *
 * Every switch u at level l and destination host d have an NCA level k:
 * the lowest k >= l with u's digits above k equal to d's. k == l: u is an
 * ancestor of d and the entry goes down; else the engine's callback picks
 * the parent b_{l+1} for LID offset `off`.
 */
#ifndef LIBFTSW_XGFT_H
#define LIBFTSW_XGFT_H

#include "route/routing.h"

struct ftsw_xgft {
	const struct ftsw_topo *t;
	const struct ftsw_pgft *g;
	unsigned h, maxw, maxm;
	uint64_t W[FTSW_PGFT_MAX_H + 1];	/* W[k] = w_1 * .. * w_k */
	uint64_t M[FTSW_PGFT_MAX_H + 1];	/* M[k] = m_1 * .. * m_k */
	uint8_t *up;		/* [sw * maxw + b]: port to parent b */
	uint8_t *down;		/* [sw * maxm + a]: port to child a */
	uint64_t *hostnum;	/* [host index]: paper number from digits */
	uint32_t *byhostnum;	/* [paper number]: host index */
};

/* Parent choice b_{l+1} (0..w_{l+1}-1) at switch sw (level l, NCA k > l). */
typedef unsigned (*ftsw_xgft_choose_fn)(void *ctx, const struct ftsw_xgft *x,
					uint32_t sw, unsigned l, unsigned k,
					uint32_t dhost, unsigned off);

/* Check t is a complete XGFT with w1 = 1 and build x; err names engine. */
int ftsw_xgft_init(struct ftsw_xgft *x, const struct ftsw_topo *t,
		   const char *engine, struct ftsw_err *err);
void ftsw_xgft_free(struct ftsw_xgft *x);
/* Digit i (1..h) of node id. */
static inline unsigned ftsw_xgft_digit(const struct ftsw_xgft *x, uint32_t node,
				       unsigned i)
{
	return x->t->digits[(size_t)node * x->h + i - 1];
}
/* Digit b_{l+1} of path index p at NCA level k (l < k). */
static inline unsigned ftsw_xgft_path_digit(const struct ftsw_xgft *x,
					    uint64_t p, unsigned l, unsigned k)
{
	return (unsigned)((p / (x->W[k] / x->W[l + 1])) % x->g->w[l]);
}
/*
 * Fill every host-LID entry of r with choose(); switch LIDs by up*down*
 * shortest paths; sets r->rank (leaves 0).
 */
int ftsw_xgft_fill(struct ftsw_xgft *x, struct ftsw_routing *r,
		   ftsw_xgft_choose_fn choose, void *ctx,
		   const struct ftsw_route_opts *o, struct ftsw_err *err);

/* Is t's PGFT an FT(m, n)? Sets *m and *n; else err names engine. */
int ftsw_xgft_ftmn(const struct ftsw_xgft *x, unsigned *m, unsigned *n,
		   const char *engine, struct ftsw_err *err);
/* Source policy: only `off` allowed, fixed. */
void ftsw_policy_fixed(struct ftsw_routing *r, uint32_t host, unsigned off);

#endif
