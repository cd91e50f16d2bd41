/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by every source: default initialisation, the failure
 * reason shown by `rngd -l`, the one read loop fd-based sources use and
 * their back-off sleep.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sources/source.h"

void rng_source_init(struct rng_source *src, const struct rng_source_ops *ops)
{
	memset(src, 0, sizeof(*src));
	src->ops = ops;
	snprintf(src->name, sizeof(src->name), "%s", ops->name);
	src->entropy_per_bit = ops->default_entropy_per_bit;
	src->credit_ceiling = 1.0;
	src->priority = ops->default_priority;
	src->fd = -1;
}

int rng_source_why(struct rng_source *src, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(src->why, sizeof(src->why), fmt, ap);
	va_end(ap);
	return err;
}

void rng_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

ssize_t rng_read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		/* Bytes already read are returned; the error shows on the next call. */
		if (done > 0)
			break;
		return -errno;
	}
	return (ssize_t)done;
}

void rng_source_destroy(struct rng_source *src)
{
	if (src->ops && src->ops->destroy)
		src->ops->destroy(src);
	src->priv = NULL;
}
