// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw gateway: sockets and the event loop (gw.h). One thread, poll(2)
 * over the control socket, the host's AF_PACKET socket and one data
 * socket per client. Control questions are answered by hop-0 SMPs to the
 * host's own CA agent; while the gateway waits for one, frames for clients
 * keep flowing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gw/gw_int.h"
#include "util/bytes.h"

void gw_log(struct gw *g, const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(g->log, "%lld.%03ld ftsw-gw: ", (long long)ts.tv_sec,
		ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(g->log, fmt, ap);
	va_end(ap);
	fputc('\n', g->log);
	fflush(g->log);
}

bool ftsw_gw_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	size_t i;

	if (!n || n > FTSW_GW_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e || s[i] == ':')
			return false;
	return true;
}

static int open_ctl(struct gw *g, struct ftsw_err *err)
{
	struct sockaddr_un a;
	socklen_t len = gw_sim_addr(&a, g->base, "ctl", 0, false);

	g->ctl = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (g->ctl < 0 || bind(g->ctl, (struct sockaddr *)&a, len) < 0) {
		ftsw_err_set(err, "control socket @%s:ctl: %s%s", g->base,
			     strerror(errno), errno == EADDRINUSE ?
			     " (another gateway or ibsim in this namespace)" : "");
		return -errno;
	}
	return 0;
}

static int open_pkt(struct gw *g, struct ftsw_err *err)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(FTSW_ETH_P_MAD),
	};
	int one = 1;

	g->ifindex = (int)if_nametoindex(g->o->dev);
	if (!g->ifindex) {
		ftsw_err_set(err, "device %s: %s", g->o->dev, strerror(errno));
		return -ENODEV;
	}
	sll.sll_ifindex = g->ifindex;
	g->pkt = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			htons(FTSW_ETH_P_MAD));
	if (g->pkt < 0 || bind(g->pkt, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		ftsw_err_set(err, "packet socket on %s: %s", g->o->dev,
			     strerror(errno));
		return -errno;
	}
	/* Not our own frames (older kernels: filtered by pkttype below). */
	(void)setsockopt(g->pkt, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
			 sizeof(one));
	return 0;
}

int gw_send_frame(struct gw *g, const struct gw_frame *f)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(FTSW_ETH_P_MAD),
		.sll_ifindex = g->ifindex,
		.sll_halen = 6,
		.sll_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	uint8_t buf[GW_FRAME_SIZE];

	gw_frame_encode(f, buf);
	if (sendto(g->pkt, buf, sizeof(buf), 0, (struct sockaddr *)&sll,
		   sizeof(sll)) != (ssize_t)sizeof(buf)) {
		gw_log(g, "send on %s: %s", g->o->dev, strerror(errno));
		return -1;
	}
	return 0;
}

/* One frame from the device into f: 1, 0 when none is waiting or it was
 * refused (logged). */
static int recv_frame(struct gw *g, struct gw_frame *f)
{
	uint8_t buf[2048];
	struct sockaddr_ll sll;
	socklen_t sl = sizeof(sll);
	struct ftsw_err err;
	ssize_t n;

	for (;;) {
		n = recvfrom(g->pkt, buf, sizeof(buf), MSG_TRUNC,
			     (struct sockaddr *)&sll, &sl);
		if (n < 0)
			return 0;
		if (sll.sll_pkttype != PACKET_OUTGOING)
			break;
	}
	if ((size_t)n > sizeof(buf) ||
	    gw_frame_decode(buf, (size_t)n, f, &err) < 0) {
		g->refused++;
		gw_log(g, "frame refused: %s", (size_t)n > sizeof(buf) ?
		       "longer than 2048 bytes" : err.msg);
		return 0;
	}
	return 1;
}

