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

/* One switch's part of a table dump (nl_lft.c's ftsw_nl_table_dump). */
typedef int (*ftsw_table_dump_fn)(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct ftsw_switch *sw, bool staged);
int ftsw_nl_table_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       ftsw_table_dump_fn one);
int ftsw_nl_sl2vl_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_commit(struct sk_buff *skb, struct genl_info *info);

#endif /* _FTSW_NL_LFT_H */
