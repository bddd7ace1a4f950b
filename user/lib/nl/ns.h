/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw named network namespaces without ip(8) (ns.c): /run/netns/NAME
 * as ip-netns(8) keeps them, entered and left by the calling thread; and
 * rootless labs' holder (rootless.c).
 *
 * Not thread-safe: the calls move the calling thread between namespaces
 * and remember the original one process-wide; use them from one thread.
 */
#ifndef LIBFTSW_NL_NS_H
#define LIBFTSW_NL_NS_H

#include "nl/nl.h"
#include "util/util.h"

#include <stdbool.h>
#include <sys/types.h>

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_NETNS_DIR		"/run/netns"

/*
 * Where named namespaces are bound (NSDIR below): FTSW_NETNS_DIR for root
 * (util/rundir.h's ftsw_privileged), RUNDIR/.netns inside the rootless
 * holder's mount namespace for anyone else.
 */
const char *ftsw_netns_dir(void);
/* Create NSDIR/NAME holding a new network namespace (EEXIST: error). */
int ftsw_netns_add(const char *name, struct ftsw_err *err);
/* Unmount and remove NSDIR/NAME; 0 if it did not exist. */
int ftsw_netns_del(const char *name, struct ftsw_err *err);
/* Open NSDIR/NAME (O_RDONLY|O_CLOEXEC), -1 + err on failure. */
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
/* The same by name (NSDIR/NAME, opened for the call); NULL: fn here. */
int ftsw_netns_run_name(const char *name,
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

/*
 * Rootless labs (rootless.c, Documentation/teaching.md). A user who is not
 * root builds labs in a user namespace of their own, as podman does: a
 * small process, the holder ("ftsw-holder"), owns that user namespace and,
 * in it, a mount namespace, where a tmpfs on RUNDIR/.netns holds the lab's
 * namespaces bound by name, and a network namespace of its own. Every ftsw
 * command of that user joins the three; it is root there, so it may make
 * namespaces, veths and fabrics (the module allows them with CAP_NET_ADMIN
 * in the namespace's user namespace). RUNDIR/.holder names the holder (pid
 * and start time). Users do not see each other's holders, namespaces or
 * run directories.
 *
 * Root of the initial user namespace: every call is a no-op returning 0.
 */
/*
 * Join the holder's namespaces, starting it first when there is none and
 * create is set (lab up, holding the run directory's lock). 0, or -1 +
 * err; with no holder and !create, 1. Once joined, later calls return 0.
 * Must run while the process is single-threaded (setns(2) refuses a user
 * namespace change otherwise): ftsw calls it before it starts any thread.
 */
int ftsw_rootless_join(bool create, struct ftsw_err *err);
/* Whether this process runs inside its user's holder. */
bool ftsw_rootless_joined(void);
/* The holder's pid, or 0 when none runs. */
pid_t ftsw_rootless_holder(void);
/*
 * What lab down does last: when no lab is left in the run directory
 * (util/rundir.h ftsw_rundir_busy), take away what the labs shared: for
 * root NSDIR, when it binds nothing (unmounted if it is a mount point,
 * removed); rootless, the holder (stopped) and its files; then the run
 * directory itself. Under the run directory's lock.
 */
void ftsw_netns_release_idle(void);
#pragma GCC visibility pop

#endif
