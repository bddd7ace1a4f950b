/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: the traps a switch sends (trap.c).
 */
#ifndef _FTSW_TRAP_H
#define _FTSW_TRAP_H

#include "ftsw.h"

void ftsw_trap_init(struct ftsw_switch *sw);
void ftsw_trap_port_changed(struct ftsw_port *p);
bool ftsw_trap_resend(struct ftsw_switch *sw);
void ftsw_trap_mkey_run(struct ftsw_switch *sw);
void ftsw_trap_pkey_run(struct ftsw_switch *sw);

#endif /* _FTSW_TRAP_H */
