/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Repeated-block test (ours, not in FIPS 140-2): a block identical to one
 * of the last FIPS_REPEAT_HISTORY blocks fails. A source replaying one
 * buffer passes every FIPS 140-2 test, so without this the gate would
 * credit the same bytes over and over.
 *
 * Only a 64-bit digest of each block is kept, not the block: 512 bytes a
 * source instead of 160 kB (resident for good once the history fills), and
 * no copy of bytes already credited to the kernel lingers in rngd. A true
 * repeat always has the same digest, so a repeat never passes; a collision
 * fails a fresh block (2^-58 per block by chance; on purpose only by
 * whoever controls the source's bytes, who can always feed bad blocks),
 * which fails closed: the block is mixed, never credited.
 */
#include <config.h>

#include <string.h>

#include "fips/internal.h"

#define HASH_LANES 4
#define HASH_MUL UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t mix(uint64_t h)
{
	h ^= h >> 32;
	h *= UINT64_C(0xd6e8feb86659fd93);
	h ^= h >> 32;
	return h;
}

/* Four independent multiply chains keep the multiplier busy. */
uint64_t fips_block_hash(const uint8_t block[FIPS_BLOCK_BYTES])
{
	uint64_t lane[HASH_LANES] = { 1, 2, 3, 4 };
	size_t i = 0, words = FIPS_BLOCK_BYTES / 8;
	uint64_t h = FIPS_BLOCK_BYTES;

	for (; i < words; i++)
		lane[i % HASH_LANES] = (lane[i % HASH_LANES] ^ load64(block + 8 * i)) * HASH_MUL;
	for (size_t b = 8 * words; b < FIPS_BLOCK_BYTES; b++)
		lane[1] = (lane[1] ^ block[b]) * HASH_MUL;
	for (size_t l = 0; l < HASH_LANES; l++)
		h = (h ^ mix(lane[l])) * HASH_MUL;
	return mix(h);
}

bool fips_repeat_block(struct fips_repeat_history *h,
		       const uint8_t block[FIPS_BLOCK_BYTES])
{
	uint64_t hash = fips_block_hash(block);
	bool seen = false;

	for (unsigned int i = 0; i < h->used && !seen; i++)
		seen = h->hash[i] == hash;

	h->hash[h->next] = hash;
	h->next = (h->next + 1) % FIPS_REPEAT_HISTORY;
	if (h->used < FIPS_REPEAT_HISTORY)
		h->used++;
	return seen;
}

void fips_repeat_forget(struct fips_repeat_history *h)
{
	explicit_bzero(h, sizeof(*h));
}
