// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw gw: the gateway that lets OpenSM and infiniband-diags (with ibsim's
 * libumad2sim.so preloaded) act through this namespace's host port
 * (gw/gw.h). Runs in the foreground until SIGINT or SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gw/gw.h"

enum { O_DEV, O_SOCK, O_NODE, O_LOG, O_TMO, O_TRIES, O_N };

static const struct cli_opt gw_opts[O_N + 1] = {
	[O_DEV] = { "--dev", "-d", CLI_STR, "DEV",
		    .help = "the host's device (default eth0)" },
	[O_SOCK] = { "--sock", NULL, CLI_STR, "NAME",
		     .help = "socket base name, the tools' IBSIM_SOCKNAME (default sim)" },
	[O_NODE] = { "--node", NULL, CLI_STR, "NAME",
		     .help = "node name answered to a connecting tool (default ftsw)" },
	[O_LOG] = { "--log", NULL, CLI_FILE, "FILE",
		    .help = "append the log to FILE (default standard error)" },
	[O_TMO] = { "--mad-timeout", NULL, CLI_NUM, "MS", 1, 600000,
		    .help = "a request without a response is sent again after MS ms (default 1000)" },
	[O_TRIES] = { "--mad-tries", NULL, CLI_NUM, "N", 1, 100,
		      .help = "sends of a request before it times out (default 4)" },
};

static const char gw_notes[] =
	"Serves ibsim's simulator protocol in this network namespace: run it in a\n"
	"lab host's namespace (ftsw lab exec H -- ftsw gw), then run OpenSM or\n"
	"infiniband-diags there with LD_PRELOAD=libumad2sim.so (ibsim-run) and\n"
	"IBSIM_SOCKNAME=NAME. Their MADs enter the fabric at the host's edge port.\n"
	"A request that gets no response is sent again, and after its last try\n"
	"given back to the tool as timed out (ETIMEDOUT), as the kernel's MAD\n"
	"layer does. -v logs every MAD. Stops on SIGINT or SIGTERM.\n";

static volatile sig_atomic_t gw_stop;

static void on_signal(int sig)
{
	(void)sig;
	gw_stop = 1;
}

static int gw_run(const struct cli_args *a)
{
	struct ftsw_gw_opts o = {
		.dev = a->v[O_DEV].n ? a->v[O_DEV].s : "eth0",
		.sockname = a->v[O_SOCK].n ? a->v[O_SOCK].s : NULL,
		.node = a->v[O_NODE].n ? a->v[O_NODE].s : NULL,
		.mad_timeout_ms = a->v[O_TMO].n ? (unsigned)a->v[O_TMO].u : 0,
		.mad_tries = a->v[O_TRIES].n ? (unsigned)a->v[O_TRIES].u : 0,
		.verbose = cli.verbose,
		.ready_fd = -1,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct ftsw_err err;
	FILE *log = NULL;
	int rc;

	if (o.sockname && !ftsw_gw_name_ok(o.sockname)) {
		cli_err("gw: --sock %s: 1..%d printable bytes without ':'",
			o.sockname, FTSW_GW_NAME_MAX);
		return 2;
	}
	if (a->v[O_LOG].n) {
		log = fopen(a->v[O_LOG].s, "ae");
		if (!log) {
			cli_err("gw: --log %s: %s", a->v[O_LOG].s, strerror(errno));
			return 1;
		}
		o.log = log;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = ftsw_gw_serve(&o, &gw_stop, &err);
	if (rc)
		cli_err("gw: %s", err.msg);
	if (log)
		fclose(log);
	return rc ? 1 : 0;
}

const struct cli_cmd cli_cmds_gw[] = {
	{ "", "[--dev DEV] [--sock NAME] [--node NAME] [--log FILE] [--mad-timeout MS] [--mad-tries N]",
	  "serve OpenSM and infiniband-diags through this host's port",
	  .opts = gw_opts, .notes = gw_notes, .run = gw_run },
	{ NULL }
};
