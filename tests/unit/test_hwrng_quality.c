/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng_quality handling against a stand-in sysfs folder of regular files.
 * pwrite() is wrapped (-Wl,--wrap=pwrite) so a write to the stand-in
 * rng_quality behaves like linux 6.1's rng_quality_store(): it sets the
 * current device's quality, then enable_best_rng() makes the first device
 * with the highest quality current, unless the user chose one.
 */
#include <config.h>

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/hwrng_quality.h"

#define MAX_DEVICES 4

static struct fake_hwrng_core {
	char dir[64];
	struct {
		char name[32];
		int quality;
	} dev[MAX_DEVICES];     /* in the kernel's rng_list order */
	int n_dev;
	int current;            /* index, or -1 for "none" */
	ino_t quality_ino;
	unsigned int quality_writes;
	int last_written;
} core;

ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);

static void put_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/%s", core.dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void get_file(const char *name, char *text, size_t size)
{
	char path[128];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/%s", core.dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, (int)size, f));
	assert_int_equal(fclose(f), 0);
}

/* What sysfs would show after any change in the model. */
static void publish(void)
{
	char text[64];

	put_file("rng_current", core.current < 0 ? "none\n" : core.dev[core.current].name);
	if (core.current >= 0) {
		(void)snprintf(text, sizeof(text), "%s\n", core.dev[core.current].name);
		put_file("rng_current", text);
		(void)snprintf(text, sizeof(text), "%d\n", core.dev[core.current].quality);
	} else {
		(void)snprintf(text, sizeof(text), "0\n");
	}
	put_file("rng_quality", text);
}

static void enable_best_rng(void)
{
	int best = -1;

	for (int i = 0; i < core.n_dev; i++)
		if (best < 0 || core.dev[i].quality > core.dev[best].quality)
			best = i;
	core.current = best;
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	struct stat st;
	char text[16];

	if (fstat(fd, &st) < 0 || st.st_ino != core.quality_ino)
		return __real_pwrite(fd, buf, n, off);
	core.quality_writes++;
	assert_int_equal(off, 0);
	assert_true(n < sizeof(text));
	memcpy(text, buf, n);
	text[n] = '\0';
	core.last_written = atoi(text);
	if (core.current < 0) {
		errno = ENODEV;
		return -1;
	}
	core.dev[core.current].quality = core.last_written;
	enable_best_rng();
	publish();
	return (ssize_t)n;
}

/* hwrng_register(): rng_list is kept sorted by decreasing quality. */
static void add_device(const char *name, int quality)
{
	int at = 0;

	assert_true(core.n_dev < MAX_DEVICES);
	while (at < core.n_dev && core.dev[at].quality >= quality)
		at++;
	memmove(&core.dev[at + 1], &core.dev[at], (size_t)(core.n_dev - at) * sizeof(core.dev[0]));
	if (core.current >= at)
		core.current++;
	(void)snprintf(core.dev[at].name, sizeof(core.dev[0].name), "%s", name);
	core.dev[at].quality = quality;
	core.n_dev++;
}

static int setup(void **state)
{
	char path[128];
	struct stat st;

	(void)state;
	memset(&core, 0, sizeof(core));
	core.current = -1;
	(void)snprintf(core.dir, sizeof(core.dir), "/tmp/ksink-quality-XXXXXX");
	assert_non_null(mkdtemp(core.dir));
	publish();
	put_file("rng_available", "");
	(void)snprintf(path, sizeof(path), "%s/rng_quality", core.dir);
	assert_int_equal(stat(path, &st), 0);
	core.quality_ino = st.st_ino;
	return 0;
}

static int teardown(void **state)
{
	const char *names[] = { "rng_current", "rng_quality", "rng_available" };
	char path[128];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", core.dir, names[i]);
		(void)unlink(path);
	}
	(void)rmdir(core.dir);
	return 0;
}

static void start(int current)
{
	core.current = current;
	publish();
}

