/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop's periodic jobs and the reports they make: the stats file
 * (--stats-file), the rates of test mode (-t), systemd's status line, the
 * readiness time-out and the watchdog, the hwrng device watch's tick, and
 * the summary at exit. None has a timer of its own: rngd_loop_jobs_run()
 * runs what is due whenever the loop wakes and returns the next deadline
 * the loop's poll() must honour.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rngd/loop_state.h"
#include "rngd/loop_jobs.h"
#include "rngd/notify.h"
#include "rngd/slot.h"

#define STATUS_EVERY_MS 10000u
#define TEST_RATE_EVERY_MS 1000u

void rngd_loop_jobs_init(struct rngd_loop_jobs *p, uint64_t start_ms)
{
	uint64_t wd_usec = notify_watchdog_usec();

	memset(p, 0, sizeof(*p));
	/* Half the service manager's interval, and never 0 when it asked. */
	p->watchdog_ms = wd_usec ? wd_usec / 2000u : 0;
	if (p->watchdog_ms == 0 && wd_usec)
		p->watchdog_ms = 1;
	p->next_status = start_ms + STATUS_EVERY_MS;
}

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
	st->egd_bytes_served = st->egd ? l->egd_bytes_served(l->egd_ctx) : 0;
}

void rngd_slot_sync_counters(struct rngd_slot *s)
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
		rngd_slot_sync_counters(s);
		rngd_stats_format(line, sizeof(line), &s->stats);
		rngd_log(l->log, LOG_NOTICE, s->src.name, "%s: %s, %s", why,
			 rngd_slot_state_name(rngd_slot_state(s)), line);
	}
	refresh_sink_stats(l);
	rngd_sink_stats_format(line, sizeof(line), &l->sink_stats);
	rngd_log(l->log, LOG_NOTICE, "rngd", "%s: sink %s: %s", why, l->sink->name, line);
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
		rngd_slot_sync_counters(s);
		e[n++] = (struct rngd_stats_entry){ s->src.name, &s->stats,
						    rngd_slot_state_name(rngd_slot_state(s)) };
	}
	refresh_sink_stats(l);
	r = rngd_stats_write_prometheus(l->cfg.stats_file, e, n, &l->sink_stats, l->sink->name);
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

void rngd_loop_update_status(struct rngd_loop *l)
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

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t rngd_loop_jobs_run(struct rngd_loop *l, struct rngd_loop_jobs *p, uint64_t now)
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
			rngd_loop_update_status(l);
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
	if (l->hook)
		next = min_u64(next, l->hook->run(l->hook_ctx, now));
	/* No wake-up of its own: the status rides on the loop's other ones
	 * (blocks, the top-up timer), so an idle rngd sleeps. */
	if (now >= p->next_status) {
		if (l->ready)
			rngd_loop_update_status(l);
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

void rngd_loop_jobs_final(struct rngd_loop *l)
{
	if (l->cfg.test_mode)
		print_rates(l, rngd_now_ms());
	if (l->cfg.stats_file)
		write_stats_file(l, rngd_now_ms());
	rngd_loop_log_stats(l, "summary");
}
