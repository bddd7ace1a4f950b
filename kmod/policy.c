// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the netlink attribute policy, compiled into both ftsw.ko and the
 * KUnit module (which checks what it rejects).
 */
#include <linux/kernel.h>
#include <net/netlink.h>
#include "ftsw.h"

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

#define FTSW_OUT_ONLY { .type = NLA_REJECT, \
			.reject_message = "output-only attribute" }

const struct nla_policy ftsw_nl_policy[FTSW_ATTR_MAX + 1] = {
	[FTSW_ATTR_PAD]			= FTSW_OUT_ONLY,
	[FTSW_ATTR_GENERATION]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_SWITCH_COUNT]	= FTSW_OUT_ONLY,
	[FTSW_ATTR_PORT_COUNT]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_MAX_SWITCHES]	= FTSW_OUT_ONLY,
	[FTSW_ATTR_MAX_LID]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_MAX_PORTS]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_HOP_LIMIT]		= NLA_POLICY_MIN(NLA_U8, 1),
	[FTSW_ATTR_SWITCH_ID]		= { .type = NLA_U32 },
	[FTSW_ATTR_SWITCH_GUID]		= { .type = NLA_U64 },
	[FTSW_ATTR_SWITCH_NAME]		= { .type = NLA_NUL_STRING,
					    .len = FTSW_NAME_MAX - 1 },
	[FTSW_ATTR_SWITCH_NPORTS]	= NLA_POLICY_RANGE(NLA_U8, 1,
							   FTSW_MAX_PORTS),
	[FTSW_ATTR_SWITCH_LID]		= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid_range),
	[FTSW_ATTR_SWITCH_STAGED]	= FTSW_OUT_ONLY,
	[FTSW_ATTR_PORT_NUM]		= NLA_POLICY_RANGE(NLA_U8, 1,
							   FTSW_MAX_PORTS),
	[FTSW_ATTR_PORT_IFINDEX]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftsw_ifindex_range),
	[FTSW_ATTR_PORT_IFNAME]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_PORT_KIND]		= NLA_POLICY_RANGE(NLA_U8, FTSW_PORT_LINK,
							   FTSW_PORT_EDGE),
	[FTSW_ATTR_PORT_ADMIN_UP]	= NLA_POLICY_MAX(NLA_U8, 1),
	[FTSW_ATTR_PORT_OPER_UP]	= FTSW_OUT_ONLY,
	[FTSW_ATTR_PORT_BASE_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid_range),
	[FTSW_ATTR_PORT_LMC]		= NLA_POLICY_MAX(NLA_U8, FTSW_MAX_LMC),
	[FTSW_ATTR_PORT_OFFSETS]	= NLA_POLICY_RANGE(NLA_BINARY, 1,
							   FTSW_MAX_OFFSETS),
	[FTSW_ATTR_PORT_SL]		= NLA_POLICY_MAX(NLA_U8,
							 FTSW_NUM_SL - 1),
	[FTSW_ATTR_PORT_SL_TABLE]	= { .type = NLA_BINARY,
					    .len = FTSW_LFT_SIZE },
	[FTSW_ATTR_PORT_STATS]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_PORT_REASON]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_LFT_FIRST_LID]	= NLA_POLICY_FULL_RANGE(NLA_U16,
							&ftsw_lid0_range),
	[FTSW_ATTR_LFT_DATA]		= { .type = NLA_BINARY,
					    .len = FTSW_LFT_SIZE },
	[FTSW_ATTR_LFT_STAGED]		= { .type = NLA_FLAG },
	[FTSW_ATTR_LFT_SIZE]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_SL2VL]		= NLA_POLICY_EXACT_LEN(FTSW_NUM_SL),
	[FTSW_ATTR_DROPS]		= FTSW_OUT_ONLY,
	[FTSW_ATTR_LFT_BYTES]		= FTSW_OUT_ONLY,
};
