/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 RNDRRS/RNDR source: HWCAP2 detection, the RNDRRS preference, the
 * NZCV failure path with its bounded back-off, and the stuck-generator
 * self-test, on fake instructions; on arm64 (native or qemu-aarch64) also
 * the real instructions where the kernel reports FEAT_RNG.
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

#include "sources/cpu_source.h"
#include "sources/rndr.h"
#include "sources/source.h"

/* ---- fake CPU ----------------------------------------------------------- */

struct fake_cpu {
	struct fake_insn rndrrs, rndr;
};

static struct fake_cpu cpu; /* test fixture, reset by plug_in_fake_rndr() */

/* A failure is NZCV = 0b0100 with 0 in the register, as fake_insn_run() leaves it. */
static int fake_rndrrs(uint64_t *out)
{
	return fake_insn_run(&cpu.rndrrs, out);
}

static int fake_rndr(uint64_t *out)
{
	return fake_insn_run(&cpu.rndr, out);
}

static const struct rndr_hw fake_hw = {
	.hwcap2 = fake_auxv_hwcap2, .rndrrs = fake_rndrrs, .rndr = fake_rndr, .backoff = fake_backoff_sleep,
};

static void plug_in_fake_rndr(struct rng_source *src)
{
	memset(&cpu, 0, sizeof(cpu));
	rndr_source_use_hw(src, &fake_hw);
}

static const struct hwcap2_source rndr_cpu = {
	.ops = &rng_source_rndr_ops, .arch = HWCAP2_ARM64, .feature = RNDR_HWCAP2_RNG,
	.other_arch = "not an arm64 CPU", .lacks = "lacks FEAT_RNG", .plug_in = plug_in_fake_rndr,
};

/* ---- tests -------------------------------------------------------------- */

static void test_prefers_rndrrs(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[100];

	assert_int_equal(src->ops->probe(src), 0);
	assert_why_mentions(src, "RNDRRS");
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 1);
	/* A fact for the daemon; the source leaves the setting alone. */
	assert_true(src->ops->default_credit(src) == RNDRRS_ENTROPY_PER_BIT);
	assert_true(src->entropy_per_bit == RNDR_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(cpu.rndr.calls, 0);
	assert_int_equal(cpu.rndrrs.calls, RNDR_SELFTEST_WORDS + (sizeof(buf) + 7) / 8);
}

static void test_rndr_on_request(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[16];

	assert_int_equal(src->ops->set_option(src, "instruction", "rndr"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 0);
	assert_true(src->ops->default_credit(src) == RNDR_ENTROPY_PER_BIT);
	assert_why_mentions(src, "DRBG");
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(cpu.rndrrs.calls, 0);
}

static void test_user_credit_kept(void **state)
{
	struct rng_source *src = *state;

	src->entropy_per_bit = 0.25;
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->entropy_per_bit == 0.25);
}

static void test_bad_option(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "instruction", "rdrand"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "use_aes", "1"), -EINVAL);
	assert_why_mentions(src, "unknown option");
}

/* NZCV failures are "try again": a run shorter than the bound costs sleeps, not data. */
static void test_transient_nzcv(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[8];

	cpu.rndrrs.fail_first = 2 * RNDR_RETRIES + 3; /* two full rounds and a bit */
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(fake_backoff.count, 2);
	assert_int_equal(fake_backoff.total_ms, 1 + 2);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
}

/* A generator that never delivers: bounded attempts and sleeps, then -EIO with the reason. */
static void test_persistent_nzcv(void **state)
{
	struct rng_source *src = *state;
	int calls_before;

	cpu.rndrrs.fail_after = RNDR_SELFTEST_WORDS + 1;
	assert_int_equal(src->ops->open(src), 0);
	calls_before = cpu.rndrrs.calls;
	fake_backoff = (struct fake_backoff_log){ 0 }; /* only the read's sleeps */
	assert_read_fails(src, 64, -EIO, "RNDRRS failed (NZCV)");
	assert_int_equal(cpu.rndrrs.calls - calls_before, RNDR_RETRIES * RNDR_BACKOFF_ROUNDS);
	assert_int_equal(fake_backoff.count, RNDR_BACKOFF_ROUNDS - 1);
	assert_int_equal(fake_backoff.total_ms, RNDR_BACKOFF_TOTAL_MS);
}

/* Bytes in hand are handed over at once instead of waiting out the back-off. */
static void test_partial_then_failure(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];

	cpu.rndrrs.fail_after = RNDR_SELFTEST_WORDS + 3; /* two words, then nothing */
	assert_int_equal(src->ops->open(src), 0);
	fake_backoff = (struct fake_backoff_log){ 0 };
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	assert_int_equal(fake_backoff.count, 0);
}

static void test_selftest_fails(void **state)
{
	struct rng_source *src = *state;

	cpu.rndrrs.fail_first = cpu.rndr.fail_first = 1000000;
	assert_open_fails(src, -EIO, "self-test");
	assert_int_equal(cpu.rndrrs.calls, RNDR_RETRIES * RNDR_BACKOFF_ROUNDS);
}

static void test_stuck_generator(void **state)
{
	struct rng_source *src = *state;

	cpu.rndrrs.stuck_word = cpu.rndr.stuck_word = 0x5555aaaa5555aaaaull;
	assert_open_fails(src, -EIO, "stuck generator");
}

/* The real CPU: usable exactly when the kernel reports FEAT_RNG. */
static void test_real_cpu_usable_iff_feat_rng_and_bytes_nonzero(void **state)
{
	unsigned char buf[256];
	int nonzero = 0;

	(void)state;
	if (!hwcap2_native_read(&rndr_cpu, buf, sizeof(buf)))
		return;
	for (size_t i = 0; i < sizeof(buf); i++)
		nonzero += buf[i] != 0;
	assert_true(nonzero > 200);
}

#define RNDR_TEST(f) HWCAP2_FIXTURE_TEST(f, &rndr_cpu)

RNGD_TEST_MAIN(
	RNDR_TEST(test_hwcap2_other_arch_refused_untried),
	RNDR_TEST(test_hwcap2_feature_missing_refused_untried),
	RNDR_TEST(test_prefers_rndrrs),
	RNDR_TEST(test_rndr_on_request),
	RNDR_TEST(test_user_credit_kept),
	RNDR_TEST(test_bad_option),
	RNDR_TEST(test_transient_nzcv),
	RNDR_TEST(test_persistent_nzcv),
	RNDR_TEST(test_partial_then_failure),
	RNDR_TEST(test_selftest_fails),
	RNDR_TEST(test_stuck_generator),
	cmocka_unit_test(test_real_cpu_usable_iff_feat_rng_and_bytes_nonzero)
)
