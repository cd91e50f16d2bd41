/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading an optional library when its source is first probed or opened
 * (sources/dl.h). RTLD_NOW: a library too old for one of our symbols is
 * refused here, with the symbol's name, not at the first read.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include "sources/dl.h"

int rng_dl_load(struct rng_source *src, const char *soname, void **handle,
		const struct rng_dl_sym *syms, size_t n_syms)
{
	void *lib;

	if (*handle)
		return 0;
	lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return rng_source_why(src, -ENODEV, "%s not installed (%s)", soname, dlerror());
	for (size_t i = 0; i < n_syms; i++) {
		if (!dlsym(lib, syms[i].name)) {
			(void)dlclose(lib);
			return rng_source_why(src, -ENODEV, "%s lacks %s: too old?", soname, syms[i].name);
		}
	}
	/* Every symbol is there: only now fill the table, all at once. */
	for (size_t i = 0; i < n_syms; i++)
		*syms[i].slot = dlsym(lib, syms[i].name);
	*handle = lib;
	return 0;
}

void rng_dl_unload(void **handle)
{
	if (*handle)
		(void)dlclose(*handle);
	*handle = NULL;
}
