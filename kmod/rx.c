// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the data path. Runs in the rx handler of every bound device, under
 * rcu_read_lock() with bottom halves disabled; never sleeps, never takes a
 * lock. See Documentation/datapath.md.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
/* skb_gso_segment(): <linux/netdevice.h> up to 6.4, <net/gso.h> (which
 * <net/udp.h> includes) since; one include that works for both.
 */
#include <net/udp.h>
#include "ftsw.h"

void ftsw_count_rx(struct ftsw_port *p, unsigned int len, unsigned int pkts)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.rx_packets += pkts;
	s->c.rx_bytes += len;
	u64_stats_update_end(&s->syncp);
}

void ftsw_count_tx(struct ftsw_port *p, unsigned int len, unsigned int pkts,
		   u8 vl)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.tx_packets += pkts;
	s->c.tx_bytes += len;
	s->c.tx_vl[vl & (FTSW_NUM_VL - 1)] += pkts;
	u64_stats_update_end(&s->syncp);
}

void ftsw_port_drop(struct ftsw_port *p, enum ftsw_drop reason)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.drops[reason]++;
	u64_stats_update_end(&s->syncp);
}

void ftsw_drop(struct ftsw_port *p, struct sk_buff *skb, enum ftsw_drop reason)
{
	ftsw_port_drop(p, reason);
	kfree_skb(skb);
}

void ftsw_port_stats_read(const struct ftsw_port *p, struct ftsw_stats *s)
{
	int cpu, i;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		const struct ftsw_pcpu_stats *c = per_cpu_ptr(p->stats, cpu);
		struct ftsw_stats t;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			t = c->c;
		} while (u64_stats_fetch_retry(&c->syncp, start));
		s->rx_packets += t.rx_packets;
		s->rx_bytes += t.rx_bytes;
		s->tx_packets += t.tx_packets;
		s->tx_bytes += t.tx_bytes;
		for (i = 0; i < FTSW_NUM_VL; i++)
			s->tx_vl[i] += t.tx_vl[i];
		for (i = 0; i <= FTSW_DROP_MAX; i++)
			s->drops[i] += t.drops[i];
		s->resolved += t.resolved;
	}
}

static struct ftsw_hdr *ftsw_hdr(const struct sk_buff *skb)
{
	return (struct ftsw_hdr *)(skb->data + ETH_HLEN);
}

/* Wire packets in a frame: a GSO frame counts as its segments. */
static unsigned int ftsw_pkts(const struct sk_buff *skb)
{
	return skb_is_gso(skb) ? max_t(u16, skb_shinfo(skb)->gso_segs, 1) : 1;
}

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

/*
 * The host's MAC names the base LID netlink gave its port (its place in
 * the address plan). A subnet manager may have given the port another LID
 * since, which is what ARP answered the sender: a frame delivered to the
 * host then gets the host's own MAC back as destination, else the host
 * would take it for another's. The header is writable after ftsw_decap().
 */
static void ftsw_host_mac(const struct ftsw_port *out,
			  const struct ftsw_policy *pol, struct sk_buff *skb)
{
	u16 lid = READ_ONCE(out->plan_lid);

	if (unlikely(lid && lid != pol->base_lid))
		ftsw_lid_to_mac(lid, eth_hdr(skb)->h_dest);
}

/*
 * Port states (IBA vol. 1, 7.2): a packet other than an SMP enters only by
 * a port in Armed or Active and leaves only by one in Active; on an edge
 * port the host's CA is the link's other end (it sends only when Active,
 * takes when Armed or Active). SMPs pass in every state but Down.
 */
static bool ftsw_state_passes(const struct ftsw_port *in,
			      const struct ftsw_port *out,
			      const struct sk_buff *skb)
{
	if (likely(ftsw_ps_takes(&in->ib) && ftsw_ps_sends(&out->ib) &&
		   (in->kind != FTSW_PORT_EDGE || ftsw_ps_sends(&in->ca.ib)) &&
		   (out->kind != FTSW_PORT_EDGE ||
		    ftsw_ps_takes(&out->ca.ib))))
		return true;
	return ftsw_hdr(skb)->proto == htons(FTSW_ETH_P_MAD) &&
	       ftsw_mad_is_smp(skb);
}

