/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Division of 32-bit numerators by a run-time invariant divisor with one
 * 64x64->128 multiplication (Lemire, Kaser, Kurz: "Faster remainder by
 * direct computation", 2019): with M = ceil(2^64 / d), n / d and n % d are
 * exact for all 32-bit n and d. Used on the per-destination hot paths.
 */
#ifndef LIBFTSW_FASTDIV_H
#define LIBFTSW_FASTDIV_H

#include <stdint.h>

struct fdiv {
	uint64_t m;
	uint32_t d;
};

static inline struct fdiv fdiv_make(uint32_t d)
{
	struct fdiv f = { UINT64_MAX / d + 1, d };

	if (d == 1)
		f.m = 0;	/* special-cased below */
	return f;
}

static inline uint32_t fdiv_div(uint32_t n, struct fdiv f)
{
	if (f.d == 1)
		return n;
	return (uint32_t)(((unsigned __int128)f.m * n) >> 64);
}

static inline uint32_t fdiv_mod(uint32_t n, struct fdiv f)
{
	uint64_t low;

	if (f.d == 1)
		return 0;
	low = f.m * n;
	return (uint32_t)(((unsigned __int128)low * f.d) >> 64);
}

#endif
