// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the congestion control agents (cc.c): every attribute's
 * parser and answer, byte by byte as the annex and OpenSM lay them out
 * (offsets worked out by hand from libibmad's field table: bit offsets
 * from the most significant bit of big-endian words), the modifiers'
 * bounds, the CC_Key check and the CongestionLog.
 *
 * Fixture: a switch of 4 ports, ports 1 and 3 to other switches, port 2
 * to a host's CA (LID 8), port 4 unbound.
 *
 * And the rules the data path runs (marking, a source's index under
 * BECNs and its timer, the inter-packet delay) with the hand-computed
 * values of tests/unit/cc_test.c, the simulator's.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/prandom.h>
#include <rdma/ib_mad.h>
#include "cc.h"
#include "hdr.h"
#include "test_util.h"

#define OK	0x00
#define VERSION	0x04
#define METHOD	0x08
#define ATTR	0x0c
#define VALUE	0x1c

#define GET	IB_MGMT_METHOD_GET
#define SET	IB_MGMT_METHOD_SET

struct t_cc {
	struct ftsw_net fn;
	struct ftsw_switch *sw;
	struct ftsw_port *p[5];
	u8 *mad;		/* 256 bytes */
};

static struct t_cc *t_cc_new(struct kunit *test)
{
	struct t_cc *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->mad = kunit_kzalloc(test, FTSW_MAD_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mad);
	f->sw = ftsw_t_switch_new(test, &f->fn, 1, false);
	f->p[1] = ftsw_t_port_new(test, f->sw, 1, FTSW_PORT_LINK);
	f->p[2] = ftsw_t_port_new(test, f->sw, 2, FTSW_PORT_EDGE);
	f->p[3] = ftsw_t_port_new(test, f->sw, 3, FTSW_PORT_LINK);
	ftsw_t_edge_policy(test, f->p[2], 8, 0, 1);
	return f;
}

static void t_cc_free(struct t_cc *f)
{
	ftsw_t_ports_free(f->p, ARRAY_SIZE(f->p));
	ftsw_t_switch_free(f->sw);
	ftsw_t_fabric_exit(&f->fn);
}

/* A fresh request: class 0x21 version 2, CC_Key @key; data left zero. */
static u8 *t_req(struct t_cc *f, u8 method, u16 attr, u32 mod, u64 key)
{
	struct ib_mad_hdr *h = (void *)f->mad;

	memset(f->mad, 0, FTSW_MAD_SIZE);
	h->base_version = 1;
	h->mgmt_class = 0x21;
	h->class_version = 2;
	h->method = method;
	h->tid = cpu_to_be64(39);
	h->attr_id = cpu_to_be16(attr);
	h->attr_mod = cpu_to_be32(mod);
	put_unaligned_be64(key, f->mad + 24);
	return f->mad + 64;
}

enum { T_SW, T_CA };

static int t_run(struct t_cc *f, int at)
{
	int st;

	rcu_read_lock();
	st = at == T_CA ? ftsw_cc_ca(f->p[2], f->mad) :
			  ftsw_cc_switch(f->sw, f->mad);
	rcu_read_unlock();
	return st;
}

