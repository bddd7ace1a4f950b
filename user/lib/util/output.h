/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output stream for a command, printed as text or as JSON from the same
 * calls (in the manner of iproute2's json_print): every field is one call
 * that names its JSON key and its text format. In JSON mode the key and the
 * value are written, escaped and comma-separated by construction; in text
 * mode the value is printed through the format. A NULL key prints only in
 * text mode, a NULL format only in JSON mode.
 *
 *	ftsw_out_begin(stdout, json);
 *	ftsw_out_open_object(NULL);
 *	ftsw_out_str("engine", "engine %s", r->engine);
 *	ftsw_out_uint("hosts", ", %" PRIu64 " hosts\n", t->nhosts);
 *	ftsw_out_close_object();
 *	ftsw_out_end();
 *
 * Non-finite floating-point values are written as JSON null (text mode
 * prints them through the format). Strings are escaped; bytes that are not
 * valid UTF-8 become U+FFFD. The writer is not thread-safe: one command
 * prints from one thread.
 */
#ifndef LIBFTSW_UTIL_OUTPUT_H
#define LIBFTSW_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

/*
 * A field every JSON document that is an object starts with, from now on
 * (key NULL: none). ftsw sets "ftsw_version" to its version, so every
 * object it prints or writes says which ftsw made it.
 */
void ftsw_out_stamp(const char *key, const char *value);
/* Start a document on f, as JSON or text. */
void ftsw_out_begin(FILE *f, bool json);
/*
 * End the document: in JSON mode close anything still open and end the
 * line. Returns 0, or -1 when the stream had a write error.
 */
int ftsw_out_end(void);
bool ftsw_out_is_json(void);

/* Containers: key is NULL at the top level and inside arrays. */
void ftsw_out_open_object(const char *key);
void ftsw_out_close_object(void);
void ftsw_out_open_array(const char *key);
void ftsw_out_close_array(void);

/*
 * Fields. In text mode fmt takes exactly one conversion of the value's
 * type: %s for str, PRIu64 for uint, PRId64 for int, a double conversion
 * (%f, %g, %.3f...) for float, and %s for bool ("yes" or "no").
 */
void ftsw_out_str(const char *key, const char *fmt, const char *s);
void ftsw_out_uint(const char *key, const char *fmt, uint64_t v);
void ftsw_out_int(const char *key, const char *fmt, int64_t v);
void ftsw_out_float(const char *key, const char *fmt, double v);
void ftsw_out_bool(const char *key, const char *fmt, bool v);
/* JSON null (text: fmt printed as is, no conversion). */
void ftsw_out_null(const char *key, const char *fmt);

/* Text only: ignored in JSON mode. */
void ftsw_out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write s as a JSON string literal (quotes included) on f. */
void ftsw_json_write_str(FILE *f, const char *s);
/* The same, handed over in pieces to put(arg, bytes, n). */
void ftsw_json_str_put(const char *s,
		       void (*put)(void *arg, const char *p, size_t n),
		       void *arg);
/* Write v as a JSON number on f, or null when it is not finite. */
void ftsw_json_write_double(FILE *f, double v);

#pragma GCC visibility pop

#endif
