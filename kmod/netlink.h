/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the generic netlink family (netlink.c).
 */
#ifndef _FTSW_NETLINK_H
#define _FTSW_NETLINK_H

#include "ftsw.h"

int ftsw_nl_init(void);
void ftsw_nl_exit(void);

#endif /* _FTSW_NETLINK_H */
