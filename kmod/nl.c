// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: what every command of the "ftsw" generic netlink family uses
 * (netlink.c has the family and its operations table): required
 * attributes and extack messages, the switch a request names, replies
 * assembled under the fabric's lock, dumps that resume where they stopped,
 * and the events of the "events" multicast group.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "nl_fill.h"
#include "nl.h"

/* Events are only sent while the family is registered. */
static bool ftsw_nl_live;

/* netlink.c: the family registered (true) or about to be unregistered. */
void ftsw_nl_set_live(bool live)
{
	WRITE_ONCE(ftsw_nl_live, live);
}

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
