// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw commit: publish every staged LFT of the fabric at once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

int cmd_commit(int argc, char **argv)
{
	struct ftsw_nl *nl;
	uint64_t gen;

	if (argc > 1 && !strcmp(argv[1], "help")) {
		printf("Usage: ftsw commit\n"
		       "Publishes every staged LFT at once; prints the generation.\n");
		return 0;
	}
	if (argc > 1)
		return nlcli_usage_err("commit", argv[1]);
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (ftsw_nl_commit(nl, &gen))
		return nlcli_fail(nl, "commit");
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("generation", "generation %" PRIu64 "\n", gen);
	ftsw_out_close_object();
	ftsw_out_end();
	ftsw_nl_close(nl);
	return 0;
}
