// SPDX-License-Identifier: GPL-2.0
/*
 * `lab view`'s HTTP server: libmicrohttpd run from one loop with the
 * sampler, so nothing is shared between threads. The loop samples at the
 * view's rate, makes one delta message per sample for the push stream
 * (Server-Sent Events, /api/stream) and answers requests from the
 * snapshot (http.c). Clients cannot hurt it or the lab: read-only (GET and
 * HEAD), a connection limit, an idle timeout, a small memory limit per
 * connection (headers past it are refused by libmicrohttpd), no request
 * body taken, and a stream client that falls FTSW_VIEW_RING messages
 * behind gets a fresh whole snapshot instead of a queue: every client
 * costs a pointer into the shared messages, never a copy. No lab command
 * ever waits on it: the view only reads.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/parse.h"
#include "view/mhd.h"
#include "view/view_int.h"

#define SSE_BLOCK	(16 << 10)

/* libmicrohttpd, loaded by ftsw_view_serve() (mhd.h) */
static const struct ftsw_mhd *mhd;
#define CONN_MEMORY	(32 << 10)

struct srv;

/* A push-stream client: where it is in the shared messages. */
struct sse {
	struct srv *s;
	struct MHD_Connection *c;
	uint64_t next;		/* the seq of the delta it needs next (0:
				 * a whole snapshot first) */
	struct ftsw_view_msg *cur;	/* being sent */
	size_t off;
	bool suspended;
	struct sse *prev, *nxt;
};

struct srv {
	struct ftsw_view *v;
	struct MHD_Daemon *d;
	struct sse *clients;
	unsigned nclients;
	bool stopping;
	uint64_t next_event;	/* the timeline's seq the next delta starts at */
	uint64_t latest;	/* seq of the newest delta in the ring (0: none) */
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An SSE message "event: KIND\ndata: JSON\n\n" of the snapshot, full or
 * a delta with the timeline's events from since on. */
static struct ftsw_view_msg *sse_msg(struct ftsw_view *v, bool full,
				     uint64_t since)
{
	struct ftsw_vbuf b = { 0 };

	ftsw_vbuf_printf(&b, "event: %s\ndata: ", full ? "snap" : "delta");
	ftsw_view_json_snap(v, full, since, &b);
	ftsw_vbuf_put(&b, "\n\n", 2);
	return ftsw_view_msg_adopt(&b, v->snap.seq);
}

/* The whole snapshot as a message, made once per sample when asked. */
static struct ftsw_view_msg *full_msg(struct srv *s)
{
	struct ftsw_view *v = s->v;

	if (v->full && v->full->seq == v->snap.seq)
		return v->full;
	ftsw_view_msg_put(v->full);
	v->full = sse_msg(v, true, v->tl.next > 200 ? v->tl.next - 200 : 0);
	return v->full;
}

/* The message a client gets next, with a ref for it; NULL: none yet. */
static struct ftsw_view_msg *next_msg(struct sse *c)
{
	struct srv *s = c->s;
	struct ftsw_view_msg *m;

	if (c->next && s->latest && c->next <= s->latest &&
	    c->next + FTSW_VIEW_RING > s->latest) {
		m = s->v->ring[c->next % FTSW_VIEW_RING];
		if (m && m->seq == c->next) {
			c->next++;
			return ftsw_view_msg_get(m);
		}
	}
	if (c->next && c->next == s->latest + 1)
		return NULL;	/* up to date */
	/* new, or fallen behind the ring: a whole snapshot */
	m = full_msg(s);
	if (!m)
		return NULL;
	c->next = m->seq + 1;
	return ftsw_view_msg_get(m);
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sse *c = cls;
	size_t n;

