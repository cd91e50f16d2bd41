/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng_read_full() (sources/read_full.h) on pipes: a writer that hands the
 * bytes over in short pieces, end of file before the length, a stop at the
 * length with more bytes waiting, a signal while the read waits, and a
 * read that fails.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/test_main.h"

#include "sources/read_full.h"

#define PIECES 5
#define PIECE_LEN 3

struct writer {
	int fd;
	pthread_t reader;        /* signalled before each piece when kick */
	bool kick;
};

static volatile sig_atomic_t kicks;

static void on_kick(int sig)
{
	(void)sig;
	kicks++;
}

static void pause_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* PIECES writes of PIECE_LEN bytes 'a', 'b', ..., apart in time, so that
 * the reader's reads come back short; then end of file. */
static void *write_pieces(void *arg)
{
	struct writer *w = arg;

	for (int i = 0; i < PIECES; i++) {
		char piece[PIECE_LEN];

		pause_ms(20);
		if (w->kick) {
			/* The reader is blocked in read() by now: this interrupts
			 * it. The next kick waits for this one to be handled: two
			 * pending signals would merge into one. */
			(void)pthread_kill(w->reader, SIGUSR1);
			for (int waited = 0; kicks < i + 1 && waited < 5000; waited++)
				pause_ms(1);
		}
		memset(piece, 'a' + i, sizeof(piece));
		if (write(w->fd, piece, sizeof(piece)) != (ssize_t)sizeof(piece))
			break;
	}
	(void)close(w->fd);
	return NULL;
}

static void read_pieces(bool kick)
{
	char buf[PIECES * PIECE_LEN + 8];
	struct writer w = { .reader = pthread_self(), .kick = kick };
	pthread_t t;
	int p[2];

	assert_int_equal(pipe(p), 0);
	w.fd = p[1];
	assert_int_equal(pthread_create(&t, NULL, write_pieces, &w), 0);
	/* Exactly what was written: every piece, in order, nothing lost. */
	assert_int_equal(rng_read_full(p[0], buf, PIECES * PIECE_LEN), PIECES * PIECE_LEN);
	for (int i = 0; i < PIECES * PIECE_LEN; i++)
		assert_int_equal(buf[i], 'a' + i / PIECE_LEN);
	assert_int_equal(pthread_join(t, NULL), 0);
	(void)close(p[0]);
}

static void test_short_reads_add_up(void **state)
{
	(void)state;
	read_pieces(false);
}

/* No SA_RESTART: the blocked read() returns EINTR, which must be retried. */
static void test_interrupted_read_is_retried(void **state)
{
	struct sigaction sa = { .sa_handler = on_kick }, old;

	(void)state;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	kicks = 0;
	read_pieces(true);
	assert_int_equal(kicks, PIECES);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
}

/* A pipe whose reading end, p[0], holds @data. */
static void pipe_holding(int p[2], const char *data)
{
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], data, strlen(data)), (ssize_t)strlen(data));
}

static void test_end_of_file_before_len(void **state)
{
	char buf[16];
	int p[2];

	(void)state;
	pipe_holding(p, "abc");
	(void)close(p[1]);
	assert_int_equal(rng_read_full(p[0], buf, sizeof(buf)), 3);
	assert_memory_equal(buf, "abc", 3);
	/* At end of file already: nothing, not an error. */
	assert_int_equal(rng_read_full(p[0], buf, sizeof(buf)), 0);
	(void)close(p[0]);
}

/* It reads no further than @len: the rest stays for the next reader. */
static void test_stops_at_len(void **state)
{
	char buf[16];
	int p[2];

	(void)state;
	pipe_holding(p, "abcdefghij");
	assert_int_equal(rng_read_full(p[0], buf, 4), 4);
	assert_memory_equal(buf, "abcd", 4);
	assert_int_equal(rng_read_full(p[0], buf, 0), 0);
	(void)close(p[1]);
	assert_int_equal(rng_read_full(p[0], buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "efghij", 6);
	(void)close(p[0]);
}

static void test_failed_read_is_minus_errno(void **state)
{
	char buf[16];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	/* The write end cannot be read. */
	assert_int_equal(rng_read_full(p[1], buf, sizeof(buf)), -EBADF);
	/* A non-blocking pipe that runs dry: EAGAIN is an error, not a retry,
	 * and it ends the read even after some bytes came. */
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(rng_read_full(p[0], buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(write(p[1], "ab", 2), 2);
	assert_int_equal(rng_read_full(p[0], buf, sizeof(buf)), -EAGAIN);
	(void)close(p[1]);
	(void)close(p[0]);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_short_reads_add_up),
	cmocka_unit_test(test_interrupted_read_is_retried),
	cmocka_unit_test(test_end_of_file_before_len),
	cmocka_unit_test(test_stops_at_len),
	cmocka_unit_test(test_failed_read_is_minus_errno)
)
