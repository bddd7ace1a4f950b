// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: partitions in netlink (Documentation/netlink.md, "Partitions").
 * An edge port's host sends with the P_Key of PORT_PKEY_TABLE for the
 * destination LID, else PORT_PKEY, else its CA's P_KeyTable entry 0
 * (pkey.c); the table is replaced as a whole with RCU. PORT_PKEYS (the
 * switch port's P_KeyTable), PORT_CA_PKEYS (an edge port's CA's) and
 * PORT_ENFORCE are the registers a subnet manager writes with SMPs
 * (P_KeyTable, PortInfo's enforcement bits), written here under
 * fn->sma_lock as sma.c writes them, for a lab without an SM. Replies
 * also show the agents' management keys (PORT_MKEY, PORT_CA_MKEY: read
 * only; an SM writes them in band, mkey.c).
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include "mkey.h"
#include "pkey.h"
#include "nl_pkey.h"

/* The edge port's own attributes, refused on a link port. */
static const int ftsw_pkey_edge_attrs[] = {
	FTSW_ATTR_PORT_PKEY, FTSW_ATTR_PORT_PKEY_TABLE, FTSW_ATTR_PORT_CA_PKEYS,
};

/* A P_KeyTable of u16 keys: whole entries, at most one block. */
static int ftsw_nl_pkeys_check(struct genl_info *info, int type)
{
	struct nlattr *a = info->attrs[type];

	if (a && nla_len(a) % 2) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "a P_Key table is a whole number of 16-bit keys");
		return -EINVAL;
	}
	return 0;
}

/* PORT_SET's partition attributes for port @p, before anything is set. */
int ftsw_nl_pkey_check(struct genl_info *info, const struct ftsw_port *p)
{
	struct nlattr *t = info->attrs[FTSW_ATTR_PORT_PKEY_TABLE];
	struct nlattr *d = info->attrs[FTSW_ATTR_PORT_PKEY];
	const char *msg;
	int i, err;

	if (p->kind != FTSW_PORT_EDGE) {
		for (i = 0; i < ARRAY_SIZE(ftsw_pkey_edge_attrs); i++) {
			struct nlattr *a = info->attrs[ftsw_pkey_edge_attrs[i]];

			if (a) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "edge port attribute on a link port");
				return -EINVAL;
			}
		}
	}
	if (d && nla_get_u16(d) && !(nla_get_u16(d) & FTSW_PKEY_BASE)) {
		NL_SET_ERR_MSG_ATTR(info->extack, d,
				    "P_Key 0x8000 is invalid (0: the CA's entry 0)");
		return -EINVAL;
	}
	err = ftsw_nl_pkeys_check(info, FTSW_ATTR_PORT_PKEY_TABLE) ?:
	      ftsw_nl_pkeys_check(info, FTSW_ATTR_PORT_PKEYS) ?:
	      ftsw_nl_pkeys_check(info, FTSW_ATTR_PORT_CA_PKEYS);
	if (err || !t)
		return err;
	if (ftsw_pkey_tab_check(nla_data(t), nla_len(t) / 2, &msg)) {
		/* msg: one of pkey.c's literals */
		if (info->extack) {
			info->extack->_msg = msg;
			NL_SET_BAD_ATTR(info->extack, t);
		}
		return -EINVAL;
	}
	return 0;
}

/* A new table by DLID from the request and what @old had. */
static struct ftsw_pkey_tab *ftsw_nl_pkey_tab(struct genl_info *info,
					      const struct ftsw_pkey_tab *old)
{
	struct nlattr *t = info->attrs[FTSW_ATTR_PORT_PKEY_TABLE];
	struct nlattr *d = info->attrs[FTSW_ATTR_PORT_PKEY];
	u32 len = t ? nla_len(t) / 2 : (old ? old->len : 0);
	struct ftsw_pkey_tab *n;

	n = ftsw_pkey_tab_alloc(len, GFP_KERNEL_ACCOUNT);
	if (!n)
		return NULL;
	n->dflt = d ? nla_get_u16(d) : (old ? old->dflt : 0);
	if (t)
		memcpy(n->key, nla_data(t), 2 * len);
	else if (old)
		memcpy(n->key, old->key, 2 * len);
	return n;
}

static void ftsw_nl_pkeys_set(u16 *tab, const struct nlattr *a)
{
	u32 i, n = min_t(u32, nla_len(a) / 2, FTSW_PKEY_CAP);
	const u16 *k = nla_data(a);

	for (i = 0; i < FTSW_PKEY_CAP; i++)
		WRITE_ONCE(tab[i], i < n ? k[i] : 0);
}

