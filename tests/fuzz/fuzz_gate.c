/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness: the gate (fips/) three ways on the same byte stream.
 *
 *   whole:     one pass, every block checked straight from the input buffer
 *              (unaligned pointers, as a caller may pass them);
 *   chunked:   the stream cut into chunks of fuzzer-chosen sizes (1 byte to
 *              three blocks) and put together into blocks the way rngd's
 *              reader does, each block checked from its own buffer;
 *   reference: tests/reference/, bit by bit from the standards' wording.
 *
 * The per-block failure masks and the final counters must be identical,
 * and the block statistics must equal the reference's.
 *
 * Input: byte 0 picks the configuration (sample size, which tests, H),
 * byte 1 seeds the chunk sizes, byte 2 bit 0 says whether the first 4
 * bytes seed the continuous test (as rngd and rngtest do), bit 1 whether
 * the data are whitened with a fixed keystream (so that most blocks pass
 * and the stateful tests see long passing histories); the rest is data.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips/fips.h"
#include "tests/lib/splitmix64.h"
#include "tests/reference/fips_reference.h"

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "fuzz_gate: " __VA_ARGS__);         \
			fprintf(stderr, "\n");                              \
			abort();                                            \
		}                                                           \
	} while (0)

#define MAX_BLOCKS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double entropies[8] = { 0.5, 1.0, 2.0, 4.0, 6.0, 7.5, 8.0, 0.25 };

struct reference_gate {
	struct ref_continuous cont;
	struct ref_repeat rep;
	struct ref_rct rct;
	struct ref_apt apt;
};

