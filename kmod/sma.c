// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the subnet management agents. Every switch answers SMPs as an
 * InfiniBand switch's SMA does, every edge port as its host's channel
 * adapter's (one port, port 1). Attributes read the module's state (LFT,
 * SL-to-VL table, ports, policies) and Sets change it: a table is replaced
 * by an RCU-published copy, never written in place, and the copy it
 * replaces is freed after netlink (which reads under fn->lock) and every
 * RCU reader are done with it. The registers a subnet manager writes
 * (PortInfo's, SwitchInfo's, P_Key, VLArbitration, MFT) live under
 * fn->sma_lock. Runs in softirq: GFP_ATOMIC, no sleeping.
 * See Documentation/sm.md for each attribute.
 */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include "lft.h"
#include "ll_queue.h"
#include "mcast.h"
#include "mkey.h"
#include "path.h"
#include "stats.h"
#include "sma_ctl.h"
#include "sma.h"

#define ST_OK		IB_MGMT_MAD_STATUS_SUCCESS
#define ST_BUSY		IB_MGMT_MAD_STATUS_BUSY
#define ST_METHOD	IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD
#define ST_ATTR		IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB
#define ST_VALUE	IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE

/* PortInfo encodings (IBA vol. 1, 14.2.5.6). */
#define FTSW_PHYS_LINKUP	5
#define FTSW_WIDTH_4X		2
#define FTSW_SPEED_ALL		7	/* SDR, DDR, QDR */
#define FTSW_SPEED_QDR		4
#define FTSW_VLCAP		5	/* VL0..14 */
#define FTSW_MTU_4096		5
#define FTSW_CAP_TRAP		(1U << 3)
#define FTSW_CAP_SL_MAP		(1U << 6)
#define FTSW_CAP_SYS_GUID	(1U << 11)
#define FTSW_CAP_SM		(1U << 1)	/* IsSM */
#define FTSW_CAP_SM_DISABLED	(1U << 10)	/* IsSMdisabled */
#define FTSW_LOCAL_CAP_BITS	(FTSW_CAP_SM | FTSW_CAP_SM_DISABLED)
#define FTSW_PI_PEI		0x08	/* PartitionEnforcementInbound */
#define FTSW_PI_PEO		0x04	/* PartitionEnforcementOutbound */
#define FTSW_NODE_CA		1
#define FTSW_NODE_SWITCH	2
#define FTSW_DEVICE_ID		0xf75
#define FTSW_GUID_PREFIX	0x0266740000000000ULL	/* 02:66:74:00 ... */
#define FTSW_LFT_BLOCK		64
#define FTSW_MFT_BLOCK		32

/* One SMP for an agent: where it is and what it asks. */
struct ftsw_sma_req {
	struct ftsw_switch *sw;
	struct ftsw_port *ca;	/* the edge port of the CA; NULL: a switch */
	u8 inp;			/* port it came in by (switch) */
	u32 mod;		/* attribute modifier */
	u8 *data;		/* the 64-byte SMP data */
	bool hide_mkey;		/* PortInfo's M_Key answered as 0 */
	bool own;		/* hop 0 from the CA's own host */
};

struct ftsw_sma_attr {
	u16 id;
	int (*get)(struct ftsw_sma_req *r);
	int (*set)(struct ftsw_sma_req *r);
};

u64 ftsw_switch_guid(const struct ftsw_switch *sw)
{
	return sw->guid ? sw->guid : FTSW_GUID_PREFIX | BIT_ULL(32) | sw->id;
}

/* A CA's node GUID; its port GUID is one more. */
u64 ftsw_ca_guid(const struct ftsw_port *p)
{
	if (p->ca.guid)
		return p->ca.guid;
	return FTSW_GUID_PREFIX | ((u64)p->sw->id << 9) | ((u64)p->num << 1);
}

/* The logical state of a port: Down without a link, else what the SM set. */
u8 ftsw_ib_port_state(const struct ftsw_port *p, const struct ftsw_ibport *ib)
{
	if (!p || !READ_ONCE(p->up))
		return FTSW_PS_DOWN;
	u8 st = READ_ONCE(ib->state);

	return st ? st : FTSW_PS_INIT;
}

static u8 ftsw_phys_state(const struct ftsw_port *p)
{
	if (p && READ_ONCE(p->up))
		return FTSW_PHYS_LINKUP;
	if (p && !READ_ONCE(p->admin_up))
		return FTSW_PHYS_DISABLED;
	return FTSW_PHYS_POLLING;
}

/* The largest InfiniBand MTU whose packets fit the port's device. */
static u8 ftsw_mtu_cap(const struct ftsw_port *p)
{
	int mtu, cap;

	if (!p || !p->dev)
		return FTSW_MTU_4096;
	mtu = READ_ONCE(p->dev->mtu) - FTSW_HLEN;
	for (cap = FTSW_MTU_4096; cap > 1; cap--)
		if (mtu >= (128 << cap))
			break;
	return cap;
}

/* ---------------------------------------------------------------- node */

