// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the congestion control agents (class 0x21, class version 2; IBA
 * vol. 1, Annex A10) of every switch and every channel adapter:
 * ClassPortInfo, CongestionInfo, CongestionKeyInfo, CongestionLog,
 * SwitchCongestionSetting and SwitchPortCongestionSetting (switches),
 * CACongestionSetting and CongestionControlTable (CAs), TimeStamp. What
 * the settings do to packets is Documentation/congestion.md's. Runs where
 * the other agents run (mad.c: softirq, RCU): a request is answered in
 * place, registers under fn->sma_lock, the logs under the switch's
 * ll_lock (never both at once).
 *
 * Field layouts are the annex's, as libibmad and OpenSM lay them out:
 * CC_Key at byte 24 of the MAD, the attribute at byte 64 (CongestionLog:
 * 32), big endian, bit fields from the most significant bit.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <rdma/ib_mad.h>
#include "cc.h"

#define ST_OK		IB_MGMT_MAD_STATUS_SUCCESS
#define ST_VERSION	IB_MGMT_MAD_STATUS_BAD_VERSION
#define ST_METHOD	IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD
#define ST_ATTR		IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB
#define ST_VALUE	IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE
#define FTSW_CC_RESP_TIME	18
#define FTSW_CC_DATA_LEN	(FTSW_MAD_SIZE - FTSW_CC_DATA_OFF)
#define FTSW_CC_LOG_LEN		(FTSW_MAD_SIZE - FTSW_CC_LOG_OFF)

/* CongestionInfo */
#define CI_INFO		0	/* be16; bit 0: credit starvation (no) */
#define CI_CAP		2	/* ControlTableCap: 64-entry blocks */
/* CongestionKeyInfo */
#define CK_KEY		0	/* be64 */
#define CK_PROTECT	8	/* bit 7 */
#define CK_LEASE	10	/* be16, s */
#define CK_VIOL		12	/* be16 */
/* CongestionLog: type 1 switch, 2 CA */
#define CL_TYPE		0
#define CL_COUNT	2	/* be16 */
#define CL_SW_TS	4	/* be32 */
#define CL_SW_MAP	8	/* 256-bit PortMap */
#define CL_SW_EV	40	/* 12 bytes each: SLID, DLID, SL << 4, ts at 8 */
#define CL_CA_MAP	4	/* be16 ThresholdCongestionEventMap */
#define CL_CA_TS	8	/* be32 */
#define CL_CA_EV	12	/* 16 bytes each: SL << 4 at 3, LIDs at 8, ts at 12 */
/* SwitchCongestionSetting */
#define SS_MAP		0	/* be32 Control_Map */
#define SS_VICTIM	4
#define SS_CREDIT	36
#define SS_THRESH	68	/* high nibble */
#define SS_PKT		69
#define SS_CS_THRESH	70	/* high nibble */
#define SS_CS_DELAY	72	/* be16 */
#define SS_RATE		74	/* be16 */
/* CACongestionSetting */
#define CS_PORT_CTL	0	/* be16 */
#define CS_MAP		2	/* be16 */
#define CS_ENT		4	/* 8 bytes per SL: timer be16, incr, trigger, min */
/* CongestionControlTable */
#define CT_LIMIT	0	/* be16 CCTI_Limit */
#define CT_ENT		4	/* be16 each */

/* SwitchCongestionSetting's Control_Map bits (Documentation/congestion.md). */
#define SS_MAP_VICTIM	BIT(0)
#define SS_MAP_CREDIT	BIT(1)
#define SS_MAP_THRESH	BIT(2)
#define SS_MAP_CS	BIT(3)
#define SS_MAP_RATE	BIT(4)

/* One request as the agent reads it. */
struct ftsw_cc_req {
	struct ib_mad_hdr *hdr;
	u8 *d;			/* the attribute's data */
	u32 mod;
	u16 attr;
	bool set;
};

