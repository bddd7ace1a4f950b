// SPDX-License-Identifier: GPL-2.0
/*
 * Builders shared by the KUnit suites; see test_util.h. Fabrics, switches
 * and ports are made and freed by the module's own constructors and
 * destructors (fabric.c, path.c): a suite sees what netlink's would. Only
 * what a device or netlink would give is filled in here.
 */
#include <linux/rtnetlink.h>
#include "fabric.h"
#include "lft.h"
#include "path.h"
#include "resolve.h"
#include "test_util.h"

void ftsw_t_fabric_init(struct ftsw_net *fn)
{
	ftsw_fabric_init(fn);
}

/*
 * Frees what the suite's fabric still holds (its plans, what SMPs
 * replaced) once its ports and switches are freed, and waits for every
 * RCU callback, which runs this module's code.
 */
void ftsw_t_fabric_exit(struct ftsw_net *fn)
{
	ftsw_fabric_exit(fn);
	rcu_barrier();
}

/*
 * A switch of 4 ports in @fn, switch id @id, managed by an in-band SM if
 * @inband (links come up in Init, else Active), and an LFT of 64 LIDs with
 * no route (the caller fills in its routes). Not in fn->switches: no
 * netlink dump or commit sees it.
 */
struct ftsw_switch *ftsw_t_switch_new(struct kunit *test, struct ftsw_net *fn,
				      int id, bool inband)
{
	struct ftsw_switch *sw = ftsw_switch_alloc(id, 4, inband);
	struct ftsw_lft *lft;

	KUNIT_ASSERT_NOT_NULL(test, sw);
	sw->fn = fn;
	lft = ftsw_lft_alloc(64, NULL);
	if (!lft)
		ftsw_t_switch_free(sw);
	KUNIT_ASSERT_NOT_NULL(test, lft);
	RCU_INIT_POINTER(sw->lft, lft);
	return sw;
}

/* Frees a switch of ftsw_t_switch_new(), its ports freed; NULL: no-op. */
void ftsw_t_switch_free(struct ftsw_switch *sw)
{
	struct ftsw_net *fn;

	if (!sw)
		return;
	fn = sw->fn;
	mutex_lock(&fn->lock);
	ftsw_switch_free(sw);
	mutex_unlock(&fn->lock);
}

/*
 * Port @num of @sw, of @kind, bound with no device, its link up (admin and
 * operational) and published as a binding publishes it. Its states are
 * those a link comes up in (Active unless the switch is in-band managed).
 * In a lossless fabric its timer never runs: a suite services its ports
 * itself, at the times it picks.
 */
struct ftsw_port *ftsw_t_port_new(struct kunit *test, struct ftsw_switch *sw,
				  u8 num, u8 kind)
{
	struct ftsw_port *p = ftsw_port_alloc(sw, num, kind, true);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->oper_up = true;
	if (p->ll)
		p->ll->dead = true;
	mutex_lock(&sw->fn->lock);
	ftsw_port_publish(p);
	mutex_unlock(&sw->fn->lock);
	return p;
}

/*
 * Unbinds and frees ports of ftsw_t_port_new() of one fabric as an unbind
 * does (their policies with them): out of the data path's view, a grace
 * period (a trap's work may be looking at one), then retired. NULLs in
 * @ports are passed over.
 */
void ftsw_t_ports_free(struct ftsw_port **ports, int n)
{
	struct ftsw_net *fn = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (ports[i])
			fn = ports[i]->sw->fn;
	if (!fn)
		return;
	mutex_lock(&fn->lock);
	for (i = 0; i < n; i++)
		if (ports[i])
			ftsw_port_hide(ports[i]);
	synchronize_rcu();
	for (i = 0; i < n; i++)
		if (ports[i])
			ftsw_port_retire(ports[i], FTSW_REASON_UNBIND, false);
	mutex_unlock(&fn->lock);
}

void ftsw_t_port_free(struct ftsw_port *p)
{
	ftsw_t_ports_free(&p, 1);
}

/* Ports @a and @b of ftsw_t_port_new() are the two ends of a patch cable. */
void ftsw_t_cable(struct ftsw_port *a, struct ftsw_port *b)
{
	a->peer = b;
	b->peer = a;
}

/*
 * Edge port @p's path policy (it has none yet): LIDs @base_lid.. of LMC
 * @lmc, the first @n_offsets offsets allowed, default SL 0, no SL table.
 */
struct ftsw_policy *ftsw_t_edge_policy(struct kunit *test, struct ftsw_port *p,
				       u16 base_lid, u8 lmc, u8 n_offsets)
{
	struct ftsw_policy *pol = ftsw_policy_alloc(0);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, pol);
	pol->base_lid = base_lid;
	pol->lmc = lmc;
	pol->n_offsets = n_offsets;
	for (i = 0; i < n_offsets; i++)
		pol->offsets[i] = i;
	RCU_INIT_POINTER(p->policy, pol);
	return pol;
}