static int ftsw_node_info_get(struct ftsw_sma_req *r)
{
	struct ib_node_info *ni = (struct ib_node_info *)r->data;
	u64 guid;

	ni->base_version = IB_MGMT_BASE_VERSION;
	ni->class_version = 1;
	if (r->ca) {
		guid = ftsw_ca_guid(r->ca);
		ni->node_type = FTSW_NODE_CA;
		ni->num_ports = 1;
		ni->port_guid = cpu_to_be64(guid + 1);
		ni->local_port_num = 1;
	} else {
		guid = ftsw_switch_guid(r->sw);
		ni->node_type = FTSW_NODE_SWITCH;
		ni->num_ports = r->sw->nports;
		ni->port_guid = cpu_to_be64(guid);
		ni->local_port_num = r->inp;
	}
	ni->sys_guid = cpu_to_be64(guid);
	ni->node_guid = cpu_to_be64(guid);
	ni->partition_cap = cpu_to_be16(FTSW_PKEY_CAP);
	ni->device_id = cpu_to_be16(FTSW_DEVICE_ID);
	ni->revision = cpu_to_be32(1);
	ni->vendor_id[0] = FTSW_MAC_PREFIX1;
	ni->vendor_id[1] = FTSW_MAC_PREFIX2;
	return ST_OK;
}

static int ftsw_node_desc_get(struct ftsw_sma_req *r)
{
	char *d = (char *)r->data;

	if (r->ca && r->ca->ca.desc[0])
		memcpy(d, r->ca->ca.desc, FTSW_DESC_MAX);
	else if (r->ca)
		snprintf(d, FTSW_DESC_MAX, "%s port %u host", r->sw->name,
			 r->ca->num);
	else if (r->sw->name[0])
		strscpy(d, r->sw->name, FTSW_DESC_MAX);
	else
		snprintf(d, FTSW_DESC_MAX, "ftsw switch %u", r->sw->id);
	return ST_OK;
}

static int ftsw_guid_info_get(struct ftsw_sma_req *r)
{
	u64 guid = r->ca ? ftsw_ca_guid(r->ca) + 1 : ftsw_switch_guid(r->sw);

	if (r->mod)
		return ST_VALUE;
	put_unaligned_be64(guid, r->data);
	return ST_OK;
}

/* ---------------------------------------------------------------- switch */

/* SwitchInfo (14.2.5.4): byte offsets of the fields. */
#define SI_LIN_CAP	0
#define SI_MCAST_CAP	4
#define SI_LIN_TOP	6
#define SI_DEF_PORT	8
#define SI_LIFE_STATE	11
#define SI_ENF_CAP	14	/* PartitionEnforcementCap */
#define SI_ENF_BITS	16	/* Inbound/OutboundEnforcementCap: 7, 6 */
#define SI_ENF_IN_OUT	0xc0
#define SI_MCAST_TOP	18

/*
 * LinearFDBTop: what the SM set; while none did (0), the highest LID the
 * active table routes, as a subnet manager programming the switch over
 * netlink (ftsw lab, ftsw fm) would have set it with the table.
 */
static u16 ftsw_lft_top(const struct ftsw_switch *sw)
{
	const struct ftsw_lft *lft = rcu_dereference(sw->lft);
	u32 lid;

	if (sw->lft_top || !lft)
		return sw->lft_top;
	lid = min_t(u32, lft->size, FTSW_MAX_LID + 1);
	while (lid && lft->port[lid - 1] == FTSW_NO_ROUTE)
		lid--;
	return lid ? lid - 1 : 0;
}

static int ftsw_switch_info_get(struct ftsw_sma_req *r)
{
	struct ftsw_switch *sw = r->sw;
	u8 *d = r->data;

	if (r->ca)
		return ST_ATTR;
	put_unaligned_be16(FTSW_LFT_SIZE, d + SI_LIN_CAP);
	put_unaligned_be16(FTSW_MFT_CAP, d + SI_MCAST_CAP);
	put_unaligned_be16(ftsw_lft_top(sw), d + SI_LIN_TOP);
	memcpy(d + SI_DEF_PORT, sw->def_port, sizeof(sw->def_port));
	d[SI_LIFE_STATE] = sw->life << 3 | (sw->psc ? 1 << 2 : 0);
	/*
	 * Every external port holds a P_KeyTable of one block and enforces
	 * both ways when the SM sets its PortInfo bits (OpenSM writes a
	 * switch port's table only when this cap is not 0).
	 */
	put_unaligned_be16(FTSW_PKEY_CAP, d + SI_ENF_CAP);
	d[SI_ENF_BITS] = SI_ENF_IN_OUT;
	put_unaligned_be16(sw->mft_top, d + SI_MCAST_TOP);
	return ST_OK;
}

static int ftsw_switch_info_set(struct ftsw_sma_req *r)
{
	struct ftsw_switch *sw = r->sw;
	u16 top = get_unaligned_be16(r->data + SI_LIN_TOP);
	u16 mtop = get_unaligned_be16(r->data + SI_MCAST_TOP);
	u8 *d = r->data;

	if (r->ca)
		return ST_ATTR;
	if (top > FTSW_MAX_LID ||
	    (mtop && (mtop < 0xC000 || mtop >= 0xC000 + FTSW_MFT_CAP)))
		return ST_VALUE;
	sw->lft_top = top;
	sw->mft_top = mtop;
	memcpy(sw->def_port, d + SI_DEF_PORT, sizeof(sw->def_port));
	sw->life = d[SI_LIFE_STATE] >> 3;
	ftsw_ll_kick_switch(sw);	/* lossless mode rereads it */
	/* PortStateChange is cleared by writing 1. */
	if (d[SI_LIFE_STATE] & (1 << 2))
		sw->psc = false;
	return ST_OK;
}

