// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: lossless mode's buffers and queues. Per port and data VL an input
 * buffer and an output queue; credit flow control between the two ends of
 * every link (credit updates in frames, ll_credit.c, when the far end is on
 * another machine); input heads moved to their output queues FIFO per VL
 * (head-of-line blocking) and round robin among the inputs; output queues
 * drained at the link rate by the port's VL arbitration (ll_arb.c); HOQ
 * and switch lifetimes. A packet that finds its output's link free and
 * credit in hand is sent at once, in the receive that brought it (rx.c
 * delivers it once the switch's lock is dropped: ftsw_ll_sent_pop());
 * the port's timer (lossless.c) runs what has to wait: a busy link,
 * credit, lifetimes. See Documentation/datapath.md, "Lossless mode".
 *
 * Locking: a switch's sw->ll_lock guards the queues and counters of all its
 * ports (a packet moves from an input buffer to an output queue of the same
 * switch under it). Nothing takes two switches' locks: a frame is handed to
 * the next switch (patch cable, device) after the lock is dropped. The far
 * end's counters a sender reads for its credit are read locklessly (u32,
 * monotonic). Each port's hrtimer (softirq) drains its output queues; arming
 * it takes the leaf ll->arm_lock.
 */
#include <linux/kernel.h>
#include <linux/etherdevice.h>
#include <linux/hrtimer.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/sch_generic.h>
/* skb_gso_segment(): <linux/netdevice.h> up to 6.4, <net/gso.h> since. */
#include <net/udp.h>
#include "cc.h"
#include "hdr.h"
#include "ll_ar.h"
#include "ll_arb.h"
#include "ll_credit.h"
#include "stats.h"
#include "ll_queue.h"

/* Credit keepalive towards a far end on another machine. */
#define FTSW_LL_KEEPALIVE_NS	(100 * NSEC_PER_MSEC)

/*
 * Where an edge port's buffer stops taking frames its host still sends
 * once held back: a qdisc run pushes up to 64 frames into the veth before
 * the edge port sees the first (the host's backlog holds up to
 * netdev_max_backlog), all of them already on their way.
 */
#define FTSW_LL_EDGE_SLACK	(2 << 20)

static DEFINE_PER_CPU(bool, ftsw_ll_taken);

/*
 * Frames output queues let go at once, while their switch's lock was held
 * (ftsw_ll_send_soon()), in the order they left: rx.c delivers them when
 * the lock is dropped (ftsw_ll_sent_pop()). Everything here runs with
 * bottom halves off, so each CPU has its own list. ftsw_ll_depth: a drain
 * is running on this CPU (a drain's wake-ups move packets into other
 * output queues of the switch: those are left to their ports' timers
 * rather than drained within the drain, which would nest without bound).
 */
static DEFINE_PER_CPU(struct ftsw_skb_list, ftsw_ll_sent);
static DEFINE_PER_CPU(unsigned int, ftsw_ll_depth);

static void ftsw_ll_sent_push(struct sk_buff *skb)
{
	ftsw_skb_list_add(this_cpu_ptr(&ftsw_ll_sent), skb);
}

/* ---------------------------------------------------------- helpers */

/* Have @p's timer run at @at (ns, CLOCK_MONOTONIC) or earlier; never at
 * an infinite time (a lifetime of 20..31 never ends).
 */
void ftsw_ll_arm(struct ftsw_port *p, u64 at)
{
	struct ftsw_ll *ll = p->ll;
	ktime_t t;

	if (!ll || at >= (u64)KTIME_MAX)
		return;
	t = ns_to_ktime(at);
	/*
	 * Queued to run at @at or earlier already: nothing to do. A timer
	 * that fires meanwhile takes the switch's lock after our caller put
	 * what it wants seen, so it sees it; one running now is not queued.
	 */
	if (IS_ENABLED(CONFIG_64BIT) &&
	    /* a lockless look: the expiry is one word on 64-bit machines */
	    data_race(hrtimer_is_queued(&ll->timer) &&
		      !ktime_before(t, hrtimer_get_expires(&ll->timer))))
		return;
	spin_lock_bh(&ll->arm_lock);
	if (!ll->dead && (!hrtimer_is_queued(&ll->timer) ||
			  ktime_before(t, hrtimer_get_expires(&ll->timer))))
		hrtimer_start(&ll->timer, t, HRTIMER_MODE_ABS_SOFT);
	spin_unlock_bh(&ll->arm_lock);
}

/* Frames may start this much ahead of the link's time (fewer timer runs). */
#define FTSW_LL_BATCH_NS	(20 * NSEC_PER_USEC)

/* Have @p's timer run when its link can send next, @now at the earliest. */
static void ftsw_ll_arm_send(struct ftsw_port *p, u64 now)
{
	u64 busy = READ_ONCE(p->ll->busy_until);

	ftsw_ll_arm(p, busy > now + FTSW_LL_BATCH_NS ?
		    busy - FTSW_LL_BATCH_NS : now);
}

