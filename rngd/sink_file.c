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
 * queues fill), without ever blocking the loop's signal handling for long.
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
/* How often a stalled pipe is looked at again: a few wake-ups a second. */
#define FILE_SINK_STALL_RECHECK_MS 200u

struct file_sink {
	int fd;
	bool owns_fd;
	bool pollable;
	uint64_t bits_written;   /* credit the bytes written here earned */
};

static bool writable_now(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, timeout_ms) > 0 && (p.revents & (POLLOUT | POLLERR | POLLHUP));
}

static size_t file_sink_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct file_sink *fs = s->priv;

	if (fs->pollable && !writable_now(fs->fd, 0)) {
		*next_ms = now_ms + FILE_SINK_STALL_RECHECK_MS;
		return 0;
	}
	*next_ms = RNG_SINK_NEVER;
	return FILE_SINK_DEMAND;
}

static int file_sink_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct file_sink *fs = s->priv;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fs->fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* demand() saw room, but the rest of a block may still wait for the reader. */
			if (errno == EAGAIN && fs->pollable) {
				(void)writable_now(fs->fd, 1000);
				continue;
			}
			return -errno;
		}
		done += (size_t)n;
	}
	fs->bits_written += credit_bits;
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
	if (fs->owns_fd)
		(void)close(fs->fd);
	free(fs);
	s->priv = NULL;
}

static const struct rng_sink_ops file_sink_ops = {
	.name = "file",
	.demand = file_sink_demand,
	.write = file_sink_write,
	.close = file_sink_close,
	.counters = file_sink_counters,
};

int rng_sink_file_open(struct rng_sink *s, const char *path)
{
	struct file_sink *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	struct stat st;

	if (strcmp(path, "-") == 0) {
		fs->fd = STDOUT_FILENO;
		fs->owns_fd = false;
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
	s->priv = fs;
	return 0;
}
