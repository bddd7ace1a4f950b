// SPDX-License-Identifier: GPL-2.0
/* Builders shared by the KUnit suites; see test_util.h. */
#include <linux/percpu.h>
#include <linux/slab.h>
#include "lft.h"
#include "test_util.h"

/*
 * A switch of 4 ports in @fn, switch id @id, SL i -> VL i, and an LFT of
 * 64 LIDs with no route (the caller fills in its routes).
 */
struct ftsw_switch *ftsw_t_switch_new(struct kunit *test, struct ftsw_net *fn,
				      int id)
{
	struct ftsw_switch *sw = kzalloc(struct_size(sw, ports, 5), GFP_KERNEL);
	struct ftsw_lft *lft;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sw);
	sw->fn = fn;
	sw->id = id;
	sw->nports = 4;
	for (i = 0; i < FTSW_NUM_SL; i++)
		sw->sl2vl[i] = i;
	lft = ftsw_lft_alloc(64, NULL);
	if (!lft)
		kfree(sw);
	KUNIT_ASSERT_NOT_NULL(test, lft);
	RCU_INIT_POINTER(sw->lft, lft);
	return sw;
}

/* Frees what ftsw_t_switch_new() allocated; NULL is a no-op. */
void ftsw_t_switch_free(struct ftsw_switch *sw)
{
	if (!sw)
		return;
	ftsw_lft_free(rcu_access_pointer(sw->lft));
	kfree(sw);
}

/*
 * Port @num of @sw, of @kind, up (admin, operational and for the data
 * path) and Active (with its CA, for an edge port), with per-CPU counters
 * and no device, bound in sw->ports.
 */
struct ftsw_port *ftsw_t_port_new(struct kunit *test, struct ftsw_switch *sw,
				  u8 num, u8 kind)
{
	struct ftsw_port *p = kzalloc(sizeof(*p), GFP_KERNEL);
	struct ftsw_pcpu_stats __percpu *stats;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, p);
	stats = alloc_percpu(struct ftsw_pcpu_stats);
	if (!stats)
		kfree(p);
	KUNIT_ASSERT_TRUE(test, !!stats);
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(stats, cpu)->syncp);
	p->stats = stats;
	p->sw = sw;
	p->num = num;
	p->kind = kind;
	p->admin_up = true;
	p->oper_up = true;
	p->up = true;
	p->ib.state = FTSW_PS_ACTIVE;
	p->ca.ib.state = FTSW_PS_ACTIVE;
	RCU_INIT_POINTER(sw->ports[num], p);
	return p;
}

/* Frees what ftsw_t_port_new() allocated; NULL is a no-op. */
void ftsw_t_port_free(struct ftsw_port *p)
{
	if (!p)
		return;
	free_percpu(p->stats);
	kfree(p);
}
