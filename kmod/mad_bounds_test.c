// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the bounds of every field a MAD carries that indexes
 * something (issue 41): each one at 0, at what the switch or CA has, just
 * past it and at its largest value, in the attribute modifier and in the
 * payload, answered by the agents (sma.c, pma.c) with the status IBA vol. 1
 * gives (13.4.7: 0x1C, invalid attribute or modifier value) and walked by
 * the directed-route engine (mad.c, 14.2.2) as a real switch walks it.
 *
 * The fixture: a switch of 4 ports (the array sw->ports holds exactly 5
 * entries, so KASAN reports any read past port 4) with port 1 and 4 to
 * other switches, port 2 to a host's CA, port 3 unbound. Expected statuses
 * come from the specification's tables, worked out by hand below.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include "mad.h"
#include "pma.h"
#include "sma.h"
#include "test_util.h"

#define OK	0x00
#define ATTR	0x0c	/* unsupported method/attribute combination */
#define VALUE	0x1c	/* invalid value in the modifier or a field */

struct t_bnd {
	struct ftsw_net fn;
	struct ftsw_switch *sw;
	struct ftsw_port *p[5];		/* [3]: unbound */
	struct ib_smp *mad;		/* 256 bytes: an SMP, or a PMA GMP */
};

static struct t_bnd *t_bnd_new(struct kunit *test)
{
	struct t_bnd *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->mad = kunit_kzalloc(test, sizeof(*f->mad), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mad);
	f->sw = ftsw_t_switch_new(test, &f->fn, 1, false);
	for (i = 1; i <= 4; i++) {
		if (i == 3)
			continue;
		f->p[i] = ftsw_t_port_new(test, f->sw, i, i == 2 ?
					  FTSW_PORT_EDGE : FTSW_PORT_LINK);
	}
	ftsw_t_edge_policy(test, f->p[2], 8, 0, 1);
	return f;
}

static void t_bnd_free(struct t_bnd *f)
{
	ftsw_t_ports_free(f->p, ARRAY_SIZE(f->p));
	ftsw_t_switch_free(f->sw);
	ftsw_t_fabric_exit(&f->fn);
}

enum t_at { T_SW, T_CA };

/*
 * One request: an SMP (class 0x01, asked of the switch as if it came in by
 * port 1) or a PMA GMP (class 0x04), to the switch or to the CA behind
 * port 2, with the big-endian payload field data[off..off+len) set to val
 * (len 0: no field), and the status it must get.
 */
struct t_row {
	u8 at, class, method;
	u16 attr;
	u32 mod;
	u8 off, len;
	u32 val;
	u16 status;
};

#define GET	IB_MGMT_METHOD_GET
#define SET	IB_MGMT_METHOD_SET
#define SMP	IB_MGMT_CLASS_SUBN_LID_ROUTED
#define PMA	IB_MGMT_CLASS_PERF_MGMT

/* Send a row's request; the agent's status (or a negative errno). */
static int t_row_run(struct t_bnd *f, const struct t_row *r)
{
	struct ib_smp *m = f->mad;
	u8 *data = r->class == PMA ? ((struct ib_pma_mad *)m)->data : m->data;
	int i, st;

	memset(m, 0, sizeof(*m));
	m->base_version = IB_MGMT_BASE_VERSION;
	m->mgmt_class = r->class;
	m->class_version = 1;
	m->method = r->method;
	m->tid = cpu_to_be64(41);
	m->attr_id = cpu_to_be16(r->attr);
	m->attr_mod = cpu_to_be32(r->mod);
	for (i = 0; i < r->len; i++)
		data[r->off + i] = r->val >> (8 * (r->len - 1 - i));
	rcu_read_lock();
	local_bh_disable();
	if (r->class == PMA)
		st = r->at == T_CA ? ftsw_pma_ca(f->p[2], m) :
		     ftsw_pma_switch(f->sw, m);
	else
		st = r->at == T_CA ? ftsw_sma_ca(f->p[2], m, false) :
		     ftsw_sma_switch(f->sw, 1, m);
	local_bh_enable();
	rcu_read_unlock();
	return st;
}

