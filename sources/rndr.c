/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 RNDRRS / RNDR source (FEAT_RNG, Armv8.5-A).
 *
 * RNDRRS returns a value from a DRBG reseeded from the true entropy source
 * immediately before the read; RNDR returns DRBG output reseeded at an
 * IMPLEMENTATION DEFINED rate (Arm ARM, D13.2 "RNDR, RNDRRS"). RNDRRS is
 * preferred, like RDSEED over RDRAND, and gets the same credit (0.5 per
 * bit: half of what the vendor implies, since nothing outside the CPU can
 * check it). RNDR gets RDRAND's 1/512: Arm documents no reseed bound at
 * all, so Intel's one-in-512 rule is the most that can be argued for.
 *
 * Both instructions report failure by returning 0 with PSTATE.NZCV =
 * 0b0100: "no value could be produced in a reasonable time, try again".
 * A word is attempted RNDR_RETRIES times, then the read backs off with
 * doubling sleeps; after RNDR_BACKOFF_ROUNDS rounds it hands over what it
 * has or fails, and the daemon re-opens later.
 *
 * Detection is the kernel's word, AT_HWCAP2 & HWCAP2_RNG: the kernel sets
 * it only when every CPU of the system has FEAT_RNG, and reading the ID
 * register ourselves would trap on kernels that do not emulate it.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/cpu_source.h"
#include "sources/cpu_words.h"
#include "sources/rndr.h"
#include "sources/source.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* ---- 1. The instructions ------------------------------------------------ */

#if defined(__aarch64__)
static int native_hwcap2(unsigned long *out)
{
	*out = getauxval(AT_HWCAP2);
	return 0;
}

