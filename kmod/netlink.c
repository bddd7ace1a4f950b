// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the "ftsw" generic netlink family. Every command has its own
 * attribute policy (nl_policy.c), so the core refuses what a command does
 * not take; handlers check what policies cannot express and change nothing
 * before every check has passed. Mutations need CAP_NET_ADMIN in the
 * namespace's user namespace, reads and dumps are unprivileged.
 *
 * This file holds the family, its operations table and the fabric
 * commands; the other commands are in nl_switch.c, nl_port.c, nl_lft.c
 * and nl_plan.c, what they share in nl.c, a port's attributes in
 * nl_fill.c.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "fabric.h"
#include "lft.h"
#include "nl.h"
#include "nl_ar.h"
#include "nl_fill.h"
#include "nl_lft.h"
#include "nl_plan.h"
#include "nl_policy.h"
#include "nl_port.h"
#include "nl_switch.h"
#include "resolve.h"
#include "stats.h"
#include "netlink.h"

static int ftsw_fill_fabric(struct sk_buff *msg, void *hdr,
			    struct ftsw_net *fn, struct genl_info *info)
{
	u64 drops[FTSW_DROP_MAX + 1];
	struct ftsw_switch *sw;
	unsigned long id;
	u64 lft_bytes = 0;
	int i, j;

	memcpy(drops, fn->dead_drops, sizeof(drops));
	xa_for_each(&fn->switches, id, sw) {
		lft_bytes += ftsw_lft_bytes(rcu_dereference_protected(sw->lft,
					lockdep_is_held(&fn->lock)));
		lft_bytes += ftsw_lft_bytes(sw->staged);
		for (i = 1; i <= sw->nports; i++) {
			struct ftsw_port *p = ftsw_port_get(sw, i);
			struct ftsw_stats st;

			if (!p)
				continue;
			ftsw_port_stats(p, &st);
			for (j = 0; j <= FTSW_DROP_MAX; j++)
				drops[j] += st.drops[j];
		}
	}
	if (nla_put_u64_64bit(msg, FTSW_ATTR_GENERATION, fn->generation,
			      FTSW_ATTR_PAD) ||
	    nla_put_u32(msg, FTSW_ATTR_SWITCH_COUNT, fn->nswitches) ||
	    nla_put_u32(msg, FTSW_ATTR_PORT_COUNT, fn->nports) ||
	    nla_put_u32(msg, FTSW_ATTR_MAX_SWITCHES, FTSW_MAX_SWITCHES) ||
	    nla_put_u16(msg, FTSW_ATTR_MAX_LID, FTSW_MAX_LID) ||
	    nla_put_u8(msg, FTSW_ATTR_MAX_PORTS, FTSW_MAX_PORTS) ||
	    nla_put_u8(msg, FTSW_ATTR_HOP_LIMIT, fn->hop_limit) ||
	    nla_put_u8(msg, FTSW_ATTR_LOSSLESS, fn->lossless) ||
	    nla_put_u64_64bit(msg, FTSW_ATTR_AR_FLOWLET_NS, fn->flowlet_ns,
			      FTSW_ATTR_PAD) ||
	    nla_put_u32(msg, FTSW_ATTR_CC_TIMER_NS, fn->cc_timer_ns) ||
	    nla_put_u64_64bit(msg, FTSW_ATTR_LFT_BYTES, lft_bytes,
			      FTSW_ATTR_PAD) ||
	    ftsw_put_drops(msg, FTSW_ATTR_DROPS, drops))
		return -EMSGSIZE;
	return 0;
}

static int ftsw_nl_fabric_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_FABRIC_GET, ftsw_fill_fabric);
}

static int ftsw_nl_fabric_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ll = info->attrs[FTSW_ATTR_LOSSLESS];
	struct ftsw_net *fn = ftsw_info_fn(info);
	int err = 0;

	if (!ll && !info->attrs[FTSW_ATTR_AR_FLOWLET_NS] &&
	    !info->attrs[FTSW_ATTR_CC_TIMER_NS] &&
	    ftsw_req(info, FTSW_ATTR_HOP_LIMIT))
		return -EINVAL;
	mutex_lock(&fn->lock);
	if (ll && nla_get_u8(ll) != fn->lossless && fn->nports) {
		NL_SET_ERR_MSG_ATTR(info->extack, ll,
				    "lossless mode changes only while no port is bound");
		err = -EBUSY;
		goto out;
	}
	if (ll)
		fn->lossless = nla_get_u8(ll);
	if (info->attrs[FTSW_ATTR_HOP_LIMIT])
		WRITE_ONCE(fn->hop_limit,
			   nla_get_u8(info->attrs[FTSW_ATTR_HOP_LIMIT]));
	if (info->attrs[FTSW_ATTR_AR_FLOWLET_NS])
		WRITE_ONCE(fn->flowlet_ns,
			   nla_get_u64(info->attrs[FTSW_ATTR_AR_FLOWLET_NS]));
	if (info->attrs[FTSW_ATTR_CC_TIMER_NS])
		WRITE_ONCE(fn->cc_timer_ns,
			   nla_get_u32(info->attrs[FTSW_ATTR_CC_TIMER_NS]));
	ftsw_changed(fn);
out:
	mutex_unlock(&fn->lock);
	return err;
}