/*
 * Have @p send what it may, with its link free at @now: on this CPU's
 * list, drained once the caller's lock is dropped (ll_link.c), or by its
 * timer.
 */
static void ftsw_ll_soon_send(struct ftsw_port *p, u64 now)
{
	struct ftsw_ll *ll = p->ll;

	if (READ_ONCE(ll->dead) ||
	    READ_ONCE(ll->busy_until) > now + FTSW_LL_BATCH_NS ||
	    !ftsw_ll_soon_add(p))
		ftsw_ll_arm_send(p, now);
}

/* @p's settings changed: its timer rereads them (and its lifetimes). */
void ftsw_ll_kick(struct ftsw_port *p)
{
	if (p->ll) {
		atomic_inc(&p->sw->fn->ll_gen);
		ftsw_ll_arm(p, ktime_get_ns());
	}
}

/* The switch's lifetime or a port's registers changed (SMP, netlink). */
void ftsw_ll_kick_switch(struct ftsw_switch *sw)
{
	int i;

	atomic_inc(&sw->fn->ll_gen);
	rcu_read_lock();
	for (i = 1; i <= sw->nports; i++) {
		struct ftsw_port *p = rcu_dereference(sw->ports[i]);

		if (p && p->ll)
			ftsw_ll_arm(p, ktime_get_ns());
	}
	rcu_read_unlock();
}

/* The largest frame @p's host may send, as the edge port buffers it. */
static u32 ftsw_ll_host_frame(struct ftsw_port *p)
{
	return READ_ONCE(p->dev->mtu) + ETH_HLEN + VLAN_HLEN + FTSW_HLEN;
}

/*
 * Whether an edge buffer of @cap bytes holding @bytes has room for the
 * host's next frame of up to @frame bytes. A buffer smaller than the
 * host's largest frame has room when it is empty: any frame that fits it
 * at all is then taken, and the host is never held back for good.
 */
bool ftsw_ll_host_room(u32 bytes, u32 frame, u32 cap)
{
	if (!bytes)
		return true;
	return (u64)bytes + min(frame, cap) <= cap;
}

/* Reload the arbitration table and HOQLife the SMA or netlink wrote. */
static void ftsw_ll_cfg(struct ftsw_port *p)
{
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_ll *ll = p->ll;
	int gen = atomic_read(&fn->ll_gen);

	if (gen == ll->cfg_gen)
		return;
	spin_lock(&fn->sma_lock);
	memcpy(ll->arb_cfg.ent, p->ib.vlarb, sizeof(ll->arb_cfg.ent));
	ll->arb_cfg.limit = p->ib.vl_high_limit;
	ll->hoq_ns = ftsw_ll_life_ns(p->ib.hoq);
	ll->life_ns = ftsw_ll_life_ns(p->sw->life);
	spin_unlock(&fn->sma_lock);
	ll->cfg_gen = gen;
}

/* ---------------------------------------------------------- switching */

/*
 * A packet left @p's input buffer of @vl (forwarded, discarded or refused):
 * its credit goes back to the sender, and a held-back host may send again.
 * sw->ll_lock held.
 */
static void ftsw_ll_freed(struct ftsw_port *p, u8 vl, u32 blocks, u64 now)
{
	struct ftsw_ll *ll = p->ll;
	struct net_device *host;
	struct ftsw_port *up;
	int i;

	WRITE_ONCE(ll->vl[vl].freed, ll->vl[vl].freed + blocks);
	if (p->kind == FTSW_PORT_EDGE) {
		if (!ll->host_stopped)
			return;
		for (i = 0; i < FTSW_NUM_DATA_VL; i++)
			if (!ftsw_ll_host_room(ll->vl[i].in_bytes,
					       ftsw_ll_host_frame(p),
					       READ_ONCE(p->in_buf)))
				return;
		ll->host_stopped = false;
		host = ftsw_ll_host(p);
		if (host)
			netif_tx_wake_all_queues(host);
		return;
	}
	up = ftsw_ll_peer(p);
	if (up) {
		smp_mb();	/* freed before credit_wait: see ftsw_ll_heads() */
		if (READ_ONCE(up->ll->credit_wait) & BIT(vl))
			ftsw_ll_soon_send(up, now);
	} else if (p->dev) {
		ll->credit_dirty = true;
		ftsw_ll_arm(p, now);
	}
}

/*
 * An edge port's buffer also holds what its host pushed before it was held
 * back (FTSW_LL_EDGE_SLACK): on InfiniBand those frames would still be in
 * the host's send queue, so their switch lifetime starts when they come
 * within the buffer's size. The head always counts as in.
 */
