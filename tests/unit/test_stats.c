/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters as people read them (rngd/stats.c): the SIGUSR1/summary lines
 * carry every counter, the sink line says which phase its credit belongs
 * to, and the Prometheus file is complete, escaped, and replaced whole
 * (written to PATH.tmp, renamed) so a collector never reads half of it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
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

#include "tests/lib/slurp.h"
#include "tests/lib/test_main.h"

#include "rngd/stats.h"

static char *read_all(const char *path)
{
	size_t len = 0;
	char *text = (char *)test_slurp(path, &len);

	assert_non_null(text);
	assert_true(len > 0);
	return text;
}

static void test_source_line_carries_every_counter(void **state)
{
	struct rngd_source_stats st = {
		.bytes_read = 101, .blocks_passed = 7, .blocks_failed = 3, .bits_credited = 9001,
		.bytes_to_sink = 17500, .bytes_mixed = 2500, .quarantines = 2, .retests_failed = 6,
		.returns_to_service = 1, .reopens = 5, .read_errors = 4,
	};
	char line[1024];

	(void)state;
	st.failures[FIPS_TEST_MONOBIT] = 11;
	rngd_stats_format(line, sizeof(line), &st);
	assert_non_null(strstr(line, "bytes read 101, blocks passed 7, failed 3 ("));
	assert_non_null(strstr(line, "monobit 11"));
	assert_non_null(strstr(line, "bits credited 9001, bytes to sink 17500, bytes mixed 2500, "
				     "quarantines 2, re-tests failed 6, returns to service 1, reopens 5, read errors 4"));
	for (int t = 0; t < FIPS_TEST_MAX; t++)
		assert_non_null(strstr(line, fips_test_name((enum fips_test)t)));
}

/* A buffer too small truncates; it never overflows or leaves it unterminated. */
static void test_lines_truncate_safely(void **state)
{
	struct rngd_source_stats st = { .bytes_read = UINT64_MAX };
	struct rngd_sink_stats sk = { .bytes_written = UINT64_MAX, .egd = true, .pool_phases = true };
	char small[24];

	(void)state;
	for (size_t len = 1; len <= sizeof(small); len++) {
		memset(small, 'x', sizeof(small));
		rngd_stats_format(small, len, &st);
		assert_int_equal(strnlen(small, len), len - 1);
		memset(small, 'x', sizeof(small));
		rngd_sink_stats_format(small, len, &sk);
		assert_int_equal(strnlen(small, len), len - 1);
	}
}

static void test_sink_line_names_the_phase(void **state)
{
	struct rngd_sink_stats file = { .bytes_written = 5000, .bits_credited = 40, .write_errors = 1 };
	struct rngd_sink_stats kernel = {
		.bytes_written = 7564, .bits_credited = 256, .pool_phases = true, .filling = false,
		.bytes_filling = 7500, .bytes_after_ready = 64, .reseeds = 1, .egd = true, .egd_bytes_served = 32,
	};
	char line[512];

	(void)state;
	rngd_sink_stats_format(line, sizeof(line), &file);
	assert_string_equal(line, "bytes written 5000, bits credited 40, write errors 1");
	rngd_sink_stats_format(line, sizeof(line), &kernel);
	assert_string_equal(line, "bytes written 7564, bits credited 256 while the pool was filling (7500 bytes), "
				  "bytes mixed after it was ready 64, reseeds 1, ready, "
				  "bytes served to EGD clients 32, write errors 0");
	kernel.filling = true;
	rngd_sink_stats_format(line, sizeof(line), &kernel);
	assert_non_null(strstr(line, ", filling,"));
}

