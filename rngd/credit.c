/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <math.h>

#include "rngd/credit.h"
#include "sources/source.h"

double credit_entropy_per_bit(const struct rng_source *src, bool user_set, bool circular)
{
	const struct rng_source_ops *ops = src->ops;
	double v = src->entropy_per_bit;

	if (!user_set && ops->default_credit)
		v = ops->default_credit(src);
	/* -e caps the default, whichever fact raised it; a credit the user
	 * set per source wins (rngd.8). */
	if (!user_set && v > src->credit_ceiling)
		v = src->credit_ceiling;
	if (credit_exceeds_fixed(ops, v))
		v = ops->default_entropy_per_bit;
	if (!credit_allowed(src))
		v = 0.0;
	if (circular)
		v = 0.0;
	return v;
}

bool credit_allowed(const struct rng_source *src)
{
	return !src->ops->may_credit || src->ops->may_credit(src);
}

bool credit_is_circular(const struct rng_source *src)
{
	return src->ops->reads_kernel_generator && src->ops->reads_kernel_generator(src);
}

bool credit_exceeds_fixed(const struct rng_source_ops *ops, double entropy_per_bit)
{
	return ops->credit_fixed && entropy_per_bit > ops->default_entropy_per_bit;
}

bool credit_entropy_per_bit_valid(double entropy_per_bit)
{
	return isfinite(entropy_per_bit) && entropy_per_bit >= 0.0 && entropy_per_bit <= 1.0;
}

unsigned int credit_bits_for(size_t len, double entropy_per_bit)
{
	double bits;

	if (!credit_entropy_per_bit_valid(entropy_per_bit) || len == 0)
		return 0;
	/* Rounding down: a claim never exceeds what was configured. */
	bits = floor((double)len * 8.0 * entropy_per_bit);
	if (bits > (double)len * 8.0)
		bits = (double)len * 8.0;
	if (bits > (double)(~0u))
		return ~0u;
	return (unsigned int)bits;
}

unsigned int credit_split(unsigned int credit_left, size_t left, size_t part)
{
	if (left == 0)
		return 0;
	if (part >= left)
		return credit_left;
	return (unsigned int)(((unsigned long long)credit_left * part) / left);
}
