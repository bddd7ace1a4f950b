// SPDX-License-Identifier: GPL-2.0
/*
 * A lab host's IP multicast groups (lab/mcast.h): /proc/net/igmp and
 * igmp6 as Linux 6.1 prints them (the lines below were read in a lab
 * host; formats from net/ipv4/igmp.c and net/ipv6/mcast.c), and the IPoIB
 * MGIDs of RFC 4391 placed by hand.
 */
#include "common.h"
#include "lab/mcast.h"

static const char igmp[] =
	"Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter\n"
	"1\tlo        :     1      V3\n"
	"\t\t\t\t010000E0     1 0:00000000\t\t0\n"
	"32768\teth0      :     3      V3\n"
	"\t\t\t\t050102EF     2 0:00000000\t\t0\n"
	"\t\t\t\t010000E0     1 0:00000000\t\t0\n";

static const char igmp6[] =
	"1    lo              ff020000000000000000000000000001     1 0000000C 0\n"
	"32768 eth0            ff0200000000000000000001ff000004     1 00000004 0\n"
	"32768 eth0            ff020000000000000000000000000001     1 0000000C 0\n"
	"32768 eth0            ff010000000000000000000000000001     1 00000008 0\n"
	"32768 eth0            ff0e0000000000000000000000001234     1 00000004 0\n";

TEST(igmp_groups_of_eth0)
{
	struct lab_mgroup g[8];
	struct ftsw_err err;
	size_t n;

	ASSERT_EQ(0, lab_mcast_parse(igmp, strlen(igmp), false, "eth0", g, 8,
				     &n, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(2, n);
	/* 0xEF020105 printed from the bytes of 239.2.1.5 (little endian) */
	EXPECT_EQ(4, g[0].family);
	EXPECT_EQ(239, g[0].addr[0]);
	EXPECT_EQ(2, g[0].addr[1]);
	EXPECT_EQ(1, g[0].addr[2]);
	EXPECT_EQ(5, g[0].addr[3]);
	EXPECT_EQ(224, g[1].addr[0]);
	EXPECT_EQ(1, g[1].addr[3]);
	/* lo's alone */
	ASSERT_EQ(0, lab_mcast_parse(igmp, strlen(igmp), false, "lo", g, 8,
				     &n, &err));
	EXPECT_EQ(1, n);
	/* one group of room: too many */
	EXPECT_EQ(-EINVAL, lab_mcast_parse(igmp, strlen(igmp), false, "eth0",
					   g, 1, &n, &err));
	EXPECT_NE(NULL, strstr(err.msg, "/proc/net/igmp:6: eth0 has more than 1"))
		TH_LOG("%s", err.msg);
}

TEST(igmp6_groups_of_eth0)
{
	static const uint8_t sol[16] = { 0xff, 0x02, [11] = 1, 0xff, 0, 0, 4 };
	struct lab_mgroup g[8];
	struct ftsw_err err;
	size_t n;

	ASSERT_EQ(0, lab_mcast_parse(igmp6, strlen(igmp6), true, "eth0", g, 8,
				     &n, &err)) TH_LOG("%s", err.msg);
	/* ff01::1 (interface-local) left out */
	ASSERT_EQ(3, n);
	EXPECT_EQ(6, g[0].family);
	EXPECT_EQ(0, memcmp(g[0].addr, sol, 16));
	EXPECT_EQ(0x0e, g[2].addr[1]);
	EXPECT_EQ(0x34, g[2].addr[15]);
}

TEST(hostile_lines)
{
	static const char *bad4[] = {
		"1\teth0      :     1      V3\n\t\t\t\t010000E     1 0:0\t\t0\n",
		"1\teth0      :     1      V3\n\t\t\t\t0100Z0E0     1 0:0\t\t0\n",
	};
	static const char *bad6[] = {
		"2 eth0 ff02000000000000000000000000001\n",
		"2 eth0 ff02000000000000000000000000000x 1 0 0\n",
		"2\n",
	};
	struct lab_mgroup g[8];
	struct ftsw_err err;
	size_t n, i;

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(-EINVAL, lab_mcast_parse(bad4[i], strlen(bad4[i]),
						   false, "eth0", g, 8, &n,
						   &err));
		EXPECT_NE(NULL, strstr(err.msg, "/proc/net/igmp:2: not a line"))
			TH_LOG("%s", err.msg);
	}
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-EINVAL, lab_mcast_parse(bad6[i], strlen(bad6[i]),
						   true, "eth0", g, 8, &n,
						   &err));
	/* a unicast or non-multicast group line is no group */
	ASSERT_EQ(0, lab_mcast_parse("1 eth0 fe800000000000000000000000000001 1 0 0\n",
				     46, true, "eth0", g, 8, &n, &err));
	EXPECT_EQ(0, n);
}

/*
 * RFC 4391: 224.0.0.1 in the default partition is ff12:401b:ffff::1
 * (the low 28 bits of e0000001), 239.2.1.5 is ff12:401b:ffff::f02:105
 * (ef020105 & 0x0fffffff), ff02::1 is ff12:601b:ffff::1, the broadcast
 * group ff12:401b:ffff::ffff:ffff; a limited key 0x7fff gets the full bit.
 */
TEST(mgids)
{
	struct lab_mgroup a = { 4, { 224, 0, 0, 1 } };
	struct lab_mgroup b = { 4, { 239, 2, 1, 5 } };
	struct lab_mgroup c = { 6, { 0xff, 0x02, [15] = 1 } };
	static const uint8_t ma[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff,
					[15] = 1 };
	static const uint8_t mb[16] = { 0xff, 0x12, 0x40, 0x1b, 0x80, 0x01,
					[12] = 0x0f, 0x02, 0x01, 0x05 };
	static const uint8_t mc[16] = { 0xff, 0x12, 0x60, 0x1b, 0xff, 0xff,
					[15] = 1 };
	static const uint8_t bc[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff,
					[12] = 0xff, 0xff, 0xff, 0xff };
	uint8_t m[16];

	lab_mcast_mgid(&a, 0x7fff, m);
	EXPECT_EQ(0, memcmp(m, ma, 16));
	lab_mcast_mgid(&b, 0x0001, m);
	EXPECT_EQ(0, memcmp(m, mb, 16));
	lab_mcast_mgid(&c, 0xffff, m);
	EXPECT_EQ(0, memcmp(m, mc, 16));
	lab_mcast_bcast_mgid(0xffff, m);
	EXPECT_EQ(0, memcmp(m, bc, 16));
}

TEST_HARNESS_MAIN
