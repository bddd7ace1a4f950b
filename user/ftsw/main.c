// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the command line. iproute2 conventions: `ftsw [OPTIONS] OBJECT
 * COMMAND [ARGS]`, -j for JSON, -s for statistics. All logic lives in
 * libftsw; each object's handler is in its own cmd_*.c file, its commands
 * and options in tables (cli.h) that also drive help and completion.
 */
#include <stdio.h>
#include <string.h>

#include "libftsw.h"
#include "cli.h"
#include "util/output.h"

struct cli_opts cli;

const struct cli_object cli_objects[] = {
	{ "version", "print the version", cli_cmds_version },
	{ "topo", "generate, show and degrade fat-tree topologies",
	  cli_cmds_topo },
	{ "route", "compute, check and convert routing tables",
	  cli_cmds_route },
	{ "fabric", "show, tune or reset this namespace's fabric",
	  cli_cmds_fabric },
	{ "switch", "add, delete and show switches", cli_cmds_switch },
	{ "port", "bind, unbind, set and show switch ports", cli_cmds_port },
	{ "lft", "write and show linear forwarding tables", cli_cmds_lft },
	{ "sl2vl", "set and show SL to VL tables", cli_cmds_sl2vl },
	{ "commit", "publish every staged LFT at once", cli_cmds_commit },
	{ "plan", "the address plan the fabric answers ARP/ND from",
	  cli_cmds_plan },
	{ "monitor", "print port and commit events", cli_cmds_monitor },
	{ "lab", "a fat-tree of namespaces with real packets", cli_cmds_lab },
	{ "fm", "the fabric manager: discover, route, reroute on failures",
	  cli_cmds_fm },
	{ "analyze", "link loads and metrics of a routing under traffic",
	  cli_cmds_analyze },
	{ "order", "MPI node order: rankfiles and hostfiles", cli_cmds_order },
	{ "completion", "print the shell completion script",
	  cli_cmds_completion },
	{ "sim", "flit-level simulation: throughput, latency, deadlock",
	  cli_cmds_sim },
	{ "gw", "serve OpenSM and infiniband-diags through a host's port",
	  cli_cmds_gw },
	{ NULL }
};

static int version_run(const struct cli_args *a)
{
	(void)a;
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("version", "ftsw %s\n", ftsw_version());
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

static int completion_run(const struct cli_args *a)
{
	(void)a;
	cli_completion_bash(stdout);
	return fflush(stdout) ? 1 : 0;
}

const struct cli_cmd cli_cmds_version[] = {
	{ "", NULL, "print the version", .run = version_run },
	{ NULL }
};

const struct cli_cmd cli_cmds_completion[] = {
	{ "bash", NULL, "the bash completion script (source it, or install "
	  "it as /usr/share/bash-completion/completions/ftsw)",
	  .run = completion_run },
	{ NULL }
};

static void usage(FILE *f)
{
	const struct cli_object *o;

	fprintf(f, "Usage: ftsw [-j] [-s] [-v] OBJECT COMMAND [ARGS...]\n\n"
		   "Objects:\n");
	for (o = cli_objects; o->name; o++)
		fprintf(f, "  %-10s %s\n", o->name, o->summary);
	fprintf(f, "\nftsw OBJECT help shows an object's commands; man -l "
		   "Documentation/ftsw.8 has them all,\nDocumentation/tutorial/"
		   " three lessons to learn them by.\n");
}

int main(int argc, char **argv)
{
	const struct cli_object *obj;

	for (argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		const char *o = argv[0];

		if (!strcmp(o, "-j") || !strcmp(o, "-json") || !strcmp(o, "--json"))
			cli.json = true;
		else if (!strcmp(o, "-s") || !strcmp(o, "-stats"))
			cli.stats = true;
		else if (!strcmp(o, "-v") || !strcmp(o, "--verbose"))
			cli.verbose = true;
		else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else {
			cli_err("unknown option '%s' (try ftsw --help)", o);
			return 2;
		}
	}
	if (argc == 0) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[0], "help")) {	/* what a new user types first */
		usage(stdout);
		return 0;
	}
	obj = cli_find_object(argv[0]);
	/* every JSON object says which ftsw made it (version: it is one) */
	if (obj && strcmp(obj->name, "version"))
		ftsw_out_stamp("ftsw_version", ftsw_version());
	if (obj)
		return cli_dispatch(obj->name, argc, argv);
	cli_err("unknown object '%s' (try ftsw --help)", argv[0]);
	return 2;
}
