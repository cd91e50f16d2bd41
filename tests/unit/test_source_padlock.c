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

#include "tests/lib/fake_hw.h"
#include "tests/lib/source_fixture.h"

#include "sources/padlock.h"
#include "sources/source.h"

/* ---- fake CPU ----------------------------------------------------------- */

/* The XSTORE script: one EAX status per call, the last repeats. */
struct fake_xstore {
	const uint32_t *eax_script;
	size_t script_len;
	unsigned char next_byte;
	uint32_t last_edx;
	int calls;
};

static struct fake_xstore xstore; /* test fixture, reset by setup() */

static uint32_t fake_xstore(void *buf, uint32_t edx)
{
	size_t i = (size_t)xstore.calls < xstore.script_len ? (size_t)xstore.calls : xstore.script_len - 1;
	uint32_t eax = xstore.eax_script[i];
	unsigned char *out = buf;

	assert_true(((uintptr_t)buf & 15) == 0); /* XSTORE needs 16-byte alignment */
	xstore.calls++;
	xstore.last_edx = edx;
	/* Fill a whole quadword, as the hardware does, whatever it reports. */
	for (int b = 0; b < 8; b++)
		out[b] = xstore.next_byte++;
	return eax;
}

static const struct padlock_hw fake_hw = { .cpuid = fake_cpuid, .xstore = fake_xstore };

#define RNG_OK (PADLOCK_MSR_RNG_ENABLED)
#define CENTAUR_RNG_PRESENT (1u << 2)
#define CENTAUR_RNG_ENABLED (1u << 3)
#define CENTAUR_RNG_ON (CENTAUR_RNG_PRESENT | CENTAUR_RNG_ENABLED)

static const uint32_t script_one_byte[] = { RNG_OK | 1 };
static const uint32_t script_eight_bytes[] = { RNG_OK | 8 };

/* A padlock source on a VIA CPU with its RNG present and enabled, storing one byte per XSTORE. */
static struct rng_source *via_source_new(void)
{
	struct rng_source *src = fixture_source_new(&rng_source_padlock_ops);

	fake_hw_reset();
	fake_x86.vendor = "CentaurHauls";
	fake_x86.max_leaf = 1;
	fake_x86.max_centaur_leaf = 0xC0000004u;
	fake_x86.centaur1.edx = CENTAUR_RNG_ON;
	memset(&xstore, 0, sizeof(xstore));
	xstore.eax_script = script_one_byte;
	xstore.script_len = 1;
	padlock_source_use_hw(src, &fake_hw);
	return src;
}

static int setup(void **state)
{
	*state = via_source_new();
	return 0;
}

/* ---- detection ---------------------------------------------------------- */

/* What probe() makes of one CPU, set up on top of via_source_new()'s VIA. */
struct detection_case {
	const char *cpu;                /* what the row is about, for failures */
	const char *vendor;             /* NULL: via_source_new()'s "CentaurHauls" */
	int no_cpuid;
	int no_centaur_leaf;            /* leaf 0xC0000000 reports nothing (an old C3) */
	uint32_t centaur1_edx;          /* leaf 0xC0000001's EDX */
	int err;                        /* what probe() and open() return */
	const char *why;                /* what a refusal names */
};

static const struct detection_case detection_cases[] = {
	{ .cpu = "VIA, RNG enabled", .centaur1_edx = CENTAUR_RNG_ON },
	{ .cpu = "Zhaoxin, RNG enabled", .vendor = "  Shanghai  ", .centaur1_edx = CENTAUR_RNG_ON },
	{ .cpu = "VIA, RNG present but disabled", .centaur1_edx = CENTAUR_RNG_PRESENT, .err = -EPERM,
	  .why = "present but disabled" },
	{ .cpu = "VIA without RNG", .centaur1_edx = 0, .err = -ENODEV, .why = "no PadLock RNG" },
	{ .cpu = "VIA without Centaur leaf", .no_centaur_leaf = 1, .centaur1_edx = CENTAUR_RNG_ON, .err = -ENODEV,
	  .why = "0xC0000001" },
	/* Even if the Centaur leaf read back RNG bits, the vendor decides. */
	{ .cpu = "Intel", .vendor = "GenuineIntel", .centaur1_edx = CENTAUR_RNG_ON, .err = -ENODEV,
	  .why = "GenuineIntel" },
	{ .cpu = "AMD", .vendor = "AuthenticAMD", .centaur1_edx = CENTAUR_RNG_ON, .err = -ENODEV,
	  .why = "AuthenticAMD" },
	{ .cpu = "not x86", .no_cpuid = 1, .centaur1_edx = CENTAUR_RNG_ON, .err = -ENODEV, .why = "not an x86 CPU" },
};

