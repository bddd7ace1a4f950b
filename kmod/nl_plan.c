// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the address plan over netlink (FTSW_CMD_PLAN_SET, FTSW_CMD_PLAN_GET),
 * each with its own policy in nl_policy.c. The plan is staged like an LFT and
 * published by FTSW_CMD_COMMIT. See Documentation/netlink.md.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include "nl.h"
#include "resolve.h"
#include "nl_plan.h"

/*
 * Stage a plan: PLAN_HOSTS (required); with hosts > 0 also PLAN_LID
 * (required), PLAN_LMC (default 0) and PLAN_IP4 and/or PLAN_IP6. Hosts 0
 * stages "no plan". Replaces any staged plan; COMMIT publishes it.
 */
int ftsw_nl_plan_set(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_net(genl_info_net(info));
	struct nlattr **a = info->attrs;
	struct ftsw_plan *plan = NULL;
	const char *msg = NULL;
	int err;

	if (!a[FTSW_ATTR_PLAN_HOSTS]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, FTSW_ATTR_PLAN_HOSTS);
		NL_SET_ERR_MSG(info->extack, "missing required attribute");
		return -EINVAL;
	}
	if (nla_get_u32(a[FTSW_ATTR_PLAN_HOSTS])) {
		if (!a[FTSW_ATTR_PLAN_LID]) {
			NL_SET_ERR_ATTR_MISS(info->extack, NULL,
					     FTSW_ATTR_PLAN_LID);
			NL_SET_ERR_MSG(info->extack,
				       "missing required attribute");
			return -EINVAL;
		}
		plan = kzalloc(sizeof(*plan), GFP_KERNEL_ACCOUNT);
		if (!plan)
			return -ENOMEM;
		plan->hosts = nla_get_u32(a[FTSW_ATTR_PLAN_HOSTS]);
		plan->lid = nla_get_u16(a[FTSW_ATTR_PLAN_LID]);
		if (a[FTSW_ATTR_PLAN_LMC])
			plan->lmc = nla_get_u8(a[FTSW_ATTR_PLAN_LMC]);
		if (a[FTSW_ATTR_PLAN_IP4])
			plan->ip4 = ntohl(nla_get_in_addr(a[FTSW_ATTR_PLAN_IP4]));
		if (a[FTSW_ATTR_PLAN_IP6])
			plan->ip6 = nla_get_in6_addr(a[FTSW_ATTR_PLAN_IP6]);
		err = ftsw_plan_check(plan, &msg);
		if (err) {
			/* A static message from the checker. */
			if (info->extack)
				info->extack->_msg = msg;
			kfree(plan);
			return err;
		}
	} else if (a[FTSW_ATTR_PLAN_LID] || a[FTSW_ATTR_PLAN_LMC] ||
		   a[FTSW_ATTR_PLAN_IP4] || a[FTSW_ATTR_PLAN_IP6]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PLAN_HOSTS],
				    "a plan of 0 hosts takes no addresses");
		return -EINVAL;
	}
	mutex_lock(&fn->lock);
	ftsw_plan_discard(fn);
	fn->plan_staged = plan;
	fn->plan_pending = true;
	mutex_unlock(&fn->lock);
	return 0;
}

static int ftsw_plan_fill(struct sk_buff *msg, const struct ftsw_plan *plan,
			  bool staged)
{
	if (staged && nla_put_flag(msg, FTSW_ATTR_PLAN_STAGED))
		return -EMSGSIZE;
	if (nla_put_u32(msg, FTSW_ATTR_PLAN_HOSTS, plan ? plan->hosts : 0))
		return -EMSGSIZE;
	if (!plan)
		return 0;
	if (nla_put_u16(msg, FTSW_ATTR_PLAN_LID, plan->lid) ||
	    nla_put_u8(msg, FTSW_ATTR_PLAN_LMC, plan->lmc) ||
	    (plan->ip4 &&
	     nla_put_in_addr(msg, FTSW_ATTR_PLAN_IP4, htonl(plan->ip4))) ||
	    (!ipv6_addr_any(&plan->ip6) &&
	     nla_put_in6_addr(msg, FTSW_ATTR_PLAN_IP6, &plan->ip6)))
		return -EMSGSIZE;
	return 0;
}

/*
 * The active plan, or with PLAN_STAGED the staged view (what a commit
 * would publish; PLAN_STAGED is echoed when a staged plan is pending).
 */
static int ftsw_fill_plan(struct sk_buff *msg, void *hdr,
			  struct ftsw_net *fn, struct genl_info *info)
{
	bool staged = nla_get_flag(info->attrs[FTSW_ATTR_PLAN_STAGED]);
	bool pending = staged && fn->plan_pending;
	const struct ftsw_plan *plan;

	plan = pending ? fn->plan_staged :
	       rcu_dereference_protected(fn->plan, lockdep_is_held(&fn->lock));
	return ftsw_plan_fill(msg, plan, pending);
}

int ftsw_nl_plan_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_PLAN_GET, ftsw_fill_plan);
}
