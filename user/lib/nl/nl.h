/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw netlink client for the "ftsw" generic netlink family
 * (include/uapi/linux/ftsw.h, Documentation/netlink.md). One typed function
 * per command. Functions return 0 or a negative errno; ftsw_nl_error() then
 * gives the kernel's extack message (and the attribute at fault) or the
 * libnl error.
 */
#ifndef FTSW_NL_H
#define FTSW_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ftsw.h>

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

struct ftsw_nl;

/* Open a client in the caller's network namespace. NULL + errno on error. */
struct ftsw_nl *ftsw_nl_open(void);
void ftsw_nl_close(struct ftsw_nl *nl);
const char *ftsw_nl_error(const struct ftsw_nl *nl);
/*
 * The errno of the last call (positive: the kernel's reply, or ENOMEM, EIO
 * on the client's side), 0 when it succeeded.
 */
int ftsw_nl_errno(const struct ftsw_nl *nl);

struct ftsw_fabric_info {
	uint64_t generation;
	uint32_t nswitches;
	uint32_t nports;
	uint32_t max_switches;
	uint16_t max_lid;
	uint8_t max_ports;
	uint8_t hop_limit;
	uint64_t lft_bytes;
	uint64_t drops[FTSW_DROP_MAX + 1];
	bool lossless;		/* lossless mode (nl_lossless.c) */
	uint64_t flowlet_ns;	/* adaptive routing's flowlet gap (nl_cm.c) */
	uint32_t cc_timer_ns;	/* CCTI_Timer's unit, ns (nl_cm.c) */
};

int ftsw_nl_fabric_get(struct ftsw_nl *nl, struct ftsw_fabric_info *fi);
int ftsw_nl_fabric_set_hop_limit(struct ftsw_nl *nl, uint8_t hop_limit);
int ftsw_nl_fabric_reset(struct ftsw_nl *nl);

struct ftsw_switch_info {
	uint32_t id;
	uint64_t guid;		/* 0 on new: the kernel uses the id */
	char name[FTSW_NAME_MAX];
	uint8_t nports;
	uint16_t lid;		/* 0: none */
	uint32_t nbound;
	uint32_t lft_size;
	bool staged;
	uint8_t sl2vl[FTSW_NUM_SL];
	uint8_t life;		/* switch lifetime (lossless mode) */
	bool inband_sm;		/* an in-band SM drives its port states */
};

int ftsw_nl_switch_new(struct ftsw_nl *nl, const struct ftsw_switch_info *si);
int ftsw_nl_switch_del(struct ftsw_nl *nl, uint32_t id);
int ftsw_nl_switch_get(struct ftsw_nl *nl, uint32_t id,
		       struct ftsw_switch_info *si);
typedef int (*ftsw_switch_cb)(const struct ftsw_switch_info *si, void *arg);
int ftsw_nl_switch_dump(struct ftsw_nl *nl, ftsw_switch_cb cb, void *arg);
/* Who drives the switch's port states: an in-band SM, or ftsw (false). */
int ftsw_nl_switch_set_inband_sm(struct ftsw_nl *nl, uint32_t sw, bool on);
/* "down", "init", "armed", "active" (enum ftsw_port_state), or "-". */
const char *ftsw_port_state_name(int state);

struct ftsw_port_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_vl[FTSW_NUM_VL];
	uint64_t drops[FTSW_DROP_MAX + 1];
	uint64_t resolved;	/* ARP/ND replies the edge port sent */
	uint64_t ar_diverted;	/* sent here by adaptive routing, not the LFT */
	uint64_t out_of_order;	/* edge: delivered after a later packet of
				 * the same source */
	/* congestion control (Documentation/congestion.md) */
	uint64_t cc_fecn;	/* packets it marked with FECN */
	uint64_t cc_cnp;	/* edge: notifications its CA returned */
	uint64_t cc_becn;	/* edge: notifications its CA received */
	uint64_t cc_held;	/* edge: host packets held by their delay */
};

/*
 * Lossless mode (Documentation/netlink.md, "Lossless mode"): one data VL's
 * state at a port, and the port's settings. Sizes in bytes, times in ns.
 */
