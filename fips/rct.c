/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SP 800-90B 4.4.1 Repetition Count Test across blocks: B counts identical
 * consecutive samples and the test signals a failure whenever B >= C. The
 * count runs on across block boundaries; a failure belongs to the block
 * holding the sample that made B reach (or stay at or above) C, so a stuck
 * source fails every block.
 *
 * 1-bit samples reuse the block's longest run (fips_block_stats) and only
 * look at the runs touching the block's ends; byte samples compare eight
 * bytes at a time and walk only the (rare) equal neighbours.
 */
#include <config.h>

#include <string.h>

#include "fips/byte_load.h"
#include "fips/internal.h"

#define SAMPLE_BYTES FIPS_BLOCK_BYTES
#define CHUNKS ((SAMPLE_BYTES + 7) / 8)
#define LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)
#define HIGH1 UINT64_C(0x8080808080808080)

static uint32_t saturate(uint32_t count, uint32_t cutoff)
{
	return count < cutoff ? count : cutoff;
}

/* Bits equal to the block's first bit at its start. */
static uint32_t leading_run(const uint8_t *block, unsigned int bit)
{
	uint8_t fill = bit ? 0xff : 0x00;
	uint32_t len = 0;
	size_t i = 0;

	while (i < FIPS_BLOCK_BYTES && block[i] == fill) {
		len += 8;
		i++;
	}
	if (i < FIPS_BLOCK_BYTES)
		len += (uint32_t)__builtin_clz((unsigned int)(block[i] ^ fill)) - 24;
	return len;
}

/* Bits equal to the block's last bit at its end. */
static uint32_t trailing_run(const uint8_t *block, unsigned int bit)
{
	uint8_t fill = bit ? 0xff : 0x00;
	uint32_t len = 0;
	size_t i = FIPS_BLOCK_BYTES;

	while (i > 0 && block[i - 1] == fill) {
		len += 8;
		i--;
	}
	if (i > 0)
		len += (uint32_t)__builtin_ctz((unsigned int)(block[i - 1] ^ fill));
	return len;
}

static bool rct_bits(struct fips_gate *g, const uint8_t *block,
		     const struct fips_block_stats *st)
{
	uint32_t cutoff = (uint32_t)g->rct_cutoff;
	unsigned int first = block[0] >> 7, last = block[FIPS_BLOCK_BYTES - 1] & 1;
	uint32_t lead = leading_run(block, first), joined = lead;
	bool fail;

	if (g->rct_count && g->rct_value == first)
		joined = saturate(g->rct_count, cutoff) + lead;
	fail = joined >= cutoff || st->longest_run >= cutoff;

	if (lead == FIPS_BLOCK_BITS) {
		g->rct_value = first;
		g->rct_count = saturate(joined, cutoff);
	} else {
		g->rct_value = last;
		g->rct_count = saturate(trailing_run(block, last), cutoff);
	}
	return fail;
}

/* 0x80 in each byte of @x equal to the same byte of @y. */
static inline uint64_t equal_bytes(uint64_t x, uint64_t y)
{
	uint64_t z = x ^ y;

	return ~(((z & LOW7) + LOW7) | z) & HIGH1;
}

FIPS_HOT
static void mark_repeats(const uint8_t *block, uint8_t before, bool have_before,
			 uint64_t repeats[CHUNKS])
{
	for (size_t c = 0; c < CHUNKS; c++) {
		size_t n = c + 1 < CHUNKS ? 8 : SAMPLE_BYTES - 8 * c;
		uint64_t x = n == 8 ? load_le64(block + 8 * c) : load_le_upto64(block + 8 * c, n);
		uint64_t prev = c ? block[8 * c - 1] : before;
		uint64_t valid = n == 8 ? HIGH1 : HIGH1 >> (8 * (8 - n));

		repeats[c] = equal_bytes(x, (x << 8) | prev) & valid;
	}
	if (!have_before)
		repeats[0] &= ~UINT64_C(0x80);
}

static bool rct_bytes(struct fips_gate *g, const uint8_t *block)
{
	uint32_t cutoff = (uint32_t)g->rct_cutoff;
	uint64_t repeats[CHUNKS];
	uint32_t run = saturate(g->rct_count, cutoff);
	long last_repeat = -1;   /* the run of length @run ends here */
	bool fail = false;

	mark_repeats(block, (uint8_t)g->rct_value, g->rct_count != 0, repeats);
	for (size_t c = 0; c < CHUNKS; c++) {
		for (uint64_t m = repeats[c]; m; m &= m - 1) {
			long pos = (long)(8 * c) + __builtin_ctzll(m) / 8;

			run = pos == last_repeat + 1 ? saturate(run + 1, cutoff) : 2;
			last_repeat = pos;
			fail |= run >= cutoff;
		}
	}
	g->rct_count = last_repeat == SAMPLE_BYTES - 1 ? run : 1;
	g->rct_value = block[SAMPLE_BYTES - 1];
	return fail;
}

bool sp800_90b_rct_block(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES],
			 const struct fips_block_stats *st)
{
	if (g->cfg.sample_bits == 1)
		return rct_bits(g, block, st);
	return rct_bytes(g, block);
}
