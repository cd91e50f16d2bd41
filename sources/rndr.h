/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The arm64 RNDRRS/RNDR source's hardware seam: tests replace the
 * instructions, the HWCAP2 look-up and the back-off sleep with fakes
 * through rndr_source_use_hw(), on any architecture.
 */
#ifndef RNGD_SOURCES_RNDR_H
#define RNGD_SOURCES_RNDR_H

#include <stdint.h>

#include "sources/source.h"

/* HWCAP2_RNG from the arm64 kernel's uapi <asm/hwcap.h> (FEAT_RNG). */
#define RNDR_HWCAP2_RNG (1ul << 16)

struct rndr_hw {
	/* AT_HWCAP2 into *@out; -ENOTSUP when this is not an arm64 build. */
	int (*hwcap2)(unsigned long *out);
	/* 1 with *@out set on success, 0 when the instruction set NZCV to 0b0100. */
	int (*rndrrs)(uint64_t *out);
	int (*rndr)(uint64_t *out);
	/* Sleep @ms milliseconds between rounds of failed reads. */
	void (*backoff)(unsigned int ms);
};

extern const struct rndr_hw rndr_hw_native;

/* Bounds and credits, exported so the tests and the man page agree with the code. */
#define RNDR_RETRIES 10            /* tight attempts per word: a failure is "try again" */
#define RNDR_BACKOFF_ROUNDS 8      /* rounds of RNDR_RETRIES, with sleeps of 1, 2 ... 64 ms between */
#define RNDR_BACKOFF_TOTAL_MS ((1u << (RNDR_BACKOFF_ROUNDS - 1)) - 1) /* 127 ms */
#define RNDR_SELFTEST_WORDS 8      /* identical words at open = stuck generator */
#define RNDRRS_ENTROPY_PER_BIT 0.5 /* as RDSEED: conditioned TRNG output nobody outside can check */
#define RNDR_ENTROPY_PER_BIT (1.0 / 512) /* as RDRAND: a DRBG, reseed interval undocumented */

/* Use @hw instead of the CPU (tests), after rng_source_init(). Whether
 * the open source reads RNDRRS (the strong instruction) or RNDR:
 * rng_cpu_source_uses_strong() (sources/cpu_source.h). */
void rndr_source_use_hw(struct rng_source *src, const struct rndr_hw *hw);

#endif /* RNGD_SOURCES_RNDR_H */
