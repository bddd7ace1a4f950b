// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw netlink client: libnl-genl-3 requests and dumps for the "ftsw"
 * family, with the kernel's extack message surfaced in errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>
#include <netlink/attr.h>

#include "nl/nl.h"

#include "nl/nl_int.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct ftsw_nl {
	struct nl_sock *sk;
	int family;
	int mcgrp;
	struct nl_msg *req;	/* the request in flight, for error offsets */
	char err[512];
	int errnum;		/* the last call's errno, 0: it succeeded */
};

/* What one request collects. */
struct ftsw_req {
	struct ftsw_nl *nl;
	int done;
	int error;
	/* each reply's attributes (FTSW_ATTR_MAX + 1 of them, NULL: absent) */
	int (*parse)(struct nlattr **tb, void *arg);
	void *arg;
};

static const char *const ftsw_attr_names[FTSW_ATTR_MAX + 1] = {
	[FTSW_ATTR_GENERATION] = "generation",
	[FTSW_ATTR_HOP_LIMIT] = "hop-limit",
	[FTSW_ATTR_SWITCH_ID] = "switch id",
	[FTSW_ATTR_SWITCH_GUID] = "switch guid",
	[FTSW_ATTR_SWITCH_NAME] = "switch name",
	[FTSW_ATTR_SWITCH_NPORTS] = "switch ports",
	[FTSW_ATTR_SWITCH_LID] = "switch lid",
	[FTSW_ATTR_PORT_NUM] = "port",
	[FTSW_ATTR_PORT_IFINDEX] = "dev",
	[FTSW_ATTR_PORT_KIND] = "kind",
	[FTSW_ATTR_PORT_ADMIN_UP] = "admin state",
	[FTSW_ATTR_PORT_BASE_LID] = "lid",
	[FTSW_ATTR_PORT_LMC] = "lmc",
	[FTSW_ATTR_PORT_OFFSETS] = "offsets",
	[FTSW_ATTR_PORT_SL] = "sl",
	[FTSW_ATTR_PORT_SL_TABLE] = "sl-table",
	[FTSW_ATTR_PORT_SL_TABLE_LEN] = "sl-table length",
	[FTSW_ATTR_LFT_FIRST_LID] = "first lid",
	[FTSW_ATTR_LFT_DATA] = "lft block",
	[FTSW_ATTR_LFT_STAGED] = "staged",
	[FTSW_ATTR_SL2VL] = "sl2vl",
	[FTSW_ATTR_PLAN_HOSTS] = "plan hosts",
	[FTSW_ATTR_PLAN_IP4] = "plan ipv4",
	[FTSW_ATTR_PLAN_IP6] = "plan ipv6",
	[FTSW_ATTR_PLAN_LID] = "plan lid",
	[FTSW_ATTR_PLAN_LMC] = "plan lmc",
	[FTSW_ATTR_PLAN_STAGED] = "plan staged",
	[FTSW_ATTR_PORT_PEER_SWITCH] = "peer switch",
	[FTSW_ATTR_PORT_PEER_NUM] = "peer port",
	[FTSW_ATTR_PORT_NODE_DESC] = "node description",
	[FTSW_ATTR_PORT_CA_GUID] = "CA GUID",
	[FTSW_ATTR_LOSSLESS] = "lossless",
	[FTSW_ATTR_SWITCH_LIFE] = "switch lifetime",
	[FTSW_ATTR_PORT_RATE] = "rate",
	[FTSW_ATTR_PORT_IN_BUF] = "input buffer",
	[FTSW_ATTR_PORT_OUT_BUF] = "output queue",
	[FTSW_ATTR_PORT_HOQ_LIFE] = "HOQ lifetime",
	[FTSW_ATTR_PORT_VL_HIGH_LIMIT] = "VL high limit",
	[FTSW_ATTR_PORT_VLARB_HIGH] = "VL arbitration high",
	[FTSW_ATTR_PORT_VLARB_LOW] = "VL arbitration low",
	[FTSW_ATTR_SWITCH_INBAND_SM] = "in-band SM",
	[FTSW_ATTR_PORT_STATE] = "port state",
	[FTSW_ATTR_AR_SETS] = "adaptive port sets",
	[FTSW_ATTR_AR_DATA] = "adaptive groups",
	[FTSW_ATTR_AR_FLOWLET_NS] = "flowlet gap",
	[FTSW_ATTR_CC_TIMER_NS] = "CC timer unit",
	[FTSW_ATTR_PORT_PKEY] = "pkey",
	[FTSW_ATTR_PORT_PKEY_TABLE] = "pkey-table",
	[FTSW_ATTR_PORT_PKEYS] = "pkeys",
	[FTSW_ATTR_PORT_CA_PKEYS] = "ca-pkeys",
	[FTSW_ATTR_PORT_ENFORCE] = "enforce",
	[FTSW_ATTR_PORT_MCAST] = "multicast groups",
};

