// SPDX-License-Identifier: GPL-2.0
/*
 * Random switch topologies for the virtual-layer experiments of paper 001
 * (Fig. 9: 128 switches of 32 ports, 16 hosts each, a varying number of
 * random switch-to-switch links).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "topo/topology.h"

/* A cable between the next free switch ports of switches a and b. */
static int cable(struct ftsw_topo *t, const uint32_t *sw, unsigned *used,
		 unsigned hosts_per_sw, unsigned a, unsigned b,
		 struct ftsw_err *err)
{
	if (ftsw_topo_connect(t, sw[a], hosts_per_sw + used[a] + 1,
			      sw[b], hosts_per_sw + used[b] + 1, err))
		return -1;
	used[a]++;
	used[b]++;
	return 0;
}

struct ftsw_topo *ftsw_topo_gen_random(unsigned nsw, unsigned ports,
				       unsigned hosts_per_sw, unsigned links,
				       uint64_t seed, struct ftsw_err *err)
{
	struct ftsw_topo *t;
	uint32_t *sw = NULL, *cand = NULL;
	unsigned *used = NULL, i, j, made = 0, free_ports, tries = 0;
	uint64_t st = seed * 0x9e3779b97f4a7c15ULL + 1;
	char desc[64];

	if (nsw < 2 || !ports || ports > FTSW_TOPO_MAX_PORTS ||
	    hosts_per_sw >= ports) {
		ftsw_err_set(err, "random topology: %u switches of %u ports with "
			     "%u hosts each leave no switch ports (need 2+ "
			     "switches, hosts < ports <= %d)", nsw, ports,
			     hosts_per_sw, FTSW_TOPO_MAX_PORTS);
		return NULL;
	}
	if ((uint64_t)nsw * (hosts_per_sw + 1) > FTSW_GEN_MAX_NODES ||
	    (uint64_t)nsw * (ports + hosts_per_sw) > FTSW_GEN_MAX_PORTS) {
		ftsw_err_errno(err, ERANGE,
			       "random topology: %llu nodes and %llu ports, "
			       "beyond the generators' limit of %u nodes and "
			       "%u ports (about 1 GB)",
			       (unsigned long long)nsw * (hosts_per_sw + 1),
			       (unsigned long long)nsw * (ports + hosts_per_sw),
			       FTSW_GEN_MAX_NODES, FTSW_GEN_MAX_PORTS);
		return NULL;
	}
	free_ports = ports - hosts_per_sw;
	if (links < nsw - 1 || (uint64_t)links * 2 > (uint64_t)nsw * free_ports) {
		ftsw_err_set(err, "random topology: %u links impossible: %u..%llu "
			     "for %u switches with %u free ports each", links,
			     nsw - 1, (unsigned long long)nsw * free_ports / 2,
			     nsw, free_ports);
		return NULL;
	}
	t = ftsw_topo_new();
	sw = malloc(nsw * sizeof(uint32_t));
	used = calloc(nsw, sizeof(unsigned));
	cand = malloc(nsw * sizeof(uint32_t));
	if (!t || !sw || !used || !cand) {
		ftsw_err_errno(err, ENOMEM, "random topology: out of memory");
		goto fail;
	}
	for (i = 0; i < nsw; i++) {
		snprintf(desc, sizeof(desc), "R%u", i);
		sw[i] = ftsw_topo_add_node(t, FTSW_SWITCH, ports,
					   FTSW_GEN_GUID(1, i), desc, err);
		if (sw[i] == FTSW_NONE)
			goto fail;
	}
	for (i = 0; i < nsw; i++)
		for (j = 0; j < hosts_per_sw; j++) {
			uint32_t hn;

			snprintf(desc, sizeof(desc), "H%u", i * hosts_per_sw + j);
			hn = ftsw_topo_add_node(t, FTSW_HOST, 1,
						FTSW_GEN_GUID(0, i * hosts_per_sw + j),
						desc, err);
			if (hn == FTSW_NONE ||
			    ftsw_topo_connect(t, sw[i], j + 1, hn, 1, err))
				goto fail;
		}
	/* random spanning tree: switch i to a random earlier one with room */
	for (i = 1; i < nsw; i++) {
		unsigned nc = 0, a;

		for (j = 0; j < i; j++)
			if (used[j] < free_ports)
				cand[nc++] = j;
		if (!nc) {
			ftsw_err_set(err, "random topology: no free port for the "
				     "spanning tree (switch R%u)", i);
			goto fail;
		}
		a = cand[ftsw_rand_next(&st) % nc];
		if (cable(t, sw, used, hosts_per_sw, i, a, err))
			goto fail;
		made++;
	}
	while (made < links) {
		unsigned a = (unsigned)(ftsw_rand_next(&st) % nsw);
		unsigned b = (unsigned)(ftsw_rand_next(&st) % nsw);

		if (++tries > 100u * links + 100000u) {
			ftsw_err_set(err, "random topology: could not place %u "
				     "links (placed %u); use fewer", links, made);
			goto fail;
		}
		if (a == b || used[a] >= free_ports || used[b] >= free_ports)
			continue;
		if (cable(t, sw, used, hosts_per_sw, a, b, err))
			goto fail;
		made++;
	}
	if (ftsw_topo_finish(t, err))
		goto fail;
	snprintf(t->spec, sizeof(t->spec), "random:%u,%u,%u,%u,%llu", nsw,
		 ports, hosts_per_sw, links, (unsigned long long)seed);
	free(sw);
	free(used);
	free(cand);
	return t;
fail:
	free(sw);
	free(used);
	free(cand);
	ftsw_topo_free(t);
	return NULL;
}
