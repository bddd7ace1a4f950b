// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the port commands of the "ftsw" generic netlink family:
 * PORT_BIND (to a device, or a patch cable between two ports), PORT_UNBIND,
 * PORT_SET (admin state, an edge port's path policy and CA, lossless
 * settings, PortState), PORT_GET and its dump, PORT_CLEAR.
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "fabric.h"
#include "ll_queue.h"
#include "nl.h"
#include "nl_fill.h"
#include "nl_mcast.h"
#include "nl_pkey.h"
#include "nl_policy.h"
#include "path.h"
#include "resolve.h"
#include "sma.h"
#include "sma_ctl.h"
#include "stats.h"
#include "nl_port.h"

/*
 * Build an edge port's path policy from the request, starting from @old
 * for what the request leaves out. Returns a new, checked path policy.
 */
static struct ftsw_policy *ftsw_nl_path_policy(struct genl_info *info,
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

/* The edge port's path policy attributes, and its CA's (sm.md). */
static const int ftsw_edge_ca_attrs[] = {
	FTSW_ATTR_PORT_BASE_LID, FTSW_ATTR_PORT_LMC, FTSW_ATTR_PORT_OFFSETS,
	FTSW_ATTR_PORT_SL, FTSW_ATTR_PORT_SL_TABLE, FTSW_ATTR_PORT_NODE_DESC,
	FTSW_ATTR_PORT_CA_GUID,
};

static int ftsw_nl_no_edge_attrs(struct genl_info *info)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ftsw_edge_ca_attrs); i++) {
		struct nlattr *a = info->attrs[ftsw_edge_ca_attrs[i]];

		if (a) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "edge port attribute on a link port");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * PORT_BIND and PORT_SET of an edge port (link ports refuse them with the
 * other edge attributes): the CA's name (NodeDescription) and node GUID.
 * fn->lock held; the agents read them under sma_lock.
 */
static void ftsw_nl_ca_attrs(struct ftsw_port *p, struct genl_info *info)
{
	struct nlattr *desc = info->attrs[FTSW_ATTR_PORT_NODE_DESC];
	struct nlattr *guid = info->attrs[FTSW_ATTR_PORT_CA_GUID];
	struct ftsw_net *fn = p->sw->fn;

	if (!desc && !guid)
		return;
	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->sma_lock);
	if (desc) {
		memset(p->ca.desc, 0, sizeof(p->ca.desc));
		nla_strscpy(p->ca.desc, desc, sizeof(p->ca.desc));
	}
	if (guid)
		p->ca.guid = nla_get_u64(guid);
	spin_unlock_bh(&fn->sma_lock);
	ftsw_changed(fn);
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

int ftsw_nl_port_bind(struct sk_buff *skb, struct genl_info *info)
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
		pol = ftsw_nl_path_policy(info, NULL);
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
	if (!err) {
		pol = NULL;
		ftsw_nl_ca_attrs(ftsw_port_get(sw, num), info);
	}
out:
	mutex_unlock(&fn->lock);
	rtnl_unlock();
	kvfree(pol);
	return err;
}

/*
 * Apply @act to the port the request names, under fn->lock, taken after
 * the RTNL if @rtnl (the port's device is touched).
 */
static int ftsw_nl_port_act(struct genl_info *info, bool rtnl,
			    void (*act)(struct ftsw_port *p))
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_port *p;
	int err = 0;

	if (rtnl)
		rtnl_lock();
	mutex_lock(&fn->lock);
	p = ftsw_nl_port(fn, info);
	if (IS_ERR(p))
		err = PTR_ERR(p);
	else
		act(p);
	mutex_unlock(&fn->lock);
	if (rtnl)
		rtnl_unlock();
	return err;
}

static void ftsw_nl_unbind_one(struct ftsw_port *p)
{
	ftsw_port_unbind(p, FTSW_REASON_UNBIND, true);
}

int ftsw_nl_port_unbind(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_port_act(info, true, ftsw_nl_unbind_one);
}

