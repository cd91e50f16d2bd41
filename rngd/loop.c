/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop.
 *
 *   1. Reader threads   rngd/reader.c, one per source: open, read whole
 *                       blocks, queue them, block while the queue is full.
 *   2. Gate and credit  main thread: a block taken from a queue goes
 *                       through its source's gate; passing blocks earn
 *                       credit, failing ones count, quarantine, or mix
 *                       (the rules: rngd/policy.c; here their effects).
 *   3. Sink             main thread: asks demand() before taking a block,
 *                       writes in -s sized parts.
 *   4. Waiting          main thread: poll() on a signalfd and an eventfd
 *                       the readers poke, with a timeout from the sink,
 *                       the re-test deadlines and the periodic jobs.
 * The periodic jobs (stats file, -t rates, the hwrng device watch's tick,
 * systemd readiness, status and watchdog) and the reports they make are
 * in rngd/loop_jobs.c.
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
#include "rngd/loop_jobs.h"
#include "rngd/notify.h"
#include "rngd/policy.h"
#include "rngd/reader.h"
#include "rngd/thread_stack.h"

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
	else if (s->q.quarantined)
		st = RNGD_SLOT_QUARANTINED;
	else if (!s->is_open && s->count == 0)
		st = RNGD_SLOT_DOWN;
	else
		st = RNGD_SLOT_ACTIVE;
	(void)pthread_mutex_unlock(&s->lock);
	return st;
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

/* ---- 2. Gate and credit ----------------------------------------------- */

/*
 * Quarantine: the reader stops, and what it queued is dropped; rngd.8
 * promises the source "is not read until its re-test time".
 */
static void slot_quarantine_wait(struct rngd_slot *s, uint64_t retest_at_ms)
{
	s->retest_at_ms = retest_at_ms;
	s->retest_waiting = true;
	rngd_slot_flush_pause(s, true);
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
		rngd_slot_flush_pause(s, false);
	}
}

/* A new device behind the same source: what was queued came from the old
 * one, and the new one starts with a clean gate and a clean record. */
void rngd_slot_reset_gate(struct rngd_slot *slot)
{
	rngd_slot_flush_pause(slot, false);
	if (slot->gate_ready)
		fips_gate_reset(&slot->gate);
	rngd_policy_reset(&slot->q);
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

/* The source whose block goes next (rngd_policy_pick): a source waiting
 * out a quarantine is not a candidate; one whose re-test is due is. */
static struct rngd_slot *pick_slot(struct rngd_loop *l, uint64_t now)
{
	struct rngd_pick_candidate c[l->n_slots ? l->n_slots : 1];
	int best;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		c[i] = (struct rngd_pick_candidate){
			.ready = s->started && !s->retest_waiting && slot_has_block(s),
			.credited = !l->cfg.test_mode && credit_entropy_per_bit(&s->src, s->credit_explicit) > 0,
			.priority = s->src.priority,
		};
	}
	best = rngd_policy_pick(c, l->n_slots, host_filling(l), now < l->zero_credit_not_before_ms);
	return best < 0 ? NULL : &l->slots[best];
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
	const struct rngd_quarantine_rules rules = {
		l->cfg.quarantine_after, l->cfg.retest_min_ms, l->cfg.retest_max_ms,
	};
	char tests[128];

	s->stats.blocks_failed++;
	for (int t = 0; t < FIPS_TEST_MAX; t++)
		if (mask & FIPS_FAIL_BIT(t))
			s->stats.failures[t]++;
	failed_tests(tests, sizeof(tests), mask);

	switch (rngd_policy_block_failed(&s->q, &rules)) {
	case RNGD_FAIL_RETEST_FAILED:
		slot_quarantine_wait(s, now + s->q.backoff_ms);
		rngd_log_limited(l->log, &s->main_rl, now, LOG_WARNING, s->src.name,
				 "re-test block failed (%s); still quarantined, next re-test in %.1f s", tests,
				 s->q.backoff_ms / 1000.0);
		break;
	case RNGD_FAIL_QUARANTINED:
		s->stats.quarantines++;
		slot_quarantine_wait(s, now + s->q.backoff_ms);
		rngd_log(l->log, LOG_WARNING, s->src.name,
			 "quarantined after %u failed blocks in a row (last: %s); re-test in %.1f s",
			 s->q.fails_in_row, tests, s->q.backoff_ms / 1000.0);
		if (count_usable(l) == 0)
			rngd_log(l->log, LOG_ERR, "rngd",
				 "no usable source left; re-testing quarantined sources with back-off");
		break;
	case RNGD_FAIL_COUNTED:
		rngd_log_limited(l->log, &s->main_rl, now, LOG_NOTICE, s->src.name,
				 "block failed (%s), %u in a row; not credited", tests, s->q.fails_in_row);
		break;
	}
	if (rngd_policy_mix_failed(l->cfg.on_fail, l->cfg.test_mode, host_filling(l),
				   now < l->zero_credit_not_before_ms))
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
	if (rngd_policy_block_passed(&s->q)) {
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

	if (!rngd_slot_take(s, &b))
		return;
	gate_block(l, s, &b, now);
	explicit_bzero(&b, sizeof(b));
}

/* ---- 3. Sink ---------------------------------------------------------- */

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
		rngd_loop_update_status(l);
	}
	return 0;
}

