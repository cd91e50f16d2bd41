/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate: FIPS 140-2 block tests, the continuous test, a repeated-block
 * test and the SP 800-90B continuous health tests. No I/O, no global
 * state: everything lives in a struct fips_gate owned by the caller.
 *
 * Functions that can fail return a negative errno; -EINVAL for parameters
 * outside their documented range. Nothing here logs.
 */
#ifndef RNGD_FIPS_H
#define RNGD_FIPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FIPS 140-2 section 4.9.1: every test looks at one 20000-bit block. */
#define FIPS_BLOCK_BITS 20000
#define FIPS_BLOCK_BYTES (FIPS_BLOCK_BITS / 8)
/* rngtest seeds the continuous test with the first 32 bits of input. */
#define FIPS_SEED_BYTES 4
/* Run lengths 1..5 are counted one by one, 6 and more share a bucket. */
#define FIPS_RUN_BUCKETS 6
/* The repeated-block test remembers this many previous blocks. */
#define FIPS_REPEAT_HISTORY 64
/* Its lagged half (fips/lagged.c): anchor keys kept in FIPS_LAGGED_GENS
 * generations of FIPS_LAGGED_GEN_BLOCKS blocks, FIPS_LAGGED_SLOTS keys
 * each; a block fails at FIPS_LAGGED_MIN_HITS hits. */
#define FIPS_LAGGED_GENS 4
#define FIPS_LAGGED_GEN_BLOCKS 12
#define FIPS_LAGGED_MAX_ANCHORS 64
#define FIPS_LAGGED_SLOTS 1024
#define FIPS_LAGGED_MIN_HITS 4

enum fips_test {
	FIPS_TEST_MONOBIT,
	FIPS_TEST_POKER,
	FIPS_TEST_RUNS,
	FIPS_TEST_LONG_RUN,
	FIPS_TEST_CONTINUOUS,
	FIPS_TEST_REPEAT_BLOCK,   /* ours: block equal to one of the last 64, or
				   * repeating bytes of the last 36+ at any offset */
	FIPS_TEST_SP800_RCT,      /* SP 800-90B 4.4.1 repetition count */
	FIPS_TEST_SP800_APT,      /* SP 800-90B 4.4.2 adaptive proportion */
	FIPS_TEST_MAX,
	FIPS_TEST_INVALID = -22,  /* -EINVAL */
};

#define FIPS_FAIL_BIT(t) (1u << (t))

/* Short stable name ("monobit", "long-run", ...) or NULL if out of range. */
const char *fips_test_name(enum fips_test t);

/* ---- pure block statistics (stateless) ---------------------------- */

/* What the four FIPS 140-2 block tests measure in one block. */
struct fips_block_stats {
	uint32_t ones;                          /* monobit */
	uint32_t poker_sum;                     /* sum of f(i)^2 over 16 nibble values */
	uint32_t runs[2][FIPS_RUN_BUCKETS];     /* [bit value][length-1], 6+ in [5] */
	uint32_t longest_run;                   /* of either bit value */
};

/* Fill @st for one 2500-byte block (bits MSB first; runs restart at the block). */
void fips_block_stats(const uint8_t block[FIPS_BLOCK_BYTES],
		      struct fips_block_stats *st);

/* The edge rules, exactly as rng-tools-debian 2.x decides them. */
bool fips_monobit_ok(uint32_t ones);
bool fips_poker_ok(uint32_t poker_sum);
bool fips_runs_ok(const uint32_t runs[2][FIPS_RUN_BUCKETS]);
bool fips_long_run_ok(uint32_t longest_run);

/* Mask of FIPS_FAIL_BIT() among monobit, poker, runs and long run. */
unsigned int fips_block_verdict(const struct fips_block_stats *st);

/* ---- SP 800-90B cut-offs --------------------------------------------- */

/* The smallest alpha exponent: below 2^-1024 the tail sums would need
 * more range than is sensible. */
#define SP800_90B_ALPHA_LOG2_MIN (-1024.0)

