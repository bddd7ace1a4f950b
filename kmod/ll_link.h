/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: lossless mode's link: units, far ends, credits (ll_link.c).
 */
#ifndef _FTSW_LL_LINK_H
#define _FTSW_LL_LINK_H

#include "ftsw.h"

/* What a packet carries in skb->cb while it is in lossless queues. */
struct ftsw_ll_cb {
	u64 arrived;		/* ns: entered the switch (0: not yet) */
	u64 head;		/* ns: became the head of its queue */
	struct ftsw_port *port;	/* sent: the port it left by */
	u32 bytes;		/* charged to the input buffer / output queue */
	u16 blocks;		/* input charge, 64-byte blocks */
	u8 out;			/* output port */
	u8 vl;			/* VL in this switch */
	u8 rvl;			/* sent: the far end's VL it was charged to */
	bool originate;		/* sent: a CA's, into the fabric at port */
	bool held;		/* counted as held by congestion control */
};

static inline struct ftsw_ll_cb *ftsw_ll_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ftsw_ll_cb) > sizeof(skb->cb));
	return (struct ftsw_ll_cb *)skb->cb;
}

u32 ftsw_ll_blocks(unsigned int len);
u64 ftsw_ll_life_ns(u8 v);
u64 ftsw_ll_age(u64 now, u64 t);
u64 ftsw_ll_wire_ns(u32 blocks, u64 rate);
u32 ftsw_ll_wire_blocks(u64 ns, u64 rate);
struct ftsw_port *ftsw_ll_port(struct ftsw_switch *sw, u8 num);
struct ftsw_port *ftsw_ll_peer(struct ftsw_port *p);
struct net_device *ftsw_ll_host(struct ftsw_port *p);
bool ftsw_ll_host_queues(struct net_device *host);
u32 ftsw_ll_credits(struct ftsw_port *p, struct ftsw_port *peer, u8 vl);
u8 ftsw_ll_rvl(struct ftsw_port *peer, struct sk_buff *skb, u8 vl);
void ftsw_ll_ctx_enter(void);
void ftsw_ll_ctx_exit(void);
bool ftsw_ll_soon_add(struct ftsw_port *p);
struct ftsw_port *ftsw_ll_soon_pop(void);

#endif /* _FTSW_LL_LINK_H */
