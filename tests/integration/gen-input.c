/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seeded, reproducible inputs for the rngtest tests: the same arguments
 * give the same bytes on every machine, so every count the peer and we
 * report is reproducible.
 *
 *   gen-input [-s SEED] [-H HEADER] [-P PERIOD] KIND BYTES > file
 *
 * HEADER (default 4) is how many bytes precede the first gate block
 * (FIPS_BLOCK_BYTES): 4 for rngtest's continuous-test seed, 8 in pipe
 * mode. KIND:
 *   random        uniform bytes
 *   zeros         all zero
 *   pattern4      one 4-byte pattern (half ones) over and over
 *   biased=PPM    independent bits, P(1) = PPM / 1e6
 *   markov=PPM    each bit flips the one before with P = PPM / 1e6: near
 *                 0.518 or 0.482 the runs-of-1 counts sit on the runs
 *                 test's edges (2685, 2315)
 *   runs          random blocks each with a planted run of 25 or 26 equal
 *                 bits at a varying bit offset, including runs at a block's
 *                 first and last bit and runs of 26 split by a block edge
 *   repeat        random blocks; every PERIOD-th block is one fixed block
 *   zeroblocks    random blocks; every PERIOD-th block is all zeros
 * For repeat and zeroblocks, block 0 is the special one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fips/fips.h"

/* ---- xoshiro256** seeded by splitmix64: fixed, portable, fast ---- */

struct prng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void prng_seed(struct prng *p, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		p->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

static void fill_random(struct prng *p, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = prng_next(p);
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(buf + i, &v, n);
	}
}

/* ---- bit access, most significant bit of each byte first ---------- */

static void set_bit(uint8_t *buf, size_t bits_len, uint64_t pos, int v)
{
	if (pos >= bits_len)
		return;
	if (v)
		buf[pos / 8] |= (uint8_t)(0x80u >> (pos % 8));
	else
		buf[pos / 8] &= (uint8_t)~(0x80u >> (pos % 8));
}

/* A run of exactly @len bits of @v at @pos, bounded by opposite bits. */
static void plant_run(uint8_t *buf, size_t bits_len, uint64_t pos, unsigned int len, int v)
{
	if (pos > 0)
		set_bit(buf, bits_len, pos - 1, !v);
	for (unsigned int i = 0; i < len; i++)
		set_bit(buf, bits_len, pos + i, v);
	set_bit(buf, bits_len, pos + len, !v);
}

/* ---- the kinds ----------------------------------------------------- */

static void gen_biased(struct prng *p, uint8_t *buf, size_t len, uint32_t ppm)
{
	/* P(1) = ppm / 1e6 as a threshold on a uniform 32-bit value. */
	uint64_t threshold = ((uint64_t)ppm << 32) / 1000000u;

	for (size_t i = 0; i < len; i++) {
		uint8_t byte = 0;

		for (int b = 0; b < 8; b++)
			byte = (uint8_t)(byte << 1 | ((prng_next(p) >> 32) < threshold));
		buf[i] = byte;
	}
}

/* Carries the last bit across chunks, so chunked output equals one piece. */
static void gen_markov(struct prng *p, uint8_t *buf, size_t len, uint32_t ppm, int *last)
{
	uint64_t threshold = ((uint64_t)ppm << 32) / 1000000u;
	int bit = *last;

	for (size_t i = 0; i < len; i++) {
		uint8_t byte = 0;

		for (int b = 0; b < 8; b++) {
			bit ^= (prng_next(p) >> 32) < threshold;
			byte = (uint8_t)(byte << 1 | bit);
		}
		buf[i] = byte;
	}
	*last = bit;
}

static void gen_runs(struct prng *p, uint8_t *buf, size_t len, size_t header)
{
	size_t bits_len = len * 8;
	uint64_t first = (uint64_t)header * 8;

	fill_random(p, buf, len);
	for (uint64_t k = 0; first + (k + 1) * FIPS_BLOCK_BITS <= bits_len; k++) {
		uint64_t start = first + k * FIPS_BLOCK_BITS;
		unsigned int run = (k % 2) ? 26 : 25;
		int v = (int)((k / 2) % 2);
		uint64_t off;

		switch (k % 8) {
		case 2:
		case 3:
			off = 0;                        /* the block's first bit */
			break;
		case 4:
		case 5:
			off = FIPS_BLOCK_BITS - run;         /* ends on the block's last bit */
			break;
		case 7:
			/* 26 equal bits split 13/13 by the block edge: no long run. */
			off = FIPS_BLOCK_BITS - 13;
			run = 26;
			break;
		default:
			off = 1 + prng_next(p) % (FIPS_BLOCK_BITS - run - 2);
			break;
		}
		plant_run(buf, bits_len, start + off, run, v);
	}
}

