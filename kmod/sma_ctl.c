// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the management agents' state over its life: defaults, what the
 * control path publishes under fn->sma_lock, the retirement of what an SMP
 * replaced, and the traps a switch sends when a port changes state. See
 * Documentation/sm.md.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/skbuff.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include "ftsw.h"

#define FTSW_SUBNET_PREFIX	0xfe80000000000000ULL
#define FTSW_RESP_TIME		18	/* 4.096 us * 2^18: about 1 s */
#define FTSW_TRAP_PORT_CHANGE	128
#define FTSW_TRAP_SENDS		16	/* a trap is sent at most this often */
#define FTSW_TRAP_TO_MIN	16	/* SubnetTimeOut bounds of its repeats */
#define FTSW_TRAP_TO_MAX	22

static void ftsw_mgmt_init(struct ftsw_mgmt *mg)
{
	mg->prefix = FTSW_SUBNET_PREFIX;
	mg->resp_time = FTSW_RESP_TIME;
	mg->pkey[0] = 0xffff;
}

static void ftsw_trap_work(struct work_struct *work);

/* A new switch: its ports' links come up as ftsw_ps_linkup() says. */
void ftsw_sma_switch_init(struct ftsw_switch *sw)
{
	sw->ib0.state = ftsw_ps_linkup(sw);
	ftsw_mgmt_init(&sw->mgmt);
	sw->life = FTSW_LIFE_DEFAULT;
	INIT_DELAYED_WORK(&sw->trap_work, ftsw_trap_work);
}

void ftsw_sma_port_init(struct ftsw_port *p)
{
	u8 st = ftsw_ps_linkup(p->sw);
	int i;

	p->ib.state = st;
	p->ib.hoq = FTSW_LIFE_DEFAULT;
	p->ca.ib.state = st;
	p->ca.ib.hoq = FTSW_LIFE_DEFAULT;
	ftsw_mgmt_init(&p->ca.mgmt);
	for (i = 0; i < FTSW_NUM_SL; i++)
		p->ca.sl2vl[i] = i;
}

/* Free, after a grace period, what SMPs replaced (fn->lock excludes netlink). */
static void ftsw_retire_all(struct ftsw_net *fn)
{
	struct llist_node *lft, *pol, *plan;
	struct ftsw_policy *p, *pn;
	struct ftsw_lft *l, *ln;
	struct ftsw_plan *a, *an;

	mutex_lock(&fn->lock);
	lft = llist_del_all(&fn->retired_lft);
	pol = llist_del_all(&fn->retired_pol);
	plan = llist_del_all(&fn->retired_plan);
	mutex_unlock(&fn->lock);
	llist_for_each_entry_safe(l, ln, lft, retired)
		ftsw_lft_free_deferred(l);
	llist_for_each_entry_safe(p, pn, pol, retired)
		kvfree_rcu(p, rcu);
	llist_for_each_entry_safe(a, an, plan, retired)
		kfree_rcu(a, rcu);
}

static void ftsw_retire_work(struct work_struct *work)
{
	ftsw_retire_all(container_of(work, struct ftsw_net, retire_work));
}

void ftsw_sma_net_init(struct ftsw_net *fn)
{
	spin_lock_init(&fn->sma_lock);
	init_llist_head(&fn->retired_lft);
	init_llist_head(&fn->retired_pol);
	init_llist_head(&fn->retired_plan);
	INIT_WORK(&fn->retire_work, ftsw_retire_work);
}

/* Namespace exit, every port unbound (no SMP can run any more). */
void ftsw_sma_net_exit(struct ftsw_net *fn)
{
	cancel_work_sync(&fn->retire_work);
	ftsw_retire_all(fn);
}

/*
 * A switch being deleted: no SMP may publish a table into it any more,
 * and its trap stops repeating (the work takes neither RTNL nor fn->lock).
 */
