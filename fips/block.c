/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FIPS 140-2 section 4.9.1 block statistics: monobit, poker, runs and the
 * longest run of one 20000-bit block, bits read most significant first.
 *
 * Everything is computed on whole 64-bit words, bit 63 of word 0 being the
 * first bit of the block. With X the mask of positions holding bit value v:
 *   start S = X & ~(X shifted one position later)   (a run of v begins)
 *   A_k     = AND of X shifted 0..k-1 positions     (k v's begin here)
 * so popcount(S & A_k) is the number of runs of length >= k, and the runs
 * of exactly k are the difference of two such counts. Shifts carry bits in
 * from the next word, so runs cross bytes and words; past the block's end
 * X is zero, so runs never cross blocks and the last run ends there.
 * Poker counts nibble values with the AND of four bit-plane masks.
 * The only loops that branch per run visit the few runs of 8 or more bits
 * to measure the longest run exactly.
 */
#include <config.h>

#include <string.h>

#include "fips/internal.h"

#define BLOCK_WORDS ((FIPS_BLOCK_BITS + 63) / 64)          /* 313 */
#define TAIL_BITS (FIPS_BLOCK_BITS - 64 * (BLOCK_WORDS - 1)) /* 32 */
#define TAIL_MASK (~UINT64_C(0) << (64 - TAIL_BITS))
/* The last word's zero padding reads as nibbles of value 0. */
#define PAD_NIBBLES ((64 - TAIL_BITS) / 4)
#define POKER_VALUES 16
/* Runs at least this long are measured one by one for the longest run. */
#define MEASURED_RUN 8

/*
 * Word arrays hold the block at [FIRST, FIRST + BLOCK_WORDS) with zero
 * words around it, so that shifts at both ends read zeros. Loops run over
 * LOOP_WORDS, a multiple of 8, so the vectoriser needs no epilogue.
 */
#define FIRST 8
#define LOOP_WORDS ((BLOCK_WORDS + 7) / 8 * 8)           /* 320 */
#define PADDED_WORDS (FIRST + LOOP_WORDS + 8)

_Static_assert(FIPS_BLOCK_BITS % 8 == 0, "blocks are whole bytes");
_Static_assert(TAIL_BITS % 8 == 0 && TAIL_BITS > 0, "tail is whole bytes");

static inline __attribute__((always_inline))
uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap64(v);
}

/* Word @i of X seen @s positions later in the bit stream (0 < s < 64). */
static inline __attribute__((always_inline))
uint64_t ahead(const uint64_t *x, size_t i, unsigned int s)
{
	return (x[i] << s) | (x[i + 1] >> (64 - s));
}

struct run_counts {
	uint32_t at_least[7];    /* [k]: runs of length >= k, k = 1..6 */
	bool any_measured;       /* some run of MEASURED_RUN or more */
};

static inline __attribute__((always_inline))
void count_runs(const uint64_t *restrict x, uint64_t *restrict a2,
		uint64_t *restrict a4, uint64_t *restrict measured,
		struct run_counts *rc)
{
	/* 64-bit sums let the vectoriser keep popcounts in 64-bit lanes. */
	uint64_t ge1 = 0, ge2 = 0, ge3 = 0, ge4 = 0, ge5 = 0, ge6 = 0;
	uint64_t any = 0;

	memset(a2 + FIRST + LOOP_WORDS, 0, 8 * sizeof(*a2));
	memset(a4 + FIRST + LOOP_WORDS, 0, 8 * sizeof(*a4));
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i++)
		a2[i] = x[i] & ahead(x, i, 1);
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i++)
		a4[i] = a2[i] & ahead(a2, i, 2);
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i++) {
		uint64_t start = x[i] & ~((x[i] >> 1) | (x[i - 1] << 63));
		uint64_t a3 = a2[i] & ahead(x, i, 2);
		uint64_t a5 = a4[i] & ahead(x, i, 4);
		uint64_t a6 = a4[i] & ahead(a2, i, 4);
		uint64_t a8 = a4[i] & ahead(a4, i, 4);

		ge1 += (uint64_t)__builtin_popcountll(start);
		ge2 += (uint64_t)__builtin_popcountll(start & a2[i]);
		ge3 += (uint64_t)__builtin_popcountll(start & a3);
		ge4 += (uint64_t)__builtin_popcountll(start & a4[i]);
		ge5 += (uint64_t)__builtin_popcountll(start & a5);
		ge6 += (uint64_t)__builtin_popcountll(start & a6);
		measured[i] = start & a8;
		any |= start & a8;
	}
	rc->at_least[1] = (uint32_t)ge1;
	rc->at_least[2] = (uint32_t)ge2;
	rc->at_least[3] = (uint32_t)ge3;
	rc->at_least[4] = (uint32_t)ge4;
	rc->at_least[5] = (uint32_t)ge5;
	rc->at_least[6] = (uint32_t)ge6;
	rc->any_measured = any != 0;
}

/* Length of the run of ones in X that starts at bit position @pos. */
static uint32_t run_length_at(const uint64_t *x, uint32_t pos)
{
	uint32_t len = 0;

	for (;;) {
		size_t i = FIRST + pos / 64;
		unsigned int s = pos % 64;
		uint64_t w = s ? ahead(x, i, s) : x[i];

		if (~w)
			return len + (uint32_t)__builtin_clzll(~w);
		len += 64;
		pos += 64;
	}
}

