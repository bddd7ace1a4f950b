// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the adaptive routing groups reader (ftsw_ar_read) against
 * a fixed fabric and its d-mod-k tables (PGFT(2;4,4;1,2;1,1): 16 hosts,
 * 6 switches), then the checker over every path the groups allow, and the
 * round trip read -> write -> read (the same groups).
 */
#include "fuzz.h"
#include "route/routing.h"

static struct ftsw_routing *tables(struct ftsw_topo *t)
{
	struct ftsw_route_opts o = { .threads = 1 };
	struct ftsw_err err;
	struct ftsw_routing *r = ftsw_route("dmodk", t, &o, &err);

	FUZZ_ASSERT(r);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_topo *t = fuzz_fabric("pgft:2;4,4;1,2;1,1");
	struct ftsw_routing *r = tables(t), *u = tables(t);
	struct ftsw_check_opts co = { .cdg = true, .threads = 1 };
	struct ftsw_check_result res;
	struct ftsw_err err;
	char path[64], path2[64], *buf = NULL;
	size_t n = 0;
	uint32_t s, lid;
	int fd, fd2;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		goto out;
	if (ftsw_ar_read(r, path, &err)) {
		close(fd);
		goto out;
	}
	close(fd);
	FUZZ_ASSERT(!ftsw_routing_check(r, &co, &res, &err));
	ftsw_check_result_free(&res);
	FUZZ_WRITTEN(buf, n, ftsw_ar_write_file, r);
	fd2 = fuzz_file((const uint8_t *)buf, n, path2, sizeof(path2));
	FUZZ_ASSERT(fd2 >= 0);
	if (ftsw_ar_read(u, path2, &err))
		fprintf(stderr, "rewritten groups refused: %s\n", err.msg);
	FUZZ_ASSERT(!ftsw_ar_read(u, path2, &err));
	close(fd2);
	for (s = 0; s < r->nswitches; s++)
		for (lid = 1; lid <= r->max_lid; lid++) {
			uint8_t a[255], b[255];
			unsigned na = ftsw_ar_ports(r, s, lid, a);

			FUZZ_ASSERT(na == ftsw_ar_ports(u, s, lid, b));
			FUZZ_ASSERT(!memcmp(a, b, na));
		}
	free(buf);
out:
	ftsw_routing_free(r);
	ftsw_routing_free(u);
	return 0;
}
