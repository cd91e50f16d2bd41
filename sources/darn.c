/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * POWER DARN source (Power ISA 3.0, POWER9 onward).
 *
 * DARN RT,L delivers a random number: L=2 a 64-bit "raw" number (RRN),
 * L=1 a 64-bit conditioned one (CRN), L=0 a 32-bit CRN. rngd prefers L=2:
 * the gate judges the generator's own output better than a conditioner's,
 * which would hide a failing noise source behind perfect-looking bits. L=2
 * is optional in the ISA, so open() tries it and falls back to L=1 when
 * the first DARN_SELFTEST_WORDS reads all fail, saying so in `rngd -l`.
 *
 * Failure is the all-ones value (0xFFFFFFFF_FFFFFFFF), "no number
 * available now": retried, then backed off with doubling sleeps, bounded.
 * A genuine all-ones word (probability 2^-64) is dropped along with the
 * errors, which costs nothing. Credit is 0.5 per bit, as for RDSEED and
 * RNDRRS: nothing outside the CPU can check the claim.
 *
 * Detection is AT_HWCAP2 & PPC_FEATURE2_DARN: on a POWER8 DARN is an
 * illegal instruction, so it is never executed without the kernel's word.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/cpu_source.h"
#include "sources/cpu_words.h"
#include "sources/darn.h"
#include "sources/source.h"

#if defined(__powerpc64__)
#include <sys/auxv.h>
#endif

/* ---- 1. The instruction ------------------------------------------------- */

#if defined(__powerpc64__)
static int native_hwcap2(unsigned long *out)
{
	*out = getauxval(AT_HWCAP2);
	return 0;
}

/* .machine power9, so the default -mcpu=power8 toolchain still assembles it. */
static uint64_t native_darn(unsigned int level)
{
	uint64_t v;

	if (level == DARN_LEVEL_RAW)
		__asm__ __volatile__(".machine push\n\t.machine power9\n\tdarn %0, 2\n\t.machine pop" : "=r"(v));
	else
		__asm__ __volatile__(".machine push\n\t.machine power9\n\tdarn %0, 1\n\t.machine pop" : "=r"(v));
	return v;
}
#else
static int native_hwcap2(unsigned long *out)
{
	*out = 0;
	return -ENOTSUP;
}

/* Never reached: probe and open refuse off POWER. */
static uint64_t native_darn(unsigned int level)
{
	(void)level;
	return DARN_ERROR;
}
#endif

const struct darn_hw darn_hw_native = {
	.hwcap2 = native_hwcap2,
	.darn = native_darn,
	.backoff = rng_sleep_ms,
};

/* ---- 2. State and options ----------------------------------------------- */

/* The strong instruction is DARN L=2 (raw), the weak one L=1 (conditioned). */
static const struct rng_cpu_source darn_defaults = {
	.hw = &darn_hw_native,
};

void darn_source_use_hw(struct rng_source *src, const struct darn_hw *hw)
{
	rng_cpu_source_use_hw(src, hw);
}

static unsigned int level_of(const struct rng_cpu_source *st)
{
	return st->strong ? DARN_LEVEL_RAW : DARN_LEVEL_CONDITIONED;
}

int darn_source_level(const struct rng_source *src)
{
	int strong = rng_cpu_source_uses_strong(src);

	return strong < 0 ? strong : (int)level_of(src->priv);
}

static int darn_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct rng_cpu_source *st;
	enum rng_cpu_choice choice;

	if (strcmp(key, "level") != 0)
		return rng_source_why(src, -EINVAL, "unknown option '%s' (known: level)", key);
	if (strcmp(value, "auto") == 0)
		choice = RNG_CPU_AUTO;
	else if (strcmp(value, "raw") == 0 || strcmp(value, "2") == 0)
		choice = RNG_CPU_STRONG;
	else if (strcmp(value, "conditioned") == 0 || strcmp(value, "1") == 0)
		choice = RNG_CPU_WEAK;
	else
		return rng_source_why(src, -EINVAL, "level '%s' is not auto, raw (2) or conditioned (1)", value);
	st = src->priv;
	st->choice = choice;
	return 0;
}

/* ---- 3. Probe, open, read, close ---------------------------------------- */

static int check_feature(struct rng_source *src, const struct darn_hw *hw)
{
	return rng_cpu_source_need_hwcap2(src, hw->hwcap2, DARN_HWCAP2_DARN, "not a 64-bit POWER CPU: no DARN",
					  "CPU lacks DARN (no PPC_FEATURE2_DARN: POWER9 or later needed)");
}

