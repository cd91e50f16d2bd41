/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loads of big- and little-endian integers from unaligned bytes, one copy
 * for the gate (fips/) and the sources (sources/sha512.c). Header-only and
 * always inlined: the gate's word loops call them per word, and memcpy()
 * plus at most one byte swap compiles to a single load on every target.
 */
#ifndef RNGD_FIPS_BYTE_LOAD_H
#define RNGD_FIPS_BYTE_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BYTE_LOAD_INLINE static inline __attribute__((always_inline))

/* The 8 bytes at @p, the first the most significant. */
BYTE_LOAD_INLINE uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap64(v) : v;
}

/* The 8 bytes at @p, the first the least significant. */
BYTE_LOAD_INLINE uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? v : __builtin_bswap64(v);
}

/* The 4 bytes at @p, the first the least significant. */
BYTE_LOAD_INLINE uint32_t load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? v : __builtin_bswap32(v);
}

/*
 * The @n (at most 8) bytes at @p, the first the least significant, the
 * missing high bytes zero: for a tail shorter than a word, where an 8-byte
 * load would read past the end.
 */
BYTE_LOAD_INLINE uint64_t load_le_upto64(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#undef BYTE_LOAD_INLINE

#endif /* RNGD_FIPS_BYTE_LOAD_H */
