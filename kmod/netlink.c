// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the "ftsw" generic netlink family. Every command has its own
 * attribute policy (policy.c), so the core refuses what a command does not
 * take; handlers check what policies cannot express and change nothing
 * before every check has passed. Mutations need CAP_NET_ADMIN in the
 * namespace's user namespace, reads and dumps are unprivileged.
 * See Documentation/netlink.md and Documentation/netlink/specs/ftsw.yaml.
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "ftsw.h"

/* Events are only sent while the family is registered. */
static bool ftsw_nl_live;

/* A required attribute: report it missing, with a message. */
static bool ftsw_req(struct genl_info *info, int type)
{
	if (info->attrs[type])
		return false;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
	NL_SET_ERR_MSG(info->extack, "missing required attribute");
	return true;
}

/* Report a static message from the pure checkers against @attr. */
static void ftsw_extack(struct netlink_ext_ack *extack,
			const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	if (attr)
		NL_SET_BAD_ATTR(extack, attr);
}

static struct ftsw_net *ftsw_info_fn(struct genl_info *info)
{
	return ftsw_net(genl_info_net(info));
}

/* Find the switch named by FTSW_ATTR_SWITCH_ID (required). */
static struct ftsw_switch *ftsw_nl_switch(struct ftsw_net *fn,
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

static int ftsw_put_stats(struct sk_buff *msg, const struct ftsw_port *p)
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

/* ---------------------------------------------------------------- fabric */

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
	struct ftsw_net *fn = ftsw_info_fn(info);

	if (ftsw_req(info, FTSW_ATTR_HOP_LIMIT))
		return -EINVAL;
	mutex_lock(&fn->lock);
	WRITE_ONCE(fn->hop_limit, nla_get_u8(info->attrs[FTSW_ATTR_HOP_LIMIT]));
	ftsw_changed(fn);
	mutex_unlock(&fn->lock);
	return 0;
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
	ftsw_commit(fn);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return 0;
}

/* ---------------------------------------------------------------- switch */

/* The command of a dump request: replies carry the command they answer. */
static u8 ftsw_dump_cmd(const struct netlink_callback *cb)
{
	const struct genlmsghdr *g = nlmsg_data(cb->nlh);

	return g->cmd;
}

/*
 * Parse a dump request's attributes with its command's policy. The core
 * has already validated them strictly against the same policy; parsing
 * again keeps this independent of how each kernel version hands them over.
 */
#define ftsw_dump_parse(cb, tb, policy)					\
	nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, ARRAY_SIZE(policy) - 1,	\
		    policy, cb->extack)

/* Start one message of a dump, flagged NLM_F_DUMP_INTR if need be. */
static void *ftsw_dump_put(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ftsw_genl_family, NLM_F_MULTI, ftsw_dump_cmd(cb));
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* What a dump callback returns once it stopped with @err. */
static int ftsw_dump_ret(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

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
	    (sw->lid && nla_put_u16(msg, FTSW_ATTR_SWITCH_LID, sw->lid)) ||
	    (sw->staged && nla_put_flag(msg, FTSW_ATTR_SWITCH_STAGED)))
		goto nla_fail;
	genlmsg_end(msg, hdr);
	return 0;
nla_fail:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int ftsw_nl_switch_new(struct sk_buff *skb, struct genl_info *info)
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
	sw = ftsw_switch_alloc(id, nla_get_u8(a[FTSW_ATTR_SWITCH_NPORTS]));
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

static int ftsw_nl_switch_del(struct sk_buff *skb, struct genl_info *info)
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
static int ftsw_nl_switch_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, info->genlhdr->cmd, ftsw_fill_switch_req);
}

/*
 * Dump switches (SWITCH_GET and SL2VL_GET), optionally only SWITCH_ID.
 * args[0]: the next switch id to send, so a dump resumes correctly
 * whatever was added or deleted in between.
 */
static int ftsw_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_switch_policy)];
	unsigned long id, last = ULONG_MAX;
	struct ftsw_switch *sw;
	int err;

	err = ftsw_dump_parse(cb, tb, ftsw_switch_policy);
	if (err)
		return err;
	if (tb[FTSW_ATTR_SWITCH_ID]) {
		id = nla_get_u32(tb[FTSW_ATTR_SWITCH_ID]);
		if (cb->args[0] > id)
			return 0;
		cb->args[0] = id;
		last = id;
	}
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

