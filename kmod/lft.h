/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: compact linear forwarding tables (lft.c). Pure logic.
 */
#ifndef _FTSW_LFT_H
#define _FTSW_LFT_H

#include "ftsw.h"

struct ftsw_lft *ftsw_lft_alloc(u32 size, const struct ftsw_lft *from);
struct ftsw_lft *ftsw_lft_alloc_atomic(u32 size, const struct ftsw_lft *from);
void ftsw_lft_free(struct ftsw_lft *lft);
void ftsw_lft_free_deferred(struct ftsw_lft *lft);
size_t ftsw_lft_bytes(const struct ftsw_lft *lft);
int ftsw_lft_check_block(u32 first, const u8 *data, u32 len, u8 nports,
			 const char **msg);
int ftsw_lft_stage(struct ftsw_lft **staged, const struct ftsw_lft *active,
		   u32 first, const u8 *data, u32 len);
struct ftsw_lft *ftsw_lft_grow(const struct ftsw_lft *cur,
			       const struct ftsw_lft *active, u32 size);
bool ftsw_lft_merge(struct ftsw_lft *st, const struct ftsw_lft *live,
		    bool prefix);

static inline u8 ftsw_lft_lookup(const struct ftsw_lft *lft, u16 lid)
{
	if (!lft || lid >= lft->size)
		return FTSW_NO_ROUTE;
	return lft->port[lid];
}

#endif /* _FTSW_LFT_H */
