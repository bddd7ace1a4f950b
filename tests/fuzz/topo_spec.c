// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: topology spec strings (ftsw_topo_gen), and the round trip
 * generate -> net file -> read (the same fabric, PGFT coordinates found
 * again from the spec comment).
 */
#include "fuzz.h"
#include "topo/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_str(data, size > 200 ? 200 : size);
	struct ftsw_topo *t, *u;
	struct ftsw_pgft g;
	struct ftsw_err err;
	char *buf = NULL;
	size_t n = 0;
	uint64_t nodes = 0;
	unsigned l;
	FILE *m;

	if (!spec)
		return 0;
	/* large fabrics are the generator's size limit's business, not ours */
	if (!ftsw_pgft_parse(spec, &g, NULL, 0, &err) && g.h <= FTSW_PGFT_MAX_H) {
		for (l = 0; l <= g.h; l++) {
			double x = 1;
			unsigned i;

			for (i = 1; i <= g.h; i++)
				x *= i > l ? g.m[i - 1] : g.w[i - 1];
			nodes += x > 1e9 ? 1000000000 : (uint64_t)x;
		}
		if (nodes > 3000) {
			free(spec);
			return 0;
		}
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