/*
 * Repetition Count Test cut-off C = 1 + ceil(-log2(alpha) / H).
 * @h: claimed min-entropy per sample, 0 < h <= sample bits.
 * @alpha_log2: log2 of the false-positive probability, e.g. -30.
 * Returns C, or -EINVAL.
 */
int sp800_90b_rct_cutoff(double h, double alpha_log2);

/*
 * Adaptive Proportion Test cut-off: the smallest C with
 * P(Binomial(W, 2^-H) >= C) <= alpha, W = 1024 for 1-bit samples and 512
 * otherwise (the first sample of the window counts, as in 90B 4.4.2).
 * Returns C, or -EINVAL.
 */
int sp800_90b_apt_cutoff(unsigned int sample_bits, double h, double alpha_log2);
unsigned int sp800_90b_apt_window(unsigned int sample_bits);

/* ---- the stateful gate ---------------------------------------------- */

struct fips_gate_config {
	bool continuous;          /* FIPS 140-2 continuous test (default on) */
	bool repeat_block;        /* repeated-block test (default on) */
	bool sp800_90b;           /* RCT + APT (default on in the daemon) */
	unsigned int sample_bits; /* 1 or 8 */
	double min_entropy;       /* H per sample */
	double alpha_log2;        /* default -30 */
	bool lagged_repeat;       /* the repeated-block test's lagged half,
				   * fips/lagged.c (default on; only with
				   * repeat_block) */
};

/* Defaults: continuous and repeat (both halves) on, SP 800-90B on, 8-bit samples, H=6, alpha 2^-30. */
void fips_gate_config_default(struct fips_gate_config *cfg);

struct fips_counters {
	uint64_t blocks;
	uint64_t passed;
	uint64_t failed;
	uint64_t failures[FIPS_TEST_MAX];  /* blocks failing each test */
};

struct fips_repeat_history {
	uint64_t hash[FIPS_REPEAT_HISTORY];   /* digests only (fips/repeat.c) */
	unsigned int next;
	unsigned int used;
};

struct fips_lagged_history {
	uint32_t slot[FIPS_LAGGED_GENS][FIPS_LAGGED_SLOTS]; /* keys, 0: empty (fips/lagged.c) */
	unsigned int current;                 /* the generation being filled */
	unsigned int blocks;                  /* blocks in it so far */
};

struct fips_gate {
	struct fips_gate_config cfg;
	bool have_last_word;
	uint32_t last_word;
	/* SP 800-90B state */
	int rct_cutoff;
	int apt_cutoff;
	unsigned int rct_value, rct_count;
	unsigned int apt_value, apt_count, apt_seen;
	struct fips_repeat_history *history; /* NULL when repeat_block is off */
	struct fips_lagged_history *lagged;  /* from the first block checked, with
					      * repeat_block and lagged_repeat */
	struct fips_counters counters;
};

/* Returns 0 or -EINVAL (bad config) / -ENOMEM. */
int fips_gate_init(struct fips_gate *g, const struct fips_gate_config *cfg);
/* Forget all history (a new device behind the same source), keep counters. */
void fips_gate_reset(struct fips_gate *g);
/* Wipe and free. */
void fips_gate_destroy(struct fips_gate *g);

/* Seed the continuous test with a 32-bit word (read little-endian). */
void fips_gate_seed(struct fips_gate *g, const uint8_t seed[FIPS_SEED_BYTES]);

/*
 * Test one block. Returns the mask of failed tests (0: the block passes)
 * and updates g->counters. The continuous test compares each little-endian
 * 32-bit word with the previous one, across blocks; the first word ever is
 * only remembered unless fips_gate_seed() was called.
 *
 * Every block checked enters the repeated-block history, passing or not:
 * a block fails it when it equals one of the last 64 blocks, or when it
 * repeats, at any offset, stretches of its own bytes or of the last 36 to
 * 47 blocks' (a source stuck on a buffer of any length up to 90 kB).
 * RCT and APT run on across blocks; a failure is reported for the block
 * holding the sample at which it happened: the RCT at every sample that
 * makes B >= C (so a stuck source fails every block), the APT once per
 * window, where B reaches C.
 */
unsigned int fips_gate_check(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES]);

#endif /* RNGD_FIPS_H */
