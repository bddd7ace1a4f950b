// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the LFT, SL2VL and commit commands of the "ftsw" generic netlink
 * family (netlink.c has the family and its operations table).
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "ar.h"
#include "fabric.h"
#include "lft.h"
#include "nl.h"
#include "nl_policy.h"
#include "resolve.h"
#include "nl_lft.h"

int ftsw_nl_lft_set(struct sk_buff *skb, struct genl_info *info)
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

int ftsw_nl_lft_discard(struct sk_buff *skb, struct genl_info *info)
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
			ftsw_ar_free(sw->ar_staged);
			sw->ar_staged = NULL;
		}
	} else {
		xa_for_each(&fn->switches, id, sw) {
			ftsw_lft_free(sw->staged);
			sw->staged = NULL;
			ftsw_ar_free(sw->ar_staged);
			sw->ar_staged = NULL;
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
 * Dump a table of every switch (LFT_GET's attributes: optionally only
 * SWITCH_ID's, the active or (LFT_STAGED) the staged view), one switch at
 * a time by @one. The cursor is (switch id args[0], @one's position in the
 * switch args[1]); a switch past the cursor's (deleted) one starts at 0.
 */
int ftsw_nl_table_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       ftsw_table_dump_fn one)
{
	struct ftsw_net *fn = ftsw_net(sock_net(skb->sk));
	struct nlattr *tb[ARRAY_SIZE(ftsw_lft_get_policy)];
	unsigned long id, last;
	struct ftsw_switch *sw;
	bool staged;
	int err;

	err = ftsw_dump_parse(cb, tb, ftsw_lft_get_policy);
	if (err)
		return err;
	staged = nla_get_flag(tb[FTSW_ATTR_LFT_STAGED]);
	if (!ftsw_dump_switches(cb, tb[FTSW_ATTR_SWITCH_ID], &last))
		return 0;
	mutex_lock(&fn->lock);
	cb->seq = fn->seq;
	xa_for_each_range(&fn->switches, id, sw, cb->args[0], last) {
		ftsw_dump_seek(cb, id);
		err = one(skb, cb, sw, staged);
		if (err)
			break;
		cb->args[0] = id + 1;
		cb->args[1] = 0;
	}
	mutex_unlock(&fn->lock);
	return ftsw_dump_ret(skb, err);
}

/* Dump LFTs: args[1] is the next LID. */
int ftsw_nl_lft_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ftsw_nl_table_dump(skb, cb, ftsw_lft_dump_one);
}

int ftsw_nl_sl2vl_set(struct sk_buff *skb, struct genl_info *info)
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

int ftsw_nl_commit(struct sk_buff *skb, struct genl_info *info)
{
	return ftsw_nl_reply(info, FTSW_CMD_COMMIT, ftsw_fill_commit);
}
