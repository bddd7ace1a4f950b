// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of lossless mode (ll_queue.c): the VL arbitration by
 * hand-computed service orders, lifetimes and wire times, the credit-update
 * frame's checks, and credits, head-of-line blocking and both lifetimes on
 * two switches joined by a patch cable, at times the test chooses (the
 * ports' timers are kept from running).
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include "ar.h"
#include "hdr.h"
#include "lft.h"
#include "ll_arb.h"
#include "ll_credit.h"
#include "ll_queue.h"
#include "lossless.h"
#include "rx.h"
#include "stats.h"
#include "test_util.h"

/* ---------------------------------------------------------- arbitration */

/* Pick @n VLs from @ready (all heads @blk blocks, VL0 @blk0) into @got. */
static void ftsw_t_arb_run(const struct ftsw_arb_cfg *cfg, u16 ready,
			   u16 blk0, u16 blk, int n, int *got)
{
	struct ftsw_arb st = {};
	u16 blocks[FTSW_NUM_DATA_VL];
	int i;

	for (i = 0; i < FTSW_NUM_DATA_VL; i++)
		blocks[i] = blk;
	blocks[0] = blk0;
	for (i = 0; i < n; i++)
		got[i] = ftsw_arb_pick(cfg, &st, ready, blocks);
}

static void ftsw_t_expect_order(struct kunit *test, const int *got,
				const int *want, int n)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "pick %d", i);
}

/* No weighted entry: round robin from VL1 on, one packet each. */
static void ftsw_arb_round_robin(struct kunit *test)
{
	static const int want[] = { 1, 3, 0, 1, 3, 0 };
	struct ftsw_arb_cfg cfg = {};
	int got[6];

	ftsw_t_arb_run(&cfg, BIT(0) | BIT(1) | BIT(3), 1, 1, 6, got);
	ftsw_t_expect_order(test, got, want, 6);
	ftsw_t_arb_run(&cfg, 0, 1, 1, 1, got);
	KUNIT_EXPECT_EQ(test, got[0], -1);
}

/*
 * Low table (VL0, weight 2), (VL1, weight 1). One-block packets: VL0 sends
 * 2, VL1 1. Two-block VL0 packets: one uses VL0's weight. Weight 3 with
 * two-block packets: the second packet overruns it (never split).
 */
static void ftsw_arb_weights(struct kunit *test)
{
	static const int w1[] = { 0, 0, 1, 0, 0, 1 };
	static const int w2[] = { 0, 1, 0, 1, 0, 1 };
	struct ftsw_arb_cfg cfg = {};
	int got[6];

	cfg.ent[0][0][0] = 0;
	cfg.ent[0][0][1] = 2;
	cfg.ent[0][1][0] = 1;
	cfg.ent[0][1][1] = 1;
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(1), 1, 1, 6, got);
	ftsw_t_expect_order(test, got, w1, 6);
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(1), 2, 1, 6, got);
	ftsw_t_expect_order(test, got, w2, 6);
	cfg.ent[0][0][1] = 3;
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(1), 2, 1, 6, got);
	ftsw_t_expect_order(test, got, w1, 6);
	/* An entry whose VL has nothing is passed over. */
	ftsw_t_arb_run(&cfg, BIT(1), 1, 1, 3, got);
	KUNIT_EXPECT_EQ(test, got[0], 1);
	KUNIT_EXPECT_EQ(test, got[2], 1);
	/* A VL in no table is not served. */
	ftsw_t_arb_run(&cfg, BIT(5), 1, 1, 1, got);
	KUNIT_EXPECT_EQ(test, got[0], -1);
}

/*
 * High (VL2, weight 1), low (VL0, weight 1). Limit 0: one high packet,
 * then a low one. Limit 1 (4096 bytes): 64 one-block high packets, then a
 * low one. Limit 255: high only. Low with nothing ready: high goes on.
 */
