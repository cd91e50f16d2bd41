/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/test_argv.h"

int test_argv_from(char *argv[TEST_ARGV_MAX + 2], const char *argv0, va_list ap)
{
	int argc = 0;

	argv[argc++] = (char *)argv0;
	for (char *a; (a = va_arg(ap, char *));) {
		if (argc > TEST_ARGV_MAX)
			fail_msg("more than %d words for one argv", TEST_ARGV_MAX);
		argv[argc++] = a;
	}
	argv[argc] = NULL;
	return argc;
}