void gw_client_free(struct gw *g, uint32_t i, const char *why)
{
	struct gw_client *c = &g->cl[i];

	if (!c->used)
		return;
	gw_log(g, "client %u (pid %u) gone: %s; %llu MADs out, %llu in", i,
	       c->pid, why, (unsigned long long)c->to_fabric,
	       (unsigned long long)c->from_fabric);
	close(c->fd);
	c->used = c->issm = c->agents_known = false;
	memset(c->agents, 0, sizeof(c->agents));
	c->fd = -1;
	c->gen++;
}

/* The time a request waits for its response before it is sent again. */
uint64_t gw_mad_timeout_us(const struct gw *g)
{
	return (g->o->mad_timeout_ms ? g->o->mad_timeout_ms :
		FTSW_GW_MAD_TIMEOUT_MS) * 1000ull;
}

/* A MAD of len bytes (<= 256) to client i, with the datagram's status
 * word (0, or ETIMEDOUT for a request given back). Whether the client's
 * socket took it. */
bool gw_to_client_len(struct gw *g, uint32_t i, const struct gw_frame *f,
		      size_t len, uint32_t status)
{
	struct gw_client *c = &g->cl[i];
	struct gw_req r = {
		.dlid = f->dlid, .slid = f->slid,
		.dqp = f->dqpn, .sqp = f->sqpn,
		.status = status, .length = len,
	};
	uint8_t buf[GW_SIM_REQ_SIZE];

	memcpy(r.mad, f->mad, GW_MAD_SIZE);
	gw_req_encode(&r, buf);
	if (send(c->fd, buf, sizeof(buf), MSG_DONTWAIT) == (ssize_t)sizeof(buf)) {
		c->from_fabric++;
		return true;
	}
	if (errno == ECONNREFUSED || errno == ENOTCONN)
		gw_client_free(g, i, "its socket is closed");
	else
		gw_log(g, "client %u: MAD dropped: %s", i, strerror(errno));
	return false;
}

bool gw_to_client_status(struct gw *g, uint32_t i, const struct gw_frame *f,
			 uint32_t status)
{
	return gw_to_client_len(g, i, f, GW_MAD_SIZE, status);
}

static bool to_client(struct gw *g, uint32_t i, const struct gw_frame *f)
{
	return gw_to_client_status(g, i, f, 0);
}

/*
 * The client a request of class mgmt_class from the fabric goes to: one
 * that registered an agent of the class (the SM's first); else, among
 * the clients that told the gateway nothing of their agents (no
 * libftsw-umad.so), the SM, else the only one; else none (-1).
 */
int gw_request_client(struct gw *g, uint8_t mgmt_class)
{
	int i, only = -1, n = 0, reg = -1;

	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++) {
		const struct gw_client *c = &g->cl[i];

		if (!c->used)
			continue;
		if (c->agents_known) {
			if (c->agents[mgmt_class] && (reg < 0 || c->issm))
				reg = i;
			continue;
		}
		if (c->issm)
			return reg >= 0 ? reg : i;
		only = i;
		n++;
	}
	if (reg >= 0)
		return reg;
	return n == 1 ? only : -1;
}

void gw_on_agent(struct gw *g, uint32_t i, const uint8_t *buf, size_t n)
{
	struct gw_client *c = &g->cl[i];
	struct ftsw_err err;
	struct gw_agent a;

	if (gw_agent_decode(buf, n, &a, &err) < 0) {
		g->refused++;
		gw_log(g, "client %u: %s", i, err.msg);
		return;
	}
	c->agents_known = true;
	if (a.op == GW_AGENT_REGISTER && c->agents[a.mgmt_class] < UINT8_MAX)
		c->agents[a.mgmt_class]++;
	else if (a.op == GW_AGENT_UNREGISTER && c->agents[a.mgmt_class])
		c->agents[a.mgmt_class]--;
	if (g->o->verbose)
		gw_log(g, "client %u: agent %u %s class 0x%02x version %u",
		       i, a.id, a.op == GW_AGENT_REGISTER ? "registered" :
		       a.op == GW_AGENT_UNREGISTER ? "unregistered" : "none:",
		       a.mgmt_class, a.class_version);
}

