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

struct darn_state {
	const struct darn_hw *hw;
	unsigned int want_level; /* 0: raw if it works, else conditioned */
	unsigned int level;
	int open;
};

static const struct darn_state darn_defaults = {
	.hw = &darn_hw_native,
};

void darn_source_use_hw(struct rng_source *src, const struct darn_hw *hw)
{
	struct darn_state *st = src->priv;

	st->hw = hw;
}

int darn_source_level(const struct rng_source *src)
{
	const struct darn_state *st = src->priv;

	if (!st->open)
		return -EBADF;
	return (int)st->level;
}

static int darn_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct darn_state *st;
	unsigned int level;

	if (strcmp(key, "level") != 0)
		return rng_source_why(src, -EINVAL, "unknown option '%s' (known: level)", key);
	if (strcmp(value, "auto") == 0)
		level = 0;
	else if (strcmp(value, "raw") == 0 || strcmp(value, "2") == 0)
		level = DARN_LEVEL_RAW;
	else if (strcmp(value, "conditioned") == 0 || strcmp(value, "1") == 0)
		level = DARN_LEVEL_CONDITIONED;
	else
		return rng_source_why(src, -EINVAL, "level '%s' is not auto, raw (2) or conditioned (1)", value);
	st = src->priv;
	st->want_level = level;
	return 0;
}

/* ---- 3. Probe, open, read, close ---------------------------------------- */

static int check_feature(struct rng_source *src, const struct darn_hw *hw)
{
	unsigned long caps;

	if (hw->hwcap2(&caps) < 0)
		return rng_source_why(src, -ENODEV, "not a 64-bit POWER CPU: no DARN");
	if (!(caps & DARN_HWCAP2_DARN))
		return rng_source_why(src, -ENODEV, "CPU lacks DARN (no PPC_FEATURE2_DARN: POWER9 or later needed)");
	return 0;
}

static int darn_probe(struct rng_source *src)
{
	const struct darn_state *st = src->priv;
	const struct darn_hw *hw = st->hw;
	unsigned int want = st->want_level;
	int err = check_feature(src, hw);

	if (err < 0)
		return err;
	return rng_source_why(src, 0, "DARN (ISA 3.0): %s", want == DARN_LEVEL_CONDITIONED ? "L=1 conditioned, as configured"
			      : want == DARN_LEVEL_RAW ? "L=2 raw, as configured" : "L=2 raw where implemented, else L=1");
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
static int selftest(struct rng_source *src, const struct darn_state *st, unsigned int level)
{
	const struct darn_at_level at = { st->hw, level };
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
	struct darn_state *st = src->priv;
	const char *fallback = "";
	int err;

	err = check_feature(src, st->hw);
	if (err < 0)
		return err;
	st->level = st->want_level ? st->want_level : DARN_LEVEL_RAW;
	err = selftest(src, st, st->level);
	if (err == -EAGAIN && !st->want_level) {
		st->level = DARN_LEVEL_CONDITIONED;
		fallback = " (L=2 gave only the error value)";
		err = selftest(src, st, st->level);
	}
	if (err == -EAGAIN)
		return rng_source_why(src, -EIO, "DARN L=%u returned only the error value (all ones) %d times",
				      st->level, DARN_RETRIES * DARN_LEVEL_PROBE_ROUNDS);
	if (err < 0)
		return err;
	st->open = 1;
	(void)rng_source_why(src, 0, "reading DARN L=%u (%s)%s", st->level,
			     st->level == DARN_LEVEL_RAW ? "raw" : "conditioned", fallback);
	return 0;
}

static ssize_t darn_read(struct rng_source *src, void *buf, size_t len)
{
	const struct darn_state *st = src->priv;
	const struct darn_at_level at = { st->hw, st->level };
	const struct rng_cpu_words w = darn_words(&at);
	ssize_t n;

	if (!st->open)
		return rng_source_why(src, -EBADF, "read before open");
	n = rng_cpu_words_read(&w, buf, len, DARN_BACKOFF_ROUNDS);
	if (n < 0)
		return rng_source_why(src, -EIO, "DARN L=%u returned the error value %d times in a row over %u ms; retrying later",
				      st->level, DARN_RETRIES * DARN_BACKOFF_ROUNDS, DARN_BACKOFF_TOTAL_MS);
	return n;
}

static void darn_close(struct rng_source *src)
{
	struct darn_state *st = src->priv;

	st->open = 0;
}

const struct rng_source_ops rng_source_darn_ops = {
	.name = "darn",
	.summary = "POWER9+ DARN instruction (L=2 raw, else L=1 conditioned)",
	.keys = "level=auto: auto, raw (2) or conditioned",
	.default_entropy_per_bit = DARN_ENTROPY_PER_BIT,
	.default_priority = 3,
	.priv_size = sizeof(struct darn_state),
	.priv_defaults = &darn_defaults,
	.probe = darn_probe,
	.open = darn_open,
	.read = darn_read,
	.close = darn_close,
	.set_option = darn_set_option,
};
