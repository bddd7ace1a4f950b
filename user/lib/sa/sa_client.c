// SPDX-License-Identifier: GPL-2.0
/*
 * The SA client's sockets (sa.h): the client side of the simulator
 * protocol (simproto.h), as libumad2sim.so speaks it, plus the long-MAD
 * socket of libftsw-umad.so, so that a PathRecord table of any length
 * reaches us whole. Everything the gateway sends back is decoded by
 * simproto's checked decoders and the answer by ftsw_sa_pr_parse().
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gw/gw.h"
#include "gw/rmpp.h"
#include "gw/simproto.h"
#include "sa/sa.h"

#define SA_TIMEOUT_MS	10000
#define SA_BIG_MAX	(GW_RMPP_MAX_BYTES + GW_UMAD_HDR)

static int sock_bind(struct ftsw_sa_client *c, const char *what,
		     struct ftsw_err *err)
{
	struct sockaddr_un a;
	socklen_t len = gw_sim_addr(&a, c->base, what, c->pid, true);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0) {
		ftsw_err_set(err, "SA client: @%s:%s%u: %s", c->base, what,
			     c->pid, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Wait up to ms for fd; 1 readable, 0 not. */
static int wait_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* A control question and its answer (in place). */
static int ctl_ask(struct ftsw_sa_client *c, struct gw_ctl *q, const char *what,
		   struct ftsw_err *err)
{
	uint8_t buf[GW_SIM_CTL_SIZE + 16];
	struct sockaddr_un a;
	socklen_t len = gw_sim_addr(&a, c->base, "ctl", 0, false);
	uint32_t type = q->type;
	ssize_t n;

	q->magic = GW_SIM_MAGIC;
	gw_ctl_encode(q, buf);
	if (sendto(c->ctl, buf, GW_SIM_CTL_SIZE, 0, (struct sockaddr *)&a,
		   len) != GW_SIM_CTL_SIZE) {
		ftsw_err_set(err, "SA client: %s to @%s:ctl: %s%s", what,
			     c->base, strerror(errno), errno == ECONNREFUSED ?
			     " (no gateway in this namespace)" : "");
		return -1;
	}
	if (!wait_in(c->ctl, 5000)) {
		ftsw_err_set(err, "SA client: %s: no answer from @%s:ctl in 5 s",
			     what, c->base);
		return -1;
	}
	n = recv(c->ctl, buf, sizeof(buf), MSG_TRUNC);
	if (n < 0 || (size_t)n > sizeof(buf) ||
	    gw_ctl_decode(buf, (size_t)n, q, err) < 0) {
		if (n < 0 || (size_t)n > sizeof(buf))
			ftsw_err_set(err, "SA client: %s: answer of %zd bytes",
				     what, n);
		return -1;
	}
	if (q->type != type) {
		ftsw_err_set(err, "SA client: the gateway refused %s (see its log)",
			     what);
		return -1;
	}
	return 0;
}

int ftsw_sa_open(struct ftsw_sa_client *c, const char *base,
		 struct ftsw_err *err)
{
	struct gw_client_info ci = { .qp = 1 };
	struct gw_ctl q = { .type = GW_CTL_CONNECT };
	int sz = 4 << 20;

