// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: lossless mode's buffers and queues. Per port and data VL an input
 * buffer and an output queue; credit flow control between the two ends of
 * every link (credit updates in frames, ll_credit.c, when the far end is on
 * another machine); input heads moved to their output queues FIFO per VL
 * (head-of-line blocking) and round robin among the inputs; output queues
 * drained at the link rate by the port's VL arbitration (ll_arb.c); HOQ
 * and switch lifetimes. The port's timer (lossless.c) runs what is due.
 * See Documentation/datapath.md, "Lossless mode".
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

u32 ftsw_ll_blocks(unsigned int len)
{
	return DIV_ROUND_UP(len, FTSW_CREDIT_BYTES);
}

/* An InfiniBand lifetime value in ns; U64_MAX: infinite. */
u64 ftsw_ll_life_ns(u8 v)
{
	v &= 0x1f;
	return v >= FTSW_LIFE_INFINITE ? U64_MAX : 4096ULL << v;
}

/* ns the link is busy with a frame of @blocks at @rate bit/s. */
u64 ftsw_ll_wire_ns(u32 blocks, u64 rate)
{
	return div64_u64((u64)blocks * FTSW_CREDIT_BYTES * 8 * NSEC_PER_SEC,
			 rate ?: FTSW_RATE_DEFAULT);
}

/* ---------------------------------------------------------- helpers */

static struct ftsw_port *ftsw_ll_port(struct ftsw_switch *sw, u8 num)
{
	if (!num || num > sw->nports)
		return NULL;
	return rcu_dereference(sw->ports[num]);
}

/* The far end of @p's cable when it is an ftsw port of this machine. */
struct ftsw_port *ftsw_ll_peer(struct ftsw_port *p)
{
	const struct net_device_ops *ops;
	struct net_device *pd;
	struct ftsw_port *q;

	if (!p->dev)
		return p->peer;
	ops = p->dev->netdev_ops;
	if (!ops->ndo_get_peer_dev)
		return NULL;
	pd = ops->ndo_get_peer_dev(p->dev);
	if (!pd || rcu_access_pointer(pd->rx_handler) != ftsw_handle_frame)
		return NULL;
	q = rcu_dereference(pd->rx_handler_data);
	return q && q->ll ? q : NULL;
}

/* The host device behind an edge port (its veth peer), or NULL. */
struct net_device *ftsw_ll_host(struct ftsw_port *p)
{
	const struct net_device_ops *ops = p->dev ? p->dev->netdev_ops : NULL;

	if (!ops || !ops->ndo_get_peer_dev)
		return NULL;
	return ops->ndo_get_peer_dev(p->dev);
}

/* The host can be held back: it has a qdisc that queues. */
static bool ftsw_ll_host_queues(struct net_device *host)
{
	struct Qdisc *q;

	if (!host || !host->real_num_tx_queues)
		return false;
	q = rcu_dereference(netdev_get_tx_queue(host, 0)->qdisc);
	return q && q->enqueue;
}

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

/* Blocks the far end's input buffer of @vl takes now (U32_MAX: no limit). */
u32 ftsw_ll_credits(struct ftsw_port *p, struct ftsw_port *peer, u8 vl)
{
	struct ftsw_ll_vl *v = &p->ll->vl[vl];
	struct ftsw_ll *ql;
	s32 c;

	if (p->kind == FTSW_PORT_EDGE)
		return U32_MAX;
	if (!peer) {
		if (!v->fccl_valid)
			return U32_MAX;
		c = (s32)(v->fccl - v->sent);
		return c > 0 ? c : 0;
	}
	ql = peer->ll;
	if (p->ll->synced != ql->id) {
		int i;

		for (i = 0; i < FTSW_NUM_DATA_VL; i++)
			p->ll->vl[i].sent = READ_ONCE(ql->vl[i].rcv);
		p->ll->synced = ql->id;
	}
	c = (s32)(READ_ONCE(peer->in_buf) / FTSW_CREDIT_BYTES +
		  READ_ONCE(ql->vl[vl].freed) - v->sent);
	return c > 0 ? c : 0;
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
			ftsw_ll_arm_send(up, now);
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
		ftsw_ll_cb(next)->head = now;
	ftsw_ll_freed(p, vl, cb->blocks, now);
	return skb;
}

/*
 * ns from @t to @now, 0 if @t is later: times are read on several CPUs
 * and stored under the lock in an order that need not be theirs.
 */
u64 ftsw_ll_age(u64 now, u64 t)
{
	return now > t ? now - t : 0;
}

static u64 ftsw_ll_add(u64 t, u64 d)
{
	return d > U64_MAX - t ? U64_MAX : t + d;
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
		o = &out->ll->vl[cb->vl];
		if ((o->out_bytes &&
		     o->out_bytes + skb->len > READ_ONCE(out->out_buf)) ||
		    (served && o == turn)) {
			ftsw_ll_block(p, v, out, o, cb, now);
			return served;
		}
		skb = ftsw_ll_in_pop(p, vl, now);
		cb->bytes = skb->len;
		if (skb_queue_empty(&o->out))
			cb->head = now;
		__skb_queue_tail(&o->out, skb);
		o->out_bytes += cb->bytes;
		o->last_in = p->num;
		served |= o == turn;
		ftsw_ll_arm_send(out, now);
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
	struct ftsw_ll_vl *o = &p->ll->vl[vl];
	unsigned int k, n;

	for (k = 1; k <= FTSW_MAX_PORTS + 1; k++) {
		n = (o->last_in + k) % (FTSW_MAX_PORTS + 1);
		if (test_bit(n, o->waiters) && ftsw_ll_wake_in(p, vl, n, now))
			k = 0;	/* o->last_in moved: scan again past it */
	}
}

/* Take the head of @p's output queue of @vl off. */
static struct sk_buff *ftsw_ll_out_pop(struct ftsw_port *p, u8 vl, u64 now)
{
	struct ftsw_ll_vl *o = &p->ll->vl[vl];
	struct sk_buff *skb = __skb_dequeue(&o->out);
	struct sk_buff *next;

	o->out_bytes -= ftsw_ll_cb(skb)->bytes;
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

/* The receiver's VL of a packet: the far switch's SL2VL of its SL. */
static u8 ftsw_ll_rvl(struct ftsw_port *peer, struct sk_buff *skb, u8 vl)
{
	const struct ftsw_hdr *h = (void *)(skb->data + ETH_HLEN);

	if (!peer)
		return vl;
	return READ_ONCE(peer->sw->sl2vl[h->sl & FTSW_SL_MASK]) &
	       (FTSW_NUM_VL - 1);
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
	u16 ready = 0, wait = 0;
	struct sk_buff *skb;
	int vl;

	for (vl = 0; vl < FTSW_NUM_DATA_VL; vl++) {
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
	u64 next;
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
		skb = ftsw_ll_out_pop(p, vl, now);
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
		__skb_queue_tail(tx, skb);
	}
	return next;
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
	next = ftsw_ll_drain(p, now, tx);
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
	if (skb_queue_len(&v->in) == 1)
		ftsw_ll_switch_vl(in, vl, now, NULL);
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
		if (h->proto != htons(FTSW_ETH_P_MAD))
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
