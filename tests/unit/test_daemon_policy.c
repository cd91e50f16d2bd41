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

/*
 * One set of candidates and what rngd_policy_pick() must answer for it in
 * each pool state listed (up to the first without a @why). Each set is data,
 * run by expect_picks() as a cmocka case of its own name; @why says which
 * rule the answer stands for, so a failure names the rule as well as the case.
 */
struct pick_case {
	struct rngd_pick_candidate c[4];
	size_t n;
	struct {
		bool filling, paced;    /* rngd_policy_pick()'s @filling, @zero_credit_paced */
		int want;
		const char *why;
	} picks[3];
};

static void expect_picks(void **state)
{
	const struct pick_case *pc = *state;

	assert_true(pc->n <= N(pc->c));
	assert_non_null(pc->picks[0].why);  /* a case that checks nothing is no case */
	for (size_t i = 0; i < N(pc->picks) && pc->picks[i].why; i++) {
		bool filling = pc->picks[i].filling, paced = pc->picks[i].paced;
		int got = rngd_policy_pick(pc->c, pc->n, filling, paced);

		if (got != pc->picks[i].want)
			fail_msg("%s (filling %d, zero-credit paced %d): picked %d, want %d",
				 pc->picks[i].why, filling, paced, got, pc->picks[i].want);
	}
}

/* cmocka passes the case as the test's state; it is only read. */
#define PICK_TEST(pc) { #pc, expect_picks, NULL, NULL, (void *)&(pc) }

static const struct pick_case test_pick_takes_the_highest_priority_ready_source = {
	.c = {
		{ .ready = true, .credited = true, .priority = 3 },
		{ .ready = true, .credited = true, .priority = 10 },
		{ .ready = false, .credited = true, .priority = 20 },  /* nothing queued, or waiting out a quarantine */
		{ .ready = true, .credited = false, .priority = 5 },
	},
	.n = 4,
	.picks = {
		{ .want = 1, .why = "the highest priority among the ready, not the waiting 20" },
		{ .paced = true, .want = 1, .why = "a ready pool ignores the zero-credit pace" },
	},
};

static const struct pick_case test_pick_first_listed_wins_a_tie = {
	.c = {
		{ .ready = true, .credited = true, .priority = 7 },
		{ .ready = true, .credited = true, .priority = 7 },
	},
	.n = 2,
	.picks = {
		{ .want = 0, .why = "equal priorities: the first listed" },
		{ .filling = true, .want = 0, .why = "equal priorities while filling: the first listed" },
	},
};

static const struct pick_case test_pick_none_ready = {
	.c = {
		{ .ready = false, .credited = true, .priority = 7 },
	},
	.n = 1,
	.picks = {
		{ .want = -1, .why = "a source that is not ready is never picked" },
	},
};

static const struct pick_case test_pick_no_candidates = {
	.n = 0,
	.picks = {
		{ .want = -1, .why = "no candidates, no pick" },
	},
};

/* While the pool fills, a credited block goes before any zero-credit one,
 * whatever the priorities; after, priority alone decides. */
static const struct pick_case test_pick_filling_prefers_credited = {
	.c = {
		{ .ready = true, .credited = false, .priority = 50 },
		{ .ready = true, .credited = true, .priority = -10 },
		{ .ready = true, .credited = true, .priority = 1 },
	},
	.n = 3,
	.picks = {
		{ .filling = true, .want = 2, .why = "filling: the best credited, over a zero-credit 50" },
		{ .want = 0, .why = "ready: priority alone, the zero-credit 50" },
	},
};

/* Filling with only zero-credit blocks: one may go when the pace allows,
 * none while it does not; once the pool is ready the pace is moot. */
