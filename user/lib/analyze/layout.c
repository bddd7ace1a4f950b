// SPDX-License-Identifier: GPL-2.0
/*
 * Where every node of a fabric is drawn (analyze/picture.h): a tree by
 * levels in a stable order, a torus or mesh as its grid, anything else by
 * Graphviz once. The same positions serve the static pictures and the live
 * view's page, so a fabric looks the same in both.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/picture.h"
#include "topo/graphs.h"

const char *ftsw_layout_kind_name(enum ftsw_layout_kind k)
{
	static const char *const names[] = { "levels", "grid", "ring",
					      "graphviz" };

	return k <= FTSW_LAYOUT_GRAPHVIZ ? names[k] : "?";
}

void ftsw_layout_free(struct ftsw_layout *l)
{
	free(l->x);
	free(l->y);
	free(l->level);
	free(l->group);
	memset(l, 0, sizeof(*l));
}

bool ftsw_layout_bent(const struct ftsw_layout *l, uint32_t a, uint32_t b)
{
	double lim = 1.5 * FTSW_LAYOUT_GRID_STEP;

	if (l->kind != FTSW_LAYOUT_GRID || a >= l->nnodes || b >= l->nnodes)
		return false;
	return fabs(l->x[a] - l->x[b]) > lim || fabs(l->y[a] - l->y[b]) > lim;
}

/* Hosts without room of their own: a comb under their switch. */
static void hosts_under(const struct ftsw_topo *t, struct ftsw_layout *l,
			double dy)
{
	uint32_t *seen = calloc(t->nnodes + 1, sizeof(*seen));
	uint32_t h;

	for (h = 0; h < t->nhosts; h++) {
		uint32_t v = t->hosts[h], sw = ftsw_host_switch(t, v);

		if (sw == FTSW_NONE) {
			l->x[v] = 0;
			l->y[v] = l->height + dy;
			continue;
		}
		l->x[v] = l->x[sw] - 12 + 3 * ((seen ? seen[sw]++ : 0) % 9);
		l->y[v] = l->y[sw] + dy;
		l->group[v] = l->group[sw];
	}
	free(seen);
}

/* Shift every node so that the smallest x and y are 0; the extent. */
static void normalise(struct ftsw_layout *l)
{
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	uint32_t v;

	for (v = 0; v < l->nnodes; v++) {
		x0 = fmin(x0, l->x[v]);
		y0 = fmin(y0, l->y[v]);
		x1 = fmax(x1, l->x[v]);
		y1 = fmax(y1, l->y[v]);
	}
	if (!l->nnodes)
		x0 = y0 = x1 = y1 = 0;
	for (v = 0; v < l->nnodes; v++) {
		l->x[v] -= x0;
		l->y[v] -= y0;
	}
	l->width = x1 - x0;
	l->height = y1 - y0;
}

/* ------------------------------------------------------------ levels */

static uint32_t uf_find(uint32_t *p, uint32_t v)
{
	while (p[v] != v) {
		p[v] = p[p[v]];
		v = p[v];
	}
	return v;
}

/*
 * Subtrees: the parts the fabric falls into without its top level (each
 * leaf with its hosts when there is one level), numbered by their lowest
 * switch index. Top-level switches get FTSW_NONE.
 */
static int tree_groups(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	uint32_t *p = malloc((t->nnodes + 1) * sizeof(*p));
	uint32_t *gid = malloc((t->nnodes + 1) * sizeof(*gid)), v, q;
	bool one = l->nlevels < 2;	/* one level: each leaf its own */

	if (!p || !gid) {
		free(p);
		free(gid);
		return -1;
	}
	for (v = 0; v < t->nnodes; v++) {
		p[v] = v;
		gid[v] = FTSW_NONE;
	}
	for (v = 0; v < t->nnodes; v++)
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer == FTSW_NONE)
				continue;
			if (one ? t->nodes[v].kind == FTSW_SWITCH &&
				  t->nodes[x->peer].kind == FTSW_SWITCH :
				  l->level[v] == l->nlevels ||
				  l->level[x->peer] == l->nlevels)
				continue;
			p[uf_find(p, v)] = uf_find(p, x->peer);
		}
	l->ngroups = 0;
	for (q = 0; q < t->nswitches; q++) {
		uint32_t r;

		v = t->switches[q];
		if (!one && l->level[v] == l->nlevels)
			continue;
		r = uf_find(p, v);
		if (gid[r] == FTSW_NONE)
			gid[r] = l->ngroups++;
	}
	for (v = 0; v < t->nnodes; v++)
		l->group[v] = !one && l->level[v] == l->nlevels ? FTSW_NONE :
			      gid[uf_find(p, v)];
	free(p);
	free(gid);
	return 0;
}

