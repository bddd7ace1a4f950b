// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of ftsw's address resolution (resolve.c): the plan's checks
 * and lookups, its staging, and the edge port's answers to crafted ARP
 * requests and neighbour solicitations, well-formed, malformed, truncated,
 * VLAN-tagged and out of the plan, with the drop reason of each.
 *
 * The plan of every case: 8 hosts, LMC 1, host n at LID 2 + 2n,
 * 198.18.0.1 + n and 2001:2::1 + n. The port under test is host 3's
 * (LID 8, 198.18.0.4, 2001:2::4).
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/addrconf.h>
#include <net/ip6_checksum.h>
#include <net/ndisc.h>
#include "path.h"
#include "resolve.h"
#include "stats.h"
#include "test_util.h"

#define T_OWN	3		/* the host behind the port */

static const u8 t_host_mac[ETH_ALEN] = { 0x02, 0x66, 0x74, 0x00, 0x00, 0x08 };
static const u8 t_bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

struct t_fab {
	struct ftsw_net fn;
	struct ftsw_switch *sw;
	struct ftsw_port *p;
	struct ftsw_port *other[2];	/* t_other()'s */
	int nother;
};

static struct ftsw_plan *t_plan(struct kunit *test)
{
	struct ftsw_plan *plan = kzalloc(sizeof(*plan), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, plan);
	plan->hosts = 8;
	plan->lid = 2;
	plan->lmc = 1;
	plan->ip4 = 0xc6120001;				/* 198.18.0.1 */
	ipv6_addr_set(&plan->ip6, htonl(0x20010002), 0, 0, htonl(1));
	return plan;
}

/* Frees the fixture: its ports, switch, then the fabric (its plans too). */
static void t_fab_free(struct t_fab *f)
{
	ftsw_t_ports_free(f->other, f->nother);
	ftsw_t_port_free(f->p);
	ftsw_t_switch_free(f->sw);
	ftsw_t_fabric_exit(&f->fn);
}

/*
 * A switch whose port 1 is the edge port of host T_OWN (plan LID 8, LMC 1),
 * with the address plan of t_plan() published if @with_plan.
 */
static struct t_fab *t_fab_new(struct kunit *test, bool with_plan)
{
	struct t_fab *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->sw = ftsw_t_switch_new(test, &f->fn, 0, false);
	f->p = ftsw_t_port_new(test, f->sw, 1, FTSW_PORT_EDGE);
	ftsw_t_edge_policy(test, f->p, 8, 1, 1);
	mutex_lock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, ftsw_plan_host_reserve(&f->fn, 8), 0);
	ftsw_plan_host_add(f->p, 8);
	mutex_unlock(&f->fn.lock);
	if (with_plan)
		RCU_INIT_POINTER(f->fn.plan, t_plan(test));
	return f;
}

static u64 t_drop(struct ftsw_port *p, int r)
{
	struct ftsw_stats st;

	ftsw_port_stats_read(p, &st);
	return st.drops[r];
}

/*
 * Feed @skb to the responder. @consumed: whether it must take the frame;
 * @reason: the one drop expected (FTSW_DROP_UNSPEC: none). Returns the
 * reply, if any (the caller frees it).
 */
static struct sk_buff *t_feed(struct kunit *test, struct t_fab *f,
			      struct sk_buff *skb, bool consumed, int reason)
{
	u64 before[FTSW_DROP_MAX + 1];
	struct sk_buff *reply = NULL;
	int r, ret;

	for (r = 0; r <= FTSW_DROP_MAX; r++)
		before[r] = t_drop(f->p, r);
	local_bh_disable();
	rcu_read_lock();
	ret = ftsw_resolve_frame(f->p, skb, &reply);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, consumed ? 1 : 0);
	if (!ret)
		kfree_skb(skb);
	for (r = 0; r <= FTSW_DROP_MAX; r++)
		KUNIT_EXPECT_EQ_MSG(test, t_drop(f->p, r),
				    before[r] + (r == reason && reason),
				    "drop reason %d (expected %d)", r, reason);
	if (reason)
		KUNIT_EXPECT_NULL(test, reply);
	return reply;
}

