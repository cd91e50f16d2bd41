/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD reserve: first in first out across the ring's wrap, bounded,
 * every byte taken once and its place wiped, the snapshot's fields and
 * its want's low-water hysteresis, the two wake-ups, and a
 * producer/consumer race that must hand every byte over exactly once.
 */
#include <config.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/lib/test_main.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "rngd/egd_reserve.h"
#include "rngd/eventfd.h"

static void fill_pattern(uint8_t *buf, size_t len, uint32_t start)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)((start + i) * 2654435761u >> 24) | 1u;   /* never 0 */
}

static void assert_snapshot_equal(struct egd_reserve *r, const struct egd_reserve_snapshot *expected)
{
	struct egd_reserve_snapshot snap = egd_reserve_snapshot(r);

	assert_int_equal(snap.held, expected->held);
	assert_int_equal(snap.want, expected->want);
	assert_int_equal(snap.bytes_in, expected->bytes_in);
	assert_int_equal(snap.bytes_out, expected->bytes_out);
}

/* The snapshot of @r is the one the designated initializers after @r give. */
#define assert_snapshot(r, ...) assert_snapshot_equal((r), &(struct egd_reserve_snapshot){ __VA_ARGS__ })

static void test_init_rejects_out_of_bounds_size_and_destroy_is_idempotent(void **state)
{
	struct egd_reserve r;

	(void)state;
	assert_int_equal(egd_reserve_init(&r, EGD_RESERVE_MIN_BYTES - 1), -EINVAL);
	egd_reserve_destroy(&r);
	assert_int_equal(egd_reserve_init(&r, EGD_RESERVE_MAX_BYTES + 1), -EINVAL);
	egd_reserve_destroy(&r);
	assert_int_equal(egd_reserve_init(&r, 1024), 0);
	egd_reserve_destroy(&r);
	egd_reserve_destroy(&r);   /* twice is harmless */
}

/* A reserve of 1000 bytes for each case that wants one, destroyed after
 * it even when an assertion ends the case half-way. */
static int setup_reserve(void **state)
{
	struct egd_reserve *r = malloc(sizeof(*r));

	if (r == NULL || egd_reserve_init(r, 1000) != 0) {
		free(r);
		return -1;
	}
	*state = r;
	return 0;
}

static int teardown_reserve(void **state)
{
	egd_reserve_destroy(*state);
	free(*state);
	return 0;
}

static void test_fifo_wrap_and_wipe(void **state)
{
	struct egd_reserve *r = *state;
	uint8_t in[3000], out[3000];
	size_t got = 0;

	fill_pattern(in, sizeof(in), 7);
	/* Bounded: only the free space is accepted. */
	assert_int_equal(egd_reserve_put(r, in, 1200), 1000);
	assert_int_equal(egd_reserve_snapshot(r).held, 1000);
	assert_int_equal(egd_reserve_put(r, in, 10), 0);
	/* Take 700, put 600 more (wrapping), take everything: FIFO order. */
	assert_int_equal(egd_reserve_take(r, out, 700), 700);
	got = 700;
	for (size_t i = 0; i < 700; i++)
		assert_int_equal(r->buf[i], 0);   /* wiped where it lay */
	assert_int_equal(egd_reserve_put(r, in + 1000, 600), 600);
	while (egd_reserve_snapshot(r).held) {
		size_t n = egd_reserve_take(r, out + got, 333);

		assert_true(n > 0);
		got += n;
	}
	assert_int_equal(got, 1600);
	assert_memory_equal(out, in, 1600);
	/* Nothing left anywhere in the ring. */
	for (size_t i = 0; i < r->capacity; i++)
		assert_int_equal(r->buf[i], 0);
	assert_int_equal(egd_reserve_take(r, out, 10), 0);
	assert_snapshot(r, .held = 0, .want = 1000, .bytes_in = 1600, .bytes_out = 1600);
}

/* Every field of one snapshot, at values that all differ, so a field
 * copied from the wrong place or a want computed wrong shows. */
static void test_snapshot_fields(void **state)
{
	struct egd_reserve *r = *state;
	uint8_t buf[800];

	fill_pattern(buf, sizeof(buf), 3);
	assert_int_equal(egd_reserve_put(r, buf, 800), 800);
	assert_int_equal(egd_reserve_take(r, buf, 450), 450);
	assert_snapshot(r, .held = 350, .want = 650, .bytes_in = 800, .bytes_out = 450);
	/* Above the low-water mark it wants nothing, whatever is free. */
	assert_int_equal(egd_reserve_put(r, buf, 200), 200);
	assert_snapshot(r, .held = 550, .want = 0, .bytes_in = 1000, .bytes_out = 450);
}

