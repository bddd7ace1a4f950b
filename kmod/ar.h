/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: adaptive routing groups and the choice among them (ar.c). Pure
 * logic.
 */
#ifndef _FTSW_AR_H
#define _FTSW_AR_H

#include "ftsw.h"

/* One allowed output port as the switch sees it when it chooses. */
struct ftsw_ar_cand {
	u8 port;
	u32 queued;	/* blocks in its output queue of the packet's VL */
	u32 credit;	/* blocks of credit towards the next buffer */
};

/*
 * Is a port scoring @sc (queued - credit) a better choice than @best,
 * scoring @bs? The smaller score; ties to the static port, then to the
 * lower port number.
 */
static inline bool ftsw_ar_better(s64 sc, unsigned int port, s64 bs,
				  unsigned int best, unsigned int static_port)
{
	return sc < bs || (sc == bs && best != static_port &&
			   (port == static_port || port < best));
}

unsigned int ftsw_ar_pick(const struct ftsw_ar_cand *c, unsigned int n,
			  unsigned int static_port);
unsigned int ftsw_ar_flowlet_slot(u16 slid, u16 dlid);
u8 ftsw_ar_flowlet_keep(struct ftsw_flowlet *f, u32 key, u64 now, u64 gap);
void ftsw_ar_flowlet_take(struct ftsw_flowlet *f, u32 key, u8 port, u64 now);

static inline u32 ftsw_ar_flowlet_key(u16 slid, u16 dlid)
{
	return (u32)slid << 16 ^ dlid;
}

/* The group of @lid in @ar: its set of ports, or NULL (the LFT's alone). */
static inline const unsigned long *ftsw_ar_group(const struct ftsw_ar *ar,
						 u16 lid)
{
	u8 g;

	if (!ar || lid >= ar->size)
		return NULL;
	g = ar->grp[lid];
	return g && g <= ar->nsets ? ar->sets[g] : NULL;
}

struct ftsw_ar *ftsw_ar_alloc(u32 size, u16 nsets, const struct ftsw_ar *from);
void ftsw_ar_free(struct ftsw_ar *ar);
void ftsw_ar_free_deferred(struct ftsw_ar *ar);
size_t ftsw_ar_bytes(const struct ftsw_ar *ar);
int ftsw_ar_check_sets(const u8 *data, u32 len, u8 nports, const char **msg);
int ftsw_ar_check_block(u32 first, const u8 *data, u32 len, u16 nsets,
			const char **msg);
int ftsw_ar_stage(struct ftsw_ar **staged, const struct ftsw_ar *active,
		  const u8 *sets, u32 sets_len, u32 first, const u8 *data,
		  u32 len);
void ftsw_ar_set_bytes(const struct ftsw_ar *ar, u16 k, u8 *out);

#endif /* _FTSW_AR_H */
