/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the adaptive routing commands (nl_ar.c).
 */
#ifndef _FTSW_NL_AR_H
#define _FTSW_NL_AR_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_ar_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_ar_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _FTSW_NL_AR_H */
