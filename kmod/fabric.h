/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the fabric of a namespace and its objects over their life
 * (fabric.c), under RTNL (bind, unbind, delete) and fn->lock.
 */
#ifndef _FTSW_FABRIC_H
#define _FTSW_FABRIC_H

#include "ftsw.h"

int ftsw_net_init(struct net *net);
void ftsw_net_exit(struct net *net);
void ftsw_fabric_init(struct ftsw_net *fn);
void ftsw_fabric_exit(struct ftsw_net *fn);
int ftsw_netdev_event(struct notifier_block *nb, unsigned long event,
		      void *ptr);
struct ftsw_switch *ftsw_switch_alloc(u32 id, u8 nports, bool inband);
int ftsw_switch_add(struct ftsw_net *fn, struct ftsw_switch *sw);
void ftsw_switch_del(struct ftsw_switch *sw, u8 reason, bool notify);
void ftsw_switch_free(struct ftsw_switch *sw);
void ftsw_fabric_flush(struct ftsw_net *fn, bool notify);
int ftsw_port_bind(struct ftsw_switch *sw, u8 num, struct net_device *dev,
		   u8 kind, struct ftsw_policy *pol, bool admin_up,
		   struct netlink_ext_ack *extack);
int ftsw_patch_bind(struct ftsw_switch *a, u8 na, struct ftsw_switch *b, u8 nb,
		    bool admin_up);
void ftsw_port_unbind(struct ftsw_port *p, u8 reason, bool notify);
struct ftsw_port *ftsw_port_alloc(struct ftsw_switch *sw, u8 num, u8 kind,
				  bool admin_up);
void ftsw_port_publish(struct ftsw_port *p);
void ftsw_port_hide(struct ftsw_port *p);
void ftsw_port_retire(struct ftsw_port *p, u8 reason, bool notify);
void ftsw_port_free(struct ftsw_port *p);
void ftsw_port_set_admin(struct ftsw_port *p, bool up);
void ftsw_port_rename(struct ftsw_port *p);
u64 ftsw_commit(struct ftsw_net *fn);

#endif /* _FTSW_FABRIC_H */
