/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FTSW_CLI_H
#define FTSW_CLI_H

#include <stdbool.h>

/* Global options, parsed by main() before the object word. */
struct cli_opts {
	bool json;	/* -j */
	bool stats;	/* -s */
	bool verbose;	/* -v */
};

extern struct cli_opts cli;

/*
 * One entry per object word (`ftsw OBJECT COMMAND ...`). argv[0] is the
 * object word itself. Returns the process exit status.
 */
struct cli_object {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* Error helper: "ftsw: " prefix, message, newline, on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Object handlers, one file each (user/ftsw/cmd_*.c). */
int cmd_version(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_fabric(int argc, char **argv);
int cmd_switch(int argc, char **argv);
int cmd_port(int argc, char **argv);
int cmd_lft(int argc, char **argv);
int cmd_sl2vl(int argc, char **argv);
int cmd_commit(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_fm(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_order(int argc, char **argv);

#endif
