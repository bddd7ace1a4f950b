// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: address resolution at the edge port. The fabric knows its address
 * plan (host n owns base LID lid + (n << lmc), IPv4 ip4 + n, IPv6 ip6 + n,
 * or the LID a subnet manager set on that host's port since), so an edge
 * port answers its host's ARP requests and IPv6 neighbour
 * solicitations itself, with the MAC of the LID that owns the address: no
 * host needs static neighbours, nothing is flooded, and ARP/ND frames never
 * cross the fabric. Runs in the rx handler (RCU, softirq): nothing sleeps,
 * the reply is a fresh GFP_ATOMIC skb. See Documentation/datapath.md.
 */
#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/addrconf.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/ndisc.h>
#include "stats.h"
#include "resolve.h"

/* ---------------------------------------------------------------- plan */

/* Check a plan before it is staged; @msg names what is wrong. */
int ftsw_plan_check(const struct ftsw_plan *plan, const char **msg)
{
	u32 span;

	if (!plan->hosts)
		return 0;
	if (!plan->ip4 && ipv6_addr_any(&plan->ip6)) {
		*msg = "address plan needs an IPv4 or an IPv6 address";
		return -EINVAL;
	}
	if (plan->lmc > FTSW_MAX_LMC) {
		*msg = "LMC must be 0..7";
		return -EINVAL;
	}
	if (!plan->lid || plan->lid & ((1U << plan->lmc) - 1)) {
		*msg = "plan's first LID must be a non-zero multiple of 2^LMC";
		return -EINVAL;
	}
	span = plan->hosts - 1;
	if (plan->hosts > FTSW_LFT_SIZE ||
	    plan->lid + ((u64)plan->hosts << plan->lmc) - 1 > FTSW_MAX_LID) {
		*msg = "plan's LIDs run past 0xBFFF";
		return -ERANGE;
	}
	if (plan->ip4 && plan->ip4 > U32_MAX - span) {
		*msg = "plan's IPv4 addresses run past 255.255.255.255";
		return -ERANGE;
	}
	if (!ipv6_addr_any(&plan->ip6) &&
	    ntohl(plan->ip6.s6_addr32[3]) > U32_MAX - span) {
		*msg = "plan's IPv6 addresses carry out of the low 32 bits";
		return -ERANGE;
	}
	if (!ipv6_addr_any(&plan->ip6) && ipv6_addr_is_multicast(&plan->ip6)) {
		*msg = "plan's IPv6 addresses must be unicast";
		return -EINVAL;
	}
	if (plan->ip4 && (ipv4_is_multicast(htonl(plan->ip4)) ||
			  ipv4_is_multicast(htonl(plan->ip4 + span)) ||
			  ipv4_is_lbcast(htonl(plan->ip4 + span)))) {
		*msg = "plan's IPv4 addresses must be unicast";
		return -EINVAL;
	}
	return 0;
}

/* The host owning IPv4 @addr, if the plan has it. */
bool ftsw_plan_ip4(const struct ftsw_plan *plan, __be32 addr, u32 *host)
{
	u32 n;

	if (!plan || !plan->ip4)
		return false;
	n = ntohl(addr) - plan->ip4;
	if (n >= plan->hosts)
		return false;
	*host = n;
	return true;
}

/* The host owning IPv6 @addr, if the plan has it. */
bool ftsw_plan_ip6(const struct ftsw_plan *plan, const struct in6_addr *addr,
		   u32 *host)
{
	u32 n;

	if (!plan || ipv6_addr_any(&plan->ip6) ||
	    addr->s6_addr32[0] != plan->ip6.s6_addr32[0] ||
	    addr->s6_addr32[1] != plan->ip6.s6_addr32[1] ||
	    addr->s6_addr32[2] != plan->ip6.s6_addr32[2])
		return false;
	n = ntohl(addr->s6_addr32[3]) - ntohl(plan->ip6.s6_addr32[3]);
	if (n >= plan->hosts)
		return false;
	*host = n;
	return true;
}

static u16 ftsw_plan_lid(const struct ftsw_plan *plan, u32 host)
{
	return plan->lid + (host << plan->lmc);
}

/*
 * Which edge port is which host of the plan: the one netlink gave the
 * plan's base LID for it (PORT_BIND, PORT_SET), whatever LID the subnet
 * manager has set since (Documentation/sm.md). fn->hosts maps that LID to
 * the port, under fn->lock; readers look it up under RCU, and an entry is
 * erased before its port is unbound (which waits for the readers).
 */

/* Room for an entry at @lid, so that adding it later cannot fail. */
int ftsw_plan_host_reserve(struct ftsw_net *fn, u16 lid)
{
	lockdep_assert_held(&fn->lock);
	return xa_reserve(&fn->hosts, lid, GFP_KERNEL_ACCOUNT);
}

/* Edge port @p is the host whose plan LID is @lid (reserved, or there). */
void ftsw_plan_host_add(struct ftsw_port *p, u16 lid)
{
	struct ftsw_net *fn = p->sw->fn;

	lockdep_assert_held(&fn->lock);
	if (p->plan_lid && p->plan_lid != lid)
		ftsw_plan_host_del(p);
	WRITE_ONCE(p->plan_lid, lid);
	/* The slot is there: reserved, or held by another port. */
	WARN_ON_ONCE(xa_err(xa_store(&fn->hosts, lid, p, GFP_NOWAIT)));
}

/* Edge port @p leaves (unbind) or takes another plan LID. */
void ftsw_plan_host_del(struct ftsw_port *p)
{
	struct ftsw_net *fn = p->sw->fn;

	lockdep_assert_held(&fn->lock);
	if (p->plan_lid)
		xa_cmpxchg(&fn->hosts, p->plan_lid, p, NULL, 0);
}

/*
 * The base LID host @host of the plan has now (RCU read side): its edge
 * port's, which a subnet manager may have set, else the plan's rule.
 */
u16 ftsw_plan_host_lid(struct ftsw_net *fn, const struct ftsw_plan *plan,
		       u32 host)
{
	u16 lid = ftsw_plan_lid(plan, host);
	struct ftsw_port *p = xa_load(&fn->hosts, lid);
	const struct ftsw_policy *pol = p ? rcu_dereference(p->policy) : NULL;

	return pol ? pol->base_lid : lid;
}

/* The plan's index of the host whose plan LID is @lid, or U32_MAX. */
static u32 ftsw_plan_own(const struct ftsw_plan *plan, u16 lid)
{
	u32 d;

	if (!lid || lid < plan->lid)
		return U32_MAX;
	d = lid - plan->lid;
	if (d & ((1U << plan->lmc) - 1) || (d >> plan->lmc) >= plan->hosts)
		return U32_MAX;
	return d >> plan->lmc;
}

/* Publish the staged plan, if one is pending (fn->lock held). */
void ftsw_plan_commit(struct ftsw_net *fn)
{
	struct ftsw_plan *old;

	lockdep_assert_held(&fn->lock);
	if (!fn->plan_pending)
		return;
	old = rcu_replace_pointer(fn->plan, fn->plan_staged,
				  lockdep_is_held(&fn->lock));
	fn->plan_staged = NULL;
	fn->plan_pending = false;
	if (old)
		kfree_rcu(old, rcu);
}

void ftsw_plan_discard(struct ftsw_net *fn)
{
	lockdep_assert_held(&fn->lock);
	kfree(fn->plan_staged);
	fn->plan_staged = NULL;
	fn->plan_pending = false;
}

/* Remove both plans (fabric reset, namespace exit). */
void ftsw_plan_flush(struct ftsw_net *fn)
{
	struct ftsw_plan *old;

	lockdep_assert_held(&fn->lock);
	ftsw_plan_discard(fn);
	old = rcu_replace_pointer(fn->plan, NULL, lockdep_is_held(&fn->lock));
	if (old)
		kfree_rcu(old, rcu);
}

/* ---------------------------------------------------------------- frames */

/* The Ethernet/IPv4 ARP packet (RFC 826). */
struct ftsw_arp {
	struct arphdr h;
	u8 sha[ETH_ALEN];
	u8 sip[4];
	u8 tha[ETH_ALEN];
	u8 tip[4];
} __packed;

/* Where the request came from: its L3 offset and VLAN, for the reply. */
struct ftsw_req {
	unsigned int off;	/* L3 header offset from skb->data */
	__be16 vlan_proto;	/* 0: untagged */
	u16 vlan_tci;
	const struct ftsw_plan *plan;
	u32 own;		/* the plan's index of the port's host */
};

static struct sk_buff *ftsw_reply_alloc(const struct ftsw_req *rq,
					unsigned int len, __be16 proto,
					const u8 *dst, const u8 *src)
{
	struct sk_buff *nskb;
	struct ethhdr *eth;

	nskb = alloc_skb(NET_SKB_PAD + NET_IP_ALIGN + ETH_HLEN + len,
			 GFP_ATOMIC);
	if (!nskb)
		return NULL;
	skb_reserve(nskb, NET_SKB_PAD + NET_IP_ALIGN);
	eth = skb_put(nskb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, dst);
	ether_addr_copy(eth->h_source, src);
	eth->h_proto = proto;
	skb_reset_mac_header(nskb);
	skb_set_network_header(nskb, ETH_HLEN);
	nskb->protocol = proto;
	if (rq->vlan_proto)
		__vlan_hwaccel_put_tag(nskb, rq->vlan_proto, rq->vlan_tci);
	skb_put_zero(nskb, len);
	return nskb;
}

/*
 * The MAC of the host owning an asked address into mac: found tells the
 * plan has the address, host its owner. False after counting why not: an
 * address outside the plan, or the asker's own (an RFC 5227 probe or a
 * DAD of it: nobody else has it).
 */
static bool ftsw_owner_mac(struct ftsw_port *in, const struct ftsw_req *rq,
			   bool found, u32 host, u8 *mac)
{
	if (!found) {
		ftsw_port_drop(in, FTSW_DROP_NO_ADDRESS);
		return false;
	}
	if (host == rq->own) {
		ftsw_port_drop(in, FTSW_DROP_ANNOUNCE);
		return false;
	}
	ftsw_lid_to_mac(ftsw_plan_host_lid(in->sw->fn, rq->plan, host), mac);
	return true;
}

/* An ARP request: answer, or count why not. Returns the reply or NULL. */
static struct sk_buff *ftsw_arp_rx(struct ftsw_port *in, struct sk_buff *skb,
				   const struct ftsw_req *rq)
{
	const struct ftsw_arp *a;
	struct ftsw_arp *r;
	struct sk_buff *nskb;
	u8 mac[ETH_ALEN];
	__be32 tip;
	u32 host = 0;
	bool found;

	if (!pskb_may_pull(skb, rq->off + sizeof(*a))) {
		ftsw_port_drop(in, FTSW_DROP_BAD_RESOLVE);
		return NULL;
	}
	a = (const struct ftsw_arp *)(skb->data + rq->off);
	if (a->h.ar_hrd != htons(ARPHRD_ETHER) ||
	    a->h.ar_pro != htons(ETH_P_IP) || a->h.ar_hln != ETH_ALEN ||
	    a->h.ar_pln != 4 ||
	    (a->h.ar_op != htons(ARPOP_REQUEST) &&
	     a->h.ar_op != htons(ARPOP_REPLY)) ||
	    !is_valid_ether_addr(a->sha)) {
		ftsw_port_drop(in, FTSW_DROP_BAD_RESOLVE);
		return NULL;
	}
	/* Replies and announcements: the fabric knows, nobody to tell. */
	if (a->h.ar_op == htons(ARPOP_REPLY) ||
	    !memcmp(a->sip, a->tip, 4)) {
		ftsw_port_drop(in, FTSW_DROP_ANNOUNCE);
		return NULL;
	}
	memcpy(&tip, a->tip, sizeof(tip));
	found = ftsw_plan_ip4(rq->plan, tip, &host);
	if (!ftsw_owner_mac(in, rq, found, host, mac))
		return NULL;
	nskb = ftsw_reply_alloc(rq, sizeof(*r), htons(ETH_P_ARP), a->sha, mac);
	if (!nskb) {
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
		return NULL;
	}
	r = (struct ftsw_arp *)(nskb->data + ETH_HLEN);
	r->h.ar_hrd = htons(ARPHRD_ETHER);
	r->h.ar_pro = htons(ETH_P_IP);
	r->h.ar_hln = ETH_ALEN;
	r->h.ar_pln = 4;
	r->h.ar_op = htons(ARPOP_REPLY);
	ether_addr_copy(r->sha, mac);
	memcpy(r->sip, a->tip, 4);
	ether_addr_copy(r->tha, a->sha);
	memcpy(r->tip, a->sip, 4);
	return nskb;
}

/* Is this IPv6 frame a neighbour solicitation or advertisement? */
static bool ftsw_is_nd(struct sk_buff *skb, unsigned int off)
{
	const struct ipv6hdr *ip6;
	u8 type;

	if (!pskb_may_pull(skb, off + sizeof(*ip6) + 1))
		return false;
	ip6 = (const struct ipv6hdr *)(skb->data + off);
	if (ip6->nexthdr != IPPROTO_ICMPV6)
		return false;
	type = skb->data[off + sizeof(*ip6)];
	return type == NDISC_NEIGHBOUR_SOLICITATION ||
	       type == NDISC_NEIGHBOUR_ADVERTISEMENT;
}

/*
 * Walk the options of an NS (RFC 4861 4.6): every one at least 8 bytes and
 * inside the message; the source link-layer address, if any, is 8 bytes on
 * Ethernet. Returns false if malformed.
 */
static bool ftsw_nd_opts(const u8 *opt, unsigned int len, const u8 **slla)
{
	*slla = NULL;
	while (len) {
		unsigned int olen;

		if (len < 2 || !opt[1])
			return false;
		olen = opt[1] * 8;
		if (olen > len)
			return false;
		if (opt[0] == ND_OPT_SOURCE_LL_ADDR) {
			if (olen != 8)
				return false;
			*slla = opt + 2;
		}
		opt += olen;
		len -= olen;
	}
	return true;
}

/* The NA answering @target for @host (RFC 4861 4.4, 7.2.4). */
static struct sk_buff *ftsw_na_build(const struct ftsw_req *rq,
				     const struct in6_addr *target,
				     const struct in6_addr *daddr,
				     const u8 *dmac, const u8 *mac,
				     bool solicited)
{
	unsigned int plen = sizeof(struct nd_msg) + 8;
	struct sk_buff *nskb;
	struct ipv6hdr *ip6;
	struct nd_msg *na;
	u8 *opt;

	nskb = ftsw_reply_alloc(rq, sizeof(*ip6) + plen, htons(ETH_P_IPV6),
				dmac, mac);
	if (!nskb)
		return NULL;
	ip6 = (struct ipv6hdr *)(nskb->data + ETH_HLEN);
	ip6->version = 6;
	ip6->payload_len = htons(plen);
	ip6->nexthdr = IPPROTO_ICMPV6;
	ip6->hop_limit = 255;
	ip6->saddr = *target;
	ip6->daddr = *daddr;
	na = (struct nd_msg *)(ip6 + 1);
	na->icmph.icmp6_type = NDISC_NEIGHBOUR_ADVERTISEMENT;
	na->icmph.icmp6_solicited = solicited;
	na->icmph.icmp6_override = 1;
	na->target = *target;
	opt = na->opt;
	opt[0] = ND_OPT_TARGET_LL_ADDR;
	opt[1] = 1;
	ether_addr_copy(opt + 2, mac);
	na->icmph.icmp6_cksum = csum_ipv6_magic(&ip6->saddr, &ip6->daddr, plen,
						IPPROTO_ICMPV6,
						csum_partial(na, plen, 0));
	skb_set_transport_header(nskb, ETH_HLEN + sizeof(*ip6));
	return nskb;
}

/* An NS or NA from the host: answer, or count why not. */
static struct sk_buff *ftsw_nd_rx(struct ftsw_port *in, struct sk_buff *skb,
				  const struct ftsw_req *rq)
{
	static const u8 all_nodes_mac[ETH_ALEN] = {
		0x33, 0x33, 0x00, 0x00, 0x00, 0x01
	};
	unsigned int off = rq->off, plen;
	const struct ipv6hdr *ip6;
	const struct nd_msg *ns;
	struct in6_addr snm, daddr;
	struct sk_buff *nskb;
	const u8 *slla, *dmac;
	u8 mac[ETH_ALEN];
	bool dad;
	u32 host = 0;
	bool found;

	ip6 = (const struct ipv6hdr *)(skb->data + off);
	plen = ntohs(ip6->payload_len);
	if (ip6->version != 6 || plen < sizeof(*ns) ||
	    skb->len < off + sizeof(*ip6) + plen ||
	    !pskb_may_pull(skb, off + sizeof(*ip6) + plen))
		goto bad;
	ip6 = (const struct ipv6hdr *)(skb->data + off);
	ns = (const struct nd_msg *)(ip6 + 1);
	if (ip6->hop_limit != 255 || ns->icmph.icmp6_code ||
	    (skb->ip_summed != CHECKSUM_PARTIAL &&
	     csum_ipv6_magic(&ip6->saddr, &ip6->daddr, plen, IPPROTO_ICMPV6,
			     csum_partial(ns, plen, 0))))
		goto bad;
	if (ipv6_addr_is_multicast(&ns->target) ||
	    ipv6_addr_is_multicast(&ip6->saddr))
		goto bad;
	if (!ftsw_nd_opts(ns->opt, plen - sizeof(*ns), &slla))
		goto bad;
	if (ns->icmph.icmp6_type == NDISC_NEIGHBOUR_ADVERTISEMENT) {
		ftsw_port_drop(in, FTSW_DROP_ANNOUNCE);
		return NULL;
	}
	dad = ipv6_addr_any(&ip6->saddr);
	if (dad) {
		/* DAD goes to the target's solicited-node group, no SLLA. */
		addrconf_addr_solict_mult(&ns->target, &snm);
		if (!ipv6_addr_equal(&ip6->daddr, &snm) || slla)
			goto bad;
	}
	found = ftsw_plan_ip6(rq->plan, &ns->target, &host);
	if (!ftsw_owner_mac(in, rq, found, host, mac))
		return NULL;
	if (dad) {
		/* Another host's address: the owner defends it. */
		ipv6_addr_set(&daddr, htonl(0xff020000), 0, 0, htonl(1));
		dmac = all_nodes_mac;
	} else {
		daddr = ip6->saddr;
		dmac = slla ? slla :
		       ((const struct ethhdr *)skb->data)->h_source;
		if (!is_valid_ether_addr(dmac))
			goto bad;
	}
	nskb = ftsw_na_build(rq, &ns->target, &daddr, dmac, mac, !dad);
	if (!nskb)
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
	return nskb;
bad:
	ftsw_port_drop(in, FTSW_DROP_BAD_RESOLVE);
	return NULL;
}

/*
 * Look at a frame from the host behind edge port @in (skb->data at the
 * Ethernet header). Returns 0 if it is not ARP/ND: the caller forwards it.
 * Otherwise the frame is consumed (freed) and 1 returned, with *@reply
 * the answer to send back to the host, or NULL when there is none (the
 * reason counted on @in). Every ARP frame is taken, whatever its
 * destination MAC (a unicast NUD probe as well as a broadcast request), and
 * every NS and NA whose ICMPv6 header directly follows the IPv6 header.
 */
int ftsw_resolve_frame(struct ftsw_port *in, struct sk_buff *skb,
		       struct sk_buff **reply)
{
	struct ftsw_req rq = { .off = ETH_HLEN };
	__be16 proto;

	*reply = NULL;
	proto = ((const struct ethhdr *)skb->data)->h_proto;
	if (likely(proto == htons(ETH_P_IP)))
		return 0;
	if (skb_vlan_tag_present(skb)) {
		rq.vlan_proto = skb->vlan_proto;
		rq.vlan_tci = skb_vlan_tag_get(skb);
	} else if (eth_type_vlan(proto)) {
		const struct vlan_hdr *vh;

		/* A tag still in the frame: one, like the core leaves it. */
		if (!pskb_may_pull(skb, VLAN_ETH_HLEN))
			return 0;
		vh = (const struct vlan_hdr *)(skb->data + ETH_HLEN);
		rq.vlan_proto = proto;
		rq.vlan_tci = ntohs(vh->h_vlan_TCI);
		proto = vh->h_vlan_encapsulated_proto;
		rq.off = VLAN_ETH_HLEN;
	}
	if (proto != htons(ETH_P_ARP) &&
	    (proto != htons(ETH_P_IPV6) || !ftsw_is_nd(skb, rq.off)))
		return 0;
	rq.plan = rcu_dereference(in->sw->fn->plan);
	rq.own = rq.plan ? ftsw_plan_own(rq.plan, READ_ONCE(in->plan_lid)) :
		 U32_MAX;
	if (proto == htons(ETH_P_ARP))
		*reply = ftsw_arp_rx(in, skb, &rq);
	else
		*reply = ftsw_nd_rx(in, skb, &rq);
	consume_skb(skb);
	return 1;
}

static void ftsw_count_resolved(struct ftsw_port *p)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.resolved++;
	u64_stats_update_end(&s->syncp);
}

/*
 * The edge port's hook: true if @skb was ARP/ND and is consumed. A reply
 * goes straight back to the host on the port's own device; it is counted
 * as `resolved`, not as forwarded traffic (rx/tx, tx per VL).
 */
bool ftsw_resolve(struct ftsw_port *in, struct sk_buff *skb)
{
	struct sk_buff *reply;

	if (!ftsw_resolve_frame(in, skb, &reply))
		return false;
	if (!reply)
		return true;
	reply->dev = in->dev;
	if (dev_queue_xmit(reply) != NET_XMIT_SUCCESS) {
		ftsw_port_drop(in, FTSW_DROP_TX_ERROR);
		return true;
	}
	ftsw_count_resolved(in);
	return true;
}