/* By system register name, so no -march=armv8.5-a+rng is needed to assemble. */
static int native_rndrrs(uint64_t *out)
{
	uint64_t v;
	int ok;

	__asm__ __volatile__("mrs %0, s3_3_c2_c4_1\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
	*out = v;
	return ok;
}

static int native_rndr(uint64_t *out)
{
	uint64_t v;
	int ok;

	__asm__ __volatile__("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
	*out = v;
	return ok;
}
#else
static int native_hwcap2(unsigned long *out)
{
	*out = 0;
	return -ENOTSUP;
}

/* Never reached: probe and open refuse off arm64. */
static int native_rndrrs(uint64_t *out)
{
	*out = 0;
	return 0;
}

static int native_rndr(uint64_t *out)
{
	*out = 0;
	return 0;
}
#endif

const struct rndr_hw rndr_hw_native = {
	.hwcap2 = native_hwcap2,
	.rndrrs = native_rndrrs,
	.rndr = native_rndr,
	.backoff = rng_sleep_ms,
};

/* ---- 2. State ---------------------------------------------------------- */

/* The strong instruction is RNDRRS, the weak one RNDR. */
static const struct rng_cpu_source rndr_defaults = {
	.hw = &rndr_hw_native,
	.names = { "auto", "rndrrs", "rndr" },
};

void rndr_source_use_hw(struct rng_source *src, const struct rndr_hw *hw)
{
	rng_cpu_source_use_hw(src, hw);
}

/* ---- 3. Probe, open, read, close ---------------------------------------- */

/* FEAT_RNG gives both instructions; which one is used depends on the choice. */
static int check_feature(struct rng_source *src, const struct rndr_hw *hw)
{
	return rng_cpu_source_need_hwcap2(src, hw->hwcap2, RNDR_HWCAP2_RNG, "not an arm64 CPU: no RNDR/RNDRRS",
					  "CPU lacks FEAT_RNG (no HWCAP2_RNG): no RNDRRS or RNDR");
}

/* The ops default is RNDR's; RNDRRS raises it. The daemon applies it
 * unless the user set a credit, and caps it with -e. */
static double rndr_default_credit(const struct rng_source *src)
{
	return rng_cpu_source_credit(src, RNDRRS_ENTROPY_PER_BIT, RNDR_ENTROPY_PER_BIT);
}

static int rndr_probe(struct rng_source *src)
{
	const struct rng_cpu_source *st = src->priv;
	int err = check_feature(src, st->hw);
	bool use_rndrrs = st->choice != RNG_CPU_WEAK;

	if (err < 0)
		return err;
	rng_cpu_source_report(src, use_rndrrs);
	return rng_source_why(src, 0, "FEAT_RNG: %s", use_rndrrs ? "RNDRRS (reseeded every read)"
				   : "RNDR (DRBG output), as configured");
}

static bool try_rndr(const void *ctx, uint64_t *out)
{
	const struct rng_cpu_source *st = ctx;
	const struct rndr_hw *hw = st->hw;

	return (st->strong ? hw->rndrrs : hw->rndr)(out) != 0;
}

static struct rng_cpu_words rndr_words(const struct rng_cpu_source *st)
{
	const struct rndr_hw *hw = st->hw;

	return (struct rng_cpu_words){ .try_word = try_rndr, .backoff = hw->backoff, .ctx = st,
				       .retries = RNDR_RETRIES };
}

static const char *insn_name(const struct rng_cpu_source *st)
{
	return st->strong ? "RNDRRS" : "RNDR";
}

static int rndr_open(struct rng_source *src)
{
	struct rng_cpu_source *st = src->priv;
	const struct rng_cpu_words w = rndr_words(st);
	uint64_t first;
	int stopped_at, err;

	err = check_feature(src, st->hw);
	if (err < 0)
		return err;
	st->strong = st->choice != RNG_CPU_WEAK;

	/* A generator that repeats one word is broken even if NZCV says fine. */
	switch (rng_cpu_words_selftest(&w, RNDR_SELFTEST_WORDS, RNDR_BACKOFF_ROUNDS, RNDR_BACKOFF_ROUNDS, &stopped_at,
				       &first)) {
	case RNG_CPU_SELFTEST_OK:
		break;
	case RNG_CPU_SELFTEST_NONE:
	case RNG_CPU_SELFTEST_STOPPED:
		return rng_source_why(src, -EIO, "%s self-test: failed (NZCV) %d times in a row",
				      insn_name(st), RNDR_RETRIES * RNDR_BACKOFF_ROUNDS);
	case RNG_CPU_SELFTEST_STUCK:
	default:
		return rng_source_why(src, -EIO, "%s self-test: %d identical words 0x%016llx (stuck generator)",
				      insn_name(st), RNDR_SELFTEST_WORDS, (unsigned long long)first);
	}
	rng_cpu_source_opened(src);
	(void)rng_source_why(src, 0, "reading %s", st->strong ? "RNDRRS" : "RNDR (DRBG output)");
	return 0;
}

static ssize_t rndr_read(struct rng_source *src, void *buf, size_t len)
{
	const struct rng_cpu_source *st = src->priv;
	const struct rng_cpu_words w = rndr_words(st);
	ssize_t n = rng_cpu_source_read(src, &w, buf, len, RNDR_BACKOFF_ROUNDS);

	if (n != -EAGAIN)
		return n;
	return rng_source_why(src, -EIO, "%s failed (NZCV) %d times in a row over %u ms; retrying later", insn_name(st),
			      RNDR_RETRIES * RNDR_BACKOFF_ROUNDS, RNDR_BACKOFF_TOTAL_MS);
}

const struct rng_source_ops rng_source_rndr_ops = {
	.name = "rndr",
	.summary = "arm64 RNDRRS (preferred) or RNDR instruction (FEAT_RNG)",
	.keys = "instruction=auto: auto, rndrrs or rndr",
	.default_entropy_per_bit = RNDR_ENTROPY_PER_BIT,
	.default_credit = rndr_default_credit,
	.default_priority = 3,
	.priv_size = sizeof(struct rng_cpu_source),
	.priv_defaults = &rndr_defaults,
	.probe = rndr_probe,
	.open = rndr_open,
	.read = rndr_read,
	.close = rng_cpu_source_close,
	.set_option = rng_cpu_source_set_option,
};
