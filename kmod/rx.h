/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: receive (rx.c). ftsw_handle_frame(), the rx handler, is
 * declared in ftsw.h.
 */
#ifndef _FTSW_RX_H
#define _FTSW_RX_H

#include "ftsw.h"

void ftsw_rx(struct ftsw_port *in, struct sk_buff *skb);
void ftsw_rx_follow(struct ftsw_port *next, struct sk_buff *skb);
void ftsw_originate(struct ftsw_port *in, struct sk_buff *skb);
void ftsw_rx_ll_send(struct ftsw_port *p, struct sk_buff *skb);
void ftsw_rx_ll_run(struct ftsw_port *p);
void ftsw_rx_flush(void);

#endif /* _FTSW_RX_H */
