/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rngd/policy.c: which block goes next, quarantine and re-test back-off, mixing. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/policy.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_pick_takes_the_highest_priority_ready_source(void **state)
{
	const struct rngd_pick_candidate c[] = {
		{ .ready = true, .credited = true, .priority = 3 },
		{ .ready = true, .credited = true, .priority = 10 },
		{ .ready = false, .credited = true, .priority = 20 },  /* nothing queued, or waiting out a quarantine */
		{ .ready = true, .credited = false, .priority = 5 },
	};

	(void)state;
	assert_int_equal(rngd_policy_pick(c, N(c), false, false), 1);
	assert_int_equal(rngd_policy_pick(c, N(c), false, true), 1);
}

static void test_pick_first_listed_wins_a_tie(void **state)
{
	const struct rngd_pick_candidate c[] = {
		{ .ready = true, .credited = true, .priority = 7 },
		{ .ready = true, .credited = true, .priority = 7 },
	};

	(void)state;
	assert_int_equal(rngd_policy_pick(c, N(c), false, false), 0);
	assert_int_equal(rngd_policy_pick(c, N(c), true, false), 0);
}

static void test_pick_none_ready(void **state)
{
	const struct rngd_pick_candidate c[] = {
		{ .ready = false, .credited = true, .priority = 7 },
	};

	(void)state;
	assert_int_equal(rngd_policy_pick(c, N(c), false, false), -1);
	assert_int_equal(rngd_policy_pick(c, 0, false, false), -1);
}

/* While the pool fills, a credited block goes before any zero-credit one,
 * whatever the priorities; after, priority alone decides. */
static void test_pick_filling_prefers_credited(void **state)
{
	const struct rngd_pick_candidate c[] = {
		{ .ready = true, .credited = false, .priority = 50 },
		{ .ready = true, .credited = true, .priority = -10 },
		{ .ready = true, .credited = true, .priority = 1 },
	};

	(void)state;
	assert_int_equal(rngd_policy_pick(c, N(c), true, false), 2);
	assert_int_equal(rngd_policy_pick(c, N(c), false, false), 0);
}

/* Filling with only zero-credit blocks: one may go when the pace allows,
 * none while it does not; once the pool is ready the pace is moot. */
static void test_pick_paces_zero_credit_blocks_while_filling(void **state)
{
	const struct rngd_pick_candidate c[] = {
		{ .ready = true, .credited = false, .priority = 1 },
		{ .ready = true, .credited = false, .priority = 4 },
	};

	(void)state;
	assert_int_equal(rngd_policy_pick(c, N(c), true, false), 1);
	assert_int_equal(rngd_policy_pick(c, N(c), true, true), -1);
	assert_int_equal(rngd_policy_pick(c, N(c), false, true), 1);
}

static const struct rngd_quarantine_rules rules = { .after = 3, .retest_min_ms = 1000, .retest_max_ms = 5000 };

/* after - 1 failures are counted, the after-th quarantines; a pass in
 * between starts the count again. */
static void test_quarantine_after_n_failures_in_a_row(void **state)
{
	struct rngd_quarantine q = { 0 };

	(void)state;
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_COUNTED);
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_COUNTED);
	assert_false(rngd_policy_block_passed(&q));
	assert_int_equal(q.fails_in_row, 0);
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_COUNTED);
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_COUNTED);
	assert_false(q.quarantined);
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_QUARANTINED);
	assert_true(q.quarantined);
	assert_int_equal(q.fails_in_row, 3);
	assert_int_equal(q.backoff_ms, 1000);
}

static void test_quarantine_off_with_zero(void **state)
{
	const struct rngd_quarantine_rules never = { .after = 0, .retest_min_ms = 1000, .retest_max_ms = 5000 };
	struct rngd_quarantine q = { 0 };

	(void)state;
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rngd_policy_block_failed(&q, &never), RNGD_FAIL_COUNTED);
	assert_false(q.quarantined);
	assert_int_equal(q.fails_in_row, 1000);
}

/* Each failed re-test doubles the wait, up to the cap and never past it. */
static void test_retest_backoff_doubles_to_the_cap(void **state)
{
	const unsigned int want[] = { 2000, 4000, 5000, 5000 };
	struct rngd_quarantine q = { 0 };

	(void)state;
	q.fails_in_row = 2;
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_QUARANTINED);
	for (size_t i = 0; i < N(want); i++) {
		assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_RETEST_FAILED);
		assert_true(q.quarantined);
		assert_int_equal(q.backoff_ms, want[i]);
	}
}

static void test_retest_backoff_does_not_overflow(void **state)
{
	const struct rngd_quarantine_rules wide = { .after = 1, .retest_min_ms = 1, .retest_max_ms = 4294967295u };
	struct rngd_quarantine q = { .quarantined = true, .backoff_ms = 3000000000u };

	(void)state;
	assert_int_equal(rngd_policy_block_failed(&q, &wide), RNGD_FAIL_RETEST_FAILED);
	assert_int_equal(q.backoff_ms, 4294967295u);
}

/* A passing re-test block puts the source back, and is not credited. */
static void test_passing_retest_ends_the_quarantine(void **state)
{
	struct rngd_quarantine q = { .fails_in_row = 5, .quarantined = true, .backoff_ms = 4000 };

	(void)state;
	assert_true(rngd_policy_block_passed(&q));
	assert_false(q.quarantined);
	assert_int_equal(q.fails_in_row, 0);
	assert_false(rngd_policy_block_passed(&q));
}

static void test_reset_clears_the_record(void **state)
{
	struct rngd_quarantine q = { .fails_in_row = 5, .quarantined = true, .backoff_ms = 4000 };

	(void)state;
	rngd_policy_reset(&q);
	assert_false(q.quarantined);
	assert_int_equal(q.fails_in_row, 0);
	assert_int_equal(rngd_policy_block_failed(&q, &rules), RNGD_FAIL_COUNTED);
}

static void test_mix_failed_only_when_asked_and_allowed(void **state)
{
	(void)state;
	assert_false(rngd_policy_mix_failed(RNGD_ON_FAIL_DROP, false, false, false));
	assert_true(rngd_policy_mix_failed(RNGD_ON_FAIL_MIX, false, false, false));
	assert_false(rngd_policy_mix_failed(RNGD_ON_FAIL_MIX, true, false, false));   /* test mode */
	assert_true(rngd_policy_mix_failed(RNGD_ON_FAIL_MIX, false, true, false));    /* filling, its turn */
	assert_false(rngd_policy_mix_failed(RNGD_ON_FAIL_MIX, false, true, true));    /* filling, too soon */
	assert_true(rngd_policy_mix_failed(RNGD_ON_FAIL_MIX, false, false, true));    /* ready: no pace */
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_pick_takes_the_highest_priority_ready_source),
	cmocka_unit_test(test_pick_first_listed_wins_a_tie),
	cmocka_unit_test(test_pick_none_ready),
	cmocka_unit_test(test_pick_filling_prefers_credited),
	cmocka_unit_test(test_pick_paces_zero_credit_blocks_while_filling),
	cmocka_unit_test(test_quarantine_after_n_failures_in_a_row),
	cmocka_unit_test(test_quarantine_off_with_zero),
	cmocka_unit_test(test_retest_backoff_doubles_to_the_cap),
	cmocka_unit_test(test_retest_backoff_does_not_overflow),
	cmocka_unit_test(test_passing_retest_ends_the_quarantine),
	cmocka_unit_test(test_reset_clears_the_record),
	cmocka_unit_test(test_mix_failed_only_when_asked_and_allowed)
)
