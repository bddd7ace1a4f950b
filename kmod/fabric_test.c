// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of ftsw: compact LFTs and staged writes, the fabric header
 * on crafted skbs, LID addressing and path policy, the data path's drop
 * accounting, and the netlink policy.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/netlink.h>
#include <net/tcp.h>
/* skb_gso_segment(): <linux/netdevice.h> up to 6.4, <net/gso.h> since. */
#include <net/udp.h>
#include "hdr.h"
#include "lft.h"
#include "mcast.h"
#include "nl_policy.h"
#include "path.h"
#include "pkey.h"
#include "rx.h"
#include "stats.h"
#include "tx.h"
#include "test_util.h"

/* ---------------------------------------------------------------- LFT */

static void ftsw_lft_alloc_no_route(struct kunit *test)
{
	struct ftsw_lft *t = ftsw_lft_alloc(10, NULL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_GE(test, t->size, 64U);
	for (i = 0; i < t->size; i++)
		KUNIT_EXPECT_EQ(test, t->port[i], FTSW_NO_ROUTE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(t, 5), FTSW_NO_ROUTE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(t, 0xBFFF), FTSW_NO_ROUTE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(NULL, 1), FTSW_NO_ROUTE);
	ftsw_lft_free(t);
}

static void ftsw_lft_stage_copy_on_write(struct kunit *test)
{
	struct ftsw_lft *active, *staged = NULL;
	u8 blk[3] = { 1, 2, 3 };
	u8 big = 7;

	active = ftsw_lft_alloc(64, NULL);
	KUNIT_ASSERT_NOT_NULL(test, active);
	active->port[10] = 4;

	/* Staging copies the active table and leaves it alone. */
	KUNIT_ASSERT_EQ(test, ftsw_lft_stage(&staged, active, 20, blk, 3), 0);
	KUNIT_ASSERT_NOT_NULL(test, staged);
	KUNIT_EXPECT_PTR_NE(test, staged, active);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(staged, 10), 4);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(staged, 21), 2);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(active, 21), FTSW_NO_ROUTE);

	/* Growing keeps what was staged. */
	KUNIT_ASSERT_EQ(test, ftsw_lft_stage(&staged, active, 0xBFFF, &big, 1),
			0);
	KUNIT_EXPECT_EQ(test, staged->size, (u32)FTSW_LFT_SIZE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(staged, 0xBFFF), 7);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(staged, 22), 3);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(staged, 10), 4);
	KUNIT_EXPECT_LT(test, active->size, 1024U);
	ftsw_lft_free(staged);
	ftsw_lft_free(active);
}

static void ftsw_lft_check_rejects(struct kunit *test)
{
	u8 ok[4] = { 1, 4, FTSW_NO_ROUTE, 0 };
	u8 bad[2] = { 1, 5 };
	const char *msg = NULL;

	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(1, ok, 4, 4, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(1, bad, 2, 4, &msg), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(0xBFFE, ok, 4, 4, &msg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(0xBFFC, ok, 4, 4, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(0xC000, ok, 1, 4, &msg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, ftsw_lft_check_block(1, ok, 0, 4, &msg), -EINVAL);
}

/* A full table costs one byte per LID plus a small header. */
static void ftsw_lft_bytes_per_entry(struct kunit *test)
{
	struct ftsw_lft *t = ftsw_lft_alloc(FTSW_LFT_SIZE, NULL);
	size_t bytes;

	KUNIT_ASSERT_NOT_NULL(test, t);
	bytes = ftsw_lft_bytes(t);
	kunit_info(test, "full LFT: %zu bytes for %u entries\n", bytes,
		   FTSW_LFT_SIZE);
	KUNIT_EXPECT_EQ(test, t->size, (u32)FTSW_LFT_SIZE);
	KUNIT_EXPECT_LE(test, bytes, (size_t)FTSW_LFT_SIZE + 64);
	ftsw_lft_free(t);
}

/* ---------------------------------------------------------------- header */

static const u8 ftsw_t_dst[ETH_ALEN] = { 0x02, 0x66, 0x74, 0x00, 0x00, 0x08 };
static const u8 ftsw_t_src[ETH_ALEN] = { 0x02, 0x66, 0x74, 0x00, 0x00, 0x04 };

/* An Ethernet frame with @plen payload bytes, skb->data at the MAC header. */
static struct sk_buff *ftsw_t_frame(struct kunit *test, __be16 proto,
				    unsigned int plen)
{
	struct sk_buff *skb = alloc_skb(128 + plen, GFP_KERNEL);
	struct ethhdr *eth;
	u8 *p;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, ftsw_t_dst);
	ether_addr_copy(eth->h_source, ftsw_t_src);
	eth->h_proto = proto;
	p = skb_put(skb, plen);
	for (i = 0; i < plen; i++)
		p[i] = i;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->protocol = proto;
	/* No device to dissect against: give the flow hash directly. */
	skb_set_hash(skb, 0x1234, PKT_HASH_TYPE_L4);
	return skb;
}

/* A fabric frame: Ethernet, fabric header, @plen payload bytes. */
static struct sk_buff *ftsw_t_fabric(struct kunit *test, u16 dlid, u8 sl,
				     u8 hops, unsigned int plen)
{
	struct sk_buff *skb = ftsw_t_frame(test, htons(ETH_P_IP), plen);
	struct ftsw_hdr *h;

	KUNIT_ASSERT_EQ(test, ftsw_encap(skb, dlid, 4, sl, FTSW_PKEY_DEFAULT),
			0);
	h = (struct ftsw_hdr *)(skb->data + ETH_HLEN);
	h->hops = hops;
	return skb;
}

static void ftsw_hdr_push_pop(struct kunit *test)
{
	struct sk_buff *skb = ftsw_t_frame(test, htons(ETH_P_IPV6), 40);
	struct ftsw_hdr *h;
	struct ethhdr *eth;
	u8 copy[ETH_HLEN + 40];

	memcpy(copy, skb->data, sizeof(copy));
	KUNIT_ASSERT_EQ(test, ftsw_encap(skb, 9, 4, 3, 0x8001), 0);
	/* 10 bytes: dlid, slid, sl, hops, pkey, proto (include/uapi) */
	KUNIT_EXPECT_EQ(test, FTSW_HLEN, 10);
	KUNIT_EXPECT_EQ(test, skb->len, (unsigned int)(ETH_HLEN + 10 + 40));
	eth = (struct ethhdr *)skb->data;
	KUNIT_EXPECT_EQ(test, ntohs(eth->h_proto), FTSW_ETH_P);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), FTSW_ETH_P);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth->h_dest, ftsw_t_dst));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth->h_source, ftsw_t_src));
	h = (struct ftsw_hdr *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, ntohs(h->dlid), 9);
	KUNIT_EXPECT_EQ(test, ntohs(h->slid), 4);
	KUNIT_EXPECT_EQ(test, h->sl, 3);
	KUNIT_EXPECT_EQ(test, h->hops, 0);
	KUNIT_EXPECT_EQ(test, ntohs(h->pkey), 0x8001);
	KUNIT_EXPECT_EQ(test, ntohs(h->proto), ETH_P_IPV6);
	/* the bytes on the wire, big endian, in their order */
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 6], 0x80);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 7], 0x01);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 8], 0x86);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + 9], 0xdd);
	/* The payload did not move: checksum offsets stay valid. */
	KUNIT_EXPECT_EQ(test, skb_network_header(skb)[0], 0);
	KUNIT_EXPECT_EQ(test, skb->data[ETH_HLEN + FTSW_HLEN + 39], 39);

	KUNIT_ASSERT_EQ(test, ftsw_decap(skb), 0);
	KUNIT_EXPECT_EQ(test, skb->len, (unsigned int)sizeof(copy));
	KUNIT_EXPECT_EQ(test, memcmp(skb->data, copy, sizeof(copy)), 0);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), ETH_P_IPV6);
	kfree_skb(skb);
}

