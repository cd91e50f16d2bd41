/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file sink (rngd/sink_file.c): a regular file takes everything in
 * order and is appended to, never truncated; a FIFO whose reader stops
 * keeps what it could not place in the sink's backlog, asks for nothing
 * and names POLLOUT on its fd until the reader drains it; a reader that
 * leaves turns into one error that every later write reports.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rngd/sink.h"
#include "tests/lib/test_main.h"

#define PART 2500u
/* Bigger than a pipe page and no divisor of the pipe size: the write that
 * poll() allowed cannot all fit. */
#define BIG_PART 10000u

struct fixture {
	char dir[64];
	char path[96];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	strcpy(fx->dir, "/tmp/test_sink_file.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->path, sizeof(fx->path), "%s/sink", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	(void)unlink(fx->path);
	(void)rmdir(fx->dir);
	free(fx);
	return 0;
}

static void pattern(uint8_t *buf, size_t len, size_t from)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)((from + i) * 131u >> 3);
}

static bool is_pattern(const uint8_t *buf, size_t len, size_t from)
{
	uint8_t want[BIG_PART];

	while (len) {
		size_t n = len < BIG_PART ? len : BIG_PART;

		pattern(want, n, from);
		if (memcmp(buf, want, n) != 0)
			return false;
		buf += n;
		from += n;
		len -= n;
	}
	return true;
}

static size_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (size_t)st.st_size;
}

static void test_regular_file_takes_all_in_order_and_appends(void **state)
{
	struct fixture *fx = *state;
	struct rng_sink s = { 0 };
	struct rng_sink_counters c;
	uint8_t part[PART], back[4 * PART + 3];
	uint64_t next = 0;
	int fd;

	/* What the file held before rngd started stays. */
	fd = open(fx->path, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "old", 3), 3);
	assert_int_equal(close(fd), 0);

	assert_int_equal(rng_sink_file_open(&s, fx->path), 0);
	assert_string_equal(s.name, "file");
	for (size_t i = 0; i < 4; i++) {
		assert_true(s.ops->demand(&s, 0, &next) >= PART);
		pattern(part, PART, i * PART);
		assert_int_equal(s.ops->write(&s, part, PART, 10u * (unsigned int)(i + 1)), 0);
	}
	/* A regular file never stalls: no fd to wait on. */
	short events = 0;
	assert_int_equal(s.ops->wait_fd(&s, &events), -1);
	s.ops->counters(&s, &c);
	assert_int_equal(c.bits_counted, 10 + 20 + 30 + 40);
	assert_false(c.pool_phases);
	s.ops->close(&s);
	assert_null(s.priv);

	assert_int_equal(file_size(fx->path), sizeof(back));
	fd = open(fx->path, O_RDONLY);
	assert_int_equal(read(fd, back, sizeof(back)), (ssize_t)sizeof(back));
	(void)close(fd);
	assert_memory_equal(back, "old", 3);
	assert_true(is_pattern(back + 3, 4 * PART, 0));
}

static void test_open_errors_are_negative_errno(void **state)
{
	struct fixture *fx = *state;
	struct rng_sink s = { 0 };
	char path[128];

	snprintf(path, sizeof(path), "%s/no/such/dir", fx->dir);
	assert_int_equal(rng_sink_file_open(&s, path), -ENOENT);
	assert_int_equal(rng_sink_file_open(&s, fx->dir), -EISDIR);
}

/* Fill the pipe the reader does not read, then drain it: every byte comes
 * out once, in order; while stalled the sink asks for nothing and names
 * its fd for POLLOUT. */
static void test_fifo_stall_keeps_a_backlog_and_loses_nothing(void **state)
{
	struct fixture *fx = *state;
	struct rng_sink s = { 0 };
	struct rng_sink_counters c;
	uint8_t part[BIG_PART], *got;
	size_t sent = 0, got_len = 0, cap;
	unsigned int credited = 0;
	uint64_t next = 0;
	short events = 0;
	int rfd, pipe_size;

	assert_int_equal(mkfifo(fx->path, 0600), 0);
	rfd = open(fx->path, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(rng_sink_file_open(&s, fx->path), 0);
	pipe_size = fcntl(rfd, F_GETPIPE_SZ);
	assert_true(pipe_size > 0);

	/* Write while the sink asks: the last write overfills the pipe. */
	while (s.ops->demand(&s, 0, &next) > 0) {
		pattern(part, BIG_PART, sent);
		assert_int_equal(s.ops->write(&s, part, BIG_PART, 1), 0);
		sent += BIG_PART;
		credited++;
		assert_true(sent < (size_t)pipe_size + 2 * BIG_PART);
	}
	assert_true(sent > (size_t)pipe_size);
	assert_int_equal(next, RNG_SINK_NEVER);
	assert_true(s.ops->wait_fd(&s, &events) >= 0);
	assert_int_equal(events, POLLOUT);
	/* The stalled sink still counts the credit of what it took. */
	s.ops->counters(&s, &c);
	assert_int_equal(c.bits_counted, credited);

	cap = sent + BIG_PART;
	got = malloc(cap);
	assert_non_null(got);
	/* Drain; each demand() moves the backlog on until it is empty. */
	for (int round = 0; round < 100 && got_len < sent; round++) {
		ssize_t n;

		while ((n = read(rfd, got + got_len, cap - got_len)) > 0)
			got_len += (size_t)n;
		(void)s.ops->demand(&s, 0, &next);
	}
	assert_int_equal(got_len, sent);
	assert_true(is_pattern(got, got_len, 0));
	/* Drained: it asks again. */
	assert_true(s.ops->demand(&s, 0, &next) > 0);
	free(got);
	s.ops->close(&s);
	(void)close(rfd);
}

/* The reader leaves: the write fails with EPIPE, and so does every later
 * one (the loop logs and counts it; nothing is dropped silently). */
static void test_fifo_reader_gone_is_an_error_that_stays(void **state)
{
	struct fixture *fx = *state;
	struct rng_sink s = { 0 };
	uint8_t part[PART];
	uint64_t next = 0;
	int rfd;

	assert_int_equal(mkfifo(fx->path, 0600), 0);
	rfd = open(fx->path, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(rng_sink_file_open(&s, fx->path), 0);
	(void)close(rfd);
	pattern(part, PART, 0);
	/* POLLERR counts as "ask": the write reports the error. */
	assert_true(s.ops->demand(&s, 0, &next) > 0);
	assert_int_equal(s.ops->write(&s, part, PART, 1), -EPIPE);
	assert_int_equal(s.ops->write(&s, part, PART, 1), -EPIPE);
	s.ops->close(&s);
}

/* A write to a pipe nobody reads raises SIGPIPE; rngd ignores it too. */
static int ignore_sigpipe(void **state)
{
	(void)state;
	return signal(SIGPIPE, SIG_IGN) == SIG_ERR ? -1 : 0;
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN_WITH(ignore_sigpipe, NULL,
	RNGD_FIXTURE_TEST(test_regular_file_takes_all_in_order_and_appends),
	RNGD_FIXTURE_TEST(test_open_errors_are_negative_errno),
	RNGD_FIXTURE_TEST(test_fifo_stall_keeps_a_backlog_and_loses_nothing),
	RNGD_FIXTURE_TEST(test_fifo_reader_gone_is_an_error_that_stays)
)
