// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the SA answer parsers (sa/sa.h), PathRecords and
 * MCMemberRecords. The input is an answer as the gateway hands it over;
 * the TID and SLID asked are taken
 * from the input itself (bytes 8..15, the first record's SLID) so that
 * well-formed headers get through to the records. Whatever parses is
 * bounded: no more records than fit the bytes or the room given, each
 * record from the SLID asked to a unicast LID, SL 0..15. An MCMemberRecord
 * that parses with status 0 has a multicast MLID (or 0, answering a
 * Delete) and encodes back to the bytes it came from (but the reserved
 * bits). Seeds mcm-join-answer and mcm-leave-answer: OpenSM's answers to a
 * host's join and leave of ff12::154 (IBA vol. 1, 15.2.5.17, by hand).
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
		static const uint8_t methods[] = { FTSW_SA_METHOD_SET,
						   FTSW_SA_METHOD_DELETE };
		struct ftsw_sa_mcm m;
		uint8_t rec[FTSW_SA_MCM_SIZE], want[FTSW_SA_MCM_SIZE];
		uint16_t st;

		if (ftsw_sa_mcm_parse(data, size, tid, methods[k], &m, &st,
				      &err) == 0 && !st) {
			FUZZ_ASSERT(((m.mlid >= 0xC000 && m.mlid != 0xFFFF) ||
				     (!m.mlid &&
				      methods[k] == FTSW_SA_METHOD_DELETE)) &&
				    m.sl < 16 && m.scope < 16 &&
				    m.join_state < 16);
			ftsw_sa_mcm_encode(&m, rec);
			memcpy(want, data + FTSW_SA_HDR, FTSW_SA_MCM_SIZE);
			want[49] &= 0x80;
			want[50] = want[51] = 0;
			FUZZ_ASSERT(!memcmp(rec, want, FTSW_SA_MCM_SIZE));
		}
	}
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
