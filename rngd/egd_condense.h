/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Condensing credited bytes for the EGD reserve, so that every byte an EGD
 * client gets is worth 8 bits of credit (a guest's virtio-rng driver
 * credits what it reads at its own quality, close to full entropy).
 *
 * The construction (documented in rngd(8) and the README):
 *   - A part credited with full entropy (credit_bits == 8 x len: the
 *     operator set entropy_per_bit 1.0) is passed through unchanged.
 *   - Any other part with credit is absorbed into a SHA-512 state
 *     (sources/sha512.c). The credit of a part is spread evenly over its bytes,
 *     as the loop spreads a block's credit over its parts; a part is cut
 *     where the state has absorbed EGD_CONDENSE_IN_BITS (576 = 512 + 64)
 *     bits, and that state's 64-byte digest is one output, after which
 *     the state starts afresh. SP 800-90B 3.1.5.1.2 gives a vetted hash
 *     fed n + 64 bits a full-entropy n-bit output.
 *   - A part with no credit is not absorbed.
 * So the bytes put out never exceed credited bits / 8 (64 bytes per 576
 * bits, or 1 byte per 8 bits passed through). If the hash state cannot
 * be allocated only the full-entropy parts pass; the rest is dropped.
 *
 * One thread (the daemon's loop) owns a condenser; its state is wiped
 * when an output is taken and at destroy.
 */
#ifndef RNGD_EGD_CONDENSE_H
#define RNGD_EGD_CONDENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EGD_CONDENSE_OUT_BYTES 64u
#define EGD_CONDENSE_IN_BITS (EGD_CONDENSE_OUT_BYTES * 8u + 64u)

struct egd_condenser {
	void *md;                     /* struct sha512, NULL if it could not be allocated */
	unsigned int absorbed_bits;   /* credit in the state since its last output */
	bool absorbed_any;
	uint64_t bits_in, bytes_out;  /* totals, for statistics and tests */
};

/* 0, or -ENOMEM when the hash cannot be set up (then only
 * full-entropy parts pass). */
int egd_condenser_init(struct egd_condenser *c);
void egd_condenser_destroy(struct egd_condenser *c);

/* True if the condenser can hash (its state was allocated). */
bool egd_condenser_hashes(const struct egd_condenser *c);

/*
 * Feed one part worth @credit_bits. Each output (a pass-through part, or a
 * 64-byte digest) is handed to @emit in order; the return is the number
 * of input bytes that were dropped (no hash available for a part of less
 * than full credit, or no credit at all).
 */
size_t egd_condense(struct egd_condenser *c, const uint8_t *buf, size_t len, unsigned int credit_bits,
		    void (*emit)(void *ctx, const uint8_t *out, size_t n), void *ctx);

#endif
