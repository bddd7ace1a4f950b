// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the SA PathRecord answer parser (sa/sa.h). The input is an
 * answer as the gateway hands it over; the TID and SLID asked are taken
 * from the input itself (bytes 8..15, the first record's SLID) so that
 * well-formed headers get through to the records. Whatever parses is
 * bounded: no more records than fit the bytes or the room given, each
 * record from the SLID asked to a unicast LID, SL 0..15.
 */
#include "fuzz.h"
#include "sa/sa.h"
#include "util/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ftsw_sa_path_rec r[FTSW_SA_MAX_RECORDS];
	uint64_t tid = size >= 16 ? ftsw_get_be64(data + 8) : 0;
	uint16_t slid = size >= 56 + 44 ?
			(uint16_t)(data[56 + 42] << 8 | data[56 + 43]) : 0;
	size_t maxes[] = { 4, FTSW_SA_MAX_RECORDS }, n, i, k;
	struct ftsw_err err;

	for (k = 0; k < 2; k++) {
		if (ftsw_sa_pr_parse(data, size, tid, slid, r, maxes[k], &n,
				     &err) < 0) {
			FUZZ_ASSERT(n == 0 && err.msg[0]);
			continue;
		}
		FUZZ_ASSERT(size >= FTSW_SA_HDR && n <= maxes[k]);
		FUZZ_ASSERT(n * FTSW_SA_PR_SIZE <= size - FTSW_SA_HDR);
		for (i = 0; i < n; i++)
			FUZZ_ASSERT(r[i].slid == slid && r[i].dlid >= 1 &&
				    r[i].dlid <= 0xBFFF && r[i].sl < 16 &&
				    r[i].mtu < 64 && r[i].rate < 64);
	}
	return 0;
}
