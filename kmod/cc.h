/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the congestion control agents (cc.c).
 */
#ifndef _FTSW_CC_H
#define _FTSW_CC_H

#include "ftsw.h"

/* Class 0x21's version and attributes (IBA vol. 1, Annex A10.4.3). */
#define FTSW_CC_CLASS_VERSION		2
#define FTSW_CC_ATTR_CLASS_PORT_INFO	0x0001
#define FTSW_CC_ATTR_INFO		0x0011
#define FTSW_CC_ATTR_KEY_INFO		0x0012
#define FTSW_CC_ATTR_LOG		0x0013
#define FTSW_CC_ATTR_SW_SETTING		0x0014
#define FTSW_CC_ATTR_SW_PORT_SETTING	0x0015
#define FTSW_CC_ATTR_CA_SETTING		0x0016
#define FTSW_CC_ATTR_TABLE		0x0017
#define FTSW_CC_ATTR_TIMESTAMP		0x0018

/* A CC MAD: the common header, CC_Key at 24, the data at 64 (the log's 32). */
#define FTSW_CC_KEY_OFF		24
#define FTSW_CC_LOG_OFF		32
#define FTSW_CC_DATA_OFF	64
#define FTSW_CC_PORTS_PER_BLOCK	48	/* SwitchPortCongestionSetting */
#define FTSW_CC_CCT_PER_BLOCK	64	/* CongestionControlTable */

/* A unit's SL settings, as its rules use them (ftsw_cc_sl_get()). */
struct ftsw_cc_rt {
	u64 period;		/* CCTI_Timer, ns; 0: no timer */
	u16 limit;		/* CCTI_Limit */
	u16 min;		/* CCTI_Min */
	u8 increase;
	u8 trigger;
};

int ftsw_cc_switch(struct ftsw_switch *sw, void *mad);
int ftsw_cc_ca(struct ftsw_port *p, void *mad);
u32 ftsw_cc_timestamp(void);
void ftsw_cc_log_add(struct ftsw_cc_log *log, unsigned int cap,
		     u16 slid, u16 dlid, u8 sl);

bool ftsw_cc_mark(const struct ftsw_port *p, u16 *skip, u32 blocks,
		  u32 occ, u32 cap, bool victim);
struct sk_buff *ftsw_cc_cnp(const struct ftsw_hdr *h);
void ftsw_cc_sl_get(const struct ftsw_cc_ca *cc, u8 sl, u32 unit_ns,
		    struct ftsw_cc_rt *s);
void ftsw_cc_tick(struct ftsw_cc_unit *u, const struct ftsw_cc_rt *s,
		  u64 now);
bool ftsw_cc_becn(struct ftsw_cc_unit *u, const struct ftsw_cc_rt *s,
		  u64 now);
u64 ftsw_cc_ipd(const struct ftsw_cc_ca *cc, u16 ccti, u64 pkt_ns);
void ftsw_cc_sent(struct ftsw_cc_unit *u, const struct ftsw_cc_ca *cc,
		  const struct ftsw_cc_rt *s, u64 start, u64 pkt_ns);

#endif /* _FTSW_CC_H */