/* ---- 4. Waiting, signals and the run ---------------------------------- */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Stop the readers; the counters of those that ended are final now. */
static void stop_readers(struct rngd_loop *l)
{
	rngd_readers_stop(l);
	for (size_t i = 0; i < l->n_slots; i++)
		if (l->slots[i].started && !l->slots[i].abandoned)
			rngd_slot_sync_counters(&l->slots[i]);
}


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
		r = rngd_slot_cond_init(&s->cond);
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

void rngd_loop_set_reload(struct rngd_loop *l, rngd_reload_fn reload, void *ctx)
{
	l->reload = reload;
	l->reload_ctx = ctx;
}

void rngd_loop_set_egd(struct rngd_loop *l, void (*log_stats_extra)(void *ctx, const char *why),
		       uint64_t (*bytes_served)(void *ctx), void *ctx, struct rng_sink *host_sink)
{
	l->log_stats_extra = log_stats_extra;
	l->log_stats_ctx = ctx;
	l->egd_bytes_served = bytes_served;
	l->host_sink = host_sink;
}

void rngd_loop_set_hwrng_watch(struct rngd_loop *l, struct hwrng_watch *w)
{
	l->hwrng_watch = w;
}

int rngd_loop_wake_fd(const struct rngd_loop *l)
{
	return l->event_fd;
}

void rngd_loop_set_config(struct rngd_loop *l, const struct rngd_loop_config *cfg)
{
	bool test_mode = l->cfg.test_mode;

	l->cfg = *cfg;
	l->cfg.test_mode = test_mode;
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
	struct rngd_loop_jobs jobs;
	struct pollfd pfd[4];
	int exit_code = RNGD_EXIT_OK;

	l->start_ms = rngd_now_ms();
	rngd_loop_jobs_init(&jobs, l->start_ms);
	if (rngd_readers_start(l) < 0) {
		stop_readers(l);
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
		next = rngd_loop_jobs_run(l, &jobs, now);
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

	stop_readers(l);
	/* The readers are gone: their rate-limit counters are ours to read,
	 * except a stuck one's (it may still be logging when its call ends). */
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		unsigned long n = s->main_rl.suppressed + (s->stuck ? 0 : s->reader_rl.suppressed);

		if (s->started && n)
			rngd_log(l->log, LOG_NOTICE, s->src.name, "%lu repeated messages were suppressed", n);
	}
	rngd_loop_jobs_final(l);
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
