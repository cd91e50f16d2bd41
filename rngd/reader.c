/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reader threads: one per enabled source. Each opens its source, reads
 * whole blocks into its slot's ring (RNGD_QUEUE_BLOCKS deep), waits while
 * the ring is full or the slot paused, backs off between failed opens,
 * and stops on the loop's stop_fd or its slot's stop flag (a timed join,
 * never a cancel). The main thread takes blocks with rngd_slot_take().
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rngd/block_flow.h"
#include "rngd/credit.h"
#include "rngd/deadline.h"
#include "rngd/eventfd.h"
#include "rngd/file_clash.h"
#include "rngd/loop_state.h"
#include "rngd/policy.h"
#include "rngd/reader.h"
#include "rngd/slot.h"
#include "rngd/slow_call.h"
#include "rngd/thread_stack.h"
#include "sources/backoff.h"

/* reader_read(): woken by rngd_slot_wake() while waiting on the source. */
#define READER_WOKEN (-EINTR)

/*
 * A re-test is due: what a FIFO holds was written while the source was
 * failing (a writer blocked on a full pipe fills it again at once), and
 * the re-test block must be read after the re-test time (rngd.8,
 * QUARANTINE). Only a FIFO: a regular file's FIONREAD is the rest of the
 * file, whose offset is the source's to keep.
 */
static void reader_drain(struct rngd_slot *s)
{
	int fd = rng_source_wait_fd(&s->src), held = 0;
	uint8_t junk[4096];
	size_t dropped = 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode) || ioctl(fd, FIONREAD, &held) < 0)
		return;
	while (dropped < (size_t)held) {
		size_t want = (size_t)held - dropped;
		ssize_t n = read(fd, junk, want < sizeof(junk) ? want : sizeof(junk));

		if (n <= 0)
			break;
		dropped += (size_t)n;
	}
	explicit_bzero(junk, sizeof(junk));
	if (dropped == 0)
		return;
	(void)pthread_mutex_lock(&s->lock);
	s->bytes_read += dropped;
	(void)pthread_mutex_unlock(&s->lock);
	rngd_log(s->loop->log, LOG_INFO, s->src.name,
		 "re-test: dropped %zu bytes the FIFO held from while it was failing", dropped);
}

static void wake_main(struct rngd_loop *l)
{
	rngd_eventfd_poke(l->event_fd);
}

/* Sleep up to @ms or until stop/reopen; returns with the lock released. */
static void reader_pause(struct rngd_slot *s, unsigned int ms)
{
	struct timespec until;

	rngd_deadline_after_ms(CLOCK_MONOTONIC, &until, ms);
	(void)pthread_mutex_lock(&s->lock);
	while (!s->stop && !s->reopen) {
		if (pthread_cond_timedwait(&s->cond, &s->lock, &until) == ETIMEDOUT)
			break;
	}
	(void)pthread_mutex_unlock(&s->lock);
}

static void reader_close(struct rngd_slot *s)
{
	s->src.ops->close(&s->src);
	(void)pthread_mutex_lock(&s->lock);
	s->is_open = false;
	(void)pthread_mutex_unlock(&s->lock);
}

/*
 * Source calls may block for long (a FIFO waiting for data, a TPM). A
 * source with an fd is waited for beside the loop's stop_fd, so at
 * shutdown its reader stops on its own: -ECANCELED. A call that blocks
 * anywhere else (a FIFO's open() waiting for a writer, a TPM library, a
 * hwrng read asleep in the kernel: that misc device always polls
 * readable) is left behind by rngd_readers_stop() after a grace time, to end
 * with the process. No reader is ever cancelled: a cancel inside a
 * source's library leaves its locks and state undefined, and no race
 * detector can follow it.
 */
static ssize_t reader_call(struct rngd_slot *s, void *buf, size_t len)
{
	int fd = rng_source_wait_fd(&s->src);

	if (fd >= 0) {
		/* The source's call to open afresh, if it has one (poll()
		 * passes over a -1): read() then ends the open, returning 0. */
		struct pollfd pfd[4] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = s->loop->stop_fd, .events = POLLIN },
			{ .fd = s->wake_fd, .events = POLLIN },
			{ .fd = rng_source_reopen_fd(&s->src), .events = POLLIN },
		};

		/* A failed poll: read() meets and reports the same fault. */
		while (poll(pfd, 4, -1) < 0 && errno == EINTR)
			;
		if (pfd[1].revents & POLLIN)
			return -ECANCELED;
		/* rngd_slot_wake(): a SIGHUP or a new device, seen at the top
		 * of reader_main() (a FIFO re-created at its path is opened). */
		if (pfd[2].revents & POLLIN) {
			(void)rngd_eventfd_take(s->wake_fd);
			return READER_WOKEN;
		}
	}
	return rngd_slow_call_read(s, buf, len);
}

