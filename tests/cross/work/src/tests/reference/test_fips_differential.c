/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test: the fast gate (fips/) against the bit-by-bit
 * reference (tests/reference/fips_reference.c) on a seeded stream of
 * random, biased, planted-long-run, interval-edge, repeated and sticky
 * blocks. Every block's statistics and every verdict must be identical,
 * and every test must have been seen both passing and failing.
 *
 * Usage: test_fips_differential [BLOCKS [SEED]]   (default 10000 blocks)
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips/fips.h"
#include "tests/reference/fips_reference.h"
#include "tests/unit/fips_test_blocks.h"

#define RECENT 80

struct checked_gate {
	const char *name;
	struct fips_gate_config cfg;
	struct fips_gate gate;
	struct ref_continuous cont;
	struct ref_repeat *rep;
	struct ref_rct rct;
	struct ref_apt apt;
};

enum block_kind {
	KIND_RANDOM, KIND_BIASED, KIND_PLANTED, KIND_MONOBIT_EDGE, KIND_BUILT_EDGE,
	KIND_REPEAT, KIND_STICKY, KIND_WORD_REPEAT, KIND_SPARSE, KIND_SHORT_RUNS,
	KIND_MAX
};

static const char *const kind_names[KIND_MAX] = {
	"random", "biased", "planted-run", "monobit-edge", "built-edge",
	"repeat", "sticky", "word-repeat", "sparse", "short-runs",
};

static const double biases[] = { 0.3, 0.45, 0.48, 0.49, 0.495, 0.5, 0.505, 0.51, 0.52, 0.55, 0.7 };
static const uint32_t monobit_edges[] = { 9724, 9725, 9726, 9727, 10273, 10274, 10275, 10276 };
static const uint32_t runs_lo[6] = { 2315, 1114, 527, 240, 103, 103 };
static const uint32_t runs_hi[6] = { 2685, 1386, 723, 384, 209, 209 };

static void short_runs_block(uint8_t *b, struct tb_rng *r)
{
	unsigned int v = tb_below(r, 2), max = 5 + tb_below(r, 4);   /* 5..8 */
	uint32_t i = 0;

	while (i < TB_BLOCK_BITS) {
		uint32_t len = 1 + tb_below(r, max);

		for (uint32_t j = 0; j < len && i < TB_BLOCK_BITS; j++)
			tb_set_bit(b, i++, v);
		v = !v;
	}
}

