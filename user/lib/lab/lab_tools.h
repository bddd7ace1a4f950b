/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw lab: outside tools run on the lab. Open MPI jobs across the host
 * namespaces (mpi.c) and packet capture on a cable (capture.c).
 *
 * MPI. The lab's hosts share one machine and one file system; they differ
 * by network namespace. `ftsw_lab_mpirun` starts Open MPI's mpirun in the
 * namespace of rank 0's host with a rankfile from the analyzer's node order
 * (ftsw_order_make: topology, random:SEED, ...) and, as its remote launcher
 * (plm_rsh_agent), this program's hidden `lab mpi-agent` mode instead of
 * ssh: the agent enters the named host's network namespace, gives itself a
 * UTS namespace whose host name is the lab host's MPI name (H3, ...) so
 * that Open MPI tells the "nodes" apart, and runs the daemon's command line
 * with /bin/sh -c, as sshd would. Every byte between ranks crosses the
 * fabric: the TCP transport only, on eth0 (btl self,tcp; oob on eth0).
 *
 * Capture. A cable is named by one of its ends: SWITCH:PORT (s0:1, a node
 * name:PORT) or a host (h3, H3: its edge cable). tcpdump runs in the fabric
 * namespace on that end's device, so a switch-to-switch cable shows the
 * fabric header (ethertype 0x88B5) in both directions; without root it
 * runs outside and reads what ftsw captures there (see below).
 */
#ifndef LIBFTSW_LAB_TOOLS_H
#define LIBFTSW_LAB_TOOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lab/lab.h"

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

/* The MPI implementations lab mpirun launches. */
enum ftsw_lab_mpi {
	FTSW_MPI_OPENMPI,	/* Debian's openmpi-bin: mpirun.openmpi */
	FTSW_MPI_MPICH,		/* Debian's mpich: mpiexec.hydra (ch4:ucx) */
};

struct ftsw_lab_mpirun_opts {
	const char *order;	/* node order spec (NULL: "topology") */
	uint32_t nranks;	/* 0: one per host */
	enum ftsw_lab_mpi mpi;
	const char *mpirun;	/* NULL: $FTSW_MPIRUN, else mpirun.openmpi or
				 * mpiexec.hydra */
	const char *agent;	/* this program's path (NULL: /proc/self/exe) */
	char **mpi_args;	/* extra mpirun arguments (NULL-terminated) */
	char **prog;		/* program and arguments, NULL-terminated */
	/*
	 * Each rank's host, then mpirun's command line, one note each
	 * (total 0); NULL: quiet.
	 */
	ftsw_progress_fn progress;
	void *progress_arg;
	unsigned timeout_s;	/* stop the job after this long (0: never):
				 * exit status 124 */
};

/*
 * Run the job: returns mpirun's exit status (0..255), or -1 with err set
 * when it could not be started (mpirun not found: ENOENT). The rankfile is written in the lab's run
 * directory (mpi-PID.rankfile) and removed afterwards.
 */
int ftsw_lab_mpirun(struct ftsw_lab *lab, const struct ftsw_lab_mpirun_opts *o,
		    struct ftsw_err *err);

/*
 * The launcher agent: HOST CMD [ARGS...] as Open MPI's and MPICH's rsh
 * launchers call rsh (HOST: a host's name, hN, or its address). Does not return on success (execs /bin/sh -c "CMD ARGS..." in the
 * host's namespaces); -1 with err set otherwise.
 */
int ftsw_lab_mpi_agent(struct ftsw_lab *lab, int argc, char **argv,
		       struct ftsw_err *err);

/* The fabric namespace device of a cable end (SWITCH:PORT or HOST). */
int ftsw_lab_capture_dev(const struct ftsw_lab *lab, const char *link,
			 char *dev, size_t sz, struct ftsw_err *err);

/*
 * Exec tcpdump on the cable in the fabric namespace: -i DEV -nn -e, then
 * -w FILE -U if file, -c COUNT if count, then the extra arguments (filter
 * expression, ...). Returns -1 with err set if it could not be started.
 */
int ftsw_lab_capture(struct ftsw_lab *lab, const char *link, const char *file,
		     unsigned count, char **extra, struct ftsw_err *err);

/*
 * Capture without root (capture.c): tcpdump cannot run inside a rootless
 * lab, so ftsw_lab_capture_reader starts it first, before the lab is
 * opened (outside the user's holder), as tcpdump -r - with the same
 * options as ftsw_lab_capture gives it; fd gets the socket to its input.
 * Its pid, or -1 + err. ftsw_lab_capture_pcap then writes the cable's
 * frames to fd in pcap's format, captured in the fabric namespace with a
 * packet socket, until tcpdump ends (-c COUNT, or a signal: ^C stops
 * both); it closes fd and returns tcpdump's exit status, or -1 + err.
 * ftsw_lab_capture_abort stops a reader that will get nothing (the lab
 * could not be opened).
 */
pid_t ftsw_lab_capture_reader(const char *file, unsigned count, char **extra,
			      int *fd, struct ftsw_err *err);
int ftsw_lab_capture_pcap(struct ftsw_lab *lab, const char *link, int fd,
			  pid_t reader, struct ftsw_err *err);
void ftsw_lab_capture_abort(pid_t reader, int fd);

#pragma GCC visibility pop

#endif
