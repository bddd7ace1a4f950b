// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: multicast in netlink (Documentation/netlink.md, "Multicast"). An
 * edge port's PORT_MCAST lists its host's IP multicast groups with the
 * MLID, P_Key and SL of each (what the SA answered the host's joins), as
 * struct ftsw_mcast_ent entries; the table is replaced as a whole with RCU
 * (an empty attribute removes it). The switches' MFTs are the SM's (SMPs).
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include "mcast.h"
#include "nl_mcast.h"

/* PORT_SET's PORT_MCAST for port @p, before anything is set. */
int ftsw_nl_mcast_check(struct genl_info *info, const struct ftsw_port *p)
{
	struct nlattr *a = info->attrs[FTSW_ATTR_PORT_MCAST];
	const char *msg;

	if (!a)
		return 0;
	if (p->kind != FTSW_PORT_EDGE) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "edge port attribute on a link port");
		return -EINVAL;
	}
	if (nla_len(a) % sizeof(struct ftsw_mcast_ent)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "not a whole number of struct ftsw_mcast_ent");
		return -EINVAL;
	}
	if (ftsw_mcast_tab_check(nla_data(a),
				 nla_len(a) / sizeof(struct ftsw_mcast_ent),
				 &msg)) {
		/* msg: one of mcast.c's literals */
		if (info->extack) {
			info->extack->_msg = msg;
			NL_SET_BAD_ATTR(info->extack, a);
		}
		return -EINVAL;
	}
	return 0;
}

/* Apply it (checked; fn->lock held). */
int ftsw_nl_mcast_apply(struct ftsw_port *p, struct genl_info *info)
{
	struct nlattr *a = info->attrs[FTSW_ATTR_PORT_MCAST];
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_mcast_tab *old, *n = NULL;
	u32 len;

	lockdep_assert_held(&fn->lock);
	if (!a)
		return 0;
	len = nla_len(a) / sizeof(struct ftsw_mcast_ent);
	if (len) {
		n = ftsw_mcast_tab_alloc(len, GFP_KERNEL_ACCOUNT);
		if (!n) {
			NL_SET_ERR_MSG(info->extack,
				       "no memory for the multicast groups");
			return -ENOMEM;
		}
		memcpy(n->e, nla_data(a), nla_len(a));
	}
	old = rcu_replace_pointer(p->mcast, n, lockdep_is_held(&fn->lock));
	if (old)
		kfree_rcu(old, rcu);
	ftsw_changed(fn);
	return 0;
}

/* An edge port's groups in a reply (fn->lock held), when it has some. */
int ftsw_nl_put_mcast(struct sk_buff *msg, struct ftsw_port *p)
{
	const struct ftsw_mcast_tab *t;

	if (p->kind != FTSW_PORT_EDGE)
		return 0;
	t = rcu_dereference_protected(p->mcast,
				      lockdep_is_held(&p->sw->fn->lock));
	if (!t || !t->n)
		return 0;
	return nla_put(msg, FTSW_ATTR_PORT_MCAST, t->n * sizeof(t->e[0]), t->e);
}
