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

/* ---- 2. State and options ----------------------------------------------- */

enum rndr_choice { CHOICE_AUTO, CHOICE_RNDRRS, CHOICE_RNDR };

struct rndr_state {
	const struct rndr_hw *hw;
	enum rndr_choice choice;
	int open;
	int use_rndrrs;
	int rndrrs_fact;        /* atomic: what default_credit() reports */
};

static const struct rndr_state rndr_defaults = {
	.hw = &rndr_hw_native,
};

void rndr_source_use_hw(struct rng_source *src, const struct rndr_hw *hw)
{
	struct rndr_state *st = src->priv;

	st->hw = hw;
}

int rndr_source_uses_rndrrs(const struct rng_source *src)
{
	const struct rndr_state *st = src->priv;

	if (!st->open)
		return -EBADF;
	return st->use_rndrrs;
}

static int rndr_set_option(struct rng_source *src, const char *key, const char *value)
{
	static const char *const names[] = { "auto", "rndrrs", "rndr" }; /* enum rndr_choice's order */
	struct rndr_state *st = src->priv;
	int choice = rng_cpu_instruction_option(src, key, value, names);

	if (choice < 0)
		return choice;
	st->choice = (enum rndr_choice)choice;
	return 0;
}

/* ---- 3. Probe, open, read, close ---------------------------------------- */

static const struct rndr_hw *hw_of(const struct rng_source *src)
{
	const struct rndr_state *st = src->priv;

	return st->hw;
}

static enum rndr_choice choice_of(const struct rng_source *src)
{
	const struct rndr_state *st = src->priv;

	return st->choice;
}

/* FEAT_RNG gives both instructions; which one is used depends on the choice. */
static int check_feature(struct rng_source *src, const struct rndr_hw *hw)
{
	unsigned long caps;

	if (hw->hwcap2(&caps) < 0)
		return rng_source_why(src, -ENODEV, "not an arm64 CPU: no RNDR/RNDRRS");
	if (!(caps & RNDR_HWCAP2_RNG))
		return rng_source_why(src, -ENODEV, "CPU lacks FEAT_RNG (no HWCAP2_RNG): no RNDRRS or RNDR");
	return 0;
}

/* Probe (main thread) and open (reader thread) report which instruction
 * is read; the main thread's default_credit() reads the fact. */
static void report_rndrrs(struct rng_source *src, int use_rndrrs)
{
	struct rndr_state *st = src->priv;

	__atomic_store_n(&st->rndrrs_fact, use_rndrrs, __ATOMIC_RELEASE);
}

/* The ops default is RNDR's; RNDRRS raises it. The daemon applies it
 * unless the user set a credit, and caps it with -e. */
static double rndr_default_credit(const struct rng_source *src)
{
	const struct rndr_state *st = src->priv;

	if (st && __atomic_load_n(&st->rndrrs_fact, __ATOMIC_ACQUIRE))
		return RNDRRS_ENTROPY_PER_BIT;
	return RNDR_ENTROPY_PER_BIT;
}

static int rndr_probe(struct rng_source *src)
{
	int err = check_feature(src, hw_of(src));
	int use_rndrrs = choice_of(src) != CHOICE_RNDR;

	if (err < 0)
		return err;
	report_rndrrs(src, use_rndrrs);
	return rng_source_why(src, 0, "FEAT_RNG: %s", use_rndrrs ? "RNDRRS (reseeded every read)"
				   : "RNDR (DRBG output), as configured");
}

static bool try_rndr(const void *ctx, uint64_t *out)
{
	const struct rndr_state *st = ctx;

	return (st->use_rndrrs ? st->hw->rndrrs : st->hw->rndr)(out) != 0;
}

static struct rng_cpu_words rndr_words(const struct rndr_state *st)
{
	return (struct rng_cpu_words){ .try_word = try_rndr, .backoff = st->hw->backoff, .ctx = st,
				       .retries = RNDR_RETRIES };
}

static const char *insn_name(const struct rndr_state *st)
{
	return st->use_rndrrs ? "RNDRRS" : "RNDR";
}

static int rndr_open(struct rng_source *src)
{
	struct rndr_state *st = src->priv;
	const struct rng_cpu_words w = rndr_words(st);
	uint64_t first;
	int stopped_at, err;

	err = check_feature(src, st->hw);
	if (err < 0)
		return err;
	st->use_rndrrs = st->choice != CHOICE_RNDR;

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
	report_rndrrs(src, st->use_rndrrs);
	st->open = 1;
	(void)rng_source_why(src, 0, "reading %s", st->use_rndrrs ? "RNDRRS" : "RNDR (DRBG output)");
	return 0;
}

static ssize_t rndr_read(struct rng_source *src, void *buf, size_t len)
{
	const struct rndr_state *st = src->priv;
	const struct rng_cpu_words w = rndr_words(st);
	ssize_t n;

	if (!st->open)
		return rng_source_why(src, -EBADF, "read before open");
	n = rng_cpu_words_read(&w, buf, len, RNDR_BACKOFF_ROUNDS);
	if (n < 0)
		return rng_source_why(src, -EIO, "%s failed (NZCV) %d times in a row over %u ms; retrying later",
				      insn_name(st), RNDR_RETRIES * RNDR_BACKOFF_ROUNDS, RNDR_BACKOFF_TOTAL_MS);
	return n;
}

static void rndr_close(struct rng_source *src)
{
	struct rndr_state *st = src->priv;

	st->open = 0;
}

const struct rng_source_ops rng_source_rndr_ops = {
	.name = "rndr",
	.summary = "arm64 RNDRRS (preferred) or RNDR instruction (FEAT_RNG)",
	.keys = "instruction=auto: auto, rndrrs or rndr",
	.default_entropy_per_bit = RNDR_ENTROPY_PER_BIT,
	.default_credit = rndr_default_credit,
	.default_priority = 3,
	.priv_size = sizeof(struct rndr_state),
	.priv_defaults = &rndr_defaults,
	.probe = rndr_probe,
	.open = rndr_open,
	.read = rndr_read,
	.close = rndr_close,
	.set_option = rndr_set_option,
};
