/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests share: the kselftest harness with the warnings its
 * macros trigger silenced, fabrics generated and routed with the failure
 * reported as a TAP comment, the checker with its report, and an
 * independent JSON validator (python3's json module, never ftsw's own
 * code). Include this instead of kselftest_harness.h.
 */
#ifndef FTSW_TESTS_UNIT_COMMON_H
#define FTSW_TESTS_UNIT_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the harness compares int literals with unsigned values */
#pragma GCC diagnostic ignored "-Wsign-compare"
/* blocks right after ASSERT_* (the harness ends them with a for) */
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
#include "kselftest_harness.h"

#include "route/routing.h"

/* A generated topology, or NULL with the reason on stderr. */
static inline struct ftsw_topo *ut_gen(const char *spec)
{
	struct ftsw_err err;
	struct ftsw_topo *t = ftsw_topo_gen(spec, &err);

	if (!t)
		fprintf(stderr, "# %s: %s\n", spec, err.msg);
	return t;
}

/* Engine eng on t with options o, or NULL with the reason on stderr. */
static inline struct ftsw_routing *ut_route(const char *eng,
					    const struct ftsw_topo *t,
					    const struct ftsw_route_opts *o)
{
	struct ftsw_err err;
	struct ftsw_routing *r = ftsw_route(eng, t, o, &err);

	if (!r)
		fprintf(stderr, "# %s: %s\n", eng, err.msg);
	return r;
}

/*
 * Check r (CDG and switch LIDs included; minimality and up*down* as
 * asked): res->ok, with the checker's report on stderr when it fails.
 * res is left filled for the caller (ftsw_check_result_free).
 */
static inline int ut_check(const struct ftsw_routing *r, bool minimal,
			   bool updown, struct ftsw_check_result *res)
{
	struct ftsw_check_opts co = { .minimal = minimal, .updown = updown,
				      .cdg = true, .switch_lids = true };
	struct ftsw_err err;

	if (ftsw_routing_check(r, &co, res, &err)) {
		fprintf(stderr, "# check: %s\n", err.msg);
		return 0;
	}
	if (!res->ok && res->report)
		fprintf(stderr, "# %s", res->report);
	return res->ok;
}

/* What write(f, arg) writes, as a string (malloc'd). */
static inline char *ut_text(void (*write)(FILE *f, const void *arg),
			    const void *arg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	write(f, arg);
	fclose(f);
	return buf;
}

/*
 * The directory of this test binary's build tree (build/ when the binary
 * is build/tests/unit/NAME) plus rel into buf: "" when unknown.
 */
static inline void ut_build_path(char *buf, size_t sz, const char *rel)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	int up;

	buf[0] = 0;
	if (n <= 0)
		return;
	self[n] = 0;
	for (up = 0; up < 3; up++) {
		slash = strrchr(self, '/');
		if (!slash)
			return;
		*slash = 0;
	}
	if (strlen(self) + strlen(rel) + 2 <= sz)
		sprintf(buf, "%s/%s", self, rel);
}

/*
 * True when text is one valid JSON document by python3's json module
 * (strict: NaN and Infinity are refused). On failure the parser's
 * complaint and the text go to stderr as TAP comments.
 */
static inline bool ut_json_valid(const char *text)
{
	static const char prog[] =
		"import json,sys\n"
		"def bad(c): raise ValueError('not JSON: ' + c)\n"
		"json.loads(sys.stdin.buffer.read().decode('utf-8'),"
		" parse_constant=bad)\n";
	char cmd[sizeof(prog) + 64];
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "python3 -c \"%s\" 1>&2", prog);
	p = popen(cmd, "w");
	if (!p)
		return false;
	fputs(text, p);
	st = pclose(p);
	if (st)
		fprintf(stderr, "# invalid JSON: %.400s\n", text);
	return st == 0;
}

/*
 * ut_json_valid for many documents with one python3 (its start-up is slow
 * on a loaded machine): ok[i] tells document i's verdict. Returns false
 * when the validator itself could not run.
 */
static inline bool ut_json_valid_all(char *const *docs, unsigned n, bool *ok)
{
	static const char prog[] =
		"import json,sys\n"
		"def bad(c): raise ValueError('not JSON: ' + c)\n"
		"for i, d in enumerate(sys.stdin.buffer.read().split(b'\\0')[:-1]):\n"
		"  try: json.loads(d.decode('utf-8'), parse_constant=bad)\n"
		"  except Exception as e: print(i, flush=True); "
		"print('#', i, e, file=sys.stderr)\n";
	char cmd[sizeof(prog) + 64], path[] = "/tmp/ftsw-json-XXXXXX";
	unsigned i;
	FILE *p, *r;
	int fd = mkstemp(path), st;

	if (fd < 0)
		return false;
	for (i = 0; i < n; i++)
		ok[i] = docs[i] != NULL;
	snprintf(cmd, sizeof(cmd), "python3 -c \"%s\" >%s", prog, path);
	p = popen(cmd, "w");
	if (!p) {
		close(fd);
		unlink(path);
		return false;
	}
	for (i = 0; i < n; i++) {
		fputs(docs[i] ? docs[i] : "", p);
		fputc(0, p);
	}
	st = pclose(p);
	r = fdopen(fd, "r");
	while (r && fscanf(r, "%u", &i) == 1)
		if (i < n)
			ok[i] = false;
	if (r)
		fclose(r);
	unlink(path);
	return st == 0;
}

#endif
