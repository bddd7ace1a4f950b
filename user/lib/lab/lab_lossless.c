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
