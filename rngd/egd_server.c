/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD server (see egd_server.h).
 *
 *   1. Socket     bind in a private directory with a tight umask,
 *                 chown/chmod there, rename into place; replace a stale
 *                 socket, refuse to steal a live one
 *   2. Clients    accept within the cap, read, judge, drop
 *   3. Serving    round-robin in small parts, write without blocking
 *   4. Running    pollfds/handle, or a thread doing just that
 *   5. Stats      totals and one line per client
 */
#include <config.h>

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "rngd/egd_server.h"
#include "rngd/thread_stack.h"

#define WHO "egd"

void egd_server_config_default(struct egd_server_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = RNGD_DEFAULT_EGD_SOCKET_MODE;
	cfg->group = NULL;
	cfg->owner = (uid_t)-1;
	egd_limits_default(&cfg->limits);
}

/* ---- 1. Socket ---------------------------------------------------------- */

static int resolve_group(struct egd_server *s, const char *name, gid_t *gid)
{
	struct group *g;
	char *end;
	unsigned long n;

	*gid = (gid_t)-1;
	if (!name) {
		g = getgrnam(RNGD_DEFAULT_EGD_SOCKET_GROUP);
		if (g)
			*gid = g->gr_gid;
		return 0;
	}
	errno = 0;
	n = strtoul(name, &end, 10);
	if (name[0] >= '0' && name[0] <= '9' && !*end && !errno && n < (unsigned long)(gid_t)-1) {
		*gid = (gid_t)n;
		return 0;
	}
	g = getgrnam(name);
	if (!g) {
		rngd_log(s->log, LOG_ERR, WHO, "socket group '%s' does not exist", name);
		return -ENOENT;
	}
	*gid = g->gr_gid;
	return 0;
}

