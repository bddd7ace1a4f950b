// SPDX-License-Identifier: GPL-2.0
/*
 * The one drawing of a fabric (analyze/picture.h): the layout's nodes,
 * each cable in two halves, each half coloured and widened by what the node
 * at its end sends, the number beside it, a legend, failed cables dashed,
 * marked links (a deadlock cycle, a path) as arrows over the rest. Written
 * as SVG by ftsw itself, or as DOT with every node pinned where the SVG has
 * it, for Graphviz to render (.png, .pdf) or for the user's own tools.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/picture.h"

#define MARGIN		30
#define TOP_SPACE	104	/* title and legend */
#define MIN_WIDTH	860

static void hsl_rgb(double h, double s, double l, int rgb[3])
{
	double c = (1 - fabs(2 * l - 1)) * s, hp = h / 60;
	double x = c * (1 - fabs(fmod(hp, 2) - 1)), m = l - c / 2;
	double r = 0, g = 0, b = 0;

	if (hp < 1) {
		r = c;
		g = x;
	} else if (hp < 2) {
		r = x;
		g = c;
	} else {
		g = c;
		b = x;
	}
	rgb[0] = (int)lround((r + m) * 255);
	rgb[1] = (int)lround((g + m) * 255);
	rgb[2] = (int)lround((b + m) * 255);
}

void ftsw_pic_colour(double f, char *buf, size_t sz)
{
	int rgb[3];

	if (!(f > 0)) {
		snprintf(buf, sz, "%s", FTSW_PIC_IDLE);
		return;
	}
	if (f > 1)
		f = 1;
	/* green 120 degrees .. red 0, the page's hsl(120 * (1 - f), 80%, 42%) */
	hsl_rgb(120 * (1 - f), 0.8, 0.42, rgb);
	snprintf(buf, sz, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

double ftsw_pic_width(double f)
{
	if (!(f > 0))
		return 1;
	return 1.5 + 5 * (f > 1 ? 1 : f);
}

/* What is drawn: resolved options, the layout, the scale. */
struct scene {
	const struct ftsw_picture *p;
	const struct ftsw_topo *t;
	struct ftsw_layout l;
	bool hosts, labels;
	double top, w, h;
	double pad;		/* room for a grid's stubs */
};

static bool drawn(const struct scene *s, uint32_t v)
{
	return s->hosts || s->t->nodes[v].kind == FTSW_SWITCH;
}

static double ld(const struct scene *s, uint32_t v, unsigned q)
{
	return s->p->load ? s->p->load[ftsw_link_id(s->t, v, q)] : 0;
}

static void node_name(const struct ftsw_topo *t, uint32_t v, char *buf,
		      size_t sz)
{
	const struct ftsw_node *n = &t->nodes[v];

	snprintf(buf, sz, "%c%u", n->kind == FTSW_SWITCH ? 's' : 'h',
		 n->index);
}

static int scene_make(struct scene *s, const struct ftsw_picture *p)
{
	const struct ftsw_topo *t = p->t;
	uint32_t v, q, cables = 0;
	struct ftsw_err err;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->t = t;
	s->hosts = p->hosts < 0 ? t->nhosts <= 256 : p->hosts;
	if (ftsw_layout_make(t, p->spec, s->hosts, &s->l, &err))
		return -1;
	s->top = p->max;
	for (v = 0; v < t->nnodes; v++)
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer == FTSW_NONE || !drawn(s, v) ||
			    !drawn(s, x->peer))
				continue;
			cables += x->peer > v;
			if (p->max <= 0 && ld(s, v, q) > s->top)
				s->top = ld(s, v, q);
		}
	s->labels = p->load && (p->labels < 0 ? cables <= 400 : p->labels);
	s->pad = s->l.kind == FTSW_LAYOUT_GRID ?
		 0.42 * FTSW_LAYOUT_GRID_STEP + 14 : 0;
	s->w = fmax(s->l.width + 2 * MARGIN + 2 * s->pad, MIN_WIDTH);
	s->h = s->l.height + TOP_SPACE + MARGIN + 2 * s->pad +
	       (s->hosts ? 16 : 44);
	return 0;
}

static double X(const struct scene *s, uint32_t v)
{
	return MARGIN + s->l.x[v] + (s->w - 2 * MARGIN - s->l.width) / 2;
}

static double Y(const struct scene *s, uint32_t v)
{
	return TOP_SPACE + s->pad + s->l.y[v];
}

