// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: multicast. A host's IP multicast frame (an IPv4 group 224.0.0.0/4
 * or the broadcast 255.255.255.255, an IPv6 group ff00::/8) enters the
 * fabric for the MLID its edge port's table names for the group (what the
 * SA answered the host's MCMemberRecord join, set by netlink); a switch
 * sends a frame for an MLID out of the ports its MulticastForwardingTable
 * sets (the SM's, written by SMPs, sma.c, into ftsw_mft_table()). See
 * Documentation/sm.md, "Multicast".
 */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "mcast.h"

/*
 * The IP multicast group a host's frame (skb->data at the Ethernet
 * header) is sent to, as an IPv6 address (IPv4 mapped) in @group: false
 * for a frame that is not IPv4 or IPv6 to a group (or the IPv4 broadcast).
 */
bool ftsw_mcast_group(struct sk_buff *skb, u8 group[16])
{
	__be16 proto = eth_hdr(skb)->h_proto;

	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *ip;

		if (!pskb_may_pull(skb, ETH_HLEN + sizeof(*ip)))
			return false;
		ip = (const struct iphdr *)(skb->data + ETH_HLEN);
		if (!ipv4_is_multicast(ip->daddr) &&
		    !ipv4_is_lbcast(ip->daddr))
			return false;
		memset(group, 0, 10);
		group[10] = 0xff;
		group[11] = 0xff;
		memcpy(group + 12, &ip->daddr, 4);
		return true;
	}
	if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6;

		if (!pskb_may_pull(skb, ETH_HLEN + sizeof(*ip6)))
			return false;
		ip6 = (const struct ipv6hdr *)(skb->data + ETH_HLEN);
		if (!ipv6_addr_is_multicast(&ip6->daddr))
			return false;
		memcpy(group, &ip6->daddr, 16);
		return true;
	}
	return false;
}

/* The entry of @group in @t (RCU or the owner's lock held), or NULL. */
const struct ftsw_mcast_ent *ftsw_mcast_find(const struct ftsw_mcast_tab *t,
					     const u8 group[16])
{
	u32 i;

	if (!t)
		return NULL;
	for (i = 0; i < t->n; i++)
		if (!memcmp(t->e[i].group, group, 16))
			return &t->e[i];
	return NULL;
}

static bool ftsw_mcast_group_ok(const u8 *g)
{
	static const u8 v4[12] = { [10] = 0xff, [11] = 0xff };

	if (g[0] == 0xff)
		return true;
	return !memcmp(g, v4, 12) &&
	       ((g[12] & 0xf0) == 0xe0 ||
		(g[12] == 0xff && g[13] == 0xff && g[14] == 0xff &&
		 g[15] == 0xff));
}

/*
 * Whether @n entries may be an edge port's table: each a multicast group
 * once, an MLID, a valid P_Key, an SL, the padding zero. 0, or -EINVAL
 * with a literal in *@msg.
 */
int ftsw_mcast_tab_check(const struct ftsw_mcast_ent *e, u32 n,
			 const char **msg)
{
	u32 i, j;

	if (n > FTSW_MCAST_MAX) {
		*msg = "more multicast groups than FTSW_MCAST_MAX";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		u16 pkey = be16_to_cpu(e[i].pkey);

		if (!ftsw_mcast_group_ok(e[i].group)) {
			*msg = "not an IP multicast group (IPv6, or IPv4 mapped)";
			return -EINVAL;
		}
		if (!ftsw_lid_is_mcast(be16_to_cpu(e[i].mlid))) {
			*msg = "MLID outside 0xC000..0xFFFE";
			return -EINVAL;
		}
		if (!(pkey & FTSW_PKEY_BASE)) {
			*msg = "invalid P_Key (0 or 0x8000)";
			return -EINVAL;
		}
		if (e[i].sl > FTSW_SL_MASK || e[i].pad[0] || e[i].pad[1] ||
		    e[i].pad[2]) {
			*msg = "SL above 15 or padding not zero";
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (!memcmp(e[j].group, e[i].group, 16)) {
				*msg = "a multicast group twice";
				return -EINVAL;
			}
	}
	return 0;
}

struct ftsw_mcast_tab *ftsw_mcast_tab_alloc(u32 n, gfp_t gfp)
{
	struct ftsw_mcast_tab *t = kzalloc(struct_size(t, e, n), gfp);

	if (t)
		t->n = n;
	return t;
}

/*
 * Whether the MFT @mft sends a frame for @mlid out of port @port (RCU
 * held). An MLID the table does not hold, or none, sends nowhere.
 */
bool ftsw_mft_port(const struct ftsw_mft *mft, u16 mlid, u8 port)
{
	u32 i = mlid - FTSW_MLID_BASE;

	if (!mft || mlid < FTSW_MLID_BASE || i >= FTSW_MFT_CAP)
		return false;
	return READ_ONCE(mft->mask[i][port / 16]) & BIT(port % 16);
}

/*
 * The MFT of @sw (fn->sma_lock held), NULL if the SM set none; @create:
 * one of zeros is published first (NULL: no memory, or the switch is
 * being deleted). The SM's port masks are kept as sent: the data path
 * ignores bits past the switch's ports (forward.c).
 */
struct ftsw_mft *ftsw_mft_table(struct ftsw_switch *sw, bool create)
{
	struct ftsw_mft *mft;

	mft = rcu_dereference_protected(sw->mft,
					lockdep_is_held(&sw->fn->sma_lock));
	if (mft || !create || sw->dead)
		return mft;
	mft = kzalloc(sizeof(*mft), GFP_ATOMIC);
	if (mft)
		rcu_assign_pointer(sw->mft, mft);
	return mft;
}
