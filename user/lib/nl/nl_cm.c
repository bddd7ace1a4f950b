// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion management's attributes (Documentation/netlink.md,
 * "Adaptive routing"): a switch's adaptive routing groups (port sets and
 * the set of each LID), staged and published with the LFTs, the fabric's
 * flowlet gap, and congestion control's timer unit.
 */
#include <errno.h>
#include <string.h>

#include <netlink/genl/genl.h>

#include "nl/nl_int.h"

int ftsw_nl_fabric_set_flowlet(struct ftsw_nl *nl, uint64_t gap_ns)
{
	struct nl_msg *msg = ftsw_nl_msg(nl, FTSW_CMD_FABRIC_SET, NLM_F_ACK);

	if (msg)
		nla_put_u64(msg, FTSW_ATTR_AR_FLOWLET_NS, gap_ns);
	return ftsw_nl_request(nl, msg);
}

int ftsw_nl_fabric_set_cc_timer(struct ftsw_nl *nl, uint32_t unit_ns)
{
	struct nl_msg *msg = ftsw_nl_msg(nl, FTSW_CMD_FABRIC_SET, NLM_F_ACK);

	if (msg)
		nla_put_u32(msg, FTSW_ATTR_CC_TIMER_NS, unit_ns);
	return ftsw_nl_request(nl, msg);
}

int ftsw_nl_ar_set(struct ftsw_nl *nl, uint32_t sw,
		   const uint8_t (*sets)[FTSW_AR_SET_BYTES], int nsets,
		   uint16_t first, const uint8_t *grp, uint32_t len)
{
	struct nl_msg *msg;

	if (nsets > FTSW_AR_SETS_MAX || len > FTSW_LFT_SIZE)
		return -EINVAL;
	msg = ftsw_nl_msg_size(nl, FTSW_CMD_AR_SET, NLM_F_ACK,
			       (nsets > 0 ? (size_t)nsets * FTSW_AR_SET_BYTES
					  : 0) + len + 256);
	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		if (nsets >= 0)
			nla_put(msg, FTSW_ATTR_AR_SETS,
				nsets * FTSW_AR_SET_BYTES, sets);
		if (grp && len) {
			nla_put_u16(msg, FTSW_ATTR_LFT_FIRST_LID, first);
			nla_put(msg, FTSW_ATTR_AR_DATA, (int)len, grp);
		}
	}
	return ftsw_nl_request(nl, msg);
}

int ftsw_nl_ar_upload(struct ftsw_nl *nl, uint32_t sw,
		      const struct ftsw_ar_table *t, size_t end, size_t *at)
{
	size_t first, n;

	if (end > FTSW_LFT_SIZE)
		end = FTSW_LFT_SIZE;
	if (at)
		*at = 0;
	if (ftsw_nl_ar_set(nl, sw, t->sets, t->nsets, 0, NULL, 0))
		return -1;
	for (first = 0; first < end; first += n) {
		n = end - first > FTSW_NL_LFT_BLOCK ? FTSW_NL_LFT_BLOCK :
		    end - first;
		if (ftsw_nl_ar_set(nl, sw, NULL, -1, (uint16_t)first,
				   t->grp + first, (uint32_t)n)) {
			if (at)
				*at = first;
			return -1;
		}
	}
	return 0;
}

static int parse_ar(struct nlattr **tb, void *arg)
{
	struct ftsw_ar_table *t = arg;
	uint32_t first, n;

	if (tb[FTSW_ATTR_AR_SIZE])
		t->size = nla_get_u32(tb[FTSW_ATTR_AR_SIZE]);
	if (tb[FTSW_ATTR_SWITCH_STAGED])
		t->staged = true;
	if (tb[FTSW_ATTR_AR_SETS]) {
		n = (uint32_t)nla_len(tb[FTSW_ATTR_AR_SETS]);
		if (n % FTSW_AR_SET_BYTES ||
		    n / FTSW_AR_SET_BYTES > FTSW_AR_SETS_MAX)
			return -EINVAL;
		t->nsets = (uint16_t)(n / FTSW_AR_SET_BYTES);
		memcpy(t->sets, nla_data(tb[FTSW_ATTR_AR_SETS]), n);
	}
	if (!tb[FTSW_ATTR_AR_DATA] || !tb[FTSW_ATTR_LFT_FIRST_LID])
		return 0;
	first = nla_get_u16(tb[FTSW_ATTR_LFT_FIRST_LID]);
	n = (uint32_t)nla_len(tb[FTSW_ATTR_AR_DATA]);
	if (first >= FTSW_LFT_SIZE || n > FTSW_LFT_SIZE - first)
		return -EINVAL;
	memcpy(t->grp + first, nla_data(tb[FTSW_ATTR_AR_DATA]), n);
	return 0;
}

int ftsw_nl_ar_get(struct ftsw_nl *nl, uint32_t sw, bool staged,
		   struct ftsw_ar_table *t)
{
	struct nl_msg *msg = ftsw_nl_msg(nl, FTSW_CMD_AR_GET, NLM_F_DUMP);
	struct ftsw_switch_info si;
	int err;

	memset(t, 0, sizeof(*t));
	/* A dump of an unknown switch is empty: ask for the switch first. */
	err = ftsw_nl_switch_get(nl, sw, &si);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	if (msg) {
		nla_put_u32(msg, FTSW_ATTR_SWITCH_ID, sw);
		if (staged)
			nla_put_flag(msg, FTSW_ATTR_LFT_STAGED);
	}
	return ftsw_nl_transact(nl, msg, parse_ar, t);
}

unsigned ftsw_ar_table_ports(const struct ftsw_ar_table *t, uint16_t set,
			     uint8_t *ports)
{
	unsigned p, n = 0;

	if (!set || set > t->nsets)
		return 0;
	for (p = 1; p < 256; p++)
		if (t->sets[set - 1][p / 8] >> (p % 8) & 1)
			ports[n++] = (uint8_t)p;
	return n;
}
