// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw gateway: the simulator protocol and the in-band frame, decoded
 * and encoded (simproto.h). Bytes in, checked structures out; no I/O.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gw/simproto.h"
#include "util/bytes.h"

static const char *const ctl_names[GW_CTL_LAST] = {
	[GW_CTL_ERROR] = "ERROR",
	[GW_CTL_CONNECT] = "CONNECT",
	[GW_CTL_DISCONNECT] = "DISCONNECT",
	[GW_CTL_GET_PORT] = "GET_PORT",
	[GW_CTL_GET_VENDOR] = "GET_VENDOR",
	[GW_CTL_GET_GID] = "GET_GID",
	[GW_CTL_GET_GUID] = "GET_GUID",
	[GW_CTL_GET_NODEINFO] = "GET_NODEINFO",
	[GW_CTL_GET_PORTINFO] = "GET_PORTINFO",
	[GW_CTL_SET_ISSM] = "SET_ISSM",
	[GW_CTL_GET_PKEYS] = "GET_PKEYS",
};

const char *gw_ctl_name(uint32_t t)
{
	return t < GW_CTL_LAST ? ctl_names[t] : "?";
}

/* The abstract address "\0BASE:WHAT\0", its length counting both NULs
 * (as libumad2sim.so names its sockets). */
socklen_t gw_sim_addr(struct sockaddr_un *a, const char *base,
		      const char *what, unsigned num, bool with_num)
{
	int n;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (with_num)
		n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 2,
			     "%s:%s%u", base, what, num);
	else
		n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 2,
			     "%s:%s", base, what);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n + 1);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

int gw_ctl_decode(const void *buf, size_t n, struct gw_ctl *c,
		  struct ftsw_err *err)
{
	const uint8_t *p = buf;

	if (n != GW_SIM_CTL_SIZE) {
		ftsw_err_set(err, "control message of %zu bytes (want %d)", n,
			     GW_SIM_CTL_SIZE);
		return -EINVAL;
	}
	c->magic = get32(p);
	c->clientid = get32(p + 4);
	c->type = get32(p + 8);
	c->len = get32(p + 12);
	memcpy(c->data, p + 16, GW_SIM_CTL_DATA);
	if (c->magic != GW_SIM_MAGIC) {
		ftsw_err_set(err, "control message: bad magic 0x%08x", c->magic);
		return -EINVAL;
	}
	if (c->type == GW_CTL_ERROR || c->type >= GW_CTL_LAST) {
		ftsw_err_set(err, "control message: unknown type %u", c->type);
		return -EINVAL;
	}
	if (c->len > GW_SIM_CTL_DATA) {
		ftsw_err_set(err, "control message %s: length %u past %d",
			     gw_ctl_name(c->type), c->len, GW_SIM_CTL_DATA);
		return -EINVAL;
	}
	return 0;
}

void gw_ctl_encode(const struct gw_ctl *c, uint8_t out[GW_SIM_CTL_SIZE])
{
	put32(out, c->magic);
	put32(out + 4, c->clientid);
	put32(out + 8, c->type);
	put32(out + 12, c->len);
	memcpy(out + 16, c->data, GW_SIM_CTL_DATA);
}

int gw_info_decode(const struct gw_ctl *c, struct gw_client_info *ci,
		   struct ftsw_err *err)
{
	size_t i;

	if (c->len != GW_SIM_INFO_SIZE) {
		ftsw_err_set(err, "CONNECT: data of %u bytes (want %d)", c->len,
			     GW_SIM_INFO_SIZE);
		return -EINVAL;
	}
	ci->id = get32(c->data);
	ci->qp = get32(c->data + 4);
	ci->issm = get32(c->data + 8);
	memset(ci->nodeid, 0, sizeof(ci->nodeid));
	for (i = 0; i < GW_SIM_NODEID && c->data[12 + i]; i++) {
		uint8_t ch = c->data[12 + i];

		if (ch < 0x20 || ch > 0x7e) {
			ftsw_err_set(err, "CONNECT: node name byte %zu is 0x%02x",
				     i, ch);
			return -EINVAL;
		}
		ci->nodeid[i] = (char)ch;
	}
	if (i == GW_SIM_NODEID) {
		ftsw_err_set(err, "CONNECT: node name not terminated in %d bytes",
			     GW_SIM_NODEID);
		return -EINVAL;
	}
	if (ci->qp > 1 || ci->issm > 1) {
		ftsw_err_set(err, "CONNECT: qp %u issm %u (want 0 or 1)", ci->qp,
			     ci->issm);
		return -EINVAL;
	}
	return 0;
}

