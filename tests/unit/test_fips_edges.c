/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every FIPS 140-2 threshold of the gate, on blocks built to sit exactly on
 * the edge (they pass) and one step beyond it (they fail), each compared
 * with the bit-by-bit reference. Edges as in fips/verdict.c: change notice
 * 1 (2001-10-10) and rng-tools.
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "fips/fips.h"
#include "tests/reference/fips_reference.h"
#include "tests/unit/fips_test_blocks.h"

static const uint32_t runs_lo[6] = { 2315, 1114, 527, 240, 103, 103 };
static const uint32_t runs_hi[6] = { 2685, 1386, 723, 384, 209, 209 };

/* Fast statistics equal the reference's; returns the gate's verdict. */
static unsigned int verdict_checked(const uint8_t *block, struct fips_block_stats *st)
{
	struct ref_stats rs;

	fips_block_stats(block, st);
	ref_stats(block, &rs);
	assert_int_equal(st->ones, rs.ones);
	assert_int_equal(st->poker_sum, rs.poker_sum);
	assert_int_equal(st->longest_run, rs.longest_run);
	assert_memory_equal(st->runs, rs.runs, sizeof(rs.runs));
	return fips_block_verdict(st);
}

static void rules_at_their_edges(void **state)
{
	uint32_t runs[2][FIPS_RUN_BUCKETS];

	(void)state;
	assert_false(fips_monobit_ok(9725));
	assert_true(fips_monobit_ok(9726));
	assert_true(fips_monobit_ok(10274));
	assert_false(fips_monobit_ok(10275));
	assert_false(fips_poker_ok(1563175));
	assert_true(fips_poker_ok(1563176));
	assert_true(fips_poker_ok(1576928));
	assert_false(fips_poker_ok(1576929));
	assert_true(fips_long_run_ok(25));
	assert_false(fips_long_run_ok(26));
	for (unsigned int v = 0; v < 2; v++) {
		for (unsigned int k = 0; k < 6; k++) {
			const uint32_t beyond[4] = { runs_lo[k] - 1, runs_lo[k], runs_hi[k], runs_hi[k] + 1 };

			for (unsigned int e = 0; e < 4; e++) {
				memcpy(runs[0], runs_lo, sizeof(runs_lo));
				memcpy(runs[1], runs_hi, sizeof(runs_hi));
				runs[v][k] = beyond[e];
				assert_int_equal(fips_runs_ok(runs), e == 1 || e == 2);
			}
		}
	}
}

/* ones exactly at @edge passes; one bit further (@step = -1 or +1) fails. */
static void monobit_edge(uint32_t edge, int step, uint64_t seed)
{
	uint8_t block[TB_BLOCK_BYTES];
	struct fips_block_stats st;
	struct tb_rng r;
	unsigned int want = step > 0;

	tb_seed(&r, seed);
	assert_int_equal(tb_monobit_block(block, &r, edge), 0);
	assert_int_equal(verdict_checked(block, &st), 0);
	assert_int_equal(st.ones, edge);
	for (;;) {
		uint32_t i = tb_below(&r, TB_BLOCK_BITS);

		if (tb_get_bit(block, i) == want)
			continue;
		tb_flip_bit(block, i);
		if ((tb_reference_failures(block) & ~TB_MONOBIT) == 0)
			break;
		tb_flip_bit(block, i);
	}
	assert_int_equal(verdict_checked(block, &st), FIPS_FAIL_BIT(FIPS_TEST_MONOBIT));
	assert_int_equal(st.ones, (uint32_t)((int)edge + step));
}

static void monobit_low_edge(void **state)
{
	(void)state;
	monobit_edge(9726, -1, 11);
}

static void monobit_high_edge(void **state)
{
	(void)state;
	monobit_edge(10274, +1, 12);
}

/*
 * Sums of f(i)^2 over 5000 nibbles are always even, so one bit beyond an
 * edge is two beyond it in the sum: 1563174 and 1576930.
 */
static void poker_edge(uint32_t edge, bool raise, uint64_t seed)
{
	uint8_t block[TB_BLOCK_BYTES];
	struct fips_block_stats st;
	struct tb_rng r;
	uint32_t flip;

	tb_seed(&r, seed);
	assert_int_equal(tb_poker_block(block, &r, edge, raise, &flip), 0);
	assert_int_equal(verdict_checked(block, &st), 0);
	assert_int_equal(st.poker_sum, edge);
	tb_flip_bit(block, flip);
	assert_int_equal(verdict_checked(block, &st), FIPS_FAIL_BIT(FIPS_TEST_POKER));
	assert_int_equal(st.poker_sum, raise ? edge + 2 : edge - 2);
}

static void poker_low_edge(void **state)
{
	(void)state;
	poker_edge(1563176, false, 21);
}

static void poker_high_edge(void **state)
{
	(void)state;
	poker_edge(1576928, true, 22);
}

/*
 * The runs and long-run edges are checked for each bit value at each of
 * @places places (a run length's bucket, a run's start), on blocks drawn
 * from one generator seeded with @seed, so a failing case can be re-made.
 */
