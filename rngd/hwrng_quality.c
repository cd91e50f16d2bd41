/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng_quality: stop the kernel's hwrng thread crediting bytes rngd tests.
 *
 * The sysfs attribute acts on the *current* device only, and writing it
 * runs enable_best_rng(), which may make another device current. So every
 * write is followed by a fresh look at rng_current, and a switch makes the
 * new device's quality 0 too, until the kernel settles. The kernel can
 * also switch /dev/hwrng behind rngd's open fd when a device goes away:
 * hwrng_quality_check() notices that and the caller treats it as a new
 * source. A device that unregisters and registers again under the same
 * name comes back at its driver's quality: check() reads the quality too,
 * so that is a new source as well.
 *
 * The state file (rngd/hwrng_quality_state.c) keeps each zeroed device's
 * original quality across an unclean exit.
 */
#include <config.h>

#include <sys/stat.h>
#include <sys/vfs.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_quality_state.h"
#include "sources/close_fd.h"
#include "sources/source.h"

#define HWRNG_NO_DEVICE "none"
/* Each switch moves to a device rngd has not zeroed yet; more than the
 * devices one machine has means the kernel is not settling. */
#define HWRNG_MAX_SWITCHES 8
/* A lock held longer than 10 x 100 ms is a running rngd's. */
#define HWRNG_LOCK_TRIES 10
#define HWRNG_LOCK_RETRY_NS 100000000L

/* ---- sysfs reads and writes ------------------------------------------ */

static int read_line(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -ENODATA;
}

static int read_quality(const struct hwrng_quality *q)
{
	char text[16];
	char *end;
	long v;
	int r = read_line(q->quality_fd, text, sizeof(text));

	if (r < 0)
		return r;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > HWRNG_QUALITY_MAX)
		return -EBADMSG;
	return (int)v;
}

static int write_quality(const struct hwrng_quality *q, int quality)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%d\n", quality);
	struct statfs fs;
	ssize_t n;

	/* A stand-in folder of regular files (tests) must not keep old digits. */
	if (fstatfs(q->quality_fd, &fs) == 0 && fs.f_type != SYSFS_MAGIC &&
	    ftruncate(q->quality_fd, 0) < 0)
		return -errno;
	errno = 0;
	n = pwrite(q->quality_fd, text, (size_t)len, 0);
	if (n != len)
		return n < 0 && errno ? -errno : -EIO;
	return 0;
}

