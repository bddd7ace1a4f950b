// SPDX-License-Identifier: GPL-2.0
/*
 * lab up --lossless (Documentation/lab.md, "Lossless mode"): the fabric is
 * put in the kernel's lossless mode before any port is bound (the kernel
 * refuses the change afterwards), then every bound port gets the lab's
 * link rate, buffer sizes and HOQ lifetime, and every switch its lifetime,
 * over the same PORT_SET and SWITCH_SET requests `ftsw port set` and
 * `ftsw switch set` send. The hosts' pfifo qdisc is made with their cable
 * (lab_up.c, make_host).
 */
#include <inttypes.h>

#include "lab/lab.h"
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
	return 0;
}

int lab_lossless_ports(struct ftsw_nl *nl, const struct ftsw_topo *t,
		       const struct ftsw_lab_opts *o, struct ftsw_err *err)
{
	uint32_t i;
	unsigned p;

	if (!o->lossless)
		return 0;
	for (i = 0; i < t->nswitches; i++) {
		uint32_t node = t->switches[i];

		if (o->switch_life_set &&
		    ftsw_nl_switch_set_life(nl, i, o->switch_life)) {
			ftsw_err_errno(err, ftsw_nl_errno(nl), "switch %" PRIu32
				       " lifetime: %s", i, ftsw_nl_error(nl));
			return -1;
		}
		for (p = 1; p <= t->nodes[node].nports; p++) {
			struct ftsw_port_cfg c;

			if (ftsw_port(t, node, p)->peer == FTSW_NONE)
				continue;
			if (!o->link_rate_bits && !o->in_buf && !o->out_buf &&
			    !o->hoq_life_set)
				continue;
			ftsw_port_cfg_init(&c);
			c.switch_id = i;
			c.port = (uint8_t)p;
			if (o->link_rate_bits)
				c.rate = (int64_t)o->link_rate_bits;
			if (o->in_buf)
				c.in_buf = o->in_buf;
			if (o->out_buf)
				c.out_buf = o->out_buf;
			if (o->hoq_life_set)
				c.hoq_life = o->hoq_life;
			if (ftsw_nl_port_set(nl, &c)) {
				ftsw_err_errno(err, ftsw_nl_errno(nl),
					       "switch %" PRIu32 " port %u: "
					       "lossless settings: %s", i, p,
					       ftsw_nl_error(nl));
				return -1;
			}
		}
	}
	return 0;
}
