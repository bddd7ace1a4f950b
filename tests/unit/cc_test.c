// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control and adaptive routing rules (cc/cc.h), by hand: the
 * opensm.conf keys as OpenSM spells them, the threshold's mapping onto a
 * queue, the marking rate, a CCT index's trajectory under BECNs and its
 * timer, inter-packet delays from the table's shift:multiplier entries,
 * the adaptive choice and the flowlet slot. Every expected number below is
 * worked out in the comment next to it.
 */
#include <errno.h>

#include "common.h"
#include "cc/cc.h"

static int parse(const char *text, struct ftsw_cc_params *p,
		 struct ftsw_err *err)
{
	ftsw_cc_params_default(p);
	return ftsw_cc_params_parse(text, "t.conf", p, err);
}

TEST(defaults_are_opensms)
{
	struct ftsw_cc_params p;
	unsigned i;

	ftsw_cc_params_default(&p);
	/* osm_subnet.c: congestion_control FALSE, cc_key 0, 500 MADs, the
	 * settings memset to 0, cc_cct without entries */
	EXPECT_FALSE(p.congestion_control);
	EXPECT_EQ(0, p.cc_key);
	EXPECT_EQ(500, p.cc_max_outstanding_mads);
	EXPECT_EQ(0, p.cc_sw_cong_setting_control_map);
	EXPECT_EQ(0, p.cc_sw_cong_setting_threshold);
	EXPECT_EQ(0, p.cc_sw_cong_setting_marking_rate);
	EXPECT_EQ(0, p.cc_ca_cong_setting_control_map);
	for (i = 0; i < FTSW_CC_SLS; i++)
		EXPECT_EQ(0, p.cc_ca_cong_setting_ccti_timer[i]);
	EXPECT_EQ(0, p.cc_cct_len);
	EXPECT_EQ(1024, p.timer_unit_ns);
	/* nothing marks, nothing is delayed */
	struct ftsw_cc_mark_state st = { 0 };

	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 23, 96, 96, false));
	EXPECT_EQ(0, ftsw_cc_ipd(&p, 5, 23));
}

TEST(opensm_conf_keys_read)
{
	static const char conf[] =
		"# an opensm.conf with QoS and congestion control\n"
		"qos TRUE\n"
		"congestion_control TRUE\n"
		"cc_key 0x0000000000000abc\n"
		"cc_sw_cong_setting_control_map 0x15   # bits 0, 2, 4\n"
		"cc_sw_cong_setting_victim_mask 0x6\n"
		"cc_sw_cong_setting_threshold 0xF\n"
		"cc_sw_cong_setting_packet_size 8\n"
		"cc_sw_cong_setting_credit_starvation_return_delay 1:100\n"
		"cc_sw_cong_setting_marking_rate 3\n"
		"cc_ca_cong_setting_port_control 0x1\n"
		"cc_ca_cong_setting_control_map 0x3\n"
		"cc_ca_cong_setting_ccti_timer 0 150\n"
		"cc_ca_cong_setting_ccti_timer 1 0x20\n"
		"cc_ca_cong_setting_ccti_increase 0 2\n"
		"cc_ca_cong_setting_trigger_threshold 0 4\n"
		"cc_ca_cong_setting_ccti_min 0 1\n"
		"cc_cct 0:0, 0:1,1:3,2:5\n"
		"qos_max_vls 8\n";
	struct ftsw_cc_params p;
	struct ftsw_err err;

	ASSERT_EQ(0, parse(conf, &p, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(p.congestion_control);
	EXPECT_EQ(0xabc, p.cc_key);
	EXPECT_EQ(0x15, p.cc_sw_cong_setting_control_map);
	/* 0x6 is bits 1 and 2: ports 1 and 2, in the last byte */
	EXPECT_EQ(6, p.cc_sw_cong_setting_victim_mask[31]);
	EXPECT_FALSE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_victim_mask, 0));
	EXPECT_TRUE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_victim_mask, 1));
	EXPECT_TRUE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_victim_mask, 2));
	EXPECT_FALSE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_victim_mask, 3));
	EXPECT_EQ(15, p.cc_sw_cong_setting_threshold);
	EXPECT_EQ(8, p.cc_sw_cong_setting_packet_size);
	EXPECT_EQ(1, p.cc_sw_cong_setting_credit_starvation_return_delay.shift);
	EXPECT_EQ(100,
		  p.cc_sw_cong_setting_credit_starvation_return_delay.multiplier);
	EXPECT_EQ(3, p.cc_sw_cong_setting_marking_rate);
	EXPECT_EQ(1, p.cc_ca_cong_setting_port_control);
	EXPECT_EQ(3, p.cc_ca_cong_setting_control_map);
	EXPECT_EQ(150, p.cc_ca_cong_setting_ccti_timer[0]);
	EXPECT_EQ(32, p.cc_ca_cong_setting_ccti_timer[1]);
	EXPECT_EQ(2, p.cc_ca_cong_setting_ccti_increase[0]);
	EXPECT_EQ(4, p.cc_ca_cong_setting_trigger_threshold[0]);
	EXPECT_EQ(1, p.cc_ca_cong_setting_ccti_min[0]);
	ASSERT_EQ(4, p.cc_cct_len);
	EXPECT_EQ(0, p.cc_cct[1].shift);
	EXPECT_EQ(1, p.cc_cct[1].multiplier);
	EXPECT_EQ(2, p.cc_cct[3].shift);
	EXPECT_EQ(5, p.cc_cct[3].multiplier);
}