static int quality_file(void)
{
	char text[32];

	get_file("rng_quality", text, sizeof(text));
	return atoi(text);
}

/* rngd starts with one device registered and current, at this quality,
 * and takes it, keeping its record in state_folder (NULL: no record). */
static void start_and_take(struct hwrng_quality *q, const char *name, int quality,
			   const char *state_folder)
{
	add_device(name, quality);
	start(0);
	assert_int_equal(hwrng_quality_take(q, core.dir, state_folder), 0);
}

/* hwrng_register() of a device while rngd runs: the kernel makes the best
 * one current, unless the user chose one. */
static void plug_in(const char *name, int quality)
{
	add_device(name, quality);
	enable_best_rng();
	publish();
}

/* hwrng_unregister() of every device, then hwrng_register() of this one,
 * which becomes current. */
static void replug(const char *name, int quality)
{
	core.n_dev = 0;
	core.current = -1;
	add_device(name, quality);
	start(0);
}

/* ---- tests ----------------------------------------------------------------- */

static void test_take_and_restore(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start_and_take(&q, "virtio_rng.0", 1000, NULL);
	assert_true(q.applied);
	assert_string_equal(q.device, "virtio_rng.0");
	assert_int_equal(q.saved_quality, 1000);
	assert_int_equal(core.dev[0].quality, 0);
	assert_int_equal(quality_file(), 0);
	assert_int_equal(core.quality_writes, 1);
	assert_string_equal(q.note, "virtio_rng.0: rng_quality 1000 -> 0");

	assert_int_equal(hwrng_quality_check(&q), 0);
	assert_int_equal(core.quality_writes, 1);
	assert_string_equal(q.note, "");

	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_int_equal(quality_file(), 1000);
	assert_int_equal(core.quality_writes, 2);
	assert_string_equal(q.note, "virtio_rng.0: rng_quality restored to 1000");
	assert_int_equal(q.quality_fd, -1);
	assert_int_equal(q.current_fd, -1);
	assert_int_equal(q.dir_fd, -1);
}

static void test_already_zero_writes_nothing(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start_and_take(&q, "tpm-rng-0", 0, NULL);
	assert_true(q.applied);
	assert_int_equal(q.saved_quality, 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.quality_writes, 0);
}

static void test_kernel_switches_on_write(void **state)
{
	struct hwrng_quality q;

	(void)state;
	/* Zeroing the best device makes enable_best_rng() pick the next one. */
	add_device("virtio_rng.0", 1000);
	add_device("intel-rng", 500);
	start(0);
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), 0);
	/* Both zeroed; with equal qualities the first in the list wins again. */
	assert_int_equal(core.dev[0].quality, 0);
	assert_int_equal(core.dev[1].quality, 0);
	assert_int_equal(core.current, 0);
	assert_string_equal(q.device, "virtio_rng.0");
	assert_int_equal(q.saved_quality, 1000);
	assert_int_equal(q.n_touched, 2);
	assert_string_equal(q.touched[1].device, "intel-rng");
	assert_int_equal(q.touched[1].quality, 500);
	assert_non_null(strstr(q.note, "the kernel switched to intel-rng"));
	assert_non_null(strstr(q.note, "intel-rng: rng_quality 500 -> 0"));

	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_int_equal(core.current, 0);
	/* sysfs cannot reach a device that is not current: say so. */
	assert_non_null(strstr(q.note, "intel-rng: rng_quality stays 0 (was 500"));
}