static void ftsw_hdr_push_short(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, 6);	/* not even an Ethernet header */
	KUNIT_EXPECT_NE(test, ftsw_encap(skb, 1, 1, 0, FTSW_PKEY_DEFAULT), 0);
	kfree_skb(skb);
}

/* Encapsulating a cloned skb must not write into the shared data. */
static void ftsw_hdr_push_clone(struct kunit *test)
{
	struct sk_buff *skb = ftsw_t_frame(test, htons(ETH_P_IP), 20);
	struct sk_buff *clone = skb_clone(skb, GFP_KERNEL);
	u8 copy[ETH_HLEN + 20];

	KUNIT_ASSERT_NOT_NULL(test, clone);
	memcpy(copy, clone->data, sizeof(copy));
	KUNIT_ASSERT_EQ(test, ftsw_encap(skb, 2, 1, 0, FTSW_PKEY_DEFAULT), 0);
	KUNIT_EXPECT_EQ(test, memcmp(clone->data, copy, sizeof(copy)), 0);
	kfree_skb(clone);
	kfree_skb(skb);
}

static void ftsw_hdr_check_fields(struct kunit *test)
{
	struct ftsw_hdr h = {
		.dlid = htons(5), .slid = htons(1), .sl = 15, .hops = 200,
		.proto = htons(ETH_P_IP),
	};
	const char *why;

	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), 0);
	h.dlid = 0;
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), -EINVAL);
	h.dlid = htons(0xFFFF);		/* permissive: not a packet's */
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), -EINVAL);
	h.dlid = htons(0xBFFF);
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), 0);
	h.dlid = htons(0xC000);		/* multicast LIDs */
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), 0);
	h.dlid = htons(0xFFFE);
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), 0);
	/* FECN and BECN may be set; bits 7..6 are reserved */
	h.sl = FTSW_HDR_FECN | FTSW_HDR_BECN | 15;
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), 0);
	h.sl = 0x40;
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), -EINVAL);
	h.sl = 0x80;
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), -EINVAL);
	h.sl = 0;
	h.proto = htons(100);
	KUNIT_EXPECT_EQ(test, ftsw_hdr_check(&h, &why), -EINVAL);
}

/* ---------------------------------------------------------------- policy */

static struct ftsw_policy *ftsw_t_policy(struct kunit *test, u16 base,
					 u8 lmc, const u8 *off, u8 n)
{
	struct ftsw_policy *pol;

	pol = kunit_kzalloc(test, struct_size(pol, sl, 0), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pol);
	pol->base_lid = base;
	pol->lmc = lmc;
	pol->n_offsets = n;
	memcpy(pol->offsets, off, n);
	return pol;
}

static void ftsw_mac_lid(struct kunit *test)
{
	u8 mac[ETH_ALEN];
	u16 lid = 0;

	ftsw_lid_to_mac(0x1234, mac);
	KUNIT_EXPECT_TRUE(test, ftsw_mac_to_lid(mac, &lid));
	KUNIT_EXPECT_EQ(test, lid, 0x1234);
	ftsw_lid_to_mac(0xC000, mac);
	KUNIT_EXPECT_FALSE(test, ftsw_mac_to_lid(mac, &lid));
	ftsw_lid_to_mac(0, mac);
	KUNIT_EXPECT_FALSE(test, ftsw_mac_to_lid(mac, &lid));
	eth_broadcast_addr(mac);
	KUNIT_EXPECT_FALSE(test, ftsw_mac_to_lid(mac, &lid));
}

static void ftsw_offsets_spread(struct kunit *test)
{
	static const u8 all[4] = { 0, 1, 2, 3 };
	static const u8 two[2] = { 1, 3 };
	struct ftsw_policy *pol = ftsw_t_policy(test, 8, 2, all, 4);
	unsigned int hits[4] = { 0 };
	int i;

	for (i = 0; i < 4000; i++)
		hits[ftsw_pick_offset(pol, get_random_u32())]++;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_GT(test, hits[i], 700U);

	pol = ftsw_t_policy(test, 8, 2, two, 2);
	memset(hits, 0, sizeof(hits));
	for (i = 0; i < 4000; i++)
		hits[ftsw_pick_offset(pol, get_random_u32())]++;
	KUNIT_EXPECT_EQ(test, hits[0] + hits[2], 0U);
	KUNIT_EXPECT_GT(test, hits[1], 1500U);
	KUNIT_EXPECT_GT(test, hits[3], 1500U);

	/* A single allowed offset: a fixed, per-source path. */
	pol = ftsw_t_policy(test, 8, 2, &two[1], 1);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, ftsw_pick_offset(pol, get_random_u32()), 3);
	/* The same flow hash always takes the same offset. */
	pol = ftsw_t_policy(test, 8, 2, all, 4);
	KUNIT_EXPECT_EQ(test, ftsw_pick_offset(pol, 0xdeadbeef),
			ftsw_pick_offset(pol, 0xdeadbeef));
}

static void ftsw_lid_range(struct kunit *test)
{
	static const u8 all[4] = { 0, 1, 2, 3 };
	struct ftsw_policy *pol = ftsw_t_policy(test, 4, 2, all, 4);

	KUNIT_EXPECT_FALSE(test, ftsw_lid_in_range(pol, 3));
	KUNIT_EXPECT_TRUE(test, ftsw_lid_in_range(pol, 4));
	KUNIT_EXPECT_TRUE(test, ftsw_lid_in_range(pol, 7));
	KUNIT_EXPECT_FALSE(test, ftsw_lid_in_range(pol, 8));
	pol = ftsw_t_policy(test, 9, 0, all, 1);
	KUNIT_EXPECT_TRUE(test, ftsw_lid_in_range(pol, 9));
	KUNIT_EXPECT_FALSE(test, ftsw_lid_in_range(pol, 10));
}

static void ftsw_policy_checks(struct kunit *test)
{
	static const u8 off[3] = { 0, 1, 3 };
	u8 sl[4] = { 0, 15, 2, 3 };
	const char *msg;

	KUNIT_EXPECT_EQ(test, ftsw_policy_check(4, 2, off, 3, sl, 4, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(5, 2, off, 3, NULL, 0, &msg),
			-EINVAL);	/* misaligned */
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(4, 1, off, 3, NULL, 0, &msg),
			-EINVAL);	/* offset 3 >= 2 */
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(8, 8, off, 1, NULL, 0, &msg),
			-EINVAL);	/* LMC */
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(0, 0, off, 1, NULL, 0, &msg),
			-EINVAL);	/* LID 0 */
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(0xBFFC, 3, off, 1, NULL, 0,
						&msg), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(4, 2, off, 0, NULL, 0, &msg),
			-EINVAL);	/* no offsets */
	sl[2] = 16;
	KUNIT_EXPECT_EQ(test, ftsw_policy_check(4, 2, off, 3, sl, 4, &msg),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, msg);
}

/* ---------------------------------------------------------------- data path */

struct ftsw_t_fabric {
	struct ftsw_net fn;
	struct ftsw_switch *sw;
	struct ftsw_port *ports[3];
};

static void ftsw_t_fabric_free(struct ftsw_t_fabric *f)
{
	int i;

	for (i = 1; i < 3; i++)
		ftsw_t_port_free(f->ports[i]);
	ftsw_t_switch_free(f->sw);
	ftsw_t_fabric_exit(&f->fn);
}

/*
 * One switch with 4 ports: 1 a link port, 2 an edge port for LIDs 8..11
 * (both bound, no device: nothing may reach a transmit), 3 and 4 unbound.
 * LFT: 8 -> 2, 20 -> 2 (not the host's LID), 12 -> 3, 13 -> 200 (past
 * nports), 14 -> 0 (the switch itself), everything else no route.
 */
