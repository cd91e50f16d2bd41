/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every source unit test sets up and checks the same way: a source
 * made for a test and torn down after it, and a source that must refuse.
 * cmocka's assertions: include <cmocka.h> (and its prerequisites) first.
 */
#ifndef RNGD_TESTS_LIB_SOURCE_FIXTURE_H
#define RNGD_TESTS_LIB_SOURCE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "sources/source.h"

/* A fresh, initialised source of @ops (fails the test if out of memory). */
struct rng_source *fixture_source_new(const struct rng_source_ops *ops);

/* close(), rng_source_release() and free(): a test's teardown. */
void fixture_source_free(struct rng_source *src);

/* cmocka's teardown for a test whose *state is fixture_source_new()'s. */
int fixture_source_teardown(void **state);

/* probe() and open() both fail with @err, and src->why says @reason. */
void assert_source_refuses(struct rng_source *src, int err, const char *reason);

/* src->why contains @text (the failure message shows what it said instead). */
void assert_why_mentions(const struct rng_source *src, const char *text);

/* open() fails with @err, and src->why says @reason. */
void assert_open_fails(struct rng_source *src, int err, const char *reason);

/* A read() of @len bytes (at most 4096) fails with @err, and src->why says @reason. */
void assert_read_fails(struct rng_source *src, size_t len, int err, const char *reason);

/* read() answers -EBADF: the source is not open. */
void assert_source_closed(struct rng_source *src);

/* After close(): read() answers -EBADF, open() works again, and so does a read of @len bytes (at most 4096). */
void assert_source_reopens(struct rng_source *src, size_t len);

/*
 * A source of @ops on the real CPU. Where @present (the test's own reading
 * of the CPU, not the source's), probe() and open() work and a read fills
 * all @len bytes of @buf; elsewhere probe() refuses with -ENODEV. Prints
 * what src->why says either way, frees the source, and returns @present:
 * whether @buf holds words to check.
 */
bool fixture_native_read(const struct rng_source_ops *ops, bool present, void *buf, size_t len);

/* One set_option() call and what it must return. */
struct option_case {
	const char *key, *value;
	int ret;
};

/* set_option() with each case in turn, up to one with a NULL key, returns its .ret. */
void assert_set_options(struct rng_source *src, const struct option_case *cases);

#endif
