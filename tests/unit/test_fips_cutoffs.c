/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SP 800-90B cut-offs computed in fips/sp800_90b.c against the table
 * tests/sp800-90b/cutoffs.py computes with exact arithmetic. The table's
 * path comes from argv[1] or FIPS_CUTOFF_TABLE, else
 * $top_srcdir/tests/sp800-90b/cutoffs.txt ($top_srcdir is set by make check).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fips/fips.h"
#include "tests/lib/test_data_file.h"

static const char *table_path;

static void table_matches(void **state)
{
	char line[256];
	unsigned int rows = 0;
	FILE *f;

	(void)state;
	assert_non_null(table_path);
	f = fopen(table_path, "r");
	if (!f)
		fail_msg("cannot open %s", table_path);
	while (fgets(line, sizeof(line), f)) {
		unsigned int bits, window;
		double h, alpha_log2;
		int rct, apt;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %lf %lf %d %u %d", &bits, &h, &alpha_log2,
			   &rct, &window, &apt) != 6)
			fail_msg("bad line in %s: %s", table_path, line);
		if (sp800_90b_rct_cutoff(h, alpha_log2) != rct ||
		    sp800_90b_apt_window(bits) != window ||
		    sp800_90b_apt_cutoff(bits, h, alpha_log2) != apt)
			fail_msg("bits %u H %g alpha 2^%g: got RCT %d APT %d (window %u), table %d %d (%u)",
				 bits, h, alpha_log2, sp800_90b_rct_cutoff(h, alpha_log2),
				 sp800_90b_apt_cutoff(bits, h, alpha_log2),
				 sp800_90b_apt_window(bits), rct, apt, window);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 30);
}

static void bad_parameters(void **state)
{
	(void)state;
	assert_int_equal(sp800_90b_rct_cutoff(0, -30), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(-1, -30), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(8.5, -30), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(NAN, -30), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(1, 0), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(1, 1), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(1, -INFINITY), -EINVAL);
	assert_int_equal(sp800_90b_rct_cutoff(1e-30, -30), -EINVAL);
	assert_int_equal(sp800_90b_apt_cutoff(2, 1, -30), -EINVAL);
	assert_int_equal(sp800_90b_apt_cutoff(1, 2, -30), -EINVAL);
	assert_int_equal(sp800_90b_apt_cutoff(8, 0, -30), -EINVAL);
	assert_int_equal(sp800_90b_apt_cutoff(8, 6, NAN), -EINVAL);
	/* Tiny H: the window can never fail, C = W + 1. */
	assert_int_equal(sp800_90b_apt_cutoff(8, 1e-9, -30), 513);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_matches),
		cmocka_unit_test(bad_parameters),
	};

	table_path = test_data_file(argc, argv, "CUTOFF_TABLE", "FIPS_CUTOFF_TABLE",
				    "tests/sp800-90b/cutoffs.txt");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
