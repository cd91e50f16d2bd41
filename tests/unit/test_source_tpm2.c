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

#include "sources/source.h"

static void test_options(void **state)
{
	struct rng_source src;
	char longv[600];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_tpm2_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "tcti", ""), -EINVAL);
	memset(longv, 'a', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(src.ops->set_option(&src, "tcti", longv), -EINVAL);
	assert_int_equal(src.ops->set_option(&src, "device", "/dev/tpm0"), -EINVAL);
	assert_non_null(strstr(src.why, "known: tcti"));
	assert_int_equal(src.ops->set_option(&src, "tcti", "swtpm:host=127.0.0.1,port=1"), 0);
	rng_source_release(&src);
}

static void test_missing_device(void **state)
{
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_tpm2_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "tcti", "device:/nonexistent/tpmrm9"), 0);
	assert_int_not_equal(src.ops->probe(&src), 0);
	assert_non_null(strstr(src.why, "/nonexistent/tpmrm9"));
	assert_int_not_equal(src.ops->open(&src), 0);
	assert_int_equal(src.ops->read(&src, (char[8]){ 0 }, 8), -EBADF);
	src.ops->close(&src);
	rng_source_release(&src);
}

static void test_default_device_honest(void **state)
{
	struct rng_source src;
	int r;

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_tpm2_ops), 0);
	r = src.ops->probe(&src);
	if (access("/dev/tpmrm0", F_OK) != 0) {
		assert_int_equal(r, -ENODEV);
		assert_non_null(strstr(src.why, "no /dev/tpmrm0"));
	} else if (r != 0) {
		assert_true(src.why[0] != '\0');
	}
	rng_source_release(&src);
}

static void test_unknown_tcti(void **state)
{
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_tpm2_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "tcti", "nosuchtcti:x"), 0);
	assert_int_equal(src.ops->probe(&src), -ENODEV);
	assert_non_null(strstr(src.why, "nosuchtcti"));
	rng_source_release(&src);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_options),
	cmocka_unit_test(test_missing_device),
	cmocka_unit_test(test_default_device_honest),
	cmocka_unit_test(test_unknown_tcti)
)
