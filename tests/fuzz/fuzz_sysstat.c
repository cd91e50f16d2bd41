/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness: the statistics-file parsers of the sysstat source
 * (sources/sysstat_parse.c). Byte 0 picks the parser, byte 1 the value
 * vector's capacity (0..63, so overflow into `dropped` is exercised); the
 * rest is the file text, copied to a buffer of exactly its size so ASan
 * sees any read past the end. Checks: the result is -EINVAL or the number
 * of values appended (kept plus dropped), and nothing is written past the
 * vector's capacity.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/sysstat_parse.h"
#include "tests/fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*sysstat_parser)(const char *text, size_t len, struct sysstat_values *out);

static const sysstat_parser parsers[] = {
	sysstat_parse_interrupts, sysstat_parse_stat,   sysstat_parse_diskstats,
	sysstat_parse_vmstat,     sysstat_parse_netdev, sysstat_parse_integer,
};

#define CANARY 0xdeadbeefcafef00dull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t values[64 + 1];
	struct sysstat_values out;
	size_t cap, len;
	char *text;
	int r;

	if (size < 2)
		return 0;
	cap = data[1] % 64;
	len = size - 2;
	text = malloc(len ? len : 1);
	if (!text)
		return 0;
	memcpy(text, data + 2, len);
	for (size_t i = 0; i <= 64; i++)
		values[i] = CANARY;
	out = (struct sysstat_values){ .v = values, .n = 0, .cap = cap, .dropped = 0 };
	r = parsers[data[0] % (sizeof(parsers) / sizeof(parsers[0]))](text, len, &out);
	FUZZ_CHECK(r == -EINVAL || r >= 0);
	FUZZ_CHECK(out.n <= cap);
	if (r >= 0)
		FUZZ_CHECK((size_t)r == out.n + out.dropped);
	for (size_t i = cap; i <= 64; i++)
		FUZZ_CHECK(values[i] == CANARY);
	free(text);
	return 0;
}