/* The time a CongestionLog and TimeStamp report: 1.024 us units. */
u32 ftsw_cc_timestamp(void)
{
	return (u32)(ktime_get_ns() >> 10);
}

/*
 * What every request is checked for before its attribute: the method (a
 * Get or a Set; responses and traps are not the agent's: -EOPNOTSUPP,
 * dropped), and the class version.
 */
static int ftsw_cc_method(const struct ib_mad_hdr *h)
{
	if (h->method != IB_MGMT_METHOD_GET && h->method != IB_MGMT_METHOD_SET)
		return h->method & IB_MGMT_METHOD_RESP ||
		       h->method == IB_MGMT_METHOD_TRAP ||
		       h->method == IB_MGMT_METHOD_TRAP_REPRESS ?
		       -EOPNOTSUPP : ST_METHOD;
	if (h->class_version != FTSW_CC_CLASS_VERSION)
		return ST_VERSION;
	return ST_OK;
}

/*
 * The CC_Key check (A10.4.1): passed by a node whose key is 0, by the
 * node's key, and by any Get while the protect bit is clear. A failed
 * check is not answered; it counts a violation (up to 0xFFFF) and starts
 * the lease, unless it runs or the lease period is 0 (forever); the lease
 * ends, clearing the protect bit, when it expires before a request with
 * the key stops it (as M_Key's, IBA 14.2.4.2).
 */
static bool ftsw_cc_key_ok(struct ftsw_cc_key *k, u64 key, bool get)
{
	if (k->lease_end && time_after_eq(jiffies, k->lease_end)) {
		k->protect = false;
		k->lease_end = 0;
	}
	if (k->key && key == k->key) {
		k->lease_end = 0;
		return true;
	}
	if (!k->key || (get && !k->protect))
		return true;
	if (k->violations < U16_MAX)
		k->violations++;
	if (k->lease && !k->lease_end)
		k->lease_end = (jiffies + (unsigned long)k->lease * HZ) ?: 1;
	return false;
}

static void ftsw_cc_cpi(u8 *d)
{
	struct ib_class_port_info *cpi = (void *)d;

	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = FTSW_CC_CLASS_VERSION;
	cpi->cap_mask2_resp_time = cpu_to_be32(FTSW_CC_RESP_TIME);
}

static void ftsw_cc_key_get(const struct ftsw_cc_key *k, u8 *d)
{
	put_unaligned_be64(k->key, d + CK_KEY);
	d[CK_PROTECT] = k->protect ? 0x80 : 0;
	put_unaligned_be16(k->lease, d + CK_LEASE);
	put_unaligned_be16(k->violations, d + CK_VIOL);
}

static void ftsw_cc_key_set(struct ftsw_cc_key *k, const u8 *d)
{
	k->key = get_unaligned_be64(d + CK_KEY);
	k->protect = d[CK_PROTECT] & 0x80;
	k->lease = get_unaligned_be16(d + CK_LEASE);
	k->violations = get_unaligned_be16(d + CK_VIOL);
	k->lease_end = 0;
}

/* Attributes every node has; ST_ATTR: not one of them. */
static int ftsw_cc_common(struct ftsw_cc_req *r, struct ftsw_cc_key *k,
			  u8 cct_blocks)
{
	u8 in[FTSW_CC_DATA_LEN];

	switch (r->attr) {
	case FTSW_CC_ATTR_LOG:	/* filled by the caller, outside the lock */
		return r->set ? ST_ATTR : r->mod ? ST_VALUE : ST_OK;
	case FTSW_CC_ATTR_CLASS_PORT_INFO:
	case FTSW_CC_ATTR_INFO:
	case FTSW_CC_ATTR_TIMESTAMP:
		if (r->set)
			return ST_ATTR;
		if (r->mod)
			return ST_VALUE;
		memset(r->d, 0, FTSW_CC_DATA_LEN);
		if (r->attr == FTSW_CC_ATTR_CLASS_PORT_INFO)
			ftsw_cc_cpi(r->d);
		else if (r->attr == FTSW_CC_ATTR_INFO)
			r->d[CI_CAP] = cct_blocks;
		else
			put_unaligned_be32(ftsw_cc_timestamp(), r->d);
		return ST_OK;
	case FTSW_CC_ATTR_KEY_INFO:
		if (r->mod)
			return ST_VALUE;
		memcpy(in, r->d, sizeof(in));
		if (r->set)
			ftsw_cc_key_set(k, in);
		memset(r->d, 0, FTSW_CC_DATA_LEN);
		ftsw_cc_key_get(k, r->d);
		return ST_OK;
	}
	return ST_ATTR;
}