struct ftsw_vl_stats {
	bool present;		/* the kernel reported this VL */
	uint32_t in_bytes, in_packets;	/* input buffer occupancy */
	uint32_t out_bytes, out_packets;	/* output queue occupancy */
	uint32_t credits;	/* 64-byte blocks the peer's buffer takes */
	uint64_t in_wait_ns;	/* input heads blocked on a full output */
	uint64_t out_wait_ns;	/* output heads waiting for credit */
	uint64_t hoq_discards, life_discards;
	uint8_t head_port, head_vl;	/* the input head waits for (0: none) */
	uint64_t head_wait_ns;	/* since when */
	uint64_t out_credit_wait_ns;	/* the output head's wait so far */
};

struct ftsw_port_ll {
	bool present;		/* the reply carried the settings */
	uint64_t rate;		/* bit/s */
	uint32_t in_buf, out_buf;	/* bytes per VL */
	uint8_t hoq_life, vl_high_limit;
	uint8_t vlarb_high[FTSW_VLARB_CAP][2], vlarb_low[FTSW_VLARB_CAP][2];
	uint8_t nvlarb_high, nvlarb_low;	/* entries reported */
	bool has_vl;		/* vl[] holds the kernel's per-VL state */
	struct ftsw_vl_stats vl[FTSW_NUM_DATA_VL];
};

/*
 * A port's partitions (Documentation/sm.md, "Partitions"): its P_KeyTable
 * and enforcement (PortInfo's bits); an edge port's CA's table and the
 * P_Key its host sends with: pkey_table[DLID] (0: none), else pkey_dflt,
 * else the CA's entry 0.
 */
struct ftsw_port_pkeys {
	bool present;		/* the reply carried them */
	uint16_t pkeys[FTSW_PKEY_CAP];
	uint8_t enforce;	/* FTSW_ENFORCE_IN | FTSW_ENFORCE_OUT */
	bool has_ca;		/* edge: the fields below */
	uint16_t ca_pkeys[FTSW_PKEY_CAP];
	uint16_t pkey_dflt;
	uint32_t pkey_table_len;	/* 0: no table */
	bool pkey_table_shown;	/* the entries up to the last non-zero */
	uint16_t pkey_table_n;
	uint16_t pkey_table[FTSW_PKEY_TABLE_ECHO];
};

/*
 * An agent's management key (Documentation/sm.md, "Management keys"): the
 * PortInfo registers an SM keys it with, as the next SMP finds them.
 */
struct ftsw_port_mkey {
	bool present;		/* the reply carried them */
	uint64_t key;		/* M_Key, 0: none */
	uint8_t protect;	/* M_KeyProtectBits 0..3 */
	uint16_t lease;		/* M_KeyLeasePeriod, s (0: none) */
	uint32_t lease_left_ms;	/* the lease timer runs (0: it does not) */
	uint16_t violations;	/* M_KeyViolations */
};

struct ftsw_port_info {
	uint32_t switch_id;
	uint8_t port;
	uint32_t ifindex;
	char ifname[16];
	uint8_t kind;		/* enum ftsw_port_kind */
	bool admin_up;
	bool oper_up;
	bool edge;		/* the endpoint fields below are valid */
	uint16_t base_lid;
	uint8_t lmc;
	uint8_t sl;
	uint8_t n_offsets;
	uint8_t offsets[FTSW_MAX_OFFSETS];
	/* edge: the SL table's length (0: none) and, when the kernel echoes
	 * it, its entries up to the last that differs from sl (past them: sl) */
	uint32_t sl_table_len;
	bool sl_table_shown;
	uint16_t sl_table_n;
	uint8_t sl_table[FTSW_SL_TABLE_ECHO];
	uint8_t reason;		/* events: enum ftsw_port_reason */
	bool patch;		/* a patch cable's end: the peer fields */
	uint32_t peer_switch;
	uint8_t peer_port;
	char node_desc[64];	/* edge: the CA's NodeDescription, or "" */
	uint64_t ca_guid;	/* edge: the CA's node GUID */
	uint8_t state;		/* enum ftsw_port_state (get), 0: not sent */
	bool has_stats;
	struct ftsw_port_stats stats;
	struct ftsw_port_ll ll;	/* lossless settings and per-VL state */
	struct ftsw_port_pkeys pk;	/* partitions */
	/* edge: the host's multicast groups (sm.md, "Multicast") */
	uint32_t mcast_n;
	struct ftsw_mcast_ent mcast[FTSW_MCAST_MAX];
	struct ftsw_port_mkey mkey;	/* the switch's agent */
	struct ftsw_port_mkey ca_mkey;	/* edge: the CA's agent */
};

