// SPDX-License-Identifier: GPL-2.0
/*
 * Error codes beside the messages (struct ftsw_err's code): the setter's
 * default, the explicit variant, and the code at the important sites,
 * each provoked here by hand: a file that does not exist (ENOENT) or whose
 * path goes through a regular file (ENOTDIR, the errno open(2) gives), a
 * spec that does not parse (EINVAL), a number or a LID space out of bounds
 * (ERANGE), a generator denied the memory it needs (ENOMEM).
 */
#include <errno.h>
#include <sys/resource.h>

#include "common.h"
#include "util/parse.h"
#include "util/util.h"

TEST(set_defaults_to_einval)
{
	struct ftsw_err err = { "", 0 };

	ftsw_err_set(&err, "switch %u port %u: %s", 3u, 7u, "bad");
	EXPECT_STREQ("switch 3 port 7: bad", err.msg);
	EXPECT_EQ(EINVAL, err.code);
	ftsw_err_set(NULL, "nothing to fill");	/* no crash */
}

TEST(errno_variant_sign_and_zero)
{
	struct ftsw_err err = { "", 0 };

	ftsw_err_errno(&err, ENOENT, "%s: gone", "a.net");
	EXPECT_STREQ("a.net: gone", err.msg);
	EXPECT_EQ(ENOENT, err.code);
	ftsw_err_errno(&err, -EACCES, "x");	/* a -errno return as is */
	EXPECT_EQ(EACCES, err.code);
	ftsw_err_errno(&err, 0, "x");		/* never a "no error" code */
	EXPECT_EQ(EINVAL, err.code);
	ftsw_err_errno(NULL, ENOMEM, "nothing to fill");
}

/* A message wrapped in a prefix keeps both its text and its code. */
TEST(wrap_keeps_text_and_code)
{
	struct ftsw_err err = { "", 0 };

	ftsw_err_errno(&err, ERANGE, "inner %d", 42);
	ftsw_err_errno(&err, err.code, "outer: %s", err.msg);
	EXPECT_STREQ("outer: inner 42", err.msg);
	EXPECT_EQ(ERANGE, err.code);
}

TEST(long_message_truncated_not_overflowed)
{
	struct ftsw_err err = { "", 0 };
	char big[2048];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	ftsw_err_set(&err, "%s", big);
	EXPECT_EQ(sizeof(err.msg) - 1, strlen(err.msg));
	EXPECT_EQ(EINVAL, err.code);
}

TEST(parse_codes)
{
	struct ftsw_err err = { "", 0 };
	uint64_t v;
	double d;

	EXPECT_EQ(-ERANGE, ftsw_parse_u64("--lmc", "8", 0, 7, &v, &err));
	EXPECT_EQ(ERANGE, err.code);
	EXPECT_NE(NULL, strstr(err.msg, "--lmc"));
	EXPECT_EQ(-EINVAL, ftsw_parse_u64("--lmc", "seven", 0, 7, &v, &err));
	EXPECT_EQ(EINVAL, err.code);
	EXPECT_GT(0, ftsw_parse_double("--load", "1.5", 0, 1, &d, &err));
	EXPECT_EQ(ERANGE, err.code);
	EXPECT_GT(0, ftsw_parse_double("--load", "lots", 0, 1, &d, &err));
	EXPECT_EQ(EINVAL, err.code);
	/* 2^64 = 18446744073709551616 is one past the largest u64 */
	EXPECT_GT(0, ftsw_parse_u64("--seed", "18446744073709551616", 0,
				    UINT64_MAX, &v, &err));
	EXPECT_EQ(ERANGE, err.code);
}

TEST(missing_and_unreachable_files)
{
	struct ftsw_err err = { "", 0 };
	struct ftsw_topo *t;

	EXPECT_EQ(NULL, ftsw_net_read("/nonexistent-ftsw/x.net", &err));
	EXPECT_EQ(ENOENT, err.code);
	EXPECT_NE(NULL, strstr(err.msg, "/nonexistent-ftsw/x.net"));
	/* a path through a regular file: open(2) says ENOTDIR */
	EXPECT_EQ(NULL, ftsw_topo_open("/proc/self/status/x.net", &err));
	EXPECT_EQ(ENOTDIR, err.code);
	t = ut_gen("ftmn:4,2");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, ftsw_lfts_read(t, "/nonexistent-ftsw/lfts", 0,
					false, &err));
	EXPECT_EQ(ENOENT, err.code);
	/* the atomic writer's temporary file cannot go in a missing folder */
	EXPECT_NE(0, ftsw_net_write(t, "/nonexistent-ftsw/out.net", &err));
	EXPECT_EQ(ENOENT, err.code);
	ftsw_topo_free(t);
}

TEST(bad_spec_is_einval)
{
	struct ftsw_err err = { "", 0 };

	EXPECT_EQ(NULL, ftsw_topo_gen("ftmn:4,2x", &err));
	EXPECT_EQ(EINVAL, err.code);
	EXPECT_EQ(NULL, ftsw_topo_gen("nosuchkind:1", &err));
	EXPECT_EQ(EINVAL, err.code);
}

/*
 * ftmn:16,3: 2 (16/2)^3 = 1024 hosts; at LMC 7 each takes 128 LIDs, past
 * the unicast limit 0xBFFF = 49151 (1024 x 128 = 131072 already).
 */
TEST(lid_space_is_erange)
{
	struct ftsw_err err = { "", 0 };
	struct ftsw_topo *t = ut_gen("ftmn:16,3");

	ASSERT_NE(NULL, t);
	EXPECT_EQ(NULL, ftsw_routing_new(t, 7, false, &err));
	EXPECT_EQ(ERANGE, err.code);
	ftsw_topo_free(t);
}

/* ftmn:64,6 asks 2 x 32^6 hosts: past the generator's fixed bound. */
TEST(generator_bound_is_erange)
{
	struct ftsw_err err = { "", 0 };

	EXPECT_EQ(NULL, ftsw_topo_gen("ftmn:64,6", &err));
	EXPECT_EQ(ERANGE, err.code);
}

/*
 * ftmn:64,4 (2 x 32^4 = 2 million hosts) is within the generator's bound
 * but needs hundreds of MB: with the address space held to what this
 * process has plus 32 MB, the generator reports ENOMEM (the harness runs
 * each test in its own process, so the limit dies with it).
 */
TEST(out_of_memory_is_enomem)
{
	struct ftsw_err err = { "", 0 };
	unsigned long pages = 0;
	struct rlimit rl;
	FILE *f = fopen("/proc/self/statm", "r");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%lu", &pages));
	fclose(f);
	rl.rlim_cur = rl.rlim_max = pages * sysconf(_SC_PAGESIZE) + (32 << 20);
	ASSERT_EQ(0, setrlimit(RLIMIT_AS, &rl));
	EXPECT_EQ(NULL, ftsw_topo_gen("ftmn:64,4", &err));
	EXPECT_EQ(ENOMEM, err.code);
	EXPECT_NE(NULL, strstr(err.msg, "out of memory"));
}

TEST_HARNESS_MAIN
