// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: receive. Every frame enters the fabric here: from a bound device
 * (ftsw_handle_frame(), the rx handler, under rcu_read_lock() with bottom
 * halves disabled: nothing sleeps, nothing takes a lock but lossless
 * mode's), at the far end of a patch cable, or from a switch's own agent
 * (ftsw_originate(), a trap). It is dispatched once, by the port it came
 * in by: a host's frame at an edge port (its MADs to its channel adapter,
 * ARP and ND answered, data encapsulated by the path policy), a
 * neighbour's at a link port (MADs to the management path, data checked
 * and counted a hop; credit updates in lossless mode), then forwarded
 * (forward.c). Where a switch sends a frame on without a device, across a
 * patch cable or to an edge port's CA, the frame is followed here
 * (ftsw_rx_follow()): the layers below return where it goes on, and never
 * call back up. See Documentation/datapath.md.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include "forward.h"
#include "hdr.h"
#include "ll_queue.h"
#include "mad.h"
#include "mcast.h"
#include "path.h"
#include "pkey.h"
#include "resolve.h"
#include "stats.h"
#include "tx.h"
#include "rx.h"

/* This CPU is delivering what lossless output queues let go. */
static DEFINE_PER_CPU(bool, ftsw_rx_sending);

/* A frame from a neighbour switch; returns as ftsw_forward() does. */
static struct ftsw_port *ftsw_link_rx(struct ftsw_port *in, struct sk_buff *skb)
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
	/* A link port enforces partitions only if an SM said so. */
	if (unlikely(!ftsw_pkey_enforce_ok(in, ntohs(h->pkey), false))) {
		ftsw_pkey_violation(in, ntohs(h->slid), ntohs(h->dlid),
				    h->sl & FTSW_SL_MASK, ntohs(h->pkey));
		ftsw_drop(in, skb, FTSW_DROP_PKEY_IN);
		return NULL;
	}
	/* The inner packet's L3 header, as GSO and offload checks expect. */
	skb_set_network_header(skb, ETH_HLEN + FTSW_HLEN);
	return ftsw_forward(in, skb);
}

static struct ftsw_port *ftsw_edge_send(struct ftsw_port *in,
					struct sk_buff *skb, u16 dlid, u16 slid,
					u8 sl, u16 pkey)
{
	/*
	 * The switch port facing the host enforces inbound what the SM set
	 * (IBA 10.9.4): the host may send only keys its table grants.
	 */
	if (unlikely(!ftsw_pkey_enforce_ok(in, pkey, false))) {
		ftsw_pkey_violation(in, slid, dlid, sl, pkey);
		ftsw_drop(in, skb, FTSW_DROP_PKEY_IN);
		return NULL;
	}
	if (unlikely(ftsw_encap(skb, dlid, slid, sl, pkey))) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	return ftsw_forward(in, skb);
}

/*
 * A host's IP multicast (or IPv4 broadcast) frame: to the MLID, with the
 * P_Key and SL, its edge port's table names for the group (mcast.c), from
 * the host's base LID; a group the host has not joined is not the
 * fabric's.
 */
static struct ftsw_port *ftsw_edge_mcast(struct ftsw_port *in,
					 struct sk_buff *skb,
					 const struct ftsw_policy *pol)
{
	const struct ftsw_mcast_ent *e;
	u8 group[16];

	e = ftsw_mcast_group(skb, group) ?
	    ftsw_mcast_find(rcu_dereference(in->mcast), group) : NULL;
	if (!e) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_FABRIC);
		return NULL;
	}
	return ftsw_edge_send(in, skb, be16_to_cpu(e->mlid), pol->base_lid,
			      e->sl, be16_to_cpu(e->pkey));
}

/*
 * A frame from the host behind an edge port (skb->data at the Ethernet
 * header): pick the DLID and SL by the path policy, push the fabric header
 * and forward. A GSO packet keeps one path for all its segments. IP
 * multicast goes to its group's MLID.
 */