static void gen_periodic(struct prng *p, uint8_t *buf, size_t len, size_t header,
			 unsigned long period, bool zeros)
{
	uint8_t special[FIPS_BLOCK_BYTES];

	fill_random(p, buf, len);
	if (zeros)
		memset(special, 0, sizeof(special));
	else
		fill_random(p, special, sizeof(special));
	for (size_t k = 0; header + (k + 1) * FIPS_BLOCK_BYTES <= len; k += period)
		memcpy(buf + header + k * FIPS_BLOCK_BYTES, special, FIPS_BLOCK_BYTES);
}

static int usage(void);

static bool parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && *s != '-';
}

static int write_all(const uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(STDOUT_FILENO, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* A reader that stops early (rngtest -c) is not an error. */
			if (errno != EPIPE)
				perror("gen-input: write");
			return -1;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * The kinds without block structure are made a chunk at a time, so a
 * million-block input needs no gigabytes of memory. Chunks are a multiple
 * of 8 bytes, so the bytes are the same as made in one piece.
 */
static int stream_kind(struct prng *p, const char *kind, unsigned long long bytes)
{
	static const uint8_t pattern[4] = { 0x5a, 0xc3, 0x96, 0x0f };
	enum { CHUNK = 1 << 20 };
	static uint8_t chunk[CHUNK];
	unsigned long long ppm = 0;
	int markov_bit = 0;

	if ((strncmp(kind, "biased=", 7) == 0 || strncmp(kind, "markov=", 7) == 0) &&
	    (!parse_u64(kind + 7, &ppm) || ppm > 1000000))
		return usage(), -1;
	for (unsigned long long off = 0; off < bytes; off += CHUNK) {
		size_t n = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;

		if (kind[0] == 'r')
			fill_random(p, chunk, n);
		else if (kind[0] == 'z')
			memset(chunk, 0, n);
		else if (kind[0] == 'p')
			for (size_t i = 0; i < n; i++)
				chunk[i] = pattern[i % 4];
		else if (kind[0] == 'm')
			gen_markov(p, chunk, n, (uint32_t)ppm, &markov_bit);
		else
			gen_biased(p, chunk, n, (uint32_t)ppm);
		if (write_all(chunk, n) < 0)
			return -1;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: gen-input [-s SEED] [-H HEADER] [-P PERIOD] "
		"random|zeros|pattern4|biased=PPM|markov=PPM|runs|repeat|zeroblocks BYTES\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1, header = 4, period = 8, bytes;
	const char *kind;
	struct prng prng;
	uint8_t *buf;
	int c, r;

	while ((c = getopt(argc, argv, "s:H:P:")) != -1) {
		unsigned long long *dst = c == 's' ? &seed : c == 'H' ? &header :
					  c == 'P' ? &period : NULL;

		if (!dst || !parse_u64(optarg, dst))
			return usage();
	}
	if (argc - optind != 2 || !parse_u64(argv[optind + 1], &bytes) || period == 0)
		return usage();
	kind = argv[optind];
	prng_seed(&prng, seed);
	if (strcmp(kind, "random") == 0 || strcmp(kind, "zeros") == 0 ||
	    strcmp(kind, "pattern4") == 0 || strncmp(kind, "biased=", 7) == 0 ||
	    strncmp(kind, "markov=", 7) == 0)
		return stream_kind(&prng, kind, bytes) < 0 ? 1 : 0;

	buf = calloc(1, bytes ? bytes : 1);
	if (!buf) {
		fprintf(stderr, "gen-input: out of memory for %llu bytes\n", bytes);
		return 1;
	}
	if (strcmp(kind, "runs") == 0) {
		gen_runs(&prng, buf, bytes, header);
	} else if (strcmp(kind, "repeat") == 0 || strcmp(kind, "zeroblocks") == 0) {
		gen_periodic(&prng, buf, bytes, header, period, kind[0] == 'z');
	} else {
		free(buf);
		return usage();
	}
	r = write_all(buf, bytes);
	free(buf);
	return r < 0 ? 1 : 0;
}
