/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: what every netlink command uses (nl.c).
 */
#ifndef _FTSW_NL_H
#define _FTSW_NL_H

#include <net/genetlink.h>
#include "ftsw.h"

/* The family (netlink.c, with its operations table), named in every message. */
extern struct genl_family ftsw_genl_family;

/*
 * Parse a dump request's attributes with its command's policy. The core
 * has already validated them strictly against the same policy; parsing
 * again keeps this independent of how each kernel version hands them over.
 */
#define ftsw_dump_parse(cb, tb, policy)					\
	nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, ARRAY_SIZE(policy) - 1,	\
		    policy, cb->extack)

typedef int (*ftsw_nl_fill_fn)(struct sk_buff *msg, void *hdr,
			       struct ftsw_net *fn, struct genl_info *info);

void ftsw_nl_set_live(bool live);
bool ftsw_req(struct genl_info *info, int type);
void ftsw_extack(struct netlink_ext_ack *extack, const struct nlattr *attr,
		 const char *msg);
struct ftsw_net *ftsw_info_fn(struct genl_info *info);
struct ftsw_switch *ftsw_nl_switch(struct ftsw_net *fn, struct genl_info *info);
int ftsw_nl_reply(struct genl_info *info, u8 cmd, ftsw_nl_fill_fn fill);
u8 ftsw_dump_cmd(const struct netlink_callback *cb);
void *ftsw_dump_put(struct sk_buff *skb, struct netlink_callback *cb);
int ftsw_dump_ret(struct sk_buff *skb, int err);
void ftsw_dump_seek(struct netlink_callback *cb, unsigned long id);
bool ftsw_dump_switches(struct netlink_callback *cb, const struct nlattr *attr,
			unsigned long *last);
void ftsw_nl_port_event(struct ftsw_port *p, u8 reason);
void ftsw_nl_commit_event(struct ftsw_net *fn);

#endif /* _FTSW_NL_H */
