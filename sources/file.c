/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file named with -r PATH (or -O file:path:PATH): a regular file, a FIFO
 * or a character device.
 *
 * A regular file is read once. Its end means the source is exhausted, for
 * good: reading it again would credit the same bytes twice. Re-opening it
 * (SIGHUP, a read error) resumes at the offset reached, and an exhausted
 * file stays exhausted while it is the same inode. Across restarts the
 * offset lives in the state folder (file_offset.h; the daemon sets the
 * "state_dir" key); where it cannot be kept, the source says so through
 * may_credit() and the daemon credits its bytes nothing. In the daemon's
 * test mode ("dry_run" key) no record is read or written.
 *
 * A FIFO or device is re-opened after end of data: the loop closes it and
 * calls open() again with back-off. No open blocks (O_NONBLOCK, cleared
 * once open): the daemon opens every source before dropping privileges
 * even when no writer is there yet, and a re-opened FIFO waits for its
 * next writer in poll() on wait_fd(), where a SIGHUP reaches the reader
 * (Linux reports no POLLHUP on a FIFO opened so until a writer came). A
 * blocking open() would pin the FIFO it began on: one re-created at the
 * path would never be read. While it waits, a FIFO removed or replaced at
 * the path ("rm -f f; mkfifo f", a feeder's restart) ends the open, and
 * the path is opened afresh (sources/fifo_watch.h).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/close_fd.h"
#include "sources/fifo_watch.h"
#include "sources/file_offset.h"
#include "sources/kernel_generator.h"
#include "sources/source.h"

struct file_priv {
	char path[4096];
	bool regular;
	bool exhausted;
	dev_t dev;
	ino_t ino;
	off_t offset;      /* of a regular file, kept across re-opens */
	struct stat st;    /* of the regular file or FIFO open now */
	char state_dir[4096];
	bool dry_run;      /* the daemon's test mode: no record, read from the start */
	struct file_offset_record record;
	bool record_tried;
	int record_error;  /* -errno of the record's last failed open, or 0 */
	int credit_ok;     /* fact for may_credit(), read atomically */
	bool fifo;         /* what is open now is a FIFO */
	/* A FIFO's fd from before close(), closed only once open() has tried
	 * the path again: a writer blocked on a full pipe never finds it
	 * without a reader (EPIPE, SIGPIPE) because of a SIGHUP's re-open. */
	int held_fd;
	int kernel_generator; /* fact for reads_kernel_generator(), atomic */
	int fd;            /* while open, else -1 */
	struct fifo_watch watch;   /* while a FIFO is open */
};

static const struct file_priv file_defaults = {
	.record = { .fd = -1 },
	.credit_ok = 1,
	.held_fd = -1,
	.fd = -1,
	.watch = FIFO_WATCH_NONE,
};

static int file_probe(struct rng_source *src)
{
	struct file_priv *p = src->priv;
	struct stat st;

	if (!p->path[0])
		return rng_source_why(src, -EINVAL, "no file given (-r PATH or -O file:path:PATH)");
	if (stat(p->path, &st) < 0)
		return rng_source_why(src, -errno, "%s: %s", p->path, strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return rng_source_why(src, -EINVAL, "%s is not a regular file, FIFO or character device",
				      p->path);
	/* Known before the open too, for rngd -l's credit; the open sets it
	 * again from what it opened. */
	__atomic_store_n(&p->kernel_generator, rng_stat_is_kernel_generator(&st), __ATOMIC_RELEASE);
	if (access(p->path, R_OK) < 0)
		return rng_source_why(src, -errno, "%s: %s", p->path, strerror(errno));
	rng_source_why(src, 0, "%s", p->path);
	return 0;
}

/*
 * A regular file: where the last run stopped reading it, and whether its
 * bytes may earn credit (only if this run's offset will be kept too).
 */
static uint64_t resume_offset(struct file_priv *p, int fd, const struct stat *st)
{
	/* Nothing is credited in test mode: its bytes may pass as a real
	 * run's would, and it leaves the record to the real run. */
	if (p->dry_run) {
		__atomic_store_n(&p->credit_ok, 1, __ATOMIC_RELEASE);
		return 0;
	}
	/* Another file at the path since the last open: its own record. */
	if (p->record_tried && p->record.fd >= 0 && !file_offset_is_for(&p->record, st)) {
		file_offset_close(&p->record);
		p->record = (struct file_offset_record){ .fd = -1 };
		p->record_tried = false;
	}
	if (!p->record_tried && p->state_dir[0]) {
		p->record_tried = true;
		p->record_error = file_offset_open(&p->record, p->state_dir, p->path, st);
		if (p->record_error < 0)
			file_offset_close(&p->record);
	}
	__atomic_store_n(&p->credit_ok, p->record.fd >= 0, __ATOMIC_RELEASE);
	return p->record.fd >= 0 ? file_offset_resume(&p->record, fd, st) : 0;
}

static bool file_may_credit(const struct rng_source *src)
{
	const struct file_priv *p = src->priv;

	return !p || __atomic_load_n(&p->credit_ok, __ATOMIC_ACQUIRE);
}

static const char *file_path(const struct rng_source *src)
{
	const struct file_priv *p = src->priv;

	return p->path[0] ? p->path : NULL;
}

static bool file_reads_kernel_generator(const struct rng_source *src)
{
	const struct file_priv *p = src->priv;

	return p && __atomic_load_n(&p->kernel_generator, __ATOMIC_ACQUIRE);
}

static int file_open(struct rng_source *src)
{
	struct file_priv *p = src->priv;
	struct stat st;
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	int fd RNG_CLOSE_ON_RETURN = -1;
	int err;

	if (!p->path[0])
		return rng_source_why(src, -EINVAL, "no file given (-r PATH or -O file:path:PATH)");
	fifo_watch_stop(&p->watch);   /* a failed open's, not closed */
	fd = open(p->path, flags);
	err = fd < 0 ? errno : 0;
	rng_close_fd(&p->held_fd);
	/* A regular file read to its end and then removed: exhausted, as
	 * it would be were it still there (not a missing file to wait for). */
	if (err == ENOENT && p->regular && p->offset >= p->st.st_size)
		return rng_source_why(src, -ENODATA, "%s was read to its end and is gone", p->path);
	if (fd < 0)
		return rng_source_why(src, -err, "open %s: %s", p->path, strerror(err));
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		bool same = p->regular && st.st_dev == p->dev && st.st_ino == p->ino;

		p->fifo = false;
		p->st = st;
		if (!same) {
			p->regular = true;
			p->dev = st.st_dev;
			p->ino = st.st_ino;
			p->offset = (off_t)resume_offset(p, fd, &st);
			if (p->record_error == -EBUSY) {
				/* Tried again at the next open: the other reader
				 * may be gone by then, and its offset is ours. */
				p->regular = false;
				p->record_tried = false;
				return rng_source_why(src, -EBUSY,
						      "%s is read by another rngd on the state folder %s, or by "
						      "another source of this one (its read offset record is locked)",
						      p->path, p->state_dir);
			}
			p->exhausted = p->offset > 0 && p->offset >= st.st_size;
			if (p->exhausted)
				return rng_source_why(src, -ENODATA,
						      "%s was read to its end by an earlier run (offset kept in %s)",
						      p->path, p->state_dir);
			if (p->offset > 0 && lseek(fd, p->offset, SEEK_SET) < 0) {
				err = -errno;
				goto fail;
			}
			/* Credit 0 by itself says nothing: the open's log line
			 * says why (the daemon logs src->why with it). */
			if (p->record_error < 0)
				rng_source_why(src, 0, "%s (its read offset cannot be kept in %s: %s, so it earns no credit)",
					       p->path, p->state_dir, strerror(-p->record_error));
		} else if (p->exhausted && st.st_size < p->offset) {
			/* Cut short while read (": > file"): not its end. */
			return rng_source_why(src, -ENODATA,
					      "%s shrank to %lld bytes, below the %lld already read; a regular file "
					      "is never re-read", p->path, (long long)st.st_size, (long long)p->offset);
		} else if (p->exhausted) {
			return rng_source_why(src, -ENODATA,
					      "%s was read to its end; a regular file is never re-read",
					      p->path);
		} else if (lseek(fd, p->offset, SEEK_SET) < 0) {
			err = -errno;
			goto fail;
		}
	} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		p->regular = false;
		p->fifo = S_ISFIFO(st.st_mode);
		p->st = st;
		__atomic_store_n(&p->credit_ok, 1, __ATOMIC_RELEASE);
		/* No watch (no inotify): waited for on the FIFO alone. */
		if (p->fifo && fifo_watch_start(&p->watch, p->path, &st) == -ESTALE)
			return rng_source_why(src, -ESTALE, "%s was replaced while it was opened", p->path);
	} else {
		return rng_source_why(src, -EINVAL, "%s is not a regular file, FIFO or character device",
				      p->path);
	}
	if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK & ~O_CLOEXEC) < 0) {
		err = -errno;
		goto fail;
	}
	/* Only an open that succeeds says what is read now. */
	__atomic_store_n(&p->kernel_generator, rng_stat_is_kernel_generator(&st), __ATOMIC_RELEASE);
	p->fd = rng_take_fd(&fd);
	return 0;
