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
 * The only loops that branch per run visit the few runs of MEASURED_RUN or
 * more bits (about five per block) to measure the longest run exactly.
 *
 * Two builds of the word loops: portable C compiled per x86-64 level
 * (FIPS_HOT), and AVX-512 VPOPCNTQ, picked at run time. Defining
 * FIPS_PORTABLE_ONLY leaves the second out, so the tests can check the
 * portable loops on a machine that has VPOPCNTQ.
 */
#include <config.h>

#include <string.h>

#include "fips/byte_load.h"
#include "fips/internal.h"

#define BLOCK_WORDS ((FIPS_BLOCK_BITS + 63) / 64)          /* 313 */
#define TAIL_BITS (FIPS_BLOCK_BITS - 64 * (BLOCK_WORDS - 1)) /* 32 */
#define TAIL_MASK (~UINT64_C(0) << (64 - TAIL_BITS))
/* The last word's zero padding reads as nibbles of value 0. */
#define PAD_NIBBLES ((64 - TAIL_BITS) / 4)
#define POKER_VALUES 16
/*
 * Runs at least this long are measured one by one for the longest run;
 * count_runs() builds its mask as A_8 & (A_4 seven positions on).
 */
#define MEASURED_RUN 11
_Static_assert(MEASURED_RUN == 7 + 4, "the measured-run mask is A_8 & A_4 << 7");

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
		/* 8 bits from A4 and A4 four on, then 11 from A4 seven on. */
		uint64_t a11 = a4[i] & ahead(a4, i, 4) & ahead(a4, i, 7);

		ge1 += (uint64_t)__builtin_popcountll(start);
		ge2 += (uint64_t)__builtin_popcountll(start & a2[i]);
		ge3 += (uint64_t)__builtin_popcountll(start & a3);
		ge4 += (uint64_t)__builtin_popcountll(start & a4[i]);
		ge5 += (uint64_t)__builtin_popcountll(start & a5);
		ge6 += (uint64_t)__builtin_popcountll(start & a6);
		measured[i] = start & a11;
		any |= start & a11;
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
 * they hold runs of 6 to MEASURED_RUN - 1, to measuring those (under 1% of
 * random blocks).
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

/* X for both bit values, zero around the block. */
FIPS_HOT
static void load_words(const uint8_t block[FIPS_BLOCK_BYTES], uint64_t x[2][PADDED_WORDS])
{
	uint8_t tail[8] = { 0 };

	for (unsigned int v = 0; v < 2; v++) {
		memset(x[v], 0, FIRST * sizeof(x[v][0]));
		memset(x[v] + FIRST + BLOCK_WORDS, 0,
		       (PADDED_WORDS - FIRST - BLOCK_WORDS) * sizeof(x[v][0]));
	}
	for (size_t i = 0; i + 1 < BLOCK_WORDS; i++)
		x[1][FIRST + i] = load_be64(block + 8 * i);
	memcpy(tail, block + 8 * (BLOCK_WORDS - 1), TAIL_BITS / 8);
	x[1][FIRST + BLOCK_WORDS - 1] = load_be64(tail);
	for (size_t i = FIRST; i < FIRST + BLOCK_WORDS; i++)
		x[0][i] = ~x[1][i];
	x[0][FIRST + BLOCK_WORDS - 1] &= TAIL_MASK;
}

/* What the word loops count; runs and longest run are finished from it. */
struct word_counts {
	uint64_t ones;
	uint64_t poker[POKER_VALUES];
	struct run_counts runs[2];
};

/* Portable loops, compiled per micro-architecture level (FIPS_HOT). */
FIPS_HOT
static void count_words(const uint64_t x[2][PADDED_WORDS],
			uint64_t measured[2][PADDED_WORDS], struct word_counts *wc)
{
	uint64_t a2[PADDED_WORDS], a4[PADDED_WORDS];
	uint64_t poker[POKER_VALUES] = { 0 };
	uint64_t ones = 0;
	const uint64_t plane = UINT64_C(0x8888888888888888);

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
		poker[4 * (n) + 0] += (uint64_t)__builtin_popcountll((h) & l0); \
		poker[4 * (n) + 1] += (uint64_t)__builtin_popcountll((h) & l1); \
		poker[4 * (n) + 2] += (uint64_t)__builtin_popcountll((h) & l2); \
		poker[4 * (n) + 3] += (uint64_t)__builtin_popcountll((h) & l3)
		POKER_ROW(h0, 0);
		POKER_ROW(h1, 1);
		POKER_ROW(h2, 2);
		POKER_ROW(h3, 3);
#undef POKER_ROW
	}
	wc->ones = ones;
	memcpy(wc->poker, poker, sizeof(poker));
	for (unsigned int v = 0; v < 2; v++)
		count_runs(x[v], a2, a4, measured[v], &wc->runs[v]);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(FIPS_PORTABLE_ONLY)
