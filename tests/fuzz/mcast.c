// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a lab host's /proc/net/igmp and igmp6 parser (lab/mcast.h)
 * on any text, the first byte choosing the format. Whatever parses is
 * bounded: at most the room given, every group multicast (224.0.0.0/4,
 * ff00::/8 but interface-local ff01::/16), no group twice; its MGID has
 * IPoIB's signature.
 */
#include "fuzz.h"
#include "lab/mcast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_mgroup g[LAB_MCAST_MAX_GROUPS];
	struct ftsw_err err;
	uint8_t mgid[16];
	size_t n, i, j;
	bool v6;

	if (!size)
		return 0;
	v6 = data[0] & 1;
	if (lab_mcast_parse((const char *)data + 1, size - 1, v6, "eth0", g,
			    LAB_MCAST_MAX_GROUPS, &n, &err) < 0) {
		FUZZ_ASSERT(err.msg[0]);
		return 0;
	}
	FUZZ_ASSERT(n <= LAB_MCAST_MAX_GROUPS);
	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(g[i].family == (v6 ? 6 : 4));
		if (v6)
			FUZZ_ASSERT(g[i].addr[0] == 0xff &&
				    (g[i].addr[1] & 0x0f) != 1);
		else
			FUZZ_ASSERT((g[i].addr[0] & 0xf0) == 0xe0);
		for (j = 0; j < i; j++)
			FUZZ_ASSERT(!lab_mgroup_eq(&g[i], &g[j]));
		lab_mcast_mgid(&g[i], 0x7fff, mgid);
		FUZZ_ASSERT(mgid[0] == 0xff && mgid[1] == 0x12 &&
			    mgid[2] == (v6 ? 0x60 : 0x40) && mgid[3] == 0x1b &&
			    mgid[4] == 0xff);
	}
	return 0;
}
