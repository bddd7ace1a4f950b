// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: a port as replies and events show it (PORT_GET, the port events):
 * its binding, kind and state, an edge port's path policy and CA, its
 * counters, its lossless settings and, in lossless mode, its VLs' state.
 * The lossless settings (lifetimes, high limit, arbitration tables) are
 * the very registers the SMA serves (struct ftsw_ibport, sma.c), read
 * under fn->sma_lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "ll_queue.h"
#include "nl_mcast.h"
#include "nl_pkey.h"
#include "sma.h"
#include "stats.h"
#include "nl_fill.h"

int ftsw_put_drops(struct sk_buff *msg, int type, const u64 *drops)
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
			      FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_AR_DIVERTED,
			      st.ev[FTSW_EV_AR_DIVERTED], FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_OUT_OF_ORDER,
			      st.ev[FTSW_EV_OUT_OF_ORDER], FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_CC_FECN,
			      st.ev[FTSW_EV_CC_FECN], FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_CC_CNP,
			      st.ev[FTSW_EV_CC_CNP], FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_CC_BECN,
			      st.ev[FTSW_EV_CC_BECN], FTSW_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTSW_STATS_CC_HELD,
			      st.ev[FTSW_EV_CC_HELD], FTSW_STATS_PAD))
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

static int ftsw_ll_put_vl_stats(struct sk_buff *msg, struct ftsw_port *p)
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

/* An edge port's CA in a port reply or event (fn->lock held). */
static int ftsw_nl_put_ca(struct sk_buff *msg, const struct ftsw_port *p)
{
	if (p->kind != FTSW_PORT_EDGE)
		return 0;
	if (p->ca.desc[0] &&
	    nla_put_string(msg, FTSW_ATTR_PORT_NODE_DESC, p->ca.desc))
		return -EMSGSIZE;
	return nla_put_u64_64bit(msg, FTSW_ATTR_PORT_CA_GUID, ftsw_ca_guid(p),
				 FTSW_ATTR_PAD);
}

/*
 * An edge port's SL table in a reply: its length and, when they are at
 * most FTSW_SL_TABLE_ECHO, its entries up to the last one that differs
 * from the default SL (past the end the default applies: the same).
 */
static int ftsw_nl_put_sl_table(struct sk_buff *msg,
				const struct ftsw_policy *pol)
{
	u32 n = pol->sl_len;

	if (!n)
		return 0;
	while (n && pol->sl[n - 1] == pol->default_sl)
		n--;
	if (nla_put_u32(msg, FTSW_ATTR_PORT_SL_TABLE_LEN, pol->sl_len))
		return -EMSGSIZE;
	if (n > FTSW_SL_TABLE_ECHO)
		return 0;
	return nla_put(msg, FTSW_ATTR_PORT_SL_TABLE, n, pol->sl);
}

/* A port's attributes in the message begun at @hdr (NULL: no room). */
int ftsw_fill_port(struct sk_buff *msg, struct ftsw_port *p,
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
	     nla_put_u8(msg, FTSW_ATTR_PORT_SL, pol->default_sl) ||
	     ftsw_nl_put_sl_table(msg, pol)))
		goto nla_fail;
	if (ftsw_nl_put_ca(msg, p))
		goto nla_fail;
	if (!reason &&
	    (nla_put_u8(msg, FTSW_ATTR_PORT_STATE,
			ftsw_ib_port_state(p, &p->ib)) ||
	     ftsw_put_stats(msg, p) || ftsw_nl_put_port_ll(msg, p) ||
	     ftsw_nl_put_pkeys(msg, p) || ftsw_nl_put_mcast(msg, p) ||
	     ftsw_nl_put_mkeys(msg, p)))
		goto nla_fail;
	genlmsg_end(msg, hdr);
	return 0;
nla_fail:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}
