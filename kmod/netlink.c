// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the "ftsw" generic netlink family. Every command has its own
 * attribute policy (nl_policy.c), so the core refuses what a command does not
 * take; handlers check what policies cannot express and change nothing
 * before every check has passed. Mutations need CAP_NET_ADMIN in the
 * namespace's user namespace, reads and dumps are unprivileged.
 *
 * This file holds the family, its operations table, the fabric commands
 * and the events; nl_port.c the switch and port commands, nl_lft.c the
 * LFT, SL2VL and commit commands; ftsw_nl.h what they share.
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "ftsw.h"
#include "ftsw_nl.h"

/* Events are only sent while the family is registered. */
static bool ftsw_nl_live;

/* A required attribute: report it missing, with a message. */
bool ftsw_req(struct genl_info *info, int type)
{
	if (info->attrs[type])
		return false;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
	NL_SET_ERR_MSG(info->extack, "missing required attribute");
	return true;
}

/* Report a static message from the pure checkers against @attr. */
void ftsw_extack(struct netlink_ext_ack *extack,
			const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	if (attr)
		NL_SET_BAD_ATTR(extack, attr);
}

struct ftsw_net *ftsw_info_fn(struct genl_info *info)
{
	return ftsw_net(genl_info_net(info));
}

/* Find the switch named by FTSW_ATTR_SWITCH_ID (required). */
struct ftsw_switch *ftsw_nl_switch(struct ftsw_net *fn,
					  struct genl_info *info)
{
	struct nlattr *a = info->attrs[FTSW_ATTR_SWITCH_ID];
	struct ftsw_switch *sw;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID))
		return ERR_PTR(-EINVAL);
	sw = ftsw_switch_find(fn, nla_get_u32(a));
	if (!sw) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "no such switch");
		return ERR_PTR(-ENOENT);
	}
	return sw;
}

/*
 * Answer info's request with one message of command cmd, which fill puts
 * together under the fabric's lock after the header (hdr). fill's error
 * drops the message and is returned.
 */
int ftsw_nl_reply(struct genl_info *info, u8 cmd, ftsw_nl_fill_fn fill)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ftsw_genl_family, 0, cmd);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	mutex_lock(&fn->lock);
	err = fill(msg, hdr, fn, info);
	mutex_unlock(&fn->lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* The command of a dump request: replies carry the command they answer. */
u8 ftsw_dump_cmd(const struct netlink_callback *cb)
{
	const struct genlmsghdr *g = nlmsg_data(cb->nlh);

	return g->cmd;
}

/* Start one message of a dump, flagged NLM_F_DUMP_INTR if need be. */
void *ftsw_dump_put(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ftsw_genl_family, NLM_F_MULTI, ftsw_dump_cmd(cb));
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* What a dump callback returns once it stopped with @err. */
int ftsw_dump_ret(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/*
 * Move the cursor (switch id args[0], key within the switch args[1]) of a
 * dump over switches to switch @id: a switch other than the cursor's
 * starts at key 0.
 */
void ftsw_dump_seek(struct netlink_callback *cb, unsigned long id)
{
	if (cb->args[0] != id) {
		cb->args[0] = id;
		cb->args[1] = 0;
	}
}

/*
 * The last switch id in *@last a dump over switches visits: the one
 * SWITCH_ID (@attr) names, the cursor moved to it, else every one. False
 * when the cursor is already past it: the dump is complete.
 */
bool ftsw_dump_switches(struct netlink_callback *cb, const struct nlattr *attr,
			unsigned long *last)
{
	*last = ULONG_MAX;
	if (!attr)
		return true;
	*last = nla_get_u32(attr);
	if (cb->args[0] > *last)
		return false;
	ftsw_dump_seek(cb, *last);
	return true;
}

static int ftsw_put_drops(struct sk_buff *msg, int type, const u64 *drops)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 1; i <= FTSW_DROP_MAX; i++)
		if (nla_put_u64_64bit(msg, i, drops[i], FTSW_DROP_UNSPEC))
			goto err;
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

int ftsw_put_stats(struct sk_buff *msg, const struct ftsw_port *p)
{
	struct nlattr *nest, *vl;
	struct ftsw_stats st;
	int i;

	ftsw_port_stats(p, &st);
	nest = nla_nest_start(msg, FTSW_ATTR_PORT_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, FTSW_STATS_RX_PACKETS, st.rx_packets,
			      FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_RX_BYTES, st.rx_bytes,
			      FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_TX_PACKETS, st.tx_packets,
			      FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_TX_BYTES, st.tx_bytes,
			      FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_RESOLVED, st.resolved,
			      FTSW_STATS_PAD))
		goto err;
	vl = nla_nest_start(msg, FTSW_STATS_TX_VL);
	if (!vl)
		goto err;
	for (i = 0; i < FTSW_NUM_VL; i++)
		if (nla_put_u64_64bit(msg, i + 1, st.tx_vl[i], 0))
			goto err;
	nla_nest_end(msg, vl);
	if (ftsw_put_drops(msg, FTSW_STATS_DROPS, st.drops))
		goto err;
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

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

	if (!ll && ftsw_req(info, FTSW_ATTR_HOP_LIMIT))
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
	fn->lossless = false;
	ftsw_commit(fn);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return 0;
}

void ftsw_nl_port_event(struct ftsw_port *p, u8 reason)
{
	struct net *net = p->sw->fn->net;
	struct sk_buff *msg;

	if (!READ_ONCE(ftsw_nl_live) ||
	    !genl_has_listeners(&ftsw_genl_family, net, 0))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (ftsw_fill_port(msg, p, genlmsg_put(msg, 0, 0, &ftsw_genl_family, 0,
						FTSW_CMD_PORT_EVENT), reason)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast_netns(&ftsw_genl_family, net, msg, 0, 0, GFP_KERNEL);
}

void ftsw_nl_commit_event(struct ftsw_net *fn)
{
	struct sk_buff *msg;
	void *hdr;

	if (!READ_ONCE(ftsw_nl_live) ||
	    !genl_has_listeners(&ftsw_genl_family, fn->net, 0))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &ftsw_genl_family, 0,
			  FTSW_CMD_COMMIT_EVENT);
	if (!hdr || nla_put_u64_64bit(msg, FTSW_ATTR_GENERATION,
				      fn->generation, FTSW_ATTR_PAD)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&ftsw_genl_family, fn->net, msg, 0, 0,
				GFP_KERNEL);
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
		WRITE_ONCE(ftsw_nl_live, true);
	return err;
}

void ftsw_nl_exit(void)
{
	/* Notifier events run under rtnl: none is in flight after this. */
	rtnl_lock();
	WRITE_ONCE(ftsw_nl_live, false);
	rtnl_unlock();
	genl_unregister_family(&ftsw_genl_family);
}