static void ftsw_ll_admit(struct ftsw_port *p, struct ftsw_ll_vl *v, u64 now)
{
	u32 cap = READ_ONCE(p->in_buf), bytes = 0;
	struct sk_buff *skb;

	skb_queue_walk(&v->in, skb) {
		struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);

		bytes += cb->bytes;
		if (bytes > cap && bytes != cb->bytes)
			break;
		if (!cb->arrived)
			cb->arrived = now;
	}
}

static struct sk_buff *ftsw_ll_in_pop(struct ftsw_port *p, u8 vl, u64 now)
{
	struct ftsw_ll_vl *v = &p->ll->vl[vl];
	struct sk_buff *skb = __skb_dequeue(&v->in);
	struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);
	struct sk_buff *next;

	if (v->in_bytes > READ_ONCE(p->in_buf))
		ftsw_ll_admit(p, v, now);	/* frames past the size */
	v->in_bytes -= cb->bytes;
	if (v->blocked_since) {
		v->in_wait_ns += ftsw_ll_age(now, v->blocked_since);
		v->blocked_since = 0;
	}
	next = skb_peek(&v->in);
	if (next)
		ftsw_ll_new_head(p, next, now);
	ftsw_ll_freed(p, vl, cb->blocks, now);
	return skb;
}

static u64 ftsw_ll_add(u64 t, u64 d)
{
	return d > U64_MAX - t ? U64_MAX : t + d;
}

static void ftsw_ll_send_soon(struct ftsw_port *p, u64 now);

/* ------------------------------------------------ congestion control */

/*
 * The congestion control unit of a host's packet (header @h) at its edge
 * port @p: its SL's while the CA's Port_Control bit 0 is set, else its
 * destination's (hashed). Only once the CA got a BECN (p->ll->cc_units).
 */
static struct ftsw_cc_unit *ftsw_ll_cc_unit(struct ftsw_port *p, u16 dlid,
					    u8 sl)
{
	if (READ_ONCE(p->ca.cc.port_control) & 1)
		return &p->ll->cc_units[sl & FTSW_SL_MASK];
	return &p->ll->cc_units[dlid % FTSW_CC_UNITS];
}

/*
 * Whether the head @skb of edge port @p's input buffer @v must wait for
 * its unit's inter-packet delay: then the port's timer runs when it ends,
 * and the packet counts as held once (whether or not it also waits for
 * room) (Documentation/congestion.md,
 * "Throttling": the host is held back, not dropped).
 */
static bool ftsw_ll_cc_wait(struct ftsw_port *p, struct ftsw_ll_vl *v,
			    struct sk_buff *skb, u64 now)
{
	const struct ftsw_hdr *h = ftsw_hdr(skb);
	struct ftsw_cc_unit *u = ftsw_ll_cc_unit(p, ntohs(h->dlid), h->sl);

	if (u->next_send <= now)
		return false;
	if (!v->blocked_since)
		v->blocked_since = now;
	if (!ftsw_ll_cb(skb)->held) {
		ftsw_ll_cb(skb)->held = true;
		ftsw_count_ev(p, FTSW_EV_CC_HELD);
	}
	ftsw_ll_arm(p, u->next_send);
	return true;
}

/*
 * A host's packet @skb left edge port @p's input buffer at @now for
 * @out's output queue: its time is its blocks at @out's link rate (the
 * host's own link is not the lab's bottleneck: a lab's --rate shapes the
 * switches' links).
 */
static void ftsw_ll_cc_sent(struct ftsw_port *p, struct ftsw_port *out,
			    struct sk_buff *skb, u64 now)
{
	const struct ftsw_hdr *h = ftsw_hdr(skb);
	struct ftsw_cc_unit *u = ftsw_ll_cc_unit(p, ntohs(h->dlid), h->sl);
	struct ftsw_cc_rt s;

	ftsw_cc_sl_get(&p->ca.cc, h->sl & FTSW_SL_MASK,
		       READ_ONCE(p->sw->fn->cc_timer_ns), &s);
	ftsw_cc_sent(u, &p->ca.cc, &s, now,
		     ftsw_ll_wire_ns(ftsw_ll_cb(skb)->blocks,
				     READ_ONCE(out->rate)));
}

/*
 * A packet @skb starts on @p's link from its VL's output queue @o, which
 * held @occ blocks with it; @victim: the queue waited for credit. Marked
 * with FECN if the switch's settings say so (cc.c), and logged.
 */
static void ftsw_ll_cc_mark(struct ftsw_port *p, struct ftsw_ll_vl *o,
			    struct sk_buff *skb, u32 blocks, u32 occ,
			    bool victim)
{
	struct ftsw_cc_sw *cc = &p->sw->cc;
	struct ftsw_hdr *h = ftsw_hdr(skb);

	if (!ftsw_cc_mark(p, &o->cc_skip, blocks, occ,
			  ftsw_ll_blocks(READ_ONCE(p->out_buf)), victim))
		return;
	h->sl |= FTSW_HDR_FECN;
	ftsw_cc_log_add(&cc->log, FTSW_CC_LOG_SW, ntohs(h->slid),
			ntohs(h->dlid), h->sl & FTSW_SL_MASK);
	__set_bit(p->num, cc->log.ports);
	ftsw_count_ev(p, FTSW_EV_CC_FECN);
}

