// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: forwarding by the LFT. A fabric frame at a switch goes out the
 * port its LFT names for the DLID, if that port is up and the port states
 * let the frame pass (IBA vol. 1, 7.2); in lossless mode a data frame
 * waits in the input buffer first (ll_queue.c). Out of an edge port the
 * frame is the host's: its DLID checked against the host's LID range, the
 * fabric header popped, or, a MAD, left for the host's channel adapter,
 * which rx.c hands it to. A frame for a multicast LID goes out of every
 * port the switch's MFT names but the one it came in by, each a copy; the
 * copies that cross patch cables wait on a per-CPU list for rx.c to take
 * them up (ftsw_forward_mc_pop()). Runs in the rx handler (RCU, softirq).
 */
#include <linux/etherdevice.h>
#include <linux/skbuff.h>
#include "cc.h"
#include "hdr.h"
#include "lft.h"
#include "mcast.h"
#include "ll_queue.h"
#include "path.h"
#include "pkey.h"
#include "stats.h"
#include "tx.h"
#include "forward.h"

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
	return ftsw_is_smp_frame(skb);
}

/*
 * A packet with FECN reaches the host behind edge port @out: its CA
 * returns a congestion notification to the packet's source (cc.c), sent
 * into the fabric once no lock is held.
 */
static void ftsw_notify(struct ftsw_port *out, const struct ftsw_hdr *h)
{
	struct sk_buff *cnp = ftsw_cc_cnp(h);

	if (!cnp)
		return;
	ftsw_count_ev(out, FTSW_EV_CC_CNP);
	ftsw_ll_originate(out, cnp);
}

/*
 * Copies of multicast frames that crossed a patch cable on this CPU, each
 * with the far end that takes it up in its cb, for rx.c (bottom halves
 * off, as every sender and taker runs).
 */
static DEFINE_PER_CPU(struct ftsw_skb_list, ftsw_mc_pending);

static struct ftsw_port **ftsw_mc_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ftsw_port *) > sizeof(skb->cb));
	return (struct ftsw_port **)skb->cb;
}

/*
 * The next multicast copy waiting on this CPU, its far end in *@next;
 * NULL: none. The port is valid as long as the RCU read section it was
 * sent in lasts (rx.c takes them up before leaving it).
 */
struct sk_buff *ftsw_forward_mc_pop(struct ftsw_port **next)
{
	struct sk_buff *skb = ftsw_skb_list_pop(this_cpu_ptr(&ftsw_mc_pending));

	if (!skb)
		return NULL;
	*next = *ftsw_mc_cb(skb);
	memset(skb->cb, 0, sizeof(skb->cb));
	return skb;
}

static void ftsw_mc_send(struct ftsw_port *in, struct ftsw_port *out,
			 struct sk_buff *skb, u8 vl)
{
	struct ftsw_port *next = ftsw_forward_out(in, out, skb, vl);

	if (!next)
		return;
	*ftsw_mc_cb(skb) = next;
	ftsw_skb_list_add(this_cpu_ptr(&ftsw_mc_pending), skb);
}

/*
 * A data frame for multicast LID @mlid at @in's switch: a copy out of each
 * port the MFT names (bits past the switch's ports ignored), not @in, that
 * is up, in a state that passes data and does not refuse the P_Key
 * (IBA 10.9.4: counted there, trap 259); the last port gets @skb itself,
 * returned as ftsw_forward() does, the others' copies are sent or left for
 * rx.c. Lossless mode is not asked: a copy goes as a management datagram
 * does, uncharged (ll_queue.c knows a multicast DLID). None: no route.
 */
static struct ftsw_port *ftsw_forward_mcast(struct ftsw_port *in,
					    struct sk_buff *skb, u16 mlid)
{
	struct ftsw_switch *sw = in->sw;
	const struct ftsw_mft *mft = rcu_dereference(sw->mft);
	struct ftsw_hdr *h = ftsw_hdr(skb);
	u16 pkey = ntohs(h->pkey);
	struct ftsw_port *out, *last = NULL;
	struct sk_buff *copy;
	u8 vl = READ_ONCE(sw->sl2vl[h->sl & FTSW_SL_MASK]);
	unsigned int i;

