/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VIA PadLock source's hardware seam: tests replace XSTORE and CPUID
 * with fakes through padlock_source_use_hw().
 */
#ifndef RNGD_SOURCES_PADLOCK_H
#define RNGD_SOURCES_PADLOCK_H

#include <stdint.h>

#include "sources/cpuid.h"
#include "sources/source.h"

/*
 * XSTORE's EAX result: bits 4:0 the bytes stored, the rest a copy of the
 * RNG control MSR 0x110B (VIA Nehemiah RNG programming guide).
 */
#define PADLOCK_XSTORE_COUNT_MASK 0x1fu
#define PADLOCK_MSR_RNG_ENABLED (1u << 6)
#define PADLOCK_MSR_RAW_BITS (1u << 13)      /* whitener bypassed */
#define PADLOCK_MSR_STRFILT_FAILED (1u << 15)

/* EDX divisor: 0..3 stores 8 >> divisor bytes, keeping every 2^divisor-th bit. */
#define PADLOCK_DIVISOR_DEFAULT 3
#define PADLOCK_DIVISOR_MAX 3
#define PADLOCK_XSTORE_RETRIES 20       /* "no data" results in a row before a short pause */
#define PADLOCK_EMPTY_ROUNDS 50         /* pauses of 10 us before declaring the RNG dead */
#define PADLOCK_ENTROPY_PER_BIT 0.5

struct padlock_hw {
	cpuid_fn cpuid;
	/*
	 * One XSTORE into @buf (16-byte aligned, at least 64 bytes: some VIA
	 * parts were seen storing more than they report) with EDX=@edx.
	 * Returns EAX.
	 */
	uint32_t (*xstore)(void *buf, uint32_t edx);
};

extern const struct padlock_hw padlock_hw_native;

/* Use @hw instead of the CPU (tests), after rng_source_init(). */
void padlock_source_use_hw(struct rng_source *src, const struct padlock_hw *hw);

#endif /* RNGD_SOURCES_PADLOCK_H */