	memset(c, 0, sizeof(*c));
	c->ctl = c->data = c->big = -1;
	c->id = UINT32_MAX;	/* not connected: no DISCONNECT of a slot */
	if (!ftsw_gw_name_ok(base)) {
		ftsw_err_set(err, "SA client: gateway name \"%s\"", base);
		return -1;
	}
	snprintf(c->base, sizeof(c->base), "%s", base);
	c->pid = (uint32_t)getpid();
	c->next_tid = 1;
	c->buf = malloc(SA_BIG_MAX);
	if (!c->buf) {
		ftsw_err_set(err, "SA client: out of memory");
		return -1;
	}
	c->ctl = sock_bind(c, "ctl", err);
	if (c->ctl >= 0)
		c->data = sock_bind(c, "in", err);
	if (c->data >= 0)
		c->big = sock_bind(c, "big", err);
	if (c->big < 0)
		goto fail;
	if (setsockopt(c->big, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(c->big, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	ci.id = c->pid;
	gw_info_encode(&ci, &q);
	if (ctl_ask(c, &q, "CONNECT", err) || gw_info_decode(&q, &ci, err))
		goto fail;
	if (ci.id >= FTSW_GW_MAX_CLIENTS) {
		ftsw_err_set(err, "SA client: CONNECT answered slot %u", ci.id);
		goto fail;
	}
	c->id = ci.id;
	/* It only asks: the gateway gives it no request from the fabric. */
	{
		struct gw_agent ag = { .op = GW_AGENT_NONE };
		uint8_t m[GW_AGENT_SIZE];
		struct sockaddr_un a;
		socklen_t len = gw_sim_addr(&a, c->base, "big", 0, false);

		gw_agent_encode(&ag, m);
		if (!len || sendto(c->big, m, sizeof(m), 0,
				   (struct sockaddr *)&a, len) < 0) {
			ftsw_err_set(err, "SA client: telling the gateway: %s",
				     strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	ftsw_sa_close(c);
	return -1;
}

void ftsw_sa_close(struct ftsw_sa_client *c)
{
	struct gw_ctl q = { .type = GW_CTL_DISCONNECT, .clientid = c->id };
	struct ftsw_err err;

	if (c->ctl >= 0 && c->data >= 0 && c->big >= 0 && c->id != UINT32_MAX)
		(void)ctl_ask(c, &q, "DISCONNECT", &err);
	if (c->ctl >= 0)
		close(c->ctl);
	if (c->data >= 0)
		close(c->data);
	if (c->big >= 0)
		close(c->big);
	free(c->buf);
	c->buf = NULL;
	c->ctl = c->data = c->big = -1;
}

int ftsw_sa_port_lids(struct ftsw_sa_client *c, uint16_t *lid, uint16_t *sm_lid,
		      struct ftsw_err *err)
{
	struct gw_ctl q = { .type = GW_CTL_GET_PORTINFO, .clientid = c->id,
			    .len = GW_SIM_CTL_DATA };

	if (ctl_ask(c, &q, "GET_PORTINFO", err))
		return -1;
	/* PortInfo: LID at 16, MasterSMLID at 18 */
	*lid = (uint16_t)(q.data[16] << 8 | q.data[17]);
	*sm_lid = (uint16_t)(q.data[18] << 8 | q.data[19]);
	if (!*sm_lid || *sm_lid > 0xBFFF) {
		ftsw_err_set(err, "SA client: the port's MasterSMLID is 0x%04x (no SM yet?)",
			     *sm_lid);
		return -1;
	}
	return 0;
}

int ftsw_sa_port_gid(struct ftsw_sa_client *c, uint8_t gid[16],
		     struct ftsw_err *err)
{
	struct gw_ctl q = { .type = GW_CTL_GET_GID, .clientid = c->id,
			    .len = GW_SIM_CTL_DATA };

	if (ctl_ask(c, &q, "GET_GID", err))
		return -1;
	memcpy(gid, q.data, 16);	/* the prefix, the port GUID: wire order */
	return 0;
}

/*
 * The answer to TID tid: from the data socket (at most 224 bytes through
 * libumad2sim's datagram, or a status) or the long-MAD socket. 0 with
 * *mad and *len pointing into c->buf, or -1.
 */
static int recv_answer(struct ftsw_sa_client *c, uint64_t tid,
		       const uint8_t **mad, size_t *len, struct ftsw_err *err)
{
	uint64_t end = ftsw_now_us() + (c->timeout_ms ? c->timeout_ms :
					SA_TIMEOUT_MS) * 1000ull;
	struct gw_req *r = (struct gw_req *)c->buf;
	struct gw_umad u;
	uint64_t now;
	ssize_t n;

	while ((now = ftsw_now_us()) < end) {
		struct pollfd p[2] = { { .fd = c->data, .events = POLLIN },
				       { .fd = c->big, .events = POLLIN } };

		if (poll(p, 2, (int)((end - now + 999) / 1000)) <= 0)
			continue;
		if (p[1].revents & POLLIN) {
			n = recv(c->big, c->buf, SA_BIG_MAX, MSG_TRUNC);
			if (n > 0 && (size_t)n <= SA_BIG_MAX &&
			    !gw_umad_decode(c->buf, (size_t)n, GW_RMPP_MAX_BYTES,
					    &u, err) &&
			    u.len >= 16 && gw_mad_tid(u.mad) == tid) {
				*mad = u.mad;
				*len = u.len;
				return 0;
			}
		}
		if (p[0].revents & POLLIN) {
			uint8_t buf[GW_SIM_REQ_SIZE + 16];

			n = recv(c->data, buf, sizeof(buf), MSG_TRUNC);
			if (n <= 0 || (size_t)n > sizeof(buf) ||
			    gw_req_decode(buf, (size_t)n, r, err) ||
			    gw_mad_tid(r->mad) != tid)
				continue;
			if (r->status) {
				ftsw_err_set(err, "SA client: the gateway gave the query back, status %u%s",
					     r->status, r->status == GW_STATUS_TIMEDOUT ?
					     " (no answer from the SA)" : "");
				return -1;
			}
			*mad = r->mad;
			*len = r->length;
			return 0;
		}
	}
	ftsw_err_set(err, "SA client: no answer in %u ms",
		     c->timeout_ms ? c->timeout_ms : SA_TIMEOUT_MS);
	return -1;
}

int ftsw_sa_paths(struct ftsw_sa_client *c, uint16_t sm_lid, uint16_t slid,
		  struct ftsw_sa_path_rec **recs, size_t *n,
		  struct ftsw_err *err)
{
	struct gw_req q = { .dlid = sm_lid, .dqp = 1, .sqp = 1,
			    .length = GW_MAD_SIZE };
	uint8_t buf[GW_SIM_REQ_SIZE];
	struct sockaddr_un a;
	socklen_t alen = gw_sim_addr(&a, c->base, "out", c->id, true);
	const uint8_t *mad;
	uint64_t tid = c->next_tid++;
	size_t len;

	*recs = NULL;
	*n = 0;
	ftsw_sa_pr_query(q.mad, tid, slid);
	gw_req_encode(&q, buf);
	if (sendto(c->data, buf, sizeof(buf), 0, (struct sockaddr *)&a,
		   alen) != (ssize_t)sizeof(buf)) {
		ftsw_err_set(err, "SA client: query to @%s:out%u: %s", c->base,
			     c->id, strerror(errno));
		return -1;
	}
	if (recv_answer(c, tid, &mad, &len, err))
		return -1;
	*recs = malloc(FTSW_SA_MAX_RECORDS * sizeof(**recs));
	if (!*recs) {
		ftsw_err_set(err, "SA client: out of memory");
		return -1;
	}
	if (ftsw_sa_pr_parse(mad, len, tid, slid, *recs, FTSW_SA_MAX_RECORDS, n,
			     err)) {
		free(*recs);
		*recs = NULL;
		return -1;
	}
	return 0;
}

int ftsw_sa_mcm(struct ftsw_sa_client *c, uint16_t sm_lid, uint8_t method,
		uint64_t comp, const struct ftsw_sa_mcm *in,
		struct ftsw_sa_mcm *out, uint16_t *status,
		struct ftsw_err *err)
{
	struct gw_req q = { .dlid = sm_lid, .dqp = 1, .sqp = 1,
			    .length = GW_MAD_SIZE };
	uint8_t buf[GW_SIM_REQ_SIZE];
	struct sockaddr_un a;
	socklen_t alen = gw_sim_addr(&a, c->base, "out", c->id, true);
	const uint8_t *mad;
	uint64_t tid = c->next_tid++;
	size_t len;

	ftsw_sa_mcm_request(q.mad, tid, method, comp, in);
	gw_req_encode(&q, buf);
	if (sendto(c->data, buf, sizeof(buf), 0, (struct sockaddr *)&a,
		   alen) != (ssize_t)sizeof(buf)) {
		ftsw_err_set(err, "SA client: request to @%s:out%u: %s",
			     c->base, c->id, strerror(errno));
		return -1;
	}
	if (recv_answer(c, tid, &mad, &len, err) ||
	    ftsw_sa_mcm_parse(mad, len, tid, method, out, status, err))
		return -1;
	return 0;
}
