/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SP 800-90B (January 2018) section 4.4 cut-offs, computed from the
 * claimed min-entropy H per sample and the false-positive probability
 * alpha = 2^alpha_log2. tests/sp800-90b/cutoffs.py recomputes them with
 * exact arithmetic and checks the table these functions are tested on.
 */
#include <config.h>

#include <errno.h>
#include <math.h>

#include "fips/internal.h"

/* 90B 4.4.2: windows of 1024 binary samples, 512 for larger samples. */
#define APT_WINDOW_BITS 1024
#define APT_WINDOW_BYTES 512
/* Samples are bits or bytes, so H can never exceed 8. */
#define MAX_SAMPLE_BITS 8
/* Cut-offs beyond this would never fire within a block's lifetime. */
#define RCT_CUTOFF_MAX 100000000.0
/*
 * H is typed in decimal (0.1, 0.3) and is not exact in binary, so a
 * quotient within this relative distance of an integer is taken as that
 * integer; otherwise ceil() of 299.99999999999997 would not be 300.
 */
#define INTEGER_SNAP 1e-9
#define LN2 FIPS_LN2L

static bool alpha_ok(double alpha_log2)
{
	return isfinite(alpha_log2) && alpha_log2 < 0 && alpha_log2 >= SP800_90B_ALPHA_LOG2_MIN;
}

int sp800_90b_rct_cutoff(double h, double alpha_log2)
{
	double q, nearest;

	if (!isfinite(h) || h <= 0 || h > MAX_SAMPLE_BITS || !alpha_ok(alpha_log2))
		return -EINVAL;
	q = -alpha_log2 / h;
	if (q > RCT_CUTOFF_MAX)
		return -EINVAL;
	/* q is positive and at most RCT_CUTOFF_MAX: integer casts round it. */
	nearest = (double)(long)(q + 0.5);
	if (fabs(q - nearest) <= INTEGER_SNAP * q)
		q = nearest;
	return 1 + (int)q + ((double)(int)q < q);
}

unsigned int sp800_90b_apt_window(unsigned int sample_bits)
{
	return sample_bits == 1 ? APT_WINDOW_BITS : APT_WINDOW_BYTES;
}

static long double log_add(long double a, long double b)
{
	long double hi = a > b ? a : b, lo = a > b ? b : a;

	if (isinf(lo))
		return hi;
	return hi + fips_log1pl(fips_expl(lo - hi));
}

/*
 * The smallest C with P(X >= C) <= alpha for X ~ Binomial(W, p), p = 2^-H:
 * 90B's C = 1 + CRITBINOM(W, 2^-H, 1 - alpha). The tail is summed from the
 * top in log space, where even p^W = 2^-8192 is representable. log C(W, c)
 * is carried from C(W, W) = 1 down, one ratio (c + 1) / (W - c) a step.
 */
int sp800_90b_apt_cutoff(unsigned int sample_bits, double h, double alpha_log2)
{
	unsigned int w;
	long double log_p, log_q, log_alpha, log_binom = 0, tail = -INFINITY;

	if ((sample_bits != 1 && sample_bits != 8) || !isfinite(h) || h <= 0 ||
	    h > sample_bits || !alpha_ok(alpha_log2))
		return -EINVAL;
	w = sp800_90b_apt_window(sample_bits);
	log_p = -(long double)h * LN2;
	log_q = fips_logl(-fips_expm1l(log_p));  /* log(1 - p), exact for tiny H */
	log_alpha = (long double)alpha_log2 * LN2;

	for (unsigned int c = w + 1; c-- > 0;) {
		long double term;

		if (c < w)
			log_binom += fips_logl((long double)(c + 1) / (long double)(w - c));
		term = log_binom + c * log_p + (w - c) * log_q;
		tail = log_add(tail, term);
		if (tail > log_alpha)
			return (int)c + 1;
	}
	return 0;  /* unreachable: P(X >= 0) = 1 > alpha */
}
