// SPDX-License-Identifier: GPL-2.0
/*
 * The one number parser (see util/parse.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

int ftsw_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ftsw_parse_u64_prefix(const char *what, const char *s, uint64_t min,
			  uint64_t max, uint64_t *out, const char **end,
			  struct ftsw_err *err)
{
	const char *p = s ? s : "";
	unsigned base = 10;
	uint64_t v = 0;
	bool over = false;
	int d, n = 0;

	if (*p == '-' || *p == '+') {
		ftsw_err_set(err, "%s: '%s' is not an unsigned number", what, s);
		return -EINVAL;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    ftsw_hex_digit(p[2]) >= 0) {
		base = 16;
		p += 2;
	}
	for (; (d = ftsw_hex_digit(*p)) >= 0 && (unsigned)d < base; p++, n++) {
		if (v > (UINT64_MAX - d) / base)
			over = true;
		else
			v = v * base + d;
	}
	if (!n) {
		ftsw_err_set(err, "%s: '%s' is not a number", what, s ? s : "");
		return -EINVAL;
	}
	if (end)
		*end = p;
	if (over || v < min || v > max) {
		ftsw_err_errno(err, ERANGE,
			       "%s: %.*s is out of range (%llu..%llu)", what,
			       (int)(p - (s ? s : "")), s ? s : "",
			       (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
}

int ftsw_parse_u64(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, struct ftsw_err *err)
{
	const char *end = NULL;
	uint64_t v;
	int ret;

	ret = ftsw_parse_u64_prefix(what, s, min, max, &v, &end, err);
	if (ret == -EINVAL)
		return ret;
	if (*end) {
		ftsw_err_set(err, "%s: '%s' is not a whole number", what, s);
		return -EINVAL;
	}
	if (!ret)
		*out = v;
	return ret;
}

int ftsw_parse_uint(const char *what, const char *s, unsigned min,
		    unsigned max, unsigned *out, struct ftsw_err *err)
{
	uint64_t v;
	int ret;

	ret = ftsw_parse_u64(what, s, min, max, &v, err);
	if (!ret)
		*out = (unsigned)v;
	return ret;
}

int ftsw_parse_double(const char *what, const char *s, double min,
		      double max, double *out, struct ftsw_err *err)
{
	const char *p = s ? s : "";
	char *end;
	double v;

	/* decimal notation only: no hex floats, nan, inf or leading space */
	if (!*p || !(isdigit((unsigned char)*p) || *p == '.' || *p == '-' ||
		     *p == '+') || strpbrk(p, "xXnNiI")) {
		ftsw_err_set(err, "%s: '%s' is not a number", what, p);
		return -EINVAL;
	}
	errno = 0;
	v = strtod(p, &end);
	if (end == p || *end) {
		ftsw_err_set(err, "%s: '%s' is not a number", what, p);
		return -EINVAL;
	}
	if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
		ftsw_err_errno(err, ERANGE,
			       "%s: %s is out of range (%g..%g)", what, p,
			       min, max);
		return -ERANGE;
	}
	*out = v;
	return 0;
}

int ftsw_parse_hex_prefix(const char *what, const char *s, uint64_t *out,
			  const char **end, struct ftsw_err *err)
{
	const char *p = s ? s : "";
	uint64_t v = 0;
	int d, n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; (d = ftsw_hex_digit(*p)) >= 0; p++, n++) {
		if (v >> 60) {
			ftsw_err_errno(err, ERANGE,
				       "%s: '%.40s' is beyond 64 bits", what,
				       s);
			return -ERANGE;
		}
		v = v << 4 | (unsigned)d;
	}
	if (!n) {
		ftsw_err_set(err, "%s: '%.40s' is not a hexadecimal number",
			     what, s ? s : "");
		return -EINVAL;
	}
	if (end)
		*end = p;
	*out = v;
	return 0;
}

unsigned ftsw_split_words(char *s, char **w, unsigned max, char **rest)
{
	unsigned n = 0;

	if (rest)
		*rest = NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			*s++ = 0;
		if (!*s)
			return n;
		if (n == max) {
			if (rest)
				*rest = s;
			return n + 1;	/* more than max */
		}
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
}

int ftsw_parse_rate(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *bits, struct ftsw_err *err)
{
	static const char *const units[] = { "bit", "bps", "b" };
	const char *p = s ? s : "";
	struct ftsw_err e2;
	char num[64];
	double x, mult = 1;
	size_t n = strlen(p), i, u;

	if (n >= sizeof(num))
		goto bad;
	memcpy(num, p, n + 1);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		u = strlen(units[i]);
		if (n > u && !strcmp(num + n - u, units[i])) {
			num[n -= u] = 0;
			break;
		}
	}
	if (n > 1 && strchr("kKmMgG", num[n - 1])) {
		mult = strchr("kK", num[n - 1]) ? 1e3 :
		       strchr("mM", num[n - 1]) ? 1e6 : 1e9;
		num[--n] = 0;
	}
	if (ftsw_parse_double(what, num, 0, 1e18, &x, &e2))
		goto bad;
	x *= mult;
	if (x < (double)min || x > (double)max) {
		ftsw_err_errno(err, ERANGE, "%s: '%s' is not a rate in "
			       "%llu..%llu bit/s", what, p,
			       (unsigned long long)min,
			       (unsigned long long)max);
		return -ERANGE;
	}
	*bits = (uint64_t)(x + 0.5);
	return 0;
bad:
	ftsw_err_set(err, "%s: '%s' is not a rate (a number of bit/s, with "
		     "k, M or G and optionally bit, bps or b)", what, p);
	return -EINVAL;
}

int ftsw_parse_words(char *s, char **words, int max, struct ftsw_err *err)
{
	char *out, q;
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return n;
		if (n == max) {
			ftsw_err_set(err, "more than %d words", max);
			err->code = E2BIG;
			return -E2BIG;
		}
		words[n++] = out = s;
		/* a word: unquoted runs and quoted parts, copied down over the quotes */
		while (*s && *s != ' ' && *s != '\t') {
			if (*s != '\'' && *s != '"') {
				*out++ = *s++;
				continue;
			}
			q = *s++;
			while (*s && *s != q)
				*out++ = *s++;
			if (!*s) {
				ftsw_err_set(err, "unterminated %c quote", q);
				return -EINVAL;
			}
			s++;
		}
		if (*s)
			s++;
		*out = '\0';
	}
}
