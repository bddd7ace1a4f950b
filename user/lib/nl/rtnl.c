// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw: pipelined rtnetlink (libnl-3 messages, libnl-route-3 for the
 * tbf qdisc). See rtnl.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/route/tc.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/fifo.h>
#include <netlink/route/qdisc/tbf.h>

#include "nl/ns.h"
#include "nl/rtnl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

int ftsw_rt_open(struct ftsw_rt *rt, struct ftsw_err *err)
{
	int one = 1, bufsz = 1 << 20;

	memset(rt, 0, sizeof(*rt));
	rt->sk = nl_socket_alloc();
	if (!rt->sk || nl_connect(rt->sk, NETLINK_ROUTE) < 0) {
		if (rt->sk)
			nl_socket_free(rt->sk);
		rt->sk = NULL;
		ftsw_err_errno(err, errno, "rtnetlink socket: %s",
			       strerror(errno));
		return -1;
	}
	rt->fd = nl_socket_get_fd(rt->sk);
	setsockopt(rt->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(rt->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(rt->fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	return 0;
}

void ftsw_rt_close(struct ftsw_rt *rt)
{
	if (rt->sk)
		nl_socket_free(rt->sk);
	rt->sk = NULL;
}

/* The extack message of an error, if any. */
static const char *ack_msg(struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };
	int off = sizeof(*e), len;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)h->nlmsg_len - NLMSG_HDRLEN - off;
	if (len <= 0)
		return NULL;
	nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + off),
		  len, NULL);
	return tb[NLMSGERR_ATTR_MSG] ? nla_get_string(tb[NLMSGERR_ATTR_MSG]) :
				       NULL;
}

/* Read acks until at most `keep` requests are outstanding. */
static int drain(struct ftsw_rt *rt, unsigned keep, struct ftsw_err *err)
{
	static _Thread_local char buf[1 << 16];	/* lab up's host threads */

	while (rt->inflight > keep) {
		ssize_t n = recv(rt->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ftsw_err_errno(err, errno, "rtnetlink: receive: %s",
				       strerror(errno));
			return -1;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (unsigned)n);
		     h = NLMSG_NEXT(h, n)) {
			struct nlmsgerr *e;
			unsigned slot = h->nlmsg_seq % FTSW_RT_WINDOW;

			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			e = NLMSG_DATA(h);
			if (rt->inflight)
				rt->inflight--;
			if (e->error == -ENOENT &&
			    rt->seqs[slot] == h->nlmsg_seq &&
			    rt->absent_ok[slot])
				continue;
			if (e->error && !rt->error) {
				const char *m = ack_msg(h);

				rt->error = e->error;
				snprintf(rt->errmsg, sizeof(rt->errmsg),
					 "%s: %s%s%s%s",
					 rt->seqs[slot] == h->nlmsg_seq ?
					 rt->what[slot] : "rtnetlink",
					 strerror(-e->error), m ? " (" : "",
					 m ? m : "", m ? ")" : "");
			}
		}
	}
	if (rt->error) {
		ftsw_err_set(err, "%s", rt->errmsg);
		return -1;
	}
	return 0;
}

int ftsw_rt_flush(struct ftsw_rt *rt, struct ftsw_err *err)
{
	return drain(rt, 0, err);
}

struct rt_job {
	int (*fn)(struct ftsw_rt *rt, void *arg, struct ftsw_err *err);
	void *arg;
	uint64_t *nmsgs;
};

/* In the namespace: the socket, fn, the flush. */
static int rt_job_run(void *arg, struct ftsw_err *err)
{
	struct rt_job *j = arg;
	struct ftsw_rt rt;
	int rc;

	if (ftsw_rt_open(&rt, err))
		return -1;
	rc = j->fn(&rt, j->arg, err);
	if (!rc)
		rc = ftsw_rt_flush(&rt, err);
	if (j->nmsgs)
		*j->nmsgs += rt.nmsgs;
	ftsw_rt_close(&rt);
	return rc ? -1 : 0;
}

