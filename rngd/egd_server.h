/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD server: a unix stream socket that hands the bytes of an
 * egd_reserve to clients speaking the EGD protocol (QEMU's rng-egd
 * backend, legacy EGD tools). The protocol itself is in egd_proto.h.
 *
 * Life cycle, as rngd/main.c uses it:
 *   egd_server_open()    as root, before privileges drop: bind, chmod,
 *                        chown; a stale socket left by a dead rngd is
 *                        replaced, a live one is an error (-EADDRINUSE)
 *   egd_server_start()   its own thread, after privileges drop
 *   egd_server_log_stats() any time (SIGUSR1), from any thread
 *   egd_server_stop()    joins the thread; egd_server_close() unlinks
 * Single-threaded use is possible too (the unit tests):
 *   egd_server_pollfds() + poll() + egd_server_handle().
 *
 * Every client has a rate limit, and a client that sends 0x03 or an
 * unknown command, floods (bytes requested and not yet served over the
 * limit) or stalls (leaves a reply unread or a request half sent for the
 * stall time) is disconnected and logged, once; the others carry on.
 */
#ifndef RNGD_EGD_SERVER_H
#define RNGD_EGD_SERVER_H

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rngd/defaults.h"
#include "rngd/egd_proto.h"
#include "rngd/egd_reserve.h"
#include "rngd/log.h"

#define EGD_MAX_CLIENTS 4096u
/* How long accepting pauses after accept4() failed for want of fds. */
#define EGD_ACCEPT_PAUSE_MS 1000u
/* Connect and drop lines logged in RNGD_RATELIMIT_WINDOW_MS (30 s): far
 * above what QEMU's few connections give, far below a flood's 30000 a
 * second. */
#define EGD_CLIENT_LOG_BURST 100u

struct egd_server_config {
	const char *path;
	mode_t mode;                  /* permission bits of the socket */
	const char *group;            /* NULL: RNGD_DEFAULT_EGD_SOCKET_GROUP if it exists */
	uid_t owner;                  /* (uid_t)-1: leave as created */
	struct egd_limits limits;
};

void egd_server_config_default(struct egd_server_config *cfg);

/*
 * What the server keeps per peer uid (SO_PEERCRED), beyond any one
 * connection: the token bucket all its connections share, so a client
 * that reconnects or opens more connections gets no more than the rate.
 * Kept after its last connection closes; reused for another uid only once
 * its bucket is full again (as good as new) or, with the table full, the
 * one idle longest.
 */
struct egd_peer {
	uid_t uid;
	bool used;
	unsigned int conns;           /* connections open now */
	struct egd_bucket bucket;
};

struct egd_client {
	int fd;
	unsigned long id;             /* connection number, for logs */
	pid_t peer_pid;               /* SO_PEERCRED, 0 if unknown */
	uid_t peer_uid;
	struct egd_peer *peer;
	struct egd_conn conn;
	bool read_closed;             /* peer shut its sending side: answer, then drop */
};

struct egd_server {
	/* Private. */
	struct rngd_log *log;
	struct egd_reserve *reserve;
	struct egd_limits limits;
	char *path;
	dev_t sock_dev;               /* the socket file at path, ours to unlink */
	ino_t sock_ino;
	int listen_fd;
	int wake_fd;                  /* eventfd: reserve data, stop, stats */
	pid_t pid;
	struct egd_client **clients;  /* EGD_MAX_CLIENTS slots, NULL when free */
	struct egd_peer *peers;       /* EGD_MAX_CLIENTS, see struct egd_peer */
	size_t n_clients;
	size_t hi;                    /* slots in use are all below this */
	size_t *poll_slot;            /* pollfds(): the slot of each client entry */
	size_t rr;                    /* round-robin start for fairness */
	unsigned long next_id;
	uint64_t accepted, refused, dropped, evicted;
	uint64_t bytes_served_closed; /* by clients already gone */
	pthread_mutex_t lock;         /* held while handling and for stats */
	pthread_t thread;
	bool running;
	bool stop;
	struct rngd_ratelimit refuse_rl;
	/* Each client's connect and drop lines: a client that connects and
	 * sends a bad command in a loop must not flood the log. Warnings
	 * (bad commands, flooding) have their own, so that routine connects
	 * cannot crowd them out. */
	struct rngd_ratelimit client_rl;
	struct rngd_ratelimit client_warn_rl;
	uint64_t accept_paused_until; /* accept4() ran out of fds: 0 or when to try again */
	uint64_t accept_pauses;
};

/*
 * Create the socket and its wake eventfd (which becomes @reserve's data
 * fd). 0 or -errno, logged here with the path and the cause.
 */
int egd_server_open(struct egd_server *s, const struct egd_server_config *cfg,
		    struct egd_reserve *reserve, struct rngd_log *log);

/* New limits for current and future clients (SIGHUP). */
void egd_server_set_limits(struct egd_server *s, const struct egd_limits *lim);

/*
 * Fill @pfd (room for egd_server_pollfds_max()) and return how many; sets
 * *next_ms to the earliest deadline (rate limit, stall), or UINT64_MAX.
 */
size_t egd_server_pollfds(struct egd_server *s, struct pollfd *pfd, uint64_t now_ms, uint64_t *next_ms);
size_t egd_server_pollfds_max(const struct egd_server *s);

/* After poll(): accept, read, serve, write, time out. */
void egd_server_handle(struct egd_server *s, const struct pollfd *pfd, size_t n, uint64_t now_ms);

/* Run pollfds/poll/handle in a thread until egd_server_stop(). 0 or -errno. */
int egd_server_start(struct egd_server *s);
void egd_server_stop(struct egd_server *s);

/* One line of totals and one per connected client, tagged @why. */
void egd_server_log_stats(struct egd_server *s, const char *why);

/* Bytes served to connected clients and to gone ones, in all. */
uint64_t egd_server_bytes_served(struct egd_server *s);

/* Remove the socket file if it is still this server's (not one another
 * server put at the path since): at exit, also from the start-up watch. */
void egd_server_unlink_own(const struct egd_server *s);

/* Disconnect everyone, close and unlink the socket. Safe after a failed open. */
void egd_server_close(struct egd_server *s);

#endif
