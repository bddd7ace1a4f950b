// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the performance management agents (class 0x04, IBA vol. 1, 16.1):
 * ClassPortInfo, PortCounters and PortCountersExtended on the per-CPU
 * counters the module keeps. A switch port counts what it received and
 * sent; a CA's port is the other end of its edge port, so what the edge
 * port sent the CA received and the other way round. A Set resets the
 * selected counters of the PMA's view only (a baseline, as PORT_CLEAR
 * keeps one): netlink's counters run on. See Documentation/sm.md.
 */
#include <linux/kernel.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include "stats.h"
#include "pma.h"

#define ST_OK		IB_MGMT_MAD_STATUS_SUCCESS
#define ST_METHOD	IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD
#define ST_ATTR		IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB
#define ST_VALUE	IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE
#define FTSW_PMA_RESP_TIME	18

/* A port's counters as its PMA reports them: sent, received, errors. */
struct ftsw_pma_counts {
	u64 xmit_bytes, rcv_bytes, xmit_pkts, rcv_pkts;
	u64 rcv_errors, relay_errors, xmit_discards, vl15_dropped;
	u64 rcv_constraint, xmit_constraint;	/* partition enforcement */
};

static u64 ftsw_sum(const struct ftsw_stats *s, const int *reasons, int n)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += s->drops[reasons[i]];
	return sum;
}

static void ftsw_pma_counts(const struct ftsw_stats *s, bool ca,
			    struct ftsw_pma_counts *c)
{
	static const int rcv[] = {
		FTSW_DROP_MALFORMED, FTSW_DROP_NOT_FABRIC,
		FTSW_DROP_BAD_RESOLVE, FTSW_DROP_BAD_MAD, FTSW_DROP_BAD_DR,
	};
	static const int relay[] = {
		FTSW_DROP_NO_ROUTE, FTSW_DROP_HOP_LIMIT, FTSW_DROP_MISDELIVERED,
	};
	static const int discard[] = {
		FTSW_DROP_PORT_DOWN, FTSW_DROP_TOO_BIG, FTSW_DROP_TX_ERROR,
	};

	memset(c, 0, sizeof(*c));
	c->xmit_bytes = ca ? s->rx_bytes : s->tx_bytes;
	c->rcv_bytes = ca ? s->tx_bytes : s->rx_bytes;
	c->xmit_pkts = ca ? s->rx_packets : s->tx_packets;
	c->rcv_pkts = ca ? s->tx_packets : s->rx_packets;
	if (ca)
		return;	/* the edge port counts the drops, not the CA */
	c->rcv_errors = ftsw_sum(s, rcv, ARRAY_SIZE(rcv));
	c->relay_errors = ftsw_sum(s, relay, ARRAY_SIZE(relay));
	c->xmit_discards = ftsw_sum(s, discard, ARRAY_SIZE(discard));
	c->vl15_dropped = s->drops[FTSW_DROP_MAD_SINK];
	c->rcv_constraint = s->drops[FTSW_DROP_PKEY_IN];
	c->xmit_constraint = s->drops[FTSW_DROP_PKEY_OUT];
}

/* The counters since the last reset: now minus the baseline. */
static void ftsw_pma_read(const struct ftsw_port *p, bool ca,
			  struct ftsw_pma_counts *c)
{
	struct ftsw_pma_counts base;
	struct ftsw_stats now;

	ftsw_port_stats_read(p, &now);
	ftsw_pma_counts(&now, ca, c);
	ftsw_pma_counts(ca ? &p->ca.pma_base : &p->pma_base, ca, &base);
	c->xmit_bytes -= base.xmit_bytes;
	c->rcv_bytes -= base.rcv_bytes;
	c->xmit_pkts -= base.xmit_pkts;
	c->rcv_pkts -= base.rcv_pkts;
	c->rcv_errors -= base.rcv_errors;
	c->relay_errors -= base.relay_errors;
	c->xmit_discards -= base.xmit_discards;
	c->vl15_dropped -= base.vl15_dropped;
	c->rcv_constraint -= base.rcv_constraint;
	c->xmit_constraint -= base.xmit_constraint;
}

/*
 * Reset the counters @sel names (PortCounters' select bits, or the
 * extended ones mapped onto them) by moving the baseline's fields there.
 */