void ftsw_sma_switch_del(struct ftsw_switch *sw)
{
	u16 (*mft)[FTSW_MFT_GROUPS];

	spin_lock_bh(&sw->fn->sma_lock);
	sw->dead = true;
	sw->trap_wait = 0;
	mft = sw->mft;
	sw->mft = NULL;
	spin_unlock_bh(&sw->fn->sma_lock);
	kfree(mft);
	if (sw->trap_work.work.func)
		cancel_delayed_work_sync(&sw->trap_work);
}

/*
 * Publish a committed LFT (fn->lock held, process context): the entries
 * netlink staged over the live table as it is at this moment, SMP blocks
 * written since the staging included (ftsw_lft_merge), under the lock
 * SMPs write under, so no block is lost or torn. If an SMP grew the live
 * table past the staged one, the staged one grows first.
 */
void ftsw_sma_lft_publish(struct ftsw_switch *sw, struct ftsw_lft *lft)
{
	struct ftsw_net *fn = sw->fn;
	struct ftsw_lft *old, *big;
	unsigned long *set;
	u32 need;

	lockdep_assert_held(&fn->lock);
	for (;;) {
		spin_lock_bh(&fn->sma_lock);
		old = rcu_dereference_protected(sw->lft,
						lockdep_is_held(&fn->lock));
		if (ftsw_lft_merge(lft, old, false))
			break;
		need = old->size;
		spin_unlock_bh(&fn->sma_lock);
		big = ftsw_lft_grow(lft, NULL, need);
		if (!big) {
			/* Only the SMP blocks past the staged size are lost. */
			pr_warn_ratelimited("ftsw: switch %u: no memory to keep SMP blocks past LID %u\n",
					    sw->id, lft->size);
			spin_lock_bh(&fn->sma_lock);
			old = rcu_dereference_protected(sw->lft,
							lockdep_is_held(&fn->lock));
			ftsw_lft_merge(lft, old, true);
			break;
		}
		ftsw_lft_free(lft);
		lft = big;
	}
	set = lft->set;		/* never written once published */
	lft->set = NULL;
	rcu_assign_pointer(sw->lft, lft);
	spin_unlock_bh(&fn->sma_lock);
	bitmap_free(set);
	ftsw_lft_free_deferred(old);
}

/* Publish an edge port's new policy (fn->lock held; PORT_SET). */
void ftsw_sma_policy_publish(struct ftsw_port *p, struct ftsw_policy *pol)
{
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_policy *old;

	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->sma_lock);
	old = rcu_replace_pointer(p->policy, pol, lockdep_is_held(&fn->lock));
	spin_unlock_bh(&fn->sma_lock);
	kvfree_rcu(old, rcu);
}

/*
 * Trap 128 (link state change, IBA vol. 1, 14.2.5.1): a Notice from the
 * switch's LID to the master SM's, LID-routed.
 */
static void ftsw_trap128(struct ftsw_port *in, u16 sm_lid, u16 lid, u8 sl,
			 u64 tid, gfp_t gfp)
{
	struct ib_mad_notice_attr *n;
	struct ib_smp *smp;
	struct sk_buff *skb;

	skb = ftsw_mad_alloc(sm_lid, lid, sl, gfp);
	if (!skb) {
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
		return;
	}
	smp = (struct ib_smp *)(skb->data + ETH_HLEN + FTSW_HLEN +
				FTSW_MAD_HLEN);
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	smp->class_version = 1;
	smp->method = IB_MGMT_METHOD_TRAP;
	smp->tid = cpu_to_be64(tid);
	smp->attr_id = IB_SMP_ATTR_NOTICE;
	n = (struct ib_mad_notice_attr *)smp->data;
	n->generic_type = 0x80 | IB_NOTICE_TYPE_URGENT;
	n->prod_type_lsb = IB_NOTICE_PROD_SWITCH;
	n->trap_num = cpu_to_be16(FTSW_TRAP_PORT_CHANGE);
	n->issuer_lid = cpu_to_be16(lid);
	/* DataDetails of trap 128: the switch's LID first. */
	n->details.raw_data.details[0] = lid >> 8;
	n->details.raw_data.details[1] = lid & 0xff;
	ftsw_mad_send(in, skb);
}