/* A frame: Ethernet header (+ an inline 802.1Q tag) + @len bytes. */
static struct sk_buff *t_frame(struct kunit *test, const u8 *dst,
			       __be16 proto, int vlan, const void *body,
			       unsigned int len)
{
	struct sk_buff *skb = alloc_skb(128 + len, GFP_KERNEL);
	struct ethhdr *eth;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, dst);
	ether_addr_copy(eth->h_source, t_host_mac);
	eth->h_proto = proto;
	if (vlan >= 0) {
		struct vlan_hdr *vh = skb_put(skb, VLAN_HLEN);

		vh->h_vlan_TCI = htons(vlan);
		vh->h_vlan_encapsulated_proto = proto;
		eth->h_proto = htons(ETH_P_8021Q);
	}
	skb_put_data(skb, body, len);
	skb_reset_mac_header(skb);
	skb->protocol = eth->h_proto;
	return skb;
}

struct t_arp {
	struct arphdr h;
	u8 sha[ETH_ALEN];
	__be32 sip;
	u8 tha[ETH_ALEN];
	__be32 tip;
} __packed;

static void t_arp_init(struct t_arp *a, u16 op, u32 sip, u32 tip)
{
	memset(a, 0, sizeof(*a));
	a->h.ar_hrd = htons(ARPHRD_ETHER);
	a->h.ar_pro = htons(ETH_P_IP);
	a->h.ar_hln = ETH_ALEN;
	a->h.ar_pln = 4;
	a->h.ar_op = htons(op);
	ether_addr_copy(a->sha, t_host_mac);
	a->sip = htonl(sip);
	a->tip = htonl(tip);
}

static struct sk_buff *t_arp_skb(struct kunit *test, const struct t_arp *a,
				 unsigned int len)
{
	return t_frame(test, t_bcast, htons(ETH_P_ARP), -1, a, len);
}

/* Check an ARP reply: from LID @lid's MAC, for @ip, to the requester. */
static void t_arp_reply_ok(struct kunit *test, struct sk_buff *r, u16 lid,
			   u32 ip, u32 to_ip)
{
	const struct t_arp *a;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	ftsw_lid_to_mac(lid, mac);
	KUNIT_ASSERT_EQ(test, r->len, ETH_HLEN + sizeof(*a));
	KUNIT_EXPECT_EQ(test, ntohs(r->protocol), ETH_P_ARP);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth_hdr(r)->h_dest,
						 t_host_mac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth_hdr(r)->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eth_hdr(r)->h_proto), ETH_P_ARP);
	a = (const struct t_arp *)(r->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, ntohs(a->h.ar_hrd), ARPHRD_ETHER);
	KUNIT_EXPECT_EQ(test, ntohs(a->h.ar_pro), ETH_P_IP);
	KUNIT_EXPECT_EQ(test, a->h.ar_hln, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, a->h.ar_pln, 4);
	KUNIT_EXPECT_EQ(test, ntohs(a->h.ar_op), ARPOP_REPLY);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a->sha, mac));
	KUNIT_EXPECT_EQ(test, ntohl(a->sip), ip);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(a->tha, t_host_mac));
	KUNIT_EXPECT_EQ(test, ntohl(a->tip), to_ip);
}

/* ---------------------------------------------------------------- plan */

