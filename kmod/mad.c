// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: management datagrams in the fabric. A host's MAD enters at its edge
 * port (the host's channel adapter sends it), crosses the switches hop by
 * hop along a directed route or by the LFTs, is answered by a switch's
 * agent or a CA's (sma.c, pma.c) and comes back the same way. Runs in the
 * rx handler (RCU, softirq): nothing sleeps, every step is bounded, the
 * frame is answered in place. See Documentation/sm.md.
 *
 * Directed routes follow IBA vol. 1, 14.2.2: the node that starts the
 * directed part of a path increments the hop pointer as it sends; each
 * switch on the way records the port it came in by in the return path and
 * sends it out the initial path's next port; the last node hands it to its
 * agent (DrDLID permissive) or LID-routes it to DrDLID. The response walks
 * the return path back, the hop pointer going down, and is LID-routed to
 * DrSLID at the end when that is not permissive.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/skbuff.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include "cc.h"
#include "forward.h"
#include "hdr.h"
#include "lft.h"
#include "path.h"
#include "pkey.h"
#include "pma.h"
#include "sma.h"
#include "stats.h"
#include "tx.h"
#include "mad.h"

static_assert(sizeof(struct ftsw_mad_hdr) == FTSW_MAD_HLEN);
static_assert(sizeof(struct ib_smp) == FTSW_MAD_SIZE);
static_assert(sizeof(struct ib_mad) == FTSW_MAD_SIZE);

/* Offsets in a fabric frame: Ethernet | ftsw_hdr | ftsw_mad_hdr | MAD. */
#define FTSW_MAD_OFF	(ETH_HLEN + FTSW_HLEN)
#define FTSW_MAD_FLEN	(FTSW_MAD_OFF + FTSW_MAD_HLEN + FTSW_MAD_SIZE)
#define FTSW_VL15	15

static const u8 ftsw_fabric_mac[ETH_ALEN] = {
	FTSW_MAC_PREFIX0, FTSW_MAC_PREFIX1, FTSW_MAC_PREFIX2, FTSW_MAC_PREFIX3,
	0xff, 0xff
};

static struct ftsw_hdr *ftsw_mad_fh(const struct sk_buff *skb)
{
	return (struct ftsw_hdr *)(skb->data + ETH_HLEN);
}

static struct ftsw_mad_hdr *ftsw_mad_mh(const struct sk_buff *skb)
{
	return (struct ftsw_mad_hdr *)(skb->data + FTSW_MAD_OFF);
}

static struct ib_smp *ftsw_mad_smp(const struct sk_buff *skb)
{
	return (struct ib_smp *)(skb->data + FTSW_MAD_OFF + FTSW_MAD_HLEN);
}

static bool ftsw_lid_perm(__be16 lid)
{
	return lid == cpu_to_be16(FTSW_LID_PERMISSIVE);
}

static bool ftsw_dr_dir(const struct ib_smp *smp)
{
	return !!(smp->status & IB_SMP_DIRECTION);
}

static bool ftsw_is_smp(u8 class)
{
	return class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/* A directed route's next port: one the node has (never 0, itself). */
static enum ftsw_dr_act ftsw_dr_port(u8 port, u8 nports, u8 *outp)
{
	if (!port || port > nports)
		return FTSW_DR_DROP;
	*outp = port;
	return FTSW_DR_OUT;
}

/*
 * A directed-route SMP at a switch of @nports ports, come in by port @inp
 * (0: from the switch's own agent) on a directed hop or, @lid_routed, by
 * its LFT (entry 0 or a permissive DLID). Updates the hop pointer and the
 * return path as C14-9 (outgoing) and C14-13 (returning) say. On
 * FTSW_DR_LOCAL the hop pointer is hop count + 1, as the agent answers.
 */
enum ftsw_dr_act ftsw_dr_switch(struct ib_smp *smp, u8 nports, u8 inp,
				bool lid_routed, u8 *outp)
{
	u8 cnt = smp->hop_cnt, ptr = smp->hop_ptr;

	if (cnt >= IB_SMP_MAX_PATH_HOPS)
		return FTSW_DR_DROP;
	if (!ftsw_dr_dir(smp)) {
		if (!ptr) {
			/* LID-routed to where the directed part starts. */
			if (!lid_routed)
				return FTSW_DR_DROP;
			smp->hop_ptr = 1;
			if (!cnt)
				return FTSW_DR_LOCAL;
			return ftsw_dr_port(smp->initial_path[1], nports, outp);
		}
		if (ptr == cnt + 1)
			return lid_routed ? FTSW_DR_LOCAL : FTSW_DR_DROP;
		if (ptr > cnt || lid_routed || !inp)
			return FTSW_DR_DROP;
		smp->return_path[ptr] = inp;
		smp->hop_ptr = ++ptr;
		if (ptr <= cnt)
			return ftsw_dr_port(smp->initial_path[ptr], nports, outp);
		return ftsw_lid_perm(smp->dr_dlid) ? FTSW_DR_LOCAL : FTSW_DR_LID;
	}
	if (!ptr || ptr > cnt + 1)
		return FTSW_DR_DROP;
	if (ptr == cnt + 1) {
		/* From this switch's agent, or LID-routed back to it. */
		if (inp && !lid_routed)
			return FTSW_DR_DROP;
	} else if (lid_routed || !inp) {
		return FTSW_DR_DROP;
	}
	smp->hop_ptr = --ptr;
	if (!ptr)
		return ftsw_lid_perm(smp->dr_slid) ? FTSW_DR_DROP : FTSW_DR_LID;
	return ftsw_dr_port(smp->return_path[ptr], nports, outp);
}

/*
 * A directed-route SMP the CA of an edge port receives on its port 1: the
 * end of an outgoing path (to the CA's agent) or of a returning one (to the
 * host's software, the SM).
 */
enum ftsw_dr_act ftsw_dr_ca_recv(struct ib_smp *smp, bool lid_routed)
{
	u8 cnt = smp->hop_cnt, ptr = smp->hop_ptr;

	if (cnt >= IB_SMP_MAX_PATH_HOPS)
		return FTSW_DR_DROP;
	if (!ftsw_dr_dir(smp)) {
		if (ptr == cnt + 1)
			return lid_routed ? FTSW_DR_LOCAL : FTSW_DR_DROP;
		if (lid_routed || !cnt || ptr != cnt ||
		    !ftsw_lid_perm(smp->dr_dlid))
			return FTSW_DR_DROP;
		smp->return_path[ptr] = 1;
		smp->hop_ptr = ptr + 1;
		return FTSW_DR_LOCAL;
	}
	if (!ptr)
		return lid_routed ? FTSW_DR_HOST : FTSW_DR_DROP;
	if (ptr == 1 && !lid_routed && ftsw_lid_perm(smp->dr_slid)) {
		smp->hop_ptr = 0;
		return FTSW_DR_HOST;
	}
	return FTSW_DR_DROP;
}

/*
 * A directed-route SMP a CA sends out of its port 1: a request of the
 * host's (D = 0) or a response, the CA agent's or the host's (D = 1).
 * FTSW_DR_LOCAL: a hop count 0 request, for the CA's own agent.
 * FTSW_DR_LID: a LID-routed part first, to the LRH DLID the sender set.
 */
enum ftsw_dr_act ftsw_dr_ca_send(struct ib_smp *smp)
{
	u8 cnt = smp->hop_cnt, ptr = smp->hop_ptr;

	if (cnt >= IB_SMP_MAX_PATH_HOPS)
		return FTSW_DR_DROP;
	if (!ftsw_dr_dir(smp)) {
		if (ptr)
			return FTSW_DR_DROP;
		if (!ftsw_lid_perm(smp->dr_slid))
			return FTSW_DR_LID;
		if (!cnt) {
			if (ftsw_lid_perm(smp->dr_dlid))
				return FTSW_DR_LOCAL;
			smp->hop_ptr = 1;
			return FTSW_DR_LID;
		}
		if (smp->initial_path[1] != 1)
			return FTSW_DR_DROP;
		smp->hop_ptr = 1;
		return FTSW_DR_OUT;
	}
	if (ptr != cnt + 1)
		return FTSW_DR_DROP;
	if (!ftsw_lid_perm(smp->dr_dlid))
		return FTSW_DR_LID;
	if (!cnt || smp->return_path[cnt] != 1)
		return FTSW_DR_DROP;
	smp->hop_ptr = cnt;
	return FTSW_DR_OUT;
}

/*
 * Check the MAD frame header and the MAD's common header: reserved flags,
 * QPs that fit the class (SMPs on QP0, the rest on QP1), base version 1.
 * A class version the agents do not speak is theirs to answer (below).
 */
static bool ftsw_mad_ok(const struct ftsw_mad_hdr *mh,
			const struct ib_smp *mad)
{
	u32 dqpn = ntohl(mh->dqpn), sqpn = ntohl(mh->sqpn);
	u32 qp = ftsw_is_smp(mad->mgmt_class) ? FTSW_MAD_QP_SMI :
						 FTSW_MAD_QP_GSI;

	if (mh->flags || mh->sl & ~FTSW_SL_MASK || dqpn != qp || sqpn != qp)
		return false;
	return mad->base_version == IB_MGMT_BASE_VERSION;
}

/* A request that gets a response: a Get or a Set. */
static bool ftsw_mad_get_set(const struct ib_smp *smp)
{
	return smp->method == IB_MGMT_METHOD_GET ||
	       smp->method == IB_MGMT_METHOD_SET;
}

/*
 * What an agent (SMA, PMA: class version 1) answers before looking at the
 * attribute: a Get or Set of another class version gets IBA's "class
 * version not supported" (0x0004); else 0, and the agent answers.
 */
static int ftsw_mad_version(const struct ib_smp *smp)
{
	if (smp->class_version == 1)
		return 0;
	return ftsw_mad_get_set(smp) ? IB_MGMT_MAD_STATUS_BAD_VERSION :
				       -EOPNOTSUPP;
}

/*
 * A switch's agents: the SMA (both SMP classes), the PMA and the CC agent
 * (cc.c). A Get or Set
 * of a class the switch does not serve is answered as Linux's MAD layer
 * answers a request no agent takes (generate_unmatched_resp()): status
 * 0x000C, unsupported method/attribute; any other method is dropped.
 */
static int ftsw_mad_switch_answer(struct ftsw_port *in, struct ib_smp *smp)
{
	int v;

	switch (smp->mgmt_class) {
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		v = ftsw_mad_version(smp);
		return v ? v : ftsw_sma_switch(in->sw, in->num, smp);
	case IB_MGMT_CLASS_PERF_MGMT:
		v = ftsw_mad_version(smp);
		return v ? v : ftsw_pma_switch(in->sw, smp);
	case IB_MGMT_CLASS_CONG_MGMT:
		/* class version 2, checked by cc.c; -EACCES: CC_Key failed */
		return ftsw_cc_switch(in->sw, smp);
	}
	return ftsw_mad_get_set(smp) ?
	       IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB : -EOPNOTSUPP;
}

/* A LID a MAD may be routed to: unicast, or permissive (the neighbour). */
static bool ftsw_mad_lid_ok(u16 lid)
{
	return (lid && lid <= FTSW_MAX_LID) || lid == FTSW_LID_PERMISSIVE;
}

/*
 * Make the whole fabric frame writable in the linear area, drop what
 * follows it, and check it. False: dropped and counted on @in.
 */
static bool ftsw_mad_pull(struct ftsw_port *in, struct sk_buff *skb)
{
	u16 dlid;

	if (skb->len < FTSW_MAD_FLEN ||
	    skb_ensure_writable(skb, FTSW_MAD_FLEN) ||
	    pskb_trim(skb, FTSW_MAD_FLEN))
		goto bad;
	dlid = ntohs(ftsw_mad_fh(skb)->dlid);
	if (ftsw_mad_fh(skb)->sl & FTSW_HDR_RSVD || !ftsw_mad_lid_ok(dlid) ||
	    !ftsw_mad_ok(ftsw_mad_mh(skb), ftsw_mad_smp(skb)))
		goto bad;
	return true;
bad:
	ftsw_drop(in, skb, FTSW_DROP_BAD_MAD);
	return false;
}

/* Give a MAD to the host behind edge port @p, as the frame contract says. */
static struct ftsw_port *ftsw_mad_deliver(struct ftsw_port *p,
					  struct sk_buff *skb)
{
	struct ftsw_net *fn = p->sw->fn;
	struct ethhdr *eth;

	if (unlikely(ftsw_decap(skb))) {
		ftsw_drop(p, skb, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	eth = (struct ethhdr *)skb->data;
	eth_broadcast_addr(eth->h_dest);
	ether_addr_copy(eth->h_source, ftsw_fabric_mac);
	skb->pkt_type = PACKET_HOST;
	if (fn->mad_tap) {
		fn->mad_tap(p, skb);
		return NULL;
	}
	if (unlikely(!p->dev)) {
		ftsw_drop(p, skb, FTSW_DROP_MAD_SINK);
		return NULL;
	}
	/* Counted as sent when the switch gave it to the CA. */
	skb->dev = p->dev;
	if (unlikely(dev_queue_xmit(skb) != NET_XMIT_SUCCESS))
		ftsw_port_drop(p, FTSW_DROP_TX_ERROR);
	return NULL;
}

/*
 * Turn a request into its response, in place: a new packet, which starts
 * with no link hops taken.
 */
static void ftsw_mad_respond(struct sk_buff *skb, u16 status)
{
	struct ib_smp *smp = ftsw_mad_smp(skb);
	bool dr = smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;

	ftsw_mad_fh(skb)->hops = 0;
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = htons(status);
	if (dr)
		smp->status |= IB_SMP_DIRECTION;
}

/* Set the LIDs the frame is routed by: the fabric header's and the LRH's. */
static void ftsw_mad_route_to(struct sk_buff *skb, u16 dlid, u16 slid)
{
	struct ftsw_mad_hdr *mh = ftsw_mad_mh(skb);

	ftsw_mad_fh(skb)->dlid = htons(dlid);
	ftsw_mad_fh(skb)->slid = htons(slid);
	mh->dlid = htons(dlid);
	mh->slid = htons(slid);
}

/*
 * Send a directed-route hop out of port @num of @in's switch: to the CA of
 * an edge port, across a patch cable or on a link's device.
 */
static struct ftsw_port *ftsw_mad_out(struct ftsw_port *in, u8 num,
				      struct sk_buff *skb)
{
	struct ftsw_port *out = rcu_dereference(in->sw->ports[num]);

	if (unlikely(!out || !READ_ONCE(out->up))) {
		ftsw_drop(in, skb, FTSW_DROP_PORT_DOWN);
		return NULL;
	}
	ftsw_mad_fh(skb)->dlid = htons(FTSW_LID_PERMISSIVE);
	if (out->kind == FTSW_PORT_EDGE) {
		ftsw_count_tx(out, skb->len, 1, FTSW_VL15);
		return ftsw_mad_ca_rx(out, skb);
	}
	return ftsw_xmit(in, out, skb, FTSW_VL15);
}

/* The switch's own LID: SLID of what its agent sends. */
static u16 ftsw_sw_lid(const struct ftsw_switch *sw)
{
	u16 lid = READ_ONCE(sw->lid);

	return lid ? lid : FTSW_LID_PERMISSIVE;
}

/* Route a MAD from @in's switch by its LFT, as the data path would. */
static struct ftsw_port *ftsw_mad_route(struct ftsw_port *in,
					struct sk_buff *skb, u16 dlid)
{
	if (!dlid || dlid > FTSW_MAX_LID) {
		ftsw_drop(in, skb, FTSW_DROP_BAD_DR);
		return NULL;
	}
	ftsw_mad_route_to(skb, dlid, ftsw_sw_lid(in->sw));
	return ftsw_mad_switch_rx(in, skb);
}

/*
 * A MAD the switch's agents answer not: taken (a TrapRepress), refused
 * by the M_Key check (counted in M_KeyViolations, trapped), or dropped.
 */
static struct ftsw_port *ftsw_mad_sink(struct ftsw_port *in,
				       struct sk_buff *skb, int status)
{
	if (status == FTSW_SMA_TAKEN || status == FTSW_SMA_REFUSED)
		consume_skb(skb);
	else
		ftsw_drop(in, skb, FTSW_DROP_MAD_SINK);
	return NULL;
}

/* A directed-route SMP for a switch (a directed hop, or its LFT said 0). */
static struct ftsw_port *ftsw_mad_switch_dr(struct ftsw_port *in,
					    struct sk_buff *skb, bool lr)
{
	struct ftsw_switch *sw = in->sw;
	struct ib_smp *smp = ftsw_mad_smp(skb);
	enum ftsw_dr_act act;
	u8 out = 0;
	int status;

	act = ftsw_dr_switch(smp, sw->nports, in->num, lr, &out);
	if (act == FTSW_DR_LOCAL) {
		status = ftsw_mad_switch_answer(in, smp);
		if (status < 0)
			return ftsw_mad_sink(in, skb, status);
		ftsw_mad_respond(skb, status);
		act = ftsw_dr_switch(smp, sw->nports, 0, false, &out);
	}
	switch (act) {
	case FTSW_DR_OUT:
		return ftsw_mad_out(in, out, skb);
	case FTSW_DR_LID:
		return ftsw_mad_route(in, skb, ntohs(ftsw_dr_dir(smp) ?
						     smp->dr_slid :
						     smp->dr_dlid));
	default:
		ftsw_drop(in, skb, FTSW_DROP_BAD_DR);
		return NULL;
	}
}

/* A LID-routed SMP or a GMP for the switch's agents: answer it. */
static struct ftsw_port *ftsw_mad_switch_agent(struct ftsw_port *in,
					       struct sk_buff *skb)
{
	struct ftsw_mad_hdr *mh = ftsw_mad_mh(skb);
	struct ib_smp *smp = ftsw_mad_smp(skb);
	int status;

	status = ftsw_mad_switch_answer(in, smp);
	if (status < 0)
		return ftsw_mad_sink(in, skb, status);
	ftsw_mad_respond(skb, status);
	return ftsw_mad_route(in, skb, ntohs(mh->slid));
}

/*
 * A MAD at a switch, in fabric form, come in by @in (or from its CA for an
 * edge port): a directed hop (DLID permissive) or LID-routed: its LFT
 * says whether it is for this switch's agents (entry 0) or goes on.
 */
struct ftsw_port *ftsw_mad_switch_rx(struct ftsw_port *in,
				     struct sk_buff *skb)
{
	u16 dlid = ntohs(ftsw_mad_fh(skb)->dlid);
	struct ib_smp *smp = ftsw_mad_smp(skb);
	bool lr = dlid != FTSW_LID_PERMISSIVE;

	if (lr && ftsw_lft_lookup(rcu_dereference(in->sw->lft), dlid))
		return ftsw_forward(in, skb);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return ftsw_mad_switch_dr(in, skb, lr);
	return ftsw_mad_switch_agent(in, skb);
}

/* A MAD frame from a neighbour switch (fabric header checked writable). */
struct ftsw_port *ftsw_mad_link_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	struct ftsw_hdr *h;

	if (!ftsw_mad_pull(in, skb))
		return NULL;
	/* A GMP is data: taken only by a port in Armed or Active. */
	if (!ftsw_is_smp(ftsw_mad_smp(skb)->mgmt_class) &&
	    !ftsw_ps_takes(&in->ib)) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_ACTIVE);
		return NULL;
	}
	h = ftsw_mad_fh(skb);
	if (unlikely(h->hops >= READ_ONCE(in->sw->fn->hop_limit))) {
		ftsw_drop(in, skb, FTSW_DROP_HOP_LIMIT);
		return NULL;
	}
	h->hops++;
	if (!ftsw_is_smp(ftsw_mad_smp(skb)->mgmt_class) &&
	    unlikely(!ftsw_pkey_enforce_ok(in, ntohs(h->pkey), false))) {
		ftsw_pkey_violation(in, ntohs(h->slid), ntohs(h->dlid),
				    h->sl & FTSW_SL_MASK, ntohs(h->pkey));
		ftsw_drop(in, skb, FTSW_DROP_PKEY_IN);
		return NULL;
	}
	return ftsw_mad_switch_rx(in, skb);
}

/* The CA's base LID, or permissive while its port has none. */
static u16 ftsw_ca_lid(const struct ftsw_port *p)
{
	const struct ftsw_policy *pol = rcu_dereference(p->policy);

	return pol ? pol->base_lid : FTSW_LID_PERMISSIVE;
}

/*
 * The CA agent of edge port @p answers a request in place; the answer goes
 * to the host if it asked (@from_host), else back into the fabric.
 */
static struct ftsw_port *ftsw_mad_ca_agent(struct ftsw_port *p,
					   struct sk_buff *skb, bool from_host)
{
	struct ib_smp *smp = ftsw_mad_smp(skb);
	u16 slid = ntohs(ftsw_mad_mh(skb)->slid);
	int status;

	if (smp->mgmt_class == IB_MGMT_CLASS_CONG_MGMT) {
		status = ftsw_cc_ca(p, smp);	/* class version 2: cc.c's */
	} else {
		status = ftsw_mad_version(smp);
		if (!status && smp->mgmt_class == IB_MGMT_CLASS_PERF_MGMT)
			status = ftsw_pma_ca(p, smp);
		else if (!status)
			status = ftsw_sma_ca(p, smp, from_host && !smp->hop_cnt &&
					     smp->mgmt_class ==
					     IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE);
	}
	if (status == FTSW_SMA_REFUSED || status == FTSW_SMA_TAKEN) {
		/* an M_Key or CC_Key check's (-EACCES), a TrapRepress: no answer */
		consume_skb(skb);
		return NULL;
	}
	if (status < 0)
		return ftsw_mad_deliver(p, skb);
	ftsw_mad_respond(skb, status);
	if (from_host) {
		ftsw_mad_route_to(skb, slid, ftsw_ca_lid(p));
		return ftsw_mad_deliver(p, skb);
	}
	/* The CA sends its answer to the switch: the edge port receives it. */
	ftsw_count_rx(p, skb->len, 1);
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		switch (ftsw_dr_ca_send(smp)) {
		case FTSW_DR_OUT:
			ftsw_mad_route_to(skb, FTSW_LID_PERMISSIVE,
					  FTSW_LID_PERMISSIVE);
			return ftsw_mad_switch_rx(p, skb);
		case FTSW_DR_LID:
			break;
		default:
			ftsw_drop(p, skb, FTSW_DROP_BAD_DR);
			return NULL;
		}
	}
	if (!slid || slid > FTSW_MAX_LID) {
		ftsw_drop(p, skb, FTSW_DROP_BAD_DR);
		return NULL;
	}
	ftsw_mad_route_to(skb, slid, ftsw_ca_lid(p));
	return ftsw_mad_switch_rx(p, skb);
}