/* Whether every cable between switches joins two levels (a tree). */
static bool is_tree(const struct ftsw_topo *t, const int *lv)
{
	uint32_t v, q;

	for (v = 0; v < t->nnodes; v++) {
		if (t->nodes[v].kind != FTSW_SWITCH)
			continue;
		if (lv[v] < 1)
			return false;
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer != FTSW_NONE &&
			    t->nodes[x->peer].kind == FTSW_SWITCH &&
			    lv[x->peer] == lv[v])
				return false;
		}
	}
	return t->nswitches > 0;
}

static double level_step(int lv)
{
	return lv ? FTSW_LAYOUT_SW_STEP : FTSW_LAYOUT_HOST_STEP;
}

/*
 * Each subtree gets the width its widest level needs; inside it a level's
 * nodes are spread evenly in index order; the top level spans the whole.
 */
static int place_levels(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	size_t nl = (size_t)l->nlevels + 1, ng = l->ngroups + 1;
	uint32_t *cnt = calloc(ng * nl, sizeof(*cnt));
	uint32_t *at = calloc(ng * nl, sizeof(*at)), v, ntop = 0, g;
	double *gx = calloc(ng + 1, sizeof(*gx)), *gw = calloc(ng, sizeof(*gw));
	double w = 0, shift;
	int lv;

	if (!cnt || !at || !gx || !gw)
		goto nomem;
	for (v = 0; v < t->nnodes; v++) {
		lv = l->level[v];
		if (l->group[v] == FTSW_NONE)
			ntop += t->nodes[v].kind == FTSW_SWITCH;
		else if (lv >= 0 && (lv || l->hosts))
			cnt[l->group[v] * nl + lv]++;
	}
	for (g = 0; g < l->ngroups; g++) {
		for (lv = 0; lv < (int)nl; lv++)
			gw[g] = fmax(gw[g], cnt[g * nl + lv] * level_step(lv));
		gx[g + 1] = gx[g] + gw[g] + (g + 1 < l->ngroups ?
					     FTSW_LAYOUT_SW_STEP / 2 : 0);
	}
	w = fmax(gx[l->ngroups], ntop * FTSW_LAYOUT_SW_STEP);
	shift = (w - gx[l->ngroups]) / 2;
	/* switches in index order, then hosts in host order */
	for (v = 0; v < t->nswitches + t->nhosts; v++) {
		uint32_t n = v < t->nswitches ? t->switches[v] :
			     t->hosts[v - t->nswitches];
		uint32_t k;

		lv = l->level[n];
		g = l->group[n];
		l->y[n] = (double)(l->nlevels - (lv < 0 ? 0 : lv)) *
			  FTSW_LAYOUT_LEVEL_STEP;
		if (g == FTSW_NONE && t->nodes[n].kind == FTSW_SWITCH) {
			k = at[l->ngroups * nl + 0]++;	/* the spare row */
			l->x[n] = (k + 0.5) * w / (ntop ? ntop : 1);
		} else if (g != FTSW_NONE && lv >= 0 && (lv || l->hosts)) {
			k = at[g * nl + lv]++;
			l->x[n] = shift + gx[g] +
				  (k + 0.5) * gw[g] / cnt[g * nl + lv];
		}
	}
	free(cnt);
	free(at);
	free(gx);
	free(gw);
	return 0;
nomem:
	free(cnt);
	free(at);
	free(gx);
	free(gw);
	return -1;
}

/* 1: not a tree; 0: laid out; -1: out of memory. */
static int layout_levels(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	uint32_t v;

	ftsw_node_levels(t, l->level);
	if (!is_tree(t, l->level))
		return 1;
	l->kind = FTSW_LAYOUT_LEVELS;
	l->nlevels = 0;
	for (v = 0; v < t->nnodes; v++)
		if (l->level[v] > l->nlevels)
			l->nlevels = l->level[v];
	if (tree_groups(t, l) || place_levels(t, l))
		return -1;
	if (!l->hosts) {
		l->height = (double)l->nlevels * FTSW_LAYOUT_LEVEL_STEP;
		hosts_under(t, l, 34);
	}
	return 0;
}