static int ftsw_nl_fabric_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);

	rtnl_lock();
	mutex_lock(&fn->lock);
	ftsw_fabric_flush(fn, true);
	ftsw_plan_flush(fn);
	/* The data path reads it locklessly (READ_ONCE). */
	WRITE_ONCE(fn->hop_limit, FTSW_HOP_LIMIT_DEFAULT);
	WRITE_ONCE(fn->flowlet_ns, 0);
	WRITE_ONCE(fn->cc_timer_ns, FTSW_CC_TIMER_NS);
	fn->lossless = false;
	ftsw_commit(fn);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return 0;
}

/*
 * One entry per command, each with its own policy (nl_policy.c): strict
 * validation against it refuses attributes the command does not take, in
 * doit and dump requests alike. A command without a policy takes no
 * attributes at all (the core refuses any).
 */
#define FTSW_POLICY(pol)	.policy = pol, .maxattr = ARRAY_SIZE(pol) - 1

/* A command that changes the fabric: a doit with its policy, admins only. */
#define FTSW_ADMIN_OP(c, fn, pol)					\
	{ .cmd = c, .doit = fn, FTSW_POLICY(pol), .flags = GENL_UNS_ADMIN_PERM }

static const struct genl_ops ftsw_ops[] = {
	{
		.cmd = FTSW_CMD_FABRIC_GET,
		.doit = ftsw_nl_fabric_get,
	},
	FTSW_ADMIN_OP(FTSW_CMD_FABRIC_SET, ftsw_nl_fabric_set,
		      ftsw_fabric_set_policy),
	{
		.cmd = FTSW_CMD_FABRIC_RESET,
		.doit = ftsw_nl_fabric_reset,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	FTSW_ADMIN_OP(FTSW_CMD_SWITCH_NEW, ftsw_nl_switch_new,
		      ftsw_switch_new_policy),
	FTSW_ADMIN_OP(FTSW_CMD_SWITCH_DEL, ftsw_nl_switch_del,
		      ftsw_switch_policy),
	{
		.cmd = FTSW_CMD_SWITCH_GET,
		.doit = ftsw_nl_switch_get,
		.dumpit = ftsw_nl_switch_dump,
		FTSW_POLICY(ftsw_switch_policy),
	},
	FTSW_ADMIN_OP(FTSW_CMD_PORT_BIND, ftsw_nl_port_bind,
		      ftsw_port_bind_policy),
	FTSW_ADMIN_OP(FTSW_CMD_PORT_UNBIND, ftsw_nl_port_unbind,
		      ftsw_port_policy),
	FTSW_ADMIN_OP(FTSW_CMD_PORT_SET, ftsw_nl_port_set,
		      ftsw_port_set_policy),
	{
		.cmd = FTSW_CMD_PORT_GET,
		.doit = ftsw_nl_port_get,
		.dumpit = ftsw_nl_port_dump,
		FTSW_POLICY(ftsw_port_policy),
	},
	FTSW_ADMIN_OP(FTSW_CMD_LFT_SET, ftsw_nl_lft_set,
		      ftsw_lft_set_policy),
	{
		.cmd = FTSW_CMD_LFT_GET,
		.dumpit = ftsw_nl_lft_dump,
		FTSW_POLICY(ftsw_lft_get_policy),
	},
	FTSW_ADMIN_OP(FTSW_CMD_LFT_DISCARD, ftsw_nl_lft_discard,
		      ftsw_switch_policy),
	FTSW_ADMIN_OP(FTSW_CMD_SL2VL_SET, ftsw_nl_sl2vl_set,
		      ftsw_sl2vl_set_policy),
	{
		.cmd = FTSW_CMD_SL2VL_GET,
		.doit = ftsw_nl_switch_get,
		.dumpit = ftsw_nl_switch_dump,
		FTSW_POLICY(ftsw_switch_policy),
	},
	{
		.cmd = FTSW_CMD_COMMIT,
		.doit = ftsw_nl_commit,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	FTSW_ADMIN_OP(FTSW_CMD_PORT_CLEAR, ftsw_nl_port_clear,
		      ftsw_port_policy),
	FTSW_ADMIN_OP(FTSW_CMD_PLAN_SET, ftsw_nl_plan_set,
		      ftsw_plan_set_policy),
	{
		.cmd = FTSW_CMD_PLAN_GET,
		.doit = ftsw_nl_plan_get,
		FTSW_POLICY(ftsw_plan_get_policy),
	},
	FTSW_ADMIN_OP(FTSW_CMD_SWITCH_SET, ftsw_nl_switch_set,
		      ftsw_switch_set_policy),
	FTSW_ADMIN_OP(FTSW_CMD_AR_SET, ftsw_nl_ar_set, ftsw_ar_set_policy),
	{
		.cmd = FTSW_CMD_AR_GET,
		.dumpit = ftsw_nl_ar_dump,
		FTSW_POLICY(ftsw_lft_get_policy),
	},
};

static const struct genl_multicast_group ftsw_mcgrps[] = {
	{ .name = FTSW_MCGRP_EVENTS },
};

struct genl_family ftsw_genl_family __ro_after_init = {
	.name = FTSW_GENL_NAME,
	.version = FTSW_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ftsw_ops,
	.n_ops = ARRAY_SIZE(ftsw_ops),
	.mcgrps = ftsw_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ftsw_mcgrps),
};

int ftsw_nl_init(void)
{
	int err;

	err = genl_register_family(&ftsw_genl_family);
	if (!err)
		ftsw_nl_set_live(true);
	return err;
}

void ftsw_nl_exit(void)
{
	/* Notifier events run under rtnl: none is in flight after this. */
	rtnl_lock();
	ftsw_nl_set_live(false);
	rtnl_unlock();
	genl_unregister_family(&ftsw_genl_family);
}