/*
 * Forward a fabric frame (skb->data at the Ethernet header, a complete,
 * checked and writable fabric header after it) by @in's switch LFT.
 * Returns the far end of a patch cable the frame was sent on, for the
 * caller to take it up there, or NULL: the frame was sent or dropped.
 */
struct ftsw_port *ftsw_forward(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_switch *sw = in->sw;
	struct ftsw_hdr *h = ftsw_hdr(skb);
	u16 dlid = ntohs(h->dlid);
	struct ftsw_port *out;
	u8 num, vl;

	num = ftsw_lft_lookup(rcu_dereference(sw->lft), dlid);
	if (unlikely(!num || num > sw->nports)) {
		ftsw_drop(in, skb, FTSW_DROP_NO_ROUTE);
		return NULL;
	}
	out = rcu_dereference(sw->ports[num]);
	if (unlikely(!out || !READ_ONCE(out->up))) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	if (unlikely(!ftsw_state_passes(in, out, skb))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_ACTIVE);
		return NULL;
	}
	vl = READ_ONCE(sw->sl2vl[h->sl & FTSW_SL_MASK]);
	/* Lossless mode: into the input buffer (ll_queue.c). */
	if (unlikely(in->ll) && out->ll && vl < FTSW_NUM_DATA_VL &&
	    h->proto != htons(FTSW_ETH_P_MAD)) {
		ftsw_ll_input(in, out, skb, vl);
		return NULL;
	}
	return ftsw_forward_out(in, out, skb, vl);
}

/*
 * Send a frame the LFT sent to @out: to a host (decapsulated), across a
 * patch cable (returned, as ftsw_forward() does) or on a device.
 */
struct ftsw_port *ftsw_forward_out(struct ftsw_port *in, struct ftsw_port *out,
				   struct sk_buff *skb, u8 vl)
{
	struct ftsw_hdr *h = ftsw_hdr(skb);
	struct ftsw_policy *pol;

	if (out->kind == FTSW_PORT_EDGE) {
		pol = rcu_dereference(out->policy);
		if (unlikely(!pol || !ftsw_lid_in_range(pol, ntohs(h->dlid)))) {
			ftsw_drop(in, skb, FTSW_DROP_MISDELIVERED);
			return NULL;
		}
		/* A MAD for the host's channel adapter (mad.c). */
		if (unlikely(h->proto == htons(FTSW_ETH_P_MAD))) {
			ftsw_count_tx(out, skb->len, 1, vl);
			return ftsw_mad_ca_rx(out, skb);
		}
		if (unlikely(ftsw_decap(skb))) {
			ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
			return NULL;
		}
		ftsw_host_mac(out, pol, skb);
	}
	return ftsw_xmit(in, out, skb, vl);
}

/* A frame from a neighbour switch; returns as ftsw_forward() does. */
struct ftsw_port *ftsw_link_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_hdr *h;
	const char *why;
	u8 limit;

	if (unlikely(skb->protocol != htons(FTSW_ETH_P))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_FABRIC);
		return NULL;
	}
	if (unlikely(skb_ensure_writable(skb, ETH_HLEN + FTSW_HLEN))) {
		ftsw_drop(in, skb, FTSW_DROP_MALFORMED);
		return NULL;
	}
	h = ftsw_hdr(skb);
	/* Management datagrams: the switch's agent and directed routes. */
	if (unlikely(h->proto == htons(FTSW_ETH_P_MAD)))
		return ftsw_mad_link_rx(in, skb);
	if (unlikely(ftsw_hdr_check(h, &why))) {
		ftsw_drop(in, skb, FTSW_DROP_MALFORMED);
		return NULL;
	}
	limit = READ_ONCE(in->sw->fn->hop_limit);
	if (unlikely(h->hops >= limit)) {
		ftsw_drop(in, skb, FTSW_DROP_HOP_LIMIT);
		return NULL;
	}
	h->hops++;
	/* The inner packet's L3 header, as GSO and offload checks expect. */
	skb_set_network_header(skb, ETH_HLEN + FTSW_HLEN);
	return ftsw_forward(in, skb);
}

static struct ftsw_port *ftsw_edge_send(struct ftsw_port *in,
					struct sk_buff *skb, u16 dlid, u16 slid,
					u8 sl)
{
	if (unlikely(ftsw_encap(skb, dlid, slid, sl))) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	return ftsw_forward(in, skb);
}