TEST(port_255_is_the_top_bit)
{
	char conf[128] = "cc_sw_cong_setting_credit_mask 0x8";
	struct ftsw_cc_params p;
	struct ftsw_err err;
	unsigned i;

	/* 64 hex digits, the first 8: bit 255 */
	for (i = 1; i < 64; i++)
		strcat(conf, "0");
	ASSERT_EQ(0, parse(conf, &p, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0x80, p.cc_sw_cong_setting_credit_mask[0]);
	EXPECT_TRUE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_credit_mask, 255));
	EXPECT_FALSE(ftsw_cc_port_in_mask(p.cc_sw_cong_setting_credit_mask, 254));
	/* 65 digits are more than 256 bits */
	strcat(conf, "0");
	EXPECT_EQ(-1, parse(conf, &p, &err));
}

TEST(bad_values_refused_with_the_line)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "cc_sw_cong_setting_threshold 16\n", "t.conf:1: " },
		{ "\ncc_sw_cong_setting_marking_rate 010\n", "t.conf:2: " },
		{ "cc_ca_cong_setting_ccti_timer 16 5\n", "t.conf:1: " },
		{ "cc_ca_cong_setting_ccti_timer 3\n", "an SL and a value" },
		{ "cc_ca_cong_setting_ccti_increase 2 256\n", "out of range" },
		{ "cc_cct 0:0,12\n", "not a CCT entry" },
		{ "cc_cct 4:1\n", "out of range" },
		{ "cc_cct 0:16384\n", "out of range" },
		{ "cc_sw_cong_setting_victim_mask 0xg1\n", "port mask" },
		{ "cc_key\n", "no value" },
		{ "cc_key 1 2\n", "one value" },
		{ "cc_sw_cong_setting_threshold 1\n"
		  "cc_sw_cong_setting_threshold 2\n", "t.conf:2: "
		  "cc_sw_cong_setting_threshold: given twice" },
		{ "cc_ca_cong_setting_ccti_min 1 1\n"
		  "cc_ca_cong_setting_ccti_min 1 2\n", "SL 1 given twice" },
	};
	struct ftsw_cc_params p;
	struct ftsw_err err;
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		EXPECT_EQ(-1, parse(bad[i].text, &p, &err))
			TH_LOG("accepted: %s", bad[i].text);
		EXPECT_NE(NULL, strstr(err.msg, bad[i].msg))
			TH_LOG("%s -> %s", bad[i].text, err.msg);
	}
}

