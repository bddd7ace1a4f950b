// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: management keys (IBA vol. 1, 14.2.4). Each agent (a switch's, for
 * all its ports, and each CA's) holds the PortInfo registers an SM keys it
 * with: M_Key, M_KeyProtectBits, M_KeyLeasePeriod, M_KeyViolations. An SMP
 * whose M_Key field is not the agent's (an agent with M_Key 0 takes any)
 * is refused, not answered, by protection level:
 *
 *   level 0: a Get is answered, M_Key in PortInfo; Set, TrapRepress refused
 *   level 1: a Get is answered with PortInfo's M_Key zeroed; the rest as 0
 *   level 2: Get, Set and TrapRepress refused
 *   level 3: as 2 (as Linux's hfi1 and qib agents do)
 *
 * A refusal counts in M_KeyViolations (saturating at 0xFFFF), starts the
 * lease timer unless it runs (M_KeyLeasePeriod seconds; 0: no lease) and
 * records trap 256 for the master SM (trap.c sends it until the SM's
 * TrapRepress, which ftsw_mkey_repress() takes). An SMP with the
 * key stops the timer; when it runs out, the protection bits go to 0.
 * The timer is looked at when an SMP reaches the agent, the only way its
 * effect can be seen. Not checked (sma.c): the host's local interface
 * (FTSW_ATTR_LOCAL_CAP), and a host's Gets of its own CA with hop count 0,
 * which stand for its driver's port queries (Linux's ib_query_port() and
 * sysfs pass IB_MAD_IGNORE_MKEY; the lab's gateway answers umad_get_port()
 * with them); its hop-0 Sets are checked. Runs in softirq under
 * fn->sma_lock.
 */
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include "mkey.h"

#define FTSW_MKEY_PROT_SHIFT	6	/* PortInfo byte 41, bits 7:6 */
#define FTSW_TRAP_RATE		(HZ / 4)	/* one trap 256 per switch */

static_assert(sizeof(struct ib_mad_notice_attr) == FTSW_NOTICE_LEN);

static bool ftsw_mkey_lid_ok(u16 lid)
{
	return lid && lid <= FTSW_MAX_LID;
}

/*
 * Record trap 256 (bad M_Key, IBA vol. 1, 14.2.5.1) from the agent at LID
 * @lid: the SMP's method, attribute, modifier and key, and for a directed
 * route its DrSLID, hop count and ReturnPath (cut to 30 bytes, bit 6 of
 * DRNotice/TruncHop then set). One waits at a time per switch (a new one
 * takes the place of one not repressed yet), and one is recorded at most
 * every FTSW_TRAP_RATE: an SM without the key whose TrapRepress is refused
 * in turn does not start a storm.
 */
static void ftsw_mkey_trap(struct ftsw_switch *sw, const struct ftsw_mgmt *mg,
			   bool ca, u8 port, u16 lid, const struct ib_smp *smp)
{
	struct ftsw_mkey_trap *t = &sw->mkey_trap;
	struct ib_mad_notice_attr *n = (void *)t->notice;
	u8 hops;

	if (t->due || sw->dead || !port || time_before(jiffies, t->next) ||
	    !ftsw_mkey_lid_ok(lid) || !ftsw_mkey_lid_ok(mg->sm_lid))
		return;
	memset(n, 0, sizeof(*n));
	n->generic_type = IB_NOTICE_TYPE_SECURITY;
	n->prod_type_lsb = ca ? IB_NOTICE_PROD_CA : IB_NOTICE_PROD_SWITCH;
	n->trap_num = IB_NOTICE_TRAP_BAD_MKEY;
	n->issuer_lid = cpu_to_be16(lid);
	n->details.ntc_256.lid = cpu_to_be16(lid);
	n->details.ntc_256.method = smp->method;
	n->details.ntc_256.attr_id = smp->attr_id;
	n->details.ntc_256.attr_mod = smp->attr_mod;
	n->details.ntc_256.mkey = smp->mkey;
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		hops = min_t(u8, smp->hop_cnt, IB_SMP_MAX_PATH_HOPS - 1);
		n->details.ntc_256.dr_slid = smp->dr_slid;
		n->details.ntc_256.dr_trunc_hop = IB_NOTICE_TRAP_DR_NOTICE |
						   hops;
		if (hops + 1 > sizeof(n->details.ntc_256.dr_rtn_path))
			n->details.ntc_256.dr_trunc_hop |=
				IB_NOTICE_TRAP_DR_TRUNC;
		memcpy(n->details.ntc_256.dr_rtn_path, smp->return_path,
		       min_t(size_t, hops + 1,
			     sizeof(n->details.ntc_256.dr_rtn_path)));
	}
	t->due = true;
	t->ca = ca;
	t->port = port;
	t->lid = lid;
	t->sm_lid = mg->sm_lid;
	t->sl = mg->sm_sl & 0xf;
	t->next = jiffies + FTSW_TRAP_RATE;
	if (sw->mkey_work.func)
		schedule_work(&sw->mkey_work);
}

