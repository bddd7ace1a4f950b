// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the management agents (mad.c, sma.c, pma.c, sma_ctl.c): a
 * fabric of three switches joined by patch cables, with a host CA at each
 * end, driven with MAD frames as hosts send them; what the hosts get back
 * is taken by fn->mad_tap. Expected values are worked out by hand from the
 * fixture and IBA vol. 1, 14.2.2 (directed routes).
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/if_arp.h>
#include <linux/skbuff.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include "forward.h"
#include "hdr.h"
#include "lft.h"
#include "mad.h"
#include "path.h"
#include "pkey.h"
#include "resolve.h"
#include "rx.h"
#include "sma.h"
#include "sma_ctl.h"
#include "stats.h"
#include "trap.h"
#include "test_util.h"

/*
 * S0 (4 ports, LID 1): 1 edge h0 (LID 8), 3 - S1:1
 * S1 (4 ports, LID 2): 1 - S0:3, 2 - S2:1, 3 unbound, 4 edge h2 (down)
 * S2 (4 ports, LID 3): 1 - S1:2, 2 edge h1 (LID 9)
 * LFTs: each switch's own LID -> 0; 8 and 9 routed along the chain.
 */
struct t_fab {
	struct ftsw_net fn;
	struct ftsw_switch *sw[3];
	struct ftsw_port *port[8];
	int nport;
	struct ftsw_port *h0, *h1, *h2, *s0p3, *s1p1;
	struct sk_buff_head got;
	int phys_runs;
};

static void t_tap(struct ftsw_port *p, struct sk_buff *skb)
{
	struct t_fab *f = container_of(p->sw->fn, struct t_fab, fn);

	skb_queue_tail(&f->got, skb);
}

static struct ftsw_switch *t_sw(struct kunit *test, struct t_fab *f, int i)
{
	/* Managed by an SM: links come up in Init. */
	struct ftsw_switch *sw = ftsw_t_switch_new(test, &f->fn, i, true);

	f->sw[i] = sw;
	sw->lid = i + 1;
	snprintf(sw->name, sizeof(sw->name), "s%d", i);
	rcu_access_pointer(sw->lft)->port[i + 1] = 0;
	return sw;
}

static struct ftsw_port *t_port(struct kunit *test, struct t_fab *f,
				struct ftsw_switch *sw, u8 num, u8 kind)
{
	struct ftsw_port *p = ftsw_t_port_new(test, sw, num, kind);

	f->port[f->nport++] = p;
	return p;
}

static struct ftsw_port *t_edge(struct kunit *test, struct t_fab *f,
				struct ftsw_switch *sw, u8 num, u16 lid)
{
	struct ftsw_port *p = t_port(test, f, sw, num, FTSW_PORT_EDGE);

	ftsw_t_edge_policy(test, p, lid, 0, 1);
	return p;
}

static void t_cable(struct kunit *test, struct t_fab *f, int a, u8 na, int b,
		    u8 nb)
{
	struct ftsw_port *pa = t_port(test, f, f->sw[a], na, FTSW_PORT_LINK);
	struct ftsw_port *pb = t_port(test, f, f->sw[b], nb, FTSW_PORT_LINK);

	ftsw_t_cable(pa, pb);
}

static void t_route(struct t_fab *f, int s, u16 lid, u8 port)
{
	rcu_access_pointer(f->sw[s]->lft)->port[lid] = port;
}

static struct t_fab *t_fab_new(struct kunit *test)
{
	struct t_fab *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	ftsw_t_fabric_init(&f->fn);
	f->fn.mad_tap = t_tap;
	skb_queue_head_init(&f->got);
	for (i = 0; i < 3; i++)
		t_sw(test, f, i);
	f->h0 = t_edge(test, f, f->sw[0], 1, 8);
	t_cable(test, f, 0, 3, 1, 1);
	f->s0p3 = f->port[1];
	f->s1p1 = f->port[2];
	t_cable(test, f, 1, 2, 2, 1);
	f->h1 = t_edge(test, f, f->sw[2], 2, 9);
	f->h2 = t_edge(test, f, f->sw[1], 4, 12);
	f->h2->up = false;
	/* 8 and 9 along the chain, both ways. */
	t_route(f, 0, 8, 1);
	t_route(f, 1, 8, 1);
	t_route(f, 2, 8, 1);
	t_route(f, 0, 9, 3);
	t_route(f, 1, 9, 2);
	t_route(f, 2, 9, 2);
	return f;
}

static void t_fab_free(struct t_fab *f)
{
	int i;

	skb_queue_purge(&f->got);
	ftsw_t_ports_free(f->port, f->nport);
	for (i = 0; i < 3; i++)
		ftsw_t_switch_free(f->sw[i]);
	ftsw_t_fabric_exit(&f->fn);
}

/* A host's MAD frame: Ethernet | ftsw_mad_hdr | MAD (an SMP). */
struct t_mad {
	struct ftsw_mad_hdr mh;
	struct ib_smp smp;
} __packed;

static void t_smp_init(struct t_mad *m, u8 class, u8 method, u16 attr,
		       u32 mod)
{
	memset(m, 0, sizeof(*m));
	m->mh.pkey = htons(FTSW_MAD_PKEY_DEFAULT);
	m->smp.base_version = 1;
	m->smp.mgmt_class = class;
	m->smp.class_version = 1;
	m->smp.method = method;
	m->smp.tid = cpu_to_be64(0x1234);
	m->smp.attr_id = cpu_to_be16(attr);
	m->smp.attr_mod = cpu_to_be32(mod);
	m->smp.dr_slid = htons(FTSW_LID_PERMISSIVE);
	m->smp.dr_dlid = htons(FTSW_LID_PERMISSIVE);
}

/* A directed-route SMP along @path (path[0] unused, hop count n). */
static void t_dr(struct t_mad *m, u8 method, u16 attr, u32 mod,
		 const u8 *path, int n)
{
	t_smp_init(m, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, method, attr, mod);
	m->smp.hop_cnt = n;
	memcpy(m->smp.initial_path, path, n + 1);
}

/* Send @len bytes of @m from the host behind @p, as its rx handler would. */
static void t_send_len(struct kunit *test, struct ftsw_port *p,
		       const struct t_mad *m, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(NET_SKB_PAD + ETH_HLEN + len,
					GFP_KERNEL);
	struct ethhdr *eth;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put(skb, ETH_HLEN);
	eth_broadcast_addr(eth->h_dest);
	eth_zero_addr(eth->h_source);
	eth->h_source[0] = 2;
	eth->h_proto = htons(FTSW_ETH_P_MAD);
	skb_put_data(skb, m, len);
	skb_reset_mac_header(skb);
	skb->protocol = eth->h_proto;
	local_bh_disable();
	rcu_read_lock();
	ftsw_rx(p, skb);
	rcu_read_unlock();
	local_bh_enable();
}

static void t_send(struct kunit *test, struct ftsw_port *p,
		   const struct t_mad *m)
{
	t_send_len(test, p, m, sizeof(*m));
}

/* The one frame a host got: its MAD into @m. */
static bool t_recv(struct kunit *test, struct t_fab *f, struct t_mad *m)
{
	struct sk_buff *skb = skb_dequeue(&f->got);

	if (!skb)
		return false;
	KUNIT_EXPECT_EQ(test, skb->len, ETH_HLEN + sizeof(*m));
	KUNIT_EXPECT_EQ(test, ntohs(eth_hdr(skb)->h_proto), FTSW_ETH_P_MAD);
	if (skb->len == ETH_HLEN + sizeof(*m))
		memcpy(m, skb->data + ETH_HLEN, sizeof(*m));
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	return true;
}

static u64 t_drops(struct ftsw_port *p, enum ftsw_drop r)
{
	struct ftsw_stats st;

	ftsw_port_stats_read(p, &st);
	return st.drops[r];
}

/* Send, expect nothing back, and exactly one drop for @r on @at. */
static void t_expect_drop(struct kunit *test, struct t_fab *f,
			  struct ftsw_port *from, const struct t_mad *m,
			  unsigned int len, struct ftsw_port *at,
			  enum ftsw_drop r)
{
	u64 before = t_drops(at, r);
	struct t_mad got;

	t_send_len(test, from, m, len);
	KUNIT_EXPECT_FALSE(test, t_recv(test, f, &got));
	KUNIT_EXPECT_EQ_MSG(test, t_drops(at, r), before + 1, "reason %d", r);
}

/* Send a request and get its answer (status with the D bit masked off). */
static u16 t_ask(struct kunit *test, struct t_fab *f, struct ftsw_port *from,
		 struct t_mad *m)
{
	bool dr = m->smp.mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;

	t_send(test, from, m);
	if (!t_recv(test, f, m)) {
		KUNIT_FAIL(test, "no answer");
		return 0xffff;
	}
	KUNIT_EXPECT_EQ(test, m->smp.method, IB_MGMT_METHOD_GET_RESP);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(m->smp.tid), 0x1234ULL);
	if (dr)
		KUNIT_EXPECT_TRUE(test, !!(m->smp.status & IB_SMP_DIRECTION));
	return ntohs(m->smp.status) & 0x7fff;
}

/* The SMP data of an answer, as a NodeInfo. */
static struct ib_node_info *t_ni(struct t_mad *m)
{
	return (void *)m->smp.data;
}

