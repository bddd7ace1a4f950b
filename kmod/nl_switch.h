/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the switch commands (nl_switch.c).
 */
#ifndef _FTSW_NL_SWITCH_H
#define _FTSW_NL_SWITCH_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_switch_new(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_del(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_get(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_nl_switch_set(struct sk_buff *skb, struct genl_info *info);

#endif /* _FTSW_NL_SWITCH_H */