/* Log an event in a ring of @cap; under the switch's ll_lock. */
void ftsw_cc_log_add(struct ftsw_cc_log *log, unsigned int cap,
		     u16 slid, u16 dlid, u8 sl)
{
	struct ftsw_cc_event *e = &log->ev[log->next];

	e->ts = ftsw_cc_timestamp();
	e->slid = slid;
	e->dlid = dlid;
	e->sl = sl;
	log->next = (log->next + 1) % cap;
	if (log->n < cap)
		log->n++;
	log->count++;
}

/* The events oldest first: the i-th of n. */
static const struct ftsw_cc_event *ftsw_cc_log_ev(const struct ftsw_cc_log *l,
						  unsigned int cap,
						  unsigned int i)
{
	return &l->ev[(l->next + cap - l->n + i) % cap];
}

/*
 * CongestionLog, switch (type 1): LogEventsCounter, the time, PortMap
 * (ports that marked) and the latest 15 events (SLID, DLID, SL, time of
 * a mark). Read and cleared at once: each Get reports what happened
 * since the previous one.
 */
static void ftsw_cc_log_switch(struct ftsw_switch *sw, u8 *d)
{
	struct ftsw_cc_log *l = &sw->cc.log;
	unsigned int i, port;

	memset(d, 0, FTSW_CC_LOG_LEN);
	d[CL_TYPE] = 1;
	spin_lock_bh(&sw->ll_lock);
	put_unaligned_be16(l->count, d + CL_COUNT);
	put_unaligned_be32(ftsw_cc_timestamp(), d + CL_SW_TS);
	for_each_set_bit(port, l->ports, 256)
		d[CL_SW_MAP + 31 - port / 8] |= 1 << (port % 8);
	for (i = 0; i < l->n; i++) {
		const struct ftsw_cc_event *e =
			ftsw_cc_log_ev(l, FTSW_CC_LOG_SW, i);
		u8 *o = d + CL_SW_EV + i * 12;

		put_unaligned_be16(e->slid, o);
		put_unaligned_be16(e->dlid, o + 2);
		o[4] = e->sl << 4;
		put_unaligned_be32(e->ts, o + 8);
	}
	memset(l, 0, sizeof(*l));
	spin_unlock_bh(&sw->ll_lock);
}

/*
 * CongestionLog, CA (type 2): ThresholdEventCounter and its SL map, the
 * time, the latest 13 events (a BECN that took its unit's index to the
 * trigger threshold: SL, local LID, remote LID, time; ftsw has no QPs:
 * 0). Read and cleared.
 */
static void ftsw_cc_log_ca(struct ftsw_port *p, u8 *d)
{
	struct ftsw_cc_log *l = &p->ca.cc.log;
	unsigned int i;

	memset(d, 0, FTSW_CC_LOG_LEN);
	d[CL_TYPE] = 2;
	spin_lock_bh(&p->sw->ll_lock);
	put_unaligned_be16(l->count, d + CL_COUNT);
	put_unaligned_be16(l->sl_map, d + CL_CA_MAP);
	put_unaligned_be32(ftsw_cc_timestamp(), d + CL_CA_TS);
	for (i = 0; i < l->n; i++) {
		const struct ftsw_cc_event *e =
			ftsw_cc_log_ev(l, FTSW_CC_LOG_CA, i);
		u8 *o = d + CL_CA_EV + i * 16;

		o[3] = e->sl << 4;
		put_unaligned_be16(e->dlid, o + 8);
		put_unaligned_be16(e->slid, o + 10);
		put_unaligned_be32(e->ts, o + 12);
	}
	memset(l, 0, sizeof(*l));
	spin_unlock_bh(&p->sw->ll_lock);
}

