/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <string.h>

#include "sources/source.h"

/* Order is the default priority order shown by rngd -l. */
const struct rng_source_ops *const rng_source_registry[] = {
	&rng_source_hwrng_ops,
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