/* Which node answers which attribute, and the Get-only ones. */
static void t_cc_attributes(struct kunit *test)
{
	static const struct { u8 at, method; u16 attr; u32 mod; int st; } rows[] = {
		{ T_SW, GET, 0x0001, 0, OK },	/* ClassPortInfo */
		{ T_SW, SET, 0x0001, 0, ATTR },
		{ T_SW, GET, 0x0011, 0, OK },	/* CongestionInfo */
		{ T_SW, SET, 0x0011, 0, ATTR },
		{ T_SW, GET, 0x0011, 1, VALUE },
		{ T_SW, GET, 0x0012, 0, OK },	/* CongestionKeyInfo */
		{ T_SW, GET, 0x0012, 1, VALUE },
		{ T_SW, GET, 0x0013, 0, OK },	/* CongestionLog */
		{ T_SW, SET, 0x0013, 0, ATTR },
		{ T_SW, GET, 0x0014, 0, OK },	/* SwitchCongestionSetting */
		{ T_SW, GET, 0x0014, 1, VALUE },
		{ T_SW, GET, 0x0015, 0, OK },	/* SwitchPortCongestionSetting */
		{ T_SW, GET, 0x0015, 1, VALUE },	/* 4 ports: one block */
		{ T_SW, GET, 0x0015, 0xffffffff, VALUE },
		{ T_SW, GET, 0x0016, 0, ATTR },	/* a CA's */
		{ T_SW, GET, 0x0017, 0, ATTR },
		{ T_SW, GET, 0x0018, 0, OK },	/* TimeStamp */
		{ T_SW, SET, 0x0018, 0, ATTR },
		{ T_SW, GET, 0x0019, 0, ATTR },
		{ T_SW, GET, 0xff00, 0, ATTR },
		{ T_CA, GET, 0x0001, 0, OK },
		{ T_CA, GET, 0x0011, 0, OK },
		{ T_CA, GET, 0x0012, 0, OK },
		{ T_CA, GET, 0x0013, 0, OK },
		{ T_CA, GET, 0x0014, 0, ATTR },	/* a switch's */
		{ T_CA, GET, 0x0015, 0, ATTR },
		{ T_CA, GET, 0x0016, 0, OK },	/* CACongestionSetting */
		{ T_CA, GET, 0x0016, 1, VALUE },
		{ T_CA, GET, 0x0017, 0, OK },	/* CongestionControlTable */
		{ T_CA, GET, 0x0017, 1, OK },
		{ T_CA, GET, 0x0017, 2, VALUE },	/* ControlTableCap 2 */
		{ T_CA, GET, 0x0017, 0xffffffff, VALUE },
		{ T_CA, GET, 0x0018, 0, OK },
		{ T_SW, 0x03, 0x0011, 0, METHOD },	/* Send */
		{ T_SW, 0x05, 0x0011, 0, -EOPNOTSUPP },	/* Trap: not ours */
		{ T_SW, 0x81, 0x0011, 0, -EOPNOTSUPP },	/* a response */
		{ T_CA, 0x14, 0x0011, 0, METHOD },
	};
	struct t_cc *f = t_cc_new(test);
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		t_req(f, rows[i].method, rows[i].attr, rows[i].mod, 0);
		KUNIT_EXPECT_EQ_MSG(test, t_run(f, rows[i].at), rows[i].st,
				    "row %d", i);
	}
	/* Class version 1 (a PMA's): 0x04, not the attribute's answer. */
	t_req(f, GET, 0x0011, 0, 0);
	f->mad[2] = 1;
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), VERSION);
	t_cc_free(f);
}

/* ClassPortInfo, CongestionInfo and TimeStamp's answers. */
static void t_cc_info(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	u32 before, ts;
	u8 *d;

	d = t_req(f, GET, 0x0001, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, d[0], 1);		/* BaseVersion */
	KUNIT_EXPECT_EQ(test, d[1], 2);		/* ClassVersion */
	d = t_req(f, GET, 0x0011, 0, 0);
	d[0] = 0xff;
	d[2] = 0xff;
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d), 0);
	KUNIT_EXPECT_EQ(test, d[2], 0);		/* a switch has no table */
	d = t_req(f, GET, 0x0011, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	KUNIT_EXPECT_EQ(test, d[2], 2);		/* 2 blocks of 64 */
	before = (u32)(ktime_get_ns() >> 10);
	d = t_req(f, GET, 0x0018, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	ts = get_unaligned_be32(d);
	KUNIT_EXPECT_LE(test, ts - before, 1000000U);	/* within ~1 s */
	t_cc_free(f);
}

/*
 * SwitchCongestionSetting as OpenSM sends it: Control_Map 0x1F, victim
 * mask with port 2 (byte 4 + 31, bit 2), credit mask port 0, threshold
 * 0xF in the high nibble of byte 68, packet size 8 (byte 69), CS
 * threshold 3 (byte 70 high nibble), return delay 1:5 (0x4005 at 72),
 * marking rate 10 (74..75). Then a Set of map bit 4 only changes only the
 * rate.
 */
static void t_cc_sw_setting(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	struct ftsw_cc_sw *cc = &f->sw->cc;
	u8 *d;

	d = t_req(f, SET, 0x0014, 0, 0);
	put_unaligned_be32(0x1f, d);
	d[4 + 31] = 0x04;
	d[36 + 31] = 0x01;
	d[68] = 0xf0;
	d[69] = 8;
	d[70] = 0x30;
	put_unaligned_be16(0x4005, d + 72);
	put_unaligned_be16(10, d + 74);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, cc->control_map, 0x1fU);
	KUNIT_EXPECT_EQ(test, cc->victim[31], 0x04);
	KUNIT_EXPECT_EQ(test, cc->credit[31], 0x01);
	KUNIT_EXPECT_EQ(test, cc->threshold, 15);
	KUNIT_EXPECT_EQ(test, cc->packet_size, 8);
	KUNIT_EXPECT_EQ(test, cc->cs_threshold, 3);
	KUNIT_EXPECT_EQ(test, cc->cs_delay, 0x4005);
	KUNIT_EXPECT_EQ(test, cc->marking_rate, 10);
	/* The answer is the attribute as it now stands. */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(d), 0x1fU);
	KUNIT_EXPECT_EQ(test, d[35], 0x04);
	KUNIT_EXPECT_EQ(test, d[67], 0x01);
	KUNIT_EXPECT_EQ(test, d[68], 0xf0);
	KUNIT_EXPECT_EQ(test, d[69], 8);
	KUNIT_EXPECT_EQ(test, d[70], 0x30);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 72), 0x4005);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 74), 10);
	/* Map bit 4 alone: the rate changes, the threshold does not. */
	d = t_req(f, SET, 0x0014, 0, 0);
	put_unaligned_be32(0x10, d);
	d[68] = 0x10;
	put_unaligned_be16(3, d + 74);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, cc->threshold, 15);
	KUNIT_EXPECT_EQ(test, cc->victim[31], 0x04);
	KUNIT_EXPECT_EQ(test, cc->marking_rate, 3);
	KUNIT_EXPECT_EQ(test, d[68], 0xf0);
	t_cc_free(f);
}

