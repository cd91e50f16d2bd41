/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The harnesses' one way to report a broken invariant: libFuzzer keeps an
 * input that makes the process abort, and the line says which check. */
#ifndef RNGD_TESTS_FUZZ_CHECK_H
#define RNGD_TESTS_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                                  \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "%s:%d: %s broken\n", __FILE__, __LINE__, #cond); \
			abort();                                                          \
		}                                                                         \
	} while (0)

#endif
