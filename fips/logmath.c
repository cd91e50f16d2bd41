/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The natural logarithm and exponential in long double, for the SP 800-90B
 * cut-offs only, so that rngd does not link libm: the few functions it
 * would call cost 0.45 MB resident (the kernel maps file pages around each
 * one touched), a fifth of the daemon's budget. Cut-offs are computed once
 * per configuration, so plain series that converge to long double
 * precision in a few dozen terms are fast enough; the results are checked
 * against exact arithmetic by tests/sp800-90b/cutoffs.txt and against
 * libm by tests/unit/test_fips_logmath.c.
 */
#include <config.h>

#include <math.h>

#include "fips/internal.h"

#define LN2 FIPS_LN2L
/* ln 2 split so that k * LN2_HI is exact for any |k| < 2^40 (Cody-Waite). */
#define LN2_HI 0.693145751953125L
#define LN2_LO 1.428606820309417232121458176568e-6L
#define SQRT_HALF 0.707106781186547524400844362104849039L
/* Well below long double's epsilon (1.08e-19): the series stop there. */
#define SERIES_EPS 1e-22L
#define SERIES_MAX_TERMS 200

/* 2 atanh(s) = log((1 + s) / (1 - s)), for |s| <= 1/3. */
static long double two_atanh(long double s)
{
	long double s2 = s * s, power = s, sum = 0;

	for (int k = 0; k < SERIES_MAX_TERMS; k++) {
		long double term = power / (2 * k + 1);

		sum += term;
		if (fabsl(term) <= SERIES_EPS * fabsl(sum))
			break;
		power *= s2;
	}
	return 2 * sum;
}

long double fips_logl(long double x)
{
	long double m;
	int e;

	if (isnan(x) || x < 0)
		return NAN;
	if (x == 0)
		return -INFINITY;
	if (isinf(x))
		return x;
	m = frexpl(x, &e);              /* x = m * 2^e, m in [0.5, 1) */
	if (m < SQRT_HALF) {
		m *= 2;
		e--;
	}
	/* m in [0.707, 1.414): s = (m - 1) / (m + 1) within +-0.172. */
	return two_atanh((m - 1) / (m + 1)) + e * LN2;
}

long double fips_log1pl(long double x)
{
	if (isnan(x) || x < -1)
		return NAN;
	if (x == -1)
		return -INFINITY;
	/* log(1 + x) = 2 atanh(x / (2 + x)); exact for tiny x, |s| <= 1/3 on [-0.5, 1]. */
	if (x >= -0.5L && x <= 1)
		return two_atanh(x / (2 + x));
	return fips_logl(1 + x);
}

/* e^r - 1 for |r| <= 0.35 by its Taylor series. */
static long double expm1_small(long double r)
{
	long double term = r, sum = 0;

	for (int k = 2; k < SERIES_MAX_TERMS; k++) {
		sum += term;
		if (fabsl(term) <= SERIES_EPS * fabsl(sum))
			break;
		term *= r / k;
	}
	return sum;
}

long double fips_expl(long double x)
{
	long double k, r;

	if (isnan(x))
		return x;
	if (x > 11356)                  /* beyond LDBL_MAX */
		return INFINITY;
	if (x < -11400)                 /* below the smallest subnormal */
		return 0;
	/* x = k ln 2 + r, |r| <= ln 2 / 2 (plus rounding). */
	k = (long double)(long)(x / LN2 + (x < 0 ? -0.5L : 0.5L));
	r = (x - k * LN2_HI) - k * LN2_LO;
	return ldexpl(1 + expm1_small(r), (int)k);
}

long double fips_expm1l(long double x)
{
	if (x >= -0.35L && x <= 0.35L)
		return expm1_small(x);  /* no cancellation for tiny x */
	return fips_expl(x) - 1;
}
