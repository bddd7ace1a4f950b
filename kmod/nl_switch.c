// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the switch commands of the "ftsw" generic netlink family:
 * SWITCH_NEW, SWITCH_DEL, SWITCH_GET (and SL2VL_GET, which answers the
 * same), SWITCH_SET (the switch lifetime of lossless mode, who drives its
 * port states).
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "fabric.h"
#include "ll_queue.h"
#include "nl.h"
#include "nl_policy.h"
#include "sma_ctl.h"
#include "nl_switch.h"

static int ftsw_fill_switch(struct sk_buff *msg, struct ftsw_switch *sw,
			    void *hdr)
{
	struct ftsw_lft *lft;

	if (!hdr)
		return -EMSGSIZE;
	lft = rcu_dereference_protected(sw->lft, lockdep_is_held(&sw->fn->lock));
	if (nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw->id) ||
	    nla_put_u64_64bit(msg, FTSW_ATTR_SWITCH_GUID, sw->guid,
			      FTSW_ATTR_PAD) ||
	    nla_put_string(msg, FTSW_ATTR_SWITCH_NAME, sw->name) ||
	    nla_put_u8(msg, FTSW_ATTR_SWITCH_NPORTS, sw->nports) ||
	    nla_put_u32(msg, FTSW_ATTR_PORT_COUNT, sw->nbound) ||
	    nla_put_u32(msg, FTSW_ATTR_LFT_SIZE, lft ? lft->size : 0) ||
	    nla_put(msg, FTSW_ATTR_SL2VL, FTSW_NUM_SL, sw->sl2vl) ||
	    nla_put_u8(msg, FTSW_ATTR_SWITCH_LIFE, READ_ONCE(sw->life)) ||
	    nla_put_u8(msg, FTSW_ATTR_SWITCH_INBAND_SM, sw->inband) ||
	    (sw->lid && nla_put_u16(msg, FTSW_ATTR_SWITCH_LID, sw->lid)) ||
	    (sw->staged && nla_put_flag(msg, FTSW_ATTR_SWITCH_STAGED)))
		goto nla_fail;
	genlmsg_end(msg, hdr);
	return 0;
nla_fail:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

int ftsw_nl_switch_new(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct nlattr **a = info->attrs;
	struct ftsw_switch *sw;
	u32 id;
	int err;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID) ||
	    ftsw_req(info, FTSW_ATTR_SWITCH_NPORTS))
		return -EINVAL;
	id = nla_get_u32(a[FTSW_ATTR_SWITCH_ID]);
	sw = ftsw_switch_alloc(id, nla_get_u8(a[FTSW_ATTR_SWITCH_NPORTS]),
			       a[FTSW_ATTR_SWITCH_INBAND_SM] &&
			       nla_get_u8(a[FTSW_ATTR_SWITCH_INBAND_SM]));
	if (!sw)
		return -ENOMEM;
	sw->guid = a[FTSW_ATTR_SWITCH_GUID] ?
		   nla_get_u64(a[FTSW_ATTR_SWITCH_GUID]) : id;
	if (a[FTSW_ATTR_SWITCH_NAME])
		nla_strscpy(sw->name, a[FTSW_ATTR_SWITCH_NAME], sizeof(sw->name));
	if (a[FTSW_ATTR_SWITCH_LID])
		sw->lid = nla_get_u16(a[FTSW_ATTR_SWITCH_LID]);

	mutex_lock(&fn->lock);
	err = ftsw_switch_add(fn, sw);
	mutex_unlock(&fn->lock);
	if (err) {
		kfree(sw);
		if (err == -EBUSY) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_SWITCH_ID],
					    "switch id already exists");
			return -EEXIST;
		}
		if (err == -ENOSPC)
			NL_SET_ERR_MSG(info->extack,
				       "too many switches in this fabric");
		return err;
	}
	return 0;
}

int ftsw_nl_switch_del(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_switch *sw;
	int err = 0;

	rtnl_lock();
	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw))
		err = PTR_ERR(sw);
	else
		ftsw_switch_del(sw, FTSW_REASON_RESET, true);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return err;
}

static int ftsw_fill_switch_req(struct sk_buff *msg, void *hdr,
				struct ftsw_net *fn, struct genl_info *info)
{
	struct ftsw_switch *sw = ftsw_nl_switch(fn, info);

	return IS_ERR(sw) ? PTR_ERR(sw) : ftsw_fill_switch(msg, sw, hdr);
}

/* SWITCH_GET and SL2VL_GET: the reply carries the request's command. */
int ftsw_nl_switch_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, info->genlhdr->cmd, ftsw_fill_switch_req);
}

/*
 * Dump switches (SWITCH_GET and SL2VL_GET), optionally only SWITCH_ID.
 * args[0]: the next switch id to send, so a dump resumes correctly
 * whatever was added or deleted in between.
 */
int ftsw_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_switch_policy)];
	unsigned long id, last;
	struct ftsw_switch *sw;
	int err;

	err = ftsw_dump_parse(cb, tb, ftsw_switch_policy);
	if (err)
		return err;
	if (!ftsw_dump_switches(cb, tb[FTSW_ATTR_SWITCH_ID], &last))
		return 0;
	mutex_lock(&fn->lock);
	cb->seq = fn->seq;
	xa_for_each_range(&fn->switches, id, sw, cb->args[0], last) {
		err = ftsw_fill_switch(skb, sw, ftsw_dump_put(skb, cb));
		if (err)
			break;
		cb->args[0] = id + 1;
	}
	mutex_unlock(&fn->lock);
	return ftsw_dump_ret(skb, err);
}

int ftsw_nl_switch_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *inband = info->attrs[FTSW_ATTR_SWITCH_INBAND_SM];
	struct nlattr *life = info->attrs[FTSW_ATTR_SWITCH_LIFE];
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_switch *sw;
	int err = 0;

	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto out;
	}
	if (life) {
		spin_lock_bh(&fn->sma_lock);
		WRITE_ONCE(sw->life, nla_get_u8(life));
		spin_unlock_bh(&fn->sma_lock);
		ftsw_ll_kick_switch(sw);
		ftsw_changed(fn);
	}
	if (inband) {
		ftsw_sma_set_inband(sw, nla_get_u8(inband));
		ftsw_changed(fn);
	}
out:
	mutex_unlock(&fn->lock);
	return err;
}
