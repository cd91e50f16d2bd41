/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd notification, spoken directly: the protocol is one datagram of
 * "KEY=VALUE" lines to the AF_UNIX socket named by $NOTIFY_SOCKET (a path,
 * or an abstract name written with a leading '@'), and the watchdog
 * interval is $WATCHDOG_USEC, meant for us only if $WATCHDOG_PID is unset
 * or our pid (sd_notify(3), sd_watchdog_enabled(3)). Doing it here instead
 * of linking libsystemd saves the daemon 0.3 MB resident (and the
 * compression libraries libsystemd maps).
 *
 * Every call is a no-op when NOTIFY_SOCKET is unset, so rngd run by hand
 * never needs to know whether systemd is there. Built with
 * --disable-systemd every call is a no-op.
 */
#include <config.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/notify.h"

/* STATUS= lines are shown by systemctl status: one short line. */
#define NOTIFY_STATUS_MAX 256

#ifdef RNGD_SD_NOTIFY

int notify_socket_address(const char *name, struct sockaddr_un *addr, socklen_t *len)
{
	size_t n;

	if (!name || (name[0] != '/' && name[0] != '@'))
		return -EAFNOSUPPORT;   /* unset, or a kind (vsock:) a service never gets */
	n = strlen(name);
	if (n < 2 || n > sizeof(addr->sun_path))
		return -EINVAL;
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	memcpy(addr->sun_path, name, n);
	if (name[0] == '@') {
		/* Abstract: a leading NUL, and the length is exact (no terminator). */
		addr->sun_path[0] = '\0';
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	} else {
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (n < sizeof(addr->sun_path) ? n + 1 : n));
	}
	return 0;
}

/* One datagram to $NOTIFY_SOCKET; 0, or -errno (nobody needs to know). */
static int notify_send(const char *msg)
{
	struct sockaddr_un addr;
	socklen_t len;
	ssize_t n;
	int fd, err;

	err = notify_socket_address(getenv("NOTIFY_SOCKET"), &addr, &len);
	if (err < 0)
		return err;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (const struct sockaddr *)&addr, len);
	err = n < 0 ? -errno : 0;
	(void)close(fd);
	return err;
}

void notify_ready(void)
{
	(void)notify_send("READY=1");
}

void notify_stopping(void)
{
	(void)notify_send("STOPPING=1");
}

void notify_status(const char *fmt, ...)
{
	char status[NOTIFY_STATUS_MAX];
	va_list ap;
	size_t n;

	n = (size_t)snprintf(status, sizeof(status), "STATUS=");
	va_start(ap, fmt);
	(void)vsnprintf(status + n, sizeof(status) - n, fmt, ap);
	va_end(ap);
	/* One line: a newline would start a key systemd reads as an assignment. */
	status[strcspn(status, "\n")] = '\0';
	(void)notify_send(status);
}

void notify_watchdog(void)
{
	(void)notify_send("WATCHDOG=1");
}

/* A decimal without sign or junk, as systemd writes it; 0 if not one. */
static unsigned long long parse_decimal(const char *s)
{
	unsigned long long v;
	char *end;

	if (!s || s[0] < '0' || s[0] > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	return errno || *end ? 0 : v;
}

uint64_t notify_watchdog_usec(void)
{
	const char *pid = getenv("WATCHDOG_PID");

	/* Set by the service manager for the main process; a forked child does not ping for us. */
	if (pid && parse_decimal(pid) != (unsigned long long)getpid())
		return 0;
	return parse_decimal(getenv("WATCHDOG_USEC"));
}

#else /* !RNGD_SD_NOTIFY */

int notify_socket_address(const char *name, struct sockaddr_un *addr, socklen_t *len)
{
	(void)name;
	(void)addr;
	(void)len;
	return -EAFNOSUPPORT;
}

void notify_ready(void)
{
}

void notify_stopping(void)
{
}

void notify_status(const char *fmt, ...)
{
	(void)fmt;
}

void notify_watchdog(void)
{
}

uint64_t notify_watchdog_usec(void)
{
	return 0;
}

#endif

uint64_t notify_watchdog_every_ms(void)
{
	uint64_t usec = notify_watchdog_usec();

	/* Half the interval leaves the other half for a slow pass. */
	if (!usec)
		return 0;
	return usec / 2000u ? usec / 2000u : 1;
}
