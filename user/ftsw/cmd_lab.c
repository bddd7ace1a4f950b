// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab: a fat-tree of namespaces with real packets (user/lib/lab/lab.h).
 *
 *   ftsw lab up -t TOPO [-a ENGINE | --lft FILE] [--lmc N] [--paths K]
 *                [--name LAB] [--rate RATE] [--seed S] [--no-neigh]
 *   ftsw lab down|status [--name LAB]      ftsw lab list
 *   ftsw lab exec [--name LAB] HOST -- CMD [ARGS...]
 *   ftsw lab ping [--name LAB] [--all | SRC [DST]] [-c N] [-W MS]
 *   ftsw lab trace [--name LAB] SRC DST [-c N]
 *   ftsw lab fail|heal [--name LAB] link A B [--all] | switch S | port S:P
 *   ftsw lab chaos [--name LAB] --count K [--seed S]
 *   ftsw lab traffic [--name LAB] -p PATTERN [--order ORDER] ...
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lab/lab.h"
#include "nlcli.h"
#include "util/output.h"
#include "util/parse.h"

static void lab_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw lab up -t TOPO [-a ENGINE | --lft FILE] [--lmc N] [--paths K]\n"
		"                   [--name LAB] [--rate RATE] [--seed S] [--no-neigh]\n"
		"       ftsw lab down [--name LAB]\n"
		"       ftsw lab status [--name LAB]\n"
		"       ftsw lab list\n"
		"       ftsw lab exec [--name LAB] HOST -- CMD [ARGS...]\n"
		"       ftsw lab ping [--name LAB] [--all | SRC [DST]] [-c N] [-W MS]\n"
		"       ftsw lab trace [--name LAB] SRC DST [-c PROBES]\n"
		"       ftsw lab fail|heal [--name LAB] link A B [--all] | switch S | port S:P\n"
		"       ftsw lab chaos [--name LAB] --count K [--seed S]\n"
		"       ftsw lab traffic [--name LAB] -p PATTERN [--order ORDER]\n"
		"                   [--packets N] [--size BYTES] [--seed S] [--stages N]\n"
		"                   [--per-stage] [--svg FILE] [--pps N] [--duration MS]\n"
		"                   [--fail A B --fail-at ROUND]  (loss across a live failure)\n"
		"TOPO: a generator spec (ftmn:4,3, pgft:...) or an ibnetdiscover file.\n"
		"HOST: h3, 3 or a node name; switches: s5 or a node name.\n"
		"K: paths per pair for shift1, disjoint, random (default 2^LMC; without\n"
		"--lmc the LMC is the smallest that carries K).\n"
		"RATE: bit/s with k, M, G suffix (shapes every switch-to-switch link).\n"
		"PATTERN: all2all, cps (every shift), or any of ftsw analyze -p's (shift:K,\n"
		"perm, a2a, bisect, file:PATH, ...); ORDER: topology, random, or any of\n"
		"ftsw analyze --order's. On a shaped lab (up --rate) each stage sends for\n"
		"--duration MS (default 2500) and per-flow throughput is measured.\n"
		"The lab's name defaults to $FTSW_LAB, else \"" FTSW_LAB_DEFAULT "\".\n");
}

static const char *lab_name(const char *given)
{
	const char *e = getenv("FTSW_LAB");

	return given ? given : e && *e ? e : FTSW_LAB_DEFAULT;
}

/* The number after option opt: 0, or exit status 2 after saying why. */
static int opt_u64(const char *opt, const char *v, uint64_t min, uint64_t max,
		   uint64_t *out)
{
	struct ftsw_err err;

	if (!v) {
		cli_err("%s: value expected", opt);
		return 2;
	}
	if (ftsw_parse_u64(opt, v, min, max, out, &err)) {
		cli_err("%s", err.msg);
		return 2;
	}
	return 0;
}

static int opt_uint(const char *opt, const char *v, unsigned min,
		    unsigned max, unsigned *out)
{
	uint64_t x;
	int rc = opt_u64(opt, v, min, max, &x);

	if (!rc)
		*out = (unsigned)x;
	return rc;
}