/* Each CPU on a fresh source; a refused one never runs XSTORE and stays closed. */
static void test_probe_accepts_only_via_or_zhaoxin_with_rng_enabled(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(detection_cases) / sizeof(detection_cases[0]); i++) {
		const struct detection_case *c = &detection_cases[i];
		struct rng_source *src = via_source_new();

		if (c->vendor)
			fake_x86.vendor = c->vendor;
		fake_x86.no_cpuid = c->no_cpuid;
		if (c->no_centaur_leaf)
			fake_x86.max_centaur_leaf = 0;
		fake_x86.centaur1.edx = c->centaur1_edx;
		if (c->err == 0) {
			int err = src->ops->probe(src);

			if (err != 0)
				fail_msg("%s: probe() = %d (%s), expected 0", c->cpu, err, src->why);
		} else {
			assert_source_refuses(src, c->err, c->why);
			assert_source_closed(src);
			if (xstore.calls != 0)
				fail_msg("%s: XSTORE ran %d times", c->cpu, xstore.calls);
		}
		fixture_source_free(src);
	}
}

/* ---- XSTORE results ----------------------------------------------------- */

static void test_default_divisor_one_byte_per_store(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[5];

	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 5), 5);
	assert_int_equal(xstore.calls, 5);
	assert_int_equal(xstore.last_edx, 3);
	/* One byte of each store: the first byte of each quadword. */
	const unsigned char want[5] = { 0, 8, 16, 24, 32 };
	assert_memory_equal(buf, want, 5);
}

