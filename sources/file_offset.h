/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read offset of a regular-file source, kept in rngd's state folder so
 * that no byte of the file is read, and credited, again by a later run
 * (Restart=on-failure, the watchdog, a manual restart).
 *
 * One record per file, named after its device and inode, so that every
 * path to it (a symbolic or hard link, `//`, a relative path) finds the
 * same one: STATE_DIR/file-offset-<dev hex>-<ino hex>, one line "DEV INO
 * SIZE MTIME_S MTIME_NS OFFSET TAIL", rewritten in place after every read
 * and before its bytes are handed on. TAIL hashes the FILE_OFFSET_TAIL
 * bytes before OFFSET. A file whose bytes before OFFSET are still those
 * (unchanged, or appended to) resumes at OFFSET; one rewritten since, or
 * a new file that got the inode of a deleted one, is new data and starts
 * at 0. (Records from before were named after the path as written; such
 * a record still counts for its file until the new one is written.)
 */
#ifndef SOURCES_FILE_OFFSET_H
#define SOURCES_FILE_OFFSET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/* What one record line says: the file, and how far it was read. */
struct file_offset_mark {
	uint64_t dev, ino, size;
	int64_t mtime_s;
	long mtime_ns;
	uint64_t offset;
	uint64_t tail;          /* hash of the FILE_OFFSET_TAIL bytes before offset */
};

struct file_offset_record {
	int fd;                 /* -1: none kept (a new record: all zero but this) */
	uint64_t dev, ino;      /* the file the open record is named after */
	bool valid;             /* a record was read or written */
	struct file_offset_mark mark;
};

#define FILE_OFFSET_TAIL 64

/* Open (create) the record of the file @st, reached as @path, in
 * @state_dir (created 0755 if missing), lock it (flock) and read it.
 * 0, -EBUSY if another reader holds it (another rngd on the same folder,
 * or another source of this one), or -errno. */
int file_offset_open(struct file_offset_record *r, const char *state_dir, const char *path,
		     const struct stat *st);

/* True if @r is open and is the record of the file @st. */
bool file_offset_is_for(const struct file_offset_record *r, const struct stat *st);

/* Where to start reading the file @st open as @fd: the recorded offset if
 * it is the same file with the same bytes before it, else 0. */
uint64_t file_offset_resume(const struct file_offset_record *r, int fd, const struct stat *st);

/* Record @offset for the file @st open as @fd. 0 or -errno. */
int file_offset_store(struct file_offset_record *r, int fd, const struct stat *st, uint64_t offset);

void file_offset_close(struct file_offset_record *r);

#endif
