/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: lossless mode's buffers and queues (ll_queue.c).
 */
#ifndef _FTSW_LL_QUEUE_H
#define _FTSW_LL_QUEUE_H

#include "ll_link.h"

bool ftsw_ll_host_room(u32 bytes, u32 frame, u32 cap);
void ftsw_ll_arm(struct ftsw_port *p, u64 at);
void ftsw_ll_kick(struct ftsw_port *p);
void ftsw_ll_kick_switch(struct ftsw_switch *sw);
void ftsw_ll_input(struct ftsw_port *in, struct ftsw_port *out,
		   struct sk_buff *skb, u8 vl);
void ftsw_ll_credit_rx(struct ftsw_port *in, struct sk_buff *skb);

/* A frame received by a link port in lossless mode: what its sender charged. */
struct ftsw_ll_rx {
	u32 blocks;
	int vl;			/* -1: none */
};

bool ftsw_ll_rx(struct ftsw_port *in, struct sk_buff *skb,
		struct ftsw_ll_rx *rx);
bool ftsw_ll_rx_taken(void);
void ftsw_ll_rx_done(struct ftsw_port *in, const struct ftsw_ll_rx *rx,
		     bool taken);
u64 ftsw_ll_service(struct ftsw_port *p, u64 now, struct sk_buff_head *tx,
		    struct sk_buff **credit);
struct sk_buff *ftsw_ll_sent_pop(void);
void ftsw_ll_unsend(struct ftsw_port *p, u8 rvl, u32 blocks);
void ftsw_ll_becn(struct ftsw_port *p, struct sk_buff *skb);
void ftsw_ll_originate(struct ftsw_port *in, struct sk_buff *skb);

#endif /* _FTSW_LL_QUEUE_H */