/* ---------------------------------------------------------------- port */

/* Where a PortInfo-like attribute's port number leads. */
struct ftsw_pi_at {
	struct ftsw_port *p;		/* the port (NULL: port 0, unbound) */
	struct ftsw_ibport *ib;
	struct ftsw_mgmt *mg;		/* port 0 or a CA: LID, SM... */
	bool bound;
};

static int ftsw_pi_find(struct ftsw_sma_req *r, u32 num, struct ftsw_pi_at *at)
{
	struct ftsw_switch *sw = r->sw;

	memset(at, 0, sizeof(*at));
	if (r->ca) {
		if (num > 1)
			return ST_VALUE;
		at->p = r->ca;
		at->ib = &r->ca->ca.ib;
		at->mg = &r->ca->ca.mgmt;
		at->bound = true;
		return ST_OK;
	}
	if (num > sw->nports)
		return ST_VALUE;
	if (!num) {
		at->ib = &sw->ib0;
		at->mg = &sw->mgmt;
		at->bound = true;
		return ST_OK;
	}
	at->p = rcu_dereference(sw->ports[num]);
	at->ib = at->p ? &at->p->ib : NULL;
	at->bound = !!at->p;
	return ST_OK;
}

/* PortInfo's PartitionEnforcementInbound/Outbound bits of @ib. */
static u8 ftsw_pi_enforce(const struct ftsw_ibport *ib)
{
	u8 e = READ_ONCE(ib->enforce);

	return (e & FTSW_ENFORCE_IN ? FTSW_PI_PEI : 0) |
	       (e & FTSW_ENFORCE_OUT ? FTSW_PI_PEO : 0);
}

/*
 * P_KeyViolations (16 bits, saturating): a CA's packets its P_KeyTable
 * refused, a switch port's packets its inbound enforcement refused.
 */
static u16 ftsw_pi_pkey_violations(const struct ftsw_sma_req *r,
				   const struct ftsw_port *p)
{
	struct ftsw_stats s;
	u64 n;

	ftsw_port_stats_read(p, &s);
	n = s.drops[r->ca ? FTSW_DROP_PKEY_CA : FTSW_DROP_PKEY_IN];
	return n > 0xffff ? 0xffff : n;
}

static void ftsw_pi_fill(struct ftsw_sma_req *r, const struct ftsw_pi_at *at,
			 u32 num)
{
	const struct ftsw_mgmt *mg = at->mg ? at->mg : &r->sw->mgmt;
	struct ib_port_info *pi = (struct ib_port_info *)r->data;
	const struct ftsw_policy *pol = NULL;
	struct ftsw_ibport none = {};
	const struct ftsw_ibport *ib = at->ib ? at->ib : &none;
	u8 state, cap = ftsw_mtu_cap(at->p);

	if (r->ca)
		pol = rcu_dereference(r->ca->policy);
	state = num || r->ca ? ftsw_ib_port_state(at->p, ib) :
		(ib->state ? ib->state : FTSW_PS_INIT);
	pi->gid_prefix = cpu_to_be64(mg->prefix);
	pi->lid = cpu_to_be16(pol ? pol->base_lid : READ_ONCE(r->sw->lid));
	pi->sm_lid = cpu_to_be16(mg->sm_lid);
	/*
	 * IsSLMappingSupported on a switch too: an SM reads it on port 0 and
	 * programs no switch's SLtoVLMappingTable without it (OpenSM's QoS).
	 */
	pi->cap_mask = cpu_to_be32(FTSW_CAP_TRAP | FTSW_CAP_SL_MAP |
				   FTSW_CAP_SYS_GUID |
				   (r->ca ? mg->cap_local : 0));
	pi->local_port_num = r->ca ? 1 : r->inp;
	pi->link_width_enabled = ib->width_en ? ib->width_en : FTSW_WIDTH_4X;
	pi->link_width_supported = FTSW_WIDTH_4X;
	pi->link_width_active = FTSW_WIDTH_4X;
	pi->linkspeed_portstate = FTSW_SPEED_ALL << 4 | state;
	pi->portphysstate_linkdown = (num || r->ca ? ftsw_phys_state(at->p) :
				      FTSW_PHYS_LINKUP) << 4 | FTSW_PHYS_POLLING;
	pi->mkeyprot_resv_lmc = pol ? pol->lmc : 0;
	pi->linkspeedactive_enabled = FTSW_SPEED_QDR << 4 |
				      (ib->speed_en ? ib->speed_en :
				       FTSW_SPEED_ALL);
	pi->neighbormtu_mastersmsl = (ib->mtu ? ib->mtu : cap) << 4 |
				     (mg->sm_sl & 0xf);
	pi->vlcap_inittype = FTSW_VLCAP << 4;
	pi->vl_high_limit = ib->vl_high_limit;
	pi->vl_arb_high_cap = FTSW_VLARB_CAP;
	pi->vl_arb_low_cap = FTSW_VLARB_CAP;
	pi->inittypereply_mtucap = cap;
	pi->vlstallcnt_hoqlife = ib->hoq;
	/*
	 * OperationalVLs starts at VLCap, as a switch's or an HCA's port
	 * reports before any SM (IBA leaves the SM to lower it): OpenSM's
	 * first sweep then sees every VL it may use (LASH's lanes, DFSSSP's
	 * layers) and need not take the CAs' links down to raise it.
	 */
	pi->operationalvl_pei_peo_fpi_fpo = (ib->opvls ? ib->opvls :
					     FTSW_VLCAP) << 4 |
					    (r->ca ? 0 : ftsw_pi_enforce(ib));
	if (at->p)
		pi->pkey_violations = cpu_to_be16(ftsw_pi_pkey_violations(r, at->p));
	pi->guid_cap = 1;
	pi->clientrereg_resv_subnetto = mg->subnet_to & 0x1f;
	pi->resv_resptimevalue = mg->resp_time & 0x1f;
	ftsw_mkey_pi_get(mg, r->hide_mkey, pi);
}

