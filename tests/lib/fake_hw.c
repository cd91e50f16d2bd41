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
