// SPDX-License-Identifier: GPL-2.0
/*
 * libftsw: a port's partition attributes in PORT_SET requests and port
 * replies (kernel side: kmod/nl_pkey.c; Documentation/netlink.md). The
 * tables are arrays of 16-bit keys in host order. An edge port's multicast
 * groups (kmod/nl_mcast.c) ride along: struct ftsw_mcast_ent as it is; and
 * the agents' management keys (PORT_MKEY, PORT_CA_MKEY).
 */
#include <string.h>

#include "nl/nl_int.h"

void ftsw_nl_put_port_pkey(struct nl_msg *msg, const struct ftsw_port_cfg *c)
{
	if (c->pkey >= 0)
		nla_put_u16(msg, FTSW_ATTR_PORT_PKEY, (uint16_t)c->pkey);
	if (c->pkey_table)
		nla_put(msg, FTSW_ATTR_PORT_PKEY_TABLE,
			(int)(2 * c->pkey_table_len), c->pkey_table);
	if (c->pkeys)
		nla_put(msg, FTSW_ATTR_PORT_PKEYS, 2 * FTSW_PKEY_CAP, c->pkeys);
	if (c->ca_pkeys)
		nla_put(msg, FTSW_ATTR_PORT_CA_PKEYS, 2 * FTSW_PKEY_CAP,
			c->ca_pkeys);
	if (c->enforce >= 0)
		nla_put_u8(msg, FTSW_ATTR_PORT_ENFORCE, (uint8_t)c->enforce);
	if (c->mcast)
		nla_put(msg, FTSW_ATTR_PORT_MCAST,
			(int)(c->mcast_n * sizeof(*c->mcast)), c->mcast);
}

/* At most n keys of a binary attribute into out; how many. */
static unsigned keys_from(const struct nlattr *a, uint16_t *out, unsigned n)
{
	unsigned k = (unsigned)nla_len(a) / 2;

	if (k > n)
		k = n;
	memcpy(out, nla_data(a), 2 * k);
	return k;
}

void ftsw_nl_port_mcast_from(struct nlattr **tb, struct ftsw_port_info *pi)
{
	const struct nlattr *a = tb[FTSW_ATTR_PORT_MCAST];
	size_t n;

	pi->mcast_n = 0;
	if (!a)
		return;
	n = (size_t)nla_len(a) / sizeof(pi->mcast[0]);
	if (n > FTSW_MCAST_MAX)
		n = FTSW_MCAST_MAX;
	memcpy(pi->mcast, nla_data(a), n * sizeof(pi->mcast[0]));
	pi->mcast_n = (uint32_t)n;
}

void ftsw_nl_port_pkey_from(struct nlattr **tb, struct ftsw_port_pkeys *pk)
{
	memset(pk, 0, sizeof(*pk));
	if (!tb[FTSW_ATTR_PORT_PKEYS])
		return;
	pk->present = true;
	keys_from(tb[FTSW_ATTR_PORT_PKEYS], pk->pkeys, FTSW_PKEY_CAP);
	if (tb[FTSW_ATTR_PORT_ENFORCE])
		pk->enforce = nla_get_u8(tb[FTSW_ATTR_PORT_ENFORCE]);
	if (tb[FTSW_ATTR_PORT_CA_PKEYS]) {
		pk->has_ca = true;
		keys_from(tb[FTSW_ATTR_PORT_CA_PKEYS], pk->ca_pkeys,
			  FTSW_PKEY_CAP);
	}
	if (tb[FTSW_ATTR_PORT_PKEY])
		pk->pkey_dflt = nla_get_u16(tb[FTSW_ATTR_PORT_PKEY]);
	if (tb[FTSW_ATTR_PORT_PKEY_TABLE_LEN])
		pk->pkey_table_len =
			nla_get_u32(tb[FTSW_ATTR_PORT_PKEY_TABLE_LEN]);
	if (tb[FTSW_ATTR_PORT_PKEY_TABLE]) {
		pk->pkey_table_shown = true;
		pk->pkey_table_n = (uint16_t)keys_from(
			tb[FTSW_ATTR_PORT_PKEY_TABLE], pk->pkey_table,
			FTSW_PKEY_TABLE_ECHO);
	}
}

/* A nest of enum ftsw_mkey_attr; attributes too short are left out. */
static void mkey_from(const struct nlattr *nest, struct ftsw_port_mkey *m)
{
	struct nlattr *a;
	int rem, len;

	m->present = true;
	nla_for_each_nested(a, nest, rem) {
		len = nla_len(a);
		switch (nla_type(a)) {
		case FTSW_MKEY_ATTR_KEY:
			if (len >= 8)
				m->key = nla_get_u64(a);
			break;
		case FTSW_MKEY_ATTR_PROTECT:
			if (len >= 1)
				m->protect = nla_get_u8(a);
			break;
		case FTSW_MKEY_ATTR_LEASE:
			if (len >= 2)
				m->lease = nla_get_u16(a);
			break;
		case FTSW_MKEY_ATTR_LEASE_LEFT:
			if (len >= 4)
				m->lease_left_ms = nla_get_u32(a);
			break;
		case FTSW_MKEY_ATTR_VIOLATIONS:
			if (len >= 2)
				m->violations = nla_get_u16(a);
			break;
		}
	}
}

void ftsw_nl_port_mkey_from(struct nlattr **tb, struct ftsw_port_info *pi)
{
	memset(&pi->mkey, 0, sizeof(pi->mkey));
	memset(&pi->ca_mkey, 0, sizeof(pi->ca_mkey));
	if (tb[FTSW_ATTR_PORT_MKEY])
		mkey_from(tb[FTSW_ATTR_PORT_MKEY], &pi->mkey);
	if (tb[FTSW_ATTR_PORT_CA_MKEY])
		mkey_from(tb[FTSW_ATTR_PORT_CA_MKEY], &pi->ca_mkey);
}