static struct ftsw_port *ftsw_edge_rx(struct ftsw_port *in,
				      struct sk_buff *skb)
{
	struct ftsw_policy *pol;
	u16 dbase = 0, dlid, slid, pkey;
	u8 off, sl;
	bool mc;

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
	mc = is_multicast_ether_addr(eth_hdr(skb)->h_dest);
	/* Ethernet II only: an 802.3 length could not cross a link hop. */
	if (unlikely((!mc && !ftsw_mac_to_lid(eth_hdr(skb)->h_dest, &dbase)) ||
		     !eth_proto_is_802_3(eth_hdr(skb)->h_proto))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_FABRIC);
		return NULL;
	}
	pol = rcu_dereference(in->policy);
	if (unlikely(!pol)) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	if (unlikely(mc))
		return ftsw_edge_mcast(in, skb, pol);
	/* Only a choice of paths needs the flow hash (a flow dissection). */
	off = ftsw_pick_offset(pol, pol->n_offsets > 1 ? skb_get_hash(skb) : 0);
	dlid = dbase + off;
	if (unlikely(dlid > FTSW_MAX_LID)) {
		ftsw_drop(in, skb, FTSW_DROP_NO_ROUTE);
		return NULL;
	}
	slid = pol->base_lid + off;
	sl = ftsw_pick_sl(pol, dlid);
	pkey = ftsw_pkey_pick(rcu_dereference(in->pkey_tab), in->ca.mgmt.pkey,
			      dlid);

	return ftsw_edge_send(in, skb, dlid, slid, sl, pkey);
}

static void ftsw_rx_ll(struct ftsw_port *in, struct sk_buff *skb);

/* A frame that crossed a patch cable, taken up at its far end @in. */
static struct ftsw_port *ftsw_patch_rx(struct ftsw_port *in,
				       struct sk_buff *skb)
{
	ftsw_count_rx(in, skb->len, ftsw_pkts(skb));
	if (unlikely(!READ_ONCE(in->up))) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	if (unlikely(in->ll)) {
		ftsw_rx_ll(in, skb);
		return NULL;
	}
	return ftsw_link_rx(in, skb);
}

/*
 * Follow a frame a switch sent on without a device: across a patch cable
 * to its far end, a link port that takes it up as received, or to the
 * channel adapter behind an edge port (a MAD, ftsw_forward_out()); and on
 * from there, until it leaves on a device or ends; then the multicast
 * copies forward.c left on this CPU's list, the same way. A loop: every
 * patch hop is a link hop, so the hop limit ends it.
 */
static void ftsw_rx_walk(struct ftsw_port *next, struct sk_buff *skb)
{
	do {
		while (next) {
			if (next->kind == FTSW_PORT_EDGE)
				next = ftsw_mad_ca_rx(next, skb);
			else
				next = ftsw_patch_rx(next, skb);
		}
	} while ((skb = ftsw_forward_mc_pop(&next)));
}

void ftsw_rx_follow(struct ftsw_port *next, struct sk_buff *skb)
{
	ftsw_rx_walk(next, skb);
	ftsw_rx_flush();
}

/*
 * A frame lossless port @p's output queue let go (its timer, or at once:
 * ll_queue.c): out its device, to its host, across its patch cable (taken
 * up at the far end here) or to its CA. Bottom halves off, RCU held.
 */
void ftsw_rx_ll_send(struct ftsw_port *p, struct sk_buff *skb)
{
	u8 vl = ftsw_ll_cb(skb)->vl, rvl = ftsw_ll_cb(skb)->rvl;
	u32 b = ftsw_ll_blocks(skb->len);

	memset(skb->cb, 0, sizeof(skb->cb));
	if (p->kind == FTSW_PORT_LINK && p->dev) {
		if (!ftsw_xmit_dev(p, p, skb, vl) && rvl < FTSW_NUM_DATA_VL)
			ftsw_ll_unsend(p, rvl, b);
		return;
	}
	ftsw_rx_walk(ftsw_forward_out(p, p, skb, vl), skb);
}