static const u8 t_to_s0[] = { 0, 1 };
static const u8 t_to_s1[] = { 0, 1, 3 };
static const u8 t_to_s2[] = { 0, 1, 3, 2 };
static const u8 t_to_h1[] = { 0, 1, 3, 2, 2 };

/* ---------------------------------------------------------------- cases */

/* Hop count 0: the host's own CA answers, as the gateway needs. */
static void t_hop0_ca(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_node_info *ni;
	struct ib_port_info *pi;
	struct t_mad m;
	u64 guid = 0x0266740000000000ULL | (0 << 9) | (1 << 1);

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s0, 0);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	ni = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, ni->node_type, 1);
	KUNIT_EXPECT_EQ(test, ni->num_ports, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid), guid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->port_guid), guid + 1);
	KUNIT_EXPECT_EQ(test, ni->local_port_num, 1);
	KUNIT_EXPECT_EQ(test, m.smp.hop_ptr, 0);

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 1, t_to_s0, 0);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	pi = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pi->lid), 8);
	KUNIT_EXPECT_EQ(test, pi->linkspeed_portstate & 0xf, 2);	/* Init */
	KUNIT_EXPECT_EQ(test, pi->portphysstate_linkdown >> 4, 5);	/* LinkUp */
	KUNIT_EXPECT_EQ(test, pi->mkeyprot_resv_lmc & 7, 0);
	KUNIT_EXPECT_EQ(test, pi->local_port_num, 1);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 8);
	t_fab_free(f);
}

/*
 * Out along the initial path and back along the return path: each switch
 * writes the port it came in by at the hop pointer, so the answer from S2
 * (3 hops) carries return path 1 (S0 from h0), 1 (S1 from S0:3),
 * 1 (S2 from S1:2) and arrives with hop pointer 0.
 */
static void t_dr_paths(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_node_info *ni = NULL;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	ni = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, ni->node_type, 2);
	KUNIT_EXPECT_EQ(test, ni->num_ports, 4);
	KUNIT_EXPECT_EQ(test, ni->local_port_num, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			0x0266740100000000ULL | 1);
	KUNIT_EXPECT_EQ(test, m.smp.hop_ptr, 0);
	KUNIT_EXPECT_EQ(test, m.smp.return_path[1], 1);
	KUNIT_EXPECT_EQ(test, m.smp.return_path[2], 1);

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0010, 0, t_to_s2, 3);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_STREQ(test, (char *)m.smp.data, "s2");
	KUNIT_EXPECT_EQ(test, m.smp.return_path[3], 1);

	/* Four hops: h1's CA, port 1 recorded at hop 4. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, ni->node_type, 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ni->node_guid),
			0x0266740000000000ULL | (2 << 9) | (2 << 1));
	KUNIT_EXPECT_EQ(test, m.smp.return_path[4], 1);
	KUNIT_EXPECT_EQ(test, m.smp.hop_ptr, 0);
	t_fab_free(f);
}

/* The DR engine by hand: hop pointers as C14-9 and C14-13 move them. */
static void t_dr_engine(struct kunit *test)
{
	struct ib_smp smp = {};
	u8 out = 0;

	smp.hop_cnt = 2;
	smp.hop_ptr = 1;
	smp.initial_path[2] = 3;
	smp.dr_slid = htons(0xffff);
	smp.dr_dlid = htons(0xffff);
	/* First switch, came in by 5: records 5, goes out 3, pointer 2. */
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 5, false, &out),
			FTSW_DR_OUT);
	KUNIT_EXPECT_EQ(test, out, 3);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);
	KUNIT_EXPECT_EQ(test, smp.return_path[1], 5);
	/* Second switch, in by 7: the end, pointer 3 = count + 1. */
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 7, false, &out),
			FTSW_DR_LOCAL);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 3);
	KUNIT_EXPECT_EQ(test, smp.return_path[2], 7);
	/* Its answer: out 7, pointer 2; the first switch: out 5, pointer 1. */
	smp.status = IB_SMP_DIRECTION;
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 0, false, &out),
			FTSW_DR_OUT);
	KUNIT_EXPECT_EQ(test, out, 7);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 3, false, &out),
			FTSW_DR_OUT);
	KUNIT_EXPECT_EQ(test, out, 5);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 1);
	/* The CA: hands it to the SM, pointer 0. */
	KUNIT_EXPECT_EQ(test, ftsw_dr_ca_recv(&smp, false), FTSW_DR_HOST);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 0);
	/* A switch getting a returning SMP at pointer 0: invalid. */
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 3, false, &out),
			FTSW_DR_DROP);
	/* Mixed path end: DrDLID not permissive -> LID-routed on. */
	memset(&smp, 0, sizeof(smp));
	smp.hop_cnt = 1;
	smp.hop_ptr = 1;
	smp.dr_slid = htons(0xffff);
	smp.dr_dlid = htons(40);
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 2, false, &out),
			FTSW_DR_LID);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);
	/* ... where the DLID's node takes it (pointer count + 1). */
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 4, true, &out),
			FTSW_DR_LOCAL);
	/* An initial path naming port 0 or one past the count. */
	memset(&smp, 0, sizeof(smp));
	smp.hop_cnt = 3;
	smp.hop_ptr = 1;
	smp.initial_path[2] = 9;
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 1, false, &out),
			FTSW_DR_DROP);
	smp.hop_ptr = 1;
	smp.initial_path[2] = 0;
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 1, false, &out),
			FTSW_DR_DROP);
	smp.hop_cnt = 64;
	KUNIT_EXPECT_EQ(test, ftsw_dr_switch(&smp, 8, 1, false, &out),
			FTSW_DR_DROP);
}

/* 63 hops is the longest path: bouncing S0 <-> S1 it is answered. */
static void t_dr_63_hops(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	u8 path[64];
	struct t_mad m;
	int i;

	path[0] = 0;
	path[1] = 1;
	for (i = 2; i < 64; i++)
		path[i] = i % 2 ? 1 : 3;	/* S0 out 3, S1 out 1 */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, path, 63);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	/* After hop 2 it is at S1, after hop 3 at S0...: S0 answers hop 63. */
	KUNIT_EXPECT_EQ(test, t_ni(&m)->num_ports, 4);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(t_ni(&m)->node_guid),
			0x0266740100000000ULL | 0);
	KUNIT_EXPECT_EQ(test, m.smp.return_path[63], 3);
	/* 64 hops: refused where it starts, by the host's CA. */
	m.smp.hop_cnt = 64;
	m.smp.hop_ptr = 0;
	m.smp.method = IB_MGMT_METHOD_GET;
	m.smp.status = 0;
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_DR);
	t_fab_free(f);
}

/* A path through a port that is down or unbound, or past the count. */
static void t_dr_bad_paths(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	const u8 to_unbound[] = { 0, 1, 3, 3 };
	const u8 to_down[] = { 0, 1, 3, 4 };
	const u8 past[] = { 0, 1, 9 };
	const u8 not_ca_port[] = { 0, 2, 3 };
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, to_unbound, 3);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->s1p1,
		      FTSW_DROP_PORT_DOWN);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, to_down, 3);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->s1p1,
		      FTSW_DROP_PORT_DOWN);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, past, 2);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_DR);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, not_ca_port, 2);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_DR);
	/* A request whose hop pointer the host already moved. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s1, 2);
	m.smp.hop_ptr = 1;
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_DR);
	t_fab_free(f);
}

/* Malformed frames: truncated, bad versions, flags, QPs. */
static void t_bad_mads(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s1, 2);
	t_expect_drop(test, f, f->h0, &m, 0, f->h0, FTSW_DROP_BAD_MAD);
	t_expect_drop(test, f, f->h0, &m, 100, f->h0, FTSW_DROP_BAD_MAD);
	t_expect_drop(test, f, f->h0, &m, sizeof(m) - 1, f->h0,
		      FTSW_DROP_BAD_MAD);
	m.smp.base_version = 2;
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_MAD);
	m.smp.base_version = 1;
	m.mh.flags = 1;
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_MAD);
	m.mh.flags = 0;
	m.mh.dqpn = htonl(1);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_MAD);
	/* A GMP on QP0. */
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x12, 0);
	m.mh.dlid = htons(9);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_MAD);
	/* A LID-routed SMP to LID 0. */
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		   0x11, 0);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0, FTSW_DROP_BAD_MAD);
	/* A response reaching a switch's agent: nobody takes it. */
	t_dr(&m, IB_MGMT_METHOD_GET_RESP, 0x0011, 0, t_to_s1, 2);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->s1p1,
		      FTSW_DROP_MAD_SINK);
	t_fab_free(f);
}