static void test_divisor_zero_eight_bytes(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[20];

	xstore.eax_script = script_eight_bytes;
	assert_int_equal(src->ops->set_option(src, "divisor", "0"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 20), 20);
	assert_int_equal(xstore.calls, 3);
	assert_int_equal(xstore.last_edx, 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(buf[i], i);
}

/* One read() against one XSTORE script: which status words count as data. */
struct status_case {
	const char *what;               /* for failures */
	uint32_t script[3];             /* EAX of each XSTORE; the last repeats */
	size_t script_len;
	const char *divisor;            /* NULL: the default (1 byte per store) */
	size_t len;                     /* bytes read */
	ssize_t result;                 /* what read() returns */
	int calls;                      /* XSTOREs run; 0: not checked */
	int first_byte;                 /* buf[0] (the fake's byte counter); 0: not checked */
	const char *why;                /* what a failed read names */
};

static const struct status_case status_cases[] = {
	/* Divisor 0 asks for 8 bytes: counts of 0 and 4 are "no data"; the bytes are from the third store. */
	{ .what = "short count rejected", .script = { RNG_OK | 0, RNG_OK | 4, RNG_OK | 8 }, .script_len = 3,
	  .divisor = "0", .len = 8, .result = 8, .calls = 3, .first_byte = 16 },
	/* Bit 4 set (count 0x11 = 17) is not "1 byte": rejected. */
	{ .what = "count is bits 0 to 4", .script = { RNG_OK | 0x11, RNG_OK | 1 }, .script_len = 2,
	  .len = 1, .result = 1, .calls = 2, .first_byte = 8 },
	{ .what = "no data forever", .script = { RNG_OK | 0 }, .script_len = 1,
	  .len = 4, .result = -EIO, .calls = PADLOCK_XSTORE_RETRIES * PADLOCK_EMPTY_ROUNDS, .why = "no data" },
	{ .what = "partial then dry", .script = { RNG_OK | 1, RNG_OK | 1, RNG_OK | 0 }, .script_len = 3,
	  .len = 10, .result = 2 },
	{ .what = "disabled at read", .script = { 1 /* count fine, enable bit clear */ }, .script_len = 1,
	  .len = 4, .result = -EIO, .why = "disabled" },
	{ .what = "raw bits refused", .script = { RNG_OK | PADLOCK_MSR_RAW_BITS | 1 }, .script_len = 1,
	  .len = 4, .result = -EIO, .why = "whitener" },
	/* The flagged store's byte 0 is dropped. */
	{ .what = "string filter drops store", .script = { RNG_OK | PADLOCK_MSR_STRFILT_FAILED | 1, RNG_OK | 1 },
	  .script_len = 2, .len = 1, .result = 1, .first_byte = 8 },
};

static void test_status_words(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(status_cases) / sizeof(status_cases[0]); i++) {
		const struct status_case *c = &status_cases[i];
		struct rng_source *src = via_source_new();
		unsigned char buf[16];
		ssize_t got;

		xstore.eax_script = c->script;
		xstore.script_len = c->script_len;
		if (c->divisor)
			assert_int_equal(src->ops->set_option(src, "divisor", c->divisor), 0);
		assert_int_equal(src->ops->open(src), 0);
		assert_true(c->len <= sizeof(buf));
		got = src->ops->read(src, buf, c->len);
		if (got != c->result)
			fail_msg("%s: read() = %zd (%s), expected %zd", c->what, got, src->why, c->result);
		if (c->calls && xstore.calls != c->calls)
			fail_msg("%s: %d XSTOREs, expected %d", c->what, xstore.calls, c->calls);
		if (c->first_byte && buf[0] != c->first_byte)
			fail_msg("%s: first byte %u, expected %d", c->what, buf[0], c->first_byte);
		if (c->why)
			assert_why_mentions(src, c->why);
		fixture_source_free(src);
	}
}

static void test_bad_options(void **state)
{
	static const struct option_case cases[] = {
		{ "divisor", "4", -EINVAL },  { "divisor", "-1", -EINVAL }, { "divisor", "12", -EINVAL },
		{ "divisor", "", -EINVAL },   { "quality", "3", -EINVAL },  { "divisor", "2", 0 },
		{ NULL, NULL, 0 },
	};

	assert_set_options(*state, cases);
}

static void test_reopen_after_close(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "divisor", "3"), 0);
	assert_int_equal(src->ops->open(src), 0);
	src->ops->close(src);
	assert_source_reopens(src, 2);
}

/* On this machine's real CPU: unless it is a VIA with its RNG on, nothing runs XSTORE. */
static void test_real_cpu(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_padlock_ops);
	char why[RNG_SOURCE_WHY_MAX];

	(void)state;
	if (cpuid_padlock_rng(cpuid_native, why, sizeof(why)) == 0) {
		unsigned char buf[16];

		assert_int_equal(src->ops->probe(src), 0);
		assert_int_equal(src->ops->open(src), 0);
		assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	} else {
		/* XSTORE would raise SIGILL here: getting through proves it never ran. */
		assert_int_not_equal(src->ops->probe(src), 0);
		assert_true(src->why[0] != '\0');
		assert_int_not_equal(src->ops->open(src), 0);
		assert_source_closed(src);
	}
	fixture_source_free(src);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN fixture_source_teardown

RNGD_TEST_MAIN(
	cmocka_unit_test(test_probe_accepts_only_via_or_zhaoxin_with_rng_enabled),
	RNGD_FIXTURE_TEST(test_default_divisor_one_byte_per_store),
	RNGD_FIXTURE_TEST(test_divisor_zero_eight_bytes),
	cmocka_unit_test(test_status_words),
	RNGD_FIXTURE_TEST(test_bad_options),
	RNGD_FIXTURE_TEST(test_reopen_after_close),
	cmocka_unit_test(test_real_cpu)
)
