/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the address plan commands (nl_plan.c).
 */
#ifndef _FTSW_NL_PLAN_H
#define _FTSW_NL_PLAN_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_plan_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_plan_get(struct sk_buff *skb, struct genl_info *info);

#endif /* _FTSW_NL_PLAN_H */