int ftsw_rt_run(int fd, const char *name,
		int (*fn)(struct ftsw_rt *rt, void *arg, struct ftsw_err *err),
		void *arg, uint64_t *nmsgs, struct ftsw_err *err)
{
	struct rt_job j = { .fn = fn, .arg = arg, .nmsgs = nmsgs };

	return ftsw_netns_run(fd, name, rt_job_run, &j, err);
}

/* Send msg and free it; *seq is its sequence number. */
static int send_free(struct ftsw_rt *rt, struct nl_msg *msg, uint32_t *seq,
		     const char *what, struct ftsw_err *err)
{
	int rc = nl_send_auto(rt->sk, msg);

	*seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (rc < 0) {
		ftsw_err_set(err, "%s: send: %s", what, nl_geterror(rc));
		return -1;
	}
	return 0;
}

/* Send msg (consumed) for object `what`; absent_ok: ENOENT is no error. */
static int send_msg_opt(struct ftsw_rt *rt, struct nl_msg *msg,
			const char *what, bool absent_ok, struct ftsw_err *err)
{
	uint32_t seq;

	if (!msg) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		return -1;
	}
	if (drain(rt, FTSW_RT_WINDOW - 1, err)) {
		nlmsg_free(msg);
		return -1;
	}
	if (send_free(rt, msg, &seq, what, err))
		return -1;
	rt->seqs[seq % FTSW_RT_WINDOW] = seq;
	rt->absent_ok[seq % FTSW_RT_WINDOW] = absent_ok;
	snprintf(rt->what[seq % FTSW_RT_WINDOW], sizeof(rt->what[0]), "%s", what);
	rt->inflight++;
	rt->nmsgs++;
	return 0;
}

static int send_msg(struct ftsw_rt *rt, struct nl_msg *msg, const char *what,
		    struct ftsw_err *err)
{
	return send_msg_opt(rt, msg, what, false, err);
}

static int put_ifinfo(struct nl_msg *msg, int ifindex, bool up)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = up ? IFF_UP : 0,
		.ifi_change = up ? IFF_UP : 0,
	};

	return nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
}

/*
 * One queue each way. A veth gets as many as the machine has possible CPUs
 * unless told, and every queue is a sysfs directory (with its files, and
 * byte queue limits for a transmit queue) made when the device registers
 * and removed when it goes: per cable, twice that on a many-core host. A
 * veth's transmit takes no queue lock, and without XDP its receive goes
 * through the receiving CPU's backlog whatever the queue: the lab's data
 * path does not use them.
 */
static int put_queues(struct nl_msg *msg)
{
	return nla_put_u32(msg, IFLA_NUM_TX_QUEUES, 1) ||
	       nla_put_u32(msg, IFLA_NUM_RX_QUEUES, 1);
}