/*
 * A congestion notification (BECN) for the host behind edge port @p: its
 * unit (by the SL, or by the flow's destination, the notification's
 * SLID) slows down; an index that reaches the trigger threshold is
 * logged. Consumed.
 */
void ftsw_ll_becn(struct ftsw_port *p, struct sk_buff *skb)
{
	const struct ftsw_hdr *h = ftsw_hdr(skb);
	struct ftsw_ll *ll = p->ll;
	struct ftsw_cc_unit *u;
	struct ftsw_cc_rt s;
	u8 sl = h->sl & FTSW_SL_MASK;

	ftsw_count_ev(p, FTSW_EV_CC_BECN);
	if (!ll) {
		consume_skb(skb);
		return;
	}
	spin_lock_bh(&p->sw->ll_lock);
	if (!ll->cc_units)
		ll->cc_units = kcalloc(FTSW_CC_UNITS, sizeof(*ll->cc_units),
				       GFP_ATOMIC);
	if (ll->cc_units) {
		u = ftsw_ll_cc_unit(p, ntohs(h->slid), sl);
		ftsw_cc_sl_get(&p->ca.cc, sl, READ_ONCE(p->sw->fn->cc_timer_ns),
			       &s);
		if (ftsw_cc_becn(u, &s, ktime_get_ns())) {
			ftsw_cc_log_add(&p->ca.cc.log, FTSW_CC_LOG_CA,
					ntohs(h->slid), ntohs(h->dlid), sl);
			p->ca.cc.log.sl_map |= BIT(sl);
		}
	}
	spin_unlock_bh(&p->sw->ll_lock);
	consume_skb(skb);
}

/*
 * A frame the CA behind edge port @in sends into the fabric while the
 * caller may hold a switch's lock (a congestion notification): rx.c
 * takes it up as received on @in once the lock is dropped, with what
 * output queues let go (ftsw_ll_sent_pop(): ftsw_ll_cb()->originate).
 */
void ftsw_ll_originate(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);

	memset(cb, 0, sizeof(*cb));
	cb->port = in;
	cb->originate = true;
	ftsw_ll_sent_push(skb);
}

/* @p's input head of @vl waits for room in @out's output queue @o. */
static void ftsw_ll_block(struct ftsw_port *p, struct ftsw_ll_vl *v,
			  struct ftsw_port *out, struct ftsw_ll_vl *o,
			  struct ftsw_ll_cb *cb, u64 now)
{
	if (!v->blocked_since)
		v->blocked_since = now;
	v->head_port = out->num;
	v->head_vl = cb->vl;
	__set_bit(p->num, o->waiters);
	ftsw_ll_arm(p, ftsw_ll_add(cb->arrived, p->ll->life_ns));
}

/*
 * Move the heads of @p's input buffer of @vl to their output queues while
 * they have room; a head that cannot go blocks the buffer behind it and
 * registers with its output queue. Heads past the switch lifetime are
 * discarded. With @turn (the output queue's round robin gave @p its turn),
 * at most one packet goes into @turn: a next head for it waits for its
 * next turn. Returns whether a packet went into @turn. sw->ll_lock held.
 */
static bool ftsw_ll_switch_vl(struct ftsw_port *p, u8 vl, u64 now,
			      const struct ftsw_ll_vl *turn)
{
	struct ftsw_ll_vl *v = &p->ll->vl[vl];
	struct sk_buff *skb;
	bool served = false;

	while ((skb = skb_peek(&v->in))) {
		struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);
		struct ftsw_port *out = ftsw_ll_port(p->sw, cb->out);
		struct ftsw_ll_vl *o;

		if (ftsw_ll_age(now, cb->arrived) > p->ll->life_ns) {
			v->life_discards++;
			ftsw_drop(p, ftsw_ll_in_pop(p, vl, now),
				  FTSW_DROP_SWITCH_LIFE);
			continue;
		}
		if (!out || !out->ll || !READ_ONCE(out->up)) {
			ftsw_drop(p, ftsw_ll_in_pop(p, vl, now),
				  FTSW_DROP_PORT_DOWN);
			continue;
		}
		/* A host's packet waits for its inter-packet delay. */
		if (p->ll->cc_units && ftsw_ll_cc_wait(p, v, skb, now))
			return served;
		o = &out->ll->vl[cb->vl];
		if ((o->out_bytes &&
		     o->out_bytes + skb->len > READ_ONCE(out->out_buf)) ||
		    (served && o == turn)) {
			ftsw_ll_block(p, v, out, o, cb, now);
			return served;
		}
		skb = ftsw_ll_in_pop(p, vl, now);
		if (p->ll->cc_units)
			ftsw_ll_cc_sent(p, out, skb, now);
		cb->bytes = skb->len;
		if (skb_queue_empty(&o->out))
			cb->head = now;
		__skb_queue_tail(&o->out, skb);
		o->out_bytes += cb->bytes;
		o->out_blocks += cb->blocks;
		out->ll->out_mask |= BIT(cb->vl);
		o->last_in = p->num;
		served |= o == turn;
		ftsw_ll_send_soon(out, now);
	}
	return served;
}