/* ------------------------------------------------------------ grids */

/* Whether t is the torus or mesh g describes: switch i's cables to its
 * neighbours on the generator's ports. */
static bool is_grid(const struct ftsw_topo *t, const struct ftsw_grid *g)
{
	uint32_t i;
	unsigned d;

	if (g->nsw != t->nswitches)
		return false;
	for (i = 0; i < t->nswitches; i++) {
		const struct ftsw_node *n = &t->nodes[t->switches[i]];

		for (d = 0; d < g->n; d++) {
			uint32_t j = ftsw_grid_step(g, i, d, +1);
			unsigned p = g->hosts + 2 * d + 1;

			if (j == FTSW_NONE)
				continue;
			if (p > n->nports || ftsw_peer_switch(t, n, p) != j)
				return false;
		}
	}
	return true;
}

static void place_grid(const struct ftsw_topo *t, const struct ftsw_grid *g,
		       struct ftsw_layout *l)
{
	uint32_t nslices = g->nsw / (g->k[0] * (g->n > 1 ? g->k[1] : 1));
	unsigned cols = (unsigned)ceil(sqrt((double)nslices)), c[FTSW_GRID_MAX_D];
	double s = FTSW_LAYOUT_GRID_STEP;
	uint32_t i, slice;
	unsigned d;

	for (i = 0; i < t->nswitches; i++) {
		uint32_t v = t->switches[i];

		ftsw_grid_coords(g, i, c);
		slice = 0;
		for (d = g->n; d-- > 2;)
			slice = slice * g->k[d] + c[d];
		l->x[v] = (slice % cols) * (g->k[0] + 1) * s + c[0] * s;
		l->y[v] = (slice / cols) * ((g->n > 1 ? g->k[1] : 1) + 1) * s +
			  (g->n > 1 ? c[1] : 0) * s;
		l->group[v] = slice;
		l->level[v] = 1;
	}
	l->ngroups = nslices;
}

static void place_ring(const struct ftsw_topo *t, const struct ftsw_grid *g,
		       struct ftsw_layout *l)
{
	double r = fmax(120, g->k[0] * FTSW_LAYOUT_SW_STEP * 1.6 / (2 * M_PI));
	uint32_t i;

	for (i = 0; i < t->nswitches; i++) {
		uint32_t v = t->switches[i];
		double a = 2 * M_PI * i / g->k[0] - M_PI / 2;

		l->x[v] = r * cos(a);
		l->y[v] = r * sin(a);
		l->group[v] = 0;
		l->level[v] = 1;
	}
	l->ngroups = 1;
}

/* Hosts of a grid: a row under the switch, or outside the ring. */
static void grid_hosts(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	uint32_t *seen = calloc(t->nnodes + 1, sizeof(*seen)), h;
	double cx = 0, cy = 0;

	for (h = 0; h < t->nswitches; h++) {
		cx += l->x[t->switches[h]] / t->nswitches;
		cy += l->y[t->switches[h]] / t->nswitches;
	}
	for (h = 0; h < t->nhosts; h++) {
		uint32_t v = t->hosts[h], sw = ftsw_host_switch(t, v);
		unsigned k = seen && sw != FTSW_NONE ? seen[sw]++ : 0;
		double step = l->hosts ? FTSW_LAYOUT_HOST_STEP : 4;

		l->level[v] = 0;
		if (sw == FTSW_NONE) {
			l->x[v] = l->y[v] = 0;
			continue;
		}
		l->group[v] = l->group[sw];
		if (l->kind == FTSW_LAYOUT_RING) {
			double dx = l->x[sw] - cx, dy = l->y[sw] - cy;
			double n = fmax(1, hypot(dx, dy)), d = 38 + k * step;

			l->x[v] = l->x[sw] + dx / n * d;
			l->y[v] = l->y[sw] + dy / n * d;
		} else {
			l->x[v] = l->x[sw] - 22 + k * step;
			l->y[v] = l->y[sw] + 36;
		}
	}
	free(seen);
}

static int layout_grid(const struct ftsw_topo *t, const char *spec,
		       struct ftsw_layout *l)
{
	struct ftsw_grid g;

