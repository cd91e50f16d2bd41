/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD server (see egd_server.h).
 *
 *   1. Socket     bind in a private directory with a tight umask,
 *                 chown/chmod there, link into place (never over
 *                 another server's); replace a stale socket, refuse to
 *                 steal a live one
 *   2. Running    a thread polling and serving (rngd/egd_clients.c:
 *                 accept within the cap, read, judge, drop, serve
 *                 round-robin in small parts without blocking)
 *   3. Stats      totals and one line per client
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

#include "rngd/egd_clients.h"
#include "rngd/egd_server.h"
#include "rngd/eventfd.h"
#include "rngd/poll_timeout.h"
#include "rngd/thread_stack.h"
#include "sources/close_fd.h"
#include "sources/parse_num.h"

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
	unsigned long n;

	*gid = (gid_t)-1;
	if (!name) {
		g = getgrnam(RNGD_DEFAULT_EGD_SOCKET_GROUP);
		if (g)
			*gid = g->gr_gid;
		return 0;
	}
	/* Below (gid_t)-1, which chown() takes for "leave the group". */
	if (rng_parse_uint(name, 0, (unsigned long)(gid_t)-1 - 1, &n) == 0) {
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
	struct stat st;
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
	s->client_rl.burst = EGD_CLIENT_LOG_BURST;
	s->client_warn_rl.burst = EGD_CLIENT_LOG_BURST;
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
	 * then linked into place: in a directory others may write, chown and
	 * chmod by the public path would follow a symlink swapped in after
	 * bind(). link() never follows the path, nor replaces what is there.
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
	/* link(), not rename(): it never replaces what another server put at
	 * the path since clear_stale() looked, so two servers cannot both
	 * think they serve it. */
	r = lstat(priv_sock, &st) < 0 ? -errno : link(priv_sock, cfg->path) < 0 ? -errno : 0;
	/* A file system without hard links, or a policy that refuses them:
	 * rename() as before, which replaces what is there. */
	if (r < 0 && r != -EEXIST && r != -ENOENT && rename(priv_sock, cfg->path) == 0)
		r = 0;
	if (r < 0) {
		if (r == -EEXIST)
			rngd_log(log, LOG_ERR, WHO, "%s appeared while rngd was binding (another server?); not replacing it",
				 cfg->path);
		else
			rngd_log(log, LOG_ERR, WHO, "cannot put the socket at %s: %s", cfg->path, strerror(-r));
		goto fail;
	}
	s->sock_dev = st.st_dev;
	s->sock_ino = st.st_ino;
	(void)unlink(priv_sock);
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
		 "serving %s (mode %04o%s%s), per uid %" PRIu32 " bytes/s burst %" PRIu32
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
	rngd_log(s->log, LOG_INFO, WHO, "limits now: per uid %" PRIu32 " bytes/s burst %" PRIu32
		 ", at most %" PRIu32 " clients, prime %" PRIu32 " bytes",
		 lim->rate, lim->burst, lim->max_clients, lim->prime);
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

		(void)pthread_mutex_lock(&s->lock);
		if (s->stop) {
			(void)pthread_mutex_unlock(&s->lock);
			break;
		}
		now = rngd_now_ms();
		n = egd_server_pollfds(s, pfd, now, &next);
		(void)pthread_mutex_unlock(&s->lock);
		if (poll(pfd, n, rngd_poll_timeout_ms(now, next)) < 0 && errno != EINTR) {
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
	if (!s->running)
		return;
	(void)pthread_mutex_lock(&s->lock);
	s->stop = true;
	(void)pthread_mutex_unlock(&s->lock);
	rngd_eventfd_poke(s->wake_fd);
	(void)pthread_join(s->thread, NULL);
	s->running = false;
}

/* ---- 3. Stats ----------------------------------------------------------- */

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
	struct egd_reserve_snapshot reserve;
	uint64_t served;

	if (!s->clients)
		return;
	served = egd_server_bytes_served(s);
	/* Held and bytes in from one instant: a put or take between two
	 * locked reads would log them out of step. */
	reserve = egd_reserve_snapshot(s->reserve);
	(void)pthread_mutex_lock(&s->lock);
	rngd_log(s->log, LOG_NOTICE, WHO,
		 "%s: %s: clients connected %zu, accepted %" PRIu64 ", refused %" PRIu64 ", dropped %" PRIu64
		 ", bytes served %" PRIu64 ", reserve bytes in %" PRIu64 ", held %zu",
		 why, s->path, s->n_clients, s->accepted, s->refused, s->dropped, served,
		 reserve.bytes_in, reserve.held);
	for (size_t i = 0; i < s->hi; i++) {
		struct egd_client *c = s->clients[i];
		char name[64];

		if (!c)
			continue;
		egd_client_name(c, name, sizeof(name));
		rngd_log(s->log, LOG_NOTICE, WHO, "%s: %s: bytes served %" PRIu64 ", requests %" PRIu64
			 ", bytes requested and not yet served %" PRIu64,
			 why, name, c->conn.bytes_served, c->conn.requests, c->conn.unserved);
	}
	(void)pthread_mutex_unlock(&s->lock);
}

void egd_server_unlink_own(const struct egd_server *s)
{
	struct stat st;

	/* After privileges drop this may fail: the next start replaces it.
	 * Only our own socket: not one a later server put there. */
	if (s->path && s->sock_ino && lstat(s->path, &st) == 0 && st.st_dev == s->sock_dev &&
	    st.st_ino == s->sock_ino)
		(void)unlink(s->path);
}

void egd_server_close(struct egd_server *s)
{
	egd_server_stop(s);
	if (s->clients) {
		for (size_t i = s->hi; i > 0; i--)
			if (s->clients[i - 1])
				egd_drop_client(s, i - 1, LOG_INFO, "disconnected: rngd is stopping");
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
		egd_server_unlink_own(s);
	}
	if (s->reserve && s->wake_fd >= 0)
		egd_reserve_set_data_wake(s->reserve, -1);
	rng_close_fd(&s->wake_fd);
	free(s->path);
	s->path = NULL;
	s->log = NULL;
}
