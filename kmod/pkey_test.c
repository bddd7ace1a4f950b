// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of ftsw: partition keys (pkey.c). Expected values by hand
 * from IBA vol. 1, 10.9: a key's low 15 bits name the partition, bit 15
 * is full membership; 0x0000 and 0x8000 are invalid; a receiver matches
 * when the partitions are equal and the packet's key or the entry is full
 * (two limited members may not talk); a sender's key may not claim more
 * membership than its table's entry.
 */
#include <kunit/test.h>
#include "pkey.h"

static void ftsw_pkey_rules(struct kunit *test)
{
	/* receiving: at least one full member */
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_rcv(0xffff, 0xffff));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_rcv(0x7fff, 0xffff));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_rcv(0xffff, 0x7fff));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_rcv(0x7fff, 0x7fff));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_rcv(0x8001, 0x0001));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_rcv(0x8001, 0x8002));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_rcv(0x8000, 0x8000));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_rcv(0x0000, 0x0000));
	/* sending: no more membership than granted */
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_send(0xffff, 0xffff));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_send(0xffff, 0x7fff));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_send(0x7fff, 0x7fff));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_match_send(0x7fff, 0xffff));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_send(0x8001, 0x8002));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_match_send(0x8000, 0xffff));
}

static void ftsw_pkey_tables(struct kunit *test)
{
	u16 tab[FTSW_PKEY_CAP] = { 0x7fff, 0x8001 };

	/* TenantA's host (default partition limited, 0x8001 full) */
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0x8001, false));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0x0001, false));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0xffff, false));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_in_table(tab, 0x7fff, false));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_in_table(tab, 0x8002, false));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0x7fff, true));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_in_table(tab, 0xffff, true));
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0x8001, true));
	/* the last entry counts too; empty entries match nothing */
	tab[FTSW_PKEY_CAP - 1] = 0x8002;
	KUNIT_EXPECT_TRUE(test, ftsw_pkey_in_table(tab, 0x8002, true));
	memset(tab, 0, sizeof(tab));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_in_table(tab, 0x0000, false));
	KUNIT_EXPECT_FALSE(test, ftsw_pkey_in_table(tab, 0x8000, true));
}

static void ftsw_pkey_choice(struct kunit *test)
{
	u16 ca[FTSW_PKEY_CAP] = { 0x7fff, 0x8001 };
	struct ftsw_pkey_tab *t = ftsw_pkey_tab_alloc(10, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* no table: the CA's entry 0 */
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(NULL, ca, 5), 0x7fff);
	/* the table's key by DLID, else its default, else entry 0 */
	t->key[5] = 0x8001;
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 5), 0x8001);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 6), 0x7fff);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 100), 0x7fff);
	t->dflt = 0x8002;
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 6), 0x8002);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 9), 0x8002);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_pick(t, ca, 10), 0x8002);
	kfree(t);
	/* a GMP: 0xFFFF asks for the default partition at the CA's
	 * membership (limited here); another key is the host's choice
	 */
	KUNIT_EXPECT_EQ(test, ftsw_pkey_gmp(ca, 0xffff), 0x7fff);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_gmp(ca, 0x8001), 0x8001);
	ca[0] = 0x8003;
	ca[1] = 0xffff;
	KUNIT_EXPECT_EQ(test, ftsw_pkey_gmp(ca, 0xffff), 0xffff);
	ca[1] = 0x8004;
	KUNIT_EXPECT_EQ(test, ftsw_pkey_gmp(ca, 0xffff), 0x8003);
}

static void ftsw_pkey_netlink_table(struct kunit *test)
{
	u16 keys[4] = { 0, 0xffff, 0x0001, 0x8001 };
	const char *msg = NULL;

	KUNIT_EXPECT_EQ(test, ftsw_pkey_tab_check(keys, 4, &msg), 0);
	keys[2] = 0x8000;
	KUNIT_EXPECT_EQ(test, ftsw_pkey_tab_check(keys, 4, &msg), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, msg);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_tab_check(keys, 2, &msg), 0);
	KUNIT_EXPECT_EQ(test, ftsw_pkey_tab_check(keys, FTSW_PKEY_TABLE_MAX + 1,
						  &msg), -EINVAL);
}

static struct kunit_case ftsw_pkey_cases[] = {
	KUNIT_CASE(ftsw_pkey_rules),
	KUNIT_CASE(ftsw_pkey_tables),
	KUNIT_CASE(ftsw_pkey_choice),
	KUNIT_CASE(ftsw_pkey_netlink_table),
	{}
};

static struct kunit_suite ftsw_pkey_suite = {
	.name = "ftsw_pkey",
	.test_cases = ftsw_pkey_cases,
};

kunit_test_suites(&ftsw_pkey_suite);
