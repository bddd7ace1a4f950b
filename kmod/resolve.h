/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the address plan and the edge port's ARP/ND responder
 * (resolve.c).
 */
#ifndef _FTSW_RESOLVE_H
#define _FTSW_RESOLVE_H

#include "ftsw.h"

int ftsw_plan_check(const struct ftsw_plan *plan, const char **msg);
bool ftsw_plan_ip4(const struct ftsw_plan *plan, __be32 addr, u32 *host);
bool ftsw_plan_ip6(const struct ftsw_plan *plan, const struct in6_addr *addr,
		   u32 *host);
void ftsw_plan_commit(struct ftsw_net *fn);
void ftsw_plan_discard(struct ftsw_net *fn);
void ftsw_plan_flush(struct ftsw_net *fn);
int ftsw_plan_host_reserve(struct ftsw_net *fn, u16 lid);
void ftsw_plan_host_add(struct ftsw_port *p, u16 lid);
void ftsw_plan_host_del(struct ftsw_port *p);
u16 ftsw_plan_host_lid(struct ftsw_net *fn, const struct ftsw_plan *plan,
		       u32 host);
int ftsw_resolve_frame(struct ftsw_port *in, struct sk_buff *skb,
		       struct sk_buff **reply);
bool ftsw_resolve(struct ftsw_port *in, struct sk_buff *skb);

#endif /* _FTSW_RESOLVE_H */
