/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every source gets from sources/common.c: its state allocated,
 * aligned and filled with its defaults, freed for it, and the reader's
 * wait fd asked for only where the source has one.
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

#include "sources/source.h"

struct demo_state {
	int level;
	char name[40];
	unsigned char scratch[64] __attribute__((aligned(64)));
};

static const struct demo_state demo_defaults = { .level = 7, .name = "seven" };

static int released;

static void demo_release(struct rng_source *src)
{
	const struct demo_state *st = src->priv;

	/* The state is still there when release() runs. */
	assert_int_equal(st->level, 7);
	released++;
}

static int demo_wait_fd(const struct rng_source *src)
{
	(void)src;
	return 42;
}

static const struct rng_source_ops demo_ops = {
	.name = "demo",
	.default_entropy_per_bit = 0.25,
	.default_priority = 3,
	.priv_size = sizeof(struct demo_state),
	.priv_defaults = &demo_defaults,
	.release = demo_release,
	.wait_fd = demo_wait_fd,
};

static const struct rng_source_ops zeroed_ops = {
	.name = "zeroed",
	.priv_size = 3000,
};

static const struct rng_source_ops stateless_ops = { .name = "stateless" };

static void test_init_fills_priv_from_defaults_aligned(void **state)
{
	struct rng_source src;
	const struct demo_state *st;

	(void)state;
	assert_int_equal(rng_source_init(&src, &demo_ops), 0);
	st = src.priv;
	assert_non_null(st);
	assert_int_equal((uintptr_t)st % RNG_SOURCE_PRIV_ALIGN, 0);
	assert_int_equal(st->level, 7);
	assert_string_equal(st->name, "seven");
	assert_string_equal(src.name, "demo");
	assert_true(src.entropy_per_bit == 0.25);
	assert_true(src.credit_ceiling == 1.0);
	assert_int_equal(src.priority, 3);
	assert_string_equal(src.why, "");
	released = 0;
	rng_source_release(&src);
	assert_int_equal(released, 1);
	assert_null(src.priv);
	/* Twice is harmless: nothing is left to let go of. */
	rng_source_release(&src);
	assert_int_equal(released, 1);
}

static void test_init_without_defaults_zeroes_priv(void **state)
{
	struct rng_source src;
	const unsigned char *p;

	(void)state;
	memset(&src, 0xa5, sizeof(src));
	assert_int_equal(rng_source_init(&src, &zeroed_ops), 0);
	p = src.priv;
	assert_non_null(p);
	for (size_t i = 0; i < zeroed_ops.priv_size; i++)
		assert_int_equal(p[i], 0);
	rng_source_release(&src);
	assert_null(src.priv);
}

static void test_stateless_source_has_no_priv_and_no_wait_fd(void **state)
{
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &stateless_ops), 0);
	assert_null(src.priv);
	assert_int_equal(rng_source_wait_fd(&src), -1);
	rng_source_release(&src);
}

static void test_wait_fd_asks_the_source(void **state)
{
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &demo_ops), 0);
	assert_int_equal(rng_source_wait_fd(&src), 42);
	rng_source_release(&src);
}

static void test_impossible_priv_size_is_enomem(void **state)
{
	const struct rng_source_ops huge_ops = { .name = "huge", .priv_size = SIZE_MAX - 1 };
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &huge_ops), -ENOMEM);
	assert_null(src.priv);
	assert_string_equal(src.why, "out of memory");
	rng_source_release(&src);
}

/* A field of 8 bytes holds 7 characters: 7 fit, 8 do not; a refused
 * value leaves the field as it was. */
static void test_option_text_fits_or_leaves_the_field(void **state)
{
	char field[8] = "old";

	(void)state;
	assert_int_equal(rng_option_text(field, sizeof(field), "1234567", false), 0);
	assert_string_equal(field, "1234567");
	assert_int_equal(rng_option_text(field, sizeof(field), "12345678", false), -EINVAL);
	assert_int_equal(rng_option_text(field, sizeof(field), "", false), -EINVAL);
	assert_string_equal(field, "1234567");
	assert_int_equal(rng_option_text(field, sizeof(field), "/dev/x", true), 0);
	assert_string_equal(field, "/dev/x");
	assert_int_equal(rng_option_text(field, sizeof(field), "dev/x", true), -EINVAL);
	assert_int_equal(rng_option_text(field, sizeof(field), "", true), -EINVAL);
	assert_string_equal(field, "/dev/x");
}

/* A source's only text key: set, refused with the reason, or unknown. */
static void test_only_text_option_names_what_is_wrong(void **state)
{
	struct rng_source src;
	char field[8] = "old";

	(void)state;
	memset(&src, 0, sizeof(src));
	assert_int_equal(rng_option_only_text(&src, "root", "/x", "root", field, sizeof(field), true), 0);
	assert_string_equal(field, "/x");
	assert_int_equal(rng_option_only_text(&src, "colour", "/y", "root", field, sizeof(field), true), -EINVAL);
	assert_string_equal(src.why, "unknown option 'colour' (known: root)");
	assert_int_equal(rng_option_only_text(&src, "root", "y", "root", field, sizeof(field), true), -EINVAL);
	assert_string_equal(src.why, "root 'y' is not an absolute path shorter than 8");
	assert_int_equal(rng_option_only_text(&src, "tcti", "12345678", "tcti", field, sizeof(field), false),
			 -EINVAL);
	assert_string_equal(src.why, "tcti '12345678' is empty or longer than 7");
	assert_string_equal(field, "/x");
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_option_text_fits_or_leaves_the_field),
	cmocka_unit_test(test_only_text_option_names_what_is_wrong),
	cmocka_unit_test(test_init_fills_priv_from_defaults_aligned),
	cmocka_unit_test(test_init_without_defaults_zeroes_priv),
	cmocka_unit_test(test_stateless_source_has_no_priv_and_no_wait_fd),
	cmocka_unit_test(test_wait_fd_asks_the_source),
	cmocka_unit_test(test_impossible_priv_size_is_enomem)
)