static const char *attr_name(int type)
{
	if (type > 0 && type <= FTSW_ATTR_MAX && ftsw_attr_names[type])
		return ftsw_attr_names[type];
	return "unknown attribute";
}

const char *ftsw_nl_error(const struct ftsw_nl *nl)
{
	return nl->err[0] ? nl->err : "no error";
}

int ftsw_nl_errno(const struct ftsw_nl *nl)
{
	return nl->errnum;
}

static int set_err(struct ftsw_nl *nl, int err, const char *what)
{
	snprintf(nl->err, sizeof(nl->err), "%s: %s", what, strerror(-err));
	nl->errnum = -err;
	return err;
}

struct ftsw_nl *ftsw_nl_open(void)
{
	struct ftsw_nl *nl;
	int one = 1, err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return NULL;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		goto fail;
	err = genl_connect(nl->sk);
	if (err < 0)
		goto fail;
	nl_socket_enable_msg_peek(nl->sk);
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, FTSW_GENL_NAME);
	if (nl->family < 0) {
		nl_socket_free(nl->sk);
		free(nl);
		errno = ENOENT;	/* module not loaded */
		return NULL;
	}
	nl->mcgrp = -1;
	return nl;
fail:
	if (nl->sk)
		nl_socket_free(nl->sk);
	free(nl);
	errno = ECONNREFUSED;
	return NULL;
}

void ftsw_nl_close(struct ftsw_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

/* The extack TLVs after a struct nlmsgerr. */
static int err_handler(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct ftsw_req *r = arg;
	struct ftsw_nl *nl = r->nl;
	struct nlmsghdr *h = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };
	const char *msg = NULL;
	char where[96] = "";
	int off, len;

	(void)who;
	r->error = e->error ? e->error : -EIO;
	r->done = 1;
	if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
		off = sizeof(*e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		len = (int)h->nlmsg_len - NLMSG_HDRLEN - off;
		if (len > 0)
			nla_parse(tb, NLMSGERR_ATTR_MAX,
				  (struct nlattr *)((char *)e + off), len, NULL);
		if (tb[NLMSGERR_ATTR_MSG])
			msg = nla_get_string(tb[NLMSGERR_ATTR_MSG]);
		if (tb[NLMSGERR_ATTR_OFFS] && nl->req) {
			uint32_t o = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
			struct nlmsghdr *rq = nlmsg_hdr(nl->req);

			if (o + sizeof(struct nlattr) <= rq->nlmsg_len) {
				struct nlattr *a = (struct nlattr *)((char *)rq + o);

				snprintf(where, sizeof(where), " (attribute '%s')",
					 attr_name(nla_type(a)));
			}
		}
		if (tb[NLMSGERR_ATTR_MISS_TYPE])
			snprintf(where, sizeof(where), " (missing '%s')",
				 attr_name(nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE])));
	}
	snprintf(nl->err, sizeof(nl->err), "%s%s%s", msg ? msg : strerror(-r->error),
		 msg ? "" : "", where);
	if (msg)
		snprintf(nl->err + strlen(nl->err),
			 sizeof(nl->err) - strlen(nl->err), " [%s]",
			 strerror(-r->error));
	return NL_STOP;
}

static int ack_handler(struct nl_msg *msg, void *arg)
{
	struct ftsw_req *r = arg;

	(void)msg;
	r->done = 1;
	return NL_STOP;
}

static struct nlattr **parse_attrs(struct nl_msg *msg, struct nlattr **tb)
{
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FTSW_ATTR_MAX, NULL) < 0)
		return NULL;
	return tb;
}

static int valid_handler(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FTSW_ATTR_MAX + 1];
	struct ftsw_req *r = arg;

	if (r->parse) {
		int err = parse_attrs(msg, tb) ? r->parse(tb, r->arg) : -EINVAL;

		if (err) {
			r->error = err;
			return NL_STOP;
		}
	}
	return NL_OK;
}

