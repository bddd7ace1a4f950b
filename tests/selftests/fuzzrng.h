/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seeded random streams of the kernel campaigns (nlfuzz.c, madfuzz.c):
 * unit @i of seed @seed draws from a generator of its own (splitmix64),
 * seeded by (seed, i) alone, so any unit can be built again on its own.
 */
#ifndef FTSW_FUZZRNG_H
#define FTSW_FUZZRNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* splitmix64: unit @i of seed @seed has its own stream. */
static inline void rng_unit(struct rng *r, uint64_t seed, uint64_t i)
{
	r->s = mix64(seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) ^
	       mix64(i + 0x2545f4914f6cdd1dULL);
}

static inline uint64_t rnd64(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

/* Uniform in [0, n), n > 0. */
static inline uint32_t rnd(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rnd64(r) >> 32) * (uint64_t)n) >> 32);
}

/* True with probability @p percent. */
static inline bool pct(struct rng *r, unsigned int p)
{
	return rnd(r, 100) < p;
}

#define PICK(r, arr) ((arr)[rnd((r), sizeof(arr) / sizeof((arr)[0]))])

static inline void rnd_bytes(struct rng *r, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(rnd64(r) >> 56);
}

#endif