/*
 * Who drives the port states of @sw (fn->lock held): an in-band subnet
 * manager from now on (links come up in Init), or ftsw's control plane,
 * which at once activates every port of the switch and its hosts' CA
 * ports, as a subnet manager taking over would.
 */
void ftsw_sma_set_inband(struct ftsw_switch *sw, bool inband)
{
	struct ftsw_net *fn = sw->fn;
	struct ftsw_port *p;
	int i;

	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->sma_lock);
	sw->inband = inband;
	for (i = 1; !inband && i <= sw->nports; i++) {
		p = rcu_dereference_protected(sw->ports[i],
					      lockdep_is_held(&fn->lock));
		if (!p)
			continue;
		WRITE_ONCE(p->ib.state, FTSW_PS_ACTIVE);
		WRITE_ONCE(p->ca.ib.state, FTSW_PS_ACTIVE);
	}
	spin_unlock_bh(&fn->sma_lock);
}

static bool ftsw_trap_lids_ok(u16 sm_lid, u16 lid)
{
	return sm_lid && sm_lid <= FTSW_MAX_LID && lid && lid <= FTSW_MAX_LID;
}

/*
 * Time between two sends of an unrepressed trap: the subnet's timeout,
 * 4.096 us * 2^SubnetTimeOut (port 0's, as the SM set it), kept within
 * about 0.27 s .. 17 s.
 */
static unsigned long ftsw_trap_interval(const struct ftsw_switch *sw)
{
	u8 to = clamp_t(u8, READ_ONCE(sw->mgmt.subnet_to), FTSW_TRAP_TO_MIN,
			FTSW_TRAP_TO_MAX);

	return nsecs_to_jiffies(4096ULL << to);
}

/*
 * A port of a switch changed its link state (fn->lock held, process
 * context): both its InfiniBand ports (the switch's and, for an edge port,
 * the CA's) start over in the state a link comes up in, PortStateChange is
 * set and the master SM, if one has said where it is, gets trap 128, sent
 * again until the SM represses it (ftsw_sma_trap_resend).
 */
void ftsw_sma_port_changed(struct ftsw_port *p)
{
	struct ftsw_switch *sw = p->sw;
	struct ftsw_net *fn = sw->fn;
	u8 sl, st = ftsw_ps_linkup(sw);
	u16 sm_lid, lid;
	bool send;
	u64 tid;

	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->sma_lock);
	WRITE_ONCE(p->ib.state, st);
	WRITE_ONCE(p->ca.ib.state, st);
	sw->psc = true;
	sm_lid = sw->mgmt.sm_lid;
	sl = sw->mgmt.sm_sl;
	lid = sw->lid;
	tid = ++sw->trap_tid;
	send = ftsw_trap_lids_ok(sm_lid, lid) && !sw->dead;
	if (send) {
		sw->trap_wait = tid;
		sw->trap_port = p->num;
		sw->trap_sends = 1;
	}
	spin_unlock_bh(&fn->sma_lock);
	if (!send)
		return;
	ftsw_trap128(p, sm_lid, lid, sl, tid, GFP_KERNEL);
	if (sw->trap_work.work.func)
		mod_delayed_work(system_wq, &sw->trap_work,
				 ftsw_trap_interval(sw));
}

/*
 * Send the trap waiting for a TrapRepress once more (process context, no
 * lock held). False when there is none to send any more: repressed, sent
 * FTSW_TRAP_SENDS times, the SM or switch LID gone, the port it came from
 * unbound, or the switch deleted.
 */
