/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What rngd does when the hardware RNG behind its hwrng source may have
 * changed: a device event (rngd/device_watch.c), a read that found no
 * device (ENODEV), or the long safety poll. Each time it re-reads
 * rng_current and rng_quality (rngd/hwrng_quality.c): a new current
 * device, or the same one back at a non-zero quality (re-registered), is
 * zeroed and becomes a new source with a fresh gate; and the reader,
 * which waits without a timer while there is no device, is woken.
 *
 * Cost while nothing changes: no wake-up but the safety poll.
 */
#ifndef RNGD_HWRNG_WATCH_H
#define RNGD_HWRNG_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "rngd/log.h"

struct hwrng_quality;
struct rngd_loop_hook;
struct rngd_slot;

/* Events can be lost (socket overrun, a driver that registers its hwrng
 * after the event): one look this often, whatever happened. */
#define HWRNG_SAFETY_POLL_MS (5u * 60u * 1000u)
/* Without an event socket (no AF_NETLINK), the old poll. */
#define HWRNG_FALLBACK_POLL_MS 5000u
/* A second look this long after an event, for a device whose hwrng is
 * registered just after the event that announced it. */
#define HWRNG_FOLLOWUP_MS 1000u

/* Opaque: the loop drives it through hwrng_watch_hook; daemon_hwrng.c
 * creates it, main.c frees it. */
struct hwrng_watch;

/*
 * A watch of @slot's device (@hwq: the taken rng_quality, or NULL).
 * @events_fd is the uevent socket (device_watch_socket()), which the
 * watch takes over and closes, or -errno saying why there is none: the
 * watch then polls, and logs why. NULL only if out of memory (the fd is
 * closed then too).
 */
struct hwrng_watch *hwrng_watch_new(struct rngd_log *log, struct rngd_slot *slot, struct hwrng_quality *hwq,
				    int events_fd, uint64_t now);

/* The fd the loop polls, or -1. */
int hwrng_watch_fd(const struct hwrng_watch *w);

/* Called by the loop when poll() found that fd ready: the next
 * hwrng_watch_run() reads the events waiting there. */
void hwrng_watch_mark_readable(struct hwrng_watch *w);

/* Called by the loop on each pass (main thread): handles what happened,
 * returns the time of the next look. */
uint64_t hwrng_watch_run(struct hwrng_watch *w, uint64_t now);

/* The three calls above as the loop's hook (rngd_loop_set_hook(), its
 * context a struct hwrng_watch). */
extern const struct rngd_loop_hook hwrng_watch_hook;

/* Closes the socket; NULL is a no-op. */
void hwrng_watch_free(struct hwrng_watch *w);

#endif