int ftsw_rt_veth(struct ftsw_rt *rt, const struct ftsw_veth *v,
		struct ftsw_err *err)
{
	struct nl_msg *msg;
	struct nlattr *li, *data, *peer;
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = v->peer_ifindex,
	};
	char what[48];

	snprintf(what, sizeof(what), "veth %s/%s", v->name, v->peer);
	msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_CREATE |
				 NLM_F_EXCL);
	if (!msg)
		goto nomem;
	if (put_ifinfo(msg, v->ifindex, v->up) ||
	    nla_put_string(msg, IFLA_IFNAME, v->name) ||
	    (v->mtu && nla_put_u32(msg, IFLA_MTU, v->mtu)) ||
	    (v->mac && nla_put(msg, IFLA_ADDRESS, 6, v->mac)) ||
	    (v->group && nla_put_u32(msg, IFLA_GROUP, v->group)) ||
	    put_queues(msg) ||
	    (v->netns_fd > 0 && nla_put_u32(msg, IFLA_NET_NS_FD, v->netns_fd)))
		goto nomem;
	li = nla_nest_start(msg, IFLA_LINKINFO);
	if (!li || nla_put_string(msg, IFLA_INFO_KIND, "veth"))
		goto nomem;
	data = nla_nest_start(msg, IFLA_INFO_DATA);
	peer = data ? nla_nest_start(msg, VETH_INFO_PEER) : NULL;
	if (!peer || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) ||
	    nla_put_string(msg, IFLA_IFNAME, v->peer) ||
	    (v->peer_mtu && nla_put_u32(msg, IFLA_MTU, v->peer_mtu)) ||
	    (v->peer_mac && nla_put(msg, IFLA_ADDRESS, 6, v->peer_mac)) ||
	    (v->peer_group && nla_put_u32(msg, IFLA_GROUP, v->peer_group)) ||
	    put_queues(msg) ||
	    (v->peer_netns_fd >= 0 &&
	     nla_put_u32(msg, IFLA_NET_NS_FD, v->peer_netns_fd)))
		goto nomem;
	nla_nest_end(msg, peer);
	nla_nest_end(msg, data);
	nla_nest_end(msg, li);
	if (send_msg(rt, msg, what, err))
		return -1;
	/*
	 * The peer cannot be brought up inside the creating request (veth's
	 * open fails until both ends are registered): a second request,
	 * processed in order, when the peer stays in this namespace.
	 */
	if (v->peer_ll_none && v->peer_netns_fd < 0 && v->peer_ifindex &&
	    ftsw_rt_ll_none(rt, v->peer_ifindex, what, err))
		return -1;
	if (v->up && v->peer_netns_fd < 0 && v->peer_ifindex)
		return ftsw_rt_link_up(rt, v->peer_ifindex, true, what, err);
	return 0;
nomem:
	nlmsg_free(msg);
	ftsw_err_errno(err, ENOMEM,
		       "%s: message too large or out of memory", what);
	return -1;
}

int ftsw_rt_link_up(struct ftsw_rt *rt, int ifindex, bool up, const char *what,
		   struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_REQUEST);
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = up ? IFF_UP : 0,
		.ifi_change = IFF_UP,
	};

	if (msg && nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return send_msg(rt, msg, what, err);
}

int ftsw_rt_ll_none(struct ftsw_rt *rt, int ifindex, const char *what,
		   struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_REQUEST);
	struct nlattr *af, *in6;

	if (!msg || put_ifinfo(msg, ifindex, false))
		goto nomem;
	af = nla_nest_start(msg, IFLA_AF_SPEC);
	in6 = af ? nla_nest_start(msg, AF_INET6) : NULL;
	if (!in6 || nla_put_u8(msg, IFLA_INET6_ADDR_GEN_MODE,
			       IN6_ADDR_GEN_MODE_NONE))
		goto nomem;
	nla_nest_end(msg, in6);
	nla_nest_end(msg, af);
	return send_msg(rt, msg, what, err);
nomem:
	nlmsg_free(msg);
	ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
	return -1;
}

