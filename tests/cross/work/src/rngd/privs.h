/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_PRIVS_H
#define RNGD_PRIVS_H

#include <sys/types.h>

/* Switch to "user[:group]" keeping only CAP_SYS_ADMIN (RNDADDENTROPY).
 * Names or numeric ids; the group defaults to the user's. Also sets
 * no_new_privs. Call after every device and sysfs fd is open. -EINVAL for
 * a malformed argument, -ESRCH for an unknown user or group, else the
 * -errno of the failing call (-EPERM when not root). */
int privs_drop(const char *user_group);

/* Create and lock @path, write our pid. Returns an fd to keep open, or
 * -EEXIST with *holder set when another live process holds the lock
 * (*holder is 0 if that process has not written its pid yet). The lock is
 * an flock(): it survives fork(), so lock first, then daemonize and call
 * pidfile_update(). */
int pidfile_lock(const char *path, pid_t *holder);
/* Rewrite the pid file held by @fd with the calling process's pid. */
int pidfile_update(int fd);

#endif