/*
 * SwitchPortCongestionSetting: 4-byte elements, port n of block 0 at
 * 4n: Valid bit 7, Control_Type bit 6, Threshold low nibble of byte 0,
 * Packet_Size byte 1, marking rate bytes 2..3. The unbound port (4) is
 * neither written nor read.
 */
static void t_cc_sw_ports(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	u8 *d;
	int i;

	d = t_req(f, SET, 0x0015, 0, 0);
	for (i = 0; i < 48; i++) {
		d[4 * i] = 0x80 | (i & 0x0f);
		d[4 * i + 1] = 2 * i;
		put_unaligned_be16(100 + i, d + 4 * i + 2);
	}
	d[4 * 2] = 0xc7;	/* port 2: valid, credit starvation, 7 */
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_TRUE(test, f->sw->cc.port0.valid);
	KUNIT_EXPECT_EQ(test, f->sw->cc.port0.marking_rate, 100);
	KUNIT_EXPECT_EQ(test, f->p[1]->cc.threshold, 1);
	KUNIT_EXPECT_EQ(test, f->p[1]->cc.packet_size, 2);
	KUNIT_EXPECT_EQ(test, f->p[1]->cc.marking_rate, 101);
	KUNIT_EXPECT_TRUE(test, f->p[2]->cc.valid);
	KUNIT_EXPECT_EQ(test, f->p[2]->cc.control_type, 1);
	KUNIT_EXPECT_EQ(test, f->p[2]->cc.threshold, 7);
	/* The answer: ports 0..3 as set, 4 unbound, past 4 zero. */
	KUNIT_EXPECT_EQ(test, d[0], 0x80);
	KUNIT_EXPECT_EQ(test, d[4], 0x81);
	KUNIT_EXPECT_EQ(test, d[8], 0xc7);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 10), 102);
	KUNIT_EXPECT_EQ(test, d[12], 0x83);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 14), 103);
	for (i = 16; i < 192; i++)
		KUNIT_EXPECT_EQ_MSG(test, d[i], 0, "byte %d", i);
	t_cc_free(f);
}

/*
 * CACongestionSetting: Port_Control 1 (bytes 0..1), Control_Map with SLs
 * 0 and 3; SL n's entry at 4 + 8n: CCTI_Timer be16, CCTI_Increase,
 * Trigger_Threshold, CCTI_Min. SL 5's entry is in the MAD but not in the
 * map: not written.
 */
