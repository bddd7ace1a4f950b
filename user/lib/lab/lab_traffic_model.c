// SPDX-License-Identifier: GPL-2.0
/* libftsw lab traffic: the model's inputs (pattern, order, paths). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "analyze/analyze.h"
#include "util/output.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "lab/lab_traffic_int.h"

/*
 * The analyzer's specs for the lab's names: all2all and cps are the shift
 * sequence (one stage per shift 1..N-1); a random pattern or order that
 * names no seed gets --seed's.
 */
void lab_tr_pattern_spec(const char *p, uint64_t seed, char *buf, size_t sz)
{
	const char *c = strchr(p, ':');

	if (!strcmp(p, "all2all") || !strcmp(p, "cps"))
		snprintf(buf, sz, "shift");
	else if (!strcmp(p, "perm") || !strcmp(p, "bisect"))
		snprintf(buf, sz, "%s:%" PRIu64, p, seed);
	else if ((!strncmp(p, "uniform:", 8) || !strncmp(p, "cluster:", 8)) &&
		 !strchr(c + 1, ':'))
		snprintf(buf, sz, "%s:%" PRIu64, p, seed);
	else
		snprintf(buf, sz, "%s", p);
}

void lab_tr_order_spec(const char *o, uint64_t seed, char *buf, size_t sz)
{
	if (!strcmp(o, "random") || !strcmp(o, "shuffle") ||
	    !strcmp(o, "contig-random"))
		snprintf(buf, sz, "%s:%" PRIu64, o, seed);
	else
		snprintf(buf, sz, "%s", o);
}

struct olist_arg {
	struct ftsw_offset_list *l;
	const struct ftsw_topo *t;
	uint32_t nhosts;
};

static int olist_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct olist_arg *a = arg;
	int64_t h = lab_edge_host(a->t, pi);

	if (h < 0 || h >= a->nhosts)
		return 0;
	a->l[h].n = pi->n_offsets < sizeof(a->l[h].off) ? pi->n_offsets :
		    (uint8_t)sizeof(a->l[h].off);
	memcpy(a->l[h].off, pi->offsets, a->l[h].n);
	return 0;
}

/*
 * Each source's offset list as its edge port holds it; r's policies made
 * to agree (allowed offsets, the one offset when there is one), so that
 * per-flow traces use the kernel's offsets too. *multipath: some source
 * spreads its flows over several offsets (by flow hash).
 */
int lab_tr_read_offset_lists(struct ftsw_lab *lab, struct ftsw_routing *r,
			     struct ftsw_offset_list *l, bool *multipath,
			     struct ftsw_err *err)
{
	struct olist_arg a = { .l = l, .t = lab->topo, .nhosts = r->nhosts };
	uint32_t h;

	if (ftsw_nl_port_dump(lab->nl, -1, olist_cb, &a)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "lab %s: port dump: %s", lab->name,
			       ftsw_nl_error(lab->nl));
		return -1;
	}
	*multipath = false;
	for (h = 0; h < r->nhosts; h++) {
		uint8_t off[128];
		double w[128];
		unsigned k, n = ftsw_offsets_weighted(&l[h], r->lmc, off, w);
		struct ftsw_path_policy *pol = &r->policy[h];

		if (!n)
			continue;	/* no edge port: the model says so */
		pol->allowed[0] = pol->allowed[1] = 0;
		for (k = 0; k < n; k++)
			pol->allowed[off[k] / 64] |= 1ULL << (off[k] % 64);
		pol->fixed_offset = n == 1 ? off[0] : FTSW_OFFSET_ANY;
		*multipath |= n > 1;
	}
	return 0;
}

/* Is port p of switch sw cabled to a switch (shaped by lab up --rate)? */
static bool is_link_port(const struct ftsw_topo *t, uint32_t sw, unsigned p)
{
	uint32_t node = t->switches[sw];
	const struct ftsw_port *x;

	if (!p || p > t->nodes[node].nports)
		return false;
	x = ftsw_port(t, node, p);
	return x->peer != FTSW_NONE && t->nodes[x->peer].kind == FTSW_SWITCH;
}

/*
 * Per flow, from the analyzer's trace of its path: the most flows on a
 * shaped (switch-to-switch) link of it, or with edges on any rated port of
 * it (a lossless lab: the delivering edge port too), and whether it
 * crosses the cable fail_a - fail_b (a, b: nodes, FTSW_NONE when no
 * failure is planned).
 */
void lab_tr_flow_paths(const struct ftsw_routing *r,
		       const struct ftsw_offset_list *lists, const double *flows,
		       struct lflow *fl, uint32_t nf, uint32_t a, uint32_t b,
		       bool edges, struct ftsw_path *p)
{
	const struct ftsw_topo *t = r->topo;
	uint32_t f;

	for (f = 0; f < nf; f++) {
		uint8_t off[128];
		double w[128];
		unsigned n = ftsw_offsets_weighted(&lists[fl[f].src], r->lmc,
						   off, w), k, i;

		fl[f].share = 0;
		fl[f].hot_sw = 0;
		fl[f].hot_port = 0;
		fl[f].affected = false;
		if (n > 1)
			fl[f].share = -1;
		for (k = 0; k < n; k++) {
			uint32_t hn = t->hosts[fl[f].src];

			if (ftsw_trace_path(r, fl[f].src, fl[f].dst, off[k], 0, p))
				continue;
			/* the source's own cable: host -> leaf */
			if ((hn == a && t->switches[p->hops[0].sw] == b) ||
			    (hn == b && t->switches[p->hops[0].sw] == a))
				fl[f].affected = true;
			for (i = 0; i < p->nhops; i++) {
				uint32_t sw = p->hops[i].sw;
				uint32_t node = t->switches[sw], peer;
				unsigned port = p->hops[i].port;
				double v;

				if (!port || port > t->nodes[node].nports)
					continue;
				peer = ftsw_port(t, node, port)->peer;
				if ((node == a && peer == b) ||
				    (node == b && peer == a))
					fl[f].affected = true;
				if (!edges && !is_link_port(t, sw, port))
					continue;
				v = flows[ftsw_link_id(t, node, port)];
				if (n == 1 && v > fl[f].share) {
					fl[f].share = v;
					fl[f].hot_sw = sw;
					fl[f].hot_port = port;
				}
			}
		}
	}
}
