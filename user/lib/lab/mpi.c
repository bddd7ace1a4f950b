// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: MPI jobs across the lab's host namespaces (lab_tools.h),
 * Open MPI's and MPICH's.
 *
 * The launcher runs as rank 0's host; every other daemon (Open MPI's
 * orted, hydra's pmi_proxy) is started by it through its rsh launcher,
 * whose agent is `ftsw lab mpi-agent HOST CMD...`: it becomes HOST as
 * `ip netns exec` does (network namespace, own mount namespace with its
 * own /sys) in a UTS namespace named after it. Open MPI's MCA parameters
 * keep every rank-to-rank byte on the fabric:
 *   plm_rsh_agent          the agent instead of ssh
 *   plm_rsh_no_tree_spawn  mpirun starts every daemon itself (the daemons
 *                          would otherwise call the agent too)
 *   btl self,tcp + btl_tcp_if_include eth0 + oob_tcp_if_include eth0
 *   pml ob1                no UCX/OFI transport that could bypass TCP
 *   --bind-to none         the rankfile's slot=0 would pin every rank of
 *                          the one real machine to the same CPU
 * MPICH (hydra, ch4:ucx), mpich_argv below:
 *   -launcher rsh -launcher-exec FTSW, HYDRA_LAUNCHER_EXTRA_ARGS="lab
 *                          mpi-agent": hydra runs FTSW lab mpi-agent HOST
 *   -hosts A0:1,A1:1,...   the hosts' addresses in rank order, one slot
 *                          each (rank r on the r-th); addresses, because
 *                          hydra resolves the names and the lab's are not
 *                          in any resolver
 *   -iface eth0            proxies reach mpiexec at its eth0 address
 *   UCX_TLS=tcp,self       UCX between ranks: TCP only, never shared memory
 *   UCX_NET_DEVICES=eth0   ... over the host's fabric interface (UCX finds
 *                          it in /sys: hence the host's own /sys)
 *   MPIR_CVAR_NOLOCAL=1    MPICH treats every other rank as remote
 * (environment, unless set already; hydra passes it to every rank).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "lab/lab_tools.h"

/* The MPI host name of lab host h (rankfiles use it; so does the agent). */
static void mpi_host_name(const struct ftsw_lab *lab, uint32_t h, char *buf,
			  size_t sz)
{
	ftsw_host_name(lab->topo, h, buf, sz);
}

/*
 * Enter host h: its network namespace and a fresh UTS namespace named after
 * it; for MPICH (FTSW_MPI_VIEW in the environment, which mpi_env sets and
 * hydra hands to its launcher) also its own /sys, as ip netns exec does:
 * UCX finds the host's eth0 there. Open MPI's TCP transport needs no /sys.
 */
static int enter_as_host(struct ftsw_lab *lab, uint32_t h, struct ftsw_err *err)
{
	const char *view = getenv("FTSW_MPI_VIEW");
	char name[128];

	if (view && *view ? ftsw_lab_become_host(lab, h, err) :
	    ftsw_lab_enter_host(lab, h, err))
		return -1;
	mpi_host_name(lab, h, name, sizeof(name));
	if (unshare(CLONE_NEWUTS) < 0 || sethostname(name, strlen(name)) < 0) {
		ftsw_err_errno(err, errno, "host %s: own UTS namespace: %s",
			       name, strerror(errno));
		return -1;
	}
	return 0;
}

/* The agent's HOST: a host as lab commands name it, or its address. */
static int agent_host(const struct ftsw_lab *lab, const char *s, uint32_t *h,
		      struct ftsw_err *err)
{
	struct in_addr a;
	uint32_t n;

	if (inet_pton(AF_INET, s, &a) == 1) {
		n = ntohl(a.s_addr) - ntohl(ftsw_lab_host_ip(0));
		if (n < lab->topo->nhosts && ftsw_lab_host_ip(n) == a.s_addr) {
			*h = n;
			return 0;
		}
		ftsw_err_set(err, "%s is no host's address in lab %s", s,
			     lab->name);
		return -1;
	}
	return ftsw_lab_find_host(lab, s, h, err);
}

int ftsw_lab_mpi_agent(struct ftsw_lab *lab, int argc, char **argv,
		       struct ftsw_err *err)
{
	size_t len = 1;
	uint32_t h;
	char *cmd;
	int i;