/* "100M" bit/s (k, M, G; optional "bit", "bps" or "b") -> bytes/s */
static int parse_rate(const char *v, uint64_t *bytes)
{
	static const char *const units[] = { "bit", "bps", "b" };
	struct ftsw_err err;
	char num[64];
	double x, mult = 1;
	size_t n, i, u;

	if (!v) {
		cli_err("--rate: value expected");
		return 2;
	}
	n = strlen(v);
	if (n >= sizeof(num))
		goto bad;
	memcpy(num, v, n + 1);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		u = strlen(units[i]);
		if (n > u && !strcmp(num + n - u, units[i])) {
			num[n -= u] = 0;
			break;
		}
	}
	if (n > 1 && strchr("kKmMgG", num[n - 1])) {
		mult = strchr("kK", num[n - 1]) ? 1e3 :
		       strchr("mM", num[n - 1]) ? 1e6 : 1e9;
		num[--n] = 0;
	}
	if (ftsw_parse_double("--rate", num, 0, 16e9, &x, &err))
		goto bad;
	x *= mult;
	if (x < 8000 || x > 16e9)
		goto bad;
	*bytes = (uint64_t)(x / 8);
	return 0;
bad:
	cli_err("--rate: '%s' is not a rate in 8k..16G bit/s", v);
	return 2;
}

/* The options of lab up into o: 0, or an exit status. */
static int lab_up_args(int argc, char **argv, struct ftsw_lab_opts *o)
{
	uint64_t v;
	int i, rc = 0;

	o->lmc_auto = true;
	for (i = 0; i < argc && !rc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-neigh")) {
			o->no_neigh = true;
			continue;
		}
		if (!n) {
			cli_err("lab up: %s: value expected", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "-t") || !strcmp(a, "--topo")) {
			o->topo = n;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--engine")) {
			o->engine = n;
		} else if (!strcmp(a, "--lft")) {
			o->lft_file = n;
		} else if (!strcmp(a, "--name")) {
			o->name = n;
		} else if (!strcmp(a, "--lmc")) {
			rc = opt_uint(a, n, 0, FTSW_LMC_MAX, &o->lmc);
			o->lmc_auto = false;
		} else if (!strcmp(a, "--seed")) {
			rc = opt_u64(a, n, 0, UINT64_MAX, &o->seed);
		} else if (!strcmp(a, "--paths")) {
			rc = opt_u64(a, n, 0, 128, &v);
			o->paths = (unsigned)v;
		} else if (!strcmp(a, "--rate")) {
			rc = parse_rate(n, &o->rate_bytes);
		} else {
			cli_err("lab up: unknown argument '%s'", a);
			lab_usage(stderr);
			return 2;
		}
	}
	if (rc)
		return rc;
	if (!o->topo) {
		cli_err("lab up: -t TOPO is required");
		return 2;
	}
	if (o->engine && o->lft_file) {
		cli_err("lab up: -a and --lft exclude each other");
		return 2;
	}
	return 0;
}

