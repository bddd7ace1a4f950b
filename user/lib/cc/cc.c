// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control and adaptive routing: the rules (cc/cc.h,
 * Documentation/congestion.md). Pure functions of their arguments: the
 * simulator calls them, the unit tests check them by hand, the kernel
 * implements the same rules in its own code.
 */
#include <math.h>
#include <string.h>

#include "cc/cc.h"

void ftsw_cc_params_default(struct ftsw_cc_params *p)
{
	memset(p, 0, sizeof(*p));
	p->cc_max_outstanding_mads = FTSW_CC_MAX_OUTSTANDING_DEFAULT;
	p->timer_unit_ns = FTSW_CC_TIMER_UNIT_NS;
}

bool ftsw_cc_congested(unsigned threshold, uint32_t occ, uint32_t cap)
{
	if (!threshold || threshold > FTSW_CC_THRESHOLD_MAX)
		return false;
	return (uint64_t)occ * 16 >= (uint64_t)cap * (16 - threshold);
}

bool ftsw_cc_mark(const struct ftsw_cc_params *p,
		  struct ftsw_cc_mark_state *st, unsigned port,
		  uint32_t blocks, uint32_t occ, uint32_t cap, bool victim)
{
	uint32_t map = p->cc_sw_cong_setting_control_map;

	if (!p->congestion_control || !(map & FTSW_CC_SW_THRESHOLD))
		return false;
	if (!ftsw_cc_congested(p->cc_sw_cong_setting_threshold, occ, cap))
		return false;
	if (blocks < p->cc_sw_cong_setting_packet_size)
		return false;
	if (victim && !((map & FTSW_CC_SW_VICTIM_MASK) &&
			ftsw_cc_port_in_mask(p->cc_sw_cong_setting_victim_mask,
					     port)))
		return false;
	if (st->skip) {
		st->skip--;
		return false;
	}
	st->skip = map & FTSW_CC_SW_MARKING_RATE ?
		   p->cc_sw_cong_setting_marking_rate : 0;
	return true;
}

void ftsw_cc_sl_of(const struct ftsw_cc_params *p, unsigned sl,
		   double unit_per_timer_tick, struct ftsw_cc_sl *s)
{
	memset(s, 0, sizeof(*s));
	s->limit = p->cc_cct_len ? (uint16_t)(p->cc_cct_len - 1) : 0;
	if (!p->congestion_control || sl >= FTSW_CC_SLS ||
	    !(p->cc_ca_cong_setting_control_map >> sl & 1))
		return;
	s->increase = p->cc_ca_cong_setting_ccti_increase[sl];
	s->min = p->cc_ca_cong_setting_ccti_min[sl];
	s->trigger = p->cc_ca_cong_setting_trigger_threshold[sl];
	if (p->cc_ca_cong_setting_ccti_timer[sl]) {
		double t = p->cc_ca_cong_setting_ccti_timer[sl] *
			   unit_per_timer_tick;

		s->period = t < 1 ? 1 : (uint64_t)llround(t);
	}
	/* a minimum past the table is the table's last entry */
	if (s->min > s->limit)
		s->min = (uint8_t)(s->limit > 255 ? 255 : s->limit);
}

void ftsw_cc_flow_init(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s)
{
	memset(f, 0, sizeof(*f));
	f->ccti = s->min;
}

void ftsw_cc_flow_tick(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s,
		       uint64_t now)
{
	uint64_t n;

	if (!f->timer_on || now < f->timer_at)
		return;
	if (!s->period || f->ccti <= s->min) {
		f->timer_on = false;
		return;
	}
	/* expiries at timer_at, timer_at + period, ... up to now */
	n = (now - f->timer_at) / s->period + 1;
	if (n >= (uint64_t)(f->ccti - s->min)) {
		f->ccti = s->min;
		f->timer_on = false;
		return;
	}
	f->ccti = (uint16_t)(f->ccti - n);
	f->timer_at += n * s->period;
}

bool ftsw_cc_becn(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s,
		  uint64_t now)
{
	unsigned before, c;

	ftsw_cc_flow_tick(f, s, now);
	before = f->ccti;
	c = before + s->increase;
	if (c > s->limit)
		c = s->limit > before ? s->limit : before;
	f->ccti = (uint16_t)c;
	if (!f->timer_on && s->period && f->ccti > s->min) {
		f->timer_on = true;
		f->timer_at = now + s->period;
	}
	return s->trigger && before < s->trigger && f->ccti >= s->trigger;
}

uint64_t ftsw_cc_ipd(const struct ftsw_cc_params *p, unsigned ccti,
		     uint64_t pkt_time)
{
	const struct ftsw_cct_entry *e;

	if (!p->congestion_control || !p->cc_cct_len)
		return 0;
	if (ccti >= p->cc_cct_len)
		ccti = p->cc_cct_len - 1u;
	e = &p->cc_cct[ccti];
	return pkt_time * e->multiplier >> e->shift;
}

void ftsw_cc_sent(struct ftsw_cc_flow *f, const struct ftsw_cc_params *p,
		  const struct ftsw_cc_sl *s, uint64_t start,
		  uint64_t pkt_time)
{
	ftsw_cc_flow_tick(f, s, start);
	f->next_send = start + pkt_time + ftsw_cc_ipd(p, f->ccti, pkt_time);
}

unsigned ftsw_ar_pick(const struct ftsw_ar_cand *c, unsigned n,
		      unsigned static_port)
{
	unsigned i, best = static_port;
	int64_t bs = INT64_MAX;

	for (i = 0; i < n; i++) {
		int64_t sc = (int64_t)c[i].queued - (int64_t)c[i].credit;

		if (sc < bs || (sc == bs && best != static_port &&
				(c[i].port == static_port ||
				 c[i].port < best))) {
			bs = sc;
			best = c[i].port;
		}
	}
	return best;
}

unsigned ftsw_ar_flowlet_keep(struct ftsw_ar_flowlet *f, uint32_t key,
			      uint64_t now, uint64_t gap)
{
	if (!gap || !f->port || f->key != key || now - f->last >= gap)
		return 0;
	f->last = now;
	return f->port;
}

void ftsw_ar_flowlet_take(struct ftsw_ar_flowlet *f, uint32_t key,
			  unsigned port, uint64_t now)
{
	f->key = key;
	f->port = (uint8_t)port;
	f->last = now;
}
