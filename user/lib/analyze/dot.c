// SPDX-License-Identifier: GPL-2.0
/*
 * Graphviz pictures: the tree drawn by levels (roots on top), one edge per
 * cabled link pair, coloured and labelled by the larger of its two
 * directed loads (green idle .. red at the scale's top), with the loads of
 * both directions in the tooltip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/analyze.h"

static void colour(double x, char *buf, size_t sz)
{
	/* 0 -> green (hue 0.33), 1 -> red (hue 0) */
	if (x < 0)
		x = 0;
	if (x > 1)
		x = 1;
	snprintf(buf, sz, "%.3f 0.85 0.85", 0.33 * (1 - x));
}

static void name_of(const struct ftsw_topo *t, uint32_t v, char *buf, size_t sz)
{
	const char *d = t->nodes[v].desc;

	snprintf(buf, sz, "%s", d && *d ? d : "node");
	for (char *c = buf; *c; c++)
		if (*c == '"' || *c == '\\')
			*c = '_';
}

void ftsw_dot_write_file(const struct ftsw_topo *t,
			 const struct ftsw_dot_opts *o, FILE *f)
{
	int *lv = malloc(t->nnodes * sizeof(*lv)), maxlv = 0;
	double top = o->max;
	uint32_t v, p;
	char nm[128], col[32];
	bool hosts = o->hosts;

	if (!lv)
		return;
	ftsw_node_levels(t, lv);
	for (v = 0; v < t->nnodes; v++)
		if (lv[v] > maxlv)
			maxlv = lv[v];
	if (top <= 0 && o->load)
		top = ftsw_max_load(t, o->load, false, NULL);
	fprintf(f, "digraph fabric {\n  rankdir=BT; splines=line; "
		   "nodesep=0.08; ranksep=1.2;\n");
	if (o->title)
		fprintf(f, "  label=\"%s\"; labelloc=t;\n", o->title);
	fprintf(f, "  node [shape=box, style=filled, fillcolor=\"#e8e8f0\", "
		   "fontsize=9, height=0.25];\n  edge [arrowhead=none, "
		   "penwidth=1.5];\n");
	for (int l = hosts ? 0 : 1; l <= maxlv; l++) {
		fprintf(f, "  { rank=same;");
		for (v = 0; v < t->nnodes; v++)
			if (lv[v] == l)
				fprintf(f, " n%u;", v);
		fprintf(f, " }\n");
	}
	for (v = 0; v < t->nnodes; v++) {
		if (!hosts && t->nodes[v].kind == FTSW_HOST)
			continue;
		name_of(t, v, nm, sizeof(nm));
		fprintf(f, "  n%u [label=\"%s\"%s];\n", v, nm,
			t->nodes[v].kind == FTSW_HOST ?
			", shape=ellipse, fillcolor=\"#ffffff\"" : "");
	}
	for (v = 0; v < t->nnodes; v++)
		for (p = 1; p <= t->nodes[v].nports; p++) {
			const struct ftsw_port *x = ftsw_port(t, v, p);
			double a = 0, b = 0, m;

			if (x->peer == FTSW_NONE || x->peer < v ||
			    (x->peer == v && x->peer_port < p))
				continue;
			if (!hosts && (t->nodes[v].kind == FTSW_HOST ||
				       t->nodes[x->peer].kind == FTSW_HOST))
				continue;
			if (o->load) {
				a = o->load[ftsw_link_id(t, v, p)];
				b = o->load[ftsw_link_id(t, x->peer,
							 x->peer_port)];
			}
			m = a > b ? a : b;
			if (o->load && m <= 0)
				snprintf(col, sizeof(col), "#c8c8c8");	/* idle */
			else
				colour(top > 0 ? m / top : 0, col, sizeof(col));
			/* lower level first so the edge points up */
			if (lv[v] <= lv[x->peer])
				fprintf(f, "  n%u -> n%u", v, x->peer);
			else
				fprintf(f, "  n%u -> n%u", x->peer, v);
			fprintf(f, " [color=\"%s\"", col);
			if (o->load && m > 0)
				fprintf(f, ", penwidth=%.2f, tooltip=\"%u:%u "
					   "%.3g / %.3g\"",
					1.0 + 3.0 * (top > 0 ? m / top : 0), v, p,
					a, b);
			fprintf(f, "];\n");
		}
	fprintf(f, "}\n");
	free(lv);
}

int ftsw_dot_write(const struct ftsw_topo *t, const struct ftsw_dot_opts *o,
		   const char *path, struct ftsw_err *err)
{
	char *tmp;
	FILE *f = ftsw_atomic_open(path, &tmp, err);

	if (!f)
		return -1;
	ftsw_dot_write_file(t, o, f);
	return ftsw_atomic_commit(f, path, tmp, err);
}

int ftsw_dot_render(const char *dot_path, const char *out_path,
		    struct ftsw_err *err)
{
	const char *ext = strrchr(out_path, '.');
	char fmt[16], *tmp;
	size_t n = strlen(out_path) + 16;
	pid_t pid;
	int st;

	if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png") &&
		     strcmp(ext, ".pdf"))) {
		ftsw_err_set(err, "%s: picture name must end in .svg, .png or "
			     ".pdf", out_path);
		return -1;
	}
	snprintf(fmt, sizeof(fmt), "-T%s", ext + 1);
	tmp = malloc(n);
	if (!tmp) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", out_path);
		return -1;
	}
	snprintf(tmp, n, "%s.tmp%d", out_path, (int)getpid());
	pid = fork();
	if (pid < 0) {
		ftsw_err_errno(err, errno, "fork: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	if (pid == 0) {
		execlp("dot", "dot", fmt, "-o", tmp, dot_path, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		ftsw_err_set(err, "%s: dot(1) failed%s", out_path,
			     WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			     " (install graphviz: apt-get install graphviz)" :
			     "");
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, out_path)) {
		ftsw_err_errno(err, errno, "%s: %s", out_path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int ftsw_dot_picture(const struct ftsw_topo *t, const struct ftsw_dot_opts *o,
		     const char *dot_path, const char *picture,
		     struct ftsw_err *err)
{
	char *dotp = NULL;
	int rc;

	if (dot_path)
		dotp = strdup(dot_path);
	else if (asprintf(&dotp, "%s.dot", picture) < 0)
		dotp = NULL;
	if (!dotp) {
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	rc = ftsw_dot_write(t, o, dotp, err);
	if (!rc && picture)
		rc = ftsw_dot_render(dotp, picture, err);
	if (!dot_path)
		unlink(dotp);
	free(dotp);
	return rc ? -1 : 0;
}
