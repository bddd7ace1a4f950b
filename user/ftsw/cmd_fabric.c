// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw fabric show | set hop-limit N | reset
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"

static void fabric_usage(FILE *f)
{
	fprintf(f, "Usage: ftsw fabric show\n"
		   "       ftsw fabric set hop-limit N\n"
		   "       ftsw fabric reset\n");
}

static int fabric_show(struct ftsw_nl *nl)
{
	struct ftsw_fabric_info fi;
	int i;

	if (ftsw_nl_fabric_get(nl, &fi))
		return nlcli_fail(nl, "fabric show");
	if (cli.json) {
		printf("{\"generation\":%" PRIu64 ",\"switches\":%u,\"ports\":%u,"
		       "\"max_switches\":%u,\"max_lid\":%u,\"max_ports\":%u,"
		       "\"hop_limit\":%u,\"lft_bytes\":%" PRIu64 ",\"drops\":{",
		       fi.generation, fi.nswitches, fi.nports, fi.max_switches,
		       fi.max_lid, fi.max_ports, fi.hop_limit, fi.lft_bytes);
		for (i = 1; i <= FTSW_DROP_MAX; i++)
			printf("%s\"%s\":%" PRIu64, i > 1 ? "," : "",
			       ftsw_drop_name(i), fi.drops[i]);
		printf("}}\n");
	} else {
		printf("generation %" PRIu64 " switches %u ports %u hop-limit %u\n",
		       fi.generation, fi.nswitches, fi.nports, fi.hop_limit);
		printf("limits: switches %u lid 0x%x ports %u\n",
		       fi.max_switches, fi.max_lid, fi.max_ports);
		printf("lft memory %" PRIu64 " bytes\n", fi.lft_bytes);
		printf("drops:");
		for (i = 1; i <= FTSW_DROP_MAX; i++)
			printf(" %s %" PRIu64, ftsw_drop_name(i), fi.drops[i]);
		printf("\n");
	}
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

		if (argc != 4 || strcmp(argv[2], "hop-limit") ||
		    !nlcli_num(argv[3], 255, &v) || !v)
			return nlcli_usage_err("fabric", argc > 3 ? argv[3] : NULL);
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