fail:
	return rng_source_why(src, err, "%s: %s", p->path, strerror(-err));
}

/* Data or a writer's end (POLLHUP) to read now, without blocking. */
static bool fifo_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0;
}

static ssize_t file_read(struct rng_source *src, void *buf, size_t len)
{
	struct file_priv *p = src->priv;

	if (fifo_watch_fd(&p->watch) >= 0) {
		/* A writer came: its stream is read to its end, wherever the
		 * path points by now (ending the open would cut it off). */
		if (fifo_ready(p->fd)) {
			fifo_watch_stop(&p->watch);
		} else if (fifo_watch_path_left(&p->watch, p->path, &p->st)) {
			/* 0 ends this open; the path is opened afresh. */
			return rng_source_why(src, 0, "%s was removed or replaced", p->path);
		} else {
			/* Woken by the watch alone (a chmod, a touch): read()
			 * would block where a stop or SIGHUP cannot reach it,
			 * and no writer is lost by opening the FIFO again. */
			return 0;
		}
	}
	for (;;) {
		ssize_t n = read(p->fd, buf, len);

		if (n > 0) {
			if (p->regular) {
				p->offset += n;
				/* Kept before the bytes go on: a crash after crediting
				 * them must not let the next run read them again. */
				int r = p->record.fd >= 0 ?
					file_offset_store(&p->record, p->fd, &p->st, (uint64_t)p->offset) : 0;

				if (r < 0) {
					file_offset_close(&p->record);
					/* The reader logs why when the credit stops. */
					rng_source_why(src, 0, "%s: its read offset can no longer be kept in %s: %s; "
						       "it earns no credit from now", p->path, p->state_dir, strerror(-r));
					__atomic_store_n(&p->credit_ok, 0, __ATOMIC_RELEASE);
				}
			}
			return n;
		}
		if (n == 0) {
			if (p->regular)
				p->exhausted = true;
			return 0;
		}
		if (errno != EINTR)
			return rng_source_why(src, -errno, "read %s: %s", p->path, strerror(errno));
	}
}

