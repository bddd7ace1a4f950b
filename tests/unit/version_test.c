// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "common.h"
#include "libftsw.h"

TEST(version_is_dotted)
{
	const char *v = ftsw_version();

	ASSERT_NE(NULL, v);
	EXPECT_NE(NULL, strchr(v, '.'));
}

TEST_HARNESS_MAIN
