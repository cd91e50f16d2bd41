/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening the sources at start (rngd_loop_open_sources()): an opener
 * thread probes and opens the enabled slots in turn while the main thread
 * waits for each up to --open-wait (5 s), so that a source whose
 * probe or open hangs (a tcsd that accepts and never answers) holds back
 * neither the others nor READY=1. The opener left inside such an open
 * becomes that source's reader once the loop starts its readers.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "rngd/block_flow.h"
#include "rngd/credit.h"
#include "rngd/deadline.h"
#include "rngd/defaults.h"
#include "rngd/eventfd.h"
#include "rngd/file_clash.h"
#include "rngd/loop_state.h"
#include "rngd/reader.h"
#include "rngd/slot.h"
#include "rngd/thread_stack.h"

/* Leave @s out from the start, saying once why. */
static void leave_out(struct rngd_loop *l, struct rngd_slot *s, int level, const char *what)
{
	rngd_log(l->log, level, s->src.name, "%s: %s", what, s->src.why);
	s->settings.enabled = false;
}

/* A probe result that settles it: a named source of the wrong kind will
 * not get better, an unnamed one that cannot work here is not used. */
static bool probe_rules_out(const struct rngd_slot *s, int r)
{
	return r < 0 && (!s->settings.explicit || r == -ENODEV || r == -EINVAL);
}

static void start_open_run(struct rngd_slot *s)
{
	s->start_probe_r = s->src.ops->probe ? s->src.ops->probe(&s->src) : 0;
	s->start_open_r = probe_rules_out(s, s->start_probe_r) ? s->start_probe_r : rngd_slot_open(s->loop, s);
}

/* What the probe and open at start (start_probe_r, start_open_r) make of
 * @s: open; a named source whose open failed, retried; or left out, with
 * the log level and word for why ("not used", "cannot be used",
 * "exhausted"). */
enum start_verdict { START_OPEN, START_RETRY, START_LEFT_OUT };

static enum start_verdict start_verdict(const struct rngd_slot *s, int *level, const char **what)
{
	int r = s->start_open_r;

	*level = LOG_INFO;
	*what = "not used";
	if (probe_rules_out(s, s->start_probe_r)) {
		if (s->settings.explicit) {
			*level = LOG_ERR;
			*what = "cannot be used";
		}
		return START_LEFT_OUT;
	}
	if (r == -ENODATA) {
		*level = LOG_WARNING;
		*what = "exhausted";
		return START_LEFT_OUT;
	}
	if (r < 0)
		return s->settings.explicit ? START_RETRY : START_LEFT_OUT;
	return START_OPEN;
}

/*
 * The start's open of @s, which rngd went on without: this
 * thread, the opener that was inside it, now reads the source. It waits
 * for the loop to start its readers (rngd_readers_start()), then goes on
 * with the open's result: open, or left to the reader's loop to retry.
 */
static void *reader_take_over(struct rngd_slot *s)
{
	struct rngd_loop *l = s->loop;
	enum start_verdict verdict;
	const char *what;
	bool stop;
	int level;

	(void)pthread_mutex_lock(&s->lock);
	while (!s->go && !s->stop)
		(void)pthread_cond_wait(&s->cond, &s->lock);
	stop = s->stop;
	verdict = start_verdict(s, &level, &what);
	/* A named source is retried rather than left out for good: its open
	 * ran past the start, maybe past -D's drop, which may be what failed it. */
	if (verdict == START_LEFT_OUT && s->settings.explicit && s->start_open_r != -ENODATA)
		verdict = START_RETRY;
	if (!stop && verdict == START_OPEN) {
		s->is_open = true;
		s->reopens++;
		rngd_slot_note_late_open(s, "opened%s%s (the open begun at start)", s->src.why[0] ? " " : "",
					 s->src.why);
	}
	/* What the start would have left out is read no more: it idles as
	 * an exhausted source would (the main thread owns the settings). */
	if (!stop && verdict == START_LEFT_OUT)
		s->exhausted = true;
	(void)pthread_mutex_unlock(&s->lock);
	if (stop)
		return NULL;
	switch (verdict) {
	case START_LEFT_OUT:
		rngd_log(l->log, level, s->src.name, "%s: %s (the open begun at start)", what, s->src.why);
		break;
	case START_RETRY:
		rngd_log(l->log, LOG_WARNING, s->src.name, "the open begun at start failed: %s; retrying",
			 s->src.why);
		break;
	case START_OPEN:
		rngd_slot_warn_circular(l, s);
		break;
	}
	rngd_eventfd_poke(l->event_fd);
	return rngd_reader_main(s);
}

/*
 * The opener: probes and opens the enabled slots from @arg on, one after
 * the other, for the main thread to wait on. When the main thread went on
 * without the slot it is in, it stays with that slot as its reader. Done
 * with all, it parks for good rather than end: a thread that ends runs
 * glibc's per-thread freeres hooks, which map some 200 kB of libc code
 * (tests/integration/idle-memory.sh).
 */
