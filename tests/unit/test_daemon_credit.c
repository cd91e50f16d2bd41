/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The credit policy: bits x entropy_per_bit, never more, split exactly over -s parts. */
#include <config.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "fips/fips.h"
#include "rngd/credit.h"
#include "sources/source.h"

static void test_credit_for_a_block(void **state)
{
	(void)state;
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 1.0), FIPS_BLOCK_BITS);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 0.5), FIPS_BLOCK_BITS / 2);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 0.0), 0);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 0.75), 15000);
	/* Rounded down: never claim more than configured. */
	assert_int_equal(credit_bits_for(3, 0.3), 7);          /* 7.2 */
	assert_int_equal(credit_bits_for(1, 0.99), 7);         /* 7.92 */
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 0.99999), 19999);
	assert_int_equal(credit_bits_for(0, 1.0), 0);
}

static void test_credit_rejects_nonsense(void **state)
{
	(void)state;
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, -0.1), 0);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, 1.01), 0);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, NAN), 0);
	assert_int_equal(credit_bits_for(FIPS_BLOCK_BYTES, INFINITY), 0);
	assert_false(credit_entropy_per_bit_valid(-0.0001));
	assert_false(credit_entropy_per_bit_valid(NAN));
	assert_true(credit_entropy_per_bit_valid(0.0));
	assert_true(credit_entropy_per_bit_valid(1.0));
}

/* Splitting a block's credit over parts of every size adds up exactly and
 * never gives a part more than 8 bits per byte. */
static void test_split_adds_up(void **state)
{
	static const double epbs[] = { 0.0, 0.1, 1.0 / 3.0, 0.5, 0.9, 1.0 };

	(void)state;
	for (size_t e = 0; e < sizeof(epbs) / sizeof(epbs[0]); e++) {
		for (size_t step = 1; step <= FIPS_BLOCK_BYTES + 1; step += (step < 70 ? 1 : 97)) {
			unsigned int total = credit_bits_for(FIPS_BLOCK_BYTES, epbs[e]);
			unsigned int left = total, sum = 0;
			size_t bytes = FIPS_BLOCK_BYTES;

			while (bytes) {
				size_t part = bytes < step ? bytes : step;
				unsigned int c = credit_split(left, bytes, part);

				assert_true(c <= part * 8);
				assert_true(c <= left);
				sum += c;
				left -= c;
				bytes -= part;
			}
			assert_int_equal(sum, total);
			assert_int_equal(left, 0);
		}
	}
}

static void test_split_edges(void **state)
{
	(void)state;
	assert_int_equal(credit_split(100, 0, 10), 0);
	assert_int_equal(credit_split(100, 10, 10), 100);
	assert_int_equal(credit_split(100, 10, 20), 100);
	assert_int_equal(credit_split(0, 2500, 64), 0);
	assert_int_equal(credit_split(20000, 2500, 64), 512);
}

/* A source whose facts raise its default (RDSEED over RDRAND, RNDRRS over
 * RNDR): -e still caps it, and a credit the user set per source wins. */
static bool fact_raised;
static bool fact_may_credit = true;

static double raised_default(const struct rng_source *src)
{
	(void)src;
	return fact_raised ? 0.5 : 1.0 / 512;
}

static bool may_credit_fact(const struct rng_source *src)
{
	(void)src;
	return fact_may_credit;
}

static void test_ceiling_caps_every_default(void **state)
{
	const struct rng_source_ops ops = {
		.name = "fake", .default_entropy_per_bit = 1.0 / 512, .default_credit = raised_default,
		.may_credit = may_credit_fact,
	};
	struct rng_source src = { .ops = &ops, .entropy_per_bit = 1.0 / 512, .credit_ceiling = 1.0 };

	(void)state;
	fact_raised = true;
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.5);
	/* rngd -e 2: at most 2/8 per bit. */
	src.credit_ceiling = 0.25;
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.25);
	fact_raised = false;
	assert_true(credit_entropy_per_bit(&src, false, false) == 1.0 / 512);
	/* -O fake:entropy_per_bit:0.75 after -e: the user's own setting. */
	src.entropy_per_bit = 0.75;
	assert_true(credit_entropy_per_bit(&src, true, false) == 0.75);
	/* A fact that forbids credit beats everything. */
	fact_may_credit = false;
	assert_true(credit_entropy_per_bit(&src, true, false) == 0.0);
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.0);
	fact_may_credit = true;
}

