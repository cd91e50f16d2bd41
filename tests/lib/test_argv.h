/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An argv for the option-parsing tests, from a NULL-terminated word list. */
#ifndef RNGD_TESTS_LIB_TEST_ARGV_H
#define RNGD_TESTS_LIB_TEST_ARGV_H

#include <stdarg.h>

/* Words after the program name that test_argv_from() takes at the most. */
#define TEST_ARGV_MAX 62

/*
 * Fill @argv with @argv0, the words of @ap up to its NULL, and a final
 * NULL; returns argc. More than TEST_ARGV_MAX words fail the test.
 */
int test_argv_from(char *argv[TEST_ARGV_MAX + 2], const char *argv0, va_list ap);

#endif
