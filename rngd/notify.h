/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd notification; every call is a no-op outside systemd. */
#ifndef RNGD_NOTIFY_H
#define RNGD_NOTIFY_H

#include <sys/socket.h>
#include <sys/un.h>

#include <stdint.h>

void notify_ready(void);
void notify_stopping(void);
void notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void notify_watchdog(void);
/* Watchdog interval in microseconds, 0 if not enabled or meant for another pid. */
uint64_t notify_watchdog_usec(void);
/* How often to send WATCHDOG=1: half that interval, never 0 when one was
 * asked for; 0 without a watchdog. */
uint64_t notify_watchdog_every_ms(void);

/*
 * $NOTIFY_SOCKET's @name as an address: "/path" or "@abstract". 0, or
 * -EAFNOSUPPORT (unset or another kind), -EINVAL (empty or too long).
 */
int notify_socket_address(const char *name, struct sockaddr_un *addr, socklen_t *len);

#endif
