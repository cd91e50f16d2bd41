/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper for the daemon's integration tests, independent of rngd's
 * own loop code (only the gate library is shared):
 *   gen KIND BLOCKS OUT   write FIPS_SEED_BYTES + BLOCKS blocks of KIND:
 *                         random, zeros, stuck (a 16-byte pattern), repeat
 *                         (one random block over and over), page (one
 *                         random 4096-byte buffer over and over: no block
 *                         equals another), biased (60% ones)
 *   expect IN OUT         what rngd must hand a file sink from IN as its only
 *                         source with --quarantine-after=0: the first 4 bytes
 *                         seed the continuous test, each whole 2500-byte block
 *                         goes through a default gate, passing ones are
 *                         written in order; prints "passed N failed M"
 *   merge SINK A B        SINK must interleave a prefix of B with blocks of
 *                         A in A's order (A may skip blocks: those dropped at
 *                         quarantine, re-test blocks); prints "a N b M"
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips/fips.h"
#include "tests/lib/slurp.h"

static void die(const char *what)
{
	fprintf(stderr, "daemon-helper: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void read_random(uint8_t *buf, size_t len)
{
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(buf, 1, len, f) != len)
		die("/dev/urandom");
	fclose(f);
}

static int gen(const char *kind, long blocks, const char *out)
{
	uint8_t block[FIPS_BLOCK_BYTES], first[FIPS_BLOCK_BYTES], seed[FIPS_SEED_BYTES], page[4096];
	FILE *f = fopen(out, "wb");

	if (!f)
		die(out);
	read_random(seed, sizeof(seed));
	fwrite(seed, 1, sizeof(seed), f);
	read_random(first, sizeof(first));
	read_random(page, sizeof(page));
	for (long i = 0; i < blocks; i++) {
		if (strcmp(kind, "random") == 0) {
			read_random(block, sizeof(block));
		} else if (strcmp(kind, "zeros") == 0) {
			memset(block, 0, sizeof(block));
		} else if (strcmp(kind, "stuck") == 0) {
			for (size_t k = 0; k < sizeof(block); k++)
				block[k] = first[k % 16];
		} else if (strcmp(kind, "repeat") == 0) {
			memcpy(block, first, sizeof(block));
		} else if (strcmp(kind, "page") == 0) {
			for (size_t k = 0; k < sizeof(block); k++)
				block[k] = page[((size_t)i * sizeof(block) + k) % sizeof(page)];
		} else if (strcmp(kind, "biased") == 0) {
			uint8_t r[FIPS_BLOCK_BYTES * 8];

			read_random(r, sizeof(r));
			for (size_t k = 0; k < sizeof(block); k++) {
				block[k] = 0;
				for (int b = 0; b < 8; b++)
					block[k] = (uint8_t)(block[k] << 1 | (r[k * 8 + b] < 154)); /* 154/256 = 60% */
			}
		} else {
			fprintf(stderr, "daemon-helper: unknown kind %s\n", kind);
			return 2;
		}
		fwrite(block, 1, sizeof(block), f);
	}
	if (fclose(f) != 0)
		die(out);
	return 0;
}

static int expect(const char *in, const char *out)
{
	uint8_t block[FIPS_BLOCK_BYTES], seed[FIPS_SEED_BYTES];
	struct fips_gate_config cfg;
	struct fips_gate g;
	unsigned long passed = 0, failed = 0;
	FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");

	if (!fi || !fo)
		die("open");
	fips_gate_config_default(&cfg);
	if (fips_gate_init(&g, &cfg) < 0)
		die("fips_gate_init");
	if (fread(seed, 1, sizeof(seed), fi) == sizeof(seed)) {
		fips_gate_seed(&g, seed);
		while (fread(block, 1, sizeof(block), fi) == sizeof(block)) {
			if (fips_gate_check(&g, block) == 0) {
				fwrite(block, 1, sizeof(block), fo);
				passed++;
			} else {
				failed++;
			}
		}
	}
	fips_gate_destroy(&g);
	fclose(fi);
	if (fclose(fo) != 0)
		die(out);
	printf("passed %lu failed %lu\n", passed, failed);
	return 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *buf = test_slurp(path, len);

	if (!buf)
		die(path);
	return buf;
}

static int merge(const char *sink, const char *a, const char *b)
{
	size_t ls, la, lb, ia = 0, ib = 0;
	uint8_t *s = slurp(sink, &ls), *pa = slurp(a, &la), *pb = slurp(b, &lb);
	const size_t B = FIPS_BLOCK_BYTES;

	if (ls % B) {
		fprintf(stderr, "sink holds %zu bytes, not whole blocks\n", ls);
		return 1;
	}
	size_t na = 0;

	for (size_t off = 0; off < ls; off += B) {
		size_t k;

		if (ib + B <= lb && memcmp(s + off, pb + ib, B) == 0) {
			ib += B;
			continue;
		}
		/* A may skip blocks (dropped at quarantine, re-test blocks), never reorder. */
		for (k = ia; k + B <= la && memcmp(s + off, pa + k, B) != 0; k += B)
			;
		if (k + B > la) {
			fprintf(stderr, "sink block %zu is neither a later block of A nor the next of B\n", off / B);
			return 1;
		}
		ia = k + B;
		na++;
	}
	printf("a %zu b %zu\n", na, ib / B);
	free(s);
	free(pa);
	free(pb);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "gen") == 0)
		return gen(argv[2], strtol(argv[3], NULL, 10), argv[4]);
	if (argc == 4 && strcmp(argv[1], "expect") == 0)
		return expect(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "merge") == 0)
		return merge(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: daemon-helper gen KIND BLOCKS OUT | expect IN OUT | merge SINK A B\n");
	return 2;
}
