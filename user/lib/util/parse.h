/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one number parser of libftsw and the CLI. Every number read from an
 * option, a spec string or a file goes through here, so that every one is
 * refused the same way: empty, signed, trailing text, out of range or (for
 * floating point) not finite, with an error naming `what` (the option, or
 * "file:line: field") and the accepted range.
 *
 * Integers are decimal; a leading 0x or 0X selects hexadecimal (GUIDs,
 * LIDs). A leading zero never means octal: "010" is ten.
 *
 * The parsers return 0, -EINVAL (not a number) or -ERANGE (out of range),
 * err->code the same errno; they keep no state (thread-safe).
 */
#ifndef LIBFTSW_UTIL_PARSE_H
#define LIBFTSW_UTIL_PARSE_H

#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

int ftsw_parse_u64(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, struct ftsw_err *err);
int ftsw_parse_uint(const char *what, const char *s, unsigned min,
		    unsigned max, unsigned *out, struct ftsw_err *err);
int ftsw_parse_double(const char *what, const char *s, double min,
		      double max, double *out, struct ftsw_err *err);

/*
 * A rate in bit/s: a decimal number with an optional k, M or G (10^3, 10^6,
 * 10^9) and an optional "bit", "bps" or "b" ("500kbit", "1.5M", "100000"),
 * min..max bit/s, rounded to the nearest bit/s.
 */
int ftsw_parse_rate(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *bits, struct ftsw_err *err);

/*
 * Like ftsw_parse_u64 but for a number at the start of s that ends at the
 * first character not part of it (spec strings such as "pgft:3;4,4"):
 * *end is set past the digits. At least one digit is required.
 */
int ftsw_parse_u64_prefix(const char *what, const char *s, uint64_t min,
			  uint64_t max, uint64_t *out, const char **end,
			  struct ftsw_err *err);

/*
 * Hexadecimal at the start of s, with or without a 0x prefix (GUIDs as
 * net files spell them: "0x0002c9..." or "0002c9..."): *end is set past
 * the digits; at least one digit; more than 64 bits is out of range.
 */
int ftsw_parse_hex_prefix(const char *what, const char *s, uint64_t *out,
			  const char **end, struct ftsw_err *err);

/*
 * Split line s in place into at most max words for a command (ftsw
 * -batch): words are separated by blanks; '...' and "..." quote blanks
 * (no escapes inside); a '#' at the start of a word begins a comment.
 * Returns the number of words (0: a blank or comment line), or -EINVAL
 * (an unterminated quote) / -E2BIG (more than max words) with err set.
 */
int ftsw_parse_words(char *s, char **words, int max, struct ftsw_err *err);

/* The value of one hexadecimal (or decimal) digit, either case; -1 if c is none. */
int ftsw_hex_digit(int c);

/*
 * Split s at blanks (space, tab) in place into up to max words; returns
 * their count, or max + 1 when more text follows, which *rest (if not
 * NULL) then points to, unsplit.
 */
unsigned ftsw_split_words(char *s, char **w, unsigned max, char **rest);

#pragma GCC visibility pop

#endif
