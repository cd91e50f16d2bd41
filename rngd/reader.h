/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reader threads and their per-slot block queue (rngd/reader.c). */
#ifndef RNGD_READER_H
#define RNGD_READER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "rngd/loop.h"

/* Start a reader thread for every enabled slot (allocating its ring); a
 * slot whose open at start is still running (start_pending) is read by the
 * thread inside that open (rngd/start_open.c), let go here. 0 or -errno
 * (logged); those started so far have started set. */
int rngd_readers_start(struct rngd_loop *l);

/* A reader thread's body (arg: its struct rngd_slot); also run by the
 * start's opener once it becomes a slot's reader (rngd/start_open.c). */
void *rngd_reader_main(void *arg);

/* Under @s's lock, by the thread that opened @s for the first time after
 * the start (its reader, or the start's opener): what "opened" line to
 * say, which the main thread's rngd_loop_say_late_opens() then logs with
 * the credit and priority, as the start's lines have them. */
__attribute__((format(printf, 2, 3)))
void rngd_slot_note_late_open(struct rngd_slot *s, const char *fmt, ...);
void rngd_loop_say_late_opens(struct rngd_loop *l);

/* Tell every reader to stop and join each for a grace time; one still
 * inside a blocking source call is detached and marked abandoned. */
void rngd_readers_stop(struct rngd_loop *l);

/* Take the oldest queued block of @s into @out; false if none. */
bool rngd_slot_take(struct rngd_slot *s, struct rngd_block *out);

/* Drop what @s queued (and the block its reader is reading): read in a
 * bad period, never credited. @pause: its reader reads nothing more
 * until called again with false. */
void rngd_slot_flush_pause(struct rngd_slot *s, bool pause);

/* What @s's reader thread shares with the main thread, copied under one
 * lock: the fields agree with each other at one instant, though the
 * reader may change any of them right after. */
struct rngd_reader_snapshot {
	bool open;             /* its source is open now */
	uint64_t read_errors;  /* ends of data and read errors met so far */
};

struct rngd_reader_snapshot rngd_slot_reader_snapshot(struct rngd_slot *s);

/* @on: a read that finds no device (ENODEV) waits for a device event
 * (rngd_slot_wake) instead of backing off, up to RNGD_DEVICE_WAIT_MS. */
void rngd_slot_set_device_events(struct rngd_slot *s, bool on);

#endif
