/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stateful gate: one per source. Puts the block statistics, the
 * continuous test, the repeated-block test and the SP 800-90B health tests
 * together and keeps the counters.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fips/byte_load.h"
#include "fips/internal.h"

#define DEFAULT_SAMPLE_BITS 8
#define DEFAULT_MIN_ENTROPY 6.0
#define DEFAULT_ALPHA_LOG2 (-30.0)

void fips_gate_config_default(struct fips_gate_config *cfg)
{
	*cfg = (struct fips_gate_config){
		.continuous = true,
		.repeat_block = true,
		.lagged_repeat = true,
		.sp800_90b = true,
		.sample_bits = DEFAULT_SAMPLE_BITS,
		.min_entropy = DEFAULT_MIN_ENTROPY,
		.alpha_log2 = DEFAULT_ALPHA_LOG2,
	};
}

static void forget_health_state(struct fips_gate *g)
{
	g->have_last_word = false;
	g->last_word = 0;
	g->rct_value = g->rct_count = 0;
	g->apt_value = g->apt_count = g->apt_seen = 0;
}

int fips_gate_init(struct fips_gate *g, const struct fips_gate_config *cfg)
{
	memset(g, 0, sizeof(*g));
	if (cfg->sample_bits != 1 && cfg->sample_bits != 8)
		return -EINVAL;
	if (cfg->sp800_90b) {
		int rct = sp800_90b_rct_cutoff(cfg->min_entropy, cfg->alpha_log2);
		int apt = sp800_90b_apt_cutoff(cfg->sample_bits, cfg->min_entropy,
					       cfg->alpha_log2);

		if (rct < 0 || apt < 0 || cfg->min_entropy > cfg->sample_bits)
			return -EINVAL;
		g->rct_cutoff = rct;
		g->apt_cutoff = apt;
	}
	if (cfg->repeat_block) {
		g->history = calloc(1, sizeof(*g->history));
		if (!g->history)
			return -ENOMEM;
	}
	g->cfg = *cfg;
	return 0;
}

void fips_gate_reset(struct fips_gate *g)
{
	forget_health_state(g);
	if (g->history)
		fips_repeat_forget(g->history);
	if (g->lagged)
		fips_lagged_forget(g->lagged);
}

void fips_gate_destroy(struct fips_gate *g)
{
	if (g->history) {
		fips_repeat_forget(g->history);
		free(g->history);
	}
	if (g->lagged) {
		fips_lagged_forget(g->lagged);
		free(g->lagged);
	}
	explicit_bzero(g, sizeof(*g));
}

_Static_assert(FIPS_SEED_BYTES == sizeof(uint32_t), "the seed is one continuous-test word");

void fips_gate_seed(struct fips_gate *g, const uint8_t seed[FIPS_SEED_BYTES])
{
	g->last_word = load_le32(seed);
	g->have_last_word = true;
}

unsigned int fips_gate_check(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES])
{
	struct fips_block_stats st;
	unsigned int fail;

	fips_block_stats(block, &st);
	fail = fips_block_verdict(&st);
	if (g->cfg.continuous &&
	    fips_continuous_block(&g->have_last_word, &g->last_word, block))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_CONTINUOUS);
	if (g->history && fips_repeat_block(g->history, block))
		fail |= FIPS_FAIL_BIT(FIPS_TEST_REPEAT_BLOCK);
	/*
	 * Run even after an exact repeat: every block enters its history.
	 * Its 16 kB come with the first block, so a gate that never tests
	 * (a source that does not run, an idle daemon) costs none; a block
	 * that cannot be tested for want of them fails.
	 */
	if (g->history && g->cfg.lagged_repeat) {
		if (!g->lagged)
			g->lagged = calloc(1, sizeof(*g->lagged));
		if (!g->lagged || fips_lagged_repeat(g->lagged, block))
			fail |= FIPS_FAIL_BIT(FIPS_TEST_REPEAT_BLOCK);
	}
	if (g->cfg.sp800_90b) {
		if (sp800_90b_rct_block(g, block, &st))
			fail |= FIPS_FAIL_BIT(FIPS_TEST_SP800_RCT);
		if (sp800_90b_apt_block(g, block))
			fail |= FIPS_FAIL_BIT(FIPS_TEST_SP800_APT);
	}

	g->counters.blocks++;
	if (fail)
		g->counters.failed++;
	else
		g->counters.passed++;
	for (unsigned int t = 0; t < FIPS_TEST_MAX; t++)
		g->counters.failures[t] += (fail >> t) & 1;
	explicit_bzero(&st, sizeof(st));
	return fail;
}