static void ftsw_arb_high_limit(struct kunit *test)
{
	static const int l0[] = { 2, 0, 2, 0, 2, 0 };
	struct ftsw_arb_cfg cfg = {};
	int got[130], i;

	cfg.ent[1][0][0] = 2;
	cfg.ent[1][0][1] = 1;
	cfg.ent[0][0][0] = 0;
	cfg.ent[0][0][1] = 1;
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(2), 1, 1, 6, got);
	ftsw_t_expect_order(test, got, l0, 6);
	cfg.limit = 1;
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(2), 1, 1, 130, got);
	for (i = 0; i < 130; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], i == 64 || i == 129 ? 0 : 2,
				    "pick %d", i);
	cfg.limit = 255;
	ftsw_t_arb_run(&cfg, BIT(0) | BIT(2), 1, 1, 100, got);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, got[i], 2);
	cfg.limit = 0;
	ftsw_t_arb_run(&cfg, BIT(2), 1, 1, 4, got);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, got[i], 2);
}

/* 4.096 us * 2^v, 20..31 infinite; a frame's blocks at the link rate. */
static void ftsw_ll_times(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ftsw_ll_life_ns(0), 4096ULL);
	KUNIT_EXPECT_EQ(test, ftsw_ll_life_ns(18), 1073741824ULL);
	KUNIT_EXPECT_EQ(test, ftsw_ll_life_ns(19), 2147483648ULL);
	KUNIT_EXPECT_EQ(test, ftsw_ll_life_ns(20), U64_MAX);
	KUNIT_EXPECT_EQ(test, ftsw_ll_life_ns(31), U64_MAX);
	/* 1522 bytes: 24 blocks; 24 * 512 bits at 1 Gbit/s: 12288 ns. */
	KUNIT_EXPECT_EQ(test, ftsw_ll_blocks(1522), 24U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_blocks(64), 1U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_blocks(65), 2U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_ns(24, 1000000000ULL), 12288ULL);
	/* 1 block at 1000 bit/s: 0.512 s. */
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_ns(1, 1000), 512000000ULL);
	/* Back: 12288 ns at 1 Gbit/s is 24 blocks, 1 ns more starts a 25th. */
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(12288, 1000000000ULL), 24U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(12289, 1000000000ULL), 25U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(1, 1000000000ULL), 1U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(0, 1000000000ULL), 0U);
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(512000000, 1000), 1U);
	/* 100 s at 100 Gbit/s: 1.95e10 blocks, held at 65535. */
	KUNIT_EXPECT_EQ(test, ftsw_ll_wire_blocks(100 * NSEC_PER_SEC,
						  100000000000ULL), 65535U);
}

/* ---------------------------------------------------------- credit frame */

static unsigned int ftsw_t_credit(u8 *buf, u8 count, u8 vl0)
{
	struct ftsw_credit_hdr *ch = (void *)(buf + ETH_HLEN + FTSW_HLEN);
	struct ftsw_credit_vl *e = (void *)(ch + 1);
	int i;

	memset(buf, 0, 256);
	ch->version = FTSW_CREDIT_VERSION;
	ch->count = count;
	for (i = 0; i < count && i < FTSW_NUM_DATA_VL; i++) {
		e[i].vl = i ? i : vl0;
		e[i].fctbs = htonl(10);
		e[i].fccl = htonl(100);
	}
	return ETH_HLEN + FTSW_HLEN + sizeof(*ch) + count * sizeof(*e);
}

static void ftsw_credit_frame_checks(struct kunit *test)
{
	const unsigned int hdr = ETH_HLEN + FTSW_HLEN;
	const char *why = NULL;
	u8 buf[256];
	unsigned int len;

	KUNIT_EXPECT_EQ(test, sizeof(struct ftsw_credit_hdr), 4UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct ftsw_credit_vl), 12UL);
	len = ftsw_t_credit(buf, 2, 0);
	KUNIT_EXPECT_EQ(test, len, hdr + 4 + 24);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), 2);
	len = ftsw_t_credit(buf, 15, 0);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), 15);
	/* Truncated: no header, one entry short. */
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, hdr + 3, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len - 1, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);
	/* Counts 0 and 16. */
	len = ftsw_t_credit(buf, 0, 0);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len + 12, &why), -EINVAL);
	len = ftsw_t_credit(buf, 16, 0);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), -EINVAL);
	/* VL15, a reserved byte, a version 2, the reserved field. */
	len = ftsw_t_credit(buf, 1, 15);
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), -EINVAL);
	len = ftsw_t_credit(buf, 1, 0);
	buf[hdr + 4 + 2] = 1;
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), -EINVAL);
	len = ftsw_t_credit(buf, 1, 0);
	buf[hdr] = 2;
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), -EINVAL);
	len = ftsw_t_credit(buf, 1, 0);
	buf[hdr + 3] = 1;
	KUNIT_EXPECT_EQ(test, ftsw_credit_parse(buf, len, &why), -EINVAL);
}

