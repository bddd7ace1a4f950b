/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsw: lossless mode's credit-update frames (ll_credit.c).
 */
#ifndef _FTSW_LL_CREDIT_H
#define _FTSW_LL_CREDIT_H

#include "ftsw.h"

int ftsw_credit_parse(const u8 *data, unsigned int len, const char **why);
struct sk_buff *ftsw_ll_credit_frame(struct ftsw_port *p);

#endif /* _FTSW_LL_CREDIT_H */
