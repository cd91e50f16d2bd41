/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "sources/close_fd.h"
#include "sources/fifo_watch.h"

/* The FIFO's own inode: unlinked (its link count), renamed, gone. A chmod
 * is an IN_ATTRIB too: the path is looked at before anything is done. */
#define FIFO_WATCH_EVENTS (IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)

static bool names_fifo(const char *path, const struct stat *st)
{
	struct stat now;

	return stat(path, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

int fifo_watch_start(struct fifo_watch *w, const char *path, const struct stat *st)
{
	int err = 0;

	w->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->inotify_fd < 0 || inotify_add_watch(w->inotify_fd, path, FIFO_WATCH_EVENTS) < 0)
		err = -errno;
	/* Removed or replaced between the open and the watch (which is then
	 * on the new FIFO, or failed): this one would wait for a writer
	 * that never comes. */
	if (!names_fifo(path, st))
		err = -ESTALE;
	if (err < 0)
		fifo_watch_stop(w);
	return err;
}

int fifo_watch_fd(const struct fifo_watch *w)
{
	return w->inotify_fd;
}

bool fifo_watch_path_left(struct fifo_watch *w, const char *path, const struct stat *st)
{
	/* Room for one event with the longest name: the queue is drained. */
	char events[sizeof(struct inotify_event) + NAME_MAX + 1] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool seen = false;

	if (w->inotify_fd < 0)
		return false;
	while (read(w->inotify_fd, events, sizeof(events)) > 0)
		seen = true;
	return seen && !names_fifo(path, st);
}

void fifo_watch_stop(struct fifo_watch *w)
{
	rng_close_fd(&w->inotify_fd);
}
