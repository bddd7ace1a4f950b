// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw topo: generate, show and degrade topologies (net format files).
 *
 *   ftsw topo gen SPEC [-o FILE]
 *   ftsw topo show FILE
 *   ftsw topo degrade FILE [--links K] [--switches K] [--hosts K]
 *                     [--seed S] [-o FILE]
 *   ftsw topo diff TOPO TOPO2
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/output.h"
#include "util/parse.h"
#include "topo/topology.h"

enum { G_OUT, G_N };
static const struct cli_opt gen_opts[G_N + 1] = {
	[G_OUT] = CLI_OPT_OUTPUT,
};

enum {
	D_OUT, D_LINKS, D_SWITCHES, D_HOSTS, D_SEED, D_RM_SWITCH, D_RM_HOST,
	D_RM_LINK, D_N
};
static const struct cli_opt degrade_opts[D_N + 1] = {
	[D_OUT] = CLI_OPT_OUTPUT,
	[D_LINKS] = { "--links", NULL, CLI_NUM, "K", 0, UINT32_MAX,
		      .help = "remove K random switch-switch links" },
	[D_SWITCHES] = { "--switches", NULL, CLI_NUM, "K", 0, UINT32_MAX,
			 .help = "remove K random switches" },
	[D_HOSTS] = { "--hosts", NULL, CLI_NUM, "K", 0, UINT32_MAX,
		      .help = "remove K random hosts" },
	[D_SEED] = CLI_OPT_SEED,
	[D_RM_SWITCH] = { "--remove-switch", NULL, CLI_STR, "NODE",
			  .repeat = true, .help = "remove this switch" },
	[D_RM_HOST] = { "--remove-host", NULL, CLI_STR, "NODE",
			.repeat = true, .help = "remove this host" },
	[D_RM_LINK] = { "--remove-link", NULL, CLI_STR, "NODE:PORT",
			.repeat = true, .help = "remove the cable at this port" },
};

static const char gen_notes[] =
"SPEC, fat-trees: pgft:H;M1,..;W1,..;P1,..  (or PGFT(H;...;...;...))\n"
"      xgft:H;M..;W..   rlft:H;M..;W..;P..   kary:K,N   ftmn:M,N\n"
"      SPEC@E (a fat-tree as the switch topology of E endpoints)\n"
"SPEC, other switch graphs: torus:K1,..,Kn[,hosts=H][,ports=P]\n"
"      mesh:K1,..,Kn[,hosts=H][,ports=P]\n"
"      kautz:B,N[,hosts=H|endpoints=E][,ports=P]\n"
"      random:SWITCHES,PORTS,HOSTS,LINKS,SEED   dragonfly:A,P,H[,groups=G]\n"
"      deimos   (Documentation/topology.md defines each)\n"
"Without -o (or with -o -) the net file goes to standard output. -j prints\n"
"a JSON summary of what was written (-v: text on stderr): on standard\n"
"output, or on standard error when the net file is there.\n";

static const char degrade_notes[] =
"TOPO is a net file or a generator spec; NODE a description, 0xGUID or\n"
"net-file id (S-<guid>). The --remove-* options may be repeated. -j\n"
"prints a JSON summary of what was written, on standard error when the\n"
"net file goes to standard output (no -o, or -o -).\n";

/*
 * Write t to out (NULL or -: stdout). With -j a summary of it follows as
 * JSON, with -v as text on stderr; with the net file on stdout, the JSON
 * summary goes to stderr (as route -o - does).
 */