static void test_current_changes_behind_us(void **state)
{
	struct hwrng_quality q;

	(void)state;
	add_device("virtio_rng.0", 1000);
	add_device("virtio_rng.1", 700);
	start(0);
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), 0);
	assert_int_equal(core.current, 0);
	assert_int_equal(core.dev[1].quality, 0);

	/* virtio_rng.0 is unplugged: hwrng_unregister() picks the best left. */
	core.dev[0] = core.dev[1];
	core.n_dev = 1;
	enable_best_rng();
	publish();
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_string_equal(q.device, "virtio_rng.1");
	/* Its original quality, from before the first switch zeroed it. */
	assert_int_equal(q.saved_quality, 700);
	assert_int_equal(core.dev[0].quality, 0);
	assert_non_null(strstr(q.note, "rng_current changed from virtio_rng.0 to virtio_rng.1"));
	assert_int_equal(hwrng_quality_check(&q), 0);

	/* A better device appears: registered first in the list, and current. */
	plug_in("virtio_rng.2", 900);
	assert_int_equal(core.current, 0);
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_string_equal(q.device, "virtio_rng.2");
	assert_int_equal(q.saved_quality, 900);
	assert_int_equal(core.dev[0].quality, 0);
	assert_int_equal(core.dev[1].quality, 0);
	assert_string_equal(q.note, "rng_current changed from virtio_rng.1 to virtio_rng.2; "
				    "virtio_rng.2: rng_quality 900 -> 0");
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 900);
	assert_non_null(strstr(q.note, "virtio_rng.1: rng_quality stays 0 (was 700"));
}

static void test_restore_only_same_device(void **state)
{
	struct hwrng_quality q;
	unsigned int writes;

	(void)state;
	add_device("virtio_rng.0", 1000);
	add_device("tpm-rng-0", 0);
	start(0);
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), 0);
	writes = core.quality_writes;
	/* The admin picked another device and rngd never looked again. */
	core.current = 1;
	publish();
	hwrng_quality_restore(&q);
	assert_int_equal(core.quality_writes, writes);
	assert_int_equal(core.dev[1].quality, 0);
	assert_string_equal(q.note, "virtio_rng.0 is no longer current: rng_quality left alone");
}

static void test_no_device_then_one_appears(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start(-1);
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), 0);
	assert_false(q.applied);
	assert_string_equal(q.device, "none");
	assert_int_equal(core.quality_writes, 0);
	assert_int_equal(hwrng_quality_check(&q), 0);

	add_device("virtio_rng.0", 1000);
	start(0);
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_true(q.applied);
	assert_int_equal(core.dev[0].quality, 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
}

static void test_bad_folders(void **state)
{
	struct hwrng_quality q;
	char path[128];

	(void)state;
	assert_int_equal(hwrng_quality_take(&q, "/nonexistent/ksink", NULL), -ENOENT);
	assert_int_equal(q.dir_fd, -1);

	add_device("virtio_rng.0", 1000);
	start(0);
	put_file("rng_quality", "lots\n");
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), -EBADMSG);
	assert_int_equal(q.quality_fd, -1);
	put_file("rng_quality", "1025\n");
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), -EBADMSG);
	assert_int_equal(core.quality_writes, 0);

	/* A kernel without rng_quality (before 5.17). */
	(void)snprintf(path, sizeof(path), "%s/rng_quality", core.dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(hwrng_quality_take(&q, core.dir, NULL), -ENOENT);
	put_file("rng_quality", "0\n");

	/* Check and restore on a handle that never opened are harmless. */
	assert_int_equal(hwrng_quality_check(&q), -EBADF);
	hwrng_quality_restore(&q);
}

/* ---- the state file: what survives an unclean exit ------------------------ */

static char state_dir[64];

static int setup_state(void **state)
{
	(void)snprintf(state_dir, sizeof(state_dir), "/tmp/ksink-state-XXXXXX");
	assert_non_null(mkdtemp(state_dir));
	return setup(state);
}

static int teardown_state(void **state)
{
	const char *names[] = { HWRNG_QUALITY_STATE_FILE, HWRNG_QUALITY_STATE_FILE ".new" };
	char path[128];

	for (size_t i = 0; i < 2; i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", state_dir, names[i]);
		(void)unlink(path);
	}
	(void)rmdir(state_dir);
	return teardown(state);
}

