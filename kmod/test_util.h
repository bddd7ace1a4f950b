/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builders shared by the KUnit suites (ftsw_test.ko only): switches and
 * ports without devices, as the fixtures of several suites wire them.
 */
#ifndef FTSW_TEST_UTIL_H
#define FTSW_TEST_UTIL_H

#include <kunit/test.h>
#include "ftsw.h"

struct ftsw_switch *ftsw_t_switch_new(struct kunit *test, struct ftsw_net *fn,
				      int id);
void ftsw_t_switch_free(struct ftsw_switch *sw);
struct ftsw_port *ftsw_t_port_new(struct kunit *test, struct ftsw_switch *sw,
				  u8 num, u8 kind);
void ftsw_t_port_free(struct ftsw_port *p);

#endif
