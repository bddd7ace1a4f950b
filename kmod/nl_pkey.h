/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: a port's partition attributes in netlink (nl_pkey.c): PORT_SET's
 * P_Key choice of an edge port's host, the P_KeyTables and the
 * enforcement bits, and how replies show them and the management keys.
 */
#ifndef _FTSW_NL_PKEY_H
#define _FTSW_NL_PKEY_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_nl_pkey_check(struct genl_info *info, const struct ftsw_port *p);
int ftsw_nl_pkey_apply(struct ftsw_port *p, struct genl_info *info);
int ftsw_nl_put_pkeys(struct sk_buff *msg, struct ftsw_port *p);
int ftsw_nl_put_mkeys(struct sk_buff *msg, struct ftsw_port *p);

#endif /* _FTSW_NL_PKEY_H */
