/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop's own state, shared by the files that make up the loop
 * (loop.c, reader.c, block_flow.c, loop_jobs.c) and included by no other:
 * everything else holds a struct rngd_loop * and calls rngd/loop.h.
 */
#ifndef RNGD_LOOP_STATE_H
#define RNGD_LOOP_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fips/fips.h"
#include "rngd/log.h"
#include "rngd/loop.h"
#include "rngd/loop_jobs.h"
#include "rngd/sink.h"
#include "rngd/stats.h"

struct rngd_loop {
	struct rngd_log *log;
	struct rngd_loop_config cfg;
	struct rngd_slot *slots;
	size_t n_slots;
	struct rng_sink *sink;
	/* The host's own sink inside @sink (the EGD sharing sink wraps it),
	 * whose counters say what the kernel took; NULL with -o none. */
	struct rng_sink *host_sink;
	const struct rngd_loop_hook *hook; /* NULL: none (rngd_loop_set_hook()) */
	void *hook_ctx;
	/* Bytes served to EGD clients so far (NULL: no EGD socket): asked
	 * on the loop's own schedule (stats file, STATUS=), so a query, not
	 * something a return value could carry. */
	uint64_t (*egd_bytes_served)(void *ctx);
	void *egd_ctx;

	int signal_fd, event_fd;
	/* Readable once the readers must stop: polled beside a source's fd,
	 * so a reader waiting for data ends on its own at shutdown. */
	int stop_fd;
	bool stopping;
	bool running;                  /* the readers run: rngd_loop_run() returned
					* RNGD_LOOP_RELOAD or _STATS and resumes */
	bool reopen_on_resume;         /* it returned with a reload asked */
	struct rngd_loop_jobs jobs;
	/* rngd/slow_call.c: the late-read limit (cfg.slow_call_ms at start;
	 * read by the readers, so a reload's new cfg never touches it), and
	 * when the loop's sleep ends (UINT64_MAX: no deadline; 0 awake),
	 * atomic: a reader whose read starts long before that sets the timer
	 * to its limit, and says so in timer_set (atomic). */
	unsigned int slow_call_ms;
	uint64_t sleep_until_ms;
	int slow_call_timer_fd;
	bool slow_call_timer_set;
	pthread_mutex_t slow_call_timer_lock;  /* readers setting the timer;
						* initialised iff the fd is open */

	/* The block being handed to the sink, maybe over several writes. */
	uint8_t pending[FIPS_BLOCK_BYTES];
	size_t pending_len, pending_off;
	unsigned int pending_credit;
	bool pending_failed;           /* a failed block mixed in (--on-fail=mix) */
	struct rngd_slot *pending_slot;

	struct rngd_sink_stats sink_stats;
	/* While the kernel pool fills, zero-credit blocks wait until then
	 * (at most one a ZERO_CREDIT_PACE_MS): credited ones go first. */
	uint64_t zero_credit_not_before_ms;
	uint64_t host_fallback_count;  /* a host sink without counters() */
	uint64_t start_ms;
	bool ready;
	bool status_filling;           /* STATUS= last saw the host pool filling */
	bool none_left_logged;
	bool late_opens;               /* a slot's late_open waits to be said: atomic */
	struct rngd_ratelimit loop_rl;
	/* The file or FIFO the sink writes (rngd/file_clash.c). */
	bool sink_file;
	dev_t sink_dev;
	ino_t sink_ino;
};

#endif
