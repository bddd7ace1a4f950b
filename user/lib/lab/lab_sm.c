// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: a real subnet manager on the lab (lab.h, "subnet manager").
 * OpenSM runs unmodified in a host's namespace with ibsim-utils'
 * libumad2sim.so preloaded, through that host's gateway (gw/gw.h); the
 * diagnostics run the same way on any host (ftsw_lab_ib_exec).
 *
 * Processes are the lab's: their pids are kept in its run directory
 * (opensm.pid, gw-hN.pid) and `lab down` stops them (ftsw_lab_sm_stop)
 * before the namespaces go. The files OpenSM writes (its log, its cache:
 * guid2lid, opensm.conf...) are in the run directory too.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "util/evlog.h"
#include "gw/gw.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "util/parse.h"
#include "util/text.h"
#include "nl/ns.h"
#include "nl/rtnl.h"

static const char *const umad2sim_paths[] = {
	"/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so",
	"/usr/lib/aarch64-linux-gnu/umad2sim/libumad2sim.so",
	"/usr/lib/umad2sim/libumad2sim.so",
	"/usr/lib64/umad2sim/libumad2sim.so",
	NULL,
};

const char *ftsw_lab_umad2sim(void)
{
	const char *e = getenv("FTSW_UMAD2SIM");
	unsigned i;

	if (e && *e)
		return access(e, R_OK) == 0 ? e : NULL;
	for (i = 0; umad2sim_paths[i]; i++)
		if (access(umad2sim_paths[i], R_OK) == 0)
			return umad2sim_paths[i];
	return NULL;
}

const char *ftsw_lab_umad_shim(void)
{
	static const char *const rel[] = { "libftsw-umad.so",
					   "../lib/ftsw/libftsw-umad.so" };
	static char path[PATH_MAX];
	const char *e = getenv("FTSW_UMAD_SHIM");
	char exe[PATH_MAX], *slash;
	ssize_t n;
	unsigned i;

	if (e && *e)
		return access(e, R_OK) == 0 ? e : NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", exe, rel[i]) >=
		    (int)sizeof(path))
			continue;
		if (access(path, R_OK) == 0)
			return path;
	}
	return NULL;
}

const char *ftsw_lab_preload(char *buf, size_t n)
{
	const char *so = ftsw_lab_umad2sim(), *shim = ftsw_lab_umad_shim();

	if (!so)
		return NULL;
	if (!shim || snprintf(buf, n, "%s %s", shim, so) >= (int)n)
		snprintf(buf, n, "%s", so);
	return buf;
}

uint64_t ftsw_lab_ca_port_guid(const struct ftsw_topo *t, uint32_t h)
{
	/* lab up binds the edge port with the host's node GUID; the CA's
	 * port GUID is one more (Documentation/sm.md) */
	return t->nodes[t->hosts[h]].guid + 1;
}

/*
 * The process FILE of the run directory names (one line, its pid, as
 * write_pid() writes it), if it lives and its command is comm: 0 with
 * *pid (0: no file, or that process is gone or another program's), or -1
 * with err naming the file or line at fault.
 */
static int pid_of(const char *lab, const char *file, const char *comm,
		  pid_t *pid, struct ftsw_err *err)
{
	char path[320], what[400], c[32] = "";
	struct ftsw_text x;
	unsigned v = 0;
	int got;
	FILE *f;

	*pid = 0;
	if (lab_run_open(lab, file, path, sizeof(path), &x, 16, 64, err))
		return err->code == ENOENT ? 0 : -1;
	got = ftsw_text_line(&x, err);
	snprintf(what, sizeof(what), "%s:1: process id", path);
	if (!got)
		ftsw_err_set(err, "%s: empty (a process id expected)", path);
	else if (got > 0 && !ftsw_parse_uint(what, x.line, 2, INT32_MAX, &v,
					     err) &&
		 (got = ftsw_text_line(&x, err)) > 0)
		ftsw_err_set(err, "%s:2: more than a process id", path);
	ftsw_text_close(&x);
	if (!v || got)
		return -1;
	snprintf(path, sizeof(path), "/proc/%u/comm", v);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(c, sizeof(c), f))
		c[0] = 0;
	fclose(f);
	c[strcspn(c, "\n")] = 0;
	if (!strcmp(c, comm))
		*pid = (pid_t)v;
	return 0;
}