static void put_state(const char *text, size_t len)
{
	char path[128];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/%s", state_dir, HWRNG_QUALITY_STATE_FILE);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The record's text, "" if empty, NULL if absent. */
static const char *get_state(void)
{
	static char text[512];
	char path[128];
	size_t n;
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/%s", state_dir, HWRNG_QUALITY_STATE_FILE);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_state_recorded_before_zero(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start_and_take(&q, "virtio_rng.0", 1000, state_dir);
	assert_non_null(get_state());
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
	assert_int_equal(core.dev[0].quality, 0);
	/* A clean restore leaves no record behind. */
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_null(get_state());
	assert_int_equal(q.state_fd, -1);
	assert_int_equal(q.state_dir_fd, -1);
}

/* The process dies: its fds close (the state ones are -1 without a state
 * folder), nothing is restored. */
static void die_unrestored(struct hwrng_quality *q)
{
	(void)close(q->quality_fd);
	(void)close(q->current_fd);
	(void)close(q->dir_fd);
	(void)close(q->state_fd);
	(void)close(q->state_dir_fd);
}

/* The bug: SIGKILL/watchdog/crash after take(), no restore(). */
static void test_unclean_exit_then_restart(void **state)
{
	struct hwrng_quality first, second;

	(void)state;
	start_and_take(&first, "virtio_rng.0", 1000, state_dir);
	assert_int_equal(core.dev[0].quality, 0);
	die_unrestored(&first);

	assert_int_equal(hwrng_quality_take(&second, core.dir, state_dir), 0);
	assert_int_equal(second.saved_quality, 1000);
	assert_non_null(strstr(second.note, "virtio_rng.0: rng_quality 0 left by an unclean exit: 1000"));
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
	hwrng_quality_restore(&second);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_int_equal(quality_file(), 1000);
	assert_null(get_state());

	/* Without a state folder the old behaviour: 0 saved, 0 "restored". */
	assert_int_equal(hwrng_quality_take(&first, core.dir, NULL), 0);
	die_unrestored(&first);
	assert_int_equal(hwrng_quality_take(&second, core.dir, NULL), 0);
	assert_int_equal(second.saved_quality, 0);
	hwrng_quality_restore(&second);
	assert_int_equal(core.dev[0].quality, 0);
}

/*
 * A record left behind that the device now contradicts: the quality it has
 * now is what is saved and restored, the note says why the record was not
 * believed, and the record is rewritten, then gone after a clean restore.
 */
static void check_record_replaced(const char *left, int quality_now, const char *note)
{
	struct hwrng_quality q;
	char rewritten[64];

	put_state(left, strlen(left));
	start_and_take(&q, "virtio_rng.0", quality_now, state_dir);
	assert_int_equal(q.saved_quality, quality_now);
	assert_non_null(strstr(q.note, note));
	(void)snprintf(rewritten, sizeof(rewritten), "rngd hwrng-quality 1\nvirtio_rng.0 %d\n",
		       quality_now);
	assert_string_equal(get_state(), rewritten);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, quality_now);
	assert_null(get_state());
}

/*
 * A record naming a device that is not current: an earlier rngd zeroed it
 * and could not restore it (the kernel had switched away), so it may
 * still be at 0 and the record is all that knows its original. It stays
 * beside the current device's line, and after this rngd's clean exit.
 */
static void test_state_for_another_device_is_kept(void **state)
{
	struct hwrng_quality q;

	(void)state;
	put_state("rngd hwrng-quality 1\ntpm-rng-0 800\n", strlen("rngd hwrng-quality 1\ntpm-rng-0 800\n"));
	start_and_take(&q, "virtio_rng.0", 0, state_dir);
	assert_non_null(strstr(q.note, "the state file names tpm-rng-0, not the current virtio_rng.0: kept for it"));
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 0\ntpm-rng-0 800\n");
	hwrng_quality_restore(&q);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 0\ntpm-rng-0 800\n");
	/* Its quality was 0 already: nothing to write, at the take or after. */
	assert_int_equal(core.quality_writes, 0);
}

