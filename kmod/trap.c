// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the traps a switch sends (IBA vol. 1, 14.2.5.1). When a port's
 * link changes state, both its InfiniBand ports start over, the switch
 * sets PortStateChange and sends trap 128 to the master SM, LID-routed from
 * its own LID as if the MAD came in by that port (rx.c), again and again
 * until the SM represses it (sma.c takes the TrapRepress). When a port's
 * partition enforcement refuses a packet, pkey.c records it and this
 * sends trap 259 the same way; an SMP the M_Key check refused, trap 256
 * (mkey.c records it), too, until the SM represses it (mkey.c takes the
 * TrapRepress, at the switch or at a CA whose trap 256 it was). Process
 * context. See Documentation/sm.md.
 */
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include "hdr.h"
#include "lft.h"
#include "mad.h"
#include "rx.h"
#include "stats.h"
#include "trap.h"

#define FTSW_TRAP_PORT_CHANGE	128
#define FTSW_TRAP_BAD_PKEY_SW	259	/* at a switch's external port */
#define FTSW_NOTICE_SECURITY	2	/* IBA 13.4.8.2: the notice's type */
/* Trap 259's DataDetails (ib_types.h's ntc_259): offsets, valid bits. */
#define FTSW_T259_VALID		0
#define FTSW_T259_LID1		2
#define FTSW_T259_LID2		4
#define FTSW_T259_PKEY		6
#define FTSW_T259_SL_QP1	8
#define FTSW_T259_SW_LID	48
#define FTSW_T259_PORT		50
#define FTSW_T259_VALID_BITS	0x000f	/* LID1, LID2, P_Key, SL */
#define FTSW_TRAP_SENDS		16	/* a trap is sent at most this often */
#define FTSW_TRAP_TO_MIN	16	/* SubnetTimeOut bounds of its repeats */
#define FTSW_TRAP_TO_MAX	22

static void ftsw_trap_work(struct work_struct *work);
static void ftsw_trap_arm(struct ftsw_switch *sw);

/*
 * Send a MAD the switch @sw originates (a trap; a fabric frame whose LIDs
 * are set), from process context: routed by the LFT, with the drops
 * counted on @in, a port of the switch.
 */
