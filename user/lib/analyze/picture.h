/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw pictures of a fabric: one layout and one drawing for every
 * picture ftsw makes (analyze --picture/--dot, sim --picture, lab traffic
 * --svg) and for the live view (lab view, view/), so that a fabric looks
 * the same wherever it is drawn (Documentation/analysis.md, "Pictures").
 *
 * The layout places every node:
 *   - a tree (every cable between switches joins two levels): levels
 *     bottom-up, hosts at the bottom, each level in a stable order, by
 *     subtree (the parts the top level's switches join) then by index;
 *   - a torus or a mesh (-t torus:K1,K2..., mesh:...): its grid, a ring of
 *     one dimension as a circle, dimensions past two as a row of grids;
 *   - anything else: once by Graphviz (neato), a circle without it.
 * The drawing colours and widens each half of a cable by what the node at
 * that end sends (its directed link's load), with the number beside it,
 * a legend, failed cables dashed and marked links (a deadlock cycle, a
 * path) drawn over the rest.
 */
#ifndef LIBFTSW_ANALYZE_PICTURE_H
#define LIBFTSW_ANALYZE_PICTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topo/topology.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

enum ftsw_layout_kind {
	FTSW_LAYOUT_LEVELS,	/* a tree by levels */
	FTSW_LAYOUT_GRID,	/* a torus or mesh of 2+ dimensions */
	FTSW_LAYOUT_RING,	/* a torus or mesh of one dimension */
	FTSW_LAYOUT_GRAPHVIZ,	/* neato's (or a circle without Graphviz) */
};

/* Node spacing of the layouts, in drawing units (SVG pixels). */
#define FTSW_LAYOUT_HOST_STEP	18
#define FTSW_LAYOUT_SW_STEP	44
#define FTSW_LAYOUT_LEVEL_STEP	110
#define FTSW_LAYOUT_GRID_STEP	120

struct ftsw_layout {
	enum ftsw_layout_kind kind;
	uint32_t nnodes;
	double *x, *y;		/* per node id: its centre */
	int *level;		/* per node id: 0 hosts, 1 leaves... (-1 none) */
	uint32_t *group;	/* per node id: subtree or grid slice
				 * (FTSW_NONE: the top level) */
	uint32_t ngroups;
	int nlevels;		/* levels of switches */
	bool hosts;		/* hosts have room of their own; else each
				 * sits under its switch */
	double width, height;	/* the nodes' extent from (0, 0) */
};

/*
 * Lay t out. spec: the generator spec the fabric came from, if known (a
 * lab's -t), for tori and meshes; NULL: t->spec. hosts: give hosts room of
 * their own (else they sit under their switch, for big fabrics). 0, or -1
 * with err (out of memory).
 */
int ftsw_layout_make(const struct ftsw_topo *t, const char *spec, bool hosts,
		     struct ftsw_layout *l, struct ftsw_err *err);
void ftsw_layout_free(struct ftsw_layout *l);
/* "levels", "grid", "ring" or "graphviz". */
const char *ftsw_layout_kind_name(enum ftsw_layout_kind k);
/* Whether the cable a-b is drawn bent (a torus's wrap-around cable). */
bool ftsw_layout_bent(const struct ftsw_layout *l, uint32_t a, uint32_t b);

/*
 * The colour scale of every picture and of the view's page: f in 0..1 of
 * the scale's top, green (idle) through yellow to red, as "hsl(H,S%,L%)";
 * a width in pixels. FTSW_PIC_IDLE: a cable that carried nothing.
 */
#define FTSW_PIC_IDLE	"#c4c4c4"
#define FTSW_PIC_DOWN	"#d02020"
#define FTSW_PIC_MARK	"#1a1aa0"
void ftsw_pic_colour(double f, char *buf, size_t sz);
double ftsw_pic_width(double f);

/* A directed link drawn over the rest (a cycle's or a path's). */
struct ftsw_pic_mark {
	uint32_t node;		/* topology node that sends */
	unsigned port;
};

struct ftsw_picture {
	const struct ftsw_topo *t;
	const char *spec;	/* for the layout (NULL: t->spec) */
	const char *title;
	/* per directed link (analyze.h's link id: what that port sends) */
	const double *load;	/* NULL: no loads */
	double max;		/* the scale's top (0: the largest load) */
	const char *unit;	/* what a load counts ("flows", "packets") */
	const bool *down;	/* per link id: the cable is down (NULL) */
	int hosts;		/* -1: when 256 hosts or fewer; 0; 1 */
	int labels;		/* numbers on the cables: -1 when at most
				 * 400 cables are drawn; 0; 1 */
	const struct ftsw_pic_mark *marks;
	unsigned nmarks;
	const char *marks_label;	/* the legend's word for them */
};

/* The picture as SVG, or as DOT whose nodes are pinned where the SVG has
 * them (neato -n2 draws it). 0, or -1 (out of memory, write error). */
int ftsw_picture_svg(const struct ftsw_picture *p, FILE *f);
int ftsw_picture_dot(const struct ftsw_picture *p, FILE *f);
/*
 * The picture options --dot FILE and --picture F.svg|.png|.pdf: the DOT
 * written to dot_path when given; the picture written by ftsw itself
 * (.svg) or rendered from the DOT by Graphviz (.png, .pdf). Files are
 * written atomically. 0, or -1 with err.
 */
int ftsw_picture_write(const struct ftsw_picture *p, const char *dot_path,
		       const char *picture, struct ftsw_err *err);

#pragma GCC visibility pop

#endif
