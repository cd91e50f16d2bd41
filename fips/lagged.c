/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lagged half of the repeated-block test (ours): a block that repeats
 * a stretch of the last blocks' bytes at any offset fails. A source stuck
 * on a buffer whose length is not a multiple of the block (a driver
 * handing out one stale 4096-byte page) shifts by 4096 - 2500 bytes each
 * block, so no block equals an earlier one and every other test passes:
 * without this the gate would credit the same bytes over and over.
 *
 * Content, not offsets, picks what is remembered: a rolling sum over the
 * last 64 bytes (S = 2S + byte) marks about one position in 32 as an
 * anchor, wherever the same bytes stand, and the anchors' 32-bit keys of
 * the last 16 to 32 blocks (40 to 80 kB of stream) are kept in two
 * generations of a hash set. Bytes that repeat with any lag within that
 * history put about 2500 / 32 of a block's anchors in the set; a block
 * fails at FIPS_LAGGED_MIN_HITS. An anchor of fresh random bytes hits by
 * chance with p ~ 2 x 16 x 77 / 2^32 ~ 6e-7, some 4e-5 a block, so four
 * hits in one block ~ 1e-19; a false failure would fail closed (the block
 * is mixed, never credited). Only keys are kept, no bytes: 16 kB a source.
 */
#include <config.h>

#include <string.h>

#include "fips/internal.h"

/* Bytes the rolling sum covers; a block's first ones have no full window. */
#define LAGGED_WINDOW 64
/* Anchor when the sum's top bits, which its last 12 bytes and the carries
 * of the others set, are zero: one position in 32. */
#define LAGGED_ANCHOR_BELOW (UINT64_C(1) << 59)
#define LAGGED_KEY_MUL UINT64_C(0xd6e8feb86659fd93)

_Static_assert((FIPS_LAGGED_SLOTS & (FIPS_LAGGED_SLOTS - 1)) == 0, "slots: a power of two");

static uint32_t key_of(uint64_t sum)
{
	uint32_t key = (uint32_t)((sum * LAGGED_KEY_MUL) >> 32);

	return key ? key : 1; /* 0 marks an empty slot */
}

static bool gen_has(const uint32_t *slot, uint32_t key)
{
	for (uint32_t i = key;; i++) {
		uint32_t v = slot[i & (FIPS_LAGGED_SLOTS - 1)];

		if (v == key)
			return true;
		if (v == 0)
			return false;
	}
}

static void gen_add(uint32_t *slot, uint32_t key)
{
	uint32_t i = key;

	while (slot[i & (FIPS_LAGGED_SLOTS - 1)] != 0 && slot[i & (FIPS_LAGGED_SLOTS - 1)] != key)
		i++;
	slot[i & (FIPS_LAGGED_SLOTS - 1)] = key;
}

/*
 * The block's anchor keys, in @keys (at most FIPS_LAGGED_MAX_ANCHORS: a
 * block with more, a pathological one, keeps the first ones). Returns
 * their count.
 */
static unsigned int anchors(const uint8_t block[FIPS_BLOCK_BYTES], uint32_t keys[FIPS_LAGGED_MAX_ANCHORS])
{
	uint64_t sum = 0;
	unsigned int n = 0;

	for (size_t j = 0; j < FIPS_BLOCK_BYTES; j++) {
		sum = (sum << 1) + block[j];
		if (j + 1 >= LAGGED_WINDOW && sum < LAGGED_ANCHOR_BELOW && n < FIPS_LAGGED_MAX_ANCHORS)
			keys[n++] = key_of(sum);
	}
	return n;
}

bool fips_lagged_repeat(struct fips_lagged_history *h, const uint8_t block[FIPS_BLOCK_BYTES])
{
	uint32_t keys[FIPS_LAGGED_MAX_ANCHORS];
	unsigned int n = anchors(block, keys), hits = 0;

	for (unsigned int i = 0; i < n; i++)
		hits += gen_has(h->slot[0], keys[i]) || gen_has(h->slot[1], keys[i]);
	/* The older generation goes when the newer one is full. */
	if (h->blocks == FIPS_LAGGED_GEN_BLOCKS) {
		h->current ^= 1;
		memset(h->slot[h->current], 0, sizeof(h->slot[h->current]));
		h->blocks = 0;
	}
	for (unsigned int i = 0; i < n; i++)
		gen_add(h->slot[h->current], keys[i]);
	h->blocks++;
	explicit_bzero(keys, sizeof(keys));
	return hits >= FIPS_LAGGED_MIN_HITS;
}

void fips_lagged_forget(struct fips_lagged_history *h)
{
	explicit_bzero(h, sizeof(*h));
}

_Static_assert(FIPS_LAGGED_GEN_BLOCKS * FIPS_LAGGED_MAX_ANCHORS < FIPS_LAGGED_SLOTS,
	       "a generation never fills its set: every probe ends at an empty slot");
