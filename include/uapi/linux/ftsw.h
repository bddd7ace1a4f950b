/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ftsw: an emulated InfiniBand-style fat-tree switch fabric.
 *
 * The one UAPI shared by kmod/ftsw.ko and userspace (libftsw). See
 * Documentation/netlink.md for the commands and attributes and
 * Documentation/datapath.md for the fabric header and forwarding.
 */
#ifndef _UAPI_LINUX_FTSW_H
#define _UAPI_LINUX_FTSW_H

#include <linux/types.h>

#define FTSW_GENL_NAME		"ftsw"
#define FTSW_GENL_VERSION	1
#define FTSW_MCGRP_EVENTS	"events"

/* Fabric header ethertype (IEEE 802 local experimental 1). */
#define FTSW_ETH_P		0x88B5

/* Limits. */
#define FTSW_MAX_LID		0xBFFF	/* unicast LIDs are 1..0xBFFF */
#define FTSW_LFT_SIZE		(FTSW_MAX_LID + 1)
#define FTSW_MAX_PORTS		254	/* switch ports are 1..254 */
#define FTSW_NO_ROUTE		255	/* LFT entry: no route */
#define FTSW_MAX_LMC		7
#define FTSW_MAX_OFFSETS	(1 << FTSW_MAX_LMC)
#define FTSW_NUM_SL		16
/*
 * A port reply echoes an edge port's SL table up to its last entry that
 * differs from PORT_SL when that is at most this many entries.
 */
#define FTSW_SL_TABLE_ECHO	512
/* The same for the P_Key table by DLID (16-bit entries). */
#define FTSW_PKEY_TABLE_ECHO	256
/* The most entries of that table (DLIDs 0..32764): one attribute's room. */
#define FTSW_PKEY_TABLE_MAX	32765
#define FTSW_NUM_VL		16
#define FTSW_MAX_SWITCHES	16384	/* per fabric (network namespace) */
#define FTSW_NAME_MAX		32	/* switch name, including the NUL */
#define FTSW_HOP_LIMIT_DEFAULT	64

/*
 * The fabric header, inserted between the Ethernet addresses and the
 * payload: dst MAC (6) | src MAC (6) | 0x88B5 (2) | struct ftsw_hdr (10) |
 * payload. All multi-byte fields are big endian. The sl byte carries the
 * service level (bits 3..0) and the congestion notifications (IBA vol. 1,
 * annex A10: FECN set by a congested switch on the way to the
 * destination, BECN on the notification back to the source); bits 7..6
 * are reserved, zero (else the frame is dropped as malformed). pkey is the
 * partition key of the packet (IBA 10.9: bit 15 full membership, bits
 * 14..0 the partition), FTSW_PKEY_DEFAULT unless a partition is chosen.
 */
struct ftsw_hdr {
	__be16	dlid;		/* destination LID */
	__be16	slid;		/* source LID */
	__u8	sl;		/* SL (3..0), FECN (4), BECN (5), zero (7..6) */
	__u8	hops;		/* link hops taken so far */
	__be16	pkey;		/* partition key */
	__be16	proto;		/* encapsulated ethertype */
};

#define FTSW_HLEN		10	/* sizeof(struct ftsw_hdr) */
#define FTSW_SL_MASK		0x0f
#define FTSW_HDR_FECN		0x10
#define FTSW_HDR_BECN		0x20
#define FTSW_HDR_RSVD		0xc0	/* reserved bits of the sl byte */

/* Partition keys (IBA vol. 1, 10.9). */
#define FTSW_PKEY_DEFAULT	0xFFFF	/* the default partition, full */
#define FTSW_PKEY_FULL		0x8000	/* membership: full (else limited) */
#define FTSW_PKEY_BASE		0x7FFF	/* the partition's 15 bits */
#define FTSW_PKEY_CAP		32	/* entries of a P_KeyTable (one block) */
/* FTSW_ATTR_PORT_ENFORCE: PortInfo's PartitionEnforcementInbound/Outbound. */
#define FTSW_ENFORCE_IN		0x1
#define FTSW_ENFORCE_OUT	0x2