static void ftsw_mad_send(struct ftsw_port *in, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	if (ftsw_lft_lookup(rcu_dereference(in->sw->lft),
			    ntohs(ftsw_hdr(skb)->dlid)))
		ftsw_originate(in, skb);
	else
		ftsw_drop(in, skb, FTSW_DROP_NO_ROUTE);
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * A Notice (IBA vol. 1, 14.2.5.1) of trap @num and @type from the switch's
 * LID @lid to the master SM's, LID-routed: its DataDetails left for the
 * caller to fill and send (ftsw_mad_send()). NULL, counted on @in, when
 * there is no memory for it.
 */
static struct sk_buff *ftsw_notice_alloc(struct ftsw_port *in, u16 sm_lid,
					 u16 lid, u8 sl, u64 tid, u8 type,
					 u16 num, gfp_t gfp,
					 struct ib_mad_notice_attr **np)
{
	struct ib_mad_notice_attr *n;
	struct ib_smp *smp;
	struct sk_buff *skb;

	skb = ftsw_mad_alloc(sm_lid, lid, sl, gfp);
	if (!skb) {
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	smp = (struct ib_smp *)(skb->data + ETH_HLEN + FTSW_HLEN +
				FTSW_MAD_HLEN);
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	smp->class_version = 1;
	smp->method = IB_MGMT_METHOD_TRAP;
	smp->tid = cpu_to_be64(tid);
	smp->attr_id = IB_SMP_ATTR_NOTICE;
	n = (struct ib_mad_notice_attr *)smp->data;
	n->generic_type = 0x80 | type;
	n->prod_type_lsb = IB_NOTICE_PROD_SWITCH;
	n->trap_num = cpu_to_be16(num);
	n->issuer_lid = cpu_to_be16(lid);
	*np = n;
	return skb;
}

/* Trap 128 (link state change): DataDetails the switch's LID. */
static void ftsw_trap128(struct ftsw_port *in, u16 sm_lid, u16 lid, u8 sl,
			 u64 tid, gfp_t gfp)
{
	struct ib_mad_notice_attr *n;
	struct sk_buff *skb;

	skb = ftsw_notice_alloc(in, sm_lid, lid, sl, tid, IB_NOTICE_TYPE_URGENT,
				FTSW_TRAP_PORT_CHANGE, gfp, &n);
	if (!skb)
		return;
	put_unaligned_be16(lid, n->details.raw_data.details);
	ftsw_mad_send(in, skb);
}

/*
 * Trap 259 (bad P_Key at a switch port): the packet's SLID, DLID, P_Key
 * and SL, the switch's LID and the port.
 */
static void ftsw_trap259(struct ftsw_port *in, u16 sm_lid, u16 lid, u8 sl,
			 u64 tid, const struct ftsw_pkey_trap *t)
{
	struct ib_mad_notice_attr *n;
	struct sk_buff *skb;
	u8 *d;

	skb = ftsw_notice_alloc(in, sm_lid, lid, sl, tid, FTSW_NOTICE_SECURITY,
				FTSW_TRAP_BAD_PKEY_SW, GFP_ATOMIC, &n);
	if (!skb)
		return;
	d = n->details.raw_data.details;
	put_unaligned_be16(FTSW_T259_VALID_BITS, d + FTSW_T259_VALID);
	put_unaligned_be16(t->lid1, d + FTSW_T259_LID1);
	put_unaligned_be16(t->lid2, d + FTSW_T259_LID2);
	put_unaligned_be16(t->pkey, d + FTSW_T259_PKEY);
	d[FTSW_T259_SL_QP1] = t->sl << 4;	/* SL, then QP1 0 */
	put_unaligned_be16(lid, d + FTSW_T259_SW_LID);
	d[FTSW_T259_PORT] = t->port;
	ftsw_mad_send(in, skb);
}

static bool ftsw_trap_lids_ok(u16 sm_lid, u16 lid)
{
	return sm_lid && sm_lid <= FTSW_MAX_LID && lid && lid <= FTSW_MAX_LID;
}

/*
 * Time between two sends of an unrepressed trap: the subnet's timeout,
 * 4.096 us * 2^SubnetTimeOut (port 0's, as the SM set it), kept within
 * about 0.27 s .. 17 s.
 */
static unsigned long ftsw_trap_interval(const struct ftsw_switch *sw)
{
	u8 to = clamp_t(u8, READ_ONCE(sw->mgmt.subnet_to), FTSW_TRAP_TO_MIN,
			FTSW_TRAP_TO_MAX);

	return nsecs_to_jiffies(4096ULL << to);
}

/*
 * A port of a switch changed its link state (fn->lock held, process
 * context): both its InfiniBand ports (the switch's and, for an edge port,
 * the CA's) start over in the state a link comes up in, PortStateChange is
 * set and the master SM, if one has said where it is, gets trap 128, sent
 * again until the SM represses it (ftsw_trap_resend).
 */
void ftsw_trap_port_changed(struct ftsw_port *p)
{
	struct ftsw_switch *sw = p->sw;
	struct ftsw_net *fn = sw->fn;
	u8 sl, st = ftsw_ps_linkup(sw);
	u16 sm_lid, lid;
	bool send;
	u64 tid;

	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->sma_lock);
	WRITE_ONCE(p->ib.state, st);
	WRITE_ONCE(p->ca.ib.state, st);
	sw->psc = true;
	sm_lid = sw->mgmt.sm_lid;
	sl = sw->mgmt.sm_sl;
	lid = sw->lid;
	tid = ++sw->trap_tid;
	send = ftsw_trap_lids_ok(sm_lid, lid) && !sw->dead;
	if (send) {
		sw->trap_wait = tid;
		sw->trap_port = p->num;
		sw->trap_sends = 1;
		sw->trap_due = jiffies + ftsw_trap_interval(sw);
	}
	spin_unlock_bh(&fn->sma_lock);
	if (!send)
		return;
	ftsw_trap128(p, sm_lid, lid, sl, tid, GFP_KERNEL);
	ftsw_trap_arm(sw);
}

/*
 * Send the trap waiting for a TrapRepress once more (process context, no
 * lock held). False when there is none to send any more: repressed, sent
 * FTSW_TRAP_SENDS times, the SM or switch LID gone, the port it came from
 * unbound, or the switch deleted.
 */
bool ftsw_trap_resend(struct ftsw_switch *sw)
{
	struct ftsw_net *fn = sw->fn;
	struct ftsw_port *p;
	u16 sm_lid, lid;
	u64 tid;
	u8 sl, num;

	spin_lock_bh(&fn->sma_lock);
	tid = sw->trap_wait;
	sm_lid = sw->mgmt.sm_lid;
	sl = sw->mgmt.sm_sl;
	lid = sw->lid;
	num = sw->trap_port;
	if (!tid || sw->dead || sw->trap_sends >= FTSW_TRAP_SENDS ||
	    !ftsw_trap_lids_ok(sm_lid, lid)) {
		sw->trap_wait = 0;
		spin_unlock_bh(&fn->sma_lock);
		return false;
	}
	sw->trap_sends++;
	sw->trap_due = jiffies + ftsw_trap_interval(sw);
	spin_unlock_bh(&fn->sma_lock);
	rcu_read_lock();
	p = num <= sw->nports ? rcu_dereference(sw->ports[num]) : NULL;
	if (p)
		ftsw_trap128(p, sm_lid, lid, sl, tid, GFP_ATOMIC);
	rcu_read_unlock();
	if (!p) {
		spin_lock_bh(&fn->sma_lock);
		if (sw->trap_wait == tid)
			sw->trap_wait = 0;
		spin_unlock_bh(&fn->sma_lock);
	}
	return p;
}

/*
 * Send trap 259 when recorded, and again while unrepressed, as trap 128 is
 * (process context, no lock held).
 */
void ftsw_trap_pkey_run(struct ftsw_switch *sw)
{
	struct ftsw_pkey_trap *t = &sw->pkey_trap, copy;
	struct ftsw_net *fn = sw->fn;
	struct ftsw_port *p;
	u16 sm_lid, lid;
	u64 tid;
	u8 sl;

	spin_lock_bh(&fn->sma_lock);
	sm_lid = sw->mgmt.sm_lid;
	sl = sw->mgmt.sm_sl;
	lid = sw->lid;
	if ((!t->due && !t->wait) ||
	    (!t->due && time_before(jiffies, t->next))) {
		spin_unlock_bh(&fn->sma_lock);
		return;
	}
	if (sw->dead || t->sends >= FTSW_TRAP_SENDS ||
	    !ftsw_trap_lids_ok(sm_lid, lid)) {
		t->due = false;
		t->wait = 0;
		spin_unlock_bh(&fn->sma_lock);
		return;
	}
	if (t->due) {
		t->due = false;
		t->wait = ++sw->trap_tid;
	}
	tid = t->wait;
	t->sends++;
	t->next = jiffies + ftsw_trap_interval(sw);
	copy = *t;
	spin_unlock_bh(&fn->sma_lock);
	rcu_read_lock();
	p = copy.port <= sw->nports ? rcu_dereference(sw->ports[copy.port]) :
				      NULL;
	if (p)
		ftsw_trap259(p, sm_lid, lid, sl, tid, &copy);
	rcu_read_unlock();
}

/*
 * Have the work run when the next waiting trap is due (now for a trap 259
 * just recorded); nothing when no trap waits.
 */
static void ftsw_trap_arm(struct ftsw_switch *sw)
{
	struct ftsw_pkey_trap *t = &sw->pkey_trap;
	unsigned long now = jiffies, at = 0;
	bool any = false;

	if (!sw->trap_work.work.func)
		return;
	spin_lock_bh(&sw->fn->sma_lock);
	if (sw->trap_wait) {
		at = sw->trap_due;
		any = true;
	}
	if (t->due || t->wait) {
		unsigned long pt = t->due ? now : t->next;

		if (!any || time_before(pt, at))
			at = pt;
		any = true;
	}
	if (sw->mkey_trap.wait) {
		if (!any || time_before(sw->mkey_trap.resend, at))
			at = sw->mkey_trap.resend;
		any = true;
	}
	if (any && !sw->dead)
		mod_delayed_work(system_wq, &sw->trap_work,
				 time_after(at, now) ? at - now : 0);
	spin_unlock_bh(&sw->fn->sma_lock);
}

/*
 * Send trap 256 (bad M_Key) when recorded (mkey.c built its Notice, which
 * replaces the one allocated), and again while unrepressed, as trap 128
 * is: LID-routed from the agent's LID to its master SM, out of the port it
 * recorded (a CA's: its edge port, as the CA would send it). A trap
 * recorded while one waits takes its place. Process context, no lock held.
 */
void ftsw_trap_mkey_run(struct ftsw_switch *sw)
{
	struct ftsw_mkey_trap *t = &sw->mkey_trap, copy;
	struct ftsw_net *fn = sw->fn;
	struct ib_mad_notice_attr *n;
	struct sk_buff *skb;
	struct ftsw_port *p;

	spin_lock_bh(&fn->sma_lock);
	if (t->due) {
		t->due = false;
		t->wait = ++sw->trap_tid;
		t->sends = 0;
	} else if (!t->wait || time_before(jiffies, t->resend)) {
		spin_unlock_bh(&fn->sma_lock);
		return;
	}
	if (sw->dead || t->sends >= FTSW_TRAP_SENDS) {
		t->wait = 0;
		spin_unlock_bh(&fn->sma_lock);
		return;
	}
	t->sends++;
	t->resend = jiffies + ftsw_trap_interval(sw);
	copy = *t;
	spin_unlock_bh(&fn->sma_lock);
	rcu_read_lock();
	p = copy.port <= sw->nports ? rcu_dereference(sw->ports[copy.port]) :
				      NULL;
	skb = p ? ftsw_notice_alloc(p, copy.sm_lid, copy.lid, copy.sl,
				    copy.wait, FTSW_NOTICE_SECURITY, 256,
				    GFP_ATOMIC, &n) : NULL;
	if (skb) {
		memcpy(n, copy.notice, sizeof(copy.notice));
		ftsw_mad_send(p, skb);
	}
	rcu_read_unlock();
}

static void ftsw_trap_mkey_work(struct work_struct *work)
{
	struct ftsw_switch *sw = container_of(work, struct ftsw_switch,
					      mkey_work);

	ftsw_trap_mkey_run(sw);
	ftsw_trap_arm(sw);
}

static void ftsw_trap_work(struct work_struct *work)
{
	struct ftsw_switch *sw = container_of(to_delayed_work(work),
					      struct ftsw_switch, trap_work);
	bool due;

	spin_lock_bh(&sw->fn->sma_lock);
	due = sw->trap_wait && !time_before(jiffies, sw->trap_due);
	spin_unlock_bh(&sw->fn->sma_lock);
	if (due)
		ftsw_trap_resend(sw);
	ftsw_trap_pkey_run(sw);
	ftsw_trap_mkey_run(sw);
	ftsw_trap_arm(sw);
}

/* A new switch: its trap repeats by this work, trap 256 by that. */
void ftsw_trap_init(struct ftsw_switch *sw)
{
	INIT_DELAYED_WORK(&sw->trap_work, ftsw_trap_work);
	INIT_WORK(&sw->mkey_work, ftsw_trap_mkey_work);
}
