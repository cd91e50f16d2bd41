/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RDRAND/RDSEED source's hardware seam: tests replace the instructions
 * and CPUID with fakes through rdrand_source_use_hw().
 */
#ifndef RNGD_SOURCES_RDRAND_H
#define RNGD_SOURCES_RDRAND_H

#include <stdint.h>

#include "sources/cpuid.h"
#include "sources/source.h"

struct rdrand_hw {
	cpuid_fn cpuid;
	/* 1 with *out set when the CPU delivered (CF=1), 0 when it had nothing. */
	int (*rdrand64)(uint64_t *out);
	int (*rdseed64)(uint64_t *out);
	/* Called between RDSEED attempts (the PAUSE instruction natively). */
	void (*pause)(void);
	/*
	 * 1 if the kernel lists @flag ("rdseed") in /proc/cpuinfo, 0 if it
	 * does not, -1 if it cannot tell. The kernel clears the flag on CPUs
	 * with known-bad instructions (AMD Zen5 RDSEED, AMD-SB-7055; Zen2
	 * RDRAND after resume), even though CPUID still advertises them.
	 */
	int (*kernel_has_flag)(const char *flag);
};

extern const struct rdrand_hw rdrand_hw_native;

/* Bounds and credits, exported so tests and the man page agree with the code. */
#define RDRAND_RETRIES 10           /* Intel DRNG guide: 10 failures in a row = broken DRNG */
#define RDSEED_RETRIES 100          /* PAUSEd attempts per 64-bit word before backing off */
#define RDSEED_UNDERFLOW_ROUNDS 10  /* 1 ms sleeps after that before giving up */
#define RDRAND_SELFTEST_WORDS 8     /* identical words at open = stuck DRNG */
#define RDRAND_ENTROPY_PER_BIT (1.0 / 512) /* 1 seed-grade sample in 512, Intel's own rule */
#define RDSEED_ENTROPY_PER_BIT 0.5

/* Use @hw instead of the real instructions (tests), after rng_source_init().
 * Whether the open source reads RDSEED (the strong instruction) or RDRAND:
 * rng_cpu_source_uses_strong() (sources/cpu_source.h). */
void rdrand_source_use_hw(struct rng_source *src, const struct rdrand_hw *hw);

#endif /* RNGD_SOURCES_RDRAND_H */
