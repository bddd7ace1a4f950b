/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: a port in lossless mode over its life, and its timer
 * (lossless.c).
 */
#ifndef _FTSW_LOSSLESS_H
#define _FTSW_LOSSLESS_H

#include "ftsw.h"

int ftsw_ll_alloc(struct ftsw_port *p);
void ftsw_ll_start(struct ftsw_port *p);
void ftsw_ll_stop(struct ftsw_port *p);
void ftsw_ll_free(struct ftsw_port *p);

#endif /* _FTSW_LOSSLESS_H */