/*
 * A request no client serves: a Get or Set is answered as Linux's MAD
 * layer answers it (status 0x0C), back to where it came from; any other
 * request is dropped. Logged either way.
 */
static void unmatched(struct gw *g, struct gw_frame *f)
{
	uint8_t cls = gw_mad_class(f->mad), m = gw_mad_method(f->mad);
	uint16_t attr = gw_mad_attr(f->mad);
	struct gw_frame r = *f;

	if (!gw_mad_unmatched_resp(r.mad)) {
		g->dropped++;
		gw_log(g, "request class 0x%02x method 0x%02x attr 0x%04x from LID %u: no client serves the class; dropped",
		       cls, m, attr, f->slid);
		return;
	}
	r.dlid = f->slid;
	r.slid = 0;
	r.dqpn = f->sqpn;
	r.sqpn = f->dqpn;
	g->unmatched++;
	gw_log(g, "request class 0x%02x method 0x%02x attr 0x%04x from LID %u: no client serves the class; answered 0x000c",
	       cls, m, attr, f->slid);
	gw_send_frame(g, &r);
}

/* A frame from the fabric that is not the gateway's own answer. */
static void dispatch(struct gw *g, struct gw_frame *f, uint64_t now)
{
	uint8_t m = gw_mad_method(f->mad);
	uint64_t orig, tid;
	uint32_t gen, owner;
	int i;

	if (gwr_dispatch(g, f, now))
		return;
	if (gw_mad_is_response(f->mad) || m == GW_METHOD_TRAP_REPRESS) {
		owner = gw_tid_in(&g->tids, gw_mad_tid(f->mad), now, &orig, &gen);
		if (!owner || owner > FTSW_GW_MAX_CLIENTS || !g->cl[owner - 1].used ||
		    g->cl[owner - 1].gen != gen) {
			g->dropped++;
			if (g->o->verbose || owner != OWNER_SELF)
				gw_log(g, "response TID 0x%016llx (class 0x%02x method 0x%02x) matches no request",
				       (unsigned long long)gw_mad_tid(f->mad),
				       gw_mad_class(f->mad), m);
			return;
		}
		/* a response the client's socket refused (full) is not the
		 * end: its request stays due, is sent again and answered again */
		tid = gw_mad_tid(f->mad);
		gw_mad_set_tid(f->mad, orig);
		if (to_client(g, owner - 1, f)) {
			gw_pend_done(&g->pend, tid);
			gw_tid_forget(&g->tids, tid);
		}
		return;
	}
	i = gw_request_client(g, gw_mad_class(f->mad));
	if (i < 0) {
		unmatched(g, f);
		return;
	}
	to_client(g, (uint32_t)i, f);
}

static int own_smp_do(struct gw *g, uint8_t method, uint16_t attr,
		      uint32_t mod, const uint8_t *in, uint8_t *out);

/*
 * Ask the host's own CA agent for attr/mod (hop-0 directed route) and
 * copy its 64 data bytes to out. Frames for clients arriving meanwhile are
 * dispatched. 0, or -1 (logged).
 */
static int own_smp(struct gw *g, uint16_t attr, uint32_t mod, uint8_t *out)
{
	return own_smp_do(g, GW_METHOD_GET, attr, mod, NULL, out);
}

/*
 * The host's local interface to its CA (FTSW_ATTR_LOCAL_CAP): IsSM in its
 * PortInfo CapabilityMask while a client says it is the SM, as Linux's
 * umad issm device sets it, so the SA lists the SM's port (saquery -s)
 * and ibstat shows it. Done from the loop, never inside a dispatch.
 */
