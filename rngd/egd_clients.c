/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD server's clients (see egd_server.h):
 *
 *   1. Clients    accept within the cap, read, judge, drop
 *   2. Serving    round-robin in small parts, write without blocking
 *   3. Polling    the pollfds to wait on and what to do when they fire
 *                 (egd_server_pollfds/egd_server_handle), which the
 *                 server's thread (rngd/egd_server.c) or a test runs
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "rngd/egd_clients.h"
#include "rngd/eventfd.h"
#include "rngd/egd_server.h"

#define WHO "egd"

/* ---- 1. Clients --------------------------------------------------------- */

void egd_client_name(const struct egd_client *c, char *buf, size_t len)
{
	if (c->peer_pid > 0)
		snprintf(buf, len, "client %lu (pid %ld)", c->id, (long)c->peer_pid);
	else
		snprintf(buf, len, "client %lu", c->id);
}

void egd_drop_client(struct egd_server *s, size_t i, int level, const char *why)
{
	struct egd_client *c = s->clients[i];
	char name[64];

	egd_client_name(c, name, sizeof(name));
	rngd_log_limited(s->log, level <= LOG_WARNING ? &s->client_warn_rl : &s->client_rl, rngd_now_ms(), level, WHO,
			 "%s %s; %" PRIu64 " bytes served to it", name, why, c->conn.bytes_served);
	if (c->peer)
		c->peer->conns--;   /* its bucket stays: reconnecting buys nothing */
	s->bytes_served_closed += c->conn.bytes_served;
	if (level <= LOG_WARNING)
		s->dropped++;
	egd_conn_wipe(&c->conn);
	(void)close(c->fd);
	explicit_bzero(c, sizeof(*c));
	free(c);
	s->clients[i] = NULL;
	s->n_clients--;
	s->accept_paused_until = 0;   /* an fd was freed: accept again */
	while (s->hi > 0 && !s->clients[s->hi - 1])
		s->hi--;
}

/* The peer record of @uid, made (or recycled) if new; NULL never: the
 * table has a slot per possible connection, and recycles idle ones. */
static struct egd_peer *peer_for(struct egd_server *s, uid_t uid, uint64_t now_ms)
{
	struct egd_peer *free_slot = NULL, *as_new = NULL, *oldest = NULL;

	for (size_t i = 0; i < EGD_MAX_CLIENTS; i++) {
		struct egd_peer *p = &s->peers[i];

		if (p->used && p->uid == uid)
			return p;
		if (!p->used) {
			if (!free_slot)
				free_slot = p;
			continue;
		}
		if (p->conns > 0)
			continue;
		if (!as_new && egd_bucket_full(&p->bucket, &s->limits, now_ms))
			as_new = p;
		if (!oldest || p->bucket.last_ms < oldest->bucket.last_ms)
			oldest = p;
	}
	/* Prefer forgetting a uid whose bucket is full again: nothing lost. */
	struct egd_peer *p = as_new ? as_new : free_slot ? free_slot : oldest;

	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->used = true;
	p->uid = uid;
	egd_bucket_init(&p->bucket, &s->limits, now_ms);
	return p;
}

/* Neither waiting for a reply nor sending: connected and silent. */
static bool client_silent(const struct egd_client *c)
{
	size_t out;

	(void)egd_conn_output(&c->conn, &out);
	return c->conn.q_count == 0 && !c->conn.has_partial && out == 0;
}

/*
 * At the cap, which connection gives way to a new one from @uid, or -1
 * to refuse it:
 *   1. the one silent longest, if silent for the stall time or more: idle
 *      connections cannot lock others out;
 *   2. if @uid holds no connection: a silent one of the uid holding the
 *      most (if it holds two or more), the one idle longest. So a peer
 *      under its own uid (QEMU as libvirt runs it) gets in past idle
 *      connections; but a connection waiting for a reply is never taken:
 *      QEMU does not ask again after a reconnect, so its guest would wait
 *      for good. The newcomer is refused instead, and may try again.
 */