static int write_pid(const char *lab, const char *file, pid_t pid,
		     struct ftsw_err *err)
{
	char path[320];
	FILE *f;
	char *tmp;

	lab_run_path(lab, file, path, sizeof(path));
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -1;
	fprintf(f, "%ld\n", (long)pid);
	return ftsw_atomic_commit(f, path, tmp, err);
}

/* The child side of a lab process: its own session, in host's namespace,
 * standard streams on /dev/null (or log). Returns 0 in the child. */
static int child_enter(const char *lab, uint32_t host, const char *log)
{
	struct ftsw_err err;
	char ns[64];
	int fd;

	setsid();
	ftsw_lab_host_ns(lab, host, ns, sizeof(ns));
	fd = ftsw_netns_open(ns, &err);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
		return -1;
	close(fd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		dup2(fd, 0);
	fd = open(log ? log : "/dev/null",
		  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	return 0;
}

static volatile sig_atomic_t gw_stop;

static void gw_on_signal(int sig)
{
	(void)sig;
	gw_stop = 1;
}

/* Start h<host>'s gateway unless its pid file names a running one. */
static int gw_start_locked(const char *lab, uint32_t host, int lock,
			   struct ftsw_err *err)
{
	char file[32], log[320], node[32], b;
	int pfd[2];
	pid_t pid;
	struct pollfd p;

	snprintf(file, sizeof(file), "gw-h%" PRIu32 ".pid", host);
	if (pid_of(lab, file, "ftsw", &pid, err))
		return -1;
	if (pid)
		return 0;
	snprintf(node, sizeof(node), "h%" PRIu32, host);
	lab_run_path(lab, file, log, sizeof(log));
	strcpy(log + strlen(log) - 3, "log");
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		ftsw_err_set(err, "gateway of h%" PRIu32 ": %s", host,
			     strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		struct ftsw_gw_opts o = { .dev = "eth0",
			.sockname = FTSW_LAB_GW_SOCK, .node = node,
			.verbose = getenv("FTSW_GW_VERBOSE") != NULL,
			.ready_fd = pfd[1] };
		struct sigaction sa = { .sa_handler = gw_on_signal };
		struct ftsw_err e2;

		close(pfd[0]);
		close(lock);	/* the flock is the starter's, not ours */
		if (child_enter(lab, host, log))
			_exit(1);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		signal(SIGPIPE, SIG_IGN);
		if (ftsw_gw_serve(&o, &gw_stop, &e2))
			fprintf(stderr, "ftsw-gw: %s\n", e2.msg);
		_exit(gw_stop ? 0 : 1);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		ftsw_err_set(err, "gateway of h%" PRIu32 ": fork: %s", host,
			     strerror(errno));
		return -1;
	}
	p = (struct pollfd){ .fd = pfd[0], .events = POLLIN };
	if (poll(&p, 1, 5000) != 1 || read(pfd[0], &b, 1) != 1) {
		close(pfd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ftsw_err_set(err, "gateway of h%" PRIu32 " did not start (see %s)",
			     host, log);
		return -1;
	}
	close(pfd[0]);
	return write_pid(lab, file, pid, err);
}

/*
 * Under an flock of gw-hN.lock, so that two `lab ib` of one host started
 * at once start one gateway (the second waits and finds it running; it
 * used to start another, which could not bind the socket name and failed).
 */
int ftsw_lab_gw_start(const char *lab, uint32_t host, struct ftsw_err *err)
{
	char file[32], path[320];
	int lock, rc;

	snprintf(file, sizeof(file), "gw-h%" PRIu32 ".lock", host);
	lab_run_path(lab, file, path, sizeof(path));
	lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX) < 0) {
		ftsw_err_set(err, "%s: %s", path, strerror(errno));
		if (lock >= 0)
			close(lock);
		return -1;
	}
	rc = gw_start_locked(lab, host, lock, err);
	close(lock);
	return rc;
}

/*
 * OpenSM's LID cache (guid2lid) seeded with the lab's address plan: host n
 * keeps LIDs (n + 1) << LMC, each switch the LID ftsw gives it; OpenSM
 * keeps the LIDs of its cache (unless told to reassign), so the plan the
 * fabric answers ARP and ND from stays true under OpenSM's assignment.
 */
static int write_guid2lid(const char *lab, const struct ftsw_topo *t,
			  const struct ftsw_routing *r, struct ftsw_err *err)
{
	char path[320], *tmp;
	uint32_t i;
	FILE *f;

	lab_run_path(lab, "guid2lid", path, sizeof(path));
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -1;
	for (i = 0; i < t->nhosts; i++) {
		uint32_t lid = ftsw_host_lid(r, i);

		fprintf(f, "0x%016" PRIx64 " 0x%04x 0x%04x\n\n",
			ftsw_lab_ca_port_guid(t, i), lid,
			lid + (1u << r->lmc) - 1);
	}
	for (i = 0; i < t->nswitches; i++)
		if (ftsw_switch_lid(r, i) <= FTSW_MAX_LID)
			fprintf(f, "0x%016" PRIx64 " 0x%04x 0x%04x\n\n",
				t->nodes[t->switches[i]].guid,
				ftsw_switch_lid(r, i), ftsw_switch_lid(r, i));
	return ftsw_atomic_commit(f, path, tmp, err);
}

/*
 * --sm-conf's file into buf (at most FTSW_SM_CONF_MAX bytes): a regular
 * text file of bounded lines (util/text.h), none setting force_log_flush,
 * which the lab needs on (it reads SUBNET UP in the log as it comes).
 */
#define FTSW_SM_CONF_MAX 65536

static bool conf_key(const char *k, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(k, key, n) && (!k[n] || isspace((unsigned char)k[n]));
}

static int read_sm_conf(const char *user, bool partitions, char *buf,
			size_t *len, struct ftsw_err *err)
{
	char msg[sizeof(err->msg)];
	struct ftsw_text x;
	const char *k;
	size_t n = 0;
	int got;

	if (ftsw_text_open(&x, user, FTSW_TEXT_LINE, FTSW_SM_CONF_MAX, err))
		goto bad;
	while ((got = ftsw_text_line(&x, err)) > 0) {
		k = x.line + strspn(x.line, " \t");
		if (conf_key(k, "force_log_flush")) {
			ftsw_err_set(err, "%s:%u: force_log_flush is the lab's "
				     "own (it reads SUBNET UP in OpenSM's log "
				     "as it is written)", user, x.ln);
			got = -1;
			break;
		}
		if (partitions && conf_key(k, "partition_config_file")) {
			ftsw_err_set(err, "%s:%u: partition_config_file and "
				     "--sm-partitions exclude each other", user,
				     x.ln);
			got = -1;
			break;
		}
		memcpy(buf + n, x.line, x.len);
		n += x.len;
		buf[n++] = '\n';
	}
	ftsw_text_close(&x);
	if (got < 0)
		goto bad;
	*len = n;
	return 0;
bad:
	/* name the option: "--sm-conf q.conf:3: ..." */
	memcpy(msg, err->msg, sizeof(msg));
	ftsw_err_set(err, "--sm-conf %s", msg);
	return -1;
}

/*
 * --sm-partitions' file (OpenSM's partitions.conf) into a copy in the run
 * directory (lab NULL: only checked): a regular text file of at most
 * FTSW_SM_PARTITIONS_MAX bytes and bounded lines, as OpenSM reads it
 * (lines of at most 4 KiB; its syntax is OpenSM's to judge, and OpenSM
 * says in its log what it refused).
 */
#define FTSW_SM_PARTITIONS_MAX (1u << 20)

static int copy_partitions(const char *lab, const char *user,
			   struct ftsw_err *err)
{
	char path[320], msg[sizeof(err->msg)], *tmp = NULL;
	struct ftsw_text x;
	FILE *out = NULL;
	int got;

	if (ftsw_text_open(&x, user, FTSW_TEXT_LINE, FTSW_SM_PARTITIONS_MAX,
			   err))
		goto bad;
	if (lab) {
		lab_run_path(lab, "partitions.conf", path, sizeof(path));
		out = ftsw_atomic_open(path, &tmp, err);
		if (!out) {
			ftsw_text_close(&x);
			return -1;
		}
	}
	while ((got = ftsw_text_line(&x, err)) > 0)
		if (out)
			fprintf(out, "%s\n", x.line);
	ftsw_text_close(&x);
	if (got < 0) {
		if (out)
			ftsw_atomic_abort(out, tmp);
		goto bad;
	}
	return out ? ftsw_atomic_commit(out, path, tmp, err) : 0;
bad:
	memcpy(msg, err->msg, sizeof(msg));
	ftsw_err_set(err, "--sm-partitions %s", msg);
	return -1;
}

int ftsw_lab_sm_conf_check(const struct ftsw_lab_sm *sm, struct ftsw_err *err)
{
	static char buf[FTSW_SM_CONF_MAX + 1];
	size_t len;

	if (sm->conf && read_sm_conf(sm->conf, sm->partitions, buf, &len, err))
		return -1;
	return sm->partitions ? copy_partitions(NULL, sm->partitions, err) : 0;
}

/*
 * OpenSM's options file (-F): its log flushed line by line. By default
 * OpenSM's log is block-buffered, so "SUBNET UP" may sit in its buffer
 * until it exits and wait_subnet_up() never sees it. Then the lines of
 * --sm-conf's file (qos_* keys...), which OpenSM reads after ours: a key
 * given twice takes the later value.
 */
static int write_sm_conf(const char *lab, const char *path,
			 const struct ftsw_lab_sm *sm, struct ftsw_err *err)
{
	static char buf[FTSW_SM_CONF_MAX + 1];
	const char *user = sm->conf;
	char parts[320];
	size_t len = 0;
	char *tmp;
	FILE *f;

	if (user && read_sm_conf(user, sm->partitions, buf, &len, err))
		return -1;
	if (sm->partitions && copy_partitions(lab, sm->partitions, err))
		return -1;
	lab_run_path(lab, "partitions.conf", parts, sizeof(parts));
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -1;
	fprintf(f, "# written by ftsw lab up --sm\nforce_log_flush TRUE\n");
	if (user) {
		fprintf(f, "# from --sm-conf %s\n", user);
		fwrite(buf, 1, len, f);
		fputc('\n', f);
	}
	if (sm->partitions)
		fprintf(f, "# from --sm-partitions %s\npartition_config_file %s\n",
			sm->partitions, parts);
	else
		unlink(parts);	/* a restart without: no stale copy */
	return ftsw_atomic_commit(f, path, tmp, err);
}

/* opensm's argument vector (static storage: the child execs it). */
static int sm_argv(const struct ftsw_lab_sm *sm, unsigned lmc,
		   const char *log, const char *conf, char **argv, size_t max,
		   char *words, size_t wsz, struct ftsw_err *err)
{
	static char lmcs[8];
	size_t n = 0;
	char *w, *save = NULL;

	argv[n++] = "opensm";
	argv[n++] = "-F";
	argv[n++] = (char *)conf;
	argv[n++] = "-f";
	argv[n++] = (char *)log;
	argv[n++] = "-l";
	snprintf(lmcs, sizeof(lmcs), "%u", lmc);
	argv[n++] = lmcs;
	if (sm->engine) {
		argv[n++] = "-R";
		argv[n++] = (char *)sm->engine;
	}
	if (sm->root_guids) {
		argv[n++] = "-a";
		argv[n++] = (char *)sm->root_guids;
	}
	if (sm->cn_guids) {
		argv[n++] = "-u";
		argv[n++] = (char *)sm->cn_guids;
	}
	if (sm->qos)
		argv[n++] = "-Q";
	snprintf(words, wsz, "%s", sm->args ? sm->args : "");
	for (w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (n + 1 >= max) {
			ftsw_err_set(err, "--sm-args: more than %zu words",
				     max - 14);
			return -1;
		}
		argv[n++] = w;
	}
	argv[n] = NULL;
	return 0;
}

/* Wait for "SUBNET UP" in OpenSM's log; -1 with the log's last error. */
static int wait_subnet_up(const char *lab, pid_t pid, const char *log,
			  unsigned timeout_s, struct ftsw_err *err)
{
	uint64_t end = ftsw_now_us() + (uint64_t)timeout_s * 1000000;
	char line[512], last[512] = "";
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	long at = 0;
	int st;
	FILE *f;

	(void)lab;
	while (ftsw_now_us() < end) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			ftsw_err_set(err, "opensm exited (status %d) before SUBNET UP%s%.200s",
				     WIFEXITED(st) ? WEXITSTATUS(st) : -1,
				     last[0] ? ": " : "", last);
			return -1;
		}
		f = fopen(log, "re");
		if (f) {
			fseek(f, at, SEEK_SET);
			while (fgets(line, sizeof(line), f)) {
				if (strstr(line, "SUBNET UP")) {
					fclose(f);
					return 0;
				}
				if (strstr(line, "ERR") || strstr(line, "rror")) {
					line[strcspn(line, "\n")] = 0;
					snprintf(last, sizeof(last), "%s", line);
				}
			}
			at = ftell(f);
			fclose(f);
		}
		nanosleep(&ts, NULL);
	}
	ftsw_err_set(err, "opensm: no SUBNET UP in %u s%s%.200s", timeout_s,
		     last[0] ? "; last error: " : "", last);
	return -1;
}