/*
 * Multicast (Documentation/sm.md, "Multicast"). A frame whose DLID is a
 * multicast LID is replicated by each switch to the ports its
 * MulticastForwardingTable names for it (the SM's), never back out the
 * port it came in by. A host's IP multicast goes to the MLID its edge
 * port's FTSW_ATTR_PORT_MCAST names for the IP group (the SA's
 * MCMemberRecord): entries of struct ftsw_mcast_ent, the group as an IPv6
 * address (IPv4 groups mapped, ::ffff:a.b.c.d; the IPv4 broadcast
 * ::ffff:255.255.255.255), at most FTSW_MCAST_MAX per port.
 */
#define FTSW_MLID_BASE		0xC000	/* multicast LIDs 0xC000..0xFFFE */
#define FTSW_MLID_MAX		0xFFFE
#define FTSW_MCAST_MAX		64

struct ftsw_mcast_ent {
	__u8	group[16];	/* IPv6 or IPv4-mapped group */
	__be16	mlid;		/* FTSW_MLID_BASE..FTSW_MLID_MAX */
	__be16	pkey;		/* the group's P_Key */
	__u8	sl;		/* 0..15 */
	__u8	pad[3];		/* zero */
};

/*
 * In-band management (Documentation/sm.md). A management datagram (MAD)
 * between a host and its edge port travels as an Ethernet frame of its own
 * ethertype (IEEE 802 local experimental 2):
 *
 *   dst MAC (6) | src MAC (6) | 0x88B6 (2) | struct ftsw_mad_hdr (16) |
 *   MAD (256: the InfiniBand MAD, common MAD header + data, big endian)
 *
 * The edge port is the host's channel adapter (CA, one port, port 1): it
 * answers SMPs and PMA MADs for the CA itself; every other MAD it receives
 * from the fabric (responses, SMInfo, SA class 0x03, traps, vendor
 * classes...) goes to the host in such a frame.
 *
 * Host to edge port: dlid is the destination LID of a LID-routed MAD
 * (ignored for a directed-route SMP, class 0x81, which follows its path);
 * slid is ignored (the port fills in its base LID, 0xFFFF while it has
 * none); dqpn and sqpn are FTSW_MAD_QP_SMI (QP0: SMPs, on VL15) or
 * FTSW_MAD_QP_GSI (QP1: every other class); sl the service level of a
 * GMP; pkey FTSW_MAD_PKEY_DEFAULT; flags zero. The MACs are not looked at.
 * A directed-route SMP with hop count 0 is answered by the port's own CA
 * agent: that is how a host learns its port's NodeInfo, PortInfo and GUID.
 *
 * Edge port to host: dlid, slid, sl and sqpn are those of the MAD as it
 * was received (reply to slid and sqpn, as to a umad's address); dst MAC
 * ff:ff:ff:ff:ff:ff, src MAC the fabric's 02:66:74:00:ff:ff.
 *
 * Inside the fabric a MAD rides behind the fabric header with proto
 * FTSW_ETH_P_MAD: dst MAC | src MAC | 0x88B5 | struct ftsw_hdr |
 * struct ftsw_mad_hdr | MAD. The fabric header's dlid is the LID the frame
 * is routed to (0xFFFF on a directed-route hop, which goes out the port its
 * path names); the hop limit applies as to any frame.
 *
 * Frames failing these rules are dropped and counted (FTSW_DROP_BAD_MAD,
 * FTSW_DROP_BAD_DR, FTSW_DROP_MAD_SINK).
 */
#define FTSW_ETH_P_MAD		0x88B6
#define FTSW_MAD_HLEN		16	/* sizeof(struct ftsw_mad_hdr) */
#define FTSW_MAD_SIZE		256	/* the MAD after it */
#define FTSW_MAD_QP_SMI		0	/* QP0: subnet management (SMPs) */
#define FTSW_MAD_QP_GSI		1	/* QP1: general services (GMPs) */
#define FTSW_MAD_PKEY_DEFAULT	0xFFFF
/*
 * The host's local interface to its CA: a vendor SMP attribute the CA
 * agent takes only from its own host, directed route with hop count 0:
 * the CapabilityMask bits the host's software sets (IsSM 0x2, IsSMdisabled
 * 0x400), big endian in the first 4 data bytes (Documentation/sm.md).
 */
