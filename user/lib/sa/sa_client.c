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
/* MCMemberRecord requests of a batch in flight at once (at most) */
#define SA_BATCH_WINDOW	64

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
 * One datagram of c's, if any is waiting: 1 with *tid, *mad and *len (a
 * MAD, pointing into c->buf) or *gw_status (the gateway gave the request
 * of *tid back: non-zero, *mad NULL), 0 if what came was not for us.
 */
static int recv_one(struct ftsw_sa_client *c, bool big, uint64_t *tid,
		    const uint8_t **mad, size_t *len, uint32_t *gw_status,
		    struct ftsw_err *err)
{
	struct gw_req *r = (struct gw_req *)c->buf;
	uint8_t buf[GW_SIM_REQ_SIZE + 16];
	struct gw_umad u;
	ssize_t n;

	*gw_status = 0;
	if (big) {
		n = recv(c->big, c->buf, SA_BIG_MAX, MSG_TRUNC | MSG_DONTWAIT);
		if (n <= 0 || (size_t)n > SA_BIG_MAX ||
		    gw_umad_decode(c->buf, (size_t)n, GW_RMPP_MAX_BYTES, &u,
				   err) || u.len < 16)
			return 0;
		*tid = gw_mad_tid(u.mad);
		*mad = u.mad;
		*len = u.len;
		return 1;
	}
	n = recv(c->data, buf, sizeof(buf), MSG_TRUNC | MSG_DONTWAIT);
	if (n <= 0 || (size_t)n > sizeof(buf) ||
	    gw_req_decode(buf, (size_t)n, r, err))
		return 0;
	*tid = gw_mad_tid(r->mad);
	*mad = r->status ? NULL : r->mad;
	*len = r->length;
	*gw_status = r->status;
	return 1;
}

static void gw_gave_back(uint32_t status, struct ftsw_err *err)
{
	ftsw_err_set(err, "SA client: the gateway gave the query back, status %u%s",
		     status, status == GW_STATUS_TIMEDOUT ?
		     " (no answer from the SA)" : "");
}

/*
 * The answer to TID tid: from the data socket (at most 224 bytes through
 * libumad2sim's datagram, or a status) or the long-MAD socket. 0 with
 * *mad and *len pointing into c->buf, or -1.
 */
static int recv_answer(struct ftsw_sa_client *c, uint64_t tid,
		       const uint8_t **mad, size_t *len, struct ftsw_err *err)
{
	unsigned ms = c->timeout_ms ? c->timeout_ms : SA_TIMEOUT_MS;
	uint64_t end = ftsw_now_us() + ms * 1000ull, now, got;
	uint32_t st;
	int k;

	while ((now = ftsw_now_us()) < end) {
		struct pollfd p[2] = { { .fd = c->data, .events = POLLIN },
				       { .fd = c->big, .events = POLLIN } };

		if (poll(p, 2, (int)((end - now + 999) / 1000)) <= 0)
			continue;
		for (k = 1; k >= 0; k--) {
			if (!(p[k].revents & POLLIN) ||
			    recv_one(c, k, &got, mad, len, &st, err) != 1 ||
			    got != tid)
				continue;
			if (st) {
				gw_gave_back(st, err);
				return -1;
			}
			return 0;
		}
	}
	ftsw_err_set(err, "SA client: no answer in %u ms", ms);
	return -1;
}

/* MAD mad[256] to the SA at sm_lid through c's gateway. */
static int sa_send(struct ftsw_sa_client *c, uint16_t sm_lid,
		   const uint8_t mad[GW_MAD_SIZE], struct ftsw_err *err)
{
	struct gw_req q = { .dlid = sm_lid, .dqp = 1, .sqp = 1,
			    .length = GW_MAD_SIZE };
	uint8_t buf[GW_SIM_REQ_SIZE];
	struct sockaddr_un a;
	socklen_t alen = gw_sim_addr(&a, c->base, "out", c->id, true);

	memcpy(q.mad, mad, GW_MAD_SIZE);
	gw_req_encode(&q, buf);
	if (sendto(c->data, buf, sizeof(buf), 0, (struct sockaddr *)&a,
		   alen) != (ssize_t)sizeof(buf)) {
		ftsw_err_set(err, "SA client: request to @%s:out%u: %s",
			     c->base, c->id, strerror(errno));
		return -1;
	}
	return 0;
}