/* A socket file left by a dead server is removed; a live one is not ours. */
static int clear_stale(struct egd_server *s, const char *path, const struct sockaddr_un *sa)
{
	struct stat st;
	int fd, r;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode)) {
		rngd_log(s->log, LOG_ERR, WHO, "%s exists and is not a socket; not replacing it", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	(void)close(fd);
	if (r == 0) {
		rngd_log(s->log, LOG_ERR, WHO, "another server is listening on %s", path);
		return -EADDRINUSE;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		r = -errno;
		rngd_log(s->log, LOG_ERR, WHO, "cannot remove the stale socket %s: %s", path, strerror(-r));
		return r;
	}
	rngd_log(s->log, LOG_INFO, WHO, "removed the stale socket %s", path);
	return 0;
}

/* mkdtemp() a 0700 directory in the directory of @path. */
static int private_dir_for(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(dir, size, ".rngd-egd.XXXXXX");
	else
		n = snprintf(dir, size, "%.*s/.rngd-egd.XXXXXX", (int)(slash - path), path);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return mkdtemp(dir) ? 0 : -errno;
}

int egd_server_open(struct egd_server *s, const struct egd_server_config *cfg,
		    struct egd_reserve *reserve, struct rngd_log *log)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char priv_dir[PATH_MAX], priv_sock[PATH_MAX + 2];
	mode_t old_umask;
	gid_t gid;
	int r;

	memset(s, 0, sizeof(*s));
	s->listen_fd = s->wake_fd = -1;
	(void)pthread_mutex_init(&s->lock, NULL);
	s->log = log;
	s->reserve = reserve;
	s->limits = cfg->limits;
	s->pid = getpid();
	if (!cfg->path || !cfg->path[0] || strlen(cfg->path) >= sizeof(sa.sun_path)) {
		rngd_log(log, LOG_ERR, WHO, "socket path must be 1..%zu bytes", sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	if (cfg->limits.max_clients == 0 || cfg->limits.max_clients > EGD_MAX_CLIENTS ||
	    cfg->limits.burst == 0 || cfg->limits.stall_ms == 0 || cfg->limits.max_unserved == 0 ||
	    cfg->limits.prime > EGD_MAX_PRIME) {
		rngd_log(log, LOG_ERR, WHO, "invalid limits (clients 1..%u, burst and stall time above 0, prime at most %u)",
			 EGD_MAX_CLIENTS, EGD_MAX_PRIME);
		return -EINVAL;
	}
	memcpy(sa.sun_path, cfg->path, strlen(cfg->path) + 1);
	s->path = strdup(cfg->path);
	s->clients = calloc(EGD_MAX_CLIENTS, sizeof(*s->clients));
	s->peers = calloc(EGD_MAX_CLIENTS, sizeof(*s->peers));
	s->poll_slot = calloc(2 + EGD_MAX_CLIENTS, sizeof(*s->poll_slot));
	if (!s->path || !s->clients || !s->peers || !s->poll_slot)
		return -ENOMEM;
	r = resolve_group(s, cfg->group, &gid);
	if (r < 0)
		return r;
	r = clear_stale(s, cfg->path, &sa);
	if (r < 0)
		return r;

	/*
	 * Bound, chown'ed and chmod'ed inside a directory of our own (0700),
	 * then renamed into place: in a directory others may write, chown and
	 * chmod by the public path would follow a symlink swapped in after
	 * bind(). rename() replaces whatever is at the path, never follows it.
	 */
	r = private_dir_for(cfg->path, priv_dir, sizeof(priv_dir));
	if (r < 0) {
		rngd_log(log, LOG_ERR, WHO, "cannot make a private directory beside %s: %s", cfg->path,
			 strerror(-r));
		return r;
	}
	if ((size_t)snprintf(priv_sock, sizeof(priv_sock), "%s/s", priv_dir) >= sizeof(sa.sun_path)) {
		rngd_log(log, LOG_ERR, WHO, "socket directory of %s too long: the socket is bound at %s first, "
			 "which must fit in %zu bytes", cfg->path, priv_sock, sizeof(sa.sun_path) - 1);
		(void)rmdir(priv_dir);
		return -ENAMETOOLONG;
	}
	memset(sa.sun_path, 0, sizeof(sa.sun_path));
	memcpy(sa.sun_path, priv_sock, strlen(priv_sock) + 1);
	s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0) {
		r = -errno;
		rngd_log(log, LOG_ERR, WHO, "socket: %s", strerror(-r));
		(void)rmdir(priv_dir);
		return r;
	}
	/* Nobody but the owner may connect before chmod/chown have run. */
	old_umask = umask(0177);
	r = bind(s->listen_fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0 ? -errno : 0;
	(void)umask(old_umask);
	if (r < 0) {
		rngd_log(log, LOG_ERR, WHO, "cannot bind %s: %s", cfg->path, strerror(-r));
		(void)close(s->listen_fd);
		s->listen_fd = -1;
		(void)rmdir(priv_dir);
		return r;
	}
	if ((cfg->owner != (uid_t)-1 || gid != (gid_t)-1) && lchown(priv_sock, cfg->owner, gid) < 0) {
		r = -errno;
		/* The default group is a convenience (a service without
		 * CAP_CHOWN still serves root); a group asked for is a must. */
		if (cfg->group || cfg->owner != (uid_t)-1) {
			rngd_log(log, LOG_ERR, WHO, "cannot chown %s: %s", cfg->path, strerror(-r));
			goto fail;
		}
		rngd_log(log, LOG_WARNING, WHO, "cannot give %s to group %s (%s); only its owner may connect",
			 cfg->path, RNGD_DEFAULT_EGD_SOCKET_GROUP, strerror(-r));
		gid = (gid_t)-1;
	}
	/* Inside our 0700 directory nothing can be swapped under the path. */
	if (chmod(priv_sock, cfg->mode & 07777) < 0) {
		r = -errno;
		rngd_log(log, LOG_ERR, WHO, "cannot chmod %s: %s", cfg->path, strerror(-r));
		goto fail;
	}
	if (listen(s->listen_fd, SOMAXCONN) < 0) {
		r = -errno;
		rngd_log(log, LOG_ERR, WHO, "cannot listen on %s: %s", cfg->path, strerror(-r));
		goto fail;
	}
	if (rename(priv_sock, cfg->path) < 0) {
		r = -errno;
		rngd_log(log, LOG_ERR, WHO, "cannot move the socket to %s: %s", cfg->path, strerror(-r));
		goto fail;
	}
	(void)rmdir(priv_dir);
	priv_dir[0] = '\0';
	s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->wake_fd < 0) {
		r = -errno;
		rngd_log(log, LOG_ERR, WHO, "eventfd: %s", strerror(-r));
		goto fail;
	}
	egd_reserve_set_data_wake(reserve, s->wake_fd);
	rngd_log(log, LOG_INFO, WHO,
		 "serving %s (mode %04o%s%s), per client %" PRIu32 " bytes/s burst %" PRIu32
		 ", at most %" PRIu32 " clients%s",
		 cfg->path, (unsigned int)(cfg->mode & 07777), gid != (gid_t)-1 ? ", group " : "",
		 gid != (gid_t)-1 ? (cfg->group ? cfg->group : RNGD_DEFAULT_EGD_SOCKET_GROUP) : "",
		 s->limits.rate, s->limits.burst, s->limits.max_clients,
		 s->limits.prime ? ", priming each new client (QEMU rng-egd)" : "");
	return 0;
fail:
	if (priv_dir[0]) {
		(void)unlink(priv_sock);
		(void)rmdir(priv_dir);
	} else {
		(void)unlink(cfg->path);
	}
	(void)close(s->listen_fd);
	s->listen_fd = -1;
	return r;
}

void egd_server_set_limits(struct egd_server *s, const struct egd_limits *lim)
{
	(void)pthread_mutex_lock(&s->lock);
	s->limits = *lim;
	(void)pthread_mutex_unlock(&s->lock);
	rngd_log(s->log, LOG_INFO, WHO, "limits now: per client %" PRIu32 " bytes/s burst %" PRIu32
		 ", at most %" PRIu32 " clients, prime %" PRIu32 " bytes",
		 lim->rate, lim->burst, lim->max_clients, lim->prime);
}

/* ---- 2. Clients --------------------------------------------------------- */

static void client_name(const struct egd_client *c, char *buf, size_t len)
{
	if (c->peer_pid > 0)
		snprintf(buf, len, "client %lu (pid %ld)", c->id, (long)c->peer_pid);
	else
		snprintf(buf, len, "client %lu", c->id);
}

static void drop_client(struct egd_server *s, size_t i, int level, const char *why)
{
	struct egd_client *c = s->clients[i];
	char name[64];

	client_name(c, name, sizeof(name));
	rngd_log(s->log, level, WHO, "%s %s; %" PRIu64 " bytes served to it", name, why, c->conn.bytes_served);
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
 *   2. if @uid holds no connection: one of the uid holding the most (if
 *      it holds two or more), the one idle longest. So a peer under its
 *      own uid (QEMU as libvirt runs it) always gets in.
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

		if (c && c->peer == greedy_peer &&
		    (greedy < 0 || c->conn.last_progress_ms < s->clients[greedy]->conn.last_progress_ms))
			greedy = (ssize_t)i;
	}
	return greedy;
}

