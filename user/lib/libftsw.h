/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libftsw: the public header. Every part of the library has its own header
 * (topology, routing, analysis, netlink client, lab); this one names the
 * library and includes nothing heavy.
 *
 * Conventions of every header (Documentation/libftsw.md has the details):
 * a call that can fail takes struct ftsw_err *err last and fills its msg
 * (for a person) and code (an errno value, for a program); what a call
 * allocates has one _free partner; the library never prints, results come
 * back as data and progress through an ftsw_progress_fn; objects are not
 * locked (share them between threads only for reading), and lab/, fm/ and
 * nl/ns.h, which move the calling thread between namespaces, belong to one
 * thread.
 */
#ifndef LIBFTSW_H
#define LIBFTSW_H

/* What follows is libftsw's API: exported (Documentation/libftsw.md). */
#pragma GCC visibility push(default)

#define FTSW_VERSION "0.1"

const char *ftsw_version(void);

#pragma GCC visibility pop

#endif