static void sync_local_cap(struct gw *g)
{
	uint8_t in[64] = { 0 }, out[64];
	bool sm = false;
	unsigned i;

	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++)
		sm |= g->cl[i].used && g->cl[i].issm;
	if (sm == g->cap_sm)
		return;
	in[3] = sm ? GW_CAP_IS_SM : 0;
	g->cap_sm = sm;		/* tried once: own_smp_do() logs a failure */
	if (own_smp_do(g, GW_METHOD_SET, FTSW_ATTR_LOCAL_CAP, 0, in, out) == 0)
		gw_log(g, "the port's CapabilityMask: IsSM %s",
		       sm ? "set" : "cleared");
}

static int own_smp_do(struct gw *g, uint8_t method, uint16_t attr,
		      uint32_t mod, const uint8_t *in, uint8_t *out)
{
	unsigned tmo = g->o->timeout_ms ? g->o->timeout_ms : 500;
	unsigned tries = g->o->tries ? g->o->tries : 4, t;
	struct gw_frame q = { .dlid = 0xffff, .pkey = FTSW_MAD_PKEY_DEFAULT };
	struct gw_frame f;
	struct ftsw_err err = { .msg = "no answer" };

	for (t = 0; t < tries; t++) {
		uint64_t now = ftsw_now_us(), end = now + tmo * 1000ull;
		uint64_t tid = gw_tid_out(&g->tids, OWNER_SELF, 0, 0, now);

		gw_smp_hop0(q.mad, method, attr, mod, tid);
		if (in)
			memcpy(q.mad + GW_SMP_DATA, in, 64);
		if (gw_send_frame(g, &q) < 0)
			return -1;
		while ((now = ftsw_now_us()) < end) {
			struct pollfd p = { .fd = g->pkt, .events = POLLIN };

			if (poll(&p, 1, (int)((end - now + 999) / 1000)) <= 0)
				continue;
			while (recv_frame(g, &f)) {
				if (gw_mad_tid(f.mad) != tid) {
					dispatch(g, &f, ftsw_now_us());
					continue;
				}
				if (gw_smp_check_resp(f.mad, attr, tid, &err) < 0)
					goto next;
				memcpy(out, f.mad + GW_SMP_DATA, 64);
				return 0;
			}
		}
next:;
	}
	gw_log(g, "own port, attribute 0x%04x modifier %u: %s", attr, mod,
	       err.msg);
	return -1;
}

/* The sun_path bytes of a control message's sender, and their count. */
struct ctl_from {
	const char *name;
	size_t len;
};

static int ctl_connect(struct gw *g, struct gw_ctl *c,
		       const struct ctl_from *from)
{
	struct gw_client_info ci;
	struct ftsw_err err;
	struct sockaddr_un a;
	socklen_t len;
	uint32_t i, free_i = FTSW_GW_MAX_CLIENTS;
	int fd = -1;

	if (gw_info_decode(c, &ci, &err) < 0)
		goto refuse;
	/* the pid a tool claims names its control socket: no tool can
	 * speak (or reconnect, which frees the slot) for another's pid */
	if (!gw_ctl_sender_is(g->base, ci.id, from->name, from->len)) {
		ftsw_err_set(&err, "CONNECT: pid %u from a socket not named @%s:ctl%u",
			     ci.id, g->base, ci.id);
		goto refuse;
	}
	if (ci.nodeid[0] && g->o->node && strcmp(ci.nodeid, g->o->node)) {
		ftsw_err_set(&err, "CONNECT: node \"%s\" is not this gateway's \"%s\" (SIM_HOST)",
			     ci.nodeid, g->o->node);
		goto refuse;
	}
	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++) {
		if (g->cl[i].used && g->cl[i].pid == ci.id)
			gw_client_free(g, i, "its pid connects again");
		if (g->cl[i].used && (kill((pid_t)g->cl[i].pid, 0) < 0 &&
				      errno == ESRCH))
			gw_client_free(g, i, "its process is gone");
		if (g->cl[i].used && ci.issm && g->cl[i].issm) {
			ftsw_err_set(&err, "CONNECT: pid %u wants to be the SM but client %u (pid %u) is",
				     ci.id, i, g->cl[i].pid);
			goto refuse;
		}
		if (!g->cl[i].used && free_i == FTSW_GW_MAX_CLIENTS)
			free_i = i;
	}
	if (free_i == FTSW_GW_MAX_CLIENTS) {
		ftsw_err_set(&err, "CONNECT: pid %u: all %d client slots taken",
			     ci.id, FTSW_GW_MAX_CLIENTS);
		goto refuse;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	len = gw_sim_addr(&a, g->base, "out", free_i, true);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0)
		goto sock_fail;
	len = gw_sim_addr(&a, g->base, "in", ci.id, true);
	if (connect(fd, (struct sockaddr *)&a, len) < 0)
		goto sock_fail;
	g->cl[free_i] = (struct gw_client){ .used = true, .issm = ci.issm,
		.pid = ci.id, .gen = g->cl[free_i].gen, .fd = fd };
	gw_log(g, "client %u: pid %u connected%s", free_i, ci.id,
	       ci.issm ? " as the SM" : "");
	ci.id = free_i;
	snprintf(ci.nodeid, sizeof(ci.nodeid), "%s",
		 g->o->node ? g->o->node : "ftsw");
	gw_info_encode(&ci, c);
	return 0;
