// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: the only part of the view that asks the kernel anything.
 * At each tick one port dump and one fabric request; the fabric's events
 * as they come; after a commit the active tables and SL-to-VL maps (for
 * the paths); the lab's events file, OpenSM's log and the fabric
 * manager's status file as they change. Read-only requests only, so the
 * view works in a lab of an unprivileged user too.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "util/rundir.h"
#include "view/view_int.h"

/* Bytes of a followed file read per sample at most (a big log catches up). */
#define TAIL_MAX	(1 << 20)

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_path(const struct ftsw_view *v, const char *file, char *buf,
		     size_t sz)
{
	snprintf(buf, sz, "%s/%s/%s", ftsw_rundir(), v->name, file);
}

/* ------------------------------------------------------------ events */

static int event_cb(const struct ftsw_event *ev, void *arg)
{
	struct ftsw_view *v = arg;
	const struct ftsw_port_info *pi = &ev->port;

	if (ev->cmd == FTSW_CMD_COMMIT_EVENT) {
		v->tables_stale = true;
		if (!v->commit_first)
			v->commit_first = ev->generation;
		v->commit_last = ev->generation;
		v->commits++;
		return 0;
	}
	if (ev->cmd != FTSW_CMD_PORT_EVENT)
		return 0;
	/* the state itself comes with the next sample's dump (and its
	 * delta), which the server takes at once: the timeline has the
	 * event now */
	v->port_event = true;
	ftsw_view_event_add(v, wall_now(), "port", "s%u:%u %s (%s)",
			    pi->switch_id, pi->port, pi->admin_up &&
			    pi->oper_up ? "up" : "down",
			    ftsw_reason_name(pi->reason) ?
			    ftsw_reason_name(pi->reason) : "?");
	return 0;
}

/* Commits since the last flush as one line (OpenSM commits block by block). */
static void commits_flush(struct ftsw_view *v)
{
	if (!v->commits)
		return;
	if (v->commits == 1)
		ftsw_view_event_add(v, wall_now(), "commit", "commit: generation "
				    "%" PRIu64, v->commit_last);
	else
		ftsw_view_event_add(v, wall_now(), "commit", "%" PRIu64 " commits:"
				    " generations %" PRIu64 "..%" PRIu64,
				    v->commits, v->commit_first, v->commit_last);
	v->commits = 0;
	v->commit_first = 0;
}

int ftsw_view_event_fd(const struct ftsw_view *v)
{
	return v->ev ? ftsw_nl_event_fd(v->ev) : -1;
}

void ftsw_view_events(struct ftsw_view *v)
{
	struct pollfd pfd = { .fd = ftsw_view_event_fd(v), .events = POLLIN };
	int rounds = 0;

	while (pfd.fd >= 0 && rounds++ < 64 && poll(&pfd, 1, 0) > 0 &&
	       (pfd.revents & (POLLIN | POLLERR))) {
		if (ftsw_nl_event_recv(v->ev, event_cb, v) < 0) {
			/* an overrun: what was lost, the next dump shows */
			if (strstr(ftsw_nl_error(v->ev), "buffer"))
				ftsw_view_event_add(v, wall_now(), "view",
						    "fabric events lost (overrun): "
						    "the next sample has the state");
			break;
		}
	}
	commits_flush(v);
}

/* ------------------------------------------------------------ tables */

static int sl2vl_cb(const struct ftsw_switch_info *si, void *arg)
{
	struct ftsw_view *v = arg;

	if (si->id < v->t->nswitches)
		memcpy(v->sl2vl[si->id], si->sl2vl, FTSW_NUM_SL);
	return 0;
}

/*
 * The kernel's active tables as a routing over a copy of the model's
 * topology (reading them back takes the down cables out of the topology
 * it is given), every LMC offset allowed (a path per offset; the offsets
 * the hosts use are in used_offsets), and the switches' SL-to-VL maps.
 */
