/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw congestion management: InfiniBand congestion control (IBA vol. 1,
 * Annex A10) and adaptive routing, as ftsw's simulator and ftsw.ko both
 * implement them (Documentation/congestion.md). This header holds what the
 * two share: the parameters, in one struct with OpenSM's opensm.conf names
 * and defaults, so that `ftsw sim --cc FILE` reads the very file OpenSM
 * reads in a lab (`lab up --sm --sm-conf FILE`) and the lab uploads the
 * same struct over netlink to a lab without an SM; and the rules, as pure
 * functions the simulator calls and the unit tests check by hand (the
 * kernel implements each rule again in its own code, with KUnit cases of
 * the same hand-computed values).
 *
 * Units. A "block" is the lossless mode's credit unit, 64 bytes: the
 * simulator's flit (Documentation/sim.md, "The lab's parameters"). Times
 * in the rules are in any unit the caller uses throughout (the simulator's
 * cycles, the kernel's nanoseconds).
 */
#ifndef LIBFTSW_CC_H
#define LIBFTSW_CC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_CC_SLS		16	/* CACongestionSetting entries */
#define FTSW_CC_MASK_BYTES	32	/* 256-bit port masks */
#define FTSW_CC_CCT_MAX		128	/* CCT entries OpenSM configures */
#define FTSW_CC_CCT_SHIFT_MAX	3	/* CCT_Shift: 2 bits */
#define FTSW_CC_CCT_MULT_MAX	0x3fff	/* CCT_Multiplier: 14 bits */
#define FTSW_CC_THRESHOLD_MAX	15	/* Threshold: 4 bits */
#define FTSW_CC_MAX_OUTSTANDING_DEFAULT	500	/* OpenSM's default */
#define FTSW_CC_TIMER_UNIT_NS	1024	/* CCTI_Timer's unit, 1.024 us */

/* SwitchCongestionSetting's Control_Map: which fields a Set applies. */
enum ftsw_cc_sw_map {
	FTSW_CC_SW_VICTIM_MASK = 1u << 0,
	FTSW_CC_SW_CREDIT_MASK = 1u << 1,
	FTSW_CC_SW_THRESHOLD = 1u << 2,		/* threshold and packet size */
	FTSW_CC_SW_CS = 1u << 3,		/* credit starvation */
	FTSW_CC_SW_MARKING_RATE = 1u << 4,
};

/* CACongestionSetting's Port_Control bit 0: one CCTI per SL, not per flow. */
#define FTSW_CC_CA_SL_BASED	1u

/* A CongestionControlTable entry: CCT_Shift (2 bits), CCT_Multiplier (14). */
struct ftsw_cct_entry {
	uint8_t shift;
	uint16_t multiplier;
};

/*
 * Every congestion-control key of opensm.conf, named as OpenSM names it,
 * with OpenSM's defaults (ftsw_cc_params_default: everything 0 and
 * congestion_control FALSE, so a fabric left at the defaults marks
 * nothing and throttles nothing). Host byte order throughout; the masks
 * are OpenSM's 256-bit numbers stored big-endian (byte 31 holds ports
 * 0..7, bit n is port n: ftsw_cc_port_in_mask).
 */
struct ftsw_cc_params {
	bool congestion_control;		/* FALSE */
	uint64_t cc_key;			/* 0 */
	uint32_t cc_max_outstanding_mads;	/* 500 */
	/* SwitchCongestionSetting (every switch, port 0) */
	uint32_t cc_sw_cong_setting_control_map;	/* enum ftsw_cc_sw_map */
	uint8_t cc_sw_cong_setting_victim_mask[FTSW_CC_MASK_BYTES];
	uint8_t cc_sw_cong_setting_credit_mask[FTSW_CC_MASK_BYTES];
	uint8_t cc_sw_cong_setting_threshold;		/* 0 none .. 15 */
	uint8_t cc_sw_cong_setting_packet_size;		/* blocks */
	uint8_t cc_sw_cong_setting_credit_starvation_threshold;
	struct ftsw_cct_entry cc_sw_cong_setting_credit_starvation_return_delay;
	uint16_t cc_sw_cong_setting_marking_rate;	/* packets between marks */
	/* CACongestionSetting (every CA port) */
	uint16_t cc_ca_cong_setting_port_control;	/* FTSW_CC_CA_SL_BASED */
	uint16_t cc_ca_cong_setting_control_map;	/* bit n: SL n's entry */
	uint16_t cc_ca_cong_setting_ccti_timer[FTSW_CC_SLS];	/* 1.024 us */
	uint8_t cc_ca_cong_setting_ccti_increase[FTSW_CC_SLS];
	uint8_t cc_ca_cong_setting_trigger_threshold[FTSW_CC_SLS];
	uint8_t cc_ca_cong_setting_ccti_min[FTSW_CC_SLS];
	/*
	 * CongestionControlTable (cc_cct "shift:multiplier,..."): entry i is
	 * the inter-packet delay at CCTI i; CCTI_Limit = cc_cct_len - 1 (0
	 * with no entries: no delay at all).
	 */
	uint16_t cc_cct_len;
	struct ftsw_cct_entry cc_cct[FTSW_CC_CCT_MAX];
	/*
	 * Not OpenSM's: the length of CCTI_Timer's unit, ns (IBA: 1024). A
	 * lab's links are some 10^4 times slower than InfiniBand's, so with
	 * IBA's unit the longest timer (65535 units, 67 ms) lasts a few
	 * frames; stretching the unit keeps the timer's length in packets
	 * (`ftsw sim --cc-timer-unit`, the lab's netlink attribute).
	 */
	uint32_t timer_unit_ns;
};

void ftsw_cc_params_default(struct ftsw_cc_params *p);

/*
 * Read the congestion-control keys of an opensm.conf file into p (which
 * keeps what the file does not set: start from ftsw_cc_params_default).
 * Every other key of opensm.conf is skipped, so the file a lab gives
 * OpenSM (`--sm-conf`) serves as it is. Refused, with "path:line: why":
 * a value OpenSM would not take (not a number, out of the field's range,
 * an SL past 15, a CCT entry without ':' or past 128 entries), a number
 * with a leading 0 (OpenSM reads it as octal, ftsw never does), a key
 * given twice for the same field, a file that is not a regular text file
 * of at most 64 KiB (util/text.h). 0 or -1.
 */
int ftsw_cc_params_read(const char *path, struct ftsw_cc_params *p,
			struct ftsw_err *err);
/* The same from a string (tests, fuzzing); name is used in messages. */
int ftsw_cc_params_parse(const char *text, const char *name,
			 struct ftsw_cc_params *p, struct ftsw_err *err);
/*
 * Write p as opensm.conf lines (every congestion-control key, SL entries
 * for the SLs whose entry is not all zero): what reading gives back.
 */
int ftsw_cc_params_write(const struct ftsw_cc_params *p, FILE *f);

/* Is switch port `port` (0..255) set in a 256-bit mask as OpenSM stores it? */
static inline bool ftsw_cc_port_in_mask(const uint8_t *mask, unsigned port)
{
	return port < 256 &&
	       (mask[FTSW_CC_MASK_BYTES - 1 - port / 8] >> (port % 8) & 1);
}

/* ------------------------------------------------ switches: FECN marking */

/*
 * A switch port's VL is congested when its output queue holds at least
 * (16 - threshold) / 16 of the queue's capacity: occ * 16 >= cap * (16 -
 * threshold), both in blocks. Threshold 0 never marks, 1 marks only a
 * nearly full queue, 15 (the most aggressive) one sixteenth full. (The
 * annex leaves the mapping to the switch, with 0 off and larger values
 * marking earlier; this is ftsw's.)
 */
bool ftsw_cc_congested(unsigned threshold, uint32_t occ, uint32_t cap);

/* Per switch port and VL: where the marking rate's count stands. */
struct ftsw_cc_mark_state {
	uint16_t skip;		/* eligible packets still to pass unmarked */
};

/*
 * The marking decision, taken for a packet of `blocks` blocks as it
 * starts on the link out of switch port `port`, its VL's output queue
 * holding occ blocks (this packet included) of cap. `victim`: this VL
 * waited for credit since its last packet started (the queue fills
 * because the next switch is full, not because this link is the
 * bottleneck). The packet is eligible when congestion control is on, the
 * queue is congested (Control_Map bit 2's threshold; without the bit the
 * switch's threshold stays 0: nothing marks), the packet has at least
 * packet_size blocks (bit 2), and the port is not a victim, or is one and
 * set in victim_mask (bit 0). Of the eligible packets, one is marked,
 * then marking_rate (bit 4; else 0) are passed over, and so on. True:
 * set FECN on this packet.
 */
bool ftsw_cc_mark(const struct ftsw_cc_params *p,
		  struct ftsw_cc_mark_state *st, unsigned port,
		  uint32_t blocks, uint32_t occ, uint32_t cap, bool victim);

/* ------------------------------------------- channel adapters: throttling */

/*
 * The state of one throttled unit of a source: one flow (a destination
 * host: Port_Control bit 0 clear, IBA's per-QP control) or one SL (bit 0
 * set). ccti starts at the SL's CCTI_Min (ftsw_cc_flow_init).
 */
struct ftsw_cc_flow {
	uint16_t ccti;		/* the congestion control table index */
	bool timer_on;		/* the CCTI timer runs */
	uint64_t timer_at;	/* when it next expires */
	uint64_t next_send;	/* earliest start of the unit's next packet */
};

/*
 * A unit's SL settings: from the params (ftsw_cc_sl_of), the timer
 * period in the caller's time unit. An SL outside ca control_map gets
 * zeros: no increase, no delay.
 */
struct ftsw_cc_sl {
	uint64_t period;	/* CCTI_Timer in the caller's unit, 0 = off */
	uint8_t increase, min, trigger;
	uint16_t limit;		/* CCTI_Limit = cc_cct_len - 1 */
};

/*
 * SL sl's settings; unit_per_timer_tick: the caller's time units in one
 * CCTI_Timer unit (timer_unit_ns expressed in the caller's unit: itself
 * for a caller counting ns, timer_unit_ns / cycle_ns for the simulator).
 * The period is rounded to the nearest unit, at least 1 when CCTI_Timer
 * is not 0.
 */
void ftsw_cc_sl_of(const struct ftsw_cc_params *p, unsigned sl,
		   double unit_per_timer_tick, struct ftsw_cc_sl *s);

void ftsw_cc_flow_init(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s);

/*
 * The CCTI timer's expiries up to now: each lowers ccti by one, down to
 * ccti_min; the timer restarts after an expiry while ccti is above the
 * minimum and stops there. (Started by a BECN, as hfi1 does, not free
 * running: ftsw_cc_becn.) Idempotent; call before reading ccti.
 */
void ftsw_cc_flow_tick(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s,
		       uint64_t now);

/*
 * A BECN for the unit at time now: the timer catches up, ccti rises by
 * CCTI_Increase up to CCTI_Limit, and the timer starts (period from now)
 * unless it runs. Returns true when ccti reached the trigger threshold
 * with this BECN (a CongestionLog event; threshold 0: never).
 */
bool ftsw_cc_becn(struct ftsw_cc_flow *f, const struct ftsw_cc_sl *s,
		  uint64_t now);

/*
 * The inter-packet delay of a packet lasting pkt_time (its blocks' time on
 * the link) at index ccti: pkt_time * CCT_Multiplier >> CCT_Shift of
 * entry min(ccti, CCTI_Limit) (the packet's own time scaled, as hfi1
 * scales its packet time by the entry); 0 without a table. The unit's next
 * packet starts no earlier than pkt_time + delay after this one started.
 */
uint64_t ftsw_cc_ipd(const struct ftsw_cc_params *p, unsigned ccti,
		     uint64_t pkt_time);

/*
 * After a packet of the unit started at `start`, lasting pkt_time: the
 * timer catches up to start, then next_send = start + pkt_time + ipd.
 */
void ftsw_cc_sent(struct ftsw_cc_flow *f, const struct ftsw_cc_params *p,
		  const struct ftsw_cc_sl *s, uint64_t start,
		  uint64_t pkt_time);

/* ----------------------------------------------------- adaptive routing */

/*
 * One allowed output port as a switch sees it when it chooses: the
 * blocks queued in that port's output queue of the packet's VL, and the
 * blocks of credit it holds towards the next buffer on that VL.
 */
struct ftsw_ar_cand {
	uint8_t port;
	uint32_t queued;
	uint32_t credit;
};

/*
 * The choice among a packet's allowed output ports (the LFT's static port
 * and its adaptive group): the smallest queued - credit (the shortest
 * queue, and of equal queues the most free credit), ties to the static
 * port, then to the lowest port number. Returns that port (the static
 * port when n is 0).
 */
unsigned ftsw_ar_pick(const struct ftsw_ar_cand *c, unsigned n,
		      unsigned static_port);

/*
 * Flowlets: a switch remembers its last choice per flow (SLID, DLID) in a
 * table of 2^bits slots; a packet keeps its flow's port when the slot
 * holds that flow and its last packet was chosen less than the gap ago,
 * else it is chosen anew (gap 0: every packet). The slot of a flow:
 */
static inline unsigned ftsw_ar_flowlet_slot(uint32_t slid, uint32_t dlid,
					    unsigned bits)
{
	uint32_t k = (slid << 16) ^ dlid;	/* ftsw_ar_flowlet_key */

	return bits ? (unsigned)((k * 0x9e3779b1u) >> (32 - bits)) : 0;
}

#define FTSW_AR_FLOWLET_BITS	8	/* 256 slots per switch */

/* A flowlet slot: the flow that holds it, its port, its last choice. */
struct ftsw_ar_flowlet {
	uint32_t key;		/* (SLID << 16) ^ DLID of the holder */
	uint8_t port;		/* 0: empty */
	uint64_t last;		/* when its last packet was switched */
};

static inline uint32_t ftsw_ar_flowlet_key(uint32_t slid, uint32_t dlid)
{
	return (slid << 16) ^ dlid;
}

/*
 * The flowlet rule for a packet of flow key switched at now: the port
 * its flowlet keeps (the slot holds this flow and its last packet was
 * switched less than gap ago; the slot's time moves to now), or 0 when
 * the switch chooses anew (then ftsw_ar_flowlet_take with the choice).
 * gap 0: always anew.
 */
unsigned ftsw_ar_flowlet_keep(struct ftsw_ar_flowlet *f, uint32_t key,
			      uint64_t now, uint64_t gap);
void ftsw_ar_flowlet_take(struct ftsw_ar_flowlet *f, uint32_t key,
			  unsigned port, uint64_t now);

#pragma GCC visibility pop

#endif