/*
 * A bring-up that failed: OpenSM and the gateways stopped, their logs
 * (opensm.log, opensm.out, gw-hN.log) moved out of the run directory,
 * which the rollback removes, into RUNDIR/LAB.sm-failed (never a lab:
 * it has no lab.conf), whose path goes into the error.
 */
static void keep_logs(const char *lab, struct ftsw_err *err)
{
	char dir[256], kept[300], from[600], to[600], msg[sizeof(err->msg)];
	struct dirent *de;
	DIR *d;
	int n = 0;

	ftsw_lab_sm_stop(lab);
	lab_rundir(lab, dir, sizeof(dir));
	snprintf(kept, sizeof(kept), "%s.sm-failed", dir);
	if (mkdir(kept, 0755) < 0 && errno != EEXIST)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *e = strrchr(de->d_name, '.');

		if (!e || (strcmp(e, ".log") && strcmp(de->d_name, "opensm.out")))
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, de->d_name);
		snprintf(to, sizeof(to), "%s/%s", kept, de->d_name);
		n += rename(from, to) == 0;
	}
	closedir(d);
	if (!n)
		return;
	snprintf(msg, sizeof(msg), "%.400s", err->msg);
	ftsw_err_set(err, "%s (see %s/opensm.log; the logs are kept there)",
		     msg, kept);
}