static int read_tables(struct ftsw_view *v, struct ftsw_err *err)
{
	struct ftsw_lab *lab = v->lab;
	struct ftsw_topo *saved = lab->topo, *t;
	struct ftsw_routing *r;
	uint32_t i;

	t = ftsw_view_topo_copy(v->t, err);
	if (!t)
		return -1;
	lab->topo = t;
	r = ftsw_lab_read_routing(lab, err);
	lab->topo = saved;
	if (!r) {
		ftsw_topo_free(t);
		return -1;
	}
	for (i = 0; i < r->nhosts; i++) {
		r->policy[i].allowed[0] = r->policy[i].allowed[1] = ~0ULL;
		r->policy[i].fixed_offset = FTSW_OFFSET_ANY;
	}
	ftsw_routing_free(v->rt);
	ftsw_topo_free(v->rt_topo);
	v->rt = r;
	v->rt_topo = t;
	v->rt_generation = v->snap.generation;
	v->tables_stale = false;
	if (ftsw_nl_switch_dump(lab->nl, sl2vl_cb, v))
		ftsw_view_event_add(v, wall_now(), "view", "switch dump: %s",
				    ftsw_nl_error(lab->nl));
	return 0;
}

/* ------------------------------------------------------------ lossless */

static bool same_cycles(const struct ftsw_lab_cycles *a,
			const struct ftsw_lab_cycles *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].n != b->v[i].n ||
		    memcmp(a->v[i].bufs, b->v[i].bufs,
			   a->v[i].n * sizeof(*a->v[i].bufs)))
			return false;
	return true;
}

/*
 * The cycles among the waiting heads (lab waits' rule), each checked
 * against the CDG of the active tables with every path on the cycle's VL
 * (exact with one VL) when it is new; a known cycle keeps its verdict.
 */
static void snap_cycles(struct ftsw_view *v)
{
	struct ftsw_view_snap *s = &v->snap;
	struct ftsw_lab_buf *copy;
	struct ftsw_err err;
	size_t i;

	if (!s->nheads)
		return;
	copy = malloc(s->nheads * sizeof(*copy));
	if (!copy)
		return;
	memcpy(copy, s->heads, s->nheads * sizeof(*copy));
	if (ftsw_lab_wait_cycles(v->t, copy, s->nheads, &s->cycles, &err) ||
	    !s->cycles.n) {
		free(copy);
		return;
	}
	free(copy);
	if (same_cycles(&s->cycles, &v->prev.cycles)) {
		for (i = 0; i < s->cycles.n; i++) {
			s->cycles.v[i].cdg = v->prev.cycles.v[i].cdg;
			memcpy(s->cycles.v[i].why, v->prev.cycles.v[i].why,
			       sizeof(s->cycles.v[i].why));
		}
		return;
	}
	if (v->rt)
		ftsw_lab_cycles_check(v->rt, &s->cycles, 1);
	for (i = 0; i < s->cycles.n; i++)
		ftsw_view_event_add(v, s->wall, "cycle", "a cycle of %u full "
				    "buffers waiting on each other on VL %u, from "
				    "s%u port %u", s->cycles.v[i].n,
				    s->cycles.v[i].bufs[0].vl,
				    s->cycles.v[i].bufs[0].sw,
				    s->cycles.v[i].bufs[0].in_port);
}

/* ------------------------------------------------------------ files */

static void smlog_cb(const char *line, size_t len, void *arg)
{
	ftsw_view_sm_line(arg, line, len);
}

static void evlog_cb(const char *line, size_t len, void *arg)
{
	ftsw_view_evlog_line(arg, line, len);
}