/* ---------------------------------------------------------- two switches */

/*
 * Switches A and B of 4 ports in lossless mode, every port a link port
 * without a device: A:1 where frames enter, A:3 - B:3 a patch cable, B:2
 * where B sends LID 41 (no cable: the tests keep it from sending). LID 41:
 * A -> 3, B -> 2. The ports' timers never run (dead): the test services
 * the ports itself at the times it picks.
 */
struct ftsw_t_ll {
	struct ftsw_net fn;
	struct ftsw_switch *sw[2];
	struct ftsw_port *in, *a, *b, *b2, *in2;
};

static struct ftsw_port *ftsw_t_ll_port(struct kunit *test,
					struct ftsw_switch *sw, u8 num)
{
	struct ftsw_port *p = ftsw_t_port_new(test, sw, num, FTSW_PORT_LINK);

	/* A lossless fabric's port has its buffers from its constructor. */
	KUNIT_ASSERT_NOT_NULL(test, p->ll);
	p->ib.hoq = FTSW_LIFE_INFINITE;
	return p;
}

static void ftsw_t_ll_free(struct ftsw_t_ll *f)
{
	struct ftsw_port *ports[] = { f->in, f->a, f->b, f->b2, f->in2 };
	int i;

	for (i = 0; i < ARRAY_SIZE(ports); i++)
		ftsw_t_port_free(ports[i]);
	for (i = 0; i < 2; i++)
		ftsw_t_switch_free(f->sw[i]);
	ftsw_t_fabric_exit(&f->fn);
}

static struct ftsw_t_ll *ftsw_t_ll_new(struct kunit *test)
{
	struct ftsw_t_ll *f;
	struct ftsw_lft *lft;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->fn.hop_limit = 8;
	f->fn.lossless = true;
	for (i = 0; i < 2; i++) {
		f->sw[i] = ftsw_t_switch_new(test, &f->fn, i, false);
		f->sw[i]->life = FTSW_LIFE_INFINITE;
		lft = rcu_access_pointer(f->sw[i]->lft);
		lft->port[41] = i ? 2 : 3;
	}
	f->in = ftsw_t_ll_port(test, f->sw[0], 1);
	f->a = ftsw_t_ll_port(test, f->sw[0], 3);
	f->b = ftsw_t_ll_port(test, f->sw[1], 3);
	f->b2 = ftsw_t_ll_port(test, f->sw[1], 2);
	ftsw_t_cable(f->a, f->b);
	return f;
}

/* A fabric frame for LID 41, SL 0: 150 bytes, 3 blocks. */
static struct sk_buff *ftsw_t_ll_frame(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	struct ftsw_hdr *h;
	struct ethhdr *eth;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	eth = skb_put_zero(skb, ETH_HLEN);
	eth->h_proto = htons(FTSW_ETH_P);
	h = skb_put_zero(skb, FTSW_HLEN);
	h->dlid = htons(41);
	h->slid = htons(4);
	h->proto = htons(ETH_P_IP);
	skb_put_zero(skb, 150 - ETH_HLEN - FTSW_HLEN);
	skb_reset_mac_header(skb);
	skb->protocol = htons(FTSW_ETH_P);
	return skb;
}

static void ftsw_t_ll_rx(struct ftsw_port *p, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	ftsw_rx(p, skb);
	rcu_read_unlock();
	local_bh_enable();
}