/* SwitchCongestionSetting: a Set applies the fields its Control_Map names. */
static void ftsw_cc_sw_setting(struct ftsw_cc_sw *cc, u8 *d, bool set)
{
	if (set) {
		u32 map = get_unaligned_be32(d + SS_MAP);

		WRITE_ONCE(cc->control_map, map);
		if (map & SS_MAP_VICTIM)
			memcpy(cc->victim, d + SS_VICTIM, sizeof(cc->victim));
		if (map & SS_MAP_CREDIT)
			memcpy(cc->credit, d + SS_CREDIT, sizeof(cc->credit));
		if (map & SS_MAP_THRESH) {
			WRITE_ONCE(cc->threshold, d[SS_THRESH] >> 4);
			WRITE_ONCE(cc->packet_size, d[SS_PKT]);
		}
		if (map & SS_MAP_CS) {
			cc->cs_threshold = d[SS_CS_THRESH] >> 4;
			cc->cs_delay = get_unaligned_be16(d + SS_CS_DELAY);
		}
		if (map & SS_MAP_RATE)
			WRITE_ONCE(cc->marking_rate,
				   get_unaligned_be16(d + SS_RATE));
	}
	memset(d, 0, FTSW_CC_DATA_LEN);
	put_unaligned_be32(cc->control_map, d + SS_MAP);
	memcpy(d + SS_VICTIM, cc->victim, sizeof(cc->victim));
	memcpy(d + SS_CREDIT, cc->credit, sizeof(cc->credit));
	d[SS_THRESH] = cc->threshold << 4;
	d[SS_PKT] = cc->packet_size;
	d[SS_CS_THRESH] = cc->cs_threshold << 4;
	put_unaligned_be16(cc->cs_delay, d + SS_CS_DELAY);
	put_unaligned_be16(cc->marking_rate, d + SS_RATE);
}

/* One SwitchPortCongestionSetting element (4 bytes). */
static void ftsw_cc_port_set(struct ftsw_cc_port *c, const u8 *e)
{
	WRITE_ONCE(c->threshold, e[0] & 0x0f);
	WRITE_ONCE(c->packet_size, e[1]);
	WRITE_ONCE(c->marking_rate, get_unaligned_be16(e + 2));
	c->control_type = !!(e[0] & 0x40);
	WRITE_ONCE(c->valid, !!(e[0] & 0x80));
}

static void ftsw_cc_port_get(const struct ftsw_cc_port *c, u8 *e)
{
	e[0] = (c->valid ? 0x80 : 0) | (c->control_type ? 0x40 : 0) |
	       c->threshold;
	e[1] = c->packet_size;
	put_unaligned_be16(c->marking_rate, e + 2);
}

/*
 * SwitchPortCongestionSetting: modifier = block of 48 ports (0..47,
 * 48..95, ...), past the switch's last port's block 0x1C. Elements of
 * ports the switch lacks or has not bound read 0 and are not written.
 */
static int ftsw_cc_sw_ports(struct ftsw_switch *sw, struct ftsw_cc_req *r)
{
	u8 in[FTSW_CC_DATA_LEN];
	unsigned int i, port;

	if (r->mod > sw->nports / FTSW_CC_PORTS_PER_BLOCK)
		return ST_VALUE;
	memcpy(in, r->d, sizeof(in));
	memset(r->d, 0, FTSW_CC_DATA_LEN);
	for (i = 0; i < FTSW_CC_PORTS_PER_BLOCK; i++) {
		struct ftsw_cc_port *c;
		struct ftsw_port *p;

		port = r->mod * FTSW_CC_PORTS_PER_BLOCK + i;
		if (port > sw->nports)
			break;
		if (port) {
			p = rcu_dereference(sw->ports[port]);
			if (!p)
				continue;
			c = &p->cc;
		} else {
			c = &sw->cc.port0;
		}
		if (r->set)
			ftsw_cc_port_set(c, in + i * 4);
		ftsw_cc_port_get(c, r->d + i * 4);
	}
	return ST_OK;
}

