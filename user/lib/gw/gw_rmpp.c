// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw gateway: RMPP for the clients, as the kernel's MAD layer does it
 * for umad agents (rmpp.h holds the protocol; this file the sessions and
 * sockets). A client's RMPP message (an SA GetTableResp from OpenSM, say)
 * leaves as DATA segments in windows the receiver grants, resent after a
 * timeout; segments from the fabric are acknowledged and reassembled,
 * and the whole message goes to its client: through libumad2sim.so's
 * socket when it fits the 224 bytes that library hands a tool intact,
 * else as a long MAD on the client's BASE:bigPID socket (libftsw-umad.so,
 * simproto.h section 3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gw/gw_int.h"

int gwr_open(struct gw *g, struct ftsw_err *err)
{
	struct sockaddr_un a;
	socklen_t len = gw_sim_addr(&a, g->base, "big", 0, false);
	int sz = 4 << 20;

	g->big = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (g->big < 0 || bind(g->big, (struct sockaddr *)&a, len) < 0) {
		ftsw_err_set(err, "long-MAD socket @%s:big: %s", g->base,
			     strerror(errno));
		return -errno;
	}
	/* a whole message is one datagram, charged to the sender's buffer */
	if (setsockopt(g->big, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(g->big, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	return 0;
}

void gwr_close(struct gw *g)
{
	unsigned i;

	for (i = 0; i < GW_RMPP_SESSIONS; i++) {
		gw_rmpp_rx_free(&g->rx[i].rx);
		gw_rmpp_tx_free(&g->tx[i].tx);
		g->rx[i].used = g->tx[i].used = false;
	}
	if (g->big >= 0)
		close(g->big);
	g->big = -1;
}

/* The ACK, STOP or ABORT r, answering segment mad that came in f. */
static void reply(struct gw *g, const struct gw_frame *f, const uint8_t *mad,
		  const struct gw_rmpp_reply *r)
{
	struct gw_frame o = { .dlid = f->slid, .dqpn = f->sqpn, .sqpn = f->dqpn,
			      .sl = f->sl, .pkey = f->pkey };

	if (r->kind == GW_RMPP_NONE)
		return;
	gw_rmpp_reply_mad(mad, r, o.mad);
	gw_send_frame(g, &o);
}

/* ---------------------------------------------------------------- send */

static struct gw_tx_sess *tx_find(struct gw *g, uint64_t tid, uint16_t peer)
{
	unsigned i;

	for (i = 0; i < GW_RMPP_SESSIONS; i++)
		if (g->tx[i].used && g->tx[i].tid == tid &&
		    g->tx[i].f.dlid == peer)
			return &g->tx[i];
	return NULL;
}

/* Send what the window allows. */
static void tx_push(struct gw *g, struct gw_tx_sess *s, uint64_t now)
{
	uint32_t seg;

	while (gw_rmpp_tx_next(&s->tx, &seg)) {
		gw_rmpp_segment(s->tx.msg, s->tx.len, seg, s->f.mad);
		gw_send_frame(g, &s->f);
	}
	s->due_us = now + gw_mad_timeout_us(g);
}

static void tx_end(struct gw_tx_sess *s)
{
	gw_rmpp_tx_free(&s->tx);
	s->used = false;
}

bool gwr_send(struct gw *g, uint32_t client, const struct gw_frame *f,
	      const uint8_t *mad, size_t len)
{
	uint64_t now = ftsw_now_us();
	struct gw_tx_sess *s = NULL;
	struct ftsw_err err;
	uint8_t *copy;
	unsigned i;

	if (len < GW_RMPP_HDR || !gw_rmpp_active(mad) ||
	    len < gw_rmpp_class_hdr(mad[1]))
		return false;
	if (tx_find(g, gw_mad_tid(mad), f->dlid)) {
		gw_log(g, "client %u: RMPP TID 0x%016llx to LID %u is being sent already: dropped",
		       client, (unsigned long long)gw_mad_tid(mad), f->dlid);
		return true;
	}
	for (i = 0; i < GW_RMPP_SESSIONS && !s; i++)
		if (!g->tx[i].used)
			s = &g->tx[i];
	copy = s ? malloc(len) : NULL;
	if (!copy) {
		g->rmpp_failed++;
		gw_log(g, "client %u: RMPP message dropped: %s", client,
		       s ? "out of memory" : "every send session busy");
		return true;
	}
	memcpy(copy, mad, len);
	if (gw_rmpp_tx_init(&s->tx, copy, len, &err) < 0) {
		free(copy);
		g->rmpp_failed++;
		gw_log(g, "client %u: %s", client, err.msg);
		return true;
	}
	s->used = true;
	s->tid = gw_mad_tid(mad);
	s->tries = 1;
	s->f = *f;
	g->rmpp_out++;
	if (g->o->verbose)
		gw_log(g, "client %u: RMPP %zu bytes (%u segments) to LID %u, TID 0x%016llx",
		       client, len, s->tx.nseg, f->dlid,
		       (unsigned long long)s->tid);
	tx_push(g, s, now);
	return true;
}

/* An ACK, STOP or ABORT from the fabric for a message we send. */
static void tx_in(struct gw *g, const struct gw_frame *f, uint64_t now)
{
	struct gw_tx_sess *s = tx_find(g, gw_mad_tid(f->mad), f->slid);
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	int rc;

	if (!s) {
		g->dropped++;
		if (g->o->verbose)
			gw_log(g, "RMPP ACK/STOP/ABORT TID 0x%016llx from LID %u matches no message",
			       (unsigned long long)gw_mad_tid(f->mad), f->slid);
		return;
	}
	rc = gw_rmpp_tx_ack(&s->tx, f->mad, &r, &err);
	if (rc < 0) {
		g->rmpp_failed++;
		gw_log(g, "RMPP to LID %u, TID 0x%016llx: %s", f->slid,
		       (unsigned long long)s->tid, err.msg);
		reply(g, f, f->mad, &r);
		tx_end(s);
		return;
	}
	if (rc == 1) {
		tx_end(s);
		return;
	}
	s->tries = 1;
	tx_push(g, s, now);
}

/* ------------------------------------------------------------- receive */

static struct gw_rx_sess *rx_find(struct gw *g, uint64_t tid, uint16_t peer)
{
	unsigned i;

	for (i = 0; i < GW_RMPP_SESSIONS; i++)
		if (g->rx[i].used && g->rx[i].tid == tid &&
		    g->rx[i].f.slid == peer)
			return &g->rx[i];
	return NULL;
}

/* A whole message of len bytes to client i as a long MAD. */
static bool to_client_big(struct gw *g, uint32_t i, const struct gw_frame *f,
			  const uint8_t *mad, size_t len)
{
	struct gw_umad u = { .qpn = f->sqpn, .lid = f->slid, .len = len,
			     .mad = mad };
	struct sockaddr_un a;
	socklen_t alen = gw_sim_addr(&a, g->base, "big", g->cl[i].pid, true);
	uint8_t *buf = malloc(GW_UMAD_HDR + len);
	ssize_t n;

	if (!buf)
		return false;
	/* the agent of a response: umad2sim's number in the TID's bits 32..47 */
	u.agent = (uint32_t)(gw_mad_tid(mad) >> 32) & 0xffff;
	n = sendto(g->big, buf, gw_umad_encode(&u, buf), MSG_DONTWAIT,
		   (struct sockaddr *)&a, alen);
	free(buf);
	if (n == (ssize_t)(GW_UMAD_HDR + len)) {
		g->cl[i].from_fabric++;
		return true;
	}
	gw_log(g, "client %u (pid %u): %zu-byte RMPP message: @%s:big%u: %s%s",
	       i, g->cl[i].pid, len, g->base, g->cl[i].pid, strerror(errno),
	       errno == ECONNREFUSED ?
	       " (libftsw-umad.so is not preloaded: only the first 224 bytes reach the tool)" :
	       "");
	return false;
}

/* The reassembled message of s to its client. */
static void rx_deliver(struct gw *g, struct gw_rx_sess *s, uint64_t now)
{
	struct gw_frame f = s->f;
	uint8_t *mad = s->rx.buf;
	size_t len = s->rx.len;
	uint64_t orig, tid = s->tid;
	uint32_t gen, owner;
	int i;

	g->rmpp_in++;
	if (gw_mad_is_response(mad)) {
		owner = gw_tid_in(&g->tids, tid, now, &orig, &gen);
		if (!owner || owner > FTSW_GW_MAX_CLIENTS ||
		    !g->cl[owner - 1].used || g->cl[owner - 1].gen != gen) {
			g->dropped++;
			gw_log(g, "RMPP response TID 0x%016llx (%zu bytes) matches no request",
			       (unsigned long long)tid, len);
			return;
		}
		gw_tid_forget(&g->tids, tid);
		gw_mad_set_tid(mad, orig);
		i = (int)owner - 1;
	} else if ((i = gw_request_client(g, gw_mad_class(mad))) < 0) {
		g->dropped++;
		gw_log(g, "RMPP request class 0x%02x method 0x%02x from LID %u: no client serves the class",
		       gw_mad_class(mad), gw_mad_method(mad), f.slid);
		return;
	}
	if (len > GW_SIM_MAD_INTACT &&
	    to_client_big(g, (uint32_t)i, &f, mad, len))
		return;
	memcpy(f.mad, mad, len < GW_MAD_SIZE ? len : GW_MAD_SIZE);
	gw_to_client_len(g, (uint32_t)i, &f,
			 len < GW_MAD_SIZE ? len : GW_MAD_SIZE, 0);
}

/* A DATA segment from the fabric. */
static void rx_in(struct gw *g, const struct gw_frame *f, uint64_t now)
{
	uint64_t tid = gw_mad_tid(f->mad);
	struct gw_rx_sess *s = rx_find(g, tid, f->slid);
	struct gw_rmpp_reply r;
	struct ftsw_err err;
	unsigned i;
	int rc;

	for (i = 0; !s && i < GW_RMPP_SESSIONS; i++)
		if (!g->rx[i].used) {
			s = &g->rx[i];
			*s = (struct gw_rx_sess){ .used = true, .tid = tid,
						  .f = *f };
		}
	if (!s) {
		g->rmpp_failed++;
		gw_log(g, "RMPP from LID %u, TID 0x%016llx: every receive session busy",
		       f->slid, (unsigned long long)tid);
		r = (struct gw_rmpp_reply){ .kind = GW_RMPP_SEND_STOP,
					    .status = GW_RMPP_ST_RESX };
		reply(g, f, f->mad, &r);
		return;
	}
	s->last_us = now;
	rc = gw_rmpp_rx_seg(&s->rx, f->mad, &r, &err);
	reply(g, f, f->mad, &r);
	if (rc < 0) {
		g->rmpp_failed++;
		gw_log(g, "RMPP from LID %u, TID 0x%016llx: %s", f->slid,
		       (unsigned long long)tid, err.msg);
		gw_rmpp_rx_free(&s->rx);
		s->used = false;
		return;
	}
	/* the request is answered: no resend from now on */
	if (s->rx.expect == 2 && gw_mad_is_response(f->mad))
		gw_pend_done(&g->pend, tid);
	if (rc == 1) {
		rx_deliver(g, s, now);
		/* kept (done) a while, to ACK a Last sent again */
		free(s->rx.buf);
		s->rx.buf = NULL;
	}
}

bool gwr_dispatch(struct gw *g, const struct gw_frame *f, uint64_t now)
{
	if (!gw_rmpp_active(f->mad))
		return false;
	if (f->mad[25] == GW_RMPP_DATA)
		rx_in(g, f, now);
	else
		tx_in(g, f, now);
	return true;
}

/* ------------------------------------------------------------ timeouts */

/* The sender gives up: ABORT (too many retries) with the DATA's header. */
static void tx_abort(struct gw *g, struct gw_tx_sess *t)
{
	struct gw_rmpp_reply r = { .kind = GW_RMPP_SEND_ABORT,
				   .status = GW_RMPP_ST_TMR };
	uint8_t seg[GW_MAD_SIZE];

	gw_rmpp_segment(t->tx.msg, t->tx.len, 1, seg);
	gw_rmpp_reply_mad(seg, &r, t->f.mad);
	t->f.mad[3] ^= 0x80;	/* the DATA's method, not the answer's */
	gw_send_frame(g, &t->f);
	tx_end(t);
}

void gwr_expire(struct gw *g, uint64_t now)
{
	unsigned tries = g->o->mad_tries ? g->o->mad_tries : FTSW_GW_MAD_TRIES;
	uint64_t idle = 2 * tries * gw_mad_timeout_us(g);
	unsigned i;

	for (i = 0; i < GW_RMPP_SESSIONS; i++) {
		struct gw_tx_sess *t = &g->tx[i];
		struct gw_rx_sess *s = &g->rx[i];

		if (t->used && t->due_us <= now) {
			if (t->tries++ < tries) {
				gw_rmpp_tx_rewind(&t->tx);
				tx_push(g, t, now);
			} else {
				g->rmpp_failed++;
				gw_log(g, "RMPP to LID %u, TID 0x%016llx: no ACK after %u tries: aborted",
				       t->f.dlid, (unsigned long long)t->tid,
				       tries);
				tx_abort(g, t);
			}
		}
		if (s->used && s->last_us + idle <= now) {
			if (!s->rx.done) {
				g->rmpp_failed++;
				gw_log(g, "RMPP from LID %u, TID 0x%016llx: nothing for %llu ms after segment %u: dropped",
				       s->f.slid, (unsigned long long)s->tid,
				       (unsigned long long)idle / 1000,
				       s->rx.expect ? s->rx.expect - 1 : 0);
			}
			gw_rmpp_rx_free(&s->rx);
			s->used = false;
		}
	}
}

uint64_t gwr_next(const struct gw *g)
{
	uint64_t next = UINT64_MAX;
	unsigned i;

	for (i = 0; i < GW_RMPP_SESSIONS; i++)
		if (g->tx[i].used && g->tx[i].due_us < next)
			next = g->tx[i].due_us;
	return next;
}

/* ------------------------------------------------------------ long MADs */

/* The client whose BASE:bigPID address a long MAD came from. */
static int big_client(struct gw *g, const struct sockaddr_un *a, socklen_t al)
{
	char want[sizeof(a->sun_path)];
	size_t n = al > offsetof(struct sockaddr_un, sun_path) ?
		   al - offsetof(struct sockaddr_un, sun_path) : 0;
	unsigned i;
	int wn;

	for (i = 0; i < FTSW_GW_MAX_CLIENTS; i++) {
		if (!g->cl[i].used)
			continue;
		wn = snprintf(want, sizeof(want), "%s:big%u", g->base,
			      g->cl[i].pid);
		/* abstract: a NUL, the name, its NUL */
		if (n == (size_t)wn + 2 && !a->sun_path[0] &&
		    !memcmp(a->sun_path + 1, want, (size_t)wn + 1))
			return (int)i;
	}
	return -1;
}

void gwr_on_big(struct gw *g)
{
	struct sockaddr_un a;
	socklen_t al = sizeof(a);
	struct ftsw_err err;
	struct gw_frame f;
	struct gw_umad u;
	uint8_t *buf;
	ssize_t n;
	int i;

	n = recv(g->big, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	if (n < 0)
		return;
	buf = malloc((size_t)n + 1);
	if (!buf) {
		(void)recv(g->big, NULL, 0, MSG_DONTWAIT);
		return;
	}
	n = recvfrom(g->big, buf, (size_t)n + 1, MSG_DONTWAIT,
		     (struct sockaddr *)&a, &al);
	i = n < 0 ? -1 : big_client(g, &a, al);
	if (n == GW_AGENT_SIZE && i >= 0) {
		gw_on_agent(g, (uint32_t)i, buf, (size_t)n);
		free(buf);
		return;
	}
	if (n < 0 || i < 0 ||
	    gw_umad_decode(buf, (size_t)n, GW_RMPP_MAX_BYTES, &u, &err) < 0) {
		if (n >= 0) {
			g->refused++;
			gw_log(g, "long MAD refused: %s", i < 0 ?
			       "not from a connected client's @BASE:bigPID" :
			       err.msg);
		}
		free(buf);
		return;
	}
	f = (struct gw_frame){ .dlid = u.lid, .dqpn = u.qpn, .sqpn = 1,
			       .pkey = FTSW_MAD_PKEY_DEFAULT };
	/* a request gets the gateway's TID, umad2sim's agent bits kept */
	if (!gw_mad_is_response(u.mad)) {
		uint8_t *m = buf + GW_UMAD_HDR;
		uint64_t tid = (gw_mad_tid(m) & 0xffff0000ffffffffull) |
			       (uint64_t)(u.agent & 0xffff) << 32;

		gw_mad_set_tid(m, gw_tid_out(&g->tids, (uint32_t)i + 1,
					     g->cl[i].gen, tid, ftsw_now_us()));
	}
	if (!gwr_send(g, (uint32_t)i, &f, u.mad, u.len)) {
		g->refused++;
		gw_log(g, "client %d: long MAD of %zu bytes, class 0x%02x, is not an RMPP message: refused",
		       i, u.len, gw_mad_class(u.mad));
	} else {
		g->cl[i].to_fabric++;
	}
	free(buf);
}
