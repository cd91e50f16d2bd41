/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The eventfds that wake a polling thread (the loop's wake-up and stop
 * fds, the EGD server's wake fd, the start-up watch's stop fd): one side
 * pokes, the woken side takes the count so the next poll() sleeps again.
 */
#ifndef RNGD_EVENTFD_H
#define RNGD_EVENTFD_H

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

/*
 * Takes (and so resets) eventfd @fd's counter: how many pokes arrived, 0
 * if none (a non-blocking eventfd answers EAGAIN then) or on an error.
 */
static inline uint64_t rngd_eventfd_take(int fd)
{
	uint64_t count = 0;

	if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		return 0;
	return count;
}

#endif