static void ftsw_pma_reset(struct ftsw_port *p, bool ca, u16 sel)
{
	struct ftsw_stats *b = ca ? &p->ca.pma_base : &p->pma_base;
	u64 *rxb = ca ? &b->tx_bytes : &b->rx_bytes;
	u64 *txb = ca ? &b->rx_bytes : &b->tx_bytes;
	u64 *rxp = ca ? &b->tx_packets : &b->rx_packets;
	u64 *txp = ca ? &b->rx_packets : &b->tx_packets;
	struct ftsw_stats now;
	int i;

	ftsw_port_stats_read(p, &now);
	if (sel & be16_to_cpu(IB_PMA_SEL_PORT_XMIT_DATA))
		*txb = ca ? now.rx_bytes : now.tx_bytes;
	if (sel & be16_to_cpu(IB_PMA_SEL_PORT_RCV_DATA))
		*rxb = ca ? now.tx_bytes : now.rx_bytes;
	if (sel & be16_to_cpu(IB_PMA_SEL_PORT_XMIT_PACKETS))
		*txp = ca ? now.rx_packets : now.tx_packets;
	if (sel & be16_to_cpu(IB_PMA_SEL_PORT_RCV_PACKETS))
		*rxp = ca ? now.tx_packets : now.rx_packets;
	/* The error counters, together: their drop reasons are disjoint. */
	if (sel & 0x0ff8)
		for (i = 0; i <= FTSW_DROP_MAX; i++)
			b->drops[i] = now.drops[i];
}

static u16 ftsw_sat16(u64 v)
{
	return min_t(u64, v, U16_MAX);
}

static u32 ftsw_sat32(u64 v)
{
	return min_t(u64, v, U32_MAX);
}

static void ftsw_pc_fill(struct ib_pma_portcounters *pc,
			 const struct ftsw_pma_counts *c)
{
	pc->port_rcv_errors = cpu_to_be16(ftsw_sat16(c->rcv_errors));
	pc->port_rcv_switch_relay_errors =
		cpu_to_be16(ftsw_sat16(c->relay_errors));
	pc->port_xmit_discards = cpu_to_be16(ftsw_sat16(c->xmit_discards));
	pc->vl15_dropped = cpu_to_be16(ftsw_sat16(c->vl15_dropped));
	pc->port_rcv_constraint_errors = min_t(u64, c->rcv_constraint, U8_MAX);
	pc->port_xmit_constraint_errors = min_t(u64, c->xmit_constraint,
						U8_MAX);
	/* Data counters in units of 4 octets. */
	pc->port_xmit_data = cpu_to_be32(ftsw_sat32(c->xmit_bytes / 4));
	pc->port_rcv_data = cpu_to_be32(ftsw_sat32(c->rcv_bytes / 4));
	pc->port_xmit_packets = cpu_to_be32(ftsw_sat32(c->xmit_pkts));
	pc->port_rcv_packets = cpu_to_be32(ftsw_sat32(c->rcv_pkts));
}

static void ftsw_pcx_fill(struct ib_pma_portcounters_ext *x,
			  const struct ftsw_pma_counts *c)
{
	x->port_xmit_data = cpu_to_be64(c->xmit_bytes / 4);
	x->port_rcv_data = cpu_to_be64(c->rcv_bytes / 4);
	x->port_xmit_packets = cpu_to_be64(c->xmit_pkts);
	x->port_rcv_packets = cpu_to_be64(c->rcv_pkts);
	x->port_unicast_xmit_packets = cpu_to_be64(c->xmit_pkts);
	x->port_unicast_rcv_packets = cpu_to_be64(c->rcv_pkts);
}

/* PortCountersExtended's select bits onto PortCounters' (data, packets). */
static u16 ftsw_selx(u16 selx)
{
	u16 sel = 0;

	if (selx & be16_to_cpu(IB_PMA_SELX_PORT_XMIT_DATA))
		sel |= be16_to_cpu(IB_PMA_SEL_PORT_XMIT_DATA);
	if (selx & be16_to_cpu(IB_PMA_SELX_PORT_RCV_DATA))
		sel |= be16_to_cpu(IB_PMA_SEL_PORT_RCV_DATA);
	if (selx & (be16_to_cpu(IB_PMA_SELX_PORT_XMIT_PACKETS) |
		    be16_to_cpu(IB_PMA_SELX_PORT_UNI_XMIT_PACKETS)))
		sel |= be16_to_cpu(IB_PMA_SEL_PORT_XMIT_PACKETS);
	if (selx & (be16_to_cpu(IB_PMA_SELX_PORT_RCV_PACKETS) |
		    be16_to_cpu(IB_PMA_SELX_PORT_UNI_RCV_PACKETS)))
		sel |= be16_to_cpu(IB_PMA_SEL_PORT_RCV_PACKETS);
	return sel;
}

static void ftsw_cpi_fill(struct ib_class_port_info *cpi)
{
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = 1;
	cpi->capability_mask = IB_PMA_CLASS_CAP_EXT_WIDTH;
	cpi->cap_mask2_resp_time = cpu_to_be32(FTSW_PMA_RESP_TIME);
}

