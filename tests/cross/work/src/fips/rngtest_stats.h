/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngtest's speed statistics: min/avg/max bandwidth over timed samples,
 * printed in rng-tools' format so scripts that parse the peer's lines keep
 * working.
 */
#ifndef RNGD_RNGTEST_STATS_H
#define RNGD_RNGTEST_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The peer times every 20000-bit block with gettimeofday() and reports
 * min = bits / slowest sample, max = bits / fastest sample and
 * avg = all bits / all time. We keep the same three figures, but time with
 * a nanosecond clock and allow samples of any size (a read() may bring
 * many blocks), so a block faster than a microsecond does not turn into a
 * division by zero as it does in the peer.
 */
struct rngtest_bw_stat {
	uint64_t samples;
	uint64_t bits;
	uint64_t ns;
	double min_bps;
	double max_bps;
};

/* Record @bits moved in @ns nanoseconds (0 ns counts as 1 ns). */
void rngtest_bw_add(struct rngtest_bw_stat *s, uint64_t bits, uint64_t ns);

/*
 * Format "<prefix><label>: (min=%.3f; avg=%.3f; max=%.3f)<unit>/s" into @buf,
 * dividing all three by 1024 while all of them are at least 1024 and
 * naming the unit Kibits, Mibits, ... as the peer does. With no samples all
 * three are 0.000 bits/s. Returns what snprintf() returns.
 */
int rngtest_bw_format(char *buf, size_t size, const char *prefix,
		      const char *label, const struct rngtest_bw_stat *s);

/* Nanoseconds on CLOCK_MONOTONIC. */
uint64_t rngtest_now_ns(void);

#endif /* RNGD_RNGTEST_STATS_H */
