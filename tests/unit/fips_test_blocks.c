/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "tests/lib/splitmix64.h"
#include "tests/reference/fips_reference.h"
#include "tests/unit/fips_test_blocks.h"

#define TRIES 2000

/* FIPS 140-2 change notice 1 runs intervals, restated for the builder. */
static const uint32_t runs_lo[6] = { 2315, 1114, 527, 240, 103, 103 };
static const uint32_t runs_hi[6] = { 2685, 1386, 723, 384, 209, 209 };

void tb_seed(struct tb_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t tb_next(struct tb_rng *r)
{
	return test_splitmix64(&r->state);
}

uint32_t tb_below(struct tb_rng *r, uint32_t n)
{
	return (uint32_t)(((tb_next(r) >> 32) * n) >> 32);
}

unsigned int tb_get_bit(const uint8_t *block, uint32_t i)
{
	return (block[i / 8] >> (7 - i % 8)) & 1;
}

void tb_set_bit(uint8_t *block, uint32_t i, unsigned int value)
{
	uint8_t m = (uint8_t)(0x80 >> (i % 8));

	block[i / 8] = value ? (uint8_t)(block[i / 8] | m) : (uint8_t)(block[i / 8] & ~m);
}

void tb_flip_bit(uint8_t *block, uint32_t i)
{
	block[i / 8] ^= (uint8_t)(0x80 >> (i % 8));
}

void tb_random_block(uint8_t *block, struct tb_rng *r)
{
	for (size_t i = 0; i < TB_BLOCK_BYTES; i += 4) {
		uint64_t v = tb_next(r);

		memcpy(block + i, &v, 4);
	}
}

void tb_biased_block(uint8_t *block, struct tb_rng *r, double p)
{
	uint32_t threshold = (uint32_t)(p * 65536.0 + 0.5);
	uint64_t v = 0;

	for (uint32_t i = 0; i < TB_BLOCK_BITS; i++) {
		if (i % 4 == 0)
			v = tb_next(r);
		tb_set_bit(block, i, (uint32_t)(v & 0xffff) < threshold);
		v >>= 16;
	}
}

void tb_plant_run(uint8_t *block, uint32_t pos, uint32_t len, unsigned int value)
{
	for (uint32_t i = pos; i < pos + len; i++)
		tb_set_bit(block, i, value);
	if (pos > 0)
		tb_set_bit(block, pos - 1, !value);
	if (pos + len < TB_BLOCK_BITS)
		tb_set_bit(block, pos + len, !value);
}

unsigned int tb_reference_failures(const uint8_t *block)
{
	struct ref_stats st;
	struct ref_verdict v;

	ref_stats(block, &st);
	v = ref_verdict(&st);
	return (v.monobit ? 0 : TB_MONOBIT) | (v.poker ? 0 : TB_POKER) |
	       (v.runs ? 0 : TB_RUNS) | (v.long_run ? 0 : TB_LONG_RUN);
}

void tb_passing_block(uint8_t *block, struct tb_rng *r)
{
	do
		tb_random_block(block, r);
	while (tb_reference_failures(block));
}

int tb_monobit_block(uint8_t *block, struct tb_rng *r, uint32_t ones)
{
	for (int t = 0; t < TRIES; t++) {
		struct ref_stats st;

		tb_passing_block(block, r);
		ref_stats(block, &st);
		while (st.ones != ones) {
			uint32_t i = tb_below(r, TB_BLOCK_BITS);
			unsigned int want = st.ones < ones;

			if (tb_get_bit(block, i) != want) {
				tb_set_bit(block, i, want);
				st.ones += want ? 1 : (uint32_t)-1;
			}
		}
		if ((tb_reference_failures(block) & ~TB_MONOBIT) == 0)
			return 0;
	}
	return -1;
}

static uint32_t sum_squares(const uint32_t f[16])
{
	uint32_t s = 0;

	for (int v = 0; v < 16; v++)
		s += f[v] * f[v];
	return s;
}

/* Nibble counts with sum of squares @sum; f[0] and f[1] are fixed. */
static bool poker_counts(uint32_t f[16], struct tb_rng *r, uint32_t sum, bool raise)
{
	uint32_t s;

	f[0] = raise ? 312 : 313;
	f[1] = raise ? 312 : 311;
	for (int v = 2; v < 16; v++)
		f[v] = 312 + (v < 10);
	s = sum_squares(f);
	for (int steps = 0; s != sum && steps < 1000000; steps++) {
		uint32_t a = 2 + tb_below(r, 14), b = 2 + tb_below(r, 14);
		int64_t delta = 2 * ((int64_t)f[b] - (int64_t)f[a] + 1);

		if (a == b || f[a] == 0 || delta <= 0 || delta > (int64_t)sum - s)
			continue;
		f[a]--;
		f[b]++;
		s = sum_squares(f);
	}
	return s == sum;
}

int tb_poker_block(uint8_t *block, struct tb_rng *r, uint32_t sum,
		   bool raise_by_flip, uint32_t *flip_at)
{
	uint8_t nibbles[TB_BLOCK_BITS / 4];
	uint32_t f[16];

	for (int c = 0; c < 20; c++) {
		size_t n = 0;

		if (!poker_counts(f, r, sum, raise_by_flip))
			continue;
		for (uint8_t v = 0; v < 16; v++)
			for (uint32_t k = 0; k < f[v]; k++)
				nibbles[n++] = v;
		for (int t = 0; t < 200; t++) {
			for (size_t i = n - 1; i > 0; i--) {
				size_t j = tb_below(r, (uint32_t)i + 1);
				uint8_t tmp = nibbles[i];

				nibbles[i] = nibbles[j];
				nibbles[j] = tmp;
			}
			for (size_t i = 0; i < TB_BLOCK_BYTES; i++)
				block[i] = (uint8_t)(nibbles[2 * i] << 4 | nibbles[2 * i + 1]);
			if (tb_reference_failures(block))
				continue;
			/* A nibble 0000 whose last bit flipped breaks only poker. */
			for (uint32_t i = 0; i < n; i++) {
				if (nibbles[i] != 0)
					continue;
				tb_flip_bit(block, 4 * i + 3);
				if (tb_reference_failures(block) == TB_POKER) {
					tb_flip_bit(block, 4 * i + 3);
					*flip_at = 4 * i + 3;
					return 0;
				}
				tb_flip_bit(block, 4 * i + 3);
			}
		}
	}
	return -1;
}

static bool within(uint32_t n, unsigned int k)
{
	return n >= runs_lo[k] && n <= runs_hi[k];
}

/*
 * Run-length plan for one bit value: n[k] runs in bucket k, lengths of the
 * six-plus runs in long_len, exactly 10000 bits. Runs alternate, so both
 * values need the same number of runs.
 */
struct run_plan {
	uint32_t n[6];
	uint32_t long_len[400];
};

#define PLAN_RUNS_MAX 6000
#define PLAN_RUNS_TYPICAL 4999
#define PLAN_BITS 10000

static uint32_t short_bits(const struct run_plan *p)
{
	uint32_t bits = 0;

	for (unsigned int k = 0; k < 5; k++)
		bits += (k + 1) * p->n[k];
	return bits;
}

/*
 * With @target >= 0, bucket @target holds @count runs and the others keep
 * their typical counts; otherwise the buckets are moved within their
 * intervals until there are @runs runs.
 */
static bool make_plan(struct run_plan *p, struct tb_rng *r, int target,
		      uint32_t count, uint32_t runs)
{
	static const uint32_t base[6] = { 2500, 1250, 625, 312, 156, 156 };
	uint32_t total = 0, budget;

	memcpy(p->n, base, sizeof(base));
	if (target >= 0) {
		p->n[target] = count;
	} else {
		/* The typical shape, scaled to @runs, keeps poker typical too. */
		for (unsigned int k = 0; k < 6; k++)
			p->n[k] = (base[k] * runs + PLAN_RUNS_TYPICAL / 2) / PLAN_RUNS_TYPICAL;
	}
	for (unsigned int k = 0; k < 6; k++)
		total += p->n[k];
	for (unsigned int k = 0, idle = 0; target < 0 && total != runs; k = (k + 1) % 6) {
		bool up = total < runs;
		uint32_t next = up ? p->n[k] + 1 : p->n[k] - 1;

		if (!within(next, k)) {
			if (++idle > 6)
				return false;
			continue;
		}
		idle = 0;
		p->n[k] = next;
		total += up ? 1 : (uint32_t)-1;
	}
	/* Shift runs between neighbouring buckets until six-plus lengths fit. */
	for (int guard = 0; guard < 100000; guard++) {
		uint32_t bits = short_bits(p), n6 = p->n[5];
		bool too_long = bits + 6 * n6 > PLAN_BITS;  /* short runs too long */
		bool too_short = bits + 25 * n6 < PLAN_BITS;
		bool moved = false;

		if (!too_long && !too_short)
			break;
		for (unsigned int k = 0; k + 1 < 5 && !moved; k++) {
			unsigned int from = too_long ? k + 1 : k, to = too_long ? k : k + 1;

			if ((int)from == target || (int)to == target ||
			    !within(p->n[from] - 1, from) || !within(p->n[to] + 1, to))
				continue;
			p->n[from]--;
			p->n[to]++;
			moved = true;
		}
		if (!moved)
			return false;
	}
	budget = PLAN_BITS - short_bits(p);
	if (p->n[5] > 400 || budget < 6 * p->n[5] || budget > 25 * p->n[5])
		return false;
	for (uint32_t i = 0; i < p->n[5]; i++)
		p->long_len[i] = 6;
	budget -= 6 * p->n[5];
	while (budget) {
		uint32_t i = tb_below(r, p->n[5]);

		if (p->long_len[i] < 25) {
			p->long_len[i]++;
			budget--;
		}
	}
	return true;
}

static uint32_t plan_lengths(const struct run_plan *p, uint8_t *len, struct tb_rng *r)
{
	uint32_t n = 0;

	for (unsigned int k = 0; k < 5; k++)
		for (uint32_t i = 0; i < p->n[k]; i++)
			len[n++] = (uint8_t)(k + 1);
	for (uint32_t i = 0; i < p->n[5]; i++)
		len[n++] = (uint8_t)p->long_len[i];
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = tb_below(r, i + 1);
		uint8_t tmp = len[i];

		len[i] = len[j];
		len[j] = tmp;
	}
	return n;
}

int tb_runs_block(uint8_t *block, struct tb_rng *r, unsigned int value,
		  unsigned int bucket, uint32_t count)
{
	struct run_plan plan[2];
	uint8_t len[2][PLAN_RUNS_MAX];
	uint32_t runs = 0;

	if (value > 1 || bucket > 5 || !make_plan(&plan[value], r, (int)bucket, count, 0))
		return -1;
	for (unsigned int k = 0; k < 6; k++)
		runs += plan[value].n[k];
	if (runs > PLAN_RUNS_MAX || !make_plan(&plan[!value], r, -1, 0, runs))
		return -1;
	for (int t = 0; t < TRIES; t++) {
		unsigned int v = tb_below(r, 2);
		uint32_t bit = 0;

		plan_lengths(&plan[0], len[0], r);
		plan_lengths(&plan[1], len[1], r);
		for (uint32_t i = 0; i < runs; i++) {
			for (unsigned int half = 0; half < 2; half++, v = !v)
				for (uint32_t j = 0; j < len[v][i]; j++)
					tb_set_bit(block, bit++, v);
		}
		if ((tb_reference_failures(block) & ~TB_RUNS) == 0)
			return 0;
	}
	return -1;
}