	(void)pos;
	if (c->s->stopping)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (!c->cur) {
		c->cur = next_msg(c);
		c->off = 0;
		if (!c->cur) {
			c->suspended = true;
			mhd->suspend_connection(c->c);
			return 0;
		}
	}
	n = c->cur->len - c->off < max ? c->cur->len - c->off : max;
	memcpy(buf, c->cur->text + c->off, n);
	c->off += n;
	if (c->off == c->cur->len) {
		ftsw_view_msg_put(c->cur);
		c->cur = NULL;
	}
	return (ssize_t)n;
}

static void sse_free(void *cls)
{
	struct sse *c = cls;
	struct srv *s = c->s;

	if (c->prev)
		c->prev->nxt = c->nxt;
	else
		s->clients = c->nxt;
	if (c->nxt)
		c->nxt->prev = c->prev;
	s->nclients--;
	s->v->clients = s->nclients;
	ftsw_view_msg_put(c->cur);
	free(c);
}

static void resume_all(struct srv *s)
{
	struct sse *c;

	for (c = s->clients; c; c = c->nxt)
		if (c->suspended) {
			c->suspended = false;
			mhd->resume_connection(c->c);
		}
}

/* ------------------------------------------------------------ requests */

static void common_headers(struct MHD_Response *r, bool page)
{
	mhd->add_response_header(r, "X-Content-Type-Options", "nosniff");
	mhd->add_response_header(r, "Referrer-Policy", "no-referrer");
	mhd->add_response_header(r, "Cache-Control", "no-store");
	if (page)
		mhd->add_response_header(r, "Content-Security-Policy",
					 "default-src 'none'; script-src 'self'; "
					 "style-src 'self'; connect-src 'self'; "
					 "img-src 'self' data:; base-uri 'none'; "
					 "form-action 'none'; frame-ancestors "
					 "'none'");
}

static void msg_free(void *cls)
{
	ftsw_view_msg_put(cls);
}

/*
 * An answer without copying it: a shared message keeps a reference until
 * sent, a body built for the request is handed over, the view's own
 * (the page, the topology: they outlive the server) is used in place.
 */
static struct MHD_Response *response(struct ftsw_view_resp *a)
{
	struct MHD_Response *r;

	if (a->msg) {
		r = mhd->create_response_from_buffer_with_free_callback_cls(
			a->len, (void *)a->body, msg_free, a->msg);
		if (r)
			a->msg = NULL;
	} else if (a->b.p && a->body == a->b.p) {
		r = mhd->create_response_from_buffer(a->len, a->b.p,
						     MHD_RESPMEM_MUST_FREE);
		if (r)
			memset(&a->b, 0, sizeof(a->b));
	} else {
		r = mhd->create_response_from_buffer(a->len, (void *)a->body,
						     MHD_RESPMEM_PERSISTENT);
	}
	return r;
}

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status,
			     const char *type, const char *body, size_t len,
			     const char *allow, bool page)
{
	struct MHD_Response *r = mhd->create_response_from_buffer(
		len, (void *)body, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	mhd->add_response_header(r, "Content-Type", type);
	if (allow)
		mhd->add_response_header(r, "Allow", allow);
	common_headers(r, page);
	ok = mhd->queue_response(c, status, r);
	mhd->destroy_response(r);
	return ok;
}

static const char *query_arg(const char *name, void *ctx)
{
	return mhd->lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result stream(struct srv *s, struct MHD_Connection *conn)
{
	struct MHD_Response *r;
	struct sse *c = calloc(1, sizeof(*c));
	enum MHD_Result ok;

	if (!c)
		return queue(conn, 503, "text/plain", "busy\n", 5, NULL, false);
	c->s = s;
	c->c = conn;
	r = mhd->create_response_from_callback(MHD_SIZE_UNKNOWN, SSE_BLOCK,
					       sse_read, c, sse_free);
	if (!r) {
		free(c);
		return MHD_NO;
	}
	c->nxt = s->clients;
	if (s->clients)
		s->clients->prev = c;
	s->clients = c;
	s->nclients++;
	s->v->clients = s->nclients;
	mhd->add_response_header(r, "Content-Type", "text/event-stream");
	common_headers(r, false);
	ok = mhd->queue_response(conn, 200, r);
	mhd->destroy_response(r);
	return ok;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_size, void **con_cls)
{
	static const char gone[] = "{\"error\":\"no such page\"}\n";
	static const char bad_method[] = "{\"error\":\"read-only: GET and "
					 "HEAD only\"}\n";
	static const char no_body[] = "{\"error\":\"no request body is "
				      "taken\"}\n";
	struct srv *s = cls;
	struct ftsw_view_resp r;
	struct MHD_Response *mr;
	enum ftsw_view_ep ep;
	enum MHD_Result ok;
	unsigned status;

	(void)version;
	(void)upload_data;
	(void)con_cls;
	status = ftsw_view_route(method, url, &ep);
	if (status == 404)
		return queue(conn, 404, "application/json", gone,
			     sizeof(gone) - 1, NULL, false);
	if (status != 200)
		return queue(conn, status == 405 ? 405 : 400, "application/json",
			     bad_method, sizeof(bad_method) - 1, "GET, HEAD",
			     false);
	if (*upload_size ||
	    mhd->lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH) ||
	    mhd->lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return queue(conn, 413, "application/json", no_body,
			     sizeof(no_body) - 1, NULL, false);
	if (ep == FTSW_EP_STREAM)
		return stream(s, conn);
	ftsw_view_answer(s->v, ep, query_arg, conn, &r);
	mr = response(&r);
	ftsw_view_resp_free(&r);
	if (!mr)
		return MHD_NO;
	mhd->add_response_header(mr, "Content-Type", r.type);
	common_headers(mr, ep == FTSW_EP_PAGE);
	ok = mhd->queue_response(conn, r.status, mr);
	mhd->destroy_response(mr);
	return ok;
}

/*
 * libmicrohttpd's unescaping of the path and the query, but %00 is left as
 * it is: decoded, its NUL would cut the path short ("/%00" would be "/",
 * the page), so a path with one matches nothing (404).
 */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	char *w = s;
	const char *r = s;

	(void)cls;
	(void)c;
	while (*r) {
		int hi = r[0] == '%' ? ftsw_hex_digit((unsigned char)r[1]) : -1;
		int lo = hi >= 0 ? ftsw_hex_digit((unsigned char)r[2]) : -1;

		if (hi >= 0 && hi < 16 && lo >= 0 && lo < 16 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
	return (size_t)(w - s);
}

static void quiet_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

/* ------------------------------------------------------------ the loop */

/* After a sample: its delta into the ring, every waiting client woken. */
static void publish(struct srv *s)
{
	struct ftsw_view *v = s->v;
	struct ftsw_view_msg *m = sse_msg(v, false, s->next_event);

	if (m) {
		ftsw_view_msg_put(v->ring[m->seq % FTSW_VIEW_RING]);
		v->ring[m->seq % FTSW_VIEW_RING] = m;
		s->latest = m->seq;
		s->next_event = v->tl.next;
	}
	resume_all(s);
}

/* "ADDR:PORT" or "[ADDR6]:PORT" into sa. 0, or -1 with err. */
static int parse_listen(const char *spec, struct sockaddr_storage *sa,
			bool *v6, struct ftsw_err *err)
{
	char host[64];
	const char *colon;
	char *end;
	unsigned long port;
	size_t n;

	memset(sa, 0, sizeof(*sa));
	if (!spec)
		spec = "127.0.0.1:" "8470";
	colon = strrchr(spec, ':');
	if (!colon || colon == spec)
		goto bad;
	n = (size_t)(colon - spec);
	if (spec[0] == '[') {
		if (n < 3 || spec[n - 1] != ']')
			goto bad;
		spec++;
		n -= 2;
	}
	if (n >= sizeof(host))
		goto bad;
	memcpy(host, spec, n);
	host[n] = 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port > 65535)
		goto bad;
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)sa)->sin_addr) == 1) {
		((struct sockaddr_in *)sa)->sin_family = AF_INET;
		((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)port);
		*v6 = false;
		return 0;
	}
	if (inet_pton(AF_INET6, host,
		      &((struct sockaddr_in6 *)sa)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)sa)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)port);
		*v6 = true;
		return 0;
	}
