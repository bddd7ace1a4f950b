/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the LFT, SL2VL and commit commands (nl_lft.c).
 */
#ifndef _FTSW_NL_LFT_H
#define _FTSW_NL_LFT_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_lft_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_lft_discard(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_lft_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_nl_sl2vl_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_commit(struct sk_buff *skb, struct genl_info *info);

#endif /* _FTSW_NL_LFT_H */