TEST(cct_of_129_entries_refused_128_taken)
{
	char conf[2048] = "cc_cct 0:0";
	struct ftsw_cc_params p;
	struct ftsw_err err;
	unsigned i;

	for (i = 1; i < 128; i++)
		strcat(conf, ",0:1");
	ASSERT_EQ(0, parse(conf, &p, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(128, p.cc_cct_len);
	strcat(conf, ",0:1");
	EXPECT_EQ(-1, parse(conf, &p, &err));
	EXPECT_NE(NULL, strstr(err.msg, "more than 128"));
}

TEST(written_then_read_back)
{
	struct ftsw_cc_params p, q;
	struct ftsw_err err;
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	FILE *f;

	ASSERT_EQ(0, parse("congestion_control TRUE\n"
			   "cc_sw_cong_setting_victim_mask 0x80000000000000000001\n"
			   "cc_ca_cong_setting_ccti_timer 5 77\n"
			   "cc_cct 0:0,3:16383\n", &p, &err)) TH_LOG("%s", err.msg);
	f = open_memstream(&a, &na);
	ASSERT_EQ(0, ftsw_cc_params_write(&p, f));
	fclose(f);
	ASSERT_EQ(0, parse(a, &q, &err)) TH_LOG("%s\n%s", err.msg, a);
	f = open_memstream(&b, &nb);
	ASSERT_EQ(0, ftsw_cc_params_write(&q, f));
	fclose(f);
	EXPECT_STREQ(a, b);
	EXPECT_TRUE(ftsw_cc_port_in_mask(q.cc_sw_cong_setting_victim_mask, 0));
	EXPECT_TRUE(ftsw_cc_port_in_mask(q.cc_sw_cong_setting_victim_mask, 79));
	EXPECT_EQ(77, q.cc_ca_cong_setting_ccti_timer[5]);
	EXPECT_EQ(16383, q.cc_cct[1].multiplier);
	free(a);
	free(b);
}

TEST(threshold_onto_the_queue)
{
	/* a 96-block queue (6144 bytes): occ * 16 >= 96 * (16 - t) */
	EXPECT_FALSE(ftsw_cc_congested(0, 96, 96));	/* 0: never */
	EXPECT_TRUE(ftsw_cc_congested(8, 48, 96));	/* 768 >= 768 */
	EXPECT_FALSE(ftsw_cc_congested(8, 47, 96));	/* 752 < 768 */
	EXPECT_TRUE(ftsw_cc_congested(15, 6, 96));	/* 96 >= 96 */
	EXPECT_FALSE(ftsw_cc_congested(15, 5, 96));
	EXPECT_TRUE(ftsw_cc_congested(1, 90, 96));	/* 1440 >= 1440 */
	EXPECT_FALSE(ftsw_cc_congested(1, 89, 96));
	/* four 23-block frames in a 92-block queue, threshold 8: two do */
	EXPECT_TRUE(ftsw_cc_congested(8, 46, 92));
	EXPECT_FALSE(ftsw_cc_congested(8, 23, 92));
}

static void marking_params(struct ftsw_cc_params *p, uint32_t map)
{
	ftsw_cc_params_default(p);
	p->congestion_control = true;
	p->cc_sw_cong_setting_control_map = map;
	p->cc_sw_cong_setting_threshold = 8;
	p->cc_sw_cong_setting_packet_size = 10;
	p->cc_sw_cong_setting_marking_rate = 2;
	p->cc_sw_cong_setting_victim_mask[31] = 1u << 3;	/* port 3 */
}

TEST(marking_rate_packet_size_victims)
{
	struct ftsw_cc_params p;
	struct ftsw_cc_mark_state st = { 0 };
	bool got[7];
	unsigned i;

	/* bits 0, 2 and 4: victim mask, threshold and size, rate */
	marking_params(&p, 0x15);
	/* rate 2: mark one, pass two, mark one, ... */
	for (i = 0; i < 7; i++)
		got[i] = ftsw_cc_mark(&p, &st, 1, 23, 60, 96, false);
	EXPECT_TRUE(got[0]);
	EXPECT_FALSE(got[1]);
	EXPECT_FALSE(got[2]);
	EXPECT_TRUE(got[3]);
	EXPECT_FALSE(got[4]);
	EXPECT_FALSE(got[5]);
	EXPECT_TRUE(got[6]);
	/* not eligible: below the threshold, or smaller than 10 blocks;
	 * they do not count against the rate */
	memset(&st, 0, sizeof(st));
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 23, 47, 96, false));
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 9, 96, 96, false));
	EXPECT_TRUE(ftsw_cc_mark(&p, &st, 1, 10, 48, 96, false));
	/* a victim marks only where the mask has its port (3, not 1) */
	memset(&st, 0, sizeof(st));
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 23, 96, 96, true));
	EXPECT_TRUE(ftsw_cc_mark(&p, &st, 3, 23, 96, 96, true));
	/* without bit 0 the mask is not set: no victim marks */
	marking_params(&p, 0x14);
	memset(&st, 0, sizeof(st));
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 3, 23, 96, 96, true));
	/* without bit 4 the rate is 0: every eligible packet */
	marking_params(&p, 0x05);
	memset(&st, 0, sizeof(st));
	for (i = 0; i < 3; i++)
		EXPECT_TRUE(ftsw_cc_mark(&p, &st, 1, 23, 96, 96, false));
	/* without bit 2 the threshold is the switch's 0: nothing */
	marking_params(&p, 0x11);
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 23, 96, 96, false));
	/* congestion_control FALSE: nothing */
	marking_params(&p, 0x15);
	p.congestion_control = false;
	EXPECT_FALSE(ftsw_cc_mark(&p, &st, 1, 23, 96, 96, false));
}

