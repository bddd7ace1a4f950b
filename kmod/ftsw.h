/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the module's model, which every file and the KUnit suites share:
 * the fabric of a namespace, its switches and ports, the tables and
 * policies they publish, the agents' registers and lossless mode's
 * queues; and the accessors the control path reads them with. Each file's
 * functions are declared in its own header (fabric.h, rx.h, ...), which
 * includes this one. Documentation/design.md maps the files.
 */
#ifndef _FTSW_KMOD_H
#define _FTSW_KMOD_H

#include <linux/netdevice.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include <linux/u64_stats_sync.h>
#include <linux/rcupdate.h>
#include <linux/in6.h>
#include <linux/llist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/hrtimer.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>
#include <net/netns/generic.h>
/*
 * get_unaligned_be16() and friends: <asm/unaligned.h> up to 6.11,
 * <linux/unaligned.h> since; <linux/etherdevice.h> includes the one its
 * kernel has (sparse knows no __has_include).
 */
#include <linux/etherdevice.h>
#include <linux/ftsw.h>

#define FTSW_NOTICE_LEN		64	/* a Notice attribute (SMP data) */

/*
 * A compact linear forwarding table: one byte per LID, the output port.
 * Only LIDs 0..size-1 are held; every LID past the end has no route.
 * Published with RCU; never written once published.
 */
struct ftsw_lft {
	struct rcu_head rcu;
	struct llist_node retired;	/* replaced by an SMP (sma.c) */
	u32 size;
	u8 *port;		/* size entries, allocator-sized */
	unsigned long *set;	/* staged: the entries netlink wrote */
};

/* Events a port counts beside its traffic and drops (stats.c). */
enum ftsw_ev {
	FTSW_EV_AR_DIVERTED,	/* sent by adaptive routing, not the LFT */
	FTSW_EV_OUT_OF_ORDER,	/* edge: after a later packet of its source */
	FTSW_EV_CC_FECN,	/* marked with FECN going out (cc.c) */
	FTSW_EV_CC_CNP,		/* edge: a notification its CA returned */
	FTSW_EV_CC_BECN,	/* edge: a notification its CA received */
	FTSW_EV_CC_HELD,	/* edge: a host packet held by its delay */
	FTSW_EV_MAX,
};

/* The counters of one port. */
struct ftsw_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_vl[FTSW_NUM_VL];
	u64 drops[FTSW_DROP_MAX + 1];
	u64 resolved;		/* ARP/ND replies sent (resolve.c) */
	u64 ev[FTSW_EV_MAX];
};

/* One CPU's share of them. */
struct ftsw_pcpu_stats {
	struct ftsw_stats c;
	struct u64_stats_sync syncp;
};

/*
 * The path policy of an edge port (the host channel adapter): the host's
 * LID range and how its outgoing packets pick the DLID offset and the SL.
 * Replaced as a whole with RCU.
 */
struct ftsw_policy {
	struct rcu_head rcu;
	struct llist_node retired;	/* replaced by an SMP (sma.c) */
	u16 base_lid;
	u8 lmc;
	u8 default_sl;
	u8 n_offsets;
	u8 offsets[FTSW_MAX_OFFSETS];
	u32 sl_len;
	u8 sl[];		/* SL by DLID, sl_len entries */
};

/*
 * The fabric's address plan (resolve.c): host n < hosts owns base LID
 * lid + (n << lmc), IPv4 ip4 + n and IPv6 ip6 + n. Published with RCU on
 * commit, never written once published.
 */
struct ftsw_plan {
	struct rcu_head rcu;
	struct llist_node retired;	/* replaced by an SMP (sma.c) */
	u32 hosts;
	u32 ip4;		/* host order; 0: no IPv4 */
	struct in6_addr ip6;	/* :: = no IPv6 */
	u16 lid;
	u8 lmc;
};

/*
 * A switch's adaptive routing groups (ar.c; Documentation/congestion.md):
 * per LID 0 (the LFT's port alone) or the number of one of its port sets,
 * 1..nsets. Published with RCU at commit beside the LFT, never written
 * once published.
 */