sock_fail:
	ftsw_err_set(&err, "CONNECT: pid %u: @%s:in%u: %s", ci.id, g->base,
		     ci.id, strerror(errno));
	if (fd >= 0)
		close(fd);
refuse:
	g->refused++;
	gw_log(g, "refused: %s", err.msg);
	return -1;
}

/* The small host-order answers, from NodeInfo and PortInfo. */
static int ctl_derived(struct gw *g, struct gw_ctl *c)
{
	uint8_t ni[64], pi[64];
	uint64_t guid;
	uint32_t v[3];
	uint16_t lid;

	if (own_smp(g, GW_ATTR_NODE_INFO, 0, ni) < 0)
		return -1;
	memset(c->data, 0, sizeof(c->data));
	switch (c->type) {
	case GW_CTL_GET_VENDOR:	/* vendor, part, hw; fw_ver (u64) = 1 */
		v[0] = ftsw_get_be32(ni + 36) & 0xffffff;
		v[1] = (uint32_t)(ni[30] << 8 | ni[31]);
		v[2] = ftsw_get_be32(ni + 32);
		memcpy(c->data, v, sizeof(v));
		guid = 1;
		memcpy(c->data + 16, &guid, sizeof(guid));
		return 0;
	case GW_CTL_GET_GUID:	/* the node GUID, host order (as ibsim) */
		guid = ftsw_get_be64(ni + 12);
		memcpy(c->data, &guid, sizeof(guid));
		return 0;
	default:
		break;
	}
	if (own_smp(g, GW_ATTR_PORT_INFO, ni[36] ? ni[36] : 1, pi) < 0)
		return -1;
	if (c->type == GW_CTL_GET_PORT) {	/* {u16 lid; u8 state} */
		lid = (uint16_t)(pi[16] << 8 | pi[17]);
		memcpy(c->data, &lid, sizeof(lid));
		c->data[2] = pi[32] & 0x0f;
		return 0;
	}
	/* GET_GID: the GID prefix and the port GUID, as on the wire */
	memcpy(c->data, pi + 8, 8);
	memcpy(c->data + 8, ni + 20, 8);
	return 0;
}