bool ftsw_sma_trap_resend(struct ftsw_switch *sw)
{
	struct ftsw_net *fn = sw->fn;
	struct ftsw_port *p;
	u16 sm_lid, lid;
	u64 tid;
	u8 sl, num;

	spin_lock_bh(&fn->sma_lock);
	tid = sw->trap_wait;
	sm_lid = sw->mgmt.sm_lid;
	sl = sw->mgmt.sm_sl;
	lid = sw->lid;
	num = sw->trap_port;
	if (!tid || sw->dead || sw->trap_sends >= FTSW_TRAP_SENDS ||
	    !ftsw_trap_lids_ok(sm_lid, lid)) {
		sw->trap_wait = 0;
		spin_unlock_bh(&fn->sma_lock);
		return false;
	}
	sw->trap_sends++;
	spin_unlock_bh(&fn->sma_lock);
	rcu_read_lock();
	p = num <= sw->nports ? rcu_dereference(sw->ports[num]) : NULL;
	if (p)
		ftsw_trap128(p, sm_lid, lid, sl, tid, GFP_ATOMIC);
	rcu_read_unlock();
	if (!p) {
		spin_lock_bh(&fn->sma_lock);
		if (sw->trap_wait == tid)
			sw->trap_wait = 0;
		spin_unlock_bh(&fn->sma_lock);
	}
	return p;
}

static void ftsw_trap_work(struct work_struct *work)
{
	struct ftsw_switch *sw = container_of(to_delayed_work(work),
					      struct ftsw_switch, trap_work);

	if (ftsw_sma_trap_resend(sw))
		schedule_delayed_work(&sw->trap_work, ftsw_trap_interval(sw));
}

/*
 * A TrapRepress come to the switch's agent (softirq): the trap it names
 * is not sent again. The TID is matched on its low 32 bits, the MAD layer
 * of the SM's host owning the high ones (as Linux's ib_mad does).
 */
bool ftsw_sma_trap_repress(struct ftsw_switch *sw, u64 tid)
{
	struct ftsw_net *fn = sw->fn;
	bool hit;

	spin_lock_bh(&fn->sma_lock);
	hit = sw->trap_wait && (u32)sw->trap_wait == (u32)tid;
	if (hit)
		sw->trap_wait = 0;
	spin_unlock_bh(&fn->sma_lock);
	return hit;
}

/*
 * PortPhysicalState in a PortInfo Set (IBA vol. 1, 14.2.5.6): 0 changes
 * nothing; Disabled (3) and Polling (2, enable) are what a switch port or
 * a CA port takes, as hardware does; Sleep (1) is optional and, like the
 * values a Set may not name (4..15), refused. Switch port 0 has no
 * physical link: @p is NULL there and only 0 passes.
 */
bool ftsw_sma_phys_ok(const struct ftsw_port *p, u8 phys)
{
	if (!phys)
		return true;
	return p && (phys == FTSW_PHYS_POLLING || phys == FTSW_PHYS_DISABLED);
}

/*
 * Record a checked PortPhysicalState Set (fn->sma_lock, softirq): taking a
 * link down or up takes RTNL and fn->lock, so fn->phys_work does it.
 */
void ftsw_sma_phys_set(struct ftsw_port *p, u8 phys)
{
	struct ftsw_net *fn = p->sw->fn;

	lockdep_assert_held(&fn->sma_lock);
	if (!phys)
		return;
	p->phys_req = phys;
	if (fn->phys_work.func)
		schedule_work(&fn->phys_work);
}

/* The Set waiting on @p, if any, taken (process context). */
u8 ftsw_sma_phys_take(struct ftsw_port *p)
{
	struct ftsw_net *fn = p->sw->fn;
	u8 phys;

	spin_lock_bh(&fn->sma_lock);
	phys = p->phys_req;
	p->phys_req = 0;
	spin_unlock_bh(&fn->sma_lock);
	return phys;
}
