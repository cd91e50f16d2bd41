/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A block's way from its source's queue to the sink, on the main thread:
 * which source goes next, its gate, what a pass earns and a failure costs
 * (the rules: rngd/policy.c; here their effects on the slot, its counters
 * and the log), and the pending block written to the sink in -s sized
 * parts with its credit split over them. The loop (rngd/loop.c) decides
 * when: it calls these only once the sink asked for bytes.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "rngd/block_flow.h"
#include "rngd/credit.h"
#include "rngd/loop_state.h"
#include "rngd/loop_jobs.h"
#include "rngd/notify.h"
#include "rngd/policy.h"
#include "rngd/reader.h"
#include "rngd/slot.h"

/* While the kernel pool fills: zero-credit blocks cannot make it ready,
 * so at most one of them a second, and never ahead of a credited one. */
#define ZERO_CREDIT_PACE_MS 1000u

/* A switch, not a table: a state added without a name does not build (-Wswitch). */
const char *rngd_slot_state_name(enum rngd_slot_state s)
{
	switch (s) {
	case RNGD_SLOT_ACTIVE:
		return "active";
	case RNGD_SLOT_QUARANTINED:
		return "quarantined";
	case RNGD_SLOT_EXHAUSTED:
		return "exhausted";
	case RNGD_SLOT_DOWN:
		return "down";
	case RNGD_SLOT_WAITING:
		return "waiting";
	case RNGD_SLOT_DISABLED:
		return "disabled";
	}
	return "?";
}

bool rngd_slot_circular(const struct rngd_loop *l, const struct rngd_slot *s)
{
	return l->sink->feeds_this_kernel && credit_is_circular(&s->src);
}

void rngd_slot_warn_circular(struct rngd_loop *l, struct rngd_slot *s)
{
	if (!rngd_slot_circular(l, s) || s->circular_warned)
		return;
	s->circular_warned = true;
	rngd_log(l->log, LOG_WARNING, s->src.name,
		 "reads this kernel's own generator (/dev/random or /dev/urandom): its bytes go back to "
		 "the kernel they came from, mixed in with no credit, whatever its setting");
}

enum rngd_slot_state rngd_slot_state(struct rngd_slot *s)
{
	enum rngd_slot_state st;

	if (!s->settings.enabled || !s->started)
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
	if (st == RNGD_SLOT_ACTIVE && s->loop->cfg.read_quiet_ms) {
		uint64_t since = __atomic_load_n(&s->read_since_ms, __ATOMIC_RELAXED);

		if (since && rngd_now_ms() - since >= s->loop->cfg.read_quiet_ms)
			st = RNGD_SLOT_WAITING;
	}
	return st;
}

/* True while the host's kernel pool is filling (credit counts): then
 * credited blocks go first and only to the host (rngd.8). */
bool rngd_flow_host_filling(const struct rngd_loop *l)
{
	struct rng_sink_counters c;

	if (!l->host_sink || !l->host_sink->ops->counters)
		return false;
	l->host_sink->ops->counters(l->host_sink, &c);
	return c.pool_phases && c.filling;
}

/* The sink's bytes now go where only credited ones are of use (the EGD
 * reserve): a zero-credit block is never due for them, and no deadline
 * wakes the loop for one. */
static bool sink_credit_only(const struct rngd_loop *l)
{
	return l->sink->ops->credit_only && l->sink->ops->credit_only(l->sink);
}

/* Credited blocks first (rngd_policy_pick(), rngd_policy_mix_failed()):
 * while the pool fills, or for the EGD reserve. */
static bool credited_first(const struct rngd_loop *l)
{
	return sink_credit_only(l) || rngd_flow_host_filling(l);
}

/* Zero-credit blocks held back now: paced while the pool fills, never
 * for the EGD reserve. */
static bool zero_credit_held(const struct rngd_loop *l, uint64_t now)
{
	return sink_credit_only(l) || now < l->zero_credit_not_before_ms;
}

/* ---- Gate and credit ------------------------------------------------- */

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
void rngd_flow_resume_due_retests(struct rngd_loop *l, uint64_t now)
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
struct rngd_slot *rngd_flow_pick(struct rngd_loop *l, uint64_t now)
{
	struct rngd_pick_candidate c[l->n_slots ? l->n_slots : 1];
	int best;