/*
 * A base LID given by netlink is the host's place in the address plan
 * (resolve.c); one a subnet manager set is not, so a PORT_SET without
 * BASE_LID keeps the port's place.
 */
static int ftsw_nl_plan_lid(struct ftsw_port *p, const struct ftsw_policy *pol,
			    struct genl_info *info)
{
	struct nlattr *a = info->attrs[FTSW_ATTR_PORT_BASE_LID];

	if (!a || pol->base_lid == p->plan_lid)
		return 0;
	if (ftsw_plan_host_reserve(p->sw->fn, pol->base_lid)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "no memory for the address plan's index");
		return -ENOMEM;
	}
	ftsw_plan_host_add(p, pol->base_lid);
	return 0;
}

/* PORT_STATE, applied last (after an admin change in the same request). */
static int ftsw_nl_port_state(struct ftsw_port *p, struct genl_info *info)
{
	struct nlattr *a = info->attrs[FTSW_ATTR_PORT_STATE];
	int err;

	err = ftsw_sma_link_state_set(p, nla_get_u8(a));
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "the port's link is down: its state stays Down until the link is up");
	else
		ftsw_changed(p->sw->fn);
	return err;
}

/* A VL arbitration table: (VL, weight) pairs, VLs 0..14. */
static int ftsw_nl_vlarb_check(struct genl_info *info, int type)
{
	struct nlattr *a = info->attrs[type];
	const u8 *d;
	int i;

	if (!a)
		return 0;
	if (nla_len(a) % 2) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "VL arbitration table: (VL, weight) byte pairs");
		return -EINVAL;
	}
	d = nla_data(a);
	for (i = 0; i < nla_len(a); i += 2) {
		if (d[i] >= FTSW_NUM_DATA_VL) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "VL arbitration entry names a VL above 14");
			return -EINVAL;
		}
	}
	return 0;
}

/* What PORT_SET's lossless attributes need beyond their policy. */
static int ftsw_nl_port_ll_check(struct genl_info *info)
{
	return ftsw_nl_vlarb_check(info, FTSW_ATTR_PORT_VLARB_HIGH) ?:
	       ftsw_nl_vlarb_check(info, FTSW_ATTR_PORT_VLARB_LOW);
}

static void ftsw_nl_vlarb_set(u8 (*t)[2], const struct nlattr *a)
{
	const u8 *d = nla_data(a);
	int i, n = nla_len(a) / 2;

	for (i = 0; i < FTSW_VLARB_CAP; i++) {
		t[i][0] = i < n ? d[2 * i] : 0;
		t[i][1] = i < n ? d[2 * i + 1] : 0;
	}
}

/* Apply PORT_SET's lossless attributes (checked; fn->lock held). */
static void ftsw_nl_port_ll_apply(struct ftsw_port *p, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ftsw_net *fn = p->sw->fn;

	lockdep_assert_held(&fn->lock);
	if (a[FTSW_ATTR_PORT_RATE])
		WRITE_ONCE(p->rate, nla_get_u64(a[FTSW_ATTR_PORT_RATE]));
	if (a[FTSW_ATTR_PORT_IN_BUF])
		WRITE_ONCE(p->in_buf, nla_get_u32(a[FTSW_ATTR_PORT_IN_BUF]));
	if (a[FTSW_ATTR_PORT_OUT_BUF])
		WRITE_ONCE(p->out_buf, nla_get_u32(a[FTSW_ATTR_PORT_OUT_BUF]));
	spin_lock_bh(&fn->sma_lock);
	if (a[FTSW_ATTR_PORT_HOQ_LIFE])
		p->ib.hoq = (p->ib.hoq & ~0x1f) |
			    nla_get_u8(a[FTSW_ATTR_PORT_HOQ_LIFE]);
	if (a[FTSW_ATTR_PORT_VL_HIGH_LIMIT])
		p->ib.vl_high_limit = nla_get_u8(a[FTSW_ATTR_PORT_VL_HIGH_LIMIT]);
	if (a[FTSW_ATTR_PORT_VLARB_HIGH])
		ftsw_nl_vlarb_set(p->ib.vlarb[1], a[FTSW_ATTR_PORT_VLARB_HIGH]);
	if (a[FTSW_ATTR_PORT_VLARB_LOW])
		ftsw_nl_vlarb_set(p->ib.vlarb[0], a[FTSW_ATTR_PORT_VLARB_LOW]);
	spin_unlock_bh(&fn->sma_lock);
	ftsw_ll_kick(p);
	ftsw_changed(fn);
}

