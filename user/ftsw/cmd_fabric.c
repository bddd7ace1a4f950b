// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw fabric show | set [hop-limit N] [lossless on|off] [cc-timer-unit NS]
 *	| reset
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

enum { H_HOP_LIMIT, H_LOSSLESS, H_CC_TIMER, H_N };
static const char *const onoff[] = { "off", "on", NULL };
static const struct cli_opt set_opts[H_N + 1] = {
	[H_HOP_LIMIT] = { "hop-limit", NULL, CLI_NUM, "N", 1, 255,
			  .help = "switches a packet may cross before it drops" },
	[H_LOSSLESS] = { "lossless", NULL, CLI_WORD, "on|off", .words = onoff,
			 .help = "lossless mode (only while no port is bound)" },
	[H_CC_TIMER] = { "cc-timer-unit", NULL, CLI_NUM, "NS", 1,
			 FTSW_CC_TIMER_NS_MAX,
			 .help = "congestion control's CCTI_Timer unit "
				 "(IBA's: 1024)" },
};

static int fabric_show(const struct cli_args *a)
{
	struct ftsw_nl *nl = nlcli_open();
	struct ftsw_fabric_info fi;

	(void)a;
	if (!nl)
		return 1;
	if (ftsw_nl_fabric_get(nl, &fi))
		return nlcli_fail(nl, "fabric show");
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("generation", "generation %" PRIu64, fi.generation);
	ftsw_out_uint("switches", " switches %" PRIu64, fi.nswitches);
	ftsw_out_uint("ports", " ports %" PRIu64, fi.nports);
	ftsw_out_uint("hop_limit", " hop-limit %" PRIu64, fi.hop_limit);
	ftsw_out_uint("cc_timer_ns", " cc-timer-unit %" PRIu64 " ns",
		      fi.cc_timer_ns);
	ftsw_out_bool("lossless", NULL, fi.lossless);
	ftsw_out_text("%s\n", fi.lossless ? " lossless" : "");
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

static int fabric_set(const struct cli_args *a)
{
	struct ftsw_nl *nl;

	if (!a->v[H_HOP_LIMIT].n && !a->v[H_LOSSLESS].n &&
	    !a->v[H_CC_TIMER].n) {
		cli_err("fabric set: needs hop-limit N, lossless on|off or "
			"cc-timer-unit NS");
		return 2;
	}
	nl = nlcli_open();
	if (!nl)
		return 1;
	if (a->v[H_LOSSLESS].n &&
	    ftsw_nl_fabric_set_lossless(nl, a->v[H_LOSSLESS].u))
		return nlcli_fail(nl, "fabric set");
	if (a->v[H_HOP_LIMIT].n &&
	    ftsw_nl_fabric_set_hop_limit(nl, (uint8_t)a->v[H_HOP_LIMIT].u))
		return nlcli_fail(nl, "fabric set");
	if (a->v[H_CC_TIMER].n &&
	    ftsw_nl_fabric_set_cc_timer(nl, (uint32_t)a->v[H_CC_TIMER].u))
		return nlcli_fail(nl, "fabric set");
	ftsw_nl_close(nl);
	return 0;
}

static int fabric_reset(const struct cli_args *a)
{
	struct ftsw_nl *nl = nlcli_open();

	(void)a;
	if (!nl)
		return 1;
	if (ftsw_nl_fabric_reset(nl))
		return nlcli_fail(nl, "fabric reset");
	ftsw_nl_close(nl);
	return 0;
}

const struct cli_cmd cli_cmds_fabric[] = {
	{ "show", NULL, "generation, limits, LFT memory, drops by reason",
	  .run = fabric_show, .def = true },
	{ "set", "[hop-limit N] [lossless on|off] [cc-timer-unit NS]",
	  "tune the fabric",
	  .opts = set_opts,
	  .run = fabric_set },
	{ "reset", NULL, "remove every switch of this namespace's fabric",
	  .run = fabric_reset },
	{ NULL }
};

