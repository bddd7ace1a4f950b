/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the subnet management agents of switches and CAs (sma.c).
 */
#ifndef _FTSW_SMA_H
#define _FTSW_SMA_H

#include "ftsw.h"

struct ib_smp;

/* ftsw_sma_switch(): a MAD the agent took that has no answer (TrapRepress) */
#define FTSW_SMA_TAKEN		(-EALREADY)
/* ... or one its M_Key check refused: no answer (mkey.c) */
#define FTSW_SMA_REFUSED	(-EACCES)

int ftsw_sma_switch(struct ftsw_switch *sw, u8 inp, struct ib_smp *smp);
int ftsw_sma_ca(struct ftsw_port *p, struct ib_smp *smp, bool own);
bool ftsw_sma_ca_takes(const struct ib_smp *smp);
bool ftsw_sma_ca_local(const struct ib_smp *smp);
u64 ftsw_ca_guid(const struct ftsw_port *p);
u64 ftsw_switch_guid(const struct ftsw_switch *sw);
u8 ftsw_ib_port_state(const struct ftsw_port *p, const struct ftsw_ibport *ib);
int ftsw_sma_link_state_set(struct ftsw_port *p, u8 state);

#endif /* _FTSW_SMA_H */
