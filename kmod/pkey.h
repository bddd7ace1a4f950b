/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: partition keys (pkey.c): which P_Key a host's packet carries, the
 * matching rules of partition enforcement, and the record of a violation
 * for trap 259. Pure logic but the record, which takes fn->sma_lock.
 */
#ifndef _FTSW_PKEY_H
#define _FTSW_PKEY_H

#include "ftsw.h"

bool ftsw_pkey_match_rcv(u16 pkt, u16 ent);
bool ftsw_pkey_match_send(u16 pkt, u16 ent);
bool ftsw_pkey_in_table(const u16 *tab, u16 pkt, bool send);
u16 ftsw_pkey_pick(const struct ftsw_pkey_tab *t, const u16 *ca_tab,
		   u16 dlid);
u16 ftsw_pkey_gmp(const u16 *ca_tab, u16 asked);
int ftsw_pkey_tab_check(const u16 *keys, u32 len, const char **msg);
struct ftsw_pkey_tab *ftsw_pkey_tab_alloc(u32 len, gfp_t gfp);
void ftsw_pkey_violation(struct ftsw_port *p, u16 slid, u16 dlid, u8 sl,
			 u16 pkey);

/*
 * Partition enforcement on a switch port (IBA vol. 1, 10.9.4): a packet
 * entering by @p (@out false) or leaving by it (@out true) passes when
 * the port does not enforce that way, or its P_KeyTable holds the key.
 * Subnet management packets are never checked (the callers leave them).
 */
static inline bool ftsw_pkey_enforce_ok(const struct ftsw_port *p, u16 pkey,
					bool out)
{
	u8 e = READ_ONCE(p->ib.enforce);

	if (likely(!(e & (out ? FTSW_ENFORCE_OUT : FTSW_ENFORCE_IN))))
		return true;
	return ftsw_pkey_in_table(p->pkeys, pkey, !out);
}

#endif /* _FTSW_PKEY_H */