/* One source call, timed for rngd_slot_state()'s "waiting". */
static ssize_t reader_read(struct rngd_slot *s, void *buf, size_t len)
{
	ssize_t n;

	__atomic_store_n(&s->read_since_ms, rngd_now_ms(), __ATOMIC_RELAXED);
	s->src.why[0] = '\0';   /* what this call says, not an earlier one */
	n = reader_call(s, buf, len);
	__atomic_store_n(&s->read_since_ms, 0, __ATOMIC_RELAXED);
	return n;
}

/* After every source call, before the reader touches anything shared: a
 * reader that rngd_readers_stop() already left behind must not touch the
 * slot's queue, counters, log or source once its call returns. */
static bool reader_stopping(struct rngd_slot *s)
{
	bool stop;

	(void)pthread_mutex_lock(&s->lock);
	stop = s->stop;
	(void)pthread_mutex_unlock(&s->lock);
	return stop;
}

/* A source whose bytes stop being allowed credit (a file's read offset no
 * longer kept) says why, once: a credit of 0 alone tells an admin nothing.
 * Without a reason it lost nothing: a file source credited 0 keeps no
 * offset, and has nothing to say (the setting is the main thread's). */
static void reader_note_credit(struct rngd_slot *s, bool *may_credit)
{
	bool now = credit_allowed(&s->src);

	if (*may_credit && !now && s->src.why[0])
		rngd_log(s->loop->log, LOG_WARNING, s->src.name, "%s", s->src.why);
	*may_credit = now;
}

/* What an "opened" line names: the source's own words, else its path. */
static const char *opened_what(const struct rng_source *src)
{
	const char *path = src->ops->path ? src->ops->path(src) : NULL;

	return src->why[0] ? src->why : path ? path : "";
}

