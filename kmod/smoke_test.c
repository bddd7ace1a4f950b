// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke suite: proves the KUnit path (build, load in the VM, results read
 * from debugfs) works end to end.
 */
#include <kunit/test.h>
#include <linux/ftsw.h>

static void ftsw_smoke_limits(struct kunit *test)
{
	/* InfiniBand: unicast LIDs end below the multicast range 0xC000. */
	KUNIT_EXPECT_EQ(test, FTSW_MAX_LID, 0xC000 - 1);
	/* Port 255 is the no-route marker, so ports stop at 254. */
	KUNIT_EXPECT_EQ(test, FTSW_NO_ROUTE, FTSW_MAX_PORTS + 1);
	KUNIT_EXPECT_STREQ(test, FTSW_GENL_NAME, "ftsw");
}

static struct kunit_case ftsw_smoke_cases[] = {
	KUNIT_CASE(ftsw_smoke_limits),
	{}
};

static struct kunit_suite ftsw_smoke_suite = {
	.name = "ftsw_smoke",
	.test_cases = ftsw_smoke_cases,
};

kunit_test_suite(ftsw_smoke_suite);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftsw KUnit suites");
