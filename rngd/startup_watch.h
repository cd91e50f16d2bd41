/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SIGTERM and SIGINT before the event loop runs. main() blocks the
 * handled signals first thing (rngd/loop.h), so that none kills rngd with
 * its default action halfway through start-up; but the loop's signalfd is
 * read only once the loop runs, and start-up can take as long as its
 * slowest step: a tcsd that accepts and never answers, a name service
 * that hangs, a FIFO sink without a reader. This thread answers SIGTERM
 * and SIGINT in the meantime, whatever the main thread is stuck in.
 *
 * SIGHUP and SIGUSR1 are not its business: they stay pending for the loop.
 * The main thread names each step (the phase) and changes what the stop
 * callback reads only under the watch's lock; the callback runs with that
 * lock held and ends the process.
 *
 * When the loop takes over, the thread does not end: it parks, asleep for
 * good (no wake-ups; its few touched stack pages stay). A thread that
 * ends runs glibc's per-thread clean-up hooks (Sun RPC, resolver state),
 * which would map 192 kB of libc code the daemon otherwise never runs:
 * a tenth of its resident budget, for a thread that has done its job.
 */
#ifndef RNGD_STARTUP_WATCH_H
#define RNGD_STARTUP_WATCH_H

#include <pthread.h>
#include <stdbool.h>

/* Log why and what was done, clean up, and _exit(): it must not return. */
typedef void (*rngd_startup_stop_fn)(void *ctx, const char *signal_name, const char *phase);

struct rngd_startup_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	int signal_fd;                 /* SIGTERM, SIGINT */
	int stop_fd;                   /* eventfd: the loop takes over */
	bool running;
	/* The stop handshake, under lock: the thread is out of its loop
	 * (done), and has been told whether to park or to end (told, park). */
	bool done, told, park;
	pthread_cond_t cond;
	const char *phase;             /* "reading the configuration", ... */
	rngd_startup_stop_fn on_stop;
	void *ctx;
};

void rngd_startup_watch_init(struct rngd_startup_watch *w, rngd_startup_stop_fn on_stop, void *ctx);

/* Start watching (the signals must already be blocked in the calling
 * thread, which the new thread inherits). 0 or -errno. */
int rngd_startup_watch_start(struct rngd_startup_watch *w);

/* Stop watching and end the thread: before fork() (a process that forks
 * must have one thread) and at exit. A signal not yet read stays pending. */
void rngd_startup_watch_stop(struct rngd_startup_watch *w);

/* Stop watching when the loop takes over: the thread parks, detached (see
 * above). A signal not yet read stays pending for the loop. */
void rngd_startup_watch_park(struct rngd_startup_watch *w);

/* The step start-up is in, for the exit message; a string literal. */
void rngd_startup_watch_phase(struct rngd_startup_watch *w, const char *phase);

/* Around every change to what on_stop reads. */
void rngd_startup_watch_lock(struct rngd_startup_watch *w);
void rngd_startup_watch_unlock(struct rngd_startup_watch *w);

void rngd_startup_watch_destroy(struct rngd_startup_watch *w);

#endif