/*
 * A bent cable (a torus's wrap-around, a cable between slices) is drawn as
 * two stubs, each leaving its node away from the other end: where a's stub
 * ends.
 */
static void stub_end(const struct scene *s, uint32_t a, uint32_t b, double *x,
		     double *y)
{
	double dx = X(s, a) - X(s, b), dy = Y(s, a) - Y(s, b);
	double n = hypot(dx, dy), len = 0.42 * FTSW_LAYOUT_GRID_STEP;

	if (fabs(dx) > 1.5 * FTSW_LAYOUT_GRID_STEP &&
	    fabs(dy) <= 1.5 * FTSW_LAYOUT_GRID_STEP)
		dy = 0;		/* a row's wrap-around: level */
	else if (fabs(dy) > 1.5 * FTSW_LAYOUT_GRID_STEP &&
		 fabs(dx) <= 1.5 * FTSW_LAYOUT_GRID_STEP)
		dx = 0;
	n = hypot(dx, dy);
	*x = X(s, a) + (n > 0 ? dx / n : 1) * len;
	*y = Y(s, a) + (n > 0 ? dy / n : 0) * len;
}

/*
 * Point at u along cable a-b as drawn: straight, or for a bent cable a's
 * stub out (u up to 0.5) and b's stub in.
 */
static void along(const struct scene *s, uint32_t a, uint32_t b, double u,
		  double *x, double *y)
{
	double ax = X(s, a), ay = Y(s, a), bx = X(s, b), by = Y(s, b), ex, ey;

	if (!ftsw_layout_bent(&s->l, a, b)) {
		*x = ax + u * (bx - ax);
		*y = ay + u * (by - ay);
		return;
	}
	if (u <= 0.5) {
		stub_end(s, a, b, &ex, &ey);
		*x = ax + 2 * u * (ex - ax);
		*y = ay + 2 * u * (ey - ay);
	} else {
		stub_end(s, b, a, &ex, &ey);
		*x = ex + (2 * u - 1) * (bx - ex);
		*y = ey + (2 * u - 1) * (by - ey);
	}
}

static void fmt_load(double v, char *buf, size_t sz)
{
	if (v >= 1e6 || (v > 0 && v < 1e-3))
		snprintf(buf, sz, "%.2e", v);
	else
		snprintf(buf, sz, "%.3g", v);
}

/* ------------------------------------------------------------ SVG */

static void svg_text_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			fputc(*s, f);
	}
}

/* The half of cable a-b from a: a's load, its colour and width. */
static void svg_half(FILE *f, const struct scene *s, uint32_t a, unsigned qa,
		     uint32_t b, bool down)
{
	double v = ld(s, a, qa), fr = s->top > 0 ? v / s->top : 0, mx, my;
	bool bent = ftsw_layout_bent(&s->l, a, b);
	char col[16], num[32], nm[16], other[16];

	ftsw_pic_colour(s->p->load ? fr : 0, col, sizeof(col));
	along(s, a, b, 0.5, &mx, &my);
	node_name(s->t, a, nm, sizeof(nm));
	node_name(s->t, b, other, sizeof(other));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"%.2f\"%s><title>%s port %u to "
		"%s%s", X(s, a), Y(s, a), mx, my, down ? FTSW_PIC_DOWN : col,
		ftsw_pic_width(fr), down ? " stroke-dasharray=\"5 4\"" : "",
		nm, qa, other, bent ? " (around)" : "");
	if (s->p->load) {
		fmt_load(v, num, sizeof(num));
		fprintf(f, ": %s", num);
		svg_text_esc(f, s->p->unit ? " " : "");
		svg_text_esc(f, s->p->unit);
	}
	fprintf(f, "%s</title></line>\n", down ? " (down)" : "");
	if (bent)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"w\">%s</text>\n",
			mx + (mx - X(s, a)) * 0.18, my + (my - Y(s, a)) * 0.18 + 3,
			other);
}

static void svg_number(FILE *f, const struct scene *s, uint32_t a,
		       unsigned qa, uint32_t b)
{
	double v = ld(s, a, qa), x, y, x2, y2, nx, ny, len;
	char num[32];

	if (!s->labels || !(v > 0))
		return;
	along(s, a, b, 0.27, &x, &y);
	along(s, a, b, 0.30, &x2, &y2);
	len = hypot(x2 - x, y2 - y);
	nx = len > 0 ? -(y2 - y) / len : 0;
	ny = len > 0 ? (x2 - x) / len : 1;
	fmt_load(v, num, sizeof(num));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"n\">%s</text>\n",
		x + 8 * nx, y + 8 * ny + 3, num);
}

