/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-512 (FIPS 180-4, section 6.4), for the two hashes rngd needs: the
 * sysstat source's chained state and the EGD condenser. Written here
 * rather than linked from libgcrypt, which with libgpg-error cost every
 * daemon 0.87 MB resident (tests/integration/idle-memory.sh) for these few
 * hundred bytes of code.
 * Checked against the FIPS 180-4 example vectors (tests/unit/test_sha512.c).
 */
#ifndef RNGD_SOURCES_SHA512_H
#define RNGD_SOURCES_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define SHA512_DIGEST_LEN 64
#define SHA512_BLOCK_LEN 128

struct sha512 {
	uint64_t h[8];
	uint64_t bytes;                 /* message length so far (< 2^61 bytes) */
	uint8_t block[SHA512_BLOCK_LEN];
	size_t fill;                    /* bytes waiting in block */
};

/* Start a new message. */
void sha512_init(struct sha512 *s);
void sha512_update(struct sha512 *s, const void *data, size_t len);
/* The digest of everything since init; then the state is wiped and re-initialised. */
void sha512_final(struct sha512 *s, uint8_t out[SHA512_DIGEST_LEN]);

#endif /* RNGD_SOURCES_SHA512_H */