struct ftsw_ar {
	struct rcu_head rcu;
	u32 size;		/* LIDs held: past it, no group */
	u16 nsets;
	u8 *grp;		/* size entries */
	unsigned long (*sets)[BITS_TO_LONGS(256)];	/* [0] unused */
	struct ftsw_flowlet *flow;	/* FTSW_FLOWLET_SLOTS, sw->ll_lock */
};

/* Flowlets (ar.c): a switch's last choice per flow. */
struct ftsw_flowlet {
	u64 last;		/* ns: its last packet was switched */
	u32 key;		/* SLID << 16 ^ DLID of the flow holding it */
	u8 port;		/* 0: empty */
};

#define FTSW_FLOWLET_SLOTS	256

struct ftsw_switch;

/*
 * PortState (IBA vol. 1, 14.2.5.6, 7.2): a port passes subnet management
 * packets (SMPs, VL15) in Init, Armed and Active; other packets enter
 * only in Armed or Active and leave only in Active.
 */
#define FTSW_PS_DOWN		FTSW_PORT_STATE_DOWN
#define FTSW_PS_INIT		FTSW_PORT_STATE_INIT
#define FTSW_PS_ARMED		FTSW_PORT_STATE_ARMED
#define FTSW_PS_ACTIVE		FTSW_PORT_STATE_ACTIVE

/* PortPhysicalState (IBA vol. 1, 14.2.5.6). */
#define FTSW_PHYS_POLLING	2
#define FTSW_PHYS_DISABLED	3

/* Capacities the agents report (Documentation/sm.md). */
#define FTSW_MFT_CAP		256	/* multicast LIDs 0xC000.. stored */
#define FTSW_MFT_GROUPS		16	/* port groups of 16: ports 0..255 */
#define FTSW_DESC_MAX		64	/* NodeDescription */

/*
 * What the subnet manager writes into one InfiniBand port through PortInfo
 * and VLArbitrationTable (sma.c). Under fn->sma_lock.
 */
struct ftsw_ibport {
	u8 state;		/* logical state while the link is up */
	u8 mtu;			/* NeighborMTU */
	u8 opvls;		/* OperationalVLs */
	u8 hoq;			/* VLStallCount << 5 | HOQLife */
	u8 vl_high_limit;
	u8 width_en;
	u8 speed_en;
	u8 enforce;		/* switch port: FTSW_ENFORCE_IN | _OUT */
	u8 vlarb[2][FTSW_VLARB_CAP][2];	/* low, high: VL, weight */
};

/*
 * The P_Key an edge port's host sends with, by DLID (pkey.c): the key of
 * DLID d is key[d] for d < len when not 0, else dflt, else the CA's
 * P_KeyTable entry 0. Set by netlink, replaced as a whole with RCU.
 */
struct ftsw_pkey_tab {
	struct rcu_head rcu;
	u16 dflt;
	u32 len;
	u16 key[];
};

/*
 * An edge port's host's IP multicast groups and their MLIDs (mcast.c), set
 * by netlink, replaced as a whole with RCU.
 */
struct ftsw_mcast_tab {
	struct rcu_head rcu;
	u32 n;
	struct ftsw_mcast_ent e[];
};

/*
 * A switch's MulticastForwardingTable (the SM's, sma.c): per multicast LID
 * FTSW_MLID_BASE + i, the port mask of ports 16 * g .. 16 * g + 15 in
 * mask[i][g], bit p for port 16 * g + p. Written under fn->sma_lock with
 * WRITE_ONCE, read by the data path under RCU (freed after a grace).
 */
struct ftsw_mft {
	struct rcu_head rcu;
	u16 mask[FTSW_MFT_CAP][FTSW_MFT_GROUPS];
};

