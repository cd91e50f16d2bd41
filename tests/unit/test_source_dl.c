/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading an optional library (sources/dl.c): a library that is there
 * fills every slot; a missing library or a missing symbol fills none and
 * says which, in the one line rngd -l and the log show.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "sources/dl.h"
#include "sources/source.h"

/* libc, which is certainly there, stands in for an optional library. */
#define PRESENT_SONAME "libc.so.6"

struct table {
	size_t (*strlen_fn)(const char *s);
	int (*strcmp_fn)(const char *a, const char *b);
};

static void test_loads_every_symbol(void **state)
{
	struct rng_source src = { .ops = NULL };
	struct table t = { 0 };
	const struct rng_dl_sym syms[] = {
		RNG_DL_SYM(&t, strlen_fn, strlen),
		RNG_DL_SYM(&t, strcmp_fn, strcmp),
	};
	void *handle = NULL, *first;

	(void)state;
	assert_int_equal(rng_dl_load(&src, PRESENT_SONAME, &handle, syms, 2), 0);
	assert_non_null(handle);
	assert_int_equal(t.strlen_fn("four"), 4);
	assert_int_equal(t.strcmp_fn("a", "a"), 0);
	/* Loaded once: a second call keeps the handle. */
	first = handle;
	assert_int_equal(rng_dl_load(&src, PRESENT_SONAME, &handle, syms, 2), 0);
	assert_ptr_equal(handle, first);
	rng_dl_unload(&handle);
	assert_null(handle);
	rng_dl_unload(&handle);         /* harmless twice */
}

static void test_missing_library(void **state)
{
	struct rng_source src = { .ops = NULL };
	struct table t = { 0 };
	const struct rng_dl_sym syms[] = { RNG_DL_SYM(&t, strlen_fn, strlen) };
	void *handle = NULL;

	(void)state;
	assert_int_equal(rng_dl_load(&src, "librngd-no-such-library.so.7", &handle, syms, 1), -ENODEV);
	assert_null(handle);
	assert_null(t.strlen_fn);
	assert_non_null(strstr(src.why, "librngd-no-such-library.so.7 not installed"));
}

static void test_missing_symbol_fills_nothing(void **state)
{
	struct rng_source src = { .ops = NULL };
	struct table t = { 0 };
	/* A right type under a name libc does not have. */
	const struct rng_dl_sym syms[] = {
		RNG_DL_SYM(&t, strlen_fn, strlen),
		{ "rngd_no_such_function", (void **)&t.strcmp_fn },
	};
	void *handle = NULL;

	(void)state;
	assert_int_equal(rng_dl_load(&src, PRESENT_SONAME, &handle, syms, 2), -ENODEV);
	assert_null(handle);
	assert_null(t.strlen_fn);
	assert_null(t.strcmp_fn);
	assert_non_null(strstr(src.why, "libc.so.6 lacks rngd_no_such_function"));
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_loads_every_symbol),
	cmocka_unit_test(test_missing_library),
	cmocka_unit_test(test_missing_symbol_fills_nothing)
)
