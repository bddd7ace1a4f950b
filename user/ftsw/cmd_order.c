// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw order: MPI node order (rank -> host) as Open MPI rankfiles and
 * hostfiles or MPICH machinefiles.
 *
 *   ftsw order -t TOPO [--order SPEC] [--ranks N | --units I]
 *              [-f rankfile|hostfile|mpich|plain] [-o FILE]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "cli.h"
#include "util/output.h"

enum { O_TOPO, O_ORDER, O_RANKS, O_UNITS, O_FORMAT, O_OUT, O_N };

/* In the order of enum ftsw_order_format. */
static const char *const formats[] = {
	"rankfile", "hostfile", "mpich", "plain", NULL
};

static const struct cli_opt order_opts[O_N + 1] = {
	[O_TOPO] = CLI_OPT_TOPO_REQUIRED,
	[O_ORDER] = CLI_OPT_ORDER,
	[O_RANKS] = CLI_OPT_RANKS,
	[O_UNITS] = { "--units", NULL, CLI_NUM, "I", 1, UINT32_MAX,
		      .help = "allocate I * prod(w) hosts (Zahavi 2011, §V.B)" },
	[O_FORMAT] = { "-f", "--format", CLI_WORD, "FORMAT", .words = formats,
		       .help = "file format (default rankfile)" },
	[O_OUT] = CLI_OPT_OUTPUT,
};

static const char order_notes[] =
"ORDER: topo (default: the routing-aware topology order), random[:SEED],\n"
"       shuffle[:SEED], contig-random[:SEED], file:PATH\n"
"--units I: the partial allocations that keep D-Mod-K shift traffic\n"
"contention free. Formats: rankfile: Open MPI 'rank R=HOST slot=0';\n"
"hostfile: Open MPI 'HOST slots=1' in rank order; mpich: MPICH/Hydra\n"
"'HOST:1' in rank order; plain: 'RANK HOSTINDEX HOST'.\n"
"With -j the order is printed as JSON (and -o still writes the file).\n";

static int print_order(const struct ftsw_topo *t, const char *spec,
		       const uint32_t *order, uint32_t ranks)
{
	char name[128];
	uint32_t i;

	ftsw_out_begin(stdout, true);
	ftsw_out_open_object(NULL);
	ftsw_out_str("order", NULL, spec);
	ftsw_out_uint("ranks", NULL, ranks);
	ftsw_out_uint("hosts", NULL, t->nhosts);
	ftsw_out_open_array("map");
	for (i = 0; i < ranks; i++) {
		ftsw_out_open_object(NULL);
		ftsw_out_uint("rank", NULL, i);
		ftsw_out_uint("host", NULL, order[i]);
		ftsw_out_str("name", NULL,
			     ftsw_host_name(t, order[i], name, sizeof(name)));
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

static int order_run(const struct cli_args *a)
{
	const char *topo = a->v[O_TOPO].s, *out = a->v[O_OUT].s;
	const char *spec = a->v[O_ORDER].n ? a->v[O_ORDER].s : "topo";
	enum ftsw_order_format f = (enum ftsw_order_format)a->v[O_FORMAT].u;
	uint64_t ranks = a->v[O_RANKS].u;
	struct ftsw_topo *t;
	struct ftsw_err err;
	uint32_t *order;
	int rc = 0;

	if (a->v[O_RANKS].n && a->v[O_UNITS].n) {
		cli_err("order: --ranks and --units exclude each other");
		return 2;
	}
	t = ftsw_topo_open(topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (a->v[O_UNITS].n)
		ranks = a->v[O_UNITS].u * ftsw_order_cf_unit(t);
	if (!ranks)
		ranks = t->nhosts;
	if (ranks > t->nhosts) {
		cli_err("order: %s %" PRIu64 ": %" PRIu64 " ranks but %s has "
			"%u hosts", a->v[O_UNITS].n ? "--units" : "--ranks",
			a->v[O_UNITS].n ? a->v[O_UNITS].u : ranks, ranks, topo,
			t->nhosts);
		ftsw_topo_free(t);
		return 2;
	}
	order = malloc(ranks * sizeof(*order));
	if (!order ||
	    ftsw_order_make(spec, t, (uint32_t)ranks, order, &err) ||
	    (((out && strcmp(out, "-")) || !cli.json) &&
	     ftsw_order_write(t, order, (uint32_t)ranks, f, out, &err))) {
		cli_err("%s", order ? err.msg : "out of memory");
		rc = 1;
	} else if (cli.json) {
		rc = print_order(t, spec, order, (uint32_t)ranks);
	}
	free(order);
	ftsw_topo_free(t);
	return rc;
}

const struct cli_cmd cli_cmds_order[] = {
	{ "", "-t TOPO [--order ORDER] [--ranks N | --units I] [-f FORMAT] "
	  "[-o FILE]", "MPI node order files", .opts = order_opts,
	  .notes = order_notes, .run = order_run },
	{ NULL }
};
