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

#include "tests/lib/source_fixture.h"

#include "sources/rndr.h"
#include "sources/source.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* ---- fake CPU ----------------------------------------------------------- */

struct fake_cpu {
	int not_arm64;
	unsigned long hwcap2;
	int fail_first;         /* this many NZCV failures before any success */
	int fail_after;         /* from this call on (if > 0), fail forever */
	int stuck;              /* always return the same word */
	int rndrrs_calls, rndr_calls;
	unsigned int slept_ms, sleeps;
	uint64_t next;
};

static struct fake_cpu cpu; /* test fixture, reset by setup() */

static int fake_hwcap2(unsigned long *out)
{
	*out = cpu.hwcap2;
	return cpu.not_arm64 ? -ENOTSUP : 0;
}

static int fake_insn(uint64_t *out, int calls)
{
	if (calls <= cpu.fail_first || (cpu.fail_after > 0 && calls >= cpu.fail_after)) {
		*out = 0; /* the architecture returns 0 with NZCV = 0b0100 */
		return 0;
	}
	*out = cpu.stuck ? 0x5555aaaa5555aaaaull : 0x0123456789abcdefull * ++cpu.next;
	return 1;
}

static int fake_rndrrs(uint64_t *out)
{
	return fake_insn(out, ++cpu.rndrrs_calls);
}

static int fake_rndr(uint64_t *out)
{
	return fake_insn(out, ++cpu.rndr_calls);
}

static void fake_backoff(unsigned int ms)
{
	cpu.slept_ms += ms;
	cpu.sleeps++;
}

static const struct rndr_hw fake_hw = {
	.hwcap2 = fake_hwcap2, .rndrrs = fake_rndrrs, .rndr = fake_rndr, .backoff = fake_backoff,
};

static int setup(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_rndr_ops);

	memset(&cpu, 0, sizeof(cpu));
	cpu.hwcap2 = RNDR_HWCAP2_RNG;
	rndr_source_use_hw(src, &fake_hw);
	*state = src;
	return 0;
}

/* ---- tests -------------------------------------------------------------- */

static void test_not_arm64(void **state)
{
	struct rng_source *src = *state;

	cpu.not_arm64 = 1;
	assert_source_refuses(src, -ENODEV, "not an arm64 CPU");
	assert_int_equal(cpu.rndrrs_calls + cpu.rndr_calls, 0);
}

static void test_no_feat_rng(void **state)
{
	struct rng_source *src = *state;

	cpu.hwcap2 = ~RNDR_HWCAP2_RNG; /* every other feature, not this one */
	assert_source_refuses(src, -ENODEV, "lacks FEAT_RNG");
	assert_int_equal(cpu.rndrrs_calls + cpu.rndr_calls, 0);
}

static void test_prefers_rndrrs(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[100];

	assert_int_equal(src->ops->probe(src), 0);
	assert_non_null(strstr(src->why, "RNDRRS"));
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rndr_source_uses_rndrrs(src), 1);
	/* A fact for the daemon; the source leaves the setting alone. */
	assert_true(src->ops->default_credit(src) == RNDRRS_ENTROPY_PER_BIT);
	assert_true(src->entropy_per_bit == RNDR_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(cpu.rndr_calls, 0);
	assert_int_equal(cpu.rndrrs_calls, RNDR_SELFTEST_WORDS + (sizeof(buf) + 7) / 8);
}

static void test_rndr_on_request(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[16];

	assert_int_equal(src->ops->set_option(src, "instruction", "rndr"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rndr_source_uses_rndrrs(src), 0);
	assert_true(src->ops->default_credit(src) == RNDR_ENTROPY_PER_BIT);
	assert_non_null(strstr(src->why, "DRBG"));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(cpu.rndrrs_calls, 0);
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
	assert_non_null(strstr(src->why, "unknown option"));
}

/* NZCV failures are "try again": a run shorter than the bound costs sleeps, not data. */
static void test_transient_nzcv(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[8];

	cpu.fail_first = 2 * RNDR_RETRIES + 3; /* two full rounds and a bit */
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(cpu.sleeps, 2);
	assert_int_equal(cpu.slept_ms, 1 + 2);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), sizeof(buf));
}

/* A generator that never delivers: bounded attempts and sleeps, then -EIO with the reason. */
static void test_persistent_nzcv(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];
	int calls_before;

	cpu.fail_after = RNDR_SELFTEST_WORDS + 1;
	assert_int_equal(src->ops->open(src), 0);
	calls_before = cpu.rndrrs_calls;
	cpu.sleeps = cpu.slept_ms = 0;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), -EIO);
	assert_int_equal(cpu.rndrrs_calls - calls_before, RNDR_RETRIES * RNDR_BACKOFF_ROUNDS);
	assert_int_equal(cpu.sleeps, RNDR_BACKOFF_ROUNDS - 1);
	assert_int_equal(cpu.slept_ms, RNDR_BACKOFF_TOTAL_MS);
	assert_non_null(strstr(src->why, "RNDRRS failed (NZCV)"));
}

/* Bytes in hand are handed over at once instead of waiting out the back-off. */
static void test_partial_then_failure(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];

	cpu.fail_after = RNDR_SELFTEST_WORDS + 3; /* two words, then nothing */
	assert_int_equal(src->ops->open(src), 0);
	cpu.sleeps = 0;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	assert_int_equal(cpu.sleeps, 0);
}

static void test_selftest_fails(void **state)
{
	struct rng_source *src = *state;

	cpu.fail_first = 1000000;
	assert_int_equal(src->ops->open(src), -EIO);
	assert_non_null(strstr(src->why, "self-test"));
	assert_int_equal(cpu.rndrrs_calls, RNDR_RETRIES * RNDR_BACKOFF_ROUNDS);
}

static void test_stuck_generator(void **state)
{
	struct rng_source *src = *state;

	cpu.stuck = 1;
	assert_int_equal(src->ops->open(src), -EIO);
	assert_non_null(strstr(src->why, "stuck generator"));
}

/* The real CPU: usable exactly when the kernel reports FEAT_RNG. */
static void test_native(void **state)
{
	struct rng_source src;
	unsigned char buf[256];
	unsigned long rng = 0;
	int nonzero = 0;

	(void)state;
#if defined(__aarch64__)
	rng = getauxval(AT_HWCAP2) & RNDR_HWCAP2_RNG;
#endif
	assert_int_equal(rng_source_init(&src, &rng_source_rndr_ops), 0);
	if (!rng) {
		assert_int_equal(src.ops->probe(&src), -ENODEV);
		print_message("native: unusable here: %s\n", src.why);
		rng_source_release(&src);
		return;
	}
	assert_int_equal(src.ops->probe(&src), 0);
	assert_int_equal(src.ops->open(&src), 0);
	assert_int_equal(src.ops->read(&src, buf, sizeof(buf)), sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		nonzero += buf[i] != 0;
	assert_true(nonzero > 200);
	print_message("native: %s\n", src.why);
	src.ops->close(&src);
	rng_source_release(&src);
}

RNGD_TEST_MAIN(
	cmocka_unit_test_setup_teardown(test_not_arm64, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_no_feat_rng, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_prefers_rndrrs, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_rndr_on_request, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_user_credit_kept, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_bad_option, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_transient_nzcv, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_persistent_nzcv, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_partial_then_failure, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_selftest_fails, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_stuck_generator, setup, fixture_source_teardown),
	cmocka_unit_test(test_native)
)
