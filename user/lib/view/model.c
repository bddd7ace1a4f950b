// SPDX-License-Identifier: GPL-2.0
/*
 * The view's model of a lab: its own copy of the topology (the lab's may
 * lose cables when tables are read back), the layout every picture uses,
 * the nodes' names as `ftsw lab` gives them, and text buffers.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/output.h"
#include "view/view_int.h"

/* ------------------------------------------------------------ buffers */

static bool vbuf_room(struct ftsw_vbuf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->n + n + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->n + n + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

bool ftsw_vbuf_reserve(struct ftsw_vbuf *b, size_t n)
{
	return vbuf_room(b, n);
}

void ftsw_vbuf_put(struct ftsw_vbuf *b, const char *s, size_t n)
{
	if (!vbuf_room(b, n))
		return;
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void ftsw_vbuf_printf(struct ftsw_vbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->cap > b->n ? b->p + b->n : NULL,
		      b->cap > b->n ? b->cap - b->n : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->n + (size_t)n + 1 > b->cap) {
		if (!vbuf_room(b, (size_t)n))
			return;
		va_start(ap, fmt);
		vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
	}
	b->n += (size_t)n;
}

static void vbuf_put(void *arg, const char *p, size_t n)
{
	ftsw_vbuf_put(arg, p, n);
}

void ftsw_vbuf_json_str(struct ftsw_vbuf *b, const char *s)
{
	ftsw_json_str_put(s, vbuf_put, b);
}

void ftsw_vbuf_num(struct ftsw_vbuf *b, double v)
{
	if (!isfinite(v))
		ftsw_vbuf_put(b, "null", 4);
	else if (v == (double)(int64_t)v && fabs(v) < 1e15)
		ftsw_vbuf_printf(b, "%" PRId64, (int64_t)v);
	else
		ftsw_vbuf_printf(b, "%.6g", v);
}

void ftsw_vbuf_free(struct ftsw_vbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

struct ftsw_view_msg *ftsw_view_msg_adopt(struct ftsw_vbuf *b, uint64_t seq)
{
	struct ftsw_view_msg *m;

	if (b->oom || !b->p) {
		ftsw_vbuf_free(b);
		return NULL;
	}
	m = malloc(sizeof(*m));
	if (!m) {
		ftsw_vbuf_free(b);
		return NULL;
	}
	m->refs = 1;
	m->seq = seq;
	m->len = b->n;
	m->text = b->p;
	memset(b, 0, sizeof(*b));
	return m;
}

void ftsw_view_msg_put(struct ftsw_view_msg *m)
{
	if (m && !--m->refs) {
		free(m->text);
		free(m);
	}
}

/* ------------------------------------------------------------ model */

uint32_t ftsw_view_rec(const struct ftsw_view *v, uint32_t sw, unsigned port)
{
	const struct ftsw_topo *t = v->t;
	uint32_t node;

	if (sw >= t->nswitches)
		return FTSW_NONE;
	node = t->switches[sw];
	if (!port || port > t->nodes[node].nports)
		return FTSW_NONE;
	return t->nodes[node].first_port + port - 1;
}

/* A decimal index, alone or after one letter (h3, s12). */
static bool parse_index(const char *s, char letter, uint32_t *out)
{
	char *end;
	unsigned long x;

	if (letter) {
		if (*s != letter)
			return false;
		s++;
	}
	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1]))
		return false;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (*end || errno || x > UINT32_MAX)
		return false;
	*out = (uint32_t)x;
	return true;
}

int64_t ftsw_view_find_host(const struct ftsw_view *v, const char *s)
{
	const struct ftsw_topo *t = v->t;
	uint32_t i;

	if (!s || !*s)
		return -1;
	if (parse_index(s, 'h', &i) || parse_index(s, 0, &i))
		return i < t->nhosts ? (int64_t)i : -1;
	for (i = 0; i < t->nhosts; i++) {
		const char *d = t->nodes[t->hosts[i]].desc;

		if (d && !strcmp(d, s))
			return i;
	}
	return -1;
}

