// SPDX-License-Identifier: GPL-2.0
/*
 * The lossless mode's attributes (Documentation/netlink.md, "Lossless
 * mode"): the fabric's mode, a switch's lifetime, a port's rate, buffer
 * sizes, HOQ lifetime and VL arbitration, and the per-VL state of its
 * buffers (occupancy, credits, waits, discards, what the input head waits
 * for).
 */
#include <errno.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "nl/nl_int.h"

int ftsw_nl_fabric_set_lossless(struct ftsw_nl *nl, bool on)
{
	struct nl_msg *msg = ftsw_nl_msg(nl, FTSW_CMD_FABRIC_SET, NLM_F_ACK);

	if (msg)
		nla_put_u8(msg, FTSW_ATTR_LOSSLESS, on);
	return ftsw_nl_request(nl, msg);
}

/* SWITCH_SET of one u8 attribute of switch @sw. */
static int switch_set_u8(struct ftsw_nl *nl, uint32_t sw, int type,
			 uint8_t v)
{
	struct nl_msg *msg = ftsw_nl_msg(nl, FTSW_CMD_SWITCH_SET, NLM_F_ACK);

	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		nla_put_u8(msg, type, v);
	}
	return ftsw_nl_request(nl, msg);
}

int ftsw_nl_switch_set_life(struct ftsw_nl *nl, uint32_t sw, uint8_t life)
{
	return switch_set_u8(nl, sw, FTSW_ATTR_SWITCH_LIFE, life);
}

int ftsw_nl_switch_set_inband_sm(struct ftsw_nl *nl, uint32_t sw, bool on)
{
	return switch_set_u8(nl, sw, FTSW_ATTR_SWITCH_INBAND_SM, on);
}

const char *ftsw_port_state_name(int state)
{
	static const char *const names[FTSW_PORT_STATE_MAX + 1] = {
		[FTSW_PORT_STATE_DOWN] = "down",
		[FTSW_PORT_STATE_INIT] = "init",
		[FTSW_PORT_STATE_ARMED] = "armed",
		[FTSW_PORT_STATE_ACTIVE] = "active",
	};

	return state > 0 && state <= FTSW_PORT_STATE_MAX ? names[state] : "-";
}

uint64_t ftsw_life_ns(uint8_t life)
{
	/* 4.096 us * 2^life (IBA 18.2.5.4): 4096 ns << life */
	return life >= FTSW_LIFE_INFINITE ? 0 : 4096ULL << life;
}

void ftsw_nl_put_port_ll(struct nl_msg *msg, const struct ftsw_port_cfg *c)
{
	if (c->rate >= 0)
		nla_put_u64(msg, FTSW_ATTR_PORT_RATE, (uint64_t)c->rate);
	if (c->in_buf >= 0)
		nla_put_u32(msg, FTSW_ATTR_PORT_IN_BUF, (uint32_t)c->in_buf);
	if (c->out_buf >= 0)
		nla_put_u32(msg, FTSW_ATTR_PORT_OUT_BUF, (uint32_t)c->out_buf);
	if (c->hoq_life >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_HOQ_LIFE, (uint8_t)c->hoq_life);
	if (c->vl_high_limit >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_VL_HIGH_LIMIT,
			   (uint8_t)c->vl_high_limit);
	if (c->nvlarb_high >= 0)
		nla_put(msg, FTSW_ATTR_PORT_VLARB_HIGH, 2 * c->nvlarb_high,
			c->vlarb_high);
	if (c->nvlarb_low >= 0)
		nla_put(msg, FTSW_ATTR_PORT_VLARB_LOW, 2 * c->nvlarb_low,
			c->vlarb_low);
}

static uint8_t vlarb_from(const struct nlattr *a, uint8_t (*t)[2])
{
	int n = a ? nla_len(a) / 2 : 0;

	if (n > FTSW_VLARB_CAP)
		n = FTSW_VLARB_CAP;
	if (n)
		memcpy(t, nla_data(a), 2 * n);
	return (uint8_t)n;
}