static int ftsw_port_info_get(struct ftsw_sma_req *r)
{
	struct ftsw_pi_at at;
	int st = ftsw_pi_find(r, r->mod, &at);

	if (st)
		return st;
	ftsw_pi_fill(r, &at, r->mod);
	return ST_OK;
}

/* The other end of a link: its port, its InfiniBand port registers. */
struct ftsw_link_end {
	struct ftsw_port *p;
	struct ftsw_ibport *ib;
	bool ca;		/* the host's CA: no switch to tell */
};

/*
 * The port at the other end of at's link (RCU read side): a CA's edge
 * port, an edge port's CA, a patch port's far end, or the port of this
 * fabric at the other end of a veth pair (each end names the other as
 * its iflink). False when it is not this fabric's (a VXLAN cable, a
 * device of another kind) or at is switch port 0.
 */
static bool ftsw_link_peer(const struct ftsw_sma_req *r,
			   const struct ftsw_pi_at *at, struct ftsw_link_end *e)
{
	struct ftsw_port *p = at->p;
	struct net_device *d;
	int idx;

	memset(e, 0, sizeof(*e));
	if (!p)
		return false;
	if (r->ca) {
		e->p = p;
		e->ib = &p->ib;
	} else if (p->kind == FTSW_PORT_EDGE) {
		e->p = p;
		e->ib = &p->ca.ib;
		e->ca = true;
	} else if (p->peer) {
		e->p = p->peer;
		e->ib = &p->peer->ib;
	} else if (p->dev) {
		idx = dev_get_iflink(p->dev);
		d = idx && idx != p->dev->ifindex ?
		    dev_get_by_index_rcu(dev_net(p->dev), idx) : NULL;
		if (d && dev_get_iflink(d) == p->dev->ifindex &&
		    rcu_access_pointer(d->rx_handler) == ftsw_handle_frame)
			e->p = ftsw_port_rcu(d);
		if (!e->p || e->p->sw->fn != p->sw->fn)
			return false;
		e->ib = &e->p->ib;
	}
	return !!e->ib;
}

/*
 * Is the PortState a Set asks for a transition the port can make? Armed
 * from Init once the neighbour is at least Init, Active from Armed once
 * the neighbour is at least Armed (IBA vol. 1, 7.2; ibsim checks the
 * same); an unseen neighbour is taken as ready.
 */
static bool ftsw_pi_state_ok(u8 want, u8 cur, u8 peer)
{
	switch (want) {
	case 0:
	case FTSW_PS_DOWN:
		return true;
	case FTSW_PS_ARMED:
		return (cur == FTSW_PS_INIT || cur == FTSW_PS_ARMED) &&
		       peer >= FTSW_PS_INIT;
	case FTSW_PS_ACTIVE:
		return (cur == FTSW_PS_ARMED || cur == FTSW_PS_ACTIVE) &&
		       peer >= FTSW_PS_ARMED;
	}
	return false;
}

/*
 * PortState Down by Set: the link goes down and, its LinkDownDefault
 * being Polling, trains again at once, so both its ports are back in
 * Init. A neighbour that is a switch port changes state without the SM
 * having asked it: its switch sets PortStateChange (the port the SM set
 * does not, IBA vol. 1, 14.2.5.4).
 */
static void ftsw_link_retrain(struct ftsw_ibport *ib, bool seen,
			      const struct ftsw_link_end *e)
{
	WRITE_ONCE(ib->state, FTSW_PS_INIT);
	if (!seen)
		return;
	WRITE_ONCE(e->ib->state, FTSW_PS_INIT);
	if (!e->ca)
		e->p->sw->psc = true;
}

/*
 * PortState set by netlink (PORT_SET, fn->lock held): the operator, acting
 * as the subnet manager, sets the state of a link, both its ends as far as
 * this fabric sees them (an edge port's CA, a patch cable's or veth pair's
 * far port), with no Init -> Armed -> Active steps. Down retrains the
 * link, as an SMP's Set does: both ends come back in Init.
 */
int ftsw_sma_link_state_set(struct ftsw_port *p, u8 state)
{
	struct ftsw_sma_req r = { .sw = p->sw, .inp = p->num };
	struct ftsw_pi_at at = { .p = p, .ib = &p->ib, .bound = true };
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_link_end e;
	bool seen;

	lockdep_assert_held(&fn->lock);
	if (!READ_ONCE(p->up))
		return -ENETDOWN;	/* its state is Down */
	rcu_read_lock();
	spin_lock_bh(&fn->sma_lock);
	seen = ftsw_link_peer(&r, &at, &e);
	if (state == FTSW_PS_DOWN) {
		ftsw_link_retrain(&p->ib, seen, &e);
	} else {
		WRITE_ONCE(p->ib.state, state);
		if (seen)
			WRITE_ONCE(e.ib->state, state);
	}
	spin_unlock_bh(&fn->sma_lock);
	rcu_read_unlock();
	return 0;
}