static struct ftsw_t_fabric *ftsw_t_fabric_new(struct kunit *test)
{
	struct ftsw_t_fabric *f;
	struct ftsw_lft *lft;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->fn.hop_limit = 4;
	f->sw = ftsw_t_switch_new(test, &f->fn, 0, false);
	f->ports[1] = ftsw_t_port_new(test, f->sw, 1, FTSW_PORT_LINK);
	f->ports[2] = ftsw_t_port_new(test, f->sw, 2, FTSW_PORT_EDGE);
	ftsw_t_edge_policy(test, f->ports[2], 8, 2, 4);
	lft = rcu_access_pointer(f->sw->lft);
	lft->port[8] = 2;
	lft->port[20] = 2;
	lft->port[12] = 3;
	lft->port[13] = 200;
	lft->port[14] = 0;
	return f;
}

static u64 ftsw_t_drops(struct ftsw_port *p, enum ftsw_drop r)
{
	struct ftsw_stats st;

	ftsw_port_stats_read(p, &st);
	return st.drops[r];
}

/* Feed @skb to a port as the rx handler would and check the one drop. */
static void ftsw_t_expect_drop(struct kunit *test, struct ftsw_port *in,
			       struct sk_buff *skb, enum ftsw_drop reason)
{
	u64 before[FTSW_DROP_MAX + 1];
	int r;

	for (r = 0; r <= FTSW_DROP_MAX; r++)
		before[r] = ftsw_t_drops(in, r);
	local_bh_disable();
	rcu_read_lock();
	ftsw_rx(in, skb);
	rcu_read_unlock();
	local_bh_enable();
	for (r = 0; r <= FTSW_DROP_MAX; r++)
		KUNIT_EXPECT_EQ_MSG(test, ftsw_t_drops(in, r),
				    before[r] + (r == reason),
				    "drop reason %d (expected %d)", r, reason);
}

static void ftsw_dp_link_drops(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *in = f->ports[1];
	struct sk_buff *skb;

	/* Not a fabric frame. */
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NOT_FABRIC);
	/* Truncated header: 4 of its 10 bytes. */
	skb = ftsw_t_frame(test, htons(FTSW_ETH_P), 4);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MALFORMED);
	/* Ethernet header only. */
	skb = ftsw_t_frame(test, htons(FTSW_ETH_P), 0);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MALFORMED);
	/* Invalid DLID 0. */
	skb = ftsw_t_fabric(test, 8, 0, 0, 20);
	((struct ftsw_hdr *)(skb->data + ETH_HLEN))->dlid = 0;
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MALFORMED);
	/* Reserved SL bits. */
	skb = ftsw_t_fabric(test, 8, 0, 0, 20);
	((struct ftsw_hdr *)(skb->data + ETH_HLEN))->sl = 0x80;
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MALFORMED);
	/* Hop limit (4): at it, and a huge hop count that must not wrap. */
	skb = ftsw_t_fabric(test, 8, 0, 4, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_HOP_LIMIT);
	skb = ftsw_t_fabric(test, 8, 0, 255, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_HOP_LIMIT);
	/* No route: no entry, port past nports, port 0. */
	skb = ftsw_t_fabric(test, 30, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	skb = ftsw_t_fabric(test, 0x1000, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	skb = ftsw_t_fabric(test, 13, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	skb = ftsw_t_fabric(test, 14, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	/* Out port unbound. */
	skb = ftsw_t_fabric(test, 12, 0, 3, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_PORT_DOWN);
	/* Out edge port, DLID not the host's. */
	skb = ftsw_t_fabric(test, 20, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MISDELIVERED);
	/* Out port administratively down. */
	WRITE_ONCE(f->ports[2]->up, false);
	skb = ftsw_t_fabric(test, 8, 0, 0, 20);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_PORT_DOWN);
	ftsw_t_fabric_free(f);
}

static void ftsw_dp_edge_drops(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *in = f->ports[2];
	struct sk_buff *skb;

	/* Broadcast / multicast: the fabric is routed, not flooded. */
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	eth_broadcast_addr(eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NOT_FABRIC);
	/* A host LID (0x40 + offset) with no route on this switch. */
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	/* Routed back to the sender's own edge port is fine, but to LID 20
	 * (not the host behind port 2) is misdelivery.
	 */
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(20, eth_hdr(skb)->h_dest);
	rcu_access_pointer(f->ports[2]->policy)->n_offsets = 1;
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_MISDELIVERED);
	ftsw_t_fabric_free(f);
}

/*
 * With a single allowed offset the path needs no flow hash, and the edge
 * port must not compute one (a flow dissection per packet that came
 * without a socket's hash, e.g. UDP). The frame has no device, so a
 * dissection would also warn.
 */
static void ftsw_dp_edge_no_hash(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *in = f->ports[2];
	struct sk_buff *skb;

	rcu_access_pointer(in->policy)->n_offsets = 1;
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	skb_clear_hash(skb);
	/* Keep the frame past the drop to look at it. */
	skb_get(skb);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	KUNIT_EXPECT_FALSE(test, skb->sw_hash);
	KUNIT_EXPECT_FALSE(test, skb->l4_hash);
	KUNIT_EXPECT_EQ(test, skb->hash, 0U);
	kfree_skb(skb);
	ftsw_t_fabric_free(f);
}

/*
 * An 802.3 frame (length, not ethertype) has one fate whatever the path:
 * refused at the edge as not_fabric, before it is routed (here to LID
 * 0x40, which has no route: a routed frame would count no_route), as a
 * fabric frame carrying a length is malformed at a link port.
 */
static void ftsw_dp_8023_length(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct sk_buff *skb;

	skb = ftsw_t_frame(test, htons(46), 46);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, f->ports[2], skb, FTSW_DROP_NOT_FABRIC);
	skb = ftsw_t_frame(test, htons(ETH_P_802_3_MIN - 1), 46);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, f->ports[2], skb, FTSW_DROP_NOT_FABRIC);
	/* The smallest ethertype is routed (and finds no route). */
	skb = ftsw_t_frame(test, htons(ETH_P_802_3_MIN), 46);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, f->ports[2], skb, FTSW_DROP_NO_ROUTE);
	skb = ftsw_t_fabric(test, 8, 0, 0, 20);
	((struct ftsw_hdr *)(skb->data + ETH_HLEN))->proto = htons(46);
	ftsw_t_expect_drop(test, f->ports[1], skb, FTSW_DROP_MALFORMED);
	ftsw_t_fabric_free(f);
}

/* ---------------------------------------------------------------- netlink */

struct ftsw_t_msg {
	u8 buf[512];
	int len;
	int last;	/* offset of the last attribute put */
};

static void ftsw_t_put(struct ftsw_t_msg *m, int type, const void *data,
		       int len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);

	a->nla_type = type;
	a->nla_len = nla_attr_size(len);
	memcpy(nla_data(a), data, len);
	m->last = m->len;
	m->len += nla_total_size(len);
}

/* Parse one attribute against a command policy taking it; the error. */
#define FTSW_T_POL(pol, max) ({ *(max) = ARRAY_SIZE(pol) - 1; pol; })

/* The policy of a command that takes @type (output-only: SWITCH_NEW's). */
static const struct nla_policy *ftsw_t_policy_for(int type, int *maxattr)
{
	switch (type) {
	case FTSW_ATTR_HOP_LIMIT:
	case FTSW_ATTR_CC_TIMER_NS:
		return FTSW_T_POL(ftsw_fabric_set_policy, maxattr);
	case FTSW_ATTR_PORT_NUM:
	case FTSW_ATTR_PORT_IFINDEX:
	case FTSW_ATTR_PORT_KIND:
	case FTSW_ATTR_PORT_ADMIN_UP:
	case FTSW_ATTR_PORT_BASE_LID:
	case FTSW_ATTR_PORT_LMC:
	case FTSW_ATTR_PORT_OFFSETS:
	case FTSW_ATTR_PORT_SL:
	case FTSW_ATTR_PORT_SL_TABLE:
		return FTSW_T_POL(ftsw_port_bind_policy, maxattr);
	case FTSW_ATTR_LFT_FIRST_LID:
	case FTSW_ATTR_LFT_DATA:
		return FTSW_T_POL(ftsw_lft_set_policy, maxattr);
	case FTSW_ATTR_SL2VL:
		return FTSW_T_POL(ftsw_sl2vl_set_policy, maxattr);
	default:
		return FTSW_T_POL(ftsw_switch_new_policy, maxattr);
	}
}

