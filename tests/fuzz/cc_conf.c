// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the congestion-control keys of an opensm.conf
 * (ftsw_cc_params_parse), and the round trip parse -> write -> parse (the
 * same parameters, written the same).
 */
#include "fuzz.h"
#include "cc/cc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_cc_params p, q;
	struct ftsw_err err;
	char *s = fuzz_str(data, size), *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;

	if (!s)
		return 0;
	ftsw_cc_params_default(&p);
	if (ftsw_cc_params_parse(s, "fuzz.conf", &p, &err)) {
		FUZZ_ASSERT(strstr(err.msg, "fuzz.conf"));
		free(s);
		return 0;
	}
	FUZZ_ASSERT(p.cc_cct_len <= FTSW_CC_CCT_MAX);
	FUZZ_ASSERT(p.cc_sw_cong_setting_threshold <= FTSW_CC_THRESHOLD_MAX);
	FUZZ_WRITTEN(a, na, ftsw_cc_params_write, &p);
	ftsw_cc_params_default(&q);
	if (ftsw_cc_params_parse(a, "rewritten", &q, &err))
		fprintf(stderr, "rewritten file refused: %s\n%s", err.msg, a);
	FUZZ_ASSERT(!ftsw_cc_params_parse(a, "rewritten", &q, &err));
	FUZZ_WRITTEN(b, nb, ftsw_cc_params_write, &q);
	FUZZ_ASSERT(na == nb && !memcmp(a, b, na));
	free(a);
	free(b);
	free(s);
	return 0;
}