bool gw_ctl_sender_is(const char *base, uint32_t pid, const char *name,
		      size_t len)
{
	char want[128];
	int n;

	n = snprintf(want, sizeof(want), "%c%s:ctl%" PRIu32, 0, base, pid);
	if (n < 0 || (size_t)n >= sizeof(want))
		return false;
	/* n counts the leading NUL; the trailing one may be counted or not */
	if (len == (size_t)n + 1 && name[n] == 0)
		len--;
	return len == (size_t)n && !memcmp(name, want, (size_t)n);
}

void gw_info_encode(const struct gw_client_info *ci, struct gw_ctl *c)
{
	memset(c->data, 0, sizeof(c->data));
	put32(c->data, ci->id);
	put32(c->data + 4, ci->qp);
	put32(c->data + 8, ci->issm);
	memcpy(c->data + 12, ci->nodeid,
	       strnlen(ci->nodeid, GW_SIM_NODEID - 1));
	c->len = GW_SIM_INFO_SIZE;
}

static int check_mad(const char *what, uint32_t dqp, uint32_t sqp,
		     const uint8_t *mad, struct ftsw_err *err)
{
	if (dqp > 1 || sqp > 1) {
		ftsw_err_set(err, "%s: QPs %u -> %u (only QP0 and QP1 exist)",
			     what, sqp, dqp);
		return -EINVAL;
	}
	if (mad[0] != 1) {
		ftsw_err_set(err, "%s: MAD base version %u (want 1)", what,
			     mad[0]);
		return -EINVAL;
	}
	if ((gw_mad_class(mad) == 0x01 || gw_mad_class(mad) == 0x81) !=
	    (dqp == 0)) {
		ftsw_err_set(err, "%s: class 0x%02x on QP%u", what,
			     gw_mad_class(mad), dqp);
		return -EINVAL;
	}
	return 0;
}

int gw_req_decode(const void *buf, size_t n, struct gw_req *r,
		  struct ftsw_err *err)
{
	const uint8_t *p = buf;

	if (n != GW_SIM_REQ_SIZE) {
		ftsw_err_set(err, "MAD message of %zu bytes (want %d)", n,
			     GW_SIM_REQ_SIZE);
		return -EINVAL;
	}
	/* The words hold the umad address' network-order values. */
	r->dlid = ntohs((uint16_t)get32(p));
	r->slid = ntohs((uint16_t)get32(p + 4));
	r->dqp = ntohl(get32(p + 8));
	r->sqp = ntohl(get32(p + 12));
	r->status = ntohl(get32(p + 16));
	r->length = ftsw_get_be64(p + 24);
	memcpy(r->mad, p + GW_SIM_REQ_HDR, GW_MAD_SIZE);
	if (get32(p) > 0xffff || get32(p + 4) > 0xffff) {
		ftsw_err_set(err, "MAD message: LID words 0x%08x 0x%08x past 16 bits",
			     get32(p), get32(p + 4));
		return -EINVAL;
	}
	if (r->length > GW_MAD_SIZE) {
		ftsw_err_set(err, "MAD message: length %llu past %d",
			     (unsigned long long)r->length, GW_MAD_SIZE);
		return -EINVAL;
	}
	return check_mad("MAD message", r->dqp, r->sqp, r->mad, err);
}

void gw_req_encode(const struct gw_req *r, uint8_t out[GW_SIM_REQ_SIZE])
{
	memset(out, 0, GW_SIM_REQ_HDR);
	put32(out, htons(r->dlid));
	put32(out + 4, htons(r->slid));
	put32(out + 8, htonl(r->dqp));
	put32(out + 12, htonl(r->sqp));
	put32(out + 16, htonl(r->status));
	ftsw_put_be64(out + 24, r->length);
	memcpy(out + GW_SIM_REQ_HDR, r->mad, GW_MAD_SIZE);
}