/* ---------------------------------------------------------------- port */

static void ftsw_policy_defaults(struct ftsw_policy *pol, u8 lmc)
{
	int i;

	pol->lmc = lmc;
	pol->n_offsets = 1U << lmc;
	for (i = 0; i < pol->n_offsets; i++)
		pol->offsets[i] = i;
}

/*
 * Build an edge port's policy from the request, starting from @old for
 * what the request leaves out. Returns a new, checked policy.
 */
static struct ftsw_policy *ftsw_nl_policy_build(struct genl_info *info,
						const struct ftsw_policy *old)
{
	struct nlattr **a = info->attrs;
	struct nlattr *sla = a[FTSW_ATTR_PORT_SL_TABLE];
	struct nlattr *offa = a[FTSW_ATTR_PORT_OFFSETS];
	struct ftsw_policy *pol;
	const char *msg = NULL;
	u32 sl_len;
	int err;

	if (!old && !a[FTSW_ATTR_PORT_BASE_LID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_KIND],
				    "edge port needs the host's base LID");
		return ERR_PTR(-EINVAL);
	}
	sl_len = sla ? nla_len(sla) : (old ? old->sl_len : 0);
	pol = ftsw_policy_alloc(sl_len);
	if (!pol)
		return ERR_PTR(-ENOMEM);
	if (old) {
		pol->base_lid = old->base_lid;
		pol->default_sl = old->default_sl;
		pol->lmc = old->lmc;
		pol->n_offsets = old->n_offsets;
		memcpy(pol->offsets, old->offsets, sizeof(pol->offsets));
		if (!sla)
			memcpy(pol->sl, old->sl, sl_len);
	} else {
		ftsw_policy_defaults(pol, 0);
	}
	if (a[FTSW_ATTR_PORT_BASE_LID])
		pol->base_lid = nla_get_u16(a[FTSW_ATTR_PORT_BASE_LID]);
	if (a[FTSW_ATTR_PORT_LMC])
		ftsw_policy_defaults(pol, nla_get_u8(a[FTSW_ATTR_PORT_LMC]));
	if (offa) {
		pol->n_offsets = nla_len(offa);
		memcpy(pol->offsets, nla_data(offa), pol->n_offsets);
	}
	if (a[FTSW_ATTR_PORT_SL])
		pol->default_sl = nla_get_u8(a[FTSW_ATTR_PORT_SL]);
	if (sla)
		memcpy(pol->sl, nla_data(sla), sl_len);

	err = ftsw_policy_check(pol->base_lid, pol->lmc, pol->offsets,
				pol->n_offsets, pol->sl, pol->sl_len, &msg);
	if (err) {
		struct nlattr *bad = a[FTSW_ATTR_PORT_BASE_LID];

		if (offa && strstr(msg, "offset"))
			bad = offa;
		else if (sla && strstr(msg, "SL"))
			bad = sla;
		else if (a[FTSW_ATTR_PORT_LMC] && strstr(msg, "LMC"))
			bad = a[FTSW_ATTR_PORT_LMC];
		ftsw_extack(info->extack, bad, msg);
		kvfree(pol);
		return ERR_PTR(err);
	}
	return pol;
}

static const int ftsw_edge_attrs[] = {
	FTSW_ATTR_PORT_BASE_LID, FTSW_ATTR_PORT_LMC, FTSW_ATTR_PORT_OFFSETS,
	FTSW_ATTR_PORT_SL, FTSW_ATTR_PORT_SL_TABLE,
};

static int ftsw_nl_no_edge_attrs(struct genl_info *info)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ftsw_edge_attrs); i++) {
		struct nlattr *a = info->attrs[ftsw_edge_attrs[i]];

		if (a) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "edge port attribute on a link port");
			return -EINVAL;
		}
	}
	return 0;
}

/* Find the bound port named by SWITCH_ID and PORT_NUM (both required). */
static struct ftsw_port *ftsw_nl_port(struct ftsw_net *fn,
				      struct genl_info *info)
{
	struct nlattr *na = info->attrs[FTSW_ATTR_PORT_NUM];
	struct ftsw_switch *sw;
	struct ftsw_port *p;

	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw))
		return ERR_CAST(sw);
	if (ftsw_req(info, FTSW_ATTR_PORT_NUM))
		return ERR_PTR(-EINVAL);
	if (nla_get_u8(na) > sw->nports) {
		NL_SET_ERR_MSG_ATTR(info->extack, na,
				    "port number above the switch's port count");
		return ERR_PTR(-ERANGE);
	}
	p = ftsw_port_get(sw, nla_get_u8(na));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, na, "port is not bound");
		return ERR_PTR(-ENOENT);
	}
	return p;
}