/* Service @p at @now; frames it sends cross their cable (or are freed). */
static int ftsw_t_ll_service(struct ftsw_port *p, u64 now)
{
	struct sk_buff *credit = NULL, *skb;
	struct sk_buff_head tx;
	int n = 0;

	__skb_queue_head_init(&tx);
	local_bh_disable();
	rcu_read_lock();
	ftsw_ll_service(p, now, &tx, &credit);
	while ((skb = __skb_dequeue(&tx))) {
		n++;
		ftsw_rx_ll_send(p, skb);
	}
	rcu_read_unlock();
	local_bh_enable();
	kfree_skb(credit);
	return n;
}

static u32 ftsw_t_credits(struct ftsw_port *p, struct ftsw_port *peer)
{
	u32 c;

	local_bh_disable();
	spin_lock(&p->sw->ll_lock);
	c = ftsw_ll_credits(p, peer, 0);
	spin_unlock(&p->sw->ll_lock);
	local_bh_enable();
	return c;
}

static u64 ftsw_t_ll_drops(struct ftsw_port *p, enum ftsw_drop r)
{
	struct ftsw_stats st;

	ftsw_port_stats_read(p, &st);
	return st.drops[r];
}

/*
 * B:3's buffer holds 2 frames (6 blocks), B:2's output queue 1. Three
 * frames into A: A:3 sends 2 (credit for 2), B moves the first to B:2,
 * the second blocks behind it (head of line); its one free slot lets A:3
 * send the third. Then B:2's HOQLife ends its head, the blocked head moves
 * up, and the switch lifetime ends the third.
 */
static void ftsw_ll_credits_hol_lifetimes(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_ll_vl *bi, *bo;
	u64 now = ktime_get_ns();
	int i;

	f->b->in_buf = 6 * FTSW_CREDIT_BYTES;
	f->b2->out_buf = 150;
	for (i = 0; i < 3; i++)
		ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 3U);
	KUNIT_EXPECT_EQ(test, f->a->ll->vl[0].out_bytes, 450U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in->ll->vl[0].in), 0U);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 6U);

	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->a, now), 2);
	bi = &f->b->ll->vl[0];
	bo = &f->b2->ll->vl[0];
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bo->out), 1U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bi->in), 1U);
	KUNIT_EXPECT_NE(test, bi->blocked_since, 0ULL);
	KUNIT_EXPECT_EQ(test, bi->head_port, 2);
	KUNIT_EXPECT_EQ(test, bi->head_vl, 0);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 3U);

	/* The link is busy 2 * 3 * 512 ns at 1 Gbit/s, within the batch. */
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->a, now + 1), 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bi->in), 2U);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 0U);

	/*
	 * HOQLife 12 at B:2 (16.8 ms); VL0 in none of its arbitration
	 * tables, so B:2 never sends it. Times from the clock now: the
	 * packets arrived before.
	 */
	f->b2->ib.hoq = 12;
	f->b2->ib.vlarb[0][0][0] = 1;
	f->b2->ib.vlarb[0][0][1] = 1;
	atomic_inc(&f->fn.ll_gen);
	/* Now: nothing expires. */
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->b2, ktime_get_ns()), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bo->out), 1U);
	KUNIT_EXPECT_EQ(test, bo->hoq_discards, 0ULL);
	/* 20 ms on: B:2's head is discarded, B:3's head moves up. */
	ftsw_t_ll_service(f->b2, ktime_get_ns() + 20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, bo->hoq_discards, 1ULL);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->b2, FTSW_DROP_HOQ_LIFE), 1ULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bo->out), 1U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bi->in), 1U);
	KUNIT_EXPECT_GT(test, bi->in_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 3U);
	/* Switch lifetime 12 at B: 20 ms on, the third is past it. */
	f->sw[1]->life = 12;
	atomic_inc(&f->fn.ll_gen);
	ftsw_t_ll_service(f->b, ktime_get_ns() + 20 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, bi->life_discards, 1ULL);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->b, FTSW_DROP_SWITCH_LIFE), 1ULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&bi->in), 0U);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 6U);
	/* A time before the packets' own never counts as an age. */
	KUNIT_EXPECT_EQ(test, ftsw_ll_age(5, 9), 0ULL);
	KUNIT_EXPECT_EQ(test, ftsw_ll_age(9, 5), 4ULL);
	ftsw_t_ll_free(f);
}

