/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file named with -r PATH (or -O file:path:PATH): a regular file, a FIFO
 * or a character device.
 *
 * A regular file is read once. Its end means the source is exhausted, for
 * good: reading it again would credit the same bytes twice. Re-opening it
 * (SIGHUP, a read error) resumes at the offset reached, and an exhausted
 * file stays exhausted while it is the same inode.
 *
 * A FIFO or device is re-opened after end of data: the loop closes it and
 * calls open() again with back-off. The first open never blocks (so the
 * daemon can open every source before dropping privileges even when no
 * writer is there yet); later opens of a FIFO wait for a writer, in the
 * source's own reader thread.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/source.h"

struct file_priv {
	char path[4096];
	bool opened_before;
	bool regular;
	bool exhausted;
	dev_t dev;
	ino_t ino;
	off_t offset;      /* of a regular file, kept across re-opens */
};

static struct file_priv *file_priv(struct rng_source *src)
{
	if (!src->priv)
		src->priv = calloc(1, sizeof(struct file_priv));
	return src->priv;
}

static int file_probe(struct rng_source *src)
{
	struct file_priv *p = file_priv(src);
	struct stat st;

	if (!p)
		return rng_source_why(src, -ENOMEM, "out of memory");
	if (!p->path[0])
		return rng_source_why(src, -EINVAL, "no file given (-r PATH or -O file:path:PATH)");
	if (stat(p->path, &st) < 0)
		return rng_source_why(src, -errno, "%s: %s", p->path, strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return rng_source_why(src, -EINVAL, "%s is not a regular file, FIFO or character device",
				      p->path);
	if (access(p->path, R_OK) < 0)
		return rng_source_why(src, -errno, "%s: %s", p->path, strerror(errno));
	rng_source_why(src, 0, "%s", p->path);
	return 0;
}

static int file_open(struct rng_source *src)
{
	struct file_priv *p = file_priv(src);
	struct stat st;
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY;
	int fd, err;

	if (!p)
		return rng_source_why(src, -ENOMEM, "out of memory");
	if (!p->path[0])
		return rng_source_why(src, -EINVAL, "no file given (-r PATH or -O file:path:PATH)");
	if (!p->opened_before)
		flags |= O_NONBLOCK;
	fd = open(p->path, flags);
	if (fd < 0)
		return rng_source_why(src, -errno, "open %s: %s", p->path, strerror(errno));
	p->opened_before = true;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		bool same = p->regular && st.st_dev == p->dev && st.st_ino == p->ino;

		if (!same) {
			p->regular = true;
			p->dev = st.st_dev;
			p->ino = st.st_ino;
			p->offset = 0;
			p->exhausted = false;
		} else if (p->exhausted) {
			(void)close(fd);
			return rng_source_why(src, -ENODATA,
					      "%s was read to its end; a regular file is never re-read",
					      p->path);
		} else if (lseek(fd, p->offset, SEEK_SET) < 0) {
			err = -errno;
			goto fail;
		}
	} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		p->regular = false;
	} else {
		(void)close(fd);
		return rng_source_why(src, -EINVAL, "%s is not a regular file, FIFO or character device",
				      p->path);
	}
	if ((flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK & ~O_CLOEXEC) < 0) {
		err = -errno;
		goto fail;
	}
	src->fd = fd;
	return 0;
fail:
	(void)close(fd);
	return rng_source_why(src, err, "%s: %s", p->path, strerror(-err));
}

static ssize_t file_read(struct rng_source *src, void *buf, size_t len)
{
	struct file_priv *p = src->priv;

	for (;;) {
		ssize_t n = read(src->fd, buf, len);

		if (n > 0) {
			if (p->regular)
				p->offset += n;
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
	if (src->fd >= 0)
		(void)close(src->fd);
	src->fd = -1;
}

static int file_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct file_priv *p = file_priv(src);

	if (!p)
		return -ENOMEM;
	if (strcmp(key, "path") == 0) {
		if (!value[0] || strlen(value) >= sizeof(p->path))
			return -EINVAL;
		if (strcmp(p->path, value) != 0) {
			snprintf(p->path, sizeof(p->path), "%s", value);
			p->regular = false;
			p->exhausted = false;
			p->offset = 0;
		}
		return 0;
	}
	return -EINVAL;
}

static void file_destroy(struct rng_source *src)
{
	free(src->priv);
	src->priv = NULL;
}

const struct rng_source_ops rng_source_file_ops = {
	.name = "file",
	.summary = "a regular file (read once), FIFO or character device (-r PATH)",
	.keys = "path=(none): the file, FIFO or device read",
	.default_entropy_per_bit = 0.0,
	.default_priority = 0,
	.probe = file_probe,
	.open = file_open,
	.read = file_read,
	.close = file_close,
	.set_option = file_set_option,
	.destroy = file_destroy,
};
