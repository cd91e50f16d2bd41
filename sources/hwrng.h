/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the daemon may ask the hwrng source (sources/hwrng.c) beyond its ops. */
#ifndef RNGD_SOURCES_HWRNG_H
#define RNGD_SOURCES_HWRNG_H

#include <stdbool.h>

struct rng_source;

/*
 * True when the last open() found the hw_random misc device (10:183),
 * whose fd outlives the device behind it and follows rng_current: an
 * ENODEV from it ends when a device comes, so its reader waits for a
 * device event. False for any other device, whose ENODEV is for good.
 * Any thread may ask.
 */
bool hwrng_source_follows_device(const struct rng_source *src);

#endif /* RNGD_SOURCES_HWRNG_H */
