/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file sink: -o PATH that is not a character device, or -o - for
 * stdout. It receives passing bytes only (and, with --on-fail=mix, failed
 * bytes with zero credit), in the order the loop hands them over; the
 * credit means nothing to a file and is not recorded.
 *
 * A regular file always wants data. A FIFO, socket or character device is
 * written non-blocking and wants data only while it polls writable, so a
 * reader that stops reading stalls the sink, then the sources (their
 * queues fill), without ever blocking the loop's signal handling: what a
 * write could not place (EAGAIN part-way through a part) stays in the
 * sink's own backlog, demand() is 0 until the backlog is written, and the
 * loop waits for POLLOUT on wait_fd() beside its signalfd (no timer).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rngd/sink.h"

/* Enough for several blocks per demand() round trip. */
#define FILE_SINK_DEMAND (64u * 1024u)
struct file_sink {
	int fd;
	bool owns_fd;
	bool pollable;
	/* Bytes handed over but not yet written (a pollable fd said EAGAIN). */
	uint8_t *backlog;
	size_t backlog_len, backlog_cap;
	int write_error;               /* -errno met while writing the backlog */
	uint64_t bits_written;   /* credit the bytes taken here earned */
};

static bool writable_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLOUT | POLLERR | POLLHUP));
}

/* Write what the fd takes now: bytes written, or -errno (not EAGAIN). */
static ssize_t write_some(struct file_sink *fs, const uint8_t *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fs->fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && fs->pollable)
				break;
			return -errno;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void backlog_flush(struct file_sink *fs)
{
	ssize_t n;

	if (fs->backlog_len == 0 || fs->write_error)
		return;
	n = write_some(fs, fs->backlog, fs->backlog_len);
	if (n < 0) {
		fs->write_error = (int)n;
		return;
	}
	memmove(fs->backlog, fs->backlog + n, fs->backlog_len - (size_t)n);
	fs->backlog_len -= (size_t)n;
	explicit_bzero(fs->backlog + fs->backlog_len, (size_t)n);
}

static size_t file_sink_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct file_sink *fs = s->priv;

	(void)now_ms;
	*next_ms = RNG_SINK_NEVER;
	backlog_flush(fs);
	/* A backlog write error is the next write()'s to report. */
	if (fs->write_error)
		return FILE_SINK_DEMAND;
	if (fs->backlog_len || (fs->pollable && !writable_now(fs->fd)))
		return 0;   /* wait_fd(): POLLOUT */
	return FILE_SINK_DEMAND;
}

static int file_sink_wait_fd(struct rng_sink *s, short *events)
{
	struct file_sink *fs = s->priv;

	if (!fs->pollable)
		return -1;
	*events = POLLOUT;
	return fs->fd;
}

static int file_sink_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct file_sink *fs = s->priv;

	if (fs->write_error)
		return fs->write_error;
	if (fs->backlog_len == 0) {
		ssize_t n = write_some(fs, buf, len);

		if (n < 0)
			return (int)n;
		buf += n;
		len -= (size_t)n;
	}
	/* Taken: written now or kept in the backlog below. */
	fs->bits_written += credit_bits;
	if (len == 0)
		return 0;
	/* demand() saw room, but the rest of the part waits for the reader:
	 * keep it, never block the loop on it. */
	if (fs->backlog_len + len > fs->backlog_cap) {
		size_t cap = fs->backlog_len + len;
		uint8_t *b = malloc(cap);

		if (!b)
			return -ENOMEM;
		if (fs->backlog) {
			memcpy(b, fs->backlog, fs->backlog_len);
			explicit_bzero(fs->backlog, fs->backlog_cap);
			free(fs->backlog);
		}
		fs->backlog = b;
		fs->backlog_cap = cap;
	}
	memcpy(fs->backlog + fs->backlog_len, buf, len);
	fs->backlog_len += len;
	return 0;
}

/* A file credits nothing itself: it counts the credit its bytes earned,
 * which a reader of the file may give them. */
static void file_sink_counters(const struct rng_sink *s, struct rng_sink_counters *out)
{
	const struct file_sink *fs = s->priv;

	memset(out, 0, sizeof(*out));
	out->bits_counted = fs->bits_written;
}

static void file_sink_close(struct rng_sink *s)
{
	struct file_sink *fs = s->priv;

	if (!fs)
		return;
	if (fs->backlog_len && !fs->write_error && fs->pollable) {
		/* Last chance for a reader that caught up; never wait for one. */
		backlog_flush(fs);
	}
	if (fs->owns_fd)
		(void)close(fs->fd);
	if (fs->backlog) {
		explicit_bzero(fs->backlog, fs->backlog_cap);
		free(fs->backlog);
	}
	free(fs);
	s->priv = NULL;
}

static const struct rng_sink_ops file_sink_ops = {
	.demand = file_sink_demand,
	.write = file_sink_write,
	.close = file_sink_close,
	.wait_fd = file_sink_wait_fd,
	.counters = file_sink_counters,
};

int rng_sink_file_open(struct rng_sink *s, const char *path)
{
	struct file_sink *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	struct stat st;

	if (strcmp(path, "-") == 0) {
		int mode = fcntl(STDOUT_FILENO, F_GETFL);

		/* Closed at start (main.c holds its number read-only): the
		 * bytes would go nowhere, and re-opening it below would find
		 * the /dev/null that holds it writable. */
		if (mode < 0 || (mode & O_ACCMODE) == O_RDONLY) {
			free(fs);
			return -EBADF;
		}
		fs->fd = STDOUT_FILENO;
		fs->owns_fd = false;
		if (fstat(fs->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
			/* A pipe, FIFO or terminal: a new open file description of
			 * it, so O_NONBLOCK does not reach the parent's stdout and
			 * a reader that stops reading never blocks the loop. A
			 * socket cannot be opened so: it stays blocking. */
			int fd = open("/proc/self/fd/1", O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

			if (fd >= 0) {
				fs->fd = fd;
				fs->owns_fd = true;
			}
		}
	} else {
		/* Appending: a sink file is never truncated under a reader. */
		fs->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
		if (fs->fd < 0) {
			int err = -errno;

			free(fs);
			return err;
		}
		fs->owns_fd = true;
	}
	if (fstat(fs->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		int fl = fcntl(fs->fd, F_GETFL);

		/* stdout is shared with the parent: only our own fd goes non-blocking. */
		fs->pollable = fs->owns_fd && fl >= 0 && fcntl(fs->fd, F_SETFL, fl | O_NONBLOCK) == 0;
	}
	s->ops = &file_sink_ops;
	s->name = "file";
	s->priv = fs;
	s->feeds_this_kernel = false;
	return 0;
}