static int ftsw_t_policy_one(struct kunit *test, int type, const void *data,
			     int len, bool want_msg)
{
	const struct nla_policy *pol;
	struct nlattr *tb[FTSW_ATTR_MAX + 1];
	struct netlink_ext_ack ext = {};
	struct ftsw_t_msg *m;
	int maxattr, err;

	pol = ftsw_t_policy_for(type, &maxattr);
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	ftsw_t_put(m, type, data, len);
	err = nla_parse(tb, maxattr, (struct nlattr *)m->buf, m->len, pol,
			&ext);
	if (err && want_msg)
		KUNIT_EXPECT_NOT_NULL_MSG(test, ext._msg,
					  "attribute %d rejected without a message",
					  type);
	return err;
}

static void ftsw_nl_policy_rejects(struct kunit *test)
{
	static const u8 zero[130];
	u8 v8;
	u16 v16;
	u32 v32;

	v8 = 0;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NPORTS,
						&v8, 1, true), 0);
	v8 = 255;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NPORTS,
						&v8, 1, true), 0);
	v8 = 254;
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NPORTS,
						&v8, 1, true), 0);
	v16 = 4;	/* a u8 sent as two bytes: exact lengths */
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NPORTS,
						&v16, 2, true), 0);
	v16 = 0xC000;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_LID,
						&v16, 2, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_BASE_LID,
						&v16, 2, true), 0);
	v16 = 0;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_BASE_LID,
						&v16, 2, true), 0);
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_LFT_FIRST_LID,
						&v16, 2, true), 0);
	v16 = 0xBFFF;
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_LID,
						&v16, 2, true), 0);
	v32 = 0;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_IFINDEX,
						&v32, 4, true), 0);
	/* CCTI_Timer's unit: 1 ns .. 1 s. */
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_CC_TIMER_NS,
						&v32, 4, true), 0);
	v32 = 1000000001;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_CC_TIMER_NS,
						&v32, 4, true), 0);
	v32 = 102400;
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_CC_TIMER_NS,
						&v32, 4, true), 0);
	v8 = 3;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_KIND,
						&v8, 1, true), 0);
	v8 = 0;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_KIND,
						&v8, 1, true), 0);
	v8 = 8;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_LMC,
						&v8, 1, true), 0);
	v8 = 16;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_SL,
						&v8, 1, true), 0);
	v8 = 2;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_ADMIN_UP,
						&v8, 1, true), 0);
	v8 = 0;
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_HOP_LIMIT,
						&v8, 1, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_OFFSETS,
						zero, 0, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_OFFSETS,
						zero, 129, true), 0);
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_OFFSETS,
						zero, 128, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SL2VL,
						zero, 15, true), 0);
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_SL2VL,
						zero, 16, true), 0);
	/* Output-only and unknown attributes. */
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_GENERATION,
						zero, 8, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_PORT_STATS,
						zero, 4, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_MAX + 1,
						zero, 4, false), 0);
	/* Names: NUL-terminated, at most 31 characters. */
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NAME,
						"abcd", 4, true), 0);
	KUNIT_EXPECT_EQ(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NAME,
						"leaf", 5, true), 0);
	KUNIT_EXPECT_NE(test, ftsw_t_policy_one(test, FTSW_ATTR_SWITCH_NAME,
						"0123456789012345678901234567890123456789",
						41, true), 0);
}

/* Parse @m with @pol strictly: the error, and the offending attribute. */
static int ftsw_t_parse(struct kunit *test, const struct nla_policy *pol,
			int maxattr, struct ftsw_t_msg *m)
{
	struct nlattr *tb[FTSW_ATTR_MAX + 1];
	struct netlink_ext_ack ext = {};
	int err;

	err = nla_parse(tb, maxattr, (struct nlattr *)m->buf, m->len, pol,
			&ext);
	if (err) {
		KUNIT_EXPECT_NOT_NULL(test, ext._msg);
		/* The extack points at the attribute: the last one put. */
		KUNIT_EXPECT_PTR_EQ(test, (const void *)ext.bad_attr,
				    (const void *)(m->buf + m->last));
	}
	return err;
}

/*
 * Per-command policies refuse what their command does not take: the
 * examples of issue 16 (a switch dump with a hop limit, a port dump with
 * the staged-LFT flag, an LFT dump with an admin state), output-only
 * attributes, and each command's own attributes still pass.
 */
static void ftsw_nl_policy_per_command(struct kunit *test)
{
	static const struct {
		const struct nla_policy *pol;
		int maxattr, type, len;
		bool ok;
	} c[] = {
#define C(p, t, l, ok) { p, ARRAY_SIZE(p) - 1, t, l, ok }
		C(ftsw_switch_policy, FTSW_ATTR_HOP_LIMIT, 1, false),
		C(ftsw_switch_policy, FTSW_ATTR_SWITCH_NPORTS, 1, false),
		C(ftsw_switch_policy, FTSW_ATTR_PORT_NUM, 1, false),
		C(ftsw_port_policy, FTSW_ATTR_LFT_STAGED, 0, false),
		C(ftsw_port_policy, FTSW_ATTR_HOP_LIMIT, 1, false),
		C(ftsw_port_policy, FTSW_ATTR_PORT_OPER_UP, 1, false),
		C(ftsw_lft_get_policy, FTSW_ATTR_PORT_ADMIN_UP, 1, false),
		C(ftsw_lft_get_policy, FTSW_ATTR_LFT_DATA, 1, false),
		C(ftsw_lft_set_policy, FTSW_ATTR_LFT_STAGED, 0, false),
		C(ftsw_port_set_policy, FTSW_ATTR_PORT_KIND, 1, false),
		C(ftsw_port_set_policy, FTSW_ATTR_PORT_IFINDEX, 4, false),
		C(ftsw_fabric_set_policy, FTSW_ATTR_SWITCH_ID, 4, false),
		C(ftsw_sl2vl_set_policy, FTSW_ATTR_LFT_DATA, 16, false),
		C(ftsw_switch_new_policy, FTSW_ATTR_GENERATION, 8, false),
		C(ftsw_port_bind_policy, FTSW_ATTR_PORT_STATS, 4, false),
		C(ftsw_switch_policy, FTSW_ATTR_SWITCH_ID, 4, true),
		C(ftsw_port_policy, FTSW_ATTR_PORT_NUM, 1, true),
		C(ftsw_lft_get_policy, FTSW_ATTR_LFT_STAGED, 0, true),
		C(ftsw_port_set_policy, FTSW_ATTR_PORT_ADMIN_UP, 1, true),
		C(ftsw_sl2vl_set_policy, FTSW_ATTR_SL2VL, 16, true),
#undef C
	};
	static const u8 one[16] = { 1, 1, 1, 1 };
	struct ftsw_t_msg *m;
	int i;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		int err;

		m->len = 0;
		ftsw_t_put(m, FTSW_ATTR_SWITCH_ID, one, 4);
		if (c[i].type != FTSW_ATTR_SWITCH_ID)
			ftsw_t_put(m, c[i].type, one, c[i].len);
		err = ftsw_t_parse(test, c[i].pol, c[i].maxattr, m);
		if (c[i].ok)
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "case %d", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "case %d", i);
	}
}

static struct kunit_case ftsw_nl_cases[] = {
	KUNIT_CASE(ftsw_nl_policy_rejects),
	KUNIT_CASE(ftsw_nl_policy_per_command),
	{}
};

static struct kunit_suite ftsw_nl_suite = {
	.name = "ftsw_netlink_policy",
	.test_cases = ftsw_nl_cases,
};

static struct kunit_case ftsw_lft_cases[] = {
	KUNIT_CASE(ftsw_lft_alloc_no_route),
	KUNIT_CASE(ftsw_lft_stage_copy_on_write),
	KUNIT_CASE(ftsw_lft_check_rejects),
	KUNIT_CASE(ftsw_lft_bytes_per_entry),
	{}
};

