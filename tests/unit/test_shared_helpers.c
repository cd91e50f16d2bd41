/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The small inline helpers several files share: the capped doubling of a
 * retry delay (sources/backoff.h), a deadline turned into poll()'s
 * time-out (rngd/poll_timeout.h), the eventfd wake-up (rngd/eventfd.h),
 * and the fd that closes itself on return (sources/close_fd.h).
 */
#include <config.h>

#include <sys/eventfd.h>

#include <fcntl.h>

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/eventfd.h"
#include "rngd/every.h"
#include "rngd/loop.h"
#include "rngd/poll_timeout.h"
#include "rngd/sink.h"
#include "sources/backoff.h"
#include "sources/close_fd.h"

/* ---- rng_backoff_double ------------------------------------------------ */

/* The form the callers used to write out, computed without wrapping. */
static unsigned int naive_double(unsigned int ms, unsigned int max_ms)
{
	return (uint64_t)ms * 2 > max_ms ? max_ms : ms * 2;
}

static void test_backoff_doubles_up_to_the_cap(void **state)
{
	static const unsigned int want[] = { 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000 };
	unsigned int ms = RNGD_REOPEN_MIN_MS;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ms = rng_backoff_double(ms, RNGD_REOPEN_MAX_MS);
		assert_int_equal(ms, want[i]);
	}
}

static void test_backoff_at_and_past_the_cap(void **state)
{
	(void)state;
	/* Exactly half the cap doubles to the cap; one more is capped. */
	assert_int_equal(rng_backoff_double(2500, 5000), 5000);
	assert_int_equal(rng_backoff_double(2501, 5000), 5000);
	assert_int_equal(rng_backoff_double(2499, 5000), 4998);
	/* An odd cap: its half rounds down, and doubles below the cap. */
	assert_int_equal(rng_backoff_double(2, 5), 4);
	assert_int_equal(rng_backoff_double(3, 5), 5);
	/* Already past the cap (a cap lowered by a reload). */
	assert_int_equal(rng_backoff_double(9000, 5000), 5000);
	assert_int_equal(rng_backoff_double(0, 5000), 0);
	assert_int_equal(rng_backoff_double(7, 0), 0);
}

/* A delay so long that doubling it would wrap reaches the cap instead of
 * a near-zero delay (a retest-max of 86400000 ms is accepted). */
static void test_backoff_does_not_wrap(void **state)
{
	(void)state;
	assert_int_equal(rng_backoff_double(UINT_MAX / 2 + 1, UINT_MAX), UINT_MAX);
	assert_int_equal(rng_backoff_double(UINT_MAX, 86400000u), 86400000u);
	assert_int_equal(rng_backoff_double(UINT_MAX / 2, UINT_MAX), UINT_MAX - 1);
}

/* The helper replaced "ms * 2 > max ? max : ms * 2" at every call site:
 * same answer for every delay that cannot wrap, for each site's cap. */
static void test_backoff_same_as_the_open_coded_form(void **state)
{
	/* 5000: TPM_TSS_BACKOFF_MAX_MS, whose header needs libtspi's. */
	static const unsigned int caps[] = { RNGD_REOPEN_MAX_MS, 5000, 86400000u, 1, 7 };

	(void)state;
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
		for (unsigned int ms = 0; ms <= 70000; ms++)
			if (rng_backoff_double(ms, caps[c]) != naive_double(ms, caps[c]))
				fail_msg("cap %u, %u ms: %u, not %u", caps[c], ms,
					 rng_backoff_double(ms, caps[c]), naive_double(ms, caps[c]));
}

/* ---- rngd_poll_timeout_ms ---------------------------------------------- */

static void test_poll_timeout_no_deadline_waits_forever(void **state)
{
	(void)state;
	assert_int_equal(rngd_poll_timeout_ms(0, UINT64_MAX), -1);
	assert_int_equal(rngd_poll_timeout_ms(12345, UINT64_MAX), -1);
	/* The loop passes the sink's "never" as is. */
	assert_int_equal(rngd_poll_timeout_ms(12345, RNG_SINK_NEVER), -1);
}

static void test_poll_timeout_past_deadline_is_zero(void **state)
{
	(void)state;
	assert_int_equal(rngd_poll_timeout_ms(1000, 1000), 0);
	assert_int_equal(rngd_poll_timeout_ms(1000, 999), 0);
	assert_int_equal(rngd_poll_timeout_ms(1000, 0), 0);
	assert_int_equal(rngd_poll_timeout_ms(UINT64_MAX - 1, 5), 0);
}

static void test_poll_timeout_future_deadline(void **state)
{
	(void)state;
	assert_int_equal(rngd_poll_timeout_ms(1000, 1001), 1);
	assert_int_equal(rngd_poll_timeout_ms(1000, 1250), 250);
	assert_int_equal(rngd_poll_timeout_ms(0, 30000), 30000);
}

/* poll() takes an int: a deadline further off is waited for in parts. */
static void test_poll_timeout_far_future_clamped(void **state)
{
	(void)state;
	assert_int_equal(rngd_poll_timeout_ms(10, 10 + (uint64_t)INT_MAX), INT_MAX);
	assert_int_equal(rngd_poll_timeout_ms(10, 11 + (uint64_t)INT_MAX), INT_MAX);
	assert_int_equal(rngd_poll_timeout_ms(10, 9 + (uint64_t)INT_MAX), INT_MAX - 1);
	assert_int_equal(rngd_poll_timeout_ms(0, UINT64_MAX - 1), INT_MAX);
}

