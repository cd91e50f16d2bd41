/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pieces of the gate that fips/gate.c puts together. Not part of the
 * public interface (fips/fips.h); the unit tests use them directly.
 */
#ifndef RNGD_FIPS_INTERNAL_H
#define RNGD_FIPS_INTERNAL_H

#include "fips/fips.h"

/*
 * Hot functions are compiled once per x86-64 micro-architecture level and
 * picked at load time: at the x86-64 baseline __builtin_popcountll is a
 * library call, which would make the word-parallel tests several times
 * slower on every distribution build.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define FIPS_HOT __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "popcnt", "default")))
#else
#define FIPS_HOT
#endif

/* ---- continuous.c ---------------------------------------------------- */

/*
 * FIPS 140-2 continuous test over one block's 625 little-endian words.
 * Returns true when some word equals the one before it; updates the
 * remembered last word.
 */
bool fips_continuous_block(bool *have_last, uint32_t *last,
			   const uint8_t block[FIPS_BLOCK_BYTES]);

/* ---- repeat.c -------------------------------------------------------- */

uint64_t fips_block_hash(const uint8_t block[FIPS_BLOCK_BYTES]);
/* True when @block equals one of the remembered blocks; then remembers it. */
bool fips_repeat_block(struct fips_repeat_history *h,
		       const uint8_t block[FIPS_BLOCK_BYTES]);
void fips_repeat_forget(struct fips_repeat_history *h);

/* ---- lagged.c -------------------------------------------------------- */

/* True when @block repeats stretches of the remembered blocks' bytes at
 * any offset; then remembers the block. */
bool fips_lagged_repeat(struct fips_lagged_history *h, const uint8_t block[FIPS_BLOCK_BYTES]);
void fips_lagged_forget(struct fips_lagged_history *h);

/* ---- rct.c / apt.c: SP 800-90B 4.4 on one block ---------------------- */

/*
 * Repetition Count Test over the block's samples (1-bit samples use
 * @st, which must be the block's statistics). Returns true when the count
 * of identical consecutive samples reached the cut-off inside this block.
 */
bool sp800_90b_rct_block(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES],
			 const struct fips_block_stats *st);
/* Adaptive Proportion Test: true when a window reached its cut-off here. */
bool sp800_90b_apt_block(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES]);

/* Ones among bits [first, first + count) of the block, bits MSB first. */
uint32_t fips_count_ones(const uint8_t block[FIPS_BLOCK_BYTES],
			 uint32_t first, uint32_t count);

/* ---- logmath.c: log and exp without libm (for sp800_90b.c) ----------- */

#define FIPS_LN2L 0.693147180559945309417232121458176568L

long double fips_logl(long double x);
long double fips_log1pl(long double x);
long double fips_expl(long double x);
long double fips_expm1l(long double x);

#endif /* RNGD_FIPS_INTERNAL_H */
