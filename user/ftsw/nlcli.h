/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the low-level CLI objects (fabric, switch, port, lft,
 * sl2vl, commit, monitor): netlink session, "KEY VALUE" arguments parsed by
 * util/parse.h (the key named in errors), printing through util/output.h.
 */
#ifndef FTSW_NLCLI_H
#define FTSW_NLCLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "nl/nl.h"

/* Open the netlink client or print why not; NULL on failure. */
struct ftsw_nl *nlcli_open(void);
/* Print "ftsw: WHAT: <kernel message>" and return exit status 1. */
int nlcli_fail(struct ftsw_nl *nl, const char *what);

/*
 * Parse the value of KEY (decimal or 0x hex, min..max) for object obj.
 * On error print "ftsw: OBJ: KEY: why" and return false.
 */
bool nlcli_num(const char *obj, const char *key, const char *s, uint64_t min,
	       uint64_t max, uint64_t *v);
/* Parse "KEY VALUE" at argv[*i]: true and advance if argv[*i] is KEY. */
bool nlcli_kv(int argc, char **argv, int *i, const char *key,
	      const char **val);
/*
 * Parse a comma-separated list of numbers <= max into out[n_max]; the
 * count, or -1 after printing why (naming obj and key).
 */
int nlcli_list(const char *obj, const char *key, const char *s, uint64_t max,
	       uint8_t *out, int n_max);
/* Unknown or incomplete argument. Returns exit status 2. */
int nlcli_usage_err(const char *obj, const char *arg);
/*
 * Print one port: a text line, or a JSON object under key (NULL in an
 * array); shared by port and monitor.
 */
void port_print(const char *key, const struct ftsw_port_info *p, bool stats);
/* Drop counters by reason: a JSON object under key, text " name N"... */
void nlcli_print_drops(const char *key, const uint64_t *drops,
		       const char *text_fmt, bool nonzero_only);
/*
 * "switch ID" or "id ID": 1 parsed, 0 not there, -1 bad (printed, naming
 * obj).
 */
int nlcli_switch_arg(const char *obj, int argc, char **argv, int *i,
		     uint32_t *sw);

/*
 * Print switch id (have_id) or every switch through print, as one JSON
 * array; the netlink error, if any (the caller names the command).
 */
int nlcli_switch_show(struct ftsw_nl *nl, bool have_id, uint32_t id,
		      ftsw_switch_cb print);


/* "switch ID" (or "id ID") as a table option: one spelling everywhere. */
#define NLCLI_OPT_SWITCH(req) { "switch", "id", CLI_NUM, "ID", 0, \
	UINT32_MAX, .required = (req), .help = "switch id" }

#endif