static void file_close(struct rng_source *src)
{
	struct file_priv *p = src->priv;

	fifo_watch_stop(&p->watch);
	if (p->fifo && p->fd >= 0) {
		rng_close_fd(&p->held_fd);
		p->held_fd = rng_take_fd(&p->fd);
		return;
	}
	rng_close_fd(&p->fd);
}

static int file_wait_fd(const struct rng_source *src)
{
	const struct file_priv *p = src->priv;

	return p->fd;
}

static int file_reopen_fd(const struct rng_source *src)
{
	const struct file_priv *p = src->priv;

	return fifo_watch_fd(&p->watch);
}

static int file_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct file_priv *p = src->priv;

	if (strcmp(key, "path") == 0) {
		bool same = strcmp(p->path, value) == 0;
		int r = rng_option_text(p->path, sizeof(p->path), value, false);

		/* Another file: nothing known of the old one applies. */
		if (r == 0 && !same) {
			p->regular = false;
			p->exhausted = false;
			p->offset = 0;
			file_offset_close(&p->record);
			p->record_tried = false;
		}
		return r;
	}
	if (strcmp(key, "state_dir") == 0)
		return rng_option_text(p->state_dir, sizeof(p->state_dir), value, false);
	if (strcmp(key, "dry_run") == 0) {
		p->dry_run = strcmp(value, "yes") == 0;
		return 0;
	}
	return -EINVAL;
}

static void file_release(struct rng_source *src)
{
	struct file_priv *p = src->priv;

	fifo_watch_stop(&p->watch);
	rng_close_fd(&p->held_fd);
	file_offset_close(&p->record);
}

const struct rng_source_ops rng_source_file_ops = {
	.name = "file",
	.summary = "a regular file (read once) or FIFO (-r PATH), or a character device (-O file:path:PATH; -r DEV is hwrng's)",
	.keys = "path=(none): the file, FIFO or device read",
	.default_entropy_per_bit = 0.0,
	.default_priority = 0,
	.priv_size = sizeof(struct file_priv),
	.priv_defaults = &file_defaults,
	.probe = file_probe,
	.open = file_open,
	.read = file_read,
	.close = file_close,
	.set_option = file_set_option,
	.release = file_release,
	.wait_fd = file_wait_fd,
	.reopen_fd = file_reopen_fd,
	.may_credit = file_may_credit,
	.reads_kernel_generator = file_reads_kernel_generator,
	.path = file_path,
};
