// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the subnet management agents on the control path: their
 * registers' defaults when a fabric, switch or port is made, what the
 * control path publishes into the agents' view under fn->sma_lock (a
 * committed LFT, merged with the blocks SMPs wrote since it was staged;
 * an edge port's path policy; who drives the port states), and the
 * retirement of what an SMP's Set replaced. See Documentation/sm.md.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/llist.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include "lft.h"
#include "path.h"
#include "sma_ctl.h"

#define FTSW_SUBNET_PREFIX	0xfe80000000000000ULL
#define FTSW_RESP_TIME		18	/* 4.096 us * 2^18: about 1 s */

static void ftsw_mgmt_init(struct ftsw_mgmt *mg)
{
	mg->prefix = FTSW_SUBNET_PREFIX;
	mg->resp_time = FTSW_RESP_TIME;
	mg->pkey[0] = FTSW_PKEY_DEFAULT;
}

/* A new switch: its ports' links come up as ftsw_ps_linkup() says. */
void ftsw_sma_switch_init(struct ftsw_switch *sw)
{
	sw->ib0.state = ftsw_ps_linkup(sw);
	ftsw_mgmt_init(&sw->mgmt);
	sw->life = FTSW_LIFE_DEFAULT;
}

void ftsw_sma_port_init(struct ftsw_port *p)
{
	u8 st = ftsw_ps_linkup(p->sw);
	int i;

	p->ib.state = st;
	p->ib.hoq = FTSW_LIFE_DEFAULT;
	p->ca.ib.state = st;
	p->ca.ib.hoq = FTSW_LIFE_DEFAULT;
	/* the default partition, full; no enforcement until an SM sets it */
	p->pkeys[0] = FTSW_PKEY_DEFAULT;
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
 * and its traps stop (the works take neither RTNL nor fn->lock).
 */
void ftsw_sma_switch_del(struct ftsw_switch *sw)
{
	struct ftsw_mft *mft;

	spin_lock_bh(&sw->fn->sma_lock);
	sw->dead = true;
	sw->trap_wait = 0;
	sw->pkey_trap.wait = 0;
	sw->pkey_trap.due = false;
	mft = rcu_replace_pointer(sw->mft, NULL,
				  lockdep_is_held(&sw->fn->sma_lock));
	spin_unlock_bh(&sw->fn->sma_lock);
	if (mft)
		kfree_rcu(mft, rcu);	/* the data path may read it */
	if (sw->trap_work.work.func)
		cancel_delayed_work_sync(&sw->trap_work);
	if (sw->mkey_work.func)
		cancel_work_sync(&sw->mkey_work);
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

/* Retire what an SMP replaced: freed after netlink and RCU readers. */
void ftsw_sma_retire(struct ftsw_net *fn, struct llist_node *n,
		     struct llist_head *list)
{
	llist_add(n, list);
	schedule_work(&fn->retire_work);
}

/*
 * The subnet manager gives the host's CA port a LID and LMC: the edge
 * port's path policy is replaced by a copy with the new LID range (the
 * offsets reset to all 2^LMC paths when the LMC changes). fn->sma_lock
 * held; a MAD status.
 */
int ftsw_sma_ca_set_lid(struct ftsw_port *p, u16 lid, u8 lmc)
{
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_policy *old, *pol;
	const char *msg;

	old = rcu_dereference_protected(p->policy,
					lockdep_is_held(&fn->sma_lock));
	if (old && old->base_lid == lid && old->lmc == lmc)
		return IB_MGMT_MAD_STATUS_SUCCESS;
	pol = kzalloc(struct_size(pol, sl, old ? old->sl_len : 0), GFP_ATOMIC);
	if (!pol)
		return IB_MGMT_MAD_STATUS_BUSY;
	if (old) {
		pol->default_sl = old->default_sl;
		pol->sl_len = old->sl_len;
		memcpy(pol->sl, old->sl, old->sl_len);
		pol->n_offsets = old->n_offsets;
		memcpy(pol->offsets, old->offsets, sizeof(pol->offsets));
	}
	if (!old || old->lmc != lmc)
		ftsw_policy_defaults(pol, lmc);
	pol->base_lid = lid;
	pol->lmc = lmc;
	if (ftsw_policy_check(lid, lmc, pol->offsets, pol->n_offsets, pol->sl,
			      pol->sl_len, &msg)) {
		kfree(pol);
		return IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
	}
	rcu_assign_pointer(p->policy, pol);
	if (old)
		ftsw_sma_retire(fn, &old->retired, &fn->retired_pol);
	return IB_MGMT_MAD_STATUS_SUCCESS;
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
