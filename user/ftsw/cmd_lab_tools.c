// SPDX-License-Identifier: GPL-2.0
/*
 * ftsw lab mpirun / capture: outside tools on the lab (lab/lab_tools.h).
 *
 *   ftsw lab mpirun [--name LAB] [--order ORDER] [-n N] [--mpirun PATH]
 *                   [-v] [--mca K V]... -- PROG [ARGS...]
 *   ftsw lab capture [--name LAB] LINK [-w FILE] [-c COUNT] [-- TCPDUMP-ARGS]
 *   ftsw lab mpi-agent HOST CMD...     (hidden: Open MPI's launcher agent)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab/lab_tools.h"


/* -v: the placement and mpirun's command line, a line each on stderr. */
static void mpirun_note(const char *what, uint64_t done, uint64_t total,
			void *arg)
{
	(void)done;
	(void)total;
	(void)arg;
	if (what)
		fprintf(stderr, "%s\n", what);
}

static void mpirun_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw lab mpirun [--name LAB] [--mpi openmpi|mpich] [--order ORDER] [-n N]\n"
		"                       [--mpirun PATH] [--timeout S] [-v] [--mca KEY VALUE]...\n"
		"                       -- PROG [ARGS...]\n"
		"Runs PROG across the lab, one rank per host, with Open MPI (mpirun.openmpi, the\n"
		"default) or MPICH (--mpi mpich: mpiexec.hydra): the launcher as rank 0's host,\n"
		"the other daemons started through `ftsw lab mpi-agent` (no ssh), each host with\n"
		"its own /sys as under ip netns exec, ranks placed by ORDER (topology (default),\n"
		"random:SEED, or any of ftsw order --order's); TCP over the fabric only, no\n"
		"shared memory between ranks. N: ranks (default: every host). --mca: Open MPI's\n"
		"only. --timeout S stops the job after S seconds (exit status 124): MPICH's\n"
		"mpiexec may never return after MPI_Finalize (Documentation/mpi.md). -v prints\n"
		"the placement and the launcher's command. Exit status: the launcher's.\n");
}

static void capture_usage(FILE *f)
{
	fprintf(f,
		"Usage: ftsw lab capture [--name LAB] LINK [-w FILE] [-c COUNT] [-- TCPDUMP-ARGS]\n"
		"Runs tcpdump on a cable of the lab. LINK: SWITCH:PORT (s0:1, or a node name\n"
		"and port) or a host (h3: its edge cable). Frames between switches carry the\n"
		"fabric header (ethertype 0x88B5; tshark decodes it with ftsw.lua).\n");
}

/* --name (or --lab) LAB anywhere before "--", else ftsw_lab_pick's. */
static const char *take_name(int *argc, char **argv)
{
	static char only[FTSW_LAB_NAME_MAX + 1];
	const char *name = NULL;
	int i, j;

	for (i = 0, j = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[j++] = argv[i++];
			break;
		}
		if ((!strcmp(argv[i], "--name") || !strcmp(argv[i], "--lab")) &&
		    i + 1 < *argc) {
			name = argv[++i];
			continue;
		}
		argv[j++] = argv[i];
	}
	/* what follows "--" is used as a NULL-terminated vector */
	*argc = j;
	argv[j] = NULL;
	return ftsw_lab_pick(name, false, only, sizeof(only));
}

/*
 * A tool's start: with a usage, -h or --help before "--" prints it (0);
 * else the lab --name (or $FTSW_LAB) names is opened (1 to go on, -1
 * after an error).
 */
static int open_named(int *argc, char **argv, void (*usage)(FILE *f),
		      struct ftsw_lab *lab)
{
	struct ftsw_err err;
	const char *name;
	char hint[320];
	int i;