/*
 * PORT_BIND with a peer instead of a device: a patch cable between two
 * free ports of this fabric (link ports, no device, no edge attributes).
 */
static int ftsw_nl_patch_bind(struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct nlattr **a = info->attrs;
	struct ftsw_switch *sw, *psw;
	bool admin_up = true;
	u8 num, pnum;
	int err;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID) ||
	    ftsw_req(info, FTSW_ATTR_PORT_NUM) ||
	    ftsw_req(info, FTSW_ATTR_PORT_PEER_SWITCH) ||
	    ftsw_req(info, FTSW_ATTR_PORT_PEER_NUM))
		return -EINVAL;
	if (a[FTSW_ATTR_PORT_IFINDEX]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_IFINDEX],
				    "a patch cable has no device");
		return -EINVAL;
	}
	if (a[FTSW_ATTR_PORT_KIND] &&
	    nla_get_u8(a[FTSW_ATTR_PORT_KIND]) != FTSW_PORT_LINK) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_KIND],
				    "a patch cable joins two link ports");
		return -EINVAL;
	}
	err = ftsw_nl_no_edge_attrs(info);
	if (err)
		return err;
	num = nla_get_u8(a[FTSW_ATTR_PORT_NUM]);
	pnum = nla_get_u8(a[FTSW_ATTR_PORT_PEER_NUM]);
	if (a[FTSW_ATTR_PORT_ADMIN_UP])
		admin_up = nla_get_u8(a[FTSW_ATTR_PORT_ADMIN_UP]);

	rtnl_lock();
	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto out;
	}
	psw = ftsw_switch_find(fn, nla_get_u32(a[FTSW_ATTR_PORT_PEER_SWITCH]));
	if (!psw) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_PEER_SWITCH],
				    "no such switch");
		err = -ENOENT;
		goto out;
	}
	err = -ERANGE;
	if (num > sw->nports) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_NUM],
				    "port number above the switch's port count");
		goto out;
	}
	if (pnum > psw->nports) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_PEER_NUM],
				    "port number above the far switch's port count");
		goto out;
	}
	err = -EINVAL;
	if (sw == psw && num == pnum) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_PEER_NUM],
				    "a patch cable needs two ports");
		goto out;
	}
	err = -EBUSY;
	if (ftsw_port_get(sw, num)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_NUM],
				    "port is already bound");
		goto out;
	}
	if (ftsw_port_get(psw, pnum)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_PEER_NUM],
				    "far port is already bound");
		goto out;
	}
	err = ftsw_patch_bind(sw, num, psw, pnum, admin_up);
out:
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return err;
}

static int ftsw_nl_port_bind(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct nlattr **a = info->attrs;
	struct ftsw_policy *pol = NULL;
	struct net_device *dev;
	struct ftsw_switch *sw;
	bool admin_up = true;
	u8 num, kind;
	int err;

	if (info->attrs[FTSW_ATTR_PORT_PEER_SWITCH] ||
	    info->attrs[FTSW_ATTR_PORT_PEER_NUM])
		return ftsw_nl_patch_bind(info);
	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID) ||
	    ftsw_req(info, FTSW_ATTR_PORT_NUM) ||
	    ftsw_req(info, FTSW_ATTR_PORT_IFINDEX) ||
	    ftsw_req(info, FTSW_ATTR_PORT_KIND))
		return -EINVAL;
	num = nla_get_u8(a[FTSW_ATTR_PORT_NUM]);
	kind = nla_get_u8(a[FTSW_ATTR_PORT_KIND]);
	if (a[FTSW_ATTR_PORT_ADMIN_UP])
		admin_up = nla_get_u8(a[FTSW_ATTR_PORT_ADMIN_UP]);
	if (kind == FTSW_PORT_LINK) {
		err = ftsw_nl_no_edge_attrs(info);
		if (err)
			return err;
	} else {
		pol = ftsw_nl_policy_build(info, NULL);
		if (IS_ERR(pol))
			return PTR_ERR(pol);
	}

	rtnl_lock();
	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto out;
	}
	if (num > sw->nports) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_NUM],
				    "port number above the switch's port count");
		err = -ERANGE;
		goto out;
	}
	if (ftsw_port_get(sw, num)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_NUM],
				    "port is already bound");
		err = -EBUSY;
		goto out;
	}
	dev = __dev_get_by_index(genl_info_net(info),
				 nla_get_u32(a[FTSW_ATTR_PORT_IFINDEX]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_IFINDEX],
				    "no such device in this network namespace");
		err = -ENODEV;
		goto out;
	}
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN ||
	    (dev->flags & IFF_LOOPBACK)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTSW_ATTR_PORT_IFINDEX],
				    "not an Ethernet device");
		err = -EINVAL;
		goto out;
	}
	err = ftsw_port_bind(sw, num, dev, kind, pol, admin_up, info->extack);
	if (!err)
		pol = NULL;
