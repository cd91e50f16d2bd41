/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop.
 *
 *   1. Reader threads   one per source: open, read whole blocks, queue
 *                       them, block while the queue is full.
 *   2. Gate and credit  main thread: a block taken from a queue goes
 *                       through its source's gate; passing blocks earn
 *                       credit, failing ones count, quarantine, or mix.
 *   3. Sink             main thread: asks demand() before taking a block,
 *                       writes in -s sized parts.
 *   4. Waiting          main thread: poll() on a signalfd and an eventfd
 *                       the readers poke, with a timeout from the sink,
 *                       the re-test deadlines and the periodic jobs.
 *   5. Periodic jobs    stats file, -t rates, the hwrng device watch
 *                       (rngd/hwrng_watch.c: events, not a timer),
 *                       systemd readiness, status and watchdog.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "rngd/credit.h"
#include "rngd/hwrng_watch.h"
#include "rngd/loop.h"
#include "rngd/notify.h"
#include "rngd/thread_stack.h"

#define STATUS_EVERY_MS 10000u
#define TEST_RATE_EVERY_MS 1000u
/* While the kernel pool fills: zero-credit blocks cannot make it ready,
 * so at most one of them a second, and never ahead of a credited one. */
#define ZERO_CREDIT_PACE_MS 1000u

static const char *const slot_state_names[] = {
	[RNGD_SLOT_ACTIVE] = "active",
	[RNGD_SLOT_QUARANTINED] = "quarantined",
	[RNGD_SLOT_EXHAUSTED] = "exhausted",
	[RNGD_SLOT_DOWN] = "down",
	[RNGD_SLOT_DISABLED] = "disabled",
};

const char *rngd_slot_state_name(enum rngd_slot_state s)
{
	return (unsigned int)s < sizeof(slot_state_names) / sizeof(slot_state_names[0]) ?
		slot_state_names[s] : "?";
}

enum rngd_slot_state rngd_slot_state(struct rngd_slot *s)
{
	enum rngd_slot_state st;

	if (!s->enabled || !s->started)
		return RNGD_SLOT_DISABLED;
	(void)pthread_mutex_lock(&s->lock);
	if (s->exhausted && s->count == 0)
		st = RNGD_SLOT_EXHAUSTED;
	else if (s->quarantined)
		st = RNGD_SLOT_QUARANTINED;
	else if (!s->is_open && s->count == 0)
		st = RNGD_SLOT_DOWN;
	else
		st = RNGD_SLOT_ACTIVE;
	(void)pthread_mutex_unlock(&s->lock);
	return st;
}

static void wake_main(struct rngd_loop *l)
{
	uint64_t one = 1;

	/* A full counter already means "wake up"; nothing to do on EAGAIN. */
	(void)!write(l->event_fd, &one, sizeof(one));
}

/* True while the host's kernel pool is filling (credit counts): then
 * credited blocks go first and only to the host (rngd.8). */
static bool host_filling(const struct rngd_loop *l)
{
	struct rng_sink_counters c;

	if (!l->host_sink || !l->host_sink->ops->counters)
		return false;
	l->host_sink->ops->counters(l->host_sink, &c);
	return c.pool_phases && c.filling;
}

/* ---- 1. Reader threads ------------------------------------------------ */

/*
 * The slot's condition variable times out against CLOCK_MONOTONIC, the
 * clock reader_pause() builds its deadlines from: with the default
 * (CLOCK_REALTIME) every monotonic deadline lies decades in the past and
 * each back-off returns at once, a busy loop.
 */
static int slot_cond_init(pthread_cond_t *cond)
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

/* Sleep up to @ms or until stop/reopen; returns with the lock released. */
static void reader_pause(struct rngd_slot *s, unsigned int ms)
{
	struct timespec until;

	(void)clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000u;
	until.tv_nsec += (long)(ms % 1000u) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
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
 * readable) is left behind by stop_threads() after a grace time, to end
 * with the process. No reader is ever cancelled: a cancel inside a
 * source's library leaves its locks and state undefined, and no race
 * detector can follow it.
 */
static ssize_t reader_read(struct rngd_slot *s, void *buf, size_t len)
{
	if (s->src.fd >= 0) {
		struct pollfd pfd[2] = {
			{ .fd = s->src.fd, .events = POLLIN },
			{ .fd = s->loop->stop_fd, .events = POLLIN },
		};

		/* A failed poll: read() meets and reports the same fault. */
		while (poll(pfd, 2, -1) < 0 && errno == EINTR)
			;
		if (pfd[1].revents & POLLIN)
			return -ECANCELED;
	}
	return s->src.ops->read(&s->src, buf, len);
}