	for (i = 0; usage && i < *argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
	name = take_name(argc, argv);
	if (ftsw_lab_open(name, lab, &err)) {
		ftsw_lab_hint(name, hint, sizeof(hint));
		cli_err("%s%s", err.msg, hint);
		return -1;
	}
	return 1;
}

static int parse_count(const char *opt, const char *v, unsigned long max,
		       unsigned long *out)
{
	char *e;

	errno = 0;
	*out = v ? strtoul(v, &e, 10) : 0;
	if (!v || e == v || *e || errno || !*out || *out > max) {
		cli_err("%s: '%s' is not a number in 1..%lu", opt, v ? v : "",
			max);
		return -1;
	}
	return 0;
}

int cmd_lab_mpirun(const struct cli_object *obj, const struct cli_cmd *cmd,
		   int argc, char **argv)
{
	struct ftsw_lab_mpirun_opts o = { 0 };
	struct ftsw_lab lab;
	struct ftsw_err err;
	char **extra;
	unsigned long v;
	int i, ne = 0, rc = 2;

	(void)obj;
	(void)cmd;
	i = open_named(&argc, argv, mpirun_usage, &lab);
	if (i <= 0)
		return -i;
	extra = calloc((size_t)argc + 1, sizeof(*extra));
	if (!extra) {
		cli_err("lab mpirun: out of memory");
		ftsw_lab_close(&lab);
		return 1;
	}
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--")) {
			o.prog = argv + i + 1;
			break;
		} else if (!strcmp(a, "--order") && n) {
			o.order = n;
			i++;
		} else if (!strcmp(a, "--mpi") && n) {
			if (strcmp(n, "openmpi") && strcmp(n, "mpich")) {
				cli_err("lab mpirun: --mpi: '%s' is not one of "
					"openmpi, mpich", n);
				goto out;
			}
			o.mpi = strcmp(n, "mpich") ? FTSW_MPI_OPENMPI :
				FTSW_MPI_MPICH;
			i++;
		} else if (!strcmp(a, "--timeout")) {
			if (parse_count(a, n, 86400 * 7, &v))
				goto out;
			o.timeout_s = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--mpirun") && n) {
			o.mpirun = n;
			i++;
		} else if ((!strcmp(a, "-n") || !strcmp(a, "-np"))) {
			if (parse_count(a, n, UINT32_MAX, &v))
				goto out;
			o.nranks = (uint32_t)v;
			i++;
		} else if (!strcmp(a, "--mca") && i + 2 < argc) {
			extra[ne++] = argv[i];
			extra[ne++] = argv[i + 1];
			extra[ne++] = argv[i + 2];
			i += 2;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o.progress = mpirun_note;
		} else {
			cli_err("lab mpirun: unknown argument '%s' (-- PROG ARGS "
				"expected after the options)", a);
			mpirun_usage(stderr);
			goto out;
		}
	}
	if (!o.prog || !o.prog[0]) {
		cli_err("lab mpirun: -- PROG [ARGS...] expected");
		goto out;
	}
	if (ne && o.mpi == FTSW_MPI_MPICH) {
		cli_err("lab mpirun: --mca is Open MPI's; MPICH takes its "
			"settings from the environment (MPIR_CVAR_..., UCX_...)");
		goto out;
	}
	o.mpi_args = extra;
	if (cli.verbose)
		o.progress = mpirun_note;
	rc = ftsw_lab_mpirun(&lab, &o, &err);
	if (rc < 0) {
		cli_err("lab mpirun: %s", err.msg);
		/* as a shell says a command it cannot find */
		rc = err.code == ENOENT ? 127 : 1;
	}
out:
	free(extra);
	ftsw_lab_close(&lab);
	return rc;
}

int cmd_lab_mpi_agent(const struct cli_object *obj,
		      const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ftsw_lab lab;
	struct ftsw_err err;

	(void)obj;
	(void)cmd;
	if (open_named(&argc, argv, NULL, &lab) < 0)
		return 255;
	ftsw_lab_mpi_agent(&lab, argc, argv, &err);
	cli_err("lab mpi-agent: %s", err.msg);
	ftsw_lab_close(&lab);
	return 255;
}

int cmd_lab_capture(const struct cli_object *obj, const struct cli_cmd *cmd,
		    int argc, char **argv)
{
	const char *link = NULL, *file = NULL, *name;
	struct ftsw_lab lab;
	struct ftsw_err err;
	char **extra = NULL, hint[320];
	unsigned long count = 0;
	pid_t reader = 0;
	int i, fd = -1, rc;

	(void)obj;
	(void)cmd;
	for (i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			capture_usage(stdout);
			return 0;
		}
	name = take_name(&argc, argv);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *n = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--")) {
			extra = argv + i + 1;
			break;
		} else if (!strcmp(a, "-w") && n) {
			file = n;
			i++;
		} else if (!strcmp(a, "-c")) {
			if (parse_count(a, n, 1000000000, &count))
				return 2;
			i++;
		} else if (!link && a[0] != '-') {
			link = a;
		} else {
			cli_err("lab capture: unknown argument '%s'", a);
			capture_usage(stderr);
			return 2;
		}
	}
	if (!link) {
		cli_err("lab capture: LINK expected (SWITCH:PORT or HOST)");
		return 2;
	}
	if (extra && !extra[0])
		extra = NULL;
	/* without root, tcpdump runs outside the lab: before it is opened */
	if (!ftsw_privileged()) {
		reader = ftsw_lab_capture_reader(file, (unsigned)count, extra,
						 &fd, &err);
		if (reader < 0) {
			cli_err("lab capture: %s", err.msg);
			return 1;
		}
	}
	if (ftsw_lab_open(name, &lab, &err)) {
		if (reader)
			ftsw_lab_capture_abort(reader, fd);
		ftsw_lab_hint(name, hint, sizeof(hint));
		cli_err("%s%s", err.msg, hint);
		return 1;
	}
	if (reader) {
		rc = ftsw_lab_capture_pcap(&lab, link, fd, reader, &err);
		if (rc < 0)
			cli_err("lab capture: %s", err.msg);
		ftsw_lab_close(&lab);
		return rc < 0 ? 1 : rc;
	}
	ftsw_lab_capture(&lab, link, file, (unsigned)count, extra, &err);
	cli_err("lab capture: %s", err.msg);
	ftsw_lab_close(&lab);
	return 1;
}
