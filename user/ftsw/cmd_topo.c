// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw topo: generate, show and degrade topologies (net format files).
 *
 *   ftsw topo gen SPEC [-o FILE]
 *   ftsw topo show FILE
 *   ftsw topo degrade FILE [--links K] [--switches K] [--hosts K]
 *                     [--seed S] [-o FILE]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/output.h"
#include "topo/topology.h"

static void topo_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw topo gen SPEC [-o FILE]\n"
		"       ftsw topo show FILE\n"
		"       ftsw topo degrade FILE [--links K] [--switches K] "
		"[--hosts K] [--seed S]\n"
		"                 [--remove-switch NODE] [--remove-host NODE]"
		" [--remove-link NODE:PORT] [-o FILE]\n"
		"NODE: description, 0xGUID or net-file id (S-<guid>)\n"
		"SPEC: pgft:H;M1,..;W1,..;P1,..  (or PGFT(H;...;...;...))\n"
		"      xgft:H;M..;W..   rlft:H;M..;W..;P..   kary:K,N   ftmn:M,N\n");
}

static int parse_uint(const char *opt, const char *v, unsigned long long *out)
{
	char *e;

	if (!v) {
		cli_err("%s: value expected", opt);
		return -1;
	}
	*out = strtoull(v, &e, 0);
	if (e == v || *e) {
		cli_err("%s: '%s' is not a number", opt, v);
		return -1;
	}
	return 0;
}