static struct nl_msg *new_msg(struct ftsw_nl *nl, uint8_t cmd, int flags,
			      size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, FTSW_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Send @msg (consumed), collect replies with @parse until ack/done/error. */
static int transact(struct ftsw_nl *nl, struct nl_msg *msg,
		    int (*parse)(struct nlattr **tb, void *arg), void *arg)
{
	struct ftsw_req r = { .nl = nl, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int err;

	nl->err[0] = 0;
	if (!msg)
		return set_err(nl, -ENOMEM, "building request");
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return set_err(nl, -ENOMEM, "netlink callbacks");
	}
	nl_cb_err(cb, NL_CB_CUSTOM, err_handler, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_handler, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, ack_handler, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_handler, &r);
	nl->req = msg;
	err = nl_send_auto(nl->sk, msg);
	if (err < 0) {
		snprintf(nl->err, sizeof(nl->err), "send: %s", nl_geterror(err));
		r.error = -EIO;
		goto out;
	}
	while (!r.done && !r.error) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !r.error) {
			snprintf(nl->err, sizeof(nl->err), "receive: %s",
				 nl_geterror(err));
			r.error = -EIO;
		}
	}
out:
	nl->req = NULL;
	nl->errnum = -r.error;
	nlmsg_free(msg);
	nl_cb_put(cb);
	return r.error;
}

static int simple(struct ftsw_nl *nl, struct nl_msg *msg)
{
	return transact(nl, msg, NULL, NULL);
}

/* Attribute values, 0 when the attribute is absent. */
static uint8_t get_u8(const struct nlattr *a) { return a ? nla_get_u8(a) : 0; }
static uint16_t get_u16(const struct nlattr *a) { return a ? nla_get_u16(a) : 0; }
static uint32_t get_u32(const struct nlattr *a) { return a ? nla_get_u32(a) : 0; }
static uint64_t get_u64(const struct nlattr *a) { return a ? nla_get_u64(a) : 0; }

static void parse_drops(struct nlattr *nest, uint64_t *drops)
{
	struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		int t = nla_type(a);

		if (t > 0 && t <= FTSW_DROP_MAX)
			drops[t] = nla_get_u64(a);
	}
}

/* ---------------------------------------------------------------- fabric */

static int parse_fabric(struct nlattr **tb, void *arg)
{
	struct ftsw_fabric_info *fi = arg;

	memset(fi, 0, sizeof(*fi));
	fi->generation = get_u64(tb[FTSW_ATTR_GENERATION]);
	fi->nswitches = get_u32(tb[FTSW_ATTR_SWITCH_COUNT]);
	fi->nports = get_u32(tb[FTSW_ATTR_PORT_COUNT]);
	fi->max_switches = get_u32(tb[FTSW_ATTR_MAX_SWITCHES]);
	fi->max_lid = get_u16(tb[FTSW_ATTR_MAX_LID]);
	fi->max_ports = get_u8(tb[FTSW_ATTR_MAX_PORTS]);
	fi->hop_limit = get_u8(tb[FTSW_ATTR_HOP_LIMIT]);
	fi->lft_bytes = get_u64(tb[FTSW_ATTR_LFT_BYTES]);
	fi->lossless = get_u8(tb[FTSW_ATTR_LOSSLESS]);
	fi->flowlet_ns = get_u64(tb[FTSW_ATTR_AR_FLOWLET_NS]);
	fi->cc_timer_ns = get_u32(tb[FTSW_ATTR_CC_TIMER_NS]);
	if (tb[FTSW_ATTR_DROPS])
		parse_drops(tb[FTSW_ATTR_DROPS], fi->drops);
	return 0;
}

int ftsw_nl_fabric_get(struct ftsw_nl *nl, struct ftsw_fabric_info *fi)
{
	return transact(nl, new_msg(nl, FTSW_CMD_FABRIC_GET, NLM_F_ACK, 0),
			parse_fabric, fi);
}

int ftsw_nl_fabric_set_hop_limit(struct ftsw_nl *nl, uint8_t hop_limit)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_FABRIC_SET, NLM_F_ACK, 0);

	if (msg)
		nla_put_u8(msg, FTSW_ATTR_HOP_LIMIT, hop_limit);
	return simple(nl, msg);
}

int ftsw_nl_fabric_reset(struct ftsw_nl *nl)
{
	return simple(nl, new_msg(nl, FTSW_CMD_FABRIC_RESET, NLM_F_ACK, 0));
}

/* ---------------------------------------------------------------- switch */

static void switch_from(struct nlattr **tb, struct ftsw_switch_info *si)
{
	memset(si, 0, sizeof(*si));
	si->id = get_u32(tb[FTSW_ATTR_SWITCH_ID]);
	si->guid = get_u64(tb[FTSW_ATTR_SWITCH_GUID]);
	if (tb[FTSW_ATTR_SWITCH_NAME])
		nla_strlcpy(si->name, tb[FTSW_ATTR_SWITCH_NAME],
			    sizeof(si->name));
	si->nports = get_u8(tb[FTSW_ATTR_SWITCH_NPORTS]);
	si->lid = get_u16(tb[FTSW_ATTR_SWITCH_LID]);
	si->nbound = get_u32(tb[FTSW_ATTR_PORT_COUNT]);
	si->lft_size = get_u32(tb[FTSW_ATTR_LFT_SIZE]);
	si->staged = tb[FTSW_ATTR_SWITCH_STAGED] != NULL;
	if (tb[FTSW_ATTR_SL2VL] && nla_len(tb[FTSW_ATTR_SL2VL]) == FTSW_NUM_SL)
		memcpy(si->sl2vl, nla_data(tb[FTSW_ATTR_SL2VL]), FTSW_NUM_SL);
	si->life = get_u8(tb[FTSW_ATTR_SWITCH_LIFE]);
	si->inband_sm = get_u8(tb[FTSW_ATTR_SWITCH_INBAND_SM]);
}