static void make_block(uint8_t *b, enum block_kind kind, struct tb_rng *r,
		       uint8_t recent[RECENT][TB_BLOCK_BYTES], uint64_t made)
{
	switch (kind) {
	case KIND_RANDOM:
		tb_random_block(b, r);
		break;
	case KIND_BIASED:
		tb_biased_block(b, r, biases[tb_below(r, sizeof(biases) / sizeof(biases[0]))]);
		break;
	case KIND_PLANTED: {
		unsigned int n = 1 + tb_below(r, 3);

		tb_random_block(b, r);
		for (unsigned int k = 0; k < n; k++) {
			uint32_t len = 20 + tb_below(r, 11);
			uint32_t where = tb_below(r, 4);
			uint32_t pos = where == 0 ? 0 : where == 1 ? TB_BLOCK_BITS - len :
				       tb_below(r, TB_BLOCK_BITS - len);

			tb_plant_run(b, pos, len, tb_below(r, 2));
		}
		break;
	}
	case KIND_MONOBIT_EDGE: {
		uint32_t target = monobit_edges[tb_below(r, 8)], ones = 0;

		tb_random_block(b, r);
		for (uint32_t i = 0; i < TB_BLOCK_BITS; i++)
			ones += tb_get_bit(b, i);
		while (ones != target) {
			uint32_t i = tb_below(r, TB_BLOCK_BITS);
			unsigned int want = ones < target;

			if (tb_get_bit(b, i) != want) {
				tb_set_bit(b, i, want);
				ones += want ? 1 : (uint32_t)-1;
			}
		}
		break;
	}
	case KIND_BUILT_EDGE: {
		unsigned int which = tb_below(r, 13);
		uint32_t flip;
		bool raise = tb_below(r, 2);

		if (which < 12) {
			unsigned int k = which % 6, side = tb_below(r, 4);
			uint32_t count = side == 0 ? runs_lo[k] - 1 : side == 1 ? runs_lo[k] :
					 side == 2 ? runs_hi[k] : runs_hi[k] + 1;

			if (tb_runs_block(b, r, which / 6, k, count) == 0)
				break;
		} else if (tb_poker_block(b, r, raise ? 1576928 : 1563176, raise, &flip) == 0) {
			if (tb_below(r, 2))
				tb_flip_bit(b, flip);
			break;
		}
		fprintf(stderr, "differential: the edge block builder failed\n");
		exit(1);
	}
	case KIND_REPEAT:
		if (made == 0) {
			tb_random_block(b, r);
		} else {
			uint32_t back = 1 + tb_below(r, made < RECENT ? (uint32_t)made : RECENT);

			memcpy(b, recent[(made - back) % RECENT], TB_BLOCK_BYTES);
		}
		break;
	case KIND_STICKY: {
		unsigned int n = 1 + tb_below(r, 4);

		tb_random_block(b, r);
		for (unsigned int k = 0; k < n; k++) {
			uint32_t len = 2 + tb_below(r, 20), pos = tb_below(r, TB_BLOCK_BYTES);

			if (tb_below(r, 4) == 0)
				pos = tb_below(r, 2) ? 0 : TB_BLOCK_BYTES - 1;
			for (uint32_t i = pos; i < pos + len && i < TB_BLOCK_BYTES; i++)
				b[i] = b[pos];
		}
		break;
	}
	case KIND_WORD_REPEAT: {
		uint32_t w = tb_below(r, TB_BLOCK_BYTES / 4);

		tb_random_block(b, r);
		if (w == 0 && made > 0)
			memcpy(b, recent[(made - 1) % RECENT] + TB_BLOCK_BYTES - 4, 4);
		else if (w > 0)
			memcpy(b + 4 * w, b + 4 * (w - 1), 4);
		break;
	}
	case KIND_SPARSE:
		tb_biased_block(b, r, tb_below(r, 2) ? 0.02 : 0.98);
		if (tb_below(r, 8) == 0)
			memset(b, tb_below(r, 2) ? 0xff : 0, TB_BLOCK_BYTES);
		break;
	case KIND_SHORT_RUNS:
		short_runs_block(b, r);
		break;
	case KIND_MAX:
		break;
	}
}

static unsigned int reference_mask(struct checked_gate *c, const uint8_t *b,
				   const struct ref_verdict *v)
{
	unsigned int mask = 0;

	mask |= v->monobit ? 0 : FIPS_FAIL_BIT(FIPS_TEST_MONOBIT);
	mask |= v->poker ? 0 : FIPS_FAIL_BIT(FIPS_TEST_POKER);
	mask |= v->runs ? 0 : FIPS_FAIL_BIT(FIPS_TEST_RUNS);
	mask |= v->long_run ? 0 : FIPS_FAIL_BIT(FIPS_TEST_LONG_RUN);
	if (c->cfg.continuous && ref_continuous(&c->cont, b))
		mask |= FIPS_FAIL_BIT(FIPS_TEST_CONTINUOUS);
	if (c->cfg.repeat_block && ref_repeat(c->rep, b))
		mask |= FIPS_FAIL_BIT(FIPS_TEST_REPEAT_BLOCK);
	if (c->cfg.sp800_90b) {
		if (ref_rct_block(&c->rct, b, c->cfg.sample_bits))
			mask |= FIPS_FAIL_BIT(FIPS_TEST_SP800_RCT);
		if (ref_apt_block(&c->apt, b, c->cfg.sample_bits))
			mask |= FIPS_FAIL_BIT(FIPS_TEST_SP800_APT);
	}
	return mask;
}

static bool same_stats(const struct fips_block_stats *f, const struct ref_stats *r)
{
	return f->ones == r->ones && f->poker_sum == r->poker_sum &&
	       f->longest_run == r->longest_run &&
	       memcmp(f->runs, r->runs, sizeof(f->runs)) == 0;
}

