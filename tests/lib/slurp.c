/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/lib/slurp.h"

uint8_t *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap ? cap * 2 : 65536);

			if (!bigger) {
				free(buf);
				(void)fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = bigger;
			cap = cap ? cap * 2 : 65536;
		}
		size_t k = fread(buf + n, 1, cap - n, f);

		if (k == 0)
			break;
		n += k;
	}
	if (ferror(f)) {
		free(buf);
		(void)fclose(f);
		errno = EIO;
		return NULL;
	}
	(void)fclose(f);
	/* The loop ends on a short read, so there is room for it. */
	buf[n] = 0;
	*len = n;
	return buf;
}
