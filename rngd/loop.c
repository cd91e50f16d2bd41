/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop: it waits, and dispatches.
 *
 *   Reader threads   rngd/reader.c, one per source: open, read whole
 *                    blocks, queue them, block while the queue is full.
 *   Gate and credit  rngd/block_flow.c, main thread: a block taken from a
 *                    queue goes through its source's gate; passing blocks
 *                    earn credit, failing ones count, quarantine, or mix
 *                    (the rules: rngd/policy.c).
 *   Sink             rngd/block_flow.c: asked demand() first (here), then
 *                    written in -s sized parts.
 *   Periodic jobs    rngd/loop_jobs.c: stats file, -t rates, the hook's
 *                    run, systemd readiness, status and watchdog, the
 *                    summary (their text: rngd/stats.c).
 *   Waiting          here: poll() on a signalfd, an eventfd the readers
 *                    poke, the hook's fd (the hwrng device watch's uevent
 *                    socket, rngd/hwrng_watch.c) and, while the sink
 *                    wants nothing, the sink's wait fd (a stalled pipe:
 *                    POLLOUT), with a timeout from the sink, the re-test
 *                    deadlines, the zero-credit hold-back and the jobs;
 *                    signals (SIGHUP reload, SIGUSR1 stats, SIGTERM);
 *                    start and stop.
 *   Opening at start rngd/start_open.c: an opener thread, waited for
 *                    with a bound, so a hung open holds back no other.
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

#include "rngd/block_flow.h"
#include "rngd/deadline.h"
#include "rngd/eventfd.h"
#include "rngd/loop_state.h"
#include "rngd/loop_jobs.h"
#include "rngd/notify.h"
#include "rngd/policy.h"
#include "rngd/poll_timeout.h"
#include "rngd/reader.h"
#include "rngd/slot.h"
#include "rngd/slow_call.h"
#include "sources/close_fd.h"

/* ---- Waiting, signals and the run ---------------------------------- */

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

static int loop_init(struct rngd_loop *l, struct rngd_log *log, struct rng_sink *sink,
		     struct rngd_slot *slots, size_t n_slots, const struct rngd_loop_config *cfg)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t set;
	int err;

	l->log = log;
	l->sink = sink;
	l->host_sink = sink;
	l->slots = slots;
	l->n_slots = n_slots;
	l->cfg = *cfg;
	l->slow_call_ms = cfg->slow_call_ms;
	l->signal_fd = l->event_fd = l->stop_fd = l->slow_call_timer_fd = -1;

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
	for (size_t i = 0; i < n_slots; i++)
		slots[i].wake_fd = -1;
	err = rngd_slow_call_init(l);
	if (err < 0)
		return err;
	l->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->stop_fd < 0)
		return -errno;
	for (size_t i = 0; i < n_slots; i++) {
		struct rngd_slot *s = &slots[i];
		struct fips_gate_config gc;
		int r;

		s->loop = l;
		(void)pthread_mutex_init(&s->lock, NULL);
		r = rngd_cond_init_monotonic(&s->cond);
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

int rngd_loop_new(struct rngd_loop **out, struct rngd_log *log, struct rng_sink *sink,
		  struct rngd_slot *slots, size_t n_slots, const struct rngd_loop_config *cfg)
{
	struct rngd_loop *l = calloc(1, sizeof(*l));
	int r;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	r = loop_init(l, log, sink, slots, n_slots, cfg);
	if (r < 0) {
		rngd_loop_destroy(l);
		return r;
	}
	*out = l;
	return 0;
}

void rngd_loop_set_egd(struct rngd_loop *l, uint64_t (*bytes_served)(void *ctx), void *ctx,
		       struct rng_sink *host_sink)
{
	l->egd_bytes_served = bytes_served;
	l->egd_ctx = ctx;
	l->host_sink = host_sink;
}

void rngd_loop_set_hook(struct rngd_loop *l, const struct rngd_loop_hook *hook, void *ctx)
{
	l->hook = hook;
	l->hook_ctx = ctx;
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

const struct rngd_loop_config *rngd_loop_config(const struct rngd_loop *l)
{
	return &l->cfg;
}

static void reopen_all(struct rngd_loop *l)
{
	for (size_t i = 0; i < l->n_slots; i++)
		rngd_slot_wake(&l->slots[i]);
}

/* Returns the RNGD_LOOP_WANTS_* bits the signals ask of the caller. */
static int handle_signals(struct rngd_loop *l)
{
	struct signalfd_siginfo si;
	int wants = 0;

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
			wants |= RNGD_LOOP_WANTS_STATS;
			break;
		case SIGHUP:
			rngd_log(l->log, LOG_NOTICE, "rngd", "SIGHUP: re-reading the configuration, re-opening sources");
			wants |= RNGD_LOOP_WANTS_RELOAD;
			break;
		default:
			break;
		}
	}
	return wants;
}

