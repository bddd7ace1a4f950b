// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the fabric of a network namespace and its objects over their life:
 * switches made, added and deleted; ports bound to a device or joined in
 * pairs by a patch cable, their state as the device and the admin say,
 * unbound; the commit that publishes every staged table at once; the
 * PortPhysicalState Sets an SMP left, applied in process context; the
 * netdevice notifier. The data path is rx.c's, the netlink commands
 * nl_*.c's; module init (main.c) registers what is here.
 *
 * Locking: the control path takes the per-netns fn->lock; operations that
 * (un)register rx handlers take rtnl_lock() first. The data path only reads
 * RCU-published state.
 */
#include <linux/netdevice.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "ar.h"
#include "lft.h"
#include "lossless.h"
#include "nl.h"
#include "resolve.h"
#include "sma.h"
#include "sma_ctl.h"
#include "stats.h"
#include "trap.h"
#include "fabric.h"

unsigned int ftsw_net_id __read_mostly;

struct ftsw_switch *ftsw_switch_alloc(u32 id, u8 nports, bool inband)
{
	struct ftsw_switch *sw;
	int i;

	sw = kzalloc(struct_size(sw, ports, nports + 1), GFP_KERNEL_ACCOUNT);
	if (!sw)
		return NULL;
	sw->id = id;
	sw->nports = nports;
	for (i = 0; i < FTSW_NUM_SL; i++)
		sw->sl2vl[i] = i;
	spin_lock_init(&sw->ll_lock);
	sw->inband = inband;
	ftsw_sma_switch_init(sw);
	ftsw_trap_init(sw);
	return sw;
}

int ftsw_switch_add(struct ftsw_net *fn, struct ftsw_switch *sw)
{
	int err;

	lockdep_assert_held(&fn->lock);
	if (fn->nswitches >= FTSW_MAX_SWITCHES)
		return -ENOSPC;
	sw->fn = fn;
	err = xa_insert(&fn->switches, sw->id, sw, GFP_KERNEL_ACCOUNT);
	if (err)
		return err;
	fn->nswitches++;
	ftsw_changed(fn);
	return 0;
}

static void ftsw_port_update(struct ftsw_port *p, u8 reason, bool notify)
{
	bool up = p->admin_up && p->oper_up;

	if (up == p->up)
		return;
	WRITE_ONCE(p->up, up);
	ftsw_changed(p->sw->fn);
	if (notify)
		ftsw_nl_port_event(p, reason);
	ftsw_trap_port_changed(p);
}

/*
 * A patch port's link is up while its far end is admin up, as a cable's
 * carrier is while the device at its other end is: disabling one end of a
 * patch cable takes the other end's link down too.
 */
void ftsw_port_set_admin(struct ftsw_port *p, bool up)
{
	if (p->admin_up == up)
		return;
	p->admin_up = up;
	ftsw_port_update(p, FTSW_REASON_ADMIN, true);
	if (p->peer) {
		p->peer->oper_up = up;
		ftsw_port_update(p->peer, FTSW_REASON_CARRIER, true);
	}
}

static void ftsw_port_set_oper(struct ftsw_port *p)
{
	p->oper_up = netif_running(p->dev) && netif_carrier_ok(p->dev);
	ftsw_port_update(p, FTSW_REASON_CARRIER, true);
}

/*
 * The device's name as replies and events show it: copied at bind and on
 * NETDEV_CHANGENAME, both under RTNL (which renames hold), and read under
 * fn->lock, so no reader ever sees a name being rewritten.
 */
void ftsw_port_rename(struct ftsw_port *p)
{
	ASSERT_RTNL();
	lockdep_assert_held(&p->sw->fn->lock);
	strscpy(p->ifname, p->dev->name, sizeof(p->ifname));
	ftsw_changed(p->sw->fn);
}

/* Free a port no reader holds: its lossless state, path policy, counters. */
void ftsw_port_free(struct ftsw_port *p)
{
	ftsw_ll_free(p);
	kvfree(rcu_access_pointer(p->policy));
	kfree(rcu_access_pointer(p->pkey_tab));
	kfree(rcu_access_pointer(p->mcast));
	free_percpu(p->stats);
	kfree(p);
}

/*
 * A new port @num of @sw, of @kind, bound to nothing yet: counters, the
 * defaults of lossless mode and of the agents' registers, and in a lossless
 * fabric its buffers. The binding sets its device or far end, then
 * publishes it.
 */
