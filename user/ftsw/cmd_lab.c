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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lab/lab.h"

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
		"       ftsw lab mpirun [--name LAB] [--order ORDER] [-n N] -- PROG [ARGS...]\n"
		"       ftsw lab capture [--name LAB] LINK [-w FILE] [-c N] [-- TCPDUMP-ARGS]\n"
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

static int parse_u64(const char *opt, const char *v, uint64_t max, uint64_t *out)
{
	char *e;

	if (!v) {
		cli_err("%s: value expected", opt);
		return -1;
	}
	errno = 0;
	*out = strtoull(v, &e, 0);
	if (e == v || *e || errno || *out > max) {
		cli_err("%s: '%s' is not a number in 0..%" PRIu64, opt, v, max);
		return -1;
	}
	return 0;
}

/* "100M" bit/s -> bytes/s */
static int parse_rate(const char *v, uint64_t *bytes)
{
	char *e;
	double x;

	if (!v) {
		cli_err("--rate: value expected");
		return -1;
	}
	x = strtod(v, &e);
	switch (*e) {
	case 'k': case 'K': x *= 1e3; e++; break;
	case 'm': case 'M': x *= 1e6; e++; break;
	case 'g': case 'G': x *= 1e9; e++; break;
	default: break;
	}
	if (!strcmp(e, "bit") || !strcmp(e, "bps") || !strcmp(e, "b"))
		e += strlen(e);
	if (e == v || *e || x < 8000 || x > 16e9) {
		cli_err("--rate: '%s' is not a rate in 8k..16G bit/s", v);
		return -1;
	}
	*bytes = (uint64_t)(x / 8);
	return 0;
}

static int lab_up(int argc, char **argv)
{
	struct ftsw_lab_opts o = { 0 };
	struct ftsw_lab_times tm;
	struct ftsw_err err;
	uint64_t v;
	int i;

	o.lmc_auto = true;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-t") || !strcmp(a, "--topo")) {
			o.topo = n;
			i++;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--engine")) {
			o.engine = n;
			i++;
		} else if (!strcmp(a, "--lft")) {
			o.lft_file = n;
			i++;
		} else if (!strcmp(a, "--name")) {
			o.name = n;
			i++;
		} else if (!strcmp(a, "--lmc")) {
			if (parse_u64(a, n, FTSW_LMC_MAX, &v))
				return 2;
			o.lmc = (unsigned)v;
			o.lmc_auto = false;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(a, n, UINT64_MAX, &o.seed))
				return 2;
			i++;
		} else if (!strcmp(a, "--paths")) {
			if (parse_u64(a, n, 128, &v))
				return 2;
			o.paths = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--rate")) {
			if (parse_rate(n, &o.rate_bytes))
				return 2;
			i++;
		} else if (!strcmp(a, "--no-neigh")) {
			o.no_neigh = true;
		} else {
			cli_err("lab up: unknown argument '%s'", a);
			lab_usage(stderr);
			return 2;
		}
		if (i >= argc) {
			cli_err("lab up: %s: value expected", a);
			return 2;
		}
	}
	if (!o.topo) {
		cli_err("lab up: -t TOPO is required");
		return 2;
	}
	if (o.engine && o.lft_file) {
		cli_err("lab up: -a and --lft exclude each other");
		return 2;
	}
	o.name = lab_name(o.name);
	o.progress = isatty(2);
	if (ftsw_lab_up(&o, &tm, &err)) {
		cli_err("lab up: %s", err.msg);
		return 1;
	}
	if (cli.json) {
		printf("{\"name\":\"%s\",\"engine\":\"%s\",\"lmc\":%u,\"namespaces\":%" PRIu64 ",\"links\":%"
		       PRIu64 ",\"neighbours\":%" PRIu64 ",\"messages\":%" PRIu64
		       ",\"us\":{\"route\":%" PRIu64 ",\"netns\":%" PRIu64
		       ",\"links\":%" PRIu64 ",\"hosts\":%" PRIu64 ",\"switches\":%"
		       PRIu64 ",\"upload\":%" PRIu64 ",\"shape\":%" PRIu64
		       ",\"total\":%" PRIu64 "}}\n", o.name, tm.engine, tm.lmc, tm.nnetns, tm.nlinks,
		       tm.nneigh, tm.nmsgs, tm.route, tm.netns, tm.links, tm.hosts,
		       tm.switches, tm.upload, tm.shape, tm.total);
	} else {
		printf("lab %s up: %" PRIu64 " namespaces, %" PRIu64
		       " links, %" PRIu64 " neighbour entries, routed by %s "
		       "(LMC %u) in %.3f s\n", o.name, tm.nnetns, tm.nlinks,
		       tm.nneigh, tm.engine, tm.lmc, tm.total / 1e6);
		if (cli.verbose)
			printf("  route %.3f s, namespaces %.3f s, links %.3f s, "
			       "hosts %.3f s, switches %.3f s, upload+commit %.3f s, "
			       "shaping %.3f s\n", tm.route / 1e6, tm.netns / 1e6,
			       tm.links / 1e6, tm.hosts / 1e6, tm.switches / 1e6,
			       tm.upload / 1e6, tm.shape / 1e6);
	}
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