/* Longest of the runs whose starts are marked in @starts. */
static uint32_t longest_of(const uint64_t *x, const uint64_t *starts)
{
	uint32_t longest = 0;

	for (size_t i = FIRST; i < FIRST + BLOCK_WORDS; i++) {
		uint64_t m = starts[i];

		while (m) {
			unsigned int b = (unsigned int)__builtin_clzll(m);
			uint32_t len = run_length_at(x, (uint32_t)(64 * (i - FIRST) + b));

			if (len > longest)
				longest = len;
			m &= ~(UINT64_C(1) << (63 - b));
		}
	}
	return longest;
}

/*
 * The longest run of X. The common case measures only the runs of
 * MEASURED_RUN or more; blocks without any fall back to the counts, or, when
 * they hold runs of 6 or 7, to measuring those (rare: such blocks are far
 * from random).
 */
static uint32_t longest_run(const uint64_t *x, uint64_t *scratch,
			    const struct run_counts *rc)
{
	if (rc->any_measured)
		return longest_of(x, scratch);
	if (rc->at_least[6] == 0) {
		for (uint32_t k = 5; k >= 1; k--)
			if (rc->at_least[k])
				return k;
		return 0;
	}
	for (size_t i = FIRST; i < FIRST + BLOCK_WORDS; i++) {
		uint64_t start = x[i] & ~((x[i] >> 1) | (x[i - 1] << 63));
		uint64_t a6 = x[i];

		for (unsigned int s = 1; s < 6; s++)
			a6 &= ahead(x, i, s);
		scratch[i] = start & a6;
	}
	return longest_of(x, scratch);
}

FIPS_HOT
void fips_block_stats(const uint8_t block[FIPS_BLOCK_BYTES],
		      struct fips_block_stats *st)
{
	uint64_t x[2][PADDED_WORDS];
	uint64_t a2[PADDED_WORDS], a4[PADDED_WORDS], scratch[PADDED_WORDS];
	uint64_t poker[POKER_VALUES] = { 0 };
	uint64_t ones = 0;
	const uint64_t plane = UINT64_C(0x8888888888888888);
	uint8_t tail[8] = { 0 };

	memset(x, 0, sizeof(x));
	for (size_t i = 0; i + 1 < BLOCK_WORDS; i++)
		x[1][FIRST + i] = load_be64(block + 8 * i);
	memcpy(tail, block + 8 * (BLOCK_WORDS - 1), TAIL_BITS / 8);
	x[1][FIRST + BLOCK_WORDS - 1] = load_be64(tail);
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i++)
		x[0][i] = ~x[1][i];
	x[0][FIRST + BLOCK_WORDS - 1] &= TAIL_MASK;
	for (size_t i = FIRST + BLOCK_WORDS; i < FIRST + LOOP_WORDS; i++)
		x[0][i] = 0;

	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i++) {
		uint64_t w = x[1][i];
		uint64_t b3 = w & plane, b2 = (w << 1) & plane;
		uint64_t b1 = (w << 2) & plane, b0 = (w << 3) & plane;
		uint64_t h0 = plane & ~b3 & ~b2, h1 = plane & ~b3 & b2;
		uint64_t h2 = b3 & ~b2, h3 = b3 & b2;
		uint64_t l0 = plane & ~b1 & ~b0, l1 = plane & ~b1 & b0;
		uint64_t l2 = b1 & ~b0, l3 = b1 & b0;

		ones += (uint64_t)__builtin_popcountll(w);
#define POKER_ROW(h, n) \
		poker[4 * (n) + 0] += (uint64_t)__builtin_popcountll(h & l0); \
		poker[4 * (n) + 1] += (uint64_t)__builtin_popcountll(h & l1); \
		poker[4 * (n) + 2] += (uint64_t)__builtin_popcountll(h & l2); \
		poker[4 * (n) + 3] += (uint64_t)__builtin_popcountll(h & l3)
		POKER_ROW(h0, 0);
		POKER_ROW(h1, 1);
		POKER_ROW(h2, 2);
		POKER_ROW(h3, 3);
#undef POKER_ROW
	}
	poker[0] -= PAD_NIBBLES + 16 * (LOOP_WORDS - BLOCK_WORDS);

	st->ones = (uint32_t)ones;
	st->poker_sum = 0;
	for (unsigned int v = 0; v < POKER_VALUES; v++)
		st->poker_sum += (uint32_t)(poker[v] * poker[v]);

	st->longest_run = 0;
	for (unsigned int v = 0; v < 2; v++) {
		struct run_counts rc;
		uint32_t longest;

		count_runs(x[v], a2, a4, scratch, &rc);
		for (unsigned int k = 1; k < FIPS_RUN_BUCKETS; k++)
			st->runs[v][k - 1] = rc.at_least[k] - rc.at_least[k + 1];
		st->runs[v][FIPS_RUN_BUCKETS - 1] = rc.at_least[FIPS_RUN_BUCKETS];
		longest = longest_run(x[v], scratch, &rc);
		if (longest > st->longest_run)
			st->longest_run = longest;
	}
}
