/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kind of file a path names, in words for an error message, and
 * whether it is a plain file that rngd may read as a config file or write
 * as a pid file or sink. Header-only so that every small program that
 * builds config.c or privs.c alone (unit tests, fuzz harnesses) gets it
 * without another source file.
 *
 * Kernel files (procfs, sysfs, debugfs, ...) show as regular files but
 * are not: reading one may never end or may consume what it reports
 * (/proc/kmsg), writing one changes the kernel (/proc/sys, sysrq-trigger).
 */
#ifndef RNGD_FILE_KIND_H
#define RNGD_FILE_KIND_H

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Not in every linux/magic.h this builds against. */
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif

/* "a directory", "a FIFO", ...: what @mode is, for "PATH is X". */
static inline const char *file_kind_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "not a file";
	}
}

/* The name of the kernel file system @sfs describes, or NULL for a real one. */
static inline const char *file_kind_kernel_fs_name(const struct statfs *sfs)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} kernel_fs[] = {
		{ PROC_SUPER_MAGIC, "procfs" },     { SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" },       { TRACEFS_MAGIC, "tracefs" },
		{ SECURITYFS_MAGIC, "securityfs" }, { CGROUP_SUPER_MAGIC, "cgroupfs" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2" }, { BPF_FS_MAGIC, "bpffs" },
		{ EFIVARFS_MAGIC, "efivarfs" },     { PSTOREFS_MAGIC, "pstore" },
		{ CONFIGFS_MAGIC, "configfs" },     { DEVPTS_SUPER_MAGIC, "devpts" },
	};

	for (size_t i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++)
		if ((unsigned long)sfs->f_type == kernel_fs[i].magic)
			return kernel_fs[i].name;
	return NULL;
}

/* Where the open file @fd lives: a kernel file system's name, or NULL. */
static inline const char *file_kind_kernel_fs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) < 0 ? NULL : file_kind_kernel_fs_name(&sfs);
}

/* The same for an existing @path (following links). */
static inline const char *file_kind_kernel_fs_at(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) < 0 ? NULL : file_kind_kernel_fs_name(&sfs);
}

/* /dev/null (1:3): "-c /dev/null" is the usual way to say "no config". */
static inline bool file_kind_is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/* A regular file, or /dev/null: what rngd reads settings from. */
static inline bool file_kind_is_settings(const struct stat *st)
{
	return S_ISREG(st->st_mode) || file_kind_is_dev_null(st);
}

/* "PATH: is a FIFO, not a config file ..." in @err; -EISDIR or -EINVAL. */
static inline int file_kind_refuse_settings(const char *path, const char *what, const struct stat *st, char *err,
					    size_t errlen)
{
	(void)snprintf(err, errlen, "%s: is %s, not a %s (rngd reads only a regular file)", path,
		       file_kind_name(st->st_mode), what);
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

/*
 * Open @path to read it as a file of settings (@what: "config file"): a
 * regular file on a real file system, or /dev/null. Its kind is checked
 * before open(), as opening a FIFO or a device may block or act (a tape
 * rewinds, a watchdog starts), and again on the fd, as the path may have
 * been replaced in between; *st is the fd's. Returns the fd, or -errno
 * with "PATH: why" in @err.
 */
static inline int file_kind_open_settings(const char *path, const char *what, struct stat *st, char *err,
					  size_t errlen)
{
	const char *kernel_fs;
	int fd, r;

	if (stat(path, st) < 0) {
		r = -errno;
		(void)snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (!file_kind_is_settings(st))
		return file_kind_refuse_settings(path, what, st, err, errlen);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		(void)snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (fstat(fd, st) < 0 || !file_kind_is_settings(st)) {
		r = file_kind_refuse_settings(path, what, st, err, errlen);
		(void)close(fd);
		return r;
	}
	kernel_fs = file_kind_kernel_fs(fd);
	if (kernel_fs) {
		(void)snprintf(err, errlen, "%s: is a kernel file (%s), not a %s", path, kernel_fs, what);
		(void)close(fd);
		return -EINVAL;
	}
	return fd;
}

/* /dev/random (1:8) or /dev/urandom (1:9): what the kernel sink needs. */
static inline bool file_kind_is_random_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       (minor(st->st_rdev) == 8 || minor(st->st_rdev) == 9);
}

#endif
