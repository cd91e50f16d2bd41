/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the daemon may ask the hwrng source (sources/hwrng.c) beyond its ops. */
#ifndef RNGD_SOURCES_HWRNG_H
#define RNGD_SOURCES_HWRNG_H

#include <stdbool.h>
#include <stdint.h>

struct rng_source;

/*
 * True when the last open() found the hw_random misc device (10:183),
 * whose fd outlives the device behind it and follows rng_current: an
 * ENODEV from it ends when a device comes, so its reader waits for a
 * device event. False for any other device, whose ENODEV is for good.
 * Any thread may ask.
 */
bool hwrng_source_follows_device(const struct rng_source *src);

/* The kernel's hwrng device, misc 10:183: an fd on it outlives the device
 * behind it. */
#define HWRNG_KERNEL_DEVICE_MAJOR 10
#define HWRNG_KERNEL_DEVICE_MINOR 183

/*
 * Whether @src reads the kernel's hwrng device, whose rng_quality is the
 * kernel's own credit for the same bytes: whether the device it opened,
 * or before its first open the character device its path names now, is
 * @kernel_hwrng_rdev (a udev link to /dev/hwrng is); with no device there
 * yet, whether its path is /dev/hwrng. False for another device read as
 * hwrng (-r /dev/ttyACM0, -r /dev/urandom).
 */
bool hwrng_source_reads_kernel_hwrng(const struct rng_source *src, uint64_t kernel_hwrng_rdev);

#endif /* RNGD_SOURCES_HWRNG_H */
