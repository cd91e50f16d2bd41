/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uevent socket. Which events matter: a hwrng is registered by a
 * driver binding a device (virtio, tpm, platform), or by a module's init
 * for drivers that find their hardware themselves (intel-rng, amd-rng,
 * via-rng); the misc device hw_random itself comes and goes with rng-core.
 * Anything else (block, net, input, usb, ...) is drained and ignored, so a
 * burst of unrelated events costs a few recvmsg() calls and no sysfs reads.
 */
#include <config.h>

#include <sys/socket.h>

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "rngd/device_watch.h"
#include "sources/close_fd.h"

static const char *const hwrng_subsystems[] = { "virtio", "tpm", "platform", "module" };

int device_watch_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = DEVICE_WATCH_KERNEL_GROUP };
	const int one = 1;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -errno;
	/* Credentials with each message: only root's events count. */
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int r = -errno;

		(void)close(fd);
		return r;
	}
	return fd;
}

void device_watch_adopt(struct device_watch *w, int fd)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd < 0 ? -1 : fd;
}

/* The value of KEY= in the message's NUL-separated fields, or NULL. */
static const char *field(const char *msg, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (size_t off = strnlen(msg, len) + 1; off < len; off += strnlen(msg + off, len - off) + 1) {
		const char *f = msg + off;
		size_t flen = strnlen(f, len - off);

		if (flen == len - off)
			return NULL;   /* unterminated: not a field */
		if (flen > klen && !strncmp(f, key, klen) && f[klen] == '=')
			return f + klen + 1;
	}
	return NULL;
}

bool device_watch_relevant(const char *msg, size_t len, char *what, size_t what_len)
{
	const char *action, *subsystem, *devpath;
	bool relevant = false;

	/* The header is "action@devpath"; libudev's re-sent events start
	 * with "libudev" and are not what this socket listens to. */
	if (len == 0 || strnlen(msg, len) == len || !memchr(msg, '@', strnlen(msg, len)))
		return false;
	action = field(msg, len, "ACTION");
	subsystem = field(msg, len, "SUBSYSTEM");
	devpath = field(msg, len, "DEVPATH");
	if (!action || !subsystem || !devpath)
		return false;
	if (!strcmp(subsystem, "misc")) {
		const char *slash = strrchr(devpath, '/');

		relevant = slash && !strcmp(slash + 1, "hw_random");
	}
	for (size_t i = 0; !relevant && i < sizeof(hwrng_subsystems) / sizeof(hwrng_subsystems[0]); i++)
		relevant = !strcmp(subsystem, hwrng_subsystems[i]);
	if (relevant && what_len)
		(void)snprintf(what, what_len, "%s %s %s", action, subsystem, devpath);
	return relevant;
}

/* Root's, kernel or not: a test's synthetic events come from a root
 * process in a private network namespace, and only root may send to
 * this group at all. */
static bool from_root(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cred;

			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			return cred.uid == 0;
		}
	return false;
}

int device_watch_drain(struct device_watch *w, char *what, size_t what_len)
{
	static_assert(DEVICE_WATCH_MSG_MAX >= 2048, "a uevent must fit");
	char msg[DEVICE_WATCH_MSG_MAX];
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	int relevant = 0;
	bool lost = false;

	if (w->fd < 0)
		return -EBADF;
	for (;;) {
		struct iovec iov = { msg, sizeof(msg) - 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = &control, .msg_controllen = sizeof(control) };
		ssize_t n = recvmsg(w->fd, &mh, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* The queue overflowed; what is queued now is newer. */
				w->overruns++;
				lost = true;
				continue;
			}
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		msg[n] = '\0';
		if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || !from_root(&mh) ||
		    !device_watch_relevant(msg, (size_t)n, what, what_len)) {
			w->ignored++;
			continue;
		}
		w->events++;
		relevant++;
	}
	return lost ? -ENOBUFS : relevant;
}

void device_watch_close(struct device_watch *w)
{
	rng_close_fd(&w->fd);
}