/*
 * Under a subnet manager every host runs its gateway, as every host of a
 * cluster runs its MAD layer: a request to any host is answered, by the
 * tool that serves its class (an ibping server) or, for a Get or Set of a
 * class nobody serves, with IBA's status (Documentation/sm.md).
 */
static int lab_gw_start_all(const char *lab, uint32_t nhosts,
			    struct ftsw_err *err)
{
	uint32_t h;

	for (h = 0; h < nhosts; h++)
		if (ftsw_lab_gw_start(lab, h, err))
			return -1;
	return 0;
}

int ftsw_lab_sm_start(const char *lab, const struct ftsw_lab_sm *sm,
		      const struct ftsw_topo *t, const struct ftsw_routing *r,
		      struct ftsw_err *err)
{
	char pre[2 * PATH_MAX + 2];
	const char *so = ftsw_lab_preload(pre, sizeof(pre));
	char dir[256], log[320], out[320], conf[320], words[1024];
	char *argv[64];
	pid_t pid;

	if (!so) {
		ftsw_err_set(err, "--sm opensm: libumad2sim.so not found (apt-get install ibsim-utils, or set FTSW_UMAD2SIM)");
		return -1;
	}
	if (sm->host >= t->nhosts) {
		ftsw_err_set(err, "--sm-host %u: the lab has %" PRIu32 " hosts",
			     sm->host, t->nhosts);
		return -1;
	}
	lab_rundir(lab, dir, sizeof(dir));
	lab_run_path(lab, "opensm.log", log, sizeof(log));
	lab_run_path(lab, "opensm.out", out, sizeof(out));
	lab_run_path(lab, "opensm.conf", conf, sizeof(conf));
	if (sm_argv(sm, r->lmc, log, conf, argv, 64, words, sizeof(words),
		    err) ||
	    write_sm_conf(lab, conf, sm, err) || write_guid2lid(lab, t, r, err) ||
	    ftsw_lab_gw_start(lab, sm->host, err) ||
	    lab_gw_start_all(lab, t->nhosts, err))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (child_enter(lab, sm->host, out) || chdir(dir) < 0)
			_exit(126);
		setenv("LD_PRELOAD", so, 1);
		setenv("IBSIM_SOCKNAME", FTSW_LAB_GW_SOCK, 1);
		setenv("OSM_CACHE_DIR", dir, 1);
		setenv("OSM_TMP_DIR", dir, 1);
		execvp("opensm", argv);
		fprintf(stderr, "opensm: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		ftsw_err_set(err, "opensm: fork: %s", strerror(errno));
		return -1;
	}
	if (write_pid(lab, "opensm.pid", pid, err) ||
	    wait_subnet_up(lab, pid, log,
			   sm->timeout_s ? sm->timeout_s : 120, err)) {
		keep_logs(lab, err);
		return -1;
	}
	return 0;
}

