// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of congestion management's rules (Documentation/
 * congestion.md), with the hand-computed values of libftsw's
 * tests/unit/cc_test.c, which the simulator's rules pass: the kernel's
 * own code must give the same answers. Adaptive routing: the choice, the
 * flowlet slot and decision, the group tables' checks and staging.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "ar.h"

/* cc_test.c adaptive_choice_rule */
static void ftsw_cm_ar_pick(struct kunit *test)
{
	/* port 2: 46 blocks queued, no credit; 3 and 4: empty, 92 credit */
	struct ftsw_ar_cand c[] = {
		{ .port = 2, .queued = 46, .credit = 0 },
		{ .port = 3, .queued = 0, .credit = 92 },
		{ .port = 4, .queued = 0, .credit = 92 },
	};

	KUNIT_EXPECT_EQ(test, ftsw_ar_pick(c, 3, 4), 4U);	/* tie: static */
	KUNIT_EXPECT_EQ(test, ftsw_ar_pick(c, 3, 2), 3U);	/* else lowest */
	c[1].credit = 69;			/* 3: -69, 4: -92 */
	KUNIT_EXPECT_EQ(test, ftsw_ar_pick(c, 3, 3), 4U);
	c[0].queued = 0;
	c[0].credit = 100;			/* 2: -100, the best */
	KUNIT_EXPECT_EQ(test, ftsw_ar_pick(c, 3, 4), 2U);
	KUNIT_EXPECT_EQ(test, ftsw_ar_pick(c, 0, 7), 7U);	/* no group */
}

/* cc_test.c flowlet_slot: 256 slots */
static void ftsw_cm_flowlet_slot(struct kunit *test)
{
	/* (1 << 16 ^ 2) * 0x9e3779b1 mod 2^32 = 0xb61ff362: top byte 182 */
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_slot(1, 2), 182U);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_slot(0x10, 0x25), 121U);
}

/*
 * cc_test.c flowlet_decision: gap 100; flow A chooses port 3 at 0, keeps
 * it at 50 and 149 (each moves the slot's time), chooses anew at 249; a
 * flow B taking the slot makes A choose anew at once.
 */
static void ftsw_cm_flowlet_decision(struct kunit *test)
{
	struct ftsw_flowlet f = { 0 };
	u32 a = ftsw_ar_flowlet_key(1, 2), b = ftsw_ar_flowlet_key(3, 2);

	KUNIT_EXPECT_EQ(test, a, 0x10002U);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 0, 100), 0);
	ftsw_ar_flowlet_take(&f, a, 3, 0);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 50, 100), 3);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 149, 100), 3);
	KUNIT_EXPECT_EQ(test, f.last, 149ULL);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 249, 100), 0);
	ftsw_ar_flowlet_take(&f, a, 4, 249);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 250, 100), 4);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, b, 251, 100), 0);
	ftsw_ar_flowlet_take(&f, b, 2, 251);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, a, 252, 100), 0);
	KUNIT_EXPECT_EQ(test, ftsw_ar_flowlet_keep(&f, b, 252, 0), 0);
}

/*
 * Port sets as netlink carries them (32 bytes, bit p % 8 of byte p / 8 is
 * port p): refused when partial, empty, naming port 0 or one past the
 * switch's 8; groups refused past the sets given or the LID space.
 * Staging: sets {2,3} and {5}, groups of LIDs 10..12 = 1, 2, 0; then the
 * sets replaced by one set: LID 11's group (set 2, gone) is cleared.
 */
static void ftsw_cm_ar_tables(struct kunit *test)
{
	u8 sets[2][FTSW_AR_SET_BYTES] = { { 0 } }, grp[3] = { 1, 2, 0 };
	struct ftsw_ar *st = NULL;
	const char *msg = NULL;
	unsigned int p;

	sets[0][0] = 0x0c;		/* ports 2, 3 */
	sets[1][0] = 0x20;		/* port 5 */
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_sets(sets[0], 64, 8, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_sets(sets[0], 63, 8, &msg),
			-EINVAL);
	sets[1][1] = 0x02;		/* port 9: past 8 */
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_sets(sets[0], 64, 8, &msg),
			-EINVAL);
	sets[1][1] = 0;
	sets[1][0] = 0x21;		/* port 0 */
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_sets(sets[0], 64, 8, &msg),
			-EINVAL);
	sets[1][0] = 0;			/* empty */
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_sets(sets[0], 64, 8, &msg),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	sets[1][0] = 0x20;
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_block(10, grp, 3, 2, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_block(10, grp, 3, 1, &msg),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ftsw_ar_check_block(FTSW_MAX_LID, grp, 2, 2,
						  &msg), -EINVAL);

	KUNIT_ASSERT_EQ(test, ftsw_ar_stage(&st, NULL, sets[0], 64, 10, grp,
					    3), 0);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, st->nsets, 2);
	KUNIT_EXPECT_EQ(test, st->size, 64U);
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ar_group(st, 9), NULL);
	KUNIT_ASSERT_NOT_NULL(test, ftsw_ar_group(st, 10));
	for (p = 0; p < 8; p++)
		KUNIT_EXPECT_EQ_MSG(test,
				    (int)test_bit(p, ftsw_ar_group(st, 10)),
				    (int)(p == 2 || p == 3), "port %u", p);
	KUNIT_EXPECT_TRUE(test, test_bit(5, ftsw_ar_group(st, 11)));
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ar_group(st, 12), NULL);
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ar_group(st, 1000), NULL);
	/* one set now: set 2 is gone, so is LID 11's group */
	KUNIT_ASSERT_EQ(test, ftsw_ar_stage(&st, NULL, sets[1], 32, 0, NULL,
					    0), 0);
	KUNIT_EXPECT_EQ(test, st->nsets, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(5, ftsw_ar_group(st, 10)));
	KUNIT_EXPECT_PTR_EQ(test, ftsw_ar_group(st, 11), NULL);
	/* LID 1000: the staged table grows */
	grp[0] = 1;
	KUNIT_ASSERT_EQ(test, ftsw_ar_stage(&st, NULL, NULL, 0, 1000, grp, 1),
			0);
	KUNIT_EXPECT_EQ(test, st->size, 1024U);
	KUNIT_EXPECT_NOT_NULL(test, ftsw_ar_group(st, 1000));
	KUNIT_EXPECT_NOT_NULL(test, ftsw_ar_group(st, 10));
	ftsw_ar_free(st);
}

static struct kunit_case ftsw_cm_cases[] = {
	KUNIT_CASE(ftsw_cm_ar_pick),
	KUNIT_CASE(ftsw_cm_flowlet_slot),
	KUNIT_CASE(ftsw_cm_flowlet_decision),
	KUNIT_CASE(ftsw_cm_ar_tables),
	{}
};

static struct kunit_suite ftsw_cm_suite = {
	.name = "ftsw_cm",
	.test_cases = ftsw_cm_cases,
};

kunit_test_suite(ftsw_cm_suite);
