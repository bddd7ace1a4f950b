// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the fabric header, LID addressing and the edge path policy. Pure
 * logic, compiled into both ftsw.ko and the KUnit module.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include "ftsw.h"

static_assert(sizeof(struct ftsw_hdr) == FTSW_HLEN);

/* Validate a received header; @why names the fault. */
int ftsw_hdr_check(const struct ftsw_hdr *h, const char **why)
{
	u16 dlid = ntohs(h->dlid);

	if (!dlid || dlid > FTSW_MAX_LID) {
		*why = "DLID outside 1..0xBFFF";
		return -EINVAL;
	}
	if (h->sl & ~FTSW_SL_MASK) {
		*why = "reserved SL bits set";
		return -EINVAL;
	}
	if (ntohs(h->proto) < ETH_P_802_3_MIN) {
		*why = "encapsulated ethertype is a length";
		return -EINVAL;
	}
	return 0;
}

/*
 * Push the fabric header after the Ethernet addresses. skb->data is at the
 * Ethernet header; the payload does not move in memory, so checksum offsets
 * stay valid.
 */
int ftsw_encap(struct sk_buff *skb, u16 dlid, u16 slid, u8 sl)
{
	struct ftsw_hdr *h;
	__be16 proto;
	int err;

	if (!pskb_may_pull(skb, ETH_HLEN))
		return -EINVAL;
	err = skb_cow_head(skb, FTSW_HLEN);
	if (err)
		return err;
	proto = ((struct ethhdr *)skb->data)->h_proto;
	skb_push(skb, FTSW_HLEN);
	memmove(skb->data, skb->data + FTSW_HLEN, 2 * ETH_ALEN);
	skb_reset_mac_header(skb);
	((struct ethhdr *)skb->data)->h_proto = htons(FTSW_ETH_P);
	h = (struct ftsw_hdr *)(skb->data + ETH_HLEN);
	h->dlid = htons(dlid);
	h->slid = htons(slid);
	h->sl = sl & FTSW_SL_MASK;
	h->hops = 0;
	h->proto = proto;
	skb->protocol = htons(FTSW_ETH_P);
	skb->mac_len = ETH_HLEN;
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	return 0;
}

/*
 * Pop the fabric header and restore the encapsulated ethertype. skb->data
 * is at the Ethernet header, a complete fabric header follows.
 */
int ftsw_decap(struct sk_buff *skb)
{
	__be16 proto;
	int err;

	err = skb_ensure_writable(skb, ETH_HLEN + FTSW_HLEN);
	if (err)
		return err;
	proto = ((struct ftsw_hdr *)(skb->data + ETH_HLEN))->proto;
	memmove(skb->data + FTSW_HLEN, skb->data, 2 * ETH_ALEN);
	skb_pull(skb, FTSW_HLEN);
	skb_reset_mac_header(skb);
	((struct ethhdr *)skb->data)->h_proto = proto;
	skb->protocol = proto;
	skb_set_network_header(skb, ETH_HLEN);
	skb->mac_len = ETH_HLEN;
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	return 0;
}

/* The LMC offset of a flow: its hash scaled over the allowed offsets. */
u8 ftsw_pick_offset(const struct ftsw_policy *pol, u32 hash)
{
	if (pol->n_offsets <= 1)
		return pol->n_offsets ? pol->offsets[0] : 0;
	return pol->offsets[reciprocal_scale(hash, pol->n_offsets)];
}

/* The SL of a packet to @dlid: the per-DLID table, else the default. */
u8 ftsw_pick_sl(const struct ftsw_policy *pol, u16 dlid)
{
	if (dlid < pol->sl_len)
		return pol->sl[dlid];
	return pol->default_sl;
}

/* Is @dlid one of the host's 2^LMC LIDs? */
bool ftsw_lid_in_range(const struct ftsw_policy *pol, u16 dlid)
{
	return dlid >= pol->base_lid &&
	       dlid - pol->base_lid < (1U << pol->lmc);
}

/*
 * Check an edge port's endpoint and path policy as a whole. Offsets may
 * repeat (a repeated offset takes a larger share of the flows).
 */
int ftsw_policy_check(u16 base_lid, u8 lmc, const u8 *offsets, u32 n_offsets,
		      const u8 *sl, u32 sl_len, const char **msg)
{
	u32 i;

	if (lmc > FTSW_MAX_LMC) {
		*msg = "LMC must be 0..7";
		return -EINVAL;
	}
	if (!base_lid || base_lid > FTSW_MAX_LID) {
		*msg = "base LID must be 1..0xBFFF";
		return -EINVAL;
	}
	if (base_lid & ((1U << lmc) - 1)) {
		*msg = "base LID must be a multiple of 2^LMC";
		return -EINVAL;
	}
	if (base_lid + (1U << lmc) - 1 > FTSW_MAX_LID) {
		*msg = "LID range of the host runs past 0xBFFF";
		return -ERANGE;
	}
	if (!n_offsets || n_offsets > FTSW_MAX_OFFSETS) {
		*msg = "between 1 and 128 offsets";
		return -EINVAL;
	}
	for (i = 0; i < n_offsets; i++) {
		if (offsets[i] >= (1U << lmc)) {
			*msg = "offset not below 2^LMC";
			return -EINVAL;
		}
	}
	if (sl_len > FTSW_LFT_SIZE) {
		*msg = "SL table longer than the LID space";
		return -EINVAL;
	}
	for (i = 0; i < sl_len; i++) {
		if (sl[i] >= FTSW_NUM_SL) {
			*msg = "SL table entry not below 16";
			return -EINVAL;
		}
	}
	return 0;
}
