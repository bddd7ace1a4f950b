/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of view/ share (private to the folder): the model of the
 * lab (its nodes, its directed links, their names and metric labels), the
 * snapshot the sampler fills, the timeline, the messages of the push
 * stream and a growable text buffer.
 *
 *   model.c   the model, names, buffers
 *   snap.c    a port dump into the snapshot; rates; lab top's rows
 *   json.c    the page's JSON: topology, snapshot, deltas, paths, port
 *   metrics.c Prometheus' text
 *   events.c  the timeline: kernel events, the events file, OpenSM's log
 *   http.c    requests: which endpoint, its answer (no sockets)
 *   sample.c  the sampler: netlink, the tables, the files
 *   server.c  libmicrohttpd, the push stream, the loop
 */
#ifndef LIBFTSW_VIEW_INT_H
#define LIBFTSW_VIEW_INT_H

#include <stdarg.h>

#include "analyze/picture.h"
#include "fm/fm.h"
#include "util/evlog.h"
#include "view/view.h"

/* ------------------------------------------------------------ buffers */

/* Text that grows; oom set (and the text cut) when memory ran out. */
struct ftsw_vbuf {
	char *p;
	size_t n, cap;
	bool oom;
};

void ftsw_vbuf_printf(struct ftsw_vbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ftsw_vbuf_put(struct ftsw_vbuf *b, const char *s, size_t n);
/* Room for n more bytes (false: out of memory, oom set). */
bool ftsw_vbuf_reserve(struct ftsw_vbuf *b, size_t n);
/* s as a JSON string literal, quotes included. */
void ftsw_vbuf_json_str(struct ftsw_vbuf *b, const char *s);
/* v as a JSON number (null when not finite), %.6g. */
void ftsw_vbuf_num(struct ftsw_vbuf *b, double v);
void ftsw_vbuf_free(struct ftsw_vbuf *b);

/* ------------------------------------------------------------ model */

#define FTSW_VIEW_TIMELINE	512	/* events kept */
#define FTSW_VIEW_RING		16	/* push messages kept */

enum { FTSW_VIEW_UNBOUND, FTSW_VIEW_DOWN, FTSW_VIEW_UP };

/* One data VL of a switch port, as the kernel reports it. */
struct ftsw_view_vl {
	uint8_t vl;
	uint32_t in_bytes, in_packets, out_bytes, out_packets, credits;
	uint64_t in_wait_ns, out_wait_ns, hoq, life;
	uint8_t head_port, head_vl;	/* the input head waits for (0) */
	uint64_t head_wait_ns, credit_wait_ns;	/* now */
};

/* What a directed link (a topology port record) shows. */
struct ftsw_view_port {
	uint8_t state;		/* FTSW_VIEW_*: the sending end's port */
	bool admin_up;
	uint64_t txp, txb, rxp, rxb;	/* a host's record: its edge port's
					 * rx as tx (what the host sends) */
	uint64_t drops;
	double pps, bps;	/* tx over the last interval */
	/* lossless mode (switch records) */
	uint32_t in_buf;	/* bytes per VL */
	uint32_t in_bytes, out_bytes;	/* every VL */
	uint64_t in_wait, out_wait, hoq, life;	/* every VL, ns / frames */
	double credit_wait;	/* share of the interval (out_wait's delta) */
	bool waiting;		/* an output VL waits for credit now */
	uint32_t vl_first, nvl;	/* its VLs in the snapshot's vls[] */
	/* edge ports: the host's SL and SL table (for the paths) */
	uint8_t sl;
};

struct ftsw_view_snap {
	uint64_t seq;		/* samples so far */
	double mono, wall;	/* when (seconds: monotonic, Unix) */
	double interval;	/* since the sample before (0: the first) */
	uint64_t generation;
	bool lossless;
	uint64_t drops[FTSW_DROP_MAX + 1];	/* the fabric's */
	struct ftsw_view_port *p;	/* per topology port record */
	struct ftsw_view_vl *vls;
	size_t nvls, cap_vls;
	/* lossless: waiting input heads, and their cycles */
	struct ftsw_lab_buf *heads;
	size_t nheads, cap_heads;
	struct ftsw_lab_cycles cycles;
	unsigned nwaiting;	/* outputs waiting for credit */
	uint32_t ports_down;
	double sample_ms;
};

struct ftsw_view_node {
	char name[12];		/* s3, h5: as `ftsw lab` names them */
	char guid[20];		/* "0x..." */
};

/* A line of the timeline (ftsw_view_event) and the ring holding them. */
struct ftsw_view_timeline {
	struct ftsw_view_event ev[FTSW_VIEW_TIMELINE];
	uint64_t next;		/* seq of the next event */
};

/*
 * Text shared by every client that is sent it (a push stream message,
 * /metrics): freed with its last reference (ftsw_view_msg_put).
 */
struct ftsw_view_msg {
	unsigned refs;
	uint64_t seq;		/* the snapshot it follows */
	size_t len;
	char *text;
};

/* b's text as a message with one reference (b is emptied); NULL when
 * out of memory. */
struct ftsw_view_msg *ftsw_view_msg_adopt(struct ftsw_vbuf *b, uint64_t seq);
void ftsw_view_msg_put(struct ftsw_view_msg *m);
/* m with one more reference. */
static inline struct ftsw_view_msg *ftsw_view_msg_get(struct ftsw_view_msg *m)
{
	if (m)
		m->refs++;
	return m;
}

/* The fm's and OpenSM's state, for /metrics and the page. */
struct ftsw_view_mgr {
	bool fm_running;	/* its status file is there */
	struct ftsw_fm_status fm;
	bool sm;		/* the lab is under OpenSM */
	bool sm_running;
	uint64_t sm_sweeps, sm_traps;	/* in its log */
};

struct ftsw_view {
	struct ftsw_lab *lab;	/* NULL: a model without a lab (tests) */
	char name[FTSW_LAB_NAME_MAX + 1];
	char spec[256], engine[64];
	unsigned lmc;
	struct ftsw_topo *t;	/* the model's own copy: never changed */
	struct ftsw_layout layout;
	bool hosts;		/* the page draws hosts */
	struct ftsw_view_node *node;	/* per node */
	uint32_t *rec_node;	/* per record: the node it belongs to */
	char **labels;		/* per record: its metric labels, or NULL */
	size_t *label_len;
	unsigned interval_ms;
	struct ftsw_view_snap snap, prev;
	struct ftsw_view_timeline tl;
	struct ftsw_view_mgr mgr;
	uint64_t samples;
	/* the tables the paths are traced on (sample.c) */
	struct ftsw_topo *rt_topo;
	struct ftsw_routing *rt;
	uint64_t rt_generation;
	uint8_t (*sl2vl)[FTSW_NUM_SL];	/* per switch */
	uint8_t **sl_table;	/* per host: by DLID (NULL: its SL) */
	uint32_t *sl_table_len;
	uint64_t (*used_offsets)[2];	/* per host: the offsets it sends on */
	bool tables_stale;
	bool port_event;	/* a port changed: sample again soon */
	/* the sampler's handles (sample.c) */
	struct ftsw_nl *ev;
	uint64_t commits, commit_first, commit_last;	/* not shown yet */
	struct ftsw_tail evlog, smlog;
	double fm_mtime;
	/* caches of the server (server.c, http.c) */
	struct ftsw_vbuf topo_json;
	struct ftsw_view_msg *metrics;	/* /metrics of metrics->seq */
	size_t metrics_size;	/* the last one's: room made at once */
	struct ftsw_view_msg *full;	/* the whole snapshot, this seq */
	struct ftsw_view_msg *ring[FTSW_VIEW_RING];	/* deltas by seq */
	uint64_t clients;
};

/* running.c: view.pid, while a server runs */
int ftsw_view_pid_write(const char *lab, const char *url, struct ftsw_err *err);
void ftsw_view_pid_remove(const char *lab);

/* model.c */
struct ftsw_view *ftsw_view_model(const struct ftsw_topo *t, const char *name,
				  const char *spec, const char *engine,
				  unsigned lmc, int hosts, struct ftsw_err *err);
void ftsw_view_model_free(struct ftsw_view *v);
/* A copy of t that nothing else changes (every node kept, in order). */
struct ftsw_topo *ftsw_view_topo_copy(const struct ftsw_topo *t,
				      struct ftsw_err *err);
/* "h3", "3" or a host's node name: its index, or -1. */
int64_t ftsw_view_find_host(const struct ftsw_view *v, const char *s);
/* The record (link id) of switch sw's port, or FTSW_NONE. */
uint32_t ftsw_view_rec(const struct ftsw_view *v, uint32_t sw, unsigned port);

/* snap.c */
int ftsw_view_snap_begin(struct ftsw_view *v, double mono, double wall);
/* A switch port of the dump into the snapshot. */
int ftsw_view_snap_port(struct ftsw_view *v, const struct ftsw_port_info *pi);
/* After the dump: rates against the sample before, hosts' records. */
void ftsw_view_snap_end(struct ftsw_view *v);
/* A sample that failed half-way: the last whole one is current again. */
void ftsw_view_snap_abort(struct ftsw_view *v);
void ftsw_view_snap_free(struct ftsw_view_snap *s);

/* events.c */
void ftsw_view_event_add(struct ftsw_view *v, double wall, const char *kind,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A line of OpenSM's log: a sweep or a trap into the timeline. */
void ftsw_view_sm_line(struct ftsw_view *v, const char *line, size_t len);
/* A line of the lab's events file into the timeline. */
void ftsw_view_evlog_line(struct ftsw_view *v, const char *line, size_t len);

/* json.c */
void ftsw_view_json_topology(const struct ftsw_view *v, struct ftsw_vbuf *b);
/* The whole snapshot (full) or what changed since prev, with the
 * timeline's events from seq since on. */
void ftsw_view_json_snap(const struct ftsw_view *v, bool full, uint64_t since,
			 struct ftsw_vbuf *b);
void ftsw_view_json_paths(const struct ftsw_view *v,
			  const struct ftsw_view_paths *p, struct ftsw_vbuf *b);
void ftsw_view_json_port(const struct ftsw_view *v, uint32_t sw,
			 unsigned port, struct ftsw_vbuf *b);
void ftsw_view_json_timeline(const struct ftsw_view *v, uint64_t since,
			     struct ftsw_vbuf *b);

/* metrics.c */
int ftsw_view_labels(struct ftsw_view *v);
void ftsw_view_metrics(const struct ftsw_view *v, struct ftsw_vbuf *b);

/* http.c: a request's answer, from the snapshot only */
enum ftsw_view_ep {
	FTSW_EP_PAGE, FTSW_EP_JS, FTSW_EP_CSS, FTSW_EP_TOPOLOGY,
	FTSW_EP_SNAPSHOT, FTSW_EP_STREAM, FTSW_EP_PATH, FTSW_EP_PORT,
	FTSW_EP_TIMELINE, FTSW_EP_METRICS, FTSW_EP_NONE,
};

struct ftsw_view_resp {
	unsigned status;	/* HTTP status */
	const char *type;	/* Content-Type */
	const char *body;	/* static (the view's), b's or msg's */
	size_t len;
	struct ftsw_vbuf b;	/* the answer when built for this request */
	struct ftsw_view_msg *msg;	/* or shared, one reference ours */
};

void ftsw_view_resp_free(struct ftsw_view_resp *r);

/* Which endpoint a method and path name: its status (200, 404, 405). */
unsigned ftsw_view_route(const char *method, const char *path,
			 enum ftsw_view_ep *ep);
/*
 * The answer to a request (not the stream): arg(name) gives a query
 * argument (NULL when absent). r->b is the caller's to free.
 */
void ftsw_view_answer(struct ftsw_view *v, enum ftsw_view_ep ep,
		      const char *(*arg)(const char *name, void *ctx),
		      void *ctx, struct ftsw_view_resp *r);

/* The page, compiled in (build/view_page.c from user/lib/view/page/). */
extern const unsigned char ftsw_view_page_html[], ftsw_view_page_js[],
	ftsw_view_page_css[];
extern const unsigned int ftsw_view_page_html_len, ftsw_view_page_js_len,
	ftsw_view_page_css_len;

#endif
