/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd gates /dev/hwrng itself, so it sets the kernel's rng_quality to 0 to
 * stop the kernel's hwrng thread crediting the same untested bytes. The
 * sysfs files are root-owned: take() opens them before privileges drop.
 *
 * An unclean exit (watchdog SIGABRT, SIGKILL, crash) cannot restore the
 * quality, and the next rngd would save the 0 it finds. So take() first
 * records each device's original quality in a state file (tmpfs, so a
 * reboot, which resets the kernel's quality too, forgets it), and a later
 * take() that finds the device still at 0 restores the recorded value.
 */
#ifndef RNGD_HWRNG_QUALITY_H
#define RNGD_HWRNG_QUALITY_H

#include <stdbool.h>

#define HWRNG_QUALITY_DEVICE_MAX 64
/* Writing rng_quality can make the kernel switch devices, and devices come
 * and go: remember this many (device names are reused: virtio_rng.N and
 * tpm-rng-N take the lowest free N). A device beyond them is not zeroed
 * (its quality could never be restored): the note says so. */
#define HWRNG_QUALITY_MAX_TOUCHED 16
/* The record's name inside the state folder (--state-dir). */
#define HWRNG_QUALITY_STATE_FILE "hwrng-quality"

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
	/* The state folder and the record in it, both opened as root and
	 * kept, so the record can still grow and be cleared after the drop;
	 * -1 when no record is kept. */
	int state_dir_fd;
	int state_fd;
	/* What the record left by an earlier rngd said. */
	struct hwrng_quality_saved recorded[HWRNG_QUALITY_MAX_TOUCHED];
	int n_recorded;
	/* What the last take/check/restore did, one line for the caller to
	 * log ("" when nothing changed): rngd logs it, this file does not. */
	char note[256];
};

/* Open the sysfs files under @sysfs_dir (NULL: the real one), save the
 * current device's quality and set it to 0. -errno on failure.
 * @state_dir (NULL: no record) holds HWRNG_QUALITY_STATE_FILE, created
 * (with the folder) before the first 0 is written; if a device is at 0
 * and the record names it, the recorded quality is the one to restore.
 * A record that cannot be read, parsed or written costs one note, never
 * the take. The state folder is locked (flock) until restore(): -EBUSY,
 * with nothing read or written, if another rngd holds it. */
int hwrng_quality_take(struct hwrng_quality *q, const char *sysfs_dir, const char *state_dir);
/*
 * For an rngd that does not gate the hwrng (--no-take-credit, hwrng off,
 * a file sink, another device read as hwrng): if the record in @state_dir
 * names the current device and it is still at 0, an earlier rngd's
 * unclean exit left it so, and no other rngd would put it back: restore
 * the recorded quality (noted), and remove a record that named only it.
 * Nothing if another rngd holds the folder's lock (it gates the device).
 * Closes what it opened; 0 or -errno (the record could not be acted on).
 */
int hwrng_quality_recover(struct hwrng_quality *q, const char *sysfs_dir, const char *state_dir);
/* Re-read rng_current and rng_quality. 1 if the source is a new one: rng_current
 * changed, or the same device is back at a non-zero quality (it unregistered
 * and registered again, at its driver's quality); its quality is set to 0
 * again and the caller resets that source's gate. 0 if nothing changed,
 * -errno. */
int hwrng_quality_check(struct hwrng_quality *q);
/* Restore the saved quality if the same device is still current; close.
 * Other devices the kernel switched away from keep quality 0 (sysfs only
 * sets the current device's): the note says which, and the record stays
 * for them. Otherwise the record is removed (emptied if the folder is no
 * longer writable after the privilege drop: empty means no record). */
void hwrng_quality_restore(struct hwrng_quality *q);

#endif