static void test_prometheus_file_is_complete_and_escaped(void **state)
{
	char dir[] = "/tmp/test_stats.XXXXXX", path[64], tmp[72];
	struct rngd_source_stats a = { .bytes_read = 2504, .blocks_passed = 1, .bits_credited = 10000 };
	struct rngd_source_stats b = { .blocks_failed = 1, .retests_failed = 3, .returns_to_service = 2 };
	const struct rngd_stats_entry e[] = {
		{ .name = "hwrng", .st = &a, .state = "active" },
		{ .name = "file \"x\\y\"\n", .st = &b, .state = "quarantined" },
	};
	struct rngd_sink_stats sk = { .bytes_written = 2500, .bits_credited = 256, .pool_phases = true,
				      .bytes_filling = 2500, .egd = true, .egd_bytes_served = 9 };
	char *text;

	(void)state;
	b.failures[FIPS_TEST_RUNS] = 1;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rngd.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(rngd_stats_write_prometheus(path, e, 2, &sk, "kernel"), 0);
	assert_int_equal(access(tmp, F_OK), -1);
	text = read_all(path);
	assert_non_null(strstr(text, "rngd_source_bytes_read_total{source=\"hwrng\"} 2504\n"));
	assert_non_null(strstr(text, "rngd_source_bits_credited_total{source=\"hwrng\"} 10000\n"));
	assert_non_null(strstr(text, "rngd_source_blocks_failed_total{source=\"file \\\"x\\\\y\\\"\\n\"} 1\n"));
	assert_non_null(strstr(text, "rngd_source_retests_failed_total{source=\"file \\\"x\\\\y\\\"\\n\"} 3\n"));
	assert_non_null(strstr(text, "rngd_source_returns_to_service_total{source=\"file \\\"x\\\\y\\\"\\n\"} 2\n"));
	assert_non_null(strstr(text, "rngd_source_returns_to_service_total{source=\"hwrng\"} 0\n"));
	assert_non_null(strstr(text, "rngd_source_test_failures_total{source=\"file \\\"x\\\\y\\\"\\n\",test=\"runs\"} 1\n"));
	assert_non_null(strstr(text, "rngd_source_state{source=\"hwrng\",state=\"active\"} 1\n"));
	assert_non_null(strstr(text, "rngd_sink_bits_credited_total{sink=\"kernel\"} 256\n"));
	assert_non_null(strstr(text, "rngd_sink_pool_ready{sink=\"kernel\"} 1\n"));
	assert_non_null(strstr(text, "rngd_egd_bytes_served_total 9\n"));
	/* Every sample has its HELP and TYPE; no raw newline inside a label. */
	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');

		assert_non_null(end);
		if (line[0] != '#') {
			char metric[128];

			assert_int_equal(sscanf(line, "%127[a-z_]", metric), 1);
			char help[160];
			snprintf(help, sizeof(help), "# TYPE %s ", metric);
			assert_non_null(strstr(text, help));
		}
		line = end + 1;
	}
	free(text);

	/* Without the kernel's phases or EGD those series are absent. */
	sk.pool_phases = false;
	sk.egd = false;
	assert_int_equal(rngd_stats_write_prometheus(path, e, 1, &sk, "file"), 0);
	text = read_all(path);
	assert_null(strstr(text, "rngd_sink_pool_ready"));
	assert_null(strstr(text, "rngd_egd_bytes_served_total"));
	assert_non_null(strstr(text, "rngd_sink_bytes_written_total{sink=\"file\"} 2500\n"));
	free(text);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* Errors are -errno, and a failed write leaves the old file in place. */
