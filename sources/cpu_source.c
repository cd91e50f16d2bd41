/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "sources/cpu_source.h"
#include "sources/cpu_words.h"
#include "sources/source.h"

void rng_cpu_source_use_hw(struct rng_source *src, const void *hw)
{
	struct rng_cpu_source *st = src->priv;

	st->hw = hw;
}

int rng_cpu_source_need_hwcap2(struct rng_source *src, int (*hwcap2)(unsigned long *out), unsigned long bit,
			       const char *other_arch, const char *lacks)
{
	unsigned long caps;

	if (hwcap2(&caps) < 0)
		return rng_source_why(src, -ENODEV, "%s", other_arch);
	if (!(caps & bit))
		return rng_source_why(src, -ENODEV, "%s", lacks);
	return 0;
}

int rng_cpu_source_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct rng_cpu_source *st = src->priv;

	if (strcmp(key, "instruction") != 0)
		return rng_source_why(src, -EINVAL, "unknown option '%s' (known: instruction)", key);
	for (int i = 0; i < 3; i++)
		if (strcmp(value, st->names[i]) == 0) {
			st->choice = (enum rng_cpu_choice)i;
			return 0;
		}
	return rng_source_why(src, -EINVAL, "instruction '%s' is not %s, %s or %s", value, st->names[0],
			      st->names[1], st->names[2]);
}

int rng_cpu_source_uses_strong(const struct rng_source *src)
{
	const struct rng_cpu_source *st = src->priv;

	if (!st->open)
		return -EBADF;
	return st->strong;
}

void rng_cpu_source_report(struct rng_source *src, bool strong)
{
	struct rng_cpu_source *st = src->priv;

	__atomic_store_n(&st->strong_fact, strong, __ATOMIC_RELEASE);
}

double rng_cpu_source_credit(const struct rng_source *src, double strong_credit, double weak_credit)
{
	const struct rng_cpu_source *st = src->priv;

	/* No priv: a source never initialised, which has reported nothing. */
	if (st && __atomic_load_n(&st->strong_fact, __ATOMIC_ACQUIRE))
		return strong_credit;
	return weak_credit;
}

void rng_cpu_source_opened(struct rng_source *src)
{
	struct rng_cpu_source *st = src->priv;

	rng_cpu_source_report(src, st->strong);
	st->open = true;
}

ssize_t rng_cpu_source_read(struct rng_source *src, const struct rng_cpu_words *w, void *buf, size_t len,
			    unsigned int rounds)
{
	const struct rng_cpu_source *st = src->priv;

	if (!st->open)
		return rng_source_why(src, -EBADF, "read before open");
	return rng_cpu_words_read(w, buf, len, rounds);
}

void rng_cpu_source_close(struct rng_source *src)
{
	struct rng_cpu_source *st = src->priv;

	st->open = false;
}