/* What the agents refuse, and with which status. */
static void t_statuses(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_GET, 0x00ff, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	t_dr(&m, IB_MGMT_METHOD_SEND, 0x0011, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x08);
	/* Set on read-only attributes. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0011, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	KUNIT_EXPECT_EQ(test, t_ni(&m)->node_type,
			2);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0010, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0014, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	/* LFT block past the cap (0xC000 / 64 = 768 blocks); port past 4. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0019, 768, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0019, 767, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 5, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0017, 5 << 8 | 1, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	/* Switch attributes asked of a CA. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	t_fab_free(f);
}

/* An LFT block Set: a new table, published, with the block in it. */
static void t_lft_set(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ftsw_lft *before = rcu_access_pointer(f->sw[1]->lft), *after;
	struct t_mad m;
	int i;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0019, 1, t_to_s1, 2);
	for (i = 0; i < 64; i++)
		m.smp.data[i] = 255;
	m.smp.data[70 - 64] = 2;	/* LID 70 -> port 2 */
	m.smp.data[71 - 64] = 0;	/* LID 71 -> the switch */
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[6], 2);
	KUNIT_EXPECT_EQ(test, m.smp.data[7], 0);
	after = rcu_access_pointer(f->sw[1]->lft);
	KUNIT_EXPECT_PTR_NE(test, before, after);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(after, 70), 2);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(after, 71), 0);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(after, 69), FTSW_NO_ROUTE);
	/* Block 0 untouched: LID 2 (S1 itself) and 8, 9 still routed. */
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(after, 2), 0);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(after, 9), 2);
	/* A port S1 does not have: refused, nothing changed. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0019, 1, t_to_s1, 2);
	memset(m.smp.data, 255, 64);
	m.smp.data[0] = 5;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(f->sw[1]->lft), after);
	t_fab_free(f);
}

/* LID-routed SMPs follow the LFTs; a loop ends at the hop limit. */
static void t_lid_routed(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;

	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		   0x0015, 1);
	m.mh.dlid = htons(9);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(((struct ib_port_info *)
					   m.smp.data)->lid), 9);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 9);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	/* To S2's agent by its LID (entry 0). */
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		   0x0011, 0);
	m.mh.dlid = htons(3);
	t_route(f, 0, 3, 3);
	t_route(f, 1, 3, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, t_ni(&m)->local_port_num, 1);
	/* A broken table: 40 loops between S0 and S1. */
	t_route(f, 0, 40, 3);
	t_route(f, 1, 40, 1);
	m.mh.dlid = htons(40);
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	KUNIT_EXPECT_EQ(test, t_drops(f->s0p3, FTSW_DROP_HOP_LIMIT) +
			t_drops(f->s1p1, FTSW_DROP_HOP_LIMIT), 1);
	t_fab_free(f);
}

/* PortInfo Set: a CA's LID and LMC become its edge port's LID range. */
static void t_portinfo_set(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ftsw_policy *pol;
	struct ib_port_info *pi = NULL;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 1, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, t_to_h1, 4);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(0x20);
	pi->mkeyprot_resv_lmc = 1;
	pi->sm_lid = cpu_to_be16(8);
	pi->linkspeed_portstate = 3;	/* Armed, from Init */
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pi->lid), 0x20);
	KUNIT_EXPECT_EQ(test, pi->linkspeed_portstate & 0xf, 3);
	pol = rcu_access_pointer(f->h1->policy);
	KUNIT_EXPECT_EQ(test, pol->base_lid, 0x20);
	KUNIT_EXPECT_EQ(test, pol->lmc, 1);
	KUNIT_EXPECT_EQ(test, pol->n_offsets, 2);
	KUNIT_EXPECT_TRUE(test, ftsw_lid_in_range(pol, 0x21));
	/* Misaligned for LMC 1, and Init -> Active: refused, unchanged. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, t_to_h1, 4);
	pi->lid = cpu_to_be16(0x31);
	pi->mkeyprot_resv_lmc = 1;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(f->h1->policy), pol);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 0, t_to_s2, 3);
	pi->linkspeed_portstate = 4;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	/* Switch port 0: its LID and the master SM's. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 0, t_to_s2, 3);
	pi->lid = cpu_to_be16(0x40);
	pi->sm_lid = cpu_to_be16(8);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, f->sw[2]->lid, 0x40);
	KUNIT_EXPECT_EQ(test, f->sw[2]->mgmt.sm_lid, 8);
	t_fab_free(f);
}

/* SL-to-VL Set is the table the data path uses; SwitchInfo's fields. */
static void t_sl2vl_switchinfo(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;
	int i;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0017, 1 << 8 | 2, t_to_s1, 2);
	for (i = 0; i < 8; i++)
		m.smp.data[i] = 0x10 * ((2 * i) % 4) + (2 * i + 1) % 4;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	for (i = 0; i < FTSW_NUM_SL; i++)
		KUNIT_EXPECT_EQ(test, f->sw[1]->sl2vl[i], i % 4);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[0] << 8 | m.smp.data[1], 0xC000);
	/* No SM set LinearFDBTop: the highest LID S1's table routes (9). */
	KUNIT_EXPECT_EQ(test, m.smp.data[6] << 8 | m.smp.data[7], 9);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0012, 0, t_to_s1, 2);
	m.smp.data[6] = 0x01;	/* LinearFDBTop 0x123 */
	m.smp.data[7] = 0x23;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, f->sw[1]->lft_top, 0x123);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[6] << 8 | m.smp.data[7], 0x123);
	t_fab_free(f);
}

/* One VLArbitrationTable SMP to S1 (or to h1's CA); its status. */
static u16 t_vlarb(struct kunit *test, struct t_fab *f, bool ca, u8 method,
		   u32 mod, const u8 *ent)
{
	struct t_mad m;

	if (ca)
		t_dr(&m, method, 0x0018, mod, t_to_h1, 4);
	else
		t_dr(&m, method, 0x0018, mod, t_to_s1, 2);
	if (ent)
		memcpy(m.smp.data, ent, 2 * FTSW_VLARB_CAP);
	return t_ask(test, f, f->h0, &m);
}

/*
 * What OpenSM's QoS manager needs: IsSLMappingSupported on a switch's
 * port 0 (it sets no switch's SL-to-VL table without it), and
 * VLArbitrationTable's modifier as IBA (and OpenSM, ibsim, qib) lay it
 * out: block in bits 31:16, the switch's port in bits 15:0. Block 3 of
 * S1's port 2 is port 2's high table, not port 3's (unbound) low one.
 */
static void t_qos_agent(struct kunit *test)
{
	static const u8 hi[16] = { 1, 10, 3, 20, 5, 30, 0, 0,
				   7, 40, 2, 50, 4, 60, 6, 70 };
	static const u8 lo[16] = { 6, 11, 5, 12, 4, 13, 3, 14,
				   2, 15, 1, 16, 0, 17, 7, 18 };
	struct ftsw_port *s1p2;
	struct t_fab *f = t_fab_new(test);
	struct ib_port_info *pi;
	struct t_mad m;
	int i;

	s1p2 = rcu_access_pointer(f->sw[1]->ports[2]);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	pi = (void *)m.smp.data;
	KUNIT_EXPECT_TRUE(test, !!(be32_to_cpu(pi->cap_mask) & (1U << 6)));
	KUNIT_EXPECT_EQ(test, pi->vl_arb_high_cap, 8);
	KUNIT_EXPECT_EQ(test, pi->vl_arb_low_cap, 8);
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_SET,
				      3 << 16 | 2, hi), 0);
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_SET,
				      1 << 16 | 1, lo), 0);
	for (i = 0; i < FTSW_VLARB_CAP; i++) {
		KUNIT_EXPECT_EQ(test, s1p2->ib.vlarb[1][i][0], hi[2 * i]);
		KUNIT_EXPECT_EQ(test, s1p2->ib.vlarb[1][i][1], hi[2 * i + 1]);
		KUNIT_EXPECT_EQ(test, s1p2->ib.vlarb[0][i][1], 0);
		KUNIT_EXPECT_EQ(test, f->s1p1->ib.vlarb[0][i][0], lo[2 * i]);
		KUNIT_EXPECT_EQ(test, f->s1p1->ib.vlarb[0][i][1],
				lo[2 * i + 1]);
		KUNIT_EXPECT_EQ(test, f->s1p1->ib.vlarb[1][i][1], 0);
	}
	/* Read back; block 4 (high 32..63) is past the capacity: zeros. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0018, 3 << 16 | 2, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, memcmp(m.smp.data, hi, sizeof(hi)), 0);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0018, 4 << 16 | 2, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[1] | m.smp.data[3], 0);
	/* Port 0 (a base port 0 has no table), unbound 3, past 4; block 5. */
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_SET,
				      1 << 16, lo), 0x1c);
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_GET,
				      1 << 16 | 3, NULL), 0x1c);
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_GET,
				      1 << 16 | 5, NULL), 0x1c);
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, false, IB_MGMT_METHOD_GET,
				      5 << 16 | 2, NULL), 0x1c);
	/* A CA: OpenSM sends port 0 in the low bits; block 3 = high. */
	KUNIT_EXPECT_EQ(test, t_vlarb(test, f, true, IB_MGMT_METHOD_SET,
				      3 << 16, hi), 0);
	for (i = 0; i < FTSW_VLARB_CAP; i++) {
		KUNIT_EXPECT_EQ(test, f->h1->ca.ib.vlarb[1][i][0], hi[2 * i]);
		KUNIT_EXPECT_EQ(test, f->h1->ca.ib.vlarb[1][i][1],
				hi[2 * i + 1]);
		KUNIT_EXPECT_EQ(test, f->h1->ib.vlarb[1][i][1], 0);
	}
	t_fab_free(f);
}

/*
 * PMA on a patch port: one DR NodeInfo to S1 crosses S0:3 once each way,
 * a 296-byte frame (14 + 10 + 16 + 256): 74 words of 4 octets.
 */