static void ftsw_plan_rules(struct kunit *test)
{
	struct ftsw_plan *p = t_plan(test);
	struct in6_addr a6;
	const char *msg = NULL;
	u32 n = 99;

	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), 0);
	/* Host n <-> 198.18.0.1 + n, both ends of the range and past them. */
	KUNIT_EXPECT_TRUE(test, ftsw_plan_ip4(p, htonl(0xc6120001), &n));
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_TRUE(test, ftsw_plan_ip4(p, htonl(0xc6120008), &n));
	KUNIT_EXPECT_EQ(test, n, 7U);
	KUNIT_EXPECT_FALSE(test, ftsw_plan_ip4(p, htonl(0xc6120009), &n));
	KUNIT_EXPECT_FALSE(test, ftsw_plan_ip4(p, htonl(0xc6120000), &n));
	KUNIT_EXPECT_FALSE(test, ftsw_plan_ip4(NULL, htonl(0xc6120001), &n));
	ipv6_addr_set(&a6, htonl(0x20010002), 0, 0, htonl(6));
	KUNIT_EXPECT_TRUE(test, ftsw_plan_ip6(p, &a6, &n));
	KUNIT_EXPECT_EQ(test, n, 5U);
	ipv6_addr_set(&a6, htonl(0x20010002), 0, 0, htonl(9));
	KUNIT_EXPECT_FALSE(test, ftsw_plan_ip6(p, &a6, &n));
	ipv6_addr_set(&a6, htonl(0x20010002), 0, htonl(1), htonl(2));
	KUNIT_EXPECT_FALSE(test, ftsw_plan_ip6(p, &a6, &n));

	/* What the checks reject. */
	p->lid = 3;		/* not a multiple of 2^LMC */
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -EINVAL);
	p->lid = 0xBFF2;	/* 8 hosts x 2 LIDs: 0xBFF2..0xC001 */
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -ERANGE);
	p->lid = 0xBFF0;	/* 0xBFF0..0xBFFF: the last LID exactly fits */
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), 0);
	p->lid = 2;
	p->ip4 = 0xfffffffa;	/* 8 addresses from .250 wrap */
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -ERANGE);
	p->ip4 = 0xe0000001;	/* multicast */
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -EINVAL);
	p->ip4 = 0;
	p->ip6.s6_addr32[3] = htonl(0xfffffffa);
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -ERANGE);
	p->ip6.s6_addr32[3] = htonl(1);
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), 0);
	memset(&p->ip6, 0, sizeof(p->ip6));
	KUNIT_EXPECT_EQ(test, ftsw_plan_check(p, &msg), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	kfree(p);
}

/* Staged plans are invisible until committed; discard and flush. */
static void ftsw_plan_staging(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, false);
	struct ftsw_plan *p = t_plan(test);

	mutex_lock(&f->fn.lock);
	f->fn.plan_staged = p;
	f->fn.plan_pending = true;
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(f->fn.plan));
	ftsw_plan_commit(&f->fn);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(f->fn.plan), p);
	KUNIT_EXPECT_FALSE(test, f->fn.plan_pending);
	/* Nothing pending: a commit keeps the plan. */
	ftsw_plan_commit(&f->fn);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(f->fn.plan), p);
	/* A discarded plan never becomes active. */
	f->fn.plan_staged = t_plan(test);
	f->fn.plan_pending = true;
	ftsw_plan_discard(&f->fn);
	KUNIT_EXPECT_NULL(test, f->fn.plan_staged);
	ftsw_plan_commit(&f->fn);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(f->fn.plan), p);
	/* Staged "no plan" removes it on commit. */
	f->fn.plan_pending = true;
	ftsw_plan_commit(&f->fn);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(f->fn.plan));
	f->fn.plan_staged = t_plan(test);
	f->fn.plan_pending = true;
	ftsw_plan_commit(&f->fn);
	ftsw_plan_flush(&f->fn);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(f->fn.plan));
	mutex_unlock(&f->fn.lock);
	t_fab_free(f);
}

/* ---------------------------------------------------------------- ARP */

static void ftsw_arp_answers(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	struct sk_buff *r;
	struct t_arp a;
	u8 dst[ETH_ALEN];

	/* Broadcast request for host 5 (198.18.0.6): LID 2 + 10 = 12. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 12, 0xc6120006, 0xc6120004);
	kfree_skb(r);
	/* Host 0 and host 7, the ends of the plan. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120001);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 2, 0xc6120001, 0xc6120004);
	kfree_skb(r);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120008);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 16, 0xc6120008, 0xc6120004);
	kfree_skb(r);
	/* A unicast NUD probe to the cached MAC, padded to 60 bytes. */
	{
		u8 pad[46] = { 0 };

		t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120002);
		memcpy(pad, &a, sizeof(a));
		ftsw_lid_to_mac(4, dst);
		r = t_feed(test, f, t_frame(test, dst, htons(ETH_P_ARP), -1,
					    pad, sizeof(pad)), true, 0);
		t_arp_reply_ok(test, r, 4, 0xc6120002, 0xc6120004);
		kfree_skb(r);
	}
	/* An RFC 5227 probe (sender 0.0.0.0) for another host's address. */
	t_arp_init(&a, ARPOP_REQUEST, 0, 0xc6120002);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 4, 0xc6120002, 0);
	kfree_skb(r);
	t_fab_free(f);
}

