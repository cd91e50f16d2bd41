/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FIPS 140-2 section 4.9.2 continuous random number generator test, as
 * rng-tools applies it: the block is 625 32-bit words read little-endian,
 * each compared with the word before it, across block boundaries; the
 * word before the first block is the seed when there is one.
 */
#include <config.h>

#include <string.h>

#include "fips/byte_load.h"
#include "fips/internal.h"

#define CONTINUOUS_WORDS (FIPS_BLOCK_BYTES / 4)

_Static_assert(FIPS_BLOCK_BYTES % 4 == 0, "blocks are whole words");

FIPS_HOT
bool fips_continuous_block(bool *have_last, uint32_t *last,
			   const uint8_t block[FIPS_BLOCK_BYTES])
{
	uint32_t first = load_le32(block);
	unsigned int repeats = *have_last && first == *last;

	for (size_t i = 1; i < CONTINUOUS_WORDS; i++)
		repeats |= load_le32(block + 4 * i) == load_le32(block + 4 * (i - 1));
	*last = load_le32(block + FIPS_BLOCK_BYTES - 4);
	*have_last = true;
	return repeats != 0;
}
