/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: multicast (mcast.c): the MLID of a host's IP multicast group by
 * its edge port's table, and the ports a switch's MFT names for an MLID.
 */
#ifndef _FTSW_MCAST_H
#define _FTSW_MCAST_H

#include <linux/skbuff.h>
#include "ftsw.h"

static inline bool ftsw_lid_is_mcast(u16 lid)
{
	return lid >= FTSW_MLID_BASE && lid <= FTSW_MLID_MAX;
}

bool ftsw_mcast_group(struct sk_buff *skb, u8 group[16]);
const struct ftsw_mcast_ent *ftsw_mcast_find(const struct ftsw_mcast_tab *t,
					     const u8 group[16]);
int ftsw_mcast_tab_check(const struct ftsw_mcast_ent *e, u32 n,
			 const char **msg);
struct ftsw_mcast_tab *ftsw_mcast_tab_alloc(u32 n, gfp_t gfp);
bool ftsw_mft_port(const struct ftsw_mft *mft, u16 mlid, u8 port);
struct ftsw_mft *ftsw_mft_table(struct ftsw_switch *sw, bool create);

#endif /* _FTSW_MCAST_H */