static void ftsw_arp_refused(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	struct t_arp a;

	/* Malformed: hardware type, protocol, lengths, opcode, sender MAC. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	a.h.ar_hrd = htons(ARPHRD_IEEE802);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	a.h.ar_pro = htons(ETH_P_IPV6);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	a.h.ar_hln = 5;
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	a.h.ar_pln = 16;
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_arp_init(&a, ARPOP_RREQUEST, 0xc6120004, 0xc6120006);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	eth_broadcast_addr(a.sha);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Truncated: 27 of 28 bytes, the fixed header only, nothing. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a) - 1), true,
	       FTSW_DROP_BAD_RESOLVE);
	t_feed(test, f, t_arp_skb(test, &a, 8), true, FTSW_DROP_BAD_RESOLVE);
	t_feed(test, f, t_arp_skb(test, &a, 0), true, FTSW_DROP_BAD_RESOLVE);

	/* Out of the plan: past its last host, another prefix. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120009);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_NO_ADDRESS);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0x0a000001);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_NO_ADDRESS);

	/* Gratuitous request and reply, an ARP reply, own-address probe. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120004);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_ANNOUNCE);
	t_arp_init(&a, ARPOP_REPLY, 0xc6120004, 0xc6120004);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_ANNOUNCE);
	t_arp_init(&a, ARPOP_REPLY, 0xc6120004, 0xc6120002);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_ANNOUNCE);
	t_arp_init(&a, ARPOP_REQUEST, 0, 0xc6120004);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_ANNOUNCE);
	t_fab_free(f);

	/* No plan committed: every request is for an unknown address. */
	f = t_fab_new(test, false);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_NO_ADDRESS);
	t_fab_free(f);
}

static void ftsw_arp_vlan(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	struct sk_buff *skb, *r;
	struct t_arp a;

	/* Tag in the frame: the reply carries the same VLAN. */
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	skb = t_frame(test, t_bcast, htons(ETH_P_ARP), 0x2005, &a, sizeof(a));
	r = t_feed(test, f, skb, true, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_TRUE(test, skb_vlan_tag_present(r));
	KUNIT_EXPECT_EQ(test, ntohs(r->vlan_proto), ETH_P_8021Q);
	KUNIT_EXPECT_EQ(test, skb_vlan_tag_get(r), 0x2005);
	t_arp_reply_ok(test, r, 12, 0xc6120006, 0xc6120004);
	kfree_skb(r);
	/* Tag taken off by the core (hardware acceleration field). */
	skb = t_arp_skb(test, &a, sizeof(a));
	__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021AD), 7);
	r = t_feed(test, f, skb, true, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, ntohs(r->vlan_proto), ETH_P_8021AD);
	KUNIT_EXPECT_EQ(test, skb_vlan_tag_get(r), 7);
	t_arp_reply_ok(test, r, 12, 0xc6120006, 0xc6120004);
	kfree_skb(r);
	/* A tag and a truncated ARP body: malformed. */
	skb = t_frame(test, t_bcast, htons(ETH_P_ARP), 5, &a, 10);
	t_feed(test, f, skb, true, FTSW_DROP_BAD_RESOLVE);
	/* A tagged frame that is neither ARP nor ND is not taken. */
	skb = t_frame(test, t_bcast, htons(ETH_P_IP), 5, &a, sizeof(a));
	t_feed(test, f, skb, false, 0);
	t_fab_free(f);
}

/* ---------------------------------------------------------------- ND */

struct t_ns {
	struct ipv6hdr ip6;
	struct icmp6hdr icmp;
	struct in6_addr target;
	u8 opt[8];
} __packed;

static void t_ip6(struct in6_addr *a, u32 low)
{
	ipv6_addr_set(a, htonl(0x20010002), 0, 0, htonl(low));
}

/* An NS from @src (0: ::) for 2001:2::@target, SLLA if @slla. */
static unsigned int t_ns_init(struct t_ns *m, u8 type, u32 src, u32 target,
			      bool slla)
{
	unsigned int plen = sizeof(m->icmp) + sizeof(m->target) +
			    (slla ? 8 : 0);

	memset(m, 0, sizeof(*m));
	m->ip6.version = 6;
	m->ip6.payload_len = htons(plen);
	m->ip6.nexthdr = IPPROTO_ICMPV6;
	m->ip6.hop_limit = 255;
	if (src)
		t_ip6(&m->ip6.saddr, src);
	t_ip6(&m->target, target);
	addrconf_addr_solict_mult(&m->target, &m->ip6.daddr);
	m->icmp.icmp6_type = type;
	if (slla) {
		m->opt[0] = ND_OPT_SOURCE_LL_ADDR;
		m->opt[1] = 1;
		ether_addr_copy(m->opt + 2, t_host_mac);
	}
	return sizeof(m->ip6) + plen;
}

