/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the port commands (nl_port.c).
 */
#ifndef _FTSW_NL_PORT_H
#define _FTSW_NL_PORT_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_port_bind(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_unbind(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_get(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_clear(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _FTSW_NL_PORT_H */
