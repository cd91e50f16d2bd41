/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state the CPU-instruction sources (rdrand, rndr, darn) hold alike.
 * Each reads one of two instructions: a strong one close to the entropy
 * source (RDSEED, RNDRRS, DARN L=2) or a weak one behind a DRBG or a
 * conditioner (RDRAND, RNDR, DARN L=1), as the user chose or, for
 * "auto", as open() finds the CPU. Their src->priv is a struct
 * rng_cpu_source filled from the source's priv_defaults, which name its
 * hardware hooks; the probing (but for the AT_HWCAP2 bit test of rndr and
 * darn), the reading and every message stay in the source's own file.
 */
#ifndef RNGD_SOURCES_CPU_SOURCE_H
#define RNGD_SOURCES_CPU_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct rng_cpu_words;
struct rng_source;

/* The user's choice; the order of struct rng_cpu_source's names. */
enum rng_cpu_choice { RNG_CPU_AUTO, RNG_CPU_STRONG, RNG_CPU_WEAK };

struct rng_cpu_source {
	/* The source's table of instruction hooks (struct rdrand_hw ...):
	 * untyped so one state serves three sources; tests plug fakes. */
	const void *hw;
	/* The values of the option "instruction": "auto", then the strong
	 * and the weak instruction. darn, whose option is "level", has its
	 * own set_option and none. */
	const char *names[3];
	enum rng_cpu_choice choice;
	bool open;
	bool strong;                    /* the instruction open() chose is the strong one */
	/* What default_credit() follows: the strong instruction will be (or
	 * is) read. Written by probe() and open() in any thread, so atomic. */
	bool strong_fact;
};

/* Use @hw, a table of the source's own type, instead of the CPU's
 * (tests), after rng_source_init(). */
void rng_cpu_source_use_hw(struct rng_source *src, const void *hw);

/*
 * The detection of the sources the kernel vouches for (rndr, darn): 0
 * when the AT_HWCAP2 word @hwcap2 reads has @bit, else -ENODEV with
 * @other_arch (@hwcap2 said -ENOTSUP: a build for an architecture without
 * the instruction) or @lacks (this CPU lacks it) in src->why. The
 * instruction itself is never tried: where it is missing it traps.
 */
int rng_cpu_source_need_hwcap2(struct rng_source *src, int (*hwcap2)(unsigned long *out), unsigned long bit,
			       const char *other_arch, const char *lacks);

/* The set_option of rdrand and rndr: "instruction" set to one of names. */
int rng_cpu_source_set_option(struct rng_source *src, const char *key, const char *value);

/* 1 if the open source reads the strong instruction, 0 if the weak one,
 * -EBADF if it is not open. */
int rng_cpu_source_uses_strong(const struct rng_source *src);

/* Probe or open tells default_credit() whether the strong instruction
 * will be read. */
void rng_cpu_source_report(struct rng_source *src, bool strong);

/* The default credit given the last report: @strong_credit or
 * @weak_credit. */
double rng_cpu_source_credit(const struct rng_source *src, double strong_credit, double weak_credit);

/* The end of a successful open(): the source is open, and
 * default_credit() follows st->strong. */
void rng_cpu_source_opened(struct rng_source *src);

/* The start of a source's read(): rng_cpu_words_read() of @w once open,
 * else -EBADF with the reason in src->why. -EAGAIN, "no word came", is
 * left for the source to explain with its instruction's bounds. */
ssize_t rng_cpu_source_read(struct rng_source *src, const struct rng_cpu_words *w, void *buf, size_t len,
			    unsigned int rounds);

/* The sources' close(): nothing to let go of but the open flag. */
void rng_cpu_source_close(struct rng_source *src);

#endif /* RNGD_SOURCES_CPU_SOURCE_H */
