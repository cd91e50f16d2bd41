/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDSEED / RDRAND source.
 *
 * RDSEED returns conditioned output of the entropy source (NIST SP 800-90B/C
 * "ENRNG"); RDRAND returns the output of an AES-CTR DRBG reseeded from it.
 * RDSEED is preferred. RDRAND is a DRBG: Intel's own rule for getting seed
 * material out of it is to take one value in 512 (the DRBG reseeds at least
 * that often), so its default credit is 1/512 of a bit per bit; RDSEED gets
 * 0.5, half of what Intel claims, because nothing outside the CPU can check
 * it. Both are still gated like any other source.
 *
 * The instructions sit behind struct rdrand_hw so tests can drive every
 * failure path on any CPU.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/cpu_source.h"
#include "sources/cpu_words.h"
#include "sources/rdrand.h"
#include "sources/source.h"

/* ---- 1. The instructions ------------------------------------------------ */

#if defined(__x86_64__) || defined(__i386__)
/* One register's worth, 64 or 32 bits: 1 if the CPU delivered (CF=1). */
static int rdrand_reg(unsigned long *out)
{
	unsigned char ok;

	__asm__ __volatile__("rdrand %0; setc %1" : "=r"(*out), "=qm"(ok) : : "cc");
	return ok;
}

static int rdseed_reg(unsigned long *out)
{
	unsigned char ok;

	__asm__ __volatile__("rdseed %0; setc %1" : "=r"(*out), "=qm"(ok) : : "cc");
	return ok;
}

/* A 64-bit word: one instruction, or two on i386, whose registers hold 32
 * bits; good only if every one delivered. */
static int word64(int (*insn)(unsigned long *), uint64_t *out)
{
	unsigned long lo, hi;
	int ok = insn(&lo);

	*out = lo;
	if (sizeof(lo) < sizeof(*out)) {
		ok &= insn(&hi);
		*out |= (uint64_t)hi << 32;
	}
	return ok;
}

static int native_rdrand64(uint64_t *out)
{
	return word64(rdrand_reg, out);
}

static int native_rdseed64(uint64_t *out)
{
	return word64(rdseed_reg, out);
}

static void native_pause(void)
{
	__asm__ __volatile__("pause");
}
#else
/* Never reached: probe and open refuse without CPUID. */
static int native_rdrand64(uint64_t *out)
{
	*out = 0;
	return 0;
}

static int native_rdseed64(uint64_t *out)
{
	*out = 0;
	return 0;
}

static void native_pause(void)
{
}
#endif

/* The first "flags" line of /proc/cpuinfo: what the kernel trusts on this CPU. */
static int native_kernel_has_flag(const char *flag)
{
	char line[8192];
	size_t flen = strlen(flag);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p, *save = NULL;

		if (strncmp(line, "flags", 5) != 0 || !strchr(line, ':'))
			continue;
		found = 0;
		for (p = strtok_r(strchr(line, ':') + 1, " \t\n", &save); p; p = strtok_r(NULL, " \t\n", &save))
			if (strlen(p) == flen && strcmp(p, flag) == 0)
				found = 1;
		break;
	}
	(void)fclose(f);
	return found;
}

const struct rdrand_hw rdrand_hw_native = {
	.cpuid = cpuid_native,
	.rdrand64 = native_rdrand64,
	.rdseed64 = native_rdseed64,
	.pause = native_pause,
	.kernel_has_flag = native_kernel_has_flag,
};

/* ---- 2. State ---------------------------------------------------------- */

/* The strong instruction is RDSEED, the weak one RDRAND. */
static const struct rng_cpu_source rdrand_defaults = {
	.hw = &rdrand_hw_native,
	.names = { "auto", "rdseed", "rdrand" },
};

void rdrand_source_use_hw(struct rng_source *src, const struct rdrand_hw *hw)
{
	rng_cpu_source_use_hw(src, hw);
}

/* ---- 3. Probe, open, read, close ---------------------------------------- */

/*
 * The instructions this CPU offers and the kernel still trusts. Returns
 * CPUID_RDRAND/CPUID_RDSEED bits, or -ENODEV with a reason in src->why;
 * on success src->why says what will be read.
 */
static int usable_features(struct rng_source *src, const struct rdrand_hw *hw)
{
	unsigned features;
	const char *masked = "";

	if (cpuid_rdrand_features(hw->cpuid, &features) < 0)
		return rng_source_why(src, -ENODEV, "not an x86 CPU: no RDRAND/RDSEED");
	if ((features & CPUID_RDSEED) && hw->kernel_has_flag("rdseed") == 0) {
		features &= ~CPUID_RDSEED;
		masked = "RDSEED";
	}
	if ((features & CPUID_RDRAND) && hw->kernel_has_flag("rdrand") == 0) {
		features &= ~CPUID_RDRAND;
		masked = masked[0] ? "RDSEED and RDRAND" : "RDRAND";
	}
	if (!(features & (CPUID_RDRAND | CPUID_RDSEED)))
		return rng_source_why(src, -ENODEV, "%s", masked[0]
				      ? "CPUID offers RDRAND but the kernel disabled it (CPU erratum)"
				      : "CPU lacks RDSEED and RDRAND (CPUID)");
	if (features & CPUID_RDSEED)
		(void)rng_source_why(src, 0, "RDSEED available");
	else if (masked[0])
		(void)rng_source_why(src, 0, "RDRAND only: CPUID offers RDSEED but the kernel disabled it (CPU erratum)");
	else
		(void)rng_source_why(src, 0, "RDRAND only: CPU lacks RDSEED");
	return (int)features;
}

/* The ops default is RDRAND's; RDSEED raises it. The daemon applies it
 * unless the user set a credit (-O rdrand:entropy_per_bit). */