/* Every port and CA port Active, as the SM leaves them at SUBNET UP. */
static void t_activate(struct t_fab *f)
{
	int i;

	for (i = 0; i < f->nport; i++) {
		WRITE_ONCE(f->port[i]->ib.state, FTSW_PS_ACTIVE);
		WRITE_ONCE(f->port[i]->ca.ib.state, FTSW_PS_ACTIVE);
	}
}

static void t_pma(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_pma_portcounters *pc;
	struct t_mad m;

	t_activate(f);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(1);	/* S0 */
	/* PMA data, like SMP data, starts 64 bytes into the MAD. */
	pc = (void *)m.smp.data;
	pc->port_select = 3;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_xmit_packets), 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_rcv_packets), 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_xmit_data), 74);
	/* Reset them all, read zero. */
	m.smp.method = IB_MGMT_METHOD_SET;
	m.smp.status = 0;
	m.mh.dlid = htons(1);
	pc->counter_select = cpu_to_be16(0xffff);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_xmit_packets), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pc->port_xmit_data), 0);
	t_fab_free(f);
}

/*
 * A link change at S1 once the SM said where it is (MasterSMLID 8, h0):
 * PortStateChange set, trap 128 from S1's LID 2 to LID 8, LID-routed.
 */
static void t_trap128(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_mad_notice_attr *n;
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 0, t_to_s1, 2);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(2);
	pi->sm_lid = cpu_to_be16(8);
	pi->clientrereg_resv_subnetto = 22;	/* no repeat within the case */
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	mutex_lock(&f->fn.lock);
	ftsw_trap_port_changed(f->h2);
	mutex_unlock(&f->fn.lock);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, m.smp.mgmt_class, IB_MGMT_CLASS_SUBN_LID_ROUTED);
	KUNIT_EXPECT_EQ(test, m.smp.method, IB_MGMT_METHOD_TRAP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(m.smp.attr_id), 0x0002);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 2);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	n = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, n->generic_type, 0x81);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->trap_num), 128);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->issuer_lid), 2);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[1], 2);
	/* SwitchInfo: PortStateChange (bit 2 of byte 11), cleared by 1. */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[11] & 4, 4);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0012, 0, t_to_s1, 2);
	m.smp.data[11] = 4;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[11] & 4, 0);
	t_fab_free(f);
}

/*
 * Trap 128 is sent again until the SM's TrapRepress names its TID (low 32
 * bits), at most 16 times, and not once its switch is deleted. The timer
 * (SubnetTimeOut 22 here: 17 s) never fires during the case: the resends
 * are driven by hand.
 */
static u64 t_trap_get(struct kunit *test, struct t_fab *f)
{
	struct t_mad m;

	if (!t_recv(test, f, &m))
		return 0;
	KUNIT_EXPECT_EQ(test, m.smp.method, IB_MGMT_METHOD_TRAP);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	return be64_to_cpu(m.smp.tid);
}

static void t_trap_repress_send(struct kunit *test, struct t_fab *f, u64 tid)
{
	struct t_mad m;

	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED,
		   IB_MGMT_METHOD_TRAP_REPRESS, 0x0002, 0);
	m.smp.tid = cpu_to_be64(tid);
	m.mh.dlid = htons(2);	/* S1 */
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
}

static void t_changed(struct t_fab *f, struct ftsw_port *p)
{
	mutex_lock(&f->fn.lock);
	ftsw_trap_port_changed(p);
	mutex_unlock(&f->fn.lock);
}

static void t_trap_repeat(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ftsw_switch *s1 = f->sw[1];
	struct ib_port_info *pi;
	struct t_mad m;
	u64 tid, sink;
	int n;

	t_route(f, 0, 2, 3);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 0, t_to_s1, 2);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(2);
	pi->sm_lid = cpu_to_be16(8);
	pi->clientrereg_resv_subnetto = 22;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_changed(f, f->h2);
	tid = t_trap_get(test, f);
	KUNIT_EXPECT_NE(test, tid, 0);
	/* Unanswered: the same trap, same TID, again. */
	KUNIT_EXPECT_TRUE(test, ftsw_trap_resend(s1));
	KUNIT_EXPECT_EQ(test, t_trap_get(test, f), tid);
	/* A TrapRepress for another TID changes nothing... */
	sink = t_drops(f->h0, FTSW_DROP_MAD_SINK) +
	       t_drops(f->s1p1, FTSW_DROP_MAD_SINK);
	t_trap_repress_send(test, f, tid + 1);
	KUNIT_EXPECT_TRUE(test, ftsw_trap_resend(s1));
	KUNIT_EXPECT_EQ(test, t_trap_get(test, f), tid);
	/* ... its own (high 32 bits the SM's MAD layer's) ends the repeats. */
	t_trap_repress_send(test, f, tid | 0xabcd00000000ULL);
	KUNIT_EXPECT_FALSE(test, ftsw_trap_resend(s1));
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	/* Taken by the agent, not dropped as a MAD no one takes. */
	KUNIT_EXPECT_EQ(test, t_drops(f->h0, FTSW_DROP_MAD_SINK) +
			t_drops(f->s1p1, FTSW_DROP_MAD_SINK), sink);
	/* Never repressed: 16 sends in all, then no more. */
	t_changed(f, f->h2);
	KUNIT_EXPECT_EQ(test, t_trap_get(test, f), tid + 1);
	for (n = 1; ftsw_trap_resend(s1) && n < 100; n++)
		KUNIT_EXPECT_EQ(test, t_trap_get(test, f), tid + 1);
	KUNIT_EXPECT_EQ(test, n, 16);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	/* A switch deleted with a trap waiting: the repeats stop. */
	t_changed(f, f->h2);
	KUNIT_EXPECT_EQ(test, t_trap_get(test, f), tid + 2);
	ftsw_sma_switch_del(s1);
	KUNIT_EXPECT_FALSE(test, ftsw_trap_resend(s1));
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	t_fab_free(f);
}

/*
 * Port states and management datagrams: SMPs pass ports in Init, GMPs
 * (here a PMA Get from h0's CA to S0) are data: dropped until the CA's
 * port and its edge port are Active.
 */
static void t_gmp_states(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;

	/* A LID-routed SMP to S0, answered back to h0 through Init ports. */
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		   0x0011, 0);
	m.mh.dlid = htons(1);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, t_ni(&m)->node_type, 2);
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(1);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0,
		      FTSW_DROP_NOT_ACTIVE);
	/* The CA Active, its edge port still Init: dropped still. */
	WRITE_ONCE(f->h0->ca.ib.state, FTSW_PS_ACTIVE);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->h0,
		      FTSW_DROP_NOT_ACTIVE);
	WRITE_ONCE(f->h0->ib.state, FTSW_PS_ACTIVE);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_fab_free(f);
}

/* ------------------------------------------------ subnet manager's writes */

/* An ARP request from the host behind @from: the LID of the answer's MAC. */
struct t_arp_req {
	struct arphdr h;
	u8 sha[ETH_ALEN];
	__be32 sip;
	u8 tha[ETH_ALEN];
	__be32 tip;
} __packed;

static u16 t_arp_lid(struct kunit *test, struct ftsw_port *from, u32 sip,
		     u32 tip)
{
	struct sk_buff *skb = alloc_skb(NET_SKB_PAD + 64, GFP_KERNEL), *r;
	struct t_arp_req *a;
	struct ethhdr *eth;
	u16 lid = 0;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put(skb, ETH_HLEN);
	eth_broadcast_addr(eth->h_dest);
	eth_zero_addr(eth->h_source);
	eth->h_source[0] = 2;
	eth->h_source[5] = 1;
	eth->h_proto = htons(ETH_P_ARP);
	a = skb_put_zero(skb, sizeof(*a));
	a->h.ar_hrd = htons(ARPHRD_ETHER);
	a->h.ar_pro = htons(ETH_P_IP);
	a->h.ar_hln = ETH_ALEN;
	a->h.ar_pln = 4;
	a->h.ar_op = htons(ARPOP_REQUEST);
	ether_addr_copy(a->sha, eth->h_source);
	a->sip = htonl(sip);
	a->tip = htonl(tip);
	skb_reset_mac_header(skb);
	skb->protocol = eth->h_proto;
	local_bh_disable();
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, ftsw_resolve_frame(from, skb, &r), 1);
	rcu_read_unlock();
	local_bh_enable();
	if (r) {
		KUNIT_EXPECT_TRUE(test, ftsw_mac_to_lid(r->data + ETH_ALEN,
							&lid));
		kfree_skb(r);
	}
	return lid;
}

/* A PortInfo Set of the CA behind @to (by @path, @hops) with @lid, @lmc. */
static u16 t_ca_lid(struct kunit *test, struct t_fab *f, const u8 *path,
		    int hops, u16 lid, u8 lmc)
{
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, path, hops);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(lid);
	pi->mkeyprot_resv_lmc = lmc;
	return t_ask(test, f, f->h0, &m);
}

/*
 * The LIDs an SM sets on the hosts' CAs are what ARP answers: plan of 8
 * hosts from LID 8 and 10.0.0.1, LMC 0 (h0 host 0, h1 host 1, h2 host 4).
 */