	if (!spec || !*spec ||
	    (strncmp(spec, "torus:", 6) && strncmp(spec, "mesh:", 5)) ||
	    ftsw_grid_parse(spec, &g, NULL) || !is_grid(t, &g))
		return 1;
	if (g.n == 1 && g.torus) {
		l->kind = FTSW_LAYOUT_RING;
		place_ring(t, &g, l);
	} else {
		l->kind = FTSW_LAYOUT_GRID;
		place_grid(t, &g, l);
	}
	l->nlevels = 1;
	grid_hosts(t, l);
	return 0;
}

/* ------------------------------------------------------------ Graphviz */

/* Every switch (and host, with room) on a circle: Graphviz's stand-in. */
static void place_circle(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	uint32_t n = l->hosts ? t->nnodes : t->nswitches, i, k = 0;
	double r = fmax(120, n * FTSW_LAYOUT_SW_STEP / (2 * M_PI));

	for (i = 0; i < t->nnodes; i++) {
		double a;

		if (!l->hosts && t->nodes[i].kind != FTSW_SWITCH)
			continue;
		a = 2 * M_PI * k++ / (n ? n : 1);
		l->x[i] = r * cos(a);
		l->y[i] = r * sin(a);
	}
}

/* Run neato on the cables between the nodes drawn; 0 when placed. */
static int run_neato(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	char in[] = "/tmp/ftsw-layout-XXXXXX", line[256], name[32];
	uint32_t v, q, placed = 0;
	int fds[2], fd, st, rc = -1;
	double x, y;
	FILE *f;
	pid_t pid;

	fd = mkstemp(in);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(in);
		return -1;
	}
	fprintf(f, "graph g { overlap=false; sep=\"+12\"; splines=false;\n"
		   "node [shape=box, width=0.45, height=0.25];\n");
	for (v = 0; v < t->nnodes; v++) {
		if (!l->hosts && t->nodes[v].kind != FTSW_SWITCH)
			continue;
		fprintf(f, "n%u;\n", v);
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer == FTSW_NONE || x->peer < v ||
			    (!l->hosts && t->nodes[x->peer].kind != FTSW_SWITCH))
				continue;
			fprintf(f, "n%u -- n%u;\n", v, x->peer);
		}
	}
	fprintf(f, "}\n");
	if (fclose(f) || pipe(fds)) {
		unlink(in);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execlp("neato", "neato", "-Tplain", in, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = pid > 0 ? fdopen(fds[0], "r") : NULL;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "node n%31s %lf %lf", name, &x, &y) == 3) {
			v = (uint32_t)strtoul(name, NULL, 10);
			if (v < l->nnodes) {
				l->x[v] = x * 90;	/* inches, spread */
				l->y[v] = -y * 90;	/* Graphviz's y is up */
				placed++;
			}
		}
	if (f)
		fclose(f);
	else
		close(fds[0]);
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    !WEXITSTATUS(st) && placed)
		rc = 0;
	unlink(in);
	return rc;
}

static void layout_graphviz(const struct ftsw_topo *t, struct ftsw_layout *l)
{
	uint32_t v;

	l->kind = FTSW_LAYOUT_GRAPHVIZ;
	l->nlevels = 1;
	l->ngroups = 1;
	for (v = 0; v < t->nnodes; v++) {
		l->group[v] = 0;
		l->level[v] = t->nodes[v].kind == FTSW_SWITCH ? 1 : 0;
	}
	if (run_neato(t, l))
		place_circle(t, l);
	if (!l->hosts) {
		normalise(l);
		hosts_under(t, l, 30);
	}
}

int ftsw_layout_make(const struct ftsw_topo *t, const char *spec, bool hosts,
		     struct ftsw_layout *l, struct ftsw_err *err)
{
	size_t n = (size_t)t->nnodes + 1;
	int rc;

	memset(l, 0, sizeof(*l));
	l->nnodes = t->nnodes;
	l->hosts = hosts;
	l->x = calloc(n, sizeof(*l->x));
	l->y = calloc(n, sizeof(*l->y));
	l->level = calloc(n, sizeof(*l->level));
	l->group = calloc(n, sizeof(*l->group));
	if (!l->x || !l->y || !l->level || !l->group)
		goto nomem;
	rc = layout_grid(t, spec ? spec : t->spec, l);
	if (rc > 0)
		rc = layout_levels(t, l);
	if (rc < 0)
		goto nomem;
	if (rc > 0)
		layout_graphviz(t, l);
	normalise(l);
	return 0;
nomem:
	ftsw_layout_free(l);
	ftsw_err_errno(err, ENOMEM, "layout: out of memory");
	return -1;
}
