// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: topology spec strings (ftsw_topo_gen: the PGFT kinds, the
 * switch graphs of graphs.c and SPEC@E), and the round trip
 * generate -> net file -> read (the same fabric, PGFT coordinates found
 * again from the spec comment).
 */
#include "fuzz.h"
#include "topo/graphs.h"

/* Nodes of a PGFT spec (capped), or 0 when it does not parse. */
static uint64_t pgft_nodes(const char *spec)
{
	struct ftsw_pgft g;
	struct ftsw_err err;
	uint64_t nodes = 0;
	unsigned l;

	if (ftsw_pgft_parse(spec, &g, NULL, 0, &err) || g.h > FTSW_PGFT_MAX_H)
		return 0;
	for (l = 0; l <= g.h; l++) {
		double x = 1;
		unsigned i;

		for (i = 1; i <= g.h; i++)
			x *= i > l ? g.m[i - 1] : g.w[i - 1];
		nodes += x > 1e9 ? 1000000000 : (uint64_t)x;
	}
	return nodes;
}

/* Nodes of a switch-graph spec (torus .. random), roughly; 0 if bad. */
static uint64_t graph_nodes(const char *spec)
{
	struct ftsw_err err;
	struct ftsw_grid g;
	struct ftsw_kautz k;
	struct ftsw_dragonfly df;
	struct ftsw_gspec s;

	if (!ftsw_grid_parse(spec, &g, &err))
		return (uint64_t)g.nsw * (g.hosts + 1);
	if (!ftsw_kautz_parse(spec, &k, &err))
		return (uint64_t)k.nsw + k.endpoints;
	if (!ftsw_dragonfly_parse(spec, &df, &err))
		return (uint64_t)df.a * df.g * (df.p + 1);
	if (!ftsw_gspec_parse(spec, &s, &err) && !strcmp(s.kind, "random") &&
	    s.nval == 5)
		return (uint64_t)s.val[0] * (s.val[2] + 1) + s.val[3];
	return 0;
}

/* Too large to fuzz quickly: the generators' size limits' business. */
static bool too_big(const char *spec)
{
	const char *at = strrchr(spec, '@');
	uint64_t nodes;

	if (at) {
		char base[210];
		size_t n = (size_t)(at - spec);

		memcpy(base, spec, n);
		base[n] = 0;
		nodes = pgft_nodes(base) + strtoull(at + 1, NULL, 10);
	} else if (ftsw_graph_kind(spec)) {
		nodes = graph_nodes(spec);
	} else {
		nodes = pgft_nodes(spec);
	}
	return nodes > 3000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_str(data, size > 200 ? 200 : size);
	struct ftsw_topo *t, *u;
	struct ftsw_err err;
	char *buf = NULL;
	size_t n = 0;
	FILE *m;

	if (!spec)
		return 0;
	/* large fabrics are the generator's size limit's business, not ours */
	if (too_big(spec)) {
		free(spec);
		return 0;
	}
	t = ftsw_topo_gen(spec, &err);
	free(spec);
	if (!t)
		return 0;
	FUZZ_WRITTEN(buf, n, ftsw_net_write_file, t);
	m = fmemopen(buf, n, "r");
	FUZZ_ASSERT(m);
	u = ftsw_net_read_file(m, "gen.net", &err);
	fclose(m);
	if (!u)
		fprintf(stderr, "generated fabric refused: %s\n", err.msg);
	FUZZ_ASSERT(u);
	FUZZ_ASSERT(u->nnodes == t->nnodes && u->nhosts == t->nhosts);
	FUZZ_ASSERT(ftsw_topo_nlinks(u) == ftsw_topo_nlinks(t));
	FUZZ_ASSERT(u->is_pgft == t->is_pgft);
	free(buf);
	ftsw_topo_free(u);
	ftsw_topo_free(t);
	return 0;
}