	if (argc < 2) {
		ftsw_err_set(err, "mpi-agent: HOST CMD [ARGS...] expected");
		return -1;
	}
	if (agent_host(lab, argv[0], &h, err))
		return -1;
	/* As sshd does: one command line for the shell. */
	for (i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cmd = malloc(len);
	if (!cmd) {
		ftsw_err_errno(err, ENOMEM, "mpi-agent: out of memory");
		return -1;
	}
	cmd[0] = 0;
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	if (enter_as_host(lab, h, err)) {
		free(cmd);
		return -1;
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	ftsw_err_errno(err, errno, "mpi-agent: /bin/sh: %s", strerror(errno));
	free(cmd);
	return -1;
}

struct argvec {
	char **v;
	size_t n, cap;
};

static int push(struct argvec *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n])
		return -1;
	a->n++;
	a->v[a->n] = NULL;
	return 0;
}

static void argvec_free(struct argvec *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

static int mca(struct argvec *a, const char *k, const char *v)
{
	return push(a, "--mca") || push(a, k) || push(a, v);
}

/* The launcher's command line ends with the user's options and PROG. */
static int push_tail(struct argvec *a, const struct ftsw_lab_mpirun_opts *o)
{
	size_t i;

	for (i = 0; o->mpi_args && o->mpi_args[i]; i++)
		if (push(a, o->mpi_args[i]))
			return -1;
	for (i = 0; o->prog[i]; i++)
		if (push(a, o->prog[i]))
			return -1;
	return 0;
}

/* The agent Open MPI starts its daemons with: this program (or o->agent). */
static int agent_path(const struct ftsw_lab_mpirun_opts *o, char *self,
		      size_t sz, struct ftsw_err *err)
{
	if (o->agent) {
		snprintf(self, sz, "%s", o->agent);
	} else {
		ssize_t l = readlink("/proc/self/exe", self, sz - 1);

		if (l < 0) {
			ftsw_err_errno(err, errno, "/proc/self/exe: %s",
				       strerror(errno));
			return -1;
		}
		self[l] = 0;
	}
	/* Open MPI splits the agent on blanks and colons. */
	if (strpbrk(self, " \t:")) {
		ftsw_err_set(err, "mpirun: the agent's path '%s' has a blank or "
			     "a colon, which Open MPI cannot take", self);
		return -1;
	}
	return 0;
}

/* mpirun's command line: placement, the agent, TCP over eth0 only, PROG. */
static int mpirun_argv(struct argvec *a, const char *mpirun, uint32_t n,
		       const char *rankfile, const char *self,
		       const struct ftsw_lab_mpirun_opts *o)
{
	char agent[PATH_MAX + 32], num[16];

	snprintf(agent, sizeof(agent), "%s lab mpi-agent", self);
	snprintf(num, sizeof(num), "%" PRIu32, n);
	if (push(a, mpirun) ||
	    (geteuid() == 0 && push(a, "--allow-run-as-root")) ||
	    push(a, "-n") || push(a, num) ||
	    push(a, "--rankfile") || push(a, rankfile) ||
	    push(a, "--bind-to") || push(a, "none") ||
	    mca(a, "plm_rsh_agent", agent) ||
	    mca(a, "plm_rsh_no_tree_spawn", "1") ||
	    mca(a, "pml", "ob1") ||
	    mca(a, "btl", "self,tcp") ||
	    mca(a, "btl_tcp_if_include", "eth0") ||
	    mca(a, "oob_tcp_if_include", "eth0"))
		return -1;
	return push_tail(a, o);
}

/* mpiexec.hydra's command line: the agent, the hosts in rank order. */
static int mpich_argv(struct argvec *a, const char *mpiexec,
		      const uint32_t *order, uint32_t n, const char *self,
		      const struct ftsw_lab_mpirun_opts *o)
{
	char num[16], ip[INET_ADDRSTRLEN], *hosts;
	struct in_addr in;
	uint32_t r;
	size_t len = 0;
	int rc;

	hosts = malloc((size_t)n * (INET_ADDRSTRLEN + 3) + 1);
	if (!hosts)
		return -1;
	hosts[0] = 0;
	for (r = 0; r < n; r++) {
		in.s_addr = ftsw_lab_host_ip(order[r]);
		inet_ntop(AF_INET, &in, ip, sizeof(ip));
		len += (size_t)sprintf(hosts + len, "%s%s:1", r ? "," : "", ip);
	}
	snprintf(num, sizeof(num), "%" PRIu32, n);
	rc = push(a, mpiexec) || push(a, "-launcher") || push(a, "rsh") ||
	     push(a, "-launcher-exec") || push(a, self) ||
	     push(a, "-iface") || push(a, "eth0") ||
	     push(a, "-hosts") || push(a, hosts) || push(a, "-n") ||
	     push(a, num);
	free(hosts);
	if (rc)
		return -1;
	return push_tail(a, o);
}

/* The launcher's environment, as weak defaults (a value set wins). */
static int mpi_env(const struct ftsw_lab *lab, enum ftsw_lab_mpi mpi)
{
	if (setenv("FTSW_LAB", lab->name, 1))
		return -1;
	if (mpi == FTSW_MPI_OPENMPI && unsetenv("FTSW_MPI_VIEW"))
		return -1;
	if (mpi == FTSW_MPI_OPENMPI)
		/*
		 * Every lab host is the same real machine: a rank spinning
		 * in MPI progress takes a CPU from the rank (or the network
		 * stack) it waits for. Open MPI yields when a node is
		 * oversubscribed, which it cannot see here (one slot per
		 * host); the environment is the weakest setting, so
		 * --mca mpi_yield_when_idle 0 still wins.
		 */
		return setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
	return setenv("HYDRA_LAUNCHER_EXTRA_ARGS", "lab mpi-agent", 1) ||
	       setenv("FTSW_MPI_VIEW", "1", 1) ||
	       setenv("UCX_TLS", "tcp,self", 0) ||
	       setenv("UCX_NET_DEVICES", "eth0", 0) ||
	       setenv("MPIR_CVAR_NOLOCAL", "1", 0);
}

/* The placement and the command, as notes to the caller's callback. */
static void mpirun_show(struct ftsw_lab *lab, const uint32_t *order,
			uint32_t n, const struct argvec *a,
			const struct ftsw_lab_mpirun_opts *o)
{
	char name[128], line[192], *cmd;
	size_t i, len = 1;
	uint32_t r;

	for (r = 0; r < n; r++) {
		mpi_host_name(lab, order[r], name, sizeof(name));
		snprintf(line, sizeof(line), "rank %" PRIu32 " -> %s (h%"
			 PRIu32 ")", r, name, order[r]);
		o->progress(line, 0, 0, o->progress_arg);
	}
	for (i = 0; i < a->n; i++)
		len += strlen(a->v[i]) + 1;
	cmd = malloc(len);
	if (!cmd)
		return;
	cmd[0] = 0;
	for (i = 0; i < a->n; i++) {
		if (i)
			strcat(cmd, " ");
		strcat(cmd, a->v[i]);
	}
	o->progress(cmd, 0, 0, o->progress_arg);
	free(cmd);
}

/*
 * In the child between fork and exec: why it cannot run mpirun, sent to
 * the parent on the pipe fd (closed on a successful exec), then exit.
 */
static void child_fail(int fd, int code, const char *msg)
{
	ssize_t w;

	w = write(fd, &code, sizeof(code));
	if (w == (ssize_t)sizeof(code))
		w = write(fd, msg, strlen(msg));
	(void)w;
	_exit(127);
}

/* The child's report, if any: 0 when exec succeeded, else -1 and err. */
static int child_report(int fd, struct ftsw_err *err)
{
	char buf[sizeof(err->msg)];
	size_t got = 0;
	ssize_t n;
	int code;

	while (got < sizeof(buf) - 1 &&
	       ((n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	if (got <= sizeof(code))
		return 0;
	memcpy(&code, buf, sizeof(code));
	buf[got] = 0;
	ftsw_err_errno(err, code, "%s", buf + sizeof(code));
	return -1;
}

/*
 * Wait for the launcher: its wait status, -1 (err set) on error, -2 when
 * timeout_s (0: none) ran out: then it got SIGTERM (Open MPI's and hydra's
 * launchers kill their job on it), and SIGKILL 5 s later.
 */
static int mpirun_wait(pid_t pid, unsigned timeout_s, struct ftsw_err *err)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	uint64_t ticks = 0, limit = (uint64_t)timeout_s * 10;
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, timeout_s ? WNOHANG : 0);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR) {
			ftsw_err_errno(err, errno, "mpirun: wait: %s",
				       strerror(errno));
			return -1;
		}
		if (!timeout_s || r < 0)
			continue;
		if (++ticks == limit)
			kill(pid, SIGTERM);
		if (ticks == limit + 50)
			kill(pid, SIGKILL);
		if (ticks > limit + 50) {
			waitpid(pid, &status, 0);
			return -2;
		}
		nanosleep(&tick, NULL);
	}
}

