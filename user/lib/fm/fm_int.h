/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fabric manager's files share (private to user/lib/fm): the
 * manager's state and the functions one file calls in another.
 */
#ifndef LIBFTSW_FM_INT_H
#define LIBFTSW_FM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fm/fm.h"
#include "nl/nl.h"

struct fm_port {
	uint32_t sw;		/* switch index */
	uint8_t port;
	uint8_t kind;
	int ifindex;
	uint16_t base_lid;
	bool up;
	uint32_t patch_sw;	/* a patch cable's far end (switch index), */
	uint8_t patch_port;	/* or UINT32_MAX */
};

/* A cable: two link ports (b = NO_PORT for an edge port's host cable). */
#define NO_PORT SIZE_MAX

struct fm_cable {
	size_t a, b;		/* ports indexes */
};

struct fm {
	const struct ftsw_fm_opts *o;
	struct ftsw_nl *nl, *ev;
	char status[300];
	const char *engine;
	/* discovery */
	uint32_t nsw, *sw_id;		/* switch index -> kernel id */
	struct fm_port *ports;
	size_t nports;
	size_t *port_at;		/* [sw * 256 + port] -> ports index + 1 */
	struct ftsw_topo *topo;		/* full cabling */
	struct fm_cable *cables;
	size_t ncables;
	size_t *cable_of;		/* ports index -> cables index + 1 */
	bool *swept;			/* usable cables at the last sweep */
	size_t usable_swept;		/* how many */
	uint8_t lmc;
	uint32_t nhosts;
	/* state */
	uint8_t *lft;			/* last uploaded, nsw * lft_size */
	size_t lft_size;
	uint64_t events, sweeps, generation;
	uint64_t no_change;		/* events that changed no usable cable */
	uint64_t overruns;		/* resynchronisations after ENOBUFS */
	struct ftsw_fm_sweep last;
	char last_cause[128];
	uint64_t unreachable;
	uint32_t unreach[FTSW_FM_UNREACH_LIST][2];	/* the first ones */
	unsigned nunreach;
};

/* fm_discover.c */
uint32_t fm_sw_index(const struct fm *fm, uint32_t id);
int fm_discover(struct fm *fm, struct ftsw_err *err);

/* fm_sweep.c */
bool fm_cable_usable(const struct fm *fm, size_t c);
size_t fm_cables_changed(const struct fm *fm);
void fm_report(struct fm *fm, enum ftsw_fm_report_kind kind,
	       struct ftsw_fm_report *r);
int fm_sweep(struct fm *fm, uint64_t t0, const char *cause,
	     struct ftsw_err *err);

/* fm_status.c */
void fm_write_status(struct fm *fm);

#endif
