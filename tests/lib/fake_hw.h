/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fakes the hardware source tests plug in through their *_use_hw() and
 * *_use_api() hooks: a CPU random-number instruction that counts its calls
 * and fails on a schedule, an x86 CPUID with settable leaves, and a sleep
 * that only records the back-off asked for; and the check that a source
 * refused before it ran an instruction. One copy here instead of one
 * per source test, so that every source is tested against the same rules.
 */
#ifndef RNGD_TESTS_LIB_FAKE_HW_H
#define RNGD_TESTS_LIB_FAKE_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sources/cpuid.h"

struct rng_source;
struct rng_source_ops;

/*
 * A fake random-number instruction (RDRAND, RDSEED, RNDR, RNDRRS, DARN at
 * one level). Calls are numbered from 1; a zeroed struct never fails.
 */
struct fake_insn {
	int calls;              /* how many times it ran */
	int fail_first;         /* calls 1 .. fail_first fail */
	int fail_after;         /* if > 0: this call and every later one fail */
	uint64_t stuck_word;    /* if non-zero: every word it gives (a stuck generator) */
};

/*
 * Runs @insn once: 0 when the call fails by its schedule (*out is then 0,
 * what the hardware leaves), else 1 with the next word in *out. Words
 * come from one sequence shared by all instructions, all different.
 */
int fake_insn_run(struct fake_insn *insn, uint64_t *out);

/* The back-off sleeps asked of fake_backoff_sleep() since fake_hw_reset(). */
struct fake_backoff_log {
	int count;
	unsigned int total_ms;
	unsigned int ms[64];    /* the first 64 of them, in order */
};

extern struct fake_backoff_log fake_backoff;

/* Records a sleep of @ms instead of sleeping: tests run at once. */
void fake_backoff_sleep(unsigned int ms);

/*
 * An x86 CPU as CPUID shows it. Leaves above max_leaf (and Centaur leaves
 * above max_centaur_leaf) read as zeros, as on a real CPU.
 */
struct fake_x86_cpu {
	int no_cpuid;                   /* not x86 at all: CPUID is -ENOTSUP */
	const char *vendor;             /* leaf 0's 12 characters */
	uint32_t max_leaf;              /* leaf 0's EAX */
	uint32_t max_centaur_leaf;      /* leaf 0xC0000000's EAX */
	struct cpuid_regs leaf1, leaf7, centaur1; /* leaves 1, 7 and 0xC0000001 */
};

extern struct fake_x86_cpu fake_x86;

/* A cpuid_fn reading fake_x86. */
int fake_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* The kernel's AT_HWCAP2 word, as the arm64 and POWER sources read it. */
struct fake_auxv {
	int other_arch;                 /* built for another architecture: -ENOTSUP */
	unsigned long hwcap2;
};

extern struct fake_auxv fake_auxv;

/* The sources' hwcap2 hook, reading fake_auxv. */
int fake_auxv_hwcap2(unsigned long *out);

/*
 * A source that finds its instruction by one bit of the kernel's AT_HWCAP2
 * word (arm64's RNDR, POWER's DARN): one description, so that each such
 * source is held to the same rules of detection, on fakes and on the real
 * CPU.
 */
struct hwcap2_source {
	const struct rng_source_ops *ops;
	enum hwcap2_arch { HWCAP2_ARM64, HWCAP2_POWER64 } arch; /* where the instruction is */
	unsigned long feature;          /* the instruction's AT_HWCAP2 bit */
	const char *other_arch;         /* what src->why says on another architecture */
	const char *lacks;              /* what it says on a CPU without the bit */
	/* The test's own fake instructions, reset, into a fresh source. */
	void (*plug_in)(struct rng_source *src);
};

/*
 * cmocka's set-up of a case listed with HWCAP2_FIXTURE_TEST(): from the
 * struct hwcap2_source in *state, fake_hw_reset() and a fresh source on a
 * fake CPU of its architecture that has the feature, its fakes plugged in,
 * in *state. The tear-down is fixture_source_teardown().
 */
int fake_hwcap2_setup(void **state);

#define HWCAP2_FIXTURE_TEST(f, hw) \
	cmocka_unit_test_prestate_setup_teardown(f, fake_hwcap2_setup, fixture_source_teardown, (void *)(hw))

/* Cases for every such source: it refuses untried on another architecture,
 * and where the bit is missing (on a CPU without the instruction, running
 * it would trap). */
void test_hwcap2_other_arch_refused_untried(void **state);
void test_hwcap2_feature_missing_refused_untried(void **state);

/*
 * fixture_native_read() of @hw's source on the real CPU, which has it
 * where this is a build for @hw->arch and AT_HWCAP2 has @hw->feature.
 */
bool hwcap2_native_read(const struct hwcap2_source *hw, void *buf, size_t len);

/*
 * probe() and open() refuse with @err and src->why says @reason
 * (assert_source_refuses()), and no fake instruction ran since
 * fake_hw_reset(): on a CPU without it the real one would trap. As this
 * file uses it, every test linking fake_hw.c needs cmocka and
 * $(TESTS_LIB_SOURCE_FIXTURE) in its sources.
 */
void assert_source_refuses_untried(struct rng_source *src, int err, const char *reason);

/* Zeroes fake_auxv, fake_backoff, fake_x86, the word sequence and the run count: each test's set-up calls it. */
void fake_hw_reset(void);

#endif
