// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the fabric header (Documentation/datapath.md): checked on a
 * neighbour's frame, pushed onto a host's, popped for delivery; and the
 * one thing the data path reads past it, whether a MAD frame is an SMP.
 * Pure logic.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include "hdr.h"

static_assert(sizeof(struct ftsw_hdr) == FTSW_HLEN);

/* Validate a received header; @why names the fault. */
int ftsw_hdr_check(const struct ftsw_hdr *h, const char **why)
{
	u16 dlid = ntohs(h->dlid);

	/* a unicast LID, or a multicast one (forward.c replicates it) */
	if (!dlid || (dlid > FTSW_MAX_LID && dlid < FTSW_MLID_BASE) ||
	    dlid > FTSW_MLID_MAX) {
		*why = "DLID outside 1..0xBFFF and 0xC000..0xFFFE";
		return -EINVAL;
	}
	if (h->sl & FTSW_HDR_RSVD) {
		*why = "reserved bits of the SL byte set";
		return -EINVAL;
	}
	if (ntohs(h->proto) < ETH_P_802_3_MIN &&
	    h->proto != htons(FTSW_PROTO_CNP)) {
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
int ftsw_encap(struct sk_buff *skb, u16 dlid, u16 slid, u8 sl, u16 pkey)
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
	h->pkey = htons(pkey);
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

/*
 * Is this fabric frame (a MAD frame whose headers are in the linear area,
 * as mad.c leaves them) a subnet management packet, which ports pass in
 * every state but Down? Its QP0 says so (mad.c checked that SMPs, and only
 * they, go to QP0).
 */
bool ftsw_mad_is_smp(const struct sk_buff *skb)
{
	const struct ftsw_mad_hdr *mh = (const void *)(ftsw_hdr(skb) + 1);

	return skb_headlen(skb) >= ETH_HLEN + FTSW_HLEN + FTSW_MAD_HLEN &&
	       mh->dqpn == htonl(FTSW_MAD_QP_SMI);
}