	for (size_t i = 0; i < l->n_slots; i++) {
		struct rngd_slot *s = &l->slots[i];

		bool ready = s->started && !s->retest_waiting && slot_has_block(s);

		/* The credit is worked out only for a source that can be picked:
		 * this runs once per block. */
		c[i] = (struct rngd_pick_candidate){
			.ready = ready,
			.credited = ready && !l->cfg.test_mode &&
				    credit_entropy_per_bit(&s->src, s->settings.credit_explicit,
							   rngd_slot_circular(l, s)) > 0,
			.priority = s->src.priority,
		};
	}
	best = rngd_policy_pick(c, l->n_slots, credited_first(l), zero_credit_held(l, now));
	return best < 0 ? NULL : &l->slots[best];
}

size_t rngd_flow_count_usable(struct rngd_loop *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n_slots; i++) {
		enum rngd_slot_state st = rngd_slot_state(&l->slots[i]);

		if (st == RNGD_SLOT_ACTIVE || st == RNGD_SLOT_DOWN || st == RNGD_SLOT_WAITING)
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
		s->stats.retests_failed++;
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
		if (rngd_flow_count_usable(l) == 0) {
			/* Said here, with its cause; not again by the loop. */
			l->none_left_logged = true;
			rngd_log(l->log, LOG_ERR, "rngd",
				 "no usable source left; re-testing quarantined sources with back-off");
		}
		break;
	case RNGD_FAIL_HELD:
		slot_quarantine_wait(s, now + s->q.backoff_ms);
		rngd_log_limited(l->log, &s->main_rl, now, LOG_NOTICE, s->src.name,
				 "block failed (%s), %u in a row; not credited; next block in %.1f s", tests,
				 s->q.fails_in_row, s->q.backoff_ms / 1000.0);
		break;
	case RNGD_FAIL_COUNTED:
		rngd_log_limited(l->log, &s->main_rl, now, LOG_NOTICE, s->src.name,
				 "block failed (%s), %u in a row; not credited", tests, s->q.fails_in_row);
		break;
	}
	if (rngd_policy_mix_failed(l->cfg.on_fail, l->cfg.test_mode, credited_first(l), zero_credit_held(l, now)))
		set_pending(l, s, b->data, 0, true);
}

static void gate_block(struct rngd_loop *l, struct rngd_slot *s, const struct rngd_block *b, uint64_t now)
{
	unsigned int mask, credit;
	bool circular;

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
		s->stats.returns_to_service++;
		rngd_log(l->log, LOG_NOTICE, s->src.name, "passed its re-test; back in service");
		return;
	}
	/* The block's own fact, and the source's now: either makes it the
	 * kernel's own output (a re-open may have moved the path since). */
	circular = (l->sink->feeds_this_kernel && b->kernel_generator) || rngd_slot_circular(l, s);
	credit = credit_bits_for(FIPS_BLOCK_BYTES,
				 credit_entropy_per_bit(&s->src, s->settings.credit_explicit, circular));
	set_pending(l, s, b->data, l->cfg.test_mode ? 0 : credit, false);
}

/* Tested bytes never outlive their use: the stack copy is wiped here, the
 * queue entry in rngd_slot_take(), the pending block once written. */
void rngd_flow_process_block(struct rngd_loop *l, struct rngd_slot *s, uint64_t now)
{
	struct rngd_block b;

	if (!rngd_slot_take(s, &b))
		return;
	gate_block(l, s, &b, now);
	explicit_bzero(&b, sizeof(b));
}

/* ---- Sink ------------------------------------------------------------ */

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

int rngd_flow_write_pending(struct rngd_loop *l, size_t demand)
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
	filling = rngd_flow_host_filling(l);
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
	/* A failed block is mixed once, as much as this write takes: kept,
	 * its rest would fill the next writes too (a 64-byte top-up a minute
	 * took about 40 of them) while passing blocks waited behind it. */
	if (l->pending_failed)
		l->pending_off = l->pending_len;
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
