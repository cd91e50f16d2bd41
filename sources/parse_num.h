/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers in option values, read one way everywhere (rngd's options, the
 * sources' -O settings). */
#ifndef RNGD_SOURCES_PARSE_NUM_H
#define RNGD_SOURCES_PARSE_NUM_H

/*
 * @s as a decimal within [min, max] into *out: digits only, nothing
 * before or after (no sign, no blank, which strtoul would take), no
 * overflow. 0 or -EINVAL.
 */
int rng_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out);

#endif
