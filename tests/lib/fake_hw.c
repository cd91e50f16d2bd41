/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/fake_hw.h"
#include "tests/lib/source_fixture.h"

#if defined(__aarch64__) || defined(__powerpc64__)
#include <sys/auxv.h>
#endif

struct fake_backoff_log fake_backoff;
struct fake_x86_cpu fake_x86;
struct fake_auxv fake_auxv;

/* How many words fake_insn_run() has given since fake_hw_reset(). */
static uint64_t words_given;
/* How many times any fake instruction ran since fake_hw_reset(). */
static int insns_run;

int fake_insn_run(struct fake_insn *insn, uint64_t *out)
{
	int call = ++insn->calls;

	insns_run++;

	if (call <= insn->fail_first || (insn->fail_after > 0 && call >= insn->fail_after)) {
		*out = 0;
		return 0;
	}
	/* An odd multiplier makes the product a bijection: no word repeats. */
	*out = insn->stuck_word ? insn->stuck_word : 0x0123456789abcdefull * ++words_given;
	return 1;
}

void fake_backoff_sleep(unsigned int ms)
{
	if (fake_backoff.count < (int)(sizeof(fake_backoff.ms) / sizeof(fake_backoff.ms[0])))
		fake_backoff.ms[fake_backoff.count] = ms;
	fake_backoff.count++;
	fake_backoff.total_ms += ms;
}

int fake_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)subleaf;
	memset(out, 0, sizeof(*out));
	if (fake_x86.no_cpuid)
		return -ENOTSUP;
	if (leaf == 0) {
		out->eax = fake_x86.max_leaf;
		memcpy(&out->ebx, fake_x86.vendor, 4);
		memcpy(&out->edx, fake_x86.vendor + 4, 4);
		memcpy(&out->ecx, fake_x86.vendor + 8, 4);
	} else if (leaf == 1 && fake_x86.max_leaf >= 1) {
		*out = fake_x86.leaf1;
	} else if (leaf == 7 && fake_x86.max_leaf >= 7) {
		*out = fake_x86.leaf7;
	} else if (leaf == 0xC0000000u) {
		out->eax = fake_x86.max_centaur_leaf;
	} else if (leaf == 0xC0000001u && fake_x86.max_centaur_leaf >= 0xC0000001u) {
		*out = fake_x86.centaur1;
	}
	return 0;
}

int fake_auxv_hwcap2(unsigned long *out)
{
	*out = fake_auxv.hwcap2;
	return fake_auxv.other_arch ? -ENOTSUP : 0;
}

/* The source the current case set up (fake_hwcap2_setup()). */
static const struct hwcap2_source *hwcap2_under_test;

int fake_hwcap2_setup(void **state)
{
	const struct hwcap2_source *hw = *state;
	struct rng_source *src = fixture_source_new(hw->ops);

	fake_hw_reset();
	fake_auxv.hwcap2 = hw->feature;
	hw->plug_in(src);
	hwcap2_under_test = hw;
	*state = src;
	return 0;
}

void test_hwcap2_other_arch_refused_untried(void **state)
{
	fake_auxv.other_arch = 1;
	assert_source_refuses_untried(*state, -ENODEV, hwcap2_under_test->other_arch);
}

void test_hwcap2_feature_missing_refused_untried(void **state)
{
	/* Every other feature: the source must test its own bit, not any. */
	fake_auxv.hwcap2 = ~hwcap2_under_test->feature;
	assert_source_refuses_untried(*state, -ENODEV, hwcap2_under_test->lacks);
}

/* The real AT_HWCAP2 where this is a build for @arch, else 0: another
 * architecture's bits mean something else. The test's own reading of the
 * CPU, not the source's hook. */
static unsigned long native_hwcap2(enum hwcap2_arch arch)
{
#if defined(__aarch64__)
	return arch == HWCAP2_ARM64 ? getauxval(AT_HWCAP2) : 0;
#elif defined(__powerpc64__)
	return arch == HWCAP2_POWER64 ? getauxval(AT_HWCAP2) : 0;
#else
	(void)arch;
	return 0;
#endif
}

bool hwcap2_native_read(const struct hwcap2_source *hw, void *buf, size_t len)
{
	return fixture_native_read(hw->ops, (native_hwcap2(hw->arch) & hw->feature) != 0, buf, len);
}

void assert_source_refuses_untried(struct rng_source *src, int err, const char *reason)
{
	assert_source_refuses(src, err, reason);
	if (insns_run != 0)
		fail_msg("%s: refused, but a fake instruction ran %d times first", src->name, insns_run);
}

void fake_hw_reset(void)
{
	memset(&fake_auxv, 0, sizeof(fake_auxv));
	memset(&fake_backoff, 0, sizeof(fake_backoff));
	memset(&fake_x86, 0, sizeof(fake_x86));
	words_given = 0;
	insns_run = 0;
}