static void t_cc_ca_setting(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	struct ftsw_cc_ca *cc = &f->p[2]->ca.cc;
	u8 *d;

	d = t_req(f, SET, 0x0016, 0, 0);
	put_unaligned_be16(1, d);
	put_unaligned_be16(0x0009, d + 2);
	put_unaligned_be16(150, d + 4);
	d[6] = 1;
	d[7] = 100;
	d[8] = 2;
	put_unaligned_be16(300, d + 4 + 24);
	d[4 + 24 + 2] = 4;
	put_unaligned_be16(999, d + 4 + 40);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	KUNIT_EXPECT_EQ(test, cc->port_control, 1);
	KUNIT_EXPECT_EQ(test, cc->control_map, 9);
	KUNIT_EXPECT_EQ(test, cc->sl[0].timer, 150);
	KUNIT_EXPECT_EQ(test, cc->sl[0].increase, 1);
	KUNIT_EXPECT_EQ(test, cc->sl[0].trigger, 100);
	KUNIT_EXPECT_EQ(test, cc->sl[0].min, 2);
	KUNIT_EXPECT_EQ(test, cc->sl[3].timer, 300);
	KUNIT_EXPECT_EQ(test, cc->sl[3].increase, 4);
	KUNIT_EXPECT_EQ(test, cc->sl[5].timer, 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 44), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 28), 300);
	t_cc_free(f);
}

/*
 * CongestionControlTable: CCTI_Limit at 0..1, entry j of block b at
 * 4 + 2j = shift << 14 | multiplier. OpenSM's 128-entry table: two
 * blocks, limit 127. A limit of 128 does not fit: 0x1C, nothing written.
 */
static void t_cc_table(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	struct ftsw_cc_ca *cc = &f->p[2]->ca.cc;
	u8 *d;
	int i;

	for (i = 0; i < 2; i++) {
		int j;

		d = t_req(f, SET, 0x0017, i, 0);
		put_unaligned_be16(127, d);
		for (j = 0; j < 64; j++)
			put_unaligned_be16(1 << 14 | (64 * i + j), d + 4 + 2 * j);
		KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	}
	KUNIT_EXPECT_EQ(test, cc->cct_limit, 127);
	KUNIT_EXPECT_EQ(test, cc->cct[0], 0x4000);
	KUNIT_EXPECT_EQ(test, cc->cct[65], 0x4041);
	KUNIT_EXPECT_EQ(test, cc->cct[127], 0x407f);
	d = t_req(f, GET, 0x0017, 1, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d), 127);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 4), 0x4040);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 4 + 126), 0x407f);
	d = t_req(f, SET, 0x0017, 0, 0);
	put_unaligned_be16(128, d);
	put_unaligned_be16(0x3fff, d + 4);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), VALUE);
	KUNIT_EXPECT_EQ(test, cc->cct_limit, 127);
	KUNIT_EXPECT_EQ(test, cc->cct[0], 0x4000);
	t_cc_free(f);
}

/*
 * CC_Key: 0 lets everything in. Key 0x1234 with the protect bit: a Get
 * or a Set with another key is not answered (-EACCES) and counted;
 * with the key it is. Protect bit clear: any Get passes, a Set needs the
 * key. The lease (1 s) starts at a violation and, once expired, clears
 * the protect bit.
 */
static void t_cc_key(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	struct ftsw_cc_key *k = &f->sw->cc.key;
	u8 *d;

	d = t_req(f, SET, 0x0012, 0, 77);	/* key 0: any key passes */
	put_unaligned_be64(0x1234, d);
	d[8] = 0x80;
	put_unaligned_be16(1, d + 10);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, k->key, 0x1234ULL);
	KUNIT_EXPECT_TRUE(test, k->protect);
	KUNIT_EXPECT_EQ(test, k->lease, 1);
	t_req(f, GET, 0x0011, 0, 0x1233);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), -EACCES);
	KUNIT_EXPECT_EQ(test, k->violations, 1);
	KUNIT_EXPECT_NE(test, k->lease_end, 0UL);
	t_req(f, SET, 0x0014, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), -EACCES);
	KUNIT_EXPECT_EQ(test, k->violations, 2);
	d = t_req(f, GET, 0x0012, 0, 0x1234);	/* stops the lease */
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, k->lease_end, 0UL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(d), 0x1234ULL);
	KUNIT_EXPECT_EQ(test, d[8], 0x80);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 12), 2);
	/* A violation, and the lease expires: protect bit cleared. */
	t_req(f, GET, 0x0011, 0, 1);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), -EACCES);
	k->lease_end = jiffies - 1;
	t_req(f, GET, 0x0011, 0, 1);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_FALSE(test, k->protect);
	KUNIT_EXPECT_EQ(test, k->violations, 3);
	/* Unprotected: a Set still needs the key. */
	t_req(f, SET, 0x0014, 0, 1);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), -EACCES);
	t_req(f, SET, 0x0014, 0, 0x1234);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	/* The CA has a key of its own, still 0. */
	t_req(f, SET, 0x0016, 0, 5);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	t_cc_free(f);
}