static void t_rows(struct kunit *test, const struct t_row *rows, int n)
{
	struct t_bnd *f = t_bnd_new(test);
	int i;

	for (i = 0; i < n; i++) {
		const struct t_row *r = &rows[i];

		KUNIT_EXPECT_EQ_MSG(test, t_row_run(f, r), r->status,
				    "row %d: %s class 0x%02x method %u attr 0x%04x mod 0x%x field %u=0x%x",
				    i, r->at == T_CA ? "CA" : "switch",
				    r->class, r->method, r->attr, r->mod,
				    r->off, r->val);
	}
	t_bnd_free(f);
}

/* PMA attribute IDs (IBA vol. 1, 16.1.2). */
#define CPI	0x0001
#define PC	0x0012
#define PCX	0x001d
#define PSC	0x0010	/* PortSamplesControl */

/*
 * PortSelect (byte 1 of every PMA attribute but ClassPortInfo): 0..4 on
 * the switch, 0 (the port the MAD came by) and 1 on a CA; 0xFF (all ports)
 * is refused, as ClassPortInfo does not announce AllPortSelect. Byte 1 of
 * ClassPortInfo is its ClassVersion: no port is looked up, whatever it is
 * (572353e looked up sw->ports[byte 1] there: KASAN, issue 41). An
 * attribute the PMA does not serve is 0x0C whatever its byte 1 (it was
 * 0x1C past the ports: found by madfuzz's status check).
 */
static void t_pma_port_select(struct kunit *test)
{
	static const struct t_row rows[] = {
		{ T_SW, PMA, GET, CPI, 0, 1, 1, 0, OK },
		{ T_SW, PMA, GET, CPI, 0, 1, 1, 4, OK },
		{ T_SW, PMA, GET, CPI, 0, 1, 1, 5, OK },
		{ T_SW, PMA, GET, CPI, 0, 1, 1, 0xff, OK },
		{ T_SW, PMA, GET, PC, 0, 1, 1, 0, OK },
		{ T_SW, PMA, GET, PC, 0, 1, 1, 3, OK },	/* unbound: zeros */
		{ T_SW, PMA, GET, PC, 0, 1, 1, 4, OK },
		{ T_SW, PMA, GET, PC, 0, 1, 1, 5, VALUE },
		{ T_SW, PMA, GET, PC, 0, 1, 1, 0xff, VALUE },
		{ T_SW, PMA, GET, PCX, 0, 1, 1, 0, OK },
		{ T_SW, PMA, GET, PCX, 0, 1, 1, 4, OK },
		{ T_SW, PMA, GET, PCX, 0, 1, 1, 5, VALUE },
		{ T_SW, PMA, GET, PCX, 0, 1, 1, 0xff, VALUE },
		/* The request: CounterSelect 0xFFFF, Set and Get. */
		{ T_SW, PMA, SET, PC, 0, 1, 3, 0x04ffff, OK },
		{ T_SW, PMA, SET, PC, 0, 1, 3, 0x05ffff, VALUE },
		{ T_SW, PMA, GET, PC, 0, 1, 3, 0xc8ffff, VALUE },
		{ T_SW, PMA, SET, PCX, 0, 1, 3, 0xffffff, VALUE },
		{ T_CA, PMA, GET, CPI, 0, 1, 1, 0, OK },
		{ T_CA, PMA, GET, CPI, 0, 1, 1, 2, OK },
		{ T_CA, PMA, GET, CPI, 0, 1, 1, 0xff, OK },
		{ T_CA, PMA, GET, PC, 0, 1, 1, 0, OK },
		{ T_CA, PMA, GET, PC, 0, 1, 1, 1, OK },
		{ T_CA, PMA, GET, PC, 0, 1, 1, 2, VALUE },
		{ T_CA, PMA, GET, PC, 0, 1, 1, 0xff, VALUE },
		{ T_CA, PMA, SET, PCX, 0, 1, 3, 0x02ffff, VALUE },
		{ T_CA, PMA, SET, PCX, 0, 1, 3, 0xffffff, VALUE },
		/* PortSamplesControl: not served, whatever its PortSelect. */
		{ T_SW, PMA, GET, PSC, 0, 1, 1, 0, ATTR },
		{ T_SW, PMA, GET, PSC, 0, 1, 1, 5, ATTR },
		{ T_SW, PMA, SET, PSC, 0, 1, 1, 0xff, ATTR },
		{ T_CA, PMA, GET, PSC, 0, 1, 1, 1, ATTR },
		{ T_CA, PMA, GET, PSC, 0, 1, 1, 2, ATTR },
	};

	t_rows(test, rows, ARRAY_SIZE(rows));
}