static void test_prometheus_errors_leave_the_old_file(void **state)
{
	char dir[] = "/tmp/test_stats.XXXXXX", path[64], tmp[72], longpath[5000];
	struct rngd_source_stats a = { .bytes_read = 1 };
	const struct rngd_stats_entry e[] = { { .name = "hwrng", .st = &a, .state = "active" } };
	struct rngd_sink_stats sk = { 0 };
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rngd.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(rngd_stats_write_prometheus(path, e, 1, &sk, "file"), 0);
	/* A directory at PATH.tmp cannot be replaced: an error, and the old
	 * file stays. */
	assert_int_equal(mkdir(tmp, 0700), 0);
	a.bytes_read = 2;
	assert_int_equal(rngd_stats_write_prometheus(path, e, 1, &sk, "file"), -EISDIR);
	text = read_all(path);
	assert_non_null(strstr(text, "rngd_source_bytes_read_total{source=\"hwrng\"} 1\n"));
	free(text);
	assert_int_equal(rmdir(tmp), 0);

	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(rngd_stats_write_prometheus(longpath, e, 1, &sk, "file"), -ENAMETOOLONG);
	snprintf(longpath, sizeof(longpath), "%s/missing/rngd.prom", dir);
	assert_int_equal(rngd_stats_write_prometheus(longpath, e, 1, &sk, "file"), -ENOENT);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* Whatever is left at PATH.tmp is replaced, never written through: a
 * FIFO (its open would block the loop until someone read it), a symbolic
 * link and a hard link (their targets would be written). */
static void test_prometheus_tmp_is_always_a_new_file(void **state)
{
	char dir[] = "/tmp/test_stats.XXXXXX", path[64], tmp[72], target[64];
	int fifo_reader = -1;
	struct rngd_source_stats a = { .bytes_read = 7 };
	const struct rngd_stats_entry e[] = { { .name = "hwrng", .st = &a, .state = "active" } };
	struct rngd_sink_stats sk = { 0 };
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rngd.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	snprintf(target, sizeof(target), "%s/target", dir);
	for (int kind = 0; kind < 3; kind++) {
		FILE *t = fopen(target, "w");
		char *text;

		assert_non_null(t);
		assert_int_equal(fputs("untouched\n", t) >= 0, 1);
		assert_int_equal(fclose(t), 0);
		if (kind == 0) {
			assert_int_equal(mkfifo(tmp, 0600), 0);
			/* A reader, so a regression fails below, not hangs here. */
			fifo_reader = open(tmp, O_RDONLY | O_NONBLOCK);
			assert_true(fifo_reader >= 0);
		} else if (kind == 1)
			assert_int_equal(symlink(target, tmp), 0);
		else
			assert_int_equal(link(target, tmp), 0);
		assert_int_equal(rngd_stats_write_prometheus(path, e, 1, &sk, "file"), 0);
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_nlink, 1);
		text = read_all(path);
		assert_non_null(strstr(text, "rngd_source_bytes_read_total{source=\"hwrng\"} 7\n"));
		free(text);
		text = read_all(target);
		assert_string_equal(text, "untouched\n");
		free(text);
		assert_int_equal(lstat(tmp, &st), -1);
		assert_int_equal(unlink(target), 0);
	}
	assert_int_equal(close(fifo_reader), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* The -t line: passing bytes a second over the time since the start. */
static void test_rate_line(void **state)
{
	struct rngd_source_stats st = { .blocks_passed = 8, .blocks_failed = 1 };
	struct rngd_stats_entry e = { "hwrng", &st, "quarantined" };
	char line[256];

	(void)state;
	rngd_stats_format_rate(line, sizeof(line), &e, 4.0);
	assert_int_equal(FIPS_BLOCK_BYTES, 2500);
	assert_string_equal(line, "hwrng: 5000 passing bytes/s (8 blocks passed, 1 failed, quarantined)");
	rngd_stats_format_rate(line, sizeof(line), &e, 0.0);
	assert_string_equal(line, "hwrng: 0 passing bytes/s (8 blocks passed, 1 failed, quarantined)");
}

/* systemd's STATUS= says which phase the pool is in and, with an EGD
 * socket, what its clients took. */
static void test_status_line_names_the_phase(void **state)
{
	struct rngd_sink_stats st = { .bits_credited = 256 };
	char line[512];

	(void)state;
	rngd_sink_stats_format_status(line, sizeof(line), "hwrng, tpm (down)", &st);
	assert_string_equal(line, "256 bits credited; sources: hwrng, tpm (down)");
	st.egd = true;
	st.egd_bytes_served = 4096;
	rngd_sink_stats_format_status(line, sizeof(line), "", &st);
	assert_string_equal(line, "256 bits credited; 4096 bytes served to EGD clients; sources: none");
	st.egd = false;
	st.pool_phases = true;
	st.filling = true;
	rngd_sink_stats_format_status(line, sizeof(line), NULL, &st);
	assert_string_equal(line, "pool filling: 256 bits credited; sources: none");
	st.filling = false;
	st.bytes_after_ready = 12500;
	st.reseeds = 3;
	rngd_sink_stats_format_status(line, sizeof(line), "rdrand", &st);
	assert_string_equal(line, "pool ready: 256 bits credited while filling, 12500 bytes mixed since, 3 "
				  "reseeds; sources: rdrand");
	/* Too small a buffer truncates, terminated: the source list goes
	 * first, the numbers last. */
	rngd_sink_stats_format_status(line, 83, "rdrand, hwrng", &st);
	assert_string_equal(line, "pool ready: 256 bits credited while filling, 12500 bytes mixed since, 3 reseeds; s");
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_source_line_carries_every_counter),
	cmocka_unit_test(test_lines_truncate_safely),
	cmocka_unit_test(test_sink_line_names_the_phase),
	cmocka_unit_test(test_rate_line),
	cmocka_unit_test(test_status_line_names_the_phase),
	cmocka_unit_test(test_prometheus_file_is_complete_and_escaped),
	cmocka_unit_test(test_prometheus_errors_leave_the_old_file),
	cmocka_unit_test(test_prometheus_tmp_is_always_a_new_file)
)