/* SL 0: increase 2, timer 10 units, trigger 4, min 1; CCT of 6 entries */
static void ca_params(struct ftsw_cc_params *p)
{
	static const struct ftsw_cct_entry cct[] = {
		{ 0, 0 }, { 0, 1 }, { 1, 3 }, { 2, 5 }, { 0, 4 }, { 0, 8 },
	};

	ftsw_cc_params_default(p);
	p->congestion_control = true;
	p->cc_ca_cong_setting_control_map = 1;
	p->cc_ca_cong_setting_ccti_increase[0] = 2;
	p->cc_ca_cong_setting_ccti_timer[0] = 10;
	p->cc_ca_cong_setting_trigger_threshold[0] = 4;
	p->cc_ca_cong_setting_ccti_min[0] = 1;
	memcpy(p->cc_cct, cct, sizeof(cct));
	p->cc_cct_len = 6;
}

TEST(ccti_trajectory)
{
	struct ftsw_cc_params p;
	struct ftsw_cc_flow f;
	struct ftsw_cc_sl s;

	ca_params(&p);
	/* one time unit per CCTI_Timer unit: period 10 */
	ftsw_cc_sl_of(&p, 0, 1.0, &s);
	EXPECT_EQ(10, s.period);
	EXPECT_EQ(5, s.limit);		/* 6 entries */
	ftsw_cc_flow_init(&f, &s);
	EXPECT_EQ(1, f.ccti);		/* starts at CCTI_Min */
	EXPECT_FALSE(ftsw_cc_becn(&f, &s, 0));	/* 1 + 2 = 3 < trigger 4 */
	EXPECT_EQ(3, f.ccti);
	EXPECT_TRUE(f.timer_on);
	EXPECT_EQ(10, f.timer_at);	/* started by the BECN */
	EXPECT_TRUE(ftsw_cc_becn(&f, &s, 4));	/* 3 -> 5 passes 4 */
	EXPECT_EQ(5, f.ccti);
	EXPECT_EQ(10, f.timer_at);	/* a running timer is not restarted */
	EXPECT_FALSE(ftsw_cc_becn(&f, &s, 5));	/* 5 + 2 capped at 5 */
	EXPECT_EQ(5, f.ccti);
	ftsw_cc_flow_tick(&f, &s, 9);
	EXPECT_EQ(5, f.ccti);		/* not yet */
	ftsw_cc_flow_tick(&f, &s, 10);
	EXPECT_EQ(4, f.ccti);		/* expiry at 10 */
	EXPECT_EQ(20, f.timer_at);
	ftsw_cc_flow_tick(&f, &s, 35);
	EXPECT_EQ(2, f.ccti);		/* expiries at 20 and 30 */
	EXPECT_EQ(40, f.timer_at);
	ftsw_cc_flow_tick(&f, &s, 1000);
	EXPECT_EQ(1, f.ccti);		/* 40: at the minimum, stops */
	EXPECT_FALSE(f.timer_on);
	EXPECT_FALSE(ftsw_cc_becn(&f, &s, 1003));
	EXPECT_EQ(3, f.ccti);
	EXPECT_EQ(1013, f.timer_at);	/* restarted by the new BECN */
	/* SL 1 is not in the control map: BECNs change nothing */
	ftsw_cc_sl_of(&p, 1, 1.0, &s);
	ftsw_cc_flow_init(&f, &s);
	ftsw_cc_becn(&f, &s, 0);
	EXPECT_EQ(0, f.ccti);
	EXPECT_FALSE(f.timer_on);
}