static int ctl_answer(struct gw *g, struct gw_ctl *c,
		      const struct ctl_from *from)
{
	struct gw_client *cl;
	uint8_t buf[64];
	uint32_t issm, i;

	if (c->type == GW_CTL_CONNECT)
		return ctl_connect(g, c, from);
	if (c->clientid >= FTSW_GW_MAX_CLIENTS || !g->cl[c->clientid].used) {
		g->refused++;
		gw_log(g, "refused: %s from client %u, not connected",
		       gw_ctl_name(c->type), c->clientid);
		return -1;
	}
	cl = &g->cl[c->clientid];
	if (!gw_ctl_sender_is(g->base, cl->pid, from->name, from->len)) {
		g->refused++;
		gw_log(g, "refused: %s for client %u (pid %u) from another socket than @%s:ctl%u",
		       gw_ctl_name(c->type), c->clientid, cl->pid, g->base,
		       cl->pid);
		return -1;
	}
	switch (c->type) {
	case GW_CTL_DISCONNECT:
		gw_client_free(g, c->clientid, "disconnected");
		return 0;
	case GW_CTL_SET_ISSM:
		memcpy(&issm, c->data, sizeof(issm));
		for (i = 0; issm && i < FTSW_GW_MAX_CLIENTS; i++)
			if (g->cl[i].used && g->cl[i].issm && i != c->clientid) {
				gw_log(g, "refused: client %u wants to be the SM, client %u is",
				       c->clientid, i);
				return -1;
			}
		cl->issm = issm != 0;
		gw_log(g, "client %u: SM %s", c->clientid, cl->issm ? "on" : "off");
		return 0;
	case GW_CTL_GET_NODEINFO:
		return own_smp(g, GW_ATTR_NODE_INFO, 0, c->data);
	case GW_CTL_GET_PORTINFO:
		return own_smp(g, GW_ATTR_PORT_INFO, c->data[0] ? c->data[0] : 1,
			       c->data);
	case GW_CTL_GET_PKEYS:
		if (own_smp(g, GW_ATTR_PKEY_TABLE, 0, buf) < 0) {
			/* the default partition only */
			memset(buf, 0, sizeof(buf));
			buf[0] = buf[1] = 0xff;
		}
		memcpy(c->data, buf, sizeof(buf));
		return 0;
	default:
		return ctl_derived(g, c);
	}
}

static void on_ctl(struct gw *g)
{
	uint8_t buf[GW_SIM_CTL_SIZE + 16];
	struct sockaddr_un from;
	socklen_t fl = sizeof(from);
	struct ctl_from who;
	struct ftsw_err err;
	struct gw_ctl c;
	ssize_t n;

	n = recvfrom(g->ctl, buf, sizeof(buf), MSG_TRUNC,
		     (struct sockaddr *)&from, &fl);
	if (n < 0)
		return;
	who.name = from.sun_path;
	who.len = fl > offsetof(struct sockaddr_un, sun_path) &&
		  fl <= sizeof(from) ?
		  fl - offsetof(struct sockaddr_un, sun_path) : 0;
	if ((size_t)n > sizeof(buf) ||
	    gw_ctl_decode(buf, (size_t)n, &c, &err) < 0) {
		g->refused++;
		gw_log(g, "control message refused: %s",
		       (size_t)n > sizeof(buf) ? "too long" : err.msg);
		if ((size_t)n != GW_SIM_CTL_SIZE || c.magic != GW_SIM_MAGIC)
			return;
		c.type = GW_CTL_ERROR;
	} else {
		if (g->o->verbose)
			gw_log(g, "control %s from client %u",
			       gw_ctl_name(c.type), c.clientid);
		if (ctl_answer(g, &c, &who) < 0)
			c.type = GW_CTL_ERROR;
	}
	gw_ctl_encode(&c, buf);
	if (sendto(g->ctl, buf, GW_SIM_CTL_SIZE, 0, (struct sockaddr *)&from,
		   fl) != GW_SIM_CTL_SIZE)
		gw_log(g, "control answer lost: %s", strerror(errno));
}