void *rngd_reader_main(void *arg)
{
	struct rngd_slot *s = arg;
	struct rngd_loop *l = s->loop;
	struct rngd_block blk;
	unsigned int backoff = RNGD_REOPEN_MIN_MS;
	size_t have = 0;
	bool seeded = false, read_since_open = false;
	bool may_credit = credit_allowed(&s->src); /* the open's log line told it */
	/* Failed opens since the last good open: their lines are
	 * rate-limited, so the outage's end gets a line of its own. */
	unsigned int failures = s->start_open_r < 0 ? 1 : 0;   /* a named source's, at start */
	uint64_t failing_since_ms = rngd_now_ms();

	for (;;) {
		bool reopen, is_open, exhausted, full, device_events, drain;
		size_t need;
		ssize_t n;

		(void)pthread_mutex_lock(&s->lock);
		while (!s->stop && !s->reopen && (s->count >= RNGD_QUEUE_BLOCKS || s->exhausted || s->paused))
			(void)pthread_cond_wait(&s->cond, &s->lock);
		if (s->flushed) {
			s->flushed = false;
			have = 0;
		}
		if (s->stop) {
			(void)pthread_mutex_unlock(&s->lock);
			break;
		}
		drain = s->drain;
		s->drain = false;
		reopen = s->reopen;
		s->reopen = false;
		is_open = s->is_open;
		exhausted = s->exhausted;
		(void)pthread_mutex_unlock(&s->lock);

		if (reopen && is_open) {
			reader_close(s);
			is_open = false;
			have = 0;
		}
		if (exhausted)
			continue;   /* SIGHUP on an exhausted source: still exhausted */
		if (!is_open) {
			int r;
			bool stop, first = false;

			/* Not an old reason in the "opened again" line or the
			 * credit warning: most opens say nothing when they succeed. */
			s->src.why[0] = '\0';
			r = rngd_slot_open(l, s);

			(void)pthread_mutex_lock(&s->lock);
			stop = s->stop;
			if (r == 0) {
				/* Open now, whatever comes next: rngd_loop_destroy()
				 * closes it once this thread has ended. */
				s->is_open = true;
				first = s->reopens++ == 0;
				read_since_open = false;
				if (first && !s->stop) {
					const char *what = opened_what(&s->src);

					rngd_slot_note_late_open(s, "opened%s%s after %u failed open%s in %.1f s",
								 what[0] ? " " : "", what, failures,
								 failures == 1 ? "" : "s",
								 (double)(rngd_now_ms() - failing_since_ms) / 1000.0);
				}
			}
			(void)pthread_mutex_unlock(&s->lock);
			if (stop)
				break;
			if (r == -ENODATA) {
				rngd_log(l->log, LOG_NOTICE, s->src.name, "exhausted: %s", s->src.why);
				(void)pthread_mutex_lock(&s->lock);
				s->exhausted = true;
				(void)pthread_mutex_unlock(&s->lock);
				wake_main(l);
				continue;
			}
			if (r < 0) {
				if (failures++ == 0)
					failing_since_ms = rngd_now_ms();
				if (rngd_policy_open_failure_said(failures))
					rngd_log(l->log, LOG_WARNING, s->src.name, "cannot open: %s; retrying in %.1f s "
						 "(%u in a row; said next at %u)", s->src.why, backoff / 1000.0, failures,
						 rngd_policy_open_failure_next_said(failures));
				reader_pause(s, backoff);
				backoff = rng_backoff_double(backoff, RNGD_REOPEN_MAX_MS);
				continue;
			}
			if (failures > 0 && !first)
				rngd_log(l->log, LOG_INFO, s->src.name, "opened again%s%s after %u failure%s in %.1f s",
					 opened_what(&s->src)[0] ? " " : "", opened_what(&s->src), failures,
					 failures == 1 ? "" : "s",
					 (double)(rngd_now_ms() - failing_since_ms) / 1000.0);
			failures = 0;
			rngd_slot_warn_circular(l, s);
			reader_note_credit(s, &may_credit);
			wake_main(l);
		}

		if (drain)
			reader_drain(s);
		/*
		 * Woken to re-open (SIGHUP) with the queue full or the source
		 * paused: re-opened, but nothing is read until there is room
		 * (reading on would overrun the queue, and read ahead of demand).
		 */
		(void)pthread_mutex_lock(&s->lock);
		full = s->count >= RNGD_QUEUE_BLOCKS || s->paused;
		(void)pthread_mutex_unlock(&s->lock);
		if (full)
			continue;
		need = seeded ? FIPS_BLOCK_BYTES : FIPS_SEED_BYTES;
		n = reader_read(s, blk.data + have, need - have);
		if (reader_stopping(s))
			break;
		rngd_slow_call_said_back(s);
		if (n == READER_WOKEN)
			continue;
		if (n > 0) {
			read_since_open = true;
			reader_note_credit(s, &may_credit);
			(void)pthread_mutex_lock(&s->lock);
			s->bytes_read += (uint64_t)n;
			have += (size_t)n;
			if (s->flushed) {
				/* Flushed while this block was being read: it
				 * belongs to the period that was dropped. */
				s->flushed = false;
				have = 0;
			} else if (have == need) {
				blk.seed = !seeded;
				blk.kernel_generator = credit_is_circular(&s->src);
				s->ring[(s->head + s->count) % RNGD_QUEUE_BLOCKS] = blk;
				s->count++;
				have = 0;
				seeded = true;
				backoff = RNGD_REOPEN_MIN_MS;
			}
			(void)pthread_mutex_unlock(&s->lock);
			if (have == 0) {
				/* The queue holds its own copy now. */
				explicit_bzero(&blk, sizeof(blk));
				wake_main(l);
			}
			continue;
		}
		/* End of data or an error: close, and re-open after a pause
		 * (a regular file's open() then reports it exhausted). */
		if (n == 0)
			rngd_log_limited(l->log, &s->reader_rl, rngd_now_ms(), LOG_INFO, s->src.name,
					 "%s%s; closing and re-opening", s->src.why[0] ? s->src.why : "end of data",
					 have ? " (partial block dropped)" : "");
		else
			rngd_log_limited(l->log, &s->reader_rl, rngd_now_ms(), LOG_WARNING, s->src.name,
					 "%s; closing, re-opening in %.1f s", s->src.why, backoff / 1000.0);
		(void)pthread_mutex_lock(&s->lock);
		/* A FIFO's writer that leaves is no error. */
		if (n < 0)
			s->read_errors++;
		device_events = s->device_events;
		(void)pthread_mutex_unlock(&s->lock);
		reader_close(s);
		have = 0;
		explicit_bzero(&blk, sizeof(blk));
		wake_main(l);
		/*
		 * A writer that came and went is followed at once; a source that
		 * ends as soon as it is opened (/dev/null, a hung-up serial TRNG)
		 * backs off like a failing one, not ten re-opens a second for
		 * ever. No device behind /dev/hwrng: the device watch wakes us.
		 */
		if (n == 0 && read_since_open)
			backoff = RNGD_REOPEN_MIN_MS;
		reader_pause(s, n == -ENODEV && device_events ? RNGD_DEVICE_WAIT_MS : backoff);
		backoff = rng_backoff_double(backoff, RNGD_REOPEN_MAX_MS);
	}
	explicit_bzero(&blk, sizeof(blk));
	return NULL;
}

