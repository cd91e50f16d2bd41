/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a test that checks against a data file (a cut-off table, known
 * answers) finds it: one rule for all such tests, so each is run the same
 * way by hand, by make check and from another build folder.
 */
#ifndef RNGD_TESTS_LIB_TEST_DATA_FILE_H
#define RNGD_TESTS_LIB_TEST_DATA_FILE_H

#include <stdio.h>
#include <stdlib.h>

/*
 * The file named by argv[1], else by $@env, else @rel under $top_srcdir
 * (make check sets it). With none of them, prints a usage line naming
 * @what and exits 2: a test without its data has nothing to check.
 */
static inline const char *test_data_file(int argc, char **argv, const char *what, const char *env,
					 const char *rel)
{
	static char buf[4096];
	const char *path = argc > 1 ? argv[1] : getenv(env);

	if (!path && getenv("top_srcdir")) {
		(void)snprintf(buf, sizeof(buf), "%s/%s", getenv("top_srcdir"), rel);
		path = buf;
	}
	if (!path) {
		fprintf(stderr, "usage: %s %s (or set %s)\n", argv[0], what, env);
		exit(2);
	}
	return path;
}

#endif