#define FTSW_ATTR_LOCAL_CAP	0xFF10
#define FTSW_LID_PERMISSIVE	0xFFFF

struct ftsw_mad_hdr {
	__be16	dlid;		/* destination LID (LRH) */
	__be16	slid;		/* source LID (LRH) */
	__be32	dqpn;		/* destination QP: 0 SMI, 1 GSI */
	__be32	sqpn;		/* source QP: 0 SMI, 1 GSI */
	__u8	sl;		/* service level 0..15 (SMPs: 0) */
	__u8	flags;		/* reserved, zero */
	__be16	pkey;		/* partition key, 0xFFFF */
};

/*
 * Host MAC addresses name LIDs: 02:66:74:00:<LID high>:<LID low>
 * ("\x02ft\0" + base LID).
 */
#define FTSW_MAC_PREFIX0	0x02
#define FTSW_MAC_PREFIX1	0x66
#define FTSW_MAC_PREFIX2	0x74
#define FTSW_MAC_PREFIX3	0x00

/* The host MAC address that names LID @lid. */
static inline void ftsw_lid_to_mac(__u16 lid, __u8 *mac)
{
	mac[0] = FTSW_MAC_PREFIX0;
	mac[1] = FTSW_MAC_PREFIX1;
	mac[2] = FTSW_MAC_PREFIX2;
	mac[3] = FTSW_MAC_PREFIX3;
	mac[4] = lid >> 8;
	mac[5] = lid & 0xff;
}

/* The unicast LID (1..FTSW_MAX_LID) @mac names into *@lid: 1, else 0. */
static inline int ftsw_mac_to_lid(const __u8 *mac, __u16 *lid)
{
	__u16 l;

	if (mac[0] != FTSW_MAC_PREFIX0 || mac[1] != FTSW_MAC_PREFIX1 ||
	    mac[2] != FTSW_MAC_PREFIX2 || mac[3] != FTSW_MAC_PREFIX3)
		return 0;
	l = (__u16)(mac[4] << 8 | mac[5]);
	if (!l || l > FTSW_MAX_LID)
		return 0;
	*lid = l;
	return 1;
}

/*
 * The address plan (FTSW_CMD_PLAN_SET, staged and committed with the
 * LFTs): host n (0 <= n < PLAN_HOSTS) owns base LID PLAN_LID + (n << PLAN_LMC),
 * IPv4 address PLAN_IP4 + n and IPv6 address PLAN_IP6 + n (added to the low
 * 32 bits). Edge ports answer their host's ARP requests and neighbour
 * solicitations for these addresses with the owner's MAC.
 */

enum ftsw_cmd {
	FTSW_CMD_UNSPEC,
	FTSW_CMD_FABRIC_GET,	/* generation, counts, limits, drops */
	FTSW_CMD_FABRIC_SET,	/* hop limit */
	FTSW_CMD_FABRIC_RESET,	/* flush every switch of this netns */
	FTSW_CMD_SWITCH_NEW,
	FTSW_CMD_SWITCH_DEL,
	FTSW_CMD_SWITCH_GET,	/* doit or dump */
	FTSW_CMD_PORT_BIND,
	FTSW_CMD_PORT_UNBIND,
	FTSW_CMD_PORT_SET,	/* admin state, port state, edge path policy */
	FTSW_CMD_PORT_GET,	/* doit or dump, with counters */
	FTSW_CMD_LFT_SET,	/* write a block into the staged LFT */
	FTSW_CMD_LFT_GET,	/* dump the active or staged LFT */
	FTSW_CMD_LFT_DISCARD,	/* drop staged tables (one switch or all) */
	FTSW_CMD_SL2VL_SET,
	FTSW_CMD_SL2VL_GET,	/* doit or dump */
	FTSW_CMD_COMMIT,	/* publish every staged LFT */
	FTSW_CMD_PORT_EVENT,	/* notification: port state change */
	FTSW_CMD_COMMIT_EVENT,	/* notification: commit */
	FTSW_CMD_PORT_CLEAR,	/* zero a port's counters */
	FTSW_CMD_PLAN_SET,	/* stage the address plan */
	FTSW_CMD_PLAN_GET,	/* the active or staged address plan */
	FTSW_CMD_SWITCH_SET,	/* switch lifetime */
	FTSW_CMD_AR_SET,	/* stage adaptive routing groups */
	FTSW_CMD_AR_GET,	/* dump the active or staged groups */
	__FTSW_CMD_MAX,
};
#define FTSW_CMD_MAX (__FTSW_CMD_MAX - 1)