static void test_state_out_of_date_when_not_zero(void **state)
{
	(void)state;
	/* The admin set 300 after the crash: that is the value now. */
	check_record_replaced("rngd hwrng-quality 1\nvirtio_rng.0 1000\n", 300,
			      "the state file's 1000 is out of date");
}

static void test_garbled_state_ignored(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		const char *note;
	} bad[] = {
		{ "virtio_rng.0 1000\n", 18, "garbled at line 1" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 1000", 38, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 -5\n", 37, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 +5\n", 37, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 1025\n", 39, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 99999999999999999999\n", 55, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0\n", 34, "garbled at line 2" },
		{ "rngd hwrng-quality 1\n 1000\n", 27, "garbled at line 2" },
		{ "rngd hwrng-quality 1\nvirtio\trng 1000\n", 37, "garbled at line 2" },
		{ "rngd hwrng-quality 1\na 1\nb 2\nc 3\nd 4\ne 5\nf 6\ng 7\nh 8\ni 9\nj 1\nk 1\nl 1\n"
		  "m 1\nn 1\no 1\np 1\nq 1\n", 89, "garbled at line 18" },
		{ "rngd hwrng-quality 1\nvirtio_rng.0 10\0" "00\n", 40, "too long or binary" },
		{ "rngd hwrng-quality 2\nvirtio_rng.0 1000\n", 39, "garbled at line 1" },
	};
	char big[4096];

	(void)state;
	add_device("virtio_rng.0", 0);
	start(0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hwrng_quality q;

		put_state(bad[i].text, bad[i].len);
		assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
		/* Nothing recorded is believed: 0 stays the value to restore. */
		assert_int_equal(q.saved_quality, 0);
		assert_int_equal(q.n_recorded, 0);
		if (!strstr(q.note, bad[i].note))
			fail_msg("case %zu: note '%s' lacks '%s'", i, q.note, bad[i].note);
		/* ... and it is replaced by a good record. */
		assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 0\n");
		hwrng_quality_restore(&q);
	}
	memset(big, 'x', sizeof(big));
	put_state(big, sizeof(big));
	{
		struct hwrng_quality q;

		assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
		assert_non_null(strstr(q.note, "too long or binary"));
		hwrng_quality_restore(&q);
	}
	/* An empty record (cleared after the privilege drop) is no record. */
	put_state("", 0);
	{
		struct hwrng_quality q;

		assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
		assert_string_equal(q.note, "");
		hwrng_quality_restore(&q);
	}
}

static void test_state_folder_made_or_unusable(void **state)
{
	struct hwrng_quality q;
	char sub[128], path[160];

	(void)state;
	add_device("virtio_rng.0", 1000);
	start(0);
	/* Missing (no RuntimeDirectory=): made. */
	(void)snprintf(sub, sizeof(sub), "%s/made", state_dir);
	assert_int_equal(hwrng_quality_take(&q, core.dir, sub), 0);
	(void)snprintf(path, sizeof(path), "%s/%s", sub, HWRNG_QUALITY_STATE_FILE);
	assert_int_equal(access(path, F_OK), 0);
	hwrng_quality_restore(&q);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(rmdir(sub), 0);

	/* Not a folder: one note, and the quality is still taken. */
	put_state("x", 1);
	(void)snprintf(path, sizeof(path), "%s/%s", state_dir, HWRNG_QUALITY_STATE_FILE);
	assert_int_equal(hwrng_quality_take(&q, core.dir, path), 0);
	assert_non_null(strstr(q.note, "no record of rng_quality kept"));
	assert_int_equal(core.dev[0].quality, 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
}

/* virtio_rng.0 zeroed, then virtio_rng.1 plugged in and zeroed too (the
 * record grows through the kept fd), then a clean exit: only the current
 * virtio_rng.1 can be restored, virtio_rng.0 stays 0. */
static void zero_two_restore_one(struct hwrng_quality *q)
{
	start_and_take(q, "virtio_rng.0", 1000, state_dir);
	plug_in("virtio_rng.1", 1024);
	assert_int_equal(hwrng_quality_check(q), 1);
	assert_string_equal(get_state(),
			    "rngd hwrng-quality 1\nvirtio_rng.0 1000\nvirtio_rng.1 1024\n");
	hwrng_quality_restore(q);
}

/* A clean exit that could not restore a device keeps the record for it. */
static void test_state_grows_and_stays_for_unrestored(void **state)
{
	struct hwrng_quality q;

	(void)state;
	zero_two_restore_one(&q);
	assert_int_equal(core.dev[0].quality, 1024);
	/* virtio_rng.0 stays 0 and is named: the record stays for it, and
	 * virtio_rng.1, restored, leaves it. */
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");

	/* The next rngd finds virtio_rng.1 current: virtio_rng.0's line is
	 * kept (it is still 0), through its run and its clean exit, so an
	 * unclean exit of this one cannot lose it either. */
	assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.1 1024\nvirtio_rng.0 1000\n");
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1024);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
}