static void t_ns_csum(struct t_ns *m)
{
	unsigned int plen = ntohs(m->ip6.payload_len);

	m->icmp.icmp6_cksum = 0;
	m->icmp.icmp6_cksum = csum_ipv6_magic(&m->ip6.saddr, &m->ip6.daddr,
					      plen, IPPROTO_ICMPV6,
					      csum_partial(&m->icmp, plen, 0));
}

static struct sk_buff *t_ns_skb(struct kunit *test, struct t_ns *m,
				unsigned int len, int vlan)
{
	u8 dst[ETH_ALEN];

	ipv6_eth_mc_map(&m->ip6.daddr, dst);
	return t_frame(test, dst, htons(ETH_P_IPV6), vlan, m, len);
}

/* Check an NA: from LID @lid for 2001:2::@target, to @dmac / @daddr. */
static void t_na_ok(struct kunit *test, struct sk_buff *r, u16 lid,
		    u32 target, const u8 *dmac, const struct in6_addr *daddr,
		    bool solicited)
{
	const struct t_ns *na;
	struct in6_addr t;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_NOT_NULL(test, r);
	ftsw_lid_to_mac(lid, mac);
	KUNIT_ASSERT_EQ(test, r->len, ETH_HLEN + sizeof(*na));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth_hdr(r)->h_dest, dmac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth_hdr(r)->h_source, mac));
	KUNIT_EXPECT_EQ(test, ntohs(eth_hdr(r)->h_proto), ETH_P_IPV6);
	na = (const struct t_ns *)(r->data + ETH_HLEN);
	t_ip6(&t, target);
	KUNIT_EXPECT_EQ(test, (int)na->ip6.version, 6);
	KUNIT_EXPECT_EQ(test, na->ip6.hop_limit, 255);
	KUNIT_EXPECT_EQ(test, na->ip6.nexthdr, IPPROTO_ICMPV6);
	KUNIT_EXPECT_EQ(test, ntohs(na->ip6.payload_len), 32);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&na->ip6.saddr, &t));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&na->ip6.daddr, daddr));
	KUNIT_EXPECT_EQ(test, na->icmp.icmp6_type,
			NDISC_NEIGHBOUR_ADVERTISEMENT);
	KUNIT_EXPECT_EQ(test, na->icmp.icmp6_code, 0);
	KUNIT_EXPECT_EQ(test, (int)na->icmp.icmp6_solicited, (int)solicited);
	KUNIT_EXPECT_EQ(test, (int)na->icmp.icmp6_override, 1);
	KUNIT_EXPECT_EQ(test, (int)na->icmp.icmp6_router, 0);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&na->target, &t));
	KUNIT_EXPECT_EQ(test, na->opt[0], ND_OPT_TARGET_LL_ADDR);
	KUNIT_EXPECT_EQ(test, na->opt[1], 1);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(na->opt + 2, mac));
	/* The checksum verifies: the sum over the message folds to 0. */
	KUNIT_EXPECT_EQ(test, (__force u16)csum_ipv6_magic(&na->ip6.saddr,
						   &na->ip6.daddr, 32,
						   IPPROTO_ICMPV6,
						   csum_partial(&na->icmp, 32,
								0)), 0);
}

