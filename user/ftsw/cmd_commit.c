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

const struct cli_cmd cli_cmds_commit[] = {
	{ "", NULL, "publish every staged LFT at once; prints the generation",
	  .opts = NULL },
	{ NULL }
};

int cmd_commit(int argc, char **argv)
{
	struct ftsw_nl *nl;
	struct cli_args a;
	uint64_t gen;
	int rc = 0;

	if (!nlcli_parse("commit", "", argc, argv, &a, &rc))
		return rc;
	cli_args_free(&a);
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