/* Check a PortInfo Set as a whole before anything is applied. */
static int ftsw_pi_check(struct ftsw_sma_req *r, const struct ftsw_pi_at *at)
{
	const struct ib_port_info *pi = (const struct ib_port_info *)r->data;
	u8 cur = r->mod || r->ca ? ftsw_ib_port_state(at->p, at->ib) :
		 (at->ib->state ? at->ib->state : FTSW_PS_INIT);
	u8 mtu = pi->neighbormtu_mastersmsl >> 4;
	u8 opvls = pi->operationalvl_pei_peo_fpi_fpo >> 4;
	u16 lid = be16_to_cpu(pi->lid);
	struct ftsw_link_end e;
	u8 peer = FTSW_PS_ACTIVE;

	if (!at->bound)
		return ST_VALUE;
	if (ftsw_link_peer(r, at, &e))
		peer = ftsw_ib_port_state(e.p, e.ib);
	if (!ftsw_pi_state_ok(pi->linkspeed_portstate & 0xf, cur, peer))
		return ST_VALUE;
	if (!ftsw_sma_phys_ok(r->mod || r->ca ? at->p : NULL,
			      pi->portphysstate_linkdown >> 4))
		return ST_VALUE;
	if (mtu > ftsw_mtu_cap(at->p) || opvls > FTSW_VLCAP)
		return ST_VALUE;
	if (at->mg && (lid > FTSW_MAX_LID || (r->ca && !lid)))
		return ST_VALUE;
	return ST_OK;
}

static int ftsw_port_info_set(struct ftsw_sma_req *r)
{
	const struct ib_port_info *pi = (const struct ib_port_info *)r->data;
	u8 state = pi->linkspeed_portstate & 0xf;
	struct ftsw_ibport *ib;
	struct ftsw_mgmt *mg;
	struct ftsw_pi_at at;
	int st;

	st = ftsw_pi_find(r, r->mod, &at);
	if (!st)
		st = ftsw_pi_check(r, &at);
	if (st)
		return st;
	ib = at.ib;
	mg = at.mg;
	if (r->ca) {
		st = ftsw_sma_ca_set_lid(r->ca, be16_to_cpu(pi->lid),
				     pi->mkeyprot_resv_lmc & FTSW_MAX_LMC);
		if (st)
			return st;
	} else if (mg) {
		WRITE_ONCE(r->sw->lid, be16_to_cpu(pi->lid));
	}
	if (mg) {
		mg->prefix = be64_to_cpu(pi->gid_prefix);
		mg->sm_lid = be16_to_cpu(pi->sm_lid);
		mg->sm_sl = pi->neighbormtu_mastersmsl & 0xf;
		WRITE_ONCE(mg->subnet_to, pi->clientrereg_resv_subnetto & 0x1f);
		ftsw_mkey_pi_set(mg, pi);
	}
	if (r->mod || r->ca)
		ftsw_sma_phys_set(at.p, pi->portphysstate_linkdown >> 4);
	if (state == FTSW_PS_DOWN) {
		struct ftsw_link_end e;

		ftsw_link_retrain(ib, ftsw_link_peer(r, &at, &e), &e);
	} else if (state) {
		WRITE_ONCE(ib->state, state);
	}
	if (pi->neighbormtu_mastersmsl >> 4)
		ib->mtu = pi->neighbormtu_mastersmsl >> 4;
	if (pi->operationalvl_pei_peo_fpi_fpo >> 4)
		ib->opvls = pi->operationalvl_pei_peo_fpi_fpo >> 4;
	/* Partition enforcement: a switch's external ports (not port 0). */
	if (!r->ca && r->mod)
		WRITE_ONCE(ib->enforce,
			   (pi->operationalvl_pei_peo_fpi_fpo & FTSW_PI_PEI ?
			    FTSW_ENFORCE_IN : 0) |
			   (pi->operationalvl_pei_peo_fpi_fpo & FTSW_PI_PEO ?
			    FTSW_ENFORCE_OUT : 0));
	ib->hoq = pi->vlstallcnt_hoqlife;
	ib->vl_high_limit = pi->vl_high_limit;
	ftsw_ll_kick_switch(r->sw);	/* lossless mode rereads them */
	if (pi->link_width_enabled)
		ib->width_en = pi->link_width_enabled == 0xff ? FTSW_WIDTH_4X :
			       pi->link_width_enabled;
	if (pi->linkspeedactive_enabled & 0xf)
		ib->speed_en = (pi->linkspeedactive_enabled & 0xf) == 0xf ?
			       FTSW_SPEED_ALL :
			       pi->linkspeedactive_enabled & 0xf;
	return ST_OK;
}

/* ---------------------------------------------------------------- tables */

/*
 * P_KeyTable: one block of 32 entries. A switch's modifier names the port
 * in bits 31:16: port 0's table is the switch's own (its management
 * port's), an external port's is the one partition enforcement checks
 * (SwitchInfo's PartitionEnforcementCap); a CA has one table. The data
 * path reads the tables entry by entry (READ_ONCE), so Sets write them so.
 */