int rngd_loop_run(struct rngd_loop *l)
{
	struct pollfd pfd[5];
	int exit_code = RNGD_EXIT_OK;

	if (!l->running) {
		l->start_ms = rngd_now_ms();
		rngd_loop_jobs_init(&l->jobs, l->start_ms);
		l->running = true;
		/* Readers that did start are stopped below, and the summary is
		 * logged as at any exit: the caller adds the EGD server's
		 * summary to it. */
		if (rngd_readers_start(l) < 0) {
			exit_code = RNGD_EXIT_FAILURE;
			l->stopping = true;
		}
	} else if (l->reopen_on_resume) {
		/* Running still: the last call returned with a reload asked. */
		l->reopen_on_resume = false;
		reopen_all(l);
	}

	while (!l->stopping) {
		uint64_t now, next, ask_at = RNG_SINK_NEVER;
		size_t demand;
		int timeout;
		int wants = handle_signals(l);

		if (l->stopping)
			break;
		if (wants) {
			l->reopen_on_resume = wants & RNGD_LOOP_WANTS_RELOAD;
			return -wants;
		}
		now = rngd_now_ms();
		next = rngd_loop_jobs_run(l, &l->jobs, now);
		rngd_loop_say_late_opens(l);
		rngd_flow_resume_due_retests(l, now);

		demand = l->sink->ops->demand(l->sink, now, &ask_at);
		rngd_loop_jobs_pool_phase(l);
		if (demand > 0) {
			struct rngd_slot *s;

			if (l->pending_len) {
				int r = rngd_flow_write_pending(l, demand);

				if (r < 0) {
					rngd_log(l->log, LOG_ERR, "rngd", "sink %s: write failed: %s; exiting",
						 l->sink->name, strerror(-r));
					exit_code = RNGD_EXIT_FAILURE;
					break;
				}
				continue;
			}
			s = rngd_flow_pick(l, now);
			if (s) {
				rngd_flow_process_block(l, s, now);
				continue;
			}
		} else {
			next = min_u64(next, ask_at);
		}
		/* Nothing to do now: wait for a signal, a block, or a deadline.
		 * Say first if that wait is for nothing (no timer wakes us to
		 * say it later). */
		if (rngd_flow_count_usable(l) == 0 && !l->none_left_logged) {
			bool retesting = false;

			for (size_t i = 0; i < l->n_slots; i++)
				retesting |= rngd_slot_state(&l->slots[i]) == RNGD_SLOT_QUARANTINED;
			l->none_left_logged = true;
			/* Exhausted files are never read again: say so, not "retrying". */
			rngd_log(l->log, LOG_ERR, "rngd", "no usable source left; %s",
				 retesting ? "still re-testing the quarantined" :
					     "every source is exhausted or left out; nothing more will be read");
		} else if (rngd_flow_count_usable(l) > 0) {
			l->none_left_logged = false;
		}
		for (size_t i = 0; i < l->n_slots; i++)
			if (l->slots[i].started && l->slots[i].retest_waiting)
				next = min_u64(next, l->slots[i].retest_at_ms);
		/* Zero-credit blocks held back while the pool fills. */
		if (demand > 0 && l->zero_credit_not_before_ms > now && rngd_flow_host_filling(l))
			next = min_u64(next, l->zero_credit_not_before_ms);
		/* RNG_SINK_NEVER is UINT64_MAX, which the time-out reads as
		 * "no deadline". */
		next = rngd_slow_call_sleep(l, now, next);
		timeout = rngd_poll_timeout_ms(now, next);
		pfd[0] = (struct pollfd){ .fd = l->signal_fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = l->event_fd, .events = POLLIN };
		/* A stalled sink (a pipe nobody reads) is waited for here, beside
		 * the signals, never inside its write(). */
		pfd[2] = (struct pollfd){ .fd = -1 };
		if (demand == 0 && l->sink->ops->wait_fd)
			pfd[2].fd = l->sink->ops->wait_fd(l->sink, &pfd[2].events);
		/* The hook's fd (the device watch's uevent socket); a negative
		 * fd is ignored. */
		pfd[3] = (struct pollfd){ .fd = l->hook ? l->hook->fd(l->hook_ctx) : -1, .events = POLLIN };
		/* A read's limit, set by its reader while we sleep. */
		pfd[4] = (struct pollfd){ .fd = l->slow_call_timer_fd, .events = POLLIN };
		if (poll(pfd, 5, timeout) > 0 && (pfd[1].revents & POLLIN))
			(void)rngd_eventfd_take(l->event_fd);
		rngd_slow_call_awake(l, pfd[4].revents & POLLIN);
		if (l->hook && pfd[3].revents)
			l->hook->fd_ready(l->hook_ctx);
	}

	stop_readers(l);
	l->running = false;
	/* A first open noted just before the stop is said all the same. */
	rngd_loop_say_late_opens(l);
	/* The readers are gone: their rate-limit counters are ours to read,
	 * except a stuck one's (it may still be logging when its call ends). */
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];
		unsigned long n = s->main_rl.suppressed + (s->stuck ? 0 : s->reader_rl.suppressed);

		if (s->started && n)
			rngd_log(l->log, LOG_NOTICE, s->src.name, "%lu repeated message%s suppressed", n,
				 n == 1 ? " was" : "s were");
	}
	rngd_loop_jobs_final(l);
	return exit_code;
}

bool rngd_loop_destroy(struct rngd_loop *l)
{
	bool opener_stuck = false, any_stuck = false;

	if (!l)
		return false;
	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		/* An open begun at start and never handed to a reader (the
		 * start failed after it): it owns the slot like a stuck reader. */
		if (s->start_pending && !s->started) {
			(void)pthread_mutex_lock(&s->lock);
			s->stop = true;
			(void)pthread_cond_broadcast(&s->cond);
			(void)pthread_mutex_unlock(&s->lock);
			(void)pthread_detach(s->thread);
			s->abandoned = s->stuck = true;
		}
		/* A stuck reader still owns the slot and its source. */
		if (s->stuck) {
			any_stuck = true;
			opener_stuck |= s->start_pending;
			continue;
		}
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
		rng_close_fd(&s->wake_fd);
	}
	explicit_bzero(l->pending, sizeof(l->pending));
	/* An opener still inside the start's open reads the loop again once
	 * the open returns (rngd_slot_open()): the process is about to exit. */
	if (opener_stuck)
		return true;
	rng_close_fd(&l->signal_fd);
	rng_close_fd(&l->event_fd);
	rng_close_fd(&l->stop_fd);
	rngd_slow_call_destroy(l);
	free(l);
	return any_stuck;
}