/*
 * Whether @pid has exited: reaped (by us or, for an orphan, by init), gone,
 * or a zombie waiting to be reaped (it holds nothing any more).
 */
static bool pid_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool zombie = false;

	if (waitpid(pid, NULL, WNOHANG) == pid || kill(pid, 0) < 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		zombie = p[1] == ' ' && p[2] == 'Z';
	fclose(f);
	return zombie;
}

/* SIGTERM, up to 5 s for it to end, then SIGKILL and up to 5 s more. */
static void stop_pid(pid_t pid)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	if (kill(pid, SIGTERM) < 0)
		return;
	for (i = 0; i < 250; i++) {
		if (pid_gone(pid))
			return;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	for (i = 0; i < 250 && !pid_gone(pid); i++)
		nanosleep(&ts, NULL);
}

/*
 * Best effort: a pid file that names no process of ours stops nothing (a
 * damaged one goes with the run directory in lab down; lab sm restart and
 * the gateway's start refuse it).
 */
void ftsw_lab_sm_stop(const char *lab)
{
	char dir[256];
	struct dirent *de;
	struct ftsw_err err;
	pid_t pid;
	DIR *d;

	if (!pid_of(lab, "opensm.pid", "opensm", &pid, &err) && pid)
		stop_pid(pid);
	lab_rundir(lab, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "gw-h", 4) &&
		    strstr(de->d_name, ".pid") &&
		    !pid_of(lab, de->d_name, "ftsw", &pid, &err) && pid)
			stop_pid(pid);
	closedir(d);
}

