/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the performance management agents (pma.c).
 */
#ifndef _FTSW_PMA_H
#define _FTSW_PMA_H

#include "ftsw.h"

int ftsw_pma_switch(struct ftsw_switch *sw, void *mad);
int ftsw_pma_ca(struct ftsw_port *p, void *mad);

#endif /* _FTSW_PMA_H */
