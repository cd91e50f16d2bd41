/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An absolute time @ms from now on @clock, for the calls that take one:
 * pthread_cond_timedwait() on a slot's condition (CLOCK_MONOTONIC, see
 * rngd_cond_init_monotonic()) and pthread_timedjoin_np(), which measures
 * against CLOCK_REALTIME (glibc has no clock attribute for joins).
 */
#ifndef RNGD_DEADLINE_H
#define RNGD_DEADLINE_H

#include <pthread.h>
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

/*
 * A condition variable that times out against CLOCK_MONOTONIC, the clock
 * the deadlines of its waits are built from: with the default
 * (CLOCK_REALTIME) every monotonic deadline lies decades in the past and
 * each back-off returns at once, a busy loop. 0 or -errno.
 */
static inline int rngd_cond_init_monotonic(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int r;

	r = pthread_condattr_init(&attr);
	if (r != 0)
		return -r;
	r = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (r == 0)
		r = pthread_cond_init(cond, &attr);
	(void)pthread_condattr_destroy(&attr);
	return -r;
}

#endif