static void t_ca_lid_plan(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ftsw_plan *plan = kzalloc(sizeof(*plan), GFP_KERNEL);
	static const u8 own[] = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, plan);
	plan->hosts = 8;
	plan->lid = 8;
	plan->ip4 = 0x0a000001;
	RCU_INIT_POINTER(f->fn.plan, plan);
	mutex_lock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, ftsw_plan_host_reserve(&f->fn, 8), 0);
	KUNIT_ASSERT_EQ(test, ftsw_plan_host_reserve(&f->fn, 9), 0);
	ftsw_plan_host_add(f->h0, 8);
	ftsw_plan_host_add(f->h1, 9);
	mutex_unlock(&f->fn.lock);
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h0, 0x0a000001, 0x0a000002),
			9);
	/* The SM gives h1 LID 0x30, LMC 1; then h0 h1's old LID, 9. */
	KUNIT_EXPECT_EQ(test, t_ca_lid(test, f, t_to_h1, 4, 0x30, 1), 0);
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h0, 0x0a000001, 0x0a000002),
			0x30);
	KUNIT_EXPECT_EQ(test, t_ca_lid(test, f, own, 0, 9, 0), 0);
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h1, 0x0a000002, 0x0a000001),
			9);
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h0, 0x0a000001, 0x0a000002),
			0x30);
	/* Host 2 has no port: the plan's rule, 8 + 2. */
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h0, 0x0a000001, 0x0a000003),
			10);
	/* h0's own address stays its own: a probe is not answered. */
	KUNIT_EXPECT_EQ(test, t_arp_lid(test, f->h0, 0, 0x0a000001), 0);
	KUNIT_EXPECT_EQ(test, t_drops(f->h0, FTSW_DROP_ANNOUNCE), 1);
	t_fab_free(f);
}

/* A data frame to LID 9 (h1) through S2, as delivered to h1's device. */
static void t_deliver_h1(struct kunit *test, struct t_fab *f, u16 plan_lid,
			 u16 want)
{
	struct sk_buff *skb = alloc_skb(NET_SKB_PAD + 128, GFP_KERNEL);
	struct ethhdr *eth;
	u8 mac[ETH_ALEN];

	KUNIT_ASSERT_NOT_NULL(test, skb);
	f->h1->plan_lid = plan_lid;
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put_zero(skb, ETH_HLEN + 40);
	ftsw_lid_to_mac(9, eth->h_dest);
	ftsw_lid_to_mac(8, eth->h_source);
	eth->h_proto = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	KUNIT_ASSERT_EQ(test, ftsw_encap(skb, 9, 8, 0, FTSW_PKEY_DEFAULT), 0);
	local_bh_disable();
	rcu_read_lock();
	/* The edge port has no device here: the frame stays ours. */
	KUNIT_EXPECT_NULL(test, ftsw_forward(f->port[4], skb));
	rcu_read_unlock();
	local_bh_enable();
	ftsw_lid_to_mac(want, mac);
	KUNIT_EXPECT_EQ(test, ntohs(eth_hdr(skb)->h_proto), ETH_P_IP);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth_hdr(skb)->h_dest, mac));
	kfree_skb(skb);
}

/*
 * A host whose port an SM moved keeps its MAC (that of its plan LID): the
 * frames delivered to it carry that MAC, not the LID's they were sent to.
 */
static void t_sm_lid_delivery(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);

	t_activate(f);
	t_deliver_h1(test, f, 9, 9);
	t_deliver_h1(test, f, 0x11, 0x11);
	t_deliver_h1(test, f, 0, 9);
	t_fab_free(f);
}

static void t_phys_work(struct work_struct *w)
{
	container_of(w, struct t_fab, fn.phys_work)->phys_runs++;
}

/* A PortInfo Set of port @mod of S1 with PortPhysicalState @phys. */
static u16 t_phys(struct kunit *test, struct t_fab *f, u32 mod, u8 phys)
{
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, mod, t_to_s1, 2);
	pi = (void *)m.smp.data;
	pi->portphysstate_linkdown = phys << 4;
	return t_ask(test, f, f->h0, &m);
}

/*
 * PortPhysicalState Set: Disabled and Polling are taken (and left for the
 * work item, which takes the link down or up), Sleep and the states a Set
 * may not name are refused, port 0 and unbound ports have no link.
 */
static void t_physstate(struct kunit *test)
{
	static const u8 bad[] = { 1, 4, 5, 6, 7, 15 };
	struct t_fab *f = t_fab_new(test);
	struct ftsw_port *s1p2 = f->port[3];
	struct ib_port_info *pi;
	struct t_mad m;
	int i;

	INIT_WORK(&f->fn.phys_work, t_phys_work);
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 2, 3), 0);
	flush_work(&f->fn.phys_work);
	KUNIT_EXPECT_EQ(test, f->phys_runs, 1);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 3);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 0);
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 2, 2), 0);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 2);
	/* 0: no change, nothing to do. */
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ(test, t_phys(test, f, 2, bad[i]), 0x1c);
		KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 0);
	}
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 0, 3), 0x1c);
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 3, 3), 0x1c);
	KUNIT_EXPECT_EQ(test, t_phys(test, f, 5, 3), 0x1c);
	/* Refused for another field (NeighborMTU 15): nothing recorded. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 2, t_to_s1, 2);
	pi = (void *)m.smp.data;
	pi->portphysstate_linkdown = 3 << 4;
	pi->neighbormtu_mastersmsl = 0xf0;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(s1p2), 0);
	/* A CA's port: the same link, its edge port's. */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, t_to_h1, 4);
	pi->lid = cpu_to_be16(9);
	pi->portphysstate_linkdown = 3 << 4;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, ftsw_sma_phys_take(f->h1), 3);
	flush_work(&f->fn.phys_work);
	t_fab_free(f);
}

/* An LFT block Set of S1 by SMP: block @blk as it is, with @n changes. */
static void t_lft_block(struct kunit *test, struct t_fab *f, u32 blk,
			const u8 (*e)[2], int n)
{
	const struct ftsw_lft *lft = rcu_access_pointer(f->sw[1]->lft);
	struct t_mad m;
	int i;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0019, blk, t_to_s1, 2);
	memset(m.smp.data, FTSW_NO_ROUTE, 64);
	if (blk * 64 < lft->size)
		memcpy(m.smp.data, lft->port + blk * 64, 64);
	for (i = 0; i < n; i++)
		m.smp.data[e[i][0] - blk * 64] = e[i][1];
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
}

/*
 * A COMMIT after SMP block writes applies the entries netlink staged and
 * only those: the SMP's blocks stay, an entry both wrote is netlink's (it
 * came last), and blocks an SMP added past the staged table's size stay.
 */
static void t_lft_commit_merge(struct kunit *test)
{
	static const u8 b0[][2] = { { 9, 4 }, { 21, 1 }, { 30, 2 } };
	static const u8 b2[][2] = { { 130, 2 } };
	struct t_fab *f = t_fab_new(test);
	struct ftsw_switch *sw = f->sw[1];
	struct ftsw_lft *st = NULL, *live;
	u8 blk[3] = { 3, 3, 3 };

	mutex_lock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, ftsw_lft_stage(&st, rcu_access_pointer(sw->lft),
					     20, blk, 3), 0);
	mutex_unlock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, st->size, 64U);
	t_lft_block(test, f, 0, b0, ARRAY_SIZE(b0));
	t_lft_block(test, f, 2, b2, ARRAY_SIZE(b2));
	KUNIT_EXPECT_GT(test, rcu_access_pointer(sw->lft)->size, 128U);
	mutex_lock(&f->fn.lock);
	ftsw_sma_lft_publish(sw, st);
	mutex_unlock(&f->fn.lock);
	live = rcu_access_pointer(sw->lft);
	KUNIT_EXPECT_NULL(test, live->set);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 20), 3);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 21), 3);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 22), 3);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 9), 4);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 30), 2);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 8), 1);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 2), 0);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 130), 2);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 129), FTSW_NO_ROUTE);
	/* Nothing since the staging: the staged table as it was. */
	st = NULL;
	mutex_lock(&f->fn.lock);
	KUNIT_ASSERT_EQ(test, ftsw_lft_stage(&st, live, 9, blk, 1), 0);
	ftsw_sma_lft_publish(sw, st);
	mutex_unlock(&f->fn.lock);
	live = rcu_access_pointer(sw->lft);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 9), 3);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 30), 2);
	KUNIT_EXPECT_EQ(test, ftsw_lft_lookup(live, 130), 2);
	t_fab_free(f);
}

/* A PortInfo Set of PortState @state on port @mod at the end of @path. */
static u16 t_set_state(struct kunit *test, struct t_fab *f, const u8 *path,
		       int n, u32 mod, u8 state)
{
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, mod, path, n);
	pi = (void *)m.smp.data;
	pi->linkspeed_portstate = state;
	if (n == 4)	/* h1's CA keeps its LID */
		pi->lid = cpu_to_be16(9);
	return t_ask(test, f, f->h0, &m);
}

/*
 * PortState is a link's: Armed needs the neighbour in Init at least,
 * Active needs it Armed at least (h1's CA - S2:2 by their CA/edge pair,
 * S1:2 - S2:1 by their patch cable); Down retrains the link, both ends
 * back in Init, and PortStateChange is set on the neighbour's switch only.
 */