/*
 * CongestionLog: 17 events into a switch's ring of 15 (SLID 1..17, DLID
 * 100 + n, SL n % 16) on ports 2 and 4: LogEventsCounter 17, PortMap
 * bits 2 and 4 (byte 32 + 7 = 0x14 at 8 + 31), the 15 latest events
 * oldest first at 40 + 12i (SLID 3 first), SL in byte 4's high nibble.
 * Read and cleared: the next Get reports nothing. A CA's log (type 2):
 * counter, SL map, its events at 12 + 16i.
 */
static void t_cc_log(struct kunit *test)
{
	struct t_cc *f = t_cc_new(test);
	u8 *l = f->mad + 32;
	int i;

	spin_lock_bh(&f->sw->ll_lock);
	for (i = 1; i <= 17; i++)
		ftsw_cc_log_add(&f->sw->cc.log, FTSW_CC_LOG_SW, i, 100 + i,
				i % 16);
	__set_bit(2, f->sw->cc.log.ports);
	__set_bit(4, f->sw->cc.log.ports);
	ftsw_cc_log_add(&f->p[2]->ca.cc.log, FTSW_CC_LOG_CA, 9, 8, 3);
	f->p[2]->ca.cc.log.sl_map = BIT(3);
	spin_unlock_bh(&f->sw->ll_lock);
	t_req(f, GET, 0x0013, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, l[0], 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 2), 17);
	KUNIT_EXPECT_EQ(test, l[8 + 31], 0x14);
	KUNIT_EXPECT_EQ(test, l[8 + 30], 0);
	for (i = 0; i < 15; i++) {
		const u8 *e = l + 40 + 12 * i;

		KUNIT_EXPECT_EQ(test, get_unaligned_be16(e), 3 + i);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(e + 2), 103 + i);
		KUNIT_EXPECT_EQ(test, e[4], ((3 + i) % 16) << 4);
	}
	t_req(f, GET, 0x0013, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), OK);
	KUNIT_EXPECT_EQ(test, l[0], 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 2), 0);
	KUNIT_EXPECT_EQ(test, l[8 + 31], 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 40), 0);
	t_req(f, GET, 0x0013, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), OK);
	KUNIT_EXPECT_EQ(test, l[0], 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 2), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 4), 0x0008);
	KUNIT_EXPECT_EQ(test, l[12 + 3], 3 << 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 12 + 8), 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(l + 12 + 10), 9);
	t_cc_free(f);
}

/* cc_test.c's marking_params: threshold 8, size 10, rate 2, victim port 3 */
static void t_mark_params(struct ftsw_switch *sw, u32 map)
{
	memset(&sw->cc, 0, sizeof(sw->cc));
	sw->cc.control_map = map;
	sw->cc.threshold = 8;
	sw->cc.packet_size = 10;
	sw->cc.marking_rate = 2;
	sw->cc.victim[31] = 1 << 3;
}

/*
 * Marking, as tests/unit/cc_test.c's marking_rate_packet_size_victims:
 * a queue of 96 blocks is congested at threshold 8 from 48 blocks; rate 2
 * marks one eligible packet in three; packets under 10 blocks and queues
 * under the threshold are not eligible and do not count; a victim marks
 * only where the mask has its port (3, not 1); without map bit 0 no
 * victim marks, without bit 4 every eligible packet does, without bit 2
 * nothing. A valid port element (control type 0) replaces the switch's
 * threshold, size and rate.
 */