static u16 *ftsw_pkeys(struct ftsw_sma_req *r, int *st)
{
	u32 port = r->ca ? 0 : r->mod >> 16;
	struct ftsw_port *p;

	*st = ST_OK;
	if ((r->mod & 0xffff) || port > r->sw->nports) {
		*st = ST_VALUE;
		return NULL;
	}
	if (r->ca)
		return r->ca->ca.mgmt.pkey;
	if (!port)
		return r->sw->mgmt.pkey;
	p = rcu_dereference(r->sw->ports[port]);
	return p ? p->pkeys : NULL;
}

static int ftsw_pkey_get(struct ftsw_sma_req *r)
{
	int i, st;
	u16 *t = ftsw_pkeys(r, &st);

	if (st)
		return st;
	for (i = 0; i < FTSW_PKEY_CAP; i++)
		put_unaligned_be16(t ? READ_ONCE(t[i]) :
				(i ? 0 : FTSW_PKEY_DEFAULT), r->data + 2 * i);
	return ST_OK;
}

static int ftsw_pkey_set(struct ftsw_sma_req *r)
{
	int i, st;
	u16 *t = ftsw_pkeys(r, &st);

	if (st)
		return st;
	if (!t)
		return ST_VALUE;	/* an unbound port */
	for (i = 0; i < FTSW_PKEY_CAP; i++)
		WRITE_ONCE(t[i], get_unaligned_be16(r->data + 2 * i));
	return ST_OK;
}

/* SLtoVLMappingTable: a switch has one table for all port pairs. */
static u8 *ftsw_sl2vl_at(struct ftsw_sma_req *r)
{
	if (r->ca)
		return r->mod ? NULL : r->ca->ca.sl2vl;
	if (((r->mod >> 8) & 0xff) > r->sw->nports ||
	    (r->mod & 0xff) > r->sw->nports || r->mod >> 16)
		return NULL;
	return r->sw->sl2vl;
}

static int ftsw_sl2vl_get(struct ftsw_sma_req *r)
{
	u8 *t = ftsw_sl2vl_at(r);
	int i;

	if (!t)
		return ST_VALUE;
	for (i = 0; i < FTSW_NUM_SL / 2; i++)
		r->data[i] = READ_ONCE(t[2 * i]) << 4 | READ_ONCE(t[2 * i + 1]);
	return ST_OK;
}

static int ftsw_sl2vl_set(struct ftsw_sma_req *r)
{
	u8 *t = ftsw_sl2vl_at(r);
	int i;

	if (!t)
		return ST_VALUE;
	for (i = 0; i < FTSW_NUM_SL / 2; i++) {
		WRITE_ONCE(t[2 * i], r->data[i] >> 4);
		WRITE_ONCE(t[2 * i + 1], r->data[i] & 0xf);
	}
	return ST_OK;
}

/*
 * VLArbitrationTable: the modifier is the block number in bits 31:16 and,
 * on a switch, the port in bits 15:0 (a CA ignores them). Blocks 1 (low)
 * and 3 (high) hold the 8 entries.
 */
static int ftsw_vlarb(struct ftsw_sma_req *r, bool set)
{
	u32 block = r->mod >> 16, port = r->mod & 0xffff;
	struct ftsw_port *p = r->ca;
	u8 (*t)[2];
	int i;

	if (!block || block > 4)
		return ST_VALUE;
	if (!p) {
		if (!port || port > r->sw->nports)
			return ST_VALUE;
		p = rcu_dereference(r->sw->ports[port]);
		if (!p)
			return ST_VALUE;
	}
	if (block == 2 || block == 4)
		return ST_OK;	/* past the capacity: reads zero */
	t = (r->ca ? p->ca.ib.vlarb : p->ib.vlarb)[block == 3];
	if (set)
		ftsw_ll_kick_switch(r->sw);
	for (i = 0; i < FTSW_VLARB_CAP; i++) {
		if (set) {
			t[i][0] = r->data[2 * i] & 0xf;
			t[i][1] = r->data[2 * i + 1];
		} else {
			r->data[2 * i] = t[i][0];
			r->data[2 * i + 1] = t[i][1];
		}
	}
	return ST_OK;
}

static int ftsw_vlarb_get(struct ftsw_sma_req *r)
{
	return ftsw_vlarb(r, false);
}

static int ftsw_vlarb_set(struct ftsw_sma_req *r)
{
	return ftsw_vlarb(r, true);
}

static int ftsw_lft_get(struct ftsw_sma_req *r)
{
	const struct ftsw_lft *lft = rcu_dereference(r->sw->lft);
	u32 first = r->mod * FTSW_LFT_BLOCK, i;

	if (r->ca)
		return ST_ATTR;
	if (r->mod >= FTSW_LFT_SIZE / FTSW_LFT_BLOCK)
		return ST_VALUE;
	for (i = 0; i < FTSW_LFT_BLOCK; i++)
		r->data[i] = ftsw_lft_lookup(lft, first + i);
	return ST_OK;
}

/*
 * An LFT block written by SMP takes effect at once, as on a switch, and
 * whole: the active table is copied with the block in it and the copy
 * published with RCU, so a packet sees the block all old or all new.
 */
