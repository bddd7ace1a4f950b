// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: naming, the address plan and reading a lab (lab.conf, its
 * namespaces, its routing) (see lab.h). Building a lab is lab_up.c,
 * tearing it down lab_down.c, failing and healing cables lab_fail.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "util/output.h"
#include "util/parse.h"
#include "util/text.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "nl/rtnl.h"

void ftsw_lab_host_ns(const char *lab, uint32_t host, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s-h%" PRIu32, lab, host);
}

void ftsw_lab_port_dev(uint32_t sw, unsigned port, char *buf, size_t sz)
{
	snprintf(buf, sz, "s%" PRIu32 "p%u", sw, port);
}

uint32_t ftsw_lab_host_ip(uint32_t host)
{
	return htonl((198u << 24 | 18u << 16) + host + 1);
}

void ftsw_lab_host_ip6(uint32_t host, uint8_t addr[16])
{
	uint32_t low = host + 1;

	memset(addr, 0, 16);
	addr[0] = 0x20;		/* 2001:2::/48, RFC 5180 benchmarking */
	addr[1] = 0x01;
	addr[3] = 0x02;
	addr[12] = low >> 24;
	addr[13] = low >> 16;
	addr[14] = low >> 8;
	addr[15] = low;
}


int lab_check_name(const char *name, struct ftsw_err *err)
{
	size_t i, n = strlen(name);

	if (!n || n > FTSW_LAB_NAME_MAX) {
		ftsw_err_set(err, "lab name '%s': 1..%d characters", name,
			     FTSW_LAB_NAME_MAX);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' ||
		      ((c == '.' || c == '-') && i)))
			goto bad;
	}
	return 0;
bad:
	ftsw_err_set(err, "lab name '%s': letters, digits, '_', '.', '-' only, "
		     "'.' and '-' not first", name);
	return -1;
}

void lab_rundir(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", ftsw_rundir(), name);
}

void lab_run_path(const char *name, const char *file, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s/%s", ftsw_rundir(), name, file);
}

int lab_run_open(const char *name, const char *file, char *path, size_t sz,
		 struct ftsw_text *x, size_t max_line, uint64_t max_file,
		 struct ftsw_err *err)
{
	lab_run_path(name, file, path, sz);
	return ftsw_text_open(x, path, max_line, max_file, err);
}

/* ------------------------------------------------------------ open */

/* A text value of lab.conf into buf: not empty, and it must fit. */
static int conf_str(const char *what, const char *v, char *buf, size_t sz,
		    struct ftsw_err *err)
{
	size_t n = strlen(v);

	if (!n || n >= sz) {
		ftsw_err_set(err, "%s: %s", what, n ? "too long" : "empty");
		return -1;
	}
	memcpy(buf, v, n + 1);
	return 0;
}

/*
 * lab.conf, as write_conf() writes it: one KEY=VALUE a line. Anything else
 * (a line without '=', an unknown key, a bad value, a missing key) is
 * refused with its file:line, so that a damaged lab.conf is never read as
 * a different lab.
 */