static struct kunit_suite ftsw_lft_suite = {
	.name = "ftsw_lft",
	.test_cases = ftsw_lft_cases,
};

static struct kunit_case ftsw_hdr_cases[] = {
	KUNIT_CASE(ftsw_hdr_push_pop),
	KUNIT_CASE(ftsw_hdr_push_short),
	KUNIT_CASE(ftsw_hdr_push_clone),
	KUNIT_CASE(ftsw_hdr_check_fields),
	KUNIT_CASE(ftsw_mac_lid),
	{}
};

static struct kunit_suite ftsw_hdr_suite = {
	.name = "ftsw_hdr",
	.test_cases = ftsw_hdr_cases,
};

static struct kunit_case ftsw_policy_cases[] = {
	KUNIT_CASE(ftsw_offsets_spread),
	KUNIT_CASE(ftsw_lid_range),
	KUNIT_CASE(ftsw_policy_checks),
	{}
};

static struct kunit_suite ftsw_policy_suite = {
	.name = "ftsw_policy",
	.test_cases = ftsw_policy_cases,
};

/*
 * GSO of a fabric frame the egress device cannot take whole: a 300-byte
 * TCP payload with MSS 100 becomes 3 frames of 14 + 10 + 20 + 20 + 100 =
 * 164 bytes, each with the same Ethernet and fabric header, IP length 140,
 * IP ids 1000..1002, sequence numbers seq, seq + 100, seq + 200, and both
 * checksums right (computed here over the segment, independently of the
 * kernel's GSO code). Three layouts: the core meets the frame with the
 * network header at the fabric header (mac_len 14), at the inner packet
 * (24, as the data path sets it), and behind an in-band VLAN tag (28).
 */
static void ftsw_dp_gso_case(struct kunit *test, unsigned int nh, bool vlan)
{
	const __be32 saddr = htonl(0xC6120001), daddr = htonl(0xC6120002);
	const unsigned int mss = 100, pay = 3 * mss, tag = vlan ? VLAN_HLEN : 0;
	const unsigned int l3 = ETH_HLEN + FTSW_HLEN + tag;
	struct sk_buff *skb, *segs, *seg, *next;
	u8 fab[ETH_HLEN + FTSW_HLEN];
	struct tcphdr *th;
	struct iphdr *iph;
	unsigned int i, j;
	__sum16 sum;
	u8 *d;

	skb = ftsw_t_frame(test, htons(vlan ? ETH_P_8021Q : ETH_P_IP),
			   tag + 40 + pay);
	KUNIT_ASSERT_EQ(test, ftsw_encap(skb, 8, 4, 3, FTSW_PKEY_DEFAULT), 0);
	d = skb->data;
	((struct ftsw_hdr *)(d + ETH_HLEN))->hops = 2;
	if (vlan) {
		*(__be16 *)(d + ETH_HLEN + FTSW_HLEN) = htons(5);
		*(__be16 *)(d + ETH_HLEN + FTSW_HLEN + 2) = htons(ETH_P_IP);
	}
	iph = (struct iphdr *)(d + l3);
	memset(iph, 0, 40);
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(40 + pay);
	iph->id = htons(1000);
	iph->frag_off = htons(IP_DF);
	iph->ttl = 64;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	iph->check = ip_fast_csum(iph, 5);
	th = (struct tcphdr *)(iph + 1);
	th->source = htons(40000);
	th->dest = htons(5201);
	th->seq = htonl(0x10000);
	th->ack_seq = htonl(1);
	th->doff = 5;
	th->ack = 1;
	th->window = htons(512);
	/* As the stack leaves it for offload: the pseudo header sum. */
	th->check = ~tcp_v4_check(20 + pay, saddr, daddr, 0);
	memcpy(fab, d, sizeof(fab));
	skb_set_network_header(skb, nh);
	KUNIT_ASSERT_TRUE(test, skb_partial_csum_set(skb, l3 + 20,
						     offsetof(struct tcphdr,
							      check)));
	skb_shinfo(skb)->gso_size = mss;
	skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
	skb_shinfo(skb)->gso_segs = 3;

	/* No checksum offload: segments carry their final checksums. */
	segs = skb_gso_segment(skb, NETIF_F_SG);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(segs));
	i = 0;
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		KUNIT_ASSERT_LT(test, i, 3U);
		KUNIT_EXPECT_EQ(test, seg->len, l3 + 40 + mss);
		KUNIT_ASSERT_EQ(test, skb_linearize(seg), 0);
		d = seg->data;
		KUNIT_EXPECT_EQ(test, ntohs(seg->protocol), FTSW_ETH_P);
		KUNIT_EXPECT_PTR_EQ(test, skb_mac_header(seg), d);
		KUNIT_EXPECT_EQ(test, skb_network_offset(seg), (int)l3);
		KUNIT_EXPECT_EQ(test, memcmp(d, fab, sizeof(fab)), 0);
		iph = (struct iphdr *)(d + l3);
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), 40 + mss);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 1000 + i);
		/* A header or segment that sums right folds to zero. */
		sum = ip_fast_csum(iph, 5);
		KUNIT_EXPECT_EQ(test, (__force u16)sum, 0);
		th = (struct tcphdr *)(iph + 1);
		KUNIT_EXPECT_EQ(test, ntohl(th->seq), 0x10000 + i * mss);
		sum = csum_tcpudp_magic(saddr, daddr, 20 + mss, IPPROTO_TCP,
					csum_partial(th, 20 + mss, 0));
		KUNIT_EXPECT_EQ(test, (__force u16)sum, 0);
		/* ftsw_t_frame numbered the payload bytes from 0. */
		for (j = 0; j < mss; j++)
			if (d[l3 + 40 + j] != (u8)(tag + 40 + i * mss + j))
				break;
		KUNIT_EXPECT_EQ(test, j, mss);
		kfree_skb(seg);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 3U);
	consume_skb(skb);
}

static void ftsw_dp_gso_segment(struct kunit *test)
{
	ftsw_offload_register();
	ftsw_dp_gso_case(test, ETH_HLEN, false);
	ftsw_dp_gso_case(test, ETH_HLEN + FTSW_HLEN, false);
	ftsw_dp_gso_case(test, ETH_HLEN + FTSW_HLEN + VLAN_HLEN, true);
	ftsw_offload_unregister();
}

/* ---------------------------------------------------------------- patch */

/*
 * Two switches of 4 ports (hop limit 4) joined by a patch cable A:3 - B:3,
 * and A:1 a link port where frames enter; no device anywhere. LFTs: LID 40
 * -> port 3 on both switches (a loop across the cable), LID 41 -> 3 on A
 * and -> 2 on B (B:2 unbound).
 */
struct ftsw_t_patch {
	struct ftsw_net fn;
	struct ftsw_switch *sw[2];
	struct ftsw_port *in, *a, *b;
};

static void ftsw_t_patch_free(struct ftsw_t_patch *f)
{
	struct ftsw_port *ports[] = { f->in, f->a, f->b };
	int i;

	for (i = 0; i < ARRAY_SIZE(ports); i++)
		ftsw_t_port_free(ports[i]);
	for (i = 0; i < 2; i++)
		ftsw_t_switch_free(f->sw[i]);
	ftsw_t_fabric_exit(&f->fn);
}

static struct ftsw_t_patch *ftsw_t_patch_new(struct kunit *test)
{
	struct ftsw_t_patch *f;
	struct ftsw_lft *lft;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->fn.hop_limit = 4;
	for (i = 0; i < 2; i++) {
		f->sw[i] = ftsw_t_switch_new(test, &f->fn, i, false);
		lft = rcu_access_pointer(f->sw[i]->lft);
		lft->port[40] = 3;
		lft->port[41] = i ? 2 : 3;
	}
	f->in = ftsw_t_port_new(test, f->sw[0], 1, FTSW_PORT_LINK);
	f->a = ftsw_t_port_new(test, f->sw[0], 3, FTSW_PORT_LINK);
	f->b = ftsw_t_port_new(test, f->sw[1], 3, FTSW_PORT_LINK);
	ftsw_t_cable(f->a, f->b);
	return f;
}

