// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lft set switch ID lid LID[-LID] port P [lid ... port ...]...
 * ftsw lft set switch ID block FIRST P,P,...
 * ftsw lft set switch ID file PATH          (lines "LID PORT", # comments)
 * ftsw lft show [switch ID] [staged]   (with its adaptive routing groups;
 *                                      every switch without switch ID)
 * ftsw lft discard [switch ID]
 *
 * Writes go to the staged table; `ftsw commit` publishes them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/text.h"

/*
 * lft set's words are a sequence applied in order (a later entry wins), so
 * they are read by lft_edits(); the table describes them for the help and
 * the completion.
 */
enum { L_SWITCH, L_LID, L_PORT, L_BLOCK, L_FILE, L_N };
static const struct cli_opt set_opts[L_N + 1] = {
	[L_SWITCH] = NLCLI_OPT_SWITCH(true),
	[L_LID] = { "lid", NULL, CLI_STR, "LID[-LID]", .repeat = true,
		    .help = "DLIDs for the port that follows" },
	[L_PORT] = { "port", NULL, CLI_STR, "P", .repeat = true,
		     .help = "output port, 255 or none: no route" },
	[L_BLOCK] = { "block", NULL, CLI_NUM, "FIRST", 0, FTSW_MAX_LID,
		      .repeat = true,
		      .help = "P,P,... for DLIDs FIRST, FIRST + 1, ..." },
	[L_FILE] = { "file", NULL, CLI_FILE, "PATH", .repeat = true,
		     .help = "lines 'LID[-LID] PORT' (# comments)" },
};

enum { S_SWITCH, S_STAGED, S_N };
static const struct cli_opt show_opts[S_N + 1] = {
	[S_SWITCH] = NLCLI_OPT_SWITCH(false),
	[S_STAGED] = { "staged", NULL, CLI_FLAG,
		       .help = "the staged view, not the active table" },
};
static const struct cli_opt discard_opts[2] = {
	NLCLI_OPT_SWITCH(false),
};

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

/* An LFT edit file: a regular file of at most 16 MiB, lines of 4 KiB. */
#define LFT_FILE_MAX	(16ULL << 20)

static int read_file(const char *path, struct edit *e)
{
	struct ftsw_text x;
	struct ftsw_err err;
	char what[300];
	int got;

	if (ftsw_text_open(&x, path, FTSW_TEXT_LINE, LFT_FILE_MAX, &err)) {
		cli_err("lft: %s", err.msg);
		return -1;
	}
	while ((got = ftsw_text_line(&x, &err)) > 0) {
		char *p = x.line, *lid, *port, *save = NULL;
		uint32_t a, b, l;
		uint8_t pt;

		if (strchr(p, '#'))
			*strchr(p, '#') = 0;
		lid = strtok_r(p, " \t", &save);
		if (!lid)
			continue;
		port = strtok_r(NULL, " \t", &save);
		snprintf(what, sizeof(what), "%s:%u: LID", path, x.ln);
		if (!parse_range(what, lid, &a, &b))
			goto bad;
		snprintf(what, sizeof(what), "%s:%u: port", path, x.ln);
		if (port && !strcmp(port, "none")) {
			pt = FTSW_NO_ROUTE;
		} else {
			uint64_t v;

			if (!nlcli_num("lft", what, port, 0, 255, &v))
				goto bad;
			pt = (uint8_t)v;
		}
		if (strtok_r(NULL, " \t", &save)) {
			cli_err("lft: %s:%u: expected 'LID[-LID] PORT'", path,
				x.ln);
			goto bad;
		}
		for (l = a; l <= b; l++)
			edit_put(e, l, pt);
	}
	ftsw_text_close(&x);
	if (got < 0) {
		cli_err("lft: %s", err.msg);
		return -1;
	}
	return 0;
bad:
	ftsw_text_close(&x);
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

/* lft set: its words are edits in order, read here. */
static int lft_set(const struct cli_object *obj, const struct cli_cmd *cmd,
		   int argc, char **argv)
{
	struct edit e = { .lo = UINT32_MAX, .hi = UINT32_MAX };
	struct ftsw_nl *nl;
	uint32_t sw = 0;
	int i = 0, r;

	for (r = 0; r < argc; r++)
		if (!strcmp(argv[r], "help") || !strcmp(argv[r], "-h") ||
		    !strcmp(argv[r], "--help")) {
			cli_usage(stdout, obj, cmd);
			return 0;
		}

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

/* A LID's adaptive group, "P,P,..." (its ports), into buf; false: none. */
static bool group_str(const struct ftsw_ar_table *ar, uint32_t lid,
		      char *buf, size_t sz)
{
	uint8_t ports[255];
	unsigned n, i;
	size_t at = 0;

	if (!ar || lid >= FTSW_LFT_SIZE || !ar->grp[lid])
		return false;
	n = ftsw_ar_table_ports(ar, ar->grp[lid], ports);
	buf[0] = 0;
	for (i = 0; i < n && at < sz; i++)
		at += (size_t)snprintf(buf + at, sz - at, "%s%u", i ? "," : "",
				       ports[i]);
	return n > 0;
}

static void lft_print(uint32_t sw, bool staged, bool pending, uint32_t size,
		      const uint8_t *t, const struct ftsw_ar_table *ar)
{
	char lid[16], grp[1024];
	uint8_t ports[255];
	uint32_t l;
	unsigned i, n;

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
		ftsw_out_text("  lid %" PRIu32 " port %u", l, t[l]);
		if (group_str(ar, l, grp, sizeof(grp)))
			ftsw_out_text(" adaptive %s", grp);
		ftsw_out_text("\n");
	}
	ftsw_out_close_object();
	/* -j: the adaptive groups, LID -> ports, when the switch has any */
	if (ar && ar->nsets) {
		ftsw_out_open_object("adaptive");
		for (l = 0; l < FTSW_LFT_SIZE; l++) {
			if (!ar->grp[l])
				continue;
			snprintf(lid, sizeof(lid), "%" PRIu32, l);
			n = ftsw_ar_table_ports(ar, ar->grp[l], ports);
			ftsw_out_open_array(lid);
			for (i = 0; i < n; i++)
				ftsw_out_uint(NULL, NULL, ports[i]);
			ftsw_out_close_array();
		}
		ftsw_out_close_object();
	}
	ftsw_out_close_object();
}

/* One switch's tables read and printed: 0, or what netlink said. */
static int lft_show_one(struct ftsw_nl *nl, uint32_t sw, bool staged,
			uint8_t *t, struct ftsw_ar_table *ar)
{
	uint32_t size = 0;
	bool pending = false;
	int err;

	err = ftsw_nl_lft_get(nl, sw, staged, t, &size, &pending);
	if (!err)
		err = ftsw_nl_ar_get(nl, sw, staged, ar);
	if (!err)
		lft_print(sw, staged, pending, size, t, ar);
	return err;
}

struct lft_ids {
	uint32_t *id;
	size_t n, cap;
};

static int lft_collect(const struct ftsw_switch_info *si, void *arg)
{
	struct lft_ids *ids = arg;
	uint32_t *id;

	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? 2 * ids->cap : 64;
		id = realloc(ids->id, ids->cap * sizeof(*id));
		if (!id)
			return -ENOMEM;
		ids->id = id;
	}
	ids->id[ids->n++] = si->id;
	return 0;
}

/*
 * One switch's table as an object; without switch ID every switch's, in
 * the dump's order, as the array "switches" (-j) or one after another.
 */
static int lft_show(const struct cli_args *a)
{
	bool staged = a->v[S_STAGED].n;
	struct lft_ids ids = { NULL, 0, 0 };
	struct ftsw_ar_table *ar;
	struct ftsw_nl *nl;
	uint8_t *t;
	size_t i;
	int err;

	t = malloc(FTSW_LFT_SIZE);
	ar = malloc(sizeof(*ar));
	nl = t && ar ? nlcli_open() : NULL;
	if (!nl) {
		free(t);
		free(ar);
		return 1;
	}
	ftsw_out_begin(stdout, cli.json);
	if (a->v[S_SWITCH].n) {
		err = lft_show_one(nl, (uint32_t)a->v[S_SWITCH].u, staged, t, ar);
	} else {
		ftsw_out_open_object(NULL);
		ftsw_out_open_array("switches");
		err = ftsw_nl_switch_dump(nl, lft_collect, &ids);
		for (i = 0; !err && i < ids.n; i++)
			err = lft_show_one(nl, ids.id[i], staged, t, ar);
		ftsw_out_close_array();
		ftsw_out_close_object();
	}
	ftsw_out_end();
	free(ids.id);
	free(t);
	free(ar);
	if (err)
		return nlcli_fail(nl, "lft show");
	ftsw_nl_close(nl);
	return 0;
}

static int lft_discard(const struct cli_args *a)
{
	struct ftsw_nl *nl = nlcli_open();

	if (!nl)
		return 1;
	if (ftsw_nl_lft_discard(nl, a->v[0].n ? (int64_t)a->v[0].u : -1))
		return nlcli_fail(nl, "lft discard");
	ftsw_nl_close(nl);
	return 0;
}

const struct cli_cmd cli_cmds_lft[] = {
	{ "set", "switch ID (lid LID[-LID] port P | block FIRST P,P,... | "
	  "file PATH)...", "stage LFT entries ('ftsw commit' publishes them)",
	  CLI_STR, 0, CLI_MAX_POS, .opts = set_opts, .raw = lft_set },
	{ "show", "[switch ID] [staged]", "a switch's LFT, or every switch's", .opts = show_opts,
	  .run = lft_show },
	{ "discard", "[switch ID]", "drop staged entries (every switch's "
	  "without switch)", .opts = discard_opts, .run = lft_discard },
	{ NULL }
};