int ftsw_nl_port_set(struct sk_buff *skb, struct genl_info *info)
{
	struct ftsw_net *fn = ftsw_info_fn(info);
	struct ftsw_policy *pol = NULL, *old;
	bool edge_attrs = false;
	struct ftsw_port *p;
	int err = 0, i;

	for (i = 0; i < ARRAY_SIZE(ftsw_edge_attrs); i++)
		if (info->attrs[ftsw_edge_attrs[i]])
			edge_attrs = true;
	err = ftsw_nl_port_ll_check(info);
	if (err)
		return err;

	mutex_lock(&fn->lock);
	p = ftsw_nl_port(fn, info);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
		goto out;
	}
	err = ftsw_nl_pkey_check(info, p) ?: ftsw_nl_mcast_check(info, p);
	if (err)
		goto out;
	if (p->kind == FTSW_PORT_LINK) {
		err = ftsw_nl_no_edge_attrs(info);
		if (err)
			goto out;
	} else if (edge_attrs) {
		old = rcu_dereference_protected(p->policy,
						lockdep_is_held(&fn->lock));
		pol = ftsw_nl_path_policy(info, old);
		if (IS_ERR(pol)) {
			err = PTR_ERR(pol);
			goto out;
		}
		err = ftsw_nl_plan_lid(p, pol, info);
		if (err) {
			kvfree(pol);
			goto out;
		}
		ftsw_sma_policy_publish(p, pol);
		ftsw_changed(fn);
	}
	err = ftsw_nl_pkey_apply(p, info) ?: ftsw_nl_mcast_apply(p, info);
	if (err)
		goto out;
	if (p->kind == FTSW_PORT_EDGE)
		ftsw_nl_ca_attrs(p, info);
	ftsw_nl_port_ll_apply(p, info);
	if (info->attrs[FTSW_ATTR_PORT_ADMIN_UP])
		ftsw_port_set_admin(p,
				    nla_get_u8(info->attrs[FTSW_ATTR_PORT_ADMIN_UP]));
	if (info->attrs[FTSW_ATTR_PORT_STATE])
		err = ftsw_nl_port_state(p, info);
out:
	mutex_unlock(&fn->lock);
	return err;
}

static int ftsw_fill_port_req(struct sk_buff *msg, void *hdr,
			      struct ftsw_net *fn, struct genl_info *info)
{
	struct ftsw_port *p = ftsw_nl_port(fn, info);

	return IS_ERR(p) ? PTR_ERR(p) : ftsw_fill_port(msg, p, hdr, 0);
}

int ftsw_nl_port_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_PORT_GET, ftsw_fill_port_req);
}

int ftsw_nl_port_clear(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_port_act(info, false, ftsw_port_clear);
}

/*
 * Dump bound ports, optionally only those of SWITCH_ID and/or numbered
 * PORT_NUM. The cursor is the key of the next port to send, (switch id
 * args[0], port args[1]), so the dump resumes at the next greater key
 * whatever was bound, unbound or deleted in between: every port that
 * exists throughout the dump appears exactly once.
 */
int ftsw_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_port_policy)];
	unsigned long id, last;
	struct ftsw_switch *sw;
	int err, i;

	err = ftsw_dump_parse(cb, tb, ftsw_port_policy);
	if (err)
		return err;
	if (!ftsw_dump_switches(cb, tb[FTSW_ATTR_SWITCH_ID], &last))
		return 0;
	mutex_lock(&fn->lock);
	cb->seq = fn->seq;
	xa_for_each_range(&fn->switches, id, sw, cb->args[0], last) {
		/* A switch past the cursor's (deleted) one starts at port 1. */
		ftsw_dump_seek(cb, id);
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
