/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The practical limit for the gate: one popcount pass over a file in
 * FIPS_BLOCK_BYTES blocks, the least work any monobit test must do. Prints the
 * bandwidth in GB/s and Gbit/s of process CPU time.
 *
 *   popcount-pass FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fips/fips.h"

#define MIN_CPU_SECONDS 0.5

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t block_ones(const uint8_t *b)
{
	uint64_t ones = 0, w;
	size_t i;

	for (i = 0; i + 8 <= FIPS_BLOCK_BYTES; i += 8) {
		memcpy(&w, b + i, 8);
		ones += (uint64_t)__builtin_popcountll(w);
	}
	for (; i < FIPS_BLOCK_BYTES; i++)
		ones += (uint64_t)__builtin_popcount(b[i]);
	return ones;
}

int main(int argc, char **argv)
{
	uint64_t blocks, checksum = 0, passes = 0;
	double t0, elapsed;
	uint8_t *buf;
	long size;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: popcount-pass FILE\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size > 0 ? (size_t)size : 1);
	if (!buf || size < FIPS_BLOCK_BYTES || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "popcount-pass: cannot read %s (need at least one block)\n", argv[1]);
		free(buf);
		fclose(f);
		return 1;
	}
	fclose(f);
	blocks = (uint64_t)size / FIPS_BLOCK_BYTES;

	t0 = cpu_seconds();
	do {
		for (uint64_t k = 0; k < blocks; k++)
			checksum += block_ones(buf + k * FIPS_BLOCK_BYTES);
		passes++;
		elapsed = cpu_seconds() - t0;
	} while (elapsed < MIN_CPU_SECONDS);

	double bytes = (double)passes * (double)blocks * FIPS_BLOCK_BYTES;
	/* The checksum keeps the compiler from dropping the loop. */
	printf("%.2f GB/s %.1f Gbit/s (%llu passes, checksum %llu)\n",
	       bytes / elapsed / 1e9, bytes * 8 / elapsed / 1e9,
	       (unsigned long long)passes, (unsigned long long)checksum);
	free(buf);
	return 0;
}
