/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Send one synthetic kernel-format uevent to the uevent multicast group of
 * the calling process's network namespace:
 *
 *   uevent-send ACTION SUBSYSTEM DEVPATH
 *
 * Tests run it and rngd inside a private network namespace (unshare -n),
 * where nothing else listens: no real device event is ever triggered, and
 * the host's udevd never sees these.
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/netlink.h>

int main(int argc, char **argv)
{
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char msg[1024];
	int len, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: uevent-send ACTION SUBSYSTEM DEVPATH\n");
		return 2;
	}
	len = snprintf(msg, sizeof(msg), "%s@%s%cACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=1", argv[1],
		       argv[3], 0, argv[1], 0, argv[3], 0, argv[2], 0);
	if (len < 0 || (size_t)len >= sizeof(msg)) {
		fprintf(stderr, "uevent-send: event too long\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || sendto(fd, msg, (size_t)len + 1, 0, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
		fprintf(stderr, "uevent-send: %s\n", strerror(errno));
		return 1;
	}
	(void)close(fd);
	return 0;
}
