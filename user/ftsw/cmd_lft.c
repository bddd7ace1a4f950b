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

static bool parse_port(const char *v, uint8_t *port)
{
	uint64_t x;

	if (v && !strcmp(v, "none")) {
		*port = FTSW_NO_ROUTE;
		return true;
	}
	if (!nlcli_num(v, 255, &x))
		return false;
	*port = (uint8_t)x;
	return true;
}

static bool parse_range(const char *v, uint32_t *a, uint32_t *b)
{
	char buf[64], *dash;
	uint64_t x, y;

	if (!v || strlen(v) >= sizeof(buf))
		return false;
	strcpy(buf, v);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	if (!nlcli_num(buf, FTSW_MAX_LID, &x))
		return false;
	y = x;
	if (dash && !nlcli_num(dash, FTSW_MAX_LID, &y))
		return false;
	if (y < x)
		return false;
	*a = (uint32_t)x;
	*b = (uint32_t)y;
	return true;
}

static int read_file(const char *path, struct edit *e)
{
	FILE *f = fopen(path, "r");
	char line[256];
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
		if (!parse_range(lid, &a, &b) || !parse_port(port, &pt) ||
		    strtok_r(NULL, " \t\r\n", &save)) {
			cli_err("lft: %s:%d: expected 'LID[-LID] PORT'", path, ln);
			fclose(f);
			return -1;
		}
		for (l = a; l <= b; l++)
			edit_put(e, l, pt);
	}
	fclose(f);
	return 0;
}

static int lft_set(int argc, char **argv)
{
	struct edit e = { .lo = UINT32_MAX, .hi = UINT32_MAX };
	uint32_t sw = 0, a = 0, b = 0, l;
	bool have_sw = false, have_range = false;
	struct ftsw_nl *nl;
	const char *v;
	int i = 2, r, rc = 1;
	uint8_t pt;

	e.table = malloc(FTSW_LFT_SIZE);
	if (!e.table)
		return 1;
	/* Start from the staged view so that one block carries every edit. */
	while (i < argc && !have_sw) {
		r = nlcli_switch_arg(argc, argv, &i, &sw);
		if (r <= 0) {
			free(e.table);
			return nlcli_usage_err("lft", argv[i]);
		}
		have_sw = true;
	}
	if (!have_sw) {
		free(e.table);
		return nlcli_usage_err("lft", NULL);
	}
	nl = nlcli_open();
	if (!nl) {
		free(e.table);
		return 1;
	}
	if (ftsw_nl_lft_get(nl, sw, true, e.table, NULL, NULL)) {
		free(e.table);
		return nlcli_fail(nl, "lft set");
	}
	while (i < argc) {
		if (nlcli_kv(argc, argv, &i, "lid", &v)) {
			if (!parse_range(v, &a, &b))
				goto usage;
			have_range = true;
		} else if (nlcli_kv(argc, argv, &i, "port", &v)) {
			if (!have_range || !parse_port(v, &pt))
				goto usage;
			for (l = a; l <= b; l++)
				edit_put(&e, l, pt);
			have_range = false;
		} else if (nlcli_kv(argc, argv, &i, "block", &v)) {
			uint8_t buf[FTSW_LFT_SIZE];
			uint64_t first;
			int n;

			if (!nlcli_num(v, FTSW_MAX_LID, &first) || i >= argc)
				goto usage;
			n = nlcli_list(argv[i], 255, buf, FTSW_LFT_SIZE);
			if (n <= 0 || first + n > FTSW_LFT_SIZE)
				goto usage;
			for (l = 0; l < (uint32_t)n; l++)
				edit_put(&e, first + l, buf[l]);
			i++;
		} else if (nlcli_kv(argc, argv, &i, "file", &v)) {
			if (!v || read_file(v, &e))
				goto out;
		} else {
			goto usage;
		}
	}
	if (have_range || e.hi == UINT32_MAX) {
		i = argc;
		goto usage;
	}
	if (ftsw_nl_lft_set(nl, sw, e.lo, e.table + e.lo, e.hi - e.lo + 1)) {
		free(e.table);
		return nlcli_fail(nl, "lft set");
	}
	rc = 0;
out:
	free(e.table);
	ftsw_nl_close(nl);
	return rc;
usage:
	free(e.table);
	ftsw_nl_close(nl);
	return nlcli_usage_err("lft", i < argc ? argv[i] : (i > 0 ? argv[i - 1] : NULL));
}

static int lft_show(int argc, char **argv)
{
	bool have_sw = false, staged = false, pending = false, first = true;
	uint32_t sw = 0, size = 0, l;
	struct ftsw_nl *nl;
	uint8_t *t;
	int i = 2, r;

	while (i < argc) {
		r = nlcli_switch_arg(argc, argv, &i, &sw);
		if (r < 0)
			return nlcli_usage_err("lft", argv[i - 1]);
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
	if (cli.json) {
		printf("{\"switch\":%u,\"view\":\"%s\",\"pending\":%s,\"size\":%u,\"lft\":{",
		       sw, staged ? "staged" : "active", pending ? "true" : "false",
		       size);
		for (l = 0; l < size; l++) {
			if (t[l] == FTSW_NO_ROUTE)
				continue;
			printf("%s\"%u\":%u", first ? "" : ",", l, t[l]);
			first = false;
		}
		printf("}}\n");
	} else {
		printf("switch %u lft %s size %u%s\n", sw,
		       staged ? "staged" : "active", size,
		       pending ? " (staged changes pending)" : "");
		for (l = 0; l < size; l++)
			if (t[l] != FTSW_NO_ROUTE)
				printf("  lid %u port %u\n", l, t[l]);
	}
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

		r = nlcli_switch_arg(argc, argv, &i, &id);
		if (r <= 0)
			return nlcli_usage_err("lft", argv[r < 0 ? i - 1 : i]);
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
