/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lab's files share (private to user/lib/lab).
 *
 * Interface indexes are chosen, not discovered: the fabric namespace is new,
 * so the device of topology port record k (topo->ports[k]) gets ifindex
 * LAB_IFINDEX_BASE + k, and every host's eth0 gets LAB_HOST_IFINDEX in its
 * own namespace. That makes every later request (binding, failing, tc)
 * possible without a lookup.
 */
#ifndef LIBFTSW_LAB_INT_H
#define LIBFTSW_LAB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "topo/topology.h"
#include "nl/nl.h"
#include "util/text.h"
#include "util/util.h"

struct ftsw_lab_opts;

#define LAB_IFINDEX_BASE	0x10000
/*
 * A host's eth0: clear of lo and the fallback tunnel devices a new
 * namespace may get (sit0, ...) at low indexes, and not above 65535: Open
 * MPI keeps kernel interface indexes in 16 bits and loses such an eth0
 * (ftsw lab mpirun).
 */
#define LAB_HOST_IFINDEX	0x8000

/*
 * Every cable's fabric end (both ends of a cable between switches) is in a
 * device group of LAB_GROUP_CABLES cables, numbered from 1: the hosts'
 * cables first (host n's in group host_group(n)), then the fabric's. `lab
 * down` deletes the lab group by group (see there), and `ip -n LAB link
 * show group G` lists one.
 */
#define LAB_GROUP_CABLES 512u

static inline int lab_port_ifindex(const struct ftsw_topo *t, uint32_t node,
				   unsigned p)
{
	return LAB_IFINDEX_BASE + (int)(t->nodes[node].first_port + p - 1);
}

/*
 * The host an edge port of the dump answers for, by the cabling (not by its
 * LID: a subnet manager may have given it any), or -1.
 */
int64_t lab_edge_host(const struct ftsw_topo *t, const struct ftsw_port_info *pi);

/*
 * lab up --sm, after SUBNET UP: the hosts' path SLs when sm's mode wants
 * them for its engine, else path-sl written off (lab_pathsl.c).
 */
int lab_sm_path_sl_start(const char *name, const struct ftsw_lab_sm *sm,
			 struct ftsw_err *err);
/* What the lab fills from the PathRecords under sm (FTSW_PATHS_*). */
unsigned lab_sm_paths(const struct ftsw_lab_sm *sm);

/* A lab's name: letters, digits, '_', '.', '-' (not first); 0 or -1. */
int lab_check_name(const char *name, struct ftsw_err *err);
/* The lab's run directory, RUNDIR/name (util/rundir.h). */
void lab_rundir(const char *name, char *buf, size_t sz);
/* A file of it, RUNDIR/name/file. */
void lab_run_path(const char *name, const char *file, char *buf, size_t sz);
/*
 * Every file of the run directory is read through here, with the one line
 * reader (util/text.h): lines of at most max_line bytes, the file at most
 * max_file, each refusal naming FILE or FILE:LINE. path[sz] receives the
 * file's name, which x's messages use (it must outlive x). 0, or -1 with
 * err (err->code ENOENT: no such file).
 */
int lab_run_open(const char *name, const char *file, char *path, size_t sz,
		 struct ftsw_text *x, size_t max_line, uint64_t max_file,
		 struct ftsw_err *err);
/* lab.conf's bounds: what the lab writes is far below them */
#define LAB_CONF_MAX_LINE	512
#define LAB_CONF_MAX_FILE	(64ULL << 10)

/* lab up --lossless (lab_lossless.c): before the binds, and after. */
int lab_lossless_fabric(struct ftsw_nl *nl, const struct ftsw_lab_opts *o,
			struct ftsw_err *err);
int lab_lossless_ports(struct ftsw_nl *nl, const struct ftsw_topo *t,
		       const struct ftsw_lab_opts *o, struct ftsw_err *err);
/* lab up --adaptive: every switch's groups of @r, staged (and its gap). */
struct ftsw_routing;
int lab_upload_groups(struct ftsw_nl *nl, const struct ftsw_routing *r,
		      const struct ftsw_lab_opts *o, struct ftsw_err *err);

#endif