/* A bind or set request. Fields at -1 (or n_offsets 0) are left out. */
struct ftsw_port_cfg {
	uint32_t switch_id;
	uint8_t port;
	uint32_t ifindex;	/* bind */
	uint8_t kind;		/* bind */
	int64_t peer_switch;	/* bind a patch cable to it (-1: a device) */
	uint8_t peer_port;
	int admin_up;
	int base_lid;
	int lmc;
	int sl;
	int n_offsets;
	uint8_t offsets[FTSW_MAX_OFFSETS];
	const uint8_t *sl_table;	/* with sl_table_len, if non-NULL */
	uint32_t sl_table_len;
	const char *node_desc;	/* edge: the CA's NodeDescription, if set */
	uint64_t ca_guid;	/* edge: the CA's node GUID, if non-zero */
	int state;		/* set only: enum ftsw_port_state (-1: none) */
	/* set only: lossless settings (-1: left as they are) */
	int64_t rate;		/* bit/s */
	int64_t in_buf, out_buf;	/* bytes per VL */
	int hoq_life, vl_high_limit;
	int nvlarb_high, nvlarb_low;	/* entries (-1: unchanged) */
	uint8_t vlarb_high[FTSW_VLARB_CAP][2], vlarb_low[FTSW_VLARB_CAP][2];
	/* set only: partitions (-1 or NULL: left as they are) */
	int pkey;		/* edge: the host's default P_Key, 0: CA's entry 0 */
	const uint16_t *pkey_table;	/* edge: with pkey_table_len entries */
	uint32_t pkey_table_len;
	const uint16_t *pkeys;	/* FTSW_PKEY_CAP entries: the port's table */
	const uint16_t *ca_pkeys;	/* edge: the CA's table */
	int enforce;		/* FTSW_ENFORCE_IN | FTSW_ENFORCE_OUT */
	/* set only: edge, the host's multicast groups (NULL: left as they
	 * are; mcast_n 0 with a non-NULL mcast: none) */
	const struct ftsw_mcast_ent *mcast;
	uint32_t mcast_n;
};

void ftsw_port_cfg_init(struct ftsw_port_cfg *c);
int ftsw_nl_port_bind(struct ftsw_nl *nl, const struct ftsw_port_cfg *c);
int ftsw_nl_port_set(struct ftsw_nl *nl, const struct ftsw_port_cfg *c);
int ftsw_nl_port_unbind(struct ftsw_nl *nl, uint32_t sw, uint8_t port);
/* Zero a bound port's counters (its drops stay in the fabric's total). */
int ftsw_nl_port_clear(struct ftsw_nl *nl, uint32_t sw, uint8_t port);
int ftsw_nl_port_get(struct ftsw_nl *nl, uint32_t sw, uint8_t port,
		     struct ftsw_port_info *pi);
typedef int (*ftsw_port_cb)(const struct ftsw_port_info *pi, void *arg);
/* @sw < 0: every switch. */
int ftsw_nl_port_dump(struct ftsw_nl *nl, int64_t sw, ftsw_port_cb cb,
		      void *arg);

/* Write @len entries from @first into the switch's staged LFT. */
int ftsw_nl_lft_set(struct ftsw_nl *nl, uint32_t sw, uint16_t first,
		    const uint8_t *ports, uint32_t len);
/* Entries per request of ftsw_nl_lft_upload(): a netlink-sized block. */
#define FTSW_NL_LFT_BLOCK	0x4000
/*
 * Write entries [@first, @end) of @lft (indexed by LID; from FTSW_LFT_SIZE
 * on they are dropped) into the switch's staged LFT, one request per
 * FTSW_NL_LFT_BLOCK entries. On failure *@at (if not NULL) is the first LID
 * of the block refused.
 */
int ftsw_nl_lft_upload(struct ftsw_nl *nl, uint32_t sw, const uint8_t *lft,
		       size_t first, size_t end, size_t *at);
/*
 * Read a switch's whole LFT (active, or the staged view) into
 * @table[FTSW_LFT_SIZE]; entries past the table's size read as no route.
 */
int ftsw_nl_lft_get(struct ftsw_nl *nl, uint32_t sw, bool staged,
		    uint8_t *table, uint32_t *size, bool *has_staged);
int ftsw_nl_lft_discard(struct ftsw_nl *nl, int64_t sw);
int ftsw_nl_sl2vl_set(struct ftsw_nl *nl, uint32_t sw,
		      const uint8_t vl[FTSW_NUM_SL]);
int ftsw_nl_commit(struct ftsw_nl *nl, uint64_t *generation);

