/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: management keys of the agents (mkey.c).
 */
#ifndef _FTSW_MKEY_H
#define _FTSW_MKEY_H

#include "ftsw.h"

struct ib_smp;
struct ib_port_info;

/* What the M_Key check leaves of an SMP. */
enum ftsw_mkey {
	FTSW_MKEY_OK,		/* answered as if keyed */
	FTSW_MKEY_HIDE,		/* a Get at level 1: answered, M_Key 0 */
	FTSW_MKEY_REFUSED,	/* no answer; counted, trapped */
};

void ftsw_mkey_expire(struct ftsw_mgmt *mg);
enum ftsw_mkey ftsw_mkey_check(struct ftsw_switch *sw, struct ftsw_port *ca,
			       u8 inp, const struct ib_smp *smp);
bool ftsw_mkey_repress(struct ftsw_switch *sw, struct ftsw_port *ca, u8 inp,
		       const struct ib_smp *smp);
void ftsw_mkey_pi_get(const struct ftsw_mgmt *mg, bool hide,
		      struct ib_port_info *pi);
void ftsw_mkey_pi_set(struct ftsw_mgmt *mg, const struct ib_port_info *pi);

#endif /* _FTSW_MKEY_H */
