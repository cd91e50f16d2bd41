/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A source call that does not return: a TPM daemon or swtpm that was
 * stopped, a token that blocks, a virtio-rng whose host stopped serving
 * (a hwrng read asleep in the kernel). Before, only SIGUSR1, STATUS= and
 * the stats file showed it, as "waiting". Only the source's read() itself
 * is timed: a FIFO or device waiting in its poll() for data is idle, not
 * stuck, and says nothing.
 *
 * The reader times each read (rngd_slow_call_read()) and, once the read
 * is back and the reader still owns the slot, says how long one that
 * went past the limit took (rngd_slow_call_said_back()). The main thread
 * says that a read has gone past it (rngd_slow_call_check()), once per
 * read. A read the loop sees running when it goes to sleep gets a
 * deadline at its limit. A read that starts while the loop sleeps does
 * not wake it (that would cost a wake-up per read): it is seen at the
 * next block, top-up, watchdog keep-alive or signal. A waiting rngd
 * reads nothing (full queues), so this costs it nothing.
 */
#ifndef RNGD_SLOW_CALL_H
#define RNGD_SLOW_CALL_H

#include <stdint.h>
#include <sys/types.h>

struct rngd_slot;

/* The reader: the source's read(), timed. */
ssize_t rngd_slow_call_read(struct rngd_slot *s, void *buf, size_t len);
/* The reader, after the read, once it knows it still owns the slot. */
void rngd_slow_call_said_back(struct rngd_slot *s);
/* The main thread, each pass of the loop: when to look again (UINT64_MAX:
 * no read of this slot to watch). */
uint64_t rngd_slow_call_check(struct rngd_slot *s, uint64_t now);

#endif
