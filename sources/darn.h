/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The POWER DARN source's hardware seam: tests replace the instruction, the
 * HWCAP2 look-up and the back-off sleep with fakes through
 * darn_source_use_hw(), on any architecture.
 */
#ifndef RNGD_SOURCES_DARN_H
#define RNGD_SOURCES_DARN_H

#include <stdint.h>

#include "sources/source.h"

/* PPC_FEATURE2_DARN from the POWER kernel's uapi <asm/cputable.h> (ISA 3.0). */
#define DARN_HWCAP2_DARN 0x00200000ul
/* What DARN returns when it could not produce a number (Power ISA 3.0B, darn). */
#define DARN_ERROR UINT64_MAX

/* DARN's L field: 1 = 64-bit conditioned (CRN), 2 = 64-bit raw (RRN). */
#define DARN_LEVEL_CONDITIONED 1
#define DARN_LEVEL_RAW 2

struct darn_hw {
	/* AT_HWCAP2 into *@out; -ENOTSUP when this is not a 64-bit POWER build. */
	int (*hwcap2)(unsigned long *out);
	/* One DARN with L = @level; DARN_ERROR on failure. */
	uint64_t (*darn)(unsigned int level);
	/* Sleep @ms milliseconds between rounds of failed reads. */
	void (*backoff)(unsigned int ms);
};

extern const struct darn_hw darn_hw_native;

#define DARN_RETRIES 10            /* tight attempts per word before sleeping */
#define DARN_BACKOFF_ROUNDS 8      /* rounds of DARN_RETRIES, sleeps of 1, 2 ... 64 ms between */
#define DARN_BACKOFF_TOTAL_MS ((1u << (DARN_BACKOFF_ROUNDS - 1)) - 1) /* 127 ms */
#define DARN_LEVEL_PROBE_ROUNDS 3  /* rounds for the first word at a level: none = not implemented */
#define DARN_SELFTEST_WORDS 8      /* words tried at open: all errors = level unavailable */
#define DARN_ENTROPY_PER_BIT 0.5   /* as RDSEED/RNDRRS: nobody outside the CPU can check it */

/* Use @hw instead of the CPU (tests), after rng_source_init(). */
void darn_source_use_hw(struct rng_source *src, const struct darn_hw *hw);

/* The L in use (1 or 2) once open, -EBADF before. */
int darn_source_level(const struct rng_source *src);

#endif /* RNGD_SOURCES_DARN_H */