enum ftsw_attr {
	FTSW_ATTR_UNSPEC,
	FTSW_ATTR_PAD,
	FTSW_ATTR_GENERATION,		/* u64, out */
	FTSW_ATTR_SWITCH_COUNT,		/* u32, out */
	FTSW_ATTR_PORT_COUNT,		/* u32, out: bound ports */
	FTSW_ATTR_MAX_SWITCHES,		/* u32, out */
	FTSW_ATTR_MAX_LID,		/* u16, out */
	FTSW_ATTR_MAX_PORTS,		/* u8, out */
	FTSW_ATTR_HOP_LIMIT,		/* u8, 1..255 */
	FTSW_ATTR_SWITCH_ID,		/* u32 */
	FTSW_ATTR_SWITCH_GUID,		/* u64 */
	FTSW_ATTR_SWITCH_NAME,		/* string, < FTSW_NAME_MAX */
	FTSW_ATTR_SWITCH_NPORTS,	/* u8, 1..254 */
	FTSW_ATTR_SWITCH_LID,		/* u16, 1..0xBFFF */
	FTSW_ATTR_SWITCH_STAGED,	/* flag, out: staged LFT pending */
	FTSW_ATTR_PORT_NUM,		/* u8, 1..254 */
	FTSW_ATTR_PORT_IFINDEX,		/* u32 */
	FTSW_ATTR_PORT_IFNAME,		/* string, out */
	FTSW_ATTR_PORT_KIND,		/* u8, enum ftsw_port_kind */
	FTSW_ATTR_PORT_ADMIN_UP,	/* u8, 0 or 1 */
	FTSW_ATTR_PORT_OPER_UP,		/* u8, out: device carrier */
	FTSW_ATTR_PORT_BASE_LID,	/* u16, edge: host base LID */
	FTSW_ATTR_PORT_LMC,		/* u8, edge: 0..7 */
	FTSW_ATTR_PORT_OFFSETS,		/* binary u8[], edge: allowed offsets */
	FTSW_ATTR_PORT_SL,		/* u8, edge: default SL 0..15 */
	FTSW_ATTR_PORT_SL_TABLE,	/* binary u8[], edge: SL by DLID */
	FTSW_ATTR_PORT_STATS,		/* nest, out: enum ftsw_stats_attr */
	FTSW_ATTR_PORT_REASON,		/* u8, event: enum ftsw_port_reason */
	FTSW_ATTR_LFT_FIRST_LID,	/* u16, 0..0xBFFF */
	FTSW_ATTR_LFT_DATA,		/* binary u8[], output ports */
	FTSW_ATTR_LFT_STAGED,		/* flag: the staged table */
	FTSW_ATTR_LFT_SIZE,		/* u32, out: entries held */
	FTSW_ATTR_SL2VL,		/* binary u8[16] */
	FTSW_ATTR_DROPS,		/* nest, out: enum ftsw_drop -> u64 */
	FTSW_ATTR_LFT_BYTES,		/* u64, out: kernel memory of LFTs */
	FTSW_ATTR_PLAN_HOSTS,		/* u32: hosts of the plan, 0 = none */
	FTSW_ATTR_PLAN_IP4,		/* binary 4, network order: host 0 */
	FTSW_ATTR_PLAN_IP6,		/* binary 16: host 0's IPv6 address */
	FTSW_ATTR_PLAN_LID,		/* u16: base LID of host 0 */
	FTSW_ATTR_PLAN_LMC,		/* u8: host n's LID = LID + (n << LMC) */
	FTSW_ATTR_PLAN_STAGED,		/* flag: the staged plan (get, out) */
	FTSW_ATTR_PORT_PEER_SWITCH,	/* u32: a patch cable's far switch */
	FTSW_ATTR_PORT_PEER_NUM,	/* u8: a patch cable's far port */
	FTSW_ATTR_PORT_NODE_DESC,	/* string < 64: edge: the CA's name */
	FTSW_ATTR_PORT_CA_GUID,		/* u64: edge: the CA's node GUID */
	/* Lossless mode (Documentation/datapath.md, "Lossless mode"). */
	FTSW_ATTR_LOSSLESS,		/* u8 0/1: fabric in lossless mode */
	FTSW_ATTR_SWITCH_LIFE,		/* u8 0..31: LifeTimeValue */
	FTSW_ATTR_PORT_RATE,		/* u64: link rate, bit/s */
	FTSW_ATTR_PORT_IN_BUF,		/* u32: input buffer per VL, bytes */
	FTSW_ATTR_PORT_OUT_BUF,		/* u32: output queue per VL, bytes */
	FTSW_ATTR_PORT_HOQ_LIFE,	/* u8 0..31: PortInfo HOQLife */
	FTSW_ATTR_PORT_VL_HIGH_LIMIT,	/* u8: PortInfo VLHighLimit */
	FTSW_ATTR_PORT_VLARB_HIGH,	/* binary: (VL, weight) u8 pairs */
	FTSW_ATTR_PORT_VLARB_LOW,	/* binary: (VL, weight) u8 pairs */
	FTSW_ATTR_PORT_VL_STATS,	/* nest, out: type VL + 1 -> vlstat */
	/* Port states (Documentation/sm.md, "Port states"). */
	FTSW_ATTR_SWITCH_INBAND_SM,	/* u8 0/1: an in-band SM drives port states */
	FTSW_ATTR_PORT_STATE,		/* u8 1..4: PortState Down..Active */
	FTSW_ATTR_PORT_SL_TABLE_LEN,	/* u32, out: entries of the SL table */
	/* Adaptive routing (Documentation/congestion.md). */
	FTSW_ATTR_AR_SETS,		/* binary: port sets, FTSW_AR_SET_BYTES each */
	FTSW_ATTR_AR_DATA,		/* binary u8[]: set per LID from LFT_FIRST_LID */
	FTSW_ATTR_AR_SIZE,		/* u32, out: LIDs the group table holds */
	FTSW_ATTR_AR_FLOWLET_NS,	/* u64: flowlet gap, 0 = per packet */
	/* Partitions (Documentation/sm.md, "Partitions"). */
	FTSW_ATTR_PORT_PKEY,		/* u16, edge: P_Key by default (0: the CA's entry 0) */
	FTSW_ATTR_PORT_PKEY_TABLE,	/* binary u16[], edge: P_Key by DLID (0: default) */
	FTSW_ATTR_PORT_PKEY_TABLE_LEN,	/* u32, out: entries of the P_Key table */
	FTSW_ATTR_PORT_PKEYS,		/* binary u16[32]: the switch port's P_KeyTable */
	FTSW_ATTR_PORT_CA_PKEYS,	/* binary u16[32], edge: the CA's P_KeyTable */
	FTSW_ATTR_PORT_ENFORCE,		/* u8: FTSW_ENFORCE_IN | FTSW_ENFORCE_OUT */
	/* Multicast (Documentation/sm.md, "Multicast"). */
	FTSW_ATTR_PORT_MCAST,		/* binary struct ftsw_mcast_ent[], edge: IP group -> MLID */
	/* Management keys (Documentation/sm.md, "Management keys"). */
	FTSW_ATTR_PORT_MKEY,		/* nest, out: the switch agent's, enum ftsw_mkey_attr */
	FTSW_ATTR_PORT_CA_MKEY,		/* nest, out, edge: the CA agent's */
	/* Congestion control (Documentation/congestion.md). */
	FTSW_ATTR_CC_TIMER_NS,		/* u32 1..FTSW_CC_TIMER_NS_MAX: CCTI_Timer's unit */
	__FTSW_ATTR_MAX,
};
#define FTSW_ATTR_MAX (__FTSW_ATTR_MAX - 1)

