/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An absolute time @ms from now on @clock, for the calls that take one:
 * pthread_cond_timedwait() on a slot's condition (CLOCK_MONOTONIC, see
 * rngd_slot_cond_init()) and pthread_timedjoin_np(), which measures
 * against CLOCK_REALTIME (glibc has no clock attribute for joins).
 */
#ifndef RNGD_DEADLINE_H
#define RNGD_DEADLINE_H

#include <time.h>

static inline void rngd_deadline_after_ms(clockid_t clock, struct timespec *t, unsigned long ms)
{
	(void)clock_gettime(clock, t);
	t->tv_sec += (time_t)(ms / 1000u);
	t->tv_nsec += (long)(ms % 1000u) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

#endif