/*
 * lab.conf with the SM's engine and LMC now in effect (written aside and
 * renamed): every other line as it was.
 */
static int conf_set_sm(const struct ftsw_lab *lab, const char *engine,
		       unsigned lmc, struct ftsw_err *err)
{
	char path[320], *tmp;
	struct ftsw_text in;
	FILE *out;
	int got;

	if (lab_run_open(lab->name, "lab.conf", path, sizeof(path), &in,
			 LAB_CONF_MAX_LINE, LAB_CONF_MAX_FILE, err))
		return -1;
	out = ftsw_atomic_open(path, &tmp, err);
	if (!out) {
		ftsw_text_close(&in);
		return -1;
	}
	while ((got = ftsw_text_line(&in, err)) > 0) {
		if (!strncmp(in.line, "engine=", 7))
			fprintf(out, "engine=opensm:%s\n", engine);
		else if (!strncmp(in.line, "lmc=", 4))
			fprintf(out, "lmc=%u\n", lmc);
		else
			fprintf(out, "%s\n", in.line);
	}
	ftsw_text_close(&in);
	if (got < 0) {
		ftsw_atomic_abort(out, tmp);
		return -1;
	}
	return ftsw_atomic_commit(out, path, tmp, err);
}

/*
 * Every host forgets its neighbours (IPv4 and IPv6 entries of the other
 * hosts on eth0), as `ip neigh flush dev eth0` would, without forking:
 * after the SM moved the hosts' LIDs, the MACs the hosts learnt name the
 * old ones, and asking again gets the new.
 */