/* FTSW_ATTR_PORT_STATS nest. */
enum ftsw_stats_attr {
	FTSW_STATS_UNSPEC,
	FTSW_STATS_PAD,
	FTSW_STATS_RX_PACKETS,		/* u64 */
	FTSW_STATS_RX_BYTES,		/* u64 */
	FTSW_STATS_TX_PACKETS,		/* u64 */
	FTSW_STATS_TX_BYTES,		/* u64 */
	FTSW_STATS_TX_VL,		/* nest: attr type VL + 1 -> u64 packets */
	FTSW_STATS_DROPS,		/* nest: enum ftsw_drop -> u64 */
	FTSW_STATS_RESOLVED,		/* u64: ARP/ND replies the port sent */
	FTSW_STATS_AR_DIVERTED,		/* u64: sent here by adaptive routing, not the LFT */
	FTSW_STATS_OUT_OF_ORDER,	/* u64: edge: delivered after a later packet of its source */
	FTSW_STATS_CC_FECN,		/* u64: packets it marked with FECN (congestion control) */
	FTSW_STATS_CC_CNP,		/* u64: edge: notifications its CA returned for FECN */
	FTSW_STATS_CC_BECN,		/* u64: edge: notifications (BECN) its CA received */
	FTSW_STATS_CC_HELD,		/* u64: edge: host packets held by their inter-packet delay */
	__FTSW_STATS_MAX,
};
#define FTSW_STATS_MAX (__FTSW_STATS_MAX - 1)

