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

#endif /* RNGD_CLOSE_FD_H */
