/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sources/cpuid.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_X86_CPUID 1
#endif

/* Leaf numbers and bits, from Intel SDM vol. 2 (CPUID) and VIA's PadLock guide. */
enum {
	LEAF_VENDOR = 0x0,
	LEAF_FEATURES = 0x1,
	LEAF_EXT_FEATURES = 0x7,
	LEAF1_ECX_RDRAND = 1u << 30,
	LEAF7_EBX_RDSEED = 1u << 18,

	LEAF_CENTAUR_MAX = 0xC0000000u,
	LEAF_CENTAUR_FEATURES = 0xC0000001u,
	CENTAUR_EDX_RNG_PRESENT = 1u << 2,
	CENTAUR_EDX_RNG_ENABLED = 1u << 3,
};

int cpuid_native(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
#ifdef HAVE_X86_CPUID
	__cpuid_count(leaf, subleaf, out->eax, out->ebx, out->ecx, out->edx);
	return 0;
#else
	(void)leaf;
	(void)subleaf;
	memset(out, 0, sizeof(*out));
	return -ENOTSUP;
#endif
}

int cpuid_vendor(cpuid_fn cpuid, char vendor[13])
{
	struct cpuid_regs r;
	int err = cpuid(LEAF_VENDOR, 0, &r);

	vendor[0] = '\0';
	if (err < 0)
		return err;
	/* The vendor string is EBX, EDX, ECX in that order. */
	memcpy(vendor, &r.ebx, 4);
	memcpy(vendor + 4, &r.edx, 4);
	memcpy(vendor + 8, &r.ecx, 4);
	vendor[12] = '\0';
	return 0;
}

int cpuid_rdrand_features(cpuid_fn cpuid, unsigned *features)
{
	struct cpuid_regs r;
	uint32_t max_leaf;
	int err;

	*features = 0;
	err = cpuid(LEAF_VENDOR, 0, &r);
	if (err < 0)
		return err;
	max_leaf = r.eax;
	if (max_leaf >= LEAF_FEATURES) {
		(void)cpuid(LEAF_FEATURES, 0, &r);
		if (r.ecx & LEAF1_ECX_RDRAND)
			*features |= CPUID_RDRAND;
	}
	/* Leaf 7 is only meaningful when leaf 0 says it exists. */
	if (max_leaf >= LEAF_EXT_FEATURES) {
		(void)cpuid(LEAF_EXT_FEATURES, 0, &r);
		if (r.ebx & LEAF7_EBX_RDSEED)
			*features |= CPUID_RDSEED;
	}
	return 0;
}

int cpuid_padlock_rng(cpuid_fn cpuid, char *why, size_t why_len)
{
	struct cpuid_regs r;
	char vendor[13];
	int err;

	err = cpuid_vendor(cpuid, vendor);
	if (err < 0) {
		snprintf(why, why_len, "no CPUID on this architecture");
		return err;
	}
	if (strcmp(vendor, "CentaurHauls") != 0 && strcmp(vendor, "  Shanghai  ") != 0) {
		snprintf(why, why_len, "CPU vendor is %s, not VIA/Centaur or Zhaoxin",
			 vendor[0] ? vendor : "unknown");
		return -ENODEV;
	}
	(void)cpuid(LEAF_CENTAUR_MAX, 0, &r);
	if (r.eax < LEAF_CENTAUR_FEATURES) {
		snprintf(why, why_len, "%s CPU has no Centaur feature leaf 0xC0000001", vendor);
		return -ENODEV;
	}
	(void)cpuid(LEAF_CENTAUR_FEATURES, 0, &r);
	if (!(r.edx & CENTAUR_EDX_RNG_PRESENT)) {
		snprintf(why, why_len, "%s CPU has no PadLock RNG", vendor);
		return -ENODEV;
	}
	if (!(r.edx & CENTAUR_EDX_RNG_ENABLED)) {
		/* Only the kernel (via-rng) or firmware can set MSR 0x110B bit 6. */
		snprintf(why, why_len, "PadLock RNG present but disabled (enable it in firmware or load via-rng)");
		return -EPERM;
	}
	return 0;
}
