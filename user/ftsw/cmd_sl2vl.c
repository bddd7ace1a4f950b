// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw sl2vl set switch ID VL,VL,... (16 values, SL 0..15)
 * ftsw sl2vl set switch ID sl S vl V [sl S vl V]...
 * ftsw sl2vl show [switch ID]
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"

static void sl2vl_usage(FILE *f)
{
	fprintf(f, "Usage: ftsw sl2vl set switch ID VL0,VL1,...,VL15\n"
		   "       ftsw sl2vl set switch ID sl S vl V [sl S vl V]...\n"
		   "       ftsw sl2vl show [switch ID]\n");
}

struct show_ctx {
	int n;
};

static int sl2vl_print(const struct ftsw_switch_info *si, void *arg)
{
	struct show_ctx *c = arg;
	int i;

	if (cli.json) {
		printf("%s{\"switch\":%u,\"sl2vl\":[", c->n ? "," : "", si->id);
		for (i = 0; i < FTSW_NUM_SL; i++)
			printf("%s%u", i ? "," : "", si->sl2vl[i]);
		printf("]}");
	} else {
		printf("switch %u sl2vl", si->id);
		for (i = 0; i < FTSW_NUM_SL; i++)
			printf(" %d:%u", i, si->sl2vl[i]);
		printf("\n");
	}
	c->n++;
	return 0;
}

int cmd_sl2vl(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	struct ftsw_switch_info si;
	struct show_ctx ctx = { 0 };
	bool have_sw = false;
	struct ftsw_nl *nl;
	uint32_t sw = 0;
	int i = 2, r, err;

	if (!strcmp(cmd, "help")) {
		sl2vl_usage(stdout);
		return 0;
	}
	r = i < argc ? nlcli_switch_arg(argc, argv, &i, &sw) : 0;
	if (r < 0)
		return nlcli_usage_err("sl2vl", argv[i - 1]);
	have_sw = r > 0;

	if (!strcmp(cmd, "show")) {
		if (i < argc)
			return nlcli_usage_err("sl2vl", argv[i]);
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (cli.json)
			printf("[");
		if (have_sw) {
			err = ftsw_nl_switch_get(nl, sw, &si);
			if (!err)
				sl2vl_print(&si, &ctx);
		} else {
			err = ftsw_nl_switch_dump(nl, sl2vl_print, &ctx);
		}
		if (cli.json)
			printf("]\n");
		if (err)
			return nlcli_fail(nl, "sl2vl show");
		ftsw_nl_close(nl);
		return 0;
	}
	if (strcmp(cmd, "set")) {
		sl2vl_usage(stderr);
		return 2;
	}
	if (!have_sw || i >= argc)
		return nlcli_usage_err("sl2vl", NULL);
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_switch_get(nl, sw, &si))
		return nlcli_fail(nl, "sl2vl set");
	if (strcmp(argv[i], "sl")) {
		/* A full list; the kernel checks every value. */
		if (i + 1 != argc ||
		    nlcli_list(argv[i], 255, si.sl2vl, FTSW_NUM_SL) != FTSW_NUM_SL) {
			ftsw_nl_close(nl);
			cli_err("sl2vl: give exactly 16 comma-separated VLs");
			return 2;
		}
	} else {
		while (i < argc) {
			const char *s, *v;
			uint64_t a, b;

			if (!nlcli_kv(argc, argv, &i, "sl", &s) ||
			    !nlcli_num(s, FTSW_NUM_SL - 1, &a) || i >= argc ||
			    !nlcli_kv(argc, argv, &i, "vl", &v) ||
			    !nlcli_num(v, 255, &b)) {
				ftsw_nl_close(nl);
				return nlcli_usage_err("sl2vl", i < argc ? argv[i] : NULL);
			}
			si.sl2vl[a] = (uint8_t)b;
		}
	}
	if (ftsw_nl_sl2vl_set(nl, sw, si.sl2vl))
		return nlcli_fail(nl, "sl2vl set");
	ftsw_nl_close(nl);
	return 0;
}
