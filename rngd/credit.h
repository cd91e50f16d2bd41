/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The credit policy: a block that passed its source's gate earns
 * bits x entropy_per_bit; a failed block earns nothing and is either
 * dropped or mixed in with zero credit (--on-fail). When a block reaches
 * the sink in several writes (-s), the credit is split so that the parts
 * add up to the block's credit exactly.
 */
#ifndef RNGD_CREDIT_H
#define RNGD_CREDIT_H

#include <stdbool.h>
#include <stddef.h>

/* floor(len * 8 * entropy_per_bit), 0 for NaN/negative, at most len * 8. */
unsigned int credit_bits_for(size_t len, double entropy_per_bit);

struct rng_source;

/*
 * The credit per bit the daemon's main thread gives @src's passing blocks
 * now: src->entropy_per_bit if the user set it (@user_set), else what the
 * source's facts make its default (default_credit(): RDSEED or RDRAND)
 * capped by src->credit_ceiling (-e); never above the default of a
 * credit_fixed source; 0 while the source says its bytes may earn none
 * (may_credit()), and 0, whatever the user set, when the bytes are
 * @circular: read from this kernel's own generator and going back to it
 * (the caller knows the sink, and for a block, the fact it was read with:
 * a re-open may have changed the source's since). Sources never write
 * the credit themselves: only the main thread decides it.
 */
double credit_entropy_per_bit(const struct rng_source *src, bool user_set, bool circular);

/* False while @src says its bytes may earn no credit (source.h,
 * may_credit: a file whose read offset is not kept). */
bool credit_allowed(const struct rng_source *src);

/*
 * True while @src reads this machine's kernel generator (/dev/urandom,
 * /dev/random): crediting its bytes to that kernel would count the
 * kernel's own output as new entropy (rng-tools' "rngd -r /dev/urandom").
 */
bool credit_is_circular(const struct rng_source *src);

/* A valid entropy_per_bit setting: 0.0 .. 1.0. */
bool credit_entropy_per_bit_valid(double entropy_per_bit);

struct rng_source_ops;

/*
 * The one rule for a credit_fixed source (sysstat): nothing may raise its
 * credit above its default. True if @entropy_per_bit would; -O refuses
 * such a setting and credit_entropy_per_bit() never gives it.
 */
bool credit_exceeds_fixed(const struct rng_source_ops *ops, double entropy_per_bit);

/*
 * Credit for the next @part bytes of a block that still has @left bytes
 * worth @credit_left bits: proportional, with the rounding carried so the
 * last part takes what remains.
 */
unsigned int credit_split(unsigned int credit_left, size_t left, size_t part);

#endif