static void test_want_and_wakeups(void **state)
{
	struct egd_reserve *r = *state;
	uint8_t buf[1024];
	int data = eventfd(0, EFD_NONBLOCK), want = eventfd(0, EFD_NONBLOCK);

	assert_true(data >= 0 && want >= 0);
	fill_pattern(buf, sizeof(buf), 1);
	egd_reserve_set_data_wake(r, data);
	egd_reserve_set_want_wake(r, want);
	assert_int_equal(egd_reserve_snapshot(r).want, 1000);
	assert_int_equal(egd_reserve_put(r, buf, 400), 400);
	assert_true(rngd_eventfd_take(data) > 0);
	/* At or under the low-water mark (half): it asks for all the free space. */
	assert_int_equal(egd_reserve_snapshot(r).want, 600);
	assert_int_equal(egd_reserve_put(r, buf, 600), 600);
	assert_int_equal(egd_reserve_snapshot(r).want, 0);
	/* Above the mark: takes do not ask for more, and do not wake the loop. */
	assert_int_equal(egd_reserve_take(r, buf, 400), 400);
	assert_int_equal(egd_reserve_snapshot(r).want, 0);
	assert_int_equal(rngd_eventfd_take(want), 0);
	/* Crossing the mark wakes the loop once. */
	assert_int_equal(egd_reserve_take(r, buf, 100), 100);
	assert_int_equal(egd_reserve_snapshot(r).want, 500);
	assert_true(rngd_eventfd_take(want) > 0);
	assert_int_equal(egd_reserve_take(r, buf, 100), 100);
	assert_int_equal(rngd_eventfd_take(want), 0);
	/* An empty put wakes nobody. */
	(void)rngd_eventfd_take(data);
	assert_int_equal(egd_reserve_put(r, buf, 0), 0);
	assert_int_equal(rngd_eventfd_take(data), 0);
	close(data);
	close(want);
}

/* ---- every byte once, under a race ---- */

#define RACE_BYTES (1u << 20)

struct race {
	struct egd_reserve r;
	uint8_t *in;
	uint8_t *out;
	size_t out_len;
	pthread_mutex_t lock;
};

static void *taker(void *arg)
{
	struct race *x = arg;
	uint8_t buf[97];

	for (;;) {
		size_t n;

		(void)pthread_mutex_lock(&x->lock);
		if (x->out_len == RACE_BYTES) {
			(void)pthread_mutex_unlock(&x->lock);
			return NULL;
		}
		/* Take and record under one lock: the order of takes is the order of bytes. */
		n = egd_reserve_take(&x->r, buf, sizeof(buf));
		memcpy(x->out + x->out_len, buf, n);
		x->out_len += n;
		(void)pthread_mutex_unlock(&x->lock);
	}
}

static void test_race_each_byte_once(void **state)
{
	struct race x;
	pthread_t t[3];
	size_t off = 0;

	(void)state;
	memset(&x, 0, sizeof(x));
	x.in = malloc(RACE_BYTES);
	x.out = malloc(RACE_BYTES);
	assert_non_null(x.in);
	assert_non_null(x.out);
	fill_pattern(x.in, RACE_BYTES, 99);
	(void)pthread_mutex_init(&x.lock, NULL);
	assert_int_equal(egd_reserve_init(&x.r, 4096), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&t[i], NULL, taker, &x), 0);
	while (off < RACE_BYTES)
		off += egd_reserve_put(&x.r, x.in + off, RACE_BYTES - off < 1500 ? RACE_BYTES - off : 1500);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(x.out_len, RACE_BYTES);
	assert_memory_equal(x.out, x.in, RACE_BYTES);
	egd_reserve_destroy(&x.r);
	free(x.in);
	free(x.out);
}

#define RNGD_TEST_SETUP setup_reserve
#define RNGD_TEST_TEARDOWN teardown_reserve

RNGD_TEST_MAIN(
	cmocka_unit_test(test_init_rejects_out_of_bounds_size_and_destroy_is_idempotent),
	RNGD_FIXTURE_TEST(test_fifo_wrap_and_wipe),
	RNGD_FIXTURE_TEST(test_snapshot_fields),
	RNGD_FIXTURE_TEST(test_want_and_wakeups),
	cmocka_unit_test(test_race_each_byte_once)
)
