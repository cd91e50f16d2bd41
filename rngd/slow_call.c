/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A source call that does not return, said in the log (rngd/slow_call.h). */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <syslog.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rngd/log.h"
#include "rngd/loop_state.h"
#include "rngd/slot.h"
#include "rngd/slow_call.h"
#include "sources/close_fd.h"

/* Set in call_since_ms by the main thread once it said the read is late:
 * the reader's exchange at the read's end sees it, so "answered" follows
 * "no answer" exactly, for the same read, with no race between the two. */
#define SLOW_CALL_SAID (UINT64_C(1) << 63)

/*
 * A read started at @since, the main thread asleep past its limit: its
 * timer is set to the limit, so it wakes then if it sleeps on (a poke now
 * would wake it for every block read: the block itself wakes it soon).
 * The sleep's end is lowered to the limit, so a later read, whose limit is
 * later, sets nothing. Under the readers' lock, so the timer always holds
 * the lowest limit set since the loop published its sleep: two readers'
 * settimes cannot land in the other order. Taken once per sleep at most.
 */
static void wake_at_limit_if_asleep_past(struct rngd_loop *l, uint64_t since)
{
	uint64_t until = __atomic_load_n(&l->sleep_until_ms, __ATOMIC_SEQ_CST), at = since + l->slow_call_ms;

	if (until <= at)
		return;
	(void)pthread_mutex_lock(&l->slow_call_timer_lock);
	until = __atomic_load_n(&l->sleep_until_ms, __ATOMIC_SEQ_CST);
	if (until > at &&
	    __atomic_compare_exchange_n(&l->sleep_until_ms, &until, at, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		const struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(at / 1000), .tv_nsec = (long)(at % 1000) * 1000000 }
		};

		/* Cannot fail on the loop's own timerfd, open until the
		 * readers are stopped. */
		(void)timerfd_settime(l->slow_call_timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
		__atomic_store_n(&l->slow_call_timer_set, true, __ATOMIC_SEQ_CST);
	}
	(void)pthread_mutex_unlock(&l->slow_call_timer_lock);
}

int rngd_slow_call_init(struct rngd_loop *l)
{
	l->slow_call_timer_fd = -1;
	if (!l->slow_call_ms)
		return 0;
	/* CLOCK_MONOTONIC: rngd_now_ms()'s clock. Without it, no start: a
	 * read that hangs would go unsaid. */
	l->slow_call_timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (l->slow_call_timer_fd < 0)
		return -errno;
	/* The lock lives with the timer: initialised iff the fd is open. */
	(void)pthread_mutex_init(&l->slow_call_timer_lock, NULL);
	return 0;
}

void rngd_slow_call_destroy(struct rngd_loop *l)
{
	if (l->slow_call_timer_fd >= 0)
		(void)pthread_mutex_destroy(&l->slow_call_timer_lock);
	rng_close_fd(&l->slow_call_timer_fd);
}

ssize_t rngd_slow_call_read(struct rngd_slot *s, void *buf, size_t len)
{
	uint64_t since = rngd_now_ms(), was;
	ssize_t n;

	__atomic_store_n(&s->call_since_ms, since, __ATOMIC_SEQ_CST);
	if (s->loop->slow_call_ms) {
		uint64_t same = since;

		wake_at_limit_if_asleep_past(s->loop, since);
		/* Stored again, so that a read that never returns has its last
		 * touch of the loop published (rngd_slow_call_left_behind()).
		 * Fails only if the main thread said it late already. */
		(void)__atomic_compare_exchange_n(&s->call_since_ms, &same, since, false, __ATOMIC_SEQ_CST,
						  __ATOMIC_SEQ_CST);
	}
	n = s->src.ops->read(&s->src, buf, len);
	was = __atomic_exchange_n(&s->call_since_ms, 0, __ATOMIC_SEQ_CST);
	s->call_said_ms = (was & SLOW_CALL_SAID) ? rngd_now_ms() - since : 0;
	return n;
}