out:
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	kvfree(pol);
	return err;
}

static int ftsw_nl_port_unbind(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_port *p;
	int err = 0;

	rtnl_lock();
	mutex_lock(&fn->lock);
	p = ftsw_nl_port(fn, info);
	if (IS_ERR(p))
		err = PTR_ERR(p);
	else
		ftsw_port_unbind(p, FTSW_REASON_UNBIND, true);
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	return err;
}

static int ftsw_nl_port_set(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_policy *pol = NULL, *old;
	bool edge_attrs = false;
	struct ftsw_port *p;
	int err = 0, i;

	for (i = 0; i < ARRAY_SIZE(ftsw_edge_attrs); i++)
		if (info->attrs[ftsw_edge_attrs[i]])
			edge_attrs = true;

	mutex_lock(&fn->lock);
	p = ftsw_nl_port(fn, info);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
		goto out;
	}
	if (p->kind == FTSW_PORT_LINK) {
		err = ftsw_nl_no_edge_attrs(info);
		if (err)
			goto out;
	} else if (edge_attrs) {
		old = rcu_dereference_protected(p->policy,
						lockdep_is_held(&fn->lock));
		pol = ftsw_nl_policy_build(info, old);
		if (IS_ERR(pol)) {
			err = PTR_ERR(pol);
			goto out;
		}
		old = rcu_replace_pointer(p->policy, pol,
					  lockdep_is_held(&fn->lock));
		kvfree_rcu(old, rcu);
		ftsw_changed(fn);
	}
	if (info->attrs[FTSW_ATTR_PORT_ADMIN_UP])
		ftsw_port_set_admin(p,
				    nla_get_u8(info->attrs[FTSW_ATTR_PORT_ADMIN_UP]));
out:
	mutex_unlock(&fn->lock);
	return err;
}

/* A port's attributes in the message begun at @hdr (NULL: no room). */
static int ftsw_fill_port(struct sk_buff *msg, struct ftsw_port *p,
			  void *hdr, u8 reason)
{
	struct ftsw_policy *pol;
	bool gone;

	if (!hdr)
		return -EMSGSIZE;
	gone = reason == FTSW_REASON_UNBIND ||
	       reason == FTSW_REASON_UNREGISTER || reason == FTSW_REASON_RESET;
	pol = rcu_dereference_protected(p->policy,
					lockdep_is_held(&p->sw->fn->lock));
	if (nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, p->sw->id) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_NUM, p->num))
		goto nla_fail;
	if (p->dev ?
	    nla_put_u32(msg, FTSW_ATTR_PORT_IFINDEX, p->dev->ifindex) ||
	    nla_put_string(msg, FTSW_ATTR_PORT_IFNAME, p->ifname) :
	    nla_put_u32(msg, FTSW_ATTR_PORT_PEER_SWITCH, p->peer->sw->id) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_PEER_NUM, p->peer->num))
		goto nla_fail;
	if (nla_put_u8(msg, FTSW_ATTR_PORT_KIND, p->kind) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_ADMIN_UP, p->admin_up) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_OPER_UP, p->oper_up && !gone))
		goto nla_fail;
	if (reason && nla_put_u8(msg, FTSW_ATTR_PORT_REASON, reason))
		goto nla_fail;
	if (pol &&
	    (nla_put_u16(msg, FTSW_ATTR_PORT_BASE_LID, pol->base_lid) ||
	     nla_put_u8(msg, FTSW_ATTR_PORT_LMC, pol->lmc) ||
	     nla_put(msg, FTSW_ATTR_PORT_OFFSETS, pol->n_offsets,
		     pol->offsets) ||
	     nla_put_u8(msg, FTSW_ATTR_PORT_SL, pol->default_sl)))
		goto nla_fail;
	if (!reason && ftsw_put_stats(msg, p))
		goto nla_fail;
	genlmsg_end(msg, hdr);
	return 0;