/* Does the CA agent answer this MAD (a request it serves)? */
static bool ftsw_ca_takes(const struct ib_smp *smp)
{
	if (smp->mgmt_class == IB_MGMT_CLASS_PERF_MGMT ||
	    smp->mgmt_class == IB_MGMT_CLASS_CONG_MGMT)
		return smp->method == IB_MGMT_METHOD_GET ||
		       smp->method == IB_MGMT_METHOD_SET;
	return ftsw_is_smp(smp->mgmt_class) && ftsw_sma_ca_takes(smp);
}

/*
 * A MAD the fabric brings to the CA of edge port @p (in fabric form): the
 * CA's agents answer what is theirs, the host gets the rest.
 */
struct ftsw_port *ftsw_mad_ca_rx(struct ftsw_port *p, struct sk_buff *skb)
{
	bool lr = ftsw_mad_fh(skb)->dlid != htons(FTSW_LID_PERMISSIVE);
	struct ib_smp *smp = ftsw_mad_smp(skb);

	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		switch (ftsw_dr_ca_recv(smp, lr)) {
		case FTSW_DR_HOST:
			return ftsw_mad_deliver(p, skb);
		case FTSW_DR_LOCAL:
			break;
		default:
			ftsw_drop(p, skb, FTSW_DROP_BAD_DR);
			return NULL;
		}
	}
	if (!ftsw_ca_takes(smp))
		return ftsw_mad_deliver(p, skb);
	return ftsw_mad_ca_agent(p, skb, false);
}