static const struct pick_case test_pick_paces_zero_credit_blocks_while_filling = {
	.c = {
		{ .ready = true, .credited = false, .priority = 1 },
		{ .ready = true, .credited = false, .priority = 4 },
	},
	.n = 2,
	.picks = {
		{ .filling = true, .want = 1, .why = "filling, the pace allows one: the highest zero-credit" },
		{ .filling = true, .paced = true, .want = -1, .why = "filling, too soon for zero-credit: none" },
		{ .paced = true, .want = 1, .why = "ready: the pace is moot" },
	},
};

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
	/* Never quarantined; a failure or two in a row costs nothing, from
	 * the third the source is held back: 1 s, doubling to the cap, so
	 * a stuck source is not read as fast as a core goes. */
	const unsigned int held[] = { 1000, 2000, 4000, 5000, 5000 };

	for (int i = 0; i < 1000; i++) {
		enum rngd_fail_outcome o = rngd_policy_block_failed(&q, &never);

		assert_int_equal(o, i + 1 < RNGD_HELD_AFTER_FAILS ? RNGD_FAIL_COUNTED : RNGD_FAIL_HELD);
		if (i + 1 >= RNGD_HELD_AFTER_FAILS && i + 1 - RNGD_HELD_AFTER_FAILS < 5)
			assert_int_equal(q.backoff_ms, held[i + 1 - RNGD_HELD_AFTER_FAILS]);
	}
	assert_false(q.quarantined);
	assert_int_equal(q.fails_in_row, 1000);
	assert_int_equal(q.backoff_ms, 5000);
	/* A passing block ends it, and is no re-test (it is credited). */
	assert_false(rngd_policy_block_passed(&q));
	for (int i = 1; i < RNGD_HELD_AFTER_FAILS; i++)
		assert_int_equal(rngd_policy_block_failed(&q, &never), RNGD_FAIL_COUNTED);
	assert_int_equal(rngd_policy_block_failed(&q, &never), RNGD_FAIL_HELD);
	assert_int_equal(q.backoff_ms, 1000);
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

/* A source that cannot be opened: the first failures each get a line,
 * then the 8th, 16th, 32nd..., so a source gone for good is said 14
 * times in its first day at the 30 s back-off, not 2880; and each line's
 * "said next at" names the next one said. */
static void test_open_failures_said_less_and_less_often(void **state)
{
	static const unsigned int want[] = { 1, 2, 3, 4, 5, 8, 16, 32, 64, 128, 256, 512, 1024, 2048 };
	unsigned int said[sizeof(want) / sizeof(want[0]) + 1] = { 0 }, n = 0, next = 0;

	(void)state;
	for (unsigned int f = 1; f <= 2880 && n < sizeof(said) / sizeof(said[0]); f++)
		if (rngd_policy_open_failure_said(f))
			said[n++] = f;
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	assert_memory_equal(said, want, sizeof(want));
	for (unsigned int k = 0; k < n; k++) {
		next = rngd_policy_open_failure_next_said(next);
		assert_int_equal(next, want[k]);
	}
	assert_int_equal(rngd_policy_open_failure_next_said(1000), 1024);
}

RNGD_TEST_MAIN(
	PICK_TEST(test_pick_takes_the_highest_priority_ready_source),
	PICK_TEST(test_pick_first_listed_wins_a_tie),
	PICK_TEST(test_pick_none_ready),
	PICK_TEST(test_pick_no_candidates),
	PICK_TEST(test_pick_filling_prefers_credited),
	PICK_TEST(test_pick_paces_zero_credit_blocks_while_filling),
	cmocka_unit_test(test_quarantine_after_n_failures_in_a_row),
	cmocka_unit_test(test_quarantine_off_with_zero),
	cmocka_unit_test(test_retest_backoff_doubles_to_the_cap),
	cmocka_unit_test(test_retest_backoff_does_not_overflow),
	cmocka_unit_test(test_passing_retest_ends_the_quarantine),
	cmocka_unit_test(test_reset_clears_the_record),
	cmocka_unit_test(test_mix_failed_only_when_asked_and_allowed),
	cmocka_unit_test(test_open_failures_said_less_and_less_often)
)
