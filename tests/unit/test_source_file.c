/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file source (sources/file.c): a regular file is read once, resumes
 * where it stopped across re-opens and, with a state folder, across runs;
 * its end exhausts it for good (-ENODATA: never re-credited); without a
 * kept offset its bytes may not earn credit. A FIFO's first open never
 * blocks. Other kinds of file are refused with a reason.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/source_fixture.h"
#include "tests/lib/test_main.h"

#include "sources/source.h"

extern const struct rng_source_ops rng_source_file_ops;

struct fixture {
	char dir[64];
	char data[96];
	char state[96];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	uint8_t bytes[1000];
	int fd;

	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/test_source_file.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->data, sizeof(fx->data), "%s/data", fx->dir);
	snprintf(fx->state, sizeof(fx->state), "%s/state", fx->dir);
	assert_int_equal(mkdir(fx->state, 0700), 0);
	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)i;
	fd = open(fx->data, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, sizeof(bytes)), (ssize_t)sizeof(bytes));
	assert_int_equal(close(fd), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

static struct rng_source *new_source(const char *path, const char *state_dir)
{
	struct rng_source *src = fixture_source_new(&rng_source_file_ops);

	if (path)
		assert_int_equal(src->ops->set_option(src, "path", path), 0);
	if (state_dir)
		assert_int_equal(src->ops->set_option(src, "state_dir", state_dir), 0);
	return src;
}

static void test_probe_and_open_say_what_is_wrong(void **state)
{
	struct fixture *fx = *state;
	struct rng_source *src = new_source(NULL, NULL);
	char missing[128];

	assert_int_equal(src->ops->probe(src), -EINVAL);
	assert_non_null(strstr(src->why, "no file given"));
	assert_int_equal(src->ops->open(src), -EINVAL);
	snprintf(missing, sizeof(missing), "%s/missing", fx->dir);
	assert_int_equal(src->ops->set_option(src, "path", missing), 0);
	assert_int_equal(src->ops->probe(src), -ENOENT);
	assert_non_null(strstr(src->why, missing));
	/* A directory is neither a file, a FIFO nor a device. */
	assert_int_equal(src->ops->set_option(src, "path", fx->dir), 0);
	assert_int_equal(src->ops->probe(src), -EINVAL);
	assert_non_null(strstr(src->why, "not a regular file, FIFO or character device"));
	assert_int_equal(src->ops->set_option(src, "path", ""), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "nonsense", "x"), -EINVAL);
	fixture_source_free(src);
}

/* -O file:path:/dev/urandom is the kernel's generator as hwrng's -r is;
 * each open says it afresh (the path may now name another file). */
static void test_kernel_generator_fact_follows_each_open(void **state)
{
	struct fixture *fx = *state;
	struct rng_source *src = new_source("/dev/urandom", NULL);
	uint8_t buf[64];

	assert_false(src->ops->reads_kernel_generator(src));
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->ops->reads_kernel_generator(src));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	src->ops->close(src);
	assert_int_equal(src->ops->set_option(src, "path", fx->data), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_false(src->ops->reads_kernel_generator(src));
	fixture_source_free(src);
}

/* @path: a new file @name of @len bytes in the fixture's folder. */
static void make_file(char path[128], const struct fixture *fx, const char *name, size_t len)
{
	uint8_t bytes[256];
	int fd;

	assert_true(len <= sizeof(bytes));
	memset(bytes, 0x5a, len);
	snprintf(path, 128, "%s/%s", fx->dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

/* Removed once read to its end: exhausted, not a missing file retried
 * every 30 s for ever; removed before its end: missing (a file may come). */
static void test_removed_after_its_end_is_exhausted(void **state)
{
	struct fixture *fx = *state;
	struct rng_source *src = new_source(fx->data, NULL);
	uint8_t buf[1000];
	char copy[128];

	make_file(copy, fx, "copy", 100);

	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 600), 600);
	src->ops->close(src);
	assert_int_equal(unlink(fx->data), 0);
	assert_int_equal(src->ops->open(src), -ENOENT);
	fixture_source_free(src);

	src = new_source(copy, NULL);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 100);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	src->ops->close(src);
	assert_int_equal(unlink(copy), 0);
	assert_int_equal(src->ops->open(src), -ENODATA);
	assert_non_null(strstr(src->why, "read to its end and is gone"));
	fixture_source_free(src);
}

