/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * When the loop's periodic jobs run, and what each reads of the loop's
 * state: the stats file (--stats-file), the rate lines of test mode (-t),
 * systemd's status line, the readiness time-out, the watchdog, the loop
 * hook's run (the hwrng device watch), and the summary at exit. None has a
 * timer of its own: rngd_loop_jobs_run() runs what is due whenever the
 * loop wakes (the periodic ones through rngd/every.h) and returns the
 * next deadline the loop's poll() must honour. The rate, status and
 * stats-file text is the stats module's (rngd/stats.c), the watchdog's
 * period notify.c's.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "rngd/block_flow.h"
#include "rngd/loop_state.h"
#include "rngd/loop_jobs.h"
#include "rngd/notify.h"
#include "rngd/slot.h"
#include "rngd/slow_call.h"

#define STATUS_EVERY_MS 10000u
#define TEST_RATE_EVERY_MS 1000u

void rngd_loop_jobs_init(struct rngd_loop_jobs *j, uint64_t start_ms)
{
	memset(j, 0, sizeof(*j));
	j->status = (struct rngd_every){ .every_ms = STATUS_EVERY_MS, .next_ms = start_ms + STATUS_EVERY_MS };
	j->watchdog.every_ms = notify_watchdog_every_ms();
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

/* The started slots as the stats module reads them, counters synced. */
static size_t started_entries(struct rngd_loop *l, struct rngd_stats_entry *e)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		if (!s->started)
			continue;
		rngd_slot_sync_counters(s);
		e[n++] = (struct rngd_stats_entry){ s->src.name, &s->stats,
						    rngd_slot_state_name(rngd_slot_state(s)) };
	}
	return n;
}

void rngd_loop_log_stats(struct rngd_loop *l, const char *why)
{
	struct rngd_stats_entry e[l->n_slots ? l->n_slots : 1];
	size_t n = started_entries(l, e);
	char line[1024];

	for (size_t i = 0; i < n; i++) {
		rngd_stats_format(line, sizeof(line), e[i].st);
		rngd_log(l->log, LOG_NOTICE, e[i].name, "%s: %s, %s", why, e[i].state, line);
	}
	refresh_sink_stats(l);
	rngd_sink_stats_format(line, sizeof(line), &l->sink_stats);
	rngd_log(l->log, LOG_NOTICE, "rngd", "%s: sink %s: %s", why, l->sink->name, line);
}

static void write_stats_file(struct rngd_loop *l, uint64_t now)
{
	struct rngd_stats_entry e[l->n_slots ? l->n_slots : 1];
	size_t n = started_entries(l, e);
	int r;

	refresh_sink_stats(l);
	r = rngd_stats_write_prometheus(l->cfg.stats_file, e, n, &l->sink_stats, l->sink->name);
	if (r < 0)
		rngd_log_limited(l->log, &l->loop_rl, now, LOG_WARNING, "rngd", "stats file %s (written as %s.tmp): %s",
				 l->cfg.stats_file, l->cfg.stats_file, strerror(-r));
}

static void print_rates(struct rngd_loop *l, uint64_t now)
{
	struct rngd_stats_entry e[l->n_slots ? l->n_slots : 1];
	double secs = (double)(now - l->start_ms) / 1000.0;
	size_t n;
	char line[512];

	if (secs <= 0)
		return;
	n = started_entries(l, e);
	for (size_t i = 0; i < n; i++) {
		rngd_stats_format_rate(line, sizeof(line), &e[i], secs);
		printf("%s\n", line);
	}
	(void)fflush(stdout);
}

void rngd_loop_update_status(struct rngd_loop *l)
{
	char names[256] = "";
	char status[512];
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
	rngd_sink_stats_format_status(status, sizeof(status), names, &l->sink_stats);
	notify_status("%s", status);
}

void rngd_loop_jobs_pool_phase(struct rngd_loop *l)
{
	bool filling = rngd_flow_host_filling(l);

	if (l->status_filling && !filling)
		rngd_loop_update_status(l);
	l->status_filling = filling;
}

uint64_t rngd_loop_jobs_run(struct rngd_loop *l, struct rngd_loop_jobs *j, uint64_t now)
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
		} else if (at < next) {
			next = at;
		}
	}
	/* From the configuration each pass: a reload may turn the stats file
	 * on or off (-t stays as started). */
	j->stats_file.every_ms = l->cfg.stats_file ? l->cfg.stats_interval_s * 1000ull : 0;
	j->rates.every_ms = l->cfg.test_mode ? TEST_RATE_EVERY_MS : 0;
	if (rngd_every_due(&j->stats_file, now, &next))
		write_stats_file(l, now);
	if (rngd_every_due(&j->rates, now, &next))
		print_rates(l, now);
	if (l->hook) {
		uint64_t at = l->hook->run(l->hook_ctx, now);

		if (at < next)
			next = at;
	}
	/* No wake-up of its own: the status rides on the loop's other ones
	 * (blocks, the top-up timer), so an idle rngd sleeps. */
	if (rngd_every_due(&j->status, now, NULL) && l->ready)
		rngd_loop_update_status(l);
	if (rngd_every_due(&j->watchdog, now, &next))
		notify_watchdog();
	/* A running read's limit (rngd/slow_call.h): here too, as a loop
	 * kept busy by another source may not sleep for minutes. */
	for (size_t i = 0; i < l->n_slots; i++) {
		uint64_t at = rngd_slow_call_check(&l->slots[i], now);

		if (at < next)
			next = at;
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
