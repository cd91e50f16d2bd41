/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fips/logmath.c (log and exp without libm) against libm itself, and the
 * SP 800-90B cut-offs it feeds against the same computation done with
 * libm's functions (the code before rngd stopped linking libm) over a
 * dense grid of H and alpha: the exact table of test_fips_cutoffs has 39
 * rows, this grid has thousands.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "fips/fips.h"
#include "fips/internal.h"

/* A few units in the last place of long double (eps 1.08e-19). */
#define REL_TOL 1e-17L

static void assert_close(long double got, long double want, const char *what, long double x)
{
	long double scale = fabsl(want) > 1e-300L ? fabsl(want) : 1;

	if (!(fabsl(got - want) <= REL_TOL * scale))
		fail_msg("%s(%.21Lg) = %.21Lg, libm says %.21Lg", what, x, got, want);
}

static void test_log_matches_libm_from_subnormal_to_huge(void **state)
{
	(void)state;
	for (long double x = 1e-4000L; x < 1e4000L; x *= 1.37L)
		assert_close(fips_logl(x), logl(x), "log", x);
	for (long double x = 0.5L; x < 2; x += 1.0L / 1024)
		assert_close(fips_logl(x), logl(x), "log", x);
	assert_true(isinf(fips_logl(0)) && fips_logl(0) < 0);
	assert_true(isnan(fips_logl(-1)));
	assert_true(isnan(fips_logl(NAN)));
}

static void test_log1p_is_exact_for_tiny_arguments(void **state)
{
	(void)state;
	for (long double x = 1e-30L; x < 1e10L; x *= 1.91L) {
		assert_close(fips_log1pl(x), log1pl(x), "log1p", x);
		if (x < 1)
			assert_close(fips_log1pl(-x), log1pl(-x), "log1p", -x);
	}
	assert_true(isinf(fips_log1pl(-1)));
	assert_true(isnan(fips_log1pl(-2)));
}

static void test_exp_and_expm1_match_libm_over_their_range(void **state)
{
	(void)state;
	for (long double x = -11000; x < 11000; x += 7.3L)
		assert_close(fips_expl(x), expl(x), "exp", x);
	for (long double x = -3; x < 3; x += 1.0L / 512)
		assert_close(fips_expl(x), expl(x), "exp", x);
	for (long double x = 1e-30L; x < 50; x *= 1.53L) {
		assert_close(fips_expm1l(x), expm1l(x), "expm1", x);
		assert_close(fips_expm1l(-x), expm1l(-x), "expm1", -x);
	}
	assert_true(fips_expl(-20000) == 0);
	assert_true(isinf(fips_expl(20000)));
}

/* The APT cut-off exactly as fips/sp800_90b.c computed it with libm. */
static long double libm_log_add(long double a, long double b)
{
	long double hi = a > b ? a : b, lo = a > b ? b : a;

	return isinf(lo) ? hi : hi + log1pl(expl(lo - hi));
}

static int libm_apt_cutoff(unsigned int w, double h, double alpha_log2)
{
	long double log_p = -(long double)h * logl(2.0L);
	long double log_q = logl(-expm1l(log_p));
	long double log_alpha = (long double)alpha_log2 * logl(2.0L);
	long double log_w_fact = lgammal((long double)w + 1), tail = -INFINITY;

	for (unsigned int c = w + 1; c-- > 0;) {
		long double term = log_w_fact - lgammal((long double)c + 1) -
				   lgammal((long double)(w - c) + 1) + c * log_p + (w - c) * log_q;

		tail = libm_log_add(tail, term);
		if (tail > log_alpha)
			return (int)c + 1;
	}
	return 0;
}

static void test_apt_cutoffs_equal_the_libm_computation_on_a_dense_grid(void **state)
{
	static const double alphas[] = { -20, -30, -40, -64, -128 };
	unsigned int compared = 0;

	(void)state;
	for (size_t a = 0; a < sizeof(alphas) / sizeof(alphas[0]); a++) {
		for (unsigned int bits = 1; bits <= 8; bits += 7) {
			for (unsigned int step = 1; step <= bits * 200; step++) {
				double h = step / 200.0;
				int got = sp800_90b_apt_cutoff(bits, h, alphas[a]);
				int want = libm_apt_cutoff(sp800_90b_apt_window(bits), h, alphas[a]);

				if (got != want)
					fail_msg("APT cut-off for %u-bit samples, H %.3f, alpha 2^%.0f: %d, libm %d",
						 bits, h, alphas[a], got, want);
				compared++;
			}
		}
	}
	assert_int_equal(compared, 5 * (200 + 1600));
}

static void test_rct_cutoff_rounds_up_and_snaps_decimal_h(void **state)
{
	(void)state;
	/* 1 + ceil(20 / H); 30 / 0.1 is 299.99999999999997 in binary. */
	assert_int_equal(sp800_90b_rct_cutoff(1, -20), 21);
	assert_int_equal(sp800_90b_rct_cutoff(0.1, -30), 301);
	assert_int_equal(sp800_90b_rct_cutoff(3, -20), 8);
	assert_int_equal(sp800_90b_rct_cutoff(0.7, -20), 30);
	for (unsigned int step = 1; step <= 800; step++) {
		double h = step / 100.0, q = 20.0 / h;
		double want = 1 + ceil(fabs(q - nearbyint(q)) <= 1e-9 * q ? nearbyint(q) : q);

		assert_int_equal(sp800_90b_rct_cutoff(h, -20), (int)want);
	}
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_log_matches_libm_from_subnormal_to_huge),
	cmocka_unit_test(test_log1p_is_exact_for_tiny_arguments),
	cmocka_unit_test(test_exp_and_expm1_match_libm_over_their_range),
	cmocka_unit_test(test_apt_cutoffs_equal_the_libm_computation_on_a_dense_grid),
	cmocka_unit_test(test_rct_cutoff_rounds_up_and_snaps_decimal_h)
)
