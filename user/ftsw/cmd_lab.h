/* SPDX-License-Identifier: GPL-2.0 */
/* What the lab command's files share (user/ftsw/cmd_lab*.c). */
#ifndef FTSW_CMD_LAB_H
#define FTSW_CMD_LAB_H

#include "cli.h"
#include "lab/lab.h"

/* The lab a command works on: the same option for lab and fm. */
#define LAB_OPT_NAME { "--name", "--lab", CLI_STR, "LAB", \
	.help = "the lab (default $FTSW_LAB, else the one lab there is " \
		"(not for up), else \"" FTSW_LAB_DEFAULT "\")" }

/* OpenSM's options: lab up --sm and lab sm restart take the same. */
#define OPT_SM_ENGINE { "--sm-engine", NULL, CLI_STR, "ENGINE", \
	.help = "opensm -R: minhop, updn, dnup, ftree, sssp, dfsssp, nue, " \
		"lash, dor..." }
#define OPT_SM_ROOT { "--sm-root", NULL, CLI_FILE, "FILE", \
	.help = "opensm -a: root switch GUIDs (updn, ftree)" }
#define OPT_SM_CN { "--sm-cn", NULL, CLI_FILE, "FILE", \
	.help = "opensm -u: compute node GUIDs (ftree)" }
#define OPT_SM_QOS { "--sm-qos", NULL, CLI_FLAG, .help = "opensm -Q" }
#define OPT_SM_CONF { "--sm-conf", NULL, CLI_FILE, "FILE", \
	.help = "opensm.conf keys (qos_swe_sl2vl...) added to the lab's" }
#define OPT_SM_PARTITIONS { "--sm-partitions", NULL, CLI_FILE, "FILE", \
	.help = "OpenSM's partitions.conf: hosts send with its P_Keys" }
#define OPT_SM_ARGS { "--sm-args", NULL, CLI_STR, "'ARGS'", \
	.help = "more opensm arguments, blank-separated" }
#define OPT_SM_HOST { "--sm-host", NULL, CLI_NUM, "N", 0, UINT32_MAX, \
	.help = "the host OpenSM runs on (default 0)" }
#define OPT_SM_TIMEOUT { "--sm-timeout", NULL, CLI_NUM, "S", 1, 3600, \
	.help = "wait this long for SUBNET UP (default 120)" }
#define OPT_PATH_SL { "--path-sl", NULL, CLI_FLAG, \
	.help = "hosts send with the SLs of the SA's PathRecords (default " \
		"for lash, dfsssp, nue, torus-2QoS)" }
#define OPT_NO_PATH_SL { "--no-path-sl", NULL, CLI_FLAG, \
	.help = "hosts send with their edge port's SL" }

/* The lab a command means (ftsw_lab_pick: one rule for lab and fm). */
const char *lab_name(const char *given, bool create);
/* lab up's and lab down's progress on a terminal (arg: the lab's name). */
void lab_progress(const char *what, uint64_t done, uint64_t total, void *arg);
/* Open the lab the command names (its first option is LAB_OPT_NAME). */
int open_lab(const struct cli_args *a, struct ftsw_lab *lab);
/* lab view and lab top (cmd_lab_view.c, cmd_lab_top.c). */
extern const struct cli_opt lab_view_opts[], lab_top_opts[];
int lab_view(const struct cli_args *a);
int lab_top(const struct cli_args *a);
/* lab waits (cmd_lab_waits.c). */
extern const struct cli_opt lab_waits_opts[];
int lab_waits(const struct cli_args *a);
/* lab up (cmd_lab_up.c): its options and its run. */
extern const struct cli_opt lab_up_opts_table[];
int lab_up(const struct cli_args *a);
/* lab sm restart | path-sl (cmd_lab_sm.c). */
extern const struct cli_opt lab_sm_opts_table[];
int lab_sm(const struct cli_args *a);
/* --path-sl, --no-path-sl (options on and off of a's command): the mode,
 * or -1 after an error (cmd_lab_sm.c). */
int lab_path_sl_mode(const struct cli_args *a, unsigned on, unsigned off,
		     const char *cmd);
/*
 * The lab's path SLs (lab status, lab up, lab sm), read before the output
 * starts: 1 with *r, 0 when the lab has none, -1 after saying why (cmd:
 * the file or line at fault).
 */
int lab_path_sl_load(const char *lab, struct ftsw_lab_path_sl *r,
		     const char *cmd);
/* ... and printed (text and JSON); NULL: nothing. */
void lab_path_sl_print(const struct ftsw_lab_path_sl *r);

/* How lab traffic's report is shown (presentation, not the library's). */
struct lab_traffic_show {
	bool per_stage;		/* every stage's line */
	const char *svg;	/* link-load picture written there */
};

/*
 * Print lab traffic's result r as text or JSON (cli.json) and write the
 * picture. 0, or -1 with err set (the picture could not be written).
 */
int lab_traffic_print(const struct ftsw_lab *lab,
		      const struct ftsw_lab_traffic_opts *o,
		      const struct lab_traffic_show *show,
		      const struct ftsw_lab_traffic_result *r,
		      struct ftsw_err *err);

#endif