/*
 * Lossless port @p's turn (its timer, or a drain asked for on this CPU:
 * ftsw_ll_soon_pop()): move what waits in its input buffers, send what its
 * output queues may send now, a credit update to a far end on another
 * machine; and have its timer run when it must look again. Bottom halves
 * off, RCU held.
 */
void ftsw_rx_ll_run(struct ftsw_port *p)
{
	struct sk_buff *credit = NULL, *skb;
	struct sk_buff_head tx;
	u64 next;

	__skb_queue_head_init(&tx);
	next = ftsw_ll_service(p, ktime_get_ns(), &tx, &credit);
	while ((skb = __skb_dequeue(&tx)))
		ftsw_rx_ll_send(p, skb);
	if (credit && dev_queue_xmit(credit) != NET_XMIT_SUCCESS)
		ftsw_port_drop(p, FTSW_DROP_TX_ERROR);
	if (next != U64_MAX)
		ftsw_ll_arm(p, next);
}

/*
 * Deliver what lossless output queues let go at once on this CPU while a
 * switch's lock was held (ll_queue.c), in order, including what those
 * frames make go in turn; then drain the ports asked for meanwhile
 * (ftsw_ll_soon_pop()), and so on. A loop, not a recursion: a delivery
 * that sends more only adds to the lists this loop runs through.
 */
void ftsw_rx_flush(void)
{
	struct ftsw_port *soon;
	struct sk_buff *skb;

	if (this_cpu_read(ftsw_rx_sending))
		return;
	this_cpu_write(ftsw_rx_sending, true);
	for (;;) {
		struct ftsw_port *p;

		skb = ftsw_ll_sent_pop();
		if (!skb) {
			soon = ftsw_ll_soon_pop();
			if (!soon)
				break;
			ftsw_rx_ll_run(soon);
			continue;
		}
		p = ftsw_ll_cb(skb)->port;
		if (unlikely(ftsw_ll_cb(skb)->originate)) {
			/* A CA's notification, into the fabric at @p. */
			memset(skb->cb, 0, sizeof(skb->cb));
			ftsw_rx_walk(ftsw_forward(p, skb), skb);
		} else {
			ftsw_rx_ll_send(p, skb);
		}
	}
	this_cpu_write(ftsw_rx_sending, false);
}

/*
 * A frame received on link port @in in lossless mode. Its sender charged
 * its credits; if it does not reach the input buffer (a drop on the way, a
 * management datagram), they go back at once (ll_queue.c).
 */
static void ftsw_rx_ll(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_port *next;
	struct ftsw_ll_rx rx;
	bool taken;

	if (ftsw_ll_rx(in, skb, &rx))
		return;		/* a credit update */
	next = ftsw_link_rx(in, skb);
	taken = ftsw_ll_rx_taken();
	ftsw_ll_rx_done(in, &rx, taken);
	ftsw_rx_follow(next, skb);
}

/*
 * A frame the switch of @in originates (a trap), routed by its LFT as if it
 * came in by @in (which counts its drops), and followed on.
 */
void ftsw_originate(struct ftsw_port *in, struct sk_buff *skb)
{
	ftsw_rx_follow(ftsw_forward(in, skb), skb);
}

/*
 * A frame received on @in, counted and found up: dispatched by the port's
 * kind, forwarded, and followed on (ftsw_rx_follow()).
 */
void ftsw_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_port *next;

	if (unlikely(in->ll) && in->kind == FTSW_PORT_LINK) {
		ftsw_rx_ll(in, skb);
		return;
	}
	if (in->kind == FTSW_PORT_EDGE)
		next = ftsw_edge_rx(in, skb);
	else
		next = ftsw_link_rx(in, skb);
	ftsw_rx_follow(next, skb);
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
	if (likely(!p->ll)) {
		/* today's mode: no queue drains in this receive */
		ftsw_rx(p, skb);
		return RX_HANDLER_CONSUMED;
	}
	ftsw_ll_ctx_enter();
	ftsw_rx(p, skb);
	ftsw_rx_flush();	/* what a last step asked for */
	ftsw_ll_ctx_exit();
	return RX_HANDLER_CONSUMED;
}
