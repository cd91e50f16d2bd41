/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rate limiting of repeated messages: a burst passes, the rest are counted
 * and the count is reported with the first message of a later window;
 * levels; the journal's priority prefix. */
#include <config.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/log.h"

static void test_burst_then_count(void **state)
{
	struct rngd_ratelimit rl = { 0 };
	unsigned long suppressed;
	const uint64_t t0 = 1000;

	(void)state;
	for (int i = 0; i < RNGD_RATELIMIT_BURST; i++) {
		assert_true(rngd_ratelimit_allow(&rl, t0 + (uint64_t)i, &suppressed));
		assert_int_equal(suppressed, 0);
	}
	for (int i = 0; i < 37; i++)
		assert_false(rngd_ratelimit_allow(&rl, t0 + 100 + (uint64_t)i, &suppressed));
	/* Still inside the window. */
	assert_false(rngd_ratelimit_allow(&rl, t0 + RNGD_RATELIMIT_WINDOW_MS - 1, &suppressed));
	/* A new window: allowed, and told how many were dropped (37 + 1). */
	assert_true(rngd_ratelimit_allow(&rl, t0 + RNGD_RATELIMIT_WINDOW_MS, &suppressed));
	assert_int_equal(suppressed, 38);
	assert_true(rngd_ratelimit_allow(&rl, t0 + RNGD_RATELIMIT_WINDOW_MS + 1, &suppressed));
	assert_int_equal(suppressed, 0);
}

/* A limiter of its own size (the EGD clients' lines: 100 a window). */
static void test_burst_of_its_own(void **state)
{
	struct rngd_ratelimit rl = { .burst = RNGD_RATELIMIT_BURST + 3 };
	unsigned long suppressed;

	(void)state;
	for (unsigned int i = 0; i < RNGD_RATELIMIT_BURST + 3; i++)
		assert_true(rngd_ratelimit_allow(&rl, 1000 + i, &suppressed));
	assert_false(rngd_ratelimit_allow(&rl, 2000, &suppressed));
	assert_true(rngd_ratelimit_allow(&rl, 1000 + RNGD_RATELIMIT_WINDOW_MS, &suppressed));
	assert_int_equal(suppressed, 1);
}

static void test_quiet_source_never_limited(void **state)
{
	struct rngd_ratelimit rl = { 0 };
	unsigned long suppressed;

	(void)state;
	/* One message per window, forever: nothing is ever suppressed. */
	for (uint64_t t = 0; t < 100; t++) {
		assert_true(rngd_ratelimit_allow(&rl, t * RNGD_RATELIMIT_WINDOW_MS, &suppressed));
		assert_int_equal(suppressed, 0);
	}
}

static void test_levels_filtered(void **state)
{
	struct rngd_log l;
	struct rngd_ratelimit rl = { 0 };

	(void)state;
	rngd_log_init(&l, true, LOG_WARNING);
	/* Below the level: not logged, and it does not use up the burst. */
	for (int i = 0; i < 20; i++)
		assert_false(rngd_log_limited(&l, &rl, 5, LOG_INFO, "test", "dropped %d", i));
	assert_true(rngd_log_limited(&l, &rl, 5, LOG_WARNING, "test", "kept"));
	rngd_log_close(&l);
}

/*
 * SIGHUP changes the level in the main thread while reader
 * threads log. The TSan twin (tests/unit/credit.mk) reports a data race
 * if the level is read and written plainly.
 */
static void *log_many(void *arg)
{
	struct rngd_log *l = arg;
	struct rngd_ratelimit rl = { 0 };

	for (int i = 0; i < 2000; i++)
		(void)rngd_log_limited(l, &rl, (uint64_t)i, LOG_DEBUG, "reader", "read %d", i);
	return NULL;
}

static void test_level_change_while_logging(void **state)
{
	struct rngd_log l;
	pthread_t t;

	(void)state;
	rngd_log_init(&l, true, LOG_ERR);
	assert_int_equal(pthread_create(&t, NULL, log_many, &l), 0);
	for (int i = 0; i < 2000; i++)
		rngd_log_set_level(&l, i % 2 ? LOG_ERR : LOG_WARNING);
	assert_int_equal(pthread_join(t, NULL), 0);
	rngd_log_set_level(&l, LOG_CRIT);
	assert_false(rngd_log_limited(&l, &(struct rngd_ratelimit){ 0 }, 1, LOG_ERR, "test", "dropped"));
	rngd_log_close(&l);
}

/* What rngd writes to standard error (sent to a file for the while) with
 * JOURNAL_STREAM set to @journal ("" for stderr's own "DEV:INO"). */
static char *stderr_of_run(const char *journal, char *out, size_t size)
{
	char path[] = "/tmp/rngd-log-test.XXXXXX";
	char js[64];
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	struct stat st;
	struct rngd_log l;
	ssize_t n;

	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	assert_int_equal(setenv("JOURNAL_STREAM", journal[0] ? journal : js, 1), 0);
	(void)fflush(stderr);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	rngd_log_early(LOG_ERR, "bad option");
	rngd_log_init(&l, true, LOG_INFO);
	rngd_log(&l, LOG_WARNING, "hwrng", "quarantined");
	rngd_log(&l, LOG_INFO, "hwrng", "opened");
	rngd_log_close(&l);
	(void)fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	(void)close(saved);
	(void)unsetenv("JOURNAL_STREAM");
	n = pread(fd, out, size - 1, 0);
	assert_true(n >= 0);
	out[n] = '\0';
	(void)close(fd);
	(void)unlink(path);
	return out;
}

/* Under systemd, standard error is the journal's stream: each line starts
 * with its syslog priority, which journald reads (else all are "info"). */
static void test_journal_gets_each_line_priority(void **state)
{
	char out[512];

	(void)state;
	assert_string_equal(stderr_of_run("", out, sizeof(out)),
			    "<3>rngd: bad option\n<4>warning: hwrng: quarantined\n<6>info: hwrng: opened\n");
	/* Another stream, or no number: a terminal or a file gets plain lines. */
	assert_string_equal(stderr_of_run("1:2", out, sizeof(out)),
			    "rngd: bad option\nrngd: warning: hwrng: quarantined\nrngd: info: hwrng: opened\n");
	assert_string_equal(stderr_of_run("x", out, sizeof(out)),
			    "rngd: bad option\nrngd: warning: hwrng: quarantined\nrngd: info: hwrng: opened\n");
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_burst_then_count),
	cmocka_unit_test(test_burst_of_its_own),
	cmocka_unit_test(test_quiet_source_never_limited),
	cmocka_unit_test(test_levels_filtered),
	cmocka_unit_test(test_level_change_while_logging),
	cmocka_unit_test(test_journal_gets_each_line_priority)
)
