/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd gates /dev/hwrng itself, so it sets the kernel's rng_quality to 0 to
 * stop the kernel's hwrng thread crediting the same untested bytes. The
 * sysfs files are root-owned: take() opens them before privileges drop.
 */
#ifndef RNGD_HWRNG_QUALITY_H
#define RNGD_HWRNG_QUALITY_H

#include <stdbool.h>

#define HWRNG_QUALITY_DEVICE_MAX 64
/* Writing rng_quality can make the kernel switch devices; remember this many. */
#define HWRNG_QUALITY_MAX_TOUCHED 4

struct hwrng_quality_saved {
	char device[HWRNG_QUALITY_DEVICE_MAX];
	int quality;           /* before rngd first wrote 0 to it */
};

struct hwrng_quality {
	int dir_fd;            /* /sys/class/misc/hw_random, or -1 */
	int quality_fd;        /* rng_quality opened O_RDWR, or -1 */
	int current_fd;        /* rng_current, or -1 */
	char device[HWRNG_QUALITY_DEVICE_MAX]; /* rng_current when quality was set */
	int saved_quality;     /* to restore, -1 if unknown */
	bool applied;
	/* Every device whose quality rngd changed, with its original value. */
	struct hwrng_quality_saved touched[HWRNG_QUALITY_MAX_TOUCHED];
	int n_touched;
	/* What the last take/check/restore did, one line for the caller to
	 * log ("" when nothing changed): rngd logs it, this file does not. */
	char note[256];
};

/* Open the sysfs files under @sysfs_dir (NULL: the real one), save the
 * current device's quality and set it to 0. -errno on failure. */
int hwrng_quality_take(struct hwrng_quality *q, const char *sysfs_dir);
/* 1 if rng_current changed since the last call (quality re-applied to the
 * new device; the caller resets that source's gate), 0 if not, -errno. */
int hwrng_quality_check(struct hwrng_quality *q);
/* Restore the saved quality if the same device is still current; close.
 * Other devices the kernel switched away from keep quality 0 (sysfs only
 * sets the current device's): the note says which. */
void hwrng_quality_restore(struct hwrng_quality *q);

#endif
