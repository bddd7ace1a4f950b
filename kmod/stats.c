// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the counters of every port, per CPU, which every path counts in:
 * packets and bytes received and sent, sent per VL, drops by reason, ARP
 * and ND replies. The data path only adds to its CPU's share (u64_stats,
 * no lock); the control path reads their sum, less where they stood at
 * the port's last PORT_CLEAR.
 */
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include "stats.h"

void ftsw_count_rx(struct ftsw_port *p, unsigned int len, unsigned int pkts)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.rx_packets += pkts;
	s->c.rx_bytes += len;
	u64_stats_update_end(&s->syncp);
}

void ftsw_count_tx(struct ftsw_port *p, unsigned int len, unsigned int pkts,
		   u8 vl)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.tx_packets += pkts;
	s->c.tx_bytes += len;
	s->c.tx_vl[vl & (FTSW_NUM_VL - 1)] += pkts;
	u64_stats_update_end(&s->syncp);
}

void ftsw_port_drop(struct ftsw_port *p, enum ftsw_drop reason)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.drops[reason]++;
	u64_stats_update_end(&s->syncp);
}

void ftsw_count_ev(struct ftsw_port *p, enum ftsw_ev ev)
{
	struct ftsw_pcpu_stats *s = this_cpu_ptr(p->stats);

	u64_stats_update_begin(&s->syncp);
	s->c.ev[ev]++;
	u64_stats_update_end(&s->syncp);
}

void ftsw_drop(struct ftsw_port *p, struct sk_buff *skb, enum ftsw_drop reason)
{
	ftsw_port_drop(p, reason);
	kfree_skb(skb);
}

void ftsw_port_stats_read(const struct ftsw_port *p, struct ftsw_stats *s)
{
	int cpu, i;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		const struct ftsw_pcpu_stats *c = per_cpu_ptr(p->stats, cpu);
		struct ftsw_stats t;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			t = c->c;
		} while (u64_stats_fetch_retry(&c->syncp, start));
		s->rx_packets += t.rx_packets;
		s->rx_bytes += t.rx_bytes;
		s->tx_packets += t.tx_packets;
		s->tx_bytes += t.tx_bytes;
		for (i = 0; i < FTSW_NUM_VL; i++)
			s->tx_vl[i] += t.tx_vl[i];
		for (i = 0; i <= FTSW_DROP_MAX; i++)
			s->drops[i] += t.drops[i];
		s->resolved += t.resolved;
		for (i = 0; i < FTSW_EV_MAX; i++)
			s->ev[i] += t.ev[i];
	}
}

/* A port's counters since it was bound or last cleared. */
void ftsw_port_stats(const struct ftsw_port *p, struct ftsw_stats *s)
{
	const struct ftsw_stats *c = &p->cleared;
	int i;

	lockdep_assert_held(&p->sw->fn->lock);
	ftsw_port_stats_read(p, s);
	s->rx_packets -= c->rx_packets;
	s->rx_bytes -= c->rx_bytes;
	s->tx_packets -= c->tx_packets;
	s->tx_bytes -= c->tx_bytes;
	for (i = 0; i < FTSW_NUM_VL; i++)
		s->tx_vl[i] -= c->tx_vl[i];
	for (i = 0; i <= FTSW_DROP_MAX; i++)
		s->drops[i] -= c->drops[i];
	for (i = 0; i < FTSW_EV_MAX; i++)
		s->ev[i] -= c->ev[i];
}

/*
 * Zero a port's counters (PORT_CLEAR). The per-CPU counters keep running
 * (the data path never waits for the control path): the port remembers
 * where they stood. Its drops until now stay in the fabric's total.
 */
void ftsw_port_clear(struct ftsw_port *p)
{
	struct ftsw_net *fn = p->sw->fn;
	struct ftsw_stats now;
	int i;

	lockdep_assert_held(&fn->lock);
	ftsw_port_stats(p, &now);
	for (i = 0; i <= FTSW_DROP_MAX; i++)
		fn->dead_drops[i] += now.drops[i];
	ftsw_port_stats_read(p, &p->cleared);
	ftsw_changed(fn);
}