#include <immintrin.h>
#define HAVE_VPOPCNT_PATH 1
#define VPOPCNT_TARGET __attribute__((target("avx512f,avx512vpopcntdq")))

/*
 * The same loops, eight words at a time with AVX-512 VPOPCNTQ: no
 * x86-64-v level includes VPOPCNTQ and GCC 12 does not vectorise popcount
 * reductions, so this path is written out. It is chosen at run time.
 */
#define V_AHEAD(x, next, s) \
	_mm512_or_si512(_mm512_slli_epi64((x), (s)), _mm512_srli_epi64((next), 64 - (s)))
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_POP(v) _mm512_popcnt_epi64(v)

VPOPCNT_TARGET
static void count_runs_vpopcnt(const uint64_t *restrict x, uint64_t *restrict a2,
			       uint64_t *restrict a4, uint64_t *restrict measured,
			       struct run_counts *rc)
{
	__m512i ge1 = _mm512_setzero_si512(), ge2 = ge1, ge3 = ge1, ge4 = ge1;
	__m512i ge5 = ge1, ge6 = ge1, any = ge1;

	memset(a2 + FIRST + LOOP_WORDS, 0, 8 * sizeof(*a2));
	memset(a4 + FIRST + LOOP_WORDS, 0, 8 * sizeof(*a4));
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i += 8) {
		__m512i v = V_LOAD(x + i);

		_mm512_storeu_si512((void *)(a2 + i),
				    _mm512_and_si512(v, V_AHEAD(v, V_LOAD(x + i + 1), 1)));
	}
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i += 8) {
		__m512i v = V_LOAD(a2 + i);

		_mm512_storeu_si512((void *)(a4 + i),
				    _mm512_and_si512(v, V_AHEAD(v, V_LOAD(a2 + i + 1), 2)));
	}
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i += 8) {
		__m512i v = V_LOAD(x + i), vn = V_LOAD(x + i + 1), vp = V_LOAD(x + i - 1);
		__m512i b2 = V_LOAD(a2 + i), b2n = V_LOAD(a2 + i + 1);
		__m512i b4 = V_LOAD(a4 + i), b4n = V_LOAD(a4 + i + 1);
		__m512i prev = _mm512_or_si512(_mm512_srli_epi64(v, 1), _mm512_slli_epi64(vp, 63));
		__m512i start = _mm512_andnot_si512(prev, v);
		__m512i b3 = _mm512_and_si512(b2, V_AHEAD(v, vn, 2));
		__m512i b5 = _mm512_and_si512(b4, V_AHEAD(v, vn, 4));
		__m512i b6 = _mm512_and_si512(b4, V_AHEAD(b2, b2n, 4));
		__m512i b11 = _mm512_and_si512(_mm512_and_si512(b4, V_AHEAD(b4, b4n, 4)),
					       V_AHEAD(b4, b4n, 7));
		__m512i m = _mm512_and_si512(start, b11);

		ge1 = _mm512_add_epi64(ge1, V_POP(start));
		ge2 = _mm512_add_epi64(ge2, V_POP(_mm512_and_si512(start, b2)));
		ge3 = _mm512_add_epi64(ge3, V_POP(_mm512_and_si512(start, b3)));
		ge4 = _mm512_add_epi64(ge4, V_POP(_mm512_and_si512(start, b4)));
		ge5 = _mm512_add_epi64(ge5, V_POP(_mm512_and_si512(start, b5)));
		ge6 = _mm512_add_epi64(ge6, V_POP(_mm512_and_si512(start, b6)));
		_mm512_storeu_si512((void *)(measured + i), m);
		any = _mm512_or_si512(any, m);
	}
	rc->at_least[1] = (uint32_t)_mm512_reduce_add_epi64(ge1);
	rc->at_least[2] = (uint32_t)_mm512_reduce_add_epi64(ge2);
	rc->at_least[3] = (uint32_t)_mm512_reduce_add_epi64(ge3);
	rc->at_least[4] = (uint32_t)_mm512_reduce_add_epi64(ge4);
	rc->at_least[5] = (uint32_t)_mm512_reduce_add_epi64(ge5);
	rc->at_least[6] = (uint32_t)_mm512_reduce_add_epi64(ge6);
	rc->any_measured = _mm512_test_epi64_mask(any, any) != 0;
}