/*
 * A frame B:3 takes but cannot buffer (it comes in with no route) gives its
 * credit back at once; a frame larger than the buffer is refused.
 */
static void ftsw_ll_refund(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct sk_buff *skb;

	ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->a, ktime_get_ns()), 1);
	/* B:2 took it (its queue is never serviced here). */
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->b2->ll->vl[0].out), 1U);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 96U);
	skb = ftsw_t_ll_frame(test);
	((struct ftsw_hdr *)(skb->data + ETH_HLEN))->dlid = htons(42);
	local_bh_disable();
	rcu_read_lock();
	f->a->ll->vl[0].sent += 3;	/* as if A had sent it */
	ftsw_rx_follow(f->b, skb);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->b, FTSW_DROP_NO_ROUTE), 1ULL);
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->a, f->b), 96U);
	f->in->in_buf = 128;
	ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->in, FTSW_DROP_TOO_BIG), 1ULL);
	ftsw_t_ll_free(f);
}

/*
 * An edge port held back still takes what its host already pushed, past
 * its buffer's size; those frames are, in InfiniBand's terms, still in the
 * host's send queue, so their switch lifetime starts when they come within
 * the size. A:1's buffer holds 2 frames, A:3's queue 1, switch lifetime 12
 * (16.8 ms). Four frames: the first goes into A:3's queue, the second and
 * third wait within A:1's size, the fourth past it. 20 ms later A:3 finds
 * its head too old: it and the next two (each moved up as room frees) are
 * discarded; the fourth came within A:1's size when the second left it,
 * 20 ms after the others arrived, so it is young and A:3 sends it. Were its
 * lifetime counted from its arrival, all four would be discarded.
 */
/*
 * When an edge port holds its host back and lets it go again: room for a
 * frame of the host's MTU (1526 bytes with the headers), and for a buffer
 * smaller than that, room when it is empty (else a host once stopped
 * would never be woken).
 */
static void ftsw_ll_host_room_cases(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ftsw_ll_host_room(0, 1526, 6144));
	KUNIT_EXPECT_TRUE(test, ftsw_ll_host_room(4618, 1526, 6144));
	KUNIT_EXPECT_FALSE(test, ftsw_ll_host_room(4619, 1526, 6144));
	KUNIT_EXPECT_TRUE(test, ftsw_ll_host_room(10, 1526, 1536));
	KUNIT_EXPECT_FALSE(test, ftsw_ll_host_room(11, 1526, 1536));
	KUNIT_EXPECT_TRUE(test, ftsw_ll_host_room(0, 1526, 1000));
	KUNIT_EXPECT_FALSE(test, ftsw_ll_host_room(1, 1526, 1000));
	KUNIT_EXPECT_FALSE(test, ftsw_ll_host_room(U32_MAX, 1526, U32_MAX));
}

static void ftsw_ll_edge_slack_life(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	u64 disc;
	int i;

	f->in->in_buf = 300;
	f->a->out_buf = 150;
	f->in->ll->host_stopped = true;	/* held back: the slack applies */
	f->sw[0]->life = 12;
	atomic_inc(&f->fn.ll_gen);
	for (i = 0; i < 4; i++)
		ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in->ll->vl[0].in), 3U);
	KUNIT_EXPECT_EQ(test, f->in->ll->vl[0].in_bytes, 450U);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->a, ktime_get_ns() +
						 20 * NSEC_PER_MSEC), 1);
	disc = f->a->ll->vl[0].life_discards + f->in->ll->vl[0].life_discards;
	KUNIT_EXPECT_EQ(test, disc, 3ULL);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->a, FTSW_DROP_SWITCH_LIFE) +
			ftsw_t_ll_drops(f->in, FTSW_DROP_SWITCH_LIFE), 3ULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->b2->ll->vl[0].out), 1U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in->ll->vl[0].in), 0U);
	ftsw_t_ll_free(f);
}

static const struct net_device_ops ftsw_t_noop_ops;

