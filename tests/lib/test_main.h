/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one main() of the cmocka unit tests: each test file lists its cases
 * and nothing else, so a change to how the tests are run (a group set-up,
 * an output format) is made here once instead of in forty files.
 */
#ifndef RNGD_TESTS_LIB_TEST_MAIN_H
#define RNGD_TESTS_LIB_TEST_MAIN_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* main() running the listed CMUnitTest cases, with group fixtures. */
#define RNGD_TEST_MAIN_WITH(group_setup, group_teardown, ...)                          \
	int main(void)                                                                  \
	{                                                                               \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };                      \
		return cmocka_run_group_tests(tests, group_setup, group_teardown);      \
	}

/* main() running the listed CMUnitTest cases. */
#define RNGD_TEST_MAIN(...) RNGD_TEST_MAIN_WITH(NULL, NULL, __VA_ARGS__)

/*
 * A case run between the file's usual per-case set-up and tear-down. Most
 * files run every case inside one fixture; they name it once, by defining
 * RNGD_TEST_SETUP and RNGD_TEST_TEARDOWN above the list, instead of on every
 * line of it. A case with another fixture is listed with cmocka's own macro.
 */
#define RNGD_FIXTURE_TEST(f) cmocka_unit_test_setup_teardown(f, RNGD_TEST_SETUP, RNGD_TEST_TEARDOWN)

#endif