/* After every source call, before the reader touches anything shared: a
 * reader that stop_threads() already left behind must not touch the
 * slot's queue, counters, log or source once its call returns. */
static bool reader_stopping(struct rngd_slot *s)
{
	bool stop;

	(void)pthread_mutex_lock(&s->lock);
	stop = s->stop;
	(void)pthread_mutex_unlock(&s->lock);
	return stop;
}

static void *reader_main(void *arg)
{
	struct rngd_slot *s = arg;
	struct rngd_loop *l = s->loop;
	struct rngd_block blk;
	unsigned int backoff = RNGD_REOPEN_MIN_MS;
	size_t have = 0;
	bool seeded = false;

	for (;;) {
		bool reopen, is_open, exhausted, full;
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
			int r = s->src.ops->open(&s->src);
			bool stop;

			(void)pthread_mutex_lock(&s->lock);
			stop = s->stop;
			if (r == 0) {
				/* Open now, whatever comes next: rngd_loop_destroy()
				 * closes it once this thread has ended. */
				s->is_open = true;
				s->reopens++;
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
				rngd_log_limited(l->log, &s->reader_rl, rngd_now_ms(), LOG_WARNING, s->src.name,
						 "cannot open: %s; retrying in %.1f s", s->src.why,
						 backoff / 1000.0);
				reader_pause(s, backoff);
				backoff = backoff * 2 > RNGD_REOPEN_MAX_MS ? RNGD_REOPEN_MAX_MS : backoff * 2;
				continue;
			}
			wake_main(l);
		}

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
		if (n > 0) {
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
					 "end of data%s; closing and re-opening",
					 have ? " (partial block dropped)" : "");
		else
			rngd_log_limited(l->log, &s->reader_rl, rngd_now_ms(), LOG_WARNING, s->src.name,
					 "%s; closing, re-opening in %.1f s", s->src.why, backoff / 1000.0);
		(void)pthread_mutex_lock(&s->lock);
		s->read_errors++;
		(void)pthread_mutex_unlock(&s->lock);
		reader_close(s);
		have = 0;
		explicit_bzero(&blk, sizeof(blk));
		wake_main(l);
		/* No device behind /dev/hwrng now: the device watch wakes us. */
		reader_pause(s, n == 0 ? RNGD_REOPEN_MIN_MS :
			     n == -ENODEV && s->device_events ? RNGD_DEVICE_WAIT_MS : backoff);
		if (n < 0)
			backoff = backoff * 2 > RNGD_REOPEN_MAX_MS ? RNGD_REOPEN_MAX_MS : backoff * 2;
	}
	explicit_bzero(&blk, sizeof(blk));
	return NULL;
}

/* ---- 2. Gate and credit ----------------------------------------------- */



static bool slot_take(struct rngd_slot *s, struct rngd_block *out)
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
 * slot_resume(). */
static void slot_flush_pause(struct rngd_slot *s, bool pause)
{
	(void)pthread_mutex_lock(&s->lock);
	if (s->ring)
		explicit_bzero(s->ring, RNGD_QUEUE_BLOCKS * sizeof(*s->ring));
	s->head = 0;
	s->count = 0;
	s->flushed = true;
	s->paused = pause;
	(void)pthread_cond_signal(&s->cond);
	(void)pthread_mutex_unlock(&s->lock);
}

static void slot_flush(struct rngd_slot *s)
{
	slot_flush_pause(s, false);
}

/*
 * Quarantine: the reader stops, and what it queued is dropped; rngd.8
 * promises the source "is not read until its re-test time".
 */
static void slot_quarantine_wait(struct rngd_slot *s, uint64_t retest_at_ms)
{
	s->retest_at_ms = retest_at_ms;
	s->retest_waiting = true;
	slot_flush_pause(s, true);
}

/* The re-test is due: flush once more and let the reader read fresh data,
 * so the re-test block is one read after this point. */
static void resume_due_retests(struct rngd_loop *l, uint64_t now)
{
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started || !s->retest_waiting || now < s->retest_at_ms)
			continue;
		s->retest_waiting = false;
		slot_flush_pause(s, false);
	}
}

/* A new device behind the same source: what was queued came from the old
 * one, and the new one starts with a clean gate and a clean record. */
void rngd_slot_reset_gate(struct rngd_slot *slot)
{
	slot_flush(slot);
	if (slot->gate_ready)
		fips_gate_reset(&slot->gate);
	slot->fails_in_row = 0;
	slot->quarantined = false;
	slot->retest_waiting = false;
}