/* Feed a fabric frame for @dlid (hops 0) to A:1 as the rx handler would. */
static void ftsw_t_patch_send(struct kunit *test, struct ftsw_t_patch *f,
			      u16 dlid)
{
	struct sk_buff *skb = ftsw_t_fabric(test, dlid, 0, 0, 20);

	local_bh_disable();
	rcu_read_lock();
	ftsw_rx(f->in, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void ftsw_t_expect_counts(struct kunit *test, struct ftsw_port *p,
				 u64 rx, u64 tx, enum ftsw_drop reason,
				 u64 drops)
{
	struct ftsw_stats st;
	int r;

	ftsw_port_stats_read(p, &st);
	KUNIT_EXPECT_EQ_MSG(test, st.rx_packets, rx, "switch %u port %u rx",
			    p->sw->id, p->num);
	KUNIT_EXPECT_EQ_MSG(test, st.tx_packets, tx, "switch %u port %u tx",
			    p->sw->id, p->num);
	KUNIT_EXPECT_EQ_MSG(test, st.tx_vl[0], tx, "switch %u port %u VL0",
			    p->sw->id, p->num);
	for (r = 0; r <= FTSW_DROP_MAX; r++)
		KUNIT_EXPECT_EQ_MSG(test, st.drops[r], r == reason ? drops : 0,
				    "switch %u port %u drop reason %d",
				    p->sw->id, p->num, r);
}

/*
 * A loop across a patch cable ends at the hop limit, not in the stack:
 * entering A with 0 hops, the frame crosses to B (hops 1 -> 2 there), back
 * to A (-> 3), to B (-> 4) and back to A, where 4 hops are the limit. So
 * each end sends it twice and takes it up twice, and A:3 drops it once.
 */
static void ftsw_dp_patch_loop_ends(struct kunit *test)
{
	struct ftsw_t_patch *f = ftsw_t_patch_new(test);

	ftsw_t_patch_send(test, f, 40);
	ftsw_t_expect_counts(test, f->in, 0, 0, FTSW_DROP_HOP_LIMIT, 0);
	ftsw_t_expect_counts(test, f->a, 2, 2, FTSW_DROP_HOP_LIMIT, 1);
	ftsw_t_expect_counts(test, f->b, 2, 2, FTSW_DROP_HOP_LIMIT, 0);
	ftsw_t_patch_free(f);
}

/* What the far end of a patch cable does when it cannot go on. */
static void ftsw_dp_patch_far_end(struct kunit *test)
{
	struct ftsw_t_patch *f = ftsw_t_patch_new(test);

	/* B routes LID 41 to its unbound port 2: B:3 drops it. */
	ftsw_t_patch_send(test, f, 41);
	ftsw_t_expect_counts(test, f->a, 0, 1, FTSW_DROP_PORT_DOWN, 0);
	ftsw_t_expect_counts(test, f->b, 1, 0, FTSW_DROP_PORT_DOWN, 1);
	/* The far end not up (a transient: its own link follows A's admin
	 * state): the frame crosses and is dropped there.
	 */
	WRITE_ONCE(f->b->up, false);
	ftsw_t_patch_send(test, f, 40);
	ftsw_t_expect_counts(test, f->a, 0, 2, FTSW_DROP_PORT_DOWN, 0);
	ftsw_t_expect_counts(test, f->b, 2, 0, FTSW_DROP_PORT_DOWN, 2);
	/* The near end down: A drops it before the cable, on the way in. */
	WRITE_ONCE(f->a->up, false);
	ftsw_t_patch_send(test, f, 40);
	ftsw_t_expect_counts(test, f->in, 0, 0, FTSW_DROP_PORT_DOWN, 1);
	ftsw_t_expect_counts(test, f->a, 0, 2, FTSW_DROP_PORT_DOWN, 0);
	ftsw_t_patch_free(f);
}

/*
 * Port states gate data (IBA vol. 1, 7.2): in by a port in Armed or
 * Active, out by one in Active, to a host's CA port in Armed or Active.
 * LID 40 on B goes back out by B:3, LID 41 to B:2, here an edge port whose
 * host is LIDs 8..8: a frame that passes every gate is dropped there as
 * misdelivered (counted on B:3), one stopped by a gate as NOT_ACTIVE.
 */
static void ftsw_dp_port_states(struct kunit *test)
{
	struct ftsw_t_patch *f = ftsw_t_patch_new(test);
	struct ftsw_port *b2 = ftsw_t_port_new(test, f->sw[1], 2,
					       FTSW_PORT_EDGE);
	const enum ftsw_drop na = FTSW_DROP_NOT_ACTIVE;
	struct ftsw_stats st;

	ftsw_t_edge_policy(test, b2, 8, 0, 1);
	/* A:3 Armed: takes, but sends nothing; A:1 counts the drop. */
	WRITE_ONCE(f->a->ib.state, FTSW_PS_ARMED);
	ftsw_t_patch_send(test, f, 41);
	ftsw_t_expect_counts(test, f->in, 0, 0, na, 1);
	ftsw_t_expect_counts(test, f->a, 0, 0, na, 0);
	/* A:1 in Init takes nothing. */
	WRITE_ONCE(f->a->ib.state, FTSW_PS_ACTIVE);
	WRITE_ONCE(f->in->ib.state, FTSW_PS_INIT);
	ftsw_t_patch_send(test, f, 41);
	ftsw_t_expect_counts(test, f->in, 0, 0, na, 2);
	WRITE_ONCE(f->in->ib.state, FTSW_PS_ACTIVE);
	/* B:3 in Init: the frame crosses and B:3 refuses it. */
	WRITE_ONCE(f->b->ib.state, FTSW_PS_INIT);
	ftsw_t_patch_send(test, f, 41);
	ftsw_t_expect_counts(test, f->a, 0, 1, na, 0);
	ftsw_t_expect_counts(test, f->b, 1, 0, na, 1);
	/* B:3 Armed takes it in, on to B:2: misdelivered, past every gate. */
	WRITE_ONCE(f->b->ib.state, FTSW_PS_ARMED);
	ftsw_t_patch_send(test, f, 41);
	ftsw_port_stats_read(f->b, &st);
	KUNIT_EXPECT_EQ(test, st.drops[FTSW_DROP_MISDELIVERED], 1);
	KUNIT_EXPECT_EQ(test, st.drops[na], 1);
	/* ... but an Armed B:3 sends nothing (LID 40 goes back out by it). */
	ftsw_t_patch_send(test, f, 40);
	ftsw_port_stats_read(f->b, &st);
	KUNIT_EXPECT_EQ(test, st.drops[na], 2);
	KUNIT_EXPECT_EQ(test, st.tx_packets, 0);
	/* The host's CA port in Init takes nothing from B:2. */
	WRITE_ONCE(f->b->ib.state, FTSW_PS_ACTIVE);
	WRITE_ONCE(b2->ca.ib.state, FTSW_PS_INIT);
	ftsw_t_patch_send(test, f, 41);
	ftsw_port_stats_read(f->b, &st);
	KUNIT_EXPECT_EQ(test, st.drops[na], 3);
	KUNIT_EXPECT_EQ(test, st.drops[FTSW_DROP_MISDELIVERED], 1);
	/* Armed, it does: misdelivered again. */
	WRITE_ONCE(b2->ca.ib.state, FTSW_PS_ARMED);
	ftsw_t_patch_send(test, f, 41);
	ftsw_port_stats_read(f->b, &st);
	KUNIT_EXPECT_EQ(test, st.drops[na], 3);
	KUNIT_EXPECT_EQ(test, st.drops[FTSW_DROP_MISDELIVERED], 2);
	ftsw_t_port_free(b2);
	ftsw_t_patch_free(f);
}

/*
 * A host's frames while its CA port is not Active: nothing goes in, not
 * even ARP, which the edge port would otherwise answer.
 */
static void ftsw_dp_edge_states(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *in = f->ports[2];
	struct sk_buff *skb;

	WRITE_ONCE(in->ca.ib.state, FTSW_PS_ARMED);
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NOT_ACTIVE);
	skb = ftsw_t_frame(test, htons(ETH_P_ARP), 28);
	eth_broadcast_addr(eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NOT_ACTIVE);
	/* CA Active, the switch's port in Init: still nothing. */
	WRITE_ONCE(in->ca.ib.state, FTSW_PS_ACTIVE);
	WRITE_ONCE(in->ib.state, FTSW_PS_INIT);
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NOT_ACTIVE);
	/* Both Active: on to the LFT, which has no route for 0x40. */
	WRITE_ONCE(in->ib.state, FTSW_PS_ACTIVE);
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, in, skb, FTSW_DROP_NO_ROUTE);
	ftsw_t_fabric_free(f);
}

