// SPDX-License-Identifier: GPL-2.0
/*
 * `lab waits` (Documentation/lab.md, "Lossless mode"): the kernel tells,
 * per switch input buffer (port, VL), whether its head packet waits for an
 * output (port, VL) and whether the buffer is full; the cycles among the
 * waiting buffers (lab_cycles.c) are checked against the CDG of the tables
 * read back, with the lab's engine's SLs when its tables are the kernel's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "sim/sim.h"

struct waits_rd {
	struct ftsw_lab_waits *w;
	const struct ftsw_topo *t;
	uint64_t min_wait_ns;
	size_t cap;
};

static int waits_port_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct waits_rd *a = arg;
	struct ftsw_lab_waits *w = a->w;
	unsigned v;

	for (v = 0; v < FTSW_NUM_DATA_VL; v++) {
		const struct ftsw_vl_stats *x = &pi->ll.vl[v];
		struct ftsw_lab_buf *b;

		if (!pi->ll.has_vl || !x->present)
			continue;
		w->buffers++;
		w->hoq_discards += x->hoq_discards;
		w->life_discards += x->life_discards;
		if (!x->head_port || x->head_wait_ns < a->min_wait_ns ||
		    pi->switch_id >= a->t->nswitches)
			continue;
		if (w->nbufs == a->cap) {
			size_t cap = a->cap ? 2 * a->cap : 64;
			void *p = realloc(w->bufs, cap * sizeof(*w->bufs));

			if (!p)
				return -ENOMEM;
			w->bufs = p;
			a->cap = cap;
		}
		b = &w->bufs[w->nbufs++];
		ftsw_lab_buf_of(pi, v, b);
	}
	return 0;
}

/*
 * The lab's engine again (seed 1, lab up's default), to learn the SLs the
 * kernel does not echo: used when its tables are the kernel's.
 */
static void waits_sls(struct ftsw_lab *lab, struct ftsw_routing *r,
		      struct ftsw_lab_waits *w)
{
	struct ftsw_route_req q = { .engine = lab->engine, .lmc_given = true,
				    .o = { .lmc = lab->lmc, .seed = 1 } };
	struct ftsw_routing *e;
	struct ftsw_err err;
	uint32_t i;

	w->sls_known = false;
	if (!lab->engine[0] || strchr(lab->engine, ':'))
		return;
	e = ftsw_route_make(lab->topo, &q, &err);
	if (!e)
		return;
	if (e->lft_size == r->lft_size && e->lmc == r->lmc) {
		for (i = 0; i < r->topo->nswitches; i++)
			if (memcmp(ftsw_lft(e, i), ftsw_lft(r, i), r->lft_size))
				break;
		if (i == r->topo->nswitches) {
			free(r->sl);
			r->sl = e->sl;
			e->sl = NULL;
			r->nvls = e->nvls;
			w->sls_known = true;
		}
	}
	ftsw_routing_free(e);
}

int ftsw_lab_waits(struct ftsw_lab *lab, uint64_t min_wait_ns,
		   struct ftsw_lab_waits *w, struct ftsw_err *err)
{
	struct waits_rd a = { .w = w, .t = lab->topo,
			      .min_wait_ns = min_wait_ns };
	struct ftsw_routing *r;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = ftsw_nl_port_dump(lab->nl, -1, waits_port_cb, &a);
	if (rc) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl) ? : ENOMEM,
			       "lab %s: port dump: %s", lab->name,
			       rc == -ENOMEM ? "out of memory" :
			       ftsw_nl_error(lab->nl));
		ftsw_lab_waits_free(w);
		return -1;
	}
	if (ftsw_lab_wait_cycles(lab->topo, w->bufs, w->nbufs, &w->cycles,
				 err)) {
		ftsw_lab_waits_free(w);
		return -1;
	}
	if (!w->cycles.n)
		return 0;
	r = ftsw_lab_read_routing(lab, err);
	if (!r) {
		ftsw_lab_waits_free(w);
		return -1;
	}
	waits_sls(lab, r, w);
	ftsw_lab_cycles_check(r, &w->cycles, w->sls_known ? 0 : 1);
	ftsw_routing_free(r);
	return 0;
}

void ftsw_lab_waits_free(struct ftsw_lab_waits *w)
{
	free(w->bufs);
	ftsw_lab_cycles_free(&w->cycles);
	memset(w, 0, sizeof(*w));
}
