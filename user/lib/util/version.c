// SPDX-License-Identifier: GPL-2.0
#include "libftsw.h"

const char *ftsw_version(void)
{
	return FTSW_VERSION;
}
