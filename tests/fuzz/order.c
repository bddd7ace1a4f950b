// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: order files (file:PATH) on kary:4,2 (16 hosts), 8 ranks:
 * an accepted order is 8 distinct hosts.
 */
#include "fuzz.h"
#include "analyze/analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_topo *topo = fuzz_fabric("kary:4,2");
	struct ftsw_err err;
	char path[64], spec[80];
	uint32_t o[8], i, j;
	int fd;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	snprintf(spec, sizeof(spec), "file:%s", path);
	if (!ftsw_order_make(spec, topo, 8, o, &err)) {
		for (i = 0; i < 8; i++) {
			FUZZ_ASSERT(o[i] < topo->nhosts);
			for (j = 0; j < i; j++)
				FUZZ_ASSERT(o[i] != o[j]);
		}
	} else {
		FUZZ_ASSERT(strstr(err.msg, path));
	}
	close(fd);
	return 0;
}
