// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a line of `ftsw -batch` (util's ftsw_parse_words). The
 * first byte is the word bound (1..64), the rest the line. Accepted: at
 * most the bound of words, in the line's order, each inside the line's
 * buffer and ending there, none starting with '#' unless quoted; refused:
 * -E2BIG only with the bound reached, -EINVAL for a quote left open, each
 * with a message.
 */
#include <errno.h>

#include "fuzz.h"
#include "util/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftsw_err err = { { 0 }, 0 };
	char *words[64], *s, *end, *prev;
	int max, n, i;

	if (size < 1)
		return 0;
	max = 1 + data[0] % 64;
	s = fuzz_str(data + 1, size - 1);
	if (!s)
		return 0;
	end = s + strlen(s);
	n = ftsw_parse_words(s, words, max, &err);
	if (n < 0) {
		FUZZ_ASSERT(n == -E2BIG || n == -EINVAL);
		FUZZ_ASSERT(err.msg[0]);
		FUZZ_ASSERT(n != -E2BIG || strstr(err.msg, "more than"));
		FUZZ_ASSERT(n != -EINVAL || strstr(err.msg, "unterminated"));
	} else {
		FUZZ_ASSERT(n <= max);
		prev = s;
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(words[i] >= prev && words[i] <= end);
			FUZZ_ASSERT(words[i] + strlen(words[i]) <= end);
			prev = words[i] + strlen(words[i]);
		}
	}
	free(s);
	return 0;
}
