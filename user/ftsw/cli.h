/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftsw command line: `ftsw [-j] [-s] [-v] OBJECT [COMMAND] [OPTIONS]`.
 *
 * Every command describes its options in a table (struct cli_cmd, struct
 * cli_opt): name, alias, whether it takes a value and what kind of value.
 * The same table parses the command line (cli_parse), prints its help
 * (cli_usage) and generates the bash completion (`ftsw completion bash`),
 * so the three never disagree. Options shared by several commands are
 * spelled once below (CLI_OPT_TOPO, ...) so that the same option means
 * the same thing everywhere.
 *
 * An object handler, cmd_NAME.c:
 *
 *	enum { O_TOPO, O_LMC, O_N };
 *	static const struct cli_opt up_opts[O_N + 1] = {
 *		[O_TOPO] = CLI_OPT_TOPO_REQUIRED,
 *		[O_LMC] = CLI_OPT_LMC,
 *	};
 *	static int up_run(const struct cli_args *a)
 *	{
 *		... a->v[O_TOPO].s, a->v[O_LMC].n ? a->v[O_LMC].u : 0 ...
 *	}
 *	const struct cli_cmd cli_cmds_NAME[] = {	(last in the file)
 *		{ "up", "-t TOPO [--lmc N]", "what it does",
 *		  .opts = up_opts, .run = up_run },
 *		{ NULL }
 *	};
 *
 * and a row { "NAME", "summary", NULL, cli_cmds_NAME } in main.c's
 * cli_objects: main() runs cli_dispatch() for an object without a handler
 * of its own. The table's name is declared below, so defining it is all it
 * takes for help and completion to know the object's commands. Values arrive checked: numbers in range (u), words
 * by index (u), engines known, repeated options in all[].
 */
#ifndef FTSW_CLI_H
#define FTSW_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* Global options, parsed by main() before the object word. */
struct cli_opts {
	bool json;	/* -j */
	bool stats;	/* -s */
	bool verbose;	/* -v */
};

extern struct cli_opts cli;

/* What an option's value (or a positional argument) is. */
enum cli_kind {
	CLI_FLAG,	/* no value */
	CLI_STR,	/* free text (names, lists) */
	CLI_FILE,	/* a path */
	CLI_ENGINE,	/* a routing engine name (ftsw_engines()) */
	CLI_TOPO,	/* a net file or a generator spec (ftsw_topo_open) */
	CLI_SPEC,	/* a generator spec only (ftsw_topo_gen) */
	CLI_PATTERN,	/* a traffic pattern spec (ftsw_pattern_make) */
	CLI_ORDER,	/* a node order spec (ftsw_order_make) */
	CLI_NUM,	/* an unsigned integer in min..max (util/parse.h) */
	CLI_WORD,	/* one of words[] */
};

struct cli_opt {
	const char *name;		/* "-t", "--lmc" */
	const char *alias;		/* another spelling, or NULL */
	enum cli_kind kind;
	const char *arg;		/* its value in help: "TOPO", "N" */
	uint64_t min, max;		/* CLI_NUM */
	const char *const *words;	/* CLI_WORD: NULL-terminated */
	bool repeat;			/* may be given more than once */
	bool required;
	const char *help;		/* one line */
};

struct cli_args;

/*
 * One command of an object. name "" is the object's default command
 * (`ftsw route -a dmodk ...`, `ftsw analyze ...`). opts ends with an
 * entry whose name is NULL.
 */
struct cli_object;

struct cli_cmd {
	const char *name;
	const char *synopsis;		/* after "ftsw OBJECT COMMAND" */
	const char *summary;
	enum cli_kind pos_kind;		/* positional arguments, if any */
	unsigned pos_min, pos_max;
	const struct cli_opt *opts;
	const char *notes;		/* more help text, or NULL */
	/* run the parsed command: the process exit status */
	int (*run)(const struct cli_args *a);
	/*
	 * Or, for words the table cannot describe (a command line after
	 * "--", LFT edits): the command reads the words after "ftsw OBJECT
	 * COMMAND" itself; the table still gives its help and completion.
	 */
	int (*raw)(const struct cli_object *obj, const struct cli_cmd *cmd,
		   int argc, char **argv);
	bool def;	/* what `ftsw OBJECT` alone runs (else the "" command) */
	bool hidden;	/* left out of help and completion */
};

/*
 * One entry per object word; main() runs its commands with cli_dispatch().
 * cmds ends with an entry whose name is NULL.
 */