static void accept_clients(struct egd_server *s, uint64_t now_ms)
{
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
		while (s->n_clients >= s->limits.max_clients) {
			ssize_t v = pick_eviction(s, cred.uid, now_ms);
			char why[96];

			if (v < 0)
				break;
			snprintf(why, sizeof(why), "%s; disconnected to make room for a client of uid %ld",
				 client_silent(s->clients[v]) ? "silent" : "its uid holds the most connections",
				 (long)cred.uid);
			s->evicted++;
			drop_client(s, (size_t)v, LOG_NOTICE, why);
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

		client_name(c, name, sizeof(name));
		rngd_log(s->log, LOG_INFO, WHO, "%s connected (uid %ld)", name, (long)c->peer_uid);
	}
}

/* Read what the queue has room for; false if the client was dropped. */
static bool read_client(struct egd_server *s, size_t i, uint64_t now_ms)
{
	struct egd_client *c = s->clients[i];
	uint8_t buf[EGD_QUEUE_MAX];
	size_t room = egd_conn_read_room(&c->conn);
	ssize_t n;
	int r;

	if (room == 0)
		return true;
	n = recv(c->fd, buf, room, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return true;
	if (n <= 0) {
		char why[128];
		bool reset = n == 0 || errno == ECONNRESET;

		/* A peer closing with our reply unread shows as a reset. */
		snprintf(why, sizeof(why), "disconnected%s%s%s", c->conn.unserved ? " mid-reply" : "",
			 reset ? "" : ": ", reset ? "" : strerror(errno));
		drop_client(s, i, reset ? LOG_INFO : LOG_WARNING, why);
		return false;
	}
	r = egd_conn_input(&c->conn, buf, (size_t)n, &s->limits, now_ms);
	if (r == -EPERM) {
		drop_client(s, i, LOG_WARNING, "sent entropy (command 0x03): clients may not write; disconnected");
		return false;
	}
	if (r == -EPROTO) {
		char why[96];
		struct egd_request req;
		size_t k;

		/* Name the offending byte: the first one the parser refuses. */
		for (k = 0; k < (size_t)n && egd_parse_request(buf + k, (size_t)n - k, &req) > 0;
		     k += (size_t)egd_parse_request(buf + k, (size_t)n - k, &req))
			;
		snprintf(why, sizeof(why), "sent an unknown command 0x%02x; disconnected",
			 k < (size_t)n ? buf[k] : 0);
		drop_client(s, i, LOG_WARNING, why);
		return false;
	}
	if (r == -ENOBUFS) {
		char why[128];

		snprintf(why, sizeof(why), "flooding: %" PRIu64 " bytes requested and not yet served (limit %" PRIu32
			 "); disconnected", c->conn.unserved, s->limits.max_unserved);
		drop_client(s, i, LOG_WARNING, why);
		return false;
	}
	if (r < 0) {
		drop_client(s, i, LOG_WARNING, "protocol error; disconnected");
		return false;
	}
	return true;
}

/* ---- 3. Serving --------------------------------------------------------- */

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
			drop_client(s, i, LOG_INFO, "disconnected mid-reply");
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
			/* Another turn only for whoever still got entropy this turn. */
			if (served > 0 && c->conn.q_count > 0 && egd_conn_waiting(&c->conn))
				progress = true;
		}
	}
}

