// SPDX-License-Identifier: GPL-2.0
/*
 * Text or JSON output from one set of calls (see util/output.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/output.h"

#define OUT_MAX_DEPTH 64

static struct {
	FILE *f;
	bool json;
	unsigned depth;
	bool first[OUT_MAX_DEPTH];	/* nothing written yet at this level */
	char close[OUT_MAX_DEPTH];	/* '}' or ']' */
	const char *stamp_key, *stamp_val;	/* first field of a document */
} out = { .first = { true } };

void ftsw_out_stamp(const char *key, const char *value)
{
	out.stamp_key = key;
	out.stamp_val = value;
}

/* Length of the valid UTF-8 sequence at p, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

void ftsw_json_str_put(const char *s,
		       void (*put)(void *arg, const char *p, size_t n),
		       void *arg)
{
	/* the characters JSON escapes by name, and their names */
	static const char named[] = "\"\\\n\t\r", name[] = "\"\\ntr";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const char *e;
	char esc[8];
	size_t n;

	put(arg, "\"", 1);
	while (*p) {
		/* the longest run that needs no escape, in one call */
		for (n = 0; p[n] >= 0x20 && p[n] < 0x80 && p[n] != '"' &&
		     p[n] != '\\'; n++)
			;
		if (n) {
			put(arg, (const char *)p, n);
			p += n;
			continue;
		}
		e = strchr(named, *p);
		if (e) {
			esc[0] = '\\';
			esc[1] = name[e - named];
			put(arg, esc, 2);
			p++;
		} else if (*p < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			put(arg, esc, 6);
			p++;
		} else if (!(n = utf8_len(p))) {
			put(arg, "\\ufffd", 6);
			p++;
		} else {
			put(arg, (const char *)p, n);
			p += n;
		}
	}
	put(arg, "\"", 1);
}

static void put_file(void *arg, const char *p, size_t n)
{
	fwrite(p, 1, n, arg);
}

void ftsw_json_write_str(FILE *f, const char *s)
{
	ftsw_json_str_put(s, put_file, f);
}

void ftsw_json_write_double(FILE *f, double v)
{
	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	/* 15 significant digits: exact for every value printed with fewer */
	fprintf(f, "%.15g", v == 0 ? 0.0 : v);
}

void ftsw_out_begin(FILE *f, bool json)
{
	out.f = f;
	out.json = json;
	out.depth = 0;
	out.first[0] = true;
}

bool ftsw_out_is_json(void)
{
	return out.json;
}

/* Comma and key before a JSON value at the current level. */
static void json_key(const char *key)
{
	if (!out.first[out.depth])
		fputc(',', out.f);
	out.first[out.depth] = false;
	if (key && out.depth > 0 && out.close[out.depth] == '}') {
		ftsw_json_write_str(out.f, key);
		fputc(':', out.f);
	}
}

static void open_container(const char *key, char open, char close)
{
	if (!out.json)
		return;
	json_key(key);
	fputc(open, out.f);
	if (out.depth + 1 >= OUT_MAX_DEPTH)
		abort();	/* a programming error, never input-driven */
	out.depth++;
	out.first[out.depth] = true;
	out.close[out.depth] = close;
	if (out.depth == 1 && close == '}' && out.stamp_key) {
		ftsw_json_write_str(out.f, out.stamp_key);
		fputc(':', out.f);
		ftsw_json_write_str(out.f, out.stamp_val);
		out.first[1] = false;
	}
}

static void close_container(void)
{
	if (!out.json || !out.depth)
		return;
	fputc(out.close[out.depth], out.f);
	out.depth--;
}

void ftsw_out_open_object(const char *key)
{
	open_container(key, '{', '}');
}

void ftsw_out_close_object(void)
{
	close_container();
}

void ftsw_out_open_array(const char *key)
{
	open_container(key, '[', ']');
}

void ftsw_out_close_array(void)
{
	close_container();
}

int ftsw_out_end(void)
{
	if (out.json) {
		while (out.depth)
			close_container();
		if (!out.first[0])
			fputc('\n', out.f);
	}
	out.first[0] = true;
	if (fflush(out.f) || ferror(out.f))
		return -1;
	return 0;
}

/*
 * A field: in JSON mode with a key (or inside an array) write it; in text
 * mode with a format print it. Returns true when the JSON value is to be
 * written by the caller right now.
 */
static bool json_field(const char *key)
{
	if (!out.json)
		return false;
	if (!key && (out.depth == 0 || out.close[out.depth] == '}'))
		return false;	/* text-only field */
	json_key(key);
	return true;
}

void ftsw_out_str(const char *key, const char *fmt, const char *s)
{
	if (out.json) {
		if (json_field(key))
			ftsw_json_write_str(out.f, s);
	} else if (fmt) {
		fprintf(out.f, fmt, s ? s : "");
	}
}

void ftsw_out_uint(const char *key, const char *fmt, uint64_t v)
{
	if (out.json) {
		if (json_field(key))
			fprintf(out.f, "%llu", (unsigned long long)v);
	} else if (fmt) {
		fprintf(out.f, fmt, v);
	}
}

void ftsw_out_int(const char *key, const char *fmt, int64_t v)
{
	if (out.json) {
		if (json_field(key))
			fprintf(out.f, "%lld", (long long)v);
	} else if (fmt) {
		fprintf(out.f, fmt, v);
	}
}

void ftsw_out_float(const char *key, const char *fmt, double v)
{
	if (out.json) {
		if (json_field(key))
			ftsw_json_write_double(out.f, v);
	} else if (fmt) {
		fprintf(out.f, fmt, v);
	}
}

void ftsw_out_bool(const char *key, const char *fmt, bool v)
{
	if (out.json) {
		if (json_field(key))
			fputs(v ? "true" : "false", out.f);
	} else if (fmt) {
		fprintf(out.f, fmt, v ? "yes" : "no");
	}
}

void ftsw_out_null(const char *key, const char *fmt)
{
	if (out.json) {
		if (json_field(key))
			fputs("null", out.f);
	} else if (fmt) {
		fputs(fmt, out.f);
	}
}

void ftsw_out_text(const char *fmt, ...)
{
	va_list ap;

	if (out.json)
		return;
	va_start(ap, fmt);
	vfprintf(out.f, fmt, ap);
	va_end(ap);
}
