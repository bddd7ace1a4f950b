// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the net file reader, and the round trip read -> write ->
 * read -> write (both writes identical: the same fabric).
 */
#include "fuzz.h"
#include "topo/topology.h"

static char *net_text(const struct ftsw_topo *t, size_t *n)
{
	char *buf = NULL;

	FUZZ_WRITTEN(buf, *n, ftsw_net_write_file, t);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size ? size : 1, "r");
	struct ftsw_topo *t, *u;
	struct ftsw_err err;
	char *a, *b;
	size_t na, nb;

	if (!f)
		return 0;
	if (!size) {
		fclose(f);
		return 0;
	}
	t = ftsw_net_read_file(f, "fuzz.net", &err);
	fclose(f);
	if (!t) {
		FUZZ_ASSERT(!strncmp(err.msg, "fuzz.net", 8));
		return 0;
	}
	a = net_text(t, &na);
	f = fmemopen(a, na, "r");
	FUZZ_ASSERT(f);
	u = ftsw_net_read_file(f, "again.net", &err);
	fclose(f);
	if (!u) {
		fprintf(stderr, "rewrite refused: %s\n", err.msg);
		FUZZ_ASSERT(u);
	}
	FUZZ_ASSERT(u->nnodes == t->nnodes && u->nswitches == t->nswitches &&
		    u->nhosts == t->nhosts);
	FUZZ_ASSERT(ftsw_topo_nlinks(u) == ftsw_topo_nlinks(t));
	b = net_text(u, &nb);
	FUZZ_ASSERT(na == nb && !memcmp(a, b, na));
	free(a);
	free(b);
	ftsw_topo_free(u);
	ftsw_topo_free(t);
	return 0;
}