struct ftsw_port *ftsw_port_alloc(struct ftsw_switch *sw, u8 num, u8 kind,
				  bool admin_up)
{
	struct ftsw_port *p;
	int cpu;

	p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	p->stats = __alloc_percpu_gfp(sizeof(*p->stats),
				      __alignof__(*p->stats),
				      GFP_KERNEL_ACCOUNT);
	if (!p->stats) {
		kfree(p);
		return NULL;
	}
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(p->stats, cpu)->syncp);
	p->sw = sw;
	p->num = num;
	p->kind = kind;
	p->admin_up = admin_up;
	p->rate = FTSW_RATE_DEFAULT;
	p->in_buf = FTSW_BUF_DEFAULT;
	p->out_buf = FTSW_BUF_DEFAULT;
	ftsw_sma_port_init(p);
	if (sw->fn->lossless && ftsw_ll_alloc(p)) {
		ftsw_port_free(p);
		return NULL;
	}
	return p;
}

/* Make a bound port visible to the data path, dumps and listeners. */
void ftsw_port_publish(struct ftsw_port *p)
{
	struct ftsw_switch *sw = p->sw;

	p->up = p->admin_up && p->oper_up;
	rcu_assign_pointer(sw->ports[p->num], p);
	sw->nbound++;
	sw->fn->nports++;
	ftsw_changed(sw->fn);
	ftsw_nl_port_event(p, FTSW_REASON_BIND);
	ftsw_ll_start(p);
}

int ftsw_port_bind(struct ftsw_switch *sw, u8 num, struct net_device *dev,
		   u8 kind, struct ftsw_policy *pol, bool admin_up,
		   struct netlink_ext_ack *extack)
{
	struct ftsw_port *p;
	int err;

	ASSERT_RTNL();
	lockdep_assert_held(&sw->fn->lock);

	p = ftsw_port_alloc(sw, num, kind, admin_up);
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->oper_up = netif_running(dev) && netif_carrier_ok(dev);
	if (pol && ftsw_plan_host_reserve(sw->fn, pol->base_lid)) {
		NL_SET_ERR_MSG(extack, "no memory for the address plan's index");
		ftsw_port_free(p);
		return -ENOMEM;
	}

	err = dev_set_promiscuity(dev, 1);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot make the device promiscuous");
		goto err_free;
	}
	err = netdev_rx_handler_register(dev, ftsw_handle_frame, p);
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "device already has an rx handler (bridge, bond or another port)");
		dev_set_promiscuity(dev, -1);
		goto err_free;
	}
	/*
	 * Ask the host's side for room to push the fabric header in place
	 * (veth passes this to its peer as needed_headroom), as a bridge
	 * does for its ports: else every frame of a socket that reserved
	 * only the link-layer header (UDP, ICMP, ARP) is copied to a larger
	 * buffer by skb_cow_head() on the edge port.
	 */
	if (kind == FTSW_PORT_EDGE)
		netdev_set_rx_headroom(dev, FTSW_HLEN);
	/* The path policy belongs to the port from here on. */
	rcu_assign_pointer(p->policy, pol);
	if (pol)
		ftsw_plan_host_add(p, pol->base_lid);
	netdev_hold(dev, &p->dev_tracker, GFP_KERNEL);
	ftsw_port_rename(p);
	ftsw_port_publish(p);
	return 0;

err_free:
	if (pol)
		xa_release(&sw->fn->hosts, pol->base_lid);
	ftsw_port_free(p);
	return err;
}

/*
 * A patch cable: port @na of @a and port @nb of @b (both free, of one
 * fabric, not the same port) joined inside the module, with no device.
 * Both ends are link ports, admin up or down as @admin_up says.
 */
int ftsw_patch_bind(struct ftsw_switch *a, u8 na, struct ftsw_switch *b, u8 nb,
		    bool admin_up)
{
	struct ftsw_port *pa, *pb;

	ASSERT_RTNL();
	lockdep_assert_held(&a->fn->lock);

	pa = ftsw_port_alloc(a, na, FTSW_PORT_LINK, admin_up);
	pb = ftsw_port_alloc(b, nb, FTSW_PORT_LINK, admin_up);
	if (!pa || !pb) {
		if (pa)
			ftsw_port_free(pa);
		if (pb)
			ftsw_port_free(pb);
		return -ENOMEM;
	}
	pa->peer = pb;
	pb->peer = pa;
	pa->oper_up = admin_up;
	pb->oper_up = admin_up;
	ftsw_port_publish(pa);
	ftsw_port_publish(pb);
	return 0;
}

static void ftsw_fold_drops(struct ftsw_net *fn, const struct ftsw_port *p)
{
	struct ftsw_stats st;
	int i;

	ftsw_port_stats(p, &st);
	for (i = 0; i <= FTSW_DROP_MAX; i++)
		fn->dead_drops[i] += st.drops[i];
}

/* Take a port from the data path's view; it may still be in use. */
void ftsw_port_hide(struct ftsw_port *p)
{
	ftsw_plan_host_del(p);
	RCU_INIT_POINTER(p->sw->ports[p->num], NULL);
	WRITE_ONCE(p->up, false);
}