/* Several things can happen in one call: the note lists them with "; ". */
void hwrng_quality_note(struct hwrng_quality *q, const char *fmt, ...)
{
	size_t used = strlen(q->note);
	va_list ap;

	if (used && used + 2 < sizeof(q->note)) {
		memcpy(q->note + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	(void)vsnprintf(q->note + used, sizeof(q->note) - used, fmt, ap);
	va_end(ap);
}

static struct hwrng_quality_saved *touched_find(struct hwrng_quality *q, const char *device)
{
	for (int i = 0; i < q->n_touched; i++)
		if (!strcmp(q->touched[i].device, device))
			return &q->touched[i];
	return NULL;
}

/* ---- settle: zero the current device until the kernel stops switching -- */

static int settle(struct hwrng_quality *q)
{
	char cur[HWRNG_QUALITY_DEVICE_MAX], after[HWRNG_QUALITY_DEVICE_MAX];
	int r = read_line(q->current_fd, cur, sizeof(cur));

	for (int i = 0; r == 0 && i < HWRNG_MAX_SWITCHES; i++) {
		struct hwrng_quality_saved *saved;
		int quality;

		if (!strcmp(cur, HWRNG_NO_DEVICE)) {
			(void)snprintf(q->device, sizeof(q->device), "%s", cur);
			q->saved_quality = -1;
			q->applied = false;
			hwrng_quality_note(q, "no current hwrng device");
			return 0;
		}
		quality = read_quality(q);
		if (quality < 0)
			return quality;
		saved = touched_find(q, cur);
		if (!saved && quality != 0 && q->n_touched == HWRNG_QUALITY_MAX_TOUCHED) {
			/* Zeroed without a record it could never be restored. */
			(void)snprintf(q->device, sizeof(q->device), "%s", cur);
			q->saved_quality = -1;
			q->applied = false;
			hwrng_quality_note(q, "%s: rng_quality %d left alone: rngd already keeps the original quality "
				 "of %d devices; the kernel credits %s untested", cur, quality,
				 HWRNG_QUALITY_MAX_TOUCHED, cur);
			return 0;
		}
		if (!saved) {
			saved = &q->touched[q->n_touched++];
			(void)snprintf(saved->device, sizeof(saved->device), "%s", cur);
			saved->quality = hwrng_state_original_quality(q, cur, quality);
			r = hwrng_state_save(q);
			if (r < 0)
				hwrng_quality_note(q, "cannot record %s's rng_quality in the state file (%s): "
					 "an unclean exit would leave it 0", cur, strerror(-r));
		} else if (saved->quality == 0 && quality != 0) {
			/* Re-registered with a quality where it had none: that is
			 * what it would have without rngd. The record only grows
			 * ("0" becomes at least one digit), as in-place writes need. */
			saved->quality = quality;
			r = hwrng_state_save(q);
			if (r < 0)
				hwrng_quality_note(q, "cannot record %s's rng_quality in the state file (%s): "
					 "an unclean exit would leave it 0", cur, strerror(-r));
		}
		if (quality != 0) {
			r = write_quality(q, 0);
			if (r < 0)
				return r;
			hwrng_quality_note(q, "%s: rng_quality %d -> %d", cur, quality, 0);
		}
		r = read_line(q->current_fd, after, sizeof(after));
		if (r < 0)
			return r;
		if (!strcmp(after, cur)) {
			(void)snprintf(q->device, sizeof(q->device), "%s", cur);
			q->saved_quality = saved ? saved->quality : -1;
			q->applied = true;
			return 0;
		}
		hwrng_quality_note(q, "the kernel switched to %s", after);
		memcpy(cur, after, sizeof(cur));
	}
	return r < 0 ? r : -ELOOP;
}

/* ---- the interface ------------------------------------------------------ */

static void close_all(struct hwrng_quality *q)
{
	rng_close_fd(&q->quality_fd);
	rng_close_fd(&q->current_fd);
	rng_close_fd(&q->dir_fd);
	rng_close_fd(&q->state_fd);
	rng_close_fd(&q->state_dir_fd);
}

/* Nothing open, nothing known. */
static void reset(struct hwrng_quality *q)
{
	memset(q, 0, sizeof(*q));
	q->quality_fd = q->current_fd = q->dir_fd = -1;
	q->state_fd = q->state_dir_fd = -1;
	q->saved_quality = -1;
}

/* Open the folder, rng_current and rng_quality (root-owned: kept open for
 * after privileges drop). 0 or -errno; the caller's close_all() closes
 * what did open. */
static int open_sysfs(struct hwrng_quality *q, const char *sysfs_dir)
{
	q->dir_fd = open(sysfs_dir ? sysfs_dir : RNG_HWRNG_SYSFS_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (q->dir_fd < 0)
		return -errno;
	q->current_fd = openat(q->dir_fd, "rng_current", O_RDONLY | O_CLOEXEC);
	if (q->current_fd >= 0)
		q->quality_fd = openat(q->dir_fd, "rng_quality", O_RDWR | O_CLOEXEC);
	return q->quality_fd < 0 ? -errno : 0;
}

int hwrng_quality_take(struct hwrng_quality *q, const char *sysfs_dir, const char *state_dir)
{
	int r;

	reset(q);
	r = open_sysfs(q, sysfs_dir);
	if (r < 0) {
		close_all(q);
		return r;
	}
	if (state_dir) {
		/* An rngd that does not gate holds the lock for a moment
		 * (hwrng_quality_recover()): only one that keeps it gates. */
		for (int tries = 0;; tries++) {
			r = hwrng_state_open(q, state_dir);
			if (r != -EBUSY || tries == HWRNG_LOCK_TRIES)
				break;
			rng_close_fd(&q->state_dir_fd);
			(void)nanosleep(&(struct timespec){ 0, HWRNG_LOCK_RETRY_NS }, NULL);
		}
		if (r < 0) {
			close_all(q);
			return r;
		}
	}
	r = settle(q);
	if (r < 0) {
		close_all(q);
		return r;
	}
	if (q->n_recorded > 0 && q->state_fd >= 0 && !hwrng_state_recorded(q, q->device))
		hwrng_quality_note(q, "the state file names %s, not the current %s: kept for it", q->recorded[0].device,
			 q->device);
	/* No device yet (its driver loads later): make the record now, as
	 * root, so the device can be added in place after the privilege drop. */
	if (q->state_fd < 0 && q->state_dir_fd >= 0) {
		r = hwrng_state_save(q);
		if (r < 0)
			hwrng_quality_note(q, "cannot make the state file (%s): a device zeroed later will have no record",
				 strerror(-r));
	}
	return 0;
}

/* The record stays for other devices: the one just restored leaves it, so
 * a later rngd does not take its line for an unclean exit's. */
static void forget_restored(struct hwrng_quality *q)
{
	int n = 0;

	for (int i = 0; i < q->n_touched; i++)
		if (strcmp(q->touched[i].device, q->device) != 0)
			q->touched[n++] = q->touched[i];
	q->n_touched = n;
	n = 0;
	for (int i = 0; i < q->n_recorded; i++)
		if (strcmp(q->recorded[i].device, q->device) != 0)
			q->recorded[n++] = q->recorded[i];
	q->n_recorded = n;
	if (hwrng_state_save(q) < 0)
		hwrng_quality_note(q, "could not drop %s from the state file", q->device);
}

int hwrng_quality_recover(struct hwrng_quality *q, const char *sysfs_dir, const char *state_dir)
{
	char cur[HWRNG_QUALITY_DEVICE_MAX], path[4096];
	const struct hwrng_quality_saved *rec;
	int quality, r;

	reset(q);
	/* Only a record that is there: no folder is made to look. */
	(void)snprintf(path, sizeof(path), "%s/%s", state_dir, HWRNG_QUALITY_STATE_FILE);
	if (access(path, F_OK) < 0)
		return 0;
	r = hwrng_state_open(q, state_dir);
	/* Another rngd gates the hwrng: the record, and the 0, are its. */
	if (r == -EBUSY)
		hwrng_quality_note(q, "another rngd holds the rng_quality record in %s: rng_quality is its to restore",
				   state_dir);
	if (r < 0 || q->n_recorded == 0 || q->state_dir_fd < 0)
		goto out;
	r = open_sysfs(q, sysfs_dir);
	if (r < 0)
		goto out;
	r = read_line(q->current_fd, cur, sizeof(cur));
	rec = r == 0 ? hwrng_state_recorded(q, cur) : NULL;
	if (r == 0 && !rec)
		hwrng_quality_note(q, "the rng_quality record names %s, not the current %s: kept for it",
				   q->recorded[0].device, cur);
	if (!rec)
		goto out;   /* a device not current now: its record stays */
	quality = read_quality(q);
	if (quality < 0) {
		r = quality;   /* the record stays: nothing is known */
		goto out;
	}
	if (quality == 0 && rec->quality > 0) {
		r = write_quality(q, rec->quality);
		if (r < 0)
			goto out;
		hwrng_quality_note(q, "%s: rng_quality restored to %d from the state file: an earlier rngd's unclean "
			 "exit left it 0, and this one does not gate the device", cur, rec->quality);
	}
	/* Done with the current device's line (restored, or set since):
	 * the file goes if it named only that device, else the line. */
	if (q->n_recorded == 1) {
		if (unlinkat(q->state_dir_fd, HWRNG_QUALITY_STATE_FILE, 0) < 0)
			hwrng_quality_note(q, "could not remove the state file: %s", strerror(errno));
	} else {
		(void)snprintf(q->device, sizeof(q->device), "%s", cur);
		forget_restored(q);
	}
	r = 0;
out:
	close_all(q);
	return r < 0 && r != -EBUSY ? r : 0;
}

int hwrng_quality_check(struct hwrng_quality *q)
{
	char cur[HWRNG_QUALITY_DEVICE_MAX];
	int r;

	if (q->current_fd < 0)
		return -EBADF;
	q->note[0] = '\0';
	r = read_line(q->current_fd, cur, sizeof(cur));
	if (r < 0)
		return r;
	if (!strcmp(cur, q->device)) {
		int quality;

		if (!strcmp(cur, HWRNG_NO_DEVICE))
			return 0;
		quality = read_quality(q);
		if (quality <= 0)
			return quality;
		if (!q->applied && q->saved_quality < 0 && touched_find(q, cur) == NULL &&
		    q->n_touched == HWRNG_QUALITY_MAX_TOUCHED)
			return 0;   /* left alone on purpose, and said so once */
		/* Same name, credited again: re-registered (module reload,
		 * unbind/bind), or set by hand. Either way untested bytes. */
		hwrng_quality_note(q, "%s is back at rng_quality %d (re-registered?)", cur, quality);
	} else {
		hwrng_quality_note(q, "rng_current changed from %s to %s", q->device, cur);
	}
	r = settle(q);
	return r < 0 ? r : 1;
}

void hwrng_quality_restore(struct hwrng_quality *q)
{
	/* The record stays while some device it names is still at 0. */
	bool keep_record = false, restored = false;

	q->note[0] = '\0';
	if (q->applied && q->quality_fd >= 0 && q->saved_quality > 0) {
		char cur[HWRNG_QUALITY_DEVICE_MAX];

		keep_record = true;
		if (read_line(q->current_fd, cur, sizeof(cur)) != 0)
			hwrng_quality_note(q, "%s: rng_current unreadable: rng_quality left alone", q->device);
		else if (strcmp(cur, q->device) != 0)
			hwrng_quality_note(q, "%s is no longer current: rng_quality left alone",
				 q->device);
		else if (write_quality(q, q->saved_quality) == 0) {
			hwrng_quality_note(q, "%s: rng_quality restored to %d", cur, q->saved_quality);
			keep_record = false;
			restored = true;
		} else
			hwrng_quality_note(q, "%s: could not restore rng_quality %d", cur,
				 q->saved_quality);
	}
	for (int i = 0; i < q->n_touched; i++)
		if (strcmp(q->touched[i].device, q->device) != 0 && q->touched[i].quality > 0) {
			hwrng_quality_note(q, "%s: rng_quality stays 0 (was %d; only the current device's can be set)",
				 q->touched[i].device, q->touched[i].quality);
			keep_record = true;
		}
	/* An earlier rngd's devices not seen current this time: maybe still
	 * at 0, the record is all that knows their original. */
	if (hwrng_state_names_untouched(q))
		keep_record = true;
	if (!keep_record)
		hwrng_state_clear(q);
	else if (restored)
		forget_restored(q);
	q->applied = false;
	close_all(q);
}