enum ftsw_port_kind {
	FTSW_PORT_UNSPEC,
	FTSW_PORT_LINK,			/* to another switch: fabric frames */
	FTSW_PORT_EDGE,			/* to a host: encap / decap */
	__FTSW_PORT_KIND_MAX,
};
#define FTSW_PORT_KIND_MAX (__FTSW_PORT_KIND_MAX - 1)

/* FTSW_ATTR_PORT_STATE: PortState (IBA vol. 1, 14.2.5.6). */
enum ftsw_port_state {
	FTSW_PORT_STATE_UNSPEC,
	FTSW_PORT_STATE_DOWN,		/* link down; set: retrain to Init */
	FTSW_PORT_STATE_INIT,		/* only SMPs (VL15) pass */
	FTSW_PORT_STATE_ARMED,		/* SMPs pass; data in, not out */
	FTSW_PORT_STATE_ACTIVE,		/* everything passes */
	__FTSW_PORT_STATE_MAX,
};
#define FTSW_PORT_STATE_MAX (__FTSW_PORT_STATE_MAX - 1)

/* Why a port event was raised. */
enum ftsw_port_reason {
	FTSW_REASON_UNSPEC,
	FTSW_REASON_BIND,		/* port bound */
	FTSW_REASON_UNBIND,		/* port unbound by request */
	FTSW_REASON_ADMIN,		/* admin state changed */
	FTSW_REASON_CARRIER,		/* device carrier / oper state */
	FTSW_REASON_UNREGISTER,		/* device went away (unbound) */
	FTSW_REASON_RESET,		/* switch deleted or fabric reset */
	__FTSW_REASON_MAX,
};
#define FTSW_REASON_MAX (__FTSW_REASON_MAX - 1)

/* Drop reasons: counted per ingress port (and summed per fabric). */
enum ftsw_drop {
	FTSW_DROP_UNSPEC,
	FTSW_DROP_NO_ROUTE,		/* LFT entry 255, 0 or > nports */
	FTSW_DROP_PORT_DOWN,		/* in or out port down or unbound */
	FTSW_DROP_HOP_LIMIT,		/* hop count past the fabric's limit */
	FTSW_DROP_MISDELIVERED,		/* DLID not in the edge host's range */
	FTSW_DROP_MALFORMED,		/* truncated or invalid fabric header */
	FTSW_DROP_NOT_FABRIC,		/* wrong ethertype / unknown dst MAC */
	FTSW_DROP_TX_ERROR,		/* transmit failed, no memory */
	FTSW_DROP_TOO_BIG,		/* larger than the out device's MTU */
	FTSW_DROP_NO_ADDRESS,		/* ARP/NS for an address not in the plan */
	FTSW_DROP_ANNOUNCE,		/* gratuitous ARP, ARP reply, NA, own DAD */
	FTSW_DROP_BAD_RESOLVE,		/* malformed or truncated ARP/NS/NA */
	FTSW_DROP_BAD_MAD,		/* MAD frame truncated, bad version... */
	FTSW_DROP_BAD_DR,		/* directed route: bad hop pointer/path */
	FTSW_DROP_MAD_SINK,		/* MAD no agent or host takes */
	FTSW_DROP_HOQ_LIFE,		/* lossless: head of an output queue too long */
	FTSW_DROP_SWITCH_LIFE,		/* lossless: in the switch too long */
	FTSW_DROP_BAD_CREDIT,		/* malformed credit-update frame */
	FTSW_DROP_OVERFLOW,		/* lossless: input buffer full (peer ignored credits) */
	FTSW_DROP_NOT_ACTIVE,		/* data through a port not Armed/Active (in), Active (out) */
	FTSW_DROP_PKEY_IN,		/* inbound partition enforcement (PortRcvConstraintErrors) */
	FTSW_DROP_PKEY_OUT,		/* outbound, counted on the egress port (PortXmitConstraintErrors) */
	FTSW_DROP_PKEY_CA,		/* the CA's P_KeyTable refused it (P_KeyViolations) */
	__FTSW_DROP_MAX,
};
#define FTSW_DROP_MAX (__FTSW_DROP_MAX - 1)