/* CACongestionSetting: a Set writes Port_Control and the mapped SLs. */
static void ftsw_cc_ca_setting(struct ftsw_cc_ca *cc, u8 *d, bool set)
{
	unsigned int sl;

	if (set) {
		u16 map = get_unaligned_be16(d + CS_MAP);

		WRITE_ONCE(cc->port_control, get_unaligned_be16(d + CS_PORT_CTL));
		cc->control_map = map;
		for (sl = 0; sl < FTSW_CC_SLS; sl++) {
			const u8 *e = d + CS_ENT + sl * 8;
			struct ftsw_cc_sl *s = &cc->sl[sl];

			if (!(map & BIT(sl)))
				continue;
			WRITE_ONCE(s->timer, get_unaligned_be16(e));
			WRITE_ONCE(s->increase, e[2]);
			WRITE_ONCE(s->trigger, e[3]);
			WRITE_ONCE(s->min, e[4]);
		}
	}
	memset(d, 0, FTSW_CC_DATA_LEN);
	put_unaligned_be16(cc->port_control, d + CS_PORT_CTL);
	put_unaligned_be16(cc->control_map, d + CS_MAP);
	for (sl = 0; sl < FTSW_CC_SLS; sl++) {
		u8 *e = d + CS_ENT + sl * 8;

		put_unaligned_be16(cc->sl[sl].timer, e);
		e[2] = cc->sl[sl].increase;
		e[3] = cc->sl[sl].trigger;
		e[4] = cc->sl[sl].min;
	}
}

/*
 * CongestionControlTable: modifier = block of 64 entries, up to
 * ControlTableCap (2 blocks); a Set writes the block's entries and
 * CCTI_Limit, which must index the table (else 0x1C, nothing written).
 */
static int ftsw_cc_table(struct ftsw_cc_ca *cc, struct ftsw_cc_req *r)
{
	u16 *blk = cc->cct + r->mod * FTSW_CC_CCT_PER_BLOCK;
	unsigned int i;

	if (r->mod >= FTSW_CC_CCT_BLOCKS)
		return ST_VALUE;
	if (r->set) {
		u16 limit = get_unaligned_be16(r->d + CT_LIMIT);

		if (limit >= FTSW_CC_CCT_CAP)
			return ST_VALUE;
		for (i = 0; i < FTSW_CC_CCT_PER_BLOCK; i++)
			WRITE_ONCE(blk[i],
				   get_unaligned_be16(r->d + CT_ENT + i * 2));
		WRITE_ONCE(cc->cct_limit, limit);
	}
	memset(r->d, 0, FTSW_CC_DATA_LEN);
	put_unaligned_be16(cc->cct_limit, r->d + CT_LIMIT);
	for (i = 0; i < FTSW_CC_CCT_PER_BLOCK; i++)
		put_unaligned_be16(blk[i], r->d + CT_ENT + i * 2);
	return ST_OK;
}

/*
 * Read the request's header; a status (or -EOPNOTSUPP) when the agent
 * answers before looking at the key.
 */
static int ftsw_cc_req(void *mad, struct ftsw_cc_req *r)
{
	r->hdr = mad;
	r->d = (u8 *)mad + FTSW_CC_DATA_OFF;
	r->mod = be32_to_cpu(r->hdr->attr_mod);
	r->attr = be16_to_cpu(r->hdr->attr_id);
	r->set = r->hdr->method == IB_MGMT_METHOD_SET;
	return ftsw_cc_method(r->hdr);
}

