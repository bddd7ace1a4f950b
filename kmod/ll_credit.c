// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the credit-update frames of lossless mode, between a port and a far
 * end that is not an ftsw port of this machine: checked and built here,
 * applied by ll_queue.c. Layout in include/uapi/linux/ftsw.h.
 */
#include <linux/kernel.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include "ll_credit.h"

/*
 * Check a credit-update frame (skb->data at the Ethernet header, @len bytes
 * linear) and return its entry count, or a negative errno with *@why.
 */
int ftsw_credit_parse(const u8 *data, unsigned int len, const char **why)
{
	const struct ftsw_credit_hdr *ch;
	const struct ftsw_credit_vl *e;
	const unsigned int off = ETH_HLEN + FTSW_HLEN;
	unsigned int i;

	if (len < off + sizeof(*ch)) {
		*why = "credit frame truncated";
		return -EINVAL;
	}
	ch = (const void *)(data + off);
	if (ch->version != FTSW_CREDIT_VERSION || ch->reserved) {
		*why = "credit frame version or reserved field";
		return -EINVAL;
	}
	if (!ch->count || ch->count > FTSW_NUM_DATA_VL) {
		*why = "credit frame entry count not 1..15";
		return -EINVAL;
	}
	if (len < off + sizeof(*ch) + ch->count * sizeof(*e)) {
		*why = "credit frame shorter than its entries";
		return -EINVAL;
	}
	e = (const void *)(ch + 1);
	for (i = 0; i < ch->count; i++, e++) {
		if (e->vl >= FTSW_NUM_DATA_VL || e->reserved[0] ||
		    e->reserved[1] || e->reserved[2]) {
			*why = "credit frame entry: VL above 14 or reserved set";
			return -EINVAL;
		}
	}
	return ch->count;
}

/* A credit-update frame of @p's counters (sw->ll_lock held), or NULL. */
struct sk_buff *ftsw_ll_credit_frame(struct ftsw_port *p)
{
	const unsigned int n = FTSW_NUM_DATA_VL;
	u32 size = READ_ONCE(p->in_buf) / FTSW_CREDIT_BYTES;
	struct ftsw_credit_hdr *ch;
	struct ftsw_credit_vl *e;
	struct ftsw_hdr *h;
	struct ethhdr *eth;
	struct sk_buff *skb;
	unsigned int i;

	skb = alloc_skb(LL_RESERVED_SPACE(p->dev) + ETH_HLEN + FTSW_HLEN +
			sizeof(*ch) + n * sizeof(*e), GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(p->dev));
	eth = skb_put(skb, ETH_HLEN);
	eth_broadcast_addr(eth->h_dest);
	ftsw_lid_to_mac(FTSW_LID_PERMISSIVE, eth->h_source);
	eth->h_proto = htons(FTSW_ETH_P);
	h = skb_put_zero(skb, FTSW_HLEN);
	h->dlid = htons(FTSW_LID_PERMISSIVE);
	h->pkey = htons(FTSW_PKEY_DEFAULT);
	h->proto = htons(FTSW_PROTO_CREDIT);
	ch = skb_put_zero(skb, sizeof(*ch));
	ch->version = FTSW_CREDIT_VERSION;
	ch->count = n;
	for (i = 0; i < n; i++) {
		e = skb_put_zero(skb, sizeof(*e));
		e->vl = i;
		e->fctbs = htonl(p->ll->vl[i].sent);
		e->fccl = htonl(size + p->ll->vl[i].freed);
	}
	skb_reset_mac_header(skb);
	skb->protocol = htons(FTSW_ETH_P);
	skb->dev = p->dev;
	return skb;
}