int ftsw_nl_switch_new(struct ftsw_nl *nl, const struct ftsw_switch_info *si)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_SWITCH_NEW, NLM_F_ACK, 0);

	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, si->id);
		nla_put_u8(msg, FTSW_ATTR_SWITCH_NPORTS, si->nports);
		if (si->guid)
			nla_put_u64(msg, FTSW_ATTR_SWITCH_GUID, si->guid);
		if (si->name[0])
			nla_put_string(msg, FTSW_ATTR_SWITCH_NAME, si->name);
		if (si->lid)
			nla_put_u16(msg, FTSW_ATTR_SWITCH_LID, si->lid);
		if (si->inband_sm)
			nla_put_u8(msg, FTSW_ATTR_SWITCH_INBAND_SM, 1);
	}
	return simple(nl, msg);
}

/* A request cmd naming switch id (NULL when out of memory). */
static struct nl_msg *switch_msg(struct ftsw_nl *nl, uint8_t cmd, int flags,
				 uint32_t id)
{
	struct nl_msg *msg = new_msg(nl, cmd, flags, 0);

	if (msg)
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, id);
	return msg;
}

int ftsw_nl_switch_del(struct ftsw_nl *nl, uint32_t id)
{
	return simple(nl, switch_msg(nl, FTSW_CMD_SWITCH_DEL, NLM_F_ACK, id));
}

static int parse_switch(struct nlattr **tb, void *arg)
{
	switch_from(tb, arg);
	return 0;
}

int ftsw_nl_switch_get(struct ftsw_nl *nl, uint32_t id,
		       struct ftsw_switch_info *si)
{
	return transact(nl, switch_msg(nl, FTSW_CMD_SWITCH_GET, NLM_F_ACK, id),
			parse_switch, si);
}

/* A dump's callback and its argument: each parsed object goes to cb. */
struct dump {
	union {
		ftsw_switch_cb sw;
		ftsw_port_cb port;
	} cb;
	void *arg;
};

static int parse_switch_dump(struct nlattr **tb, void *arg)
{
	struct dump *d = arg;
	struct ftsw_switch_info si;

	switch_from(tb, &si);
	return d->cb.sw(&si, d->arg);
}

int ftsw_nl_switch_dump(struct ftsw_nl *nl, ftsw_switch_cb cb, void *arg)
{
	struct dump d = { .cb.sw = cb, .arg = arg };

	return transact(nl, new_msg(nl, FTSW_CMD_SWITCH_GET, NLM_F_DUMP, 0),
			parse_switch_dump, &d);
}

/* ---------------------------------------------------------------- port */

void ftsw_port_cfg_init(struct ftsw_port_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->peer_switch = -1;
	c->admin_up = -1;
	c->base_lid = -1;
	c->lmc = -1;
	c->sl = -1;
	c->rate = -1;
	c->in_buf = -1;
	c->out_buf = -1;
	c->hoq_life = -1;
	c->vl_high_limit = -1;
	c->nvlarb_high = -1;
	c->nvlarb_low = -1;
	c->state = -1;
	c->pkey = -1;
	c->enforce = -1;
}

static void put_port_cfg(struct nl_msg *msg, const struct ftsw_port_cfg *c)
{
	nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, c->switch_id);
	nla_put_u8(msg, FTSW_ATTR_PORT_NUM, c->port);
	if (c->admin_up >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_ADMIN_UP, c->admin_up);
	if (c->base_lid >= 0)
		nla_put_u16(msg, FTSW_ATTR_PORT_BASE_LID, c->base_lid);
	if (c->lmc >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_LMC, c->lmc);
	if (c->sl >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_SL, c->sl);
	if (c->n_offsets > 0)
		nla_put(msg, FTSW_ATTR_PORT_OFFSETS, c->n_offsets, c->offsets);
	if (c->sl_table)
		nla_put(msg, FTSW_ATTR_PORT_SL_TABLE, c->sl_table_len,
			c->sl_table);
	if (c->node_desc)
		nla_put_string(msg, FTSW_ATTR_PORT_NODE_DESC, c->node_desc);
	if (c->ca_guid)
		nla_put_u64(msg, FTSW_ATTR_PORT_CA_GUID, c->ca_guid);
}

