/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to route/check.c and route/check_ar.c: one check's state and
 * the helpers both use (Documentation/routing.md, "The checker").
 */
#ifndef LIBFTSW_ROUTE_CHECK_INT_H
#define LIBFTSW_ROUTE_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "route/routing.h"

enum { ST_UNK = 0, ST_BUSY, ST_OK, ST_NOROUTE, ST_LOOP, ST_DEAD, ST_MIS };

struct src {
	uint32_t host, host2;	/* a host of the group and another one */
	uint32_t leaf;		/* FTSW_NONE: uncabled host */
	uint32_t cnt;
};

struct ck {
	const struct ftsw_routing *r;
	const struct ftsw_check_opts *o;
	const struct ftsw_topo *t;
	uint8_t *dist;		/* [leaf * ns + sw] BFS hops, for minimality */
	uint32_t *leaf_of_sw, nl;
	uint32_t nch;		/* channels: switch port records */
	uint64_t *dep;		/* per channel: 4 x 64 bits of next ports */
	/* results */
	uint64_t pairs, delivered, no_route, loops, mis, dead, nonmin, updown;
	uint64_t host_pairs, host_delivered;
	uint64_t bad_entries;
	uint64_t ar_entries, ar_bad;
	uint64_t max_hops;
	char *rep;
	size_t replen, repcap;
	unsigned nrep, maxrep;
	bool oom;
};

/* Scratch of one block's walks. */
struct ckscratch {
	uint8_t *st, *flags, *used;
	uint16_t *hops;
	uint32_t *stack;
	/* adaptive groups: source leaves per VL, reach, DFS colours */
	uint8_t *start, *reach, *color;
	uint32_t *queue, *dfs_s;
	uint16_t *dfs_i;
};

/* The VLs the CDG is checked on: the routing's, or o->vls (SL mod vls). */
uint32_t ftsw_ck_nvl(const struct ftsw_routing *r,
		     const struct ftsw_check_opts *o);
/* One line of the check's report (the first maxrep of them are kept). */
void ftsw_ck_report(struct ck *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The hop u -> v goes up in the routing's ranks. */
int ftsw_ck_hop_is_up(const struct ftsw_routing *r, uint32_t u, uint32_t v);
/* Switch s's name, "?" without one. */
const char *ftsw_ck_swname(const struct ftsw_topo *t, uint32_t s);
/* A dependency in the CDG dep: switch s's port p feeds its port q's next hop. */
void ftsw_ck_dep_add(struct ck *c, uint64_t *dep, uint32_t s, uint8_t p,
		     uint8_t q);
/* The adaptive groups toward lid (check_ar.c). */
void ftsw_ck_ar(struct ck *c, uint32_t lid, uint32_t idx, uint32_t dleaf,
		struct ckscratch *x);

#endif