/* ClassPortInfo's answer does not depend on what byte 1 asked. */
static void t_pma_cpi_answer(struct kunit *test)
{
	static const struct t_row cpi = { T_SW, PMA, GET, CPI, 0, 1, 1, 0xff };
	struct t_bnd *f = t_bnd_new(test);
	struct ib_class_port_info *c;

	KUNIT_EXPECT_EQ(test, t_row_run(f, &cpi), OK);
	c = (void *)((struct ib_pma_mad *)f->mad)->data;
	KUNIT_EXPECT_EQ(test, c->base_version, 1);
	KUNIT_EXPECT_EQ(test, c->class_version, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(c->capability_mask), 1 << 9);
	t_bnd_free(f);
}

/* SMA attribute IDs (IBA vol. 1, 14.2.5). */
#define NOTICE	0x0002
#define SWINFO	0x0012
#define GUIDS	0x0014
#define PINFO	0x0015
#define PKEYS	0x0016
#define SL2VL	0x0017
#define VLARB	0x0018
#define LFT	0x0019
#define MFT	0x001b

/*
 * The modifiers: PortInfo's port (0..4; a CA: 0 or 1), P_KeyTable's block
 * (one of 32 entries: 0 only) and, on a switch, port in bits 31:16,
 * SLtoVL's input and output ports (15:8, 7:0; a CA: 0), VLArbitration's
 * block 1..4 (31:16) and, on a switch, a bound port 1..4 (15:0), LFT
 * blocks 0..767 (0xC000 LIDs), MFT blocks 0..7 (256 MLIDs) and position
 * 0 (ports 0..15 cover 4 ports), GUIDInfo block 0 (GUIDCap 1).
 */
