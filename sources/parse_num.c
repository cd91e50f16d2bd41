/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "sources/parse_num.h"

int rng_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}
