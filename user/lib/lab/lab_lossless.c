// SPDX-License-Identifier: GPL-2.0
/*
 * lab up --lossless (Documentation/lab.md, "Lossless mode"): the fabric is
 * put in the kernel's lossless mode before any port is bound (the kernel
 * refuses the change afterwards), then every bound port gets the lab's
 * link rate, buffer sizes and HOQ lifetime, and every switch its lifetime,
 * over the same PORT_SET and SWITCH_SET requests `ftsw port set` and
 * `ftsw switch set` send. The hosts' pfifo qdisc is made with their cable
 * (lab_up.c, make_host). lab up --adaptive: the routing's adaptive groups,
 * staged beside the LFTs (Documentation/congestion.md); --cc-timer-unit:
 * the fabric's CCTI_Timer unit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "route/routing.h"
#include "lab/lab_int.h"

int lab_lossless_fabric(struct ftsw_nl *nl, const struct ftsw_lab_opts *o,
			struct ftsw_err *err)
{
	if (!o->lossless)
		return 0;
	if (ftsw_nl_fabric_set_lossless(nl, true)) {
		ftsw_err_errno(err, ftsw_nl_errno(nl), "lossless mode: %s",
			       ftsw_nl_error(nl));
		return -1;
	}
	if (o->cc_timer_ns && ftsw_nl_fabric_set_cc_timer(nl, o->cc_timer_ns)) {
		ftsw_err_errno(err, ftsw_nl_errno(nl), "CC timer unit: %s",
			       ftsw_nl_error(nl));
		return -1;
	}
	return 0;
}

int lab_lossless_ports(struct ftsw_nl *nl, const struct ftsw_topo *t,
		       const struct ftsw_lab_opts *o, struct ftsw_err *err)
{
	struct ftsw_sw_port it;
	uint32_t i;

	if (!o->lossless)
		return 0;
	for (i = 0; o->switch_life_set && i < t->nswitches; i++)
		if (ftsw_nl_switch_set_life(nl, i, o->switch_life)) {
			ftsw_err_errno(err, ftsw_nl_errno(nl), "switch %" PRIu32
				       " lifetime: %s", i, ftsw_nl_error(nl));
			return -1;
		}
	if (!o->link_rate_bits && !o->in_buf && !o->out_buf &&
	    !o->hoq_life_set)
		return 0;
	ftsw_for_each_switch_port(t, &it, FTSW_SWP_CABLED) {
		struct ftsw_port_cfg c;

		ftsw_port_cfg_init(&c);
		c.switch_id = it.sw;
		c.port = (uint8_t)it.port;
		if (o->link_rate_bits)
			c.rate = (int64_t)o->link_rate_bits;
		if (o->in_buf)
			c.in_buf = o->in_buf;
		if (o->out_buf)
			c.out_buf = o->out_buf;
		if (o->hoq_life_set)
			c.hoq_life = o->hoq_life;
		if (ftsw_nl_port_set(nl, &c)) {
			ftsw_err_errno(err, ftsw_nl_errno(nl), "switch %" PRIu32
				       " port %u: lossless settings: %s",
				       it.sw, it.port, ftsw_nl_error(nl));
			return -1;
		}
	}
	return 0;
}

/*
 * A routing's adaptive groups as the kernel takes them (one table per
 * switch): the routing's port sets the switch uses, numbered 1.. in the
 * order first met; more than FTSW_AR_SETS_MAX is refused.
 */
static int ar_table_of(const struct ftsw_routing *r, uint32_t sw,
		       struct ftsw_ar_table *t, uint16_t *local,
		       struct ftsw_err *err)
{
	const struct ftsw_ar *ar = r->ar;
	uint32_t lid, n = r->lft_size < FTSW_LFT_SIZE ? (uint32_t)r->lft_size :
			  FTSW_LFT_SIZE;
	unsigned p;

	memset(t, 0, sizeof(*t));
	memset(local, 0, ar->nsets * sizeof(*local));
	for (lid = 0; lid < n; lid++) {
		uint16_t g = ar->grp[(size_t)sw * r->lft_size + lid];

		if (!g)
			continue;
		if (!local[g]) {
			if (t->nsets == FTSW_AR_SETS_MAX) {
				ftsw_err_set(err, "switch %" PRIu32 ": more than "
					     "%u adaptive port sets", sw,
					     FTSW_AR_SETS_MAX);
				return -1;
			}
			local[g] = ++t->nsets;
			for (p = 1; p < 255; p++)
				if (ar->sets[g][p / 64] >> (p % 64) & 1)
					t->sets[t->nsets - 1][p / 8] |=
						(uint8_t)(1u << (p % 8));
		}
		t->grp[lid] = (uint8_t)local[g];
	}
	return 0;
}

int lab_upload_groups(struct ftsw_nl *nl, const struct ftsw_routing *r,
		      const struct ftsw_lab_opts *o, struct ftsw_err *err)
{
	struct ftsw_ar_table *t;
	uint16_t *local;
	uint32_t i;
	size_t at;
	int rc = -1;

	if (!r->ar)
		return 0;
	t = malloc(sizeof(*t));
	local = calloc(r->ar->nsets, sizeof(*local));
	if (!t || !local) {
		ftsw_err_set(err, "adaptive groups: out of memory");
		goto out;
	}
	if (o->flowlet_ns && ftsw_nl_fabric_set_flowlet(nl, o->flowlet_ns)) {
		ftsw_err_errno(err, ftsw_nl_errno(nl), "flowlet gap: %s",
			       ftsw_nl_error(nl));
		goto out;
	}
	for (i = 0; i < r->nswitches; i++) {
		if (ar_table_of(r, i, t, local, err))
			goto out;
		if (!t->nsets)
			continue;
		if (ftsw_nl_ar_upload(nl, i, t, r->lft_size, &at)) {
			ftsw_err_errno(err, ftsw_nl_errno(nl), "switch %" PRIu32
				       " adaptive groups at LID %zu: %s", i, at,
				       ftsw_nl_error(nl));
			goto out;
		}
	}
	rc = 0;
out:
	free(t);
	free(local);
	return rc;
}