static bool cable_down(const struct scene *s, uint32_t v, unsigned q)
{
	const struct ftsw_port *x = ftsw_port(s->t, v, q);

	return s->p->down && (s->p->down[ftsw_link_id(s->t, v, q)] ||
			      s->p->down[ftsw_link_id(s->t, x->peer,
						      x->peer_port)]);
}

static void svg_cables(FILE *f, const struct scene *s)
{
	const struct ftsw_topo *t = s->t;
	uint32_t v, q;

	for (v = 0; v < t->nnodes; v++)
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);
			bool down;

			if (x->peer == FTSW_NONE || x->peer < v ||
			    (x->peer == v && x->peer_port < q) ||
			    !drawn(s, v) || !drawn(s, x->peer))
				continue;
			down = cable_down(s, v, q);
			svg_half(f, s, v, q, x->peer, down);
			svg_half(f, s, x->peer, x->peer_port, v, down);
		}
	for (v = 0; s->labels && v < t->nnodes; v++)
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer != FTSW_NONE && drawn(s, v) &&
			    drawn(s, x->peer))
				svg_number(f, s, v, q, x->peer);
		}
}

static void svg_arrow(FILE *f, double x0, double y0, double x1, double y1,
		      bool head)
{
	fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1f\" class=\"m%s\"/>\n", x0, y0,
		x1, y1, head ? "" : " nh");
}

static void svg_marks(FILE *f, const struct scene *s)
{
	unsigned k;

	for (k = 0; k < s->p->nmarks; k++) {
		const struct ftsw_pic_mark *m = &s->p->marks[k];
		const struct ftsw_port *x;
		double x0, y0, x1, y1;

		if (m->node >= s->t->nnodes || !m->port ||
		    m->port > s->t->nodes[m->node].nports)
			continue;
		x = ftsw_port(s->t, m->node, m->port);
		if (x->peer == FTSW_NONE || !drawn(s, m->node) ||
		    !drawn(s, x->peer))
			continue;
		if (ftsw_layout_bent(&s->l, m->node, x->peer)) {
			along(s, m->node, x->peer, 0.1, &x0, &y0);
			along(s, m->node, x->peer, 0.5, &x1, &y1);
			svg_arrow(f, x0, y0, x1, y1, false);
			along(s, m->node, x->peer, 0.5001, &x0, &y0);
			along(s, m->node, x->peer, 0.78, &x1, &y1);
			svg_arrow(f, x0, y0, x1, y1, true);
			continue;
		}
		along(s, m->node, x->peer, 0.12, &x0, &y0);
		along(s, m->node, x->peer, 0.78, &x1, &y1);
		svg_arrow(f, x0, y0, x1, y1, true);
	}
}

static void svg_nodes(FILE *f, const struct scene *s)
{
	const struct ftsw_topo *t = s->t;
	char nm[16];
	uint32_t v;

	for (v = 0; v < t->nnodes; v++) {
		const struct ftsw_node *n = &t->nodes[v];

		if (!drawn(s, v))
			continue;
		node_name(t, v, nm, sizeof(nm));
		if (n->kind == FTSW_SWITCH)
			fprintf(f, "<g><rect x=\"%.1f\" y=\"%.1f\" width=\"34\" "
				"height=\"18\" rx=\"4\" class=\"s\"/><text "
				"x=\"%.1f\" y=\"%.1f\" class=\"sl\">%s</text>",
				X(s, v) - 17, Y(s, v) - 9, X(s, v), Y(s, v) + 3.5,
				nm);
		else
			fprintf(f, "<g><circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
				"class=\"h\"/><text x=\"%.1f\" y=\"%.1f\" "
				"class=\"hl\">%s</text>", X(s, v), Y(s, v),
				X(s, v), Y(s, v) + 15, nm);
		fprintf(f, "<title>%s ", nm);
		svg_text_esc(f, n->desc);
		fprintf(f, "</title></g>\n");
	}
}

