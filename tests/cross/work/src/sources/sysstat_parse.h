/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsers for the kernel's statistics files the sysstat source samples.
 * Each takes a buffer and its length (no NUL needed, any bytes allowed, so
 * a fuzz harness can feed them directly), appends the counters it finds to
 * a value vector and returns how many it appended, or -EINVAL when the text
 * does not have the file's shape. Labels are skipped: only numbers that
 * change are worth hashing.
 */
#ifndef RNGD_SOURCES_SYSSTAT_PARSE_H
#define RNGD_SOURCES_SYSSTAT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* A fixed-capacity vector: values beyond @cap are counted in @dropped. */
struct sysstat_values {
	uint64_t *v;
	size_t n, cap;
	size_t dropped;
};

void sysstat_values_push(struct sysstat_values *vals, uint64_t value);

/* /proc/interrupts: "CPU0 CPU1" header, then "label: count count ... text". */
int sysstat_parse_interrupts(const char *text, size_t len, struct sysstat_values *out);
/* /proc/stat: "name n n n ..." lines. */
int sysstat_parse_stat(const char *text, size_t len, struct sysstat_values *out);
/* /proc/diskstats: "major minor name n n n ..." lines. */
int sysstat_parse_diskstats(const char *text, size_t len, struct sysstat_values *out);
/* /proc/vmstat: "name n" lines. */
int sysstat_parse_vmstat(const char *text, size_t len, struct sysstat_values *out);
/* /proc/net/dev: two header lines with '|', then "iface: n n n ..." lines. */
int sysstat_parse_netdev(const char *text, size_t len, struct sysstat_values *out);
/* hwmon temp*_input / fan*_input: one signed decimal integer and a newline. */
int sysstat_parse_integer(const char *text, size_t len, struct sysstat_values *out);

#endif /* RNGD_SOURCES_SYSSTAT_PARSE_H */