/* ---- rngd_eventfd_poke ------------------------------------------------- */

static void test_poke_adds_one(void **state)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	rngd_eventfd_poke(fd);
	assert_int_equal(rngd_eventfd_take(fd), 1);
	rngd_eventfd_poke(fd);
	rngd_eventfd_poke(fd);
	assert_int_equal(rngd_eventfd_take(fd), 2);
	/* Read: nothing left. */
	assert_int_equal(rngd_eventfd_take(fd), 0);
	(void)close(fd);
}

/* A counter that cannot take one more: the poke neither blocks nor
 * changes it, and the poller still sees it non-zero. */
static void test_poke_full_counter_is_harmless(void **state)
{
	const uint64_t almost_full = UINT64_MAX - 1;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, &almost_full, sizeof(almost_full)), sizeof(almost_full));
	rngd_eventfd_poke(fd);
	assert_true(rngd_eventfd_take(fd) == almost_full);
	(void)close(fd);
}

/* A wake-up fd that was never opened: no write is tried, so a caller's
 * errno is left as it was. */
static void test_poke_no_fd(void **state)
{
	(void)state;
	errno = ENOTTY;
	rngd_eventfd_poke(-1);
	assert_int_equal(errno, ENOTTY);
}

/* ---- RNG_CLOSE_ON_RETURN, rng_take_fd ------------------------------------ */

/* An open path in miniature: it opens, and on @fail returns early. Its
 * fd number goes to *@seen; on success the caller keeps the fd. */
static int open_path(bool fail, int *seen)
{
	int fd RNG_CLOSE_ON_RETURN = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	*seen = fd;
	if (fail)
		return -EIO;
	return rng_take_fd(&fd);
}

static bool fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static void test_close_on_return_closes_an_early_return(void **state)
{
	int seen = -1;

	(void)state;
	assert_int_equal(open_path(true, &seen), -EIO);
	assert_true(seen >= 0);
	assert_false(fd_is_open(seen));
}

static void test_take_fd_keeps_it_open(void **state)
{
	int seen = -1, kept;

	(void)state;
	kept = open_path(false, &seen);
	assert_int_equal(kept, seen);
	assert_true(fd_is_open(kept));
	(void)close(kept);
}

/* ---- rngd/every.h --------------------------------------------------------- */

/* Due at its next time exactly, not a millisecond before; then next is
 * a whole period from when it ran. */
static void test_every_due_at_the_edge(void **state)
{
	struct rngd_every e = { .every_ms = 1000, .next_ms = 5000 };
	uint64_t next = UINT64_MAX;

	(void)state;
	assert_false(rngd_every_due(&e, 4999, &next));
	assert_int_equal(next, 5000);
	next = UINT64_MAX;
	assert_true(rngd_every_due(&e, 5000, &next));
	assert_int_equal(e.next_ms, 6000);
	assert_int_equal(next, 6000);
	/* Late: the next one counts from now, no burst to catch up. */
	assert_true(rngd_every_due(&e, 9500, &next));
	assert_int_equal(e.next_ms, 10500);
}

/* The earlier deadline wins; a job without a wake-up leaves it alone. */
static void test_every_folds_the_earliest_deadline(void **state)
{
	struct rngd_every e = { .every_ms = 1000, .next_ms = 5000 };
	uint64_t next = 4000;

	(void)state;
	assert_false(rngd_every_due(&e, 3000, &next));
	assert_int_equal(next, 4000);
	next = 7000;
	assert_false(rngd_every_due(&e, 3000, &next));
	assert_int_equal(next, 5000);
	assert_true(rngd_every_due(&e, 5000, NULL));
	assert_int_equal(e.next_ms, 6000);
}

/* A period of 0 is off: never due, no deadline, whatever the clock. */
static void test_every_off(void **state)
{
	struct rngd_every e = { .every_ms = 0, .next_ms = 0 };
	uint64_t next = UINT64_MAX;

	(void)state;
	assert_false(rngd_every_due(&e, 0, &next));
	assert_false(rngd_every_due(&e, UINT64_MAX - 1, &next));
	assert_int_equal(next, UINT64_MAX);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_every_due_at_the_edge),
	cmocka_unit_test(test_every_folds_the_earliest_deadline),
	cmocka_unit_test(test_every_off),
	cmocka_unit_test(test_backoff_doubles_up_to_the_cap),
	cmocka_unit_test(test_backoff_at_and_past_the_cap),
	cmocka_unit_test(test_backoff_does_not_wrap),
	cmocka_unit_test(test_backoff_same_as_the_open_coded_form),
	cmocka_unit_test(test_poll_timeout_no_deadline_waits_forever),
	cmocka_unit_test(test_poll_timeout_past_deadline_is_zero),
	cmocka_unit_test(test_poll_timeout_future_deadline),
	cmocka_unit_test(test_poll_timeout_far_future_clamped),
	cmocka_unit_test(test_poke_adds_one),
	cmocka_unit_test(test_poke_full_counter_is_harmless),
	cmocka_unit_test(test_poke_no_fd),
	cmocka_unit_test(test_close_on_return_closes_an_early_return),
	cmocka_unit_test(test_take_fd_keeps_it_open))
