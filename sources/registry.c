/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <string.h>

#include "sources/source.h"

/*
 * Order is the order rngd -l shows. A CPU instruction source exists only
 * on its architecture (configure's RNGD_CPU_*): rngd -l lists what this
 * machine could have, and its probe says whether this CPU has it. The
 * library-backed sources exist only when configure found their library.
 */
const struct rng_source_ops *const rng_source_registry[] = {
	&rng_source_hwrng_ops,
#ifdef RNGD_CPU_X86
	&rng_source_padlock_ops,
#endif
#ifdef HAVE_TSS2_ESYS
	&rng_source_tpm2_ops,
#endif
#ifdef HAVE_LIBTSPI
	&rng_source_tpm_ops,
#endif
#ifdef RNGD_CPU_X86
	&rng_source_rdrand_ops,
#endif
#ifdef RNGD_CPU_ARM64
	&rng_source_rndr_ops,
#endif
#ifdef RNGD_CPU_POWER
	&rng_source_darn_ops,
#endif
#ifdef RNGD_SYSSTAT
	&rng_source_sysstat_ops,
#endif
#ifdef HAVE_P11KIT
	&rng_source_pkcs11_ops,
#endif
	&rng_source_file_ops,
	NULL,
};

const struct rng_source_ops *rng_source_find(const char *name)
{
	for (const struct rng_source_ops *const *o = rng_source_registry; *o; o++)
		if (strcmp((*o)->name, name) == 0)
			return *o;
	return NULL;
}
