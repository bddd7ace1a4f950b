// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: lossless mode's link, as a port's queues see it: the units
 * (blocks, lifetimes, wire times), the far end of a port's cable (an
 * ftsw port of this machine, found through the device's peer, or a
 * host), the VL a packet takes there and the credit it gives; and each
 * CPU's list of ports to drain once a switch's lock is dropped. Read by
 * ll_queue.c (switching, draining), ll_ar.c (adaptive routing's choice)
 * and rx.c. See Documentation/datapath.md, "Lossless mode".
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <net/sch_generic.h>
#include "ll_link.h"

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

/*
 * Blocks a link at @rate bit/s sends in @ns, a started block counted
 * whole (the inverse of ftsw_ll_wire_ns()), at most U16_MAX.
 */
u32 ftsw_ll_wire_blocks(u64 ns, u64 rate)
{
	u64 b;

	rate = rate ?: FTSW_RATE_DEFAULT;
	b = mul_u64_u64_div_u64(ns, rate, FTSW_CREDIT_BYTES * 8 * NSEC_PER_SEC);
	if (b >= U16_MAX)
		return U16_MAX;
	if (ftsw_ll_wire_ns(b, rate) < ns)
		b++;
	return b;
}

/*
 * ns from @t to @now, 0 if @t is later: times are read on several CPUs
 * and stored under the lock in an order that need not be theirs.
 */
u64 ftsw_ll_age(u64 now, u64 t)
{
	return now > t ? now - t : 0;
}

/* Port @num of @sw, RCU. */
struct ftsw_port *ftsw_ll_port(struct ftsw_switch *sw, u8 num)
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
bool ftsw_ll_host_queues(struct net_device *host)
{
	struct Qdisc *q;

	if (!host || !host->real_num_tx_queues)
		return false;
	q = rcu_dereference(netdev_get_tx_queue(host, 0)->qdisc);
	return q && q->enqueue;
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

/* The receiver's VL of a packet: the far switch's SL2VL of its SL. */
u8 ftsw_ll_rvl(struct ftsw_port *peer, struct sk_buff *skb, u8 vl)
{
	const struct ftsw_hdr *h = (void *)(skb->data + ETH_HLEN);

	if (!peer)
		return vl;
	return READ_ONCE(peer->sw->sl2vl[h->sl & FTSW_SL_MASK]) &
	       (FTSW_NUM_VL - 1);
}

/*
 * Ports to drain as soon as the switch's lock held now is dropped, instead
 * of by their timers (a timer costs an interrupt and a softirq run per
 * wake-up): an output queue whose far end just freed the credit it waited
 * for, one a drain's wake-ups filled (ll_queue.c). rx.c drains them after
 * the frames output queues let go (ftsw_ll_soon_pop()), in the same
 * receive; only where a receive or a port's timer will do so before its
 * RCU read section ends (ftsw_ll_ctx: rx.c's ftsw_handle_frame(),
 * lossless.c's timer), else the timer does. ll->soon bit 0: the port is
 * on some CPU's list.
 */
#define FTSW_LL_SOON	32

struct ftsw_ll_soon {
	unsigned int n;
	struct ftsw_port *port[FTSW_LL_SOON];
};

static DEFINE_PER_CPU(struct ftsw_ll_soon, ftsw_ll_soon);
static DEFINE_PER_CPU(unsigned int, ftsw_ll_ctx);

/* This CPU drains the ports of its list before it leaves (rx.c). */
void ftsw_ll_ctx_enter(void)
{
	this_cpu_inc(ftsw_ll_ctx);
}

void ftsw_ll_ctx_exit(void)
{
	this_cpu_dec(ftsw_ll_ctx);
}

/*
 * Put @p on this CPU's list; false: it cannot go (no receive or timer run
 * to drain it, or the list is full). A port on a list already stays where
 * it is, drained there after this (the bit's atomic operations order what
 * the caller wrote before the drain's reads).
 */
bool ftsw_ll_soon_add(struct ftsw_port *p)
{
	struct ftsw_ll_soon *s = this_cpu_ptr(&ftsw_ll_soon);

	if (!this_cpu_read(ftsw_ll_ctx) || s->n == FTSW_LL_SOON)
		return false;
	if (!test_and_set_bit(0, &p->ll->soon))
		s->port[s->n++] = p;
	return true;
}

/*
 * The next port this CPU drains; NULL: none. Valid as long as the RCU read
 * section it was put on the list in lasts.
 */
struct ftsw_port *ftsw_ll_soon_pop(void)
{
	struct ftsw_ll_soon *s = this_cpu_ptr(&ftsw_ll_soon);
	struct ftsw_port *p;

	if (!s->n)
		return NULL;
	p = s->port[--s->n];
	clear_bit(0, &p->ll->soon);
	smp_mb__after_atomic();	/* cleared before the drain reads */
	return p;
}
