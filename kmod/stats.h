/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the per-CPU counters of the ports (stats.c).
 */
#ifndef _FTSW_STATS_H
#define _FTSW_STATS_H

#include "ftsw.h"

/* Wire packets in a frame: a GSO frame counts as its segments. */
static inline unsigned int ftsw_pkts(const struct sk_buff *skb)
{
	return skb_is_gso(skb) ? max_t(u16, skb_shinfo(skb)->gso_segs, 1) : 1;
}

void ftsw_count_rx(struct ftsw_port *p, unsigned int len, unsigned int pkts);
void ftsw_count_tx(struct ftsw_port *p, unsigned int len, unsigned int pkts,
		   u8 vl);
void ftsw_port_drop(struct ftsw_port *p, enum ftsw_drop reason);
void ftsw_count_ev(struct ftsw_port *p, enum ftsw_ev ev);
void ftsw_drop(struct ftsw_port *p, struct sk_buff *skb, enum ftsw_drop reason);
void ftsw_port_stats_read(const struct ftsw_port *p, struct ftsw_stats *s);
void ftsw_port_stats(const struct ftsw_port *p, struct ftsw_stats *s);
void ftsw_port_clear(struct ftsw_port *p);

#endif /* _FTSW_STATS_H */