void rngd_slow_call_said_back(struct rngd_slot *s)
{
	if (!s->call_said_ms)
		return;
	s->calls_back++;
	/* After the main thread's line: it logs holding the lock. */
	(void)pthread_mutex_lock(&s->lock);
	(void)pthread_mutex_unlock(&s->lock);
	rngd_log(s->loop->log, LOG_NOTICE, s->src.name, "answered again: that read returned after %.1f s",
		 (double)s->call_said_ms / 1000.0);
	s->call_said_ms = 0;
}

uint64_t rngd_slow_call_check(struct rngd_slot *s, uint64_t now)
{
	unsigned int limit = s->loop->slow_call_ms;
	uint64_t since = __atomic_load_n(&s->call_since_ms, __ATOMIC_SEQ_CST);
	bool late;

	if (!limit || !s->started || !since || (since & SLOW_CALL_SAID))
		return UINT64_MAX;
	/* @now may be older than a read that began since it was taken. */
	if (now < since + limit)
		return since + limit;
	(void)pthread_mutex_lock(&s->lock);
	/* Fails if that read returned (or another began) meanwhile. */
	late = __atomic_compare_exchange_n(&s->call_since_ms, &since, since | SLOW_CALL_SAID, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	if (late) {
		s->calls_late++;
		rngd_log(s->loop->log, LOG_WARNING, s->src.name,
			 "no answer for %.0f s: still inside one read (a device, token or daemon that stopped "
			 "answering)", (double)(now - since) / 1000.0);
	}
	(void)pthread_mutex_unlock(&s->lock);
	return UINT64_MAX;
}

uint64_t rngd_slow_call_sleep(struct rngd_loop *l, uint64_t now, uint64_t next)
{
	uint64_t published = next;

	if (!l->slow_call_ms)
		return next;
	/* Published first, then the reads looked at again: a read that began
	 * since the pass's look either is seen here or sees the sleep. */
	__atomic_store_n(&l->sleep_until_ms, published, __ATOMIC_SEQ_CST);
	for (size_t i = 0; i < l->n_slots; i++) {
		uint64_t at = rngd_slow_call_check(&l->slots[i], now);

		if (at < next)
			next = at;
	}
	/* Lowered only: a reader that lowered it meanwhile set the timer for
	 * a read this look did not see, and keeps its limit (written over,
	 * a later reader would see no need to set the timer again). */
	(void)__atomic_compare_exchange_n(&l->sleep_until_ms, &published, next, false, __ATOMIC_SEQ_CST,
					  __ATOMIC_SEQ_CST);
	return next;
}

void rngd_slow_call_awake(struct rngd_loop *l, bool timer_fired)
{
	static const struct itimerspec disarm;
	uint64_t expirations;
	bool set;

	__atomic_store_n(&l->sleep_until_ms, 0, __ATOMIC_SEQ_CST);
	/* A timer a reader set is of no more use: every sleep looks at the
	 * running reads again first (rngd_slow_call_sleep()). Left set, it
	 * would wake an idle loop once for a read long returned. */
	set = __atomic_exchange_n(&l->slow_call_timer_set, false, __ATOMIC_SEQ_CST);
	/* Either clears a timer that fired, which unread would keep poll()
	 * from sleeping: timerfd_settime() zeroes its count. A timer that
	 * fired before its reader said it set it is read here, and that
	 * reader's flag clears it at the next wake-up. */
	if (set)
		(void)timerfd_settime(l->slow_call_timer_fd, 0, &disarm, NULL);
	else if (timer_fired)
		(void)!read(l->slow_call_timer_fd, &expirations, sizeof(expirations));
}

void rngd_slow_call_left_behind(struct rngd_slot *s)
{
	/* Pairs with the reader's last store before its read: the loop can
	 * be freed after this, and the reader never touches it again. */
	(void)__atomic_load_n(&s->call_since_ms, __ATOMIC_SEQ_CST);
}