static void t_sma_modifiers(struct kunit *test)
{
	static const struct t_row rows[] = {
		{ T_SW, SMP, GET, PINFO, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, PINFO, 3, 0, 0, 0, OK },	/* Down */
		{ T_SW, SMP, GET, PINFO, 4, 0, 0, 0, OK },
		{ T_SW, SMP, GET, PINFO, 5, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PINFO, 255, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PINFO, 0xffffffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, PINFO, 5, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, PINFO, 0, 0, 0, 0, OK },
		{ T_CA, SMP, GET, PINFO, 1, 0, 0, 0, OK },
		{ T_CA, SMP, GET, PINFO, 2, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, PINFO, 0xffffffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PKEYS, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, PKEYS, 4 << 16, 0, 0, 0, OK },
		{ T_SW, SMP, GET, PKEYS, 5 << 16, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PKEYS, 0xffff0000, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PKEYS, 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, PKEYS, 0xffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, PKEYS, 1, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, PKEYS, 0, 0, 0, 0, OK },
		{ T_CA, SMP, GET, PKEYS, 0xffff0000, 0, 0, 0, OK },
		{ T_CA, SMP, GET, PKEYS, 1, 0, 0, 0, VALUE },
		{ T_CA, SMP, SET, PKEYS, 0xffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, SL2VL, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, SL2VL, 4 << 8 | 4, 0, 0, 0, OK },
		{ T_SW, SMP, GET, SL2VL, 5 << 8 | 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, SL2VL, 1 << 8 | 5, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, SL2VL, 0xffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, SL2VL, 1 << 16, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, SL2VL, 0xffffffff, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, SL2VL, 0, 0, 0, 0, OK },
		{ T_CA, SMP, GET, SL2VL, 1, 0, 0, 0, VALUE },
		{ T_CA, SMP, SET, SL2VL, 0xffffffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 1 << 16 | 1, 0, 0, 0, OK },
		{ T_SW, SMP, GET, VLARB, 4 << 16 | 4, 0, 0, 0, OK },
		{ T_SW, SMP, GET, VLARB, 0 << 16 | 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 5 << 16 | 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 0xffff << 16 | 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 1 << 16 | 0, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 1 << 16 | 3, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, VLARB, 1 << 16 | 5, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, VLARB, 3 << 16 | 0xffff, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, VLARB, 1 << 16, 0, 0, 0, OK },
		{ T_CA, SMP, GET, VLARB, 4 << 16 | 0xffff, 0, 0, 0, OK },
		{ T_CA, SMP, GET, VLARB, 0, 0, 0, 0, VALUE },
		{ T_CA, SMP, SET, VLARB, 5 << 16, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, VLARB, 0xffff << 16, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, LFT, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, LFT, 767, 0, 0, 0, OK },
		{ T_SW, SMP, GET, LFT, 768, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, LFT, 0xffffffff, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, LFT, 768, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, LFT, 0, 0, 0, 0, ATTR },
		{ T_SW, SMP, GET, MFT, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, MFT, 7, 0, 0, 0, OK },
		{ T_SW, SMP, GET, MFT, 8, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, MFT, 0x1ff, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, MFT, 1U << 28, 0, 0, 0, VALUE },
		{ T_SW, SMP, SET, MFT, 15U << 28 | 7, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, MFT, 0, 0, 0, 0, ATTR },
		{ T_SW, SMP, GET, GUIDS, 0, 0, 0, 0, OK },
		{ T_SW, SMP, GET, GUIDS, 1, 0, 0, 0, VALUE },
		{ T_SW, SMP, GET, GUIDS, 0xffffffff, 0, 0, 0, VALUE },
		{ T_CA, SMP, GET, GUIDS, 0, 0, 0, 0, OK },
		{ T_CA, SMP, GET, GUIDS, 1, 0, 0, 0, VALUE },
		/* Notices are the SM's: no agent answers a Get of one. */
		{ T_SW, SMP, GET, NOTICE, 0xffffffff, 0, 0, 0, ATTR },
	};

	t_rows(test, rows, ARRAY_SIZE(rows));
}

/*
 * The payload fields that name ports, LIDs or VLs: LFT entries (ports
 * 0..4 or 0xFF, no route), SwitchInfo's LinearFDBTop (up to 0xBFFF) and
 * MulticastFDBTop (0, or 0xC000 up to the 256 MLIDs stored), PortInfo's
 * LocalPortNum (read-only: any value, ignored).
 */
static void t_sma_payload(struct kunit *test)
{
	static const struct t_row rows[] = {
		{ T_SW, SMP, SET, LFT, 0, 0, 1, 0, OK },
		{ T_SW, SMP, SET, LFT, 0, 0, 1, 4, OK },
		{ T_SW, SMP, SET, LFT, 0, 63, 1, 5, VALUE },
		{ T_SW, SMP, SET, LFT, 767, 63, 1, 254, VALUE },
		{ T_SW, SMP, SET, LFT, 767, 63, 1, 0xff, OK },
		{ T_SW, SMP, SET, SWINFO, 0, 6, 2, 0, OK },
		{ T_SW, SMP, SET, SWINFO, 0, 6, 2, 0xbfff, OK },
		{ T_SW, SMP, SET, SWINFO, 0, 6, 2, 0xc000, VALUE },
		{ T_SW, SMP, SET, SWINFO, 0, 6, 2, 0xffff, VALUE },
		{ T_SW, SMP, SET, SWINFO, 0, 18, 2, 0xc000, OK },
		{ T_SW, SMP, SET, SWINFO, 0, 18, 2, 0xc0ff, OK },
		{ T_SW, SMP, SET, SWINFO, 0, 18, 2, 0xc100, VALUE },
		{ T_SW, SMP, SET, SWINFO, 0, 18, 2, 0xbfff, VALUE },
		{ T_SW, SMP, SET, SWINFO, 0, 18, 2, 0xffff, VALUE },
		{ T_CA, SMP, SET, SWINFO, 0, 6, 2, 0, ATTR },
		{ T_SW, SMP, SET, PINFO, 4, 28, 1, 0xff, OK },
	};

	t_rows(test, rows, ARRAY_SIZE(rows));
}

