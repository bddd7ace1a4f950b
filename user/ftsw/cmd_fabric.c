// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw fabric show | set hop-limit N | reset
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

static void fabric_usage(FILE *f)
{
	fprintf(f, "Usage: ftsw fabric show\n"
		   "       ftsw fabric set hop-limit N\n"
		   "       ftsw fabric reset\n");
}

static int fabric_show(struct ftsw_nl *nl)
{
	struct ftsw_fabric_info fi;

	if (ftsw_nl_fabric_get(nl, &fi))
		return nlcli_fail(nl, "fabric show");
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("generation", "generation %" PRIu64, fi.generation);
	ftsw_out_uint("switches", " switches %" PRIu64, fi.nswitches);
	ftsw_out_uint("ports", " ports %" PRIu64, fi.nports);
	ftsw_out_uint("hop_limit", " hop-limit %" PRIu64 "\n", fi.hop_limit);
	ftsw_out_uint("max_switches", "limits: switches %" PRIu64,
		      fi.max_switches);
	ftsw_out_uint("max_lid", " lid 0x%" PRIx64, fi.max_lid);
	ftsw_out_uint("max_ports", " ports %" PRIu64 "\n", fi.max_ports);
	ftsw_out_uint("lft_bytes", "lft memory %" PRIu64 " bytes\n",
		      fi.lft_bytes);
	ftsw_out_text("drops:");
	nlcli_print_drops("drops", fi.drops, " %s %" PRIu64, false);
	ftsw_out_text("\n");
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_nl_close(nl);
	return 0;
}

int cmd_fabric(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";
	struct ftsw_nl *nl;

	if (!strcmp(cmd, "help")) {
		fabric_usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "show") && strcmp(cmd, "set") && strcmp(cmd, "reset")) {
		fabric_usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "set")) {
		uint64_t v;

		if (argc != 4 || strcmp(argv[2], "hop-limit"))
			return nlcli_usage_err("fabric", argc > 2 ? argv[2] : NULL);
		if (!nlcli_num("fabric", "hop-limit", argv[3], 1, 255, &v))
			return 2;
		nl = nlcli_open();
		if (!nl)
			return 1;
		if (ftsw_nl_fabric_set_hop_limit(nl, (uint8_t)v))
			return nlcli_fail(nl, "fabric set");
		ftsw_nl_close(nl);
		return 0;
	}
	if (argc > 2)
		return nlcli_usage_err("fabric", argv[2]);
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (!strcmp(cmd, "reset")) {
		if (ftsw_nl_fabric_reset(nl))
			return nlcli_fail(nl, "fabric reset");
		ftsw_nl_close(nl);
		return 0;
	}
	return fabric_show(nl);
}
