// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the request handling lab view writes itself (view/http.c:
 * a method and a path to an endpoint, query arguments, the answers) and
 * the builders behind it (the snapshot's JSON and deltas, /metrics, the
 * paths, a port's VLs, the timeline), over a model of FT(4,2) routed by
 * D-Mod-K whose snapshot the input fills (counters, states, lossless VLs,
 * waiting heads), plus lines of OpenSM's log and of the events file.
 * Input: a line "METHOD PATH?QUERY", a line of log, then counter bytes.
 */
#include "fuzz.h"
#include "view/view_int.h"

static struct ftsw_view *fuzz_view(void)
{
	static struct ftsw_view *v;
	struct ftsw_route_opts ro = { .threads = 1 };
	struct ftsw_err err;

	if (!v) {
		v = ftsw_view_model(fuzz_fabric("ftmn:4,2"), "fz", "ftmn:4,2",
				    "dmodk", 0, -1, &err);
		FUZZ_ASSERT(v);
		v->rt = ftsw_route("dmodk", v->t, &ro, &err);
		FUZZ_ASSERT(v->rt);
	}
	return v;
}

/* A query string's arguments, as libmicrohttpd would hand them over. */
struct query {
	char *k[8], *val[8];
	unsigned n;
};

static const char *query_arg(const char *name, void *ctx)
{
	const struct query *q = ctx;
	unsigned i;

	for (i = 0; i < q->n; i++)
		if (!strcmp(q->k[i], name))
			return q->val[i];
	return NULL;
}

static void query_parse(char *s, struct query *q)
{
	char *save = NULL, *kv;

	q->n = 0;
	for (kv = strtok_r(s, "&", &save); kv && q->n < 8;
	     kv = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(kv, '=');

		q->k[q->n] = kv;
		q->val[q->n++] = eq ? (*eq = 0, eq + 1) : NULL;
	}
}

static uint64_t take(const uint8_t **d, size_t *n, unsigned bytes)
{
	uint64_t x = 0;

	while (bytes-- && *n) {
		x = x << 8 | **d;
		(*d)++;
		(*n)--;
	}
	return x;
}

/* One sample of the model's switch ports from the input's bytes. */
static void sample(struct ftsw_view *v, const uint8_t *d, size_t n,
		   double mono)
{
	uint32_t sw;
	unsigned p, vl;

	ftsw_view_snap_begin(v, mono, mono);
	v->snap.lossless = n && (d[0] & 1);
	for (sw = 0; sw < v->t->nswitches + 1; sw++)
		for (p = 0; p <= 5; p++) {
			struct ftsw_port_info pi = { .switch_id = sw, .port = p };
			uint8_t flags = (uint8_t)take(&d, &n, 1);

			pi.admin_up = flags & 1;
			pi.oper_up = flags & 2;
			pi.has_stats = flags & 4;
			pi.edge = flags & 8;
			pi.stats.tx_packets = take(&d, &n, 3);
			pi.stats.tx_bytes = take(&d, &n, 4);
			pi.stats.rx_packets = take(&d, &n, 2);
			pi.stats.drops[flags % (FTSW_DROP_MAX + 1)] = flags;
			pi.sl = (uint8_t)take(&d, &n, 1);
			pi.n_offsets = (uint8_t)take(&d, &n, 1) % 3;
			pi.offsets[0] = (uint8_t)take(&d, &n, 1);
			pi.offsets[1] = (uint8_t)take(&d, &n, 1);
			pi.sl_table_len = pi.sl_table_shown = flags & 16;
			pi.sl_table_n = (uint16_t)take(&d, &n, 1);
			pi.ll.present = pi.ll.has_vl = flags & 32;
			pi.ll.in_buf = (uint32_t)take(&d, &n, 2);
			for (vl = 0; (flags & 64) && vl < FTSW_NUM_DATA_VL; vl++) {
				struct ftsw_vl_stats *x = &pi.ll.vl[vl];

				x->present = take(&d, &n, 1) & 1;
				x->in_bytes = (uint32_t)take(&d, &n, 2);
				x->head_port = (uint8_t)take(&d, &n, 1);
				x->head_vl = (uint8_t)take(&d, &n, 1);
				x->head_wait_ns = take(&d, &n, 4) << 8;
				x->out_credit_wait_ns = take(&d, &n, 1);
				x->life_discards = take(&d, &n, 1);
			}
			FUZZ_ASSERT(!ftsw_view_snap_port(v, &pi));
		}
	ftsw_view_snap_end(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_view *v = fuzz_view();
	const uint8_t *nl1 = memchr(data, '\n', size), *nl2;
	char *req, *path, *q, *method;
	struct ftsw_view_resp r;
	struct ftsw_vbuf b = { 0 };
	enum ftsw_view_ep ep;
	struct query args;
	size_t rest;
	unsigned st;

	if (!nl1)
		return 0;
	nl2 = memchr(nl1 + 1, '\n', size - (size_t)(nl1 + 1 - data));
	if (!nl2)
		nl2 = data + size;
	ftsw_view_sm_line(v, (const char *)nl1 + 1, (size_t)(nl2 - nl1 - 1));
	ftsw_view_evlog_line(v, (const char *)nl1 + 1, (size_t)(nl2 - nl1 - 1));
	rest = nl2 < data + size ? size - (size_t)(nl2 + 1 - data) : 0;
	sample(v, nl2 + (rest ? 1 : 0), rest, 1.0 + v->snap.seq * 0.5);
	req = fuzz_str(data, (size_t)(nl1 - data));
	if (!req)
		return 0;
	method = req;
	path = strchr(req, ' ');
	if (path) {
		*path++ = 0;
		q = strchr(path, '?');
		if (q)
			*q++ = 0;
		query_parse(q ? q : (char *)"", &args);
		st = ftsw_view_route(method, path, &ep);
		FUZZ_ASSERT(st == 200 || st == 404 || st == 405);
		if (st == 200 && ep != FTSW_EP_STREAM) {
			ftsw_view_answer(v, ep, query_arg, &args, &r);
			FUZZ_ASSERT(r.body && r.type);
			FUZZ_ASSERT(r.status == 200 || r.status == 400 ||
				    r.status == 503);
			FUZZ_ASSERT(r.len == strlen(r.body) ||
				    ep == FTSW_EP_PAGE || ep == FTSW_EP_JS ||
				    ep == FTSW_EP_CSS);
			ftsw_view_resp_free(&r);
		}
	}
	ftsw_view_json_snap(v, false, 0, &b);
	FUZZ_ASSERT(!b.oom && b.p[0] == '{' && b.p[b.n - 1] == '}');
	ftsw_vbuf_free(&b);
	free(req);
	return 0;
}
