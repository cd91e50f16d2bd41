/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd notification. Built without libsystemd every call is a no-op;
 * with it, sd_notify() itself is a no-op when NOTIFY_SOCKET is unset, so
 * rngd run by hand never needs to know whether systemd is there.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "rngd/notify.h"

/* STATUS= lines are shown by systemctl status: one short line. */
#define NOTIFY_STATUS_MAX 256

#ifdef HAVE_LIBSYSTEMD

void notify_ready(void)
{
	(void)sd_notify(0, "READY=1");
}

void notify_stopping(void)
{
	(void)sd_notify(0, "STOPPING=1");
}

void notify_status(const char *fmt, ...)
{
	char status[NOTIFY_STATUS_MAX];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(status, sizeof(status), fmt, ap);
	va_end(ap);
	(void)sd_notifyf(0, "STATUS=%s", status);
}

void notify_watchdog(void)
{
	(void)sd_notify(0, "WATCHDOG=1");
}

uint64_t notify_watchdog_usec(void)
{
	uint64_t usec = 0;

	/* Also checks WATCHDOG_PID, so a forked child does not ping for us. */
	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	return usec;
}

#else /* !HAVE_LIBSYSTEMD */

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
