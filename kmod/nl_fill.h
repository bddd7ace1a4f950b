/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: a port as netlink replies and events show it (nl_fill.c).
 */
#ifndef _FTSW_NL_FILL_H
#define _FTSW_NL_FILL_H

#include <net/genetlink.h>
#include "ftsw.h"

int ftsw_put_drops(struct sk_buff *msg, int type, const u64 *drops);
int ftsw_put_stats(struct sk_buff *msg, const struct ftsw_port *p);
int ftsw_nl_put_port_ll(struct sk_buff *msg, struct ftsw_port *p);
int ftsw_fill_port(struct sk_buff *msg, struct ftsw_port *p, void *hdr,
		   u8 reason);

#endif /* _FTSW_NL_FILL_H */