int gw_frame_decode(const void *buf, size_t n, struct gw_frame *f,
		    struct ftsw_err *err)
{
	struct ftsw_mad_hdr h;

	if (n < GW_FRAME_SIZE) {
		ftsw_err_set(err, "MAD frame of %zu bytes (want %d)", n,
			     GW_FRAME_SIZE);
		return -EINVAL;
	}
	memcpy(&h, buf, sizeof(h));
	f->dlid = ntohs(h.dlid);
	f->slid = ntohs(h.slid);
	f->dqpn = ntohl(h.dqpn);
	f->sqpn = ntohl(h.sqpn);
	f->sl = h.sl;
	f->flags = h.flags;
	f->pkey = ntohs(h.pkey);
	memcpy(f->mad, (const uint8_t *)buf + FTSW_MAD_HLEN, GW_MAD_SIZE);
	return check_mad("MAD frame", f->dqpn, f->sqpn, f->mad, err);
}

void gw_frame_encode(const struct gw_frame *f, uint8_t out[GW_FRAME_SIZE])
{
	struct ftsw_mad_hdr h = {
		.dlid = htons(f->dlid),
		.slid = htons(f->slid),
		.dqpn = htonl(f->dqpn),
		.sqpn = htonl(f->sqpn),
		.sl = f->sl,
		.flags = f->flags,
		.pkey = htons(f->pkey),
	};

	memcpy(out, &h, sizeof(h));
	memcpy(out + FTSW_MAD_HLEN, f->mad, GW_MAD_SIZE);
}

/* struct ib_user_mad_hdr: id, status, timeout_ms, retries, length (host
 * order), qpn, qkey (be32), lid (be16), sl, path_bits, grh_present, ... */
int gw_umad_decode(const uint8_t *buf, size_t n, size_t max,
		   struct gw_umad *u, struct ftsw_err *err)
{
	uint32_t length;

	if (n < GW_UMAD_HDR + 24 || n > GW_UMAD_HDR + max) {
		ftsw_err_set(err, "long MAD of %zu bytes (want %d..%zu)", n,
			     GW_UMAD_HDR + 24, GW_UMAD_HDR + max);
		return -EINVAL;
	}
	length = get32(buf + 16);
	if (length != n) {
		ftsw_err_set(err, "long MAD: length field %u, datagram %zu bytes",
			     length, n);
		return -EINVAL;
	}
	u->agent = get32(buf);
	u->status = get32(buf + 4);
	u->qpn = ntohl(get32(buf + 20));
	u->lid = (uint16_t)(buf[28] << 8 | buf[29]);
	u->len = n - GW_UMAD_HDR;
	u->mad = buf + GW_UMAD_HDR;
	if (u->qpn > 1) {
		ftsw_err_set(err, "long MAD: QP %u (0 or 1)", u->qpn);
		return -EINVAL;
	}
	if (u->mad[0] != 1) {
		ftsw_err_set(err, "long MAD: base version %u (want 1)", u->mad[0]);
		return -EINVAL;
	}
	return 0;
}

size_t gw_umad_encode(const struct gw_umad *u, uint8_t *out)
{
	memset(out, 0, GW_UMAD_HDR);
	put32(out, u->agent);
	put32(out + 4, u->status);
	put32(out + 16, (uint32_t)(GW_UMAD_HDR + u->len));
	put32(out + 20, htonl(u->qpn));
	put32(out + 24, htonl(u->qpn ? 0x80010000u : 0));	/* the GSI Q_Key */
	out[28] = (uint8_t)(u->lid >> 8);
	out[29] = (uint8_t)u->lid;
	memcpy(out + GW_UMAD_HDR, u->mad, u->len);
	return GW_UMAD_HDR + u->len;
}

int gw_agent_decode(const uint8_t *buf, size_t n, struct gw_agent *a,
		    struct ftsw_err *err)
{
	bool smi;

