/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a deadline on the rngd_now_ms() clock to poll()'s time-out: the
 * main loop's wait and the EGD server thread's.
 */
#ifndef RNGD_POLL_TIMEOUT_H
#define RNGD_POLL_TIMEOUT_H

#include <limits.h>
#include <stdint.h>

/*
 * The time-out for poll() at @now_ms to return by @deadline_ms: -1 (wait
 * without limit) for UINT64_MAX, which callers use for "no deadline"; 0
 * for a deadline reached or past; otherwise the milliseconds left, at most
 * INT_MAX (poll() takes an int; a wait that returns early just goes round
 * the caller's loop again). Both are whole milliseconds, so nothing is
 * rounded.
 */
static inline int rngd_poll_timeout_ms(uint64_t now_ms, uint64_t deadline_ms)
{
	if (deadline_ms == UINT64_MAX)
		return -1;
	if (deadline_ms <= now_ms)
		return 0;
	return deadline_ms - now_ms > INT_MAX ? INT_MAX : (int)(deadline_ms - now_ms);
}

#endif
