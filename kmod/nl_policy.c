// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the per-command netlink attribute policies, compiled into both
 * ftsw.ko and the KUnit module (which checks what they reject).
 *
 * Each command has its own policy, sized to the highest attribute it takes
 * (its maxattr): the core validates requests strictly against it, so an
 * attribute a command does not take is refused before the handler runs
 * ("Unsupported attribute" or "Unknown attribute type", with its offset).
 * Commands that take nothing have no policy: the core then refuses every
 * attribute. Documentation/netlink/specs/ftsw.yaml describes the same.
 */
#include <linux/kernel.h>
#include <net/netlink.h>
#include "nl_policy.h"

static struct netlink_range_validation ftsw_lid_range = {
	.min = 1,
	.max = FTSW_MAX_LID,
};

static struct netlink_range_validation ftsw_lid0_range = {
	.min = 0,
	.max = FTSW_MAX_LID,
};

static struct netlink_range_validation ftsw_ifindex_range = {
	.min = 1,
	.max = INT_MAX,
};

static struct netlink_range_validation ftsw_rate_range = {
	.min = FTSW_RATE_MIN,
	.max = FTSW_RATE_MAX,
};

static struct netlink_range_validation ftsw_buf_range = {
	.min = FTSW_BUF_MIN,
	.max = FTSW_BUF_MAX,
};

static struct netlink_range_validation ftsw_cc_timer_range = {
	.min = 1,
	.max = FTSW_CC_TIMER_NS_MAX,
};

/* One definition per attribute, shared by the commands that take it. */
#define FTSW_P_SWITCH_ID \
	[FTSW_ATTR_SWITCH_ID]		= { .type = NLA_U32 }
#define FTSW_P_PORT_NUM \
	[FTSW_ATTR_PORT_NUM]		= NLA_POLICY_RANGE(NLA_U8, 1, \
							   FTSW_MAX_PORTS)
#define FTSW_P_ADMIN_UP \
	[FTSW_ATTR_PORT_ADMIN_UP]	= NLA_POLICY_MAX(NLA_U8, 1)
#define FTSW_P_EDGE \
	[FTSW_ATTR_PORT_BASE_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16, \
							&ftsw_lid_range), \
	[FTSW_ATTR_PORT_LMC]		= NLA_POLICY_MAX(NLA_U8, FTSW_MAX_LMC), \
	[FTSW_ATTR_PORT_OFFSETS]	= NLA_POLICY_RANGE(NLA_BINARY, 1, \
							   FTSW_MAX_OFFSETS), \
	[FTSW_ATTR_PORT_SL]		= NLA_POLICY_MAX(NLA_U8, \
							 FTSW_NUM_SL - 1), \
	[FTSW_ATTR_PORT_SL_TABLE]	= { .type = NLA_BINARY, \
					    .len = FTSW_LFT_SIZE }
#define FTSW_P_CA \
	[FTSW_ATTR_PORT_NODE_DESC]	= { .type = NLA_NUL_STRING, \
					    .len = FTSW_DESC_MAX - 1 }, \
	[FTSW_ATTR_PORT_CA_GUID]	= { .type = NLA_U64 }

#define FTSW_P_INBAND_SM \
	[FTSW_ATTR_SWITCH_INBAND_SM]	= NLA_POLICY_MAX(NLA_U8, 1)

/* FABRIC_SET */
const struct nla_policy ftsw_fabric_set_policy[FTSW_ATTR_CC_TIMER_NS + 1] = {
	[FTSW_ATTR_HOP_LIMIT]		= NLA_POLICY_MIN(NLA_U8, 1),
	[FTSW_ATTR_LOSSLESS]		= NLA_POLICY_MAX(NLA_U8, 1),
	[FTSW_ATTR_AR_FLOWLET_NS]	= { .type = NLA_U64 },
	[FTSW_ATTR_CC_TIMER_NS]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_cc_timer_range),
};

/* SWITCH_SET */
const struct nla_policy ftsw_switch_set_policy[FTSW_ATTR_SWITCH_INBAND_SM + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_SWITCH_LIFE]		= NLA_POLICY_MAX(NLA_U8, FTSW_LIFE_MAX),
	FTSW_P_INBAND_SM,
};

/* SWITCH_NEW */
const struct nla_policy ftsw_switch_new_policy[FTSW_ATTR_SWITCH_INBAND_SM + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_SWITCH_GUID]		= { .type = NLA_U64 },
	[FTSW_ATTR_SWITCH_NAME]		= { .type = NLA_NUL_STRING,
					    .len = FTSW_NAME_MAX - 1 },
	[FTSW_ATTR_SWITCH_NPORTS]	= NLA_POLICY_RANGE(NLA_U8, 1,
							   FTSW_MAX_PORTS),
	[FTSW_ATTR_SWITCH_LID]		= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid_range),
	FTSW_P_INBAND_SM,
};

/* SWITCH_DEL, SWITCH_GET, SL2VL_GET, LFT_DISCARD: one switch (or a filter). */
const struct nla_policy ftsw_switch_policy[FTSW_ATTR_SWITCH_ID + 1] = {
	FTSW_P_SWITCH_ID,
};