static double rdrand_default_credit(const struct rng_source *src)
{
	return rng_cpu_source_credit(src, RDSEED_ENTROPY_PER_BIT, RDRAND_ENTROPY_PER_BIT);
}

static int rdrand_probe(struct rng_source *src)
{
	const struct rng_cpu_source *st = src->priv;
	int features;

	features = usable_features(src, st->hw);
	if (features < 0)
		return features;
	if (st->choice != RNG_CPU_WEAK)
		rng_cpu_source_report(src, (features & CPUID_RDSEED) != 0);
	return 0;
}

static bool try_rdrand(const void *ctx, uint64_t *out)
{
	const struct rdrand_hw *hw = ctx;

	return hw->rdrand64(out) != 0;
}

/* RDSEED underflow is normal under load (the entropy source is slower
 * than the bus), so attempts are spaced with PAUSE. */
static bool try_rdseed(const void *ctx, uint64_t *out)
{
	const struct rdrand_hw *hw = ctx;

	if (hw->rdseed64(out))
		return true;
	hw->pause();
	return false;
}

/*
 * RDRAND is retried RDRAND_RETRIES times, as Intel's DRNG guide advises, in
 * one round: its failure means a broken DRNG, not a busy one. RDSEED gets
 * RDSEED_UNDERFLOW_ROUNDS rounds with a 1 ms sleep between them; the bound
 * keeps a dead unit from spinning forever.
 */
static struct rng_cpu_words rdrand_words(const struct rng_cpu_source *st)
{
	if (st->strong)
		return (struct rng_cpu_words){ .try_word = try_rdseed, .backoff = rng_sleep_ms, .ctx = st->hw,
					       .retries = RDSEED_RETRIES, .steady_backoff = true };
	return (struct rng_cpu_words){ .try_word = try_rdrand, .backoff = rng_sleep_ms, .ctx = st->hw,
				       .retries = RDRAND_RETRIES };
}

static unsigned int rdrand_rounds(const struct rng_cpu_source *st)
{
	return st->strong ? RDSEED_UNDERFLOW_ROUNDS : 1;
}

static const char *insn_name(const struct rng_cpu_source *st)
{
	return st->strong ? "RDSEED" : "RDRAND";
}

static int rdrand_open(struct rng_source *src)
{
	struct rng_cpu_source *st = src->priv;
	struct rng_cpu_words w;
	unsigned features;
	uint64_t first;
	int stopped_at, err;

	err = usable_features(src, st->hw);
	if (err < 0)
		return err;
	features = (unsigned)err;
	switch (st->choice) {
	case RNG_CPU_STRONG:
		if (!(features & CPUID_RDSEED))
			return rng_source_why(src, -ENODEV, "instruction rdseed requested but CPU lacks RDSEED");
		st->strong = true;
		break;
	case RNG_CPU_WEAK:
		if (!(features & CPUID_RDRAND))
			return rng_source_why(src, -ENODEV, "instruction rdrand requested but CPU lacks RDRAND");
		st->strong = false;
		break;
	case RNG_CPU_AUTO:
		st->strong = (features & CPUID_RDSEED) != 0;
		break;
	}

	/*
	 * Some AMD parts return CF=1 with all-ones after resume from suspend:
	 * a DRNG that repeats one word RDRAND_SELFTEST_WORDS times is broken.
	 */
	w = rdrand_words(st);
	switch (rng_cpu_words_selftest(&w, RDRAND_SELFTEST_WORDS, rdrand_rounds(st), rdrand_rounds(st), &stopped_at,
				       &first)) {
	case RNG_CPU_SELFTEST_OK:
		break;
	case RNG_CPU_SELFTEST_NONE:
	case RNG_CPU_SELFTEST_STOPPED:
		return rng_source_why(src, -EIO, "%s self-test: instruction keeps failing", insn_name(st));
	case RNG_CPU_SELFTEST_STUCK:
	default:
		return rng_source_why(src, -EIO, "%s self-test: %d identical words 0x%016llx (stuck DRNG)",
				      insn_name(st), RDRAND_SELFTEST_WORDS, (unsigned long long)first);
	}

	rng_cpu_source_opened(src);
	(void)rng_source_why(src, 0, "reading %s", st->strong ? "RDSEED" : "RDRAND (DRBG output)");
	return 0;
}

static ssize_t rdrand_read(struct rng_source *src, void *buf, size_t len)
{
	const struct rng_cpu_source *st = src->priv;
	const struct rng_cpu_words w = rdrand_words(st);
	ssize_t n = rng_cpu_source_read(src, &w, buf, len, rdrand_rounds(st));

	if (n != -EAGAIN)
		return n;
	if (st->strong)
		return rng_source_why(src, -EIO, "RDSEED gave nothing in %d attempts",
				      RDSEED_RETRIES * RDSEED_UNDERFLOW_ROUNDS);
	return rng_source_why(src, -EIO, "RDRAND failed %d times in a row (DRNG failure)", RDRAND_RETRIES);
}

const struct rng_source_ops rng_source_rdrand_ops = {
	.name = "rdrand",
	.summary = "x86 RDSEED (preferred) or RDRAND instruction",
	.keys = "instruction=auto: auto, rdseed or rdrand",
	.default_entropy_per_bit = RDRAND_ENTROPY_PER_BIT,
	.default_priority = 3,
	.priv_size = sizeof(struct rng_cpu_source),
	.priv_defaults = &rdrand_defaults,
	.probe = rdrand_probe,
	.open = rdrand_open,
	.read = rdrand_read,
	.close = rng_cpu_source_close,
	.set_option = rng_cpu_source_set_option,
	.default_credit = rdrand_default_credit,
};
