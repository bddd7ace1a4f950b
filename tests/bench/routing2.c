// SPDX-License-Identifier: GPL-2.0
/*
 * routing2: time ftsw's sssp / dfsssp (and any engine) on a topology and
 * report the virtual layers, and the VL experiment of paper 001, Fig. 9.
 * Built and run by tests/bench/routing2.sh (by hand, never as a test).
 *
 *   routing2 time ENGINE TOPO [LMC]    TOPO: generator spec or net file
 *   routing2 vls NSW PORTS HOSTS LINKS SEEDS [MAXVLS]
 *   routing2 net NSW PORTS HOSTS LINKS SEED FILE   write a random topology
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "route/routing.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct ftsw_topo *load(const char *spec, struct ftsw_err *err)
{
	if (strchr(spec, ':') || strchr(spec, '('))
		return ftsw_topo_gen(spec, err);
	return ftsw_net_read(spec, err);
}

static int cmd_time(int argc, char **argv)
{
	struct ftsw_err err;
	struct ftsw_topo *t;
	struct ftsw_route_opts o = { 0 };
	struct ftsw_routing *r;
	double t0;

	if (argc < 2)
		return 2;
	o.lmc = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
	o.threads = 1;
	o.extended_lids = true;	/* timing only: LIDs past 0xBFFF allowed */
	t = load(argv[1], &err);
	if (!t) {
		fprintf(stderr, "routing2: %s\n", err.msg);
		return 1;
	}
	t0 = now();
	r = ftsw_route(argv[0], t, &o, &err);
	if (!r) {
		fprintf(stderr, "routing2: %s\n", err.msg);
		return 1;
	}
	printf("engine %s hosts %u switches %u seconds %.3f vls %u\n", argv[0],
	       t->nhosts, t->nswitches, now() - t0, r->nvls);
	if (r->warning[0])
		printf("note %s\n", r->warning);
	if (r->info[0])
		printf("note %s\n", r->info);
	ftsw_routing_free(r);
	ftsw_topo_free(t);
	return 0;
}

/* Fig. 9 kind: VLs needed per heuristic on random topologies. */
static int cmd_vls(int argc, char **argv)
{
	unsigned nsw, ports, hosts, links, seeds, maxvls, s, hz;

	if (argc < 5)
		return 2;
	nsw = (unsigned)atoi(argv[0]);
	ports = (unsigned)atoi(argv[1]);
	hosts = (unsigned)atoi(argv[2]);
	links = (unsigned)atoi(argv[3]);
	seeds = (unsigned)atoi(argv[4]);
	maxvls = argc > 5 ? (unsigned)atoi(argv[5]) : 15;
	for (s = 1; s <= seeds; s++) {
		struct ftsw_err err;
		struct ftsw_topo *t = ftsw_topo_gen_random(nsw, ports, hosts,
							   links, s, &err);
		struct ftsw_routing *r;

		if (!t) {
			fprintf(stderr, "routing2: %s\n", err.msg);
			return 1;
		}
		r = ftsw_routing_new(t, 0, false, &err);
		if (!r || ftsw_sssp_tables(t, r, false, 1, &err)) {
			fprintf(stderr, "routing2: %s\n", err.msg);
			return 1;
		}
		for (hz = 0; hz < 3; hz++) {
			struct ftsw_dfsssp_opts o = {
				.heuristic = (enum ftsw_vl_heuristic)hz,
				.max_vls = maxvls, .no_balance = true };
			struct ftsw_dfsssp_stats st;
			int rc = ftsw_dfsssp_layers(t, r, &o, &st, &err);

			printf("links %u seed %u heuristic %s vls %s%u cycles %llu "
			       "cdg_edges %llu path_deps %llu cdg_mib %.2f "
			       "seconds %.3f\n", links, s,
			       ftsw_heuristic_name(o.heuristic),
			       rc ? ">" : "", rc ? maxvls : st.layers_needed,
			       (unsigned long long)st.cycles_broken,
			       (unsigned long long)st.dependencies,
			       (unsigned long long)st.path_deps,
			       st.cdg_bytes / 1048576.0, st.seconds);
			fflush(stdout);
		}
		ftsw_routing_free(r);
		ftsw_topo_free(t);
	}
	return 0;
}

static int cmd_net(int argc, char **argv)
{
	struct ftsw_err err;
	struct ftsw_topo *t;

	if (argc < 6)
		return 2;
	t = ftsw_topo_gen_random((unsigned)atoi(argv[0]), (unsigned)atoi(argv[1]),
				 (unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]),
				 strtoull(argv[4], NULL, 0), &err);
	if (!t || ftsw_net_write(t, argv[5], &err)) {
		fprintf(stderr, "routing2: %s\n", err.msg);
		return 1;
	}
	ftsw_topo_free(t);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc > 1 && !strcmp(argv[1], "time"))
		rc = cmd_time(argc - 2, argv + 2);
	else if (argc > 1 && !strcmp(argv[1], "vls"))
		rc = cmd_vls(argc - 2, argv + 2);
	else if (argc > 1 && !strcmp(argv[1], "net"))
		rc = cmd_net(argc - 2, argv + 2);
	if (rc == 2)
		fprintf(stderr, "usage: routing2 time ENGINE TOPO [LMC]\n"
			"       routing2 vls NSW PORTS HOSTS LINKS SEEDS [MAXVLS]\n"
			"       routing2 net NSW PORTS HOSTS LINKS SEED FILE\n");
	return rc;
}
