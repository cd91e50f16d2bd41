/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD reserve: a bounded in-memory store of bytes that passed the
 * gate, waiting for EGD clients (guests' rng-egd backends, legacy tools).
 *
 *   - Filled only by the daemon's loop with gate-passed, credited bytes
 *     (rngd/egd_share.c decides which); never read back from /dev/random.
 *   - First in, first out; each byte is taken once, by one client: take()
 *     copies it out and wipes its place, so no byte can be served twice.
 *   - Bounded: put() accepts at most the free space. It wants more (the
 *     snapshot's want) only once it has fallen to its low-water mark, so
 *     the loop hands over whole parts instead of trickling a few bytes
 *     per take.
 *   - Thread-safe: the loop puts from the main thread, the EGD server
 *     takes from its own thread. Two optional eventfds are poked: one
 *     when bytes arrive (the server wakes its waiting clients), one when
 *     want turns non-zero (the loop asks its sources again).
 */
#ifndef RNGD_EGD_RESERVE_H
#define RNGD_EGD_RESERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Default size: a few gate blocks, enough for bursts of many guests. */
#define EGD_RESERVE_DEFAULT_BYTES (16u * 1024u)
#define EGD_RESERVE_MIN_BYTES 256u
#define EGD_RESERVE_MAX_BYTES (16u * 1024u * 1024u)

struct egd_reserve {
	/* Private: use the functions below. */
	pthread_mutex_t lock;
	uint8_t *buf;
	size_t capacity;
	size_t head;          /* oldest byte */
	size_t held;
	size_t low_water;     /* want is 0 while held > low_water */
	int data_fd;          /* poked after put() added bytes; -1: none */
	int want_fd;          /* poked when want becomes non-zero; -1: none */
	uint64_t bytes_in, bytes_out;
};

/*
 * @capacity in EGD_RESERVE_MIN_BYTES..EGD_RESERVE_MAX_BYTES. The low-water
 * mark is half of it. 0, -EINVAL, -ENOMEM.
 */
int egd_reserve_init(struct egd_reserve *r, size_t capacity);

/* Wipe what is held and free it. Safe on a zeroed struct. */
void egd_reserve_destroy(struct egd_reserve *r);

/* Eventfds to poke (write 1); -1 for none. Set before any thread uses
 * them: data by the EGD server, want by the daemon's loop. */
void egd_reserve_set_data_wake(struct egd_reserve *r, int fd);
void egd_reserve_set_want_wake(struct egd_reserve *r, int fd);

/* Copy up to @len bytes in; returns how many were accepted (the rest is
 * not kept: the caller wipes its own buffer). */
size_t egd_reserve_put(struct egd_reserve *r, const uint8_t *buf, size_t len);

/* Move up to @len of the oldest bytes to @out, wiping their place; returns
 * how many. */
size_t egd_reserve_take(struct egd_reserve *r, uint8_t *out, size_t len);

/* The reserve's level and totals, copied under one lock: they agree with
 * each other at one instant (bytes_in - bytes_out == held), though a put
 * or take on another thread may change them right after. */
struct egd_reserve_snapshot {
	size_t held;          /* bytes ready (the EGD "entropy level") */
	size_t want;          /* bytes it asks for now: the free space once held
			       * has fallen to the low-water mark, else 0; a
			       * demand like rng_sink_ops.demand() */
	uint64_t bytes_in;    /* totals since init, for statistics */
	uint64_t bytes_out;
};

struct egd_reserve_snapshot egd_reserve_snapshot(struct egd_reserve *r);

#endif
