/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_PRIVS_H
#define RNGD_PRIVS_H

#include <sys/types.h>

/* Switch to "user[:group]" keeping only CAP_SYS_ADMIN (RNDADDENTROPY).
 * Call after every device and sysfs fd is open. -errno on failure. */
int privs_drop(const char *user_group);

/* Create and lock @path, write our pid. Returns an fd to keep open, or
 * -EEXIST with *holder set when another live process holds the lock. */
int pidfile_lock(const char *path, pid_t *holder);

#endif