static void each_value_and_place(uint64_t seed, size_t places,
				 void (*check)(struct tb_rng *r, unsigned int value, size_t place))
{
	struct tb_rng r;

	tb_seed(&r, seed);
	for (unsigned int v = 0; v < 2; v++)
		for (size_t p = 0; p < places; p++)
			check(&r, v, p);
}

/* Bucket @k of @value's runs: below, at the low edge, at the high edge, above. */
static void runs_bucket_edges(struct tb_rng *r, unsigned int value, size_t k)
{
	const uint32_t count[4] = { runs_lo[k] - 1, runs_lo[k], runs_hi[k], runs_hi[k] + 1 };
	uint8_t block[TB_BLOCK_BYTES];
	struct fips_block_stats st;

	for (unsigned int e = 0; e < 4; e++) {
		unsigned int want = e == 1 || e == 2 ? 0 : FIPS_FAIL_BIT(FIPS_TEST_RUNS);

		assert_int_equal(tb_runs_block(block, r, value, (unsigned int)k, count[e]), 0);
		assert_int_equal(verdict_checked(block, &st), want);
		assert_int_equal(st.runs[value][k], count[e]);
	}
}

/* 6 buckets x 2 bit values x 4 counts (below, low edge, high edge, above). */
static void runs_edges(void **state)
{
	(void)state;
	each_value_and_place(31, FIPS_RUN_BUCKETS, runs_bucket_edges);
}

/* A passing block with a run of 25 @value bits at @pos that still passes. */
static void planted_block(uint8_t *block, struct tb_rng *r, uint32_t pos, unsigned int value)
{
	do {
		tb_passing_block(block, r);
		tb_plant_run(block, pos, 25, value);
	} while (tb_reference_failures(block));
}

/* Block start, block end, inside one byte's reach, across bytes and words. */
static const uint32_t long_run_starts[] = { 0, TB_BLOCK_BITS - 25, 3, 1005, 64 * 100 - 10, 7 };

static void long_run_edge_at(struct tb_rng *r, unsigned int value, size_t s)
{
	uint32_t pos = long_run_starts[s];
	uint8_t block[TB_BLOCK_BYTES];
	struct fips_block_stats st;

	planted_block(block, r, pos, value);
	assert_int_equal(verdict_checked(block, &st), 0);
	assert_int_equal(st.longest_run, 25);
	/* One more bit of the same value, at the end that has room. */
	if (pos + 25 < TB_BLOCK_BITS)
		tb_plant_run(block, pos, 26, value);
	else
		tb_plant_run(block, pos - 1, 26, value);
	assert_true(verdict_checked(block, &st) & FIPS_FAIL_BIT(FIPS_TEST_LONG_RUN));
	assert_int_equal(st.longest_run, 26);
}

static void long_run_edges(void **state)
{
	(void)state;
	each_value_and_place(41, sizeof(long_run_starts) / sizeof(long_run_starts[0]), long_run_edge_at);
}

/* Runs end at the block's end: 25 + 25 across two blocks is no long run. */
static void runs_do_not_cross_blocks(void **state)
{
	uint8_t a[TB_BLOCK_BYTES], b[TB_BLOCK_BYTES];
	struct fips_gate_config cfg;
	struct fips_gate g;
	struct tb_rng r;

	(void)state;
	tb_seed(&r, 51);
	planted_block(a, &r, TB_BLOCK_BITS - 25, 1);
	planted_block(b, &r, 0, 1);
	fips_gate_config_default(&cfg);
	cfg.sp800_90b = false;
	assert_int_equal(fips_gate_init(&g, &cfg), 0);
	assert_int_equal(fips_gate_check(&g, a), 0);
	assert_int_equal(fips_gate_check(&g, b), 0);
	fips_gate_destroy(&g);
}

/* All zeros and all ones: one run of 20000 in the 6+ bucket. */
static void uniform_blocks(void **state)
{
	uint8_t block[TB_BLOCK_BYTES];
	struct fips_block_stats st;

	(void)state;
	for (int fill = 0; fill < 2; fill++) {
		memset(block, fill ? 0xff : 0, sizeof(block));
		assert_int_equal(verdict_checked(block, &st),
				 FIPS_FAIL_BIT(FIPS_TEST_MONOBIT) | FIPS_FAIL_BIT(FIPS_TEST_POKER) |
				 FIPS_FAIL_BIT(FIPS_TEST_RUNS) | FIPS_FAIL_BIT(FIPS_TEST_LONG_RUN));
		assert_int_equal(st.longest_run, TB_BLOCK_BITS);
		assert_int_equal(st.runs[fill][5], 1);
		assert_int_equal(st.poker_sum, 5000 * 5000);
	}
}

RNGD_TEST_MAIN(
	cmocka_unit_test(rules_at_their_edges),
	cmocka_unit_test(monobit_low_edge),
	cmocka_unit_test(monobit_high_edge),
	cmocka_unit_test(poker_low_edge),
	cmocka_unit_test(poker_high_edge),
	cmocka_unit_test(runs_edges),
	cmocka_unit_test(long_run_edges),
	cmocka_unit_test(runs_do_not_cross_blocks),
	cmocka_unit_test(uniform_blocks)
)