struct cli_object {
	const char *name;
	const char *summary;
	const struct cli_cmd *cmds;
};

/* The objects, in help order, ended by an entry whose name is NULL. */
extern const struct cli_object cli_objects[];

/* The shared options: one spelling, one meaning, one range. */
#define CLI_LMC_MAX	7	/* FTSW_LMC_MAX */
#define CLI_OPT_TOPO { "-t", "--topo", CLI_TOPO, "TOPO", \
	.help = "a net file or a generator spec (ftmn:8,2, pgft:...)" }
#define CLI_OPT_TOPO_REQUIRED { "-t", "--topo", CLI_TOPO, "TOPO", \
	.required = true, \
	.help = "a net file or a generator spec (ftmn:8,2, pgft:...)" }
#define CLI_OPT_ENGINE { "-a", "--engine", CLI_ENGINE, "ENGINE", \
	.help = "routing engine (ftsw route list; default dmodk on a " \
		"complete PGFT, dmodc on a degraded one, else dfsssp)" }
#define CLI_OPT_LMC { "--lmc", NULL, CLI_NUM, "N", 0, CLI_LMC_MAX, \
	.help = "2^N LIDs per host (default: the smallest the engine needs)" }
#define CLI_OPT_SEED { "--seed", NULL, CLI_NUM, "S", 0, UINT64_MAX, \
	.help = "seed for whatever is random" }
#define CLI_OPT_PATHS { "--paths", NULL, CLI_NUM, "K", 1, 128, \
	.help = "multipath engines: K paths per pair (LMC to fit)" }
#define CLI_OPT_THREADS { "--threads", NULL, CLI_NUM, "N", 0, 256, \
	.help = "worker threads (default: all CPUs)" }
#define CLI_OPT_EXTENDED_LIDS { "--extended-lids", NULL, CLI_FLAG, \
	.help = "allow LIDs past 0xBFFF (analysis only)" }
#define CLI_OPT_MAX_VLS { "--max-vls", NULL, CLI_NUM, "N", 1, 15, \
	.help = "dfsssp, lash, dor: virtual layers allowed (default 8)" }
#define CLI_OPT_ADAPTIVE { "--adaptive", NULL, CLI_FLAG, \
	.help = "adaptive routing groups: every port as good as the " \
		"static one (Documentation/congestion.md)" }
#define CLI_OPT_GROUPS { "--groups", NULL, CLI_FILE, "FILE", \
	.help = "read adaptive routing groups (route --write-groups)" }
#define CLI_OPT_PATTERN { "-p", "--pattern", CLI_PATTERN, "PATTERN", \
	.help = "traffic pattern (default perm)" }
#define CLI_OPT_ORDER { "--order", NULL, CLI_ORDER, "ORDER", \
	.help = "rank -> host order (default topo)" }
#define CLI_OPT_RANKS { "--ranks", NULL, CLI_NUM, "N", 1, UINT32_MAX, \
	.help = "ranks: a partial allocation (default all hosts)" }
#define CLI_OPT_OUTPUT { "-o", "--output", CLI_FILE, "FILE", \
	.help = "write FILE atomically (- or none: standard output)" }

/* A parsed option: given n times, last value s (and u for numbers). */
struct cli_val {
	unsigned n;
	const char *s;
	uint64_t u;		/* CLI_NUM: the value; CLI_WORD: its index */
	const char **all;	/* repeat options: the n values */
};

#define CLI_MAX_OPTS	48
#define CLI_MAX_POS	8

struct cli_args {
	const struct cli_cmd *cmd;
	struct cli_val v[CLI_MAX_OPTS];	/* indexed as cmd->opts */
	const char *pos[CLI_MAX_POS];
	unsigned npos;
};

/*
 * Parse argv (the words after the command word) against cmd's table.
 * Returns 0, CLI_HELP when help was asked for and printed, or CLI_USAGE
 * after printing an error that names the option. a is always safe to
 * cli_args_free.
 */
