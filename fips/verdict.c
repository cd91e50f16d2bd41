/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FIPS 140-2 pass/fail rules, as amended by change notice 1 of
 * 2001-10-10 and as rng-tools (rng-tools-debian 2.x fips.c) decides them at
 * the edges. The peer's counts and verdicts were reproduced on edge inputs;
 * see docs/ARCHITECTURE.md, "The gate", for the rules and their tests.
 *
 *   monobit   passes iff 9725 < ones < 10275 (strict at both ends)
 *   poker     X = 16/5000 * sum f(i)^2 - 5000 passes iff 2.16 < X < 46.17;
 *             sum f(i)^2 is an integer, so this is exactly
 *             1563176 <= sum <= 1576928 and no floating point is needed
 *   runs      per bit value, runs of length 1..5 and 6+ pass iff each count
 *             lies in its inclusive interval (change notice 1 table)
 *   long run  a run of 26 or more bits of either value fails
 */
#include <config.h>

#include "fips/internal.h"

#define MONOBIT_LOW_EXCLUSIVE 9725
#define MONOBIT_HIGH_EXCLUSIVE 10275

/* 2.16 < X  <=>  sum > (5000 + 2.16) * 5000 / 16 = 1563175. */
#define POKER_SUM_MIN 1563176
/* X < 46.17 <=>  sum < (5000 + 46.17) * 5000 / 16 = 1576928.125. */
#define POKER_SUM_MAX 1576928

#define LONG_RUN_FAIL 26

static const uint32_t runs_interval[FIPS_RUN_BUCKETS][2] = {
	{ 2315, 2685 },
	{ 1114, 1386 },
	{ 527, 723 },
	{ 240, 384 },
	{ 103, 209 },
	{ 103, 209 },  /* 6 and more */
};

bool fips_monobit_ok(uint32_t ones)
{
	return ones > MONOBIT_LOW_EXCLUSIVE && ones < MONOBIT_HIGH_EXCLUSIVE;
}

bool fips_poker_ok(uint32_t poker_sum)
{
	return poker_sum >= POKER_SUM_MIN && poker_sum <= POKER_SUM_MAX;
}

bool fips_runs_ok(const uint32_t runs[2][FIPS_RUN_BUCKETS])
{
	bool ok = true;

	for (unsigned int v = 0; v < 2; v++)
		for (unsigned int k = 0; k < FIPS_RUN_BUCKETS; k++)
			ok &= runs[v][k] >= runs_interval[k][0] &&
			      runs[v][k] <= runs_interval[k][1];
	return ok;
}

bool fips_long_run_ok(uint32_t longest_run)
{
	return longest_run < LONG_RUN_FAIL;
}

unsigned int fips_block_verdict(const struct fips_block_stats *st)
{
	unsigned int fail = 0;

	if (!fips_monobit_ok(st->ones))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_MONOBIT);
	if (!fips_poker_ok(st->poker_sum))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_POKER);
	if (!fips_runs_ok(st->runs))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_RUNS);
	if (!fips_long_run_ok(st->longest_run))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_LONG_RUN);
	return fail;
}
