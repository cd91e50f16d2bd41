/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PKCS#11 source without a token: CKR_* names, the PIN file rules, the
 * option parser, and "off unless configured". Tokens themselves are tested
 * against SoftHSM2 in tests/integration/source-pkcs11.sh.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "tests/lib/source_fixture.h"

#include "sources/pkcs11.h"
#include "sources/source.h"

static void test_rv_names(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(pkcs11_rv_name(0xA0, buf, sizeof(buf)), "CKR_PIN_INCORRECT");
	assert_string_equal(pkcs11_rv_name(0x32, buf, sizeof(buf)), "CKR_DEVICE_REMOVED");
	assert_string_equal(pkcs11_rv_name(0xE0, buf, sizeof(buf)), "CKR_TOKEN_NOT_PRESENT");
	assert_string_equal(pkcs11_rv_name(0x121, buf, sizeof(buf)), "CKR_RANDOM_NO_RNG");
	assert_string_equal(pkcs11_rv_name(0x80001234, buf, sizeof(buf)), "CKR_0x80001234");
}

static char *write_pin(const char *text, mode_t mode)
{
	static char path[] = "/tmp/rngd-pin.XXXXXX";
	int fd;

	strcpy(path, "/tmp/rngd-pin.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	(void)close(fd);
	return path;
}

static void test_pin_file(void **state)
{
	char pin[PKCS11_PIN_MAX], why[RNG_SOURCE_WHY_MAX];
	char *path;

	(void)state;
	path = write_pin("1234\nsecond line\n", 0600);
	assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), 0);
	assert_string_equal(pin, "1234");
	(void)unlink(path);

	path = write_pin("1234\r\n", 0640);
	assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), 0);
	assert_string_equal(pin, "1234");
	(void)unlink(path);

	path = write_pin("1234\n", 0644);
	assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "readable by others"));
	(void)unlink(path);

	path = write_pin("\n", 0600);
	assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), -EINVAL);
	(void)unlink(path);

	assert_int_equal(pkcs11_read_pin_file("/nonexistent/pin", pin, sizeof(pin), why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "/nonexistent/pin"));
}

/* The longest PIN is PKCS11_PIN_MAX - 2 characters, with or without its
 * line end; only the first line's length counts. */
static void test_pin_file_length_edges(void **state)
{
	char pin[PKCS11_PIN_MAX], why[RNG_SOURCE_WHY_MAX];
	char text[2 * PKCS11_PIN_MAX + 8];
	const size_t longest = PKCS11_PIN_MAX - 2;
	char *path;

	(void)state;
	for (int with_newline = 0; with_newline <= 1; with_newline++) {
		memset(text, '7', longest);
		strcpy(text + longest, with_newline ? "\n" : "");
		path = write_pin(text, 0600);
		assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), 0);
		assert_int_equal(strlen(pin), longest);
		(void)unlink(path);

		memset(text, '7', longest + 1);
		strcpy(text + longest + 1, with_newline ? "\n" : "");
		path = write_pin(text, 0600);
		assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "PIN too long"));
		(void)unlink(path);
	}
	/* A short PIN, then a second line longer than the buffer. */
	strcpy(text, "4321\n");
	memset(text + 5, 'x', PKCS11_PIN_MAX + 10);
	text[5 + PKCS11_PIN_MAX + 10] = '\0';
	path = write_pin(text, 0600);
	assert_int_equal(pkcs11_read_pin_file(path, pin, sizeof(pin), why, sizeof(why)), 0);
	assert_string_equal(pin, "4321");
	(void)unlink(path);
}

static void test_rejects_bad_options_and_stays_off_without_module(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_pkcs11_ops);
	static const struct option_case cases[] = {
		{ "chunk", "0", -EINVAL }, { "chunk", "65537", -EINVAL }, { "chunk", "-1", -EINVAL },
		{ "chunk", "4096", 0 },    { "slot", "x", -EINVAL },      { "slot", "3", 0 },
		{ "pin", "1234", -EINVAL }, /* no PIN on the command line: only pin-file */
		{ NULL, NULL, 0 },
	};

	(void)state;
	assert_true(src->entropy_per_bit == 0.0);
	assert_set_options(src, cases);
	assert_why_mentions(src, "unknown option");
	assert_int_equal(src->ops->set_option(src, "token", "a-label-longer-than-thirty-two-bytes"), -EINVAL);
	/* Off unless configured. */
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_why_mentions(src, "no module configured");
	assert_int_equal(src->ops->set_option(src, "module", "/nonexistent/module.so"), 0);
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_why_mentions(src, "/nonexistent/module.so: No such file");
	fixture_source_free(src);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_rv_names),
	cmocka_unit_test(test_pin_file),
	cmocka_unit_test(test_pin_file_length_edges),
	cmocka_unit_test(test_rejects_bad_options_and_stays_off_without_module)
)