int ftsw_rt_addr4(struct ftsw_rt *rt, int ifindex, uint32_t addr, unsigned plen,
		 const char *what, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWADDR, NLM_F_REQUEST |
						NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg ifa = {
		.ifa_family = AF_INET,
		.ifa_prefixlen = plen,
		.ifa_scope = RT_SCOPE_UNIVERSE,
		.ifa_index = ifindex,
	};

	if (msg && (nlmsg_append(msg, &ifa, sizeof(ifa), NLMSG_ALIGNTO) ||
		    nla_put(msg, IFA_LOCAL, 4, &addr) ||
		    nla_put(msg, IFA_ADDRESS, 4, &addr))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return send_msg(rt, msg, what, err);
}

int ftsw_rt_addr6(struct ftsw_rt *rt, int ifindex, const uint8_t addr[16],
		 unsigned plen, const char *what, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWADDR, NLM_F_REQUEST |
						NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg ifa = {
		.ifa_family = AF_INET6,
		.ifa_prefixlen = plen,
		.ifa_flags = IFA_F_NODAD,
		.ifa_scope = RT_SCOPE_UNIVERSE,
		.ifa_index = ifindex,
	};

	if (msg && (nlmsg_append(msg, &ifa, sizeof(ifa), NLMSG_ALIGNTO) ||
		    nla_put(msg, IFA_LOCAL, 16, addr) ||
		    nla_put(msg, IFA_ADDRESS, 16, addr))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return send_msg(rt, msg, what, err);
}

int ftsw_rt_neigh4(struct ftsw_rt *rt, int ifindex, uint32_t addr,
		  const uint8_t *mac, const char *what, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWNEIGH, NLM_F_REQUEST |
						NLM_F_CREATE | NLM_F_REPLACE);
	struct ndmsg nd = {
		.ndm_family = AF_INET,
		.ndm_ifindex = ifindex,
		.ndm_state = NUD_PERMANENT,
	};

	if (msg && (nlmsg_append(msg, &nd, sizeof(nd), NLMSG_ALIGNTO) ||
		    nla_put(msg, NDA_DST, 4, &addr) ||
		    nla_put(msg, NDA_LLADDR, 6, mac))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return send_msg(rt, msg, what, err);
}

int ftsw_rt_neigh_del(struct ftsw_rt *rt, int ifindex, int family,
		      const void *addr, const char *what, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_DELNEIGH, NLM_F_REQUEST);
	struct ndmsg nd = {
		.ndm_family = family,
		.ndm_ifindex = ifindex,
	};

	if (msg && (nlmsg_append(msg, &nd, sizeof(nd), NLMSG_ALIGNTO) ||
		    nla_put(msg, NDA_DST, family == AF_INET ? 4 : 16, addr))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return send_msg_opt(rt, msg, what, true, err);
}

int ftsw_rt_tbf(struct ftsw_rt *rt, int ifindex, uint64_t rate_bytes,
	       const char *what, struct ftsw_err *err)
{
	struct rtnl_qdisc *q = rtnl_qdisc_alloc();
	struct nl_msg *msg = NULL;
	uint64_t burst = rate_bytes / 250, limit;
	int rc;

	if (!q) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		return -1;
	}
	if (rate_bytes > INT32_MAX) {
		rtnl_qdisc_put(q);
		ftsw_err_set(err, "%s: rate %llu bytes/s too high for tbf",
			     what, (unsigned long long)rate_bytes);
		return -1;
	}
	if (burst < 2 * (FTSW_MTU_MAX))
		burst = 2 * FTSW_MTU_MAX;
	limit = rate_bytes / 50;	/* 20 ms of queue */
	if (limit < 4 * burst)
		limit = 4 * burst;
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(1, 0));
	rtnl_tc_set_mtu(TC_CAST(q), FTSW_MTU_MAX);
	rc = rtnl_tc_set_kind(TC_CAST(q), "tbf");
	if (!rc) {
		rtnl_qdisc_tbf_set_limit(q, (int)limit);
		rtnl_qdisc_tbf_set_rate(q, (int)rate_bytes, (int)burst, 0);
	}
	if (!rc)
		rc = rtnl_qdisc_build_add_request(q, NLM_F_CREATE | NLM_F_REPLACE,
						  &msg);
	rtnl_qdisc_put(q);
	if (rc < 0) {
		ftsw_err_set(err, "%s: tbf: %s", what, nl_geterror(rc));
		return -1;
	}
	return send_msg(rt, msg, what, err);
}

