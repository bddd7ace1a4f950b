// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab top: the lab's live view in a terminal (ncurses), for a shell
 * over SSH: the busiest links, VL waits and discards, the recent events;
 * keys to sort, to pick a switch, to trace a pair. -b -n N prints N
 * samples as text (or -j JSON, one document per sample) for scripts, as
 * top(1) does. The sampler is lab view's (view/view.h).
 */
#include <inttypes.h>
#include <math.h>
#include <ncurses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_lab.h"
#include "util/output.h"
#include "view/view.h"

static const char *const sort_words[] = { "pps", "bps", "wait", "discards",
					  "packets", NULL };

enum { T_NAME, T_BATCH, T_ITER, T_DELAY, T_SORT, T_SWITCH, T_TRACE, T_LINES,
       T_N };
const struct cli_opt lab_top_opts[T_N + 1] = {
	[T_NAME] = LAB_OPT_NAME,
	[T_BATCH] = { "-b", "--batch", CLI_FLAG,
		      .help = "print samples as text (or -j JSON), no screen" },
	[T_ITER] = { "-n", "--iterations", CLI_NUM, "N", 1, 1000000,
		     .help = "samples to show, then exit (batch default 1)" },
	[T_DELAY] = { "-d", "--delay", CLI_NUM, "MS", 100, 3600000,
		      .help = "between samples (default 1000)" },
	[T_SORT] = { "--sort", NULL, CLI_WORD, "KEY", .words = sort_words,
		     .help = "pps (default), bps, wait, discards or packets" },
	[T_SWITCH] = { "--switch", NULL, CLI_STR, "S",
		       .help = "only switch S's ports (s3 or 3)" },
	[T_TRACE] = { "--trace", NULL, CLI_STR, "SRC",
		      .help = "also the paths SRC -> DST (DST: the one "
			      "argument)" },
	[T_LINES] = { "--lines", NULL, CLI_NUM, "N", 1, 100000,
		      .help = "links shown (batch default 20)" },
};

static volatile int top_stop;

static void on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

struct top {
	struct ftsw_view *v;
	const char *lab;
	enum ftsw_view_sort sort;
	int64_t sw;		/* -1: every switch */
	char src[32], dst[32];	/* a pair to trace, or "" */
	unsigned lines;
	struct ftsw_view_link *rows;
};

static void fmt_rate(double x, char *buf, size_t sz)
{
	if (x >= 1e9)
		snprintf(buf, sz, "%.1fG", x / 1e9);
	else if (x >= 1e6)
		snprintf(buf, sz, "%.1fM", x / 1e6);
	else if (x >= 1e4)
		snprintf(buf, sz, "%.1fk", x / 1e3);
	else
		snprintf(buf, sz, "%.0f", x);
}

static int64_t parse_switch(const char *s)
{
	char *end;
	long x;

	if (!s)
		return -1;
	if (*s == 's')
		s++;
	x = strtol(s, &end, 10);
	return *s && !*end && x >= 0 ? x : -2;
}

/* ------------------------------------------------------------ batch */