/* Apply them (checked; fn->lock held). */
int ftsw_nl_pkey_apply(struct ftsw_port *p, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_pkey_tab *old, *n;

	lockdep_assert_held(&fn->lock);
	if (a[FTSW_ATTR_PORT_PKEY] || a[FTSW_ATTR_PORT_PKEY_TABLE]) {
		old = rcu_dereference_protected(p->pkey_tab,
						lockdep_is_held(&fn->lock));
		n = ftsw_nl_pkey_tab(info, old);
		if (!n) {
			NL_SET_ERR_MSG(info->extack,
				       "no memory for the P_Key table");
			return -ENOMEM;
		}
		rcu_assign_pointer(p->pkey_tab, n);
		if (old)
			kfree_rcu(old, rcu);
	}
	if (a[FTSW_ATTR_PORT_PKEYS] || a[FTSW_ATTR_PORT_CA_PKEYS] ||
	    a[FTSW_ATTR_PORT_ENFORCE]) {
		spin_lock_bh(&fn->sma_lock);
		if (a[FTSW_ATTR_PORT_PKEYS])
			ftsw_nl_pkeys_set(p->pkeys, a[FTSW_ATTR_PORT_PKEYS]);
		if (a[FTSW_ATTR_PORT_CA_PKEYS])
			ftsw_nl_pkeys_set(p->ca.mgmt.pkey,
					  a[FTSW_ATTR_PORT_CA_PKEYS]);
		if (a[FTSW_ATTR_PORT_ENFORCE])
			WRITE_ONCE(p->ib.enforce,
				   nla_get_u8(a[FTSW_ATTR_PORT_ENFORCE]));
		spin_unlock_bh(&fn->sma_lock);
	}
	ftsw_changed(fn);
	return 0;
}

/*
 * A port's partition attributes in a reply (fn->lock held): its
 * P_KeyTable and enforcement, and for an edge port the CA's table, the
 * default key and the table by DLID (its length, and its entries up to
 * the last non-zero one when at most FTSW_PKEY_TABLE_ECHO).
 */
int ftsw_nl_put_pkeys(struct sk_buff *msg, struct ftsw_port *p)
{
	const struct ftsw_pkey_tab *t;
	u16 k[FTSW_PKEY_CAP];
	u32 i, n;

	for (i = 0; i < FTSW_PKEY_CAP; i++)
		k[i] = READ_ONCE(p->pkeys[i]);
	if (nla_put(msg, FTSW_ATTR_PORT_PKEYS, sizeof(k), k) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_ENFORCE, READ_ONCE(p->ib.enforce)))
		return -EMSGSIZE;
	if (p->kind != FTSW_PORT_EDGE)
		return 0;
	for (i = 0; i < FTSW_PKEY_CAP; i++)
		k[i] = READ_ONCE(p->ca.mgmt.pkey[i]);
	if (nla_put(msg, FTSW_ATTR_PORT_CA_PKEYS, sizeof(k), k))
		return -EMSGSIZE;
	t = rcu_dereference_protected(p->pkey_tab,
				      lockdep_is_held(&p->sw->fn->lock));
	if (!t)
		return 0;
	n = t->len;
	while (n && !t->key[n - 1])
		n--;
	if (nla_put_u16(msg, FTSW_ATTR_PORT_PKEY, t->dflt) ||
	    nla_put_u32(msg, FTSW_ATTR_PORT_PKEY_TABLE_LEN, t->len))
		return -EMSGSIZE;
	if (!n || n > FTSW_PKEY_TABLE_ECHO)
		return 0;
	return nla_put(msg, FTSW_ATTR_PORT_PKEY_TABLE, 2 * n, t->key);
}

/*
 * An agent's management key registers in a nest of enum ftsw_mkey_attr,
 * as the next SMP finds them (a lease that ran out applied): copied under
 * fn->sma_lock, put after it.
 */
static int ftsw_nl_put_mkey(struct sk_buff *msg, int type, struct ftsw_net *fn,
			    struct ftsw_mgmt *mg)
{
	u16 lease, viol;
	struct nlattr *nest;
	u32 left = 0;
	u8 prot;
	u64 key;

	spin_lock_bh(&fn->sma_lock);
	ftsw_mkey_expire(mg);
	key = mg->mkey;
	prot = mg->mkey_prot;
	lease = mg->mkey_lease;
	viol = mg->mkey_violations;
	if (mg->mkey_timing)
		left = jiffies_to_msecs(mg->mkey_end - jiffies) ?: 1;
	spin_unlock_bh(&fn->sma_lock);
	nest = nla_nest_start(msg, type);
	if (!nest ||
	    nla_put_u64_64bit(msg, FTSW_MKEY_ATTR_KEY, key, FTSW_MKEY_ATTR_PAD) ||
	    nla_put_u8(msg, FTSW_MKEY_ATTR_PROTECT, prot) ||
	    nla_put_u16(msg, FTSW_MKEY_ATTR_LEASE, lease) ||
	    (left && nla_put_u32(msg, FTSW_MKEY_ATTR_LEASE_LEFT, left)) ||
	    nla_put_u16(msg, FTSW_MKEY_ATTR_VIOLATIONS, viol))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* The management keys of a port's agents: the switch's, an edge's CA's. */
int ftsw_nl_put_mkeys(struct sk_buff *msg, struct ftsw_port *p)
{
	struct ftsw_switch *sw = p->sw;

	if (ftsw_nl_put_mkey(msg, FTSW_ATTR_PORT_MKEY, sw->fn, &sw->mgmt))
		return -EMSGSIZE;
	if (p->kind != FTSW_PORT_EDGE)
		return 0;
	return ftsw_nl_put_mkey(msg, FTSW_ATTR_PORT_CA_MKEY, sw->fn,
				&p->ca.mgmt);
}