int ftsw_nl_port_bind(struct ftsw_nl *nl, const struct ftsw_port_cfg *c)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_PORT_BIND, NLM_F_ACK,
				     c->sl_table_len + 4096);

	if (msg) {
		put_port_cfg(msg, c);
		if (c->peer_switch >= 0) {
			nla_put_u32(msg, FTSW_ATTR_PORT_PEER_SWITCH,
				    (uint32_t)c->peer_switch);
			nla_put_u8(msg, FTSW_ATTR_PORT_PEER_NUM, c->peer_port);
		} else {
			nla_put_u32(msg, FTSW_ATTR_PORT_IFINDEX, c->ifindex);
		}
		nla_put_u8(msg, FTSW_ATTR_PORT_KIND, c->kind);
	}
	return simple(nl, msg);
}

int ftsw_nl_port_set(struct ftsw_nl *nl, const struct ftsw_port_cfg *c)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_PORT_SET, NLM_F_ACK,
				     c->sl_table_len + 2 * c->pkey_table_len +
				     c->mcast_n * sizeof(*c->mcast) + 4096);

	if (msg) {
		put_port_cfg(msg, c);
		ftsw_nl_put_port_ll(msg, c);
		ftsw_nl_put_port_pkey(msg, c);
		if (c->state >= 0)
			nla_put_u8(msg, FTSW_ATTR_PORT_STATE, c->state);
	}
	return simple(nl, msg);
}

/* A request cmd naming port of switch sw (NULL when out of memory). */
static struct nl_msg *port_msg(struct ftsw_nl *nl, uint8_t cmd, uint32_t sw,
			       uint8_t port)
{
	struct nl_msg *msg = switch_msg(nl, cmd, NLM_F_ACK, sw);

	if (msg)
		nla_put_u8(msg, FTSW_ATTR_PORT_NUM, port);
	return msg;
}

int ftsw_nl_port_unbind(struct ftsw_nl *nl, uint32_t sw, uint8_t port)
{
	return simple(nl, port_msg(nl, FTSW_CMD_PORT_UNBIND, sw, port));
}

int ftsw_nl_port_clear(struct ftsw_nl *nl, uint32_t sw, uint8_t port)
{
	return simple(nl, port_msg(nl, FTSW_CMD_PORT_CLEAR, sw, port));
}

