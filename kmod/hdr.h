/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the fabric header (hdr.c). Pure logic.
 */
#ifndef _FTSW_HDR_H
#define _FTSW_HDR_H

#include <linux/if_ether.h>
#include "ftsw.h"

/* The fabric header of a fabric frame, skb->data at its Ethernet header. */
static inline struct ftsw_hdr *ftsw_hdr(const struct sk_buff *skb)
{
	return (struct ftsw_hdr *)(skb->data + ETH_HLEN);
}

int ftsw_hdr_check(const struct ftsw_hdr *h, const char **why);
int ftsw_encap(struct sk_buff *skb, u16 dlid, u16 slid, u8 sl, u16 pkey);
int ftsw_decap(struct sk_buff *skb);
bool ftsw_mad_is_smp(const struct sk_buff *skb);

/*
 * Is this fabric frame (checked header) a subnet management packet, which
 * port states and partition enforcement let pass?
 */
static inline bool ftsw_is_smp_frame(const struct sk_buff *skb)
{
	return ftsw_hdr(skb)->proto == htons(FTSW_ETH_P_MAD) &&
	       ftsw_mad_is_smp(skb);
}

#endif /* _FTSW_HDR_H */