/* Run mpirun as host h0 (rank 0's), wait for it: its exit status (124
 * when it was stopped after timeout_s). */
static int mpirun_exec(struct ftsw_lab *lab, uint32_t h0,
		       const struct argvec *a, enum ftsw_lab_mpi mpi,
		       unsigned timeout_s, struct ftsw_err *err)
{
	int status, p[2], failed;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		ftsw_err_errno(err, errno, "mpirun: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ftsw_err_errno(err, errno, "mpirun: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		struct ftsw_err e;
		char m[sizeof(e.msg) + 64];

		if (mpi_env(lab, mpi))
			ftsw_err_errno(&e, errno, "setenv: %s",
				       strerror(errno));
		else if (!enter_as_host(lab, h0, &e))
			e.msg[0] = 0;
		close(p[0]);
		if (e.msg[0])
			child_fail(p[1], e.code, e.msg);
		execvp(a->v[0], a->v);
		snprintf(m, sizeof(m), "%s: %s%s%s", a->v[0], strerror(errno),
			 errno == ENOENT ? " (Debian: apt-get install " : "",
			 errno != ENOENT ? "" : mpi == FTSW_MPI_MPICH ?
			 "mpich)" : "openmpi-bin)");
		child_fail(p[1], errno, m);
	}
	close(p[1]);
	failed = child_report(p[0], err);
	close(p[0]);
	/* mpirun handles ^C for the job; wait for it to finish. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	status = mpirun_wait(pid, timeout_s, err);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (status == -1 || failed)
		return -1;
	if (status == -2)
		return 124;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int ftsw_lab_mpirun(struct ftsw_lab *lab, const struct ftsw_lab_mpirun_opts *o,
		    struct ftsw_err *err)
{
	const char *mpirun = o->mpirun ? o->mpirun : getenv("FTSW_MPIRUN");
	bool mpich = o->mpi == FTSW_MPI_MPICH;
	uint32_t n = o->nranks ? o->nranks : lab->topo->nhosts, *order;
	char self[PATH_MAX], rankfile[PATH_MAX];
	struct argvec a = { 0 };
	int rc = -1;

	/* By their own names: the mpirun/mpiexec alternatives may be
	 * either implementation's. */
	if (!mpirun || !*mpirun)
		mpirun = mpich ? "mpiexec.hydra" : "mpirun.openmpi";
	if (!o->prog || !o->prog[0]) {
		ftsw_err_set(err, "mpirun: no program to run");
		return -1;
	}
	if (n > lab->topo->nhosts) {
		ftsw_err_set(err, "mpirun: -n %" PRIu32 " but lab %s has %" PRIu32
			     " hosts (one rank per host)", n, lab->name,
			     lab->topo->nhosts);
		return -1;
	}
	if (agent_path(o, self, sizeof(self), err))
		return -1;
	order = malloc(n * sizeof(*order));
	if (!order) {
		ftsw_err_errno(err, ENOMEM, "mpirun: out of memory");
		return -1;
	}
	if (ftsw_order_make(o->order ? o->order : "topology", lab->topo, n,
			    order, err))
		goto out;
	rankfile[0] = 0;
	if (!mpich) {
		snprintf(rankfile, sizeof(rankfile), "%s/%s/mpi-%d.rankfile",
			 ftsw_rundir(), lab->name, (int)getpid());
		if (ftsw_order_write(lab->topo, order, n,
				     FTSW_ORDER_OMPI_RANKFILE, rankfile, err))
			goto out;
	}
	if (mpich ? mpich_argv(&a, mpirun, order, n, self, o) :
	    mpirun_argv(&a, mpirun, n, rankfile, self, o)) {
		ftsw_err_errno(err, ENOMEM, "mpirun: out of memory");
	} else {
		if (o->progress)
			mpirun_show(lab, order, n, &a, o);
		rc = mpirun_exec(lab, order[0], &a, o->mpi, o->timeout_s, err);
	}
	if (rankfile[0])
		unlink(rankfile);
out:
	argvec_free(&a);
	free(order);
	return rc;
}
