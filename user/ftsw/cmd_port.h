/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw port: what cmd_port.c shares with cmd_port_pkey.c (partitions).
 */
#ifndef FTSW_CMD_PORT_H
#define FTSW_CMD_PORT_H

#include <stdint.h>

#include "nl/nl.h"

extern const char *const port_enforce_words[];

/* The partition words of port set, as given (NULL / -1: absent). */
struct port_pkey_words {
	const char *pkeys, *ca_pkeys, *pkey_table;
	int enforce;	/* index into port_enforce_words: FTSW_ENFORCE_* bits */
	int pkey;
};

/* What c points into; free(table) when done. */
struct port_pkey_bufs {
	uint16_t pkeys[FTSW_PKEY_CAP], ca_pkeys[FTSW_PKEY_CAP];
	uint16_t *table;
};

/*
 * A table file of at most max numbers 0..vmax (cmd_port.c): NULL, said,
 * or the numbers (*len), to free; name is the option's.
 */
uint16_t *port_read_table(const char *path, const char *name, uint32_t max,
			  unsigned vmax, uint32_t *len);

/* The words into c (storage in b): 0, or an exit status. */
int port_cfg_pkey(const struct port_pkey_words *w, struct ftsw_port_cfg *c,
		  struct port_pkey_bufs *b);
/* The partition part of a port's line (text: only what is not a new
 * port's; JSON: everything). */
void port_print_pkeys(const struct ftsw_port_info *p);
/* An edge port's multicast groups, when it has some. */
void port_print_mcast(const struct ftsw_port_info *p);
void port_print_mkeys(const struct ftsw_port_info *p);

#endif