/*
 * Lossless mode (FTSW_ATTR_LOSSLESS; Documentation/datapath.md). Every
 * port has per data VL (0..14) an input buffer and an output queue, sized
 * in bytes; flow control counts 64-byte blocks (credits): a frame of L
 * bytes from its Ethernet header on takes ceil(L / 64) blocks. Lifetimes
 * are InfiniBand's encoding: 4.096 us * 2^value, 20..31 infinite.
 */
#define FTSW_NUM_DATA_VL	15	/* VL0..14 are flow controlled */
#define FTSW_CREDIT_BYTES	64	/* one credit: a 64-byte block */
#define FTSW_BUF_MIN		64
#define FTSW_BUF_MAX		16777216	/* 16 MiB */
#define FTSW_BUF_DEFAULT	6144	/* 4 frames of MTU 1500 (24 blocks each) */
#define FTSW_RATE_MIN		1000
#define FTSW_RATE_MAX		1000000000000	/* 1 Tbit/s */
#define FTSW_RATE_DEFAULT	1000000000	/* 1 Gbit/s */
#define FTSW_LIFE_MAX		31
#define FTSW_LIFE_INFINITE	20	/* 20..31: no lifetime */
#define FTSW_LIFE_DEFAULT	18	/* 4.096 us << 18: 1.07 s */
#define FTSW_VLARB_CAP		8	/* entries of each VL arbitration table */

/*
 * Congestion control (FTSW_ATTR_CC_TIMER_NS; Documentation/congestion.md):
 * the length of CCTI_Timer's unit, IBA's 1.024 us by default, stretched
 * for a lab whose links are much slower than InfiniBand's.
 */
#define FTSW_CC_TIMER_NS_DEFAULT	1024
#define FTSW_CC_TIMER_NS_MAX		1000000000	/* 1 s */

/*
 * Adaptive routing (FTSW_CMD_AR_SET/GET; Documentation/congestion.md): a
 * switch's port sets, each FTSW_AR_SET_BYTES bytes where bit p % 8 of byte
 * p / 8 is port p (1..nports), numbered 1..n in the order given; per LID,
 * 0 (no group: the LFT's port alone) or the number of the set of ports the
 * switch may also send that LID's packets to (the LFT's port is always
 * allowed). Staged, and published with the LFTs at commit.
 */
#define FTSW_AR_SET_BYTES	32
#define FTSW_AR_SETS_MAX	255

