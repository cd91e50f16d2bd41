/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include "rngd/policy.h"
#include "sources/backoff.h"

int rngd_policy_pick(const struct rngd_pick_candidate *c, size_t n, bool filling, bool zero_credit_paced)
{
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if (!c[i].ready)
			continue;
		if (filling && !c[i].credited && zero_credit_paced)
			continue;
		if (best < 0 || (filling && c[i].credited && !c[best].credited) ||
		    ((!filling || c[i].credited == c[best].credited) && c[i].priority > c[best].priority))
			best = (int)i;
	}
	return best;
}

enum rngd_fail_outcome rngd_policy_block_failed(struct rngd_quarantine *q,
						const struct rngd_quarantine_rules *rules)
{
	q->fails_in_row++;
	if (q->quarantined) {
		q->backoff_ms = rng_backoff_double(q->backoff_ms, rules->retest_max_ms);
		return RNGD_FAIL_RETEST_FAILED;
	}
	if (rules->after && q->fails_in_row >= rules->after) {
		q->quarantined = true;
		q->backoff_ms = rules->retest_min_ms;
		return RNGD_FAIL_QUARANTINED;
	}
	if (rules->after == 0 && q->fails_in_row >= RNGD_HELD_AFTER_FAILS) {
		q->backoff_ms = q->fails_in_row == RNGD_HELD_AFTER_FAILS ? rules->retest_min_ms :
				rng_backoff_double(q->backoff_ms, rules->retest_max_ms);
		return RNGD_FAIL_HELD;
	}
	return RNGD_FAIL_COUNTED;
}

bool rngd_policy_block_passed(struct rngd_quarantine *q)
{
	bool retest = q->quarantined;

	q->fails_in_row = 0;
	q->quarantined = false;
	return retest;
}

void rngd_policy_reset(struct rngd_quarantine *q)
{
	q->fails_in_row = 0;
	q->quarantined = false;
}

bool rngd_policy_mix_failed(enum rngd_on_fail on_fail, bool test_mode, bool filling,
			    bool zero_credit_paced)
{
	return on_fail == RNGD_ON_FAIL_MIX && !test_mode && !(filling && zero_credit_paced);
}

bool rngd_policy_open_failure_said(unsigned int failures)
{
	return failures <= RNGD_OPEN_FAILURES_SAID || (failures & (failures - 1)) == 0;
}

unsigned int rngd_policy_open_failure_next_said(unsigned int failures)
{
	unsigned int next = failures + 1;

	while (!rngd_policy_open_failure_said(next))
		next++;
	return next;
}