	if (n != GW_AGENT_SIZE || memcmp(buf, GW_AGENT_MAGIC, 8)) {
		ftsw_err_set(err, "agent registration: %zu bytes%s (want %d, \"%s\")",
			     n, n == GW_AGENT_SIZE ? " without the magic" : "",
			     GW_AGENT_SIZE, GW_AGENT_MAGIC);
		return -EINVAL;
	}
	a->op = buf[8];
	a->mgmt_class = buf[9];
	a->class_version = buf[10];
	a->qpn = buf[11];
	a->id = get32(buf + 12);
	if (a->op < GW_AGENT_REGISTER || a->op > GW_AGENT_NONE) {
		ftsw_err_set(err, "agent registration: operation %u (1..3)",
			     a->op);
		return -EINVAL;
	}
	if (a->op == GW_AGENT_NONE)
		return 0;
	smi = a->mgmt_class == GW_MGMT_CLASS_SMI_LR ||
	      a->mgmt_class == GW_MGMT_CLASS_SMI_DR;
	if (!a->mgmt_class || a->qpn != (smi ? 0 : 1)) {
		ftsw_err_set(err, "agent registration: class 0x%02x on QP%u",
			     a->mgmt_class, a->qpn);
		return -EINVAL;
	}
	if (a->id >= GW_AGENT_MAX_ID) {
		ftsw_err_set(err, "agent registration: agent id %u (below %d)",
			     a->id, GW_AGENT_MAX_ID);
		return -EINVAL;
	}
	return 0;
}

void gw_agent_encode(const struct gw_agent *a, uint8_t out[GW_AGENT_SIZE])
{
	memcpy(out, GW_AGENT_MAGIC, 8);
	out[8] = a->op;
	out[9] = a->mgmt_class;
	out[10] = a->class_version;
	out[11] = a->qpn;
	put32(out + 12, a->id);
}

bool gw_mad_unmatched_resp(uint8_t *mad)
{
	uint16_t st = GW_STATUS_UNSUP_ATTR;

	if (mad[3] != GW_METHOD_GET && mad[3] != GW_METHOD_SET)
		return false;
	if (mad[1] == GW_MGMT_CLASS_SMI_DR)
		st |= GW_STATUS_DIRECTION;
	mad[3] = GW_METHOD_GET_RESP;
	mad[4] = (uint8_t)(st >> 8);
	mad[5] = (uint8_t)st;
	return true;
}

uint64_t gw_mad_tid(const uint8_t *mad)
{
	return ftsw_get_be64(mad + 8);
}

void gw_mad_set_tid(uint8_t *mad, uint64_t tid)
{
	ftsw_put_be64(mad + 8, tid);
}

void gw_smp_hop0_get(uint8_t mad[GW_MAD_SIZE], uint16_t attr, uint32_t mod,
		     uint64_t tid)
{
	gw_smp_hop0(mad, GW_METHOD_GET, attr, mod, tid);
}

void gw_smp_hop0(uint8_t mad[GW_MAD_SIZE], uint8_t method, uint16_t attr,
		 uint32_t mod, uint64_t tid)
{
	memset(mad, 0, GW_MAD_SIZE);
	mad[0] = 1;				/* base version */
	mad[1] = GW_MGMT_CLASS_SMI_DR;
	mad[2] = 1;				/* class version */
	mad[3] = method;
	/* status 0, D 0, hop pointer 0, hop count 0 */
	gw_mad_set_tid(mad, tid);
	mad[16] = (uint8_t)(attr >> 8);
	mad[17] = (uint8_t)attr;
	mad[20] = (uint8_t)(mod >> 24);
	mad[21] = (uint8_t)(mod >> 16);
	mad[22] = (uint8_t)(mod >> 8);
	mad[23] = (uint8_t)mod;
	/* M_Key 0; DrSLID and DrDLID permissive */
	mad[32] = mad[33] = mad[34] = mad[35] = 0xff;
}

int gw_smp_check_resp(const uint8_t *mad, uint16_t attr, uint64_t tid,
		      struct ftsw_err *err)
{
	uint16_t status = (uint16_t)((mad[4] & 0x7f) << 8 | mad[5]);