static void port_from(struct nlattr **tb, struct ftsw_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->switch_id = get_u32(tb[FTSW_ATTR_SWITCH_ID]);
	pi->port = get_u8(tb[FTSW_ATTR_PORT_NUM]);
	pi->ifindex = get_u32(tb[FTSW_ATTR_PORT_IFINDEX]);
	if (tb[FTSW_ATTR_PORT_IFNAME])
		nla_strlcpy(pi->ifname, tb[FTSW_ATTR_PORT_IFNAME],
			    sizeof(pi->ifname));
	pi->kind = get_u8(tb[FTSW_ATTR_PORT_KIND]);
	pi->admin_up = get_u8(tb[FTSW_ATTR_PORT_ADMIN_UP]);
	pi->oper_up = get_u8(tb[FTSW_ATTR_PORT_OPER_UP]);
	pi->reason = get_u8(tb[FTSW_ATTR_PORT_REASON]);
	pi->state = get_u8(tb[FTSW_ATTR_PORT_STATE]);
	if (tb[FTSW_ATTR_PORT_PEER_SWITCH]) {
		pi->patch = true;
		pi->peer_switch = get_u32(tb[FTSW_ATTR_PORT_PEER_SWITCH]);
		pi->peer_port = get_u8(tb[FTSW_ATTR_PORT_PEER_NUM]);
	}
	if (tb[FTSW_ATTR_PORT_BASE_LID]) {
		pi->edge = true;
		pi->base_lid = nla_get_u16(tb[FTSW_ATTR_PORT_BASE_LID]);
	}
	pi->lmc = get_u8(tb[FTSW_ATTR_PORT_LMC]);
	pi->sl = get_u8(tb[FTSW_ATTR_PORT_SL]);
	if (tb[FTSW_ATTR_PORT_NODE_DESC])
		nla_strlcpy(pi->node_desc, tb[FTSW_ATTR_PORT_NODE_DESC],
			    sizeof(pi->node_desc));
	pi->ca_guid = get_u64(tb[FTSW_ATTR_PORT_CA_GUID]);
	pi->sl_table_len = get_u32(tb[FTSW_ATTR_PORT_SL_TABLE_LEN]);
	if (tb[FTSW_ATTR_PORT_SL_TABLE]) {
		int n = nla_len(tb[FTSW_ATTR_PORT_SL_TABLE]);

		if (n > FTSW_SL_TABLE_ECHO)
			n = FTSW_SL_TABLE_ECHO;
		pi->sl_table_shown = true;
		pi->sl_table_n = (uint16_t)n;
		memcpy(pi->sl_table, nla_data(tb[FTSW_ATTR_PORT_SL_TABLE]), n);
	}
	if (tb[FTSW_ATTR_PORT_OFFSETS]) {
		int n = nla_len(tb[FTSW_ATTR_PORT_OFFSETS]);

		if (n > FTSW_MAX_OFFSETS)
			n = FTSW_MAX_OFFSETS;
		pi->n_offsets = n;
		memcpy(pi->offsets, nla_data(tb[FTSW_ATTR_PORT_OFFSETS]), n);
	}
	ftsw_nl_port_ll_from(tb, &pi->ll);
	ftsw_nl_port_pkey_from(tb, &pi->pk);
	ftsw_nl_port_mcast_from(tb, pi);
	ftsw_nl_port_mkey_from(tb, pi);
	if (tb[FTSW_ATTR_PORT_STATS]) {
		struct nlattr *a, *b;
		int rem, rem2;

		pi->has_stats = true;
		nla_for_each_nested(a, tb[FTSW_ATTR_PORT_STATS], rem) {
			switch (nla_type(a)) {
			case FTSW_STATS_RX_PACKETS:
				pi->stats.rx_packets = nla_get_u64(a);
				break;
			case FTSW_STATS_RX_BYTES:
				pi->stats.rx_bytes = nla_get_u64(a);
				break;
			case FTSW_STATS_TX_PACKETS:
				pi->stats.tx_packets = nla_get_u64(a);
				break;
			case FTSW_STATS_TX_BYTES:
				pi->stats.tx_bytes = nla_get_u64(a);
				break;
			case FTSW_STATS_TX_VL:
				nla_for_each_nested(b, a, rem2) {
					int t = nla_type(b);

					if (t >= 1 && t <= FTSW_NUM_VL)
						pi->stats.tx_vl[t - 1] =
							nla_get_u64(b);
				}
				break;
			case FTSW_STATS_DROPS:
				parse_drops(a, pi->stats.drops);
				break;
			case FTSW_STATS_RESOLVED:
				pi->stats.resolved = nla_get_u64(a);
				break;
			case FTSW_STATS_AR_DIVERTED:
				pi->stats.ar_diverted = nla_get_u64(a);
				break;
			case FTSW_STATS_OUT_OF_ORDER:
				pi->stats.out_of_order = nla_get_u64(a);
				break;
			case FTSW_STATS_CC_FECN:
				pi->stats.cc_fecn = nla_get_u64(a);
				break;
			case FTSW_STATS_CC_CNP:
				pi->stats.cc_cnp = nla_get_u64(a);
				break;
			case FTSW_STATS_CC_BECN:
				pi->stats.cc_becn = nla_get_u64(a);
				break;
			case FTSW_STATS_CC_HELD:
				pi->stats.cc_held = nla_get_u64(a);
				break;
			}
		}
	}
}

static int parse_port(struct nlattr **tb, void *arg)
{
	port_from(tb, arg);
	return 0;
}

int ftsw_nl_port_get(struct ftsw_nl *nl, uint32_t sw, uint8_t port,
		     struct ftsw_port_info *pi)
{
	return transact(nl, port_msg(nl, FTSW_CMD_PORT_GET, sw, port),
			parse_port, pi);
}

static int parse_port_dump(struct nlattr **tb, void *arg)
{
	struct dump *d = arg;
	struct ftsw_port_info pi;

	port_from(tb, &pi);
	return d->cb.port(&pi, d->arg);
}

int ftsw_nl_port_dump(struct ftsw_nl *nl, int64_t sw, ftsw_port_cb cb,
		      void *arg)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_PORT_GET, NLM_F_DUMP, 0);
	struct dump d = { .cb.port = cb, .arg = arg };

	if (msg && sw >= 0)
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, (uint32_t)sw);
	return transact(nl, msg, parse_port_dump, &d);
}

/* ---------------------------------------------------------------- tables */

int ftsw_nl_lft_set(struct ftsw_nl *nl, uint32_t sw, uint16_t first,
		    const uint8_t *ports, uint32_t len)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_LFT_SET, NLM_F_ACK,
				     len + 1024);

	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		nla_put_u16(msg, FTSW_ATTR_LFT_FIRST_LID, first);
		if (nla_put(msg, FTSW_ATTR_LFT_DATA, len, ports) < 0) {
			nlmsg_free(msg);
			return set_err(nl, -EMSGSIZE, "LFT block");
		}
	}
	return simple(nl, msg);
}