/* Whether the pid in the run directory's file lives and is named comm. */
static bool pid_file_live(const struct ftsw_view *v, const char *file,
			  const char *comm)
{
	char path[320];
	long pid = 0;
	FILE *f;

	run_path(v, file, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return ftsw_pid_live(pid, comm);
}

static void managers(struct ftsw_view *v)
{
	struct ftsw_view_mgr *m = &v->mgr;
	char path[320];
	struct stat st;
	struct ftsw_err err;

	ftsw_tail_read(&v->evlog, true, TAIL_MAX, evlog_cb, v);
	if (m->sm) {
		ftsw_tail_read(&v->smlog, true, TAIL_MAX, smlog_cb, v);
		m->sm_running = pid_file_live(v, "opensm.pid", "opensm");
	}
	run_path(v, "fm.status", path, sizeof(path));
	if (stat(path, &st)) {
		m->fm_running = false;
		v->fm_mtime = 0;
		return;
	}
	if (st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9 != v->fm_mtime) {
		v->fm_mtime = st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
		if (ftsw_fm_status_read(path, &m->fm, &err))
			memset(&m->fm, 0, sizeof(m->fm));
	}
	m->fm_running = ftsw_pid_live(m->fm.pid, "ftsw");
}

/* ------------------------------------------------------------ sample */

static int port_cb(const struct ftsw_port_info *pi, void *arg)
{
	return ftsw_view_snap_port(arg, pi);
}

int ftsw_view_sample(struct ftsw_view *v, struct ftsw_err *err)
{
	struct ftsw_lab *lab = v->lab;
	struct ftsw_fabric_info fi;
	double t0 = mono_now();
	char conf[320];
	int rc;

	run_path(v, "lab.conf", conf, sizeof(conf));
	if (access(conf, F_OK)) {
		ftsw_err_errno(err, ENOENT, "lab %s is gone (%s: no such file)",
			       v->name, conf);
		return -1;
	}
	if (ftsw_view_snap_begin(v, t0, wall_now())) {
		ftsw_err_errno(err, ENOMEM, "view: out of memory");
		return -1;
	}
	if (ftsw_nl_fabric_get(lab->nl, &fi)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "lab %s: fabric: %s",
			       v->name, ftsw_nl_error(lab->nl));
		ftsw_view_snap_abort(v);
		return -1;
	}
	v->snap.generation = fi.generation;
	v->snap.lossless = fi.lossless;
	memcpy(v->snap.drops, fi.drops, sizeof(v->snap.drops));
	rc = ftsw_nl_port_dump(lab->nl, -1, port_cb, v);
	if (rc) {
		ftsw_err_errno(err, rc == -ENOMEM ? ENOMEM : ftsw_nl_errno(lab->nl),
			       "lab %s: port dump: %s", v->name, rc == -ENOMEM ?
			       "out of memory" : ftsw_nl_error(lab->nl));
		ftsw_view_snap_abort(v);
		return -1;
	}
	ftsw_view_snap_end(v);
	ftsw_view_events(v);
	if ((v->tables_stale || !v->rt ||
	     v->rt_generation != v->snap.generation) && read_tables(v, err))
		ftsw_view_event_add(v, v->snap.wall, "view", "tables: %s",
				    err->msg);
	if (v->snap.lossless)
		snap_cycles(v);
	managers(v);
	v->samples++;
	v->snap.sample_ms = (mono_now() - t0) * 1e3;
	return 0;
}

/* ------------------------------------------------------------ open */

struct ftsw_view *ftsw_view_open(struct ftsw_lab *lab,
				 const struct ftsw_view_opts *o,
				 struct ftsw_err *err)
{
	struct ftsw_view *v;
	char path[320];
	int fd;

	v = ftsw_view_model(lab->topo, lab->name, lab->spec, lab->engine,
			    lab->lmc, o ? o->hosts : -1, err);
	if (!v)
		return NULL;
	v->lab = lab;
	if (o && o->interval_ms)
		v->interval_ms = o->interval_ms;
	v->mgr.sm = !strncmp(lab->engine, "opensm", 6);
	v->ev = ftsw_nl_open_in(lab->name, err);
	if (!v->ev)
		goto fail;
	if (ftsw_nl_subscribe(v->ev)) {
		ftsw_err_errno(err, ftsw_nl_errno(v->ev), "lab %s: events: %s",
			       lab->name, ftsw_nl_error(v->ev));
		goto fail;
	}
	fd = ftsw_nl_event_fd(v->ev);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	run_path(v, FTSW_EVLOG_FILE, path, sizeof(path));
	ftsw_tail_init(&v->evlog, path);
	run_path(v, "opensm.log", path, sizeof(path));
	ftsw_tail_init(&v->smlog, path);
	ftsw_view_event_add(v, wall_now(), "view", "watching lab %s: %u "
			    "switches, %u hosts, %s", v->name, v->t->nswitches,
			    v->t->nhosts, v->engine);
	return v;
fail:
	ftsw_view_close(v);
	return NULL;
}

void ftsw_view_close(struct ftsw_view *v)
{
	if (!v)
		return;
	ftsw_nl_close(v->ev);
	ftsw_tail_close(&v->evlog);
	ftsw_tail_close(&v->smlog);
	ftsw_view_model_free(v);
}