static void svg_legend(FILE *f, const struct scene *s)
{
	const struct ftsw_picture *p = s->p;
	double x = MARGIN, y = 46;
	char col[16], num[32];
	int k;

	if (p->load) {
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"lg\">load%s",
			x, y + 9, p->unit ? " (" : "");
		svg_text_esc(f, p->unit);
		fprintf(f, "%s</text>\n", p->unit ? ")" : "");
		x += 30 + 6.5 * (4 + (p->unit ? strlen(p->unit) + 3 : 0));
		for (k = 0; k <= 4; k++, x += 70) {
			ftsw_pic_colour(k ? k / 4.0 : 1e-9, col, sizeof(col));
			fmt_load(s->top * k / 4, num, sizeof(num));
			fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"36\" "
				"height=\"%.1f\" fill=\"%s\"/><text x=\"%.0f\" "
				"y=\"%.0f\" class=\"lg\">%s</text>\n", x,
				y + 5 - ftsw_pic_width(k / 4.0) / 2,
				ftsw_pic_width(k / 4.0), col, x + 40, y + 9, num);
		}
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"36\" height=\"1\" "
			"fill=\"" FTSW_PIC_IDLE "\"/><text x=\"%.0f\" y=\"%.0f\" "
			"class=\"lg\">idle</text>\n", x, y + 5, x + 40, y + 9);
		x += 80;
	}
	if (p->down) {
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
			"stroke=\"" FTSW_PIC_DOWN "\" stroke-dasharray=\"5 4\"/>"
			"<text x=\"%.0f\" y=\"%.0f\" class=\"lg\">down</text>\n",
			x, y + 5, x + 36, y + 5, x + 40, y + 9);
		x += 80;
	}
	if (p->nmarks) {
		fprintf(f, "<path d=\"M%.0f %.0fL%.0f %.0f\" class=\"m\"/><text "
			"x=\"%.0f\" y=\"%.0f\" class=\"lg\">", x, y + 5, x + 36,
			y + 5, x + 44, y + 9);
		svg_text_esc(f, p->marks_label ? p->marks_label : "marked");
		fprintf(f, "</text>\n");
	}
	if (p->load)
		fprintf(f, "<text x=\"%d\" y=\"%.0f\" class=\"lg\">Each half of a "
			"cable is what the node at that end sends: colour and "
			"width by its load%s.</text>\n", MARGIN, y + 34,
			s->labels ? ", the number beside it" : "");
}

int ftsw_picture_svg(const struct ftsw_picture *p, FILE *f)
{
	struct scene s;

	if (scene_make(&s, p))
		return -1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"DejaVu Sans, sans-serif\">\n<defs><marker "
		"id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" "
		"markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path "
		"d=\"M0 0L10 5L0 10z\" fill=\"" FTSW_PIC_MARK "\"/></marker>"
		"</defs>\n<style>.s{fill:#e9edf5;stroke:#4a5468}.h{fill:#fff;"
		"stroke:#777}.sl{font-size:10px;text-anchor:middle}"
		".hl{font-size:8px;text-anchor:middle;fill:#444}"
		".n{font-size:9px;text-anchor:middle;paint-order:stroke;"
		"stroke:#fff;stroke-width:3px}.lg{font-size:12px}"
		".m{fill:none;stroke:" FTSW_PIC_MARK ";stroke-width:3;"
		"stroke-opacity:0.85;marker-end:url(#arrow)}.nh{marker-end:none}"
		".w{font-size:8px;fill:#666;text-anchor:middle}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		s.w, s.h, s.w, s.h);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\">", MARGIN);
	svg_text_esc(f, p->title ? p->title : "fabric");
	fprintf(f, "</text>\n");
	svg_legend(f, &s);
	svg_cables(f, &s);
	svg_marks(f, &s);
	svg_nodes(f, &s);
	fprintf(f, "</svg>\n");
	ftsw_layout_free(&s.l);
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ DOT */

static void dot_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

static void dot_legend(FILE *f, const struct scene *s)
{
	char col[16], num[32];
	int k;

	fprintf(f, "  legend [shape=plaintext, fixedsize=false, fontsize=11, "
		"pos=\"%d,%.0f!\", label=<<table border=\"0\" cellspacing=\"3\">"
		"<tr><td>load", MARGIN + 320, s->h - 52);
	if (s->p->unit) {
		fprintf(f, " (");
		dot_esc(f, s->p->unit);
		fprintf(f, ")");
	}
	fprintf(f, "</td>");
	for (k = 0; k <= 4; k++) {
		ftsw_pic_colour(k ? k / 4.0 : 1e-9, col, sizeof(col));
		fmt_load(s->top * k / 4, num, sizeof(num));
		fprintf(f, "<td bgcolor=\"%s\" width=\"24\"> </td><td>%s</td>",
			col, num);
	}
	fprintf(f, "<td bgcolor=\"" FTSW_PIC_IDLE "\" width=\"24\"> </td>"
		"<td>idle</td>%s</tr><tr><td colspan=\"%d\">each half of a "
		"cable: what the node at that end sends</td></tr></table>>];\n",
		s->p->down ? "<td bgcolor=\"" FTSW_PIC_DOWN "\" width=\"24\"> "
		"</td><td>down</td>" : "", s->p->down ? 15 : 13);
}