/* A management port's registers: switch port 0, or a CA's port. */
struct ftsw_mgmt {
	u64 prefix;		/* GID prefix, big endian value */
	u16 sm_lid;		/* MasterSMLID */
	u8 sm_sl;
	u8 subnet_to;		/* SubnetTimeOut */
	u8 resp_time;		/* RespTimeValue */
	u32 cap_local;		/* a CA's CapabilityMask bits its host set */
	u16 pkey[FTSW_PKEY_CAP];
	/* Management key (IBA vol. 1, 14.2.4; mkey.c), under fn->sma_lock */
	u64 mkey;		/* M_Key (0: none, every SMP passes) */
	u8 mkey_prot;		/* M_KeyProtectBits */
	u16 mkey_lease;		/* M_KeyLeasePeriod, seconds (0: forever) */
	u16 mkey_violations;	/* M_KeyViolations, saturating */
	bool mkey_timing;	/* the lease timer runs ... */
	unsigned long mkey_end;	/* ... until then (jiffies) */
};

/*
 * Congestion control (cc.c; IBA vol. 1, Annex A10; Documentation/
 * congestion.md): a CC agent's registers, on every switch (port 0) and
 * every CA. Settings under fn->sma_lock, read by the data path with
 * READ_ONCE; the logs under the switch's ll_lock.
 */
#define FTSW_CC_SLS		16
#define FTSW_CC_CCT_BLOCKS	2	/* ControlTableCap: 64 entries each */
#define FTSW_CC_CCT_CAP		(FTSW_CC_CCT_BLOCKS * 64)
#define FTSW_CC_LOG_SW		15	/* events a switch's log holds */
#define FTSW_CC_LOG_CA		13	/* a CA's */
#define FTSW_CC_TIMER_NS	FTSW_CC_TIMER_NS_DEFAULT /* IBA: 1.024 us */

/* CongestionKeyInfo: the CC_Key and its protection. */
struct ftsw_cc_key {
	u64 key;
	unsigned long lease_end;	/* jiffies; 0: the lease does not run */
	u16 lease;			/* CC_KeyLeasePeriod, s; 0: forever */
	u16 violations;			/* CC_KeyViolations */
	bool protect;			/* CC_KeyProtectBit */
};

/* One CongestionLog event (switch: a mark; CA: a BECN at the trigger). */
struct ftsw_cc_event {
	u32 ts;			/* Timestamp, 1.024 us units */
	u16 slid, dlid;		/* CA: remote LID, local LID */
	u8 sl;
};

/* A CongestionLog: a ring of the latest events, cleared when read. */
struct ftsw_cc_log {
	u16 count;		/* LogEventsCounter / ThresholdEventCounter */
	u16 sl_map;		/* CA: ThresholdCongestionEventMap */
	u8 next;		/* where the next event goes */
	u8 n;			/* events held */
	DECLARE_BITMAP(ports, 256);	/* switch: PortMap */
	struct ftsw_cc_event ev[FTSW_CC_LOG_SW];
};

/* SwitchPortCongestionSetting's element for one switch port. */
struct ftsw_cc_port {
	bool valid;		/* these settings replace the switch's */
	u8 control_type;	/* 0 congestion, 1 credit starvation */
	u8 threshold;
	u8 packet_size;
	u16 marking_rate;
};

/* A switch's CC agent: port 0's key, SwitchCongestionSetting, log. */
struct ftsw_cc_sw {
	struct ftsw_cc_key key;
	u32 control_map;
	u8 victim[32];		/* 256-bit port masks, big endian: */
	u8 credit[32];		/* byte 31 bit 0 is port 0 */
	u8 threshold;
	u8 packet_size;		/* 64-byte blocks */
	u8 cs_threshold;
	u16 cs_delay;		/* CS_ReturnDelay: shift << 14 | multiplier */
	u16 marking_rate;
	struct ftsw_cc_port port0;
	struct ftsw_cc_log log;
};

/*
 * A source's throttled unit (Documentation/congestion.md, "Throttling"):
 * one per SL, or per flow (a destination LID, hashed into the table: two
 * destinations may share one). Edge ports' lossless state, sw->ll_lock.
 */
struct ftsw_cc_unit {
	u64 timer_at;		/* ns: the CCTI timer's next expiry */
	u64 next_send;		/* ns: earliest start of its next packet */
	u16 ccti;		/* the CCT index */
	bool timer_on;
};

#define FTSW_CC_UNITS		64

