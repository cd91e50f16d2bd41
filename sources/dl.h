/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Optional libraries (TrouSerS, tss2, p11-kit) are loaded by their
 * source's probe() or open(), never at start-up, so a daemon whose TPM and
 * PKCS#11 sources do not run maps none of them (nor the libcrypto they
 * pull in). A source lists the symbols it needs with their slot in its own
 * table of function pointers; rng_dl_load() fills every slot or none.
 */
#ifndef RNGD_SOURCES_DL_H
#define RNGD_SOURCES_DL_H

#include <stddef.h>

#include "sources/source.h"

struct rng_dl_sym {
	const char *name;
	void **slot;                    /* where the address goes */
};

/*
 * RNG_DL_SYM(table, field, symbol): one entry; the assignment in the
 * dead branch makes the compiler check the field's type against the
 * symbol's prototype.
 */
#define RNG_DL_SYM(table, field, symbol) \
	{ #symbol, ((void)sizeof((table)->field = (symbol)), (void **)&(table)->field) }

/*
 * dlopen(@soname) and resolve every symbol of @syms into its slot.
 * Returns 0 with *handle set, or -ENODEV with src->why naming the library
 * ("libtspi.so.1 not installed") or the missing symbol, leaving every
 * slot untouched. A handle already set is kept (the library is loaded
 * once per source).
 */
int rng_dl_load(struct rng_source *src, const char *soname, void **handle,
		const struct rng_dl_sym *syms, size_t n_syms);

/* dlclose() a handle rng_dl_load() set, and clear it. */
void rng_dl_unload(void **handle);

#endif /* RNGD_SOURCES_DL_H */
