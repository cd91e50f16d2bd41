/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_FIFO_WATCH_H
#define RNGD_FIFO_WATCH_H

#include <stdbool.h>
#include <sys/stat.h>

/*
 * A FIFO source's watch on its own FIFO, while it waits for a writer: a
 * feeder that restarts with "rm -f f; mkfifo f; producer > f" writes to a
 * new FIFO the source would never open, and the producer would block for
 * ever. The watch is on the FIFO's inode (inotify: its link count, a
 * rename), not on its folder, so that nothing but this FIFO's own fate
 * wakes the reader: waiting stays free. It is kept only until a writer's
 * first bytes: a stream that came is read to its end, as it always was.
 */
struct fifo_watch {
	int inotify_fd;   /* readable on a change: the source's reopen_fd() */
};

#define FIFO_WATCH_NONE { .inotify_fd = -1 }

/*
 * Watch the FIFO @st (its fstat()) opened at @path. 0; -ESTALE when the
 * path names another file already (replaced since the open); or another
 * -errno with no watch (no inotify here, out of fds): the source then
 * waits on the FIFO alone, and a re-created FIFO is read after a SIGHUP.
 */
int fifo_watch_start(struct fifo_watch *w, const char *path, const struct stat *st);

/* The fd that becomes readable on a change, or -1. */
int fifo_watch_fd(const struct fifo_watch *w);

/*
 * Reads what the watch has seen, without blocking: true when @path no
 * longer names the FIFO @st (removed, renamed away, replaced), so the
 * source should end this open and open the path afresh.
 */
bool fifo_watch_path_left(struct fifo_watch *w, const char *path, const struct stat *st);

void fifo_watch_stop(struct fifo_watch *w);

#endif /* RNGD_FIFO_WATCH_H */