struct flush_job {
	uint32_t h, n;		/* the host, of n */
};

static int flush_neighbours_in(struct ftsw_rt *rt, void *arg,
			       struct ftsw_err *err)
{
	const struct flush_job *j = arg;
	uint32_t g, a4;
	uint8_t a6[16];
	int ifx = ftsw_rt_ifindex(rt, "eth0", err);

	if (ifx < 0)
		return -1;
	for (g = 0; g < j->n; g++) {
		if (g == j->h)
			continue;
		a4 = ftsw_lab_host_ip(g);
		ftsw_lab_host_ip6(g, a6);
		if (ftsw_rt_neigh_del(rt, ifx, AF_INET, &a4, "neighbour", err) ||
		    ftsw_rt_neigh_del(rt, ifx, AF_INET6, a6, "neighbour", err))
			return -1;
	}
	return 0;
}

static int flush_neighbours(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct flush_job j = { .n = lab->topo->nhosts };
	char what[32], ns[64];
	int fd, rc = 0;

	/* each namespace opened and closed: no fd kept per host */
	for (j.h = 0; j.h < j.n && !rc; j.h++) {
		snprintf(what, sizeof(what), "h%" PRIu32, j.h);
		ftsw_lab_host_ns(lab->name, j.h, ns, sizeof(ns));
		fd = ftsw_netns_open(ns, err);
		rc = fd < 0 ||
		     ftsw_rt_run(fd, what, flush_neighbours_in, &j, NULL, err);
		if (fd >= 0)
			close(fd);
		if (rc) {
			char m[sizeof(err->msg)];

			snprintf(m, sizeof(m), "%.400s", err->msg);
			ftsw_err_set(err, "%s: %s", what, m);
		}
	}
	return rc ? -1 : 0;
}