/* CACongestionSetting's entry for one SL. */
struct ftsw_cc_sl {
	u16 timer;		/* CCTI_Timer, 1.024 us units */
	u8 increase;		/* CCTI_Increase */
	u8 trigger;		/* Trigger_Threshold */
	u8 min;			/* CCTI_Min */
};

/* A CA's CC agent: its key, CACongestionSetting, table and log. */
struct ftsw_cc_ca {
	struct ftsw_cc_key key;
	u16 port_control;	/* bit 0: one CCTI per SL */
	u16 control_map;	/* SLs whose entries a Set wrote */
	struct ftsw_cc_sl sl[FTSW_CC_SLS];
	u16 cct_limit;		/* CCTI_Limit */
	u16 cct[FTSW_CC_CCT_CAP];	/* CCT_Shift << 14 | CCT_Multiplier */
	struct ftsw_cc_log log;
};

/* The channel adapter an edge port answers for (its host's). */
struct ftsw_ca {
	struct ftsw_ibport ib;
	struct ftsw_mgmt mgmt;
	u8 sl2vl[FTSW_NUM_SL];
	u64 guid;			/* 0: derived from the switch */
	char desc[FTSW_DESC_MAX];	/* "": derived from the switch */
	struct ftsw_stats pma_base;	/* counters at the last PMA reset */
	struct ftsw_cc_ca cc;		/* its CC agent (cc.c) */
};

/* Lossless mode (ll_arb.c): a port's VL arbitration table, as the SMA's. */
struct ftsw_arb_cfg {
	u8 ent[2][FTSW_VLARB_CAP][2];	/* low, high: VL, weight */
	u8 limit;			/* VLHighLimit */
};

/* Where the arbitration stands. */
struct ftsw_arb {
	u8 idx[2];		/* current entry of each table */
	u32 used[2];		/* blocks it sent */
	u32 high_bytes;		/* high-priority bytes since a low packet */
	u8 rr;			/* round robin: last VL served */
};

/* One data VL of a port in lossless mode; under sw->ll_lock. */
struct ftsw_ll_vl {
	struct sk_buff_head in;		/* input buffer (FIFO) */
	struct sk_buff_head out;	/* output queue (FIFO) */
	u32 in_bytes;
	u32 out_bytes;
	u32 out_blocks;		/* the output queue's, in 64-byte blocks */
	u32 rcv;		/* blocks received into the input buffer */
	u32 freed;		/* blocks that left it (read by the sender) */
	u32 sent;		/* blocks sent to the far end's buffer of this VL */
	u32 fccl;		/* far end on another machine: its credit limit */
	bool fccl_valid;
	u8 head_port;		/* the output queue the input head waits for */
	u8 head_vl;
	u8 last_in;		/* output: the input port that moved in last */
	u64 blocked_since;	/* ns, 0: the input head is not blocked */
	u64 credit_since;	/* ns, 0: the output head has credit */
	u64 in_wait_ns;
	u64 out_wait_ns;
	u64 hoq_discards;
	u16 cc_skip;		/* congestion marking: eligible to pass over */
	u64 life_discards;
	/* Input ports whose head waits for room in this output queue. */
	DECLARE_BITMAP(waiters, FTSW_MAX_PORTS + 1);
};

struct ftsw_port;

struct ftsw_ll {
	struct ftsw_port *port;
	u64 id;			/* unique: a sender resyncs on a new far end */
	u64 synced;		/* the far end the send counters follow */
	struct hrtimer timer;	/* drains the output queues (softirq) */
	spinlock_t arm_lock;	/* leaf: arming the timer */
	bool dead;
	unsigned long soon;	/* bit 0: on a CPU's list to drain (ll_queue.c) */
	bool host_stopped;	/* edge: the host's queues are stopped */
	bool credit_dirty;	/* far end on another machine: send credits */
	u16 credit_wait;	/* VLs of the far end we wait credit from */
	u16 out_mask;		/* VLs whose output queue holds packets */
	int cfg_gen;
	u64 hoq_ns;
	u64 life_ns;
	u64 busy_until;		/* ns: the link is sending until then */
	u64 credit_at;		/* ns: last credit frame sent */
	struct ftsw_arb_cfg arb_cfg;
	struct ftsw_arb arb;
	/*
	 * Arrival order under adaptive routing (ll_queue.c): an edge port
	 * numbers what its host sends (in skb->mark, across the fabric), and
	 * remembers per source the highest number it delivered.
	 */
	u32 seq;
	struct ftsw_ll_order *order;
	/* Edge: the host's congestion control units, from the first BECN. */
	struct ftsw_cc_unit *cc_units;
	struct ftsw_ll_vl vl[FTSW_NUM_DATA_VL];
};

