/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the attribute policy of each netlink command (nl_policy.c),
 * sized to its maxattr.
 */
#ifndef _FTSW_NL_POLICY_H
#define _FTSW_NL_POLICY_H

#include <net/netlink.h>
#include "ftsw.h"

extern const struct nla_policy ftsw_fabric_set_policy[FTSW_ATTR_CC_TIMER_NS + 1];
extern const struct nla_policy ftsw_switch_set_policy[FTSW_ATTR_SWITCH_INBAND_SM + 1];
extern const struct nla_policy ftsw_switch_new_policy[FTSW_ATTR_SWITCH_INBAND_SM + 1];
extern const struct nla_policy ftsw_switch_policy[FTSW_ATTR_SWITCH_ID + 1];
extern const struct nla_policy ftsw_port_bind_policy[FTSW_ATTR_PORT_CA_GUID + 1];
extern const struct nla_policy ftsw_port_set_policy[FTSW_ATTR_PORT_MCAST + 1];
extern const struct nla_policy ftsw_port_policy[FTSW_ATTR_PORT_NUM + 1];
extern const struct nla_policy ftsw_lft_set_policy[FTSW_ATTR_LFT_DATA + 1];
extern const struct nla_policy ftsw_lft_get_policy[FTSW_ATTR_LFT_STAGED + 1];
extern const struct nla_policy ftsw_sl2vl_set_policy[FTSW_ATTR_SL2VL + 1];
extern const struct nla_policy ftsw_ar_set_policy[FTSW_ATTR_AR_DATA + 1];
extern const struct nla_policy ftsw_plan_set_policy[FTSW_ATTR_PLAN_LMC + 1];
extern const struct nla_policy ftsw_plan_get_policy[FTSW_ATTR_PLAN_STAGED + 1];

#endif /* _FTSW_NL_POLICY_H */
