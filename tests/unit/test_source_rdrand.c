/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDRAND/RDSEED source: CPUID detection, retry bounds and self-test on fakes, and the real CPU. */
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
#include "sources/rdrand.h"
#include "rngd/credit.h"
#include "sources/source.h"

/* ---- fakes -------------------------------------------------------------- */

struct fake_cpu {
	struct fake_insn rdrand, rdseed;
	int kernel_rdseed, kernel_rdrand; /* what /proc/cpuinfo lists: 1, 0, -1 unknown */
	int pauses;
};

static struct fake_cpu cpu; /* test fixture, reset by setup() */

static int fake_rdrand(uint64_t *out)
{
	return fake_insn_run(&cpu.rdrand, out);
}

static int fake_rdseed(uint64_t *out)
{
	return fake_insn_run(&cpu.rdseed, out);
}

static void fake_pause(void)
{
	cpu.pauses++;
}

static int fake_kernel_has_flag(const char *flag)
{
	return strcmp(flag, "rdseed") == 0 ? cpu.kernel_rdseed : cpu.kernel_rdrand;
}

static const struct rdrand_hw fake_hw = {
	.kernel_has_flag = fake_kernel_has_flag,
	.cpuid = fake_cpuid,
	.rdrand64 = fake_rdrand,
	.rdseed64 = fake_rdseed,
	.pause = fake_pause,
};

#define RDRAND_BIT (1u << 30)
#define RDSEED_BIT (1u << 18)

static int setup(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_rdrand_ops);

	fake_hw_reset();
	fake_x86.vendor = "GenuineIntel";
	fake_x86.max_leaf = 0x16;
	fake_x86.leaf1.ecx = RDRAND_BIT;
	fake_x86.leaf7.ebx = RDSEED_BIT;
	memset(&cpu, 0, sizeof(cpu));
	cpu.kernel_rdseed = 1;
	cpu.kernel_rdrand = 1;
	rdrand_source_use_hw(src, &fake_hw);
	*state = src;
	return 0;
}

/* ---- detection ---------------------------------------------------------- */

static void test_probe_both(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->probe(src), 0);
	assert_why_mentions(src, "RDSEED available");
}

static void test_probe_rdrand_only(void **state)
{
	struct rng_source *src = *state;

	fake_x86.leaf7.ebx = 0;
	assert_int_equal(src->ops->probe(src), 0);
	assert_why_mentions(src, "lacks RDSEED");
}

static void test_probe_none(void **state)
{
	struct rng_source *src = *state;

	fake_x86.leaf1.ecx = 0;
	fake_x86.leaf7.ebx = 0;
	/* The read on the closed source first: the count of fake
	 * instructions run that refuses_untried() checks covers it too. */
	assert_source_closed(src);
	assert_source_refuses_untried(src, -ENODEV, "lacks RDSEED and RDRAND");
}

static void test_probe_leaf7_absent(void **state)
{
	struct rng_source *src = *state;

	/* A max leaf below 7 means leaf 7's bits are garbage, not RDSEED. */
	fake_x86.max_leaf = 5;
	assert_int_equal(src->ops->probe(src), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 0);
}

static void test_kernel_masked_rdseed(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[8];

	/* AMD Zen5: CPUID says RDSEED, the kernel cleared it (AMD-SB-7055). */
	cpu.kernel_rdseed = 0;
	assert_int_equal(src->ops->probe(src), 0);
	assert_why_mentions(src, "kernel disabled");
	assert_true(src->ops->default_credit(src) == RDRAND_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 0);
	assert_int_equal(src->ops->read(src, buf, 8), 8);
	assert_int_equal(cpu.rdseed.calls, 0);
	/* Forcing it does not get around the kernel either. */
	src->ops->close(src);
	assert_int_equal(src->ops->set_option(src, "instruction", "rdseed"), 0);
	assert_int_equal(src->ops->open(src), -ENODEV);
}

static void test_kernel_masked_both(void **state)
{
	struct rng_source *src = *state;

	cpu.kernel_rdseed = 0;
	cpu.kernel_rdrand = 0;
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_why_mentions(src, "kernel disabled");
}