static unsigned int reference_mask(struct reference_gate *r, const struct fips_gate_config *cfg,
				   const uint8_t *b, const struct fips_block_stats *fast_stats)
{
	struct ref_stats st;
	struct ref_verdict v;
	unsigned int mask = 0;

	ref_stats(b, &st);
	CHECK(st.ones == fast_stats->ones && st.poker_sum == fast_stats->poker_sum &&
	      st.longest_run == fast_stats->longest_run &&
	      memcmp(st.runs, fast_stats->runs, sizeof(st.runs)) == 0,
	      "block statistics differ from the reference");
	v = ref_verdict(&st);
	mask |= v.monobit ? 0 : FIPS_FAIL_BIT(FIPS_TEST_MONOBIT);
	mask |= v.poker ? 0 : FIPS_FAIL_BIT(FIPS_TEST_POKER);
	mask |= v.runs ? 0 : FIPS_FAIL_BIT(FIPS_TEST_RUNS);
	mask |= v.long_run ? 0 : FIPS_FAIL_BIT(FIPS_TEST_LONG_RUN);
	if (cfg->continuous && ref_continuous(&r->cont, b))
		mask |= FIPS_FAIL_BIT(FIPS_TEST_CONTINUOUS);
	if (cfg->repeat_block && ref_repeat(&r->rep, b))
		mask |= FIPS_FAIL_BIT(FIPS_TEST_REPEAT_BLOCK);
	if (cfg->sp800_90b) {
		if (ref_rct_block(&r->rct, b, cfg->sample_bits))
			mask |= FIPS_FAIL_BIT(FIPS_TEST_SP800_RCT);
		if (ref_apt_block(&r->apt, b, cfg->sample_bits))
			mask |= FIPS_FAIL_BIT(FIPS_TEST_SP800_APT);
	}
	return mask;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct reference_gate ref;
	static uint8_t stream[MAX_BLOCKS * FIPS_BLOCK_BYTES + FIPS_SEED_BYTES];
	struct fips_gate_config cfg;
	struct fips_gate whole, chunked;
	unsigned int whole_masks[MAX_BLOCKS], chunk_masks[MAX_BLOCKS];
	uint8_t assembled[FIPS_BLOCK_BYTES];
	size_t have = 0, nblocks = 0, nchunked = 0, len, off;
	uint64_t chunk_state, key = 0x5eed;
	bool seeded, whiten;
	const uint8_t *s;

	if (size < 3)
		return 0;
	fips_gate_config_default(&cfg);
	cfg.sample_bits = (data[0] & 1) ? 1 : 8;
	cfg.continuous = data[0] & 2;
	cfg.repeat_block = data[0] & 4;
	/* Its lagged half has no reference here (test_fips_gate has its cases). */
	cfg.lagged_repeat = false;
	cfg.sp800_90b = data[0] & 8;
	cfg.min_entropy = entropies[(data[0] >> 4) & 7];
	cfg.alpha_log2 = (data[0] & 0x80) ? -20.0 : -30.0;
	if (cfg.min_entropy > cfg.sample_bits)
		cfg.min_entropy = cfg.sample_bits;
	chunk_state = data[1];
	seeded = data[2] & 1;
	whiten = data[2] & 2;
	len = size - 3;
	if (len > sizeof(stream))
		len = sizeof(stream);
	memcpy(stream, data + 3, len);
	if (whiten)
		for (size_t i = 0; i < len; i++)
			stream[i] ^= (uint8_t)test_splitmix64(&key);

	CHECK(fips_gate_init(&whole, &cfg) == 0, "fips_gate_init rejected a valid config");
	CHECK(fips_gate_init(&chunked, &cfg) == 0, "fips_gate_init rejected a valid config");
	memset(&ref, 0, sizeof(ref));
	ref.rct.cutoff = (uint64_t)whole.rct_cutoff;
	ref.apt.cutoff = (uint64_t)whole.apt_cutoff;
	ref.apt.window = sp800_90b_apt_window(cfg.sample_bits);

	/* Whole buffer, and the reference beside it. */
	s = stream;
	off = 0;
	if (seeded && len >= FIPS_SEED_BYTES) {
		fips_gate_seed(&whole, s);
		ref.cont.have_previous = true;
		ref.cont.previous = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 |
				    (uint32_t)s[3] << 24;
		off = FIPS_SEED_BYTES;
	}
	for (; off + FIPS_BLOCK_BYTES <= len; off += FIPS_BLOCK_BYTES) {
		struct fips_block_stats st;
		unsigned int ref_mask;

		fips_block_stats(s + off, &st);
		whole_masks[nblocks] = fips_gate_check(&whole, s + off);
		ref_mask = reference_mask(&ref, &cfg, s + off, &st);
		CHECK(whole_masks[nblocks] == ref_mask, "block %zu: gate fails 0x%x, reference 0x%x",
		      nblocks, whole_masks[nblocks], ref_mask);
		nblocks++;
	}

	/* The same bytes in fuzzer-chosen chunks through a block assembler. */
	off = 0;
	if (seeded && len >= FIPS_SEED_BYTES) {
		uint8_t seed[FIPS_SEED_BYTES];

		memcpy(seed, s, sizeof(seed));
		fips_gate_seed(&chunked, seed);
		off = FIPS_SEED_BYTES;
	}
	while (off < len) {
		size_t chunk = 1 + test_splitmix64(&chunk_state) % (3 * FIPS_BLOCK_BYTES);

		if (chunk > len - off)
			chunk = len - off;
		while (chunk > 0) {
			size_t take = FIPS_BLOCK_BYTES - have < chunk ? FIPS_BLOCK_BYTES - have : chunk;

			memcpy(assembled + have, s + off, take);
			have += take;
			off += take;
			chunk -= take;
			if (have == FIPS_BLOCK_BYTES) {
				CHECK(nchunked < nblocks, "chunked stream made more blocks");
				chunk_masks[nchunked] = fips_gate_check(&chunked, assembled);
				CHECK(chunk_masks[nchunked] == whole_masks[nchunked],
				      "block %zu: chunked 0x%x, whole 0x%x", nchunked,
				      chunk_masks[nchunked], whole_masks[nchunked]);
				nchunked++;
				have = 0;
			}
		}
	}
	CHECK(nchunked == nblocks, "chunked %zu blocks, whole %zu", nchunked, nblocks);
	CHECK(memcmp(&whole.counters, &chunked.counters, sizeof(whole.counters)) == 0,
	      "counters differ between whole and chunked");
	CHECK(whole.counters.blocks == nblocks &&
	      whole.counters.passed + whole.counters.failed == nblocks, "counters do not add up");
	for (unsigned int t = 0; t < FIPS_TEST_MAX; t++) {
		uint64_t n = 0;

		for (size_t i = 0; i < nblocks; i++)
			n += (whole_masks[i] >> t) & 1;
		CHECK(whole.counters.failures[t] == n, "failures[%s] %llu, masks say %llu",
		      fips_test_name(t), (unsigned long long)whole.counters.failures[t],
		      (unsigned long long)n);
	}
	fips_gate_destroy(&whole);
	fips_gate_destroy(&chunked);
	return 0;
}
