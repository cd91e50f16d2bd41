/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/source_fixture.h"

struct rng_source *fixture_source_new(const struct rng_source_ops *ops)
{
	struct rng_source *src = calloc(1, sizeof(*src));

	assert_non_null(src);
	assert_int_equal(rng_source_init(src, ops), 0);
	return src;
}

void fixture_source_free(struct rng_source *src)
{
	src->ops->close(src);
	rng_source_release(src);
	free(src);
}

int fixture_source_teardown(void **state)
{
	fixture_source_free(*state);
	return 0;
}

/* src->why names @reason; else the test fails quoting what @call said. */
static void why_names(const struct rng_source *src, const char *call, const char *reason)
{
	if (!strstr(src->why, reason))
		fail_msg("%s: %s \"%s\", expected it to name \"%s\"", src->name, call, src->why, reason);
}

void assert_source_refuses(struct rng_source *src, int err, const char *reason)
{
	assert_int_equal(src->ops->probe(src), err);
	why_names(src, "probe says", reason);
	assert_open_fails(src, err, reason);
}

void assert_why_mentions(const struct rng_source *src, const char *text)
{
	why_names(src, "says", text);
}

void assert_open_fails(struct rng_source *src, int err, const char *reason)
{
	assert_int_equal(src->ops->open(src), err);
	why_names(src, "open says", reason);
}

void assert_read_fails(struct rng_source *src, size_t len, int err, const char *reason)
{
	unsigned char buf[4096];

	assert_true(len <= sizeof(buf));
	assert_int_equal(src->ops->read(src, buf, len), err);
	why_names(src, "read says", reason);
}

void assert_source_closed(struct rng_source *src)
{
	unsigned char buf[16];

	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), -EBADF);
}

void assert_source_reopens(struct rng_source *src, size_t len)
{
	unsigned char buf[4096];

	assert_true(len <= sizeof(buf));
	assert_source_closed(src);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, len), (ssize_t)len);
}

bool fixture_native_read(const struct rng_source_ops *ops, bool present, void *buf, size_t len)
{
	struct rng_source *src = fixture_source_new(ops);

	if (!present) {
		assert_int_equal(src->ops->probe(src), -ENODEV);
		print_message("native: unusable here: %s\n", src->why);
	} else {
		assert_int_equal(src->ops->probe(src), 0);
		assert_int_equal(src->ops->open(src), 0);
		assert_int_equal(src->ops->read(src, buf, len), (ssize_t)len);
		print_message("native: %s\n", src->why);
	}
	fixture_source_free(src);
	return present;
}

void assert_set_options(struct rng_source *src, const struct option_case *cases)
{
	for (const struct option_case *c = cases; c->key; c++) {
		int ret = src->ops->set_option(src, c->key, c->value);

		if (ret != c->ret)
			fail_msg("%s: set_option(%s, \"%s\") = %d (%s), expected %d", src->name, c->key, c->value, ret,
				 src->why, c->ret);
	}
}
