/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's policy, apart from its mechanics: which source's block goes
 * next, what a failed or a passing block does to its source (count,
 * quarantine, re-test back-off), and whether a failed block is mixed.
 * Pure functions over plain values: no locks, no clock, no logging, so
 * tests/unit/test_daemon_policy.c checks every rule without threads. A
 * block's way through the loop (rngd/block_flow.c) gathers the inputs,
 * applies the outcome and logs it.
 */
#ifndef RNGD_POLICY_H
#define RNGD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "rngd/options.h"

/* One source as the pick sees it. */
struct rngd_pick_candidate {
	bool ready;            /* a block is queued, and the source is not waiting out a quarantine */
	bool credited;         /* its blocks earn credit */
	int priority;
};

/*
 * The candidate whose block goes next, or -1. While the kernel pool fills
 * (@filling) a credited block beats any zero-credit one, and zero-credit
 * blocks wait while @zero_credit_paced (at most one a second: they cannot
 * make the pool ready). Otherwise, and among equals, the highest priority
 * wins; the first listed wins a tie.
 */
int rngd_policy_pick(const struct rngd_pick_candidate *c, size_t n, bool filling, bool zero_credit_paced);

/* A source's record of failures, kept by the main thread. */
struct rngd_quarantine {
	unsigned int fails_in_row;
	bool quarantined;
	unsigned int backoff_ms;       /* wait before the next re-test */
};

/* --quarantine-after's default: 3 failures in a row of a good source
 * happen about once in 10^9 blocks. */
#define RNGD_HELD_AFTER_FAILS 3

struct rngd_quarantine_rules {
	unsigned int after;            /* failed blocks in a row; 0: never */
	unsigned int retest_min_ms, retest_max_ms;
};

enum rngd_fail_outcome {
	RNGD_FAIL_COUNTED,             /* still in service */
	/* Never quarantined (rules.after 0), but from RNGD_HELD_AFTER_FAILS
	 * failures in a row its next block waits backoff_ms, doubling up to
	 * the cap: a stuck source is not read as fast as a core goes, and a
	 * good one's rare single failure (about 1 block in 1000) costs no
	 * pause. */
	RNGD_FAIL_HELD,
	RNGD_FAIL_QUARANTINED,         /* just quarantined: re-test in backoff_ms */
	RNGD_FAIL_RETEST_FAILED,       /* still quarantined: back-off doubled, capped */
};

/* A block failed the gate. */
enum rngd_fail_outcome rngd_policy_block_failed(struct rngd_quarantine *q,
						const struct rngd_quarantine_rules *rules);

/* A block passed. True when it was a re-test: the source is back in
 * service, and the block proved it but is not credited. */
bool rngd_policy_block_passed(struct rngd_quarantine *q);

/* A new device behind the source: a clean record. */
void rngd_policy_reset(struct rngd_quarantine *q);

/* Whether a failed block is mixed into the sink, uncredited: only with
 * --on-fail=mix, never in test mode, and while the pool fills only when a
 * zero-credit block may go (it waits its turn, never ahead of a credited one). */
bool rngd_policy_mix_failed(enum rngd_on_fail on_fail, bool test_mode, bool filling,
			    bool zero_credit_paced);

/* Failed opens in a row that each get a line. */
#define RNGD_OPEN_FAILURES_SAID 5u

/*
 * Whether the @failures-th failed open in a row of a source gets a line:
 * the first few, then the 8th, 16th, 32nd... A source that never comes
 * (a TRNG unplugged for good, tried every 30 s) is said 14 times in its
 * first day, not 2880, and then once each time the count doubles.
 */
bool rngd_policy_open_failure_said(unsigned int failures);
/* The count of the next failed open after @failures that gets a line. */
unsigned int rngd_policy_open_failure_next_said(unsigned int failures);

#endif
