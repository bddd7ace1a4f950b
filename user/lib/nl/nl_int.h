/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of nl/ share (private to the folder): a request of the
 * "ftsw" family built by nl.c and sent there, the lossless-mode
 * attributes of port requests and replies (nl_lossless.c), and where the
 * rootless holder binds namespaces (rootless.c, for ns.c).
 */
#ifndef LIBFTSW_NL_INT_H
#define LIBFTSW_NL_INT_H

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "nl/nl.h"

/* A request cmd of the family (NULL when out of memory). */
struct nl_msg *ftsw_nl_msg(struct ftsw_nl *nl, uint8_t cmd, int flags);
/* The same with room for @size bytes (0: the default). */
struct nl_msg *ftsw_nl_msg_size(struct ftsw_nl *nl, uint8_t cmd, int flags,
				size_t size);
/* Send it (consumed), wait for the ack: 0 or a negative errno. */
int ftsw_nl_request(struct ftsw_nl *nl, struct nl_msg *msg);
/* Send it (consumed), give each reply's attributes to @parse until done. */
int ftsw_nl_transact(struct ftsw_nl *nl, struct nl_msg *msg,
		     int (*parse)(struct nlattr **tb, void *arg), void *arg);

/* PORT_SET: the lossless settings of c that are not -1. */
void ftsw_nl_put_port_ll(struct nl_msg *msg, const struct ftsw_port_cfg *c);
/* A port reply's lossless settings and per-VL state into ll. */
void ftsw_nl_port_ll_from(struct nlattr **tb, struct ftsw_port_ll *ll);

/* RUNDIR/.netns: the rootless holder's tmpfs of named namespaces. */
const char *ftsw_rootless_nsdir(void);
/* Stop the holder, remove its files (the run directory's lock held). */
void ftsw_rootless_stop(void);
/* Forget the saved original network namespace (joined the holder's). */
void ftsw_netns_home_reset(void);
/* PORT_SET: the partition settings of c that are set (nl_pkey.c). */
void ftsw_nl_put_port_pkey(struct nl_msg *msg, const struct ftsw_port_cfg *c);
/* A port reply's partition attributes into pk. */
void ftsw_nl_port_pkey_from(struct nlattr **tb, struct ftsw_port_pkeys *pk);
/* A reply's multicast groups (nl_pkey.c). */
void ftsw_nl_port_mcast_from(struct nlattr **tb, struct ftsw_port_info *pi);
void ftsw_nl_port_mkey_from(struct nlattr **tb, struct ftsw_port_info *pi);

#endif