void ftsw_view_model_free(struct ftsw_view *v)
{
	uint32_t i;

	if (!v)
		return;
	ftsw_view_snap_free(&v->snap);
	ftsw_view_snap_free(&v->prev);
	for (i = 0; v->labels && v->t && i < v->t->nports; i++)
		free(v->labels[i]);
	free(v->labels);
	free(v->label_len);
	for (i = 0; v->sl_table && v->t && i < v->t->nhosts; i++)
		free(v->sl_table[i]);
	free(v->sl_table);
	free(v->sl_table_len);
	free(v->used_offsets);
	free(v->sl2vl);
	free(v->node);
	free(v->rec_node);
	ftsw_layout_free(&v->layout);
	ftsw_routing_free(v->rt);
	ftsw_topo_free(v->rt_topo);
	ftsw_topo_free(v->t);
	ftsw_vbuf_free(&v->topo_json);
	ftsw_view_msg_put(v->metrics);
	ftsw_view_msg_put(v->full);
	for (i = 0; i < FTSW_VIEW_RING; i++)
		ftsw_view_msg_put(v->ring[i]);
	free(v);
}

struct ftsw_topo *ftsw_view_topo_copy(const struct ftsw_topo *t,
				      struct ftsw_err *err)
{
	bool *keep = malloc((t->nnodes + 1) * sizeof(*keep));
	struct ftsw_topo *c;
	uint32_t i;

	if (!keep) {
		ftsw_err_errno(err, ENOMEM, "view: out of memory");
		return NULL;
	}
	for (i = 0; i < t->nnodes; i++)
		keep[i] = true;
	c = ftsw_topo_subset(t, keep, err);
	free(keep);
	if (c)
		snprintf(c->spec, sizeof(c->spec), "%s", t->spec);
	return c;
}

struct ftsw_view *ftsw_view_model(const struct ftsw_topo *t, const char *name,
				  const char *spec, const char *engine,
				  unsigned lmc, int hosts, struct ftsw_err *err)
{
	struct ftsw_view *v = calloc(1, sizeof(*v));
	uint32_t i;

	if (!v) {
		ftsw_err_errno(err, ENOMEM, "view: out of memory");
		return NULL;
	}
	snprintf(v->name, sizeof(v->name), "%s", name ? name : "");
	snprintf(v->spec, sizeof(v->spec), "%s", spec ? spec : "");
	snprintf(v->engine, sizeof(v->engine), "%s", engine ? engine : "");
	v->lmc = lmc;
	v->interval_ms = FTSW_VIEW_INTERVAL_MS;
	v->t = ftsw_view_topo_copy(t, err);
	if (!v->t)
		goto fail;
	v->hosts = hosts < 0 ? v->t->nhosts <= 256 : hosts;
	if (ftsw_layout_make(v->t, v->spec, v->hosts, &v->layout, err))
		goto fail;
	v->node = calloc(v->t->nnodes + 1, sizeof(*v->node));
	v->sl_table = calloc(v->t->nhosts + 1, sizeof(*v->sl_table));
	v->sl_table_len = calloc(v->t->nhosts + 1, sizeof(*v->sl_table_len));
	v->sl2vl = calloc(v->t->nswitches + 1, sizeof(*v->sl2vl));
	v->rec_node = calloc(v->t->nports + 1, sizeof(*v->rec_node));
	v->used_offsets = calloc(v->t->nhosts + 1, sizeof(*v->used_offsets));
	if (!v->node || !v->sl_table || !v->sl_table_len || !v->sl2vl ||
	    !v->rec_node || !v->used_offsets)
		goto nomem;
	memset(v->used_offsets, 0xff, (v->t->nhosts + 1) *
	       sizeof(*v->used_offsets));
	for (i = 0; i < v->t->nnodes; i++) {
		const struct ftsw_node *n = &v->t->nodes[i];

		snprintf(v->node[i].name, sizeof(v->node[i].name), "%c%u",
			 n->kind == FTSW_SWITCH ? 's' : 'h', n->index);
		snprintf(v->node[i].guid, sizeof(v->node[i].guid),
			 "0x%016" PRIx64, n->guid);
		for (unsigned q = 0; q < n->nports; q++)
			v->rec_node[n->first_port + q] = i;
	}
	for (i = 0; i < v->t->nswitches; i++)
		for (unsigned s = 0; s < FTSW_NUM_SL; s++)
			v->sl2vl[i][s] = (uint8_t)s;
	if (ftsw_view_labels(v))
		goto nomem;
	return v;
nomem:
	ftsw_err_errno(err, ENOMEM, "view: out of memory");
fail:
	ftsw_view_model_free(v);
	return NULL;
}

unsigned ftsw_view_interval_ms(const struct ftsw_view *v)
{
	return v->interval_ms;
}