static bool slot_has_block(struct rngd_slot *s)
{
	bool has;

	(void)pthread_mutex_lock(&s->lock);
	has = s->count > 0;
	(void)pthread_mutex_unlock(&s->lock);
	return has;
}

/* The highest-priority source with a block ready and not waiting out a
 * quarantine; a quarantined source whose re-test is due is eligible. */
static struct rngd_slot *pick_slot(struct rngd_loop *l, uint64_t now)
{
	struct rngd_slot *best = NULL;
	bool filling = host_filling(l), best_credited = false;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		bool credited;

		if (!s->started || s->retest_waiting || !slot_has_block(s))
			continue;
		credited = !l->cfg.test_mode && credit_entropy_per_bit(&s->src, s->credit_explicit) > 0;
		if (filling && !credited && now < l->zero_credit_not_before_ms)
			continue;
		/* Filling: a credited source beats any zero-credit one. */
		if (!best || (filling && credited && !best_credited) ||
		    ((!filling || credited == best_credited) && s->src.priority > best->src.priority)) {
			best = s;
			best_credited = credited;
		}
	}
	return best;
}

static size_t count_usable(struct rngd_loop *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n_slots; i++) {
		enum rngd_slot_state st = rngd_slot_state(&l->slots[i]);

		if (st == RNGD_SLOT_ACTIVE || st == RNGD_SLOT_DOWN)
			n++;
	}
	return n;
}

static void failed_tests(char *buf, size_t len, unsigned int mask)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int t = 0; t < FIPS_TEST_MAX && off < len; t++) {
		if (!(mask & FIPS_FAIL_BIT(t)))
			continue;
		int n = snprintf(buf + off, len - off, "%s%s", off ? "," : "", fips_test_name((enum fips_test)t));
		off += n > 0 ? (size_t)n : 0;
	}
}

static void set_pending(struct rngd_loop *l, struct rngd_slot *s, const uint8_t *data, unsigned int credit,
			bool failed)
{
	l->pending_failed = failed;
	memcpy(l->pending, data, FIPS_BLOCK_BYTES);
	l->pending_len = FIPS_BLOCK_BYTES;
	l->pending_off = 0;
	l->pending_credit = credit;
	l->pending_slot = s;
}

static void block_failed(struct rngd_loop *l, struct rngd_slot *s, const struct rngd_block *b,
			 unsigned int mask, uint64_t now)
{
	char tests[128];

	s->stats.blocks_failed++;
	for (int t = 0; t < FIPS_TEST_MAX; t++)
		if (mask & FIPS_FAIL_BIT(t))
			s->stats.failures[t]++;
	s->fails_in_row++;
	failed_tests(tests, sizeof(tests), mask);

	if (s->quarantined) {
		s->retest_backoff_ms = s->retest_backoff_ms * 2 > l->cfg.retest_max_ms ?
			l->cfg.retest_max_ms : s->retest_backoff_ms * 2;
		slot_quarantine_wait(s, now + s->retest_backoff_ms);
		rngd_log_limited(l->log, &s->main_rl, now, LOG_WARNING, s->src.name,
				 "re-test block failed (%s); still quarantined, next re-test in %.1f s", tests,
				 s->retest_backoff_ms / 1000.0);
	} else if (l->cfg.quarantine_after && s->fails_in_row >= l->cfg.quarantine_after) {
		s->quarantined = true;
		s->stats.quarantines++;
		s->retest_backoff_ms = l->cfg.retest_min_ms;
		slot_quarantine_wait(s, now + s->retest_backoff_ms);
		rngd_log(l->log, LOG_WARNING, s->src.name,
			 "quarantined after %u failed blocks in a row (last: %s); re-test in %.1f s",
			 s->fails_in_row, tests, s->retest_backoff_ms / 1000.0);
		if (count_usable(l) == 0)
			rngd_log(l->log, LOG_ERR, "rngd",
				 "no usable source left; re-testing quarantined sources with back-off");
	} else {
		rngd_log_limited(l->log, &s->main_rl, now, LOG_NOTICE, s->src.name,
				 "block failed (%s), %u in a row; not credited", tests, s->fails_in_row);
	}
	/* While the pool fills, mixing waits its turn like any zero-credit
	 * block: a failed block that comes too soon is dropped, not queued
	 * ahead of credited ones. */
	if (l->cfg.on_fail == RNGD_ON_FAIL_MIX && !l->cfg.test_mode &&
	    !(host_filling(l) && now < l->zero_credit_not_before_ms))
		set_pending(l, s, b->data, 0, true);
}