/*
 * Input port @n, waiting on @p's output queue of @vl, has its turn: each
 * of its input buffers whose head waits for that queue moves one packet
 * if there is room. Returns whether one moved.
 */
static bool ftsw_ll_wake_in(struct ftsw_port *p, u8 vl, unsigned long n,
			    u64 now)
{
	struct ftsw_ll_vl *o = &p->ll->vl[vl];
	struct ftsw_port *in = ftsw_ll_port(p->sw, n);
	bool moved = false;
	int i;

	__clear_bit(n, o->waiters);
	if (!in || !in->ll)
		return false;
	for (i = 0; i < FTSW_NUM_DATA_VL; i++) {
		struct ftsw_ll_vl *v = &in->ll->vl[i];

		if (v->blocked_since && v->head_port == p->num &&
		    v->head_vl == vl)
			moved |= ftsw_ll_switch_vl(in, i, now, o);
	}
	return moved;
}

/*
 * Input buffers waiting on @p's output queue of @vl get another try, round
 * robin packet by packet as an IB switch arbitrates an output among its
 * inputs: each scan starts past the input that moved in last, and after a
 * packet moves it starts again past that one, until a whole scan moves
 * nothing (no room, or nobody waits).
 */
static void ftsw_ll_wake(struct ftsw_port *p, u8 vl, u64 now)
{
	const unsigned int all = FTSW_MAX_PORTS + 1;
	struct ftsw_ll_vl *o = &p->ll->vl[vl];
	unsigned int base = o->last_in, k = 1, n, m;

	/* k: how far past @base the scan is, 1..all (all: @base itself) */
	while (k <= all) {
		n = (base + k) % all;
		m = find_next_bit(o->waiters, all, n);
		if (m >= all) {
			m = find_first_bit(o->waiters, all);
			if (m >= all)
				return;		/* nobody waits */
			k += all - n + m;
		} else {
			k += m - n;
		}
		if (k > all)
			return;
		if (ftsw_ll_wake_in(p, vl, m, now)) {
			base = o->last_in;	/* moved: scan again past it */
			k = 1;
		} else {
			k++;
		}
	}
}

/* Take the head of @p's output queue of @vl off. */
static struct sk_buff *ftsw_ll_out_pop(struct ftsw_port *p, u8 vl, u64 now)
{
	struct ftsw_ll_vl *o = &p->ll->vl[vl];
	struct sk_buff *skb = __skb_dequeue(&o->out);
	struct sk_buff *next;

	o->out_bytes -= ftsw_ll_cb(skb)->bytes;
	o->out_blocks -= ftsw_ll_cb(skb)->blocks;
	if (skb_queue_empty(&o->out))
		p->ll->out_mask &= ~BIT(vl);
	if (o->credit_since) {
		o->out_wait_ns += ftsw_ll_age(now, o->credit_since);
		o->credit_since = 0;
	}
	next = skb_peek(&o->out);
	if (next)
		ftsw_ll_cb(next)->head = now;
	ftsw_ll_wake(p, vl, now);
	return skb;
}

/*
 * The heads of @p's output queues: discard those past their lifetimes,
 * find those the far end has credit for. Returns the VLs ready, their
 * sizes in @blocks and the next time a lifetime ends in *@next.
 */
static u16 ftsw_ll_heads(struct ftsw_port *p, struct ftsw_port *peer,
			 u64 now, u16 *blocks, u64 *next)
{
	struct ftsw_ll *ll = p->ll;
	unsigned long mask = ll->out_mask;
	u16 ready = 0, wait = 0;
	struct sk_buff *skb;
	int vl;

	for_each_set_bit(vl, &mask, FTSW_NUM_DATA_VL) {
		struct ftsw_ll_vl *o = &ll->vl[vl];

		while ((skb = skb_peek(&o->out))) {
			struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);
			u32 b = ftsw_ll_blocks(skb->len);
			u8 rvl;

			if (ftsw_ll_age(now, cb->head) > ll->hoq_ns) {
				o->hoq_discards++;
				ftsw_drop(p, ftsw_ll_out_pop(p, vl, now),
					  FTSW_DROP_HOQ_LIFE);
				continue;
			}
			if (ftsw_ll_age(now, cb->arrived) > ll->life_ns) {
				o->life_discards++;
				ftsw_drop(p, ftsw_ll_out_pop(p, vl, now),
					  FTSW_DROP_SWITCH_LIFE);
				continue;
			}
			*next = min3(*next, ftsw_ll_add(cb->head, ll->hoq_ns),
				     ftsw_ll_add(cb->arrived, ll->life_ns));
			rvl = ftsw_ll_rvl(peer, skb, vl);
			if (rvl < FTSW_NUM_DATA_VL &&
			    ftsw_ll_credits(p, peer, rvl) < b) {
				/*
				 * Say we wait, then look again: the far end
				 * frees, then looks whether to kick us.
				 */
				WRITE_ONCE(ll->credit_wait,
					   ll->credit_wait | BIT(rvl));
				/* credit_wait before freed: ftsw_ll_freed() */
				smp_mb();
				if (ftsw_ll_credits(p, peer, rvl) < b) {
					if (!o->credit_since)
						o->credit_since = now;
					wait |= BIT(rvl);
					break;
				}
			}
			ready |= BIT(vl);
			blocks[vl] = b;
			break;
		}
	}
	WRITE_ONCE(ll->credit_wait, wait);
	return ready;
}

