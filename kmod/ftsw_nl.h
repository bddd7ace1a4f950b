/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: what the generic netlink files share (netlink.c, nl_port.c,
 * nl_lft.c): request helpers and the command handlers of the operations
 * table.
 */
#ifndef _FTSW_NL_H
#define _FTSW_NL_H

#include <net/genetlink.h>
#include "ftsw.h"

/*
 * Parse a dump request's attributes with its command's policy. The core
 * has already validated them strictly against the same policy; parsing
 * again keeps this independent of how each kernel version hands them over.
 */
#define ftsw_dump_parse(cb, tb, policy)					\
	nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, ARRAY_SIZE(policy) - 1,	\
		    policy, cb->extack)

/* netlink.c */
bool ftsw_req(struct genl_info *info, int type);
void ftsw_extack(struct netlink_ext_ack *extack, const struct nlattr *attr,
		 const char *msg);
struct ftsw_net *ftsw_info_fn(struct genl_info *info);
struct ftsw_switch *ftsw_nl_switch(struct ftsw_net *fn, struct genl_info *info);
u8 ftsw_dump_cmd(const struct netlink_callback *cb);
void *ftsw_dump_put(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_dump_ret(struct sk_buff *skb, int err);
void ftsw_dump_seek(struct netlink_callback *cb, unsigned long id);
bool ftsw_dump_switches(struct netlink_callback *cb, const struct nlattr *attr,
			unsigned long *last);
int ftsw_put_stats(struct sk_buff *msg, const struct ftsw_port *p);

/* nl_port.c */
int ftsw_nl_switch_new(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_del(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_get(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_nl_port_bind(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_unbind(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_fill_port(struct sk_buff *msg, struct ftsw_port *p, void *hdr,
		   u8 reason);
int ftsw_nl_port_get(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_clear(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* lossless_nl.c */
int ftsw_nl_switch_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_port_ll_check(struct genl_info *info);
void ftsw_nl_port_ll_apply(struct ftsw_port *p, struct genl_info *info);
int ftsw_nl_put_port_ll(struct sk_buff *msg, struct ftsw_port *p);
int ftsw_ll_put_vl_stats(struct sk_buff *msg, struct ftsw_port *p);

/* nl_lft.c */
int ftsw_nl_lft_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_lft_discard(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_lft_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_nl_sl2vl_set(struct sk_buff *skb, struct genl_info *info);
int ftsw_nl_commit(struct sk_buff *skb, struct genl_info *info);

#endif /* _FTSW_NL_H */
