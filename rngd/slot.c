/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slot array as the rest of the daemon sees it: made, indexed, read
 * and configured through functions, since outside the loop a slot is
 * opaque (rngd/slot.h).
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rngd/loop_state.h"
#include "rngd/reader.h"
#include "rngd/slot.h"

struct rngd_slot *rngd_slots_new(size_t n)
{
	return calloc(n ? n : 1, sizeof(struct rngd_slot));
}

void rngd_slots_free(struct rngd_slot *slots, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* A reader still asleep in the kernel owns pointers into the
		 * array: the process is about to exit, so leave it. */
		if (slots[i].stuck)
			return;
		if (!slots[i].abandoned)
			rng_source_release(&slots[i].src);
		free(slots[i].ring);
	}
	free(slots);
}

struct rngd_slot *rngd_slot_at(struct rngd_slot *slots, size_t i)
{
	return &slots[i];
}

const struct rng_source *rngd_slot_source(const struct rngd_slot *s)
{
	return &s->src;
}

bool rngd_slot_enabled(const struct rngd_slot *s)
{
	return s->settings.enabled;
}

struct rng_source *rngd_slot_source_mut(struct rngd_slot *s)
{
	return &s->src;
}

struct rngd_slot_settings *rngd_slot_settings(struct rngd_slot *s)
{
	return &s->settings;
}

struct rngd_reader_snapshot rngd_slot_reader_snapshot(struct rngd_slot *s)
{
	struct rngd_reader_snapshot snap;

	(void)pthread_mutex_lock(&s->lock);
	snap.open = s->is_open;
	snap.read_errors = s->read_errors;
	(void)pthread_mutex_unlock(&s->lock);
	return snap;
}

void rngd_slot_set_device_events(struct rngd_slot *s, bool on)
{
	(void)pthread_mutex_lock(&s->lock);
	s->device_events = on;
	(void)pthread_mutex_unlock(&s->lock);
}

void rngd_slot_note_late_open(struct rngd_slot *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(s->late_open, sizeof(s->late_open), fmt, ap);
	va_end(ap);
	__atomic_store_n(&s->loop->late_opens, true, __ATOMIC_RELEASE);
}