/* Account for and free a port no reader can hold any more. */
void ftsw_port_retire(struct ftsw_port *p, u8 reason, bool notify)
{
	struct ftsw_switch *sw = p->sw;
	struct ftsw_net *fn = sw->fn;

	sw->nbound--;
	fn->nports--;
	ftsw_changed(fn);
	if (notify)
		ftsw_nl_port_event(p, reason);
	ftsw_fold_drops(fn, p);
	if (p->dev)
		netdev_put(p->dev, &p->dev_tracker);
	ftsw_port_free(p);
}

/* Unbind a port; a patch port takes the far end of its cable with it. */
void ftsw_port_unbind(struct ftsw_port *p, u8 reason, bool notify)
{
	struct ftsw_port *q = p->peer;
	struct net_device *dev = p->dev;

	ASSERT_RTNL();
	lockdep_assert_held(&p->sw->fn->lock);

	ftsw_port_hide(p);
	if (q) {
		/* A frame may be crossing the cable: wait for both ends. */
		ftsw_port_hide(q);
		synchronize_net();
		ftsw_ll_stop(q);
		ftsw_ll_stop(p);
		ftsw_port_retire(q, reason, notify);
	} else {
		/* Waits for every reader: none can hold @p once this returns. */
		netdev_rx_handler_unregister(dev);
		if (p->kind == FTSW_PORT_EDGE)
			netdev_reset_rx_headroom(dev);
		dev_set_promiscuity(dev, -1);
		ftsw_ll_stop(p);
	}
	ftsw_port_retire(p, reason, notify);
}

/*
 * Free a switch out of the fabric's view (deleted, every port unbound):
 * its agents stop, its tables and itself go after a grace period.
 * fn->lock held.
 */
void ftsw_switch_free(struct ftsw_switch *sw)
{
	struct ftsw_lft *lft;

	ftsw_sma_switch_del(sw);
	lft = rcu_replace_pointer(sw->lft, NULL,
				  lockdep_is_held(&sw->fn->lock));
	ftsw_lft_free_deferred(lft);
	ftsw_lft_free(sw->staged);
	ftsw_ar_free_deferred(rcu_replace_pointer(sw->ar, NULL,
						  lockdep_is_held(&sw->fn->lock)));
	ftsw_ar_free(sw->ar_staged);
	kfree_rcu(sw, rcu);
}

void ftsw_switch_del(struct ftsw_switch *sw, u8 reason, bool notify)
{
	struct ftsw_net *fn = sw->fn;
	int i;

	ASSERT_RTNL();
	lockdep_assert_held(&fn->lock);

	for (i = 1; i <= sw->nports; i++) {
		struct ftsw_port *p = ftsw_port_get(sw, i);

		if (p)
			ftsw_port_unbind(p, reason, notify);
	}
	xa_erase(&fn->switches, sw->id);
	fn->nswitches--;
	ftsw_changed(fn);
	ftsw_switch_free(sw);
}

void ftsw_fabric_flush(struct ftsw_net *fn, bool notify)
{
	struct ftsw_switch *sw;
	unsigned long id;

	xa_for_each(&fn->switches, id, sw)
		ftsw_switch_del(sw, FTSW_REASON_RESET, notify);
}

/*
 * Publish @sw's staged groups (a table without a set is none at all); the
 * table they replace goes after a grace period. fn->lock held.
 */
static void ftsw_ar_publish(struct ftsw_switch *sw)
{
	struct ftsw_ar *st = sw->ar_staged, *old;

	sw->ar_staged = NULL;
	if (!st->nsets) {
		ftsw_ar_free(st);
		st = NULL;
	}
	old = rcu_replace_pointer(sw->ar, st, lockdep_is_held(&sw->fn->lock));
	ftsw_ar_free_deferred(old);
}

/* Publish every staged table at once; returns the new generation. */
u64 ftsw_commit(struct ftsw_net *fn)
{
	struct ftsw_switch *sw;
	bool ar_on = false;
	unsigned long id;

	lockdep_assert_held(&fn->lock);
	xa_for_each(&fn->switches, id, sw) {
		if (sw->ar_staged)
			ftsw_ar_publish(sw);
		ar_on |= !!rcu_access_pointer(sw->ar);
		if (!sw->staged)
			continue;
		ftsw_sma_lft_publish(sw, sw->staged);
		sw->staged = NULL;
	}
	WRITE_ONCE(fn->ar_on, ar_on);
	ftsw_plan_commit(fn);
	fn->generation++;
	ftsw_changed(fn);
	ftsw_nl_commit_event(fn);
	return fn->generation;
}