	for (i = 1; i <= sw->nports; i++) {
		if (i == in->num || !ftsw_mft_port(mft, mlid, i))
			continue;
		out = rcu_dereference(sw->ports[i]);
		if (!out || !READ_ONCE(out->up) ||
		    !ftsw_state_passes(in, out, skb))
			continue;
		if (unlikely(!ftsw_pkey_enforce_ok(out, pkey, true))) {
			ftsw_pkey_violation(out, ntohs(h->slid), mlid,
					    h->sl & FTSW_SL_MASK, pkey);
			ftsw_port_drop(out, FTSW_DROP_PKEY_OUT);
			continue;
		}
		if (last) {
			copy = skb_clone(skb, GFP_ATOMIC);
			if (unlikely(!copy)) {
				ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
				continue;
			}
			ftsw_mc_send(in, last, copy, vl);
		}
		last = out;
	}
	if (!last) {
		ftsw_drop(in, skb, FTSW_DROP_NO_ROUTE);
		return NULL;
	}
	return ftsw_forward_out(in, last, skb, vl);
}

/*
 * Forward a fabric frame (skb->data at the Ethernet header, a complete,
 * checked and writable fabric header after it) by @in's switch LFT.
 * Returns where the frame goes on, for the caller to take it up there
 * (ftsw_rx_follow()): the far end of a patch cable it was sent on, or the
 * edge port whose CA it is for (a MAD); NULL: it was sent or dropped.
 */
struct ftsw_port *ftsw_forward(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_switch *sw = in->sw;
	struct ftsw_hdr *h = ftsw_hdr(skb);
	u16 dlid = ntohs(h->dlid);
	struct ftsw_port *out;
	u8 num, vl;

	if (unlikely(ftsw_lid_is_mcast(dlid)) &&
	    h->proto != htons(FTSW_ETH_P_MAD))
		return ftsw_forward_mcast(in, skb, dlid);
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
	/*
	 * Outbound partition enforcement (IBA 10.9.4), SMPs excepted:
	 * counted on the port that would have sent it
	 * (PortXmitConstraintErrors).
	 */
	if (unlikely(!ftsw_pkey_enforce_ok(out, ntohs(h->pkey), true)) &&
	    !ftsw_is_smp_frame(skb)) {
		ftsw_pkey_violation(out, ntohs(h->slid), dlid,
				    h->sl & FTSW_SL_MASK, ntohs(h->pkey));
		ftsw_drop(out, skb, FTSW_DROP_PKEY_OUT);
		return NULL;
	}
	vl = READ_ONCE(sw->sl2vl[h->sl & FTSW_SL_MASK]);
	/* Lossless mode: into the input buffer (ll_queue.c). */
	if (unlikely(in->ll) && out->ll && vl < FTSW_NUM_DATA_VL &&
	    h->proto != htons(FTSW_ETH_P_MAD) &&
	    h->proto != htons(FTSW_PROTO_CNP)) {
		ftsw_ll_input(in, out, skb, vl);
		return NULL;
	}
	return ftsw_forward_out(in, out, skb, vl);
}

/*
 * Send a frame the LFT sent to @out: to a host (decapsulated) or its CA
 * (a MAD: @out returned), across a patch cable (its far end returned) or
 * on a device; returns as ftsw_forward() does.
 */
struct ftsw_port *ftsw_forward_out(struct ftsw_port *in, struct ftsw_port *out,
				   struct sk_buff *skb, u8 vl)
{
	struct ftsw_hdr *h = ftsw_hdr(skb);
	bool mc = ftsw_lid_is_mcast(ntohs(h->dlid));
	struct ftsw_policy *pol;

	if (out->kind == FTSW_PORT_EDGE) {
		pol = rcu_dereference(out->policy);
		if (unlikely(!pol ||
			     (!mc && !ftsw_lid_in_range(pol, ntohs(h->dlid))))) {
			ftsw_drop(in, skb, FTSW_DROP_MISDELIVERED);
			return NULL;
		}
		/*
		 * The CA takes only keys its P_KeyTable matches (IBA
		 * 10.9.3); its P_KeyViolations count the rest.
		 */
		if (unlikely(!ftsw_pkey_in_table(out->ca.mgmt.pkey,
						 ntohs(h->pkey), false)) &&
		    !ftsw_is_smp_frame(skb)) {
			ftsw_drop(out, skb, FTSW_DROP_PKEY_CA);
			return NULL;
		}
		/* A MAD for the host's channel adapter: rx.c gives it. */
		if (unlikely(h->proto == htons(FTSW_ETH_P_MAD))) {
			ftsw_count_tx(out, skb->len, 1, vl);
			return out;
		}
		if (unlikely(h->proto == htons(FTSW_PROTO_CNP))) {
			ftsw_ll_becn(out, skb);
			return NULL;
		}
		/* A group's copies are never marked: no source to notify */
		if (unlikely(h->sl & FTSW_HDR_FECN) && !mc)
			ftsw_notify(out, h);
		if (unlikely(ftsw_decap(skb))) {
			ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
			return NULL;
		}
		if (!mc)	/* a group's copy keeps its group's MAC */
			ftsw_host_mac(out, pol, skb);
	}
	return ftsw_xmit(in, out, skb, vl);
}