int ftsw_sa_paths(struct ftsw_sa_client *c, uint16_t sm_lid, uint16_t slid,
		  struct ftsw_sa_path_rec **recs, size_t *n,
		  struct ftsw_err *err)
{
	uint8_t q[GW_MAD_SIZE];
	const uint8_t *mad;
	uint64_t tid = c->next_tid++;
	size_t len;

	*recs = NULL;
	*n = 0;
	ftsw_sa_pr_query(q, tid, slid);
	if (sa_send(c, sm_lid, q, err) || recv_answer(c, tid, &mad, &len, err))
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
	struct ftsw_sa_mcm_req r = { .c = c, .sm_lid = sm_lid,
				     .method = method, .comp = comp,
				     .in = *in };

	if (ftsw_sa_mcm_batch(&r, 1, err))
		return -1;
	*out = r.out;
	*status = r.status;
	return 0;
}

/* Which request of reqs[n] waits for TID tid on client c (n: none). */
static size_t batch_find(struct ftsw_sa_mcm_req *reqs, size_t n,
			 const struct ftsw_sa_client *c, uint64_t tid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (reqs[i].c == c && reqs[i].tid == tid && !reqs[i].done)
			return i;
	return n;
}

/* Request i of reqs sent: a TID of its client's, the MAD out. */
static int batch_send(struct ftsw_sa_mcm_req *r, struct ftsw_err *err)
{
	uint8_t q[GW_MAD_SIZE];

	r->tid = r->c->next_tid++;
	ftsw_sa_mcm_request(q, r->tid, r->method, r->comp, &r->in);
	return sa_send(r->c, r->sm_lid, q, err);
}

int ftsw_sa_mcm_batch(struct ftsw_sa_mcm_req *reqs, size_t n,
		      struct ftsw_err *err)
{
	struct pollfd *p = calloc(2 * n + 1, sizeof(*p));
	struct ftsw_sa_client **cl = calloc(n + 1, sizeof(*cl));
	size_t i, j, k, ncl = 0, left = n, sent;
	unsigned ms = 0;
	uint64_t end, now, tid;
	const uint8_t *mad;
	uint32_t st;
	size_t len;
	int rc = -1;

	if (!p || !cl) {
		ftsw_err_set(err, "SA client: out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct ftsw_sa_client *c = reqs[i].c;

		reqs[i].done = false;
		reqs[i].status = 0;
		reqs[i].tid = 0;
		for (j = 0; j < ncl && cl[j] != c; j++)
			;
		if (j == ncl) {
			cl[ncl++] = c;
			unsigned t = c->timeout_ms ? c->timeout_ms :
						     SA_TIMEOUT_MS;

			ms = t > ms ? t : ms;
		}
	}
	for (sent = 0; sent < n && sent < SA_BATCH_WINDOW; sent++)
		if (batch_send(&reqs[sent], err))
			goto out;
	/* every answer; the wait starts again with each one that comes */
	end = ftsw_now_us() + ms * 1000ull;
	while (left && (now = ftsw_now_us()) < end) {
		for (j = 0; j < ncl; j++) {
			p[2 * j] = (struct pollfd){ .fd = cl[j]->data,
						    .events = POLLIN };
			p[2 * j + 1] = (struct pollfd){ .fd = cl[j]->big,
							.events = POLLIN };
		}
		if (poll(p, 2 * ncl, (int)((end - now + 999) / 1000)) <= 0)
			continue;
		for (j = 0; j < 2 * ncl; j++) {
			struct ftsw_sa_client *c = cl[j / 2];

			if (!(p[j].revents & POLLIN) ||
			    recv_one(c, j & 1, &tid, &mad, &len, &st,
				     err) != 1)
				continue;
			k = batch_find(reqs, n, c, tid);
			if (k == n)
				continue;
			if (st) {
				gw_gave_back(st, err);
				goto out;
			}
			if (ftsw_sa_mcm_parse(mad, len, tid, reqs[k].method,
					      &reqs[k].out, &reqs[k].status,
					      err))
				goto out;
			reqs[k].done = true;
			left--;
			end = ftsw_now_us() + ms * 1000ull;
			if (sent < n && batch_send(&reqs[sent++], err))
				goto out;
		}
	}
	if (left) {
		ftsw_err_set(err, "SA client: %zu of %zu requests without an answer in %u ms",
			     left, n, ms);
		goto out;
	}
	rc = 0;
out:
	free(p);
	free(cl);
	return rc;
}