/*
 * A device port's device taken down by a PortPhysicalState Disabled, or
 * back up by a Polling if that Set took it down: the far end of its cable
 * (a veth's peer, another machine's port) loses or regains its link as
 * from a real switch's disabled port. RTNL held, fn->lock not (the
 * device's notifier takes it).
 */
static void ftsw_phys_dev(struct ftsw_port *p, u8 phys)
{
	struct net_device *dev = p->dev;

	if (phys == FTSW_PHYS_DISABLED && (dev->flags & IFF_UP)) {
		p->phys_closed = !dev_change_flags(dev, dev->flags & ~IFF_UP,
						   NULL);
	} else if (phys == FTSW_PHYS_POLLING && p->phys_closed) {
		p->phys_closed = false;
		if (dev_change_flags(dev, dev->flags | IFF_UP, NULL))
			pr_warn_ratelimited("ftsw: %s: cannot bring the port's device up\n",
					    dev->name);
	}
}

/*
 * Apply the PortPhysicalState Sets SMPs left (sma.c): Disabled takes
 * the port administratively down (a patch cable's far end loses its link
 * with it), Polling brings it up, each with its port event and trap as
 * for `ftsw port set`; then the devices follow (ftsw_phys_dev). RTNL keeps
 * every port bound meanwhile.
 */
static void ftsw_phys_work(struct work_struct *work)
{
	struct ftsw_net *fn = container_of(work, struct ftsw_net, phys_work);
	struct ftsw_switch *sw;
	struct ftsw_port *p;
	unsigned long id;
	bool devs = false;
	int i;

	rtnl_lock();
	mutex_lock(&fn->lock);
	xa_for_each(&fn->switches, id, sw) {
		for (i = 1; i <= sw->nports; i++) {
			u8 phys;

			p = ftsw_port_get(sw, i);
			phys = p ? ftsw_sma_phys_take(p) : 0;
			if (!phys)
				continue;
			ftsw_port_set_admin(p, phys == FTSW_PHYS_POLLING);
			p->phys_dev = p->dev ? phys : 0;
			devs |= !!p->dev;
		}
	}
	mutex_unlock(&fn->lock);
	xa_for_each(&fn->switches, id, sw) {
		for (i = 1; devs && i <= sw->nports; i++) {
			p = rtnl_dereference(sw->ports[i]);
			if (!p || !p->phys_dev)
				continue;
			ftsw_phys_dev(p, p->phys_dev);
			p->phys_dev = 0;
		}
	}
	rtnl_unlock();
}

int ftsw_netdev_event(struct notifier_block *nb, unsigned long event,
		      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct ftsw_port *p;
	struct ftsw_net *fn;

	ASSERT_RTNL();
	if (rcu_access_pointer(dev->rx_handler) != ftsw_handle_frame)
		return NOTIFY_DONE;
	p = rtnl_dereference(dev->rx_handler_data);
	if (!p)
		return NOTIFY_DONE;
	fn = p->sw->fn;

	mutex_lock(&fn->lock);
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		ftsw_port_set_oper(p);
		break;
	case NETDEV_CHANGENAME:
		ftsw_port_rename(p);
		break;
	case NETDEV_UNREGISTER:
		ftsw_port_unbind(p, FTSW_REASON_UNREGISTER, true);
		break;
	}
	mutex_unlock(&fn->lock);
	return NOTIFY_DONE;
}

/* A fabric, empty: a namespace's (ftsw_net_init()) or a KUnit suite's. */
void ftsw_fabric_init(struct ftsw_net *fn)
{
	mutex_init(&fn->lock);
	xa_init(&fn->switches);
	xa_init(&fn->hosts);
	INIT_WORK(&fn->phys_work, ftsw_phys_work);
	fn->seq = 1;
	fn->hop_limit = FTSW_HOP_LIMIT_DEFAULT;
	fn->cc_timer_ns = FTSW_CC_TIMER_NS;
	ftsw_sma_net_init(fn);
}

/*
 * A fabric's end: its switches deleted (their ports unbound), its plans
 * and what SMPs replaced freed, its work done.
 */
void ftsw_fabric_exit(struct ftsw_net *fn)
{
	rtnl_lock();
	mutex_lock(&fn->lock);
	ftsw_fabric_flush(fn, false);
	ftsw_plan_flush(fn);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	cancel_work_sync(&fn->phys_work);
	ftsw_sma_net_exit(fn);
	xa_destroy(&fn->switches);
	xa_destroy(&fn->hosts);
	mutex_destroy(&fn->lock);
}

int __net_init ftsw_net_init(struct net *net)
{
	struct ftsw_net *fn = ftsw_net(net);

	fn->net = net;
	ftsw_fabric_init(fn);
	return 0;
}

void __net_exit ftsw_net_exit(struct net *net)
{
	/* Devices of the namespace are gone already (notifier); the rest. */
	ftsw_fabric_exit(ftsw_net(net));
}
