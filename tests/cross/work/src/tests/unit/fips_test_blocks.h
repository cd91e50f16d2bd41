/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deterministic test blocks for the gate's tests: seeded random and biased
 * blocks, planted runs, and blocks built to sit exactly on a FIPS 140-2
 * edge while passing every other test. Built and checked with the
 * reference implementation (tests/reference), never with fips/.
 */
#ifndef RNGD_FIPS_TEST_BLOCKS_H
#define RNGD_FIPS_TEST_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#define TB_BLOCK_BITS 20000
#define TB_BLOCK_BYTES 2500

struct tb_rng {
	uint64_t state;
};

void tb_seed(struct tb_rng *r, uint64_t seed);
uint64_t tb_next(struct tb_rng *r);
/* Uniform in [0, n). */
uint32_t tb_below(struct tb_rng *r, uint32_t n);

unsigned int tb_get_bit(const uint8_t *block, uint32_t i);
void tb_set_bit(uint8_t *block, uint32_t i, unsigned int value);
void tb_flip_bit(uint8_t *block, uint32_t i);

void tb_random_block(uint8_t *block, struct tb_rng *r);
/* Each bit is 1 with probability p (to 1/65536). */
void tb_biased_block(uint8_t *block, struct tb_rng *r, double p);
/* Bits [pos, pos + len) become @value, their neighbours (if any) !@value. */
void tb_plant_run(uint8_t *block, uint32_t pos, uint32_t len, unsigned int value);

/* True when the reference passes every FIPS 140-2 block test except
 * those in @ignore (1: monobit, 2: poker, 4: runs, 8: long run). */
#define TB_MONOBIT 1u
#define TB_POKER 2u
#define TB_RUNS 4u
#define TB_LONG_RUN 8u
unsigned int tb_reference_failures(const uint8_t *block);

/* A random block passing everything. */
void tb_passing_block(uint8_t *block, struct tb_rng *r);

/*
 * Builders: return 0 with the block written, -1 if no block was found
 * (a bug in the builder: the tests fail then). Every other FIPS test
 * passes on the result.
 */
int tb_monobit_block(uint8_t *block, struct tb_rng *r, uint32_t ones);
/*
 * Poker sum exactly @sum (even, as every sum of f(i)^2 over 5000 nibbles
 * is). With @raise_by_flip, flipping the last bit of some nibble 0000
 * raises the sum by 2, else it lowers it by 2; *flip_at receives the bit.
 */
int tb_poker_block(uint8_t *block, struct tb_rng *r, uint32_t sum,
		   bool raise_by_flip, uint32_t *flip_at);
/* runs[value][bucket] exactly @count (bucket 0..5 for 1..5, 6+). */
int tb_runs_block(uint8_t *block, struct tb_rng *r, unsigned int value,
		  unsigned int bucket, uint32_t count);

#endif