bad:
	ftsw_err_set(err, "--listen %s: ADDR:PORT or [ADDR6]:PORT expected "
		     "(an address, not a name; port 0..65535)", spec);
	return -1;
}

int ftsw_view_listen(const char *spec, struct ftsw_view_listener *l,
		     struct ftsw_err *err)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char addr[64];
	bool v6;
	int one = 1;

	l->fd = -1;
	if (parse_listen(spec, &sa, &v6, err))
		return -1;
	if (!spec)
		spec = "127.0.0.1:8470";
	len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	l->fd = socket(v6 ? AF_INET6 : AF_INET,
		       SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->fd < 0 ||
	    setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (v6 && setsockopt(l->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
			      sizeof(one))) ||
	    bind(l->fd, (struct sockaddr *)&sa, len) || listen(l->fd, 128) ||
	    getsockname(l->fd, (struct sockaddr *)&sa, &len)) {
		int e = errno;

		if (l->fd >= 0)
			close(l->fd);
		l->fd = -1;
		ftsw_err_errno(err, e, "--listen %s: cannot listen there: %s",
			       spec, strerror(e));
		return -1;
	}
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr,
			  addr, sizeof(addr));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, addr,
			  sizeof(addr));
	snprintf(l->url, sizeof(l->url), "http://%s%s%s:%u/", v6 ? "[" : "",
		 addr, v6 ? "]" : "",
		 ntohs(v6 ? ((struct sockaddr_in6 *)&sa)->sin6_port :
		       ((struct sockaddr_in *)&sa)->sin_port));
	return 0;
}