static ssize_t pick_eviction(struct egd_server *s, uid_t uid, uint64_t now_ms)
{
	ssize_t silent = -1, greedy = -1;
	unsigned int mine = 0, most = 1;
	const struct egd_peer *greedy_peer = NULL;

	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];

		if (!c)
			continue;
		if (c->peer_uid == uid)
			mine++;
		if (client_silent(c) && now_ms - c->conn.last_progress_ms >= s->limits.stall_ms &&
		    (silent < 0 || c->conn.last_progress_ms < s->clients[silent]->conn.last_progress_ms))
			silent = (ssize_t)i;
	}
	if (silent >= 0)
		return silent;
	if (mine > 0)
		return -1;
	for (size_t i = 0; i < EGD_MAX_CLIENTS; i++)
		if (s->peers[i].used && s->peers[i].conns > most) {
			most = s->peers[i].conns;
			greedy_peer = &s->peers[i];
		}
	if (!greedy_peer)
		return -1;
	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];

		if (c && c->peer == greedy_peer && client_silent(c) &&
		    (greedy < 0 || c->conn.last_progress_ms < s->clients[greedy]->conn.last_progress_ms))
			greedy = (ssize_t)i;
	}
	return greedy;
}

/*
 * At the cap, before anyone is evicted or refused: drop the connections
 * whose peer has gone (POLLHUP: nobody could read a reply), which the
 * server's next poll would drop anyway. In a burst of connections that
 * close at once, they filled the cap and a live client was refused. One
 * poll() for all: a flood at the cap costs one call a look.
 */
static void drop_hung_up(struct egd_server *s)
{
	struct pollfd *pfd = calloc(s->hi ? s->hi : 1, sizeof(*pfd));

	if (!pfd)
		return;
	for (size_t i = 0; i < s->hi; i++)
		pfd[i] = (struct pollfd){ .fd = s->clients[i] ? s->clients[i]->fd : -1 };
	if (poll(pfd, s->hi, 0) > 0)
		for (size_t i = 0; i < s->hi; i++)
			if (s->clients[i] && s->clients[i]->fd == pfd[i].fd && (pfd[i].revents & (POLLHUP | POLLERR)))
				egd_drop_client(s, i, LOG_INFO, "hung up");
	free(pfd);
}

static void accept_clients(struct egd_server *s, uint64_t now_ms)
{
	uint64_t swept_at = UINT64_MAX;

	for (;;) {
		struct egd_client *c;
		struct ucred cred;
		socklen_t len = sizeof(cred);
		size_t i;
		int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			int err = errno;

			if (err == ECONNABORTED || err == EINTR)
				continue;
			if (err == EAGAIN || err == EWOULDBLOCK)
				return;
			/* Out of fds or memory: the pending connection stays and
			 * the listener stays readable, so stop polling it for a
			 * while (a dropped client ends the pause early). */
			s->accept_paused_until = now_ms + EGD_ACCEPT_PAUSE_MS;
			s->accept_pauses++;
			rngd_log_limited(s->log, &s->refuse_rl, now_ms, LOG_WARNING, WHO,
					 "accept: %s; not accepting for %.1f s (%zu clients connected)",
					 strerror(err), EGD_ACCEPT_PAUSE_MS / 1000.0, s->n_clients);
			return;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
			/* A unix socket always has them; without, no rate per uid. */
			rngd_log_limited(s->log, &s->refuse_rl, now_ms, LOG_WARNING, WHO,
					 "client refused: SO_PEERCRED: %s", strerror(errno));
			(void)close(fd);
			continue;
		}
		/* Looked at again only once a client came since: a flood of
		 * connections at the cap that are all refused costs one look. */
		if (s->n_clients >= s->limits.max_clients && s->accepted != swept_at) {
			drop_hung_up(s);
			swept_at = s->accepted;
		}
		while (s->n_clients >= s->limits.max_clients) {
			ssize_t v = pick_eviction(s, cred.uid, now_ms);
			char why[96];

			if (v < 0)
				break;
			snprintf(why, sizeof(why), "%s; disconnected to make room for a client of uid %ld",
				 client_silent(s->clients[v]) ? "silent" : "its uid holds the most connections",
				 (long)cred.uid);
			s->evicted++;
			egd_drop_client(s, (size_t)v, LOG_NOTICE, why);
		}
		if (s->n_clients >= s->limits.max_clients) {
			s->refused++;
			rngd_log_limited(s->log, &s->refuse_rl, now_ms, LOG_WARNING, WHO,
					 "client of uid %ld refused: %zu clients already (the cap), none silent for %.1f s",
					 (long)cred.uid, s->n_clients, s->limits.stall_ms / 1000.0);
			(void)close(fd);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			(void)close(fd);
			continue;
		}
		c->peer = peer_for(s, cred.uid, now_ms);
		if (!c->peer) {
			free(c);
			(void)close(fd);
			continue;
		}
		c->peer->conns++;
		for (i = 0; i < EGD_MAX_CLIENTS && s->clients[i]; i++)
			;
		c->fd = fd;
		c->id = ++s->next_id;
		c->peer_pid = cred.pid;
		c->peer_uid = cred.uid;
		egd_conn_init(&c->conn, &s->limits, now_ms);
		egd_conn_share_bucket(&c->conn, &c->peer->bucket);
		egd_conn_prime(&c->conn, &s->limits);
		s->clients[i] = c;
		s->n_clients++;
		if (i + 1 > s->hi)
			s->hi = i + 1;
		s->accepted++;
		char name[64];

		egd_client_name(c, name, sizeof(name));
		rngd_log_limited(s->log, &s->client_rl, now_ms, LOG_INFO, WHO, "%s connected (uid %ld)", name,
				 (long)c->peer_uid);
	}
}