	if (gw_mad_class(mad) != GW_MGMT_CLASS_SMI_DR ||
	    gw_mad_method(mad) != (GW_METHOD_GET | 0x80) ||
	    gw_mad_tid(mad) != tid || gw_mad_attr(mad) != attr) {
		ftsw_err_set(err, "not the answer to attribute 0x%04x", attr);
		return -EINVAL;
	}
	if (status) {
		ftsw_err_set(err, "attribute 0x%04x: MAD status 0x%04x", attr,
			     status);
		return -EINVAL;
	}
	return 0;
}

uint64_t gw_tid_out(struct gw_tids *t, uint32_t owner, uint32_t gen,
		    uint64_t orig, uint64_t now_us)
{
	uint64_t n = t->next++;
	struct gw_tid_ent *e = &t->e[n % GW_TIDS];

	e->sent = GW_TID_MARK | (n & 0xffffffffffffull);
	e->orig = orig;
	e->at_us = now_us;
	e->owner = owner;
	e->gen = gen;
	return e->sent;
}

uint32_t gw_tid_in(const struct gw_tids *t, uint64_t sent, uint64_t now_us,
		   uint64_t *orig, uint32_t *gen)
{
	const struct gw_tid_ent *e;

	if ((sent & ~0xffffffffffffull) != GW_TID_MARK)
		return 0;
	e = &t->e[(sent & 0xffffffffffffull) % GW_TIDS];
	if (!e->owner || e->sent != sent || now_us - e->at_us > GW_TID_TTL_US)
		return 0;
	*orig = e->orig;
	*gen = e->gen;
	return e->owner;
}

void gw_tid_forget(struct gw_tids *t, uint64_t sent)
{
	struct gw_tid_ent *e;

	if ((sent & ~0xffffffffffffull) != GW_TID_MARK)
		return;
	e = &t->e[(sent & 0xffffffffffffull) % GW_TIDS];
	if (e->sent == sent)
		e->owner = 0;
}

bool gw_mad_keeps_tid(const uint8_t *mad)
{
	return gw_mad_is_response(mad) ||
	       gw_mad_method(mad) == GW_METHOD_TRAP_REPRESS;
}

bool gw_mad_wants_response(const uint8_t *mad)
{
	switch (gw_mad_method(mad)) {
	case 0x01:	/* Get */
	case 0x02:	/* Set */
	case 0x06:	/* Report */
	case 0x12:	/* GetTable */
	case 0x13:	/* GetTraceTable */
	case 0x14:	/* GetMulti */
	case 0x15:	/* Delete */
		return true;
	}
	return false;
}

int gw_pend_add(struct gw_pends *p, uint32_t client, uint32_t gen,
		const struct gw_frame *f, uint64_t due_us)
{
	unsigned i;

	for (i = 0; i < GW_PENDING; i++)
		if (!p->e[i].tid) {
			p->e[i] = (struct gw_pend){ .tid = gw_mad_tid(f->mad),
				.due_us = due_us, .client = client, .gen = gen,
				.sent = 1, .f = *f };
			return p->e[i].tid ? 0 : -EINVAL;
		}
	return -ENOSPC;
}

bool gw_pend_done(struct gw_pends *p, uint64_t tid)
{
	unsigned i;

	for (i = 0; tid && i < GW_PENDING; i++)
		if (p->e[i].tid == tid) {
			p->e[i].tid = 0;
			return true;
		}
	return false;
}

struct gw_pend *gw_pend_due(struct gw_pends *p, uint64_t now_us)
{
	unsigned i;

	for (i = 0; i < GW_PENDING; i++)
		if (p->e[i].tid && p->e[i].due_us <= now_us)
			return &p->e[i];
	return NULL;
}

uint64_t gw_pend_next(const struct gw_pends *p)
{
	uint64_t next = UINT64_MAX;
	unsigned i;

	for (i = 0; i < GW_PENDING; i++)
		if (p->e[i].tid && p->e[i].due_us < next)
			next = p->e[i].due_us;
	return next;
}
