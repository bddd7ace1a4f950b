// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lft set switch ID lid LID[-LID] port P [lid ... port ...]...
 * ftsw lft set switch ID block FIRST P,P,...
 * ftsw lft set switch ID file PATH          (lines "LID PORT", # comments)
 * ftsw lft show switch ID [staged]
 * ftsw lft discard [switch ID]
 *
 * Writes go to the staged table; `ftsw commit` publishes them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

static void lft_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw lft set switch ID lid LID[-LID] port P [lid ... port P]...\n"
		"       ftsw lft set switch ID block FIRST P,P,...\n"
		"       ftsw lft set switch ID file PATH   (lines: LID PORT)\n"
		"       ftsw lft show switch ID [staged]\n"
		"       ftsw lft discard [switch ID]\n"
		"PORT 255 (or 'none') removes the route. Writes are staged until\n"
		"'ftsw commit'.\n");
}

struct edit {
	uint8_t *table;
	uint32_t lo, hi;	/* touched range, lo > hi: none */
};

static void edit_put(struct edit *e, uint32_t lid, uint8_t port)
{
	e->table[lid] = port;
	if (lid < e->lo)
		e->lo = lid;
	if (lid > e->hi || e->hi == UINT32_MAX)
		e->hi = lid;
}

/* A port value: 0..255 or "none" (255). false after printing why. */
static bool parse_port(const char *v, uint8_t *port)
{
	uint64_t x;

	if (v && !strcmp(v, "none")) {
		*port = FTSW_NO_ROUTE;
		return true;
	}
	if (!nlcli_num("lft", "port", v, 0, 255, &x))
		return false;
	*port = (uint8_t)x;
	return true;
}

/* "LID" or "LID-LID" (what names it in errors). */
static bool parse_range(const char *what, const char *v, uint32_t *a,
			uint32_t *b)
{
	char buf[64], *dash;
	uint64_t x, y;

	if (!v || strlen(v) >= sizeof(buf)) {
		cli_err("lft: %s: LID[-LID] expected", what);
		return false;
	}
	strcpy(buf, v);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	if (!nlcli_num("lft", what, buf, 0, FTSW_MAX_LID, &x))
		return false;
	y = x;
	if (dash && !nlcli_num("lft", what, dash, 0, FTSW_MAX_LID, &y))
		return false;
	if (y < x) {
		cli_err("lft: %s: range %s is empty", what, v);
		return false;
	}
	*a = (uint32_t)x;
	*b = (uint32_t)y;
	return true;
}