/* ---- 4. Running --------------------------------------------------------- */

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
		if (egd_conn_read_room(&c->conn) > 0)
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
			uint64_t v;

			(void)!read(s->wake_fd, &v, sizeof(v));
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
			if ((pfd[k].revents & (POLLHUP | POLLERR)) && egd_conn_read_room(&s->clients[i]->conn) == 0) {
				/* Its queue is full, so it is not read: a peer gone
				 * shows only here, on every poll, until dropped. */
				char why[96];

				snprintf(why, sizeof(why), "hung up with %u requests queued", s->clients[i]->conn.q_count);
				drop_client(s, i, LOG_INFO, why);
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
			drop_client(s, i, LOG_WARNING, why);
		}
	}
}

static void *server_main(void *arg)
{
	struct egd_server *s = arg;
	struct pollfd *pfd = calloc(egd_server_pollfds_max(s), sizeof(*pfd));

	if (!pfd) {
		rngd_log(s->log, LOG_ERR, WHO, "out of memory; not serving");
		return NULL;
	}
	for (;;) {
		uint64_t now, next;
		size_t n;
		int timeout;

		(void)pthread_mutex_lock(&s->lock);
		if (s->stop) {
			(void)pthread_mutex_unlock(&s->lock);
			break;
		}
		now = rngd_now_ms();
		n = egd_server_pollfds(s, pfd, now, &next);
		(void)pthread_mutex_unlock(&s->lock);
		if (next == UINT64_MAX)
			timeout = -1;
		else if (next <= now)
			timeout = 0;
		else
			timeout = next - now > INT32_MAX ? INT32_MAX : (int)(next - now);
		if (poll(pfd, n, timeout) < 0 && errno != EINTR) {
			rngd_log(s->log, LOG_ERR, WHO, "poll: %s; not serving", strerror(errno));
			break;
		}
		(void)pthread_mutex_lock(&s->lock);
		if (!s->stop)
			egd_server_handle(s, pfd, n, rngd_now_ms());
		(void)pthread_mutex_unlock(&s->lock);
	}
	free(pfd);
	return NULL;
}