/*
 * Send what the link, the credits and the arbitration allow now onto @tx;
 * returns when to look again (U64_MAX: when something changes).
 */
static u64 ftsw_ll_drain(struct ftsw_port *p, u64 now, struct sk_buff_head *tx)
{
	struct ftsw_port *peer = p->kind == FTSW_PORT_LINK ?
				 ftsw_ll_peer(p) : NULL;
	struct ftsw_ll *ll = p->ll;
	u16 blocks[FTSW_NUM_DATA_VL];
	bool victim;
	u64 next;
	u32 occ;
	int vl;

	if (!READ_ONCE(p->up)) {
		for (vl = 0; vl < FTSW_NUM_DATA_VL; vl++)
			while (!skb_queue_empty(&ll->vl[vl].out))
				ftsw_drop(p, ftsw_ll_out_pop(p, vl, now),
					  FTSW_DROP_PORT_DOWN);
		return U64_MAX;
	}
	for (;;) {
		struct sk_buff *skb;
		u16 ready;

		next = U64_MAX;
		ready = ftsw_ll_heads(p, peer, now, blocks, &next);
		if (!ready)
			break;
		if (ll->busy_until > now + FTSW_LL_BATCH_NS) {
			next = min(next, ll->busy_until - FTSW_LL_BATCH_NS);
			break;
		}
		vl = ftsw_arb_pick(&ll->arb_cfg, &ll->arb, ready, blocks);
		if (vl < 0)
			break;
		occ = ll->vl[vl].out_blocks;
		victim = ll->vl[vl].credit_since;
		skb = ftsw_ll_out_pop(p, vl, now);
		ftsw_ll_cc_mark(p, &ll->vl[vl], skb, blocks[vl], occ, victim);
		ftsw_ll_cb(skb)->rvl = FTSW_NUM_DATA_VL;	/* no charge */
		if (p->kind == FTSW_PORT_LINK) {
			u8 rvl = ftsw_ll_rvl(peer, skb, vl);

			if (rvl < FTSW_NUM_DATA_VL) {
				ll->vl[rvl].sent += blocks[vl];
				ftsw_ll_cb(skb)->rvl = rvl;
			}
		}
		WRITE_ONCE(ll->busy_until, max(ll->busy_until, now) +
			   ftsw_ll_wire_ns(blocks[vl], READ_ONCE(p->rate)));
		if (p->kind == FTSW_PORT_EDGE && READ_ONCE(p->sw->fn->ar_on))
			ftsw_ll_order(p, skb);
		ftsw_ll_cb(skb)->port = p;
		ftsw_ll_cb(skb)->originate = false;
		__skb_queue_tail(tx, skb);
	}
	return next;
}

/*
 * The next frame an output queue let go at once on this CPU, its port in
 * its cb (ftsw_ll_cb()->port), for rx.c to deliver; NULL: none. The port
 * stays valid as long as the caller's RCU read section (the one it was
 * sent in) lasts.
 */
struct sk_buff *ftsw_ll_sent_pop(void)
{
	return ftsw_skb_list_pop(this_cpu_ptr(&ftsw_ll_sent));
}

/*
 * Something went into @p's output queues at @now: with the link free (or
 * within the batch) and no drain running on this CPU, send what may go
 * now, at once, and have the timer run for what must wait; else the timer
 * runs when the link is free. A port whose timer is dead (being torn down,
 * or a KUnit suite's, which services its ports itself) sends nothing
 * here either. sw->ll_lock held.
 */
