/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rng_quality's record in --state-dir (rngd/hwrng_quality_state.c), as
 * rngd/hwrng_quality.c uses it. */
#ifndef RNGD_HWRNG_QUALITY_STATE_H
#define RNGD_HWRNG_QUALITY_STATE_H

#include <stdbool.h>

/* The kernel's rng_quality scale: 0..1024 (bits per 1024 bits). */
#define HWRNG_QUALITY_MAX 1024

struct hwrng_quality;
struct hwrng_quality_saved;

/* Add to q->note ("; " between): several things can happen in one call. */
void hwrng_quality_note(struct hwrng_quality *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open (make) and lock the folder and load its record; -EBUSY if another
 * rngd holds the lock, 0 otherwise (a folder that cannot be used is noted). */
int hwrng_state_open(struct hwrng_quality *q, const char *state_dir);

/* @device's recorded quality, or NULL. */
const struct hwrng_quality_saved *hwrng_state_recorded(const struct hwrng_quality *q, const char *device);

/* The quality to restore for @device, now at @quality (the record's when
 * an unclean exit left 0). */
int hwrng_state_original_quality(struct hwrng_quality *q, const char *device, int quality);

/* True if the record left by an earlier rngd names a device this one has
 * not touched, with a quality to give back: the record must stay for it. */
bool hwrng_state_names_untouched(const struct hwrng_quality *q);

/* Write every touched device's original quality, and keep the earlier
 * record's lines for devices not touched; 0 or -errno (noted). */
int hwrng_state_save(struct hwrng_quality *q);

/* After a clean restore: the record must not outlive it. */
void hwrng_state_clear(struct hwrng_quality *q);

#endif