static u64 ftsw_cc_mad_key(const void *mad)
{
	return get_unaligned_be64((const u8 *)mad + FTSW_CC_KEY_OFF);
}

/* A switch's CC attributes, under sma_lock: the status to answer with. */
static int ftsw_cc_switch_attr(void *obj, struct ftsw_cc_req *r)
{
	struct ftsw_switch *sw = obj;

	switch (r->attr) {
	case FTSW_CC_ATTR_SW_SETTING:
		if (r->mod)
			return ST_VALUE;
		ftsw_cc_sw_setting(&sw->cc, r->d, r->set);
		return ST_OK;
	case FTSW_CC_ATTR_SW_PORT_SETTING:
		return ftsw_cc_sw_ports(sw, r);
	default:
		return ftsw_cc_common(r, &sw->cc.key, 0);
	}
}

/* The CC attributes of the CA behind an edge port, under sma_lock. */
static int ftsw_cc_ca_attr(void *obj, struct ftsw_cc_req *r)
{
	struct ftsw_cc_ca *cc = obj;

	switch (r->attr) {
	case FTSW_CC_ATTR_CA_SETTING:
		if (r->mod)
			return ST_VALUE;
		ftsw_cc_ca_setting(cc, r->d, r->set);
		return ST_OK;
	case FTSW_CC_ATTR_TABLE:
		return ftsw_cc_table(cc, r);
	default:
		return ftsw_cc_common(r, &cc->key, FTSW_CC_CCT_BLOCKS);
	}
}

/*
 * One CC agent's request: @mad parsed into @r, its CC_Key checked against
 * @k and @attr run, both under @fn's sma_lock. Returns the status to
 * answer with, or < 0: not answered (-EOPNOTSUPP: not a request;
 * -EACCES: the CC_Key check failed).
 */
static int ftsw_cc_agent(struct ftsw_net *fn, struct ftsw_cc_key *k,
			 void *mad, struct ftsw_cc_req *r,
			 int (*attr)(void *obj, struct ftsw_cc_req *r),
			 void *obj)
{
	int st = ftsw_cc_req(mad, r);

	if (st)
		return st;
	spin_lock_bh(&fn->sma_lock);
	if (ftsw_cc_key_ok(k, ftsw_cc_mad_key(mad), !r->set))
		st = attr(obj, r);
	else
		st = -EACCES;
	spin_unlock_bh(&fn->sma_lock);
	return st;
}

/* A switch's CC agent: as ftsw_cc_agent(). */
int ftsw_cc_switch(struct ftsw_switch *sw, void *mad)
{
	struct ftsw_cc_req r;
	int st = ftsw_cc_agent(sw->fn, &sw->cc.key, mad, &r,
			       ftsw_cc_switch_attr, sw);

	if (r.attr == FTSW_CC_ATTR_LOG && st == ST_OK)
		ftsw_cc_log_switch(sw, (u8 *)mad + FTSW_CC_LOG_OFF);
	return st;
}

/* The CC agent of the CA behind edge port @p: as ftsw_cc_agent(). */
int ftsw_cc_ca(struct ftsw_port *p, void *mad)
{
	struct ftsw_cc_req r;
	int st = ftsw_cc_agent(p->sw->fn, &p->ca.cc.key, mad, &r,
			       ftsw_cc_ca_attr, &p->ca.cc);

	if (r.attr == FTSW_CC_ATTR_LOG && st == ST_OK)
		ftsw_cc_log_ca(p, (u8 *)mad + FTSW_CC_LOG_OFF);
	return st;
}

/* ------------------------------------------------- marking (switches) */

/*
 * A VL's output queue is congested when it holds at least (16 -
 * threshold) / 16 of its capacity, both in blocks; threshold 0 never
 * (Documentation/congestion.md, "Marking": cc.h's ftsw_cc_congested()).
 */
