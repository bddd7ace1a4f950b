/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IP multicast groups of a lab host and their InfiniBand names (private
 * to user/lib/lab): what a host's IPoIB driver would join through the SA.
 * Pure functions on text and bytes (unit tested and fuzzed); the daemon
 * that polls the hosts and joins is lab_mcast.c.
 *
 * A host's memberships are its kernel's: /proc/net/igmp (IPv4: a device
 * line "IDX\tNAME : COUNT VERSION", then one line per group, the group's
 * network-order address printed as a host-order 32-bit hex number) and
 * /proc/net/igmp6 (IPv6: "IFINDEX NAME ADDRESS(32 hex) USERS FLAGS
 * TIMER" per group), read in the host's network namespace.
 *
 * The MGID of an IP group is IPoIB's (RFC 4391, 4.1 and 4.2; Linux's
 * ip_ib_mc_map() and ipv6_ib_mc_map()): ff1S:401b:PKEY:: followed by the
 * low 28 bits of the IPv4 group, ff1S:601b:PKEY: followed by the low 80
 * bits of the IPv6 group; S the scope (2, link-local, as IPoIB's default
 * broadcast group), PKEY the partition's key with the full-member bit. The
 * IPv4 broadcast group is ff1S:401b:PKEY::ffff:ffff.
 */
#ifndef LIBFTSW_LAB_MCAST_H
#define LIBFTSW_LAB_MCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define LAB_MCAST_SCOPE		2	/* link-local */
#define LAB_MCAST_MAX_GROUPS	64	/* per host */

/* An IP multicast group: family 4 (addr[0..3]) or 6 (addr[0..15]). */
struct lab_mgroup {
	uint8_t family;
	uint8_t addr[16];
};

bool lab_mgroup_eq(const struct lab_mgroup *a, const struct lab_mgroup *b);

/*
 * The groups of device dev in text (len bytes, /proc/net/igmp's or, with
 * v6, /proc/net/igmp6's content) into out[max], *n of them: multicast
 * addresses only (224.0.0.0/4, ff00::/8), interface-local IPv6 groups
 * (ff01::/16, never on a link) left out. A line that does not parse is
 * an error naming it (the kernel's format changed: better said than
 * guessed); more than max groups is one too. 0 or -EINVAL.
 */
int lab_mcast_parse(const char *text, size_t len, bool v6, const char *dev,
		    struct lab_mgroup *out, size_t max, size_t *n,
		    struct ftsw_err *err);

/* The MGID of group g in the partition of pkey (full-member bit set). */
void lab_mcast_mgid(const struct lab_mgroup *g, uint16_t pkey,
		    uint8_t mgid[16]);
/* The IPv4 broadcast group's MGID in the partition of pkey. */
void lab_mcast_bcast_mgid(uint16_t pkey, uint8_t mgid[16]);

#endif