static void t_cc_marking(struct kunit *test)
{
	static const bool want[7] = { 1, 0, 0, 1, 0, 0, 1 };
	struct t_cc *f = t_cc_new(test);
	struct ftsw_port *p1 = f->p[1], *p3 = f->p[3];
	u16 skip = 0;
	int i;

	t_mark_params(f->sw, 0x15);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ_MSG(test, ftsw_cc_mark(p1, &skip, 23, 60, 96,
						       false), want[i],
				    "packet %d", i);
	skip = 0;
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 23, 47, 96, false));
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 9, 96, 96, false));
	KUNIT_EXPECT_TRUE(test, ftsw_cc_mark(p1, &skip, 10, 48, 96, false));
	skip = 0;
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 23, 96, 96, true));
	KUNIT_EXPECT_TRUE(test, ftsw_cc_mark(p3, &skip, 23, 96, 96, true));
	t_mark_params(f->sw, 0x14);
	skip = 0;
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p3, &skip, 23, 96, 96, true));
	t_mark_params(f->sw, 0x05);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, ftsw_cc_mark(p1, &skip, 23, 96, 96,
						     false));
	t_mark_params(f->sw, 0x11);
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 23, 96, 96, false));
	/* port 1's element: threshold 15 (1/16 full), any size, rate 0 */
	p1->cc.valid = true;
	p1->cc.threshold = 15;
	KUNIT_EXPECT_TRUE(test, ftsw_cc_mark(p1, &skip, 1, 6, 96, false));
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 1, 5, 96, false));
	p1->cc.control_type = 1;	/* credit starvation: not this rule */
	KUNIT_EXPECT_FALSE(test, ftsw_cc_mark(p1, &skip, 1, 96, 96, false));
	t_cc_free(f);
}

/*
 * cc_test.c's ca_params: SL 0 increase 2, timer 10 units, trigger 4, min
 * 1; a CCT of 6 entries 0:0 0:1 1:3 2:5 0:4 0:8. A unit of 1 ns: the
 * period is 10 ns.
 */
static void t_ca_params(struct ftsw_cc_ca *cc)
{
	static const u16 cct[] = {
		0, 1, 1 << 14 | 3, 2 << 14 | 5, 4, 8,
	};

	memset(cc, 0, sizeof(*cc));
	cc->control_map = 1;
	cc->sl[0].increase = 2;
	cc->sl[0].timer = 10;
	cc->sl[0].trigger = 4;
	cc->sl[0].min = 1;
	memcpy(cc->cct, cct, sizeof(cct));
	cc->cct_limit = 5;
}

/* cc_test.c's ccti_trajectory: throttling under BECNs and recovery. */
static void t_cc_becn_timer(struct kunit *test)
{
	struct ftsw_cc_ca *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	struct ftsw_cc_unit u = {};
	struct ftsw_cc_rt s;

	KUNIT_ASSERT_NOT_NULL(test, cc);
	t_ca_params(cc);
	ftsw_cc_sl_get(cc, 0, 1, &s);
	KUNIT_EXPECT_EQ(test, s.period, 10ULL);
	KUNIT_EXPECT_EQ(test, s.limit, 5);
	KUNIT_EXPECT_FALSE(test, ftsw_cc_becn(&u, &s, 0));	/* 1 + 2 */
	KUNIT_EXPECT_EQ(test, u.ccti, 3);
	KUNIT_EXPECT_TRUE(test, u.timer_on);
	KUNIT_EXPECT_EQ(test, u.timer_at, 10ULL);
	KUNIT_EXPECT_TRUE(test, ftsw_cc_becn(&u, &s, 4));	/* 3 -> 5 */
	KUNIT_EXPECT_EQ(test, u.ccti, 5);
	KUNIT_EXPECT_EQ(test, u.timer_at, 10ULL);
	KUNIT_EXPECT_FALSE(test, ftsw_cc_becn(&u, &s, 5));	/* capped */
	KUNIT_EXPECT_EQ(test, u.ccti, 5);
	ftsw_cc_tick(&u, &s, 9);
	KUNIT_EXPECT_EQ(test, u.ccti, 5);
	ftsw_cc_tick(&u, &s, 10);
	KUNIT_EXPECT_EQ(test, u.ccti, 4);
	KUNIT_EXPECT_EQ(test, u.timer_at, 20ULL);
	ftsw_cc_tick(&u, &s, 35);
	KUNIT_EXPECT_EQ(test, u.ccti, 2);
	KUNIT_EXPECT_EQ(test, u.timer_at, 40ULL);
	ftsw_cc_tick(&u, &s, 1000);
	KUNIT_EXPECT_EQ(test, u.ccti, 1);	/* the minimum: stops */
	KUNIT_EXPECT_FALSE(test, u.timer_on);
	KUNIT_EXPECT_FALSE(test, ftsw_cc_becn(&u, &s, 1003));
	KUNIT_EXPECT_EQ(test, u.ccti, 3);
	KUNIT_EXPECT_EQ(test, u.timer_at, 1013ULL);
	/* SL 1 is not in the control map: BECNs change nothing */
	memset(&u, 0, sizeof(u));
	ftsw_cc_sl_get(cc, 1, 1, &s);
	ftsw_cc_becn(&u, &s, 0);
	KUNIT_EXPECT_EQ(test, u.ccti, 0);
	KUNIT_EXPECT_FALSE(test, u.timer_on);
	/* the timer's unit: 10 x 1024 ns */
	ftsw_cc_sl_get(cc, 0, FTSW_CC_TIMER_NS, &s);
	KUNIT_EXPECT_EQ(test, s.period, 10240ULL);
}

