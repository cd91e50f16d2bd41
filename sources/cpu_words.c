/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "sources/cpu_words.h"

int rng_cpu_word(const struct rng_cpu_words *w, uint64_t *out, unsigned int rounds)
{
	for (unsigned int round = 0;; round++) {
		for (unsigned int i = 0; i < w->retries; i++)
			if (w->try_word(w->ctx, out))
				return 0;
		if (round + 1 >= rounds)
			return -EAGAIN;
		w->backoff(w->steady_backoff ? 1u : 1u << round);
	}
}

ssize_t rng_cpu_words_read(const struct rng_cpu_words *w, void *buf, size_t len, unsigned int rounds)
{
	unsigned char *out = buf;
	size_t done = 0;

	while (done < len) {
		uint64_t word;
		size_t n = len - done < sizeof(word) ? len - done : sizeof(word);

		/* Once something is in hand, hand it over rather than sleep for the rest. */
		if (rng_cpu_word(w, &word, done ? 1 : rounds) < 0) {
			if (done)
				break;
			return -EAGAIN;
		}
		memcpy(out + done, &word, n);
		done += n;
	}
	return (ssize_t)done;
}

enum rng_cpu_selftest rng_cpu_words_selftest(const struct rng_cpu_words *w, int n, unsigned int first_rounds,
					     unsigned int rounds, int *at, uint64_t *first)
{
	bool same = true;
	uint64_t word;

	*at = 0;
	*first = 0;
	for (int i = 0; i < n; i++) {
		if (rng_cpu_word(w, &word, i == 0 ? first_rounds : rounds) < 0) {
			*at = i;
			return i == 0 ? RNG_CPU_SELFTEST_NONE : RNG_CPU_SELFTEST_STOPPED;
		}
		if (i == 0)
			*first = word;
		else if (word != *first)
			same = false;
	}
	return same ? RNG_CPU_SELFTEST_STUCK : RNG_CPU_SELFTEST_OK;
}
