/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd gates /dev/hwrng itself, so it sets the kernel's rng_quality to 0 to
 * stop the kernel's hwrng thread crediting the same untested bytes. The
 * sysfs files are root-owned: take() opens them before privileges drop.
 */
#ifndef RNGD_HWRNG_QUALITY_H
#define RNGD_HWRNG_QUALITY_H

#include <stdbool.h>

struct hwrng_quality {
	int dir_fd;            /* /sys/class/misc/hw_random, or -1 */
	int quality_fd;        /* rng_quality opened O_RDWR, or -1 */
	int current_fd;        /* rng_current, or -1 */
	char device[64];       /* rng_current when quality was set */
	int saved_quality;     /* to restore, -1 if unknown */
	bool applied;
};

/* Open the sysfs files under @sysfs_dir (NULL: the real one), save the
 * current device's quality and set it to 0. -errno on failure. */
int hwrng_quality_take(struct hwrng_quality *q, const char *sysfs_dir);
/* 1 if rng_current changed since the last call (quality re-applied to the
 * new device; the caller resets that source's gate), 0 if not, -errno. */
int hwrng_quality_check(struct hwrng_quality *q);
/* Restore the saved quality if the same device is still current; close. */
void hwrng_quality_restore(struct hwrng_quality *q);

#endif
