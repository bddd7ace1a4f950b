/* SPDX-License-Identifier: GPL-2.0 */
/* ftsw sim: what cmd_sim.c and cmd_sim_print.c share. */
#ifndef FTSW_CMD_SIM_H
#define FTSW_CMD_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "cc/cc.h"
#include "route/routing.h"
#include "sim/sim.h"

/* sim's options, as the command line gave them. */
struct sopts {
	const char *topo, *pattern, *order, *load, *cc_file;
	struct ftsw_cc_params cc;
	const char *plot, *picture, *dot;
	struct ftsw_route_req q;
	struct ftsw_sim_opts so;
	struct ftsw_sim_lab_map lab;	/* rate_bits 0: no lab mapping */
	uint32_t ranks;
	bool links, flows;
};

/* One load point of the report: its row, then the details asked for. */
void sim_print_point(const struct ftsw_routing *r,
		     const struct ftsw_sim_traffic *tr,
		     const struct ftsw_sim_result *x, const struct sopts *o);

#endif