/*
 * A frame A:3 charged to its far end but its device did not send (here:
 * too big for the device's MTU; a veth whose peer's backlog is full
 * refuses the same way) gives its blocks back to A:3's count of blocks
 * sent: the far end never got them. Without the refund, A:3 would keep 3
 * blocks charged (a local far end never resyncs) and lose that credit.
 */
static void ftsw_ll_unsend_case(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct net_device *dev;

	dev = alloc_netdev(0, "ftswt%d", NET_NAME_ENUM, ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->netdev_ops = &ftsw_t_noop_ops;	/* no peer: credit frames */
	dev->mtu = 100;				/* 150-byte frames too big */
	f->a->peer = NULL;
	f->b->peer = NULL;
	f->a->dev = dev;
	ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 1U);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_service(f->a, ktime_get_ns()), 1);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->a, FTSW_DROP_TOO_BIG), 1ULL);
	KUNIT_EXPECT_EQ(test, f->a->ll->vl[0].sent, 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 0U);
	f->a->dev = NULL;
	free_netdev(dev);
	ftsw_t_ll_free(f);
}

/*
 * Two inputs, A:1 and A:2, compete for A:3, whose queue holds one frame
 * (150 bytes). A:1 gets 4 frames (SLID 4): the first goes into A:3's queue,
 * the other 3 wait. Then A:2 gets 4 (SLID 5), all waiting. Each frame A:3
 * sends frees its one slot; the output takes the next frame round robin
 * past the input served last, so A:3 sends, and B:2's queue (never
 * serviced, room for 40 frames) receives, SLIDs 4 5 4 5 4 5 4 5. B:3's
 * buffer (32 frames) never runs out of credit.
 */
static void ftsw_ll_fair_inputs(struct kunit *test)
{
	static const u16 want[] = { 4, 5, 4, 5, 4, 5, 4, 5 };
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_ll_vl *bo;
	struct sk_buff *skb;
	u64 now = ktime_get_ns();
	int i, sent = 0;

	f->in2 = ftsw_t_ll_port(test, f->sw[0], 2);
	f->a->out_buf = 150;
	for (i = 0; i < 8; i++) {
		skb = ftsw_t_ll_frame(test);
		((struct ftsw_hdr *)(skb->data + ETH_HLEN))->slid =
			htons(i < 4 ? 4 : 5);
		ftsw_t_ll_rx(i < 4 ? f->in : f->in2, skb);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 1U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in->ll->vl[0].in), 3U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in2->ll->vl[0].in), 4U);
	/* 1 Gbit/s: a 3-block frame is 1536 ns on the wire; 1 ms apart. */
	for (i = 0; i < 8 && sent < 8; i++)
		sent += ftsw_t_ll_service(f->a, now + i * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, sent, 8);
	bo = &f->b2->ll->vl[0];
	KUNIT_ASSERT_EQ(test, skb_queue_len(&bo->out), 8U);
	i = 0;
	skb_queue_walk(&bo->out, skb) {
		const struct ftsw_hdr *h = (void *)(skb->data + ETH_HLEN);

		KUNIT_EXPECT_EQ_MSG(test, ntohs(h->slid), want[i],
				    "frame %d", i);
		i++;
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in->ll->vl[0].in), 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->in2->ll->vl[0].in), 0U);
	ftsw_t_ll_free(f);
}

/*
 * The adaptive tests' fabric: a second cable A:4 - B:4 beside A:3 - B:3,
 * and on A an adaptive group {3, 4} for LID 41 (its LFT says A:3).
 */
static void ftsw_t_ll_ar_pair(struct kunit *test, struct ftsw_t_ll *f,
			      struct ftsw_port **a4, struct ftsw_port **b4)
{
	struct ftsw_ar *ar;

	*a4 = ftsw_t_ll_port(test, f->sw[0], 4);
	*b4 = ftsw_t_ll_port(test, f->sw[1], 4);
	ftsw_t_cable(*a4, *b4);
	ar = ftsw_ar_alloc(64, 1, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ar);
	__set_bit(3, ar->sets[1]);
	__set_bit(4, ar->sets[1]);
	ar->grp[41] = 1;
	rcu_assign_pointer(f->sw[0]->ar, ar);
}

