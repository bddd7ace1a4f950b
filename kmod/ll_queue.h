/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: lossless mode's buffers and queues (ll_queue.c).
 */
#ifndef _FTSW_LL_QUEUE_H
#define _FTSW_LL_QUEUE_H

#include "ftsw.h"

/* What a packet carries in skb->cb while it is in lossless queues. */
struct ftsw_ll_cb {
	u64 arrived;		/* ns: entered the switch (0: not yet) */
	u64 head;		/* ns: became the head of its queue */
	u32 bytes;		/* charged to the input buffer / output queue */
	u16 blocks;		/* input charge, 64-byte blocks */
	u8 out;			/* output port */
	u8 vl;			/* VL in this switch */
	u8 rvl;			/* sent: the far end's VL it was charged to */
};

static inline struct ftsw_ll_cb *ftsw_ll_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ftsw_ll_cb) > sizeof(skb->cb));
	return (struct ftsw_ll_cb *)skb->cb;
}

u32 ftsw_ll_blocks(unsigned int len);
u64 ftsw_ll_life_ns(u8 v);
u64 ftsw_ll_age(u64 now, u64 t);
bool ftsw_ll_host_room(u32 bytes, u32 frame, u32 cap);
u64 ftsw_ll_wire_ns(u32 blocks, u64 rate);
void ftsw_ll_arm(struct ftsw_port *p, u64 at);
struct ftsw_port *ftsw_ll_peer(struct ftsw_port *p);
struct net_device *ftsw_ll_host(struct ftsw_port *p);
u32 ftsw_ll_credits(struct ftsw_port *p, struct ftsw_port *peer, u8 vl);
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

#endif /* _FTSW_LL_QUEUE_H */
