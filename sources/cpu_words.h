/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Words from a CPU instruction that may answer "none now" (x86's RDSEED
 * and RDRAND, arm64's RNDR/RNDRRS, POWER's DARN): retried, then backed off
 * with sleeps, a bounded number of rounds; handed over as soon as something
 * is in hand; and checked at open for a generator stuck on one word.
 */
#ifndef RNGD_SOURCES_CPU_WORDS_H
#define RNGD_SOURCES_CPU_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rng_cpu_words {
	/* One attempt: true with a word in *out, false for "none now". */
	bool (*try_word)(const void *ctx, uint64_t *out);
	void (*backoff)(unsigned int ms);       /* the sleep between rounds */
	const void *ctx;
	unsigned int retries;                   /* attempts in one round */
	/* 1 ms between every round rather than doubling: RDSEED's underflow
	 * lasts microseconds, and its bound is stated in 1 ms rounds. */
	bool steady_backoff;
};

/* One word within @rounds rounds, sleeping 1, 2, 4 ... ms (or 1 ms each,
 * steady_backoff) between them: 0, or -EAGAIN. */
int rng_cpu_word(const struct rng_cpu_words *w, uint64_t *out, unsigned int rounds);

/* Fill @buf. The first word may take @rounds rounds; after it, a word
 * that does not come at once ends the read short rather than sleep.
 * Returns the bytes read, or -EAGAIN when not even the first word came. */
ssize_t rng_cpu_words_read(const struct rng_cpu_words *w, void *buf, size_t len, unsigned int rounds);

enum rng_cpu_selftest {
	RNG_CPU_SELFTEST_OK,
	RNG_CPU_SELFTEST_NONE,      /* the first word never came */
	RNG_CPU_SELFTEST_STOPPED,   /* a later word never came */
	RNG_CPU_SELFTEST_STUCK,     /* every word the same */
};

/*
 * Read @n words (the first within @first_rounds rounds, the others within
 * @rounds each) and say whether the generator works. *at is the index of
 * the word that did not come (STOPPED), *first the first word (STUCK).
 */
enum rng_cpu_selftest rng_cpu_words_selftest(const struct rng_cpu_words *w, int n, unsigned int first_rounds,
					     unsigned int rounds, int *at, uint64_t *first);

#endif /* RNGD_SOURCES_CPU_WORDS_H */