static int write_out(const struct ftsw_topo *t, const char *out)
{
	struct ftsw_err err;

	if (ftsw_net_write(t, out, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	return 0;
}

static int topo_gen(int argc, char **argv)
{
	const char *spec = NULL, *out = NULL;
	struct ftsw_err err;
	struct ftsw_topo *t;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!spec && argv[i][0] != '-')
			spec = argv[i];
		else {
			cli_err("topo gen: unexpected argument '%s'", argv[i]);
			return 2;
		}
	}
	if (!spec) {
		topo_usage(stderr);
		return 2;
	}
	t = ftsw_topo_gen(spec, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	rc = write_out(t, out);
	if (!rc && out && cli.verbose)
		fprintf(stderr, "%s: %u switches, %u hosts\n", out, t->nswitches,
			t->nhosts);
	ftsw_topo_free(t);
	return rc;
}

static int topo_show(int argc, char **argv)
{
	struct ftsw_topo_stats s;
	struct ftsw_err err;
	struct ftsw_topo *t;
	const char *kind;
	unsigned l;
	struct ftsw_pgft inf;
	char infspec[128] = "";

	if (argc != 1) {
		topo_usage(stderr);
		return 2;
	}
	t = ftsw_net_read(argv[0], &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	ftsw_topo_stats(t, &s);
	kind = t->is_pgft ? (t->degraded ? "degraded" : "complete") :
		"not recognised as a PGFT";
	if (!t->is_pgft && !ftsw_topo_infer_pgft(t, &inf)) {
		ftsw_pgft_format(&inf, infspec, sizeof(infspec));
		kind = "structure of a complete";
	}
	if (cli.json) {
		printf("{\"file\":");
		ftsw_json_write_str(stdout, argv[0]);
		printf(",\"switches\":%u,\"hosts\":%u,"
		       "\"links\":%" PRIu64 ",\"switch_links\":%" PRIu64
		       ",\"host_links\":%" PRIu64 ",\"levels\":%u,\"per_level\":[",
		       t->nswitches, t->nhosts, s.links, s.switch_links,
		       s.host_links, s.nlevels);
		for (l = 0; l < s.nlevels && l < 16; l++)
			printf("%s%u", l ? "," : "", s.per_level[l]);
		printf("],\"min_degree\":%u,\"max_degree\":%u,"
		       "\"unconnected_hosts\":%u,\"pgft\":%s,\"degraded\":%s",
		       s.min_deg, s.max_deg, s.unconnected_hosts,
		       t->is_pgft ? "true" : "false",
		       t->degraded ? "true" : "false");
		if (t->is_pgft)
			printf(",\"spec\":\"%s\"", t->spec);
		if (infspec[0])
			printf(",\"inferred_spec\":\"%s\"", infspec);
		printf("}\n");
	} else {
		printf("%s: %s%s%s%s\n", argv[0], kind,
		       t->is_pgft || infspec[0] ? " " : "",
		       t->is_pgft ? t->spec : infspec,
		       infspec[0] ? " (inferred from the graph; no coordinates)" : "");
		printf("  switches %u, hosts %u, links %" PRIu64
		       " (%" PRIu64 " switch-switch, %" PRIu64 " host)\n",
		       t->nswitches, t->nhosts, s.links, s.switch_links,
		       s.host_links);
		printf("  levels %u (ranked from the leaves):", s.nlevels);
		for (l = 0; l < s.nlevels && l < 16; l++)
			printf(" %u", s.per_level[l]);
		printf("\n  switch degree %u..%u (cabled ports)\n", s.min_deg,
		       s.max_deg);
		if (s.unconnected_hosts)
			printf("  unconnected hosts %u\n", s.unconnected_hosts);
	}
	ftsw_topo_free(t);
	return 0;
}

static int topo_degrade(int argc, char **argv)
{
	struct ftsw_degrade d = { 0 };
	const char *in = NULL, *out = NULL;
	const char **rsw = calloc((size_t)argc + 1, sizeof(char *));
	const char **rho = calloc((size_t)argc + 1, sizeof(char *));
	const char **rli = calloc((size_t)argc + 1, sizeof(char *));
	uint32_t *swl = calloc((size_t)argc + 1, sizeof(uint32_t));
	uint32_t *hol = calloc((size_t)argc + 1, sizeof(uint32_t));
	uint32_t (*lil)[2] = calloc((size_t)argc + 1, sizeof(*lil));
	int nrsw = 0, nrho = 0, nrli = 0, k;
	unsigned long long v;
	struct ftsw_err err;
	struct ftsw_topo *t, *o;
	int i, rc = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-o")) {
			if (!val) {
				cli_err("-o: file expected");
				rc = 2;
				goto out;
			}
			out = val;
			i++;
		} else if (!strcmp(a, "--links") || !strcmp(a, "--switches") ||
			   !strcmp(a, "--hosts") || !strcmp(a, "--seed")) {
			if (parse_uint(a, val, &v)) {
				rc = 2;
				goto out;
			}
			i++;
			if (a[2] == 'l')
				d.rand_links = (unsigned)v;
			else if (a[2] == 's' && a[3] == 'w')
				d.rand_switches = (unsigned)v;
			else if (a[2] == 'h')
				d.rand_hosts = (unsigned)v;
			else
				d.seed = v;
		} else if (!strcmp(a, "--remove-switch") ||
			   !strcmp(a, "--remove-host") ||
			   !strcmp(a, "--remove-link")) {
			if (!val) {
				cli_err("%s: node expected", a);
				rc = 2;
				goto out;
			}
			if (a[9] == 's')
				rsw[nrsw++] = val;
			else if (a[9] == 'h')
				rho[nrho++] = val;
			else
				rli[nrli++] = val;
			i++;
		} else if (!in && a[0] != '-') {
			in = a;
		} else {
			cli_err("topo degrade: unexpected argument '%s'", a);
			rc = 2;
			goto out;
		}
	}
	if (!in || !rsw || !rho || !rli || !swl || !hol || !lil) {
		topo_usage(stderr);
		rc = 2;
		goto out;
	}
	t = ftsw_net_read(in, &err);
	if (!t) {
		cli_err("%s", err.msg);
		rc = 1;
		goto out;
	}
	rc = 1;
	for (k = 0; k < nrsw; k++) {
		swl[k] = ftsw_topo_find(t, rsw[k]);
		if (swl[k] == FTSW_NONE || t->nodes[swl[k]].kind != FTSW_SWITCH) {
			cli_err("--remove-switch: no switch '%s' in %s", rsw[k], in);
			goto done;
		}
	}
	for (k = 0; k < nrho; k++) {
		hol[k] = ftsw_topo_find(t, rho[k]);
		if (hol[k] == FTSW_NONE || t->nodes[hol[k]].kind != FTSW_HOST) {
			cli_err("--remove-host: no host '%s' in %s", rho[k], in);
			goto done;
		}
	}
	for (k = 0; k < nrli; k++) {
		char *name = strdup(rli[k]), *colon = name ? strrchr(name, ':') : NULL;
		unsigned long long port;

		if (!colon || parse_uint("--remove-link", colon + 1, &port)) {
			cli_err("--remove-link: '%s' is not NODE:PORT", rli[k]);
			free(name);
			goto done;
		}
		*colon = 0;
		lil[k][0] = ftsw_topo_find(t, name);
		lil[k][1] = (uint32_t)port;
		if (lil[k][0] == FTSW_NONE) {
			cli_err("--remove-link: no node '%s' in %s", name, in);
			free(name);
			goto done;
		}
		free(name);
	}
	d.switches = swl;
	d.nswitch = (size_t)nrsw;
	d.hostlist = hol;
	d.nhostlist = (size_t)nrho;
	d.links = (const uint32_t (*)[2])lil;
	d.nlinks = (size_t)nrli;
	o = ftsw_topo_degrade(t, &d, &err);
	if (!o) {
		cli_err("%s", err.msg);
		goto done;
	}
	rc = write_out(o, out);
	ftsw_topo_free(o);
done:
	ftsw_topo_free(t);
out:
	free(rsw);
	free(rho);
	free(rli);
	free(swl);
	free(hol);
	free(lil);
	return rc;
}

int cmd_topo(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "help")) {
		topo_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "gen"))
		return topo_gen(argc - 2, argv + 2);
	if (!strcmp(argv[1], "show"))
		return topo_show(argc - 2, argv + 2);
	if (!strcmp(argv[1], "degrade"))
		return topo_degrade(argc - 2, argv + 2);
	cli_err("topo: unknown command '%s' (gen, show, degrade)", argv[1]);
	return 2;
}
