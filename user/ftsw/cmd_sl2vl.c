// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw sl2vl set switch ID VL,VL,... (16 values, SL 0..15)
 * ftsw sl2vl set switch ID sl S vl V [sl S vl V]...
 * ftsw sl2vl show [switch ID]
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

/*
 * sl2vl set's "sl S vl V" pairs are read by sl2vl_pairs() in order; the
 * table describes them for the help and the completion.
 */
enum { Y_SWITCH, Y_SL, Y_VL, Y_N };
static const struct cli_opt set_opts[Y_N + 1] = {
	[Y_SWITCH] = NLCLI_OPT_SWITCH(true),
	[Y_SL] = { "sl", NULL, CLI_NUM, "S", 0, FTSW_NUM_SL - 1,
		   .repeat = true, .help = "service level ..." },
	[Y_VL] = { "vl", NULL, CLI_NUM, "V", 0, 255, .repeat = true,
		   .help = "... and its virtual lane" },
};
static const struct cli_opt show_opts[2] = {
	NLCLI_OPT_SWITCH(false),
};

static int sl2vl_print(const struct ftsw_switch_info *si, void *arg)
{
	int i;

	(void)arg;
	ftsw_out_open_object(NULL);
	ftsw_out_uint("switch", "switch %" PRIu64 " sl2vl", si->id);
	ftsw_out_open_array("sl2vl");
	for (i = 0; i < FTSW_NUM_SL; i++) {
		ftsw_out_uint(NULL, NULL, si->sl2vl[i]);
		ftsw_out_text(" %d:%u", i, si->sl2vl[i]);
	}
	ftsw_out_close_array();
	ftsw_out_text("\n");
	ftsw_out_close_object();
	return 0;
}

static int sl2vl_show(const struct cli_args *a)
{
	bool have_sw = a->v[0].n;
	uint32_t sw = (uint32_t)a->v[0].u;
	struct ftsw_nl *nl = nlcli_open();

	if (!nl)
		return 1;
	if (nlcli_switch_show(nl, have_sw, sw, sl2vl_print))
		return nlcli_fail(nl, "sl2vl show");
	ftsw_nl_close(nl);
	return 0;
}

/* "sl S vl V" pairs from argv[i] on into vl: 0 or an exit status. */
static int sl2vl_pairs(int argc, char **argv, int i, uint8_t *vl)
{
	while (i < argc) {
		const char *s, *v;
		uint64_t a, b;

		if (!nlcli_kv(argc, argv, &i, "sl", &s))
			return nlcli_usage_err("sl2vl", argv[i]);
		if (!nlcli_num("sl2vl", "sl", s, 0, FTSW_NUM_SL - 1, &a))
			return 2;
		if (i >= argc || !nlcli_kv(argc, argv, &i, "vl", &v))
			return nlcli_usage_err("sl2vl", i < argc ? argv[i] : NULL);
		if (!nlcli_num("sl2vl", "vl", v, 0, 255, &b))
			return 2;
		vl[a] = (uint8_t)b;
	}
	return 0;
}

/* sl2vl set: a full list or sl S vl V pairs, read here. */
static int sl2vl_set(const struct cli_object *obj, const struct cli_cmd *cmd,
		     int argc, char **argv)
{
	struct ftsw_switch_info si;
	struct ftsw_nl *nl;
	uint32_t sw = 0;
	int i = 0, r;

	(void)obj;
	(void)cmd;
	r = i < argc ? nlcli_switch_arg("sl2vl", argc, argv, &i, &sw) : 0;
	if (r < 0)
		return 2;
	if (!r || i >= argc)
		return nlcli_usage_err("sl2vl", NULL);
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_switch_get(nl, sw, &si))
		return nlcli_fail(nl, "sl2vl set");
	if (strcmp(argv[i], "sl")) {
		/* A full list; the kernel checks every value. */
		r = i + 1 == argc ? nlcli_list("sl2vl", "VL list", argv[i], 255,
					       si.sl2vl, FTSW_NUM_SL) : -1;
		if (r != FTSW_NUM_SL) {
			ftsw_nl_close(nl);
			cli_err("sl2vl: give exactly 16 comma-separated VLs");
			return 2;
		}
	} else {
		r = sl2vl_pairs(argc, argv, i, si.sl2vl);
		if (r) {
			ftsw_nl_close(nl);
			return r;
		}
	}
	if (ftsw_nl_sl2vl_set(nl, sw, si.sl2vl))
		return nlcli_fail(nl, "sl2vl set");
	ftsw_nl_close(nl);
	return 0;
}

const struct cli_cmd cli_cmds_sl2vl[] = {
	{ "set", "switch ID (VL0,VL1,...,VL15 | sl S vl V [sl S vl V]...)",
	  "a switch's SL to VL table", CLI_STR, 0, 1, .opts = set_opts,
	  .raw = sl2vl_set },
	{ "show", "[switch ID]", "every switch's SL to VL table, or one",
	  .opts = show_opts, .run = sl2vl_show, .def = true },
	{ NULL }
};