nla_fail:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int ftsw_fill_port_req(struct sk_buff *msg, void *hdr,
			      struct ftsw_net *fn, struct genl_info *info)
{
	struct ftsw_port *p = ftsw_nl_port(fn, info);

	return IS_ERR(p) ? PTR_ERR(p) : ftsw_fill_port(msg, p, hdr, 0);
}

static int ftsw_nl_port_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_PORT_GET, ftsw_fill_port_req);
}

static int ftsw_nl_port_clear(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_port *p;
	int err = 0;

	mutex_lock(&fn->lock);
	p = ftsw_nl_port(fn, info);
	if (IS_ERR(p))
		err = PTR_ERR(p);
	else
		ftsw_port_clear(p);
	mutex_unlock(&fn->lock);
	return err;
}

/*
 * Dump bound ports, optionally only those of SWITCH_ID and/or numbered
 * PORT_NUM. The cursor is the key of the next port to send, (switch id
 * args[0], port args[1]), so the dump resumes at the next greater key
 * whatever was bound, unbound or deleted in between: every port that
 * exists throughout the dump appears exactly once.
 */
static int ftsw_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_port_policy)];
	unsigned long id, last = ULONG_MAX;
	struct ftsw_switch *sw;
	int err, i;

	err = ftsw_dump_parse(cb, tb, ftsw_port_policy);
	if (err)
		return err;
	if (tb[FTSW_ATTR_SWITCH_ID]) {
		last = nla_get_u32(tb[FTSW_ATTR_SWITCH_ID]);
		if (cb->args[0] > last)
			return 0;
		if (cb->args[0] < last) {
			cb->args[0] = last;
			cb->args[1] = 0;
		}
	}
	mutex_lock(&fn->lock);
	cb->seq = fn->seq;
	xa_for_each_range(&fn->switches, id, sw, cb->args[0], last) {
		/* A switch past the cursor's (deleted) one starts at port 1. */
		if (id != cb->args[0]) {
			cb->args[0] = id;
			cb->args[1] = 0;
		}
		for (i = max_t(long, cb->args[1], 1); i <= sw->nports; i++) {
			struct ftsw_port *p = ftsw_port_get(sw, i);

			if (!p || (tb[FTSW_ATTR_PORT_NUM] &&
				   nla_get_u8(tb[FTSW_ATTR_PORT_NUM]) != i))
				continue;
			err = ftsw_fill_port(skb, p, ftsw_dump_put(skb, cb), 0);
			if (err)
				goto out;
			cb->args[1] = i + 1;
		}
		cb->args[0] = id + 1;
		cb->args[1] = 0;
	}
out:
	mutex_unlock(&fn->lock);
	return ftsw_dump_ret(skb, err);
}

/* ---------------------------------------------------------------- tables */

static int ftsw_nl_lft_set(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct nlattr *da = info->attrs[FTSW_ATTR_LFT_DATA];
	struct ftsw_switch *sw;
	const char *msg;
	u16 first;
	int err;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID) ||
	    ftsw_req(info, FTSW_ATTR_LFT_FIRST_LID) ||
	    ftsw_req(info, FTSW_ATTR_LFT_DATA))
		return -EINVAL;
	first = nla_get_u16(info->attrs[FTSW_ATTR_LFT_FIRST_LID]);

	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto out;
	}
	err = ftsw_lft_check_block(first, nla_data(da), nla_len(da),
				   sw->nports, &msg);
	if (err) {
		ftsw_extack(info->extack, da, msg);
		goto out;
	}
	err = ftsw_lft_stage(&sw->staged,
			     rcu_dereference_protected(sw->lft,
						       lockdep_is_held(&fn->lock)),
			     first, nla_data(da), nla_len(da));
	if (!err)
		ftsw_changed(fn);
out:
	mutex_unlock(&fn->lock);
	return err;
}

