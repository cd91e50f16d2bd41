/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device events: the kernel's uevents (NETLINK_KOBJECT_UEVENT) for the
 * devices that register hwrngs, so rngd learns of a new, removed or
 * re-registered hardware RNG when it happens instead of polling sysfs.
 *
 * rngd trusts nothing an event says: an event only makes it re-read
 * rng_current and rng_quality, which are the truth. So the socket listens
 * to the kernel's own group, which works without udevd (early boot, an
 * initramfs) and in a test's private network namespace, where a test
 * sends synthetic events itself.
 */
#ifndef RNGD_DEVICE_WATCH_H
#define RNGD_DEVICE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's uevent multicast group (udevd re-sends on group 2). */
#define DEVICE_WATCH_KERNEL_GROUP 1u
/* One uevent is at most UEVENT_BUFFER_SIZE (2048) bytes in linux 6.1. */
#define DEVICE_WATCH_MSG_MAX 8192

struct device_watch {
	int fd;                 /* the netlink socket, -1 when closed */
	uint64_t events;        /* relevant events seen */
	uint64_t ignored;       /* other subsystems, or not from root */
	uint64_t overruns;      /* ENOBUFS: events were lost */
};

/* A non-blocking uevent socket, bound to the kernel's group: its fd, or
 * -errno (EAFNOSUPPORT under a RestrictAddressFamilies= without
 * AF_NETLINK, EPROTONOSUPPORT without CONFIG_NET). */
int device_watch_socket(void);

/* Start @w on @fd: a socket from device_watch_socket() (or a test's
 * datagram socket), or a negative value for none. Counters start at 0. */
void device_watch_adopt(struct device_watch *w, int fd);

/*
 * Read every queued message. Returns how many were relevant (0 if none),
 * -ENOBUFS if the socket overflowed (events lost: the caller must look
 * anyway), or another -errno. @what gets "ACTION SUBSYSTEM DEVPATH" of
 * the last relevant event, for the log.
 */
int device_watch_drain(struct device_watch *w, char *what, size_t what_len);

/*
 * Is @msg (@len bytes: "action@devpath\0KEY=VALUE\0...") an event of a
 * subsystem whose devices register hwrngs? Fills @what as above.
 */
bool device_watch_relevant(const char *msg, size_t len, char *what, size_t what_len);

void device_watch_close(struct device_watch *w);

#endif