/* Cut short while read (": > file"): exhausted too, but said as it is,
 * not as read to its end. */
static void test_truncated_while_read_says_so(void **state)
{
	char cut[128];
	struct rng_source *src;
	uint8_t buf[64];

	make_file(cut, *state, "cut", 64);
	src = new_source(cut, NULL);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 40), 40);
	assert_int_equal(truncate(cut, 20), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	src->ops->close(src);
	assert_int_equal(src->ops->open(src), -ENODATA);
	assert_non_null(strstr(src->why, "shrank to 20 bytes, below the 40 already read"));
	fixture_source_free(src);
}

/* Read once: re-opens resume, the end is -ENODATA for good. */
static void test_regular_file_is_read_once(void **state)
{
	struct fixture *fx = *state;
	struct rng_source *src = new_source(fx->data, NULL);
	uint8_t buf[600];

	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 600), 600);
	assert_int_equal(buf[599], (uint8_t)599);
	src->ops->close(src);
	/* A SIGHUP or read error re-opens: the rest, not the start again. */
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 600), 400);
	assert_int_equal(buf[0], (uint8_t)600);
	assert_int_equal(src->ops->read(src, buf, 600), 0);
	src->ops->close(src);
	assert_int_equal(src->ops->open(src), -ENODATA);
	assert_non_null(strstr(src->why, "never re-read"));
	/* No state folder: nothing keeps the offset for the next run. */
	assert_false(src->ops->may_credit(src));
	fixture_source_free(src);
}

/* With a state folder the next run resumes, and an exhausted file stays so. */
static void test_offset_kept_across_runs(void **state)
{
	struct fixture *fx = *state;
	struct rng_source *src = new_source(fx->data, fx->state);
	uint8_t buf[1000];

	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->ops->may_credit(src));
	assert_int_equal(src->ops->read(src, buf, 300), 300);
	fixture_source_free(src);

	src = new_source(fx->data, fx->state);
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->ops->may_credit(src));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 700);
	assert_int_equal(buf[0], (uint8_t)300);
	fixture_source_free(src);

	src = new_source(fx->data, fx->state);
	assert_int_equal(src->ops->open(src), -ENODATA);
	assert_non_null(strstr(src->why, "by an earlier run"));
	fixture_source_free(src);
}

/* An unusable state folder: the bytes are read but earn nothing. */
static void test_no_kept_offset_no_credit(void **state)
{
	struct fixture *fx = *state;
	char bad[128];
	struct rng_source *src;
	uint8_t buf[10];

	/* Under a regular file: it cannot be created (ENOTDIR). */
	snprintf(bad, sizeof(bad), "%s/state", fx->data);
	src = new_source(fx->data, bad);
	assert_true(src->ops->may_credit(src));
	assert_int_equal(src->ops->open(src), 0);
	assert_false(src->ops->may_credit(src));
	/* The open's log line says why it earns nothing. */
	assert_non_null(strstr(src->why, "its read offset cannot be kept in"));
	assert_non_null(strstr(src->why, "Not a directory, so it earns no credit"));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	fixture_source_free(src);
}

/* One record per file, whatever the path to it: a symbolic link or a
 * hard link resumes where the file's last reader stopped. */
static void test_offset_kept_for_the_file_not_the_path(void **state)
{
	struct fixture *fx = *state;
	char soft[128], hard[128];
	struct rng_source *src = new_source(fx->data, fx->state);
	uint8_t buf[1000];

	snprintf(soft, sizeof(soft), "%s/symlink", fx->dir);
	snprintf(hard, sizeof(hard), "%s/hardlink", fx->dir);
	assert_int_equal(symlink(fx->data, soft), 0);
	assert_int_equal(link(fx->data, hard), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 300), 300);
	fixture_source_free(src);
	src = new_source(soft, fx->state);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, 200), 200);
	assert_int_equal(buf[0], (uint8_t)300);
	fixture_source_free(src);
	src = new_source(hard, fx->state);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 500);
	assert_int_equal(buf[0], (uint8_t)500);
	fixture_source_free(src);
	(void)unlink(soft);
	(void)unlink(hard);
}