/* A MAD from client i into the fabric. */
static void on_client(struct gw *g, uint32_t i)
{
	struct gw_client *c = &g->cl[i];
	uint8_t buf[GW_SIM_REQ_SIZE + 16];
	struct ftsw_err err;
	struct gw_frame f;
	struct gw_req r;
	ssize_t n;

	n = recv(c->fd, buf, sizeof(buf), MSG_TRUNC | MSG_DONTWAIT);
	if (n < 0) {
		if (errno == ECONNREFUSED)
			gw_client_free(g, i, "its socket is closed");
		return;
	}
	if ((size_t)n > sizeof(buf) ||
	    gw_req_decode(buf, (size_t)n, &r, &err) < 0) {
		g->refused++;
		gw_log(g, "client %u: MAD refused: %s", i,
		       (size_t)n > sizeof(buf) ? "too long" : err.msg);
		return;
	}
	f = (struct gw_frame){ .dlid = r.dlid, .dqpn = r.dqp, .sqpn = r.sqp,
		.pkey = FTSW_MAD_PKEY_DEFAULT };
	/* libumad2sim sends its stack's bytes past the MAD's length */
	memcpy(f.mad, r.mad, r.length >= 24 ? r.length : GW_MAD_SIZE);
	/* the SMA that sent a trap stops repeating it when the TID matches */
	if (!gw_mad_keeps_tid(f.mad))
		gw_mad_set_tid(f.mad, gw_tid_out(&g->tids, i + 1, c->gen,
						 gw_mad_tid(r.mad),
						 ftsw_now_us()));
	if (g->o->verbose)
		gw_log(g, "client %u: class 0x%02x method 0x%02x attr 0x%04x to LID %u QP%u",
		       i, gw_mad_class(f.mad), gw_mad_method(f.mad),
		       gw_mad_attr(f.mad), f.dlid, f.dqpn);
	if (r.length >= 24 && gwr_send(g, i, &f, f.mad, r.length)) {
		c->to_fabric++;
		return;
	}
	if (gw_send_frame(g, &f) < 0)
		return;
	c->to_fabric++;
	if (gw_mad_wants_response(f.mad) &&
	    gw_pend_add(&g->pend, i, c->gen, &f,
			ftsw_now_us() + gw_mad_timeout_us(g)) < 0)
		gw_log(g, "client %u: %d requests wait already: TID 0x%016llx will not time out",
		       i, GW_PENDING, (unsigned long long)gw_mad_tid(f.mad));
}

/*
 * A request without a response: sent again, or after the last try given
 * back to its client with status ETIMEDOUT (the kernel's MAD layer's
 * timeout, which libumad2sim does not have).
 */
static void on_due(struct gw *g, struct gw_pend *e, uint64_t now)
{
	unsigned tries = g->o->mad_tries ? g->o->mad_tries : FTSW_GW_MAD_TRIES;
	struct gw_client *c = &g->cl[e->client];
	uint64_t orig;
	uint32_t gen;

	if (e->sent < tries && c->used && c->gen == e->gen) {
		e->sent++;
		e->due_us = now + gw_mad_timeout_us(g);
		gw_send_frame(g, &e->f);
		return;
	}
	if (gw_tid_in(&g->tids, e->tid, now, &orig, &gen) && c->used &&
	    c->gen == e->gen) {
		struct gw_frame f = e->f;

		g->timedout++;
		gw_log(g, "client %u: TID 0x%016llx (class 0x%02x method 0x%02x attr 0x%04x) timed out after %u tries",
		       e->client, (unsigned long long)orig,
		       gw_mad_class(f.mad), gw_mad_method(f.mad),
		       gw_mad_attr(f.mad), e->sent);
		gw_mad_set_tid(f.mad, orig);
		gw_to_client_status(g, e->client, &f, GW_STATUS_TIMEDOUT);
	}
	gw_tid_forget(&g->tids, e->tid);
	e->tid = 0;
}

static void expire(struct gw *g)
{
	uint64_t now = ftsw_now_us();
	struct gw_pend *e;

	while ((e = gw_pend_due(&g->pend, now)))
		on_due(g, e, now);
	gwr_expire(g, now);
}

