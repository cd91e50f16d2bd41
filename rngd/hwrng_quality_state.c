/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng_quality's record (rngd/hwrng_quality.h): each zeroed device's
 * original quality in --state-dir, so that an unclean exit can be undone
 * by the next start; the folder's lock keeps a second rngd from reading
 * the first one's record as left behind. Replaced with temp + rename while
 * rngd is root; after the privilege drop it is rewritten in place through
 * the fd kept from the start, then truncated to its new end: it shrinks
 * when a restored device leaves it, and a kill between the write and the
 * truncation leaves a garbled record, which the next start ignores (two
 * system calls wide; the devices it named then stay at 0).
 */
#include <config.h>

#include <sys/file.h>
#include <sys/stat.h>

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_quality_state.h"

#define STATE_HEADER "rngd hwrng-quality 1"
#define STATE_TEMP_FILE HWRNG_QUALITY_STATE_FILE ".new"
/* Header plus HWRNG_QUALITY_MAX_TOUCHED lines of at most
 * HWRNG_QUALITY_DEVICE_MAX + 6 bytes. */
#define STATE_SIZE_MAX 2048
_Static_assert(STATE_SIZE_MAX > sizeof(STATE_HEADER) + HWRNG_QUALITY_MAX_TOUCHED * (HWRNG_QUALITY_DEVICE_MAX + 6),
	       "the state file must hold every device");

const struct hwrng_quality_saved *hwrng_state_recorded(const struct hwrng_quality *q,
							const char *device)
{
	for (int i = 0; i < q->n_recorded; i++)
		if (!strcmp(q->recorded[i].device, device))
			return &q->recorded[i];
	return NULL;
}

/* "rngd hwrng-quality 1\n" then "DEVICE QUALITY\n" lines. Every line must
 * end in '\n', so a torn write shows as garbage. -EBADMSG, *line set. */
static int state_parse(struct hwrng_quality *q, char *text, unsigned int *line)
{
	char *next = strchr(text, '\n');

	*line = 1;
	q->n_recorded = 0;
	if (!next)
		return -EBADMSG;
	*next++ = '\0';
	if (strcmp(text, STATE_HEADER) != 0)
		return -EBADMSG;
	for (text = next; *text; text = next) {
		struct hwrng_quality_saved *rec;
		char *space, *end;
		long v;

		++*line;
		next = strchr(text, '\n');
		if (!next)
			return -EBADMSG;
		*next++ = '\0';
		space = strchr(text, ' ');
		if (!space || space == text || (size_t)(space - text) >= HWRNG_QUALITY_DEVICE_MAX ||
		    q->n_recorded == HWRNG_QUALITY_MAX_TOUCHED)
			return -EBADMSG;
		*space = '\0';
		for (const char *c = text; *c; c++)
			if (!isgraph((unsigned char)*c))
				return -EBADMSG;
		if (!isdigit((unsigned char)space[1]))
			return -EBADMSG;
		errno = 0;
		v = strtol(space + 1, &end, 10);
		if (errno || *end || v > HWRNG_QUALITY_MAX)
			return -EBADMSG;
		rec = &q->recorded[q->n_recorded++];
		(void)snprintf(rec->device, sizeof(rec->device), "%s", text);
		rec->quality = (int)v;
	}
	return 0;
}

/* What an earlier rngd left. Absent or empty: no record. */
static void state_load(struct hwrng_quality *q, const char *state_dir)
{
	char text[STATE_SIZE_MAX + 2];
	unsigned int line;
	struct stat st;
	ssize_t n;
	int fd;

	fd = openat(q->state_dir_fd, HWRNG_QUALITY_STATE_FILE,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			hwrng_quality_note(q, "state file %s/%s: %s: ignored", state_dir,
				 HWRNG_QUALITY_STATE_FILE, strerror(errno));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		hwrng_quality_note(q, "state file %s/%s: not a regular file: ignored", state_dir,
			 HWRNG_QUALITY_STATE_FILE);
		(void)close(fd);
		return;
	}
	n = pread(fd, text, sizeof(text) - 1, 0);
	(void)close(fd);
	if (n == 0)
		return;
	if (n > 0) {
		text[n] = '\0';
		line = 0;
		if (n > STATE_SIZE_MAX || strlen(text) != (size_t)n)
			hwrng_quality_note(q, "state file %s/%s: garbled (too long or binary): ignored",
				 state_dir, HWRNG_QUALITY_STATE_FILE);
		else if (state_parse(q, text, &line) < 0)
			hwrng_quality_note(q, "state file %s/%s: garbled at line %u: ignored", state_dir,
				 HWRNG_QUALITY_STATE_FILE, line);
		else
			return;
		q->n_recorded = 0;
		return;
	}
	hwrng_quality_note(q, "state file %s/%s: %s: ignored", state_dir, HWRNG_QUALITY_STATE_FILE,
		 strerror(errno));
}

/* Was @device touched (zeroed) by this rngd? */
static bool state_touched(const struct hwrng_quality *q, const char *device)
{
	for (int i = 0; i < q->n_touched; i++)
		if (!strcmp(q->touched[i].device, device))
			return true;
	return false;
}