#define FTSW_ORDER_SLOTS	256	/* sources, by SLID modulo */

struct ftsw_ll_order {
	u16 slid[FTSW_ORDER_SLOTS];
	u32 seq[FTSW_ORDER_SLOTS];
};

/*
 * A switch port: bound to a net device, or one end of a patch cable (no
 * device; @peer is the other end, in the same fabric, set before either
 * end is published and kept until both are retired).
 */
struct ftsw_port {
	struct ftsw_switch *sw;
	struct net_device *dev;		/* NULL for a patch port */
	struct ftsw_port *peer;		/* a patch port's far end */
	netdevice_tracker dev_tracker;
	u8 num;
	u8 kind;
	bool admin_up;
	bool oper_up;
	bool up;		/* admin_up && oper_up, read by the data path */
	char ifname[IFNAMSIZ];	/* dev->name, copied under RTNL + fn->lock */
	struct ftsw_policy __rcu *policy;	/* edge ports */
	u16 plan_lid;		/* edge: the base LID netlink gave (resolve.c) */
	struct ftsw_pcpu_stats __percpu *stats;
	struct ftsw_stats cleared;	/* counters at PORT_CLEAR, fn->lock */
	/* The SMA's view (sma.c), under fn->sma_lock. */
	struct ftsw_ibport ib;
	struct ftsw_stats pma_base;	/* counters at the last PMA reset */
	struct ftsw_ca ca;		/* edge ports: the host's CA */
	struct ftsw_cc_port cc;		/* SwitchPortCongestionSetting */
	/*
	 * The port's P_KeyTable, which partition enforcement checks (ib's
	 * enforce bits): written under fn->sma_lock, read by the data path
	 * with READ_ONCE, entry by entry.
	 */
	u16 pkeys[FTSW_PKEY_CAP];
	struct ftsw_pkey_tab __rcu *pkey_tab;	/* edge: the host's keys */
	struct ftsw_mcast_tab __rcu *mcast;	/* edge: the host's groups */
	/* Lossless mode (ll_queue.c): settings under fn->lock, READ_ONCE. */
	u64 rate;		/* link rate, bit/s */
	u32 in_buf;		/* input buffer per VL, bytes */
	u32 out_buf;		/* output queue per VL, bytes */
	struct ftsw_ll *ll;	/* buffers and queues, NULL in today's mode */
	u8 phys_req;		/* PortPhysicalState Set to apply, sma_lock */
	u8 phys_dev;		/* the same for its device, RTNL */
	bool phys_closed;	/* its device taken down by one, RTNL */
	struct rcu_head rcu;
};

struct ftsw_net;