static void ftsw_nd_answers(struct kunit *test)
{
	static const u8 all_nodes[ETH_ALEN] = { 0x33, 0x33, 0, 0, 0, 1 };
	struct t_fab *f = t_fab_new(test, true);
	struct in6_addr me, allnodes;
	struct sk_buff *r;
	struct t_ns m;
	unsigned int len;
	u8 dst[ETH_ALEN];

	t_ip6(&me, 4);
	ipv6_addr_set(&allnodes, htonl(0xff020000), 0, 0, htonl(1));
	/* Multicast NS with SLLA for host 5 (2001:2::6): LID 12, solicited. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	r = t_feed(test, f, t_ns_skb(test, &m, len, -1), true, 0);
	t_na_ok(test, r, 12, 6, t_host_mac, &me, true);
	kfree_skb(r);
	/* Unicast NUD probe without SLLA: the reply goes to the eth source. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 1, false);
	t_ip6(&m.ip6.daddr, 1);
	t_ns_csum(&m);
	ftsw_lid_to_mac(2, dst);
	r = t_feed(test, f, t_frame(test, dst, htons(ETH_P_IPV6), -1, &m, len),
		   true, 0);
	t_na_ok(test, r, 2, 1, t_host_mac, &me, true);
	kfree_skb(r);
	/* DAD for another host's address: defended, to all nodes. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 0, 8, false);
	t_ns_csum(&m);
	r = t_feed(test, f, t_ns_skb(test, &m, len, -1), true, 0);
	t_na_ok(test, r, 16, 8, all_nodes, &allnodes, false);
	kfree_skb(r);
	/* DAD for its own address: nobody answers, so DAD succeeds. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 0, 4, false);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true, FTSW_DROP_ANNOUNCE);
	/* Tagged NS: the NA carries the same VLAN. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	r = t_feed(test, f, t_ns_skb(test, &m, len, 42), true, 0);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, skb_vlan_tag_get(r), 42);
	t_na_ok(test, r, 12, 6, t_host_mac, &me, true);
	kfree_skb(r);
	t_fab_free(f);
}

static void ftsw_nd_refused(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	struct t_ns m;
	unsigned int len;

	/* Hop limit not 255 (not from the link). */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.ip6.hop_limit = 64;
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Bad checksum. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	m.icmp.icmp6_cksum = (__force __sum16)((__force u16)m.icmp.icmp6_cksum ^ 1);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Code not 0. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.icmp.icmp6_code = 1;
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Option of length 0 (would loop forever if trusted). */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.opt[1] = 0;
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Option running past the message. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.opt[1] = 2;
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Multicast target. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.target.s6_addr[0] = 0xff;
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* DAD with an SLLA, and DAD not to the solicited-node group. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 0, 6, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 0, 6, false);
	t_ip6(&m.ip6.daddr, 6);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Truncated: payload length beyond the frame; the NS cut short. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len - 4, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, false);
	m.ip6.payload_len = htons(8);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Tagged and truncated. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len - 10, 3), true,
	       FTSW_DROP_BAD_RESOLVE);
	/* Out of the plan: past the last host, another prefix. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 9, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_NO_ADDRESS);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	m.target.s6_addr32[1] = htonl(1);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_NO_ADDRESS);
	/* An NS about itself, and an unsolicited NA: announcements. */
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 4, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true, FTSW_DROP_ANNOUNCE);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_ADVERTISEMENT, 4, 4, false);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true, FTSW_DROP_ANNOUNCE);
	/* Other ICMPv6 (a router solicitation) and a cut IPv6 header pass. */
	len = t_ns_init(&m, NDISC_ROUTER_SOLICITATION, 4, 4, false);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), false, 0);
	t_feed(test, f, t_ns_skb(test, &m, 30, -1), false, 0);
	t_fab_free(f);
}

/* Everything else passes untouched; without a plan nothing is known. */
static void ftsw_resolve_others(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	u8 body[40] = { 0x45 };
	struct t_ns m;
	unsigned int len;
	u8 dst[ETH_ALEN];

	ftsw_lid_to_mac(12, dst);
	t_feed(test, f, t_frame(test, dst, htons(ETH_P_IP), -1, body,
				sizeof(body)), false, 0);
	body[0] = 0x60;
	body[6] = IPPROTO_UDP;
	t_feed(test, f, t_frame(test, dst, htons(ETH_P_IPV6), -1, body,
				sizeof(body)), false, 0);
	t_feed(test, f, t_frame(test, dst, htons(0x88cc), -1, body,
				sizeof(body)), false, 0);
	t_fab_free(f);

	f = t_fab_new(test, false);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	t_feed(test, f, t_ns_skb(test, &m, len, -1), true,
	       FTSW_DROP_NO_ADDRESS);
	t_fab_free(f);
}

/* ------------------------------------------------------- subnet manager */