static void t_link_states(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ftsw_port *s1p2 = rcu_access_pointer(f->sw[1]->ports[2]);
	struct ftsw_port *s2p1 = rcu_access_pointer(f->sw[2]->ports[1]);
	struct ftsw_port *s2p2 = rcu_access_pointer(f->sw[2]->ports[2]);

	/* h1's CA and its edge port S2:2 */
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_h1, 4, 1, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_h1, 4, 1, 4), 0x1c);
	KUNIT_EXPECT_EQ(test, f->h1->ca.ib.state, 3);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_h1, 4, 1, 4), 0);
	KUNIT_EXPECT_EQ(test, f->h1->ca.ib.state, 4);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 2, 4), 0);
	KUNIT_EXPECT_FALSE(test, f->sw[2]->psc);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_h1, 4, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, f->h1->ca.ib.state, 2);
	KUNIT_EXPECT_EQ(test, s2p2->ib.state, 2);
	KUNIT_EXPECT_TRUE(test, f->sw[2]->psc);
	/* The switch side sets its edge port Down: the CA retrains. */
	f->sw[2]->psc = false;
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_h1, 4, 1, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, f->h1->ca.ib.state, 2);
	KUNIT_EXPECT_EQ(test, s2p2->ib.state, 2);
	KUNIT_EXPECT_FALSE(test, f->sw[2]->psc);
	/* a patch cable between switches */
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s1, 2, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s1, 2, 2, 4), 0x1c);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 1, 3), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s1, 2, 2, 4), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s2, 3, 1, 4), 0);
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s1, 2, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, s1p2->ib.state, 2);
	KUNIT_EXPECT_EQ(test, s2p1->ib.state, 2);
	KUNIT_EXPECT_TRUE(test, f->sw[2]->psc);
	KUNIT_EXPECT_FALSE(test, f->sw[1]->psc);
	/* a port whose link is down takes no Armed */
	KUNIT_EXPECT_EQ(test, t_set_state(test, f, t_to_s1, 2, 4, 3), 0x1c);
	t_fab_free(f);
}

/*
 * OperationalVLs: every port starts at its VLCap (5, VL0-14), as a real
 * port does before an SM lowers it; a Set takes 1..VLCap, 0 changes
 * nothing and a value past VLCap is refused (0x1C), the port unchanged
 * (every answer carries the attribute as it now is).
 */
static u8 t_opvls(struct kunit *test, struct t_fab *f, const u8 *path,
		  int n, u32 mod, bool set, u8 opvls, u16 status)
{
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, set ? IB_MGMT_METHOD_SET : IB_MGMT_METHOD_GET, 0x0015, mod,
	     path, n);
	pi = (void *)m.smp.data;
	pi->operationalvl_pei_peo_fpi_fpo = opvls << 4;
	if (n == 4)	/* h1's CA keeps its LID */
		pi->lid = cpu_to_be16(9);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), status);
	KUNIT_EXPECT_EQ(test, pi->vlcap_inittype >> 4, 5);
	return pi->operationalvl_pei_peo_fpi_fpo >> 4;
}

static void t_operational_vls(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);

	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_h1, 4, 1, false, 0, 0), 5);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 2, false, 0, 0), 5);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 0, false, 0, 0), 5);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 2, true, 3, 0), 3);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 2, true, 0, 0), 3);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 2, true, 6, 0x1c),
			3);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 2, false, 0, 0), 3);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_h1, 4, 1, true, 1, 0), 1);
	KUNIT_EXPECT_EQ(test, t_opvls(test, f, t_to_s2, 3, 1, false, 0, 0), 5);
	t_fab_free(f);
}

/*
 * Requests the agents do not serve get IBA's status, as a host's MAD layer
 * answers them: a Get or Set of a class a switch has no agent for, 0x0C
 * (Linux's generate_unmatched_resp()); of a class version an agent does
 * not speak, 0x04; any other method of an unknown class: dropped.
 */
static void t_unsupported(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct t_mad m;
	u8 classes[] = { 0x0a, 0x06, 0x03, 0x32 };	/* 0x21: cc.c */
	int i;

	t_activate(f);		/* GMPs need Active ports */
	t_route(f, 0, 2, 3);
	t_route(f, 1, 8, 1);
	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		t_smp_init(&m, classes[i], IB_MGMT_METHOD_GET, 0x0001, 0);
		m.smp.class_version = classes[i] == 0x03 ? 2 : 1;
		m.mh.dqpn = htonl(1);
		m.mh.sqpn = htonl(1);
		m.mh.dlid = htons(2);		/* S1's agents */
		KUNIT_EXPECT_EQ_MSG(test, t_ask(test, f, f->h0, &m), 0x0c,
				    "class 0x%02x", classes[i]);
		KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 2);
	}
	/* a Send of an unknown class: nobody answers it */
	t_smp_init(&m, 0x0a, IB_MGMT_METHOD_SEND, 0x0001, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(2);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->s1p1,
		      FTSW_DROP_MAD_SINK);
	/* the PMA and the SMA at class version 2 */
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.smp.class_version = 2;
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x04);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s1, 2);
	m.smp.class_version = 2;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x04);
	/* the CA's agent too */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_h1, 4);
	m.smp.class_version = 2;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x04);
	/* PortInfo's modifier bit 31 (smpquery -x): port 1 all the same */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, BIT(31) | 1, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, ((struct ib_port_info *)m.smp.data)->local_port_num,
			1);
	t_fab_free(f);
}

/* The host's local interface: IsSM in its CA's CapabilityMask. */
static void t_local_cap(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_port_info *pi;
	struct t_mad m;

	t_dr(&m, IB_MGMT_METHOD_SET, FTSW_ATTR_LOCAL_CAP, 0, t_to_s0, 0);
	m.smp.data[3] = 0x02;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[3], 0x02);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 1, t_to_s0, 0);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	pi = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, be32_to_cpu(pi->cap_mask) & 0x2, 0x2);
	/* bits the host may not set: refused, nothing changed */
	t_dr(&m, IB_MGMT_METHOD_SET, FTSW_ATTR_LOCAL_CAP, 0, t_to_s0, 0);
	m.smp.data[3] = 0x08;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	KUNIT_EXPECT_EQ(test, m.smp.data[3], 0x02);
	/* from elsewhere it is a vendor attribute: the host's software's */
	t_dr(&m, IB_MGMT_METHOD_SET, FTSW_ATTR_LOCAL_CAP, 0, t_to_h1, 4);
	m.smp.data[3] = 0;
	t_send(test, f->h0, &m);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, m.smp.method, IB_MGMT_METHOD_SET);
	KUNIT_EXPECT_EQ(test, f->h1->ca.mgmt.cap_local, 0);
	/* a switch has none */
	t_dr(&m, IB_MGMT_METHOD_GET, FTSW_ATTR_LOCAL_CAP, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x0c);
	t_fab_free(f);
}

/*
 * Partitions set by SMPs as OpenSM sets them: SwitchInfo announces 32
 * entries and both ways; S1's port 1 gets P_KeyTable {0x8001} (modifier
 * port << 16) and PortInfo's PartitionEnforcementInbound; h0's GMP to h1
 * (the default partition, 0xFFFF) then dies at S1:1, counted as
 * PortRcvConstraintErrors, and S1 sends trap 259 to the SM (LID 8, h0);
 * SMPs still pass.
 */
static void t_partitions(struct kunit *test)
{
	struct t_fab *f = t_fab_new(test);
	struct ib_mad_notice_attr *n;
	struct ib_pma_portcounters *pc;
	struct ib_port_info *pi;
	struct t_mad m;
	u64 tid;

	t_activate(f);		/* GMPs need Active ports */
	t_route(f, 1, 8, 1);
	t_route(f, 0, 2, 3);
	/* S1's LID 2, the SM at LID 8 */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 0, t_to_s1, 2);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(2);
	pi->sm_lid = cpu_to_be16(8);
	pi->clientrereg_resv_subnetto = 22;	/* no repeat within the case */
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, m.smp.data[14] << 8 | m.smp.data[15], 32);
	KUNIT_EXPECT_EQ(test, m.smp.data[16] & 0xc0, 0xc0);
	/* the port's table */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0016, 1 << 16, t_to_s1, 2);
	m.smp.data[0] = 0x80;
	m.smp.data[1] = 0x01;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, f->s1p1->pkeys[0], 0x8001);
	KUNIT_EXPECT_EQ(test, f->s1p1->pkeys[1], 0);
	/* an unbound port has none to set; block 1 is past the cap */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0016, 3 << 16, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0016, 1 << 16 | 1, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0x1c);
	/* inbound enforcement: PortInfo byte 43, bit 3 */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 1, t_to_s1, 2);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	pi = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, pi->operationalvl_pei_peo_fpi_fpo & 0xf, 0);
	m.smp.method = IB_MGMT_METHOD_SET;
	m.smp.status = 0;
	memcpy(m.smp.initial_path, t_to_s1, sizeof(t_to_s1));
	m.smp.hop_ptr = 0;
	memset(m.smp.return_path, 0, sizeof(m.smp.return_path));
	pi->linkspeed_portstate &= 0xf0;	/* no state change */
	pi->portphysstate_linkdown &= 0x0f;	/* nor a physical one */
	pi->operationalvl_pei_peo_fpi_fpo |= 0x08;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, pi->operationalvl_pei_peo_fpi_fpo & 0xf, 0x08);
	KUNIT_EXPECT_EQ(test, f->s1p1->ib.enforce, FTSW_ENFORCE_IN);
	/* an SMP crosses S1:1 as before */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	/* h0's PMA Get to h1 (LID 9): refused at S1:1, trap 259 */
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(9);
	t_expect_drop(test, f, f->h0, &m, sizeof(m), f->s1p1,
		      FTSW_DROP_PKEY_IN);
	KUNIT_EXPECT_TRUE(test, f->sw[1]->pkey_trap.due);
	ftsw_trap_pkey_run(f->sw[1]);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, m.smp.method, IB_MGMT_METHOD_TRAP);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 2);
	n = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, n->generic_type, 0x82);	/* security */
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->trap_num), 259);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->issuer_lid), 2);
	/* DataDetails: valid bits, LID1 8, LID2 9, P_Key, SL 0, switch, port */
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[1], 0x0f);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[3], 8);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[5], 9);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[6], 0xff);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[7], 0xff);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[49], 2);
	KUNIT_EXPECT_EQ(test, n->details.raw_data.details[50], 1);
	tid = be64_to_cpu(m.smp.tid);
	/* unanswered it comes again, the same; repressed it stops */
	f->sw[1]->pkey_trap.next = jiffies;
	ftsw_trap_pkey_run(f->sw[1]);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(m.smp.tid), tid);
	t_trap_repress_send(test, f, tid);
	KUNIT_EXPECT_EQ(test, f->sw[1]->pkey_trap.wait, 0);
	f->sw[1]->pkey_trap.next = jiffies;
	ftsw_trap_pkey_run(f->sw[1]);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	/*
	 * S1:1's PortRcvConstraintErrors, asked with enforcement off: the
	 * PMA Get of the default partition crosses S1:1 too.
	 */
	f->s1p1->ib.enforce = 0;
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(2);
	pc = (void *)m.smp.data;
	pc->port_select = 1;
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h0, &m), 0);
	KUNIT_EXPECT_EQ(test, pc->port_rcv_constraint_errors, 1);
	KUNIT_EXPECT_EQ(test, pc->port_xmit_constraint_errors, 0);
	t_fab_free(f);
}