static void gate_block(struct rngd_loop *l, struct rngd_slot *s, const struct rngd_block *b, uint64_t now)
{
	unsigned int mask, credit;

	if (b->seed) {
		fips_gate_seed(&s->gate, b->data);
		return;
	}
	mask = fips_gate_check(&s->gate, b->data);
	if (mask) {
		block_failed(l, s, b, mask, now);
		return;
	}
	s->stats.blocks_passed++;
	s->fails_in_row = 0;
	if (s->quarantined) {
		/* The re-test block proves the source, it is not credited. */
		s->quarantined = false;
		rngd_log(l->log, LOG_NOTICE, s->src.name, "passed its re-test; back in service");
		return;
	}
	credit = credit_bits_for(FIPS_BLOCK_BYTES, credit_entropy_per_bit(&s->src, s->credit_explicit));
	set_pending(l, s, b->data, l->cfg.test_mode ? 0 : credit, false);
}

/* Tested bytes never outlive their use: the stack copy is wiped here, the
 * queue entry in slot_take(), the pending block once written. */
static void process_block(struct rngd_loop *l, struct rngd_slot *s, uint64_t now)
{
	struct rngd_block b;

	if (!slot_take(s, &b))
		return;
	gate_block(l, s, &b, now);
	explicit_bzero(&b, sizeof(b));
}

/* ---- 3. Sink ---------------------------------------------------------- */

static void update_status(struct rngd_loop *l);

/*
 * The host sink's running count of credit its consumer took. A sink
 * without counters (a test's) counts what it is handed: @handed is then
 * the count's rise for the write about to be accounted. With -o none
 * (EGD only), nothing is credited to any pool.
 */
static uint64_t host_bits_counted(struct rngd_loop *l, unsigned int handed)
{
	struct rng_sink_counters c;

	if (!l->host_sink || !l->host_sink->ops->counters) {
		if (l->host_sink && l->sink == l->host_sink)
			l->host_fallback_count += handed;
		return l->host_fallback_count;
	}
	l->host_sink->ops->counters(l->host_sink, &c);
	return c.bits_counted;
}

static int write_pending(struct rngd_loop *l, size_t demand)
{
	size_t left = l->pending_len - l->pending_off;
	size_t part = left;
	unsigned int credit, counted;
	uint64_t counted_before;
	bool filling;
	int r;

	if (part > l->cfg.random_step)
		part = l->cfg.random_step;
	if (part > demand)
		part = demand;
	credit = credit_split(l->pending_credit, left, part);
	filling = host_filling(l);
	counted_before = host_bits_counted(l, 0);
	r = l->sink->ops->write(l->sink, l->pending + l->pending_off, part, credit);
	if (r < 0) {
		l->sink_stats.write_errors++;
		return r;
	}
	/* What the host's sink really counted, not what was claimed. */
	counted = (unsigned int)(host_bits_counted(l, credit) - counted_before);
	l->sink_stats.writes++;
	l->sink_stats.bytes_written += part;
	l->sink_stats.bits_credited += counted;
	if (filling && l->pending_credit == 0)
		l->zero_credit_not_before_ms = rngd_now_ms() + ZERO_CREDIT_PACE_MS;
	if (l->pending_slot) {
		l->pending_slot->stats.bits_credited += counted;
		if (l->pending_failed)
			l->pending_slot->stats.bytes_mixed += part;
		else
			l->pending_slot->stats.bytes_to_sink += part;
	}
	l->pending_off += part;
	l->pending_credit -= credit;
	if (l->pending_off == l->pending_len) {
		explicit_bzero(l->pending, sizeof(l->pending));
		l->pending_len = l->pending_off = 0;
		l->pending_slot = NULL;
	}
	if (credit > 0 && !l->ready) {
		l->ready = true;
		rngd_log(l->log, LOG_INFO, "rngd", "first credited block written; ready");
		notify_ready();
		update_status(l);
	}
	return 0;
}

/* ---- 5. Periodic jobs ------------------------------------------------- */

/* The host sink's phase counters and the EGD server's, into sink_stats. */
static void refresh_sink_stats(struct rngd_loop *l)
{
	struct rngd_sink_stats *st = &l->sink_stats;
	struct rng_sink_counters c = { 0 };

	if (l->host_sink && l->host_sink->ops->counters)
		l->host_sink->ops->counters(l->host_sink, &c);
	st->pool_phases = c.pool_phases;
	st->filling = c.filling;
	st->bytes_filling = c.bytes_filling;
	st->bytes_after_ready = c.bytes_after_ready;
	st->reseeds = c.reseeds;
	st->egd = l->egd_bytes_served != NULL;
	st->egd_bytes_served = st->egd ? l->egd_bytes_served(l->log_stats_ctx) : 0;
}