int egd_server_start(struct egd_server *s)
{
	int r = rngd_thread_start(&s->thread, server_main, s);

	if (r != 0) {
		rngd_log(s->log, LOG_ERR, WHO, "cannot start the server thread: %s", strerror(r));
		return -r;
	}
	s->running = true;
	return 0;
}

void egd_server_stop(struct egd_server *s)
{
	uint64_t one = 1;

	if (!s->running)
		return;
	(void)pthread_mutex_lock(&s->lock);
	s->stop = true;
	(void)pthread_mutex_unlock(&s->lock);
	(void)!write(s->wake_fd, &one, sizeof(one));
	(void)pthread_join(s->thread, NULL);
	s->running = false;
}

/* ---- 5. Stats ----------------------------------------------------------- */

uint64_t egd_server_bytes_served(struct egd_server *s)
{
	uint64_t total;

	(void)pthread_mutex_lock(&s->lock);
	total = s->bytes_served_closed;
	for (size_t i = 0; s->clients && i < s->hi; i++)
		if (s->clients[i])
			total += s->clients[i]->conn.bytes_served;
	(void)pthread_mutex_unlock(&s->lock);
	return total;
}

void egd_server_log_stats(struct egd_server *s, const char *why)
{
	uint64_t in = 0, out = 0, served;
	size_t held;

	if (!s->clients)
		return;
	served = egd_server_bytes_served(s);
	egd_reserve_counters(s->reserve, &in, &out);
	held = egd_reserve_held(s->reserve);
	(void)pthread_mutex_lock(&s->lock);
	rngd_log(s->log, LOG_NOTICE, WHO,
		 "%s: %s: clients connected %zu, accepted %" PRIu64 ", refused %" PRIu64 ", dropped %" PRIu64
		 ", bytes served %" PRIu64 ", reserve bytes in %" PRIu64 ", held %zu",
		 why, s->path, s->n_clients, s->accepted, s->refused, s->dropped, served, in, held);
	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];
		char name[64];

		if (!c)
			continue;
		client_name(c, name, sizeof(name));
		rngd_log(s->log, LOG_NOTICE, WHO, "%s: %s: bytes served %" PRIu64 ", requests %" PRIu64
			 ", bytes requested and not yet served %" PRIu64,
			 why, name, c->conn.bytes_served, c->conn.requests, c->conn.unserved);
	}
	(void)pthread_mutex_unlock(&s->lock);
}

void egd_server_close(struct egd_server *s)
{
	egd_server_stop(s);
	if (s->clients) {
		for (size_t i = s->hi; i > 0; i--)
			if (s->clients[i - 1])
				drop_client(s, i - 1, LOG_INFO, "disconnected: rngd is stopping");
		free(s->clients);
		s->clients = NULL;
	}
	free(s->peers);
	s->peers = NULL;
	if (s->poll_slot) {
		free(s->poll_slot);
		s->poll_slot = NULL;
	}
	if (s->log)
		(void)pthread_mutex_destroy(&s->lock);
	if (s->listen_fd >= 0) {
		(void)close(s->listen_fd);
		s->listen_fd = -1;
		/* After privileges drop this may fail: the next start replaces it. */
		if (s->path)
			(void)unlink(s->path);
	}
	if (s->reserve && s->wake_fd >= 0)
		egd_reserve_set_data_wake(s->reserve, -1);
	if (s->wake_fd >= 0)
		(void)close(s->wake_fd);
	s->wake_fd = -1;
	free(s->path);
	s->path = NULL;
	s->log = NULL;
}
