/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builders shared by the KUnit suites (ftsw_test.ko only): fabrics,
 * switches and ports made by the module's own constructors, with no
 * devices, as the fixtures of several suites wire them.
 */
#ifndef FTSW_TEST_UTIL_H
#define FTSW_TEST_UTIL_H

#include <kunit/test.h>
#include "ftsw.h"

void ftsw_t_fabric_init(struct ftsw_net *fn);
void ftsw_t_fabric_exit(struct ftsw_net *fn);
struct ftsw_switch *ftsw_t_switch_new(struct kunit *test, struct ftsw_net *fn,
				      int id, bool inband);
void ftsw_t_switch_free(struct ftsw_switch *sw);
struct ftsw_port *ftsw_t_port_new(struct kunit *test, struct ftsw_switch *sw,
				  u8 num, u8 kind);
void ftsw_t_ports_free(struct ftsw_port **ports, int n);
void ftsw_t_port_free(struct ftsw_port *p);
void ftsw_t_cable(struct ftsw_port *a, struct ftsw_port *b);
struct ftsw_policy *ftsw_t_edge_policy(struct kunit *test, struct ftsw_port *p,
				       u16 base_lid, u8 lmc, u8 n_offsets);

#endif
