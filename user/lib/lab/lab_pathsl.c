// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw lab: path SLs under OpenSM (lab.h, "Path SLs";
 * Documentation/sm.md). The SA's PathRecords are asked in band, through
 * one host's gateway, by libftsw's own SA client (sa/sa.h): one GetTable
 * per source LID, its answer (RMPP, reassembled by the gateway) parsed
 * with every field checked, and each host's edge port given the SLs by
 * DLID (PORT_SL_TABLE) and, under partitions, the P_Keys by DLID
 * (PORT_PKEY_TABLE) with one PORT_SET. Nothing is forked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/sa.h"
#include "lab/lab.h"
#include "lab/lab_int.h"
#include "util/parse.h"

/* The engines of OpenSM 3.3 whose PathRecords carry SLs of their own. */
static const char *const sl_engines[] = {
	"lash", "dfsssp", "nue", "torus-2QoS", NULL,
};

/*
 * What the lab fills from the PathRecords under sm's options: the SLs when
 * path SLs are wanted, the P_Keys when OpenSM has partitions.
 */
unsigned lab_sm_paths(const struct ftsw_lab_sm *sm)
{
	return (ftsw_lab_path_sl_wanted(sm->path_sl, sm->engine) ?
		FTSW_PATHS_SL : 0) | (sm->partitions ? FTSW_PATHS_PKEY : 0);
}

bool ftsw_lab_path_sl_wanted(enum ftsw_lab_path_sl_mode mode,
			     const char *engine)
{
	unsigned i;

	if (mode != FTSW_PATH_SL_AUTO)
		return mode == FTSW_PATH_SL_ON;
	for (i = 0; engine && sl_engines[i]; i++)
		if (strstr(engine, sl_engines[i]))
			return true;
	return false;
}

/* A host's edge port, as the kernel has it now. */
struct ps_host {
	bool found;
	uint32_t sw;
	uint8_t port, lmc, sl;
	uint16_t lid;
};

struct ps_dump {
	const struct ftsw_topo *t;
	struct ps_host *h;
};

static int ps_port_cb(const struct ftsw_port_info *pi, void *arg)
{
	struct ps_dump *d = arg;
	int64_t h = lab_edge_host(d->t, pi);

	if (h < 0)
		return 0;
	d->h[h] = (struct ps_host){ .found = true, .sw = pi->switch_id,
		.port = pi->port, .lmc = pi->lmc, .sl = pi->sl,
		.lid = pi->base_lid };
	return 0;
}

/* The counters of path-sl, by key. */
static const struct {
	const char *key;
	size_t off;
} ps_keys[] = {
	{ "sweeps", offsetof(struct ftsw_lab_path_sl, sweeps) },
	{ "queries", offsetof(struct ftsw_lab_path_sl, queries) },
	{ "records", offsetof(struct ftsw_lab_path_sl, records) },
	{ "conflicts", offsetof(struct ftsw_lab_path_sl, conflicts) },
	{ "pairs", offsetof(struct ftsw_lab_path_sl, pairs) },
	{ "missing", offsetof(struct ftsw_lab_path_sl, missing) },
	{ "us", offsetof(struct ftsw_lab_path_sl, us) },
};

static int ps_write(const char *lab, const struct ftsw_lab_path_sl *r,
		    struct ftsw_err *err)
{
	char path[320], *tmp;
	unsigned i;
	FILE *f;

	lab_run_path(lab, "path-sl", path, sizeof(path));
	f = ftsw_atomic_open(path, &tmp, err);
	if (!f)
		return -1;
	fprintf(f, "on=%d\npkeys=%d\nhost=%u\n", r->on, r->pkeys, r->host);
	for (i = 0; i < sizeof(ps_keys) / sizeof(ps_keys[0]); i++)
		fprintf(f, "%s=%" PRIu64 "\n", ps_keys[i].key,
			*(const uint64_t *)((const char *)r + ps_keys[i].off));
	for (i = 0; i < FTSW_NUM_SL; i++)
		if (r->per_sl[i])
			fprintf(f, "sl%u=%" PRIu64 "\n", i, r->per_sl[i]);
	return ftsw_atomic_commit(f, path, tmp, err);
}

/* path-sl's bounds: what ps_write() writes is far below them */
#define PS_MAX_LINE	64
#define PS_MAX_FILE	4096
#define PS_NKEYS	(sizeof(ps_keys) / sizeof(ps_keys[0]))

