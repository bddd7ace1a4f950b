/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: forwarding by the LFT and the MFT (forward.c).
 */
#ifndef _FTSW_FORWARD_H
#define _FTSW_FORWARD_H

#include "ftsw.h"

struct ftsw_port *ftsw_forward(struct ftsw_port *in, struct sk_buff *skb);
struct ftsw_port *ftsw_forward_out(struct ftsw_port *in, struct ftsw_port *out,
				   struct sk_buff *skb, u8 vl);
struct sk_buff *ftsw_forward_mc_pop(struct ftsw_port **next);

#endif /* _FTSW_FORWARD_H */
