/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event loop's periodic jobs and reports (rngd/loop_jobs.c). */
#ifndef RNGD_LOOP_JOBS_H
#define RNGD_LOOP_JOBS_H

#include <stdint.h>

#include "rngd/every.h"

struct rngd_loop;
struct rngd_slot;

/* When each job is due next; a period of 0 turns it off. */
struct rngd_loop_jobs {
	struct rngd_every stats_file;  /* --stats-file */
	struct rngd_every rates;       /* -t's rate lines */
	struct rngd_every status;      /* systemd's STATUS= */
	struct rngd_every watchdog;    /* WATCHDOG=1, if asked for */
};

/* Before the loop's first wake-up, which runs at @start_ms. */
void rngd_loop_jobs_init(struct rngd_loop_jobs *j, uint64_t start_ms);

/* Run what is due at @now; returns the earliest next deadline
 * (UINT64_MAX: none). */
uint64_t rngd_loop_jobs_run(struct rngd_loop *l, struct rngd_loop_jobs *j, uint64_t now);

/* systemd's status line, now (the first credited block changes it). */
void rngd_loop_update_status(struct rngd_loop *l);

/* After the sink's demand(), which is where the host pool is found ready:
 * the status line changes then, not at its next period. */
void rngd_loop_jobs_pool_phase(struct rngd_loop *l);

/* Copy a reader's counters (kept under its lock) into the slot's stats. */
void rngd_slot_sync_counters(struct rngd_slot *s);

/* At exit: the last -t rates, the last stats file, the summary lines. */
void rngd_loop_jobs_final(struct rngd_loop *l);

#endif