/* The SL of a key slN (N 0..15, as ps_write() writes it), or -1. */
static int ps_sl_key(const char *key)
{
	char name[8];
	unsigned sl;

	for (sl = 0; sl < FTSW_NUM_SL; sl++) {
		snprintf(name, sizeof(name), "sl%u", sl);
		if (!strcmp(key, name))
			return (int)sl;
	}
	return -1;
}

/*
 * One line of path-sl, as ps_write() writes it, into r: KEY=VALUE, the key
 * on, host, one of ps_keys or slN (0..15), each at most once (seen[]: on,
 * host, ps_keys, then the SLs). 0, or -1 with err naming FILE:LINE.
 */
static int ps_line(struct ftsw_text *x, struct ftsw_lab_path_sl *r,
		   bool *seen, struct ftsw_err *err)
{
	char what[400], *key = x->line, *v = strchr(key, '=');
	uint64_t max = UINT64_MAX, val;
	unsigned k;
	int sl = -1;

	if (!v) {
		ftsw_err_set(err, "%s:%u: not KEY=VALUE", x->path, x->ln);
		return -1;
	}
	*v++ = 0;
	if (!strcmp(key, "on")) {
		k = 0;
		max = 1;
	} else if (!strcmp(key, "host")) {
		k = 1;
		max = UINT32_MAX;
	} else if (!strcmp(key, "pkeys")) {
		k = 2 + PS_NKEYS + FTSW_NUM_SL;
		max = 1;
	} else if ((sl = ps_sl_key(key)) >= 0) {
		k = 2 + PS_NKEYS + (unsigned)sl;
	} else {
		for (k = 0; k < PS_NKEYS && strcmp(key, ps_keys[k].key); k++)
			;
		if (k == PS_NKEYS) {
			ftsw_err_set(err, "%s:%u: unknown key '%s'", x->path,
				     x->ln, key);
			return -1;
		}
		k += 2;
	}
	if (seen[k]) {
		ftsw_err_set(err, "%s:%u: repeated key '%s'", x->path, x->ln,
			     key);
		return -1;
	}
	seen[k] = true;
	snprintf(what, sizeof(what), "%s:%u: %s", x->path, x->ln, key);
	if (ftsw_parse_u64(what, v, 0, max, &val, err))
		return -1;
	if (k == 0)
		r->on = val;
	else if (k == 2 + PS_NKEYS + FTSW_NUM_SL)
		r->pkeys = val;
	else if (k == 1)
		r->host = (unsigned)val;
	else if (k < 2 + PS_NKEYS)
		*(uint64_t *)((char *)r + ps_keys[k - 2].off) = val;
	else
		r->per_sl[sl] = val;
	return 0;
}

int ftsw_lab_path_sl_read(const char *lab, struct ftsw_lab_path_sl *r,
			  struct ftsw_err *err)
{
	bool seen[2 + PS_NKEYS + FTSW_NUM_SL + 1] = { false };
	struct ftsw_text x;
	char path[320];
	unsigned k;
	int got;

	memset(r, 0, sizeof(*r));
	if (lab_run_open(lab, "path-sl", path, sizeof(path), &x, PS_MAX_LINE,
			 PS_MAX_FILE, err))
		return -1;
	while ((got = ftsw_text_line(&x, err)) > 0 && !ps_line(&x, r, seen, err))
		;
	ftsw_text_close(&x);
	/* every key but the SLs is always written */
	for (k = 0; !got && k < 2 + PS_NKEYS; k++)
		if (!seen[k]) {
			ftsw_err_set(err, "%s: no '%s=' line", path,
				     k == 0 ? "on" : k == 1 ? "host" :
				     ps_keys[k - 2].key);
			got = -1;
		}
	if (got)
		memset(r, 0, sizeof(*r));
	return got ? -1 : 0;
}

static uint64_t sm_sweeps(const char *lab)
{
	char path[320], line[512];
	uint64_t n = 0;
	FILE *f;

	lab_run_path(lab, "opensm.log", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "SUBNET UP") != NULL;
	fclose(f);
	return n;
}

/* Host h's SL table from the SA: tbl[dlid] (seen[dlid] set), its P_Key
 * table pk[dlid], *top the highest DLID. */
static int ps_host_table(struct ftsw_sa_client *c, uint16_t sm_lid,
			 const struct ps_host *h, uint8_t *tbl, uint16_t *pk,
			 uint8_t *seen, uint32_t *top,
			 struct ftsw_lab_path_sl *r, struct ftsw_err *err)
{
	uint32_t off, i;

