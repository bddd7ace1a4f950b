/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the low-level CLI objects (fabric, switch, port, lft,
 * sl2vl, commit, monitor): netlink session, argument parsing, JSON.
 */
#ifndef FTSW_NLCLI_H
#define FTSW_NLCLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nl/nl.h"

/* Open the netlink client or print why not; NULL on failure. */
struct ftsw_nl *nlcli_open(void);
/* Print "ftsw: WHAT: <kernel message>" and return exit status 1. */
int nlcli_fail(struct ftsw_nl *nl, const char *what);

/* Parse an unsigned number (decimal or 0x hex) no larger than @max. */
bool nlcli_num(const char *s, uint64_t max, uint64_t *v);
/* Parse "KEY VALUE" at argv[*i]: true and advance if argv[*i] is KEY. */
bool nlcli_kv(int argc, char **argv, int *i, const char *key,
	      const char **val);
/* Parse a comma-separated list of numbers <= max into out[n_max]. */
int nlcli_list(const char *s, uint64_t max, uint8_t *out, int n_max);
/* Unknown or incomplete argument. Returns exit status 2. */
int nlcli_usage_err(const char *obj, const char *arg);
/* The exit status for a failed netlink call (1, 2 for EINVAL-type). */
void nlcli_json_str(FILE *f, const char *s);
/* Print one port (text line or JSON object); shared by port and monitor. */
void port_print(const struct ftsw_port_info *p, bool stats, bool *first);
/* "switch ID" or "id ID": 1 parsed, 0 not there, -1 bad. */
int nlcli_switch_arg(int argc, char **argv, int *i, uint32_t *sw);

#endif