/* cc_test.c's inter_packet_delay_from_the_table. */
static void t_cc_ipd(struct kunit *test)
{
	struct ftsw_cc_ca *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	struct ftsw_cc_unit u = {};
	struct ftsw_cc_rt s;

	KUNIT_ASSERT_NOT_NULL(test, cc);
	t_ca_params(cc);
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 0, 23), 0ULL);
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 1, 23), 23ULL);
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 2, 23), 34ULL);	/* 69 >> 1 */
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 3, 23), 28ULL);	/* 115 >> 2 */
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 5, 23), 184ULL);
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 9, 23), 184ULL);	/* limit */
	ftsw_cc_sl_get(cc, 0, 1, &s);
	u.ccti = 2;
	ftsw_cc_sent(&u, cc, &s, 100, 23);
	KUNIT_EXPECT_EQ(test, u.next_send, 157ULL);
	/* the timer catches up first: 3, expiring at 95, is 2 at 100 */
	u.ccti = 3;
	u.timer_on = true;
	u.timer_at = 95;
	ftsw_cc_sent(&u, cc, &s, 100, 23);
	KUNIT_EXPECT_EQ(test, u.ccti, 2);
	KUNIT_EXPECT_EQ(test, u.timer_at, 105ULL);
	KUNIT_EXPECT_EQ(test, u.next_send, 157ULL);
	/* an empty table (OpenSM's default): no delay */
	memset(cc, 0, sizeof(*cc));
	KUNIT_EXPECT_EQ(test, ftsw_cc_ipd(cc, 7, 23), 0ULL);
}

/*
 * The notification for a packet from LID 9 to LID 8 on SL 3 with FECN,
 * in partition 0x8001: from 8 to 9, SL 3 with BECN (not FECN), the same
 * key, proto FTSW_PROTO_CNP, nothing after the header; the fabric
 * header's check takes it.
 */
static void t_cc_cnp(struct kunit *test)
{
	struct ftsw_hdr h = {
		.dlid = htons(8), .slid = htons(9),
		.sl = 3 | FTSW_HDR_FECN, .hops = 4,
		.pkey = htons(0x8001), .proto = htons(ETH_P_IP),
	};
	struct sk_buff *skb = ftsw_cc_cnp(&h);
	const struct ftsw_hdr *n;
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, ETH_HLEN + FTSW_HLEN);
	n = (const void *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, ntohs(n->dlid), 9);
	KUNIT_EXPECT_EQ(test, ntohs(n->slid), 8);
	KUNIT_EXPECT_EQ(test, n->sl, 3 | FTSW_HDR_BECN);
	KUNIT_EXPECT_EQ(test, n->hops, 0);
	KUNIT_EXPECT_EQ(test, ntohs(n->pkey), 0x8001);
	KUNIT_EXPECT_EQ(test, ntohs(n->proto), FTSW_PROTO_CNP);
	KUNIT_EXPECT_EQ(test, ntohs(eth_hdr(skb)->h_proto), FTSW_ETH_P);
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(n, &why), 0);
	kfree_skb(skb);
}

/*
 * Hostile requests (the parse madfuzz's CC units reach, here without a
 * fabric): every class version but 2 refused 0x04 before anything is
 * written; a bad method wins over a bad version; blocks whose first port
 * or entry would wrap a 32-bit multiplication (0x05555556 * 48 =
 * 2^32 + 32, 0x04000000 * 64 = 2^32) are refused, not wrapped; a
 * CongestionKeyInfo Set with a modifier writes no key; CCTI_Limit
 * 0xFFFF writes nothing. Then 4096 requests of random bytes (class 0x21,
 * seeded; half of them version 2, Get or Set, a known attribute, a
 * small modifier): each gets an agent's status or is not answered, and
 * CCTI_Limit never leaves the table.
 */
