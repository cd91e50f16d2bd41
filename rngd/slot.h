/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A slot's fields: one source instance, its reader thread's state and
 * queue, its gate, quarantine and counters. Only the loop's own files
 * (loop.c, reader.c, start_open.c, block_flow.c, loop_jobs.c,
 * file_clash.c, slot.c) and the loop's unit test include this; everything
 * else holds a struct rngd_slot * and calls rngd/loop.h's rngd_slot_*()
 * functions.
 */
#ifndef RNGD_SLOT_H
#define RNGD_SLOT_H

#include <pthread.h>
#include <sys/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "fips/fips.h"
#include "rngd/log.h"
#include "rngd/loop.h"
#include "rngd/policy.h"
#include "rngd/stats.h"
#include "sources/source.h"

struct rngd_slot {
	struct rng_source src;
	struct rngd_loop *loop;
	struct rngd_slot_settings settings;
	bool started;                  /* has a reader thread */
	bool abandoned;                /* its thread did not end at shutdown (still
					* inside a source call): the source's state
					* is unknown, so it is neither closed nor
					* released */
	bool circular_warned;          /* rngd_slot_warn_circular() said it: by the
					* main thread before the reader starts,
					* then by the reader */
	/* The regular file its source has read, once one was (under lock):
	 * another source may not read it too (rngd/file_clash.c). */
	bool file_read;
	dev_t file_dev;
	ino_t file_ino;
	bool stuck;                    /* that thread still runs (a read asleep in
					* the kernel, a FIFO open waiting for a
					* writer): nothing it may touch is freed
					* before exit */

	/*
	 * The start's probe and open, run by an opener thread (rngd/start_open.c)
	 * so that one that hangs (a tcsd that accepts and never answers)
	 * holds back neither the other sources nor READY=1. The main thread
	 * waits for start_done up to --open-wait, else sets
	 * start_pending: the opener then stays with this slot as its reader
	 * (its id in thread). Both flags under lock; the results are the
	 * opener's until start_done.
	 */
	bool start_done, start_pending;
	int start_probe_r, start_open_r;

	/* Shared with the reader thread, under lock. */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int wake_fd;                   /* eventfd: reopen or stop for a reader in poll(); -1 */
	/* RNGD_QUEUE_BLOCKS blocks, allocated when the reader starts (a
	 * source that never runs costs no 10 kB), wiped by
	 * rngd_loop_destroy() and freed with the slot (rngd_slots_free()). */
	struct rngd_block *ring;
	unsigned int head, count;
	bool stop, reopen, is_open, exhausted;
	bool go;                       /* a start_pending slot's opener may read */
	bool device_events;            /* ENODEV waits for a device event */
	bool paused;                   /* quarantined: read nothing until the re-test */
	bool flushed;                  /* the queue was dropped: so is a partial block */
	bool drain;                    /* a re-test is due: drop what a FIFO holds */
	/* The first open of a source missing at start, as its reader or
	 * the start's opener saw it: said with its credit by the main
	 * thread, which owns the settings (rngd_loop_say_late_opens()). */
	char late_open[RNG_SOURCE_WHY_MAX + 64];
	uint64_t bytes_read, reopens, read_errors;
	/* CLOCK_MONOTONIC ms the reader has been inside one source call since
	 * (its wait on the fd and the read), 0 when it is not: atomic, read by
	 * rngd_slot_state() for "waiting". */
	uint64_t read_since_ms;
	/* The same for the source's read() alone, not its poll(), 0 outside
	 * it; a bit set by the main thread once it said the read is late
	 * (rngd/slow_call.c): atomic. */
	uint64_t call_since_ms;
	uint64_t call_said_ms;         /* the reader's: how long that late read took */
	unsigned int calls_back;       /* the reader's: late reads said to be back */
	struct rngd_ratelimit reader_rl;

	/* Main thread only. */
	struct fips_gate gate;
	bool gate_ready;
	struct rngd_quarantine q;      /* failures in a row, quarantine, re-test back-off */
	bool retest_waiting;           /* quarantined, reader paused until retest_at_ms */
	uint64_t retest_at_ms;
	struct rngd_source_stats stats;
	struct rngd_ratelimit main_rl;
	unsigned int calls_late;       /* reads said to be late (rngd/slow_call.c) */
};

#endif