static bool ftsw_cc_congested(u8 threshold, u32 occ, u32 cap)
{
	if (!threshold || threshold > 15)
		return false;
	return (u64)occ * 16 >= (u64)cap * (16 - threshold);
}

/* Is @port set in a 256-bit port mask (big endian, byte 31 bit 0 port 0)? */
static bool ftsw_cc_in_mask(const u8 *mask, u8 port)
{
	return mask[31 - port / 8] >> (port % 8) & 1;
}

/*
 * Whether a packet of @blocks that starts on @p's link now gets FECN, its
 * VL's output queue holding @occ blocks (this packet included) of @cap;
 * @victim: the VL waited for credit since its previous packet started;
 * @skip: the VL's count of eligible packets still to pass over. The rule
 * is cc.h's ftsw_cc_mark() with the switch's SwitchCongestionSetting
 * (each field only while its Control_Map bit is set), or the port's
 * SwitchPortCongestionSetting element while it is valid and of control
 * type 0 (its threshold, packet size and marking rate replace the
 * switch's). Under the switch's ll_lock.
 */
bool ftsw_cc_mark(const struct ftsw_port *p, u16 *skip, u32 blocks,
		  u32 occ, u32 cap, bool victim)
{
	const struct ftsw_cc_sw *cc = &p->sw->cc;
	const struct ftsw_cc_port *pc = &p->cc;
	u32 map = READ_ONCE(cc->control_map);
	u8 thr, size;
	u16 rate;

	if (READ_ONCE(pc->valid) && !READ_ONCE(pc->control_type)) {
		thr = READ_ONCE(pc->threshold);
		size = READ_ONCE(pc->packet_size);
		rate = READ_ONCE(pc->marking_rate);
	} else {
		if (!(map & SS_MAP_THRESH))
			return false;
		thr = READ_ONCE(cc->threshold);
		size = READ_ONCE(cc->packet_size);
		rate = map & SS_MAP_RATE ? READ_ONCE(cc->marking_rate) : 0;
	}
	if (!ftsw_cc_congested(thr, occ, cap) || blocks < size)
		return false;
	if (victim && !((map & SS_MAP_VICTIM) &&
			ftsw_cc_in_mask(cc->victim, p->num)))
		return false;
	if (*skip) {
		(*skip)--;
		return false;
	}
	*skip = rate;
	return true;
}

/* ------------------------------------------------ notification (CAs) */

/*
 * The congestion notification the CA behind a destination's edge port
 * returns for a packet that arrived with FECN (its fabric header @h): a
 * fabric frame with no payload, proto FTSW_PROTO_CNP, from the packet's
 * destination LID to its source, on its SL with BECN, in its partition.
 * NULL without memory: the notification is lost, as a dropped one is.
 */
struct sk_buff *ftsw_cc_cnp(const struct ftsw_hdr *h)
{
	struct ftsw_hdr *n;
	struct sk_buff *skb;
	struct ethhdr *eth;

	skb = alloc_skb(NET_SKB_PAD + ETH_HLEN + FTSW_HLEN, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put_zero(skb, ETH_HLEN + FTSW_HLEN);
	ftsw_lid_to_mac(ntohs(h->slid), eth->h_dest);
	ftsw_lid_to_mac(ntohs(h->dlid), eth->h_source);
	eth->h_proto = htons(FTSW_ETH_P);
	skb_reset_mac_header(skb);
	skb->mac_len = ETH_HLEN;
	skb->protocol = htons(FTSW_ETH_P);
	n = (struct ftsw_hdr *)(skb->data + ETH_HLEN);
	n->dlid = h->slid;
	n->slid = h->dlid;
	n->sl = (h->sl & FTSW_SL_MASK) | FTSW_HDR_BECN;
	n->pkey = h->pkey;
	n->proto = htons(FTSW_PROTO_CNP);
	return skb;
}

/* --------------------------------------------------- throttling (CAs) */

/*
 * SL @sl's settings of a CA as its units use them (cc.h's ftsw_cc_sl_of):
 * zeros for an SL outside the last Set's Control_Map (no increase, no
 * delay); the timer's period in ns, CCTI_Timer units of @unit_ns; a
 * CCTI_Min past the table is its last entry.
 */
void ftsw_cc_sl_get(const struct ftsw_cc_ca *cc, u8 sl, u32 unit_ns,
		    struct ftsw_cc_rt *s)
{
	const struct ftsw_cc_sl *e = &cc->sl[sl & FTSW_SL_MASK];

