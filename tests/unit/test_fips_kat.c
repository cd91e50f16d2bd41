/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Known answers: the seeded blocks of tests/unit/data/fips-kat.txt, whose
 * statistics tests/unit/fips-kat.py counted bit by bit in Python, must get
 * the same statistics from the gate and from the C reference. The file's
 * path comes from argv[1] or FIPS_KAT, else
 * $top_srcdir/tests/unit/data/fips-kat.txt ($top_srcdir is set by make check).
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fips/fips.h"
#include "tests/lib/test_data_file.h"
#include "tests/reference/fips_reference.h"
#include "tests/unit/fips_test_blocks.h"

static const char *kat_path;

static void build(uint8_t *block, const char *kind, uint64_t seed, double param)
{
	struct tb_rng r;

	tb_seed(&r, seed);
	if (strcmp(kind, "random") == 0) {
		tb_random_block(block, &r);
	} else if (strcmp(kind, "biased") == 0) {
		tb_biased_block(block, &r, param);
	} else if (strcmp(kind, "planted") == 0) {
		uint32_t len = (uint32_t)param;

		tb_random_block(block, &r);
		if (len == 26)
			tb_plant_run(block, 0, len, 1);
		else
			tb_plant_run(block, TB_BLOCK_BITS - len, len, 0);
	} else {
		fail_msg("unknown kind %s", kind);
	}
}

static void known_answers(void **state)
{
	char line[512];
	unsigned int vectors = 0;
	FILE *f;

	(void)state;
	f = fopen(kat_path, "r");
	if (!f)
		fail_msg("cannot open %s", kat_path);
	while (fgets(line, sizeof(line), f)) {
		char name[64], kind[16], head[17], got_head[17];
		unsigned long long seed;
		double param;
		unsigned int sum, got_sum = 0;
		struct fips_block_stats want = { 0 }, fast;
		struct ref_stats ref;
		uint8_t block[TB_BLOCK_BYTES];
		uint32_t *r0 = want.runs[0], *r1 = want.runs[1];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %15s %llu %lf %u %16s %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u",
			   name, kind, &seed, &param, &sum, head, &want.ones, &want.poker_sum,
			   &want.longest_run, &r0[0], &r0[1], &r0[2], &r0[3], &r0[4], &r0[5],
			   &r1[0], &r1[1], &r1[2], &r1[3], &r1[4], &r1[5]) != 21)
			fail_msg("bad line in %s: %s", kat_path, line);
		build(block, kind, seed, param);
		for (size_t i = 0; i < TB_BLOCK_BYTES; i++)
			got_sum += block[i];
		for (size_t i = 0; i < 8; i++)
			snprintf(got_head + 2 * i, 3, "%02x", block[i]);
		/* The C and Python generators made the same block. */
		assert_int_equal(got_sum, sum);
		assert_string_equal(got_head, head);

		fips_block_stats(block, &fast);
		ref_stats(block, &ref);
		assert_int_equal(fast.ones, want.ones);
		assert_int_equal(fast.poker_sum, want.poker_sum);
		assert_int_equal(fast.longest_run, want.longest_run);
		assert_memory_equal(fast.runs, want.runs, sizeof(want.runs));
		assert_int_equal(ref.ones, want.ones);
		assert_int_equal(ref.poker_sum, want.poker_sum);
		assert_int_equal(ref.longest_run, want.longest_run);
		assert_memory_equal(ref.runs, want.runs, sizeof(want.runs));
		vectors++;
	}
	fclose(f);
	assert_true(vectors >= 6);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_answers),
	};

	kat_path = test_data_file(argc, argv, "KAT_FILE", "FIPS_KAT", "tests/unit/data/fips-kat.txt");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