static int lab_status(int argc, char **argv)
{
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
	rc = ftsw_lab_status(&lab, cli.json, stdout, &err);
	if (rc)
		cli_err("lab status: %s", err.msg);
	ftsw_lab_close(&lab);
	return rc ? 1 : 0;
}

static int list_cb(const char *name, void *arg)
{
	int *n = arg;

	if (cli.json)
		printf("%s\"%s\"", (*n)++ ? "," : "", name);
	else
		printf("%s\n", name);
	return 0;
}

static int lab_list(int argc, char **argv)
{
	int n = 0;

	(void)argv;
	if (argc) {
		cli_err("lab list: no arguments expected");
		return 2;
	}
	if (cli.json)
		printf("[");
	ftsw_lab_list(list_cb, &n);
	if (cli.json)
		printf("]\n");
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

static int lab_ping(int argc, char **argv)
{
	struct ftsw_lab lab;
	struct ftsw_err err;
	struct ftsw_ping_result res;
	uint32_t hs[2];
	unsigned nh = 0;
	uint64_t count = 1, wait = 2000, i, maxshow = 20;
	int rc = 1, a;

	if (open_lab(&argc, argv, &lab))
		return 1;
	for (a = 0; a < argc; a++) {
		const char *n = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(argv[a], "--all")) {
			continue;
		} else if (!strcmp(argv[a], "-c")) {
			if (parse_u64("-c", n, 1000, &count))
				goto out2;
			a++;
		} else if (!strcmp(argv[a], "-W")) {
			if (parse_u64("-W", n, 600000, &wait))
				goto out2;
			a++;
		} else if (nh < 2) {
			if (ftsw_lab_find_host(&lab, argv[a], &hs[nh], &err)) {
				cli_err("lab ping: %s", err.msg);
				goto out;
			}
			nh++;
		} else {
			cli_err("lab ping: unknown argument '%s'", argv[a]);
			goto out2;
		}
	}
	if (ftsw_lab_ping(&lab, nh ? hs : NULL, 1, nh == 2 ? hs + 1 : NULL, 1,
			  (unsigned)count, (unsigned)wait, &res, &err)) {
		cli_err("lab ping: %s", err.msg);
		goto out;
	}
	if (cli.json) {
		printf("{\"pairs\":%" PRIu64 ",\"ok\":%" PRIu64 ",\"failed\":%"
		       PRIu64 ",\"sent\":%" PRIu64 ",\"received\":%" PRIu64
		       ",\"retried\":%" PRIu64 ",\"rtt_us\":{\"min\":%.0f,\"avg\":%.0f,\"max\":%.0f}"
		       ",\"seconds\":%.3f,\"failures\":[", res.pairs, res.ok,
		       res.failed, res.sent, res.received, res.retried, res.min_us, res.avg_us,
		       res.max_us, res.elapsed_s);
		for (i = 0; i < res.nfails; i++)
			printf("%s{\"src\":%" PRIu32 ",\"dst\":%" PRIu32
			       ",\"received\":%u}", i ? "," : "",
			       res.fails[i].src, res.fails[i].dst,
			       res.fails[i].received);
		printf("]}\n");
	} else {
		printf("%" PRIu64 " pairs: %" PRIu64 " ok, %" PRIu64 " failed; %"
		       PRIu64 " echoes sent, %" PRIu64 " replies in %.2f s",
		       res.pairs, res.ok, res.failed, res.sent, res.received,
		       res.elapsed_s);
		if (res.received)
			printf("; rtt min/avg/max %.0f/%.0f/%.0f us",
			       res.min_us, res.avg_us, res.max_us);
		if (res.retried)
			printf(" (%" PRIu64 " echoes re-sent after a silence)",
			       res.retried);
		printf("\n");
		for (i = 0; i < res.nfails && i < maxshow; i++)
			printf("  FAIL h%" PRIu32 " -> h%" PRIu32 ": %u/%u replies\n",
			       res.fails[i].src, res.fails[i].dst,
			       res.fails[i].received, res.fails[i].sent);
		if (res.nfails > maxshow)
			printf("  ... and %" PRIu64 " more failing pairs (-j lists all)\n",
			       res.nfails - maxshow);
	}
	rc = res.failed ? 1 : 0;
	ftsw_ping_result_free(&res);
	goto out;
out2:
	rc = 2;
out:
	ftsw_lab_close(&lab);
	return rc;
}

