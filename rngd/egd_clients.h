/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The EGD server's clients (rngd/egd_clients.c), as the server's own
 * socket, thread and stats code (rngd/egd_server.c) needs them. */
#ifndef RNGD_EGD_CLIENTS_H
#define RNGD_EGD_CLIENTS_H

#include <stddef.h>

struct egd_server;
struct egd_client;

/* "client N (pid P)", for log lines. */
void egd_client_name(const struct egd_client *c, char *buf, size_t len);

/* Close client @i, log why at @level, count what it was served; its
 * slot is empty after (a warning or worse also counts as a drop). */
void egd_drop_client(struct egd_server *s, size_t i, int level, const char *why);

#endif