static void *opener_main(void *arg)
{
	struct rngd_slot *s = arg, *last = NULL;
	const struct rngd_loop *l = s->loop;

	/* Made before -D's drop, whose no_new_privs reaches only the main
	 * thread and those it starts after: this one never runs a program,
	 * and may become a reader for good. */
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);

	/* Found first: once the last one is done, the main thread may go on
	 * and free the loop and the slots, so nothing of them is read then. */
	for (struct rngd_slot *t = s; t < l->slots + l->n_slots; t++)
		if (t->settings.enabled)
			last = t;
	for (; last; s++) {
		bool pending;

		if (!s->settings.enabled)
			continue;
		start_open_run(s);
		(void)pthread_mutex_lock(&s->lock);
		s->start_done = true;
		pending = s->start_pending;
		(void)pthread_cond_broadcast(&s->cond);
		(void)pthread_mutex_unlock(&s->lock);
		if (pending)
			return reader_take_over(s);
		if (s == last)
			break;
	}
	for (;;)
		(void)pause();   /* every signal is blocked: for good */
	return NULL;
}

/* Whether @s's start open is done, waiting for it up to @wait_ms (0: as
 * long as it takes); if not, the slot is left to its opener. */
static bool start_open_done(struct rngd_slot *s, unsigned int wait_ms)
{
	struct timespec deadline;
	bool done;

	rngd_deadline_after_ms(CLOCK_MONOTONIC, &deadline, wait_ms);
	(void)pthread_mutex_lock(&s->lock);
	while (!s->start_done) {
		if (wait_ms == 0)
			(void)pthread_cond_wait(&s->cond, &s->lock);
		else if (pthread_cond_timedwait(&s->cond, &s->lock, &deadline) == ETIMEDOUT)
			break;
	}
	done = s->start_done;
	s->start_pending = !done;
	(void)pthread_mutex_unlock(&s->lock);
	return done;
}

/*
 * "opened ...", with the credit and priority it is read at: by the main
 * thread, which owns the settings, whoever opened the source.
 */
__attribute__((format(printf, 3, 4)))
static void say_opened(struct rngd_loop *l, struct rngd_slot *s, const char *fmt, ...)
{
	char what[RNG_SOURCE_WHY_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rngd_log(l->log, LOG_INFO, s->src.name, "%s, %.3f entropy bits per bit credited, priority %d", what,
		 credit_entropy_per_bit(&s->src, s->settings.credit_explicit, rngd_slot_circular(l, s)),
		 s->src.priority);
}

/* After @s's probe and open at start: true if it counts as usable (open,
 * or a named source its reader will retry). */
static bool open_at_start(struct rngd_loop *l, struct rngd_slot *s)
{
	const char *what;
	int level;

	switch (start_verdict(s, &level, &what)) {
	case START_LEFT_OUT:
		leave_out(l, s, level, what);
		return false;
	case START_RETRY:
		rngd_log(l->log, LOG_WARNING, s->src.name, "cannot open yet: %s; will retry", s->src.why);
		return true;
	case START_OPEN:
		break;
	}
	s->is_open = true;
	s->reopens = 1;
	say_opened(l, s, "opened%s%s", s->src.why[0] ? " " : "", s->src.why);
	rngd_slot_warn_circular(l, s);
	return true;
}

void rngd_loop_say_late_opens(struct rngd_loop *l)
{
	if (!__atomic_exchange_n(&l->late_opens, false, __ATOMIC_ACQ_REL))
		return;
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		char what[sizeof(s->late_open)];

		if (!s->started)
			continue;
		(void)pthread_mutex_lock(&s->lock);
		memcpy(what, s->late_open, sizeof(what));
		s->late_open[0] = '\0';
		(void)pthread_mutex_unlock(&s->lock);
		if (what[0])
			say_opened(l, s, "%s", what);
	}
}

size_t rngd_loop_open_sources(struct rngd_loop *l)
{
	pthread_t opener;
	bool have_opener = false;
	size_t usable = 0;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->settings.enabled)
			continue;
		if (!have_opener)
			have_opener = rngd_thread_start(&opener, opener_main, s) == 0;
		if (!have_opener) {
			start_open_run(s);   /* no thread to spare: here, unbounded */
		} else if (!start_open_done(s, l->cfg.open_wait_ms)) {
			s->thread = opener;
			have_opener = false;   /* the rest need another */
			rngd_log(l->log, LOG_WARNING, s->src.name,
				 "still opening after %.1f s; rngd goes on without it, and reads it once the open "
				 "returns (after -D, the rest of the open runs as that user)", l->cfg.open_wait_ms / 1000.0);
			/* Not named: the start would leave it out if it failed,
			 * so it alone keeps no rngd running. */
			if (s->settings.explicit)
				usable++;
			continue;
		}
		if (open_at_start(l, s))
			usable++;
	}
	return usable;
}