static int lab_trace(int argc, char **argv)
{
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint32_t s, d;
	uint64_t probes = 5;
	int rc = 1;

	if (open_lab(&argc, argv, &lab))
		return 1;
	if (argc == 4 && !strcmp(argv[2], "-c")) {
		if (parse_u64("-c", argv[3], 1000, &probes)) {
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
	    ftsw_lab_trace(&lab, s, d, (unsigned)probes, cli.json, stdout, &err))
		cli_err("lab trace: %s", err.msg);
	else
		rc = 0;
	ftsw_lab_close(&lab);
	return rc;
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
		ftsw_lab_changes_print(&lab, &ch, cmd, cli.json, stdout);
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
	uint64_t count = 0, seed = 1;
	int rc = 2, i;

	if (open_lab(&argc, argv, &lab))
		return 1;
	for (i = 0; i < argc; i++) {
		const char *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--count")) {
			if (parse_u64("--count", n, 100000, &count))
				goto out;
			i++;
		} else if (!strcmp(argv[i], "--seed")) {
			if (parse_u64("--seed", n, UINT64_MAX, &seed))
				goto out;
			i++;
		} else {
			cli_err("lab chaos: unknown argument '%s'", argv[i]);
			goto out;
		}
	}
	rc = ftsw_lab_chaos(&lab, (unsigned)count, seed, &ch, &err) ? 1 : 0;
	if (!rc || ch.n)
		ftsw_lab_changes_print(&lab, &ch, "chaos", cli.json, stdout);
	if (rc)
		cli_err("lab chaos: %s", err.msg);
out:
	ftsw_lab_changes_free(&ch);
	ftsw_lab_close(&lab);
	return rc;
}

static int lab_traffic(int argc, char **argv)
{
	struct ftsw_lab_traffic_opts o = { .order = "topology", .packets = 10,
					   .seed = 1 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	uint64_t v;
	int rc = 2, i;

	if (open_lab(&argc, argv, &lab))
		return 1;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if ((!strcmp(a, "-p") || !strcmp(a, "--pattern")) && n) {
			o.pattern = n;
			i++;
		} else if (!strcmp(a, "--order") && n) {
			o.order = n;
			i++;
		} else if (!strcmp(a, "--svg") && n) {
			o.svg = n;
			i++;
		} else if (!strcmp(a, "--packets")) {
			if (parse_u64(a, n, 100000, &v))
				goto out;
			o.packets = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--size")) {
			if (parse_u64(a, n, 1400, &v))
				goto out;
			o.size = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--stages")) {
			if (parse_u64(a, n, 1u << 20, &v))
				goto out;
			o.max_stages = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(a, n, UINT64_MAX, &o.seed))
				goto out;
			i++;
		} else if (!strcmp(a, "--fail") && i + 2 < argc) {
			o.fail_a = argv[i + 1];
			o.fail_b = argv[i + 2];
			i += 2;
		} else if (!strcmp(a, "--fail-at")) {
			if (parse_u64(a, n, 1000000, &v))
				goto out;
			o.fail_at = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--pps")) {
			if (parse_u64(a, n, 100000000, &v))
				goto out;
			o.pps = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--duration")) {
			if (parse_u64(a, n, 3600000, &v))
				goto out;
			o.duration_ms = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--per-stage")) {
			o.per_stage = true;
		} else {
			cli_err("lab traffic: unknown argument '%s'", a);
			goto out;
		}
	}
	if (!o.pattern) {
		cli_err("lab traffic: -p PATTERN is required");
		goto out;
	}
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

/* cmd_lab_tools.c: MPI jobs and packet capture on the lab. */
int cmd_lab_mpirun(int argc, char **argv);
int cmd_lab_mpi_agent(int argc, char **argv);
int cmd_lab_capture(int argc, char **argv);

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
	if (!strcmp(c, "mpirun"))
		return cmd_lab_mpirun(argc, argv);
	if (!strcmp(c, "mpi-agent"))
		return cmd_lab_mpi_agent(argc, argv);
	if (!strcmp(c, "capture"))
		return cmd_lab_capture(argc, argv);
	if (!strcmp(c, "help") || !strcmp(c, "-h") || !strcmp(c, "--help")) {
		lab_usage(stdout);
		return 0;
	}
	cli_err("lab: unknown command '%s'", c);
	lab_usage(stderr);
	return 2;
}
