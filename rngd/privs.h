/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_PRIVS_H
#define RNGD_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

/* Switch to "user[:group]" keeping only CAP_SYS_ADMIN (RNDADDENTROPY).
 * Names or numeric ids; the group defaults to the user's. Also sets
 * no_new_privs. Call after every device and sysfs fd is open. -EINVAL for
 * a malformed argument, -ESRCH for an unknown user or group, else the
 * -errno of the failing call (-EPERM when not root). */
int privs_drop(const char *user_group);

/* Look "user[:group]" up as privs_drop() will, changing nothing, so that
 * a bad -D is reported before anything is opened. 0 with the ids; -EINVAL
 * for a malformed argument; -ESRCH with *unknown "user" or "group" for the
 * name that does not exist; another -errno if the name service failed. */
int privs_resolve(const char *user_group, uid_t *uid, gid_t *gid, const char **unknown);

/* Create and lock @path, write our pid. Returns an fd to keep open, or
 * -EEXIST with *holder set when another live process holds the lock
 * (*holder is 0 if that process has not written its pid yet). The lock is
 * an flock(), which would survive a fork(); main.c daemonizes first and
 * locks in the final process, so the pid written is already the right one
 * (pidfile_update() rewrites it if a caller forks after locking). */
int pidfile_lock(const char *path, pid_t *holder);
/* The same, with what is wrong with @path as a pid file in @why: not a
 * regular file (-EISDIR, -ELOOP, -EINVAL), a kernel file (-EINVAL), text
 * that is not a pid (-ENOTEMPTY, left untouched), or the failing call. */
int pidfile_lock_why(const char *path, pid_t *holder, char *why, size_t why_len);
/* Rewrite the pid file held by @fd with the calling process's pid. */
int pidfile_update(int fd);
/*
 * At exit: empty the pid file, then close it (-1 into *fd). Emptied, not
 * removed: after -D the directory may not be ours to unlink in, and a
 * path unlinked while a starting rngd waits on the old file's lock would
 * leave that rngd holding a lock nobody sees. An empty file is what a
 * new rngd takes, and to kill(1) or start-stop-daemon it names no process
 * (a stale pid, reused, would name some other one). 0, or -errno when
 * the file could not be emptied (nothing more to do: the lock ends with
 * the close all the same).
 */
int pidfile_release(int *fd);

#endif