/* One half of cable v:q as an edge from v to the stub's end node. */
static void dot_stub(FILE *f, const struct scene *s, uint32_t v, unsigned q,
		     const char *col, double w, bool down)
{
	const struct ftsw_port *x = ftsw_port(s->t, v, q);
	double ex, ey, a = ld(s, v, q);
	char nm[16], num[32];

	stub_end(s, v, x->peer, &ex, &ey);
	node_name(s->t, x->peer, nm, sizeof(nm));
	fmt_load(a, num, sizeof(num));
	fprintf(f, "  w%u_%u [shape=plaintext, fixedsize=false, fontsize=7, "
		"fontcolor=\"#666666\", label=\"%s\", pos=\"%.1f,%.1f!\"];\n"
		"  n%u -- w%u_%u [color=\"%s\", penwidth=%.2f%s%s%s%s];\n", v, q,
		nm, ex, s->h - ey, v, v, q, col, w,
		down ? ", style=dashed" : "", s->labels && a > 0 ?
		", taillabel=\"" : "", s->labels && a > 0 ? num : "",
		s->labels && a > 0 ? "\"" : "");
}

static void dot_cable(FILE *f, const struct scene *s, uint32_t v, unsigned q)
{
	const struct ftsw_port *x = ftsw_port(s->t, v, q);
	double a = ld(s, v, q), b = ld(s, x->peer, x->peer_port);
	double fa = s->top > 0 ? a / s->top : 0, fb = s->top > 0 ? b / s->top : 0;
	char ca[16], cb[16], na[32], nb[32];
	bool down = cable_down(s, v, q);

	ftsw_pic_colour(s->p->load ? fa : 0, ca, sizeof(ca));
	ftsw_pic_colour(s->p->load ? fb : 0, cb, sizeof(cb));
	if (ftsw_layout_bent(&s->l, v, x->peer)) {
		dot_stub(f, s, v, q, down ? FTSW_PIC_DOWN : ca,
			 ftsw_pic_width(fa), down);
		dot_stub(f, s, x->peer, x->peer_port, down ? FTSW_PIC_DOWN : cb,
			 ftsw_pic_width(fb), down);
		return;
	}
	fprintf(f, "  n%u -- n%u [color=\"%s;0.5:%s\", penwidth=%.2f%s", v,
		x->peer, down ? FTSW_PIC_DOWN : ca, down ? FTSW_PIC_DOWN : cb,
		ftsw_pic_width(fmax(fa, fb)), down ? ", style=dashed" : "");
	if (s->labels) {
		fmt_load(a, na, sizeof(na));
		fmt_load(b, nb, sizeof(nb));
		fprintf(f, ", taillabel=\"%s\", headlabel=\"%s\"",
			a > 0 ? na : "", b > 0 ? nb : "");
	}
	fprintf(f, "];\n");
}

