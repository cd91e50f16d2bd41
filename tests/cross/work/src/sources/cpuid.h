/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPUID access and the few decodings rngd's CPU sources need. The raw
 * instruction sits behind a function pointer so detection can be tested
 * with fake leaves on any CPU.
 */
#ifndef RNGD_SOURCES_CPUID_H
#define RNGD_SOURCES_CPUID_H

#include <stddef.h>
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Fills @out for @leaf/@subleaf; -ENOTSUP when there is no CPUID (not x86). */
typedef int (*cpuid_fn)(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* The real instruction on x86, -ENOTSUP elsewhere. */
int cpuid_native(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* The 12-character vendor string of leaf 0 ("GenuineIntel"), NUL-terminated. */
int cpuid_vendor(cpuid_fn cpuid, char vendor[13]);

#define CPUID_RDRAND (1u << 0)
#define CPUID_RDSEED (1u << 1)

/* Sets CPUID_RDRAND/CPUID_RDSEED in *@features; -ENOTSUP without CPUID. */
int cpuid_rdrand_features(cpuid_fn cpuid, unsigned *features);

/*
 * VIA/Centaur/Zhaoxin PadLock RNG: 0 when present and enabled; -ENODEV
 * (absent: other vendor, no Centaur leaves, no RNG bit) or -EPERM (present
 * but not enabled) with a reason in @why; -ENOTSUP without CPUID.
 */
int cpuid_padlock_rng(cpuid_fn cpuid, char *why, size_t why_len);

#endif /* RNGD_SOURCES_CPUID_H */