static void lab_up_print(const char *name, const struct ftsw_lab_times *tm)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s up: ", name);
	ftsw_out_uint("namespaces", "%" PRIu64 " namespaces, ", tm->nnetns);
	ftsw_out_uint("links", "%" PRIu64 " links, ", tm->nlinks);
	ftsw_out_uint("neighbours", "%" PRIu64 " neighbour entries, ",
		      tm->nneigh);
	ftsw_out_str("engine", "routed by %s ", tm->engine);
	ftsw_out_uint("lmc", "(LMC %" PRIu64 ") ", tm->lmc);
	ftsw_out_uint("messages", NULL, tm->nmsgs);
	ftsw_out_float(NULL, "in %.3f s\n", tm->total / 1e6);
	if (cli.verbose)
		ftsw_out_text("  route %.3f s, namespaces %.3f s, links %.3f s, "
			      "hosts %.3f s, switches %.3f s, upload+commit "
			      "%.3f s, shaping %.3f s\n", tm->route / 1e6,
			      tm->netns / 1e6, tm->links / 1e6, tm->hosts / 1e6,
			      tm->switches / 1e6, tm->upload / 1e6,
			      tm->shape / 1e6);
	ftsw_out_open_object("us");
	ftsw_out_uint("route", NULL, tm->route);
	ftsw_out_uint("netns", NULL, tm->netns);
	ftsw_out_uint("links", NULL, tm->links);
	ftsw_out_uint("hosts", NULL, tm->hosts);
	ftsw_out_uint("switches", NULL, tm->switches);
	ftsw_out_uint("upload", NULL, tm->upload);
	ftsw_out_uint("shape", NULL, tm->shape);
	ftsw_out_uint("total", NULL, tm->total);
	ftsw_out_close_object();
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_up(int argc, char **argv)
{
	struct ftsw_lab_opts o = { 0 };
	struct ftsw_lab_times tm;
	struct ftsw_err err;
	int rc;

	rc = lab_up_args(argc, argv, &o);
	if (rc)
		return rc;
	o.name = lab_name(o.name);
	o.progress = isatty(2);
	if (ftsw_lab_up(&o, &tm, &err)) {
		cli_err("lab up: %s", err.msg);
		return 1;
	}
	lab_up_print(o.name, &tm);
	return 0;
}

/* Common: strip --name LAB from argv, open the lab. */
static int open_lab(int *argc, char **argv, struct ftsw_lab *lab)
{
	const char *name = NULL;
	struct ftsw_err err;
	int i, j;

	for (i = 0, j = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--") ) {
			while (i < *argc)
				argv[j++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--name") && i + 1 < *argc) {
			name = argv[++i];
			continue;
		}
		argv[j++] = argv[i];
	}
	*argc = j;
	if (ftsw_lab_open(lab_name(name), lab, &err)) {
		cli_err("%s", err.msg);
		return -1;
	}
	return 0;
}

static int name_only(int argc, char **argv, const char *cmd, const char **name)
{
	int i;

	*name = NULL;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			*name = argv[++i];
		} else {
			cli_err("lab %s: unknown argument '%s'", cmd, argv[i]);
			return -1;
		}
	}
	*name = lab_name(*name);
	return 0;
}

static int lab_down(int argc, char **argv)
{
	struct ftsw_err err;
	const char *name;

	if (name_only(argc, argv, "down", &name))
		return 2;
	if (ftsw_lab_down(name, &err)) {
		cli_err("lab down: %s", err.msg);
		return 1;
	}
	return 0;
}