int ftsw_rt_pfifo(struct ftsw_rt *rt, int ifindex, unsigned limit,
		  const char *what, struct ftsw_err *err)
{
	struct rtnl_qdisc *q = rtnl_qdisc_alloc();
	struct nl_msg *msg = NULL;
	int rc;

	if (!q) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		return -1;
	}
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(1, 0));
	rc = rtnl_tc_set_kind(TC_CAST(q), "pfifo");
	if (!rc)
		rc = rtnl_qdisc_fifo_set_limit(q, (int)limit);
	if (!rc)
		rc = rtnl_qdisc_build_add_request(q, NLM_F_CREATE | NLM_F_REPLACE,
						  &msg);
	rtnl_qdisc_put(q);
	if (rc < 0) {
		ftsw_err_set(err, "%s: pfifo: %s", what, nl_geterror(rc));
		return -1;
	}
	return send_msg(rt, msg, what, err);
}

/* One synchronous request whose replies go to parse(). */
static int request(struct ftsw_rt *rt, struct nl_msg *msg,
		   int (*parse)(struct nlmsghdr *h, void *arg), void *arg,
		   const char *what, struct ftsw_err *err)
{
	static _Thread_local char buf[1 << 16];
	uint32_t seq;
	int done = 0, res = 0;

	if (ftsw_rt_flush(rt, err)) {
		nlmsg_free(msg);
		return -1;
	}
	if (send_free(rt, msg, &seq, what, err))
		return -1;
	while (!done) {
		ssize_t n = recv(rt->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ftsw_err_errno(err, errno, "%s: receive: %s", what,
				       strerror(errno));
			return -1;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (unsigned)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
			} else if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				done = 1;
				if (e->error) {
					const char *m = ack_msg(h);

					ftsw_err_errno(err, -e->error,
						       "%s: %s%s%s%s", what,
						       strerror(-e->error),
						       m ? " (" : "",
						       m ? m : "",
						       m ? ")" : "");
					return -1;
				}
			} else if (!res) {
				res = parse(h, arg);
				if (!(h->nlmsg_flags & NLM_F_MULTI))
					done = 1;
			}
		}
	}
	if (res < 0)
		ftsw_err_set(err, "%s: bad reply", what);
	return res < 0 ? -1 : res;
}

static int parse_ifindex(struct nlmsghdr *h, void *arg)
{
	struct ifinfomsg *ifi = NLMSG_DATA(h);

	if (h->nlmsg_type != RTM_NEWLINK)
		return 0;
	*(int *)arg = ifi->ifi_index;
	return 0;
}

int ftsw_rt_ifindex(struct ftsw_rt *rt, const char *name, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);
	char what[48];
	int ifindex = 0;

	snprintf(what, sizeof(what), "device %s", name);
	if (!msg || put_ifinfo(msg, 0, false) ||
	    nla_put_string(msg, IFLA_IFNAME, name)) {
		nlmsg_free(msg);
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		return -1;
	}
	if (request(rt, msg, parse_ifindex, &ifindex, what, err) < 0)
		return -1;
	return ifindex;
}

struct dump_arg {
	ftsw_rt_link_cb cb;
	void *arg;
};