static void ftsw_ll_send_soon(struct ftsw_port *p, u64 now)
{
	struct ftsw_ll *ll = p->ll;
	struct sk_buff_head tx;
	struct sk_buff *skb;
	u64 next;

	if (ll->busy_until > now + FTSW_LL_BATCH_NS || READ_ONCE(ll->dead)) {
		ftsw_ll_arm_send(p, now);
		return;
	}
	if (this_cpu_read(ftsw_ll_depth)) {	/* a drain's wake-up */
		ftsw_ll_soon_send(p, now);
		return;
	}
	__skb_queue_head_init(&tx);
	this_cpu_inc(ftsw_ll_depth);
	ftsw_ll_cfg(p);
	next = ftsw_ll_drain(p, now, &tx);
	this_cpu_dec(ftsw_ll_depth);
	while ((skb = __skb_dequeue(&tx)))
		ftsw_ll_sent_push(skb);
	if (next != U64_MAX)
		ftsw_ll_arm(p, next);
}

/*
 * What @p's timer does at @now: move what waits in its input buffers,
 * send onto @tx what its output queues may send, and a credit update in
 * *@credit when the far end is on another machine. Returns when to run
 * again (U64_MAX: when something changes). RCU read lock held.
 */
u64 ftsw_ll_service(struct ftsw_port *p, u64 now, struct sk_buff_head *tx,
		    struct sk_buff **credit)
{
	struct ftsw_ll *ll = p->ll;
	u64 next;
	int vl;

	spin_lock_bh(&p->sw->ll_lock);
	ftsw_ll_cfg(p);
	for (vl = 0; vl < FTSW_NUM_DATA_VL; vl++)
		if (!skb_queue_empty(&ll->vl[vl].in))
			ftsw_ll_switch_vl(p, vl, now, NULL);
	this_cpu_inc(ftsw_ll_depth);
	next = ftsw_ll_drain(p, now, tx);
	this_cpu_dec(ftsw_ll_depth);
	if (p->kind == FTSW_PORT_LINK && p->dev && !ftsw_ll_peer(p)) {
		if (ll->credit_dirty ||
		    ftsw_ll_age(now, ll->credit_at) >= FTSW_LL_KEEPALIVE_NS) {
			*credit = ftsw_ll_credit_frame(p);
			ll->credit_dirty = false;
			ll->credit_at = now;
		}
		next = min(next, ll->credit_at + FTSW_LL_KEEPALIVE_NS);
	}
	spin_unlock_bh(&p->sw->ll_lock);
	return next;
}

/*
 * A frame @p charged to the far end's buffer of @rvl never left: its
 * device refused it (a veth whose peer's backlog is full or that is down,
 * a frame too big for it). Its blocks are credit again; else they would
 * be lost for good on a local far end, which never resyncs.
 */
void ftsw_ll_unsend(struct ftsw_port *p, u8 rvl, u32 blocks)
{
	spin_lock_bh(&p->sw->ll_lock);
	p->ll->vl[rvl].sent -= blocks;
	spin_unlock_bh(&p->sw->ll_lock);
	ftsw_ll_arm(p, ktime_get_ns());
}

/* ---------------------------------------------------------- input */

/* A credit-update frame received on link port @in (lossless mode). */
void ftsw_ll_credit_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	const struct ftsw_credit_vl *e;
	const char *why;
	int n, i;

	if (skb_linearize(skb)) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return;
	}
	n = ftsw_credit_parse(skb->data, skb->len, &why);
	if (n < 0) {
		ftsw_drop(in, skb, FTSW_DROP_BAD_CREDIT);
		return;
	}
	e = (const void *)(skb->data + ETH_HLEN + FTSW_HLEN +
			   sizeof(struct ftsw_credit_hdr));
	spin_lock_bh(&in->sw->ll_lock);
	for (i = 0; i < n; i++, e++) {
		struct ftsw_ll_vl *v = &in->ll->vl[e->vl];
		s32 lost = (s32)(ntohl(e->fctbs) - v->rcv);

		v->fccl = ntohl(e->fccl);
		v->fccl_valid = true;
		/* Frames the far end sent that never arrived (IBA: ABR). */
		if (lost > 0) {
			v->rcv += lost;
			v->freed += lost;
		}
	}
	spin_unlock_bh(&in->sw->ll_lock);
	consume_skb(skb);
	ftsw_ll_arm(in, ktime_get_ns());
}

static void ftsw_ll_input_one(struct ftsw_port *in, struct ftsw_port *out,
			      struct sk_buff *skb, u8 vl)
{
	struct ftsw_ll_vl *v = &in->ll->vl[vl];
	u32 cap = READ_ONCE(in->in_buf), b = ftsw_ll_blocks(skb->len);
	struct ftsw_ll_cb *cb = ftsw_ll_cb(skb);
	enum ftsw_drop why = FTSW_DROP_OVERFLOW;
	u64 now = ktime_get_ns();