VPOPCNT_TARGET
static void count_words_vpopcnt(const uint64_t x[2][PADDED_WORDS],
				uint64_t measured[2][PADDED_WORDS], struct word_counts *wc)
{
	uint64_t a2[PADDED_WORDS], a4[PADDED_WORDS];
	const __m512i plane = _mm512_set1_epi64((long long)UINT64_C(0x8888888888888888));
	__m512i poker[POKER_VALUES], ones = _mm512_setzero_si512();

	for (unsigned int n = 0; n < POKER_VALUES; n++)
		poker[n] = _mm512_setzero_si512();
	for (size_t i = FIRST; i < FIRST + LOOP_WORDS; i += 8) {
		__m512i w = V_LOAD(x[1] + i);
		__m512i b3 = _mm512_and_si512(w, plane);
		__m512i b2 = _mm512_and_si512(_mm512_slli_epi64(w, 1), plane);
		__m512i b1 = _mm512_and_si512(_mm512_slli_epi64(w, 2), plane);
		__m512i b0 = _mm512_and_si512(_mm512_slli_epi64(w, 3), plane);
		__m512i n3 = _mm512_andnot_si512(b3, plane), n2 = _mm512_andnot_si512(b2, plane);
		__m512i n1 = _mm512_andnot_si512(b1, plane), n0 = _mm512_andnot_si512(b0, plane);
		__m512i hi[4] = { _mm512_and_si512(n3, n2), _mm512_and_si512(n3, b2),
				  _mm512_and_si512(b3, n2), _mm512_and_si512(b3, b2) };
		__m512i lo[4] = { _mm512_and_si512(n1, n0), _mm512_and_si512(n1, b0),
				  _mm512_and_si512(b1, n0), _mm512_and_si512(b1, b0) };

		ones = _mm512_add_epi64(ones, V_POP(w));
		for (unsigned int h = 0; h < 4; h++)
			for (unsigned int l = 0; l < 4; l++)
				poker[4 * h + l] = _mm512_add_epi64(poker[4 * h + l],
					V_POP(_mm512_and_si512(hi[h], lo[l])));
	}
	wc->ones = (uint64_t)_mm512_reduce_add_epi64(ones);
	for (unsigned int n = 0; n < POKER_VALUES; n++)
		wc->poker[n] = (uint64_t)_mm512_reduce_add_epi64(poker[n]);
	for (unsigned int v = 0; v < 2; v++)
		count_runs_vpopcnt(x[v], a2, a4, measured[v], &wc->runs[v]);
}
#endif

void fips_block_stats(const uint8_t block[FIPS_BLOCK_BYTES],
		      struct fips_block_stats *st)
{
	uint64_t x[2][PADDED_WORDS], measured[2][PADDED_WORDS];
	struct word_counts wc;

	load_words(block, x);

#ifdef HAVE_VPOPCNT_PATH
	/* Cheap once initialised; needed if called from a constructor. */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512f"))
		count_words_vpopcnt((const uint64_t (*)[PADDED_WORDS])x, measured, &wc);
	else
#endif
		count_words((const uint64_t (*)[PADDED_WORDS])x, measured, &wc);

	/* Words past the block read as nibbles of value 0. */
	wc.poker[0] -= PAD_NIBBLES + 16 * (LOOP_WORDS - BLOCK_WORDS);
	st->ones = (uint32_t)wc.ones;
	st->poker_sum = 0;
	for (unsigned int v = 0; v < POKER_VALUES; v++)
		st->poker_sum += (uint32_t)(wc.poker[v] * wc.poker[v]);

	st->longest_run = 0;
	for (unsigned int v = 0; v < 2; v++) {
		const struct run_counts *rc = &wc.runs[v];
		uint32_t longest;

		for (unsigned int k = 1; k < FIPS_RUN_BUCKETS; k++)
			st->runs[v][k - 1] = rc->at_least[k] - rc->at_least[k + 1];
		st->runs[v][FIPS_RUN_BUCKETS - 1] = rc->at_least[FIPS_RUN_BUCKETS];
		longest = longest_run(x[v], measured[v], rc);
		if (longest > st->longest_run)
			st->longest_run = longest;
	}
}