/*
 * Management keys (IBA vol. 1, 14.2.4). S1 (LID 2, SM at LID 8) is keyed
 * by a PortInfo Set on its port 0 from h0 along t_to_s1; every SMP then
 * carries @key in its M_Key field. Answered: the status; refused (no
 * answer at all): T_REFUSED.
 */
#define T_KEY		0x1122334455667788ULL
#define T_REFUSED	0xffff

static u16 t_try(struct kunit *test, struct t_fab *f, struct t_mad *m)
{
	t_send(test, f->h0, m);
	if (!t_recv(test, f, m))
		return T_REFUSED;
	return ntohs(m->smp.status) & 0x7fff;
}

/* PortInfo of S1's port 0: Get (@set false) or Set of its M_Key fields. */
static u16 t_s1_pi(struct kunit *test, struct t_fab *f, bool set, u64 key,
		   u64 new_key, u8 prot, u16 lease, struct ib_port_info **pip)
{
	static struct t_mad m;
	struct ib_port_info *pi = (void *)m.smp.data;

	t_dr(&m, set ? IB_MGMT_METHOD_SET : IB_MGMT_METHOD_GET, 0x0015, 0,
	     t_to_s1, 2);
	m.smp.mkey = cpu_to_be64(key);
	if (set) {
		pi->mkey = cpu_to_be64(new_key);
		pi->mkeyprot_resv_lmc = prot << 6;
		pi->mkey_lease_period = cpu_to_be16(lease);
		pi->lid = cpu_to_be16(2);
		pi->sm_lid = cpu_to_be16(8);
		pi->clientrereg_resv_subnetto = 22;
	}
	if (pip)
		*pip = pi;
	return t_try(test, f, &m);
}

static struct t_fab *t_mkey_fab(struct kunit *test, u8 prot, u16 lease)
{
	struct t_fab *f = t_fab_new(test);

	t_route(f, 0, 2, 3);
	t_route(f, 1, 8, 1);
	/* No key yet: any SMP passes, this one sets it. */
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 0, T_KEY, prot, lease,
				      NULL), 0);
	KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey, T_KEY);
	KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey_prot, prot);
	return f;
}

/*
 * Every protection level x Get/Set x with the key, with none (0) and with
 * a wrong one. By IBA's table: a Get without the key is answered at levels
 * 0 (M_Key shown) and 1 (M_Key 0), refused at 2 and 3; a Set without it
 * is refused at every level; with the key everything is answered. Each
 * refusal counts in M_KeyViolations; a refused Set changes nothing.
 */
static void t_mkey_levels(struct kunit *test)
{
	static const u64 bad[] = { 0, T_KEY ^ 1, ~0ULL };
	struct ib_port_info *pi;
	struct t_fab *f;
	u16 want_viol;
	int prot, i;

	for (prot = 0; prot < 4; prot++) {
		f = t_mkey_fab(test, prot, 0);
		want_viol = 0;
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			u16 st = t_s1_pi(test, f, false, bad[i], 0, 0, 0, &pi);

			if (prot < 2) {
				KUNIT_EXPECT_EQ(test, st, 0);
				KUNIT_EXPECT_EQ(test, be64_to_cpu(pi->mkey),
						prot ? 0 : T_KEY);
				KUNIT_EXPECT_EQ(test,
						pi->mkeyprot_resv_lmc >> 6,
						prot);
			} else {
				KUNIT_EXPECT_EQ(test, st, T_REFUSED);
				want_viol++;
			}
			/* a Set that would drop the key */
			KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, bad[i], 0,
						      0, 0, NULL), T_REFUSED);
			want_viol++;
			KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey, T_KEY);
			KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey_prot, prot);
		}
		/* With the key: the Get shows it all, the count included. */
		KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, T_KEY, 0, 0, 0,
					      &pi), 0);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pi->mkey), T_KEY);
		KUNIT_EXPECT_EQ(test, pi->mkeyprot_resv_lmc >> 6, prot);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(pi->mkey_violations),
				want_viol);
		/* ... and the Set takes the key away. */
		KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, T_KEY, 0, 0, 0,
					      &pi), 0);
		KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey, 0);
		KUNIT_EXPECT_EQ(test, f->sw[1]->mgmt.mkey_violations, 0);
		KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 7, 0, 0, 0, NULL),
				0);
		t_fab_free(f);
	}
}

/*
 * Other attributes and agents: an LFT Set without the key changes nothing
 * at level 0; a CA keyed at level 2 refuses a Get, answers with the key;
 * its PMA and the host's local interface need none; the other switches
 * are not keyed.
 */
static void t_mkey_others(struct kunit *test)
{
	struct t_fab *f = t_mkey_fab(test, 0, 0);
	struct ib_port_info *pi;
	struct t_mad m;

	t_activate(f);
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0019, 0, t_to_s1, 2);
	memset(m.smp.data, 4, 64);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), T_REFUSED);
	KUNIT_EXPECT_EQ(test, rcu_access_pointer(f->sw[1]->lft)->port[9], 2);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_s2, 3);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), 0);
	/* h1's CA: LID 9, SM 8, key T_KEY ^ 2, level 2 */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, t_to_h1, 4);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(9);
	pi->sm_lid = cpu_to_be16(8);
	pi->mkey = cpu_to_be64(T_KEY ^ 2);
	pi->mkeyprot_resv_lmc = 2 << 6;
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), 0);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), T_REFUSED);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0012, 0, t_to_h1, 4);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), T_REFUSED);
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0011, 0, t_to_h1, 4);
	m.smp.mkey = cpu_to_be64(T_KEY ^ 2);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), 0);
	KUNIT_EXPECT_EQ(test, t_ni(&m)->node_type, 1);
	KUNIT_EXPECT_EQ(test, f->h1->ca.mgmt.mkey_violations, 2);
	t_smp_init(&m, IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0x0012, 0);
	m.mh.dqpn = htonl(1);
	m.mh.sqpn = htonl(1);
	m.mh.dlid = htons(9);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), 0);
	/* h1's host on its own CA's local interface (hop count 0) */
	t_dr(&m, IB_MGMT_METHOD_GET, FTSW_ATTR_LOCAL_CAP, 0, t_to_s0, 0);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h1, &m), 0);
	/* ... reads its port as its driver does, but sets nothing */
	t_dr(&m, IB_MGMT_METHOD_GET, 0x0015, 1, t_to_s0, 0);
	KUNIT_EXPECT_EQ(test, t_ask(test, f, f->h1, &m), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(pi->mkey), T_KEY ^ 2);
	m.smp.method = IB_MGMT_METHOD_SET;
	m.smp.status = 0;
	m.smp.hop_ptr = 0;
	t_send(test, f->h1, &m);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	KUNIT_EXPECT_EQ(test, f->h1->ca.mgmt.mkey_violations, 3);
	t_fab_free(f);
}

/*
 * The lease: a refusal at level 2 with M_KeyLeasePeriod 60 starts the
 * timer; an SMP with the key stops it; once it runs out (moved to now by
 * hand) the protection bits are 0 and a Get without the key is answered,
 * M_Key shown. Lease 0: refusals start no timer.
 */