	spin_lock_bh(&in->sw->ll_lock);
	ftsw_ll_cfg(in);
	v->rcv += b;
	if (skb->len > cap || skb->len > READ_ONCE(out->out_buf)) {
		why = FTSW_DROP_TOO_BIG;
		goto refuse;
	}
	if (v->in_bytes + skb->len > cap &&
	    !(in->ll->host_stopped &&
	      v->in_bytes + skb->len <= cap + FTSW_LL_EDGE_SLACK))
		goto refuse;
	/* past the size (an edge port's slack): its lifetime starts later */
	cb->arrived = v->in_bytes + skb->len <= cap ? now : 0;
	cb->head = now;
	cb->bytes = skb->len;
	cb->blocks = b;
	cb->out = out->num;
	cb->vl = vl;
	cb->held = false;
	/* Under adaptive routing, the host's packets in the order it sent. */
	if (in->kind == FTSW_PORT_EDGE && READ_ONCE(in->sw->fn->ar_on)) {
		if (!++in->ll->seq)
			in->ll->seq = 1;
		skb->mark = in->ll->seq;
	}
	__skb_queue_tail(&v->in, skb);
	v->in_bytes += skb->len;
	/* No room for another frame of the host: hold the host back. */
	if (in->kind == FTSW_PORT_EDGE && !in->ll->host_stopped &&
	    !ftsw_ll_host_room(v->in_bytes, ftsw_ll_host_frame(in), cap)) {
		struct net_device *host = ftsw_ll_host(in);

		if (ftsw_ll_host_queues(host)) {
			in->ll->host_stopped = true;
			netif_tx_stop_all_queues(host);
		}
	}
	if (skb_queue_len(&v->in) == 1) {
		ftsw_ll_new_head(in, skb, now);
		ftsw_ll_switch_vl(in, vl, now, NULL);
	}
	spin_unlock_bh(&in->sw->ll_lock);
	return;
refuse:
	ftsw_ll_freed(in, vl, b, now);
	spin_unlock_bh(&in->sw->ll_lock);
	ftsw_drop(in, skb, why);
}

/*
 * A data packet (skb->data at the Ethernet header, fabric header checked)
 * that came in on @in for @out on VL @vl, in lossless mode: into @in's
 * input buffer. GSO packets are cut into their wire packets first.
 */
void ftsw_ll_input(struct ftsw_port *in, struct ftsw_port *out,
		   struct sk_buff *skb, u8 vl)
{
	struct sk_buff *segs, *next;

	this_cpu_write(ftsw_ll_taken, true);
	if (!skb_is_gso(skb)) {
		ftsw_ll_input_one(in, out, skb, vl);
		return;
	}
	if (skb->ip_summed != CHECKSUM_PARTIAL &&
	    skb->ip_summed != CHECKSUM_UNNECESSARY) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return;
	}
	segs = skb_gso_segment(skb, 0);
	if (IS_ERR_OR_NULL(segs)) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		ftsw_ll_input_one(in, out, skb, vl);
	}
}

/*
 * A frame received on link port @in in lossless mode, before rx.c takes it
 * up: a credit update is applied here and consumed (true). Else @rx notes
 * what its sender charged for it: the blocks, and the VL (-1: none, a
 * management datagram or not a fabric frame).
 */
bool ftsw_ll_rx(struct ftsw_port *in, struct sk_buff *skb,
		struct ftsw_ll_rx *rx)
{
	const struct ftsw_hdr *h;

	rx->blocks = ftsw_ll_blocks(skb->len);
	rx->vl = -1;
	if (skb->protocol == htons(FTSW_ETH_P) &&
	    pskb_may_pull(skb, ETH_HLEN + FTSW_HLEN)) {
		h = (const void *)(skb->data + ETH_HLEN);
		if (h->proto == htons(FTSW_PROTO_CREDIT)) {
			ftsw_ll_credit_rx(in, skb);
			return true;
		}
		/* MADs, notifications, multicast copies: outside the queues */
		if (h->proto != htons(FTSW_ETH_P_MAD) &&
		    h->proto != htons(FTSW_PROTO_CNP) &&
		    ntohs(h->dlid) < FTSW_MLID_BASE)
			rx->vl = READ_ONCE(in->sw->sl2vl[h->sl & FTSW_SL_MASK]);
	}
	this_cpu_write(ftsw_ll_taken, false);
	return false;
}

/* Whether an input buffer took the frame since ftsw_ll_rx() on this CPU. */
bool ftsw_ll_rx_taken(void)
{
	return this_cpu_read(ftsw_ll_taken);
}

/*
 * The frame of ftsw_ll_rx() went wherever it goes: if it did not reach
 * the input buffer (@taken: a drop on the way, a management datagram), its
 * sender has its credits back at once.
 */
void ftsw_ll_rx_done(struct ftsw_port *in, const struct ftsw_ll_rx *rx,
		     bool taken)
{
	if (taken || rx->vl < 0 || rx->vl >= FTSW_NUM_DATA_VL)
		return;
	spin_lock_bh(&in->sw->ll_lock);
	in->ll->vl[rx->vl].rcv += rx->blocks;
	ftsw_ll_freed(in, rx->vl, rx->blocks, ktime_get_ns());
	spin_unlock_bh(&in->sw->ll_lock);
}