struct ftsw_switch {
	struct ftsw_net *fn;
	u32 id;
	u64 guid;
	char name[FTSW_NAME_MAX];
	u16 lid;
	u8 nports;
	u8 nbound;
	u8 sl2vl[FTSW_NUM_SL];
	struct ftsw_lft __rcu *lft;
	struct ftsw_lft *staged;	/* under fn->lock */
	struct ftsw_ar __rcu *ar;	/* adaptive routing groups */
	struct ftsw_ar *ar_staged;	/* under fn->lock */
	/* The SMA's registers (sma.c), under fn->sma_lock. */
	struct ftsw_ibport ib0;		/* port 0 */
	struct ftsw_mgmt mgmt;		/* port 0 */
	u16 lft_top;			/* LinearFDBTop */
	u16 mft_top;			/* MulticastFDBTop */
	u8 life;			/* LifeTimeValue */
	bool psc;			/* PortStateChange */
	bool dead;			/* deleted: no SMP may publish a table */
	u8 def_port[3];			/* default, mcast primary, not primary */
	struct ftsw_mft __rcu *mft;	/* the MFT, NULL until an SM sets it */
	struct ftsw_cc_sw cc;		/* the CC agent's (cc.c) */
	u64 trap_tid;
	/*
	 * Trap 128 repeated until the SM represses it (trap.c): the TID
	 * waiting (0: none), the port it came from, sends so far.
	 */
	u64 trap_wait;
	unsigned long trap_due;	/* jiffies: its next send */
	u8 trap_port;
	u8 trap_sends;
	/*
	 * Trap 259 (bad P_Key at a switch port, pkey.c records it, trap.c
	 * sends it): one at a time, the first violation's details, sent
	 * again until repressed as trap 128 is; later violations meanwhile
	 * are only counted. Under fn->sma_lock.
	 */
	struct ftsw_pkey_trap {
		u64 wait;	/* TID waiting for a TrapRepress (0: none) */
		unsigned long next;	/* jiffies: its next send */
		bool due;	/* recorded, not sent yet */
		u8 sends;
		u8 port;	/* where it was seen */
		u8 sl;
		u16 lid1, lid2;	/* SLID, DLID of the packet */
		u16 pkey;
	} pkey_trap;
	/*
	 * Trap 256 (bad M_Key, mkey.c records it, trap.c sends it by
	 * mkey_work, again by trap_work until repressed): the switch's own
	 * or one of its CAs', at most one recorded per FTSW_TRAP_RATE; the
	 * Notice is built when recorded. Under fn->sma_lock.
	 */
	struct ftsw_mkey_trap {
		bool due;		/* recorded, not sent yet */
		unsigned long next;	/* jiffies: none recorded before */
		u64 wait;		/* TID waiting for a TrapRepress (0: none) */
		unsigned long resend;	/* jiffies: its next send */
		u8 sends;
		bool ca;		/* a CA's (port: its edge port) */
		u8 port;		/* the port it leaves by */
		u16 lid, sm_lid;	/* from, to */
		u8 sl;
		u8 notice[FTSW_NOTICE_LEN];
	} mkey_trap;
	struct work_struct mkey_work;
	struct delayed_work trap_work;
	/*
	 * Port states driven by an in-band subnet manager: links come up in
	 * Init. Else ftsw's control plane is the SM: they come up Active.
	 */
	bool inband;
	spinlock_t ll_lock;		/* lossless mode: its ports' queues */
	struct rcu_head rcu;
	struct ftsw_port __rcu *ports[];	/* 1..nports, [0] unused */
};

/* The fabric of one network namespace. */
struct ftsw_net {
	struct net *net;
	struct mutex lock;	/* control: switches, ports, tables */
	struct xarray switches;	/* id -> struct ftsw_switch */
	u32 nswitches;
	u32 nports;		/* bound ports */
	u64 generation;
	u32 seq;		/* bumped on every change a dump shows */
	u8 hop_limit;
	bool lossless;		/* set while no port is bound */
	atomic_t ll_gen;	/* bumped when lossless settings change */
	u64 flowlet_ns;		/* adaptive routing's flowlet gap, 0: per packet */
	u32 cc_timer_ns;	/* CCTI_Timer's unit (congestion.md), ns */
	bool ar_on;		/* a switch has groups: count arrival order */
	u64 dead_drops[FTSW_DROP_MAX + 1];	/* of unbound ports */
	struct ftsw_plan __rcu *plan;	/* active address plan */
	struct xarray hosts;	/* plan_lid -> edge port (resolve.c) */
	struct ftsw_plan *plan_staged;	/* under lock; see plan_pending */
	bool plan_pending;	/* commit publishes plan_staged (NULL: none) */
	/*
	 * In-band management (sma.c, sma_ctl.c): the agents' registers, and
	 * what an SMP's Set replaced (LFTs, policies, plans), freed by
	 * @retire_work under @lock then after a grace period: netlink reads
	 * these under @lock alone.
	 */
	spinlock_t sma_lock;
	struct llist_head retired_lft;
	struct llist_head retired_pol;
	struct llist_head retired_plan;
	struct work_struct retire_work;
	/* Applies PortPhysicalState Sets (fabric.c): RTNL, then fn->lock. */
	struct work_struct phys_work;
	/* KUnit: takes the MAD frames the edge ports deliver to hosts. */
	void (*mad_tap)(struct ftsw_port *p, struct sk_buff *skb);
};

