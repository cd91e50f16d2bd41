/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stable short names of the gate's tests, for logs and rngtest output. */
#include <config.h>

#include "fips/internal.h"

static const char *const test_names[FIPS_TEST_MAX] = {
	[FIPS_TEST_MONOBIT] = "monobit",
	[FIPS_TEST_POKER] = "poker",
	[FIPS_TEST_RUNS] = "runs",
	[FIPS_TEST_LONG_RUN] = "long-run",
	[FIPS_TEST_CONTINUOUS] = "continuous",
	[FIPS_TEST_REPEAT_BLOCK] = "repeated-block",
	[FIPS_TEST_SP800_RCT] = "sp800-90b-rct",
	[FIPS_TEST_SP800_APT] = "sp800-90b-apt",
};

const char *fips_test_name(enum fips_test t)
{
	if ((int)t < 0 || t >= FIPS_TEST_MAX)
		return NULL;
	return test_names[t];
}