/*
 * A frame from the host behind an edge port (skb->data at the Ethernet
 * header): pick the DLID and SL by the path policy, push the fabric header
 * and forward. A GSO packet keeps one path for all its segments.
 */
struct ftsw_port *ftsw_edge_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_policy *pol;
	u16 dbase, dlid, slid;
	u8 off, sl;

	/* The host's management datagrams: its CA sends them (mad.c). */
	if (unlikely(eth_hdr(skb)->h_proto == htons(FTSW_ETH_P_MAD)))
		return ftsw_mad_edge_rx(in, skb);
	/* Nothing but SMPs while the CA's port is not Active (IPoIB's rule). */
	if (unlikely(!ftsw_ps_sends(&in->ca.ib) || !ftsw_ps_takes(&in->ib))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_ACTIVE);
		return NULL;
	}
	/* ARP and neighbour discovery are answered here (resolve.c). */
	if (unlikely(eth_hdr(skb)->h_proto != htons(ETH_P_IP)) &&
	    ftsw_resolve(in, skb))
		return NULL;
	/* Ethernet II only: an 802.3 length could not cross a link hop. */
	if (unlikely(!ftsw_mac_to_lid(eth_hdr(skb)->h_dest, &dbase) ||
		     !eth_proto_is_802_3(eth_hdr(skb)->h_proto))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_FABRIC);
		return NULL;
	}
	pol = rcu_dereference(in->policy);
	if (unlikely(!pol)) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	/* Only a choice of paths needs the flow hash (a flow dissection). */
	off = ftsw_pick_offset(pol, pol->n_offsets > 1 ? skb_get_hash(skb) : 0);
	dlid = dbase + off;
	if (unlikely(dlid > FTSW_MAX_LID)) {
		ftsw_drop(in, skb, FTSW_DROP_NO_ROUTE);
		return NULL;
	}
	slid = pol->base_lid + off;
	sl = ftsw_pick_sl(pol, dlid);

	return ftsw_edge_send(in, skb, dlid, slid, sl);
}

/* A frame that crossed a patch cable, taken up at its far end @in. */
struct ftsw_port *ftsw_patch_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	ftsw_count_rx(in, skb->len, ftsw_pkts(skb));
	if (unlikely(!READ_ONCE(in->up))) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	if (unlikely(in->ll)) {
		ftsw_ll_link_rx(in, skb);
		return NULL;
	}
	return ftsw_link_rx(in, skb);
}

/*
 * A frame the switch of @in originates (a trap), routed by its LFT as if it
 * came in by @in (which counts its drops), across every patch cable.
 */
void ftsw_originate(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_port *next = ftsw_forward(in, skb);

	while (next)
		next = ftsw_patch_rx(next, skb);
}

/*
 * A frame received on @in, counted and found up: forward it, and take it
 * up at the far end of every patch cable it crosses. A loop, not a
 * recursion: every patch hop is a link hop, so the hop limit ends it.
 */
void ftsw_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_port *next;

	if (unlikely(in->ll) && in->kind == FTSW_PORT_LINK) {
		ftsw_ll_link_rx(in, skb);
		return;
	}
	if (in->kind == FTSW_PORT_EDGE)
		next = ftsw_edge_rx(in, skb);
	else
		next = ftsw_link_rx(in, skb);
	while (next)
		next = ftsw_patch_rx(next, skb);
}

rx_handler_result_t ftsw_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct ftsw_port *p;

	if (unlikely(skb->pkt_type == PACKET_LOOPBACK))
		return RX_HANDLER_PASS;
	p = ftsw_port_rcu(skb->dev);
	if (unlikely(!p))
		return RX_HANDLER_PASS;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (unlikely(!skb)) {
		ftsw_port_drop(p, FTSW_DROP_TX_ERROR);
		return RX_HANDLER_CONSUMED;
	}
	*pskb = skb;
	/* Back to the Ethernet header; the frame is forwarded whole. */
	skb_push(skb, skb->data - skb_mac_header(skb));
	ftsw_count_rx(p, skb->len, ftsw_pkts(skb));
	if (unlikely(!READ_ONCE(p->up))) {
		ftsw_drop(p, skb, FTSW_DROP_PORT_DOWN);
		return RX_HANDLER_CONSUMED;
	}
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	ftsw_rx(p, skb);
	return RX_HANDLER_CONSUMED;
}