static void t_mkey_lease(struct kunit *test)
{
	struct t_fab *f = t_mkey_fab(test, 2, 60);
	struct ftsw_mgmt *mg = &f->sw[1]->mgmt;
	struct ib_port_info *pi;
	unsigned long t0 = jiffies;

	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, 0, 0, 0, 0, NULL),
			T_REFUSED);
	KUNIT_EXPECT_TRUE(test, mg->mkey_timing);
	KUNIT_EXPECT_TRUE(test, time_in_range(mg->mkey_end, t0 + 60 * HZ,
					      jiffies + 60 * HZ));
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, T_KEY, 0, 0, 0, &pi),
			0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(pi->mkey_lease_period), 60);
	KUNIT_EXPECT_FALSE(test, mg->mkey_timing);
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, 0, 0, 0, 0, NULL),
			T_REFUSED);
	KUNIT_EXPECT_TRUE(test, mg->mkey_timing);
	mg->mkey_end = jiffies;		/* the lease runs out */
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, 0, 0, 0, 0, &pi), 0);
	KUNIT_EXPECT_EQ(test, pi->mkeyprot_resv_lmc >> 6, 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(pi->mkey), T_KEY);
	KUNIT_EXPECT_FALSE(test, mg->mkey_timing);
	/* Sets still need the key (level 0) */
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 0, 0, 0, 0, NULL),
			T_REFUSED);
	/* Lease 0: no timer, protection kept; 0xFFFF s: no overflow */
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, T_KEY, T_KEY, 3, 0,
				      NULL), 0);
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 0, 0, 0, 0, NULL),
			T_REFUSED);
	KUNIT_EXPECT_FALSE(test, mg->mkey_timing);
	KUNIT_EXPECT_EQ(test, mg->mkey_prot, 3);
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, T_KEY, T_KEY, 2, 0xffff,
				      NULL), 0);
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, false, 5, 0, 0, 0, NULL),
			T_REFUSED);
	KUNIT_EXPECT_TRUE(test, time_after(mg->mkey_end, jiffies + 65000UL *
					   HZ));
	t_fab_free(f);
}

/*
 * Trap 256 from S1 (LID 2) to the SM (LID 8) for h0's refused Set along
 * t_to_s1, by hand from IBA 14.2.5.1 / <rdma/ib_mad.h>'s ntc_256: the
 * switch's LID, DrSLID permissive, method Set, PortInfo, modifier 0, the
 * key it carried, DRNotice | hop count 2, return path {0, 1, 1} (S0 took
 * it by port 1, S1 by port 1). A second refusal right after: counted, not
 * trapped again. Sent again with its TID after the subnet's timeout until
 * repressed (IBA 13.4.9, as trap 128): a TrapRepress without the key is
 * refused (a violation, the trap still waits), with it the trap stops. A
 * CA's: prod type CA, from its LID; its CA agent takes its TrapRepress
 * (not passed to the host), the same way.
 */
static void t_mkey_trap256(struct kunit *test)
{
	struct t_fab *f = t_mkey_fab(test, 2, 0);
	struct ftsw_switch *s1 = f->sw[1];
	struct ib_mad_notice_attr *n;
	struct ib_port_info *pi;
	struct t_mad m;
	__be64 tid;

	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 0xabcd, 0, 0, 0, NULL),
			T_REFUSED);
	KUNIT_EXPECT_TRUE(test, s1->mkey_trap.due);
	KUNIT_EXPECT_EQ(test, t_s1_pi(test, f, true, 0xabce, 0, 0, 0, NULL),
			T_REFUSED);
	ftsw_trap_mkey_run(s1);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, m.smp.mgmt_class, IB_MGMT_CLASS_SUBN_LID_ROUTED);
	KUNIT_EXPECT_EQ(test, m.smp.method, IB_MGMT_METHOD_TRAP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(m.smp.attr_id), 0x0002);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 2);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	n = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, n->generic_type, 0x82);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->prod_type_lsb), 2);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->trap_num), 256);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->issuer_lid), 2);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->details.ntc_256.lid), 2);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->details.ntc_256.dr_slid), 0xffff);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.method, 2);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->details.ntc_256.attr_id), 0x15);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n->details.ntc_256.attr_mod), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(n->details.ntc_256.mkey), 0xabcd);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_trunc_hop, 0x82);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_rtn_path[0], 0);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_rtn_path[1], 1);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_rtn_path[2], 1);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_rtn_path[3], 0);
	tid = m.smp.tid;
	/* not again before the subnet's timeout; then again, the same TID */
	ftsw_trap_mkey_run(s1);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	KUNIT_EXPECT_EQ(test, s1->mgmt.mkey_violations, 2);
	s1->mkey_trap.resend = jiffies;
	ftsw_trap_mkey_run(s1);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	n = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->trap_num), 256);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(m.smp.tid), be64_to_cpu(tid));
	/* TrapRepress: without the key a violation, with it taken */
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED,
		   IB_MGMT_METHOD_TRAP_REPRESS, 0x0002, 0);
	m.mh.dlid = htons(2);
	m.smp.tid = tid;
	s1->mkey_trap.next = jiffies + HZ;	/* no new trap, however slow */
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_EQ(test, s1->mgmt.mkey_violations, 3);
	KUNIT_EXPECT_NE(test, s1->mkey_trap.wait, 0ULL);
	m.smp.mkey = cpu_to_be64(T_KEY);
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_EQ(test, s1->mgmt.mkey_violations, 3);
	KUNIT_EXPECT_EQ(test, s1->mkey_trap.wait, 0ULL);
	s1->mkey_trap.resend = jiffies;
	ftsw_trap_mkey_run(s1);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	/* a CA's, LID-routed Get at level 2: from LID 9, prod type CA */
	t_dr(&m, IB_MGMT_METHOD_SET, 0x0015, 1, t_to_h1, 4);
	pi = (void *)m.smp.data;
	pi->lid = cpu_to_be16(9);
	pi->sm_lid = cpu_to_be16(8);
	pi->mkey = cpu_to_be64(3);
	pi->mkeyprot_resv_lmc = 2 << 6;
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), 0);
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
		   0x0015, 1);
	m.mh.dlid = htons(9);
	m.smp.mkey = cpu_to_be64(4);
	KUNIT_EXPECT_EQ(test, t_try(test, f, &m), T_REFUSED);
	KUNIT_EXPECT_TRUE(test, f->sw[2]->mkey_trap.due);
	ftsw_trap_mkey_run(f->sw[2]);
	KUNIT_ASSERT_TRUE(test, t_recv(test, f, &m));
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.slid), 9);
	KUNIT_EXPECT_EQ(test, ntohs(m.mh.dlid), 8);
	n = (void *)m.smp.data;
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->prod_type_lsb), 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(n->issuer_lid), 9);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.method, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(n->details.ntc_256.attr_mod), 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(n->details.ntc_256.mkey), 4);
	KUNIT_EXPECT_EQ(test, n->details.ntc_256.dr_trunc_hop, 0);
	/* the CA's TrapRepress: refused without its key, taken with it */
	tid = m.smp.tid;
	t_smp_init(&m, IB_MGMT_CLASS_SUBN_LID_ROUTED,
		   IB_MGMT_METHOD_TRAP_REPRESS, 0x0002, 0);
	m.mh.dlid = htons(9);
	m.smp.tid = tid;
	f->sw[2]->mkey_trap.next = jiffies + HZ;
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_EQ(test, f->h1->ca.mgmt.mkey_violations, 2);
	KUNIT_EXPECT_NE(test, f->sw[2]->mkey_trap.wait, 0ULL);
	m.smp.mkey = cpu_to_be64(3);
	t_send(test, f->h0, &m);
	KUNIT_EXPECT_EQ(test, f->h1->ca.mgmt.mkey_violations, 2);
	KUNIT_EXPECT_EQ(test, f->sw[2]->mkey_trap.wait, 0ULL);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&f->got));
	t_fab_free(f);
}

static struct kunit_case ftsw_mad_cases[] = {
	KUNIT_CASE(t_hop0_ca),
	KUNIT_CASE(t_dr_paths),
	KUNIT_CASE(t_dr_engine),
	KUNIT_CASE(t_dr_63_hops),
	KUNIT_CASE(t_dr_bad_paths),
	KUNIT_CASE(t_bad_mads),
	KUNIT_CASE(t_statuses),
	KUNIT_CASE(t_lft_set),
	KUNIT_CASE(t_lid_routed),
	KUNIT_CASE(t_portinfo_set),
	KUNIT_CASE(t_sl2vl_switchinfo),
	KUNIT_CASE(t_qos_agent),
	KUNIT_CASE(t_pma),
	KUNIT_CASE(t_trap128),
	KUNIT_CASE(t_ca_lid_plan),
	KUNIT_CASE(t_sm_lid_delivery),
	KUNIT_CASE(t_physstate),
	KUNIT_CASE(t_lft_commit_merge),
	KUNIT_CASE(t_link_states),
	KUNIT_CASE(t_operational_vls),
	KUNIT_CASE(t_trap_repeat),
	KUNIT_CASE(t_gmp_states),
	KUNIT_CASE(t_unsupported),
	KUNIT_CASE(t_local_cap),
	KUNIT_CASE(t_partitions),
	KUNIT_CASE(t_mkey_levels),
	KUNIT_CASE(t_mkey_others),
	KUNIT_CASE(t_mkey_lease),
	KUNIT_CASE(t_mkey_trap256),
	{}
};

static struct kunit_suite ftsw_mad_suite = {
	.name = "ftsw_mad",
	.test_cases = ftsw_mad_cases,
};

kunit_test_suites(&ftsw_mad_suite);