static void test_credit_fixed_is_never_raised(void **state)
{
	const struct rng_source_ops ops = { .name = "fixed", .default_entropy_per_bit = 0.0, .credit_fixed = true };
	struct rng_source src = { .ops = &ops, .entropy_per_bit = 0.9, .credit_ceiling = 1.0 };

	(void)state;
	assert_true(credit_entropy_per_bit(&src, true, false) == 0.0);
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.0);
	/* The rule -O is refused by: any setting above the default, however
	 * small; the default itself is allowed. */
	assert_true(credit_exceeds_fixed(&ops, 1e-9));
	assert_true(credit_exceeds_fixed(&ops, 0.9));
	assert_false(credit_exceeds_fixed(&ops, 0.0));
}

static void test_unfixed_credit_may_be_raised(void **state)
{
	const struct rng_source_ops ops = { .name = "free", .default_entropy_per_bit = 0.5 };
	struct rng_source src = { .ops = &ops, .entropy_per_bit = 0.9, .credit_ceiling = 1.0 };

	(void)state;
	assert_false(credit_exceeds_fixed(&ops, 1.0));
	assert_true(credit_entropy_per_bit(&src, true, false) == 0.9);
}

/* rngd -r /dev/urandom on the kernel sink: the kernel's own output fed
 * back to it. Nothing it says or the user sets gives credit there; the
 * same source feeding some other kernel (an EGD client, a file) keeps it. */
static bool fact_kernel_generator;

static bool kernel_generator_fact(const struct rng_source *src)
{
	(void)src;
	return fact_kernel_generator;
}

static void test_kernel_generator_earns_nothing_from_its_own_kernel(void **state)
{
	const struct rng_source_ops ops = {
		.name = "dev", .default_entropy_per_bit = 0.5, .reads_kernel_generator = kernel_generator_fact,
	};
	struct rng_source src = { .ops = &ops, .entropy_per_bit = 0.5, .credit_ceiling = 1.0 };

	(void)state;
	fact_kernel_generator = true;
	assert_true(credit_is_circular(&src));
	/* Circular (the caller's verdict from the sink and the block): 0, even
	 * at 1 bit per bit set by the user; not circular: the setting. */
	assert_true(credit_entropy_per_bit(&src, false, true) == 0.0);
	src.entropy_per_bit = 1.0;
	assert_true(credit_entropy_per_bit(&src, true, true) == 0.0);
	assert_true(credit_entropy_per_bit(&src, true, false) == 1.0);
	src.entropy_per_bit = 0.5;
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.5);
	/* Another device behind the same source (/dev/hwrng). */
	fact_kernel_generator = false;
	assert_false(credit_is_circular(&src));
	/* A source with no such fact never reads the generator. */
	assert_false(credit_is_circular(&(struct rng_source){ .ops = &(struct rng_source_ops){ .name = "x" } }));
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_credit_for_a_block),
	cmocka_unit_test(test_credit_rejects_nonsense),
	cmocka_unit_test(test_split_adds_up),
	cmocka_unit_test(test_split_edges),
	cmocka_unit_test(test_ceiling_caps_every_default),
	cmocka_unit_test(test_credit_fixed_is_never_raised),
	cmocka_unit_test(test_unfixed_credit_may_be_raised),
	cmocka_unit_test(test_kernel_generator_earns_nothing_from_its_own_kernel)
)