/*
 * A MAD frame from the host behind edge port @in: its CA sends it. It gets
 * the fabric header, the CA's LID as SLID, and goes to the CA's own agent
 * (a hop count 0 SMP, or its own LID), the next switch's, or on.
 */
struct ftsw_port *ftsw_mad_edge_rx(struct ftsw_port *in, struct sk_buff *skb)
{
	const unsigned int hlen = ETH_HLEN + FTSW_MAD_HLEN + FTSW_MAD_SIZE;
	const struct ftsw_policy *pol = rcu_dereference(in->policy);
	struct ftsw_mad_hdr *mh;
	struct ib_smp *smp;
	u16 dlid, slid;

	if (skb->len < hlen || skb_ensure_writable(skb, hlen) ||
	    pskb_trim(skb, hlen)) {
		ftsw_drop(in, skb, FTSW_DROP_BAD_MAD);
		return NULL;
	}
	if (ftsw_encap(skb, FTSW_LID_PERMISSIVE, FTSW_LID_PERMISSIVE, 0,
		       FTSW_PKEY_DEFAULT)) {
		ftsw_drop(in, skb, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	if (!ftsw_mad_pull(in, skb))
		return NULL;
	mh = ftsw_mad_mh(skb);
	smp = ftsw_mad_smp(skb);
	slid = pol ? pol->base_lid : FTSW_LID_PERMISSIVE;
	dlid = ntohs(mh->dlid);
	mh->slid = htons(slid);
	ftsw_mad_fh(skb)->sl = mh->sl;
	/* A GMP's key: the CA's default partition unless the host chose. */
	if (!ftsw_is_smp(smp->mgmt_class))
		mh->pkey = htons(ftsw_pkey_gmp(in->ca.mgmt.pkey,
					       ntohs(mh->pkey)));
	ftsw_mad_fh(skb)->pkey = mh->pkey;
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		switch (ftsw_dr_ca_send(smp)) {
		case FTSW_DR_LOCAL:
			/* The host's local interface to its CA (sma.c). */
			if (ftsw_sma_ca_local(smp))
				return ftsw_mad_ca_agent(in, skb, true);
			if (!ftsw_ca_takes(smp))
				return ftsw_mad_deliver(in, skb);
			return ftsw_mad_ca_agent(in, skb, true);
		case FTSW_DR_OUT:
			return ftsw_mad_switch_rx(in, skb);
		case FTSW_DR_LID:
			break;
		default:
			ftsw_drop(in, skb, FTSW_DROP_BAD_DR);
			return NULL;
		}
	} else if (pol && ftsw_lid_in_range(pol, dlid)) {
		/* To its own LID: the CA's agent, or back to the host. */
		if (!ftsw_ca_takes(smp))
			return ftsw_mad_deliver(in, skb);
		return ftsw_mad_ca_agent(in, skb, true);
	}
	if (!ftsw_mad_lid_ok(dlid)) {
		ftsw_drop(in, skb, FTSW_DROP_BAD_MAD);
		return NULL;
	}
	/* A GMP leaves the CA only from Active, into Armed or Active. */
	if (!ftsw_is_smp(smp->mgmt_class) &&
	    (!ftsw_ps_sends(&in->ca.ib) || !ftsw_ps_takes(&in->ib))) {
		ftsw_drop(in, skb, FTSW_DROP_NOT_ACTIVE);
		return NULL;
	}
	/* ... and past the port's inbound partition enforcement. */
	if (!ftsw_is_smp(smp->mgmt_class) &&
	    !ftsw_pkey_enforce_ok(in, ntohs(mh->pkey), false)) {
		ftsw_pkey_violation(in, slid, dlid, mh->sl & FTSW_SL_MASK,
				    ntohs(mh->pkey));
		ftsw_drop(in, skb, FTSW_DROP_PKEY_IN);
		return NULL;
	}
	ftsw_mad_route_to(skb, dlid, slid);
	return ftsw_mad_switch_rx(in, skb);
}

/*
 * A fresh MAD frame in fabric form for a switch's agent to fill (a trap):
 * headers set for @dlid from @slid on QP0, the MAD zeroed.
 */
struct sk_buff *ftsw_mad_alloc(u16 dlid, u16 slid, u8 sl, gfp_t gfp)
{
	struct ftsw_mad_hdr *mh;
	struct sk_buff *skb;
	struct ethhdr *eth;
	struct ftsw_hdr *h;

	skb = alloc_skb(NET_SKB_PAD + FTSW_MAD_FLEN, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put_zero(skb, FTSW_MAD_FLEN);
	ftsw_lid_to_mac(dlid, eth->h_dest);
	ether_addr_copy(eth->h_source, ftsw_fabric_mac);
	eth->h_proto = htons(FTSW_ETH_P);
	skb_reset_mac_header(skb);
	skb->mac_len = ETH_HLEN;
	skb->protocol = htons(FTSW_ETH_P);
	h = ftsw_mad_fh(skb);
	h->dlid = htons(dlid);
	h->slid = htons(slid);
	h->sl = sl & FTSW_SL_MASK;
	h->pkey = htons(FTSW_MAD_PKEY_DEFAULT);
	h->proto = htons(FTSW_ETH_P_MAD);
	mh = ftsw_mad_mh(skb);
	mh->dlid = htons(dlid);
	mh->slid = htons(slid);
	mh->sl = sl & FTSW_SL_MASK;
	mh->pkey = htons(FTSW_MAD_PKEY_DEFAULT);
	return skb;
}