static int parse_link(struct nlmsghdr *h, void *arg)
{
	struct dump_arg *d = arg;
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct nlattr *tb[IFLA_MAX + 1];
	const char *name = "";
	int link = 0;
	bool carrier = true;

	if (h->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (nlmsg_parse(h, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return -1;
	if (tb[IFLA_IFNAME])
		name = nla_get_string(tb[IFLA_IFNAME]);
	if (tb[IFLA_LINK])
		link = (int)nla_get_u32(tb[IFLA_LINK]);
	if (tb[IFLA_CARRIER])
		carrier = nla_get_u8(tb[IFLA_CARRIER]);
	return d->cb(ifi->ifi_index, name, link, tb[IFLA_LINK_NETNSID] != NULL,
		     ifi->ifi_flags & IFF_UP, carrier, d->arg);
}

int ftsw_rt_dump_links(struct ftsw_rt *rt, ftsw_rt_link_cb cb, void *arg,
		      struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETLINK,
						NLM_F_REQUEST | NLM_F_DUMP);
	struct dump_arg d = { cb, arg };

	if (!msg || put_ifinfo(msg, 0, false)) {
		nlmsg_free(msg);
		ftsw_err_errno(err, ENOMEM, "link dump: out of memory");
		return -1;
	}
	return request(rt, msg, parse_link, &d, "link dump", err) < 0 ? -1 : 0;
}

int ftsw_rt_del_group(struct ftsw_rt *rt, uint32_t group, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_DELLINK, NLM_F_REQUEST);
	char what[48];

	snprintf(what, sizeof(what), "device group %" PRIu32, group);
	if (!msg || put_ifinfo(msg, 0, false) ||
	    nla_put_u32(msg, IFLA_GROUP, group)) {
		nlmsg_free(msg);
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", what);
		return -1;
	}
	if (send_msg(rt, msg, what, err))
		return -1;
	if (!ftsw_rt_flush(rt, err))
		return 0;
	if (rt->error != -ENODEV)
		return -1;
	rt->error = 0;		/* no device in the group */
	return 1;
}

static int max_group_cb(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[IFLA_MAX + 1];
	uint32_t *max = arg;

	if (h->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (nlmsg_parse(h, sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL) < 0)
		return -1;
	if (tb[IFLA_GROUP] && nla_get_u32(tb[IFLA_GROUP]) > *max)
		*max = nla_get_u32(tb[IFLA_GROUP]);
	return 0;
}

int ftsw_rt_max_group(struct ftsw_rt *rt, uint32_t *max, struct ftsw_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETLINK,
						NLM_F_REQUEST | NLM_F_DUMP);

	*max = 0;
	if (!msg || put_ifinfo(msg, 0, false)) {
		nlmsg_free(msg);
		ftsw_err_errno(err, ENOMEM, "link dump: out of memory");
		return -1;
	}
	return request(rt, msg, max_group_cb, max, "link dump", err) < 0 ?
	       -1 : 0;
}

int ftsw_sysctl(const char *path, const char *value, struct ftsw_err *err)
{
	char p[256];
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/sys/%s", path);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;	/* e.g. no IPv6 in this kernel */
		ftsw_err_errno(err, errno, "sysctl %s: %s", path,
			       strerror(errno));
		return -1;
	}
	n = write(fd, value, strlen(value));
	close(fd);
	if (n < 0) {
		ftsw_err_errno(err, errno, "sysctl %s: %s", path,
			       strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Open a numeric sysctl for reading and writing and read its value: the
 * descriptor, or -1 if it cannot be opened or does not hold a number.
 */
static int sysctl_open_num(const char *path, long *cur)
{
	char p[256], buf[32], *end;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/sys/%s", path);
	fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		errno = 0;
		*cur = strtol(buf, &end, 10);
		if (!errno && end != buf)
			return fd;
	}
	close(fd);
	return -1;
}

/* Write @v into the sysctl open on @fd (then closed): 0, or -1. */
static int sysctl_write_num(int fd, long v)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld", v);
	int rc = pwrite(fd, buf, (size_t)n, 0) == n ? 0 : -1;

	close(fd);
	return rc;
}

int ftsw_sysctl_raise(const char *path, unsigned long min)
{
	long cur;
	int fd = sysctl_open_num(path, &cur);

	if (fd < 0)
		return -1;
	if (cur >= 0 && (unsigned long)cur >= min) {
		close(fd);
		return 0;
	}
	return sysctl_write_num(fd, (long)min);
}

int ftsw_sysctl_swap(const char *path, long want, long *old)
{
	int fd = sysctl_open_num(path, old);

	if (fd < 0)
		return -1;
	if (*old == want) {
		close(fd);
		return 0;
	}
	return sysctl_write_num(fd, want) ? -1 : 1;
}