static void t_cc_hostile(struct kunit *test)
{
	static const u8 versions[] = { 0, 1, 3, 0x80, 0xff };
	static const u16 attrs[] = {
		0x0001, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016,
		0x0017, 0x0018, 0x0000, 0x0019, 0xffff,
	};
	struct t_cc *f = t_cc_new(test);
	struct ftsw_cc_ca *cc = &f->p[2]->ca.cc;
	struct rnd_state rs;
	int i, at, st;
	u8 *d;

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		for (at = T_SW; at <= T_CA; at++) {
			d = t_req(f, SET, 0x0012, 0, 0);
			f->mad[2] = versions[i];
			put_unaligned_be64(0x99, d);
			KUNIT_EXPECT_EQ_MSG(test, t_run(f, at), VERSION,
					    "version %u", versions[i]);
		}
	}
	KUNIT_EXPECT_EQ(test, f->sw->cc.key.key, 0ULL);
	KUNIT_EXPECT_EQ(test, cc->key.key, 0ULL);
	t_req(f, 0x03, 0x0011, 0, 0);
	f->mad[2] = 3;
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), METHOD);
	t_req(f, 0x81, 0x0011, 0, 0);
	f->mad[2] = 3;
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), -EOPNOTSUPP);
	t_req(f, GET, 0x0015, 0x05555556, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), VALUE);
	t_req(f, SET, 0x0015, 0x05555556, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), VALUE);
	t_req(f, GET, 0x0017, 0x04000000, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), VALUE);
	d = t_req(f, SET, 0x0017, 0, 0);
	put_unaligned_be16(0xffff, d);
	put_unaligned_be16(0x1234, d + 4);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), VALUE);
	KUNIT_EXPECT_EQ(test, cc->cct_limit, 0);
	KUNIT_EXPECT_EQ(test, cc->cct[0], 0);
	d = t_req(f, SET, 0x0012, 1, 0);
	put_unaligned_be64(0x99, d);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), VALUE);
	KUNIT_EXPECT_EQ(test, cc->key.key, 0ULL);
	t_req(f, SET, 0x0013, 0, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_SW), ATTR);
	t_req(f, GET, 0x0013, 0xffffffff, 0);
	KUNIT_EXPECT_EQ(test, t_run(f, T_CA), VALUE);

	prandom_seed_state(&rs, 39);
	for (i = 0; i < 4096; i++) {
		struct ib_mad_hdr *h = (void *)f->mad;
		u32 r = prandom_u32_state(&rs);

		prandom_bytes_state(&rs, f->mad, FTSW_MAD_SIZE);
		h->mgmt_class = 0x21;
		if (r & 1)
			h->class_version = 2;
		if (r & 2)
			h->method = r & 4 ? GET : SET;
		if (r & 8)
			h->attr_id = cpu_to_be16(attrs[(r >> 8) % ARRAY_SIZE(attrs)]);
		if (r & 16)
			h->attr_mod = cpu_to_be32((r >> 16) & 3);
		at = r & 32 ? T_CA : T_SW;
		st = t_run(f, at);
		KUNIT_EXPECT_TRUE_MSG(test, st == OK || st == VERSION ||
				      st == METHOD || st == ATTR ||
				      st == VALUE || st == -EOPNOTSUPP ||
				      st == -EACCES, "request %d: %d", i, st);
		KUNIT_EXPECT_LE(test, cc->cct_limit, 127);
		/* a random CongestionKeyInfo Set would lock the rest out */
		f->sw->cc.key.key = 0;
		cc->key.key = 0;
	}
	t_cc_free(f);
}

static struct kunit_case ftsw_cc_cases[] = {
	KUNIT_CASE(t_cc_attributes),
	KUNIT_CASE(t_cc_info),
	KUNIT_CASE(t_cc_sw_setting),
	KUNIT_CASE(t_cc_sw_ports),
	KUNIT_CASE(t_cc_ca_setting),
	KUNIT_CASE(t_cc_table),
	KUNIT_CASE(t_cc_key),
	KUNIT_CASE(t_cc_log),
	KUNIT_CASE(t_cc_hostile),
	KUNIT_CASE(t_cc_marking),
	KUNIT_CASE(t_cc_becn_timer),
	KUNIT_CASE(t_cc_ipd),
	KUNIT_CASE(t_cc_cnp),
	{}
};

static struct kunit_suite ftsw_cc_suite = {
	.name = "ftsw_cc",
	.test_cases = ftsw_cc_cases,
};

kunit_test_suites(&ftsw_cc_suite);
