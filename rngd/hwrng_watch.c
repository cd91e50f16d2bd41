/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hwrng source's device watch, run by the loop's main thread. Three
 * things make it look at rng_current and rng_quality:
 *   - a device event (add/remove/bind/unbind of a virtio, tpm, platform
 *     or hw_random device, a module load): the look happens at once, and
 *     once more HWRNG_FOLLOWUP_MS later;
 *   - a read error of the hwrng reader (ENODEV: the last device went
 *     away), seen as a change of its read_errors counter;
 *   - the safety poll, every HWRNG_SAFETY_POLL_MS (HWRNG_FALLBACK_POLL_MS
 *     when the event socket could not be opened).
 * A look that finds a new device, or the same one re-registered, resets
 * the source's gate and wakes the reader; an event also wakes a reader
 * that has no device open (it waits for one after ENODEV).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/device_watch.h"
#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_watch.h"
#include "rngd/loop.h"
#include "rngd/reader.h"

struct hwrng_watch {
	struct rngd_log *log;
	struct rngd_slot *slot;        /* the hwrng source */
	struct hwrng_quality *hwq;     /* NULL: rng_quality is not ours */
	struct device_watch events;    /* fd -1: polling instead */
	bool readable;                 /* the loop saw the fd readable */
	uint64_t next_check_ms;
	uint64_t errors_seen;          /* the reader's read_errors at the last look */
	struct rngd_ratelimit rl;
};

struct hwrng_watch *hwrng_watch_new(struct rngd_log *log, struct rngd_slot *slot, struct hwrng_quality *hwq,
				    int events_fd, uint64_t now)
{
	struct hwrng_watch *w = calloc(1, sizeof(*w));

	if (!w) {
		if (events_fd >= 0)
			(void)close(events_fd);
		return NULL;
	}
	w->log = log;
	w->slot = slot;
	w->hwq = hwq;
	/* Read errors before the loop started are the reader's business. */
	w->errors_seen = 0;
	device_watch_adopt(&w->events, events_fd);
	if (events_fd < 0) {
		rngd_log(log, LOG_WARNING, rngd_slot_source(slot)->name,
			 "no device events (uevent socket: %s): looking at rng_current every %.0f s instead",
			 strerror(-events_fd), HWRNG_FALLBACK_POLL_MS / 1000.0);
		w->next_check_ms = now + HWRNG_FALLBACK_POLL_MS;
		return w;
	}
	rngd_log(log, LOG_INFO, rngd_slot_source(slot)->name,
		 "watching device events; rng_current is also checked every %u min",
		 HWRNG_SAFETY_POLL_MS / 60000u);
	w->next_check_ms = now + HWRNG_SAFETY_POLL_MS;
	return w;
}

int hwrng_watch_fd(const struct hwrng_watch *w)
{
	return w->events.fd;
}

void hwrng_watch_mark_readable(struct hwrng_watch *w)
{
	w->readable = true;
}

/* Re-read rng_current and rng_quality; true if the source is a new one. */
static bool look(struct hwrng_watch *w, uint64_t now, const char *why)
{
	int r;

	if (!w->hwq)
		return false;
	r = hwrng_quality_check(w->hwq);
	if (r == 1) {
		rngd_slot_reset_gate(w->slot);
		rngd_log(w->log, LOG_NOTICE, rngd_slot_source(w->slot)->name, "%s: %s; now %s: a new source with a fresh gate",
			 why, w->hwq->note[0] ? w->hwq->note : "rng_current changed", w->hwq->device);
		return true;
	}
	if (r < 0)
		rngd_log_limited(w->log, &w->rl, now, LOG_WARNING, rngd_slot_source(w->slot)->name,
				 "%s: checking rng_current: %s", why, strerror(-r));
	else if (w->hwq->note[0])
		rngd_log_limited(w->log, &w->rl, now, LOG_NOTICE, rngd_slot_source(w->slot)->name, "%s: %s", why,
				 w->hwq->note);
	return false;
}

uint64_t hwrng_watch_run(struct hwrng_watch *w, uint64_t now)
{
	bool event = false;
	uint64_t errors;

	if (w->readable) {
		char what[160] = "";
		int r = device_watch_drain(&w->events, what, sizeof(what));

		w->readable = false;
		if (r > 0 || r == -ENOBUFS) {
			event = true;
			rngd_log(w->log, LOG_DEBUG, rngd_slot_source(w->slot)->name, "device event%s%s",
				 r > 0 ? ": " : "s lost (socket overrun)", r > 0 ? what : "");
		} else if (r < 0) {
			rngd_log_limited(w->log, &w->rl, now, LOG_WARNING, rngd_slot_source(w->slot)->name,
					 "device events: %s", strerror(-r));
		}
	}
	if (event) {
		/* A new device: the reader drops its partial block of the old
		 * one. No device open (waiting after ENODEV, or for a node it
		 * may now open): it tries again now. A reader busy with the
		 * same device is left alone (boot loads modules by the dozen). */
		if (look(w, now, "device event") || !rngd_slot_reader_snapshot(w->slot).open)
			rngd_slot_wake(w->slot);
		w->next_check_ms = now + HWRNG_FOLLOWUP_MS;
		return w->next_check_ms;
	}
	errors = rngd_slot_reader_snapshot(w->slot).read_errors;
	if (errors != w->errors_seen) {
		w->errors_seen = errors;
		/* A new device is already being read by the same fd; no wake
		 * here, or a reader finding no device would spin with us. */
		(void)look(w, now, "read error");
	}
	if (now >= w->next_check_ms) {
		if (look(w, now, "periodic check"))
			rngd_slot_wake(w->slot);
		w->next_check_ms = now + (w->events.fd >= 0 ? HWRNG_SAFETY_POLL_MS : HWRNG_FALLBACK_POLL_MS);
	}
	return w->next_check_ms;
}

void hwrng_watch_free(struct hwrng_watch *w)
{
	if (!w)
		return;
	device_watch_close(&w->events);
	free(w);
}

static int hook_fd(void *ctx)
{
	return hwrng_watch_fd(ctx);
}

static void hook_fd_ready(void *ctx)
{
	hwrng_watch_mark_readable(ctx);
}

static uint64_t hook_run(void *ctx, uint64_t now_ms)
{
	return hwrng_watch_run(ctx, now_ms);
}

const struct rngd_loop_hook hwrng_watch_hook = {
	.fd = hook_fd,
	.fd_ready = hook_fd_ready,
	.run = hook_run,
};
