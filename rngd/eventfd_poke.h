/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Waking a thread that polls an eventfd: the loop's readers' wake-up and
 * stop fds, the EGD server's wake fd, the start-up watch's stop fd.
 */
#ifndef RNGD_EVENTFD_POKE_H
#define RNGD_EVENTFD_POKE_H

#include <stdint.h>
#include <unistd.h>

/*
 * Adds 1 to eventfd @fd's counter; does nothing for a negative @fd (one
 * not opened). The write's result is ignored on purpose: the only way it
 * fails on a non-blocking eventfd (EFD_NONBLOCK, as all of rngd's are) is
 * EAGAIN, a counter too full to add to, and a non-zero counter already
 * wakes the poller; there is nothing else for the caller to do.
 */
static inline void rngd_eventfd_poke(int fd)
{
	uint64_t one = 1;

	if (fd >= 0)
		(void)!write(fd, &one, sizeof(one));
}

#endif