/*
 * A PortInfo Set's LocalPortNum is not used: the answer names the port the
 * SMP came in by (1), the CA its only port.
 */
static void t_portinfo_local_port(struct kunit *test)
{
	static const struct t_row sw = { T_SW, SMP, SET, PINFO, 4, 28, 1, 0xff };
	struct t_bnd *f = t_bnd_new(test);
	struct ib_port_info *pi = (void *)f->mad->data;

	KUNIT_EXPECT_EQ(test, t_row_run(f, &sw), OK);
	KUNIT_EXPECT_EQ(test, pi->local_port_num, 1);
	t_bnd_free(f);
}

/*
 * TrapRepress of a Notice: taken by TID alone, whatever the trap data
 * says; the switch's own waiting trap (none here) is not touched.
 */
static void t_notice(struct kunit *test)
{
	struct t_bnd *f = t_bnd_new(test);
	struct ib_smp *m = f->mad;

	memset(m, 0xff, sizeof(*m));
	m->base_version = IB_MGMT_BASE_VERSION;
	m->mgmt_class = SMP;
	m->class_version = 1;
	m->method = IB_MGMT_METHOD_TRAP_REPRESS;
	m->attr_id = IB_SMP_ATTR_NOTICE;
	rcu_read_lock();
	local_bh_disable();
	KUNIT_EXPECT_EQ(test, ftsw_sma_switch(f->sw, 4, m), FTSW_SMA_TAKEN);
	m->method = IB_MGMT_METHOD_TRAP;
	KUNIT_EXPECT_EQ(test, ftsw_sma_switch(f->sw, 4, m), -EOPNOTSUPP);
	local_bh_enable();
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, f->sw->trap_wait, 0ULL);
	t_bnd_free(f);
}

/*
 * Directed routes at a switch of 4 ports (14.2.2): the next port named by
 * the initial path (outgoing) or the return path (returning) at 0, 4, 5,
 * 255; hop counts 63 (the largest), 64 and 255; hop pointers past the
 * count. A port the switch has not is dropped (C14-9: the SMP is
 * discarded), never looked up.
 */
struct t_dr_row {
	u8 cnt, ptr, port;
	bool ret;		/* the D bit: a response returning */
	u8 act, out;
};

static void t_dr_bounds(struct kunit *test)
{
	static const struct t_dr_row rows[] = {
		/* Outgoing, in by port 1 at hop 1: initial_path[2]. */
		{ 2, 1, 0, false, FTSW_DR_DROP, 0 },
		{ 2, 1, 4, false, FTSW_DR_OUT, 4 },
		{ 2, 1, 5, false, FTSW_DR_DROP, 0 },
		{ 2, 1, 255, false, FTSW_DR_DROP, 0 },
		{ 63, 1, 4, false, FTSW_DR_OUT, 4 },
		{ 64, 1, 4, false, FTSW_DR_DROP, 0 },
		{ 255, 1, 4, false, FTSW_DR_DROP, 0 },
		{ 2, 4, 4, false, FTSW_DR_DROP, 0 },
		{ 63, 255, 4, false, FTSW_DR_DROP, 0 },
		/* Returning to hop 1 from hop 2: return_path[1]. */
		{ 2, 2, 0, true, FTSW_DR_DROP, 0 },
		{ 2, 2, 4, true, FTSW_DR_OUT, 4 },
		{ 2, 2, 5, true, FTSW_DR_DROP, 0 },
		{ 2, 2, 255, true, FTSW_DR_DROP, 0 },
		{ 63, 2, 4, true, FTSW_DR_OUT, 4 },
		{ 64, 2, 4, true, FTSW_DR_DROP, 0 },
		{ 2, 4, 4, true, FTSW_DR_DROP, 0 },
		{ 2, 0, 4, true, FTSW_DR_DROP, 0 },
	};
	struct ib_smp *smp = kunit_kzalloc(test, sizeof(*smp), GFP_KERNEL);
	enum ftsw_dr_act act;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, smp);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct t_dr_row *r = &rows[i];
		u8 out = 0;

		memset(smp, 0, sizeof(*smp));
		smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
		smp->hop_cnt = r->cnt;
		smp->hop_ptr = r->ptr;
		smp->dr_slid = htons(FTSW_LID_PERMISSIVE);
		smp->dr_dlid = htons(FTSW_LID_PERMISSIVE);
		if (r->ret) {
			smp->status = IB_SMP_DIRECTION;
			smp->return_path[1] = r->port;
		} else {
			smp->initial_path[2] = r->port;
		}
		act = ftsw_dr_switch(smp, 4, 1, false, &out);
		KUNIT_EXPECT_EQ_MSG(test, act, r->act, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, out, r->out, "row %d", i);
	}
}

