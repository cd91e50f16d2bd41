/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_CLOSE_FD_H
#define RNGD_CLOSE_FD_H

#include <unistd.h>

/*
 * Close *@fd unless it is already -1, then set it to -1: the close and
 * destroy paths of sources and daemon parts may run on a half-built
 * object, or twice, without closing a number some other open reused.
 */
static inline void rng_close_fd(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

/*
 * An fd variable that closes itself when it goes out of scope, on every
 * early return of an open path; rng_take_fd() hands it over on success.
 */
#define RNG_CLOSE_ON_RETURN __attribute__((cleanup(rng_close_fd)))

/* *@fd, now the caller's to keep: *@fd becomes -1, so nothing closes it. */
static inline int rng_take_fd(int *fd)
{
	int kept = *fd;

	*fd = -1;
	return kept;
}

#endif /* RNGD_CLOSE_FD_H */