static int darn_probe(struct rng_source *src)
{
	const struct rng_cpu_source *st = src->priv;
	enum rng_cpu_choice want = st->choice;
	int err = check_feature(src, st->hw);

	if (err < 0)
		return err;
	return rng_source_why(src, 0, "DARN (ISA 3.0): %s", want == RNG_CPU_WEAK ? "L=1 conditioned, as configured"
			      : want == RNG_CPU_STRONG ? "L=2 raw, as configured" : "L=2 raw where implemented, else L=1");
}

/* DARN at one level: the all-ones error value never leaves. */
struct darn_at_level {
	const struct darn_hw *hw;
	unsigned int level;
};

static bool try_darn(const void *ctx, uint64_t *out)
{
	const struct darn_at_level *at = ctx;

	*out = at->hw->darn(at->level);
	return *out != DARN_ERROR;
}

static struct rng_cpu_words darn_words(const struct darn_at_level *at)
{
	return (struct rng_cpu_words){ .try_word = try_darn, .backoff = at->hw->backoff, .ctx = at,
				       .retries = DARN_RETRIES };
}

/*
 * DARN_SELFTEST_WORDS words at @level: -EAGAIN if none came (the level is
 * not implemented or the unit is down), -EIO if it stopped or they were
 * all the same.
 */
static int selftest(struct rng_source *src, const struct darn_hw *hw, unsigned int level)
{
	const struct darn_at_level at = { hw, level };
	const struct rng_cpu_words w = darn_words(&at);
	uint64_t first;
	int stopped_at;

	switch (rng_cpu_words_selftest(&w, DARN_SELFTEST_WORDS, DARN_LEVEL_PROBE_ROUNDS, DARN_BACKOFF_ROUNDS,
				       &stopped_at, &first)) {
	case RNG_CPU_SELFTEST_OK:
		return 0;
	case RNG_CPU_SELFTEST_NONE:
		return -EAGAIN;
	case RNG_CPU_SELFTEST_STOPPED:
		return rng_source_why(src, -EIO, "DARN L=%u self-test: only the error value after %d words", level,
				      stopped_at);
	case RNG_CPU_SELFTEST_STUCK:
	default:
		return rng_source_why(src, -EIO, "DARN L=%u self-test: %d identical words 0x%016llx (stuck generator)",
				      level, DARN_SELFTEST_WORDS, (unsigned long long)first);
	}
}

static int darn_open(struct rng_source *src)
{
	struct rng_cpu_source *st = src->priv;
	const char *fallback = "";
	int err;

	err = check_feature(src, st->hw);
	if (err < 0)
		return err;
	st->strong = st->choice != RNG_CPU_WEAK;
	err = selftest(src, st->hw, level_of(st));
	if (err == -EAGAIN && st->choice == RNG_CPU_AUTO) {
		st->strong = false;
		fallback = " (L=2 gave only the error value)";
		err = selftest(src, st->hw, level_of(st));
	}
	if (err == -EAGAIN)
		return rng_source_why(src, -EIO, "DARN L=%u returned only the error value (all ones) %d times",
				      level_of(st), DARN_RETRIES * DARN_LEVEL_PROBE_ROUNDS);
	if (err < 0)
		return err;
	rng_cpu_source_opened(src);
	(void)rng_source_why(src, 0, "reading DARN L=%u (%s)%s", level_of(st), st->strong ? "raw" : "conditioned",
			     fallback);
	return 0;
}

static ssize_t darn_read(struct rng_source *src, void *buf, size_t len)
{
	const struct rng_cpu_source *st = src->priv;
	const struct darn_at_level at = { st->hw, level_of(st) };
	const struct rng_cpu_words w = darn_words(&at);
	ssize_t n = rng_cpu_source_read(src, &w, buf, len, DARN_BACKOFF_ROUNDS);

	if (n != -EAGAIN)
		return n;
	return rng_source_why(src, -EIO, "DARN L=%u returned the error value %d times in a row over %u ms; retrying later",
			      level_of(st), DARN_RETRIES * DARN_BACKOFF_ROUNDS, DARN_BACKOFF_TOTAL_MS);
}

const struct rng_source_ops rng_source_darn_ops = {
	.name = "darn",
	.summary = "POWER9+ DARN instruction (L=2 raw, else L=1 conditioned)",
	.keys = "level=auto: auto, raw (2) or conditioned",
	.default_entropy_per_bit = DARN_ENTROPY_PER_BIT,
	.default_priority = 3,
	.priv_size = sizeof(struct rng_cpu_source),
	.priv_defaults = &darn_defaults,
	.probe = darn_probe,
	.open = darn_open,
	.read = darn_read,
	.close = rng_cpu_source_close,
	.set_option = darn_set_option,
};
