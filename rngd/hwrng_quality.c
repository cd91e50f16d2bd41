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
 * source.
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
#include <unistd.h>

#include <linux/magic.h>

#include "rngd/hwrng_quality.h"

#define HWRNG_SYSFS_DIR "/sys/class/misc/hw_random"
#define HWRNG_NO_DEVICE "none"
#define HWRNG_QUALITY_MAX 1024
/* Each switch moves to a device rngd has not zeroed yet; more than the
 * devices one machine has means the kernel is not settling. */
#define HWRNG_MAX_SWITCHES 8

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
	if (fstatfs(q->quality_fd, &fs) == 0 && fs.f_type != SYSFS_MAGIC)
		(void)ftruncate(q->quality_fd, 0);
	errno = 0;
	n = pwrite(q->quality_fd, text, (size_t)len, 0);
	if (n != len)
		return n < 0 && errno ? -errno : -EIO;
	return 0;
}

static void note_add(struct hwrng_quality *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Several things can happen in one call: the note lists them with "; ". */
static void note_add(struct hwrng_quality *q, const char *fmt, ...)
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
			note_add(q, "no current hwrng device");
			return 0;
		}
		quality = read_quality(q);
		if (quality < 0)
			return quality;
		saved = touched_find(q, cur);
		if (!saved && q->n_touched < HWRNG_QUALITY_MAX_TOUCHED) {
			saved = &q->touched[q->n_touched++];
			(void)snprintf(saved->device, sizeof(saved->device), "%s", cur);
			saved->quality = quality;
		}
		if (quality != 0) {
			r = write_quality(q, 0);
			if (r < 0)
				return r;
			note_add(q, "%s: rng_quality %d -> %d", cur, quality, 0);
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
		note_add(q, "the kernel switched to %s", after);
		memcpy(cur, after, sizeof(cur));
	}
	return r < 0 ? r : -ELOOP;
}

/* ---- the interface ------------------------------------------------------ */

static void close_all(struct hwrng_quality *q)
{
	if (q->quality_fd >= 0)
		(void)close(q->quality_fd);
	if (q->current_fd >= 0)
		(void)close(q->current_fd);
	if (q->dir_fd >= 0)
		(void)close(q->dir_fd);
	q->quality_fd = q->current_fd = q->dir_fd = -1;
}

int hwrng_quality_take(struct hwrng_quality *q, const char *sysfs_dir)
{
	int r;

	memset(q, 0, sizeof(*q));
	q->quality_fd = q->current_fd = -1;
	q->saved_quality = -1;
	q->dir_fd = open(sysfs_dir ? sysfs_dir : HWRNG_SYSFS_DIR,
			 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (q->dir_fd < 0)
		return -errno;
	/* Root-owned: both stay open for after privileges drop. */
	q->current_fd = openat(q->dir_fd, "rng_current", O_RDONLY | O_CLOEXEC);
	if (q->current_fd >= 0)
		q->quality_fd = openat(q->dir_fd, "rng_quality", O_RDWR | O_CLOEXEC);
	if (q->current_fd < 0 || q->quality_fd < 0) {
		r = -errno;
		close_all(q);
		return r;
	}
	r = settle(q);
	if (r < 0)
		close_all(q);
	return r;
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
	if (!strcmp(cur, q->device))
		return 0;
	note_add(q, "rng_current changed from %s to %s", q->device, cur);
	r = settle(q);
	return r < 0 ? r : 1;
}

void hwrng_quality_restore(struct hwrng_quality *q)
{
	char cur[HWRNG_QUALITY_DEVICE_MAX];

	q->note[0] = '\0';
	if (q->applied && q->quality_fd >= 0 && q->saved_quality > 0 &&
	    read_line(q->current_fd, cur, sizeof(cur)) == 0) {
		if (strcmp(cur, q->device) != 0)
			note_add(q, "%s is no longer current: rng_quality left alone",
				 q->device);
		else if (write_quality(q, q->saved_quality) == 0)
			note_add(q, "%s: rng_quality restored to %d", cur, q->saved_quality);
		else
			note_add(q, "%s: could not restore rng_quality %d", cur,
				 q->saved_quality);
	}
	for (int i = 0; i < q->n_touched; i++)
		if (strcmp(q->touched[i].device, q->device) != 0 && q->touched[i].quality > 0)
			note_add(q, "%s: rng_quality stays 0 (was %d; only the current device's can be set)",
				 q->touched[i].device, q->touched[i].quality);
	q->applied = false;
	close_all(q);
}
