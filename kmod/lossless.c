// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: a port in lossless mode over its life, and its timer. The port's
 * buffers and queues are made with the port and freed with it; its
 * hrtimer (softirq) runs when ll_queue.c arms it: it moves what waits in
 * the input buffers, sends what the link rate, the credits and the VL
 * arbitration let go (out the device, to a host, or across a patch cable,
 * taken up at the far end by rx.c), and a credit update when the far end
 * is on another machine. See Documentation/datapath.md, "Lossless mode".
 */
#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include "ll_queue.h"
#include "rx.h"
#include "stats.h"
#include "lossless.h"

static atomic64_t ftsw_ll_ids = ATOMIC64_INIT(0);

static enum hrtimer_restart ftsw_ll_timer(struct hrtimer *t)
{
	struct ftsw_ll *ll = container_of(t, struct ftsw_ll, timer);

	if (READ_ONCE(ll->dead))
		return HRTIMER_NORESTART;
	rcu_read_lock();
	ftsw_ll_ctx_enter();
	ftsw_rx_ll_run(ll->port);
	ftsw_rx_flush();
	ftsw_ll_ctx_exit();
	rcu_read_unlock();
	return HRTIMER_NORESTART;
}

int ftsw_ll_alloc(struct ftsw_port *p)
{
	struct ftsw_ll *ll;
	int i;

	ll = kzalloc(sizeof(*ll), GFP_KERNEL_ACCOUNT);
	if (!ll)
		return -ENOMEM;
	ll->port = p;
	ll->id = atomic64_inc_return(&ftsw_ll_ids);
	ll->cfg_gen = -1;
	ll->life_ns = U64_MAX;
	ll->hoq_ns = U64_MAX;
	spin_lock_init(&ll->arm_lock);
	hrtimer_init(&ll->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	ll->timer.function = ftsw_ll_timer;
	for (i = 0; i < FTSW_NUM_DATA_VL; i++) {
		__skb_queue_head_init(&ll->vl[i].in);
		__skb_queue_head_init(&ll->vl[i].out);
	}
	p->ll = ll;
	return 0;
}

/* The port is published: start its timer (credit keepalives). */
void ftsw_ll_start(struct ftsw_port *p)
{
	if (p->ll)
		ftsw_ll_arm(p, ktime_get_ns());
}

/*
 * The port is out of every reader's sight (after a grace period): stop its
 * timer, let a held-back host go, and have the other ports of the switch
 * look again at what waited for this one.
 */
void ftsw_ll_stop(struct ftsw_port *p)
{
	struct ftsw_ll *ll = p->ll;
	struct ftsw_switch *sw = p->sw;
	u64 now = ktime_get_ns();
	int i;

	if (!ll)
		return;
	spin_lock_bh(&ll->arm_lock);
	WRITE_ONCE(ll->dead, true);
	spin_unlock_bh(&ll->arm_lock);
	hrtimer_cancel(&ll->timer);
	rcu_read_lock();
	if (ll->host_stopped) {
		struct net_device *host = ftsw_ll_host(p);

		if (host)
			netif_tx_wake_all_queues(host);
	}
	for (i = 1; i <= sw->nports; i++) {
		struct ftsw_port *q = rcu_dereference(sw->ports[i]);

		if (q && q != p)
			ftsw_ll_arm(q, now);
	}
	rcu_read_unlock();
}

void ftsw_ll_free(struct ftsw_port *p)
{
	struct ftsw_ll *ll = p->ll;
	int i;

	if (!ll)
		return;
	hrtimer_cancel(&ll->timer);
	for (i = 0; i < FTSW_NUM_DATA_VL; i++) {
		__skb_queue_purge(&ll->vl[i].in);
		__skb_queue_purge(&ll->vl[i].out);
	}
	kfree(ll->order);
	kfree(ll->cc_units);
	kfree(ll);
	p->ll = NULL;
}