/* A lease that ran out takes the protection bits to 0 (fn->sma_lock). */
void ftsw_mkey_expire(struct ftsw_mgmt *mg)
{
	if (mg->mkey_timing && time_after_eq(jiffies, mg->mkey_end)) {
		mg->mkey_timing = false;
		mg->mkey_prot = 0;
	}
}

/*
 * The M_Key check of an SMP (a Get, Set or TrapRepress) at a switch's
 * agent (@ca NULL; come in by @inp) or at the CA of edge port @ca.
 */
enum ftsw_mkey ftsw_mkey_check(struct ftsw_switch *sw, struct ftsw_port *ca,
			       u8 inp, const struct ib_smp *smp)
{
	struct ftsw_mgmt *mg = ca ? &ca->ca.mgmt : &sw->mgmt;
	const struct ftsw_policy *pol;
	u16 lid;

	lockdep_assert_held(&sw->fn->sma_lock);
	ftsw_mkey_expire(mg);
	if (!mg->mkey || be64_to_cpu(smp->mkey) == mg->mkey) {
		mg->mkey_timing = false;
		return FTSW_MKEY_OK;
	}
	if (smp->method == IB_MGMT_METHOD_GET && mg->mkey_prot < 2)
		return mg->mkey_prot ? FTSW_MKEY_HIDE : FTSW_MKEY_OK;
	if (mg->mkey_violations != 0xffff)
		mg->mkey_violations++;
	if (!mg->mkey_timing && mg->mkey_lease && mg->mkey_prot) {
		mg->mkey_timing = true;
		mg->mkey_end = jiffies + mg->mkey_lease * HZ;
	}
	if (ca) {
		pol = rcu_dereference(ca->policy);
		lid = pol ? pol->base_lid : 0;
		inp = ca->num;
	} else {
		lid = READ_ONCE(sw->lid);
	}
	ftsw_mkey_trap(sw, mg, !!ca, inp, lid, smp);
	return FTSW_MKEY_REFUSED;
}

/* PortInfo's M_Key fields as a Get answers them (@hide: M_Key 0). */
void ftsw_mkey_pi_get(const struct ftsw_mgmt *mg, bool hide,
		      struct ib_port_info *pi)
{
	pi->mkey = hide ? 0 : cpu_to_be64(mg->mkey);
	pi->mkey_lease_period = cpu_to_be16(mg->mkey_lease);
	pi->mkeyprot_resv_lmc |= mg->mkey_prot << FTSW_MKEY_PROT_SHIFT;
	pi->mkey_violations = cpu_to_be16(mg->mkey_violations);
}

/*
 * A PortInfo Set that passed the check: its M_Key fields become the
 * agent's; M_KeyViolations is only reset (written 0), as Linux's agents do.
 */
void ftsw_mkey_pi_set(struct ftsw_mgmt *mg, const struct ib_port_info *pi)
{
	mg->mkey = be64_to_cpu(pi->mkey);
	mg->mkey_prot = pi->mkeyprot_resv_lmc >> FTSW_MKEY_PROT_SHIFT;
	mg->mkey_lease = be16_to_cpu(pi->mkey_lease_period);
	if (!pi->mkey_violations)
		mg->mkey_violations = 0;
	mg->mkey_timing = false;
}

/*
 * A TrapRepress (softirq) to the switch's agent, come in by port @inp, or
 * to the CA of edge port @ca: with the M_Key (else refused as any SMP
 * without it: false), the trap whose TID it carries is not sent again.
 * The TID's low 32 bits match (the SM host's MAD layer owns the high
 * ones, as Linux's ib_mad does). A CA stops only its own trap 256, as
 * Linux's CA agents take the TrapRepresses of the traps they sent.
 */
bool ftsw_mkey_repress(struct ftsw_switch *sw, struct ftsw_port *ca, u8 inp,
		       const struct ib_smp *smp)
{
	struct ftsw_mkey_trap *m = &sw->mkey_trap;
	u32 tid = be64_to_cpu(smp->tid);
	struct ftsw_net *fn = sw->fn;
	bool taken;

	spin_lock_bh(&fn->sma_lock);
	taken = ftsw_mkey_check(sw, ca, inp, smp) != FTSW_MKEY_REFUSED;
	if (taken && !ca) {
		if (sw->trap_wait && (u32)sw->trap_wait == tid)
			sw->trap_wait = 0;
		if (sw->pkey_trap.wait && (u32)sw->pkey_trap.wait == tid)
			sw->pkey_trap.wait = 0;
	}
	if (taken && m->wait && (u32)m->wait == tid && m->ca == !!ca &&
	    (!ca || m->port == ca->num))
		m->wait = 0;
	spin_unlock_bh(&fn->sma_lock);
	return taken;
}
