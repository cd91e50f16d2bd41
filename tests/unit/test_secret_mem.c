/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rngd's memory (tested bytes) stays out of core dumps. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/secret_mem.h"

static void test_not_dumpable(void **state)
{
	(void)state;
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1);
	assert_int_equal(secret_mem_no_core_dumps(), 0);
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_not_dumpable)
)
