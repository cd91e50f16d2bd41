/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "rngd/eventfd.h"
#include "rngd/startup_watch.h"
#include "rngd/thread_stack.h"

void rngd_startup_watch_init(struct rngd_startup_watch *w, rngd_startup_stop_fn on_stop, void *ctx)
{
	memset(w, 0, sizeof(*w));
	(void)pthread_mutex_init(&w->lock, NULL);
	(void)pthread_cond_init(&w->cond, NULL);
	w->signal_fd = w->stop_fd = -1;
	w->phase = "starting";
	w->on_stop = on_stop;
	w->ctx = ctx;
}

static void *watch_main(void *arg)
{
	struct rngd_startup_watch *w = arg;
	bool park;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = w->signal_fd, .events = POLLIN },
			{ .fd = w->stop_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;   /* the loop will still see the signal */
		}
		if (pfd[1].revents)
			break;
		if (read(w->signal_fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
			continue;
		/* Never released: the callback ends the process, and the main
		 * thread must not change what it reads meanwhile. */
		(void)pthread_mutex_lock(&w->lock);
		w->on_stop(w->ctx, si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGINT", w->phase);
	}
	/* Stopped, or poll() failed: either way wait for the stop, which
	 * says whether to park or to end, so it never waits on an ended
	 * thread nor detaches one it should join. */
	(void)pthread_mutex_lock(&w->lock);
	w->done = true;
	(void)pthread_cond_broadcast(&w->cond);
	while (!w->told)
		(void)pthread_cond_wait(&w->cond, &w->lock);
	park = w->park;
	(void)pthread_mutex_unlock(&w->lock);
	if (!park)
		return NULL;
	for (;;)
		(void)poll(NULL, 0, -1);
	return NULL;
}

int rngd_startup_watch_start(struct rngd_startup_watch *w)
{
	sigset_t set;
	int r;

	if (w->running)
		return 0;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	w->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (w->signal_fd < 0)
		return -errno;
	w->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->stop_fd < 0) {
		r = -errno;
		(void)close(w->signal_fd);
		w->signal_fd = -1;
		return r;
	}
	w->done = w->told = false;   /* a second start after fork() */
	r = rngd_thread_start(&w->thread, watch_main, w);
	if (r != 0) {
		(void)close(w->signal_fd);
		(void)close(w->stop_fd);
		w->signal_fd = w->stop_fd = -1;
		return -r;
	}
	w->running = true;
	return 0;
}

/* Tell the thread to stop reading, and to park or to end. */
static void stop_thread(struct rngd_startup_watch *w, bool park)
{
	if (!w->running)
		return;
	(void)pthread_mutex_lock(&w->lock);
	w->park = park;
	w->told = true;
	(void)pthread_cond_broadcast(&w->cond);
	(void)pthread_mutex_unlock(&w->lock);
	rngd_eventfd_poke(w->stop_fd);
	if (park) {
		(void)pthread_mutex_lock(&w->lock);
		while (!w->done)
			(void)pthread_cond_wait(&w->cond, &w->lock);
		(void)pthread_mutex_unlock(&w->lock);
		(void)pthread_detach(w->thread);
	} else {
		(void)pthread_join(w->thread, NULL);
	}
	(void)close(w->signal_fd);
	(void)close(w->stop_fd);
	w->signal_fd = w->stop_fd = -1;
	w->running = false;
}

void rngd_startup_watch_stop(struct rngd_startup_watch *w)
{
	stop_thread(w, false);
}

void rngd_startup_watch_park(struct rngd_startup_watch *w)
{
	stop_thread(w, true);
}

void rngd_startup_watch_phase(struct rngd_startup_watch *w, const char *phase)
{
	(void)pthread_mutex_lock(&w->lock);
	w->phase = phase;
	(void)pthread_mutex_unlock(&w->lock);
}

void rngd_startup_watch_lock(struct rngd_startup_watch *w)
{
	(void)pthread_mutex_lock(&w->lock);
}

void rngd_startup_watch_unlock(struct rngd_startup_watch *w)
{
	(void)pthread_mutex_unlock(&w->lock);
}

void rngd_startup_watch_destroy(struct rngd_startup_watch *w)
{
	rngd_startup_watch_stop(w);
	(void)pthread_cond_destroy(&w->cond);
	(void)pthread_mutex_destroy(&w->lock);
}