/* FTSW_ATTR_PORT_VL_STATS: attribute type VL + 1 -> nest of these. */
enum ftsw_vlstat_attr {
	FTSW_VLSTAT_UNSPEC,
	FTSW_VLSTAT_PAD,
	FTSW_VLSTAT_IN_BYTES,		/* u32: input buffer occupancy */
	FTSW_VLSTAT_IN_PACKETS,		/* u32 */
	FTSW_VLSTAT_OUT_BYTES,		/* u32: output queue occupancy */
	FTSW_VLSTAT_OUT_PACKETS,	/* u32 */
	FTSW_VLSTAT_CREDITS,		/* u32: blocks the peer's input buffer takes now */
	FTSW_VLSTAT_IN_WAIT_NS,		/* u64: input heads blocked on a full output */
	FTSW_VLSTAT_OUT_WAIT_NS,	/* u64: output heads waiting for credit */
	FTSW_VLSTAT_HOQ_DISCARDS,	/* u64: head of output queue past HOQLife */
	FTSW_VLSTAT_LIFE_DISCARDS,	/* u64: in the switch past its lifetime */
	FTSW_VLSTAT_HEAD_PORT,		/* u8: output port the input head waits for */
	FTSW_VLSTAT_HEAD_VL,		/* u8: and its VL */
	FTSW_VLSTAT_HEAD_WAIT_NS,	/* u64: how long it has waited so far */
	FTSW_VLSTAT_OUT_CREDIT_WAIT_NS,	/* u64: the output head's wait so far */
	__FTSW_VLSTAT_MAX,
};
#define FTSW_VLSTAT_MAX (__FTSW_VLSTAT_MAX - 1)

/*
 * FTSW_ATTR_PORT_MKEY and FTSW_ATTR_PORT_CA_MKEY nests: an agent's PortInfo
 * management key registers (IBA vol. 1, 14.2.4), as the next SMP finds them.
 */
enum ftsw_mkey_attr {
	FTSW_MKEY_ATTR_UNSPEC,
	FTSW_MKEY_ATTR_PAD,
	FTSW_MKEY_ATTR_KEY,		/* u64: M_Key (0: none) */
	FTSW_MKEY_ATTR_PROTECT,		/* u8: M_KeyProtectBits 0..3 */
	FTSW_MKEY_ATTR_LEASE,		/* u16: M_KeyLeasePeriod, s (0: none) */
	FTSW_MKEY_ATTR_LEASE_LEFT,	/* u32: the lease runs: ms left */
	FTSW_MKEY_ATTR_VIOLATIONS,	/* u16: M_KeyViolations */
	__FTSW_MKEY_ATTR_MAX,
};
#define FTSW_MKEY_ATTR_MAX (__FTSW_MKEY_ATTR_MAX - 1)

/*
 * The credit-update frame of a link in lossless mode, sent where the far
 * end of a cable is not an ftsw port of this machine (VXLAN):
 *
 *   dst ff:ff:ff:ff:ff:ff | src 02:66:74:00:ff:ff | 0x88B5 |
 *   struct ftsw_hdr (dlid 0xFFFF, slid 0, sl 0, hops 0, pkey 0xFFFF,
 *   proto 0x88B5) |
 *   struct ftsw_credit_hdr | count x struct ftsw_credit_vl
 *
 * For each VL: fctbs, the blocks its sender has sent on the VL since the
 * port was bound (mod 2^32); fccl, the credit limit it grants: its peer may
 * send a frame of n blocks while (its own blocks sent + n) <= fccl (mod 2^32
 * compared as a signed difference). As InfiniBand's flow-control packet
 * (FCTBS, FCCL; IBA 7.9.4). Never forwarded; refused as FTSW_DROP_BAD_CREDIT
 * unless version 1, 1 <= count <= 15, VLs below 15, reserved zero and the
 * frame long enough for count entries.
 */
#define FTSW_PROTO_CREDIT	FTSW_ETH_P

/*
 * A congestion notification (IBA annex A10's CNP; Documentation/
 * congestion.md): the fabric header alone, proto FTSW_PROTO_CNP (not an
 * ethertype: no host frame carries it), BECN set, from the LID of a
 * packet's destination that arrived with FECN to the packet's source, on
 * the packet's SL. Forwarded by the LFTs outside the lossless queues, as
 * management datagrams are; taken by the source's edge port.
 */
#define FTSW_PROTO_CNP		0x0000
#define FTSW_CREDIT_VERSION	1

struct ftsw_credit_hdr {
	__u8	version;	/* FTSW_CREDIT_VERSION */
	__u8	count;		/* entries after it, 1..15 */
	__be16	reserved;	/* zero */
};

struct ftsw_credit_vl {
	__u8	vl;		/* 0..14 */
	__u8	reserved[3];	/* zero */
	__be32	fctbs;		/* blocks sent by the frame's sender */
	__be32	fccl;		/* credit limit granted to the receiver */
};

#endif /* _UAPI_LINUX_FTSW_H */
