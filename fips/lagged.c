/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lagged half of the repeated-block test (ours): a block that repeats
 * a stretch of the last blocks' bytes at any offset fails. A source stuck
 * on a buffer whose length is not a multiple of the block (a driver
 * handing out one stale 4096-byte page) shifts by 4096 - 2500 bytes each
 * block, so no block equals an earlier one and every other test passes:
 * without this the gate would credit the same bytes over and over.
 *
 * Content, not offsets, picks what is remembered: a byte whose low six
 * bits are zero, about one in 64, is an anchor wherever it stands, and
 * the 32-bit key of the 32 bytes that end at it is what is looked up and
 * kept. The keys are kept in four generations of 12 blocks, so a block is
 * compared with its own earlier bytes and those of the last 36 to 47
 * blocks (90 to 117 kB of stream). Bytes that repeat with any lag within
 * that history find about 2500 / 64 = 39 of a block's anchors (fewer than
 * 20 in 3e-4 of such blocks, fewer than 4 in 1e-13); a block fails at
 * FIPS_LAGGED_MIN_HITS. An anchor of fresh random bytes hits by chance
 * with p ~ 4 x 12 x 39 / 2^32 ~ 4e-7, so four hits in one block ~ 3e-21;
 * a false failure would fail closed (the block is mixed, never credited).
 * Only keys are kept, no bytes: 16 kB a source.
 */
#include <config.h>

#include <string.h>

#include "fips/byte_load.h"
#include "fips/internal.h"

/* The bytes a key covers, the anchor last. */
#define LAGGED_WINDOW 32
#define LAGGED_BYTES(b) (UINT64_C(0x0101010101010101) * (b))

_Static_assert((FIPS_LAGGED_SLOTS & (FIPS_LAGGED_SLOTS - 1)) == 0, "slots: a power of two");

/* The key of the window that ends at @last: four words, each through its
 * own odd multiplier, so no reordering of them keeps the key. */
static uint32_t key_of(const uint8_t *last)
{
	const uint8_t *w = last + 1 - LAGGED_WINDOW;
	uint64_t h = load_le64(w) * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t key;

	h = (h ^ (h >> 29) ^ load_le64(w + 8)) * UINT64_C(0xbf58476d1ce4e5b9);
	h = (h ^ (h >> 29) ^ load_le64(w + 16)) * UINT64_C(0x94d049bb133111eb);
	h = (h ^ (h >> 29) ^ load_le64(w + 24)) * UINT64_C(0xd6e8feb86659fd93);
	key = (uint32_t)(h >> 32);
	return key ? key : 1; /* 0 marks an empty slot */
}

/*
 * A generation is a set of 4-key buckets: a lookup compares one bucket
 * without a branch on what it finds (a probe chain's branches cost more
 * than the rest of the test). A key whose bucket is full is not kept: at
 * 12 x ~39 keys in 256 buckets, some 3 keys in a hundred.
 */
#define LAGGED_BUCKET 4

/* The index of @key's bucket's first slot in a generation. */
static size_t bucket_of(uint32_t key)
{
	return (size_t)(key & (FIPS_LAGGED_SLOTS / LAGGED_BUCKET - 1)) * LAGGED_BUCKET;
}

static bool gen_has(const uint32_t *slot, uint32_t key)
{
	const uint32_t *b = slot + bucket_of(key);

	return (b[0] == key) | (b[1] == key) | (b[2] == key) | (b[3] == key);
}

static void gen_add(uint32_t *slot, uint32_t key)
{
	uint32_t *b = slot + bucket_of(key);

	for (unsigned int i = 0; i < LAGGED_BUCKET; i++) {
		if (b[i] == key)
			return;
		if (b[i] == 0) {
			b[i] = key;
			return;
		}
	}
}

/* 0x80 in each byte of @w whose low six bits are zero: no byte carries
 * into the next, as t's bytes stay below 0x40. */
static uint64_t anchor_bytes(uint64_t w)
{
	uint64_t t = w & LAGGED_BYTES(0x3f);

	return ~((t + LAGGED_BYTES(0x7f)) | t) & LAGGED_BYTES(0x80);
}

/*
 * The block's anchor keys, in @keys (at most FIPS_LAGGED_MAX_ANCHORS: a
 * block with more, a pathological one, keeps the first ones). Returns
 * their count. Eight bytes a step: a branch a byte would cost more than
 * the keys.
 */
static unsigned int anchors(const uint8_t block[FIPS_BLOCK_BYTES], uint32_t keys[FIPS_LAGGED_MAX_ANCHORS])
{
	unsigned int n = 0;

	for (size_t j = 0; j < FIPS_BLOCK_BYTES && n < FIPS_LAGGED_MAX_ANCHORS; j += 8) {
		size_t len = FIPS_BLOCK_BYTES - j < 8 ? FIPS_BLOCK_BYTES - j : 8;
		uint64_t found;

		if (len == 8)
			found = anchor_bytes(load_le64(block + j));
		else /* the tail: its missing bytes read as zeros, not anchors */
			found = anchor_bytes(load_le_upto64(block + j, len)) & ((UINT64_C(1) << (8 * len)) - 1);
		while (found && n < FIPS_LAGGED_MAX_ANCHORS) {
			size_t at = j + (size_t)__builtin_ctzll(found) / 8;

			found &= found - 1;
			if (at + 1 >= LAGGED_WINDOW)
				keys[n++] = key_of(block + at);
		}
	}
	return n;
}

bool fips_lagged_repeat(struct fips_lagged_history *h, const uint8_t block[FIPS_BLOCK_BYTES])
{
	uint32_t keys[FIPS_LAGGED_MAX_ANCHORS];
	unsigned int n = anchors(block, keys), hits = 0;

	/* The oldest generation goes when the newest is full. */
	if (h->blocks == FIPS_LAGGED_GEN_BLOCKS) {
		h->current = (h->current + 1) % FIPS_LAGGED_GENS;
		memset(h->slot[h->current], 0, sizeof(h->slot[h->current]));
		h->blocks = 0;
	}
	/* Each key is looked up before it is kept: the block's own earlier
	 * anchors count too (a buffer shorter than a block repeats inside it). */
	for (unsigned int i = 0; i < n; i++) {
		bool seen = false;

		for (unsigned int g = 0; g < FIPS_LAGGED_GENS; g++)
			seen |= gen_has(h->slot[g], keys[i]);
		hits += seen;
		gen_add(h->slot[h->current], keys[i]);
	}
	h->blocks++;
	explicit_bzero(keys, sizeof(keys));
	return hits >= FIPS_LAGGED_MIN_HITS;
}

void fips_lagged_forget(struct fips_lagged_history *h)
{
	explicit_bzero(h, sizeof(*h));
}