int ftsw_nl_lft_upload(struct ftsw_nl *nl, uint32_t sw, const uint8_t *lft,
		       size_t first, size_t end, size_t *at)
{
	size_t n;

	if (end > FTSW_LFT_SIZE)
		end = FTSW_LFT_SIZE;
	for (; first < end; first += n) {
		n = end - first > FTSW_NL_LFT_BLOCK ? FTSW_NL_LFT_BLOCK :
		    end - first;
		if (ftsw_nl_lft_set(nl, sw, (uint16_t)first, lft + first,
				    (uint32_t)n)) {
			if (at)
				*at = first;
			return -1;
		}
	}
	return 0;
}

struct lft_read {
	uint8_t *table;
	uint32_t size;
	bool staged;
};

static int parse_lft(struct nlattr **tb, void *arg)
{
	struct lft_read *l = arg;
	uint32_t first, n;

	if (tb[FTSW_ATTR_LFT_SIZE])
		l->size = nla_get_u32(tb[FTSW_ATTR_LFT_SIZE]);
	if (tb[FTSW_ATTR_SWITCH_STAGED])
		l->staged = true;
	if (!tb[FTSW_ATTR_LFT_DATA] || !tb[FTSW_ATTR_LFT_FIRST_LID])
		return 0;
	first = nla_get_u16(tb[FTSW_ATTR_LFT_FIRST_LID]);
	n = nla_len(tb[FTSW_ATTR_LFT_DATA]);
	if (first >= FTSW_LFT_SIZE || n > FTSW_LFT_SIZE - first)
		return -EINVAL;
	memcpy(l->table + first, nla_data(tb[FTSW_ATTR_LFT_DATA]), n);
	return 0;
}

int ftsw_nl_lft_get(struct ftsw_nl *nl, uint32_t sw, bool staged,
		    uint8_t *table, uint32_t *size, bool *has_staged)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_LFT_GET, NLM_F_DUMP, 0);
	struct lft_read l = { .table = table };
	struct ftsw_switch_info si;
	int err;

	/* A dump of an unknown switch is empty: ask for the switch first. */
	err = ftsw_nl_switch_get(nl, sw, &si);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	memset(table, FTSW_NO_ROUTE, FTSW_LFT_SIZE);
	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		if (staged)
			nla_put_flag(msg, FTSW_ATTR_LFT_STAGED);
	}
	err = transact(nl, msg, parse_lft, &l);
	if (size)
		*size = l.size;
	if (has_staged)
		*has_staged = si.staged;
	return err;
}

int ftsw_nl_lft_discard(struct ftsw_nl *nl, int64_t sw)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_LFT_DISCARD, NLM_F_ACK, 0);

	if (msg && sw >= 0)
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, (uint32_t)sw);
	return simple(nl, msg);
}

int ftsw_nl_sl2vl_set(struct ftsw_nl *nl, uint32_t sw,
		      const uint8_t vl[FTSW_NUM_SL])
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_SL2VL_SET, NLM_F_ACK, 0);

	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		nla_put(msg, FTSW_ATTR_SL2VL, FTSW_NUM_SL, vl);
	}
	return simple(nl, msg);
}

static int parse_generation(struct nlattr **tb, void *arg)
{
	if (tb[FTSW_ATTR_GENERATION])
		*(uint64_t *)arg = nla_get_u64(tb[FTSW_ATTR_GENERATION]);
	return 0;
}

int ftsw_nl_commit(struct ftsw_nl *nl, uint64_t *generation)
{
	uint64_t gen = 0;
	int err;

	err = transact(nl, new_msg(nl, FTSW_CMD_COMMIT, NLM_F_ACK, 0),
		       parse_generation, &gen);
	if (!err && generation)
		*generation = gen;
	return err;
}

/* ---------------------------------------------------------------- plan */

int ftsw_nl_plan_set(struct ftsw_nl *nl, const struct ftsw_plan_info *p)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_PLAN_SET, NLM_F_ACK, 0);
	static const uint8_t zero6[16];

	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_PLAN_HOSTS, p->hosts);
		if (p->hosts) {
			nla_put_u16(msg, FTSW_ATTR_PLAN_LID, p->lid);
			nla_put_u8(msg, FTSW_ATTR_PLAN_LMC, p->lmc);
			if (p->ip4)
				nla_put(msg, FTSW_ATTR_PLAN_IP4, 4, &p->ip4);
			if (memcmp(p->ip6, zero6, 16))
				nla_put(msg, FTSW_ATTR_PLAN_IP6, 16, p->ip6);
		}
	}
	return simple(nl, msg);
}