TEST(timer_in_simulator_cycles)
{
	struct ftsw_cc_params p;
	struct ftsw_cc_sl s;

	ca_params(&p);
	/* 1 Mbit/s: a cycle is 512 us; a unit of 1.024 us is 0.002 cycle:
	 * 10 units are 0.02 cycles, at least one */
	ftsw_cc_sl_of(&p, 0, 1024e-9 / 512e-6, &s);
	EXPECT_EQ(1, s.period);
	/* a unit stretched to 1.024 ms: 10 units = 10.24 ms = 20 cycles */
	ftsw_cc_sl_of(&p, 0, 1024e-6 / 512e-6, &s);
	EXPECT_EQ(20, s.period);
}

TEST(inter_packet_delay_from_the_table)
{
	struct ftsw_cc_params p;
	struct ftsw_cc_flow f;
	struct ftsw_cc_sl s;

	ca_params(&p);
	/* a 23-block packet (23 cycles): 23 * mult >> shift */
	EXPECT_EQ(0, ftsw_cc_ipd(&p, 0, 23));	/* 0:0 */
	EXPECT_EQ(23, ftsw_cc_ipd(&p, 1, 23));	/* 0:1: half the rate */
	EXPECT_EQ(34, ftsw_cc_ipd(&p, 2, 23));	/* 69 >> 1 */
	EXPECT_EQ(28, ftsw_cc_ipd(&p, 3, 23));	/* 115 >> 2 */
	EXPECT_EQ(184, ftsw_cc_ipd(&p, 5, 23));	/* 0:8 */
	EXPECT_EQ(184, ftsw_cc_ipd(&p, 9, 23));	/* past the limit: entry 5 */
	/* a packet started at 100 at CCTI 2: the next at 100 + 23 + 34 */
	ftsw_cc_sl_of(&p, 0, 1.0, &s);
	ftsw_cc_flow_init(&f, &s);
	f.ccti = 2;
	ftsw_cc_sent(&f, &p, &s, 100, 23);
	EXPECT_EQ(157, f.next_send);
	/* the timer catches up first: CCTI 3, expiring at 95 and every 10
	 * after, is 2 at 100 */
	f.ccti = 3;
	f.timer_on = true;
	f.timer_at = 95;
	ftsw_cc_sent(&f, &p, &s, 100, 23);
	EXPECT_EQ(2, f.ccti);
	EXPECT_EQ(105, f.timer_at);
	EXPECT_EQ(157, f.next_send);
	/* expiries at 95 and 105 by 105: 3 -> 1, the minimum */
	f.ccti = 3;
	f.timer_at = 95;
	ftsw_cc_sent(&f, &p, &s, 105, 23);
	EXPECT_EQ(1, f.ccti);
	EXPECT_FALSE(f.timer_on);
	EXPECT_EQ(105 + 23 + 23, f.next_send);	/* entry 1, 0:1 */
}