static int ftsw_nl_lft_discard(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_switch *sw;
	unsigned long id;
	int err = 0;

	mutex_lock(&fn->lock);
	ftsw_changed(fn);
	if (info->attrs[FTSW_ATTR_SWITCH_ID]) {
		sw = ftsw_nl_switch(fn, info);
		if (IS_ERR(sw)) {
			err = PTR_ERR(sw);
		} else {
			ftsw_lft_free(sw->staged);
			sw->staged = NULL;
		}
	} else {
		xa_for_each(&fn->switches, id, sw) {
			ftsw_lft_free(sw->staged);
			sw->staged = NULL;
		}
		ftsw_plan_discard(fn);
	}
	mutex_unlock(&fn->lock);
	return err;
}

/*
 * LFT entries that fit the rest of @skb in one more LFT_GET message: its
 * headers and every other attribute it carries come off the tail room.
 */
static u32 ftsw_lft_room(const struct sk_buff *skb)
{
	int room = skb_tailroom(skb) - NLMSG_HDRLEN - GENL_HDRLEN -
		   2 * nla_total_size(sizeof(u32)) -
		   nla_total_size(sizeof(u16)) - nla_total_size(0) -
		   NLA_HDRLEN;

	return room > 0 ? round_down(room, NLA_ALIGNTO) : 0;
}

/* One LFT_GET message: @n entries of @t from @lid (none if @n is 0). */
static int ftsw_lft_fill(struct sk_buff *skb, struct netlink_callback *cb,
			 struct ftsw_switch *sw, const struct ftsw_lft *t,
			 u32 lid, u32 n, bool staged)
{
	void *hdr = ftsw_dump_put(skb, cb);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FTSW_ATTR_SWITCH_ID, sw->id) ||
	    nla_put_u32(skb, FTSW_ATTR_LFT_SIZE, t ? t->size : 0) ||
	    nla_put_u16(skb, FTSW_ATTR_LFT_FIRST_LID, lid) ||
	    (n && nla_put(skb, FTSW_ATTR_LFT_DATA, n, t->port + lid)) ||
	    (staged && nla_put_flag(skb, FTSW_ATTR_SWITCH_STAGED))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Dump one switch's table from LID args[1] in blocks sized to the room
 * left in each skb, so a full table dumps through any receive buffer.
 */
static int ftsw_lft_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ftsw_switch *sw, bool staged)
{
	struct ftsw_lft *t;
	u32 lid = cb->args[1], size;
	int err;

	t = rcu_dereference_protected(sw->lft, lockdep_is_held(&sw->fn->lock));
	staged = staged && sw->staged;
	if (staged)
		t = sw->staged;
	size = t ? t->size : 0;
	if (!size)	/* no table: one message saying so */
		return lid ? 0 : ftsw_lft_fill(skb, cb, sw, NULL, 0, 0, staged);
	while (lid < size) {
		u32 n = min(size - lid, ftsw_lft_room(skb));

		if (!n)
			return -EMSGSIZE;
		err = ftsw_lft_fill(skb, cb, sw, t, lid, n, staged);
		if (err)
			return err;
		lid += n;
		cb->args[1] = lid;
	}
	return 0;
}

/*
 * Dump LFTs, optionally only SWITCH_ID's, the active or (LFT_STAGED) the
 * staged view: the staged table if any, else the active. The cursor is
 * (switch id args[0], next LID args[1]); a switch past the cursor's
 * (deleted) one starts at LID 0.
 */
static int ftsw_nl_lft_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_lft_get_policy)];
	unsigned long id, last = ULONG_MAX;
	struct ftsw_switch *sw;
	bool staged;
	int err;

	err = ftsw_dump_parse(cb, tb, ftsw_lft_get_policy);
	if (err)
		return err;
	staged = nla_get_flag(tb[FTSW_ATTR_LFT_STAGED]);
	if (tb[FTSW_ATTR_SWITCH_ID]) {
		last = nla_get_u32(tb[FTSW_ATTR_SWITCH_ID]);
		if (cb->args[0] > last)
			return 0;
		if (cb->args[0] < last) {
			cb->args[0] = last;
			cb->args[1] = 0;
		}
	}
	mutex_lock(&fn->lock);
	cb->seq = fn->seq;
	xa_for_each_range(&fn->switches, id, sw, cb->args[0], last) {
		if (id != cb->args[0]) {
			cb->args[0] = id;
			cb->args[1] = 0;
		}
		err = ftsw_lft_dump_one(skb, cb, sw, staged);
		if (err)
			break;
		cb->args[0] = id + 1;
		cb->args[1] = 0;
	}
	mutex_unlock(&fn->lock);
	return ftsw_dump_ret(skb, err);
}

