/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Logging: syslog (journald) by default, stderr in the foreground. Every
 * message names who it is about: a source's instance name, or "rngd".
 * Thread-safe: reader threads log through the same object.
 */
#ifndef RNGD_LOG_H
#define RNGD_LOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>

struct rngd_log {
	bool to_stderr;
	bool journal;           /* stderr is systemd's journal: "<N>" prefixes */
	int max_level;          /* LOG_ERR .. LOG_DEBUG: higher levels are dropped;
				 * read and written atomically (rngd_log_set_level):
				 * SIGHUP changes it while reader threads log */
	pthread_mutex_t lock;
};

/* Repeated messages about one source: a burst passes, then a count. */
#define RNGD_RATELIMIT_BURST 5
#define RNGD_RATELIMIT_WINDOW_MS 30000

struct rngd_ratelimit {
	uint64_t window_start_ms;
	unsigned int in_window;
	unsigned long suppressed;
	unsigned int burst;     /* lines a window; 0: RNGD_RATELIMIT_BURST */
};

/* One line on standard error before the log is set up (a usage error, a
 * start-up check): "rngd: TEXT", with the journal's "<N>" priority prefix
 * where standard error is the journal. */
void rngd_log_early(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After a command that printed and exits (-h, -V, -l, -O SRC): whether
 * its standard output was all written; if not, one line says why. */
bool rngd_stdout_written(void);

void rngd_log_init(struct rngd_log *l, bool to_stderr, int max_level);
void rngd_log_close(struct rngd_log *l);
/* Change the level while other threads log (SIGHUP). */
void rngd_log_set_level(struct rngd_log *l, int max_level);

void rngd_log(struct rngd_log *l, int level, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Like rngd_log(), but at most RNGD_RATELIMIT_BURST messages per window
 * per @rl; the first message of a later window says how many were
 * suppressed. Returns true if the message was logged.
 */
bool rngd_log_limited(struct rngd_log *l, struct rngd_ratelimit *rl, uint64_t now_ms,
		      int level, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Decide only (no output): true if a message may go out now. */
bool rngd_ratelimit_allow(struct rngd_ratelimit *rl, uint64_t now_ms, unsigned long *suppressed_before);

/* CLOCK_MONOTONIC in milliseconds. */
uint64_t rngd_now_ms(void);

#endif
