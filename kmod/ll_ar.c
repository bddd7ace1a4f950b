// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: adaptive routing in lossless mode (Documentation/congestion.md,
 * "Adaptive routing"): when a packet becomes the head of its input
 * buffer, its switch picks its output among the LFT's port and the
 * DLID's group by ar.c's rule, on the output queues' occupancy and the
 * credit the next buffers give; and the edge ports count what arrives
 * out of order. ll_queue.c calls both under the switch's lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include "ar.h"
#include "hdr.h"
#include "stats.h"
#include "ll_ar.h"

/* May a packet go out by @out now (up, lossless, the port states)? */
static bool ftsw_ll_out_ok(const struct ftsw_port *out)
{
	return out && out->ll && READ_ONCE(out->up) &&
	       ftsw_ps_sends(&out->ib) &&
	       (out->kind != FTSW_PORT_EDGE || ftsw_ps_takes(&out->ca.ib));
}

/* Blocks @o's link has still to send at @now (0: it is free). */
static u32 ftsw_ll_busy_blocks(const struct ftsw_port *o, u64 now)
{
	u64 rest = ftsw_ll_age(READ_ONCE(o->ll->busy_until), now);

	return ftsw_ll_wire_blocks(rest, READ_ONCE(o->rate));
}

/*
 * Adaptive routing: @skb just became the head of @p's input buffer, and
 * its switch has groups. Its output is the allowed port with the smallest
 * queued - credit (ar.c's rule: blocks in that port's output queue of the
 * packet's VL, less the blocks of credit it holds towards the next buffer
 * of the packet's VL there), among the LFT's port (cb->out) and its
 * DLID's group; per flowlet when the fabric has a gap. sw->ll_lock held.
 *
 * A frame leaves its output queue whole as it starts on the wire and the
 * next switch returns its credit as soon as it queues it, so a port busy
 * sending would score as an idle one: per flowlet the rest of its link's
 * wire time counts as queued blocks (a flowlet's first packet then finds
 * the idle port, as in the simulator; per packet this made the lab worse,
 * Documentation/congestion.md, and is left out).
 */
static void ftsw_ll_ar_choose(struct ftsw_port *p, struct sk_buff *skb,
			      const struct ftsw_ar *ar, u64 now)
{
	const struct ftsw_hdr *h = ftsw_hdr(skb);
	struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);
	struct ftsw_switch *sw = p->sw;
	u16 dlid = ntohs(h->dlid), slid = ntohs(h->slid);
	struct ftsw_flowlet *f = NULL;
	unsigned int best = cb->out, port;
	const unsigned long *set;
	s64 bs = S64_MAX;
	u32 key = 0;
	u64 gap;

	set = ftsw_ar_group(ar, dlid);
	if (!set)
		return;
	gap = READ_ONCE(sw->fn->flowlet_ns);
	if (gap) {
		key = ftsw_ar_flowlet_key(slid, dlid);
		f = &ar->flow[ftsw_ar_flowlet_slot(slid, dlid)];
		port = ftsw_ar_flowlet_keep(f, key, now, gap);
		if (port && (port == cb->out || test_bit(port, set)) &&
		    ftsw_ll_out_ok(ftsw_ll_port(sw, port))) {
			best = port;
			goto out;
		}
	}
	for (port = 1; port <= sw->nports; port++) {
		struct ftsw_port *o, *peer;
		u32 credit = 0, queued;
		s64 sc;

		if (port != cb->out && !test_bit(port, set))
			continue;
		o = ftsw_ll_port(sw, port);
		if (!ftsw_ll_out_ok(o))
			continue;
		queued = o->ll->vl[cb->vl].out_blocks;
		if (gap)
			queued += ftsw_ll_busy_blocks(o, now);
		if (o->kind == FTSW_PORT_LINK) {
			u8 rvl;

			peer = ftsw_ll_peer(o);
			rvl = ftsw_ll_rvl(peer, skb, cb->vl);
			if (rvl < FTSW_NUM_DATA_VL)
				credit = ftsw_ll_credits(o, peer, rvl);
			if (credit == U32_MAX)	/* a far end that never said */
				credit = 0;
		}
		sc = (s64)queued - credit;
		if (ftsw_ar_better(sc, port, bs, best, cb->out)) {
			bs = sc;
			best = port;
		}
	}
	if (f)
		ftsw_ar_flowlet_take(f, key, best, now);
out:
	if (best != cb->out) {
		ftsw_count_ev(ftsw_ll_port(sw, best), FTSW_EV_AR_DIVERTED);
		cb->out = best;
	}
}

/* @skb became the head of @p's input buffer at @now. */
void ftsw_ll_new_head(struct ftsw_port *p, struct sk_buff *skb, u64 now)
{
	const struct ftsw_ar *ar = rcu_dereference(p->sw->ar);

	ftsw_ll_cb(skb)->head = now;
	if (unlikely(ar))
		ftsw_ll_ar_choose(p, skb, ar, now);
}

/*
 * An edge port delivers @skb to its host: counted out of order if its
 * source's edge port numbered it below one delivered before (numbers in
 * skb->mark, 0: none, e.g. from another machine). Sources are told apart
 * by SLID, modulo FTSW_ORDER_SLOTS (a source taking another's slot starts
 * it afresh). sw->ll_lock held.
 */
void ftsw_ll_order(struct ftsw_port *p, struct sk_buff *skb)
{
	struct ftsw_ll *ll = p->ll;
	u32 seq = skb->mark;
	unsigned int i;
	u16 slid;

	if (!seq)
		return;
	if (!ll->order) {
		ll->order = kzalloc(sizeof(*ll->order), GFP_ATOMIC);
		if (!ll->order)
			return;
	}
	slid = ntohs(ftsw_hdr(skb)->slid);
	i = slid % FTSW_ORDER_SLOTS;
	if (ll->order->slid[i] == slid && ll->order->seq[i] &&
	    (s32)(seq - ll->order->seq[i]) < 0) {
		ftsw_count_ev(p, FTSW_EV_OUT_OF_ORDER);
		return;
	}
	ll->order->slid[i] = slid;
	ll->order->seq[i] = seq;
}