#define CLI_HELP	1
#define CLI_USAGE	2
int cli_parse(const struct cli_object *obj, const struct cli_cmd *cmd,
	      int argc, char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
/* Exit status for a non-zero cli_parse result: 0 after help, else 2. */
static inline int cli_parse_exit(int rc)
{
	return rc == CLI_HELP ? 0 : 2;
}

/*
 * The value of the option spelled name in a's table (a zero value when
 * the command has no such option).
 */
const struct cli_val *cli_val_of(const struct cli_args *a, const char *name);
struct ftsw_route_req;
struct ftsw_routing;
/*
 * The routing a command asks for, from the options it has (-a ENGINE,
 * -r LFTS, CLI_OPT_LMC, _SEED, _PATHS, _THREADS, _MAX_VLS,
 * _EXTENDED_LIDS, _ADAPTIVE, _GROUPS), into q for ftsw_route_make().
 */
void cli_route_req(const struct cli_args *a, struct ftsw_route_req *q);

/*
 * Find the command argv[1] names (or the default command "" when argv[1]
 * is absent or an option). *shift is set to the words to skip (1 or 2)
 * so that argv + *shift are the command's own words. NULL (after an
 * error naming the word, *shift = -1) when there is no such command; with "help",
 * the object's help is printed and NULL returned with *shift = 0.
 */
const struct cli_cmd *cli_find_cmd(const struct cli_object *obj, int argc,
				   char **argv, int *shift);
/*
 * One rule for every object: options may come before the command word
 * (`ftsw fm --lab L status` is `ftsw fm status --lab L`). When argv[1..]
 * starts with options of obj's commands (and their values) followed by a
 * command's name, that name is moved to argv[1]. cli_find_cmd does it.
 */
void cli_cmd_word_first(const struct cli_object *obj, int argc, char **argv);
/*
 * The whole of an object handler: find the command argv[1] names, parse
 * its words by its table, run it. With no words at all and a default
 * command that needs options, the object's help goes to stderr (2).
 */
int cli_dispatch(const char *object, int argc, char **argv);

/* Look an object up by name. */
const struct cli_object *cli_find_object(const char *name);

/* Help of one command (cmd non-NULL) or of the whole object. */
void cli_usage(FILE *f, const struct cli_object *obj,
	       const struct cli_cmd *cmd);

/* `ftsw completion bash`: the completion script, from the tables. */
void cli_completion_bash(FILE *f);

/*
 * Seconds since t0 (ftsw_now_us()), computed from whole microseconds so
 * that the value prints without float noise.
 */
static inline double cli_seconds_since(uint64_t t0_us)
{
	return (double)(ftsw_now_us() - t0_us) / 1e6;
}

/*
 * A routing's warning (dor without a torus's coordinates, unroutable
 * pairs...) in text: once, on stderr ("ftsw: warning: ..."); with -j the
 * command puts it in its document instead.
 */
void cli_route_warning(const struct ftsw_routing *r);

/*
 * A daemon's child leaves its terminal: a session of its own, standard
 * output and error appended to log, standard input /dev/null.
 */
void cli_detach(const char *log);

/* Error helper: "ftsw: " prefix, message, newline, on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Progress on stderr for the library's long calls (ftsw_progress_fn, on a
 * terminal only): a counter rewriting its line, a note (total 0) on a
 * line of its own after arg (the command's name), the line cleared when
 * the call is done (what NULL).
 */
void cli_progress(const char *what, uint64_t done, uint64_t total,
		  void *arg);

/* The objects' command tables. */
#define CLI_TABLE(x) extern const struct cli_cmd x[]
CLI_TABLE(cli_cmds_version);
CLI_TABLE(cli_cmds_completion);
CLI_TABLE(cli_cmds_topo);
CLI_TABLE(cli_cmds_route);
CLI_TABLE(cli_cmds_analyze);
CLI_TABLE(cli_cmds_order);
CLI_TABLE(cli_cmds_sim);
CLI_TABLE(cli_cmds_plan);
CLI_TABLE(cli_cmds_gw);
CLI_TABLE(cli_cmds_fabric);
CLI_TABLE(cli_cmds_switch);
CLI_TABLE(cli_cmds_port);
CLI_TABLE(cli_cmds_lft);
CLI_TABLE(cli_cmds_sl2vl);
CLI_TABLE(cli_cmds_commit);
CLI_TABLE(cli_cmds_monitor);
CLI_TABLE(cli_cmds_lab);
CLI_TABLE(cli_cmds_fm);

/* cmd_lab_tools.c: lab commands that read their own words */
int cmd_lab_mpirun(const struct cli_object *obj, const struct cli_cmd *cmd,
		   int argc, char **argv);
int cmd_lab_mpi_agent(const struct cli_object *obj,
		      const struct cli_cmd *cmd, int argc, char **argv);
int cmd_lab_capture(const struct cli_object *obj, const struct cli_cmd *cmd,
		    int argc, char **argv);

#endif