/* libmicrohttpd on the listener's socket (it closes it when it stops). */
static int start(struct srv *s, const struct ftsw_view_server_opts *o,
		 struct ftsw_view_listener *l, struct ftsw_err *err)
{
	mhd = ftsw_mhd_load(err);
	if (!mhd) {
		close(l->fd);
		l->fd = -1;
		return -1;
	}
	s->d = mhd->start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME,
				 0, NULL, NULL, handle, s,
				 MHD_OPTION_LISTEN_SOCKET, l->fd,
				 MHD_OPTION_CONNECTION_LIMIT,
				 (unsigned)(o->max_clients ? o->max_clients : 1024),
				 MHD_OPTION_CONNECTION_TIMEOUT,
				 (unsigned)(o->timeout_s ? o->timeout_s : 15),
				 MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				 (size_t)CONN_MEMORY,
				 MHD_OPTION_STRICT_FOR_CLIENT, 1,
				 MHD_OPTION_EXTERNAL_LOGGER, quiet_log, NULL,
				 MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				 MHD_OPTION_END);
	if (!s->d) {
		int e = errno ? errno : EIO;

		close(l->fd);
		l->fd = -1;
		ftsw_err_errno(err, e, "%s: the HTTP server did not start: %s",
			       l->url, strerror(e));
		return -1;
	}
	l->fd = -1;
	return 0;
}

int ftsw_view_serve(struct ftsw_view *v, const struct ftsw_view_server_opts *o,
		    struct ftsw_err *err)
{
	struct ftsw_view_listener own, *l = o->listener;
	struct srv s = { .v = v };
	const union MHD_DaemonInfo *di;
	double next = mono(), last = 0;
	unsigned int failed = 0;
	char url[128];
	long other;
	int rc = -1;

	if (!l) {
		if (ftsw_view_listen(o->listen, &own, err))
			return -1;
		l = &own;
	}
	other = ftsw_view_running(v->name, url, sizeof(url));
	if (other) {
		close(l->fd);
		l->fd = -1;
		ftsw_err_errno(err, EBUSY, "lab %s is watched already: lab view "
			       "pid %ld at %s", v->name, other, url);
		return -1;
	}
	snprintf(url, sizeof(url), "%s", l->url);
	if (start(&s, o, l, err))
		return -1;
	if (ftsw_view_pid_write(v->name, url, err)) {
		mhd->stop_daemon(s.d);
		return -1;
	}
	if (o->ready)
		o->ready(url, o->ready_arg);
	di = mhd->get_daemon_info(s.d, MHD_DAEMON_INFO_EPOLL_FD);
	while (!o->stop || !*o->stop) {
		struct pollfd pfd[2] = {
			{ .fd = di ? di->epoll_fd : -1, .events = POLLIN },
			{ .fd = ftsw_view_event_fd(v), .events = POLLIN },
		};
		MHD_UNSIGNED_LONG_LONG mt;
		double now = mono(), wait;

		if (now >= next) {
			last = now;
			v->port_event = false;
			/*
			 * The lab gone ends the view. Anything else (a dump
			 * a change interrupted, a lab command holding the
			 * fabric) goes in the timeline and the next interval
			 * tries again; twenty in a row end it too.
			 */
			if (!ftsw_view_sample(v, err)) {
				failed = 0;
				publish(&s);
			} else if (err->code == ENOENT || ++failed >= 20) {
				goto out;
			} else {
				ftsw_view_event_add(v, v->snap.wall, "view",
						    "sample failed: %s",
						    err->msg);
			}
			/* a sample slower than the interval: the next after a
			 * whole interval of rest, never back to back */
			next += v->interval_ms / 1000.0;
			now = mono();
			if (next < now)
				next = now + v->interval_ms / 1000.0;
		}
		/* resumed connections want MHD_run before the next poll */
		mhd->run(s.d);
		wait = next - mono();
		if (mhd->get_timeout(s.d, &mt) == MHD_YES && mt / 1000.0 < wait)
			wait = mt / 1000.0;
		if (poll(pfd, 2, wait > 0 ? (int)(wait * 1000) + 1 : 0) < 0 &&
		    errno != EINTR) {
			ftsw_err_errno(err, errno, "poll: %s", strerror(errno));
			goto out;
		}
		if (pfd[1].revents)
			ftsw_view_events(v);
		/* a port went down or up: its state on the pages now, not an
		 * interval later (a burst of events: a fifth of one apart) */
		if (v->port_event && next > last + v->interval_ms / 5000.0)
			next = last + v->interval_ms / 5000.0;
		mhd->run(s.d);
	}
	rc = 0;
out:
	s.stopping = true;
	resume_all(&s);
	mhd->run(s.d);
	mhd->stop_daemon(s.d);
	ftsw_view_pid_remove(v->name);
	return rc;
}