/* PORT_BIND */
const struct nla_policy ftsw_port_bind_policy[FTSW_ATTR_PORT_CA_GUID + 1] = {
	FTSW_P_SWITCH_ID,
	FTSW_P_PORT_NUM,
	[FTSW_ATTR_PORT_IFINDEX]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_ifindex_range),
	[FTSW_ATTR_PORT_KIND]		= NLA_POLICY_RANGE(NLA_U8, FTSW_PORT_LINK,
							   FTSW_PORT_EDGE),
	FTSW_P_ADMIN_UP,
	FTSW_P_EDGE,
	[FTSW_ATTR_PORT_PEER_SWITCH]	= { .type = NLA_U32 },
	[FTSW_ATTR_PORT_PEER_NUM]	= NLA_POLICY_RANGE(NLA_U8, 1,
							   FTSW_MAX_PORTS),
	FTSW_P_CA,
};

/* PORT_SET */
const struct nla_policy ftsw_port_set_policy[FTSW_ATTR_PORT_MCAST + 1] = {
	FTSW_P_SWITCH_ID,
	FTSW_P_PORT_NUM,
	FTSW_P_ADMIN_UP,
	FTSW_P_EDGE,
	FTSW_P_CA,
	[FTSW_ATTR_PORT_RATE]		= NLA_POLICY_FULL_RANGE(NLA_U64,
							&ftsw_rate_range),
	[FTSW_ATTR_PORT_IN_BUF]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_buf_range),
	[FTSW_ATTR_PORT_OUT_BUF]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_buf_range),
	[FTSW_ATTR_PORT_HOQ_LIFE]	= NLA_POLICY_MAX(NLA_U8, FTSW_LIFE_MAX),
	[FTSW_ATTR_PORT_VL_HIGH_LIMIT]	= { .type = NLA_U8 },
	[FTSW_ATTR_PORT_VLARB_HIGH]	= { .type = NLA_BINARY,
					    .len = 2 * FTSW_VLARB_CAP },
	[FTSW_ATTR_PORT_VLARB_LOW]	= { .type = NLA_BINARY,
					    .len = 2 * FTSW_VLARB_CAP },
	[FTSW_ATTR_PORT_STATE]		= NLA_POLICY_RANGE(NLA_U8,
							   FTSW_PORT_STATE_DOWN,
							   FTSW_PORT_STATE_ACTIVE),
	[FTSW_ATTR_PORT_PKEY]		= { .type = NLA_U16 },
	[FTSW_ATTR_PORT_PKEY_TABLE]	= { .type = NLA_BINARY,
					    .len = 2 * FTSW_PKEY_TABLE_MAX },
	[FTSW_ATTR_PORT_PKEYS]		= { .type = NLA_BINARY,
					    .len = 2 * FTSW_PKEY_CAP },
	[FTSW_ATTR_PORT_CA_PKEYS]	= { .type = NLA_BINARY,
					    .len = 2 * FTSW_PKEY_CAP },
	[FTSW_ATTR_PORT_ENFORCE]	= NLA_POLICY_MAX(NLA_U8,
							 FTSW_ENFORCE_IN |
							 FTSW_ENFORCE_OUT),
	[FTSW_ATTR_PORT_MCAST]		= { .type = NLA_BINARY,
					    .len = FTSW_MCAST_MAX *
						   sizeof(struct ftsw_mcast_ent) },
};

/* PORT_UNBIND, PORT_GET, PORT_CLEAR: one port (or a filter). */
const struct nla_policy ftsw_port_policy[FTSW_ATTR_PORT_NUM + 1] = {
	FTSW_P_SWITCH_ID,
	FTSW_P_PORT_NUM,
};

/* LFT_SET */
const struct nla_policy ftsw_lft_set_policy[FTSW_ATTR_LFT_DATA + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_LFT_FIRST_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid0_range),
	[FTSW_ATTR_LFT_DATA]		= { .type = NLA_BINARY,
					    .len = FTSW_LFT_SIZE },
};

/* LFT_GET */
const struct nla_policy ftsw_lft_get_policy[FTSW_ATTR_LFT_STAGED + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_LFT_STAGED]		= { .type = NLA_FLAG },
};

/* AR_SET */
const struct nla_policy ftsw_ar_set_policy[FTSW_ATTR_AR_DATA + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_LFT_FIRST_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid0_range),
	[FTSW_ATTR_AR_SETS]		= { .type = NLA_BINARY,
					    .len = FTSW_AR_SETS_MAX *
						   FTSW_AR_SET_BYTES },
	/* not NLA_POLICY_RANGE: its s16 bounds cannot hold 49152 */
	[FTSW_ATTR_AR_DATA]		= { .type = NLA_BINARY,
					    .len = FTSW_LFT_SIZE },
};

/* PLAN_SET: the plan's rule (nl_plan.c) */
const struct nla_policy ftsw_plan_set_policy[FTSW_ATTR_PLAN_LMC + 1] = {
	[FTSW_ATTR_PLAN_HOSTS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_lid0_range),
	[FTSW_ATTR_PLAN_IP4]	= NLA_POLICY_EXACT_LEN(4),
	[FTSW_ATTR_PLAN_IP6]	= NLA_POLICY_EXACT_LEN(16),
	[FTSW_ATTR_PLAN_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid_range),
	[FTSW_ATTR_PLAN_LMC]	= NLA_POLICY_MAX(NLA_U8, FTSW_MAX_LMC),
};

/* PLAN_GET */
const struct nla_policy ftsw_plan_get_policy[FTSW_ATTR_PLAN_STAGED + 1] = {
	[FTSW_ATTR_PLAN_STAGED]	= { .type = NLA_FLAG },
};

/* SL2VL_SET */
const struct nla_policy ftsw_sl2vl_set_policy[FTSW_ATTR_SL2VL + 1] = {
	FTSW_P_SWITCH_ID,
	[FTSW_ATTR_SL2VL]		= NLA_POLICY_EXACT_LEN(FTSW_NUM_SL),
};