	for (off = 0; off < (1u << h->lmc); off++) {
		struct ftsw_sa_path_rec *recs = NULL;
		size_t n = 0;
		int tries;

		for (tries = 0; tries < 2; tries++)
			if (!ftsw_sa_paths(c, sm_lid, (uint16_t)(h->lid + off),
					   &recs, &n, err))
				break;
		if (tries == 2)
			return -1;
		r->queries++;
		r->records += n;
		for (i = 0; i < n; i++) {
			uint16_t d = recs[i].dlid;

			if (seen[d] && tbl[d] != recs[i].sl) {
				r->conflicts++;
				continue;
			}
			seen[d] = 1;
			tbl[d] = recs[i].sl;
			pk[d] = recs[i].pkey;
			if (d > *top)
				*top = d;
		}
		free(recs);
	}
	return 0;
}

/* Pairs (h, each LID of every other host) by SL. */
static void ps_count(const struct ps_host *hs, uint32_t nh, uint32_t h,
		     const uint8_t *tbl, const uint8_t *seen,
		     struct ftsw_lab_path_sl *r)
{
	uint32_t g, off;

	for (g = 0; g < nh; g++) {
		if (g == h || !hs[g].found)
			continue;
		for (off = 0; off < (1u << hs[g].lmc); off++) {
			uint32_t d = hs[g].lid + off;

			if (d > FTSW_MAX_LID || !seen[d]) {
				r->missing++;
				continue;
			}
			r->pairs++;
			r->per_sl[tbl[d]]++;
		}
	}
}

/*
 * Host h's edge port gets SL table tbl and P_Key table pk, len entries
 * each; a table not given (NULL) is removed.
 */
static int ps_set_table(struct ftsw_lab *lab, uint32_t h,
			const struct ps_host *hp, const uint8_t *tbl,
			const uint16_t *pk, uint32_t len, struct ftsw_err *err)
{
	static const uint8_t none[1];
	static const uint16_t nokey[1];
	struct ftsw_port_cfg pc;

	ftsw_port_cfg_init(&pc);
	pc.switch_id = hp->sw;
	pc.port = hp->port;
	/* an empty table removes the port's */
	pc.sl_table = tbl ? tbl : none;
	pc.sl_table_len = tbl ? len : 0;
	pc.pkey_table = pk ? pk : nokey;
	/* DLIDs past the kernel's table take the port's default key */
	pc.pkey_table_len = !pk ? 0 : len < FTSW_PKEY_TABLE_MAX ? len :
					  FTSW_PKEY_TABLE_MAX;
	if (!ftsw_nl_port_set(lab->nl, &pc))
		return 0;
	ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "path SLs of h%" PRIu32
		       ": switch %" PRIu32 " port %u: %s", h, hp->sw, hp->port,
		       ftsw_nl_error(lab->nl));
	return -1;
}

/* Every host's tables asked and set (the SLs, the P_Keys as r says). */
static int ps_fill(struct ftsw_lab *lab, struct ftsw_sa_client *c,
		   uint16_t sm_lid, const struct ps_host *hs,
		   struct ftsw_lab_path_sl *r, struct ftsw_err *err)
{
	uint8_t *tbl = malloc(FTSW_LFT_SIZE), *seen = malloc(FTSW_LFT_SIZE);
	uint16_t *pk = malloc(2 * FTSW_LFT_SIZE);
	uint32_t h, nh = lab->topo->nhosts, top;
	int rc = -1;

	if (!tbl || !seen || !pk) {
		ftsw_err_set(err, "path SLs: out of memory");
		goto out;
	}
	for (h = 0; h < nh; h++) {
		if (!hs[h].found)
			continue;
		memset(tbl, hs[h].sl, FTSW_LFT_SIZE);
		memset(seen, 0, FTSW_LFT_SIZE);
		/* a DLID without a record: the port's default P_Key */
		memset(pk, 0, 2 * FTSW_LFT_SIZE);
		top = 0;
		if (ps_host_table(c, sm_lid, &hs[h], tbl, pk, seen, &top, r,
				  err)) {
			char m[sizeof(err->msg)];

			snprintf(m, sizeof(m), "%.400s", err->msg);
			ftsw_err_set(err, "path SLs of h%" PRIu32 " (LID %u): %s",
				     h, hs[h].lid, m);
			goto out;
		}
		ps_count(hs, nh, h, tbl, seen, r);
		if (ps_set_table(lab, h, &hs[h], r->on ? tbl : NULL,
				 r->pkeys ? pk : NULL, top + 1, err))
			goto out;
	}
	rc = 0;
out:
	free(tbl);
	free(seen);
	free(pk);
	return rc;
}

