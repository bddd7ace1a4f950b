/* SPDX-License-Identifier: GPL-2.0 */
/* What the lab command's files share (user/ftsw/cmd_lab*.c). */
#ifndef FTSW_CMD_LAB_H
#define FTSW_CMD_LAB_H

#include "lab/lab.h"

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
