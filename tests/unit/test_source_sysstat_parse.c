/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sysstat source's /proc and hwmon parsers on sample and malformed texts. */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "sources/sysstat_parse.h"

static uint64_t storage[64];

static struct sysstat_values vals_new(size_t cap)
{
	struct sysstat_values v = { .v = storage, .n = 0, .cap = cap, .dropped = 0 };

	memset(storage, 0xaa, sizeof(storage));
	return v;
}

#define PARSE(fn, text, vals) fn(text, strlen(text), vals)

static void test_interrupts_counts_per_cpu_columns_not_labels(void **state)
{
	static const char text[] =
		"           CPU0       CPU1       \n"
		"  0:         31          7   IO-APIC   2-edge      timer\n"
		"  1:          0          9   IO-APIC   1-edge      i8042\n"
		"NMI:          3          4   Non-maskable interrupts\n"
		"ERR:          5\n"
		"MIS:          0\n";
	struct sysstat_values v = vals_new(64);
	const uint64_t want[] = { 31, 7, 0, 9, 3, 4, 5, 0 };

	(void)state;
	/* "2-edge" and "1-edge" are text, not counters. */
	assert_int_equal(PARSE(sysstat_parse_interrupts, text, &v), 8);
	assert_int_equal(v.n, 8);
	assert_memory_equal(v.v, want, sizeof(want));
	/* Header only: nothing to count, but well formed. */
	v = vals_new(64);
	assert_int_equal(PARSE(sysstat_parse_interrupts, "  CPU0 CPU1\n", &v), 0);
}

static void test_stat_counts_every_field_up_to_uint64_max(void **state)
{
	static const char text[] =
		"cpu  10 20 30 40 50 0 0 0 0 0\n"
		"cpu0 5 10 15 20 25 0 0 0 0 0\n"
		"intr 1234 0 9 0\n"
		"ctxt 99999\n"
		"btime 1700000000\n"
		"softirq 8 1 2 3 4 5 6 7 8 9 10\n";
	struct sysstat_values v = vals_new(64);

	(void)state;
	assert_int_equal(PARSE(sysstat_parse_stat, text, &v), 10 + 10 + 4 + 1 + 1 + 11);
	assert_int_equal(v.v[0], 10);
	assert_int_equal(v.v[20], 1234);
	assert_int_equal(v.v[24], 99999);
	/* The largest counter fits (2^64 does not: see the malformed texts). */
	v = vals_new(64);
	assert_int_equal(PARSE(sysstat_parse_stat, "ctxt 18446744073709551615\n", &v), 1);
	assert_true(v.v[0] == UINT64_MAX);
}

static void test_diskstats_counts_fields_and_skips_blank_lines(void **state)
{
	static const char text[] =
		"   8       0 sda 100 2 300 4 5 6 7 8 0 9 10\n"
		" 259       1 nvme0n1p1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n";
	struct sysstat_values v = vals_new(64);

	(void)state;
	assert_int_equal(PARSE(sysstat_parse_diskstats, text, &v), 11 + 17);
	assert_int_equal(v.v[0], 100);
	assert_int_equal(PARSE(sysstat_parse_diskstats, "", &v), 0);
	/* Blank lines are skipped, not malformed. */
	v = vals_new(64);
	assert_int_equal(PARSE(sysstat_parse_diskstats, "\n \t\n8 0 sda 7 8\n\n", &v), 2);
	assert_int_equal(v.v[1], 8);
}

static void test_vmstat_takes_one_counter_per_line(void **state)
{
	static const char text[] = "nr_free_pages 12345\npgfault 999\n\n";
	struct sysstat_values v = vals_new(64);

	(void)state;
	assert_int_equal(PARSE(sysstat_parse_vmstat, text, &v), 2);
	assert_int_equal(v.v[1], 999);
}

static void test_netdev_counts_after_colon_past_two_headers(void **state)
{
	static const char text[] =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"    lo:  1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0\n"
		"  eth0:2000 20 0 0 0 0 0 0 3000 30 0 0 0 0 0 0\n";
	struct sysstat_values v = vals_new(64);

	(void)state;
	assert_int_equal(PARSE(sysstat_parse_netdev, text, &v), 32);
	assert_int_equal(v.v[0], 1000);
	assert_int_equal(v.v[16], 2000); /* counter glued to the colon */
	/* Blank lines are skipped; the headers alone are a host without interfaces. */
	v = vals_new(64);
	assert_int_equal(PARSE(sysstat_parse_netdev, "a|b\nc|d\n\n  \nlo: 5 6\n", &v), 2);
	assert_int_equal(v.v[0], 5);
	assert_int_equal(PARSE(sysstat_parse_netdev, "a|b\nc|d\n", &v), 0);
}