/* The attributes with a PortSelect that the PMAs answer. */
static bool ftsw_pma_counters(const struct ib_pma_mad *pm)
{
	return pm->mad_hdr.attr_id == IB_PMA_PORT_COUNTERS ||
	       pm->mad_hdr.attr_id == IB_PMA_PORT_COUNTERS_EXT;
}

/*
 * One PMA request at port @p (NULL: a switch's port 0 or an unbound one,
 * all zero) of a switch, or of the CA behind @p (@ca).
 */
static int ftsw_pma_run(struct ftsw_net *fn, struct ftsw_port *p, bool ca,
			struct ib_pma_mad *pm)
{
	bool set = pm->mad_hdr.method == IB_MGMT_METHOD_SET;
	struct ib_pma_portcounters *pc = (void *)pm->data;
	struct ib_pma_portcounters_ext *x = (void *)pm->data;
	struct ftsw_pma_counts c = {};
	__be16 id = pm->mad_hdr.attr_id;
	u16 sel;

	if (id == IB_PMA_CLASS_PORT_INFO) {
		if (set)
			return ST_ATTR;
		memset(pm->data, 0, sizeof(pm->data));
		ftsw_cpi_fill((struct ib_class_port_info *)pm->data);
		return ST_OK;
	}
	if (!ftsw_pma_counters(pm))
		return ST_ATTR;
	sel = be16_to_cpu(pc->counter_select);
	if (id == IB_PMA_PORT_COUNTERS_EXT)
		sel = ftsw_selx(sel);
	spin_lock_bh(&fn->sma_lock);
	if (p && set)
		ftsw_pma_reset(p, ca, sel);
	if (p)
		ftsw_pma_read(p, ca, &c);
	spin_unlock_bh(&fn->sma_lock);
	/* Keep port select and counter select; the rest is the answer. */
	memset(pm->data + 4, 0, sizeof(pm->data) - 4);
	if (id == IB_PMA_PORT_COUNTERS)
		ftsw_pc_fill(pc, &c);
	else
		ftsw_pcx_fill(x, &c);
	return ST_OK;
}

static int ftsw_pma_method(const struct ib_pma_mad *pm)
{
	const struct ib_mad_hdr *mad = &pm->mad_hdr;

	if (mad->method == IB_MGMT_METHOD_GET ||
	    mad->method == IB_MGMT_METHOD_SET)
		return ST_OK;
	if (mad->method & IB_MGMT_METHOD_RESP ||
	    mad->method == IB_MGMT_METHOD_TRAP ||
	    mad->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return -EOPNOTSUPP;
	return ST_METHOD;
}

/*
 * A switch's PMA: port select 0..nports (0 and unbound ports read 0).
 * ClassPortInfo has no PortSelect (its byte 1 is ClassVersion), so no port
 * is looked up for it; an attribute the PMA does not have is answered
 * 0x0C whatever its byte 1 holds; PortCounters' and PortCountersExtended's
 * PortSelect is checked against the switch's ports before it indexes them,
 * and one past them is answered 0x1C, invalid field (0xFF, all ports, too:
 * ClassPortInfo does not announce AllPortSelect).
 */
int ftsw_pma_switch(struct ftsw_switch *sw, void *mad)
{
	struct ib_pma_mad *pm = mad;
	u8 port = pm->data[1];	/* PortSelect */
	int st = ftsw_pma_method(pm);

	if (st)
		return st;
	if (pm->mad_hdr.attr_id == IB_PMA_CLASS_PORT_INFO)
		return ftsw_pma_run(sw->fn, NULL, false, pm);
	if (!ftsw_pma_counters(pm))
		return ST_ATTR;
	if (port > sw->nports)
		return ST_VALUE;
	return ftsw_pma_run(sw->fn, port ? rcu_dereference(sw->ports[port]) :
			    NULL, false, pm);
}

/*
 * The PMA of the CA behind edge port @p: port select 1, its one port, or
 * 0, the port the MAD came by (as PortInfo's modifier 0 on a CA); any
 * other is answered 0x1C. ClassPortInfo names no port; an attribute the
 * PMA does not have is answered 0x0C.
 */
int ftsw_pma_ca(struct ftsw_port *p, void *mad)
{
	struct ib_pma_mad *pm = mad;
	u8 port = pm->data[1];	/* PortSelect */
	int st = ftsw_pma_method(pm);

	if (st)
		return st;
	if (pm->mad_hdr.attr_id != IB_PMA_CLASS_PORT_INFO) {
		if (!ftsw_pma_counters(pm))
			return ST_ATTR;
		if (port > 1)
			return ST_VALUE;
	}
	return ftsw_pma_run(p->sw->fn, p, true, pm);
}