static void sync_reader_counters(struct rngd_slot *s)
{
	(void)pthread_mutex_lock(&s->lock);
	s->stats.bytes_read = s->bytes_read;
	s->stats.reopens = s->reopens;
	s->stats.read_errors = s->read_errors;
	(void)pthread_mutex_unlock(&s->lock);
}

void rngd_loop_log_stats(struct rngd_loop *l, const char *why)
{
	char line[1024];

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started)
			continue;
		sync_reader_counters(s);
		rngd_stats_format(line, sizeof(line), &s->stats);
		rngd_log(l->log, LOG_NOTICE, s->src.name, "%s: %s, %s", why,
			 rngd_slot_state_name(rngd_slot_state(s)), line);
	}
	refresh_sink_stats(l);
	rngd_sink_stats_format(line, sizeof(line), &l->sink_stats);
	rngd_log(l->log, LOG_NOTICE, "rngd", "%s: sink %s: %s", why, l->sink->ops->name, line);
	if (l->log_stats_extra)
		l->log_stats_extra(l->log_stats_ctx, why);
}

static void write_stats_file(struct rngd_loop *l, uint64_t now)
{
	struct rngd_stats_entry e[l->n_slots ? l->n_slots : 1];
	size_t n = 0;
	int r;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started)
			continue;
		sync_reader_counters(s);
		e[n++] = (struct rngd_stats_entry){ s->src.name, &s->stats,
						    rngd_slot_state_name(rngd_slot_state(s)) };
	}
	refresh_sink_stats(l);
	r = rngd_stats_write_prometheus(l->cfg.stats_file, e, n, &l->sink_stats, l->sink->ops->name);
	if (r < 0)
		rngd_log_limited(l->log, &l->loop_rl, now, LOG_WARNING, "rngd", "stats file %s: %s",
				 l->cfg.stats_file, strerror(-r));
}

static void print_rates(struct rngd_loop *l, uint64_t now)
{
	double secs = (double)(now - l->start_ms) / 1000.0;

	if (secs <= 0)
		return;
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started)
			continue;
		printf("%s: %.0f passing bytes/s (%" PRIu64 " blocks passed, %" PRIu64 " failed, %s)\n",
		       s->src.name, (double)(s->stats.blocks_passed * FIPS_BLOCK_BYTES) / secs,
		       s->stats.blocks_passed, s->stats.blocks_failed,
		       rngd_slot_state_name(rngd_slot_state(s)));
	}
	(void)fflush(stdout);
}

static void update_status(struct rngd_loop *l)
{
	const struct rngd_sink_stats *ss;
	char egd[80] = "";
	char names[256] = "";
	size_t off = 0;

	for (size_t i = 0; i < l->n_slots && off < sizeof(names); i++) {
		struct rngd_slot *s = &l->slots[i];
		enum rngd_slot_state st = rngd_slot_state(s);
		int n;

		if (st == RNGD_SLOT_DISABLED)
			continue;
		if (st == RNGD_SLOT_ACTIVE)
			n = snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "", s->src.name);
		else
			n = snprintf(names + off, sizeof(names) - off, "%s%s (%s)", off ? ", " : "", s->src.name,
				     rngd_slot_state_name(st));
		off += n > 0 ? (size_t)n : 0;
	}
	refresh_sink_stats(l);
	ss = &l->sink_stats;
	if (ss->egd)
		(void)snprintf(egd, sizeof(egd), "; %" PRIu64 " bytes served to EGD clients", ss->egd_bytes_served);
	if (!ss->pool_phases)
		notify_status("sources: %s; %" PRIu64 " bits credited%s", off ? names : "none", ss->bits_credited, egd);
	else if (ss->filling)
		notify_status("sources: %s; pool filling: %" PRIu64 " bits credited%s", off ? names : "none",
			      ss->bits_credited, egd);
	else
		notify_status("sources: %s; pool ready: %" PRIu64 " bits credited while filling, %" PRIu64
			      " bytes mixed since, %" PRIu64 " reseeds%s", off ? names : "none", ss->bits_credited,
			      ss->bytes_after_ready, ss->reseeds, egd);
}

