/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VIA PadLock source: CPUID detection on fake leaves, XSTORE results on a fake instruction. */
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

#include "sources/padlock.h"
#include "sources/source.h"

/* ---- fake CPU ----------------------------------------------------------- */

struct fake_cpu {
	const char *vendor;
	uint32_t centaur_max;
	uint32_t centaur_edx;
	int no_cpuid;
	/* The XSTORE script: one entry per call, the last repeats. */
	const uint32_t *eax_script;
	size_t script_len;
	unsigned char next_byte;
	uint32_t last_edx;
	int calls;
};

static struct fake_cpu cpu; /* test fixture, reset by setup() */

static int fake_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)subleaf;
	memset(r, 0, sizeof(*r));
	if (cpu.no_cpuid)
		return -ENOTSUP;
	if (leaf == 0) {
		r->eax = 1;
		memcpy(&r->ebx, cpu.vendor, 4);
		memcpy(&r->edx, cpu.vendor + 4, 4);
		memcpy(&r->ecx, cpu.vendor + 8, 4);
	} else if (leaf == 0xC0000000u) {
		r->eax = cpu.centaur_max;
	} else if (leaf == 0xC0000001u && cpu.centaur_max >= 0xC0000001u) {
		r->edx = cpu.centaur_edx;
	}
	return 0;
}

static uint32_t fake_xstore(void *buf, uint32_t edx)
{
	size_t i = (size_t)cpu.calls < cpu.script_len ? (size_t)cpu.calls : cpu.script_len - 1;
	uint32_t eax = cpu.eax_script[i];
	unsigned char *out = buf;

	assert_true(((uintptr_t)buf & 15) == 0); /* XSTORE needs 16-byte alignment */
	cpu.calls++;
	cpu.last_edx = edx;
	/* Fill a whole quadword, as the hardware does, whatever it reports. */
	for (int b = 0; b < 8; b++)
		out[b] = cpu.next_byte++;
	return eax;
}

static const struct padlock_hw fake_hw = { .cpuid = fake_cpuid, .xstore = fake_xstore };

#define RNG_OK (PADLOCK_MSR_RNG_ENABLED)

static const uint32_t script_one_byte[] = { RNG_OK | 1 };
static const uint32_t script_eight_bytes[] = { RNG_OK | 8 };

static int setup(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_padlock_ops);

	memset(&cpu, 0, sizeof(cpu));
	cpu.vendor = "CentaurHauls";
	cpu.centaur_max = 0xC0000004u;
	cpu.centaur_edx = (1u << 2) | (1u << 3);
	cpu.eax_script = script_one_byte;
	cpu.script_len = 1;
	padlock_source_use_hw(src, &fake_hw);
	*state = src;
	return 0;
}

/* ---- detection ---------------------------------------------------------- */

static void test_via_enabled(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->probe(src), 0);
}

static void test_zhaoxin_enabled(void **state)
{
	struct rng_source *src = *state;

	cpu.vendor = "  Shanghai  ";
	assert_int_equal(src->ops->probe(src), 0);
}

static void test_via_present_disabled(void **state)
{
	struct rng_source *src = *state;

	cpu.centaur_edx = 1u << 2;
	assert_source_refuses(src, -EPERM, "present but disabled");
	assert_int_equal(cpu.calls, 0);
}

static void test_via_without_rng(void **state)
{
	struct rng_source *src = *state;

	cpu.centaur_edx = 0;
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_non_null(strstr(src->why, "no PadLock RNG"));
}

static void test_via_without_centaur_leaf(void **state)
{
	struct rng_source *src = *state;

	cpu.centaur_max = 0; /* old C3: leaf 0xC0000000 reports nothing */
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_non_null(strstr(src->why, "0xC0000001"));
}

static void test_intel(void **state)
{
	struct rng_source *src = *state;

	cpu.vendor = "GenuineIntel";
	/* Even if the Centaur leaf read back RNG bits, the vendor decides. */
	assert_source_refuses(src, -ENODEV, "GenuineIntel");
	assert_int_equal(src->ops->read(src, (char[4]){ 0 }, 4), -EBADF);
	assert_int_equal(cpu.calls, 0);
}

static void test_amd(void **state)
{
	struct rng_source *src = *state;

	cpu.vendor = "AuthenticAMD";
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_non_null(strstr(src->why, "AuthenticAMD"));
	assert_int_equal(cpu.calls, 0);
}

static void test_no_cpuid(void **state)
{
	struct rng_source *src = *state;

	cpu.no_cpuid = 1;
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_non_null(strstr(src->why, "not an x86 CPU"));
}

/* ---- XSTORE results ----------------------------------------------------- */

static void test_default_divisor_one_byte_per_store(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[5];

	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 5), 5);
	assert_int_equal(cpu.calls, 5);
	assert_int_equal(cpu.last_edx, 3);
	/* One byte of each store: the first byte of each quadword. */
	const unsigned char want[5] = { 0, 8, 16, 24, 32 };
	assert_memory_equal(buf, want, 5);
}