	memset(s, 0, sizeof(*s));
	s->limit = READ_ONCE(cc->cct_limit);
	if (!(READ_ONCE(cc->control_map) & BIT(sl & FTSW_SL_MASK)))
		return;
	s->period = (u64)READ_ONCE(e->timer) * unit_ns;
	s->increase = READ_ONCE(e->increase);
	s->trigger = READ_ONCE(e->trigger);
	s->min = min_t(u16, READ_ONCE(e->min), s->limit);
}

/*
 * The CCTI timer's expiries up to @now (cc.h's ftsw_cc_flow_tick()): each
 * lowers the index by one down to CCTI_Min; the timer stops there. A
 * unit's index never sits below CCTI_Min (it starts there).
 */
void ftsw_cc_tick(struct ftsw_cc_unit *u, const struct ftsw_cc_rt *s,
		  u64 now)
{
	u64 n;

	if (u->ccti < s->min)
		u->ccti = s->min;
	if (!u->timer_on || now < u->timer_at)
		return;
	if (!s->period || u->ccti <= s->min) {
		u->timer_on = false;
		return;
	}
	n = div64_u64(now - u->timer_at, s->period) + 1;
	if (n >= u->ccti - s->min) {
		u->ccti = s->min;
		u->timer_on = false;
		return;
	}
	u->ccti -= n;
	u->timer_at += n * s->period;
}

/*
 * A BECN for the unit at @now (cc.h's ftsw_cc_becn()): the timer catches
 * up, the index rises by CCTI_Increase up to CCTI_Limit, the timer starts
 * unless it runs. True: the index reached Trigger_Threshold (0: never)
 * with this BECN, an event for the CA's CongestionLog.
 */
bool ftsw_cc_becn(struct ftsw_cc_unit *u, const struct ftsw_cc_rt *s,
		  u64 now)
{
	u16 before;
	u32 c;

	ftsw_cc_tick(u, s, now);
	before = u->ccti;
	c = before + s->increase;
	if (c > s->limit)
		c = max(s->limit, before);
	u->ccti = c;
	if (!u->timer_on && s->period && u->ccti > s->min) {
		u->timer_on = true;
		u->timer_at = now + s->period;
	}
	return s->trigger && before < s->trigger && u->ccti >= s->trigger;
}

/*
 * The inter-packet delay after a packet lasting @pkt_ns on the link at
 * index @ccti: @pkt_ns * CCT_Multiplier >> CCT_Shift of the table's entry
 * min(ccti, CCTI_Limit) (cc.h's ftsw_cc_ipd()).
 */
u64 ftsw_cc_ipd(const struct ftsw_cc_ca *cc, u16 ccti, u64 pkt_ns)
{
	u16 limit = READ_ONCE(cc->cct_limit), e;

	e = READ_ONCE(cc->cct[min_t(u16, min(ccti, limit),
				    FTSW_CC_CCT_CAP - 1)]);
	return pkt_ns * (e & 0x3fff) >> (e >> 14);
}

/* A packet of the unit started at @start: when its next may start. */
void ftsw_cc_sent(struct ftsw_cc_unit *u, const struct ftsw_cc_ca *cc,
		  const struct ftsw_cc_rt *s, u64 start, u64 pkt_ns)
{
	ftsw_cc_tick(u, s, start);
	u->next_send = start + pkt_ns + ftsw_cc_ipd(cc, u->ccti, pkt_ns);
}