/*
 * Adaptive routing at the head of A:1's input buffer: A sends LID 41 by
 * its LFT to A:3, its group allows A:3 and A:4 (a second cable to B).
 * Each frame becomes the head as it arrives (the one before has moved to
 * an output queue; the queues are never serviced here) and goes where
 * queued - credit is smallest (cc_test.c's adaptive_choice_rule): both
 * empty, 96 blocks of credit each: a tie, the LFT's A:3 (-96 each); then
 * A:3 holds 3 blocks (-93) against A:4's -96: A:4, counted as diverted
 * there; then -93 both: A:3 again.
 */
static void ftsw_ll_adaptive_head(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_port *a4, *b4;
	struct ftsw_stats st;
	int i;

	ftsw_t_ll_ar_pair(test, f, &a4, &b4);
	for (i = 0; i < 3; i++)
		ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 2U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&a4->ll->vl[0].out), 1U);
	KUNIT_EXPECT_EQ(test, f->a->ll->vl[0].out_blocks, 6U);
	KUNIT_EXPECT_EQ(test, a4->ll->vl[0].out_blocks, 3U);
	ftsw_port_stats_read(a4, &st);
	KUNIT_EXPECT_EQ(test, st.ev[FTSW_EV_AR_DIVERTED], 1ULL);
	ftsw_port_stats_read(f->a, &st);
	KUNIT_EXPECT_EQ(test, st.ev[FTSW_EV_AR_DIVERTED], 0ULL);
	/* Without the group, all three would have gone to A:3. */
	ftsw_t_port_free(a4);
	ftsw_t_port_free(b4);
	ftsw_t_ll_free(f);
}

/*
 * The same group, A:3's link busy sending for another second (as after a
 * frame started on it: it left A:3's queue whole and B returned its
 * credit at once), A:4 idle. Per flowlet (gap 1 s) the busy time counts
 * as queued blocks: the flow's first frame goes to A:4 (diverted), the
 * two behind it keep the flowlet's port. Per packet it does not count:
 * A:3 scores 0 - 96, -93, -90 against A:4's 9 - 96 and takes the next
 * three frames although its link is still busy.
 */
static void ftsw_ll_adaptive_busy(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_port *a4, *b4;
	struct ftsw_stats st;
	int i;

	ftsw_t_ll_ar_pair(test, f, &a4, &b4);
	f->fn.flowlet_ns = NSEC_PER_SEC;
	f->a->ll->busy_until = ktime_get_ns() + NSEC_PER_SEC;
	for (i = 0; i < 3; i++)
		ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 0U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&a4->ll->vl[0].out), 3U);
	ftsw_port_stats_read(a4, &st);
	KUNIT_EXPECT_EQ(test, st.ev[FTSW_EV_AR_DIVERTED], 3ULL);
	/* Per packet, still busy: the busy link scores as idle. */
	f->fn.flowlet_ns = 0;
	for (i = 0; i < 3; i++)
		ftsw_t_ll_rx(f->in, ftsw_t_ll_frame(test));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->a->ll->vl[0].out), 3U);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&a4->ll->vl[0].out), 3U);
	ftsw_t_port_free(a4);
	ftsw_t_port_free(b4);
	ftsw_t_ll_free(f);
}

/* A credit frame on A:1 (no local far end) sets its credit limit. */
static void ftsw_ll_credit_frame_rx(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct sk_buff *skb;
	unsigned int len;
	u8 buf[256];

	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->in, NULL), U32_MAX);
	len = ftsw_t_credit(buf, 1, 0);
	((struct ethhdr *)buf)->h_proto = htons(FTSW_ETH_P);
	((struct ftsw_hdr *)(buf + ETH_HLEN))->proto = htons(FTSW_PROTO_CREDIT);
	skb = alloc_skb(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, buf, len);
	skb->protocol = htons(FTSW_ETH_P);
	ftsw_t_ll_rx(f->in, skb);
	/* fccl 100, nothing sent; fctbs 10 > 0 received: 10 blocks lost. */
	KUNIT_EXPECT_EQ(test, ftsw_t_credits(f->in, NULL), 100U);
	KUNIT_EXPECT_EQ(test, f->in->ll->vl[0].rcv, 10U);
	KUNIT_EXPECT_EQ(test, f->in->ll->vl[0].freed, 10U);
	/* Malformed: count 0. */
	buf[ETH_HLEN + FTSW_HLEN + 1] = 0;
	skb = alloc_skb(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, buf, len);
	skb->protocol = htons(FTSW_ETH_P);
	ftsw_t_ll_rx(f->in, skb);
	KUNIT_EXPECT_EQ(test, ftsw_t_ll_drops(f->in, FTSW_DROP_BAD_CREDIT), 1ULL);
	ftsw_t_ll_free(f);
}