/* What may be read from @c now: nothing once it has shut its sending side. */
static size_t client_read_room(const struct egd_client *c)
{
	return c->read_closed ? 0 : egd_conn_read_room(&c->conn);
}

/* Read what the queue has room for; false if the client was dropped. */
static bool read_client(struct egd_server *s, size_t i, uint64_t now_ms)
{
	struct egd_client *c = s->clients[i];
	uint8_t buf[EGD_QUEUE_MAX];
	size_t room = client_read_room(c);
	ssize_t n;
	int r;

	if (room == 0)
		return true;
	n = recv(c->fd, buf, room, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return true;
	/*
	 * End of input with whole requests still to answer: a client that
	 * sends its request and shuts its sending side (shutdown(SHUT_WR),
	 * `socat -u`-style tools) still reads the reply, so it is served
	 * and dropped once the last reply is written (serve_all).
	 */
	if (n == 0 && !c->conn.has_partial && !client_silent(c)) {
		c->read_closed = true;
		return true;
	}
	if (n <= 0) {
		char why[128];
		bool reset = n == 0 || errno == ECONNRESET;

		/* A peer closing with our reply unread shows as a reset. */
		snprintf(why, sizeof(why), "disconnected%s%s%s", c->conn.unserved ? " mid-reply" : "",
			 reset ? "" : ": ", reset ? "" : strerror(errno));
		egd_drop_client(s, i, reset ? LOG_INFO : LOG_WARNING, why);
		return false;
	}
	r = egd_conn_input(&c->conn, buf, (size_t)n, &s->limits, now_ms);
	if (r == -EPERM) {
		egd_drop_client(s, i, LOG_WARNING, "sent entropy (command 0x03): clients may not write; disconnected");
		return false;
	}
	if (r == -EPROTO) {
		char why[96];

		snprintf(why, sizeof(why), "sent an unknown command 0x%02x; disconnected", c->conn.refused);
		egd_drop_client(s, i, LOG_WARNING, why);
		return false;
	}
	if (r == -ENOBUFS) {
		char why[128];

		snprintf(why, sizeof(why), "flooding: %" PRIu64 " bytes requested and not yet served (limit %" PRIu32
			 "); disconnected", c->conn.unserved, s->limits.max_unserved);
		egd_drop_client(s, i, LOG_WARNING, why);
		return false;
	}
	if (r < 0) {
		egd_drop_client(s, i, LOG_WARNING, "protocol error; disconnected");
		return false;
	}
	return true;
}

/* ---- 2. Serving --------------------------------------------------------- */

/* Write what is ready; false if the client was dropped. */
static bool write_client(struct egd_server *s, size_t i, uint64_t now_ms)
{
	struct egd_client *c = s->clients[i];

	for (;;) {
		size_t len;
		const uint8_t *p = egd_conn_output(&c->conn, &len);
		ssize_t n;

		if (len == 0)
			return true;
		n = send(c->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			egd_drop_client(s, i, LOG_INFO, "disconnected mid-reply");
			return false;
		}
		egd_conn_consumed(&c->conn, (size_t)n, now_ms);
	}
}

static void serve_all(struct egd_server *s, uint64_t now_ms)
{
	bool progress = true;

	s->rr++;
	while (progress) {
		progress = false;
		for (size_t k = 0, hi = s->hi; k < hi && s->hi; k++) {
			size_t i = (s->rr + k) % hi;
			struct egd_client *c = s->clients[i];
			size_t served;

			if (!c)
				continue;
			served = egd_conn_serve(&c->conn, s->reserve, &s->limits, s->pid, EGD_SERVE_CHUNK, now_ms);
			if (!write_client(s, i, now_ms))
				continue;
			if (c->read_closed && client_silent(c)) {
				egd_drop_client(s, i, LOG_INFO, "disconnected after its last reply");
				continue;
			}
			/* Another turn only for whoever still got entropy this turn. */
			if (served > 0 && c->conn.q_count > 0 && egd_conn_waiting(&c->conn))
				progress = true;
		}
	}
}

/* ---- 3. Polling --------------------------------------------------------- */

size_t egd_server_pollfds_max(const struct egd_server *s)
{
	(void)s;
	return 2 + EGD_MAX_CLIENTS;
}

size_t egd_server_pollfds(struct egd_server *s, struct pollfd *pfd, uint64_t now_ms, uint64_t *next_ms)
{
	size_t n = 0;
	uint64_t next = UINT64_MAX;

	if (s->accept_paused_until && now_ms >= s->accept_paused_until)
		s->accept_paused_until = 0;
	pfd[n++] = (struct pollfd){ .fd = s->listen_fd, .events = s->accept_paused_until ? 0 : POLLIN };
	if (s->accept_paused_until)
		next = s->accept_paused_until;
	pfd[n++] = (struct pollfd){ .fd = s->wake_fd, .events = POLLIN };
	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];
		size_t out;
		short ev = 0;
		uint64_t t;

		if (!c)
			continue;
		(void)egd_conn_output(&c->conn, &out);
		if (client_read_room(c) > 0)
			ev |= POLLIN;
		if (out > 0)
			ev |= POLLOUT;
		s->poll_slot[n] = i;
		pfd[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
		t = egd_conn_stall_at(&c->conn, &s->limits);
		if (t < next)
			next = t;
		if (egd_conn_waiting(&c->conn)) {
			t = egd_conn_tokens_at(&c->conn, &s->limits, now_ms);
			if (t < next)
				next = t;
		}
	}
	*next_ms = next;
	return n;
}