static int conf_read(struct ftsw_text *t, struct ftsw_lab *lab,
		     uint64_t counts[2], struct ftsw_err *err)
{
	enum { C_SPEC, C_ENGINE, C_LMC, C_RATE, C_HOSTS, C_SWITCHES, C_CABLES,
	       C_LOSSLESS, C_LINK_RATE, C_N };
	static const char *const keys[C_N] = { "spec", "engine", "lmc", "rate",
						"hosts", "switches", "cables",
						"lossless", "link_rate" };
	const char *path = t->path;
	bool seen[C_N] = { false };
	char what[700];
	unsigned ln, k, u;
	uint64_t x;
	int rc;

	while ((rc = ftsw_text_line(t, err)) > 0) {
		char *line = t->line, *v = strchr(line, '=');

		ln = t->ln;

		if (!v) {
			ftsw_err_set(err, "%s:%u: not KEY=VALUE", path, ln);
			return -1;
		}
		*v++ = 0;
		for (k = 0; k < C_N && strcmp(line, keys[k]); k++)
			;
		if (k == C_N || seen[k]) {
			ftsw_err_set(err, "%s:%u: %s key '%s'", path, ln,
				     k == C_N ? "unknown" : "repeated", line);
			return -1;
		}
		seen[k] = true;
		snprintf(what, sizeof(what), "%s:%u: %s", path, ln, keys[k]);
		switch (k) {
		case C_SPEC:
			if (conf_str(what, v, lab->spec, sizeof(lab->spec), err))
				return -1;
			break;
		case C_ENGINE:
			if (conf_str(what, v, lab->engine, sizeof(lab->engine),
				     err))
				return -1;
			break;
		case C_LMC:
			if (ftsw_parse_uint(what, v, 0, FTSW_MAX_LMC, &u, err))
				return -1;
			lab->lmc = u;
			break;
		case C_RATE:
			if (ftsw_parse_u64(what, v, 0, FTSW_LAB_RATE_MAX, &x,
					   err))
				return -1;
			if (x && x < FTSW_LAB_RATE_MIN) {
				ftsw_err_set(err, "%s: %" PRIu64 " is neither 0 "
					     "nor in %llu..%llu bytes/s", what,
					     x, FTSW_LAB_RATE_MIN,
					     FTSW_LAB_RATE_MAX);
				return -1;
			}
			lab->rate_bytes = x;
			break;
		case C_HOSTS:
		case C_SWITCHES:
			/* Checked against topo.net by the caller. */
			if (ftsw_parse_u64(what, v, 0, UINT32_MAX,
					   &counts[k - C_HOSTS], err))
				return -1;
			break;
		case C_CABLES:
			if (strcmp(v, "patch") && strcmp(v, "veth")) {
				ftsw_err_set(err, "%s: '%s' is neither patch nor "
					     "veth", what, v);
				return -1;
			}
			lab->patch = !strcmp(v, "patch");
			break;
		case C_LOSSLESS:
			if (ftsw_parse_uint(what, v, 0, 1, &u, err))
				return -1;
			lab->lossless = u;
			break;
		case C_LINK_RATE:
			if (ftsw_parse_u64(what, v, 0, FTSW_RATE_MAX, &x, err))
				return -1;
			lab->link_rate_bits = x;
			break;
		}
	}
	if (rc < 0)
		return -1;
	for (k = 0; k < C_N; k++) {
		/*
		 * Labs made before cables= or lossless= were written are
		 * veth labs in today's mode.
		 */
		if (!seen[k] && k < C_CABLES) {
			ftsw_err_set(err, "%s: no '%s=' line", path, keys[k]);
			return -1;
		}
	}
	if (lab->patch && lab->rate_bytes) {
		ftsw_err_set(err, "%s: rate= with cables=patch (a patch cable "
			     "is never shaped)", path);
		return -1;
	}
	if (lab->link_rate_bits && !lab->lossless) {
		ftsw_err_set(err, "%s: link_rate= without lossless=1", path);
		return -1;
	}
	return 0;
}

/*
 * A lab whose files are there but whose namespaces are not: its holder
 * ended (rootless: a reboot with the run directory in ~/.cache, or it was
 * killed), or someone removed the fabric's namespace (ip netns del).
 */
static int lab_gone(const char *name, struct ftsw_err *err)
{
	ftsw_err_errno(err, ENOENT, "lab %s: its namespaces are gone (%s); "
		       "ftsw lab down%s%s removes what is left", name,
		       ftsw_privileged() ? "removed by hand" :
		       "its holder process ended: a reboot, or it was killed",
		       strcmp(name, FTSW_LAB_DEFAULT) ? " --name " : "",
		       strcmp(name, FTSW_LAB_DEFAULT) ? name : "");
	return -1;
}