bool rngd_slot_take(struct rngd_slot *s, struct rngd_block *out)
{
	bool got = false;

	(void)pthread_mutex_lock(&s->lock);
	if (s->count > 0) {
		*out = s->ring[s->head];
		explicit_bzero(&s->ring[s->head], sizeof(s->ring[s->head]));
		s->head = (s->head + 1) % RNGD_QUEUE_BLOCKS;
		s->count--;
		got = true;
		(void)pthread_cond_signal(&s->cond);
	}
	(void)pthread_mutex_unlock(&s->lock);
	return got;
}

/* Drop what a failing source queued (and the block it is reading): read
 * in its bad period, never credited. @pause: read nothing more until
 * rngd_slot_flush_pause(s, false). */
void rngd_slot_flush_pause(struct rngd_slot *s, bool pause)
{
	(void)pthread_mutex_lock(&s->lock);
	if (s->ring)
		explicit_bzero(s->ring, RNGD_QUEUE_BLOCKS * sizeof(*s->ring));
	s->head = 0;
	s->count = 0;
	s->flushed = true;
	s->drain = !pause;
	s->paused = pause;
	(void)pthread_cond_signal(&s->cond);
	(void)pthread_mutex_unlock(&s->lock);
}

int rngd_readers_start(struct rngd_loop *l)
{
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		int r;

		if (!s->settings.enabled)
			continue;
		if (!s->ring)
			s->ring = calloc(RNGD_QUEUE_BLOCKS, sizeof(*s->ring));
		if (!s->ring) {
			rngd_log(l->log, LOG_ERR, s->src.name, "cannot start its reader: out of memory");
			return -ENOMEM;
		}
		if (s->wake_fd < 0)
			s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (s->wake_fd < 0) {
			r = errno;
			rngd_log(l->log, LOG_ERR, s->src.name, "cannot start its reader: eventfd: %s", strerror(r));
			return -r;
		}
		if (s->start_pending) {
			/* Its opener reads it (rngd/start_open.c): s->thread. */
			s->started = true;
			(void)pthread_mutex_lock(&s->lock);
			s->go = true;
			(void)pthread_cond_broadcast(&s->cond);
			(void)pthread_mutex_unlock(&s->lock);
			continue;
		}
		r = rngd_thread_start(&s->thread, rngd_reader_main, s);
		if (r != 0) {
			rngd_log(l->log, LOG_ERR, s->src.name, "cannot start its reader thread: %s", strerror(r));
			return -r;
		}
		s->started = true;
	}
	return 0;
}

/* Give reader threads this long to see the stop and end on their own. */
#define READER_STOP_GRACE_MS 300

/* @flag is one of @s's fields that a reader waiting on s->cond looks at
 * (stop, reopen): set under the lock, then woken to see it. */
static void raise_reader_flag(struct rngd_slot *s, bool *flag)
{
	(void)pthread_mutex_lock(&s->lock);
	*flag = true;
	(void)pthread_cond_broadcast(&s->cond);
	(void)pthread_mutex_unlock(&s->lock);
}

void rngd_readers_stop(struct rngd_loop *l)
{
	struct timespec deadline;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (s->started)
			raise_reader_flag(s, &s->stop);
	}
	/* Readers waiting on a source's fd (reader_read()). */
	rngd_eventfd_poke(l->stop_fd);
	rngd_deadline_after_ms(CLOCK_REALTIME, &deadline, READER_STOP_GRACE_MS);
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		void *ret = NULL;

		if (!s->started)
			continue;
		if (pthread_timedjoin_np(s->thread, &ret, &deadline) != 0) {
			/* Still inside a source call that no fd tells about (a
			 * FIFO open() without a writer, a hung TPM, a hwrng read
			 * of a device that stopped answering): left to exit().
			 * Once the call returns, the reader sees stop and ends
			 * without touching the slot (reader_stopping()). */
			(void)pthread_detach(s->thread);
			s->abandoned = s->stuck = true;
			/* What it read of the loop before its call, seen done. */
			rngd_slow_call_left_behind(s);
			rngd_log(l->log, LOG_WARNING, s->src.name,
				 "reader still inside a blocking source call; left to end with the process");
		}
	}
}

void rngd_slot_wake(struct rngd_slot *s)
{
	if (!s->started)
		return;
	raise_reader_flag(s, &s->reopen);
	/* A reader waiting in poll() on its source's fd. */
	rngd_eventfd_poke(s->wake_fd);
}