struct periodic {
	uint64_t next_stats, next_rates, next_status, next_watchdog;
	uint64_t watchdog_ms;
};

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Run what is due; returns the earliest next deadline. */
static uint64_t run_periodic(struct rngd_loop *l, struct periodic *p, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	if (!l->ready) {
		uint64_t at = l->start_ms + l->cfg.ready_timeout_ms;

		if (now >= at) {
			l->ready = true;
			rngd_log(l->log, LOG_NOTICE, "rngd",
				 "no credited block within %.1f s; telling the service manager we are ready anyway",
				 l->cfg.ready_timeout_ms / 1000.0);
			notify_ready();
			update_status(l);
		} else {
			next = min_u64(next, at);
		}
	}
	if (l->cfg.stats_file) {
		if (now >= p->next_stats) {
			write_stats_file(l, now);
			p->next_stats = now + l->cfg.stats_interval_s * 1000ull;
		}
		next = min_u64(next, p->next_stats);
	}
	if (l->cfg.test_mode) {
		if (now >= p->next_rates) {
			print_rates(l, now);
			p->next_rates = now + TEST_RATE_EVERY_MS;
		}
		next = min_u64(next, p->next_rates);
	}
	if (l->hwrng_watch)
		next = min_u64(next, hwrng_watch_run(l->hwrng_watch, now));
	/* No wake-up of its own: the status rides on the loop's other ones
	 * (blocks, the top-up timer), so an idle rngd sleeps. */
	if (now >= p->next_status) {
		if (l->ready)
			update_status(l);
		p->next_status = now + STATUS_EVERY_MS;
	}
	if (p->watchdog_ms) {
		if (now >= p->next_watchdog) {
			notify_watchdog();
			p->next_watchdog = now + p->watchdog_ms;
		}
		next = min_u64(next, p->next_watchdog);
	}
	return next;
}

/* ---- 4. Waiting, signals and the run ---------------------------------- */

static const int handled_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1 };

void rngd_loop_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(handled_signals[0]); i++)
		sigaddset(set, handled_signals[i]);
}

int rngd_loop_init(struct rngd_loop *l, struct rngd_log *log, struct rng_sink *sink,
		   struct rngd_slot *slots, size_t n_slots, const struct rngd_loop_config *cfg)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t set;

	memset(l, 0, sizeof(*l));
	l->log = log;
	l->sink = sink;
	l->host_sink = sink;
	l->slots = slots;
	l->n_slots = n_slots;
	l->cfg = *cfg;
	l->signal_fd = l->event_fd = l->stop_fd = -1;

	/* A FIFO sink whose reader went away: EPIPE from write(), not death. */
	if (sigaction(SIGPIPE, &ign, NULL) < 0)
		return -errno;
	rngd_loop_signal_set(&set);
	/* Blocked here (main() already did so at start-up), inherited by every
	 * reader thread: only the signalfd sees them. */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return -EINVAL;
	l->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (l->signal_fd < 0)
		return -errno;
	l->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->event_fd < 0)
		return -errno;
	l->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->stop_fd < 0)
		return -errno;
	for (size_t i = 0; i < n_slots; i++) {
		struct rngd_slot *s = &slots[i];
		struct fips_gate_config gc;
		int r;

		s->loop = l;
		(void)pthread_mutex_init(&s->lock, NULL);
		r = slot_cond_init(&s->cond);
		if (r < 0)
			return r;
		fips_gate_config_default(&gc);
		r = fips_gate_init(&s->gate, &gc);
		if (r < 0)
			return r;
		s->gate_ready = true;
	}
	return 0;
}

size_t rngd_loop_open_sources(struct rngd_loop *l)
{
	size_t usable = 0;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		int r;

		if (!s->enabled)
			continue;
		r = s->src.ops->probe ? s->src.ops->probe(&s->src) : 0;
		/* A named source that is the wrong kind of thing will not get better. */
		if (r < 0 && s->explicit && (r == -ENODEV || r == -EINVAL)) {
			rngd_log(l->log, LOG_ERR, s->src.name, "cannot be used: %s", s->src.why);
			s->enabled = false;
			continue;
		}
		if (r < 0 && !s->explicit) {
			rngd_log(l->log, LOG_INFO, s->src.name, "not used: %s", s->src.why);
			s->enabled = false;
			continue;
		}
		r = s->src.ops->open(&s->src);
		if (r == -ENODATA) {
			rngd_log(l->log, LOG_WARNING, s->src.name, "exhausted: %s", s->src.why);
			s->enabled = false;
			continue;
		}
		if (r < 0 && !s->explicit) {
			rngd_log(l->log, LOG_INFO, s->src.name, "not used: %s", s->src.why);
			s->enabled = false;
			continue;
		}
		if (r < 0) {
			rngd_log(l->log, LOG_WARNING, s->src.name, "cannot open yet: %s; will retry", s->src.why);
		} else {
			s->is_open = true;
			s->reopens = 1;
			rngd_log(l->log, LOG_INFO, s->src.name, "opened%s%s, %.3f entropy bits per bit credited, priority %d",
				 s->src.why[0] ? " " : "", s->src.why,
				 credit_entropy_per_bit(&s->src, s->credit_explicit), s->src.priority);
		}
		usable++;
	}
	return usable;
}

