/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-source and sink counters and every place they are shown: the SIGUSR1
 * and exit summaries, systemd's status line, the -t rate line, and the
 * --stats-file in Prometheus text format (written to a temporary file and
 * renamed, so a collector never reads half a file).
 */
#ifndef RNGD_STATS_H
#define RNGD_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fips/fips.h"

struct rngd_source_stats {
	uint64_t bytes_read;           /* by the reader thread */
	uint64_t blocks_passed;
	uint64_t blocks_failed;
	uint64_t failures[FIPS_TEST_MAX];
	uint64_t bits_credited;
	uint64_t bytes_to_sink;        /* passing bytes handed to the sink */
	uint64_t bytes_mixed;          /* failed bytes mixed with 0 credit */
	uint64_t quarantines;
	uint64_t retests_failed;        /* re-test blocks that failed (still quarantined) */
	uint64_t returns_to_service;    /* re-tests passed: quarantine over */
	uint64_t reopens;
	uint64_t read_errors;
};

/*
 * The sink's counters (rngd.8, COUNTERS). bits_credited is what the
 * consumer counted: for the kernel sink, the rise of the kernel's count
 * that rngd's writes made while its pool was filling (the kernel counts
 * at most 256 bits in all, and nothing once ready); for a file sink, the
 * credit the bytes written there earned.
 */
struct rngd_sink_stats {
	uint64_t bytes_written;        /* to the sink, and to the EGD reserve */
	uint64_t bits_credited;
	uint64_t writes;
	uint64_t write_errors;
	bool pool_phases;              /* the kernel sink's 5.18+ path: */
	bool filling;                  /* the pool is not ready yet */
	uint64_t bytes_filling;        /* bytes mixed in while it filled */
	uint64_t bytes_after_ready;    /* bytes mixed in after it was ready */
	uint64_t reseeds;              /* RNDRESEEDCRNG those top-ups triggered */
	bool egd;                      /* an EGD socket is served: */
	uint64_t egd_bytes_served;     /* bytes EGD clients received */
};

/* The sink line of SIGUSR1 and the summary: "bytes written N, bits credited N, ...". */
void rngd_sink_stats_format(char *buf, size_t len, const struct rngd_sink_stats *st);

struct rngd_stats_entry {
	const char *name;
	const struct rngd_source_stats *st;
	const char *state;             /* "active", "quarantined", "exhausted", ... */
};

/* "bytes read N, blocks passed N, failed N (monobit N, ...), bits credited N, quarantines N, ...". */
void rngd_stats_format(char *buf, size_t len, const struct rngd_source_stats *st);

/* The -t line, once a second: "NAME: N passing bytes/s (N blocks
 * passed, N failed, STATE)", the rate over @secs since the start. */
void rngd_stats_format_rate(char *buf, size_t len, const struct rngd_stats_entry *e, double secs);

/* systemd's STATUS=: "sources: @sources; ..." and what the sink's
 * counters say of the pool (filling, ready) and the EGD clients.
 * @sources NULL or empty reads "none". */
void rngd_sink_stats_format_status(char *buf, size_t len, const char *sources, const struct rngd_sink_stats *st);

/* Prometheus text format to @path via @path.tmp and rename(2). -errno. */
int rngd_stats_write_prometheus(const char *path, const struct rngd_stats_entry *e, size_t n,
				const struct rngd_sink_stats *sink, const char *sink_name);

#endif