static int parse_plan(struct nlattr **tb, void *arg)
{
	struct ftsw_plan_info *p = arg;

	memset(p, 0, sizeof(*p));
	p->staged = tb[FTSW_ATTR_PLAN_STAGED] != NULL;
	p->hosts = get_u32(tb[FTSW_ATTR_PLAN_HOSTS]);
	p->lid = get_u16(tb[FTSW_ATTR_PLAN_LID]);
	p->lmc = get_u8(tb[FTSW_ATTR_PLAN_LMC]);
	if (tb[FTSW_ATTR_PLAN_IP4] && nla_len(tb[FTSW_ATTR_PLAN_IP4]) == 4)
		memcpy(&p->ip4, nla_data(tb[FTSW_ATTR_PLAN_IP4]), 4);
	if (tb[FTSW_ATTR_PLAN_IP6] && nla_len(tb[FTSW_ATTR_PLAN_IP6]) == 16)
		memcpy(p->ip6, nla_data(tb[FTSW_ATTR_PLAN_IP6]), 16);
	return 0;
}

int ftsw_nl_plan_get(struct ftsw_nl *nl, bool staged, struct ftsw_plan_info *p)
{
	struct nl_msg *msg = new_msg(nl, FTSW_CMD_PLAN_GET, NLM_F_ACK, 0);

	if (msg && staged)
		nla_put_flag(msg, FTSW_ATTR_PLAN_STAGED);
	return transact(nl, msg, parse_plan, p);
}

/* ---------------------------------------------------------------- events */

int ftsw_nl_subscribe(struct ftsw_nl *nl)
{
	int grp, err;

	grp = genl_ctrl_resolve_grp(nl->sk, FTSW_GENL_NAME, FTSW_MCGRP_EVENTS);
	if (grp < 0)
		return set_err(nl, -ENOENT, "events group");
	err = nl_socket_add_membership(nl->sk, grp);
	if (err < 0)
		return set_err(nl, -EIO, "joining the events group");
	nl->mcgrp = grp;
	nl_socket_disable_seq_check(nl->sk);
	return 0;
}

int ftsw_nl_event_fd(const struct ftsw_nl *nl)
{
	return nl_socket_get_fd(nl->sk);
}

struct event_recv {
	ftsw_event_cb cb;
	void *arg;
	int stop;
};

static int parse_event(struct nl_msg *msg, void *arg)
{
	struct event_recv *e = arg;
	struct nlattr *tb[FTSW_ATTR_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct ftsw_event ev;

	if (!parse_attrs(msg, tb))
		return NL_SKIP;
	memset(&ev, 0, sizeof(ev));
	ev.cmd = g->cmd;
	if (g->cmd == FTSW_CMD_PORT_EVENT)
		port_from(tb, &ev.port);
	else if (g->cmd == FTSW_CMD_COMMIT_EVENT && tb[FTSW_ATTR_GENERATION])
		ev.generation = nla_get_u64(tb[FTSW_ATTR_GENERATION]);
	else
		return NL_SKIP;
	e->stop = e->cb(&ev, e->arg);
	return e->stop ? NL_STOP : NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int ftsw_nl_event_recv(struct ftsw_nl *nl, ftsw_event_cb cb, void *arg)
{
	struct event_recv e = { cb, arg, 0 };
	struct nl_cb *ncb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	if (!ncb)
		return set_err(nl, -ENOMEM, "netlink callbacks");
	nl_cb_set(ncb, NL_CB_VALID, NL_CB_CUSTOM, parse_event, &e);
	nl_cb_set(ncb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	err = nl_recvmsgs(nl->sk, ncb);
	nl_cb_put(ncb);
	if (err < 0) {
		snprintf(nl->err, sizeof(nl->err), "receive: %s",
			 nl_geterror(err));
		nl->errnum = EIO;
		return -EIO;
	}
	return e.stop;
}

/* For the other files of nl/ (nl_int.h). */
struct nl_msg *ftsw_nl_msg(struct ftsw_nl *nl, uint8_t cmd, int flags)
{
	return new_msg(nl, cmd, flags, 0);
}

int ftsw_nl_request(struct ftsw_nl *nl, struct nl_msg *msg)
{
	return simple(nl, msg);
}

struct nl_msg *ftsw_nl_msg_size(struct ftsw_nl *nl, uint8_t cmd, int flags,
				size_t size)
{
	return new_msg(nl, cmd, flags, size);
}

int ftsw_nl_transact(struct ftsw_nl *nl, struct nl_msg *msg,
		     int (*parse)(struct nlattr **tb, void *arg), void *arg)
{
	return transact(nl, msg, parse, arg);
}