static int start_threads(struct rngd_loop *l)
{
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		int r;

		if (!s->enabled)
			continue;
		if (!s->ring)
			s->ring = calloc(RNGD_QUEUE_BLOCKS, sizeof(*s->ring));
		if (!s->ring) {
			rngd_log(l->log, LOG_ERR, s->src.name, "cannot start its reader: out of memory");
			return -ENOMEM;
		}
		r = rngd_thread_start(&s->thread, reader_main, s);
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

/* pthread_timedjoin_np() measures against CLOCK_REALTIME (glibc has no
 * clock attribute for joins): its deadline must come from that clock. */
static void deadline_after_ms(struct timespec *t, long ms)
{
	(void)clock_gettime(CLOCK_REALTIME, t);
	t->tv_nsec += ms * 1000000L;
	t->tv_sec += t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

static void stop_threads(struct rngd_loop *l)
{
	struct timespec deadline;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started)
			continue;
		(void)pthread_mutex_lock(&s->lock);
		s->stop = true;
		(void)pthread_cond_broadcast(&s->cond);
		(void)pthread_mutex_unlock(&s->lock);
	}
	/* Readers waiting on a source's fd (reader_read()). */
	if (l->stop_fd >= 0) {
		uint64_t one = 1;

		(void)!write(l->stop_fd, &one, sizeof(one));
	}
	deadline_after_ms(&deadline, READER_STOP_GRACE_MS);
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
			rngd_log(l->log, LOG_WARNING, s->src.name,
				 "reader still inside a blocking source call; left to end with the process");
			continue;
		}
		sync_reader_counters(s);
	}
}

void rngd_slot_wake(struct rngd_slot *s)
{
	if (!s->started)
		return;
	(void)pthread_mutex_lock(&s->lock);
	s->reopen = true;
	(void)pthread_cond_broadcast(&s->cond);
	(void)pthread_mutex_unlock(&s->lock);
}

static void reopen_all(struct rngd_loop *l)
{
	for (size_t i = 0; i < l->n_slots; i++)
		rngd_slot_wake(&l->slots[i]);
}