/*
 * The address plan: host n < hosts owns base LID lid + (n << lmc), IPv4
 * ip4 + n and IPv6 ip6 + n (low 32 bits); ip4 in network order, 0 and ::
 * for none. hosts 0 is "no plan". Staged; ftsw_nl_commit() publishes it.
 */
struct ftsw_plan_info {
	uint32_t hosts;
	uint16_t lid;
	uint8_t lmc;
	uint32_t ip4;
	uint8_t ip6[16];
	bool staged;		/* get: the reply is the pending staged plan */
};

int ftsw_nl_plan_set(struct ftsw_nl *nl, const struct ftsw_plan_info *p);
/* The active plan, or with @staged the staged view (as for LFTs). */
int ftsw_nl_plan_get(struct ftsw_nl *nl, bool staged, struct ftsw_plan_info *p);

/* Events (multicast group "events"). */
struct ftsw_event {
	uint8_t cmd;		/* FTSW_CMD_PORT_EVENT or FTSW_CMD_COMMIT_EVENT */
	uint64_t generation;
	struct ftsw_port_info port;
};

typedef int (*ftsw_event_cb)(const struct ftsw_event *ev, void *arg);
int ftsw_nl_subscribe(struct ftsw_nl *nl);
int ftsw_nl_event_fd(const struct ftsw_nl *nl);
/* Receive pending events; the callback returns non-zero to stop. */
int ftsw_nl_event_recv(struct ftsw_nl *nl, ftsw_event_cb cb, void *arg);

/* Lossless mode (nl_lossless.c). Only while no port is bound. */
int ftsw_nl_fabric_set_lossless(struct ftsw_nl *nl, bool on);
/* A switch's lifetime: 4.096 us * 2^life, 20..31 none. */
int ftsw_nl_switch_set_life(struct ftsw_nl *nl, uint32_t sw, uint8_t life);
/* InfiniBand's lifetime encoding in ns (0 for 20..31: infinite). */
uint64_t ftsw_life_ns(uint8_t life);

/*
 * Adaptive routing (nl_cm.c; Documentation/congestion.md, netlink.md): a
 * switch's groups as the kernel holds them. sets[k - 1] is port set k
 * (1..nsets; bit p % 8 of byte p / 8 is port p); grp[lid] the set of
 * lid's group, 0 for none (the LFT's port alone). About 57 KiB.
 */
struct ftsw_ar_table {
	uint16_t nsets;
	uint8_t sets[FTSW_AR_SETS_MAX][FTSW_AR_SET_BYTES];
	uint32_t size;		/* get: LIDs the kernel's table holds */
	bool staged;		/* get: the staged view was a staged table */
	uint8_t grp[FTSW_LFT_SIZE];
};

/*
 * Stage groups of switch @sw: its port sets (when @nsets >= 0: all of
 * them replaced by @sets[0..nsets)) and @len groups from LID @first (when
 * @grp). ftsw_nl_commit() publishes them with the LFTs.
 */
int ftsw_nl_ar_set(struct ftsw_nl *nl, uint32_t sw,
		   const uint8_t (*sets)[FTSW_AR_SET_BYTES], int nsets,
		   uint16_t first, const uint8_t *grp, uint32_t len);
/* Stage @t's sets, then its groups of LIDs [0, @end), block by block. */
int ftsw_nl_ar_upload(struct ftsw_nl *nl, uint32_t sw,
		      const struct ftsw_ar_table *t, size_t end, size_t *at);
/* A switch's groups: the active table, or with @staged the staged view. */
int ftsw_nl_ar_get(struct ftsw_nl *nl, uint32_t sw, bool staged,
		   struct ftsw_ar_table *t);
/* The ports of set @set of @t, ascending, into ports[255]; their count. */
unsigned ftsw_ar_table_ports(const struct ftsw_ar_table *t, uint16_t set,
			     uint8_t *ports);
/* The fabric's flowlet gap (0: adaptive routing chooses per packet). */
int ftsw_nl_fabric_set_flowlet(struct ftsw_nl *nl, uint64_t gap_ns);
/* The length of CCTI_Timer's unit, 1..FTSW_CC_TIMER_NS_MAX ns. */
int ftsw_nl_fabric_set_cc_timer(struct ftsw_nl *nl, uint32_t unit_ns);

const char *ftsw_drop_name(int reason);
const char *ftsw_reason_name(int reason);
const char *ftsw_kind_name(int kind);

#pragma GCC visibility pop

#endif