static void vl_from(struct nlattr *nest, struct ftsw_vl_stats *v)
{
	struct nlattr *a;
	int rem;

	v->present = true;
	nla_for_each_nested(a, nest, rem) {
		switch (nla_type(a)) {
		case FTSW_VLSTAT_IN_BYTES:
			v->in_bytes = nla_get_u32(a);
			break;
		case FTSW_VLSTAT_IN_PACKETS:
			v->in_packets = nla_get_u32(a);
			break;
		case FTSW_VLSTAT_OUT_BYTES:
			v->out_bytes = nla_get_u32(a);
			break;
		case FTSW_VLSTAT_OUT_PACKETS:
			v->out_packets = nla_get_u32(a);
			break;
		case FTSW_VLSTAT_CREDITS:
			v->credits = nla_get_u32(a);
			break;
		case FTSW_VLSTAT_IN_WAIT_NS:
			v->in_wait_ns = nla_get_u64(a);
			break;
		case FTSW_VLSTAT_OUT_WAIT_NS:
			v->out_wait_ns = nla_get_u64(a);
			break;
		case FTSW_VLSTAT_HOQ_DISCARDS:
			v->hoq_discards = nla_get_u64(a);
			break;
		case FTSW_VLSTAT_LIFE_DISCARDS:
			v->life_discards = nla_get_u64(a);
			break;
		case FTSW_VLSTAT_HEAD_PORT:
			v->head_port = nla_get_u8(a);
			break;
		case FTSW_VLSTAT_HEAD_VL:
			v->head_vl = nla_get_u8(a);
			break;
		case FTSW_VLSTAT_HEAD_WAIT_NS:
			v->head_wait_ns = nla_get_u64(a);
			break;
		case FTSW_VLSTAT_OUT_CREDIT_WAIT_NS:
			v->out_credit_wait_ns = nla_get_u64(a);
			break;
		}
	}
}

void ftsw_nl_port_ll_from(struct nlattr **tb, struct ftsw_port_ll *ll)
{
	struct nlattr *a;
	int rem;

	memset(ll, 0, sizeof(*ll));
	if (!tb[FTSW_ATTR_PORT_RATE])
		return;
	ll->present = true;
	ll->rate = nla_get_u64(tb[FTSW_ATTR_PORT_RATE]);
	if (tb[FTSW_ATTR_PORT_IN_BUF])
		ll->in_buf = nla_get_u32(tb[FTSW_ATTR_PORT_IN_BUF]);
	if (tb[FTSW_ATTR_PORT_OUT_BUF])
		ll->out_buf = nla_get_u32(tb[FTSW_ATTR_PORT_OUT_BUF]);
	if (tb[FTSW_ATTR_PORT_HOQ_LIFE])
		ll->hoq_life = nla_get_u8(tb[FTSW_ATTR_PORT_HOQ_LIFE]);
	if (tb[FTSW_ATTR_PORT_VL_HIGH_LIMIT])
		ll->vl_high_limit = nla_get_u8(tb[FTSW_ATTR_PORT_VL_HIGH_LIMIT]);
	ll->nvlarb_high = vlarb_from(tb[FTSW_ATTR_PORT_VLARB_HIGH],
				     ll->vlarb_high);
	ll->nvlarb_low = vlarb_from(tb[FTSW_ATTR_PORT_VLARB_LOW],
				    ll->vlarb_low);
	if (!tb[FTSW_ATTR_PORT_VL_STATS])
		return;
	ll->has_vl = true;
	nla_for_each_nested(a, tb[FTSW_ATTR_PORT_VL_STATS], rem) {
		int t = nla_type(a);

		if (t >= 1 && t <= FTSW_NUM_DATA_VL)
			vl_from(a, &ll->vl[t - 1]);
	}
}