/* A file source probed and opened on a new FIFO, @fifo, in the fixture's
 * folder. */
static struct rng_source *open_new_fifo(struct fixture *fx, char fifo[128])
{
	struct rng_source *src;

	snprintf(fifo, 128, "%s/fifo", fx->dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	src = new_source(fifo, NULL);
	assert_int_equal(src->ops->probe(src), 0);
	assert_int_equal(src->ops->open(src), 0);
	return src;
}

/* The first open of a FIFO returns at once although nobody writes; a
 * FIFO may earn credit (it is not re-read across runs). */
static void test_fifo_first_open_never_blocks(void **state)
{
	char fifo[128];
	struct rng_source *src = open_new_fifo(*state, fifo);
	uint8_t buf[16];
	int w;

	assert_true(src->ops->may_credit(src));
	w = open(fifo, O_WRONLY | O_NONBLOCK);
	assert_true(w >= 0);
	assert_int_equal(write(w, "0123456789abcdef", 16), 16);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	assert_memory_equal(buf, "0123456789abcdef", 16);
	(void)close(w);
	/* The writer left: end of data, for the loop to re-open with back-off. */
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	fixture_source_free(src);
}

/* What the reader polls: the source's data, or its call to open afresh. */
static bool ready_within(const struct rng_source *src, int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = rng_source_wait_fd(src), .events = POLLIN },
		{ .fd = rng_source_reopen_fd(src), .events = POLLIN },
	};

	return poll(pfd, 2, ms) > 0;
}

/* "rm -f f; mkfifo f", a feeder's restart, while the source waits for a
 * writer: the wait ends, and the next open reads the new FIFO (its writer
 * blocked for ever on a FIFO nobody read). A chmod wakes the wait too,
 * and read() then returns at once instead of blocking outside the poll.
 * Once a writer came, its stream is read to its end. */
static void test_fifo_replaced_at_its_path_ends_the_wait(void **state)
{
	char fifo[128];
	struct rng_source *src = open_new_fifo(*state, fifo);
	uint8_t buf[16];
	int w;

	alarm(10);   /* a read that blocks fails the test instead of hanging it */
	assert_false(ready_within(src, 50));
	assert_int_equal(chmod(fifo, 0640), 0);
	assert_true(ready_within(src, 2000));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	src->ops->close(src);
	assert_int_equal(src->ops->open(src), 0);
	assert_false(ready_within(src, 50));

	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_true(ready_within(src, 2000));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	assert_non_null(strstr(src->why, "was removed or replaced"));
	src->ops->close(src);
	assert_int_equal(src->ops->open(src), 0);
	w = open(fifo, O_WRONLY | O_NONBLOCK);
	assert_true(w >= 0);   /* ENXIO: nobody reads the new FIFO */
	assert_int_equal(write(w, "0123456789abcdef", 16), 16);
	assert_true(ready_within(src, 2000));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	/* A writer came: its stream is read to its end, so the watch is gone
	 * and removing the FIFO now cuts nothing off. */
	assert_int_equal(rng_source_reopen_fd(src), -1);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(write(w, "fedcba9876543210", 16), 16);
	assert_true(ready_within(src, 2000));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 16);
	assert_memory_equal(buf, "fedcba9876543210", 16);
	(void)close(w);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
	alarm(0);
	fixture_source_free(src);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_probe_and_open_say_what_is_wrong),
	RNGD_FIXTURE_TEST(test_kernel_generator_fact_follows_each_open),
	RNGD_FIXTURE_TEST(test_regular_file_is_read_once),
	RNGD_FIXTURE_TEST(test_removed_after_its_end_is_exhausted),
	RNGD_FIXTURE_TEST(test_truncated_while_read_says_so),
	RNGD_FIXTURE_TEST(test_offset_kept_across_runs),
	RNGD_FIXTURE_TEST(test_no_kept_offset_no_credit),
	RNGD_FIXTURE_TEST(test_offset_kept_for_the_file_not_the_path),
	RNGD_FIXTURE_TEST(test_fifo_first_open_never_blocks),
	RNGD_FIXTURE_TEST(test_fifo_replaced_at_its_path_ends_the_wait)
)
