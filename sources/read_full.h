/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_READ_FULL_H
#define RNGD_READ_FULL_H

#include <errno.h>
#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Read @fd into @buf until @len bytes (at most SSIZE_MAX) are in or the
 * file ends: the bytes read, fewer than @len only at end of file, or the
 * -errno of the first read that failed (what came before it is dropped).
 * A read a signal interrupted is retried: a whole-file read (a config
 * file, a /proc file) must not fail because a signal arrived. For
 * blocking fds: EAGAIN is an error like any other.
 */
static inline ssize_t rng_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

#endif /* RNGD_READ_FULL_H */