static void test_integer_reads_signed_value_as_uint64(void **state)
{
	struct sysstat_values v = vals_new(64);

	(void)state;
	assert_int_equal(PARSE(sysstat_parse_integer, "42000\n", &v), 1);
	assert_int_equal(PARSE(sysstat_parse_integer, "-5000\n", &v), 1);
	assert_true(v.v[0] == 42000);
	assert_true(v.v[1] == (uint64_t)-5000);
}

/*
 * Texts each parser must refuse with -EINVAL rather than half-parse: a
 * parser and its text per row, so a new malformed shape is one more line.
 */
static const struct {
	const char *parser;
	int (*parse)(const char *text, size_t len, struct sysstat_values *vals);
	const char *text;
} malformed[] = {
	{ "interrupts", sysstat_parse_interrupts, "" },
	{ "interrupts", sysstat_parse_interrupts, "hello world\n 0: 1\n" },
	{ "interrupts", sysstat_parse_interrupts, "CPU0\n 0 1 2\n" },
	{ "interrupts", sysstat_parse_interrupts, "CPU\n" },
	{ "stat", sysstat_parse_stat, "cpu 1 2 x\n" },
	{ "stat", sysstat_parse_stat, "12 13\n" },
	{ "stat", sysstat_parse_stat, "ctxt\n" },
	{ "stat", sysstat_parse_stat, "" },
	{ "stat", sysstat_parse_stat, "ctxt 18446744073709551616\n" }, /* 2^64: malformed, not wrapped */
	{ "diskstats", sysstat_parse_diskstats, "8 0\n" },
	{ "diskstats", sysstat_parse_diskstats, "x 0 sda 1\n" },
	{ "diskstats", sysstat_parse_diskstats, "8 0 sda\n" },
	{ "diskstats", sysstat_parse_diskstats, "8\n" },
	{ "diskstats", sysstat_parse_diskstats, "8 y sda 1\n" },
	{ "diskstats", sysstat_parse_diskstats, "8 0 sda 1 x\n" },
	{ "diskstats", sysstat_parse_diskstats, "8 0 sda 1\n8 1 sdb\n" },
	{ "vmstat", sysstat_parse_vmstat, "pgfault 1 2\n" },
	{ "vmstat", sysstat_parse_vmstat, "pgfault\n" },
	{ "vmstat", sysstat_parse_vmstat, "" },
	{ "vmstat", sysstat_parse_vmstat, "\n \n" },
	{ "vmstat", sysstat_parse_vmstat, "7 1\n" },
	{ "netdev", sysstat_parse_netdev, "lo: 1 2\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc|d\nlo 1 2\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc|d\n: 1 2\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc|d\nlo: 1 x\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc d\nlo: 1 2\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc|d\nlo:\n" },
	{ "netdev", sysstat_parse_netdev, "a|b\nc|d\nlo: 1\neth0 2\n" },
	{ "integer", sysstat_parse_integer, "" },
	{ "integer", sysstat_parse_integer, "-\n" },
	{ "integer", sysstat_parse_integer, "12 13\n" },
	{ "integer", sysstat_parse_integer, "12\n13\n" },
	{ "integer", sysstat_parse_integer, "0x10\n" },
};

static void test_malformed_texts_rejected(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		struct sysstat_values v = vals_new(64);
		int r = PARSE(malformed[i].parse, malformed[i].text, &v);

		if (r != -EINVAL)
			fail_msg("%s parser on \"%s\": %d, not -EINVAL", malformed[i].parser,
				 malformed[i].text, r);
	}
}

static void test_capacity_and_binary(void **state)
{
	static const char text[] = "cpu 1 2 3 4 5 6\n";
	static const char binary[] = { 'C', 'P', 'U', '0', '\n', '0', ':', '\0', '7', '\n', (char)0xff };
	struct sysstat_values v = vals_new(4);

	(void)state;
	/* Beyond the capacity values are counted, never written. */
	assert_int_equal(PARSE(sysstat_parse_stat, text, &v), 6);
	assert_int_equal(v.n, 4);
	assert_int_equal(v.dropped, 2);
	assert_true(storage[4] == 0xaaaaaaaaaaaaaaaaULL);
	/* NULs and high bytes are just bytes; the length bounds everything. */
	v = vals_new(64);
	assert_true(sysstat_parse_interrupts(binary, sizeof(binary), &v) < 0 ||
		    v.n <= 1);
	assert_int_equal(sysstat_parse_vmstat(text, 3, &v), -EINVAL);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_interrupts_counts_per_cpu_columns_not_labels),
	cmocka_unit_test(test_stat_counts_every_field_up_to_uint64_max),
	cmocka_unit_test(test_diskstats_counts_fields_and_skips_blank_lines),
	cmocka_unit_test(test_vmstat_takes_one_counter_per_line),
	cmocka_unit_test(test_netdev_counts_after_colon_past_two_headers),
	cmocka_unit_test(test_integer_reads_signed_value_as_uint64),
	cmocka_unit_test(test_malformed_texts_rejected),
	cmocka_unit_test(test_capacity_and_binary)
)