/* The logical state a port of @sw takes when its link comes up. */
static inline u8 ftsw_ps_linkup(const struct ftsw_switch *sw)
{
	return sw->inband ? FTSW_PS_INIT : FTSW_PS_ACTIVE;
}

/* May data leave by a port in @ib's state (Active)? */
static inline bool ftsw_ps_sends(const struct ftsw_ibport *ib)
{
	return READ_ONCE(ib->state) == FTSW_PS_ACTIVE;
}

/* May data enter by a port in @ib's state (Armed or Active)? */
static inline bool ftsw_ps_takes(const struct ftsw_ibport *ib)
{
	u8 st = READ_ONCE(ib->state);

	return st == FTSW_PS_ARMED || st == FTSW_PS_ACTIVE;
}

/*
 * Frames one CPU leaves for rx.c to deliver once a lock is dropped or a
 * walk ends (ll_queue.c's sent frames, forward.c's multicast copies), in
 * the order they were added; bottom halves off, so a per-CPU list needs no
 * lock.
 */
struct ftsw_skb_list {
	struct sk_buff *head, *tail;
};

static inline void ftsw_skb_list_add(struct ftsw_skb_list *l,
				     struct sk_buff *skb)
{
	skb->next = NULL;
	if (l->tail)
		l->tail->next = skb;
	else
		l->head = skb;
	l->tail = skb;
}

/* The first frame of @l, taken off it; NULL: none. */
static inline struct sk_buff *ftsw_skb_list_pop(struct ftsw_skb_list *l)
{
	struct sk_buff *skb = l->head;

	if (!skb)
		return NULL;
	l->head = skb->next;
	if (!l->head)
		l->tail = NULL;
	skb_mark_not_on_list(skb);
	return skb;
}

/* The fabric of @net (fabric.c registers the per-namespace state). */
extern unsigned int ftsw_net_id;

static inline struct ftsw_net *ftsw_net(const struct net *net)
{
	return net_generic(net, ftsw_net_id);
}

/*
 * Something a dump shows changed: dumps in progress get NLM_F_DUMP_INTR on
 * their next message. Never 0, the value the netlink core treats as unset.
 */
static inline void ftsw_changed(struct ftsw_net *fn)
{
	lockdep_assert_held(&fn->lock);
	fn->seq++;
	if (!fn->seq)
		fn->seq = 1;
}

static inline struct ftsw_switch *ftsw_switch_find(struct ftsw_net *fn, u32 id)
{
	lockdep_assert_held(&fn->lock);
	return xa_load(&fn->switches, id);
}

/* A bound port of @sw, under fn->lock; NULL if none. */
static inline struct ftsw_port *ftsw_port_get(struct ftsw_switch *sw, u8 num)
{
	if (!num || num > sw->nports)
		return NULL;
	return rcu_dereference_protected(sw->ports[num],
					 lockdep_is_held(&sw->fn->lock));
}

/*
 * The rx handler of every bound device (rx.c): a device whose rx_handler
 * it is belongs to a port of ftsw's, found in rx_handler_data. Declared
 * here, not in rx.h, for the files below rx.c that tell a far end of
 * ftsw's from another (lossless mode's peer, the SMA's link partner):
 * they compare the address, they never call it.
 */
rx_handler_result_t ftsw_handle_frame(struct sk_buff **pskb);

static inline struct ftsw_port *ftsw_port_rcu(const struct net_device *dev)
{
	return rcu_dereference(dev->rx_handler_data);
}

#endif /* _FTSW_KMOD_H */
