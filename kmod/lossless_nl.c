// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the lossless-mode settings over netlink (Documentation/netlink.md):
 * a switch's lifetime, a port's rate, buffer sizes, HOQLife and VL
 * arbitration, and the per-VL state of its buffers. The lifetimes, the
 * high limit and the arbitration tables are the very registers the SMA
 * serves (struct ftsw_ibport, sma.c): a netlink set and an SMP Set write
 * the same fields, under fn->sma_lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "ftsw.h"
#include "ftsw_nl.h"

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
int ftsw_nl_port_ll_check(struct genl_info *info)
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
void ftsw_nl_port_ll_apply(struct ftsw_port *p, struct genl_info *info)
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

/* A port's VLs in lossless mode, one snapshot under the switch's lock. */
struct ftsw_ll_snap {
	u32 in_bytes, in_pkts, out_bytes, out_pkts, credits;
	u64 in_wait, out_wait, hoq, life, head_wait, credit_wait;
	u8 head_port, head_vl;
	bool blocked, waiting;
};

static void ftsw_ll_snap(struct ftsw_port *p, struct ftsw_ll_snap *s)
{
	struct ftsw_port *peer;
	u64 now = ktime_get_ns();
	int i;

	rcu_read_lock();
	spin_lock_bh(&p->sw->ll_lock);
	peer = p->kind == FTSW_PORT_LINK ? ftsw_ll_peer(p) : NULL;
	for (i = 0; i < FTSW_NUM_DATA_VL; i++, s++) {
		struct ftsw_ll_vl *v = &p->ll->vl[i];

		s->in_bytes = v->in_bytes;
		s->in_pkts = skb_queue_len(&v->in);
		s->out_bytes = v->out_bytes;
		s->out_pkts = skb_queue_len(&v->out);
		s->credits = ftsw_ll_credits(p, peer, i);
		s->in_wait = v->in_wait_ns;
		s->out_wait = v->out_wait_ns;
		s->hoq = v->hoq_discards;
		s->life = v->life_discards;
		s->blocked = v->blocked_since;
		s->head_wait = v->blocked_since ?
			       ftsw_ll_age(now, v->blocked_since) : 0;
		s->head_port = v->head_port;
		s->head_vl = v->head_vl;
		s->waiting = v->credit_since;
		s->credit_wait = v->credit_since ?
				 ftsw_ll_age(now, v->credit_since) : 0;
	}
	spin_unlock_bh(&p->sw->ll_lock);
	rcu_read_unlock();
}

static int ftsw_ll_put_vl(struct sk_buff *msg, int type,
			  const struct ftsw_ll_snap *s)
{
	struct nlattr *nest = nla_nest_start(msg, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FTSW_VLSTAT_IN_BYTES, s->in_bytes) ||
	    nla_put_u32(msg, FTSW_VLSTAT_IN_PACKETS, s->in_pkts) ||
	    nla_put_u32(msg, FTSW_VLSTAT_OUT_BYTES, s->out_bytes) ||
	    nla_put_u32(msg, FTSW_VLSTAT_OUT_PACKETS, s->out_pkts) ||
	    (s->credits != U32_MAX &&
	     nla_put_u32(msg, FTSW_VLSTAT_CREDITS, s->credits)) ||
	    nla_put_u64_64bit(msg, FTSW_VLSTAT_IN_WAIT_NS, s->in_wait,
			      FTSW_VLSTAT_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_VLSTAT_OUT_WAIT_NS, s->out_wait,
			      FTSW_VLSTAT_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_VLSTAT_HOQ_DISCARDS, s->hoq,
			      FTSW_VLSTAT_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_VLSTAT_LIFE_DISCARDS, s->life,
			      FTSW_VLSTAT_PAD))
		goto err;
	if (s->blocked &&
	    (nla_put_u8(msg, FTSW_VLSTAT_HEAD_PORT, s->head_port) ||
	     nla_put_u8(msg, FTSW_VLSTAT_HEAD_VL, s->head_vl) ||
	     nla_put_u64_64bit(msg, FTSW_VLSTAT_HEAD_WAIT_NS, s->head_wait,
			       FTSW_VLSTAT_PAD)))
		goto err;
	if (s->waiting &&
	    nla_put_u64_64bit(msg, FTSW_VLSTAT_OUT_CREDIT_WAIT_NS,
			      s->credit_wait, FTSW_VLSTAT_PAD))
		goto err;
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

int ftsw_ll_put_vl_stats(struct sk_buff *msg, struct ftsw_port *p)
{
	struct ftsw_ll_snap *snap;
	struct nlattr *nest;
	int i, err = -EMSGSIZE;

	snap = kcalloc(FTSW_NUM_DATA_VL, sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	ftsw_ll_snap(p, snap);
	nest = nla_nest_start(msg, FTSW_ATTR_PORT_VL_STATS);
	if (!nest)
		goto out;
	for (i = 0; i < FTSW_NUM_DATA_VL; i++) {
		const struct ftsw_ll_snap *s = &snap[i];

		if (i && !s->in_bytes && !s->out_bytes && !s->in_wait &&
		    !s->out_wait && !s->hoq && !s->life && !s->waiting)
			continue;
		if (ftsw_ll_put_vl(msg, i + 1, s)) {
			nla_nest_cancel(msg, nest);
			goto out;
		}
	}
	nla_nest_end(msg, nest);
	err = 0;
out:
	kfree(snap);
	return err;
}

/* A port's lossless settings and, in lossless mode, its VLs' state. */
int ftsw_nl_put_port_ll(struct sk_buff *msg, struct ftsw_port *p)
{
	struct ftsw_net *fn = p->sw->fn;
	u8 arb[2][2 * FTSW_VLARB_CAP];
	u8 hoq, limit;

	spin_lock_bh(&fn->sma_lock);
	hoq = p->ib.hoq & 0x1f;
	limit = p->ib.vl_high_limit;
	memcpy(arb, p->ib.vlarb, sizeof(arb));
	spin_unlock_bh(&fn->sma_lock);
	if (nla_put_u64_64bit(msg, FTSW_ATTR_PORT_RATE, p->rate,
			      FTSW_ATTR_PAD) ||
	    nla_put_u32(msg, FTSW_ATTR_PORT_IN_BUF, p->in_buf) ||
	    nla_put_u32(msg, FTSW_ATTR_PORT_OUT_BUF, p->out_buf) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_HOQ_LIFE, hoq) ||
	    nla_put_u8(msg, FTSW_ATTR_PORT_VL_HIGH_LIMIT, limit) ||
	    nla_put(msg, FTSW_ATTR_PORT_VLARB_HIGH, sizeof(arb[1]), arb[1]) ||
	    nla_put(msg, FTSW_ATTR_PORT_VLARB_LOW, sizeof(arb[0]), arb[0]))
		return -EMSGSIZE;
	return p->ll ? ftsw_ll_put_vl_stats(msg, p) : 0;
}
