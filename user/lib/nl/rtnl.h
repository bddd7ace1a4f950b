/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw: pipelined rtnetlink requests (libnl-3 messages on a
 * NETLINK_ROUTE socket of one namespace). Requests are sent without waiting,
 * up to a window of outstanding acks; an error names the object of the
 * request that failed, with the kernel's extack message.
 */
#ifndef LIBFTSW_NL_RTNL_H
#define LIBFTSW_NL_RTNL_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ftsw.h>

#include "util/util.h"

#define FTSW_RT_WINDOW 128
#define FTSW_MTU_MAX (9000 + 14 + FTSW_HLEN)	/* largest frame on a fabric link, for tbf */

struct ftsw_rt {
	struct nl_sock *sk;
	int fd;
	unsigned inflight;
	uint64_t nmsgs;
	int error;			/* first error (negative errno) */
	char what[FTSW_RT_WINDOW][48];	/* object of each outstanding seq */
	uint32_t seqs[FTSW_RT_WINDOW];
	bool absent_ok[FTSW_RT_WINDOW];	/* its ENOENT is no error */
	char errmsg[256];
};

/* Socket in the calling thread's current namespace. */
int ftsw_rt_open(struct ftsw_rt *rt, struct ftsw_err *err);
void ftsw_rt_close(struct ftsw_rt *rt);
/* Wait for every outstanding ack; 0 or -1 with err. */
int ftsw_rt_flush(struct ftsw_rt *rt, struct ftsw_err *err);
/*
 * Run fn(rt, arg, err) in the namespace fd (name: in messages) with a
 * socket of that namespace, flush what fn queued, close it and come back
 * (ftsw_netns_run): 0, or -1 with err. *nmsgs, unless NULL, counts the
 * messages sent.
 */
int ftsw_rt_run(int fd, const char *name,
		int (*fn)(struct ftsw_rt *rt, void *arg, struct ftsw_err *err),
		void *arg, uint64_t *nmsgs, struct ftsw_err *err);

struct ftsw_veth {
	const char *name;	/* device in this namespace or netns_fd's */
	int ifindex;		/* 0: kernel's choice */
	int netns_fd;		/* 0 or -1: this namespace (its up works
				 * from here too) */
	unsigned mtu;
	const uint8_t *mac;	/* NULL: random */
	const char *peer;
	int peer_ifindex;
	unsigned peer_mtu;
	const uint8_t *peer_mac;
	int peer_netns_fd;	/* -1: this namespace (the request's
				 * socket's), whatever netns_fd is */
	bool up;		/* both ends; a peer in another namespace
				 * must be brought up there */
	bool peer_ll_none;	/* peer here: no IPv6 link-local address
				 * (set before it is brought up) */
	uint32_t group;		/* device group (IFLA_GROUP), 0: default */
	uint32_t peer_group;
};

int ftsw_rt_veth(struct ftsw_rt *rt, const struct ftsw_veth *v,
		struct ftsw_err *err);
int ftsw_rt_link_up(struct ftsw_rt *rt, int ifindex, bool up, const char *what,
		   struct ftsw_err *err);
/* IPv6 address generation mode none (no link-local address); before up. */
int ftsw_rt_ll_none(struct ftsw_rt *rt, int ifindex, const char *what,
		   struct ftsw_err *err);
int ftsw_rt_addr4(struct ftsw_rt *rt, int ifindex, uint32_t addr, unsigned plen,
		 const char *what, struct ftsw_err *err);
/* Without DAD (the fabric's plan owns the address). */
int ftsw_rt_addr6(struct ftsw_rt *rt, int ifindex, const uint8_t addr[16],
		 unsigned plen, const char *what, struct ftsw_err *err);
int ftsw_rt_neigh4(struct ftsw_rt *rt, int ifindex, uint32_t addr,
		  const uint8_t *mac, const char *what, struct ftsw_err *err);
/*
 * Forget the neighbour entry of addr (AF_INET: 4 bytes, AF_INET6: 16) on
 * ifindex, as `ip neigh del` does; an entry that is not there is no error.
 */
int ftsw_rt_neigh_del(struct ftsw_rt *rt, int ifindex, int family,
		      const void *addr, const char *what, struct ftsw_err *err);
/* tbf root qdisc at rate bytes/s; burst and limit sized for the rate. */
int ftsw_rt_tbf(struct ftsw_rt *rt, int ifindex, uint64_t rate_bytes,
	       const char *what, struct ftsw_err *err);
/* pfifo root qdisc of limit packets (a queue where veth has none). */
int ftsw_rt_pfifo(struct ftsw_rt *rt, int ifindex, unsigned limit,
		  const char *what, struct ftsw_err *err);
/* Resolve a device name in this namespace (synchronous). */
int ftsw_rt_ifindex(struct ftsw_rt *rt, const char *name, struct ftsw_err *err);

/* Peers of veth devices: ifindex -> IFLA_LINK, for every device (dump). */
typedef int (*ftsw_rt_link_cb)(int ifindex, const char *name, int link,
			      bool link_other_ns, bool up, bool carrier,
			      void *arg);
int ftsw_rt_dump_links(struct ftsw_rt *rt, ftsw_rt_link_cb cb, void *arg,
		      struct ftsw_err *err);

/*
 * Delete every device of this namespace in device group @group (and its
 * veth peers, wherever they are) in one request: one RTNL section for the
 * lot. 0 if done, 1 if the group had no device, -1 on error.
 */
int ftsw_rt_del_group(struct ftsw_rt *rt, uint32_t group, struct ftsw_err *err);
/* The highest device group of this namespace's devices (0: none). */
int ftsw_rt_max_group(struct ftsw_rt *rt, uint32_t *max, struct ftsw_err *err);

/* Write a sysctl of the current namespace (path under /proc/sys). */
int ftsw_sysctl(const char *path, const char *value, struct ftsw_err *err);

/* Raise a numeric sysctl to at least @min (best effort: -1 if not). */
int ftsw_sysctl_raise(const char *path, unsigned long min);

/*
 * Set a numeric sysctl to @want, its value before in @old: 1 if it was
 * changed, 0 if it had that value, -1 if it could not be read or written.
 */
int ftsw_sysctl_swap(const char *path, long want, long *old);

#endif
