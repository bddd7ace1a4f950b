// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw: the command line. iproute2 conventions: `ftsw [OPTIONS] OBJECT
 * COMMAND [ARGS]`, -j for JSON, -s for statistics. All logic lives in
 * libftsw; each object's handler is in its own cmd_*.c file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libftsw.h"
#include "cli.h"

struct cli_opts cli;

static const struct cli_object objects[] = {
	{ "version", "print the version", cmd_version },
	{ "topo", "generate, show and degrade fat-tree topologies", cmd_topo },
	{ "route", "compute, check and convert routing tables", cmd_route },
	{ "fabric", "show, tune or reset this namespace's fabric", cmd_fabric },
	{ "switch", "add, delete and show switches", cmd_switch },
	{ "port", "bind, unbind, set and show switch ports", cmd_port },
	{ "lft", "write and show linear forwarding tables", cmd_lft },
	{ "sl2vl", "set and show SL to VL tables", cmd_sl2vl },
	{ "commit", "publish every staged LFT at once", cmd_commit },
	{ "plan", "the address plan the fabric answers ARP/ND from", cmd_plan },
	{ "monitor", "print port and commit events", cmd_monitor },
	{ "lab", "a fat-tree of namespaces with real packets", cmd_lab },
	{ "fm", "the fabric manager: discover, route, reroute on failures", cmd_fm },
	{ "analyze", "link loads and metrics of a routing under traffic", cmd_analyze },
	{ "order", "MPI node order: rankfiles and hostfiles", cmd_order },
};

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("ftsw: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (cli.json)
		printf("{\"version\":\"%s\"}\n", ftsw_version());
	else
		printf("ftsw %s\n", ftsw_version());
	return 0;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ftsw [-j] [-s] [-v] OBJECT COMMAND [ARGS...]\n\n"
		   "Objects:\n");
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		fprintf(f, "  %-10s %s\n", objects[i].name, objects[i].summary);
	fprintf(f, "\nftsw OBJECT help shows an object's commands.\n");
}

int main(int argc, char **argv)
{
	size_t i;

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
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (!strcmp(argv[0], objects[i].name))
			return objects[i].run(argc, argv);
	cli_err("unknown object '%s' (try ftsw --help)", argv[0]);
	return 2;
}