int ftsw_picture_dot(const struct ftsw_picture *p, FILE *f)
{
	const struct ftsw_topo *t = p->t;
	struct scene s;
	uint32_t v, q;
	char nm[16];
	unsigned k;

	if (scene_make(&s, p))
		return -1;
	fprintf(f, "graph fabric {\n  graph [splines=line, outputorder=edgesfirst, "
		"bgcolor=white, labelloc=t, labeljust=l, fontsize=16, fontname="
		"\"DejaVu Sans\", label=\"");
	dot_esc(f, p->title ? p->title : "fabric");
	fprintf(f, "\"];\n  node [shape=box, style=\"rounded,filled\", fillcolor="
		"\"#e9edf5\", color=\"#4a5468\", fontsize=10, fontname=\"DejaVu "
		"Sans\", width=0.47, height=0.25, fixedsize=true];\n  edge "
		"[labelfontsize=8, labeldistance=2.2, fontname=\"DejaVu Sans\"];\n");
	for (v = 0; v < t->nnodes; v++) {
		bool host = t->nodes[v].kind != FTSW_SWITCH;

		if (!drawn(&s, v))
			continue;
		node_name(t, v, nm, sizeof(nm));
		/* Graphviz's y grows upwards */
		fprintf(f, "  n%u [%s=\"%s\", pos=\"%.1f,%.1f!\"%s, tooltip=\"", v,
			host ? "xlabel" : "label", nm, X(&s, v), s.h - Y(&s, v),
			host ? ", label=\"\", shape=circle, width=0.14, "
			"height=0.14, fontsize=7, fillcolor=white" : "");
		dot_esc(f, t->nodes[v].desc);
		fprintf(f, "\"];\n");
	}
	for (v = 0; v < t->nnodes; v++)
		for (q = 1; q <= t->nodes[v].nports; q++) {
			const struct ftsw_port *x = ftsw_port(t, v, q);

			if (x->peer == FTSW_NONE || x->peer < v ||
			    (x->peer == v && x->peer_port < q) ||
			    !drawn(&s, v) || !drawn(&s, x->peer))
				continue;
			dot_cable(f, &s, v, q);
		}
	for (k = 0; k < p->nmarks; k++) {
		const struct ftsw_pic_mark *m = &p->marks[k];
		uint32_t w;

		if (m->node >= t->nnodes || !m->port ||
		    m->port > t->nodes[m->node].nports)
			continue;
		w = ftsw_port(t, m->node, m->port)->peer;
		if (w == FTSW_NONE || !drawn(&s, m->node) || !drawn(&s, w))
			continue;
		if (ftsw_layout_bent(&s.l, m->node, w))
			fprintf(f, "  n%u -- w%u_%u [dir=forward, color=\""
				FTSW_PIC_MARK "\", penwidth=3, arrowsize=0.8];\n",
				m->node, m->node, m->port);
		else
			fprintf(f, "  n%u -- n%u [dir=forward, color=\""
				FTSW_PIC_MARK "\", penwidth=3, arrowsize=0.8];\n",
				m->node, w);
	}
	if (p->load)
		dot_legend(f, &s);
	fprintf(f, "}\n");
	ftsw_layout_free(&s.l);
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ files */

static int svg_writer(const void *obj, FILE *f)
{
	return ftsw_picture_svg(obj, f);
}

static int dot_writer(const void *obj, FILE *f)
{
	return ftsw_picture_dot(obj, f);
}

/* Graphviz draws the pinned DOT (neato -n2) into out, atomically. */
static int render(const char *dot, const char *out, const char *ext,
		  struct ftsw_err *err)
{
	char fmt[16], *tmp = NULL;
	pid_t pid;
	int st = 0;

	snprintf(fmt, sizeof(fmt), "-T%s", ext + 1);
	if (asprintf(&tmp, "%s.tmp%d", out, (int)getpid()) < 0) {
		ftsw_err_errno(err, ENOMEM, "%s: out of memory", out);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		ftsw_err_errno(err, errno, "fork: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	if (pid == 0) {
		execlp("neato", "neato", "-n2", fmt, "-o", tmp, dot,
		       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) ||
	    rename(tmp, out)) {
		ftsw_err_set(err, "%s: Graphviz (neato) failed%s", out,
			     WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			     " (install graphviz: apt-get install graphviz)" :
			     "");
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int ftsw_picture_write(const struct ftsw_picture *p, const char *dot_path,
		       const char *picture, struct ftsw_err *err)
{
	const char *ext = picture ? strrchr(picture, '.') : NULL;
	char *tmpdot = NULL;
	int rc;

	if (picture && (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png") &&
				 strcmp(ext, ".pdf")))) {
		ftsw_err_set(err, "%s: picture name must end in .svg, .png or "
			     ".pdf", picture);
		return -1;
	}
	if (dot_path && ftsw_write_path(dot_path, dot_writer, p, err))
		return -1;
	if (!picture)
		return 0;
	if (!strcmp(ext, ".svg"))
		return ftsw_write_path(picture, svg_writer, p, err) ? -1 : 0;
	if (!dot_path) {
		if (asprintf(&tmpdot, "%s.dot", picture) < 0) {
			ftsw_err_errno(err, ENOMEM, "out of memory");
			return -1;
		}
		if (ftsw_write_path(tmpdot, dot_writer, p, err)) {
			free(tmpdot);
			return -1;
		}
	}
	rc = render(dot_path ? dot_path : tmpdot, picture, ext, err);
	if (tmpdot)
		unlink(tmpdot);
	free(tmpdot);
	return rc;
}
