// SPDX-License-Identifier: GPL-2.0
/*
 * The view's requests, without sockets (server.c carries them): which
 * endpoint a method and path name, and each endpoint's answer, built from
 * the snapshot only. Read-only: GET and HEAD, nothing else. Fuzzed
 * (tests/fuzz/view.c) with the builders it calls.
 *
 *   /, /index.html     the page          /view.js, /view.css  its assets
 *   /api/topology      nodes and cables  /api/snapshot        the state now
 *   /api/stream        the push stream (server.c: Server-Sent Events)
 *   /api/path?src=h0&dst=h5              every LMC path of a pair
 *   /api/port?sw=s3&port=2               a port's VLs
 *   /api/timeline?since=N                events from N on
 *   /metrics           Prometheus
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_int.h"

static const struct {
	const char *path;
	enum ftsw_view_ep ep;
} routes[] = {
	{ "/", FTSW_EP_PAGE },
	{ "/index.html", FTSW_EP_PAGE },
	{ "/view.js", FTSW_EP_JS },
	{ "/view.css", FTSW_EP_CSS },
	{ "/api/topology", FTSW_EP_TOPOLOGY },
	{ "/api/snapshot", FTSW_EP_SNAPSHOT },
	{ "/api/stream", FTSW_EP_STREAM },
	{ "/api/path", FTSW_EP_PATH },
	{ "/api/port", FTSW_EP_PORT },
	{ "/api/timeline", FTSW_EP_TIMELINE },
	{ "/metrics", FTSW_EP_METRICS },
};

unsigned ftsw_view_route(const char *method, const char *path,
			 enum ftsw_view_ep *ep)
{
	size_t i;

	*ep = FTSW_EP_NONE;
	if (!path || !method)
		return 400;
	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(path, routes[i].path))
			break;
	if (i == sizeof(routes) / sizeof(routes[0]))
		return 404;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return 405;
	*ep = routes[i].ep;
	return 200;
}

/* A decimal number of at most 9 digits (no sign, no leading 0), or -1. */
static long small_number(const char *s)
{
	long x = 0;
	int n = 0;

	if (!s || !*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++, n++) {
		if (*s < '0' || *s > '9' || n == 9)
			return -1;
		x = x * 10 + (*s - '0');
	}
	return x;
}

static void error(struct ftsw_view_resp *r, unsigned status, const char *msg)
{
	r->status = status;
	r->type = "application/json";
	ftsw_vbuf_printf(&r->b, "{\"error\":");
	ftsw_vbuf_json_str(&r->b, msg);
	ftsw_vbuf_put(&r->b, "}\n", 2);
}

static void answer_path(struct ftsw_view *v,
			const char *(*arg)(const char *, void *), void *ctx,
			struct ftsw_view_resp *r)
{
	struct ftsw_view_paths *p = malloc(sizeof(*p));
	struct ftsw_err err;

	if (!p) {
		error(r, 503, "out of memory");
		return;
	}
	if (ftsw_view_paths(v, arg("src", ctx), arg("dst", ctx), p, &err)) {
		error(r, err.code == EAGAIN ? 503 : 400, err.msg);
	} else {
		ftsw_view_json_paths(v, p, &r->b);
		r->type = "application/json";
	}
	free(p);
}

static void answer_port(struct ftsw_view *v,
			const char *(*arg)(const char *, void *), void *ctx,
			struct ftsw_view_resp *r)
{
	const char *sw = arg("sw", ctx);
	long s = small_number(sw && *sw == 's' ? sw + 1 : sw);
	long p = small_number(arg("port", ctx));

	if (s < 0 || p < 0 || ftsw_view_rec(v, (uint32_t)s, (unsigned)p) ==
	    FTSW_NONE) {
		error(r, 400, "sw=sN&port=P: no such switch port in the lab");
		return;
	}
	ftsw_view_json_port(v, (uint32_t)s, (unsigned)p, &r->b);
	r->type = "application/json";
}

/* The body of an endpoint built for this request (r->b). */
static void answer_built(struct ftsw_view *v, enum ftsw_view_ep ep,
			 const char *(*arg)(const char *, void *), void *ctx,
			 struct ftsw_view_resp *r)
{
	long since;

	r->type = "application/json";
	switch (ep) {
	case FTSW_EP_SNAPSHOT:
		ftsw_view_json_snap(v, true, 0, &r->b);
		break;
	case FTSW_EP_PATH:
		answer_path(v, arg, ctx, r);
		break;
	case FTSW_EP_PORT:
		answer_port(v, arg, ctx, r);
		break;
	case FTSW_EP_TIMELINE:
		since = arg("since", ctx) ? small_number(arg("since", ctx)) : 0;
		if (since < 0)
			error(r, 400, "since=N: a number of at most 9 digits");
		else
			ftsw_view_json_timeline(v, (uint64_t)since, &r->b);
		break;
	default:
		error(r, 500, "not an answer of its own");
		break;
	}
}

void ftsw_view_answer(struct ftsw_view *v, enum ftsw_view_ep ep,
		      const char *(*arg)(const char *name, void *ctx),
		      void *ctx, struct ftsw_view_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->status = 200;
	switch (ep) {
	case FTSW_EP_PAGE:
		r->type = "text/html; charset=utf-8";
		r->body = (const char *)ftsw_view_page_html;
		r->len = ftsw_view_page_html_len;
		return;
	case FTSW_EP_JS:
		r->type = "text/javascript; charset=utf-8";
		r->body = (const char *)ftsw_view_page_js;
		r->len = ftsw_view_page_js_len;
		return;
	case FTSW_EP_CSS:
		r->type = "text/css; charset=utf-8";
		r->body = (const char *)ftsw_view_page_css;
		r->len = ftsw_view_page_css_len;
		return;
	case FTSW_EP_TOPOLOGY:
		if (!v->topo_json.n)
			ftsw_view_json_topology(v, &v->topo_json);
		r->type = "application/json";
		r->body = v->topo_json.p;
		r->len = v->topo_json.n;
		break;
	case FTSW_EP_METRICS:
		/* made once per sample, shared by the scrapes of that sample */
		if (!v->metrics || v->metrics->seq != v->snap.seq) {
			struct ftsw_vbuf b = { 0 };

			ftsw_view_msg_put(v->metrics);
			ftsw_view_metrics(v, &b);
			v->metrics_size = b.n;
			v->metrics = ftsw_view_msg_adopt(&b, v->snap.seq);
		}
		r->type = "text/plain; version=0.0.4; charset=utf-8";
		r->msg = ftsw_view_msg_get(v->metrics);
		r->body = r->msg ? r->msg->text : NULL;
		r->len = r->msg ? r->msg->len : 0;
		break;
	case FTSW_EP_STREAM:
	case FTSW_EP_NONE:
		error(r, 500, "not an answer of its own");
		break;
	default:
		answer_built(v, ep, arg, ctx, r);
		break;
	}
	if (r->b.n || r->b.oom) {
		r->body = r->b.p;
		r->len = r->b.n;
	}
	if (!r->body || (r->body == r->b.p && r->b.oom) ||
	    (ep == FTSW_EP_TOPOLOGY && v->topo_json.oom)) {
		ftsw_view_resp_free(r);
		r->status = 503;
		r->type = "text/plain";
		r->body = "out of memory\n";
		r->len = strlen(r->body);
	}
}

void ftsw_view_resp_free(struct ftsw_view_resp *r)
{
	ftsw_vbuf_free(&r->b);
	ftsw_view_msg_put(r->msg);
	r->msg = NULL;
}
