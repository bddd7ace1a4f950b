/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: adaptive routing in lossless mode (ll_ar.c).
 */
#ifndef _FTSW_LL_AR_H
#define _FTSW_LL_AR_H

#include "ll_link.h"

void ftsw_ll_new_head(struct ftsw_port *p, struct sk_buff *skb, u64 now);
void ftsw_ll_order(struct ftsw_port *p, struct sk_buff *skb);

#endif /* _FTSW_LL_AR_H */