/* The devices this rngd zeroed, then those an earlier one did and this
 * one has not seen current: they may still be at 0, and their original
 * is known nowhere else (up to HWRNG_QUALITY_MAX_TOUCHED lines). */
static int state_format(const struct hwrng_quality *q, char *text, size_t size)
{
	int len = snprintf(text, size, "%s\n", STATE_HEADER);
	int lines = 0;

	for (int i = 0; i < q->n_touched && len > 0 && (size_t)len < size; i++, lines++)
		len += snprintf(text + len, size - (size_t)len, "%s %d\n", q->touched[i].device,
				q->touched[i].quality);
	for (int i = 0; i < q->n_recorded && lines < HWRNG_QUALITY_MAX_TOUCHED && len > 0 && (size_t)len < size; i++) {
		if (state_touched(q, q->recorded[i].device))
			continue;
		len += snprintf(text + len, size - (size_t)len, "%s %d\n", q->recorded[i].device,
				q->recorded[i].quality);
		lines++;
	}
	return len > 0 && (size_t)len < size ? len : -ENOBUFS;
}

bool hwrng_state_names_untouched(const struct hwrng_quality *q)
{
	for (int i = 0; i < q->n_recorded; i++)
		if (q->recorded[i].quality > 0 && !state_touched(q, q->recorded[i].device))
			return true;
	return false;
}

static int write_all_at0(int fd, const char *text, int len)
{
	ssize_t n;

	errno = 0;
	n = pwrite(fd, text, (size_t)len, 0);
	if (n != len)
		return n < 0 && errno ? -errno : -EIO;
	return 0;
}

/* Record q->touched. Called before a device's quality is zeroed. */
int hwrng_state_save(struct hwrng_quality *q)
{
	char text[STATE_SIZE_MAX];
	int len = state_format(q, text, sizeof(text));
	int fd, r;

	if (len < 0)
		return len;
	if (q->state_fd >= 0) {
		r = write_all_at0(q->state_fd, text, len);
		/* Shorter only when a device's original changed (set since
		 * the earlier run's record): no old bytes after the new end. */
		if (r == 0 && ftruncate(q->state_fd, len) < 0)
			r = -errno;
		return r;
	}
	if (q->state_dir_fd < 0)
		return 0;
	/* A temp file left by a crash in the middle of this: replace it. */
	(void)unlinkat(q->state_dir_fd, STATE_TEMP_FILE, 0);
	fd = openat(q->state_dir_fd, STATE_TEMP_FILE,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	r = write_all_at0(fd, text, len);
	if (r == 0 && renameat(q->state_dir_fd, STATE_TEMP_FILE, q->state_dir_fd,
			       HWRNG_QUALITY_STATE_FILE) < 0)
		r = -errno;
	if (r < 0) {
		(void)unlinkat(q->state_dir_fd, STATE_TEMP_FILE, 0);
		(void)close(fd);
		return r;
	}
	q->state_fd = fd;
	return 0;
}

/* After a clean restore the record must not outlive it: an admin may set
 * another quality before the next start. */
void hwrng_state_clear(struct hwrng_quality *q)
{
	if (q->state_fd < 0)
		return;
	if (unlinkat(q->state_dir_fd, HWRNG_QUALITY_STATE_FILE, 0) == 0)
		return;
	/* No write access to the folder after the drop: empty = no record. */
	if (ftruncate(q->state_fd, 0) < 0)
		hwrng_quality_note(q, "could not clear the state file: %s", strerror(errno));
}

/* The quality to restore for @device, now at @quality. */
int hwrng_state_original_quality(struct hwrng_quality *q, const char *device, int quality)
{
	const struct hwrng_quality_saved *rec = hwrng_state_recorded(q, device);

	if (!rec || rec->quality == quality)
		return quality;
	if (quality != 0) {
		/* Set since the record was made (admin, or the device re-registered). */
		hwrng_quality_note(q, "%s: rng_quality is %d, not 0: the state file's %d is out of date",
			 device, quality, rec->quality);
		return quality;
	}
	hwrng_quality_note(q, "%s: rng_quality 0 left by an unclean exit: %d, from the state file, will be restored",
		 device, rec->quality);
	return rec->quality;
}

/* The folder is made if missing (rngd outside systemd's RuntimeDirectory=).
 * Its lock is held for rngd's lifetime (the fd is kept): a second rngd
 * beside the service (a hand-run rngd -f) must not read the record as left
 * by an unclean exit, nor restore and delete it while the first gates.
 * -EBUSY if another rngd holds it. */
int hwrng_state_open(struct hwrng_quality *q, const char *state_dir)
{
	if (mkdir(state_dir, 0755) < 0 && errno != EEXIST) {
		hwrng_quality_note(q, "state folder %s: %s: no record of rng_quality kept", state_dir,
			 strerror(errno));
		return 0;
	}
	q->state_dir_fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (q->state_dir_fd < 0) {
		hwrng_quality_note(q, "state folder %s: %s: no record of rng_quality kept", state_dir,
			 strerror(errno));
		return 0;
	}
	if (flock(q->state_dir_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			return -EBUSY;
		hwrng_quality_note(q, "state folder %s: cannot lock it (%s): a second rngd would not be kept out",
			 state_dir, strerror(errno));
	}
	state_load(q, state_dir);
	return 0;
}
