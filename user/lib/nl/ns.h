/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw named network namespaces without ip(8) (ns.c): /run/netns/NAME
 * as ip-netns(8) keeps them, entered and left by the calling thread.
 *
 * Not thread-safe: the calls move the calling thread between namespaces
 * and remember the original one process-wide; use them from one thread.
 */
#ifndef LIBFTSW_NL_NS_H
#define LIBFTSW_NL_NS_H

#include "nl/nl.h"
#include "util/util.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_NETNS_DIR		"/run/netns"

/* Create /run/netns/NAME holding a new network namespace (EEXIST: error). */
int ftsw_netns_add(const char *name, struct ftsw_err *err);
/* Unmount and remove /run/netns/NAME; 0 if it did not exist. */
int ftsw_netns_del(const char *name, struct ftsw_err *err);
/* Open /run/netns/NAME (O_RDONLY|O_CLOEXEC), -1 + err on failure. */
int ftsw_netns_open(const char *name, struct ftsw_err *err);
/* Move the calling thread into the namespace (fd or name). */
int ftsw_netns_enter_fd(int fd, const char *name, struct ftsw_err *err);
int ftsw_netns_enter(const char *name, struct ftsw_err *err);
/* The caller's original namespace, saved at first use; back to it. */
int ftsw_netns_home(struct ftsw_err *err);
/*
 * Run fn(arg, err) in the namespace fd (name: in messages) and come back:
 * fn's result, or -1 with err when the namespace could not be entered or
 * left (fn's own message kept when both failed).
 */
int ftsw_netns_run(int fd, const char *name,
		   int (*fn)(void *arg, struct ftsw_err *err), void *arg,
		   struct ftsw_err *err);
/*
 * For a process about to exec a program in network namespace NAME (it is
 * in it already), what `ip netns exec NAME` adds: a mount namespace of its
 * own (mounts propagate into it, never out), /sys remounted so that it
 * describes NAME's devices, /etc/netns/NAME/FILE bind-mounted on /etc/FILE.
 * Single-threaded callers only (unshare(2)).
 */
int ftsw_netns_view(const char *name, struct ftsw_err *err);
/* Open an ftsw genl client inside namespace NAME. */
struct ftsw_nl *ftsw_nl_open_in(const char *netns, struct ftsw_err *err);

#pragma GCC visibility pop

#endif
