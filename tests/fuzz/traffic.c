// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: traffic files (file:PATH patterns) for 16 ranks. */
#include <math.h>

#include "fuzz.h"
#include "analyze/analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_pattern p;
	struct ftsw_err err;
	char path[64], spec[80];
	unsigned i, k;
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	snprintf(spec, sizeof(spec), "file:%s", path);
	if (!ftsw_pattern_make(spec, 16, NULL, &p, &err)) {
		for (i = 0; i < p.nstages; i++)
			for (k = 0; k < p.stages[i].nflows; k++) {
				FUZZ_ASSERT(p.stages[i].f[k].src < 16);
				FUZZ_ASSERT(p.stages[i].f[k].dst < 16);
				FUZZ_ASSERT(isfinite(p.stages[i].f[k].amount) &&
					    p.stages[i].f[k].amount >= 0);
			}
		ftsw_pattern_free(&p);
	} else {
		FUZZ_ASSERT(strstr(err.msg, path));
	}
	close(fd);
	return 0;
}
