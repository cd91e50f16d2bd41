/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reference FIPS 140-2 section 4.9.1 tests (with change notice 1,
 * 2001-10-10), the continuous test as rng-tools applies it, and SP 800-90B
 * 4.4.1/4.4.2, transcribed one bit (one sample) at a time. Speed is not a
 * goal; each function reads like the standard's text.
 */
#include <string.h>

#include "tests/reference/fips_reference.h"

/* Bit i of the block; the first bit is the most significant of byte 0. */
static unsigned int bit_at(const uint8_t *block, unsigned int i)
{
	return (block[i / 8] >> (7 - i % 8)) & 1;
}

static void count_run(struct ref_stats *st, unsigned int value, unsigned int length)
{
	if (length >= 6)
		st->runs[value][5]++;
	else
		st->runs[value][length - 1]++;
	if (length > st->longest_run)
		st->longest_run = length;
}

void ref_stats(const uint8_t *block, struct ref_stats *st)
{
	unsigned int f[16] = { 0 };
	unsigned int run_value, run_length;

	memset(st, 0, sizeof(*st));

	/* The Monobit Test: count the number of ones. */
	for (unsigned int i = 0; i < REF_BLOCK_BITS; i++)
		st->ones += bit_at(block, i);

	/* The Poker Test: 5000 consecutive 4-bit segments. */
	for (unsigned int seg = 0; seg < REF_BLOCK_BITS / 4; seg++) {
		unsigned int v = 0;

		for (unsigned int j = 0; j < 4; j++)
			v = 2 * v + bit_at(block, 4 * seg + j);
		f[v]++;
	}
	for (unsigned int i = 0; i < 16; i++)
		st->poker_sum += f[i] * f[i];

	/*
	 * The Runs Test: a run is a maximal sequence of consecutive bits of
	 * all ones or all zeros. The Long Run Test uses the same runs.
	 */
	run_value = bit_at(block, 0);
	run_length = 1;
	for (unsigned int i = 1; i < REF_BLOCK_BITS; i++) {
		unsigned int b = bit_at(block, i);

		if (b == run_value) {
			run_length++;
		} else {
			count_run(st, run_value, run_length);
			run_value = b;
			run_length = 1;
		}
	}
	count_run(st, run_value, run_length);
}

struct ref_verdict ref_verdict(const struct ref_stats *st)
{
	/* Change notice 1 table, the same for runs of zeros and of ones. */
	static const unsigned int lo[6] = { 2315, 1114, 527, 240, 103, 103 };
	static const unsigned int hi[6] = { 2685, 1386, 723, 384, 209, 209 };
	struct ref_verdict v;
	/*
	 * Poker: X = (16/5000) * sum f(i)^2 - 5000 must satisfy
	 * 2.16 < X < 46.17. Multiplied by 5000 * 100 to stay in integers:
	 * 216 * 5000 < 1600 * sum - 5000 * 5000 * 100 < 4617 * 5000.
	 */
	int64_t x_scaled = 1600 * (int64_t)st->poker_sum - (int64_t)5000 * 5000 * 100;

	v.monobit = 9725 < st->ones && st->ones < 10275;
	v.poker = 216 * 5000 < x_scaled && x_scaled < 4617 * 5000;
	v.runs = true;
	for (unsigned int b = 0; b < 2; b++)
		for (unsigned int k = 0; k < 6; k++)
			if (st->runs[b][k] < lo[k] || st->runs[b][k] > hi[k])
				v.runs = false;
	/* Long Run: a run of length 26 or more (of either zeros or ones). */
	v.long_run = st->longest_run < 26;
	return v;
}

bool ref_continuous(struct ref_continuous *c, const uint8_t *block)
{
	bool fail = false;

	for (unsigned int i = 0; i < REF_BLOCK_BYTES / 4; i++) {
		const uint8_t *p = block + 4 * i;
		uint32_t word = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

		if (c->have_previous && word == c->previous)
			fail = true;
		c->previous = word;
		c->have_previous = true;
	}
	return fail;
}

bool ref_repeat(struct ref_repeat *r, const uint8_t *block)
{
	unsigned int remembered = r->count < 64 ? r->count : 64;
	bool fail = false;

	/* cppcheck-suppress knownConditionTrueFalse ; count grows with every call */
	for (unsigned int i = 0; i < remembered; i++)
		if (memcmp(r->blocks[i], block, REF_BLOCK_BYTES) == 0)
			fail = true;
	memcpy(r->blocks[r->count % 64], block, REF_BLOCK_BYTES);
	r->count++;
	return fail;
}

static unsigned int samples_in(unsigned int sample_bits)
{
	return sample_bits == 1 ? REF_BLOCK_BITS : REF_BLOCK_BYTES;
}

static unsigned int sample_at(const uint8_t *block, unsigned int sample_bits, unsigned int i)
{
	return sample_bits == 1 ? bit_at(block, i) : block[i];
}

/*
 * 4.4.1: A = the most recent sample, B = the number of consecutive times
 * it was seen. For each new sample: if equal to A, B += 1 and if B >= C
 * signal a failure; otherwise A = the sample, B = 1.
 */
bool ref_rct_block(struct ref_rct *r, const uint8_t *block, unsigned int sample_bits)
{
	bool fail = false;

	for (unsigned int i = 0; i < samples_in(sample_bits); i++) {
		unsigned int x = sample_at(block, sample_bits, i);

		if (r->have_a && x == r->a) {
			r->b++;
			if (r->b >= r->cutoff)
				fail = true;
		} else {
			r->a = x;
			r->b = 1;
			r->have_a = true;
		}
	}
	return fail;
}

/*
 * 4.4.2: A = the first sample of a window, B = 1; for each of the next
 * W - 1 samples, if equal to A, B += 1; the window fails when B reaches C.
 */
bool ref_apt_block(struct ref_apt *a, const uint8_t *block, unsigned int sample_bits)
{
	bool fail = false;

	for (unsigned int i = 0; i < samples_in(sample_bits); i++) {
		unsigned int x = sample_at(block, sample_bits, i);

		if (a->seen == 0) {
			a->a = x;
			a->b = 1;
			if (a->b == a->cutoff)
				fail = true;
		} else if (x == a->a) {
			a->b++;
			if (a->b == a->cutoff)
				fail = true;
		}
		a->seen++;
		if (a->seen == a->window)
			a->seen = 0;
	}
	return fail;
}