int ftsw_lab_open(const char *name, struct ftsw_lab *lab, struct ftsw_err *err)
{
	char path[600];
	struct ftsw_text t;
	uint64_t counts[2] = { 0, 0 };
	uint32_t n;
	int rc;

	memset(lab, 0, sizeof(*lab));
	lab->fabric_fd = -1;
	name = name ? name : FTSW_LAB_DEFAULT;
	if (lab_check_name(name, err))
		return -1;
	snprintf(lab->name, sizeof(lab->name), "%s", name);
	if (lab_run_open(name, "lab.conf", path, sizeof(path), &t,
			 LAB_CONF_MAX_LINE, LAB_CONF_MAX_FILE, err)) {
		if (err->code == ENOENT)
			ftsw_err_errno(err, ENOENT, "lab %s: no such lab "
				       "(ftsw lab list)", name);
		return -1;
	}
	rc = conf_read(&t, lab, counts, err);
	ftsw_text_close(&t);
	if (rc)
		return -1;
	/* without root: the lab's namespaces are in the user's holder */
	rc = ftsw_rootless_join(false, err);
	if (rc > 0)
		return lab_gone(name, err);
	if (rc)
		return -1;
	lab_run_path(name, "topo.net", path, sizeof(path));
	lab->topo = ftsw_net_read(path, err);
	if (!lab->topo)
		return -1;
	if (counts[0] != lab->topo->nhosts ||
	    counts[1] != lab->topo->nswitches) {
		ftsw_err_set(err, "%s/%s/lab.conf: %" PRIu64 " hosts "
			     "and %" PRIu64 " switches, but %s has %" PRIu32
			     " and %" PRIu32, ftsw_rundir(), name, counts[0],
			     counts[1], path,
			     lab->topo->nhosts, lab->topo->nswitches);
		ftsw_lab_close(lab);
		return -1;
	}
	lab->host_fd = malloc(sizeof(int) * (lab->topo->nhosts + 1));
	if (!lab->host_fd) {
		ftsw_lab_close(lab);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return -1;
	}
	for (n = 0; n < lab->topo->nhosts; n++)
		lab->host_fd[n] = -1;
	lab->fabric_fd = ftsw_netns_open(name, err);
	if (lab->fabric_fd < 0) {
		ftsw_lab_close(lab);
		return err->code == ENOENT ? lab_gone(name, err) : -1;
	}
	lab->nl = ftsw_nl_open_in(name, err);
	if (!lab->nl) {
		ftsw_lab_close(lab);
		return -1;
	}
	return 0;
}

void ftsw_lab_close(struct ftsw_lab *lab)
{
	uint32_t n;

	if (lab->host_fd && lab->topo)
		for (n = 0; n < lab->topo->nhosts; n++)
			if (lab->host_fd[n] >= 0)
				close(lab->host_fd[n]);
	free(lab->host_fd);
	lab->host_fd = NULL;
	if (lab->fabric_fd >= 0)
		close(lab->fabric_fd);
	lab->fabric_fd = -1;
	ftsw_nl_close(lab->nl);
	lab->nl = NULL;
	ftsw_topo_free(lab->topo);
	lab->topo = NULL;
}

int ftsw_lab_list(int (*cb)(const char *name, void *arg), void *arg)
{
	DIR *d = opendir(ftsw_rundir());
	struct dirent *de;
	int rc = 0;

	if (!d)
		return 0;
	/* Only directories holding a lab: never a stray file (a log). */
	while (!rc && (de = readdir(d)))
		if (ftsw_lab_exists(de->d_name))
			rc = cb(de->d_name, arg);
	closedir(d);
	return rc;
}

int ftsw_lab_host_fd(struct ftsw_lab *lab, uint32_t host, struct ftsw_err *err)
{
	char ns[64];

	if (host >= lab->topo->nhosts) {
		ftsw_err_set(err, "host %" PRIu32 ": lab %s has %" PRIu32
			     " hosts", host, lab->name, lab->topo->nhosts);
		return -1;
	}
	if (lab->host_fd[host] < 0) {
		ftsw_lab_host_ns(lab->name, host, ns, sizeof(ns));
		lab->host_fd[host] = ftsw_netns_open(ns, err);
	}
	return lab->host_fd[host];
}

