// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw monitor [count N]: print port and commit events as they come.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nlcli.h"
#include "util/output.h"

struct mon {
	uint64_t left;	/* 0: forever */
};

/* One event: one text line, or one JSON document per line. */
static int mon_event(const struct ftsw_event *ev, void *arg)
{
	struct mon *m = arg;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	if (ev->cmd == FTSW_CMD_COMMIT_EVENT) {
		ftsw_out_str("event", "%s", "commit");
		ftsw_out_uint("generation", " generation %" PRIu64 "\n",
			      ev->generation);
	} else {
		ftsw_out_str("event", "%s", "port");
		ftsw_out_str(NULL, " %s ", ev->port.admin_up &&
			     ev->port.oper_up ? "up" : "down");
		port_print("port", &ev->port, false);
	}
	ftsw_out_close_object();
	ftsw_out_end();
	if (m->left && !--m->left)
		return 1;
	return 0;
}

enum { M_COUNT, M_N };
static const struct cli_opt mon_opts[M_N + 1] = {
	[M_COUNT] = { "count", NULL, CLI_NUM, "N", 1, UINT64_MAX,
		      .help = "stop after N events (default: never)" },
};

static int monitor_run(const struct cli_args *a)
{
	struct mon m = { .left = a->v[M_COUNT].u };
	struct ftsw_nl *nl = nlcli_open();
	int r;

	if (!nl)
		return 1;
	if (ftsw_nl_subscribe(nl))
		return nlcli_fail(nl, "monitor");
	/* Tell scripts waiting for us that the subscription is live. */
	if (!cli.json)
		fprintf(stderr, "ftsw: monitoring events\n");
	for (;;) {
		r = ftsw_nl_event_recv(nl, mon_event, &m);
		if (r < 0)
			return nlcli_fail(nl, "monitor");
		if (r > 0)
			break;
	}
	ftsw_nl_close(nl);
	return 0;
}

const struct cli_cmd cli_cmds_monitor[] = {
	{ "", "[count N]", "print port state changes and commits of this "
	  "namespace's fabric (-j: one JSON document per line)",
	  .opts = mon_opts, .run = monitor_run },
	{ NULL }
};
