/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * POWER DARN source: HWCAP2 detection, L=2 with its fall-back to L=1, the
 * all-ones error value with its bounded back-off and the stuck-generator
 * self-test, on a fake instruction; on 64-bit POWER (native or
 * qemu-ppc64le) also the real instruction where the kernel reports DARN.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "tests/lib/fake_hw.h"
#include "tests/lib/source_fixture.h"

#include "sources/darn.h"
#include "sources/source.h"

/* ---- fake CPU ----------------------------------------------------------- */

struct fake_cpu {
	struct fake_insn raw, conditioned;      /* DARN at L=2 and at L=1 */
};

static struct fake_cpu cpu; /* test fixture, reset by plug_in_fake_darn() */

static uint64_t fake_darn(unsigned int level)
{
	uint64_t word;

	/* DARN has no failure flag: a failed call returns the error value. */
	if (!fake_insn_run(level == DARN_LEVEL_RAW ? &cpu.raw : &cpu.conditioned, &word))
		return DARN_ERROR;
	return word;
}

static const struct darn_hw fake_hw = { .hwcap2 = fake_auxv_hwcap2, .darn = fake_darn, .backoff = fake_backoff_sleep };

static void plug_in_fake_darn(struct rng_source *src)
{
	memset(&cpu, 0, sizeof(cpu));
	darn_source_use_hw(src, &fake_hw);
}

/* Without the bit, a POWER8: DARN would be an illegal instruction. */
static const struct hwcap2_source darn_cpu = {
	.ops = &rng_source_darn_ops, .arch = HWCAP2_POWER64, .feature = DARN_HWCAP2_DARN,
	.other_arch = "not a 64-bit POWER CPU", .lacks = "lacks DARN", .plug_in = plug_in_fake_darn,
};

/* ---- tests -------------------------------------------------------------- */

static void test_raw_preferred(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[100];

	assert_int_equal(src->ops->probe(src), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(darn_source_level(src), DARN_LEVEL_RAW);
	assert_why_mentions(src, "L=2 (raw)");
	assert_true(src->entropy_per_bit == DARN_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(cpu.conditioned.calls, 0);
}

static void test_falls_back_to_conditioned(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[16];

	cpu.raw.fail_after = 1; /* L=2 only ever returns the error value */
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(darn_source_level(src), DARN_LEVEL_CONDITIONED);
	assert_why_mentions(src, "L=2 gave only the error value");
	assert_int_equal(cpu.raw.calls, DARN_RETRIES * DARN_LEVEL_PROBE_ROUNDS);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
}

/* level:raw is a demand: no silent fall-back. */
static void test_raw_demanded(void **state)
{
	struct rng_source *src = *state;

	cpu.raw.fail_after = 1;
	assert_int_equal(src->ops->set_option(src, "level", "raw"), 0);
	assert_open_fails(src, -EIO, "only the error value");
	assert_int_equal(cpu.conditioned.calls, 0);
}

static void test_conditioned_on_request(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "level", "conditioned"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(darn_source_level(src), DARN_LEVEL_CONDITIONED);
	assert_int_equal(cpu.raw.calls, 0);
	assert_int_equal(src->ops->set_option(src, "level", "0"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "use_aes", "1"), -EINVAL);
}

/* The error value is never data; a short run of it costs sleeps, not bytes. */
static void test_transient_error_value(void **state)
{
	struct rng_source *src = *state;
	uint64_t words[4];

	assert_int_equal(src->ops->open(src), 0);
	cpu.raw.fail_first = cpu.raw.calls + 2 * DARN_RETRIES + 1;
	fake_backoff = (struct fake_backoff_log){ 0 }; /* only the read's sleeps */
	assert_int_equal(src->ops->read(src, words, sizeof(words)), sizeof(words));
	for (int i = 0; i < 4; i++)
		assert_true(words[i] != DARN_ERROR);
	assert_int_equal(fake_backoff.count, 2);
	assert_int_equal(fake_backoff.total_ms, 1 + 2);
}

static void test_persistent_error_value(void **state)
{
	struct rng_source *src = *state;
	int before;

	assert_int_equal(src->ops->open(src), 0);
	cpu.raw.fail_after = cpu.raw.calls + 1;
	before = cpu.raw.calls;
	fake_backoff = (struct fake_backoff_log){ 0 };
	assert_read_fails(src, 64, -EIO, "error value");
	assert_int_equal(cpu.raw.calls - before, DARN_RETRIES * DARN_BACKOFF_ROUNDS);
	assert_int_equal(fake_backoff.total_ms, DARN_BACKOFF_TOTAL_MS);
}

static void test_partial_then_error(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];

	assert_int_equal(src->ops->open(src), 0);
	cpu.raw.fail_after = cpu.raw.calls + 4; /* three words, then errors */
	fake_backoff = (struct fake_backoff_log){ 0 }; /* only the read's sleeps */
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 24);
	assert_int_equal(fake_backoff.count, 0);
}

static void test_stuck_generator(void **state)
{
	struct rng_source *src = *state;

	cpu.raw.stuck_word = cpu.conditioned.stuck_word = 0x0f0f0f0f0f0f0f0full;
	assert_open_fails(src, -EIO, "stuck generator");
}

static void test_real_cpu_usable_iff_hwcap_and_words_vary(void **state)
{
	uint64_t words[32];

	(void)state;
	if (!hwcap2_native_read(&darn_cpu, words, sizeof(words)))
		return;
	for (int i = 1; i < 32; i++)
		assert_true(words[i] != DARN_ERROR && words[i] != words[i - 1]);
}

#define DARN_TEST(f) HWCAP2_FIXTURE_TEST(f, &darn_cpu)

RNGD_TEST_MAIN(
	DARN_TEST(test_hwcap2_other_arch_refused_untried),
	DARN_TEST(test_hwcap2_feature_missing_refused_untried),
	DARN_TEST(test_raw_preferred),
	DARN_TEST(test_falls_back_to_conditioned),
	DARN_TEST(test_raw_demanded),
	DARN_TEST(test_conditioned_on_request),
	DARN_TEST(test_transient_error_value),
	DARN_TEST(test_persistent_error_value),
	DARN_TEST(test_partial_then_error),
	DARN_TEST(test_stuck_generator),
	cmocka_unit_test(test_real_cpu_usable_iff_hwcap_and_words_vary)
)
