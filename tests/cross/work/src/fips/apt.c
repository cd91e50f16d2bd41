/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SP 800-90B 4.4.2 Adaptive Proportion Test across blocks: consecutive,
 * non-overlapping windows of W samples; A is a window's first sample and B
 * counts the samples equal to A, the first included. A window fails when B
 * reaches the cut-off C, and that failure belongs to the block holding the
 * sample that made B reach C. Windows run on across block boundaries.
 *
 * Counting is done per window segment (popcount for bits, a compare loop
 * for bytes), never per sample with a branch.
 */
#include <config.h>

#include <string.h>

#include "fips/internal.h"

static inline uint32_t popcount_bytes(const uint8_t *p, size_t n)
{
	uint32_t ones = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, sizeof(w));
		ones += (uint32_t)__builtin_popcountll(w);
	}
	for (; i < n; i++)
		ones += (uint32_t)__builtin_popcount(p[i]);
	return ones;
}

FIPS_HOT
uint32_t fips_count_ones(const uint8_t block[FIPS_BLOCK_BYTES],
			 uint32_t first, uint32_t count)
{
	uint32_t end = first + count, head_byte, tail_byte;
	unsigned int head, tail;

	if (count == 0)
		return 0;
	head_byte = first / 8;
	tail_byte = (end - 1) / 8;
	head = 0xffu >> (first % 8);
	tail = (0xff00u >> (end - 8 * tail_byte)) & 0xffu;
	if (head_byte == tail_byte)
		return (uint32_t)__builtin_popcount(block[head_byte] & head & tail);
	return (uint32_t)__builtin_popcount(block[head_byte] & head) +
	       popcount_bytes(block + head_byte + 1, tail_byte - head_byte - 1) +
	       (uint32_t)__builtin_popcount(block[tail_byte] & tail);
}

/*
 * Bytes equal to @value, 64 at a time: a fixed inner trip count that GCC
 * vectorises at -O2 (a plain byte loop it leaves scalar).
 */
FIPS_HOT
static uint32_t count_equal(const uint8_t *p, size_t n, uint8_t value)
{
	uint32_t equal = 0;
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		uint8_t chunk = 0;

		for (size_t j = 0; j < 64; j++)
			chunk += p[i + j] == value;
		equal += chunk;
	}
	for (; i < n; i++)
		equal += p[i] == value;
	return equal;
}

static unsigned int sample_at(const uint8_t *block, unsigned int sample_bits, uint32_t i)
{
	if (sample_bits == 1)
		return (block[i / 8] >> (7 - i % 8)) & 1;
	return block[i];
}

static uint32_t matches(const uint8_t *block, unsigned int sample_bits,
			unsigned int value, uint32_t first, uint32_t count)
{
	uint32_t ones;

	if (sample_bits != 1)
		return count_equal(block + first, count, (uint8_t)value);
	ones = fips_count_ones(block, first, count);
	return value ? ones : count - ones;
}

bool sp800_90b_apt_block(struct fips_gate *g, const uint8_t block[FIPS_BLOCK_BYTES])
{
	unsigned int bits = g->cfg.sample_bits;
	uint32_t samples = bits == 1 ? FIPS_BLOCK_BITS : FIPS_BLOCK_BYTES;
	uint32_t window = sp800_90b_apt_window(bits);
	uint32_t cutoff = (uint32_t)g->apt_cutoff;
	uint32_t pos = 0;
	bool fail = false;

	while (pos < samples) {
		uint32_t seg, m;

		if (g->apt_seen == 0) {
			g->apt_value = sample_at(block, bits, pos);
			g->apt_count = 1;
			g->apt_seen = 1;
			fail |= cutoff <= 1;
			pos++;
			continue;
		}
		seg = window - g->apt_seen;
		if (seg > samples - pos)
			seg = samples - pos;
		m = matches(block, bits, g->apt_value, pos, seg);
		fail |= g->apt_count < cutoff && g->apt_count + m >= cutoff;
		g->apt_count += m;
		g->apt_seen += seg;
		if (g->apt_seen == window)
			g->apt_seen = 0;
		pos += seg;
	}
	return fail;
}
