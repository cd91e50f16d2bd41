/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the sysstat source saw, for tests and diagnostics. */
#ifndef RNGD_SOURCES_SYSSTAT_H
#define RNGD_SOURCES_SYSSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "sources/source.h"

struct sysstat_stats {
	uint64_t samples;       /* samples folded into the chain */
	uint64_t values;        /* counters hashed, all samples */
	uint64_t parse_errors;  /* files skipped because they did not parse */
	size_t files;           /* files sampled each time */
};

/* Copies the open source's counters; -EBADF when not open. */
int sysstat_source_stats(const struct rng_source *src, struct sysstat_stats *stats);

#endif /* RNGD_SOURCES_SYSSTAT_H */
