/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw: the public header. Every part of the library has its own header
 * (topology, routing, analysis, netlink client, lab); this one names the
 * library and includes nothing heavy.
 */
#ifndef LIBFTSW_H
#define LIBFTSW_H

#define FTSW_VERSION "0.1"

const char *ftsw_version(void);

#endif