static int write_out(const struct ftsw_topo *t, const char *out)
{
	bool to_stdout = !out || !strcmp(out, "-");
	struct ftsw_err err;

	if (ftsw_net_write(t, out, &err)) {
		cli_err("%s", err.msg);
		return 1;
	}
	if (!(cli.json || cli.verbose))
		return 0;
	ftsw_out_begin(cli.json && !to_stdout ? stdout : stderr, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("file", "%s: ", to_stdout ? "-" : out);
	if (t->is_pgft || ftsw_graph_kind(t->spec))
		ftsw_out_str("spec", NULL, t->spec);
	ftsw_out_uint("switches", "%" PRIu64 " switches, ", t->nswitches);
	ftsw_out_uint("hosts", "%" PRIu64 " hosts\n", t->nhosts);
	ftsw_out_close_object();
	return ftsw_out_end() ? 1 : 0;
}

static int topo_gen(const struct cli_args *a)
{
	const char *spec = a->pos[0], *out = a->v[G_OUT].s;
	struct ftsw_err err;
	struct ftsw_topo *t;
	int rc;

	t = ftsw_topo_gen(spec, &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	rc = write_out(t, out);
	ftsw_topo_free(t);
	return rc;
}

static void print_topo(const char *name, const struct ftsw_topo *t,
		       const struct ftsw_topo_stats *s, const char *infspec)
{
	char desc[256];
	const char *family = ftsw_topo_family(t, desc, sizeof(desc));
	bool tree = t->is_pgft || infspec[0] || !family[0];
	unsigned l;

	ftsw_out_open_object(NULL);
	ftsw_out_str("file", "%s: ", name);
	if (t->is_pgft)
		ftsw_out_text("%s %s\n", t->degraded ? "degraded" : "complete",
			      desc);
	else if (family[0])
		ftsw_out_text("%s\n", desc);
	else if (infspec[0])
		ftsw_out_text("structure of a complete %s (inferred from the "
			      "graph; no coordinates)\n", infspec);
	else
		ftsw_out_text("not a family ftsw generates (no ftsw-topology "
			      "line naming one) and not recognised as a PGFT\n");
	ftsw_out_str("family", NULL, family[0] ? family : infspec[0] ?
		     "pgft" : "unknown");
	if (desc[0])
		ftsw_out_str("description", NULL, desc);
	ftsw_out_uint("switches", "  switches %" PRIu64, t->nswitches);
	ftsw_out_uint("hosts", ", hosts %" PRIu64, t->nhosts);
	ftsw_out_uint("links", ", links %" PRIu64, s->links);
	ftsw_out_uint("switch_links", " (%" PRIu64 " switch-switch",
		      s->switch_links);
	ftsw_out_uint("host_links", ", %" PRIu64 " host)\n", s->host_links);
	/* levels ranked from the leaves: a tree's, noise for other graphs */
	ftsw_out_uint("levels", tree ? "  levels %" PRIu64
		      " (ranked from the leaves):" : NULL, s->nlevels);
	ftsw_out_open_array("per_level");
	for (l = 0; l < s->nlevels && l < 16; l++)
		ftsw_out_uint(NULL, tree ? " %" PRIu64 : NULL, s->per_level[l]);
	ftsw_out_close_array();
	ftsw_out_uint("min_degree", tree ? "\n  switch degree %" PRIu64 :
		      "  switch degree %" PRIu64, s->min_deg);
	ftsw_out_uint("max_degree", "..%" PRIu64 " (cabled ports)\n",
		      s->max_deg);
	ftsw_out_uint("unconnected_hosts", s->unconnected_hosts ?
		      "  unconnected hosts %" PRIu64 "\n" : NULL,
		      s->unconnected_hosts);
	ftsw_out_bool("pgft", NULL, t->is_pgft);
	ftsw_out_bool("degraded", NULL, t->degraded);
	if (t->is_pgft || family[0])
		ftsw_out_str("spec", NULL, t->spec);
	if (infspec[0])
		ftsw_out_str("inferred_spec", NULL, infspec);
	ftsw_out_close_object();
}

static int topo_show(const struct cli_args *a)
{
	struct ftsw_topo_stats s;
	struct ftsw_err err;
	struct ftsw_topo *t;
	struct ftsw_pgft inf;
	char infspec[128] = "";
	int rc;

	t = ftsw_topo_open(a->pos[0], &err);
	if (!t) {
		cli_err("%s", err.msg);
		return 1;
	}
	ftsw_topo_stats(t, &s);
	if (!t->is_pgft && !ftsw_topo_infer_pgft(t, &inf))
		ftsw_pgft_format(&inf, infspec, sizeof(infspec));
	ftsw_out_begin(stdout, cli.json);
	print_topo(a->pos[0], t, &s, infspec);
	rc = ftsw_out_end() ? 1 : 0;
	ftsw_topo_free(t);
	return rc;
}

/* Node arguments resolved in t: kind FTSW_SWITCH, FTSW_HOST, or -1 (any). */
static int find_nodes(const struct ftsw_topo *t, const char *in,
		      const struct cli_val *v, const char *opt, int kind,
		      uint32_t *ids)
{
	unsigned k;

	for (k = 0; k < v->n; k++) {
		ids[k] = ftsw_topo_find(t, v->all[k]);
		if (ids[k] == FTSW_NONE ||
		    (kind >= 0 && (int)t->nodes[ids[k]].kind != kind)) {
			cli_err("topo degrade: %s: no %s '%s' in %s", opt,
				kind == FTSW_SWITCH ? "switch" : "host",
				v->all[k], in);
			return -1;
		}
	}
	return 0;
}

static int find_links(const struct ftsw_topo *t, const char *in,
		      const struct cli_val *v, uint32_t (*lil)[2])
{
	struct ftsw_err err;
	unsigned k;

	for (k = 0; k < v->n; k++) {
		char *name = strdup(v->all[k]);
		char *colon = name ? strrchr(name, ':') : NULL;
		unsigned port;

		if (!colon || ftsw_parse_uint("--remove-link", colon + 1, 1, 255,
					      &port, &err)) {
			cli_err("topo degrade: --remove-link: '%s' is not "
				"NODE:PORT (port 1..255)", v->all[k]);
			free(name);
			return -1;
		}
		*colon = 0;
		lil[k][0] = ftsw_topo_find(t, name);
		lil[k][1] = port;
		if (lil[k][0] == FTSW_NONE) {
			cli_err("topo degrade: --remove-link: no node '%s' in %s",
				name, in);
			free(name);
			return -1;
		}
		free(name);
	}
	return 0;
}

static int topo_degrade(const struct cli_args *a)
{
	const struct cli_val *v = a->v;
	const char *in = a->pos[0];
	struct ftsw_degrade d = {
		.rand_links = (unsigned)v[D_LINKS].u,
		.rand_switches = (unsigned)v[D_SWITCHES].u,
		.rand_hosts = (unsigned)v[D_HOSTS].u,
		.seed = v[D_SEED].u,
	};
	uint32_t *swl = calloc(v[D_RM_SWITCH].n + 1, sizeof(uint32_t));
	uint32_t *hol = calloc(v[D_RM_HOST].n + 1, sizeof(uint32_t));
	uint32_t (*lil)[2] = calloc(v[D_RM_LINK].n + 1, sizeof(*lil));
	struct ftsw_err err;
	struct ftsw_topo *t = NULL, *o;
	int rc = 1;

	if (!swl || !hol || !lil) {
		cli_err("out of memory");
		goto out;
	}
	t = ftsw_topo_open(in, &err);
	if (!t) {
		cli_err("%s", err.msg);
		goto out;
	}
	if (find_nodes(t, in, &v[D_RM_SWITCH], "--remove-switch", FTSW_SWITCH,
		       swl) ||
	    find_nodes(t, in, &v[D_RM_HOST], "--remove-host", FTSW_HOST, hol) ||
	    find_links(t, in, &v[D_RM_LINK], lil))
		goto out;
	d.switches = swl;
	d.nswitch = v[D_RM_SWITCH].n;
	d.hostlist = hol;
	d.nhostlist = v[D_RM_HOST].n;
	d.links = (const uint32_t (*)[2])lil;
	d.nlinks = v[D_RM_LINK].n;
	o = ftsw_topo_degrade(t, &d, &err);
	if (!o) {
		cli_err("%s", err.msg);
		goto out;
	}
	rc = write_out(o, v[D_OUT].s);
	ftsw_topo_free(o);
out:
	if (t)
		ftsw_topo_free(t);
	free(swl);
	free(hol);
	free(lil);
	return rc;
}

static const char diff_notes[] =
"Nodes are matched by node GUID. Every difference is one line: a node in\n"
"one topology only, its kind, port count or description, a host port's\n"
"GUID, a port cabled elsewhere (at each end). Exit status 1 when they\n"
"differ (as diff(1)), 2 on an error.\n";

static const char *const delta_kind[] = {
	[FTSW_DELTA_ONLY_FIRST] = "only_first",
	[FTSW_DELTA_ONLY_SECOND] = "only_second",
	[FTSW_DELTA_KIND] = "kind",
	[FTSW_DELTA_PORTS] = "ports",
	[FTSW_DELTA_DESC] = "description",
	[FTSW_DELTA_PORT_GUID] = "port_guid",
	[FTSW_DELTA_CABLE] = "cable",
};

static void print_far(const char *key, uint64_t guid, unsigned port)
{
	char buf[48];

	if (!guid) {
		ftsw_out_null(key, "nothing");
		return;
	}
	snprintf(buf, sizeof(buf), "0x%016" PRIx64 "[%u]", guid, port);
	ftsw_out_str(key, "%s", buf);
}

static void print_delta(const struct ftsw_topo_delta *e, const char *n[2])
{
	char g[24];

	snprintf(g, sizeof(g), "0x%016" PRIx64, e->guid);
	ftsw_out_open_object(NULL);
	ftsw_out_str("what", NULL, delta_kind[e->kind]);
	ftsw_out_str("guid", "%s", g);
	ftsw_out_str("description", " \"%s\"", e->desc[0] ? e->desc[0] :
		     e->desc[1] ? e->desc[1] : "");
	if (e->port)
		ftsw_out_uint("port", " port %" PRIu64, e->port);
	switch (e->kind) {
	case FTSW_DELTA_ONLY_FIRST:
	case FTSW_DELTA_ONLY_SECOND:
		ftsw_out_text(": only in %s",
			      n[e->kind == FTSW_DELTA_ONLY_SECOND]);
		break;
	case FTSW_DELTA_DESC:
		ftsw_out_str("first", ": \"%s\"", e->desc[0] ? e->desc[0] : "");
		ftsw_out_str("second", " against \"%s\"",
			     e->desc[1] ? e->desc[1] : "");
		break;
	case FTSW_DELTA_CABLE:
		ftsw_out_text(": cabled to ");
		print_far("first", e->val[0], e->peer_port[0]);
		ftsw_out_text(" against ");
		print_far("second", e->val[1], e->peer_port[1]);
		break;
	case FTSW_DELTA_KIND:
		ftsw_out_str("first", ": %s", e->val[0] == FTSW_SWITCH ?
			     "switch" : "host");
		ftsw_out_str("second", " against %s", e->val[1] == FTSW_SWITCH ?
			     "switch" : "host");
		break;
	default:
		ftsw_out_uint("first", ": %" PRIu64, e->val[0]);
		ftsw_out_uint("second", " against %" PRIu64, e->val[1]);
	}
	ftsw_out_text("\n");
	ftsw_out_close_object();
}

static int topo_diff(const struct cli_args *a)
{
	const char *n[2] = { a->pos[0], a->pos[1] };
	struct ftsw_topo *t[2] = { NULL, NULL };
	struct ftsw_topo_diff d;
	struct ftsw_err err;
	int rc = 2, i;
	size_t k;

	for (i = 0; i < 2; i++) {
		t[i] = ftsw_topo_open(n[i], &err);
		if (!t[i]) {
			cli_err("%s", err.msg);
			goto out;
		}
	}
	if (ftsw_topo_diff(t[0], t[1], 10000, &d, &err)) {
		cli_err("%s", err.msg);
		goto out;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_bool("same", NULL, !d.ndeltas);
	ftsw_out_open_array("differences");
	for (k = 0; k < d.nkept; k++)
		print_delta(&d.deltas[k], n);
	ftsw_out_close_array();
	ftsw_out_uint("count", "%" PRIu64 " differences", d.ndeltas);
	if (d.nkept < d.ndeltas)
		ftsw_out_uint("listed", " (%" PRIu64 " listed)", d.nkept);
	ftsw_out_uint("nodes_same", "; %" PRIu64 " nodes", d.nodes_same);
	ftsw_out_uint("cable_ends_same", " and %" PRIu64 " cable ends the "
		      "same\n", d.cables_same);
	ftsw_out_close_object();
	rc = ftsw_out_end() ? 2 : d.ndeltas ? 1 : 0;
	ftsw_topo_diff_free(&d);
out:
	for (i = 0; i < 2; i++)
		if (t[i])
			ftsw_topo_free(t[i]);
	return rc;
}

const struct cli_cmd cli_cmds_topo[] = {
	{ "gen", "SPEC [-o FILE]", "generate a topology as a net file",
	  CLI_SPEC, 1, 1, gen_opts, gen_notes, .run = topo_gen },
	{ "show", "TOPO", "what a topology is: its family and parameters, "
	  "sizes, levels",
	  CLI_TOPO, 1, 1, NULL, NULL, .run = topo_show },
	{ "degrade", "TOPO [OPTIONS] [-o FILE]",
	  "remove random or named switches, hosts and links", CLI_TOPO, 1, 1,
	  degrade_opts, degrade_notes, .run = topo_degrade },
	{ "diff", "TOPO TOPO2", "compare two topologies node by node (GUIDs, "
	  "names, cabling)", CLI_TOPO, 2, 2, NULL, diff_notes,
	  .run = topo_diff },
	{ NULL }
};