static void handle_signals(struct rngd_loop *l)
{
	struct signalfd_siginfo si;

	while (read(l->signal_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGTERM:
		case SIGINT:
			rngd_log(l->log, LOG_NOTICE, "rngd", "%s received; exiting",
				 si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGINT");
			l->stopping = true;
			break;
		case SIGUSR1:
			rngd_loop_log_stats(l, "stats");
			break;
		case SIGHUP:
			rngd_log(l->log, LOG_NOTICE, "rngd", "SIGHUP: re-reading the configuration, re-opening sources");
			if (l->reload && l->reload(l, l->reload_ctx) < 0)
				rngd_log(l->log, LOG_WARNING, "rngd", "configuration not reloaded; keeping the old one");
			reopen_all(l);
			break;
		default:
			break;
		}
	}
}

int rngd_loop_run(struct rngd_loop *l)
{
	struct periodic p = { 0 };
	struct pollfd pfd[4];
	int exit_code = RNGD_EXIT_OK;
	uint64_t wd_usec;

	l->start_ms = rngd_now_ms();
	wd_usec = notify_watchdog_usec();
	p.watchdog_ms = wd_usec ? wd_usec / 2000u : 0;
	if (p.watchdog_ms == 0 && wd_usec)
		p.watchdog_ms = 1;
	p.next_status = l->start_ms + STATUS_EVERY_MS;
	if (start_threads(l) < 0) {
		stop_threads(l);
		return RNGD_EXIT_FAILURE;
	}

	while (!l->stopping) {
		uint64_t now, next, ask_at = RNG_SINK_NEVER;
		size_t demand;
		int timeout;

		handle_signals(l);
		if (l->stopping)
			break;
		now = rngd_now_ms();
		next = run_periodic(l, &p, now);
		resume_due_retests(l, now);

		demand = l->sink->ops->demand(l->sink, now, &ask_at);
		if (demand > 0) {
			struct rngd_slot *s;

			if (l->pending_len) {
				int r = write_pending(l, demand);

				if (r < 0) {
					rngd_log(l->log, LOG_ERR, "rngd", "sink %s: write failed: %s; exiting",
						 l->sink->ops->name, strerror(-r));
					exit_code = RNGD_EXIT_FAILURE;
					break;
				}
				continue;
			}
			s = pick_slot(l, now);
			if (s) {
				process_block(l, s, now);
				continue;
			}
		} else {
			next = min_u64(next, ask_at);
		}
		/* Nothing to do now: wait for a signal, a block, or a deadline.
		 * Say first if that wait is for nothing (no timer wakes us to
		 * say it later). */
		if (count_usable(l) == 0 && !l->none_left_logged) {
			l->none_left_logged = true;
			rngd_log(l->log, LOG_ERR, "rngd", "no usable source left; still retrying");
		} else if (count_usable(l) > 0) {
			l->none_left_logged = false;
		}
		for (size_t i = 0; i < l->n_slots; i++)
			if (l->slots[i].started && l->slots[i].retest_waiting)
				next = min_u64(next, l->slots[i].retest_at_ms);
		/* Zero-credit blocks held back while the pool fills. */
		if (demand > 0 && l->zero_credit_not_before_ms > now && host_filling(l))
			next = min_u64(next, l->zero_credit_not_before_ms);
		if (next == UINT64_MAX || next == RNG_SINK_NEVER)
			timeout = -1;
		else if (next <= now)
			timeout = 0;
		else
			timeout = next - now > INT32_MAX ? INT32_MAX : (int)(next - now);
		pfd[0] = (struct pollfd){ .fd = l->signal_fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = l->event_fd, .events = POLLIN };
		/* A stalled sink (a pipe nobody reads) is waited for here, beside
		 * the signals, never inside its write(). */
		pfd[2] = (struct pollfd){ .fd = -1 };
		if (demand == 0 && l->sink->ops->wait_fd)
			pfd[2].fd = l->sink->ops->wait_fd(l->sink, &pfd[2].events);
		/* The device watch's uevent socket; a negative fd is ignored. */
		pfd[3] = (struct pollfd){ .fd = l->hwrng_watch ? hwrng_watch_fd(l->hwrng_watch) : -1,
					  .events = POLLIN };
		if (poll(pfd, 4, timeout) > 0 && (pfd[1].revents & POLLIN)) {
			uint64_t v;

			(void)!read(l->event_fd, &v, sizeof(v));
		}
		if (pfd[3].revents)
			l->hwrng_watch->readable = true;
	}

	stop_threads(l);
	/* The readers are gone: their rate-limit counters are ours to read,
	 * except a stuck one's (it may still be logging when its call ends). */
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		unsigned long n = s->main_rl.suppressed + (s->stuck ? 0 : s->reader_rl.suppressed);

		if (s->started && n)
			rngd_log(l->log, LOG_NOTICE, s->src.name, "%lu repeated messages were suppressed", n);
	}
	if (l->cfg.test_mode)
		print_rates(l, rngd_now_ms());
	if (l->cfg.stats_file)
		write_stats_file(l, rngd_now_ms());
	rngd_loop_log_stats(l, "summary");
	return exit_code;
}

void rngd_loop_destroy(struct rngd_loop *l)
{
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		/* A stuck reader still owns the slot and its source. */
		if (s->stuck)
			continue;
		if (s->is_open && !s->abandoned)
			s->src.ops->close(&s->src);
		s->is_open = false;
		/* Tested bytes still queued: nobody will read them now. */
		if (s->ring)
			explicit_bzero(s->ring, RNGD_QUEUE_BLOCKS * sizeof(*s->ring));
		s->count = 0;
		if (s->gate_ready)
			fips_gate_destroy(&s->gate);
		s->gate_ready = false;
		(void)pthread_mutex_destroy(&s->lock);
		(void)pthread_cond_destroy(&s->cond);
	}
	explicit_bzero(l->pending, sizeof(l->pending));
	if (l->signal_fd >= 0)
		(void)close(l->signal_fd);
	if (l->event_fd >= 0)
		(void)close(l->event_fd);
	if (l->stop_fd >= 0)
		(void)close(l->stop_fd);
	l->signal_fd = l->event_fd = l->stop_fd = -1;
}