static int ftsw_lft_set(struct ftsw_sma_req *r)
{
	struct ftsw_switch *sw = r->sw;
	struct ftsw_net *fn = sw->fn;
	u32 first = r->mod * FTSW_LFT_BLOCK, i;
	struct ftsw_lft *cur, *lft;

	if (r->ca)
		return ST_ATTR;
	if (r->mod >= FTSW_LFT_SIZE / FTSW_LFT_BLOCK)
		return ST_VALUE;
	for (i = 0; i < FTSW_LFT_BLOCK; i++)
		if (r->data[i] != FTSW_NO_ROUTE && r->data[i] > sw->nports)
			return ST_VALUE;
	if (sw->dead)
		return ST_BUSY;
	cur = rcu_dereference_protected(sw->lft,
					lockdep_is_held(&fn->sma_lock));
	if (cur && first + FTSW_LFT_BLOCK <= cur->size &&
	    !memcmp(cur->port + first, r->data, FTSW_LFT_BLOCK))
		return ST_OK;
	lft = ftsw_lft_alloc_atomic(first + FTSW_LFT_BLOCK, cur);
	if (!lft)
		return ST_BUSY;
	memcpy(lft->port + first, r->data, FTSW_LFT_BLOCK);
	rcu_assign_pointer(sw->lft, lft);
	if (cur)
		ftsw_sma_retire(fn, &cur->retired, &fn->retired_lft);
	return ST_OK;
}

/* MulticastForwardingTable: 32 MLIDs x 16 ports a block (mcast.c). */
static int ftsw_mft(struct ftsw_sma_req *r, bool set)
{
	u32 pos = r->mod >> 28, block = r->mod & 0x1ff, i;
	struct ftsw_mft *mft;

	if (r->ca)
		return ST_ATTR;
	if (block >= FTSW_MFT_CAP / FTSW_MFT_BLOCK || pos * 16 > r->sw->nports)
		return ST_VALUE;
	mft = ftsw_mft_table(r->sw, set);
	if (set && !mft)
		return ST_BUSY;
	for (i = 0; i < FTSW_MFT_BLOCK; i++) {
		u16 *e = mft ? &mft->mask[block * FTSW_MFT_BLOCK + i][pos] :
			 NULL;

		if (set)
			WRITE_ONCE(*e, get_unaligned_be16(r->data + 2 * i));
		else
			put_unaligned_be16(e ? *e : 0, r->data + 2 * i);
	}
	return ST_OK;
}

static int ftsw_mft_get(struct ftsw_sma_req *r)
{
	return ftsw_mft(r, false);
}

static int ftsw_mft_set(struct ftsw_sma_req *r)
{
	return ftsw_mft(r, true);
}

/* ---------------------------------------------------------------- agents */

/*
 * The host's local interface to its CA (IBA leaves it to the
 * implementation: Linux's ib_modify_port() sets IsSM when an SM opens
 * the umad issm device): vendor attribute FTSW_ATTR_LOCAL_CAP, the
 * CapabilityMask bits the host's software sets, IsSM and IsSMdisabled,
 * big endian in the data's first 4 bytes. Only the host reaches it, with a
 * directed-route SMP of hop count 0 (ftsw_sma_ca_local()); the gateway
 * sets IsSM while an SM client says it is one (SET_ISSM).
 */
static int ftsw_local_cap_get(struct ftsw_sma_req *r)
{
	if (!r->ca || r->mod)
		return r->ca ? ST_VALUE : ST_ATTR;
	put_unaligned_be32(r->ca->ca.mgmt.cap_local, r->data);
	return ST_OK;
}

static int ftsw_local_cap_set(struct ftsw_sma_req *r)
{
	u32 cap = get_unaligned_be32(r->data);

	if (!r->ca || r->mod)
		return r->ca ? ST_VALUE : ST_ATTR;
	if (cap & ~FTSW_LOCAL_CAP_BITS)
		return ST_VALUE;
	r->ca->ca.mgmt.cap_local = cap;
	return ST_OK;
}

static const struct ftsw_sma_attr ftsw_sma_attrs[] = {
	{ 0x0010, ftsw_node_desc_get, NULL },
	{ 0x0011, ftsw_node_info_get, NULL },
	{ 0x0012, ftsw_switch_info_get, ftsw_switch_info_set },
	{ 0x0014, ftsw_guid_info_get, NULL },
	{ 0x0015, ftsw_port_info_get, ftsw_port_info_set },
	{ 0x0016, ftsw_pkey_get, ftsw_pkey_set },
	{ 0x0017, ftsw_sl2vl_get, ftsw_sl2vl_set },
	{ 0x0018, ftsw_vlarb_get, ftsw_vlarb_set },
	{ 0x0019, ftsw_lft_get, ftsw_lft_set },
	{ 0x001B, ftsw_mft_get, ftsw_mft_set },
	{ FTSW_ATTR_LOCAL_CAP, ftsw_local_cap_get, ftsw_local_cap_set },
};

/* A switch's attribute, which a CA has not: SwitchInfo, LFT, MFT. */
static bool ftsw_sw_attr(u16 id)
{
	return id == 0x0012 || id == 0x0019 || id == 0x001B;
}