void egd_server_handle(struct egd_server *s, const struct pollfd *pfd, size_t n, uint64_t now_ms)
{
	for (size_t k = 0; k < n; k++) {
		if (!pfd[k].revents)
			continue;
		if (pfd[k].fd == s->wake_fd) {
			(void)rngd_eventfd_take(s->wake_fd);
			continue;
		}
		if (pfd[k].fd == s->listen_fd) {
			if (!s->accept_paused_until)
				accept_clients(s, now_ms);
			continue;
		}
		/* Entries past the two fixed ones are clients, in pollfds() order. */
		if (k >= 2 && k < 2 + EGD_MAX_CLIENTS) {
			size_t i = s->poll_slot[k];

			if (!(i < s->hi && s->clients[i] && s->clients[i]->fd == pfd[k].fd))
				continue;
			if ((pfd[k].revents & (POLLHUP | POLLERR)) && client_read_room(s->clients[i]) == 0) {
				/* Its queue is full or its input ended, so it is not
				 * read: a peer gone shows only here, on every poll,
				 * until dropped. */
				char why[96];

				snprintf(why, sizeof(why), "hung up with %u requests queued", s->clients[i]->conn.q_count);
				egd_drop_client(s, i, LOG_INFO, why);
				continue;
			}
			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))
				(void)read_client(s, i, now_ms);
		}
	}
	serve_all(s, now_ms);
	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];

		if (c && egd_conn_stalled(&c->conn, &s->limits, now_ms)) {
			char why[96];

			snprintf(why, sizeof(why), "stalled: %s for %.1f s; disconnected",
				 c->conn.has_partial ? "a request left unfinished" : "a reply left unread",
				 s->limits.stall_ms / 1000.0);
			egd_drop_client(s, i, LOG_WARNING, why);
		}
	}
}