static int ftsw_nl_sl2vl_set(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct nlattr *va = info->attrs[FTSW_ATTR_SL2VL];
	struct ftsw_switch *sw;
	const u8 *vl;
	int err = 0, i;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID) ||
	    ftsw_req(info, FTSW_ATTR_SL2VL))
		return -EINVAL;
	vl = nla_data(va);
	for (i = 0; i < FTSW_NUM_SL; i++) {
		if (vl[i] >= FTSW_NUM_VL) {
			NL_SET_ERR_MSG_ATTR(info->extack, va,
					    "VL must be 0..15");
			return -EINVAL;
		}
	}
	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
	} else {
		for (i = 0; i < FTSW_NUM_SL; i++)
			WRITE_ONCE(sw->sl2vl[i], vl[i]);
		ftsw_changed(fn);
	}
	mutex_unlock(&fn->lock);
	return err;
}

/* Publish every staged table; the reply names the new generation. */
static int ftsw_fill_commit(struct sk_buff *msg, void *hdr,
			    struct ftsw_net *fn, struct genl_info *info)
{
	return nla_put_u64_64bit(msg, FTSW_ATTR_GENERATION, ftsw_commit(fn),
				 FTSW_ATTR_PAD);
}

static int ftsw_nl_commit(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_COMMIT, ftsw_fill_commit);
}

/* ---------------------------------------------------------------- events */

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

/* ---------------------------------------------------------------- family */

/*
 * One entry per command, each with its own policy (policy.c): strict
 * validation against it refuses attributes the command does not take, in
 * doit and dump requests alike. A command without a policy takes no
 * attributes at all (the core refuses any).
 */
#define FTSW_POLICY(pol)	.policy = pol, .maxattr = ARRAY_SIZE(pol) - 1

static const struct genl_ops ftsw_ops[] = {
	{
		.cmd = FTSW_CMD_FABRIC_GET,
		.doit = ftsw_nl_fabric_get,
	},
	{
		.cmd = FTSW_CMD_FABRIC_SET,
		.doit = ftsw_nl_fabric_set,
		FTSW_POLICY(ftsw_fabric_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_FABRIC_RESET,
		.doit = ftsw_nl_fabric_reset,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_SWITCH_NEW,
		.doit = ftsw_nl_switch_new,
		FTSW_POLICY(ftsw_switch_new_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_SWITCH_DEL,
		.doit = ftsw_nl_switch_del,
		FTSW_POLICY(ftsw_switch_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_SWITCH_GET,
		.doit = ftsw_nl_switch_get,
		.dumpit = ftsw_nl_switch_dump,
		FTSW_POLICY(ftsw_switch_policy),
	},
	{
		.cmd = FTSW_CMD_PORT_BIND,
		.doit = ftsw_nl_port_bind,
		FTSW_POLICY(ftsw_port_bind_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_PORT_UNBIND,
		.doit = ftsw_nl_port_unbind,
		FTSW_POLICY(ftsw_port_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_PORT_SET,
		.doit = ftsw_nl_port_set,
		FTSW_POLICY(ftsw_port_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_PORT_GET,
		.doit = ftsw_nl_port_get,
		.dumpit = ftsw_nl_port_dump,
		FTSW_POLICY(ftsw_port_policy),
	},
	{
		.cmd = FTSW_CMD_LFT_SET,
		.doit = ftsw_nl_lft_set,
		FTSW_POLICY(ftsw_lft_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_LFT_GET,
		.dumpit = ftsw_nl_lft_dump,
		FTSW_POLICY(ftsw_lft_get_policy),
	},
	{
		.cmd = FTSW_CMD_LFT_DISCARD,
		.doit = ftsw_nl_lft_discard,
		FTSW_POLICY(ftsw_switch_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_SL2VL_SET,
		.doit = ftsw_nl_sl2vl_set,
		FTSW_POLICY(ftsw_sl2vl_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
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
	{
		.cmd = FTSW_CMD_PORT_CLEAR,
		.doit = ftsw_nl_port_clear,
		FTSW_POLICY(ftsw_port_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_PLAN_SET,
		.doit = ftsw_nl_plan_set,
		FTSW_POLICY(ftsw_plan_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTSW_CMD_PLAN_GET,
		.doit = ftsw_nl_plan_get,
		FTSW_POLICY(ftsw_plan_get_policy),
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