/*
 * Answer an SMP in place: its data becomes the attribute as it now is.
 * Returns the MAD status, -EOPNOTSUPP for what no agent answers
 * (responses, traps, trap represses), FTSW_SMA_REFUSED for what the
 * M_Key check refused (mkey.c), before the attribute is looked at.
 */
static int ftsw_sma_run(struct ftsw_sma_req *r, struct ib_smp *smp)
{
	const struct ftsw_sma_attr *a = NULL;
	struct ftsw_net *fn = r->sw->fn;
	u16 id = be16_to_cpu(smp->attr_id);
	int i, st = ST_OK;
	enum ftsw_mkey mk;

	if (smp->method != IB_MGMT_METHOD_GET &&
	    smp->method != IB_MGMT_METHOD_SET) {
		if (smp->method & IB_MGMT_METHOD_RESP ||
		    smp->method == IB_MGMT_METHOD_TRAP ||
		    smp->method == IB_MGMT_METHOD_TRAP_REPRESS)
			return -EOPNOTSUPP;
		return ST_METHOD;
	}
	for (i = 0; i < ARRAY_SIZE(ftsw_sma_attrs); i++)
		if (ftsw_sma_attrs[i].id == id && !(r->ca && ftsw_sw_attr(id)))
			a = &ftsw_sma_attrs[i];
	r->mod = be32_to_cpu(smp->attr_mod);
	/*
	 * PortInfo's modifier bit 31 asks for the extended link speeds
	 * (smpquery -x sets it); no port here has them, so it changes
	 * nothing, as on a port without IsExtendedSpeedsSupported.
	 */
	if (id == be16_to_cpu(IB_SMP_ATTR_PORT_INFO))
		r->mod &= ~BIT(31);
	r->data = smp->data;
	spin_lock_bh(&fn->sma_lock);
	/* No M_Key for the host's local interface and own-port reads (mkey.c) */
	mk = id == FTSW_ATTR_LOCAL_CAP ||
	     (r->own && smp->method == IB_MGMT_METHOD_GET) ? FTSW_MKEY_OK :
	     ftsw_mkey_check(r->sw, r->ca, r->inp, smp);
	if (mk == FTSW_MKEY_REFUSED || !a) {
		spin_unlock_bh(&fn->sma_lock);
		return mk == FTSW_MKEY_REFUSED ? FTSW_SMA_REFUSED : ST_ATTR;
	}
	r->hide_mkey = mk == FTSW_MKEY_HIDE;
	if (smp->method == IB_MGMT_METHOD_SET)
		st = a->set ? a->set(r) : ST_ATTR;
	memset(smp->data, 0, sizeof(smp->data));
	i = a->get(r);
	spin_unlock_bh(&fn->sma_lock);
	return st ? st : i;
}

/* A TrapRepress of a Notice: an SM's answer to a trap. */
static bool ftsw_sma_repress(const struct ib_smp *smp)
{
	return smp->method == IB_MGMT_METHOD_TRAP_REPRESS &&
	       smp->attr_id == IB_SMP_ATTR_NOTICE;
}

/* A switch's SMA: an SMP come in by port @inp (0: its own). */
int ftsw_sma_switch(struct ftsw_switch *sw, u8 inp, struct ib_smp *smp)
{
	struct ftsw_sma_req r = { .sw = sw, .inp = inp };

	/* The SM's answer to a trap: the trap is not sent again (mkey.c). */
	if (ftsw_sma_repress(smp))
		return ftsw_mkey_repress(sw, NULL, inp, smp) ? FTSW_SMA_TAKEN :
							      FTSW_SMA_REFUSED;
	return ftsw_sma_run(&r, smp);
}

/* The SMA of the CA behind edge port @p (@own: hop 0 from its host). */
int ftsw_sma_ca(struct ftsw_port *p, struct ib_smp *smp, bool own)
{
	struct ftsw_sma_req r = { .sw = p->sw, .ca = p, .inp = 1, .own = own };

	if (ftsw_sma_repress(smp))
		return ftsw_mkey_repress(p->sw, p, p->num, smp) ?
		       FTSW_SMA_TAKEN : FTSW_SMA_REFUSED;
	return ftsw_sma_run(&r, smp);
}

/*
 * An SMP of the host's local interface (FTSW_ATTR_LOCAL_CAP): a Get or Set,
 * directed route, hop count 0 (the host's own port); its CA agent answers.
 */
bool ftsw_sma_ca_local(const struct ib_smp *smp)
{
	return smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
	       !smp->hop_cnt &&
	       be16_to_cpu(smp->attr_id) == FTSW_ATTR_LOCAL_CAP &&
	       (smp->method == IB_MGMT_METHOD_GET ||
		smp->method == IB_MGMT_METHOD_SET);
}

/*
 * Which SMPs the CA agent answers: Gets and Sets but SMInfo, notices and
 * vendor attributes, which are the host's software's (an SM's); and the
 * TrapRepresses, as Linux's CA agents (trap 256 is the CA's).
 */
bool ftsw_sma_ca_takes(const struct ib_smp *smp)
{
	u16 id = be16_to_cpu(smp->attr_id);

	if (ftsw_sma_repress(smp))
		return true;
	if (smp->method != IB_MGMT_METHOD_GET &&
	    smp->method != IB_MGMT_METHOD_SET)
		return false;
	return id != 0x0020 && id != 0x0002 && id < 0xff00;
}
