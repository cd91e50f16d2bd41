/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read offset of a regular-file source, kept in rngd's state folder so
 * that no byte of the file is read, and credited, again by a later run
 * (Restart=on-failure, the watchdog, a manual restart).
 *
 * One record per path: STATE_DIR/file-offset-<64-bit hash of the path>,
 * one line "DEV INO SIZE MTIME_S MTIME_NS OFFSET TAIL", rewritten in place
 * after every read and before its bytes are handed on. TAIL hashes the
 * FILE_OFFSET_TAIL bytes before OFFSET. The same file (device and inode)
 * whose bytes before OFFSET are still those (unchanged, or appended to)
 * resumes at OFFSET; a file rewritten since, or another file at the
 * path, is new data and starts at 0.
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
	bool valid;             /* a record was read or written */
	struct file_offset_mark mark;
};

#define FILE_OFFSET_TAIL 64

/* Open (create) the record for @path in @state_dir (created 0755 if
 * missing) and read it. 0 or -errno. */
int file_offset_open(struct file_offset_record *r, const char *state_dir, const char *path);

/* Where to start reading the file @st open as @fd: the recorded offset if
 * it is the same file with the same bytes before it, else 0. */
uint64_t file_offset_resume(const struct file_offset_record *r, int fd, const struct stat *st);

/* Record @offset for the file @st open as @fd. 0 or -errno. */
int file_offset_store(struct file_offset_record *r, int fd, const struct stat *st, uint64_t offset);

void file_offset_close(struct file_offset_record *r);

#endif
