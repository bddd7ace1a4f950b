// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: pattern strings (ftsw analyze -p) for 2..33 ranks on a
 * PGFT (topo-recdbl needs one); file: patterns are the traffic target's.
 */
#include <math.h>

#include "fuzz.h"
#include "analyze/analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_topo *topo = fuzz_fabric("pgft:2;4,4;1,2;1,1");
	struct ftsw_pattern p;
	struct ftsw_err err;
	uint32_t n;
	unsigned i, k;
	char *spec;

	if (size < 1)
		return 0;
	n = 2 + data[0] % 32;
	spec = fuzz_str(data + 1, size - 1 > 120 ? 120 : size - 1);
	if (!spec || !strncmp(spec, "file", 4)) {
		free(spec);
		return 0;
	}
	if (!ftsw_pattern_make(spec, n, topo, &p, &err)) {
		for (i = 0; i < p.nstages; i++)
			for (k = 0; k < p.stages[i].nflows; k++) {
				FUZZ_ASSERT(p.stages[i].f[k].src < n);
				FUZZ_ASSERT(p.stages[i].f[k].dst < n);
				FUZZ_ASSERT(isfinite(p.stages[i].f[k].amount));
			}
		ftsw_pattern_free(&p);
	}
	free(spec);
	return 0;
}
