/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by every source: default initialisation, the failure
 * reason shown by `rngd -l`, the state each source keeps, and the back-off
 * sleep.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sources/source.h"

int rng_source_init(struct rng_source *src, const struct rng_source_ops *ops)
{
	memset(src, 0, sizeof(*src));
	src->ops = ops;
	snprintf(src->name, sizeof(src->name), "%s", ops->name);
	src->entropy_per_bit = ops->default_entropy_per_bit;
	src->credit_ceiling = 1.0;
	src->priority = ops->default_priority;
	if (ops->priv_size > SIZE_MAX - RNG_SOURCE_PRIV_ALIGN)
		return rng_source_why(src, -ENOMEM, "out of memory");
	if (ops->priv_size) {
		size_t rounded = (ops->priv_size + RNG_SOURCE_PRIV_ALIGN - 1) / RNG_SOURCE_PRIV_ALIGN *
				 RNG_SOURCE_PRIV_ALIGN;

		src->priv = aligned_alloc(RNG_SOURCE_PRIV_ALIGN, rounded);
		if (!src->priv)
			return rng_source_why(src, -ENOMEM, "out of memory");
		if (ops->priv_defaults)
			memcpy(src->priv, ops->priv_defaults, ops->priv_size);
		else
			memset(src->priv, 0, ops->priv_size);
	}
	return 0;
}

void rng_source_release(struct rng_source *src)
{
	if (src->priv && src->ops && src->ops->release)
		src->ops->release(src);
	free(src->priv);
	src->priv = NULL;
}

int rng_source_wait_fd(const struct rng_source *src)
{
	return src->ops->wait_fd ? src->ops->wait_fd(src) : -1;
}

int rng_source_reopen_fd(const struct rng_source *src)
{
	return src->ops->reopen_fd ? src->ops->reopen_fd(src) : -1;
}

int rng_source_why(struct rng_source *src, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(src->why, sizeof(src->why), fmt, ap);
	va_end(ap);
	return err;
}

int rng_option_text(char *dst, size_t size, const char *value, bool absolute_path)
{
	size_t len = strlen(value);

	if (len == 0 || len >= size || (absolute_path && value[0] != '/'))
		return -EINVAL;
	memcpy(dst, value, len + 1);
	return 0;
}

int rng_option_only_text(struct rng_source *src, const char *key, const char *value, const char *name,
			 char *dst, size_t size, bool absolute_path)
{
	if (strcmp(key, name) != 0)
		return rng_source_why(src, -EINVAL, "unknown option '%s' (known: %s)", key, name);
	if (rng_option_text(dst, size, value, absolute_path) == 0)
		return 0;
	if (absolute_path)
		return rng_source_why(src, -EINVAL, "%s '%s' is not an absolute path shorter than %zu", name,
				      value, size);
	return rng_source_why(src, -EINVAL, "%s '%s' is empty or longer than %zu", name, value, size - 1);
}

void rng_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