static void status_print(const struct ftsw_lab *lab,
			 const struct ftsw_lab_status *st)
{
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("name", "lab %s", lab->name);
	ftsw_out_str("topology", ": %s\n", lab->spec);
	ftsw_out_str("engine", "  routing     %s", lab->engine);
	ftsw_out_uint("lmc", ", LMC %" PRIu64, lab->lmc);
	ftsw_out_text("%s\n", lab->rate_bytes ? ", shaped" : "");
	ftsw_out_uint("rate_bits", lab->rate_bytes ? "  rate        %" PRIu64
		      " bit/s per fabric link\n" : NULL, lab->rate_bytes * 8);
	ftsw_out_uint("hosts", "  hosts       %" PRIu64, lab->topo->nhosts);
	ftsw_out_str(NULL, " (namespaces %s-h0..)\n", lab->name);
	ftsw_out_uint("switches", "  switches    %" PRIu64,
		      st->fabric.nswitches);
	ftsw_out_str(NULL, " (namespace %s)\n", lab->name);
	ftsw_out_uint("links", NULL, ftsw_topo_nlinks(lab->topo));
	ftsw_out_uint("ports", "  ports       %" PRIu64 " bound", st->ports);
	ftsw_out_uint("ports_edge", " (%" PRIu64 " edge), ", st->ports_edge);
	ftsw_out_uint("ports_down", "%" PRIu64 " down\n", st->ports_down);
	ftsw_out_uint("generation", "  generation  %" PRIu64 "\n",
		      st->fabric.generation);
	ftsw_out_text("  drops       %" PRIu64, st->drops);
	nlcli_print_drops("drops", st->fabric.drops, " %s=%" PRIu64, true);
	ftsw_out_text("\n");
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_status(int argc, char **argv)
{
	struct ftsw_lab_status st;
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc;

	if (open_lab(&argc, argv, &lab))
		return 1;
	if (argc) {
		cli_err("lab status: unknown argument '%s'", argv[0]);
		ftsw_lab_close(&lab);
		return 2;
	}
	rc = ftsw_lab_status(&lab, &st, &err);
	if (rc)
		cli_err("lab status: %s", err.msg);
	else
		status_print(&lab, &st);
	ftsw_lab_close(&lab);
	return rc ? 1 : 0;
}

static int list_cb(const char *name, void *arg)
{
	(void)arg;
	ftsw_out_str(NULL, "%s\n", name);
	return 0;
}

static int lab_list(int argc, char **argv)
{
	(void)argv;
	if (argc) {
		cli_err("lab list: no arguments expected");
		return 2;
	}
	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_array(NULL);
	ftsw_lab_list(list_cb, NULL);
	ftsw_out_close_array();
	ftsw_out_end();
	return 0;
}

static int lab_exec(int argc, char **argv)
{
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint32_t h;
	int i;

	if (open_lab(&argc, argv, &lab))
		return 1;
	if (argc < 3 || strcmp(argv[1], "--")) {
		cli_err("lab exec: HOST -- CMD [ARGS...] expected");
		ftsw_lab_close(&lab);
		return 2;
	}
	if (ftsw_lab_find_host(&lab, argv[0], &h, &err) ||
	    ftsw_lab_enter_host(&lab, h, &err)) {
		cli_err("lab exec: %s", err.msg);
		ftsw_lab_close(&lab);
		return 1;
	}
	ftsw_lab_close(&lab);
	for (i = 0; i < argc - 2; i++)
		argv[i] = argv[i + 2];
	argv[argc - 2] = NULL;
	execvp(argv[0], argv);
	cli_err("lab exec: %s: %s", argv[0], strerror(errno));
	return 127;
}

struct ping_args {
	uint32_t hosts[2];
	unsigned nhosts;
	unsigned count, wait_ms;
};

/* The arguments of lab ping: 0, or an exit status. */
static int lab_ping_args(struct ftsw_lab *lab, int argc, char **argv,
			 struct ping_args *pa)
{
	struct ftsw_err err;
	int a, rc = 0;

	for (a = 0; a < argc && !rc; a++) {
		const char *n = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(argv[a], "--all")) {
			continue;
		} else if (!strcmp(argv[a], "-c")) {
			rc = opt_uint("-c", n, 0, 1000, &pa->count);
			a++;
		} else if (!strcmp(argv[a], "-W")) {
			rc = opt_uint("-W", n, 0, 600000, &pa->wait_ms);
			a++;
		} else if (pa->nhosts < 2) {
			if (ftsw_lab_find_host(lab, argv[a],
					       &pa->hosts[pa->nhosts], &err)) {
				cli_err("lab ping: %s", err.msg);
				return 1;
			}
			pa->nhosts++;
		} else {
			cli_err("lab ping: unknown argument '%s'", argv[a]);
			return 2;
		}
	}
	return rc;
}

/* At most this many failing pairs in text (-j lists all). */
#define PING_SHOW_FAILS 20