/* A fabric frame for @dlid with P_Key @pkey into @in; how @out fared. */
static void ftsw_t_pkey_send(struct kunit *test, struct ftsw_port *in,
			     u16 dlid, u16 pkey)
{
	struct sk_buff *skb = ftsw_t_fabric(test, dlid, 0, 0, 20);

	ftsw_hdr(skb)->pkey = htons(pkey);
	local_bh_disable();
	rcu_read_lock();
	ftsw_rx(in, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static u64 ftsw_t_tx(struct ftsw_port *p)
{
	struct ftsw_stats st;

	ftsw_port_stats_read(p, &st);
	return st.tx_packets;
}

/*
 * Partitions on the data path (IBA vol. 1, 10.9), by hand. Frames into
 * link port 1 for LID 8 leave by edge port 2 to its host's CA; the host's
 * own frames enter by port 2. Default: every table the default partition
 * (0xFFFF), no enforcement.
 */
static void ftsw_dp_partitions(struct kunit *test)
{
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *link = f->ports[1], *edge = f->ports[2];
	struct ftsw_pkey_trap *t = &f->sw->pkey_trap;
	struct ftsw_pkey_tab *tab;
	struct sk_buff *skb;
	u64 tx;

	spin_lock_init(&f->fn.sma_lock);
	/* the default partition reaches the CA; another does not */
	tx = ftsw_t_tx(edge);
	ftsw_t_pkey_send(test, link, 8, 0xffff);
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 1);
	ftsw_t_pkey_send(test, link, 8, 0x8001);
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 1);
	KUNIT_EXPECT_EQ(test, ftsw_t_drops(edge, FTSW_DROP_PKEY_CA), 1);
	/* a tenant's CA: the default partition limited, 0x8001 full */
	edge->ca.mgmt.pkey[0] = 0x7fff;
	edge->ca.mgmt.pkey[1] = 0x8001;
	ftsw_t_pkey_send(test, link, 8, 0x8001);	/* its partition */
	ftsw_t_pkey_send(test, link, 8, 0x0001);	/* a limited peer */
	ftsw_t_pkey_send(test, link, 8, 0xffff);	/* the SM, full */
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 4);
	ftsw_t_pkey_send(test, link, 8, 0x7fff);	/* limited to limited */
	ftsw_t_pkey_send(test, link, 8, 0x8002);	/* another tenant */
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 4);
	KUNIT_EXPECT_EQ(test, ftsw_t_drops(edge, FTSW_DROP_PKEY_CA), 3);
	KUNIT_EXPECT_FALSE(test, t->due);	/* a CA's refusal: no trap 259 */
	/* outbound enforcement at the switch port facing the CA */
	edge->pkeys[0] = 0x7fff;
	edge->pkeys[1] = 0x8001;
	edge->ib.enforce = FTSW_ENFORCE_OUT;
	ftsw_t_pkey_send(test, link, 8, 0x8001);
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 5);
	ftsw_t_pkey_send(test, link, 8, 0x8002);
	KUNIT_EXPECT_EQ(test, ftsw_t_tx(edge), tx + 5);
	KUNIT_EXPECT_EQ(test, ftsw_t_drops(edge, FTSW_DROP_PKEY_OUT), 1);
	KUNIT_EXPECT_EQ(test, ftsw_t_drops(link, FTSW_DROP_PKEY_OUT), 0);
	/* recorded for trap 259: the packet's LIDs (SLID 4), key, the port */
	KUNIT_EXPECT_TRUE(test, t->due);
	KUNIT_EXPECT_EQ(test, t->port, 2);
	KUNIT_EXPECT_EQ(test, t->lid1, 4);
	KUNIT_EXPECT_EQ(test, t->lid2, 8);
	KUNIT_EXPECT_EQ(test, t->pkey, 0x8002);
	/* a second one while it waits: counted, the trap kept */
	ftsw_t_pkey_send(test, link, 8, 0x7fff);
	KUNIT_EXPECT_EQ(test, ftsw_t_drops(edge, FTSW_DROP_PKEY_OUT), 2);
	KUNIT_EXPECT_EQ(test, t->pkey, 0x8002);
	/* inbound enforcement on the link port */
	link->pkeys[0] = 0x8001;
	link->ib.enforce = FTSW_ENFORCE_IN;
	skb = ftsw_t_fabric(test, 8, 0, 0, 20);
	ftsw_hdr(skb)->pkey = htons(0xffff);
	ftsw_t_expect_drop(test, link, skb, FTSW_DROP_PKEY_IN);
	link->ib.enforce = 0;
	/*
	 * The host's frames (to LID 0x40, unrouted): its key is the CA's
	 * entry 0 (0x7fff, limited), which inbound enforcement at its port
	 * lets pass (no more than the entry); a full 0xffff does not.
	 */
	edge->ib.enforce = FTSW_ENFORCE_IN;
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_NO_ROUTE);
	tab = ftsw_pkey_tab_alloc(0x41, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tab);
	tab->key[0x40] = 0xffff;
	rcu_assign_pointer(edge->pkey_tab, tab);
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_PKEY_IN);
	tab->key[0x40] = 0x8001;	/* its tenant's key, full: granted */
	skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	ftsw_lid_to_mac(0x40, eth_hdr(skb)->h_dest);
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_NO_ROUTE);
	RCU_INIT_POINTER(edge->pkey_tab, NULL);
	kfree(tab);
	ftsw_t_fabric_free(f);
}

/*
 * Multicast replication by the MFT (IBA vol. 1, 18.2.4.3.3), by hand. A
 * (4 ports): 1 a link port the frames come in by, 2, 3 and 4 patched to
 * B's ports of the same numbers; B has no MFT, so each copy that reaches
 * it ends there, no route. A's MFT for MLID 0xC001 sets ports 1 (the
 * frame's own: not sent back), 2, 3, 4 and bits past its 4 ports (9, 15,
 * and port 17 in the next group): one copy out of each of 2, 3 and 4, A:2
 * refusing the P_Key by outbound enforcement (counted there, trap 259).
 * MLID 0xC002 has no port: no route at A:1. MLID 0xC000 + 256, past the
 * table: no route. A port down is left out (A:4 sends the second frame's
 * copy, not the third's).
 */
