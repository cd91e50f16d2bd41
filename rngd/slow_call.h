/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A source call that does not return: a TPM daemon or swtpm that was
 * stopped, a token that blocks, a virtio-rng whose host stopped serving (a
 * hwrng read asleep in the kernel). Before, only SIGUSR1, STATUS= and the
 * stats file showed it, as "waiting". Only the source's read() itself is
 * timed: a FIFO or device waiting in its poll() for data is idle, not
 * stuck, and says nothing.
 *
 * The reader times each read (rngd_slow_call_read()); the main thread
 * says once that a read went past the limit (rngd_slow_call_check()), and
 * the reader, once the read is back and it still owns the slot, says how
 * long that read took (rngd_slow_call_said_back()).
 *
 * The main thread looks at each pass of the loop, and a read it sees
 * running gets a deadline at its limit. Before it sleeps it publishes when
 * the sleep ends (rngd_slow_call_sleep()); a reader whose read starts more
 * than the limit before that lowers it to its read's limit and sets the
 * loop's timer (a timerfd it polls) there. A later read, whose limit is
 * later, sets nothing, so the line comes at the limit. A read costs no
 * wake-up of its own: one that ends a block queues it, which wakes the
 * loop anyway, and the timer is cleared then (one that returns part of a
 * block leaves it, one wake-up at the limit). A waiting rngd, whose queues
 * are full and which reads nothing, sets no timer at all.
 */
#ifndef RNGD_SLOW_CALL_H
#define RNGD_SLOW_CALL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct rngd_loop;
struct rngd_slot;

/* The main thread, at the loop's start: the timer a reader sets
 * (l->slow_call_timer_fd; -1 with no limit). 0 or negative errno. */
int rngd_slow_call_init(struct rngd_loop *l);
/* rngd_loop_destroy(): the timer and the readers' lock, once no reader
 * can touch them (rngd_slow_call_left_behind()). */
void rngd_slow_call_destroy(struct rngd_loop *l);
/* The reader: the source's read(), timed. */
ssize_t rngd_slow_call_read(struct rngd_slot *s, void *buf, size_t len);
/* The reader, after the read, once it knows it still owns the slot. */
void rngd_slow_call_said_back(struct rngd_slot *s);
/* The main thread, each pass of the loop: when to look again (UINT64_MAX:
 * no read of this slot to watch). */
uint64_t rngd_slow_call_check(struct rngd_slot *s, uint64_t now);
/* The main thread, about to sleep until @next: the deadline to sleep to,
 * @next or a running read's limit. */
uint64_t rngd_slow_call_sleep(struct rngd_loop *l, uint64_t now, uint64_t next);
/* The main thread, its sleep over, the timer's fd readable or not: the
 * timer cleared. */
void rngd_slow_call_awake(struct rngd_loop *l, bool timer_fired);
/* The main thread, giving up on @s's reader inside a read: before the
 * loop may be freed. */
void rngd_slow_call_left_behind(struct rngd_slot *s);

#endif
