/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: an edge port's multicast groups in netlink (nl_mcast.c): PORT_SET's
 * PORT_MCAST and how replies show it.
 */
#ifndef _FTSW_NL_MCAST_H
#define _FTSW_NL_MCAST_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_mcast_check(struct genl_info *info, const struct ftsw_port *p);
int ftsw_nl_mcast_apply(struct ftsw_port *p, struct genl_info *info);
int ftsw_nl_put_mcast(struct sk_buff *msg, struct ftsw_port *p);

#endif /* _FTSW_NL_MCAST_H */