static void test_divisor_zero_eight_bytes(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[20];

	cpu.eax_script = script_eight_bytes;
	assert_int_equal(src->ops->set_option(src, "divisor", "0"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 20), 20);
	assert_int_equal(cpu.calls, 3);
	assert_int_equal(cpu.last_edx, 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(buf[i], i);
}

static void test_short_count_rejected(void **state)
{
	struct rng_source *src = *state;
	/* Divisor 0 asks for 8 bytes: counts of 0 and 4 are "no data". */
	static const uint32_t script[] = { RNG_OK | 0, RNG_OK | 4, RNG_OK | 8 };
	unsigned char buf[8];

	cpu.eax_script = script;
	cpu.script_len = 3;
	assert_int_equal(src->ops->set_option(src, "divisor", "0"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 8), 8);
	assert_int_equal(cpu.calls, 3);
	/* The bytes are from the third store only. */
	assert_int_equal(buf[0], 16);
}

static void test_count_bits_0_to_4(void **state)
{
	struct rng_source *src = *state;
	/* Bit 4 set (count 0x11 = 17) is not "1 byte": rejected. */
	static const uint32_t script[] = { RNG_OK | 0x11, RNG_OK | 1 };
	unsigned char buf[1];

	cpu.eax_script = script;
	cpu.script_len = 2;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 1), 1);
	assert_int_equal(cpu.calls, 2);
	assert_int_equal(buf[0], 8);
}

static void test_no_data_forever(void **state)
{
	struct rng_source *src = *state;
	static const uint32_t script[] = { RNG_OK | 0 };
	unsigned char buf[4];

	cpu.eax_script = script;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 4), -EIO);
	assert_int_equal(cpu.calls, PADLOCK_XSTORE_RETRIES * PADLOCK_EMPTY_ROUNDS);
	assert_non_null(strstr(src->why, "no data"));
}

static void test_partial_then_dry(void **state)
{
	struct rng_source *src = *state;
	static const uint32_t script[] = { RNG_OK | 1, RNG_OK | 1, RNG_OK | 0 };
	unsigned char buf[10];

	cpu.eax_script = script;
	cpu.script_len = 3;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 10), 2);
}

static void test_disabled_at_read(void **state)
{
	struct rng_source *src = *state;
	static const uint32_t script[] = { 1 }; /* count fine, enable bit clear */
	unsigned char buf[4];

	cpu.eax_script = script;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 4), -EIO);
	assert_non_null(strstr(src->why, "disabled"));
}

static void test_raw_bits_refused(void **state)
{
	struct rng_source *src = *state;
	static const uint32_t script[] = { RNG_OK | PADLOCK_MSR_RAW_BITS | 1 };
	unsigned char buf[4];

	cpu.eax_script = script;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 4), -EIO);
	assert_non_null(strstr(src->why, "whitener"));
}

static void test_string_filter_drops_store(void **state)
{
	struct rng_source *src = *state;
	static const uint32_t script[] = { RNG_OK | PADLOCK_MSR_STRFILT_FAILED | 1, RNG_OK | 1 };
	unsigned char buf[1];

	cpu.eax_script = script;
	cpu.script_len = 2;
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 1), 1);
	assert_int_equal(buf[0], 8); /* the flagged store's byte 0 was dropped */
}

static void test_bad_options(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "divisor", "4"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "divisor", "-1"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "divisor", "12"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "divisor", ""), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "quality", "3"), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "divisor", "2"), 0);
}

static void test_reopen_after_close(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[2];

	assert_int_equal(src->ops->set_option(src, "divisor", "3"), 0);
	assert_int_equal(src->ops->open(src), 0);
	src->ops->close(src);
	assert_int_equal(src->ops->read(src, buf, 2), -EBADF);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 2), 2);
}

/* On this machine's real CPU: unless it is a VIA with its RNG on, nothing runs XSTORE. */
static void test_real_cpu(void **state)
{
	struct rng_source src;
	char why[RNG_SOURCE_WHY_MAX];
	unsigned char buf[16];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_padlock_ops), 0);
	if (cpuid_padlock_rng(cpuid_native, why, sizeof(why)) == 0) {
		assert_int_equal(src.ops->probe(&src), 0);
		assert_int_equal(src.ops->open(&src), 0);
		assert_int_equal(src.ops->read(&src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	} else {
		/* XSTORE would raise SIGILL here: getting through proves it never ran. */
		assert_int_not_equal(src.ops->probe(&src), 0);
		assert_true(src.why[0] != '\0');
		assert_int_not_equal(src.ops->open(&src), 0);
		assert_int_equal(src.ops->read(&src, buf, sizeof(buf)), -EBADF);
	}
	src.ops->close(&src);
	rng_source_release(&src);
}

RNGD_TEST_MAIN(
	cmocka_unit_test_setup_teardown(test_via_enabled, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_zhaoxin_enabled, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_via_present_disabled, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_via_without_rng, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_via_without_centaur_leaf, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_intel, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_amd, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_no_cpuid, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_default_divisor_one_byte_per_store, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_divisor_zero_eight_bytes, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_short_count_rejected, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_count_bits_0_to_4, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_no_data_forever, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_partial_then_dry, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_disabled_at_read, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_raw_bits_refused, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_string_filter_drops_store, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_bad_options, setup, fixture_source_teardown),
	cmocka_unit_test_setup_teardown(test_reopen_after_close, setup, fixture_source_teardown),
	cmocka_unit_test(test_real_cpu)
)