static void test_kernel_unknown_trusts_cpuid(void **state)
{
	struct rng_source *src = *state;

	/* No /proc/cpuinfo (a chroot): CPUID alone decides. */
	cpu.kernel_rdseed = -1;
	cpu.kernel_rdrand = -1;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 1);
}

static void test_probe_not_x86(void **state)
{
	struct rng_source *src = *state;

	fake_x86.no_cpuid = 1;
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_why_mentions(src, "not an x86 CPU");
}

/* ---- instruction choice and credit -------------------------------------- */

static void test_rdseed_preferred_and_credit(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[100];

	assert_true(src->entropy_per_bit == RDRAND_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 1);
	/* The source reports the fact, the daemon's main thread
	 * alone sets the credit (open() runs in the reader thread). */
	assert_true(src->entropy_per_bit == RDRAND_ENTROPY_PER_BIT);
	assert_true(src->ops->default_credit(src) == RDSEED_ENTROPY_PER_BIT);
	assert_true(credit_entropy_per_bit(src, false, false) == RDSEED_ENTROPY_PER_BIT);
	cpu.rdrand.calls = 0;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(cpu.rdrand.calls, 0);
	assert_int_equal(cpu.rdseed.calls, RDRAND_SELFTEST_WORDS + 13);
}

static void test_rdrand_fallback_keeps_low_credit(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];

	fake_x86.leaf7.ebx = 0;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 0);
	assert_true(credit_entropy_per_bit(src, false, false) == RDRAND_ENTROPY_PER_BIT);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 64);
	assert_int_equal(cpu.rdseed.calls, 0);
}

static void test_explicit_credit_kept(void **state)
{
	struct rng_source *src = *state;

	src->entropy_per_bit = 0.25; /* what -O rdrand:entropy_per_bit:0.25 does */
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->entropy_per_bit == 0.25);
	assert_true(credit_entropy_per_bit(src, true, false) == 0.25);
}

static void test_option_instruction(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "instruction", "rdrand"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 0);
	src->ops->close(src);
	fake_x86.leaf7.ebx = 0;
	assert_int_equal(src->ops->set_option(src, "instruction", "rdseed"), 0);
	assert_int_equal(src->ops->open(src), -ENODEV);
	assert_why_mentions(src, "lacks RDSEED");
	assert_int_equal(src->ops->set_option(src, "instruction", "xstore"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "speed", "fast"), -EINVAL);
}

/* ---- retry bounds ------------------------------------------------------- */

static void test_rdrand_retries_bounded(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[8];

	fake_x86.leaf7.ebx = 0;
	assert_int_equal(src->ops->open(src), 0);
	/* Nine failures then success: still one good word. */
	cpu.rdrand.calls = 0;
	cpu.rdrand.fail_first = RDRAND_RETRIES - 1;
	assert_int_equal(src->ops->read(src, buf, 8), 8);
	assert_int_equal(cpu.rdrand.calls, RDRAND_RETRIES);
	/* Ten failures in a row: the DRNG is broken, and we stop at ten. */
	cpu.rdrand.calls = 0;
	cpu.rdrand.fail_after = 1;
	assert_read_fails(src, 8, -EIO, "DRNG failure");
	assert_int_equal(cpu.rdrand.calls, RDRAND_RETRIES);
}

static void test_rdseed_underflow_pauses(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[16];

	assert_int_equal(src->ops->open(src), 0);
	cpu.pauses = 0;
	cpu.rdseed.fail_first = cpu.rdseed.calls + 30;
	assert_int_equal(src->ops->read(src, buf, 16), 16);
	assert_int_equal(cpu.pauses, 30);
}

static void test_rdseed_dead_gives_up(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[16];

	assert_int_equal(src->ops->open(src), 0);
	cpu.rdseed.calls = 0;
	cpu.rdseed.fail_after = 1;
	assert_int_equal(src->ops->read(src, buf, 16), -EIO);
	assert_int_equal(cpu.rdseed.calls, RDSEED_RETRIES * RDSEED_UNDERFLOW_ROUNDS);
	assert_int_equal(cpu.rdrand.calls, 0); /* never silently credits RDRAND as RDSEED */
}

