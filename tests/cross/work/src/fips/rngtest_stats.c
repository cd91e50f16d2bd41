/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdio.h>
#include <time.h>

#include "fips/rngtest_stats.h"

#define NS_PER_SEC 1000000000.0
/* The peer's binary prefixes: Ki, Mi, Gi, Ti, Pi, Ei. */
static const char unit_prefixes[] = "KMGTPE";

void rngtest_bw_add(struct rngtest_bw_stat *s, uint64_t bits, uint64_t ns)
{
	double bps;

	if (ns == 0)
		ns = 1;
	bps = (double)bits * NS_PER_SEC / (double)ns;
	if (s->samples == 0 || bps < s->min_bps)
		s->min_bps = bps;
	if (s->samples == 0 || bps > s->max_bps)
		s->max_bps = bps;
	s->samples++;
	s->bits += bits;
	s->ns += ns;
}

int rngtest_bw_format(char *buf, size_t size, const char *prefix,
		      const char *label, const struct rngtest_bw_stat *s)
{
	double lo = 0.0, avg = 0.0, hi = 0.0;
	size_t scale = 0;
	char unit[16];

	if (s->samples > 0) {
		lo = s->min_bps;
		hi = s->max_bps;
		avg = (double)s->bits * NS_PER_SEC / (double)s->ns;
	}
	while (lo >= 1024.0 && avg >= 1024.0 && hi >= 1024.0 &&
	       scale < sizeof(unit_prefixes) - 1) {
		lo /= 1024.0;
		avg /= 1024.0;
		hi /= 1024.0;
		scale++;
	}
	if (scale)
		snprintf(unit, sizeof(unit), "%cibits", unit_prefixes[scale - 1]);
	else
		snprintf(unit, sizeof(unit), "bits");
	return snprintf(buf, size, "%s%s: (min=%.3f; avg=%.3f; max=%.3f)%s/s",
			prefix, label, lo, avg, hi, unit);
}

uint64_t rngtest_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail on Linux with a valid pointer. */
	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
