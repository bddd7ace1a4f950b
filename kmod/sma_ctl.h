/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the subnet management agents on the control path (sma_ctl.c).
 */
#ifndef _FTSW_SMA_CTL_H
#define _FTSW_SMA_CTL_H

#include "ftsw.h"

void ftsw_sma_net_init(struct ftsw_net *fn);
void ftsw_sma_net_exit(struct ftsw_net *fn);
void ftsw_sma_switch_init(struct ftsw_switch *sw);
void ftsw_sma_switch_del(struct ftsw_switch *sw);
void ftsw_sma_port_init(struct ftsw_port *p);
void ftsw_sma_set_inband(struct ftsw_switch *sw, bool inband);
void ftsw_sma_lft_publish(struct ftsw_switch *sw, struct ftsw_lft *lft);
void ftsw_sma_policy_publish(struct ftsw_port *p, struct ftsw_policy *pol);

#endif /* _FTSW_SMA_CTL_H */