/* An edge port of the fixture's switch for host @host (plan LID @lid). */
static struct ftsw_port *t_other(struct kunit *test, struct t_fab *f, u16 lid,
				 u16 now)
{
	struct ftsw_port *q = ftsw_t_port_new(test, f->sw, 2 + f->nother,
					      FTSW_PORT_EDGE);
	struct ftsw_policy *pol = ftsw_t_edge_policy(test, q, lid, 0, 1);

	f->other[f->nother++] = q;
	mutex_lock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, ftsw_plan_host_reserve(&f->fn, lid), 0);
	ftsw_plan_host_add(q, lid);
	mutex_unlock(&f->fn.lock);
	/* What a CA LID Set does: the policy's base LID changes. */
	pol->base_lid = now;
	return q;
}

/*
 * A subnet manager's LIDs: a host is the port netlink gave its plan LID,
 * and is answered with the LID its port has now. Host 5 (plan LID 12)
 * moved to 0x100, host 1 (plan LID 4) to 12, host 3 (this port, plan LID
 * 8) to 0x40; host 2 (plan LID 6) has no port: the plan's rule.
 */
static void ftsw_resolve_sm_lids(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test, true);
	struct ftsw_port *h5, *h1;
	struct sk_buff *r;
	struct in6_addr me;
	struct t_arp a;
	struct t_ns m;
	unsigned int len;

	h5 = t_other(test, f, 12, 0x100);
	h1 = t_other(test, f, 4, 12);
	rcu_access_pointer(f->p->policy)->base_lid = 0x40;
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 0x100, 0xc6120006, 0xc6120004);
	kfree_skb(r);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120002);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 12, 0xc6120002, 0xc6120004);
	kfree_skb(r);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120003);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 6, 0xc6120003, 0xc6120004);
	kfree_skb(r);
	/* The port's own address is still its own (a probe, not answered). */
	t_arp_init(&a, ARPOP_REQUEST, 0, 0xc6120004);
	t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true,
	       FTSW_DROP_ANNOUNCE);
	/* IPv6 the same: 2001:2::6 is host 5, at 0x100. */
	t_ip6(&me, 4);
	len = t_ns_init(&m, NDISC_NEIGHBOUR_SOLICITATION, 4, 6, true);
	t_ns_csum(&m);
	r = t_feed(test, f, t_ns_skb(test, &m, len, -1), true, 0);
	t_na_ok(test, r, 0x100, 6, t_host_mac, &me, true);
	kfree_skb(r);
	/* Host 5's port unbound: its entry goes, the rule answers again. */
	mutex_lock(&f->fn.lock);
	ftsw_plan_host_del(h5);
	/* Host 1 given plan LID 14 by netlink: host 6's place now. */
	KUNIT_ASSERT_EQ(test, ftsw_plan_host_reserve(&f->fn, 14), 0);
	ftsw_plan_host_add(h1, 14);
	mutex_unlock(&f->fn.lock);
	KUNIT_EXPECT_NULL(test, xa_load(&f->fn.hosts, 4));
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120006);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 12, 0xc6120006, 0xc6120004);
	kfree_skb(r);
	t_arp_init(&a, ARPOP_REQUEST, 0xc6120004, 0xc6120007);
	r = t_feed(test, f, t_arp_skb(test, &a, sizeof(a)), true, 0);
	t_arp_reply_ok(test, r, 12, 0xc6120007, 0xc6120004);
	kfree_skb(r);
	t_fab_free(f);
}

static struct kunit_case ftsw_resolve_cases[] = {
	KUNIT_CASE(ftsw_plan_rules),
	KUNIT_CASE(ftsw_plan_staging),
	KUNIT_CASE(ftsw_arp_answers),
	KUNIT_CASE(ftsw_arp_refused),
	KUNIT_CASE(ftsw_arp_vlan),
	KUNIT_CASE(ftsw_nd_answers),
	KUNIT_CASE(ftsw_nd_refused),
	KUNIT_CASE(ftsw_resolve_others),
	KUNIT_CASE(ftsw_resolve_sm_lids),
	{}
};

static struct kunit_suite ftsw_resolve_suite = {
	.name = "ftsw_resolve",
	.test_cases = ftsw_resolve_cases,
};

kunit_test_suites(&ftsw_resolve_suite);
