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
void ftsw_sma_retire(struct ftsw_net *fn, struct llist_node *n,
		     struct llist_head *list);
int ftsw_sma_ca_set_lid(struct ftsw_port *p, u16 lid, u8 lmc);
bool ftsw_sma_phys_ok(const struct ftsw_port *p, u8 phys);
void ftsw_sma_phys_set(struct ftsw_port *p, u8 phys);
u8 ftsw_sma_phys_take(struct ftsw_port *p);

#endif /* _FTSW_SMA_CTL_H */
