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
#include <sys/stat.h>

#include "analyze/analyze.h"
#include "cli.h"

static void order_usage(FILE *f)
{
	fprintf(f,
"Usage: ftsw order -t TOPO [--order SPEC] [--ranks N | --units I]\n"
"                  [-f rankfile|hostfile|mpich|plain] [-o FILE]\n"
"  --order SPEC   topo (default: the routing-aware topology order),\n"
"                 random[:SEED], contig-random[:SEED], file:PATH\n"
"  --ranks N      allocate N hosts (default all)\n"
"  --units I      allocate I * prod(w) hosts: the partial allocations that\n"
"                 keep D-Mod-K shift traffic contention free (003 §V.B)\n"
"  -f FORMAT      rankfile: Open MPI 'rank R=HOST slot=0' (default)\n"
"                 hostfile: Open MPI 'HOST slots=1' in rank order\n"
"                 mpich:    MPICH/Hydra 'HOST:1' in rank order\n"
"                 plain:    'RANK HOSTINDEX HOST'\n"
"  -o FILE        write atomically (default: standard output)\n");
}

int cmd_order(int argc, char **argv)
{
	const char *topo = NULL, *spec = "topo", *fmt = "rankfile", *out = NULL;
	unsigned long long ranks = 0, units = 0;
	enum ftsw_order_format f;
	struct ftsw_topo *t;
	struct ftsw_err err;
	uint32_t *order;
	int i, rc = 0;

	if (argc >= 2 && !strcmp(argv[1], "help")) {
		order_usage(stdout);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *e;

		if (!v) {
			cli_err("order: %s: argument expected", a);
			return 2;
		}
		if (!strcmp(a, "-t"))
			topo = v;
		else if (!strcmp(a, "--order"))
			spec = v;
		else if (!strcmp(a, "-f"))
			fmt = v;
		else if (!strcmp(a, "-o"))
			out = v;
		else if (!strcmp(a, "--ranks") || !strcmp(a, "--units")) {
			unsigned long long x = strtoull(v, &e, 0);

			if (e == v || *e || !x) {
				cli_err("order: %s: '%s' is not a positive "
					"number", a, v);
				return 2;
			}
			if (a[2] == 'r')
				ranks = x;
			else
				units = x;
		} else {
			cli_err("order: unknown argument '%s' (ftsw order help)",
				a);
			return 2;
		}
		i++;
	}
	if (!topo) {
		order_usage(stderr);
		return 2;
	}
	if (!strcmp(fmt, "rankfile"))
		f = FTSW_ORDER_OMPI_RANKFILE;
	else if (!strcmp(fmt, "hostfile"))
		f = FTSW_ORDER_OMPI_HOSTFILE;
	else if (!strcmp(fmt, "mpich"))
		f = FTSW_ORDER_MPICH_HOSTFILE;
	else if (!strcmp(fmt, "plain"))
		f = FTSW_ORDER_PLAIN;
	else {
		cli_err("order: -f '%s': rankfile, hostfile, mpich or plain",
			fmt);
		return 2;
	}
	t = ftsw_topo_open(topo, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (units)
		ranks = units * ftsw_order_cf_unit(t);
	if (!ranks)
		ranks = t->nhosts;
	if (ranks > t->nhosts) {
		cli_err("order: %llu ranks but %s has %u hosts", ranks, topo,
			t->nhosts);
		ftsw_topo_free(t);
		return 2;
	}
	order = malloc(ranks * sizeof(*order));
	if (!order ||
	    ftsw_order_make(spec, t, (uint32_t)ranks, order, &err) ||
	    ftsw_order_write(t, order, (uint32_t)ranks, f, out, &err)) {
		cli_err("%s", order ? err.msg : "out of memory");
		rc = 1;
	}
	free(order);
	ftsw_topo_free(t);
	return rc;
}
