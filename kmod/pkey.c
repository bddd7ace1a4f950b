// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: partition keys (IBA vol. 1, 10.9). A P_Key's low 15 bits name the
 * partition, bit 15 says full membership (else limited); 0x0000 and
 * 0x8000 are invalid and match nothing. Every packet carries one (the
 * fabric header's pkey); a host's packets get the key its edge port's
 * table gives for the destination (the SA's PathRecords), else the port's
 * default, else the CA's P_KeyTable entry 0. Where a port enforces
 * partitions, and at the destination CA, the key is matched against a
 * P_KeyTable; a switch port's violation is recorded here for trap 259
 * (trap.c sends it). See Documentation/sm.md, "Partitions".
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "pkey.h"

static bool ftsw_pkey_same(u16 a, u16 b)
{
	return (a & FTSW_PKEY_BASE) && (a & FTSW_PKEY_BASE) == (b & FTSW_PKEY_BASE);
}

/*
 * A received packet's key against an entry of the receiver's table (IBA
 * 10.9.3, as a CA checks; hfi1's ingress check is the same rule): the
 * same partition, and at least one of the two a full member (two limited
 * members may not talk).
 */
bool ftsw_pkey_match_rcv(u16 pkt, u16 ent)
{
	return ftsw_pkey_same(pkt, ent) && ((pkt | ent) & FTSW_PKEY_FULL);
}

/*
 * A sent packet's key against an entry of the sender's table, as a
 * switch port facing the sender enforces it inbound: the same partition,
 * and no more membership than the entry grants (a full-member key needs a
 * full entry; a limited one passes either, so a limited member may still
 * reach full members such as the subnet manager).
 */
bool ftsw_pkey_match_send(u16 pkt, u16 ent)
{
	return ftsw_pkey_same(pkt, ent) &&
	       (!(pkt & FTSW_PKEY_FULL) || (ent & FTSW_PKEY_FULL));
}

/* Does @tab (FTSW_PKEY_CAP entries, read once each) let @pkt pass? */
bool ftsw_pkey_in_table(const u16 *tab, u16 pkt, bool send)
{
	int i;

	for (i = 0; i < FTSW_PKEY_CAP; i++) {
		u16 ent = READ_ONCE(tab[i]);

		if (send ? ftsw_pkey_match_send(pkt, ent) :
			   ftsw_pkey_match_rcv(pkt, ent))
			return true;
	}
	return false;
}

/* The key a host's packet to @dlid carries (@t may be NULL). */
u16 ftsw_pkey_pick(const struct ftsw_pkey_tab *t, const u16 *ca_tab,
		   u16 dlid)
{
	u16 key = 0;

	if (t) {
		if (dlid < t->len)
			key = t->key[dlid];
		if (!key)
			key = t->dflt;
	}
	return key ? key : READ_ONCE(ca_tab[0]);
}

/*
 * The key of a GMP the host sends (a MAD on QP1): the one its MAD header
 * asks for, but FTSW_MAD_PKEY_DEFAULT, which the gateway always gives,
 * stands for the default partition at the CA's membership, the CA's
 * entry of partition 0x7FFF (else its entry 0), as a host's MAD layer
 * sends with the default P_Key's index.
 */
u16 ftsw_pkey_gmp(const u16 *ca_tab, u16 asked)
{
	int i;

	if (asked != FTSW_MAD_PKEY_DEFAULT)
		return asked;
	for (i = 0; i < FTSW_PKEY_CAP; i++) {
		u16 ent = READ_ONCE(ca_tab[i]);

		if ((ent & FTSW_PKEY_BASE) == FTSW_PKEY_BASE)
			return ent;
	}
	return READ_ONCE(ca_tab[0]);
}

/* A P_Key table by DLID from netlink: 0 (none) or valid keys. */
int ftsw_pkey_tab_check(const u16 *keys, u32 len, const char **msg)
{
	u32 i;

	if (len > FTSW_PKEY_TABLE_MAX) {
		*msg = "P_Key table longer than 32765 entries";
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (keys[i] && !(keys[i] & FTSW_PKEY_BASE)) {
			*msg = "P_Key table entry 0x8000 (invalid; 0 means none)";
			return -EINVAL;
		}
	}
	return 0;
}

struct ftsw_pkey_tab *ftsw_pkey_tab_alloc(u32 len, gfp_t gfp)
{
	struct ftsw_pkey_tab *t = kzalloc(struct_size(t, key, len), gfp);

	if (t)
		t->len = len;
	return t;
}

/*
 * A packet failed partition enforcement at switch port @p (softirq, RCU):
 * record it for trap 259 unless one is waiting already, and have trap.c's
 * work send it. The work is queued under the lock that marks the switch
 * dead, so it is never queued after the switch's deletion cancelled it.
 */
void ftsw_pkey_violation(struct ftsw_port *p, u16 slid, u16 dlid, u8 sl,
			 u16 pkey)
{
	struct ftsw_switch *sw = p->sw;
	struct ftsw_pkey_trap *t = &sw->pkey_trap;

	spin_lock(&sw->fn->sma_lock);
	if (!sw->dead && !t->wait && !t->due) {
		t->due = true;
		t->sends = 0;
		t->port = p->num;
		t->lid1 = slid;
		t->lid2 = dlid;
		t->sl = sl;
		t->pkey = pkey;
		if (sw->trap_work.work.func)
			mod_delayed_work(system_wq, &sw->trap_work, 0);
	}
	spin_unlock(&sw->fn->sma_lock);
}