TEST(adaptive_choice_rule)
{
	/* port 2: 46 blocks queued, no credit; 3 and 4: empty, 92 credit */
	struct ftsw_ar_cand c[] = {
		{ .port = 2, .queued = 46, .credit = 0 },
		{ .port = 3, .queued = 0, .credit = 92 },
		{ .port = 4, .queued = 0, .credit = 92 },
	};

	EXPECT_EQ(4, ftsw_ar_pick(c, 3, 4));	/* tie: the static port */
	EXPECT_EQ(3, ftsw_ar_pick(c, 3, 2));	/* tie without it: lowest */
	c[1].credit = 69;			/* 3: -69, 4: -92 */
	EXPECT_EQ(4, ftsw_ar_pick(c, 3, 3));
	c[0].queued = 0;
	c[0].credit = 100;			/* 2: -100, the best */
	EXPECT_EQ(2, ftsw_ar_pick(c, 3, 4));
	EXPECT_EQ(7, ftsw_ar_pick(c, 0, 7));	/* no group: static */
}

TEST(flowlet_slot)
{
	/* (1 << 16 ^ 2) * 0x9e3779b1 mod 2^32 = 0xb61ff362, top 8 bits 0xb6 = 182 */
	EXPECT_EQ(182, ftsw_ar_flowlet_slot(1, 2, 8));
	EXPECT_EQ(121, ftsw_ar_flowlet_slot(0x10, 0x25, 8));
	EXPECT_EQ(0, ftsw_ar_flowlet_slot(0x10, 0x25, 0));
}

/*
 * Flowlets with a gap of 100: flow A (SLID 1, DLID 2) chooses port 3 at
 * 0; its packets at 50 and 149 keep it (49 and 99 after the previous:
 * each moves the slot's time); at 249 (100 after 149) it chooses anew. A
 * flow B taking the slot (a collision) makes A choose anew at once.
 */
TEST(flowlet_decision)
{
	struct ftsw_ar_flowlet f = { 0 };
	uint32_t a = ftsw_ar_flowlet_key(1, 2), b = ftsw_ar_flowlet_key(3, 2);

	EXPECT_EQ(0x10002, a);
	EXPECT_EQ(0, ftsw_ar_flowlet_keep(&f, a, 0, 100));	/* empty */
	ftsw_ar_flowlet_take(&f, a, 3, 0);
	EXPECT_EQ(3, ftsw_ar_flowlet_keep(&f, a, 50, 100));
	EXPECT_EQ(3, ftsw_ar_flowlet_keep(&f, a, 149, 100));
	EXPECT_EQ(149, f.last);
	EXPECT_EQ(0, ftsw_ar_flowlet_keep(&f, a, 249, 100));	/* a gap */
	ftsw_ar_flowlet_take(&f, a, 4, 249);
	EXPECT_EQ(4, ftsw_ar_flowlet_keep(&f, a, 250, 100));
	EXPECT_EQ(0, ftsw_ar_flowlet_keep(&f, b, 251, 100));	/* not B's */
	ftsw_ar_flowlet_take(&f, b, 2, 251);
	EXPECT_EQ(0, ftsw_ar_flowlet_keep(&f, a, 252, 100));	/* B has it */
	EXPECT_EQ(0, ftsw_ar_flowlet_keep(&f, b, 252, 0));	/* gap 0 */
}

TEST_HARNESS_MAIN
