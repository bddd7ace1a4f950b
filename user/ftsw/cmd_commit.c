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

static int commit_run(const struct cli_args *a)
{
	struct ftsw_nl *nl = nlcli_open();
	uint64_t gen;

	(void)a;
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

const struct cli_cmd cli_cmds_commit[] = {
	{ "", NULL, "publish every staged LFT at once; prints the generation",
	  .run = commit_run },
	{ NULL }
};