/* An infinite lifetime never arms the timer; a finite time does. */
static void ftsw_ll_arm_infinite(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_ll *ll = f->in->ll;

	ll->dead = false;
	ftsw_ll_arm(f->in, U64_MAX);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&ll->timer));
	ftsw_ll_arm(f->in, ktime_get_ns() + 10 * NSEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&ll->timer));
	/* An earlier time moves it up, a later one does not. */
	ftsw_ll_arm(f->in, ktime_get_ns() + 5 * NSEC_PER_SEC);
	ftsw_ll_arm(f->in, ktime_get_ns() + 20 * NSEC_PER_SEC);
	KUNIT_EXPECT_LT(test, ktime_to_ns(hrtimer_get_expires(&ll->timer)),
			(s64)(ktime_get_ns() + 6 * NSEC_PER_SEC));
	ftsw_t_ll_free(f);
}

/*
 * A port waiting for credit its far end frees (A:3, B:3 freeing): inside
 * a receive or a timer run (ftsw_ll_ctx_enter()) it goes on this CPU's
 * list of ports to drain once the lock is dropped, once however often it
 * is asked for, and its timer is not armed; outside one the timer is.
 */
static void ftsw_ll_soon(struct kunit *test)
{
	struct ftsw_t_ll *f = ftsw_t_ll_new(test);
	struct ftsw_ll_rx rx = { .blocks = 3, .vl = 0 };
	struct ftsw_ll *ll = f->a->ll;
	bool queued;

	ll->dead = false;
	ll->credit_wait = BIT(0);
	local_bh_disable();
	rcu_read_lock();
	ftsw_ll_ctx_enter();
	ftsw_ll_rx_done(f->b, &rx, false);
	ftsw_ll_rx_done(f->b, &rx, false);
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ll_soon_pop(), f->a);
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ll_soon_pop(), NULL);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&ll->timer));
	ftsw_ll_ctx_exit();
	ftsw_ll_rx_done(f->b, &rx, false);
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ll_soon_pop(), NULL);
	queued = hrtimer_is_queued(&ll->timer);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, queued);
	hrtimer_cancel(&ll->timer);
	ll->dead = true;
	ftsw_t_ll_free(f);
}

static struct kunit_case ftsw_ll_cases[] = {
	KUNIT_CASE(ftsw_ll_arm_infinite),
	KUNIT_CASE(ftsw_ll_soon),
	KUNIT_CASE(ftsw_arb_round_robin),
	KUNIT_CASE(ftsw_arb_weights),
	KUNIT_CASE(ftsw_arb_high_limit),
	KUNIT_CASE(ftsw_ll_times),
	KUNIT_CASE(ftsw_credit_frame_checks),
	KUNIT_CASE(ftsw_ll_credits_hol_lifetimes),
	KUNIT_CASE(ftsw_ll_refund),
	KUNIT_CASE(ftsw_ll_unsend_case),
	KUNIT_CASE(ftsw_ll_edge_slack_life),
	KUNIT_CASE(ftsw_ll_host_room_cases),
	KUNIT_CASE(ftsw_ll_fair_inputs),
	KUNIT_CASE(ftsw_ll_adaptive_head),
	KUNIT_CASE(ftsw_ll_adaptive_busy),
	KUNIT_CASE(ftsw_ll_credit_frame_rx),
	{}
};

static struct kunit_suite ftsw_ll_suite = {
	.name = "ftsw_lossless",
	.test_cases = ftsw_ll_cases,
};

kunit_test_suites(&ftsw_ll_suite);
