/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tests' one seeded generator: splitmix64 (Steele, Lea and Flood,
 * 2014). Fixed and portable, so a seed names the same bytes on every
 * machine and a failing case can be replayed. Header-only because the
 * LD_PRELOAD fault shim and the fuzz harnesses are built outside
 * automake's programs. Never for anything that must be unpredictable.
 */
#ifndef RNGD_TESTS_LIB_SPLITMIX64_H
#define RNGD_TESTS_LIB_SPLITMIX64_H

#include <stdint.h>

/* The next 64 bits of the sequence that *@state (the seed) names. */
static inline uint64_t test_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif /* RNGD_TESTS_LIB_SPLITMIX64_H */