static void ftsw_dp_multicast(struct kunit *test)
{
	struct ftsw_t_patch *f = ftsw_t_patch_new(test);
	struct ftsw_port *a2, *a4, *b2, *b4;
	struct ftsw_mft *mft;

	spin_lock_init(&f->fn.sma_lock);
	a2 = ftsw_t_port_new(test, f->sw[0], 2, FTSW_PORT_LINK);
	a4 = ftsw_t_port_new(test, f->sw[0], 4, FTSW_PORT_LINK);
	b2 = ftsw_t_port_new(test, f->sw[1], 2, FTSW_PORT_LINK);
	b4 = ftsw_t_port_new(test, f->sw[1], 4, FTSW_PORT_LINK);
	ftsw_t_cable(a2, b2);
	ftsw_t_cable(a4, b4);
	mft = kzalloc(sizeof(*mft), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mft);
	mft->mask[1][0] = BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(9) | BIT(15);
	mft->mask[1][1] = BIT(1);
	rcu_assign_pointer(f->sw[0]->mft, mft);
	a2->pkeys[0] = 0x8001;
	a2->ib.enforce = FTSW_ENFORCE_OUT;

	ftsw_t_patch_send(test, f, 0xC001);
	ftsw_t_expect_counts(test, f->in, 0, 0, FTSW_DROP_NO_ROUTE, 0);
	ftsw_t_expect_counts(test, f->a, 0, 1, FTSW_DROP_NO_ROUTE, 0);
	ftsw_t_expect_counts(test, a4, 0, 1, FTSW_DROP_NO_ROUTE, 0);
	ftsw_t_expect_counts(test, a2, 0, 0, FTSW_DROP_PKEY_OUT, 1);
	ftsw_t_expect_counts(test, f->b, 1, 0, FTSW_DROP_NO_ROUTE, 1);
	ftsw_t_expect_counts(test, b4, 1, 0, FTSW_DROP_NO_ROUTE, 1);
	ftsw_t_expect_counts(test, b2, 0, 0, FTSW_DROP_NO_ROUTE, 0);
	KUNIT_EXPECT_TRUE(test, f->sw[0]->pkey_trap.due);
	KUNIT_EXPECT_EQ(test, f->sw[0]->pkey_trap.lid2, 0xC001);
	/* the key A:2 holds passes: three copies */
	a2->pkeys[1] = 0xffff;
	ftsw_t_patch_send(test, f, 0xC001);
	ftsw_t_expect_counts(test, a2, 0, 1, FTSW_DROP_PKEY_OUT, 1);
	ftsw_t_expect_counts(test, b2, 1, 0, FTSW_DROP_NO_ROUTE, 1);
	ftsw_t_expect_counts(test, f->a, 0, 2, FTSW_DROP_NO_ROUTE, 0);
	/* a port down is left out; an MLID without ports has no route */
	WRITE_ONCE(a4->up, false);
	ftsw_t_patch_send(test, f, 0xC001);
	ftsw_t_expect_counts(test, f->a, 0, 3, FTSW_DROP_NO_ROUTE, 0);
	ftsw_t_expect_counts(test, a4, 0, 2, FTSW_DROP_NO_ROUTE, 0);
	ftsw_t_expect_counts(test, b4, 2, 0, FTSW_DROP_NO_ROUTE, 2);
	ftsw_t_patch_send(test, f, 0xC002);
	ftsw_t_patch_send(test, f, 0xC000 + FTSW_MFT_CAP);
	ftsw_t_expect_counts(test, f->in, 0, 0, FTSW_DROP_NO_ROUTE, 2);
	ftsw_t_port_free(a2);
	ftsw_t_port_free(a4);
	ftsw_t_port_free(b2);
	ftsw_t_port_free(b4);
	ftsw_t_patch_free(f);
}

/* An IPv4 frame from a host to @daddr (network order), multicast MAC. */
static struct sk_buff *ftsw_t_ip4_to(struct kunit *test, __be32 daddr)
{
	struct sk_buff *skb = ftsw_t_frame(test, htons(ETH_P_IP), 40);
	struct iphdr *ip = (struct iphdr *)(skb->data + ETH_HLEN);

	ip->daddr = daddr;
	ip_eth_mc_map(daddr, eth_hdr(skb)->h_dest);
	return skb;
}

/*
 * A host's multicast frame enters for its group's MLID (the edge port's
 * table), else is not the fabric's; the table's checks. The switch has no
 * MFT: a frame that found its MLID ends there, no route.
 */
static void ftsw_dp_multicast_edge(struct kunit *test)
{
	static const struct ftsw_mcast_ent ok = {
		.group = { [10] = 0xff, 0xff, 239, 1, 2, 3 },
		.mlid = cpu_to_be16(0xC001), .pkey = cpu_to_be16(0xffff),
	};
	struct ftsw_t_fabric *f = ftsw_t_fabric_new(test);
	struct ftsw_port *edge = f->ports[2];
	struct ftsw_mcast_ent e[2];
	struct ftsw_mcast_tab *t;
	struct sk_buff *skb;
	const char *msg;
	u8 g[16];

	/* the group of a frame: IPv4 mapped, the broadcast, IPv6; not unicast */
	skb = ftsw_t_ip4_to(test, htonl(0xef010203));
	KUNIT_EXPECT_TRUE(test, ftsw_mcast_group(skb, g));
	KUNIT_EXPECT_EQ(test, memcmp(g, ok.group, 16), 0);
	kfree_skb(skb);
	skb = ftsw_t_ip4_to(test, htonl(0xffffffff));
	KUNIT_EXPECT_TRUE(test, ftsw_mcast_group(skb, g));
	KUNIT_EXPECT_EQ(test, g[12] & g[13] & g[14] & g[15], 0xff);
	kfree_skb(skb);
	skb = ftsw_t_ip4_to(test, htonl(0x0a000001));
	KUNIT_EXPECT_FALSE(test, ftsw_mcast_group(skb, g));
	kfree_skb(skb);
	skb = ftsw_t_frame(test, htons(ETH_P_IPV6), 40);
	((struct ipv6hdr *)(skb->data + ETH_HLEN))->daddr.s6_addr[0] = 0xff;
	KUNIT_EXPECT_TRUE(test, ftsw_mcast_group(skb, g));
	KUNIT_EXPECT_EQ(test, g[0], 0xff);
	kfree_skb(skb);

	/* the table's checks */
	e[0] = ok;
	e[1] = ok;
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 1, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);
	e[1].group[15] = 4;
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), 0);
	e[1].mlid = cpu_to_be16(0xBFFF);
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);
	e[1].mlid = cpu_to_be16(0xFFFF);
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);
	e[1].mlid = ok.mlid;
	e[1].pkey = cpu_to_be16(0x8000);
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);
	e[1].pkey = ok.pkey;
	e[1].sl = 16;
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);
	e[1].sl = 0;
	e[1].group[12] = 10;	/* 10.1.2.4: not a group */
	KUNIT_EXPECT_EQ(test, ftsw_mcast_tab_check(e, 2, &msg), -EINVAL);

	/* no table: not the fabric's; with one: to the MLID (no MFT here) */
	skb = ftsw_t_ip4_to(test, htonl(0xef010203));
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_NOT_FABRIC);
	t = ftsw_mcast_tab_alloc(1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->e[0] = ok;
	rcu_assign_pointer(edge->mcast, t);
	skb = ftsw_t_ip4_to(test, htonl(0xef010203));
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_NO_ROUTE);
	skb = ftsw_t_ip4_to(test, htonl(0xef010204));	/* not joined */
	ftsw_t_expect_drop(test, edge, skb, FTSW_DROP_NOT_FABRIC);
	ftsw_t_fabric_free(f);	/* frees the port's table */
}

static struct kunit_case ftsw_dp_cases[] = {
	KUNIT_CASE(ftsw_dp_link_drops),
	KUNIT_CASE(ftsw_dp_edge_drops),
	KUNIT_CASE(ftsw_dp_edge_no_hash),
	KUNIT_CASE(ftsw_dp_8023_length),
	KUNIT_CASE(ftsw_dp_gso_segment),
	KUNIT_CASE(ftsw_dp_patch_loop_ends),
	KUNIT_CASE(ftsw_dp_patch_far_end),
	KUNIT_CASE(ftsw_dp_port_states),
	KUNIT_CASE(ftsw_dp_edge_states),
	KUNIT_CASE(ftsw_dp_partitions),
	KUNIT_CASE(ftsw_dp_multicast),
	KUNIT_CASE(ftsw_dp_multicast_edge),
	{}
};

static struct kunit_suite ftsw_dp_suite = {
	.name = "ftsw_datapath",
	.test_cases = ftsw_dp_cases,
};

kunit_test_suites(&ftsw_lft_suite, &ftsw_hdr_suite, &ftsw_policy_suite,
		  &ftsw_dp_suite, &ftsw_nl_suite);
