/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: management datagrams in the fabric (mad.c).
 */
#ifndef _FTSW_MAD_H
#define _FTSW_MAD_H

#include "ftsw.h"

struct ib_smp;

enum ftsw_dr_act {
	FTSW_DR_DROP,		/* invalid where it is */
	FTSW_DR_LOCAL,		/* to this node's agent */
	FTSW_DR_OUT,		/* out the port returned */
	FTSW_DR_LID,		/* LID-routed to DrDLID (D=0) or DrSLID (D=1) */
	FTSW_DR_HOST,		/* CA: to the host's software */
};

enum ftsw_dr_act ftsw_dr_switch(struct ib_smp *smp, u8 nports, u8 inp,
				bool lid_routed, u8 *outp);
enum ftsw_dr_act ftsw_dr_ca_recv(struct ib_smp *smp, bool lid_routed);
enum ftsw_dr_act ftsw_dr_ca_send(struct ib_smp *smp);
struct ftsw_port *ftsw_mad_edge_rx(struct ftsw_port *in, struct sk_buff *skb);
struct ftsw_port *ftsw_mad_link_rx(struct ftsw_port *in, struct sk_buff *skb);
struct ftsw_port *ftsw_mad_ca_rx(struct ftsw_port *p, struct sk_buff *skb);
struct ftsw_port *ftsw_mad_switch_rx(struct ftsw_port *in,
				     struct sk_buff *skb);
struct sk_buff *ftsw_mad_alloc(u16 dlid, u16 slid, u8 sl, gfp_t gfp);

#endif /* _FTSW_MAD_H */
