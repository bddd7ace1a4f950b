// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the adaptive routing commands of the "ftsw" generic netlink family
 * (Documentation/netlink.md, "Adaptive routing"): AR_SET stages a
 * switch's port sets and groups, published with the LFTs at COMMIT and
 * dropped with them by LFT_DISCARD; AR_GET dumps them. ar.c has the
 * tables, ll_ar.c the choice.
 */
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "ar.h"
#include "nl.h"
#include "nl_lft.h"
#include "nl_ar.h"

int ftsw_nl_ar_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *sa = info->attrs[FTSW_ATTR_AR_SETS];
	struct nlattr *da = info->attrs[FTSW_ATTR_AR_DATA];
	struct nlattr *fa = info->attrs[FTSW_ATTR_LFT_FIRST_LID];
	struct ftsw_net *fn = ftsw_info_fn(info);
	const struct ftsw_ar *cur;
	struct ftsw_switch *sw;
	const char *msg;
	u32 first = 0;
	u16 nsets;
	int err;

	if (ftsw_req(info, FTSW_ATTR_SWITCH_ID))
		return -EINVAL;
	if (!sa && !da) {
		NL_SET_ERR_MSG(info->extack,
			       "AR_SET needs port sets (AR_SETS) or groups (AR_DATA)");
		return -EINVAL;
	}
	if (da && ftsw_req(info, FTSW_ATTR_LFT_FIRST_LID))
		return -EINVAL;
	if (fa)
		first = nla_get_u16(fa);

	mutex_lock(&fn->lock);
	sw = ftsw_nl_switch(fn, info);
	if (IS_ERR(sw)) {
		err = PTR_ERR(sw);
		goto out;
	}
	cur = sw->ar_staged ?: rcu_dereference_protected(sw->ar,
					lockdep_is_held(&fn->lock));
	nsets = cur ? cur->nsets : 0;
	if (sa) {
		err = ftsw_ar_check_sets(nla_data(sa), nla_len(sa), sw->nports,
					 &msg);
		if (err) {
			ftsw_extack(info->extack, sa, msg);
			goto out;
		}
		nsets = nla_len(sa) / FTSW_AR_SET_BYTES;
	}
	if (da) {
		err = ftsw_ar_check_block(first, nla_data(da), nla_len(da),
					  nsets, &msg);
		if (err) {
			ftsw_extack(info->extack, da, msg);
			goto out;
		}
	}
	err = ftsw_ar_stage(&sw->ar_staged,
			    rcu_dereference_protected(sw->ar,
					lockdep_is_held(&fn->lock)),
			    sa ? nla_data(sa) : NULL, sa ? nla_len(sa) : 0,
			    first, da ? nla_data(da) : NULL,
			    da ? nla_len(da) : 0);
	if (!err)
		ftsw_changed(fn);
out:
	mutex_unlock(&fn->lock);
	return err;
}

/* Group entries that fit the rest of @skb in one more AR_GET message. */
static u32 ftsw_ar_room(const struct sk_buff *skb)
{
	int room = skb_tailroom(skb) - NLMSG_HDRLEN - GENL_HDRLEN -
		   2 * nla_total_size(sizeof(u32)) -
		   nla_total_size(sizeof(u16)) - nla_total_size(0) -
		   NLA_HDRLEN;

	return room > 0 ? round_down(room, NLA_ALIGNTO) : 0;
}

/*
 * The first AR_GET message of a switch: its sets (and, when the table is
 * empty or absent, nothing else).
 */
static int ftsw_ar_fill_sets(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ftsw_switch *sw, const struct ftsw_ar *t,
			     bool staged)
{
	void *hdr = ftsw_dump_put(skb, cb);
	struct nlattr *a;
	u16 k;

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FTSW_ATTR_SWITCH_ID, sw->id) ||
	    nla_put_u32(skb, FTSW_ATTR_AR_SIZE, t ? t->size : 0) ||
	    (staged && nla_put_flag(skb, FTSW_ATTR_SWITCH_STAGED)))
		goto err;
	a = nla_reserve(skb, FTSW_ATTR_AR_SETS,
			(t ? t->nsets : 0) * FTSW_AR_SET_BYTES);
	if (!a)
		goto err;
	for (k = 1; t && k <= t->nsets; k++)
		ftsw_ar_set_bytes(t, k, (u8 *)nla_data(a) +
				  (k - 1) * FTSW_AR_SET_BYTES);
	genlmsg_end(skb, hdr);
	return 0;
err:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* One AR_GET message of groups: @n entries of @t from @lid. */
static int ftsw_ar_fill(struct sk_buff *skb, struct netlink_callback *cb,
			struct ftsw_switch *sw, const struct ftsw_ar *t,
			u32 lid, u32 n, bool staged)
{
	void *hdr = ftsw_dump_put(skb, cb);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FTSW_ATTR_SWITCH_ID, sw->id) ||
	    nla_put_u32(skb, FTSW_ATTR_AR_SIZE, t->size) ||
	    nla_put_u16(skb, FTSW_ATTR_LFT_FIRST_LID, lid) ||
	    nla_put(skb, FTSW_ATTR_AR_DATA, n, t->grp + lid) ||
	    (staged && nla_put_flag(skb, FTSW_ATTR_SWITCH_STAGED))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Dump one switch's groups: its sets (cursor args[1] = 0), then its
 * groups in blocks from LID args[1] - 1, sized to the room in each skb.
 * Only the LIDs up to the last with a group are sent.
 */
static int ftsw_ar_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			    struct ftsw_switch *sw, bool staged)
{
	const struct ftsw_ar *t;
	u32 lid, end;
	int err;

	t = rcu_dereference_protected(sw->ar, lockdep_is_held(&sw->fn->lock));
	staged = staged && sw->ar_staged;
	if (staged)
		t = sw->ar_staged;
	if (!cb->args[1]) {
		err = ftsw_ar_fill_sets(skb, cb, sw, t, staged);
		if (err)
			return err;
		cb->args[1] = 1;
	}
	if (!t)
		return 0;
	for (end = t->size; end && !t->grp[end - 1]; end--)
		;
	lid = cb->args[1] - 1;
	while (lid < end) {
		u32 n = min(end - lid, ftsw_ar_room(skb));

		if (!n)
			return -EMSGSIZE;
		err = ftsw_ar_fill(skb, cb, sw, t, lid, n, staged);
		if (err)
			return err;
		lid += n;
		cb->args[1] = lid + 1;
	}
	return 0;
}

/*
 * Dump groups, optionally only SWITCH_ID's, active or (LFT_STAGED) staged
 * (the staged table if any, else the active). Cursor: switch id args[0],
 * next LID + 1 args[1] (0: the sets message first).
 */
int ftsw_nl_ar_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ftsw_nl_table_dump(skb, cb, ftsw_ar_dump_one);
}