static void print_stats(const char *who, uint32_t ones, uint32_t poker,
			const uint32_t runs[2][6], uint32_t longest)
{
	fprintf(stderr, "  %s: ones %u poker %u longest %u runs0", who, ones, poker, longest);
	for (int k = 0; k < 6; k++)
		fprintf(stderr, " %u", runs[0][k]);
	fprintf(stderr, " runs1");
	for (int k = 0; k < 6; k++)
		fprintf(stderr, " %u", runs[1][k]);
	fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
	uint64_t blocks = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20011010;
	struct checked_gate gates[] = {
		{ .name = "bits H=1 alpha=2^-20",
		  .cfg = { true, true, true, 1, 1.0, -20.0 } },
		{ .name = "bytes H=8 alpha=2^-20",
		  .cfg = { true, true, true, 8, 8.0, -20.0 } },
		{ .name = "bytes H=0.5 alpha=2^-30 (no repeat)",
		  .cfg = { true, false, true, 8, 0.5, -30.0 } },
	};
	const size_t ngates = sizeof(gates) / sizeof(gates[0]);
	uint64_t failed[FIPS_TEST_MAX] = { 0 }, kinds[KIND_MAX] = { 0 };
	static uint8_t recent[RECENT][TB_BLOCK_BYTES];
	uint8_t block[TB_BLOCK_BYTES];
	struct tb_rng rng;
	int status = 0;

	if (blocks == 0) {
		fprintf(stderr, "usage: %s [BLOCKS [SEED]]\n", argv[0]);
		return 2;
	}
	tb_seed(&rng, seed);
	for (size_t g = 0; g < ngates; g++) {
		int r = fips_gate_init(&gates[g].gate, &gates[g].cfg);

		if (r < 0) {
			fprintf(stderr, "differential: fips_gate_init(%s): %d\n", gates[g].name, r);
			return 1;
		}
		gates[g].rep = calloc(1, sizeof(*gates[g].rep));
		if (!gates[g].rep)
			return 1;
		gates[g].rct.cutoff = (uint64_t)gates[g].gate.rct_cutoff;
		gates[g].apt.cutoff = (uint64_t)gates[g].gate.apt_cutoff;
		gates[g].apt.window = sp800_90b_apt_window(gates[g].cfg.sample_bits);
	}

	for (uint64_t i = 0; i < blocks && status == 0; i++) {
		enum block_kind kind = (enum block_kind)tb_below(&rng, KIND_MAX);
		struct fips_block_stats fs;
		struct ref_stats rs;
		struct ref_verdict rv;

		make_block(block, kind, &rng, recent, i);
		memcpy(recent[i % RECENT], block, TB_BLOCK_BYTES);
		kinds[kind]++;
		fips_block_stats(block, &fs);
		ref_stats(block, &rs);
		rv = ref_verdict(&rs);
		if (!same_stats(&fs, &rs)) {
			fprintf(stderr, "differential: block %" PRIu64 " (%s): statistics differ\n",
				i, kind_names[kind]);
			print_stats("fast", fs.ones, fs.poker_sum, fs.runs, fs.longest_run);
			print_stats("reference", rs.ones, rs.poker_sum, rs.runs, rs.longest_run);
			status = 1;
		}
		for (size_t g = 0; g < ngates; g++) {
			unsigned int fast = fips_gate_check(&gates[g].gate, block);
			unsigned int ref = reference_mask(&gates[g], block, &rv);

			if (fast != ref) {
				fprintf(stderr, "differential: block %" PRIu64 " (%s), gate %s: fast fails 0x%x, reference 0x%x\n",
					i, kind_names[kind], gates[g].name, fast, ref);
				status = 1;
			}
			for (unsigned int t = 0; t < FIPS_TEST_MAX; t++)
				failed[t] += (fast >> t) & 1;
		}
	}

	for (unsigned int t = 0; t < FIPS_TEST_MAX && status == 0; t++) {
		if (failed[t] == 0 || failed[t] == blocks * ngates) {
			fprintf(stderr, "differential: %s never %s: the stream does not exercise it\n",
				fips_test_name(t), failed[t] ? "passed" : "failed");
			status = 1;
		}
	}
	printf("differential: %" PRIu64 " blocks x %zu gates, seed %" PRIu64 ": %s\n",
	       blocks, ngates, seed, status ? "MISMATCH" : "identical");
	for (unsigned int k = 0; k < KIND_MAX; k++)
		printf("  %-13s %" PRIu64 " blocks\n", kind_names[k], kinds[k]);
	for (unsigned int t = 0; t < FIPS_TEST_MAX; t++)
		printf("  %-15s failed %" PRIu64 " times\n", fips_test_name(t), failed[t]);
	for (size_t g = 0; g < ngates; g++) {
		fips_gate_destroy(&gates[g].gate);
		free(gates[g].rep);
	}
	return status;
}
