/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/close_fd.h"
#include "sources/file_offset.h"

/* A fixed-width line, so a rewrite in place never leaves a longer tail. */
#define RECORD_LEN 128

/* FNV-1a: named the old records after the path, and recognises the bytes
 * before the offset; not a security boundary (whoever can rewrite the file can
 * feed rngd anything). */
static uint64_t fnv1a(const uint8_t *p, size_t len)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t path_hash(const char *path)
{
	return fnv1a((const uint8_t *)path, strlen(path));
}

/* The hash of the bytes just before @offset; 0 with -errno in *err. */
static uint64_t tail_hash(int fd, uint64_t offset, int *err)
{
	uint8_t buf[FILE_OFFSET_TAIL];
	size_t len = offset < FILE_OFFSET_TAIL ? (size_t)offset : FILE_OFFSET_TAIL;
	ssize_t n = pread(fd, buf, len, (off_t)(offset - len));
	uint64_t h;

	*err = n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
	h = fnv1a(buf, len);
	explicit_bzero(buf, sizeof(buf));
	return h;
}

static void load(struct file_offset_record *r)
{
	char line[RECORD_LEN + 1];
	ssize_t n = pread(r->fd, line, RECORD_LEN, 0);
	struct file_offset_mark m;

	if (n <= 0)
		return;
	line[n] = '\0';
	/* The same fields as file_offset_store() writes. */
	if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %ld %" SCNu64 " %" SCNx64, &m.dev, &m.ino,
		   &m.size, &m.mtime_s, &m.mtime_ns, &m.offset, &m.tail) != 7)
		return;
	r->mark = m;
	r->valid = true;
}

/*
 * Before 2026-12 records were named after the path as written, so a link,
 * a hard link or `//` in the path found none and the file was credited
 * again. A file with no record of its own yet takes the mark of its
 * path's old record (resume checks it is the same file all the same);
 * the next store writes the new record.
 */
static void load_legacy(struct file_offset_record *r, int dfd, const char *path)
{
	struct file_offset_record old = { .fd = -1 };
	char name[64];

	(void)snprintf(name, sizeof(name), "file-offset-%016" PRIx64, path_hash(path));
	old.fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (old.fd < 0)
		return;
	load(&old);
	rng_close_fd(&old.fd);
	if (old.valid && old.mark.dev == r->dev && old.mark.ino == r->ino) {
		r->mark = old.mark;
		r->valid = true;
	}
}

int file_offset_open(struct file_offset_record *r, const char *state_dir, const char *path,
		     const struct stat *st)
{
	char name[80];
	int dfd, err;

	if (mkdir(state_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	dfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	r->dev = (uint64_t)st->st_dev;
	r->ino = (uint64_t)st->st_ino;
	(void)snprintf(name, sizeof(name), "file-offset-%" PRIx64 "-%" PRIx64, r->dev, r->ino);
	r->fd = openat(dfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
	if (r->fd < 0) {
		err = -errno;
		(void)close(dfd);
		return err;
	}
	/* One reader of the file at a time: a second rngd on the same
	 * folder would start from the same offset and credit the same
	 * bytes. Held as long as the record is open. */
	if (flock(r->fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		rng_close_fd(&r->fd);
		(void)close(dfd);
		return -EBUSY;
	}
	/* A folder without locks (NFS without lockd) keeps records all the
	 * same, as before there were locks: a second rngd is not kept out. */
	load(r);
	if (!r->valid)
		load_legacy(r, dfd, path);
	(void)close(dfd);
	return 0;
}

bool file_offset_is_for(const struct file_offset_record *r, const struct stat *st)
{
	return r->fd >= 0 && r->dev == (uint64_t)st->st_dev && r->ino == (uint64_t)st->st_ino;
}

uint64_t file_offset_resume(const struct file_offset_record *r, int fd, const struct stat *st)
{
	int err;

	const struct file_offset_mark *m = &r->mark;

	if (!r->valid || m->dev != (uint64_t)st->st_dev || m->ino != (uint64_t)st->st_ino)
		return 0;
	/* Shorter than the offset, or other bytes before it: rewritten. */
	if ((uint64_t)st->st_size < m->offset || tail_hash(fd, m->offset, &err) != m->tail || err < 0)
		return 0;
	return m->offset;
}

int file_offset_store(struct file_offset_record *r, int fd, const struct stat *st, uint64_t offset)
{
	char line[RECORD_LEN];
	struct file_offset_mark m;
	ssize_t written;
	int n, err;

	if (r->fd < 0)
		return -EBADF;
	m = (struct file_offset_mark){
		.dev = (uint64_t)st->st_dev,
		.ino = (uint64_t)st->st_ino,
		.size = (uint64_t)st->st_size,
		.mtime_s = st->st_mtim.tv_sec,
		.mtime_ns = st->st_mtim.tv_nsec,
		.offset = offset,
		.tail = tail_hash(fd, offset, &err),
	};
	if (err < 0)
		return err;
	n = snprintf(line, sizeof(line), "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %ld %" PRIu64 " %016" PRIx64,
		     m.dev, m.ino, m.size, m.mtime_s, m.mtime_ns, m.offset, m.tail);
	if (n < 0 || n >= RECORD_LEN)
		return -EOVERFLOW;
	memset(line + n, ' ', RECORD_LEN - 1 - (size_t)n);
	line[RECORD_LEN - 1] = '\n';
	written = pwrite(r->fd, line, RECORD_LEN, 0);
	if (written < 0)
		return -errno;
	if (written != RECORD_LEN)
		return -EIO;  /* short: errno says nothing about it */
	r->mark = m;
	r->valid = true;
	return 0;
}

void file_offset_close(struct file_offset_record *r)
{
	rng_close_fd(&r->fd);
}