/* How long poll may sleep: 500 ms, or until the next request is due. */
static int poll_ms(const struct gw *g)
{
	uint64_t next = gw_pend_next(&g->pend), now = ftsw_now_us();

	if (gwr_next(g) < next)
		next = gwr_next(g);

	if (next == UINT64_MAX || next >= now + 500000)
		return 500;
	return next <= now ? 0 : (int)((next - now + 999) / 1000);
}

static void gw_loop(struct gw *g, volatile sig_atomic_t *stop)
{
	struct pollfd p[3 + FTSW_GW_MAX_CLIENTS];
	uint32_t who[FTSW_GW_MAX_CLIENTS];
	struct gw_frame f;
	unsigned n, i;

	while (!*stop) {
		p[0] = (struct pollfd){ .fd = g->ctl, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = g->pkt, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = g->big, .events = POLLIN };
		for (n = 3, i = 0; i < FTSW_GW_MAX_CLIENTS; i++)
			if (g->cl[i].used) {
				who[n - 3] = i;
				p[n++] = (struct pollfd){ .fd = g->cl[i].fd,
							  .events = POLLIN };
			}
		if (poll(p, n, poll_ms(g)) <= 0) {
			expire(g);
			continue;
		}
		if (p[1].revents)
			while (recv_frame(g, &f))
				dispatch(g, &f, ftsw_now_us());
		for (i = 3; i < n; i++)
			if (p[i].revents && g->cl[who[i - 3]].used &&
			    g->cl[who[i - 3]].fd == p[i].fd)
				on_client(g, who[i - 3]);
		if (p[2].revents)
			gwr_on_big(g);
		if (p[0].revents)
			on_ctl(g);
		expire(g);
		sync_local_cap(g);
	}
}

int ftsw_gw_serve(const struct ftsw_gw_opts *o, volatile sig_atomic_t *stop,
		  struct ftsw_err *err)
{
	struct gw *g = calloc(1, sizeof(*g));
	uint32_t i;
	int rc;

	if (!g) {
		ftsw_err_set(err, "gateway: out of memory");
		return -ENOMEM;
	}
	g->o = o;
	g->base = o->sockname ? o->sockname : FTSW_GW_SOCKNAME;
	g->log = o->log ? o->log : stderr;
	g->ctl = g->pkt = g->big = -1;
	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++)
		g->cl[i].fd = -1;
	if (!ftsw_gw_name_ok(g->base)) {
		ftsw_err_set(err, "socket name \"%s\": 1..%d printable bytes without ':'",
			     g->base, FTSW_GW_NAME_MAX);
		rc = -EINVAL;
		goto out;
	}
	rc = open_pkt(g, err);
	if (!rc)
		rc = open_ctl(g, err);
	if (!rc)
		rc = gwr_open(g, err);
	if (rc)
		goto out;
	gw_log(g, "serving @%s:ctl on %s (node %s)", g->base, o->dev,
	       o->node ? o->node : "ftsw");
	if (o->ready_fd >= 0 && write(o->ready_fd, "", 1) != 1)
		gw_log(g, "ready notice: %s", strerror(errno));
	gw_loop(g, stop);
	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++)
		gw_client_free(g, i, "the gateway stops");
	gw_log(g, "stopped: %llu messages refused, %llu frames dropped, %llu requests timed out, %llu answered unsupported; RMPP: %llu messages in, %llu out, %llu failed",
	       (unsigned long long)g->refused, (unsigned long long)g->dropped,
	       (unsigned long long)g->timedout,
	       (unsigned long long)g->unmatched, (unsigned long long)g->rmpp_in,
	       (unsigned long long)g->rmpp_out,
	       (unsigned long long)g->rmpp_failed);
out:
	gwr_close(g);
	if (g->ctl >= 0)
		close(g->ctl);
	if (g->pkt >= 0)
		close(g->pkt);
	free(g);
	return rc;
}