/*
 * A CA's directed routes: it sends out of port 1 only (initial_path[1] or
 * return_path[hop count] 1), and takes hop counts up to 63.
 */
static void t_dr_ca_bounds(struct kunit *test)
{
	static const u8 ports[] = { 0, 1, 2, 255 };
	struct ib_smp *smp = kunit_kzalloc(test, sizeof(*smp), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, smp);
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		memset(smp, 0, sizeof(*smp));
		smp->hop_cnt = 3;
		smp->dr_slid = htons(FTSW_LID_PERMISSIVE);
		smp->dr_dlid = htons(FTSW_LID_PERMISSIVE);
		smp->initial_path[1] = ports[i];
		KUNIT_EXPECT_EQ(test, ftsw_dr_ca_send(smp), ports[i] == 1 ?
				FTSW_DR_OUT : FTSW_DR_DROP);
		memset(smp, 0, sizeof(*smp));
		smp->status = IB_SMP_DIRECTION;
		smp->hop_cnt = 3;
		smp->hop_ptr = 4;
		smp->dr_slid = htons(FTSW_LID_PERMISSIVE);
		smp->dr_dlid = htons(FTSW_LID_PERMISSIVE);
		smp->return_path[3] = ports[i];
		KUNIT_EXPECT_EQ(test, ftsw_dr_ca_send(smp), ports[i] == 1 ?
				FTSW_DR_OUT : FTSW_DR_DROP);
	}
	memset(smp, 0, sizeof(*smp));
	smp->dr_dlid = htons(FTSW_LID_PERMISSIVE);
	smp->hop_cnt = 63;
	smp->hop_ptr = 63;
	KUNIT_EXPECT_EQ(test, ftsw_dr_ca_recv(smp, false), FTSW_DR_LOCAL);
	KUNIT_EXPECT_EQ(test, smp->return_path[63], 1);
	memset(smp, 0, sizeof(*smp));
	smp->dr_dlid = htons(FTSW_LID_PERMISSIVE);
	smp->hop_cnt = 64;
	smp->hop_ptr = 64;
	KUNIT_EXPECT_EQ(test, ftsw_dr_ca_recv(smp, false), FTSW_DR_DROP);
	smp->hop_cnt = 255;
	smp->hop_ptr = 255;
	KUNIT_EXPECT_EQ(test, ftsw_dr_ca_recv(smp, false), FTSW_DR_DROP);
	KUNIT_EXPECT_EQ(test, ftsw_dr_ca_send(smp), FTSW_DR_DROP);
}

static struct kunit_case ftsw_mad_bounds_cases[] = {
	KUNIT_CASE(t_pma_port_select),
	KUNIT_CASE(t_pma_cpi_answer),
	KUNIT_CASE(t_sma_modifiers),
	KUNIT_CASE(t_sma_payload),
	KUNIT_CASE(t_portinfo_local_port),
	KUNIT_CASE(t_notice),
	KUNIT_CASE(t_dr_bounds),
	KUNIT_CASE(t_dr_ca_bounds),
	{}
};

static struct kunit_suite ftsw_mad_bounds_suite = {
	.name = "ftsw_mad_bounds",
	.test_cases = ftsw_mad_bounds_cases,
};

kunit_test_suites(&ftsw_mad_bounds_suite);