int ftsw_lab_enter_host(struct ftsw_lab *lab, uint32_t host,
			struct ftsw_err *err)
{
	int fd = ftsw_lab_host_fd(lab, host, err);

	if (fd < 0)
		return -1;
	return ftsw_netns_enter_fd(fd, "host", err);
}

int ftsw_lab_become_host(struct ftsw_lab *lab, uint32_t host,
			 struct ftsw_err *err)
{
	char ns[64];

	if (ftsw_lab_enter_host(lab, host, err))
		return -1;
	ftsw_lab_host_ns(lab->name, host, ns, sizeof(ns));
	return ftsw_netns_view(ns, err);
}

static bool parse_index(const char *s, char prefix, uint32_t *v)
{
	char *e;
	unsigned long x;

	if (prefix) {
		if (s[0] != prefix && s[0] != prefix - 32)
			return false;
		s++;
	}
	if (*s < '0' || *s > '9')
		return false;
	x = strtoul(s, &e, 10);
	if (*e || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

int ftsw_lab_find_host(const struct ftsw_lab *lab, const char *s,
		       uint32_t *host, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t i;

	if (parse_index(s, 'h', host) || parse_index(s, 0, host)) {
		if (*host < t->nhosts)
			return 0;
		ftsw_err_set(err, "host '%s': lab %s has hosts 0..%" PRIu32, s,
			     lab->name, t->nhosts - 1);
		return -1;
	}
	for (i = 0; i < t->nhosts; i++) {
		const char *d = t->nodes[t->hosts[i]].desc;

		if (d && !strcmp(d, s)) {
			*host = i;
			return 0;
		}
	}
	ftsw_err_set(err, "host '%s': no such host in lab %s (h0..h%" PRIu32
		     " or a node name)", s, lab->name, t->nhosts - 1);
	return -1;
}

int ftsw_lab_find_node(const struct ftsw_lab *lab, const char *s,
		       uint32_t *node, struct ftsw_err *err)
{
	const struct ftsw_topo *t = lab->topo;
	uint32_t i;

	if (parse_index(s, 's', &i)) {
		if (i < t->nswitches) {
			*node = t->switches[i];
			return 0;
		}
		ftsw_err_set(err, "switch '%s': lab %s has switches s0..s%" PRIu32,
			     s, lab->name, t->nswitches - 1);
		return -1;
	}
	if (parse_index(s, 'h', &i)) {
		if (i < t->nhosts) {
			*node = t->hosts[i];
			return 0;
		}
		ftsw_err_set(err, "host '%s': lab %s has hosts h0..h%" PRIu32,
			     s, lab->name, t->nhosts - 1);
		return -1;
	}
	for (i = 0; i < t->nnodes; i++) {
		const char *d = t->nodes[i].desc;

		if (d && !strcmp(d, s)) {
			*node = i;
			return 0;
		}
	}
	ftsw_err_set(err, "node '%s': no such switch or host in lab %s "
		     "(s0.., h0.. or a node name)", s, lab->name);
	return -1;
}

/* ------------------------------------------------------------ routing */

struct port_state_arg {
	struct ftsw_topo *t;
};

struct rd_arg {
	struct ftsw_topo *t;
	struct ftsw_routing *r;
	uint32_t *lids;		/* each host's base LID in the kernel */
};

int64_t lab_edge_host(const struct ftsw_topo *t, const struct ftsw_port_info *pi)
{
	const struct ftsw_port *x;
	uint32_t node;

	if (!pi->edge || pi->switch_id >= t->nswitches)
		return -1;
	node = t->switches[pi->switch_id];
	if (pi->port < 1 || pi->port > t->nodes[node].nports)
		return -1;
	x = ftsw_port(t, node, pi->port);
	if (x->peer == FTSW_NONE || t->nodes[x->peer].kind != FTSW_HOST)
		return -1;
	return t->nodes[x->peer].index;
}

static int port_down_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct rd_arg *a = arg;
	struct ftsw_topo *t = a->t;
	uint32_t node;
	int64_t h;

	if (pi->switch_id >= t->nswitches)
		return 0;
	node = t->switches[pi->switch_id];
	if (pi->port > t->nodes[node].nports)
		return 0;
	h = lab_edge_host(t, pi);	/* before a down port's cable goes */
	if (!pi->oper_up || !pi->admin_up)
		ftsw_topo_disconnect(t, node, pi->port);
	if (!a->r || h < 0 || h >= a->r->nhosts)
		return 0;
	a->lids[h] = pi->base_lid;
	/* An edge port allowed one LMC offset: the source's path is fixed. */
	if (pi->n_offsets == 1 && pi->base_lid)
		a->r->policy[h].fixed_offset = pi->offsets[0];
	return 0;
}

/*
 * The kernel's table of switch i in the model's LIDs. Where every host has
 * its plan LID (lab up, or OpenSM keeping the LIDs the lab seeded), the
 * same; where a subnet manager gave other LIDs, each host's entries move to
 * its plan LIDs (switches' own LIDs are then left unrouted in the model).
 */
static void model_table(struct ftsw_routing *r, uint32_t i, const uint8_t *k,
			size_t ksize, const uint32_t *lids, bool moved)
{
	uint8_t *m = ftsw_lft(r, i);
	uint32_t h, o, nlid = 1u << r->lmc;

	if (!moved) {
		memcpy(m, k, r->lft_size < ksize ? r->lft_size : ksize);
		return;
	}
	memset(m, FTSW_PORT_NONE, r->lft_size);
	for (h = 0; h < r->nhosts; h++)
		for (o = 0; lids[h] && o < nlid; o++)
			if (lids[h] + o < ksize &&
			    ftsw_host_lid(r, h) + o < r->lft_size)
				m[ftsw_host_lid(r, h) + o] = k[lids[h] + o];
}

struct ftsw_routing *ftsw_lab_read_routing(struct ftsw_lab *lab,
					   struct ftsw_err *err)
{
	struct ftsw_routing *r;
	struct rd_arg a = { .t = lab->topo };
	uint8_t *table;
	bool moved = false;
	uint32_t i;

	r = ftsw_routing_new(lab->topo, lab->lmc, false, err);
	if (!r)
		return NULL;
	a.r = r;
	a.lids = calloc(r->nhosts ? r->nhosts : 1, sizeof(*a.lids));
	if (!a.lids) {
		ftsw_routing_free(r);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	/* Down ports are cables the model must not use either. */
	if (ftsw_nl_port_dump(lab->nl, -1, port_down_cb, &a)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
			       "lab %s: port dump: %s", lab->name,
			       ftsw_nl_error(lab->nl));
		free(a.lids);
		ftsw_routing_free(r);
		return NULL;
	}
	for (i = 0; i < r->nhosts; i++)
		moved |= a.lids[i] && a.lids[i] != ftsw_host_lid(r, i);
	snprintf(r->engine, sizeof(r->engine), "kernel");
	table = malloc(FTSW_LFT_SIZE);
	if (!table) {
		free(a.lids);
		ftsw_routing_free(r);
		ftsw_err_errno(err, ENOMEM, "out of memory");
		return NULL;
	}
	for (i = 0; i < lab->topo->nswitches; i++) {
		uint32_t size = 0;
		bool staged = false;

		if (ftsw_nl_lft_get(lab->nl, i, false, table, &size, &staged)) {
			ftsw_err_errno(err, ftsw_nl_errno(lab->nl),
				       "switch %" PRIu32 " LFT: %s", i,
				       ftsw_nl_error(lab->nl));
			free(table);
			free(a.lids);
			ftsw_routing_free(r);
			return NULL;
		}
		model_table(r, i, table, FTSW_LFT_SIZE, a.lids, moved);
	}
	free(table);
	free(a.lids);
	return r;
}