int ftsw_lab_sm_restart(struct ftsw_lab *lab, const struct ftsw_lab_sm *sm,
			int lmc, struct ftsw_err *err)
{
	static const char *const stale[] = {
		"opensm-lfts.dump", "opensm-sl2vl.dump", "opensm-lid-matrix.dump",
		"opensm.fdbs", "opensm.mcfdbs", "opensm-subnet.lst", NULL,
	};
	const struct ftsw_topo *t = lab->topo;
	struct ftsw_lab_path_sl ps;
	struct ftsw_routing r;
	char log[320], old[330];
	unsigned i;
	pid_t pid;

	if (strncmp(lab->engine, "opensm:", 7)) {
		ftsw_err_set(err, "lab %s is not under a subnet manager (it "
			     "was built with %s; lab up --sm opensm)",
			     lab->name, lab->engine);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.nhosts = t->nhosts;
	r.nswitches = t->nswitches;
	r.lmc = lmc < 0 ? lab->lmc : (unsigned)lmc;
	if (lmc > FTSW_MAX_LMC ||
	    ftsw_switch_lid(&r, 0) + t->nswitches - 1 > FTSW_MAX_LID) {
		ftsw_err_set(err, "--lmc %d: %" PRIu32 " hosts and %" PRIu32
			     " switches need LIDs past 0x%x", lmc, t->nhosts,
			     t->nswitches, FTSW_MAX_LID);
		return -1;
	}
	/* checked before the running OpenSM is stopped */
	if (ftsw_lab_sm_conf_check(sm, err))
		return -1;
	if (pid_of(lab->name, "opensm.pid", "opensm", &pid, err))
		return -1;
	if (pid)
		stop_pid(pid);
	/* a reader never takes the last run's files for this one's */
	lab_run_path(lab->name, "opensm.log", log, sizeof(log));
	snprintf(old, sizeof(old), "%s.prev", log);
	if (rename(log, old) && errno != ENOENT) {
		ftsw_err_errno(err, errno, "%s: %s", log, strerror(errno));
		return -1;
	}
	for (i = 0; stale[i]; i++) {
		lab_run_path(lab->name, stale[i], log, sizeof(log));
		unlink(log);
	}
	if (ftsw_lab_sm_start(lab->name, sm, t, &r, err) ||
	    conf_set_sm(lab, sm->engine ? sm->engine : "default", r.lmc, err))
		return -1;
	if (r.lmc != lab->lmc) {
		lab->lmc = r.lmc;
		if (flush_neighbours(lab, err))
			return -1;
	}
	snprintf(lab->engine, sizeof(lab->engine), "opensm:%s",
		 sm->engine ? sm->engine : "default");
	ftsw_evlog(lab->name, "sm-restart", "lab sm restart: OpenSM %s, LMC %u",
		   sm->engine ? sm->engine : "default", r.lmc);
	/* the last engine's SLs and the last partitions' keys go either way */
	return ftsw_lab_path_sl(lab, sm->host, lab_sm_paths(sm), &ps, err);
}

int ftsw_lab_ib_exec(struct ftsw_lab *lab, uint32_t host, char **argv,
		     struct ftsw_err *err)
{
	char pre[2 * PATH_MAX + 2];
	const char *so = ftsw_lab_preload(pre, sizeof(pre));
	char dir[300];

	if (!so) {
		ftsw_err_set(err, "libumad2sim.so not found (apt-get install ibsim-utils, or set FTSW_UMAD2SIM)");
		return -1;
	}
	if (ftsw_lab_gw_start(lab->name, host, err) ||
	    ftsw_lab_enter_host(lab, host, err))
		return -1;
	/* libumad2sim writes its sysfs copy under the working directory */
	lab_run_path(lab->name, "tools", dir, sizeof(dir));
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || chdir(dir) < 0) {
		ftsw_err_set(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	setenv("LD_PRELOAD", so, 1);
	setenv("IBSIM_SOCKNAME", FTSW_LAB_GW_SOCK, 1);
	execvp(argv[0], argv);
	ftsw_err_set(err, "%s: %s", argv[0], strerror(errno));
	return -1;
}
