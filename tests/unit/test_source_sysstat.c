/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysstat source: zero credit that cannot be raised, changing output, fake /proc trees. */
#include <config.h>

#include <errno.h>
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

#include "tests/lib/test_main.h"

#include "rngd/credit.h"
#include "sources/source.h"
#include "sources/sysstat.h"

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* A fake root with a static /proc (and one hwmon sensor). */
static char *make_root(int bad_vmstat)
{
	/* Parents first: mkdir() makes one level at a time. */
	static const char *const dirs[] = { "proc", "proc/net", "sys", "sys/class", "sys/class/hwmon",
					    "sys/class/hwmon/hwmon0" };
	char tmpl[] = "/tmp/sysstat-test.XXXXXX";
	char *root = strdup(mkdtemp(tmpl));
	char path[512];

	assert_non_null(root);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	write_file(root, "proc/interrupts", "  CPU0\n 0: 5 timer\n");
	write_file(root, "proc/stat", "cpu 1 2 3\nctxt 9\n");
	write_file(root, "proc/diskstats", "");
	write_file(root, "proc/vmstat", bad_vmstat ? "this is not vmstat\n" : "pgfault 7\n");
	write_file(root, "proc/net/dev", "a|b\nc|d\nlo: 1 2 3\n");
	write_file(root, "sys/class/hwmon/hwmon0/temp1_input", "41000\n");
	return root;
}

static void remove_root(char *root)
{
	char cmd[600];

	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void test_zero_credit_default(void **state)
{
	(void)state;
	assert_true(rng_source_sysstat_ops.default_entropy_per_bit == 0.0);
}

/* The daemon refuses to raise a credit_fixed source's credit
 * (test_daemon_credit.c); the source has no credit key of its own. */
static void test_credit_is_fixed_and_not_its_option(void **state)
{
	struct rng_source src;

	(void)state;
	assert_true(rng_source_sysstat_ops.credit_fixed);
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "entropy_per_bit", "0.5"), -EINVAL);
	assert_non_null(strstr(src.why, "known: root"));
	assert_int_equal(src.ops->set_option(&src, "credit", "1"), -EINVAL);
	assert_int_equal(src.ops->set_option(&src, "colour", "blue"), -EINVAL);
	assert_int_equal(src.ops->set_option(&src, "root", "relative/path"), -EINVAL);
	assert_true(src.entropy_per_bit == 0.0);
	rng_source_release(&src);
}

static void test_credit_forced_to_zero(void **state)
{
	struct rng_source src;
	unsigned char buf[64];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	/*
	 * Whatever wrote this (a config, a daemon bug), the daemon's credit
	 * policy caps it at 0; the source itself never writes the field (it
	 * runs in the reader thread while the main thread reads it: 19.7).
	 */
	src.entropy_per_bit = 0.9;
	assert_int_equal(src.ops->open(&src), 0);
	assert_true(src.entropy_per_bit == 0.9);
	assert_true(credit_entropy_per_bit(&src, true, false) == 0.0);
	assert_int_equal(src.ops->read(&src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_true(src.entropy_per_bit == 0.9);
	assert_true(credit_entropy_per_bit(&src, false, false) == 0.0);
	src.ops->close(&src);
	rng_source_release(&src);
}

static void test_real_system_output_changes(void **state)
{
	struct rng_source src;
	struct sysstat_stats st;
	unsigned char a[2500], b[2500];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	assert_int_equal(src.ops->probe(&src), 0);
	assert_int_equal(src.ops->open(&src), 0);
	assert_int_equal(src.ops->read(&src, a, sizeof(a)), (ssize_t)sizeof(a));
	assert_int_equal(src.ops->read(&src, b, sizeof(b)), (ssize_t)sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
	/* Within one read, 64-byte blocks differ too. */
	assert_memory_not_equal(a, a + 64, 64);
	assert_int_equal(sysstat_source_stats(&src, &st), 0);
	assert_true(st.files >= 5);
	assert_true(st.samples >= 80);
	assert_true(st.values > 1000);
	assert_int_equal(st.parse_errors, 0); /* this machine's own files all parse */
	src.ops->close(&src);
	/* Re-open after close keeps working (the daemon re-opens on errors). */
	assert_int_equal(src.ops->open(&src), 0);
	assert_int_equal(src.ops->read(&src, a, 100), 100);
	src.ops->close(&src);
	rng_source_release(&src);
}

static void test_static_tree_still_changes(void **state)
{
	char *root = make_root(0);
	struct rng_source src, again;
	struct sysstat_stats st;
	unsigned char a[64], b[64], c[64];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "root", root), 0);
	assert_int_equal(src.ops->open(&src), 0);
	assert_int_equal(sysstat_source_stats(&src, &st), 0);
	assert_int_equal(st.files, 6);
	assert_int_equal(src.ops->read(&src, a, 64), 64);
	assert_int_equal(src.ops->read(&src, b, 64), 64);
	/* Same files, but the chain and the timestamps move on. */
	assert_memory_not_equal(a, b, 64);
	/* A second instance on the same tree does not repeat the first. */
	assert_int_equal(rng_source_init(&again, &rng_source_sysstat_ops), 0);
	assert_int_equal(again.ops->set_option(&again, "root", root), 0);
	assert_int_equal(again.ops->open(&again), 0);
	assert_int_equal(again.ops->read(&again, c, 64), 64);
	assert_memory_not_equal(a, c, 64);
	assert_int_equal(sysstat_source_stats(&src, &st), 0);
	assert_int_equal(st.parse_errors, 0);
	again.ops->close(&again);
	rng_source_release(&again);
	src.ops->close(&src);
	rng_source_release(&src);
	remove_root(root);
}

static void test_malformed_file_recovered(void **state)
{
	char *root = make_root(1);
	struct rng_source src;
	struct sysstat_stats st;
	unsigned char a[128];

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "root", root), 0);
	assert_int_equal(src.ops->open(&src), 0);
	assert_int_equal(src.ops->read(&src, a, sizeof(a)), (ssize_t)sizeof(a));
	assert_int_equal(sysstat_source_stats(&src, &st), 0);
	/* One per sample: the open() sample and two for 128 bytes. */
	assert_int_equal(st.parse_errors, 3);
	src.ops->close(&src);
	rng_source_release(&src);
	remove_root(root);
}

static void test_empty_root_refused(void **state)
{
	char tmpl[] = "/tmp/sysstat-empty.XXXXXX";
	char *root = mkdtemp(tmpl);
	struct rng_source src;

	(void)state;
	assert_int_equal(rng_source_init(&src, &rng_source_sysstat_ops), 0);
	assert_int_equal(src.ops->set_option(&src, "root", root), 0);
	assert_int_equal(src.ops->probe(&src), -ENOENT);
	assert_non_null(strstr(src.why, "/proc/stat"));
	assert_int_equal(src.ops->open(&src), -ENOENT);
	assert_int_equal(src.ops->read(&src, (char[8]){ 0 }, 8), -EBADF);
	rng_source_release(&src);
	assert_int_equal(rmdir(root), 0);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_zero_credit_default),
	cmocka_unit_test(test_credit_is_fixed_and_not_its_option),
	cmocka_unit_test(test_credit_forced_to_zero),
	cmocka_unit_test(test_real_system_output_changes),
	cmocka_unit_test(test_static_tree_still_changes),
	cmocka_unit_test(test_malformed_file_recovered),
	cmocka_unit_test(test_empty_root_refused)
)
