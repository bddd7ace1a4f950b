/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: transmit (tx.c).
 */
#ifndef _FTSW_TX_H
#define _FTSW_TX_H

#include "ftsw.h"

struct ftsw_port *ftsw_xmit(struct ftsw_port *in, struct ftsw_port *out,
			   struct sk_buff *skb, u8 vl);
bool ftsw_xmit_dev(struct ftsw_port *in, struct ftsw_port *out,
		   struct sk_buff *skb, u8 vl);
void ftsw_offload_register(void);
void ftsw_offload_unregister(void);

#endif /* _FTSW_TX_H */