static void batch_links(const struct top *tp, size_t n)
{
	size_t i;

	ftsw_out_text("  %-9s %-9s %10s %10s %12s %14s %6s %7s %6s %s\n",
		      "FROM", "TO", "PKT/S", "BIT/S", "PACKETS", "BYTES",
		      "WAIT%", "BUF", "DISC", "STATE");
	ftsw_out_open_array("links");
	for (i = 0; i < n; i++) {
		const struct ftsw_view_link *l = &tp->rows[i];
		char bps[16];

		fmt_rate(l->bps, bps, sizeof(bps));
		ftsw_out_open_object(NULL);
		ftsw_out_str("from", "  %-9s", l->from);
		ftsw_out_str("to", " %-9s", l->to);
		ftsw_out_float("pps", " %10.1f", l->pps);
		ftsw_out_str(NULL, " %10s", bps);
		ftsw_out_float("bps", NULL, l->bps);
		ftsw_out_uint("packets", " %12" PRIu64, l->packets);
		ftsw_out_uint("bytes", " %14" PRIu64, l->bytes);
		ftsw_out_float("credit_wait", " %6.1f", 100 * l->credit_wait);
		ftsw_out_uint("buffered", " %7" PRIu64,
			      (uint64_t)l->in_bytes + l->out_bytes);
		ftsw_out_uint("discards", " %6" PRIu64, l->discards + l->drops);
		ftsw_out_bool("up", NULL, l->up);
		ftsw_out_text(" %s\n", l->up ? "up" : "DOWN");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

static void batch_events(const struct top *tp)
{
	struct ftsw_view_event ev[8];
	size_t n = ftsw_view_recent(tp->v, ev, 8), i;

	ftsw_out_text("  recent events:\n");
	ftsw_out_open_array("events");
	for (i = 0; i < n; i++) {
		time_t t = (time_t)ev[i].time;
		struct tm tm;
		char hms[16];

		localtime_r(&t, &tm);
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
		ftsw_out_open_object(NULL);
		ftsw_out_str(NULL, "  %s", hms);
		ftsw_out_float("time", NULL, ev[i].time);
		ftsw_out_str("kind", " %-9s", ev[i].kind);
		ftsw_out_str("text", " %s\n", ev[i].text);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
}

static void batch_trace(const struct top *tp)
{
	struct ftsw_view_paths *p = malloc(sizeof(*p));
	struct ftsw_err err;
	unsigned i, k;

	if (!p || ftsw_view_paths(tp->v, tp->src, tp->dst, p, &err)) {
		ftsw_out_str("trace_error", "  trace: %s\n", p ? err.msg :
			     "out of memory");
		free(p);
		return;
	}
	ftsw_out_open_array("paths");
	for (i = 0; i < p->npaths; i++) {
		const struct ftsw_view_path *x = &p->path[i];

		ftsw_out_open_object(NULL);
		ftsw_out_uint("dlid", "  h%" PRIu64, p->src);
		ftsw_out_uint(NULL, " -> h%" PRIu64, p->dst);
		ftsw_out_uint(NULL, " LID %" PRIu64, x->dlid);
		ftsw_out_uint("sl", " SL %" PRIu64, x->sl);
		ftsw_out_bool("used", x->used ? "" : " (offset unused)",
			      x->used);
		ftsw_out_str("status", ": %s:", x->status ? "FAILS" : "ok");
		ftsw_out_open_array("hops");
		for (k = 0; k < x->nhops; k++) {
			ftsw_out_open_object(NULL);
			ftsw_out_uint("sw", " s%" PRIu64, x->hops[k].sw);
			ftsw_out_uint("port", ":%" PRIu64, x->hops[k].port);
			ftsw_out_uint("vl", "(VL%" PRIu64 ")", x->hops[k].vl);
			ftsw_out_bool("down", x->hops[k].down ? "[down]" : "",
				      x->hops[k].down);
			ftsw_out_close_object();
		}
		ftsw_out_close_array();
		ftsw_out_text("\n");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	free(p);
}

static void batch_print(const struct top *tp)
{
	struct ftsw_view_status st;
	size_t n, all;

	ftsw_view_status(tp->v, &st);
	all = ftsw_view_top(tp->v, tp->sort, tp->sw, tp->rows, tp->lines);
	n = all < tp->lines ? all : tp->lines;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("lab", "lab %s", tp->lab);
	ftsw_out_uint("switches", ": %" PRIu64 " switches", st.switches);
	ftsw_out_uint("hosts", ", %" PRIu64 " hosts", st.hosts);
	ftsw_out_uint("generation", ", generation %" PRIu64, st.generation);
	ftsw_out_uint("sample", ", sample %" PRIu64, st.samples);
	ftsw_out_uint("ports", ", %" PRIu64 " ports", st.ports);
	ftsw_out_uint("ports_down", " (%" PRIu64 " down)", st.ports_down);
	ftsw_out_uint("drops", ", drops %" PRIu64, st.drops);
	ftsw_out_bool("lossless", st.lossless ? ", lossless" : "", st.lossless);
	ftsw_out_uint("waiting", st.lossless ? ", %" PRIu64 " outputs waiting "
		      "for credit" : NULL, st.waiting);
	ftsw_out_uint("cycles", st.lossless ? ", %" PRIu64 " cycles" : NULL,
		      st.cycles);
	ftsw_out_str("sort", "\n  busiest links by %s", ftsw_view_sort_name(tp->sort));
	ftsw_out_uint("shown", " (%" PRIu64, n);
	ftsw_out_uint("links_total", " of %" PRIu64 "):\n", all);
	batch_links(tp, n);
	if (tp->src[0])
		batch_trace(tp);
	batch_events(tp);
	ftsw_out_close_object();
	ftsw_out_end();
	fflush(stdout);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && !top_stop)
		;
}

/* ------------------------------------------------------------ screen */

static void screen_links(const struct top *tp, int row, int rows, int cols)
{
	size_t n = ftsw_view_top(tp->v, tp->sort, tp->sw, tp->rows,
				 tp->lines), i;

	attron(A_REVERSE);
	mvprintw(row++, 0, "%-*.*s", cols, cols, "  FROM      TO         "
		 "  PKT/S      BIT/S      PACKETS  WAIT%    BUF   DISC STATE");
	attroff(A_REVERSE);
	for (i = 0; i < n && i < tp->lines && row < rows; i++, row++) {
		const struct ftsw_view_link *l = &tp->rows[i];
		char bps[16];

		fmt_rate(l->bps, bps, sizeof(bps));
		if (!l->up)
			attron(A_BOLD);
		mvprintw(row, 0, "  %-9s %-9s %10.1f %10s %12" PRIu64 " %6.1f "
			 "%6u %6" PRIu64 " %s", l->from, l->to, l->pps, bps,
			 l->packets, 100 * l->credit_wait,
			 l->in_bytes + l->out_bytes, l->discards + l->drops,
			 l->up ? "up" : "DOWN");
		if (!l->up)
			attroff(A_BOLD);
	}
}

static void screen_draw(struct top *tp, const char *prompt)
{
	struct ftsw_view_event ev[16];
	struct ftsw_view_status st;
	char which[32];
	int rows, cols, row = 0, erows;
	size_t n, i;

	getmaxyx(stdscr, rows, cols);
	erows = rows > 24 ? 8 : 3;
	ftsw_view_status(tp->v, &st);
	erase();
	mvprintw(row++, 0, "ftsw lab top: lab %s, %u switches, %u hosts, "
		 "generation %" PRIu64 ", %u ports down, drops %" PRIu64 "%s",
		 tp->lab, st.switches, st.hosts, st.generation, st.ports_down,
		 st.drops, st.lossless ? ", lossless" : "");
	if (st.lossless)
		mvprintw(row++, 0, "%u outputs waiting for credit, %u cycles of "
			 "waiting buffers", st.waiting, st.cycles);
	if (tp->sw >= 0)
		snprintf(which, sizeof(which), ", switch s%" PRId64, tp->sw);
	else
		which[0] = 0;
	mvprintw(row++, 0, "by %s%s%s%s  [s]ort [w]switch [a]ll [t]race [q]uit",
		 ftsw_view_sort_name(tp->sort), which, "",
		 st.cycles ? ", a CYCLE of waiting buffers" : "");
	tp->lines = (unsigned)(rows - erows - 4 > 1 ? rows - erows - 4 : 1);
	screen_links(tp, row, rows - erows - 1, cols);
	row = rows - erows - 1;
	if (tp->src[0]) {
		struct ftsw_view_paths *p = malloc(sizeof(*p));
		struct ftsw_err err;

		if (p && !ftsw_view_paths(tp->v, tp->src, tp->dst, p, &err)) {
			for (i = 0; i < p->npaths && i < 2; i++)
				mvprintw(row - 2 + (int)i, 0, "  h%u -> h%u LID %u "
					 "SL %u: %u hops%s", p->src, p->dst,
					 p->path[i].dlid, p->path[i].sl,
					 p->path[i].nhops, p->path[i].status ?
					 " FAILS" : "");
		} else {
			mvprintw(row - 1, 0, "  trace: %s", p ? err.msg : "?");
		}
		free(p);
	}
	n = ftsw_view_recent(tp->v, ev, (size_t)erows);
	for (i = 0; i < n; i++)
		mvprintw(row + 1 + (int)i, 0, "  %-9s %.*s", ev[i].kind,
			 cols > 14 ? cols - 14 : 1, ev[i].text);
	if (prompt)
		mvprintw(rows - 1, 0, "%s", prompt);
	refresh();
}

/* A line typed at the bottom of the screen into buf. */
static void screen_ask(struct top *tp, const char *prompt, char *buf,
		       size_t sz)
{
	screen_draw(tp, prompt);
	echo();
	nocbreak();
	timeout(-1);
	getnstr(buf, (int)sz - 1);
	noecho();
	cbreak();
}

static void screen_key(struct top *tp, int ch, unsigned delay_ms)
{
	char line[64];

	if (ch == 's')
		tp->sort = (tp->sort + 1) % FTSW_VIEW_NSORT;
	else if (ch == 'a')
		tp->sw = -1;
	else if (ch == 'w') {
		screen_ask(tp, "switch (s3 or 3): ", line, sizeof(line));
		tp->sw = parse_switch(line) >= 0 ? parse_switch(line) : -1;
	} else if (ch == 't') {
		screen_ask(tp, "trace SRC DST (h0 h5; empty: none): ", line,
			   sizeof(line));
		if (sscanf(line, "%31s %31s", tp->src, tp->dst) != 2)
			tp->src[0] = tp->dst[0] = 0;
	}
	timeout((int)delay_ms);
}

static int screen_run(struct top *tp, unsigned delay_ms, unsigned iter)
{
	struct ftsw_err err;
	unsigned i;

	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	timeout((int)delay_ms);
	for (i = 0; !top_stop && (!iter || i < iter); i++) {
		int ch;

		if (ftsw_view_sample(tp->v, &err)) {
			endwin();
			cli_err("lab top: %s", err.msg);
			return 1;
		}
		screen_draw(tp, NULL);
		ch = getch();
		if (ch == 'q')
			break;
		if (ch != ERR)
			screen_key(tp, ch, delay_ms);
	}
	endwin();
	return 0;
}

int lab_top(const struct cli_args *a)
{
	struct ftsw_view_opts vo = { .hosts = 0 };
	struct top tp = { .sw = -1 };
	unsigned delay = a->v[T_DELAY].n ? (unsigned)a->v[T_DELAY].u : 1000;
	unsigned iter = (unsigned)a->v[T_ITER].u, i;
	struct ftsw_lab lab;
	struct ftsw_err err;
	struct sigaction sa;
	int rc = 1;

	if (a->v[T_TRACE].n != (a->npos == 1)) {
		cli_err("lab top: --trace SRC DST: %s", a->npos ?
			"DST without --trace" : "DST expected");
		return 2;
	}
	tp.sw = parse_switch(a->v[T_SWITCH].s);
	if (tp.sw == -2) {
		cli_err("lab top: --switch %s: s3 or 3 expected",
			a->v[T_SWITCH].s);
		return 2;
	}
	if (a->v[T_TRACE].n) {
		snprintf(tp.src, sizeof(tp.src), "%s", a->v[T_TRACE].s);
		snprintf(tp.dst, sizeof(tp.dst), "%s", a->pos[0]);
	}
	tp.sort = (enum ftsw_view_sort)a->v[T_SORT].u;
	tp.lines = a->v[T_LINES].n ? (unsigned)a->v[T_LINES].u : 20;
	if (open_lab(a, &lab))
		return 1;
	tp.lab = lab.name;
	vo.interval_ms = delay;
	tp.v = ftsw_view_open(&lab, &vo, &err);
	tp.rows = calloc(lab.topo->nports + 1, sizeof(*tp.rows));
	if (!tp.v || !tp.rows) {
		cli_err("lab top: %s", tp.v ? "out of memory" : err.msg);
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a first sample: the rates are over the delay after it */
	if (ftsw_view_sample(tp.v, &err)) {
		cli_err("lab top: %s", err.msg);
		goto out;
	}
	if (!a->v[T_BATCH].n) {
		sleep_ms(delay < 300 ? delay : 300);
		rc = screen_run(&tp, delay, iter);
		goto out;
	}
	for (i = 0; !top_stop && i < (iter ? iter : 1); i++) {
		sleep_ms(delay);
		if (ftsw_view_sample(tp.v, &err)) {
			cli_err("lab top: %s", err.msg);
			goto out;
		}
		batch_print(&tp);
	}
	rc = 0;
out:
	free(tp.rows);
	ftsw_view_close(tp.v);
	ftsw_lab_close(&lab);
	return rc;
}
