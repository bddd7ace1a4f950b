// SPDX-License-Identifier: GPL-2.0
/*
 * Per-flow throughput of a simulated point (sim.h): what each destination
 * host received in the measured window, read from the link into it. A
 * destination with one source in the traffic (a permutation's flows, a
 * victim flow beside a hot spot) is that flow's own throughput; one with
 * several sources is their sum, named as such.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim_int.h"

/* Flits per cycle of the window into host h (its switch's port to it). */
static double into_host(const struct ftsw_topo *t,
			const struct ftsw_sim_result *x, uint32_t h)
{
	uint32_t hn = t->hosts[h], sw, rec;
	unsigned hp = ftsw_host_port(t, hn), v;
	const struct ftsw_port *p;
	uint64_t f = 0;

	if (!hp || !x->window || !x->link_flits)
		return 0;
	p = ftsw_port(t, hn, hp);
	sw = p->peer;
	rec = t->nodes[sw].first_port + p->peer_port - 1;
	if (rec >= x->nports)
		return 0;
	for (v = 0; v < x->vls; v++)
		f += x->link_flits[(size_t)rec * x->vls + v];
	return (double)f / x->window;
}

/* Flows with one source by source, then destinations with several. */
static int flow_cmp(const void *a, const void *b)
{
	const struct ftsw_sim_flow *x = a, *y = b;
	uint64_t kx = x->src != FTSW_NONE ? x->src : (1ULL << 32) + x->dst;
	uint64_t ky = y->src != FTSW_NONE ? y->src : (1ULL << 32) + y->dst;

	return kx < ky ? -1 : kx > ky;
}

int ftsw_sim_flows(const struct ftsw_topo *t,
		   const struct ftsw_sim_traffic *tr,
		   const struct ftsw_sim_result *x, struct ftsw_sim_flow **out,
		   size_t *n, struct ftsw_err *err)
{
	uint32_t nh = t->nhosts, h, d;
	uint32_t *first = malloc(((size_t)nh + 1) * sizeof(uint32_t));
	uint32_t *last = malloc(((size_t)nh + 1) * sizeof(uint32_t));
	uint32_t *srcs = calloc((size_t)nh + 1, sizeof(uint32_t));
	struct ftsw_sim_flow *f = NULL;
	size_t k = 0, i;

	*out = NULL;
	*n = 0;
	if (!first || !last || !srcs)
		goto oom;
	for (d = 0; d < nh; d++)
		first[d] = last[d] = FTSW_NONE;
	for (h = 0; h < nh; h++) {
		if (tr->uniform) {
			for (d = 0; d < nh; d++)
				if (d != h) {
					srcs[d]++;
					if (first[d] == FTSW_NONE)
						first[d] = h;
				}
			continue;
		}
		for (i = tr->start[h]; i < tr->start[h + 1]; i++) {
			d = tr->dst[i];
			if (d >= nh || last[d] == h)
				continue;
			last[d] = h;
			if (!srcs[d]++)
				first[d] = h;
		}
	}
	f = calloc((size_t)nh + 1, sizeof(*f));
	if (!f)
		goto oom;
	for (d = 0; d < nh; d++) {
		if (!srcs[d])
			continue;
		f[k].dst = d;
		f[k].sources = srcs[d];
		f[k].src = srcs[d] == 1 ? first[d] : FTSW_NONE;
		f[k].accepted = into_host(t, x, d);
		k++;
	}
	qsort(f, k, sizeof(*f), flow_cmp);
	free(first);
	free(last);
	free(srcs);
	*out = f;
	*n = k;
	return 0;
oom:
	free(first);
	free(last);
	free(srcs);
	ftsw_err_errno(err, ENOMEM, "sim: flows: out of memory");
	return -ENOMEM;
}