static void test_rdseed_partial_on_underflow(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];

	assert_int_equal(src->ops->open(src), 0);
	/* Two words, then nothing: the two words are handed over, not lost. */
	cpu.rdseed.fail_after = cpu.rdseed.calls + 3;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	/* And the next read, with nothing at all, fails instead of spinning. */
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), -EIO);
}

static void test_rdseed_underflow_at_open(void **state)
{
	struct rng_source *src = *state;

	/* A busy RDSEED during the self-test is not a broken one. */
	cpu.rdseed.fail_first = RDSEED_RETRIES + 50;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_cpu_source_uses_strong(src), 1);
	src->ops->close(src);
	cpu.rdseed.fail_after = 1;
	assert_open_fails(src, -EIO, "RDSEED self-test");
}

static void test_stuck_drng_refused(void **state)
{
	struct rng_source *src = *state;

	fake_x86.leaf7.ebx = 0;
	cpu.rdrand.stuck_word = ~0ULL; /* the AMD case: RDRAND answers CF=1 with all ones */
	assert_open_fails(src, -EIO, "identical words");
	assert_why_mentions(src, "ffffffffffffffff");
}

static void test_odd_length(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[13];

	memset(buf, 0, sizeof(buf));
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 13), 13);
	/* The last, partial word landed too (all-zero 5 bytes: 2^-40). */
	assert_true(buf[8] | buf[9] | buf[10] | buf[11] | buf[12]);
}

/* ---- the real CPU ------------------------------------------------------- */

static void test_real_cpu(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_rdrand_ops);
	unsigned char a[4096], b[4096];
	unsigned features = 0;
	int ones = 0;

	(void)state;
	(void)cpuid_rdrand_features(cpuid_native, &features);
	if (!features) {
		/* Honest refusal elsewhere, and the instructions never run. */
		assert_int_equal(src->ops->probe(src), -ENODEV);
		assert_int_equal(src->ops->open(src), -ENODEV);
		fixture_source_free(src);
		return;
	}
	assert_int_equal(src->ops->probe(src), 0);
	assert_int_equal(src->ops->open(src), 0);
	if (!(features & CPUID_RDSEED) || rdrand_hw_native.kernel_has_flag("rdseed") == 0)
		assert_int_equal(rng_cpu_source_uses_strong(src), 0);
	else
		assert_int_equal(rng_cpu_source_uses_strong(src), 1);
	assert_int_equal(src->ops->read(src, a, sizeof(a)), (ssize_t)sizeof(a));
	assert_int_equal(src->ops->read(src, b, sizeof(b)), (ssize_t)sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
	for (size_t i = 0; i < sizeof(a); i++)
		ones += __builtin_popcount(a[i]);
	/* 32768 bits: 6 sigma is about 543. */
	assert_in_range(ones, 16384 - 600, 16384 + 600);
	fixture_source_free(src);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN fixture_source_teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_probe_both),
	RNGD_FIXTURE_TEST(test_probe_rdrand_only),
	RNGD_FIXTURE_TEST(test_probe_none),
	RNGD_FIXTURE_TEST(test_probe_leaf7_absent),
	RNGD_FIXTURE_TEST(test_probe_not_x86),
	RNGD_FIXTURE_TEST(test_kernel_masked_rdseed),
	RNGD_FIXTURE_TEST(test_kernel_masked_both),
	RNGD_FIXTURE_TEST(test_kernel_unknown_trusts_cpuid),
	RNGD_FIXTURE_TEST(test_rdseed_preferred_and_credit),
	RNGD_FIXTURE_TEST(test_rdrand_fallback_keeps_low_credit),
	RNGD_FIXTURE_TEST(test_explicit_credit_kept),
	RNGD_FIXTURE_TEST(test_option_instruction),
	RNGD_FIXTURE_TEST(test_rdrand_retries_bounded),
	RNGD_FIXTURE_TEST(test_rdseed_underflow_pauses),
	RNGD_FIXTURE_TEST(test_rdseed_dead_gives_up),
	RNGD_FIXTURE_TEST(test_rdseed_partial_on_underflow),
	RNGD_FIXTURE_TEST(test_rdseed_underflow_at_open),
	RNGD_FIXTURE_TEST(test_stuck_drng_refused),
	RNGD_FIXTURE_TEST(test_odd_length),
	cmocka_unit_test(test_real_cpu)
)