static int device_index(const char *name)
{
	for (int i = 0; i < core.n_dev; i++)
		if (!strcmp(core.dev[i].name, name))
			return i;
	fail_msg("no device %s", name);
	return -1;
}

/* Review 11's F4: the second rngd's record named only the device current
 * then; when it died, the first device's original was lost for good. */
static void test_unclean_exit_keeps_other_devices_original(void **state)
{
	struct hwrng_quality q;

	(void)state;
	zero_two_restore_one(&q);
	assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
	die_unrestored(&q);
	/* The kernel goes back to virtio_rng.0, still at 0. */
	start(device_index("virtio_rng.0"));
	assert_int_equal(core.dev[device_index("virtio_rng.0")].quality, 0);
	assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
	assert_int_equal(q.saved_quality, 1000);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[device_index("virtio_rng.0")].quality, 1000);
}

/* After a drop the folder is not writable: a record that is done with is
 * emptied (empty means no record). */
static void test_state_emptied_when_folder_unwritable(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start_and_take(&q, "virtio_rng.0", 1000, state_dir);
	(void)close(q.state_dir_fd);
	q.state_dir_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(q.state_dir_fd >= 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_non_null(get_state());
	assert_string_equal(get_state(), "");
}

/* ---- device events: every look re-reads the quality ------------------- */

/* Module reload or unbind/bind: same name, back at the driver's quality. */
static void test_same_name_reregistered(void **state)
{
	struct hwrng_quality q;

	(void)state;
	start_and_take(&q, "virtio_rng.0", 1000, NULL);
	assert_int_equal(core.dev[0].quality, 0);

	/* Unregistered and registered again: rng_current is the same. */
	replug("virtio_rng.0", 1000);
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_int_equal(core.dev[0].quality, 0);
	assert_int_equal(quality_file(), 0);
	assert_non_null(strstr(q.note, "virtio_rng.0 is back at rng_quality 1000"));
	assert_int_equal(q.saved_quality, 1000);
	/* Nothing changed since: nothing to do. */
	assert_int_equal(hwrng_quality_check(&q), 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
}

/* Devices come and go; each one rngd zeroes is recorded and restorable,
 * up to the limit; beyond it a device is left alone, and said so. */
static void test_many_devices_recorded_or_left_alone(void **state)
{
	struct hwrng_quality q;
	char name[32];
	const char *rec;

	(void)state;
	start_and_take(&q, "dev0", 900, state_dir);
	for (int i = 1; i <= HWRNG_QUALITY_MAX_TOUCHED; i++) {
		/* The old one unplugged, a new one plugged in. */
		(void)snprintf(name, sizeof(name), "dev%d", i);
		replug(name, 900 + i);
		assert_int_equal(hwrng_quality_check(&q), 1);
		if (i < HWRNG_QUALITY_MAX_TOUCHED) {
			assert_int_equal(core.dev[0].quality, 0);
			assert_true(q.applied);
			assert_int_equal(q.saved_quality, 900 + i);
		} else {
			assert_int_equal(core.dev[0].quality, 900 + i);
			assert_false(q.applied);
			assert_non_null(strstr(q.note, "left alone"));
			/* Said once, not on every look. */
			assert_int_equal(hwrng_quality_check(&q), 0);
		}
	}
	rec = get_state();
	assert_non_null(rec);
	assert_non_null(strstr(rec, "\ndev4 904\n"));
	assert_non_null(strstr(rec, "\ndev15 915\n"));
	assert_null(strstr(rec, "dev16"));

	/* dev5 comes back and is current at the end: restored. */
	replug("dev5", 905);
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_int_equal(core.dev[0].quality, 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 905);
}

/* A hand-run rngd beside the service: the second take touches nothing. */
static void test_second_instance_locked_out(void **state)
{
	struct hwrng_quality first, second;
	unsigned int writes;

	(void)state;
	start_and_take(&first, "virtio_rng.0", 1000, state_dir);
	writes = core.quality_writes;
	assert_int_equal(hwrng_quality_take(&second, core.dir, state_dir), -EBUSY);
	assert_int_equal(core.quality_writes, writes);
	assert_int_equal(second.quality_fd, -1);
	assert_int_equal(second.state_dir_fd, -1);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
	hwrng_quality_restore(&first);
	assert_int_equal(core.dev[0].quality, 1000);
	/* Once the first is gone the lock is free. */
	assert_int_equal(hwrng_quality_take(&second, core.dir, state_dir), 0);
	hwrng_quality_restore(&second);
	assert_int_equal(core.dev[0].quality, 1000);
}

/* An rngd that does not gate holds the folder's lock for a moment
 * (recover()): a gating rngd starting then waits for it, rather than
 * leave rng_quality alone for its whole run as if another one gated. */
static void test_brief_lock_is_waited_for(void **state)
{
	struct hwrng_quality q;
	int ready[2];
	pid_t child;
	char c;

	(void)state;
	add_device("virtio_rng.0", 1000);
	start(0);
	assert_int_equal(pipe(ready), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0 || flock(fd, LOCK_EX) < 0 || write(ready[1], "x", 1) != 1)
			_exit(1);
		(void)usleep(300000);
		_exit(0);
	}
	(void)close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	(void)close(ready[0]);
	assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
	assert_int_equal(core.dev[0].quality, 0);
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

/* No device at start (its driver loads after the privilege drop): the
 * record is made while rngd is root, and the device joins it in place
 * once the folder is no longer writable. */
static void test_record_made_before_the_device(void **state)
{
	struct hwrng_quality q;
	int ro;

	(void)state;
	start(-1);
	assert_int_equal(hwrng_quality_take(&q, core.dir, state_dir), 0);
	assert_non_null(get_state());
	assert_string_equal(get_state(), "rngd hwrng-quality 1\n");
	/* The drop: the folder is no longer writable (stand-in: /proc). */
	ro = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(ro >= 0);
	assert_int_equal(flock(q.state_dir_fd, LOCK_UN), 0);
	assert_int_equal(dup2(ro, q.state_dir_fd), q.state_dir_fd);
	(void)close(ro);
	add_device("virtio_rng.0", 1000);
	start(0);
	assert_int_equal(hwrng_quality_check(&q), 1);
	assert_null(strstr(q.note, "cannot record"));
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
	hwrng_quality_restore(&q);
	assert_int_equal(core.dev[0].quality, 1000);
}

/* An rngd that does not gate the hwrng after an unclean exit: it puts the
 * recorded quality back, unless another rngd holds the record, and keeps
 * what the record says of other devices. */
static void test_recover_without_gating(void **state)
{
	static const char two[] = "rngd hwrng-quality 1\nvirtio_rng.0 1000\ntpm-rng-0 800\n";
	struct hwrng_quality first, q;
	unsigned int writes;

	(void)state;
	/* No record: nothing opened, nothing written, no folder made. */
	start_and_take(&first, "virtio_rng.0", 1000, NULL);
	hwrng_quality_restore(&first);
	writes = core.quality_writes;
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), 0);
	assert_int_equal(core.quality_writes, writes);
	assert_string_equal(q.note, "");

	/* Killed while gating: the 0 and the record stay. */
	assert_int_equal(hwrng_quality_take(&first, core.dir, state_dir), 0);
	assert_int_equal(core.dev[0].quality, 0);
	/* While it runs, the record and the 0 are its own. */
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), 0);
	assert_int_equal(core.dev[0].quality, 0);
	assert_non_null(get_state());
	die_unrestored(&first);
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), 0);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_non_null(strstr(q.note, "virtio_rng.0: rng_quality restored to 1000 from the state file"));
	assert_null(get_state());
	assert_int_equal(q.quality_fd, -1);
	assert_int_equal(q.state_dir_fd, -1);

	/* A record that also names a device not current now: it stays for
	 * that one; the restored device leaves it, so a 0 set on purpose
	 * later is not "restored" again by the next start. */
	put_state(two, strlen(two));
	core.dev[0].quality = 0;
	publish();
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), 0);
	assert_int_equal(core.dev[0].quality, 1000);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\ntpm-rng-0 800\n");
	core.dev[0].quality = 0;
	publish();
	writes = core.quality_writes;
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), 0);
	assert_int_equal(core.quality_writes, writes);
	assert_int_equal(core.dev[0].quality, 0);

	/* rng_quality unreadable: an error, and the record stays. */
	put_state("rngd hwrng-quality 1\nvirtio_rng.0 1000\n", strlen("rngd hwrng-quality 1\nvirtio_rng.0 1000\n"));
	put_file("rng_quality", "garbage\n");
	assert_int_equal(hwrng_quality_recover(&q, core.dir, state_dir), -EBADMSG);
	assert_string_equal(get_state(), "rngd hwrng-quality 1\nvirtio_rng.0 1000\n");
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown
/* The cases about the state file start from a state folder of their own. */
#define STATE_TEST(f) cmocka_unit_test_setup_teardown(f, setup_state, teardown_state)

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_take_and_restore),
	RNGD_FIXTURE_TEST(test_already_zero_writes_nothing),
	RNGD_FIXTURE_TEST(test_kernel_switches_on_write),
	RNGD_FIXTURE_TEST(test_current_changes_behind_us),
	RNGD_FIXTURE_TEST(test_restore_only_same_device),
	RNGD_FIXTURE_TEST(test_no_device_then_one_appears),
	RNGD_FIXTURE_TEST(test_bad_folders),
	STATE_TEST(test_state_recorded_before_zero),
	STATE_TEST(test_unclean_exit_then_restart),
	STATE_TEST(test_state_for_another_device_is_kept),
	STATE_TEST(test_state_out_of_date_when_not_zero),
	STATE_TEST(test_garbled_state_ignored),
	STATE_TEST(test_state_folder_made_or_unusable),
	STATE_TEST(test_state_grows_and_stays_for_unrestored),
	STATE_TEST(test_state_emptied_when_folder_unwritable),
	STATE_TEST(test_unclean_exit_keeps_other_devices_original),
	RNGD_FIXTURE_TEST(test_same_name_reregistered),
	STATE_TEST(test_many_devices_recorded_or_left_alone),
	STATE_TEST(test_second_instance_locked_out),
	STATE_TEST(test_brief_lock_is_waited_for),
	STATE_TEST(test_record_made_before_the_device),
	STATE_TEST(test_recover_without_gating)
)
