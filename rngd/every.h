/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A job the loop runs every so often without a timer of its own: the
 * loop asks each job whether it is due whenever it wakes, and sleeps no
 * longer than the earliest next time (rngd/loop_jobs.c).
 */
#ifndef RNGD_EVERY_H
#define RNGD_EVERY_H

#include <stdbool.h>
#include <stdint.h>

struct rngd_every {
	uint64_t every_ms;   /* 0: never due */
	uint64_t next_ms;    /* CLOCK_MONOTONIC, as rngd_now_ms() */
};

/*
 * Is the job due at @now? If so its next time is @now + every_ms. Either
 * way *@next becomes the earlier of itself and the job's next time; with
 * @next NULL the job wakes nobody and runs on the loop's other wake-ups.
 */
static inline bool rngd_every_due(struct rngd_every *e, uint64_t now, uint64_t *next)
{
	bool due;

	if (!e->every_ms)
		return false;
	due = now >= e->next_ms;
	if (due)
		e->next_ms = now + e->every_ms;
	if (next && e->next_ms < *next)
		*next = e->next_ms;
	return due;
}

#endif
