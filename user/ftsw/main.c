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
#include "util/parse.h"
#include "util/text.h"

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

	fprintf(f, "Usage: ftsw [-j] [-s] [-v] OBJECT COMMAND [ARGS...]\n"
		   "       ftsw [-j] [-s] [-v] [-force] -batch FILE\n\n"
		   "Objects:\n");
	for (o = cli_objects; o->name; o++)
		fprintf(f, "  %-10s %s\n", o->name, o->summary);
	fprintf(f, "\nftsw OBJECT help shows an object's commands; man -l "
		   "Documentation/ftsw.8 has them all,\nDocumentation/tutorial/"
		   " three lessons to learn them by.\n");
}

/* One command: OBJECT COMMAND [ARGS...]. */
static int run(int argc, char **argv)
{
	const struct cli_object *obj;

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

/*
 * -batch FILE ('-': standard input): one command a line, as ip -batch
 * reads them, in one process (a script's hundred commands cost one exec).
 * The first that fails stops the batch, named by FILE:LINE, with its exit
 * status; with -force every line runs and the status is 1 if any failed.
 */
#define BATCH_WORDS 256

static int batch(const char *path, bool force)
{
	struct ftsw_text x;
	struct ftsw_err err;
	char *words[BATCH_WORDS];
	int got, n, rc, worst = 0;

	if (strcmp(path, "-") ?
	    ftsw_text_open(&x, path, FTSW_TEXT_LINE, 64 << 20, &err) :
	    ftsw_text_attach(&x, stdin, "<stdin>", FTSW_TEXT_LINE, 64 << 20,
			     &err)) {
		cli_err("-batch: %s", err.msg);
		return 2;
	}
	while ((got = ftsw_text_line(&x, &err)) > 0) {
		n = ftsw_parse_words(x.line, words, BATCH_WORDS, &err);
		if (n < 0) {
			cli_err("%s:%u: %s", x.path, x.ln, err.msg);
			rc = 2;
		} else if (n == 0) {
			continue;
		} else {
			rc = run(n, words);
			if (fflush(stdout))
				rc = 1;
			if (rc)
				cli_err("%s:%u: '%s' failed", x.path, x.ln,
					words[0]);
		}
		if (rc && !force) {
			ftsw_text_close(&x);
			return rc;
		}
		if (rc)
			worst = 1;
	}
	ftsw_text_close(&x);
	if (got < 0) {
		cli_err("-batch: %s", err.msg);
		return 2;
	}
	return worst;
}

int main(int argc, char **argv)
{
	const char *batch_file = NULL;
	bool force = false;

	for (argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		const char *o = argv[0];

		if (!strcmp(o, "-j") || !strcmp(o, "-json") || !strcmp(o, "--json"))
			cli.json = true;
		else if (!strcmp(o, "-s") || !strcmp(o, "-stats"))
			cli.stats = true;
		else if (!strcmp(o, "-v") || !strcmp(o, "--verbose"))
			cli.verbose = true;
		else if (!strcmp(o, "-force"))
			force = true;
		else if (!strcmp(o, "-b") || !strcmp(o, "-batch")) {
			if (argc < 2) {
				cli_err("%s needs a file ('-': standard input)", o);
				return 2;
			}
			batch_file = argv[1];
			argc--, argv++;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else {
			cli_err("unknown option '%s' (try ftsw --help)", o);
			return 2;
		}
	}
	if (batch_file) {
		if (argc) {
			cli_err("-batch takes its commands from %s, not the command line",
				batch_file);
			return 2;
		}
		return batch(batch_file, force);
	}
	if (argc == 0) {
		usage(stderr);
		return 2;
	}
	return run(argc, argv);
}