static void ping_print(const struct ftsw_ping_result *res)
{
	uint64_t i;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("pairs", "%" PRIu64 " pairs: ", res->pairs);
	ftsw_out_uint("ok", "%" PRIu64 " ok, ", res->ok);
	ftsw_out_uint("failed", "%" PRIu64 " failed; ", res->failed);
	ftsw_out_uint("sent", "%" PRIu64 " echoes sent, ", res->sent);
	ftsw_out_uint("received", "%" PRIu64 " replies ", res->received);
	ftsw_out_float("seconds", "in %.2f s", res->elapsed_s);
	ftsw_out_uint("retried", NULL, res->retried);
	ftsw_out_open_object("rtt_us");
	if (res->received)
		ftsw_out_text("; rtt min/avg/max ");
	ftsw_out_float("min", res->received ? "%.0f/" : NULL,
		       round(res->min_us));
	ftsw_out_float("avg", res->received ? "%.0f/" : NULL,
		       round(res->avg_us));
	ftsw_out_float("max", res->received ? "%.0f us" : NULL,
		       round(res->max_us));
	ftsw_out_close_object();
	if (res->retried)
		ftsw_out_text(" (%" PRIu64 " echoes re-sent after a silence)",
			      res->retried);
	ftsw_out_text("\n");
	ftsw_out_open_array("failures");
	for (i = 0; i < res->nfails; i++) {
		const struct ftsw_pair_fail *f = &res->fails[i];

		if (!cli.json && i >= PING_SHOW_FAILS)
			break;
		ftsw_out_open_object(NULL);
		ftsw_out_uint("src", "  FAIL h%" PRIu64, f->src);
		ftsw_out_uint("dst", " -> h%" PRIu64, f->dst);
		ftsw_out_uint("received", ": %" PRIu64, f->received);
		ftsw_out_text("/%u replies\n", f->sent);
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	if (res->nfails > PING_SHOW_FAILS)
		ftsw_out_text("  ... and %" PRIu64 " more failing pairs (-j "
			      "lists all)\n", res->nfails - PING_SHOW_FAILS);
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_ping(int argc, char **argv)
{
	struct ping_args pa = { .count = 1, .wait_ms = 2000 };
	struct ftsw_ping_result res;
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc;

	if (open_lab(&argc, argv, &lab))
		return 1;
	rc = lab_ping_args(&lab, argc, argv, &pa);
	if (rc)
		goto out;
	if (ftsw_lab_ping(&lab, pa.nhosts ? pa.hosts : NULL, 1,
			  pa.nhosts == 2 ? pa.hosts + 1 : NULL, 1, pa.count,
			  pa.wait_ms, &res, &err)) {
		cli_err("lab ping: %s", err.msg);
		rc = 1;
		goto out;
	}
	ping_print(&res);
	rc = res.failed ? 1 : 0;
	ftsw_ping_result_free(&res);
out:
	ftsw_lab_close(&lab);
	return rc;
}

/* "s3(desc)" / "h5": a node as trace shows it. */
static const char *trace_node(const struct ftsw_topo *t, uint32_t node,
			      char *buf, size_t sz)
{
	const struct ftsw_node *n = &t->nodes[node];

	snprintf(buf, sz, "%c%" PRIu32 "%s%s%s",
		 n->kind == FTSW_SWITCH ? 's' : 'h', n->index,
		 n->desc ? "(" : "", n->desc ? n->desc : "", n->desc ? ")" : "");
	return buf;
}

static const char *trace_verdict(const struct ftsw_lab_trace_result *res,
				 const struct ftsw_lab_trace_path *p)
{
	if (!p->status)
		return p->confirmed ? "(confirmed by counters)" :
		       res->npaths > 1 ? "(not taken by the probe flow)" :
		       "(COUNTERS DISAGREE)";
	return p->status == -1 ? "no route" : p->status == -2 ? "loop" :
	       p->status == -3 ? "dead port" : "misdelivered";
}

static void trace_print(const struct ftsw_lab *lab,
			const struct ftsw_lab_trace_result *res)
{
	const struct ftsw_topo *t = lab->topo;
	char nb[96];
	unsigned i, h;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_uint("src", NULL, res->src);
	ftsw_out_uint("dst", NULL, res->dst);
	ftsw_out_uint("probes", NULL, res->probes);
	ftsw_out_uint("replies", NULL, res->replies);
	ftsw_out_open_array("paths");
	for (i = 0; i < res->npaths; i++) {
		const struct ftsw_lab_trace_path *p = &res->paths[i];

		ftsw_out_open_object(NULL);
		ftsw_out_uint("dlid", "dlid %" PRIu64 ": ", p->dlid);
		ftsw_out_str(NULL, "%s", trace_node(t, t->hosts[res->src], nb,
						    sizeof(nb)));
		ftsw_out_int("status", NULL, p->status);
		ftsw_out_open_array("hops");
		for (h = 0; h < p->nhops; h++) {
			ftsw_out_open_object(NULL);
			ftsw_out_uint("switch", " -> s%" PRIu64, p->hops[h].sw);
			ftsw_out_uint("port", ":%" PRIu64, p->hops[h].port);
			ftsw_out_uint("tx_delta", " [%" PRIu64 "]",
				      p->hops[h].tx_delta);
			ftsw_out_close_object();
		}
		ftsw_out_close_array();
		ftsw_out_bool("confirmed", NULL, p->confirmed);
		if (!p->status)
			ftsw_out_str(NULL, " -> %s", trace_node(t,
				     t->hosts[res->dst], nb, sizeof(nb)));
		ftsw_out_text("  %s\n", trace_verdict(res, p));
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_text("probes: %u sent, %" PRIu64 " replies ([n] = packets "
		      "sent on that port during the probe)\n", res->probes,
		      res->replies);
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_trace(int argc, char **argv)
{
	struct ftsw_lab_trace_result res;
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint32_t s, d;
	unsigned probes = 5;
	int rc = 1;

	if (open_lab(&argc, argv, &lab))
		return 1;
	if (argc == 4 && !strcmp(argv[2], "-c")) {
		if (opt_uint("-c", argv[3], 0, 1000, &probes)) {
			ftsw_lab_close(&lab);
			return 2;
		}
		argc = 2;
	}
	if (argc != 2) {
		cli_err("lab trace: SRC DST expected");
		ftsw_lab_close(&lab);
		return 2;
	}
	if (ftsw_lab_find_host(&lab, argv[0], &s, &err) ||
	    ftsw_lab_find_host(&lab, argv[1], &d, &err) ||
	    ftsw_lab_trace(&lab, s, d, probes, &res, &err)) {
		cli_err("lab trace: %s", err.msg);
	} else {
		trace_print(&lab, &res);
		ftsw_lab_trace_result_free(&res);
		rc = 0;
	}
	ftsw_lab_close(&lab);
	return rc;
}

/* "s8" / "h3": the lab's short name of a node. */
static void node_short(const struct ftsw_topo *t, uint32_t node, char *buf,
		       size_t sz)
{
	snprintf(buf, sz, "%c%" PRIu32,
		 t->nodes[node].kind == FTSW_HOST ? 'h' : 's',
		 t->nodes[node].index);
}

/* One end of a changed cable (JSON only). */
static void change_end(const struct ftsw_lab *lab, const char *key,
		       uint32_t node, unsigned port)
{
	const struct ftsw_topo *t = lab->topo;
	char s[24], dev[32], ns[96];
	bool host = t->nodes[node].kind == FTSW_HOST;

	node_short(t, node, s, sizeof(s));
	if (host)
		ftsw_lab_host_ns(lab->name, t->nodes[node].index, ns,
				 sizeof(ns));
	else
		ftsw_lab_port_dev(t->nodes[node].index, port, dev, sizeof(dev));
	ftsw_out_open_object(key);
	ftsw_out_str("node", NULL, s);
	ftsw_out_str("name", NULL, t->nodes[node].desc ? t->nodes[node].desc : s);
	ftsw_out_uint("port", NULL, port);
	ftsw_out_str("dev", NULL, host ? "eth0" : dev);
	ftsw_out_str("netns", NULL, host ? ns : lab->name);
	ftsw_out_close_object();
}

/*
 * Text: one "failed|healed link s8:1 <-> s16:3" line per cable. JSON:
 * {"lab", "action", "count", "changed": [{"a": END, "b": END,
 * "cable": "switch"|"host", "state": "up"|"down"}]}, END = {"node": "s8",
 * "name", "port", "dev", "netns"}.
 */
static void changes_print(const struct ftsw_lab *lab,
			  const struct ftsw_lab_changes *ch, const char *action)
{
	const struct ftsw_topo *t = lab->topo;
	size_t i;

	ftsw_out_begin(stdout, cli.json);
	ftsw_out_open_object(NULL);
	ftsw_out_str("lab", NULL, lab->name);
	ftsw_out_str("action", NULL, action);
	ftsw_out_uint("count", NULL, ch->n);
	ftsw_out_open_array("changed");
	for (i = 0; i < ch->n; i++) {
		const struct ftsw_lab_change *c = &ch->v[i];
		bool host = t->nodes[c->b].kind == FTSW_HOST;
		char a[24], b[24];

		node_short(t, c->a, a, sizeof(a));
		node_short(t, c->b, b, sizeof(b));
		ftsw_out_open_object(NULL);
		ftsw_out_text("%s link %s:%u <-> %s", c->up ? "healed" :
			      "failed", a, c->a_port, b);
		if (host)
			ftsw_out_text(" (eth0)\n");
		else
			ftsw_out_text(":%u\n", c->b_port);
		change_end(lab, "a", c->a, c->a_port);
		change_end(lab, "b", c->b, c->b_port);
		ftsw_out_str("cable", NULL, host ? "host" : "switch");
		ftsw_out_str("state", NULL, c->up ? "up" : "down");
		ftsw_out_close_object();
	}
	ftsw_out_close_array();
	ftsw_out_close_object();
	ftsw_out_end();
}

static int lab_fail(int argc, char **argv, bool up)
{
	const char *cmd = up ? "heal" : "fail";
	struct ftsw_lab_changes ch = { 0 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	bool all = false;
	int rc = 1, i, j;

	if (open_lab(&argc, argv, &lab))
		return 1;
	for (i = 0, j = 0; i < argc; i++)
		if (!strcmp(argv[i], "--all"))
			all = true;
		else
			argv[j++] = argv[i];
	argc = j;
	if (argc == 3 && !strcmp(argv[0], "link"))
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_LINK, argv[1], argv[2], up,
				   all, &ch, &err);
	else if (argc == 2 && !strcmp(argv[0], "switch"))
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_SWITCH, argv[1], NULL, up,
				   true, &ch, &err);
	else if (argc == 2 && !strcmp(argv[0], "port"))
		rc = ftsw_lab_fail(&lab, FTSW_FAIL_PORT, argv[1], NULL, up,
				   false, &ch, &err);
	else {
		cli_err("lab %s: link A B | switch S | port S:P expected", cmd);
		ftsw_lab_close(&lab);
		return 2;
	}
	/* What did change is reported, also before an error. */
	if (!rc || ch.n)
		changes_print(&lab, &ch, cmd);
	if (rc)
		cli_err("lab %s: %s", cmd, err.msg);
	ftsw_lab_changes_free(&ch);
	ftsw_lab_close(&lab);
	return rc ? 1 : 0;
}

static int lab_chaos(int argc, char **argv)
{
	struct ftsw_lab_changes ch = { 0 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint64_t seed = 1;
	unsigned count = 0;
	int rc = 0, i;

	if (open_lab(&argc, argv, &lab))
		return 1;
	for (i = 0; i < argc && !rc; i++) {
		const char *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--count")) {
			rc = opt_uint("--count", n, 0, 100000, &count);
			i++;
		} else if (!strcmp(argv[i], "--seed")) {
			rc = opt_u64("--seed", n, 0, UINT64_MAX, &seed);
			i++;
		} else {
			cli_err("lab chaos: unknown argument '%s'", argv[i]);
			rc = 2;
		}
	}
	if (rc)
		goto out;
	rc = ftsw_lab_chaos(&lab, count, seed, &ch, &err) ? 1 : 0;
	if (!rc || ch.n)
		changes_print(&lab, &ch, "chaos");
	if (rc)
		cli_err("lab chaos: %s", err.msg);
out:
	ftsw_lab_changes_free(&ch);
	ftsw_lab_close(&lab);
	return rc;
}

/* A numeric option of lab traffic: its name, range and field. */
struct traffic_num {
	const char *name;
	unsigned max;
	size_t off;
};

static const struct traffic_num traffic_nums[] = {
	{ "--packets", 100000, offsetof(struct ftsw_lab_traffic_opts, packets) },
	{ "--size", 1400, offsetof(struct ftsw_lab_traffic_opts, size) },
	{ "--stages", 1u << 20, offsetof(struct ftsw_lab_traffic_opts, max_stages) },
	{ "--fail-at", 1000000, offsetof(struct ftsw_lab_traffic_opts, fail_at) },
	{ "--pps", 100000000, offsetof(struct ftsw_lab_traffic_opts, pps) },
	{ "--duration", 3600000, offsetof(struct ftsw_lab_traffic_opts, duration_ms) },
};

/* The options of lab traffic into o: 0, or an exit status. */
static int lab_traffic_args(int argc, char **argv,
			    struct ftsw_lab_traffic_opts *o)
{
	size_t k;
	int i, rc = 0;

	for (i = 0; i < argc && !rc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		for (k = 0; k < sizeof(traffic_nums) / sizeof(traffic_nums[0]); k++)
			if (!strcmp(a, traffic_nums[k].name))
				break;
		if (k < sizeof(traffic_nums) / sizeof(traffic_nums[0])) {
			rc = opt_uint(a, n, 0, traffic_nums[k].max,
				      (unsigned *)((char *)o + traffic_nums[k].off));
			i++;
		} else if ((!strcmp(a, "-p") || !strcmp(a, "--pattern")) && n) {
			o->pattern = n;
			i++;
		} else if (!strcmp(a, "--order") && n) {
			o->order = n;
			i++;
		} else if (!strcmp(a, "--svg") && n) {
			o->svg = n;
			i++;
		} else if (!strcmp(a, "--seed")) {
			rc = opt_u64(a, n, 0, UINT64_MAX, &o->seed);
			i++;
		} else if (!strcmp(a, "--fail") && i + 2 < argc) {
			o->fail_a = argv[i + 1];
			o->fail_b = argv[i + 2];
			i += 2;
		} else if (!strcmp(a, "--per-stage")) {
			o->per_stage = true;
		} else {
			cli_err("lab traffic: unknown argument '%s'", a);
			rc = 2;
		}
	}
	if (!rc && !o->pattern) {
		cli_err("lab traffic: -p PATTERN is required");
		rc = 2;
	}
	return rc;
}

static int lab_traffic(int argc, char **argv)
{
	struct ftsw_lab_traffic_opts o = { .order = "topology", .packets = 10,
					   .seed = 1 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	int rc;

	if (open_lab(&argc, argv, &lab))
		return 1;
	rc = lab_traffic_args(argc, argv, &o);
	if (rc)
		goto out;
	o.json = cli.json;
	o.verbose = cli.verbose;
	rc = ftsw_lab_traffic(&lab, &o, stdout, &err);
	if (rc < 0) {
		cli_err("lab traffic: %s", err.msg);
		rc = 1;
	}
out:
	ftsw_lab_close(&lab);
	return rc;
}

int cmd_lab(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "help";

	argc -= 2;
	argv += 2;
	if (!strcmp(c, "up"))
		return lab_up(argc, argv);
	if (!strcmp(c, "down"))
		return lab_down(argc, argv);
	if (!strcmp(c, "status") || !strcmp(c, "show"))
		return lab_status(argc, argv);
	if (!strcmp(c, "list"))
		return lab_list(argc, argv);
	if (!strcmp(c, "exec"))
		return lab_exec(argc, argv);
	if (!strcmp(c, "ping"))
		return lab_ping(argc, argv);
	if (!strcmp(c, "trace"))
		return lab_trace(argc, argv);
	if (!strcmp(c, "fail"))
		return lab_fail(argc, argv, false);
	if (!strcmp(c, "heal"))
		return lab_fail(argc, argv, true);
	if (!strcmp(c, "chaos"))
		return lab_chaos(argc, argv);
	if (!strcmp(c, "traffic"))
		return lab_traffic(argc, argv);
	if (!strcmp(c, "help") || !strcmp(c, "-h") || !strcmp(c, "--help")) {
		lab_usage(stdout);
		return 0;
	}
	cli_err("lab: unknown command '%s'", c);
	lab_usage(stderr);
	return 2;
}
