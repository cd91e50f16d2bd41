/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A slow, obviously-correct FIPS 140-2 / SP 800-90B reference, written bit
 * by bit from the standards' wording. It shares no code with fips/: the
 * differential test and the unit tests compare the two.
 */
#ifndef RNGD_FIPS_REFERENCE_H
#define RNGD_FIPS_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#define REF_BLOCK_BITS 20000
#define REF_BLOCK_BYTES 2500

struct ref_stats {
	uint32_t ones;
	uint32_t poker_sum;       /* sum over i of f(i)^2 */
	uint32_t runs[2][6];      /* [bit][length 1..5, 6 and more] */
	uint32_t longest_run;
};

struct ref_verdict {
	bool monobit, poker, runs, long_run;   /* true: passed */
};

void ref_stats(const uint8_t *block, struct ref_stats *st);
struct ref_verdict ref_verdict(const struct ref_stats *st);

/* Continuous test: previous 32-bit word, across blocks. */
struct ref_continuous {
	bool have_previous;
	uint32_t previous;
};
/* True when the block fails. */
bool ref_continuous(struct ref_continuous *c, const uint8_t *block);

/* Repeated-block test over the last 64 blocks. */
struct ref_repeat {
	uint8_t blocks[64][REF_BLOCK_BYTES];
	unsigned int count;     /* blocks seen so far */
};
bool ref_repeat(struct ref_repeat *r, const uint8_t *block);

/* SP 800-90B 4.4.1 and 4.4.2, one sample at a time. */
struct ref_rct {
	bool have_a;
	unsigned int a;
	uint64_t b;
	uint64_t cutoff;
};
struct ref_apt {
	uint64_t window, cutoff;
	uint64_t seen;          /* samples of the current window so far */
	unsigned int a;
	uint64_t b;
};
/* Each returns true when this block holds a sample that signals a failure. */
bool ref_rct_block(struct ref_rct *r, const uint8_t *block, unsigned int sample_bits);
bool ref_apt_block(struct ref_apt *a, const uint8_t *block, unsigned int sample_bits);

#endif