static int read_file(const char *path, struct edit *e)
{
	FILE *f = fopen(path, "r");
	char line[256], what[300];
	int ln = 0;

	if (!f) {
		cli_err("lft: cannot open '%s'", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *lid, *port, *save = NULL;
		uint32_t a, b, l;
		uint8_t pt;

		ln++;
		if (strchr(p, '#'))
			*strchr(p, '#') = 0;
		lid = strtok_r(p, " \t\r\n", &save);
		if (!lid)
			continue;
		port = strtok_r(NULL, " \t\r\n", &save);
		snprintf(what, sizeof(what), "%s:%d: LID", path, ln);
		if (!parse_range(what, lid, &a, &b))
			goto bad;
		snprintf(what, sizeof(what), "%s:%d: port", path, ln);
		if (port && !strcmp(port, "none")) {
			pt = FTSW_NO_ROUTE;
		} else {
			uint64_t x;

			if (!nlcli_num("lft", what, port, 0, 255, &x))
				goto bad;
			pt = (uint8_t)x;
		}
		if (strtok_r(NULL, " \t\r\n", &save)) {
			cli_err("lft: %s:%d: expected 'LID[-LID] PORT'", path, ln);
			goto bad;
		}
		for (l = a; l <= b; l++)
			edit_put(e, l, pt);
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return -1;
}

/* "block FIRST P,P,..." at argv[*i] (FIRST already in v). */
static bool parse_block(int argc, char **argv, int *i, const char *v,
			struct edit *e)
{
	uint8_t buf[FTSW_LFT_SIZE];
	uint64_t first;
	uint32_t l;
	int n;

	if (!nlcli_num("lft", "block", v, 0, FTSW_MAX_LID, &first))
		return false;
	if (*i >= argc) {
		cli_err("lft: block %s: P,P,... expected", v);
		return false;
	}
	n = nlcli_list("lft", "block", argv[*i], 255, buf, FTSW_LFT_SIZE);
	if (n <= 0)
		return false;
	if (first + n > FTSW_LFT_SIZE) {
		cli_err("lft: block %s: %d entries run past LID %u", v, n,
			FTSW_LFT_SIZE - 1);
		return false;
	}
	for (l = 0; l < (uint32_t)n; l++)
		edit_put(e, first + l, buf[l]);
	(*i)++;
	return true;
}

/* The edits of argv[i..]: 0, or an exit status. */
static int lft_edits(int argc, char **argv, int i, struct edit *e)
{
	bool have_range = false;
	uint32_t a = 0, b = 0, l;
	const char *v;
	uint8_t pt;

	while (i < argc) {
		if (nlcli_kv(argc, argv, &i, "lid", &v)) {
			if (!parse_range("lid", v, &a, &b))
				return 2;
			have_range = true;
		} else if (nlcli_kv(argc, argv, &i, "port", &v)) {
			if (!have_range)
				return nlcli_usage_err("lft", "port");
			if (!parse_port(v, &pt))
				return 2;
			for (l = a; l <= b; l++)
				edit_put(e, l, pt);
			have_range = false;
		} else if (nlcli_kv(argc, argv, &i, "block", &v)) {
			if (!parse_block(argc, argv, &i, v, e))
				return 2;
		} else if (nlcli_kv(argc, argv, &i, "file", &v)) {
			if (!v)
				return nlcli_usage_err("lft", "file");
			if (read_file(v, e))
				return 1;
		} else {
			return nlcli_usage_err("lft", argv[i]);
		}
	}
	if (have_range)
		return nlcli_usage_err("lft", argv[argc - 1]);
	if (e->hi == UINT32_MAX)
		return nlcli_usage_err("lft", NULL);
	return 0;
}

static int lft_set(int argc, char **argv)
{
	struct edit e = { .lo = UINT32_MAX, .hi = UINT32_MAX };
	struct ftsw_nl *nl;
	uint32_t sw = 0;
	int i = 2, r;

	r = i < argc ? nlcli_switch_arg("lft", argc, argv, &i, &sw) : 0;
	if (r < 0)
		return 2;
	if (!r)
		return nlcli_usage_err("lft", i < argc ? argv[i] : NULL);
	e.table = malloc(FTSW_LFT_SIZE);
	if (!e.table)
		return 1;
	nl = nlcli_open();
	if (!nl) {
		free(e.table);
		return 1;
	}
	/* Start from the staged view so that one block carries every edit. */
	if (ftsw_nl_lft_get(nl, sw, true, e.table, NULL, NULL)) {
		free(e.table);
		return nlcli_fail(nl, "lft set");
	}
	r = lft_edits(argc, argv, i, &e);
	if (!r && ftsw_nl_lft_set(nl, sw, e.lo, e.table + e.lo,
				  e.hi - e.lo + 1)) {
		free(e.table);
		return nlcli_fail(nl, "lft set");
	}
	free(e.table);
	ftsw_nl_close(nl);
	return r;
}

static void lft_print(uint32_t sw, bool staged, bool pending, uint32_t size,
		      const uint8_t *t)
{
	char lid[16];
	uint32_t l;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("switch", "switch %" PRIu64, sw);
	ftsw_out_str("view", " lft %s", staged ? "staged" : "active");
	ftsw_out_bool("pending", NULL, pending);
	ftsw_out_uint("size", " size %" PRIu64, size);
	ftsw_out_text("%s\n", pending ? " (staged changes pending)" : "");
	ftsw_out_open_object("lft");
	for (l = 0; l < size; l++) {
		if (t[l] == FTSW_NO_ROUTE)
			continue;
		snprintf(lid, sizeof(lid), "%" PRIu32, l);
		ftsw_out_uint(lid, NULL, t[l]);
		ftsw_out_text("  lid %" PRIu32 " port %u\n", l, t[l]);
	}
	ftsw_out_close_object();
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lft_show(int argc, char **argv)
{
	bool have_sw = false, staged = false, pending = false;
	uint32_t sw = 0, size = 0;
	struct ftsw_nl *nl;
	uint8_t *t;
	int i = 2, r;

	while (i < argc) {
		r = nlcli_switch_arg("lft", argc, argv, &i, &sw);
		if (r < 0)
			return 2;
		if (r > 0) {
			have_sw = true;
		} else if (!strcmp(argv[i], "staged")) {
			staged = true;
			i++;
		} else {
			return nlcli_usage_err("lft", argv[i]);
		}
	}
	if (!have_sw)
		return nlcli_usage_err("lft", NULL);
	t = malloc(FTSW_LFT_SIZE);
	if (!t)
		return 1;
	nl = nlcli_open();
	if (!nl) {
		free(t);
		return 1;
	}
	if (ftsw_nl_lft_get(nl, sw, staged, t, &size, &pending)) {
		free(t);
		return nlcli_fail(nl, "lft show");
	}
	lft_print(sw, staged, pending, size, t);
	free(t);
	ftsw_nl_close(nl);
	return 0;
}

int cmd_lft(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "help";
	struct ftsw_nl *nl;
	int64_t sw = -1;
	int i = 2, r;

	if (!strcmp(cmd, "help")) {
		lft_usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "set"))
		return lft_set(argc, argv);
	if (!strcmp(cmd, "show"))
		return lft_show(argc, argv);
	if (strcmp(cmd, "discard")) {
		lft_usage(stderr);
		return 2;
	}
	while (i < argc) {
		uint32_t id;

		r = nlcli_switch_arg("lft", argc, argv, &i, &id);
		if (r < 0)
			return 2;
		if (!r)
			return nlcli_usage_err("lft", argv[i]);
		sw = id;
	}
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_lft_discard(nl, sw))
		return nlcli_fail(nl, "lft discard");
	ftsw_nl_close(nl);
	return 0;
}
