// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the OpenSM LFT dump reader against a fixed fabric
 * (PGFT(2;4,4;1,2;1,1): 16 hosts, 6 switches), and the round trip read ->
 * write -> read (the same tables).
 */
#include "fuzz.h"
#include "route/routing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_topo *topo = fuzz_fabric("pgft:2;4,4;1,2;1,1");
	struct ftsw_routing *r, *u;
	struct ftsw_err err;
	char path[64], path2[64];
	char *buf = NULL;
	size_t n = 0;
	int fd, fd2;
	uint32_t s;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	r = ftsw_lfts_read(topo, path, 0, false, &err);
	close(fd);
	if (!r)
		return 0;
	FUZZ_WRITTEN(buf, n, ftsw_lfts_write_file, r);
	fd2 = fuzz_file((const uint8_t *)buf, n, path2, sizeof(path2));
	FUZZ_ASSERT(fd2 >= 0);
	u = ftsw_lfts_read(topo, path2, 0, false, &err);
	close(fd2);
	if (!u)
		fprintf(stderr, "rewritten dump refused: %s\n", err.msg);
	FUZZ_ASSERT(u);
	FUZZ_ASSERT(u->lmc == r->lmc && u->max_lid == r->max_lid);
	for (s = 0; s < r->nswitches; s++)
		FUZZ_ASSERT(!memcmp(ftsw_lft(r, s), ftsw_lft(u, s), r->lft_size));
	free(buf);
	ftsw_routing_free(u);
	ftsw_routing_free(r);
	return 0;
}
