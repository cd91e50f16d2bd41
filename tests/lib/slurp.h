/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helpers' one way to read a whole file into memory. */
#ifndef RNGD_TESTS_LIB_SLURP_H
#define RNGD_TESTS_LIB_SLURP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The whole of @path in a malloc()ed buffer (the caller frees it), its
 * size in *len; NULL with errno set if it cannot be opened, read or held.
 * An empty file gives a non-NULL buffer and *len 0. A NUL byte follows
 * the data (not counted in *len), so a text file reads as a string.
 */
uint8_t *test_slurp(const char *path, size_t *len);

#endif
