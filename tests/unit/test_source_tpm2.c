/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TPM 2.0 source: options and honest refusals without a TPM (swtpm runs in source-tpm2.sh). */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "tests/lib/source_fixture.h"

#include "sources/source.h"

static int setup(void **state)
{
	*state = fixture_source_new(&rng_source_tpm2_ops);
	return 0;
}

static void test_rejects_empty_long_tcti_and_unknown_options(void **state)
{
	struct rng_source *src = *state;
	char longv[600];

	assert_int_equal(src->ops->set_option(src, "tcti", ""), -EINVAL);
	memset(longv, 'a', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(src->ops->set_option(src, "tcti", longv), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "device", "/dev/tpm0"), -EINVAL);
	assert_why_mentions(src, "known: tcti");
	assert_int_equal(src->ops->set_option(src, "tcti", "swtpm:host=127.0.0.1,port=1"), 0);
}

static void test_missing_device(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "tcti", "device:/nonexistent/tpmrm9"), 0);
	assert_int_not_equal(src->ops->probe(src), 0);
	assert_why_mentions(src, "/nonexistent/tpmrm9");
	assert_int_not_equal(src->ops->open(src), 0);
	assert_source_closed(src);
}

static void test_default_device_honest(void **state)
{
	struct rng_source *src = *state;
	int r;

	r = src->ops->probe(src);
	if (access("/dev/tpmrm0", F_OK) != 0) {
		assert_int_equal(r, -ENODEV);
		assert_why_mentions(src, "no /dev/tpmrm0");
	} else if (r != 0) {
		assert_true(src->why[0] != '\0');
	}
}

static void test_unknown_tcti(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "tcti", "nosuchtcti:x"), 0);
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_why_mentions(src, "nosuchtcti");
}

/* Nothing listening yet (a swtpm or tpm2-abrmd that starts after rngd):
 * worth retrying, unlike a TCTI that can never work. */
static void test_tcti_not_listening_is_retried(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "tcti", "swtpm:host=127.0.0.1,port=1"), 0);
	assert_int_equal(src->ops->probe(src), -ECONNREFUSED);
	assert_why_mentions(src, "port=1");
	assert_int_equal(src->ops->open(src), -ECONNREFUSED);
	assert_source_closed(src);
}

/* Credit by default only through a TCTI that reaches a TPM chip; any
 * other may be a simulator, software seeded by some machine's kernel. */
static void test_only_a_chip_tcti_earns_default_credit(void **state)
{
	static const struct {
		const char *tcti;
		double credit;
	} cases[] = {
		{ "swtpm:host=127.0.0.1,port=2321", 0.0 },
		{ "libtss2-tcti-mssim.so.0:host=10.0.0.2", 0.0 },
		{ "libtpms:", 0.0 },
		{ "pcap:device:/dev/tpmrm0", 0.0 },
		{ "cmd:tpm2-simulator", 0.0 },
		{ "device:/dev/tpm0", 0.5 },
		{ "libtss2-tcti-device.so.0:/dev/tpmrm0", 0.5 },
		{ "tabrmd:bus_type=system", 0.5 },
		{ "spi-helper", 0.5 },
	};
	struct rng_source *src = *state;

	assert_non_null(src->ops->default_credit);
	assert_true(src->ops->default_credit(src) == 0.5);   /* device:/dev/tpmrm0 */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(src->ops->set_option(src, "tcti", cases[i].tcti), 0);
		if (src->ops->default_credit(src) != cases[i].credit)
			fail_msg("TCTI '%s': default credit %.1f, expected %.1f", cases[i].tcti,
				 src->ops->default_credit(src), cases[i].credit);
	}
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN fixture_source_teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_rejects_empty_long_tcti_and_unknown_options),
	RNGD_FIXTURE_TEST(test_missing_device),
	RNGD_FIXTURE_TEST(test_default_device_honest),
	RNGD_FIXTURE_TEST(test_unknown_tcti),
	RNGD_FIXTURE_TEST(test_tcti_not_listening_is_retried),
	RNGD_FIXTURE_TEST(test_only_a_chip_tcti_earns_default_credit)
)
