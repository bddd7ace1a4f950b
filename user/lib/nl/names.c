// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the UAPI's enums (drop reasons, port event reasons, port
 * kinds), as `ftsw` prints them and /metrics labels them: no netlink, so
 * the fuzzed parts of libftsw (view/) link without the client.
 */
#include "nl/nl.h"

const char *ftsw_drop_name(int reason)
{
	static const char *const names[FTSW_DROP_MAX + 1] = {
		[FTSW_DROP_NO_ROUTE] = "no_route",
		[FTSW_DROP_PORT_DOWN] = "port_down",
		[FTSW_DROP_HOP_LIMIT] = "hop_limit",
		[FTSW_DROP_MISDELIVERED] = "misdelivered",
		[FTSW_DROP_MALFORMED] = "malformed",
		[FTSW_DROP_NOT_FABRIC] = "not_fabric",
		[FTSW_DROP_TX_ERROR] = "tx_error",
		[FTSW_DROP_TOO_BIG] = "too_big",
		[FTSW_DROP_NO_ADDRESS] = "no_address",
		[FTSW_DROP_ANNOUNCE] = "announce",
		[FTSW_DROP_BAD_RESOLVE] = "bad_resolve",
		[FTSW_DROP_BAD_MAD] = "bad_mad",
		[FTSW_DROP_BAD_DR] = "bad_dr",
		[FTSW_DROP_MAD_SINK] = "mad_sink",
		[FTSW_DROP_HOQ_LIFE] = "hoq_life",
		[FTSW_DROP_SWITCH_LIFE] = "switch_life",
		[FTSW_DROP_BAD_CREDIT] = "bad_credit",
		[FTSW_DROP_OVERFLOW] = "overflow",
		[FTSW_DROP_NOT_ACTIVE] = "not_active",
		[FTSW_DROP_PKEY_IN] = "pkey_in",
		[FTSW_DROP_PKEY_OUT] = "pkey_out",
		[FTSW_DROP_PKEY_CA] = "pkey_ca",
	};

	if (reason > 0 && reason <= FTSW_DROP_MAX)
		return names[reason];
	return "unknown";
}

const char *ftsw_reason_name(int reason)
{
	static const char *const names[FTSW_REASON_MAX + 1] = {
		[FTSW_REASON_BIND] = "bind",
		[FTSW_REASON_UNBIND] = "unbind",
		[FTSW_REASON_ADMIN] = "admin",
		[FTSW_REASON_CARRIER] = "carrier",
		[FTSW_REASON_UNREGISTER] = "unregister",
		[FTSW_REASON_RESET] = "reset",
	};

	if (reason > 0 && reason <= FTSW_REASON_MAX)
		return names[reason];
	return "unknown";
}

const char *ftsw_kind_name(int kind)
{
	return kind == FTSW_PORT_EDGE ? "edge" :
	       kind == FTSW_PORT_LINK ? "link" : "unknown";
}
