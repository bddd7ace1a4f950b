// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: transmit. A frame a switch sends leaves whole on its port's device
 * (a GSO frame from a host crosses the fabric as through a bridge, as long
 * as every segment fits the egress MTU), or crosses a patch cable, where
 * the caller takes it up at the far end (rx.c). A device that cannot take
 * a GSO fabric frame as it is has it segmented by the core, with
 * ftsw_gso_segment(). What leaves counts as sent on its port; what the
 * device refuses as a drop on the port the frame came in by.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
/* skb_gso_segment(): <linux/netdevice.h> up to 6.4, <net/gso.h> (which
 * <net/udp.h> includes) since; one include that works for both.
 */
#include <net/udp.h>
#include "hdr.h"
#include "stats.h"
#include "tx.h"

/*
 * Transmit one frame (skb->data at the Ethernet header) on @out; false if
 * the device refused it (counted on @in).
 */
static bool ftsw_xmit_one(struct ftsw_port *in, struct ftsw_port *out,
			  struct sk_buff *skb, u8 vl)
{
	unsigned int len = skb->len, pkts = ftsw_pkts(skb);

	skb_clear_tstamp(skb);
	if (unlikely(dev_queue_xmit(skb) != NET_XMIT_SUCCESS)) {
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
		return false;
	}
	ftsw_count_tx(out, len, pkts, vl);
	return true;
}

/*
 * GSO for fabric frames: the core calls this (through ftsw_gso_offload)
 * when a device cannot take a GSO frame of ethertype 0x88B5 as it is (TSO
 * off, no HW_CSUM, too many segments...). The mac header is at the
 * Ethernet header; skb->data is past what the core counted as link layer
 * (mac_len): at the fabric header (14), at the inner packet (22, where the
 * data path sets the network header) or past an inner VLAN tag.
 *
 * The fabric header ends with the inner ethertype, so the 14 bytes in
 * front of the inner packet read as an Ethernet header of that type: the
 * inner packet is segmented from there by its own protocol's handlers
 * (VLAN tags included), which copy the 8 bytes before that header, like a
 * tunnel header, into every segment. Each segment then gets its real
 * Ethernet header back.
 */
static struct sk_buff *ftsw_gso_segment(struct sk_buff *skb,
					netdev_features_t features)
{
	const unsigned int outer = ETH_HLEN + FTSW_HLEN;
	unsigned int at = skb->data - skb_mac_header(skb);
	struct sk_buff *segs = ERR_PTR(-EINVAL);
	u16 mac_len = skb->mac_len;
	__be16 proto;

	if (unlikely(at < ETH_HLEN ||
		     (at < outer && !pskb_may_pull(skb, outer - at))))
		return segs;
	proto = ((struct ftsw_hdr *)(skb_mac_header(skb) + ETH_HLEN))->proto;
	if (unlikely(ntohs(proto) < ETH_P_802_3_MIN))
		return segs;
	/* The inner frame's "Ethernet header": FTSW_HLEN past the real one. */
	__skb_push(skb, at - FTSW_HLEN);
	skb_reset_mac_header(skb);
	skb->mac_len = ETH_HLEN;
	skb->protocol = proto;
	segs = skb_mac_gso_segment(skb, features);
	if (IS_ERR_OR_NULL(segs)) {
		/* Leave the frame as it came. */
		__skb_pull(skb, at - FTSW_HLEN);
		skb_set_mac_header(skb, -(int)at);
		skb_set_network_header(skb, (int)mac_len - (int)at);
		skb->mac_len = mac_len;
		skb->protocol = htons(FTSW_ETH_P);
		return segs;
	}
	/* Each segment: data at its inner "Ethernet header", network and
	 * transport headers set by the inner protocol.
	 */
	for (skb = segs; skb; skb = skb->next) {
		__skb_push(skb, FTSW_HLEN);
		skb_reset_mac_header(skb);
		skb_reset_mac_len(skb);
		skb->protocol = htons(FTSW_ETH_P);
	}
	return segs;
}

static struct packet_offload ftsw_gso_offload __read_mostly = {
	.type = cpu_to_be16(FTSW_ETH_P),
	.priority = 10,
	.callbacks = {
		.gso_segment = ftsw_gso_segment,
	},
};

/* Module init and exit (and the KUnit suite, which segments frames). */
void ftsw_offload_register(void)
{
	dev_add_offload(&ftsw_gso_offload);
}

void ftsw_offload_unregister(void)
{
	dev_remove_offload(&ftsw_gso_offload);
}

/*
 * Transmit a frame (skb->data at the Ethernet header) on @out. GSO frames
 * from hosts cross the fabric whole, as through a bridge, as long as every
 * segment fits the egress MTU; a device that cannot take one as it is has
 * it segmented by the core, with ftsw_gso_segment() for fabric frames.
 */
struct ftsw_port *ftsw_xmit(struct ftsw_port *in, struct ftsw_port *out,
			   struct sk_buff *skb, u8 vl)
{
	struct net_device *dev = out->dev;

	/*
	 * A patch cable has no device and no MTU: the frame, GSO or not,
	 * is the far end's to take up (ftsw_rx), whole.
	 */
	if (!dev) {
		ftsw_count_tx(out, skb->len, ftsw_pkts(skb), vl);
		return out->peer;
	}
	ftsw_xmit_dev(in, out, skb, vl);
	return NULL;
}

/*
 * Send a frame on @out's device; false if it did not go (too big for the
 * device, or the device refused it; counted on @in).
 */
bool ftsw_xmit_dev(struct ftsw_port *in, struct ftsw_port *out,
		   struct sk_buff *skb, u8 vl)
{
	struct net_device *dev = out->dev;

	skb->dev = dev;
	if (!skb_is_gso(skb)) {
		if (unlikely(skb->len > dev->mtu + ETH_HLEN)) {
			ftsw_drop(in, skb, FTSW_DROP_TOO_BIG);
			return false;
		}
	} else if (unlikely(!skb_gso_validate_mac_len(skb,
						      dev->mtu + ETH_HLEN))) {
		ftsw_drop(in, skb, FTSW_DROP_TOO_BIG);
		return false;
	}
	return ftsw_xmit_one(in, out, skb, vl);
}
