/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file sink: -o PATH that is not a character device, or -o - for
 * stdout. It receives passing bytes only (and, with --on-fail=mix, failed
 * bytes with zero credit), in the order the loop hands them over; the
 * credit means nothing to a file and is not recorded. It always wants
 * data: a file or FIFO reader sets the pace by blocking the write.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/sink.h"

/* Enough for several blocks per demand() round trip. */
#define FILE_SINK_DEMAND (64u * 1024u)

struct file_sink {
	int fd;
	bool owns_fd;
};

static size_t file_sink_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	(void)s;
	(void)now_ms;
	*next_ms = RNG_SINK_NEVER;
	return FILE_SINK_DEMAND;
}

static int file_sink_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct file_sink *fs = s->priv;
	size_t done = 0;

	(void)credit_bits;
	while (done < len) {
		ssize_t n = write(fs->fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
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
};

int rng_sink_file_open(struct rng_sink *s, const char *path)
{
	struct file_sink *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
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
	s->ops = &file_sink_ops;
	s->priv = fs;
	return 0;
}