/* The hosts' edge ports from the kernel. */
static struct ps_host *ps_hosts(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct ps_dump d = { .t = lab->topo };

	d.h = calloc(lab->topo->nhosts ? lab->topo->nhosts : 1, sizeof(*d.h));
	if (!d.h) {
		ftsw_err_set(err, "path SLs: out of memory");
		return NULL;
	}
	if (ftsw_nl_port_dump(lab->nl, -1, ps_port_cb, &d)) {
		ftsw_err_errno(err, ftsw_nl_errno(lab->nl), "lab %s: %s",
			       lab->name, ftsw_nl_error(lab->nl));
		free(d.h);
		return NULL;
	}
	return d.h;
}

/* The SA client's sockets, made in the host's namespace where they stay. */
static int sa_open_in(void *c, struct ftsw_err *err)
{
	return ftsw_sa_open(c, FTSW_LAB_GW_SOCK, err);
}

int ftsw_lab_path_sl(struct ftsw_lab *lab, unsigned host, unsigned what,
		     struct ftsw_lab_path_sl *res, struct ftsw_err *err)
{
	uint64_t t0 = ftsw_now_us();
	struct ftsw_sa_client c;
	uint16_t lid, sm_lid;
	struct ps_host *hs;
	int rc = -1, fd;

	memset(res, 0, sizeof(*res));
	if (host >= lab->topo->nhosts) {
		ftsw_err_set(err, "--sm-host %u: lab %s has %" PRIu32 " hosts",
			     host, lab->name, lab->topo->nhosts);
		return -1;
	}
	if (!what)
		return ftsw_lab_path_sl_off(lab, err);
	res->on = what & FTSW_PATHS_SL;
	res->pkeys = what & FTSW_PATHS_PKEY;
	res->host = host;
	res->sweeps = sm_sweeps(lab->name);
	hs = ps_hosts(lab, err);
	if (!hs)
		return -1;
	if (ftsw_lab_gw_start(lab->name, host, err))
		goto out;
	fd = ftsw_lab_host_fd(lab, host, err);
	if (fd < 0 || ftsw_netns_run(fd, "host", sa_open_in, &c, err))
		goto out;
	if (!ftsw_sa_port_lids(&c, &lid, &sm_lid, err) &&
	    !ps_fill(lab, &c, sm_lid, hs, res, err)) {
		res->us = ftsw_now_us() - t0;
		rc = ps_write(lab->name, res, err);
	}
	ftsw_sa_close(&c);
out:
	free(hs);
	return rc;
}

int ftsw_lab_path_sl_off(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct ftsw_lab_path_sl r = { .on = false };
	struct ps_host *hs = ps_hosts(lab, err);
	uint32_t h;

	if (!hs)
		return -1;
	for (h = 0; h < lab->topo->nhosts; h++)
		if (hs[h].found &&
		    ps_set_table(lab, h, &hs[h], NULL, NULL, 0, err)) {
			free(hs);
			return -1;
		}
	free(hs);
	return ps_write(lab->name, &r, err);
}

int ftsw_lab_path_sl_refresh(struct ftsw_lab *lab, struct ftsw_err *err)
{
	struct ftsw_lab_path_sl r;

	if (ftsw_lab_path_sl_read(lab->name, &r, err))
		return err->code == ENOENT ? 0 : -1;
	if ((!r.on && !r.pkeys) || sm_sweeps(lab->name) == r.sweeps)
		return 0;
	return ftsw_lab_path_sl(lab, r.host,
				(r.on ? FTSW_PATHS_SL : 0) |
				(r.pkeys ? FTSW_PATHS_PKEY : 0), &r, err);
}

int lab_sm_path_sl_start(const char *name, const struct ftsw_lab_sm *sm,
			 struct ftsw_err *err)
{
	struct ftsw_lab_path_sl r = { .on = false, .host = sm->host };
	unsigned what = lab_sm_paths(sm);
	struct ftsw_lab lab;
	int rc;

	if (!what)
		return ps_write(name, &r, err);
	if (ftsw_lab_open(name, &lab, err))
		return -1;
	rc = ftsw_lab_path_sl(&lab, sm->host, what, &r, err);
	ftsw_lab_close(&lab);
	return rc;
}
