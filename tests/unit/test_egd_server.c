/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD server over a real unix socket, running in its own thread as in
 * rngd: the socket's mode, a stale socket replaced and a live one left
 * alone; every command; malformed and 0x03 clients dropped while another
 * is served; 64 clients at once each getting distinct bytes; the client
 * cap; a stalled and a flooding client; a client gone mid-reply (its
 * bytes are not served again); a half-closed client still answered;
 * the rate limit measured within 10%.
 */
#include <config.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/lib/test_main.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rngd/egd_server.h"

static char dir[64];
static char path[128];
static struct rngd_log logger;
static struct egd_reserve res;
static struct egd_server srv;
static struct egd_server_config cfg;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/egd-unit.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/egd.sock", dir);
	rngd_log_init(&logger, true, LOG_INFO);
	egd_server_config_default(&cfg);
	cfg.path = path;
	cfg.group = NULL;
	cfg.limits.rate = 0;
	return egd_reserve_init(&res, 1u << 20);
}

static int teardown(void **state)
{
	(void)state;
	egd_server_close(&srv);
	egd_reserve_destroy(&res);
	(void)unlink(path);
	(void)rmdir(dir);
	rngd_log_close(&logger);
	return 0;
}

static void start(void)
{
	assert_int_equal(egd_server_open(&srv, &cfg, &res, &logger), 0);
	assert_int_equal(egd_server_start(&srv), 0);
}

static int connect_to(const char *p)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	strcpy(sa.sun_path, p);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* @n clients, each waiting on a blocking read (0x02) of @want bytes. */
static void connect_waiting(int *fd, int n, uint8_t want)
{
	const uint8_t req[2] = { 0x02, want };

	for (int i = 0; i < n; i++) {
		fd[i] = connect_to(path);
		send_all(fd[i], req, sizeof(req));
	}
}

/* Read exactly @len within @ms; returns bytes read (less on EOF/time-out). */
static size_t recv_exact(int fd, uint8_t *buf, size_t len, int ms)
{
	size_t got = 0;

	while (got < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			break;
		n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* True if the server closed the connection within @ms. */
static bool closed_within(int fd, int ms)
{
	uint8_t b[512];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			return false;
		n = recv(fd, b, sizeof(b), 0);
		if (n <= 0)
			return true;
	}
}

static void random_bytes(uint8_t *buf, size_t len)
{
	FILE *f = fopen("/dev/urandom", "rb");

	assert_non_null(f);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
}

/* A client of a server that serves at most @rate bytes/s after a burst of
 * @burst, with so many bytes in the reserve that only the limit paces it. */
static int connect_rate_limited(unsigned int rate, unsigned int burst)
{
	static uint8_t plenty[1u << 18];

	cfg.limits.rate = rate;
	cfg.limits.burst = burst;
	start();
	random_bytes(plenty, sizeof(plenty));
	assert_int_equal(egd_reserve_put(&res, plenty, sizeof(plenty)), sizeof(plenty));
	return connect_to(path);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static void test_socket_file(void **state)
{
	struct egd_server other;
	struct stat st;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	(void)state;
	cfg.mode = 0640;
	start();
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	/* A live server's socket is not taken over. */
	assert_int_equal(egd_server_open(&other, &cfg, &res, &logger), -EADDRINUSE);
	egd_server_close(&other);
	assert_int_equal(stat(path, &st), 0);
	egd_server_close(&srv);
	/* A stale socket (its server died without unlinking) is replaced. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sa.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	start();
	close(connect_to(path));
	egd_server_close(&srv);
	/* Something else at the path is left alone. */
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	assert_int_equal(egd_server_open(&other, &cfg, &res, &logger), -EEXIST);
	egd_server_close(&other);
	unlink(path);
	/* A group that does not exist is an error, before anything is created. */
	cfg.group = "no-such-group-egd";
	assert_int_equal(egd_server_open(&srv, &cfg, &res, &logger), -ENOENT);
	assert_int_equal(stat(path, &st), -1);
	cfg.group = NULL;
}

/* The attacker of the socket permission race: right after rngd's bind(),
 * whatever sits at the public path is swapped for a symlink to a file of
 * theirs (in a directory they may write). Linked with --wrap=bind. */
static const char *race_path, *race_target;
int __real_bind(int fd, const struct sockaddr *sa, socklen_t len);
int __wrap_bind(int fd, const struct sockaddr *sa, socklen_t len);

int __wrap_bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	int r = __real_bind(fd, sa, len);

	if (r == 0 && race_path) {
		(void)unlink(race_path);
		assert_int_equal(symlink(race_target, race_path), 0);
		race_path = NULL;
	}
	return r;
}

static void test_socket_symlink_race(void **state)
{
	char victim[192], leftover[256];
	struct stat st;
	FILE *ls;
	int fd;

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	fd = open(victim, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(victim, 0600), 0);
	race_path = path;
	race_target = victim;
	cfg.mode = 0666;
	/* What appeared at the path meanwhile is neither followed nor
	 * replaced (it might be another server's socket): the start fails. */
	assert_int_equal(egd_server_open(&srv, &cfg, &res, &logger), -EEXIST);
	assert_null(race_path);                /* the swap did happen */
	assert_int_equal(stat(victim, &st), 0);
	if ((st.st_mode & 07777) != 0600)
		fail_msg("chmod followed the symlink: the victim file is now %04o", (unsigned int)(st.st_mode & 07777));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	egd_server_close(&srv);
	/* With nothing swapped in, the socket is served with its mode. */
	assert_int_equal(unlink(path), 0);
	start();
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0666);
	close(connect_to(path));
	/* The private directory is gone. */
	snprintf(leftover, sizeof(leftover), "ls -A %s | grep -c rngd-egd", dir);
	ls = popen(leftover, "r");
	assert_non_null(ls);
	assert_int_equal(fgetc(ls), '0');
	pclose(ls);
	unlink(victim);
}

static void test_every_command(void **state)
{
	uint8_t in[600], out[600], hdr[4];
	char pid[16];
	int fd;

	(void)state;
	start();
	random_bytes(in, sizeof(in));
	assert_int_equal(egd_reserve_put(&res, in, 500), 500);
	fd = connect_to(path);
	send_all(fd, "\x00", 1);
	assert_int_equal(recv_exact(fd, hdr, 4, 2000), 4);
	assert_memory_equal(hdr, "\x00\x00\x01\xf4", 4);
	/* Non-blocking read: count then bytes. */
	send_all(fd, "\x01\x0a", 2);
	assert_int_equal(recv_exact(fd, out, 11, 2000), 11);
	assert_int_equal(out[0], 10);
	assert_memory_equal(out + 1, in, 10);
	/* Blocking read of 255, read back in small pieces (partial reads). */
	send_all(fd, "\x02\xff", 2);
	for (size_t got = 0; got < 255; got += 15)
		assert_int_equal(recv_exact(fd, out + got, 15, 2000), 15);
	assert_memory_equal(out, in + 10, 255);
	/* pid */
	send_all(fd, "\x04", 1);
	assert_int_equal(recv_exact(fd, hdr, 1, 2000), 1);
	assert_true(hdr[0] > 0 && hdr[0] < sizeof(pid));
	assert_int_equal(recv_exact(fd, (uint8_t *)pid, hdr[0], 2000), hdr[0]);
	pid[hdr[0]] = '\0';
	assert_int_equal(atol(pid), (long)getpid());
	/* A blocking read beyond what is held waits, then completes when
	 * entropy arrives; the request behind it (level) follows it. */
	send_all(fd, "\x02\xff\x00", 3);
	assert_int_equal(recv_exact(fd, out, 255, 300), 235);
	assert_int_equal(egd_reserve_put(&res, in + 500, 100), 100);
	assert_int_equal(recv_exact(fd, out + 235, 20 + 4, 2000), 24);
	assert_memory_equal(out, in + 265, 255);
	assert_memory_equal(out + 255, "\x00\x00\x00\x50", 4);
	/* Non-blocking read of more than held: what there is. */
	send_all(fd, "\x01\xff", 2);
	assert_int_equal(recv_exact(fd, out, 81, 2000), 81);
	assert_int_equal(out[0], 80);
	assert_memory_equal(out + 1, in + 520, 80);
	send_all(fd, "\x01\x05", 2);
	assert_int_equal(recv_exact(fd, out, 1, 2000), 1);
	assert_int_equal(out[0], 0);
	close(fd);
	assert_int_equal(egd_server_bytes_served(&srv), 600);
}

static void test_malformed_others_unaffected(void **state)
{
	uint8_t buf[64];
	int good, bad, writer;

	(void)state;
	start();
	random_bytes(buf, sizeof(buf));
	good = connect_to(path);
	bad = connect_to(path);
	writer = connect_to(path);
	send_all(good, "\x02\x20", 2);          /* waits: empty reserve */
	send_all(bad, "\x00\x07", 2);
	assert_true(closed_within(bad, 2000));
	send_all(writer, "\x03\x00\x08\x01\xaa", 5);
	assert_true(closed_within(writer, 2000));
	assert_int_equal(egd_reserve_put(&res, buf, 32), 32);
	assert_int_equal(recv_exact(good, buf + 32, 32, 2000), 32);
	assert_memory_equal(buf + 32, buf, 32);
	close(good);
	close(bad);
	close(writer);
	assert_int_equal(srv.dropped, 2);
}

#define MANY 64

static void test_64_clients(void **state)
{
	static uint8_t in[MANY * 255], got[MANY][255];
	int fd[MANY];
	size_t off[MANY];

	(void)state;
	start();
	random_bytes(in, sizeof(in));
	connect_waiting(fd, MANY, 0xff);
	assert_int_equal(egd_reserve_put(&res, in, sizeof(in)), sizeof(in));
	for (int i = 0; i < MANY; i++)
		assert_int_equal(recv_exact(fd[i], got[i], 255, 5000), 255);
	/* Every byte once: each client's bytes are runs of the input, and the
	 * runs of all clients tile it without overlap. Served in parts of
	 * EGD_SERVE_CHUNK (the reserve holds plenty), so match part by part. */
	static uint8_t used[MANY * 255];

	memset(used, 0, sizeof(used));
	for (int i = 0; i < MANY; i++) {
		for (size_t p = 0; p < 255; p += EGD_SERVE_CHUNK) {
			size_t part = 255 - p < EGD_SERVE_CHUNK ? 255 - p : EGD_SERVE_CHUNK;
			const uint8_t *at = memmem(in, sizeof(in), got[i] + p, part);

			assert_non_null(at);
			off[i] = (size_t)(at - in);
			for (size_t k = 0; k < part; k++) {
				assert_int_equal(used[off[i] + k], 0);
				used[off[i] + k] = 1;
			}
		}
	}
	for (size_t k = 0; k < sizeof(in); k++)
		assert_int_equal(used[k], 1);
	for (int i = 0; i < MANY; i++)
		close(fd[i]);
}

static void test_client_cap(void **state)
{
	int fd[5];
	uint8_t b[4];

	(void)state;
	cfg.limits.max_clients = 4;
	start();
	for (int i = 0; i < 4; i++) {
		fd[i] = connect_to(path);
		send_all(fd[i], "\x00", 1);
		assert_int_equal(recv_exact(fd[i], b, 4, 2000), 4);
	}
	fd[4] = connect_to(path);
	assert_true(closed_within(fd[4], 2000));
	close(fd[0]);
	/* A slot freed: the next one is accepted. */
	usleep(100000);
	int again = connect_to(path);

	send_all(again, "\x00", 1);
	assert_int_equal(recv_exact(again, b, 4, 2000), 4);
	close(again);
	for (int i = 1; i < 5; i++)
		close(fd[i]);
	assert_int_equal(srv.refused, 1);
}

/* A burst of connections that close at once, queued before the server
 * looks: at the cap, those whose peer has gone give way, and the live
 * client behind them is accepted, not refused. The server is driven by
 * hand, so that it cannot drop them before the burst is queued. */
static void test_hung_up_give_way_at_cap(void **state)
{
	struct pollfd *pfd;
	uint64_t next;
	size_t n;
	int live;

	(void)state;
	cfg.limits.max_clients = 4;
	assert_int_equal(egd_server_open(&srv, &cfg, &res, &logger), 0);
	pfd = calloc(egd_server_pollfds_max(&srv), sizeof(*pfd));
	assert_non_null(pfd);
	for (int i = 0; i < 8; i++)
		close(connect_to(path));
	live = connect_to(path);
	n = egd_server_pollfds(&srv, pfd, rngd_now_ms(), &next);
	assert_true(poll(pfd, n, 1000) > 0);
	egd_server_handle(&srv, pfd, n, rngd_now_ms());
	assert_int_equal(srv.refused, 0);
	assert_int_equal(srv.accepted, 9);
	assert_int_equal(srv.n_clients, 1);
	free(pfd);
	close(live);
}

static void test_stall_and_flood(void **state)
{
	uint8_t reqs[2 * 40];
	int half, flood, patient;
	uint64_t t0;

	(void)state;
	cfg.limits.stall_ms = 300;
	start();
	patient = connect_to(path);
	send_all(patient, "\x02\x40", 2);         /* waits for entropy: not a stall */
	half = connect_to(path);
	t0 = now_ms();
	send_all(half, "\x01", 1);
	assert_true(closed_within(half, 3000));
	assert_true(now_ms() - t0 >= 250);
	flood = connect_to(path);
	for (int i = 0; i < 40; i++) {
		reqs[2 * i] = 0x02;
		reqs[2 * i + 1] = 0xff;
	}
	send_all(flood, reqs, sizeof(reqs));    /* 10200 bytes asked, limit 8192 */
	assert_true(closed_within(flood, 2000));
	/* The patient client is still there and gets its bytes. */
	uint8_t in[64], out[64];

	random_bytes(in, sizeof(in));
	egd_reserve_put(&res, in, 64);
	assert_int_equal(recv_exact(patient, out, 64, 2000), 64);
	assert_memory_equal(in, out, 64);
	close(half);
	close(flood);
	close(patient);
}

static void test_gone_mid_reply(void **state)
{
	uint8_t in[300], out[200];
	int gone, next;

	(void)state;
	start();
	random_bytes(in, sizeof(in));
	egd_reserve_put(&res, in, 100);
	gone = connect_to(path);
	send_all(gone, "\x02\xff", 2);
	usleep(200000);                        /* it got 100 of its 255 */
	close(gone);
	usleep(100000);
	egd_reserve_put(&res, in + 100, 200);
	next = connect_to(path);
	send_all(next, "\x02\xc8", 2);
	assert_int_equal(recv_exact(next, out, 200, 2000), 200);
	/* The next client gets the bytes after those served to the one gone. */
	assert_memory_equal(out, in + 100, 200);
	close(next);
}

static void test_rate_measured(void **state)
{
	uint8_t out[255];
	uint64_t t0, t1, got = 0;
	int fd;

	(void)state;
	fd = connect_rate_limited(50000, 2000);
	/*
	 * Spend the burst first, then measure 1.5 s with 4 requests always
	 * in flight: the server, not this thread's round trips, sets the
	 * pace, so a loaded machine does not read as a slow limiter.
	 */
	for (int i = 0; i < 8; i++)
		send_all(fd, "\x02\xfa", 2);
	for (int i = 0; i < 8; i++)
		assert_int_equal(recv_exact(fd, out, 250, 2000), 250);
	for (int i = 0; i < 4; i++)
		send_all(fd, "\x02\xfa", 2);
	t0 = now_ms();
	while ((t1 = now_ms()) - t0 < 1500) {
		assert_int_equal(recv_exact(fd, out, 250, 2000), 250);
		got += 250;
		send_all(fd, "\x02\xfa", 2);
	}
	double rate = (double)got * 1000.0 / (double)(t1 - t0);

	print_message("measured %.0f bytes/s with --egd-rate 50000\n", rate);
	assert_true(rate > 45000.0 && rate < 55000.0);
	close(fd);
}

/* CPU time of the whole process (the server thread and this one) in ms. */
static uint64_t cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* CPU spent while this thread sleeps @ms: what the server thread costs. */
static uint64_t cpu_while_sleeping(unsigned int ms)
{
	uint64_t c0 = cpu_ms();

	usleep(ms * 1000u);
	return cpu_ms() - c0;
}

/* The server thread costs at most 50 ms of CPU in a second while @what. */
static void assert_server_sleeps(const char *what)
{
	uint64_t cpu = cpu_while_sleeping(1000);

	print_message("%s: %" PRIu64 " ms CPU in 1 s\n", what, cpu);
	if (cpu > 50)
		fail_msg("the server spins with %s: %" PRIu64 " ms CPU in 1 s", what, cpu);
}

static size_t clients_now(void)
{
	size_t n;

	pthread_mutex_lock(&srv.lock);
	n = srv.n_clients;
	pthread_mutex_unlock(&srv.lock);
	return n;
}

/* Clients waiting on an empty reserve, within their rate: the server
 * sleeps until bytes arrive (it used to poll with a zero time-out). */
static void test_waiting_on_empty_reserve_sleeps(void **state)
{
	uint8_t in[64], out[64];
	int fd[4];

	(void)state;
	cfg.limits.rate = 16384;
	start();
	connect_waiting(fd, 4, 0x10);
	usleep(100000);
	assert_server_sleeps("4 clients waiting on an empty reserve");
	random_bytes(in, sizeof(in));
	egd_reserve_put(&res, in, sizeof(in));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(recv_exact(fd[i], out, 16, 2000), 16);
		close(fd[i]);
	}
}

/* A client that fills its request queue and hangs up is dropped: with a
 * full queue it is not read, and POLLHUP came back on every poll. */
static void test_hangup_with_full_queue(void **state)
{
	uint8_t reqs[2 * 300];
	int fd;

	(void)state;
	start();
	for (int i = 0; i < 300; i++) {
		reqs[2 * i] = 0x02;
		reqs[2 * i + 1] = 0x01;
	}
	fd = connect_to(path);
	send_all(fd, reqs, sizeof(reqs));
	usleep(200000);
	close(fd);
	usleep(200000);
	assert_int_equal(clients_now(), 0);
	assert_server_sleeps("a client gone with a full queue");
}

/* A client that sends its blocking request and shuts its sending side
 * (shutdown(SHUT_WR), as one-shot tools do) while the reserve is empty
 * still gets its reply when bytes come, costs nothing while it waits,
 * and its connection is closed after the reply. One that half-closes
 * with nothing asked, or mid-request, is dropped at once. */
static void test_half_closed_client_still_served(void **state)
{
	uint8_t in[32], out[32];
	int fd, idle, partial;

	(void)state;
	start();
	fd = connect_to(path);
	send_all(fd, "\x02\x20", 2);
	assert_int_equal(shutdown(fd, SHUT_WR), 0);
	idle = connect_to(path);
	assert_int_equal(shutdown(idle, SHUT_WR), 0);
	partial = connect_to(path);
	send_all(partial, "\x02", 1);
	assert_int_equal(shutdown(partial, SHUT_WR), 0);
	usleep(200000);
	assert_true(closed_within(idle, 1000));
	assert_true(closed_within(partial, 1000));
	assert_int_equal(clients_now(), 1);
	assert_server_sleeps("a half-closed client waiting on an empty reserve");
	random_bytes(in, sizeof(in));
	egd_reserve_put(&res, in, sizeof(in));
	assert_int_equal(recv_exact(fd, out, sizeof(out), 2000), sizeof(out));
	assert_memory_equal(out, in, sizeof(out));
	assert_true(closed_within(fd, 1000));
	assert_int_equal(clients_now(), 0);
	close(fd);
	close(idle);
	close(partial);
}

/* Out of fds: accept4() fails with EMFILE and the connection stays
 * pending; the server pauses accepting instead of polling in a loop, and
 * accepts again once fds are free. */
static void test_accept_at_fd_limit(void **state)
{
	struct rlimit old, low;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd[3], hi = 0;
	uint64_t cpu;
	uint8_t b[4];

	(void)state;
	/* valgrind keeps fds of its own and emulates RLIMIT_NOFILE: the limit
	 * set here is not the one accept4() meets. */
	if (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload"))
		skip();
	start();
	for (int i = 0; i < 3; i++) {
		fd[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		assert_true(fd[i] >= 0);
		if (fd[i] > hi)
			hi = fd[i];
	}
	strcpy(sa.sun_path, path);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = (rlim_t)hi + 1;        /* no fd left for accept4() */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(connect(fd[i], (struct sockaddr *)&sa, sizeof(sa)), 0);
	usleep(100000);
	cpu = cpu_while_sleeping(1000);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	print_message("3 connections pending at the fd limit: %" PRIu64 " ms CPU in 1 s\n", cpu);
	if (cpu > 50)
		fail_msg("the server spins at the fd limit: %" PRIu64 " ms CPU in 1 s", cpu);
	pthread_mutex_lock(&srv.lock);
	uint64_t pauses = srv.accept_pauses;
	pthread_mutex_unlock(&srv.lock);

	assert_true(pauses >= 1);
	/* fds again: within the pause (1 s) every pending client is served. */
	for (int i = 0; i < 3; i++) {
		send_all(fd[i], "\x00", 1);
		assert_int_equal(recv_exact(fd[i], b, 4, 3000), 4);
		close(fd[i]);
	}
}

/* The rate holds per peer uid: a client that spends its burst and
 * reconnects (or opens a second connection) does not get a new one. */
static void test_rate_per_uid_across_reconnects(void **state)
{
	uint8_t out[255];
	uint64_t t0;
	size_t got = 0;
	int fd;

	(void)state;
	fd = connect_rate_limited(1000, 500);
	send_all(fd, "\x02\xfa\x02\xfa", 4);
	assert_int_equal(recv_exact(fd, out, 250, 2000), 250);
	assert_int_equal(recv_exact(fd, out, 250, 2000), 250);
	close(fd);
	/* Reconnect at once and ask for another 250: for 100 ms. */
	t0 = now_ms();
	fd = connect_to(path);
	send_all(fd, "\x02\xfa", 2);
	while (now_ms() - t0 < 100) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 10) > 0 && (n = recv(fd, out, sizeof(out), MSG_DONTWAIT)) > 0)
			got += (size_t)n;
	}
	close(fd);
	/* 100 ms at 1000 bytes/s is 100 bytes (served in parts of up to 64):
	 * a fresh bucket would have given all 250 at once. */
	print_message("after reconnecting: %zu bytes in 100 ms at 1000 bytes/s\n", got);
	if (got >= 200)
		fail_msg("a reconnect bought a new burst: %zu bytes in 100 ms", got);
}

/* At the cap, a connection silent for the stall time gives way to a new
 * client (idle connections used to lock everyone else out). */
static void test_silent_evicted_at_cap(void **state)
{
	int fd[4], late;
	uint8_t b[4];
	int closed = 0;

	(void)state;
	cfg.limits.max_clients = 4;
	cfg.limits.stall_ms = 1000;
	start();
	for (int i = 0; i < 4; i++)
		fd[i] = connect_to(path);
	usleep(100000);
	/* Not yet silent for 1 s: refused as before. */
	late = connect_to(path);
	assert_true(closed_within(late, 2000));
	close(late);
	usleep(1100000);
	late = connect_to(path);
	send_all(late, "\x00", 1);
	assert_int_equal(recv_exact(late, b, 4, 2000), 4);
	for (int i = 0; i < 4; i++) {
		closed += closed_within(fd[i], 200);
		close(fd[i]);
	}
	assert_int_equal(closed, 1);
	pthread_mutex_lock(&srv.lock);
	uint64_t evicted = srv.evicted;
	pthread_mutex_unlock(&srv.lock);

	assert_int_equal(evicted, 1);
	close(late);
}

/*
 * Connect as @uid, ask the level: 0 if answered. A thread rather than a
 * forked child: the raw setresuid()/setresgid() system calls change only
 * the calling thread's credentials (glibc's wrappers would change every
 * thread's), SO_PEERCRED reports the connecting thread's, and nothing of
 * the server thread is copied into a child that cannot free it (valgrind
 * counted its poll array lost in every child).
 */
struct as_uid {
	uid_t uid;
	int result;
};

static void *level_as_uid_thread(void *arg)
{
	struct as_uid *a = arg;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint8_t b[4];
	int fd;

	a->result = 3;
	if (syscall(SYS_setresgid, a->uid, a->uid, a->uid) < 0 || syscall(SYS_setresuid, a->uid, a->uid, a->uid) < 0)
		return NULL;
	a->result = 4;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	strcpy(sa.sun_path, path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		a->result = send(fd, "\x00", 1, MSG_NOSIGNAL) != 1 ? 5 : recv_exact(fd, b, 4, 2000) == 4 ? 0 : 1;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int level_as_uid(uid_t uid)
{
	struct as_uid a = { .uid = uid, .result = 100 };
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, level_as_uid_thread, &a), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	return a.result;
}

/* One uid holding every slot cannot lock out a client of another uid
 * (QEMU under its own uid) with idle connections: one of those gives way,
 * before its stall time. A connection waiting for entropy never does (QEMU
 * would not ask again: its guest would wait for good); with only those,
 * the newcomer is refused. */
static void test_other_uid_gets_in(void **state)
{
	int fd[4], closed = 0;

	(void)state;
	if (geteuid() != 0)
		skip();
	cfg.limits.max_clients = 4;
	cfg.mode = 0666;
	assert_int_equal(chmod(dir, 0711), 0);
	start();
	/* Waiting on an empty reserve: busy, not silent. */
	connect_waiting(fd, 4, 0x10);
	usleep(100000);
	assert_int_not_equal(level_as_uid(65534), 0);
	for (int i = 0; i < 4; i++)
		closed += closed_within(fd[i], 200);
	assert_int_equal(closed, 0);
	/* One of them idle (its request withdrawn by closing it, a silent one
	 * in its place): that one gives way. */
	close(fd[3]);
	usleep(100000);
	fd[3] = connect_to(path);
	usleep(100000);
	assert_int_equal(level_as_uid(65534), 0);
	assert_true(closed_within(fd[3], 500));
	for (int i = 0; i < 3; i++)
		assert_false(closed_within(fd[i], 100));
	for (int i = 0; i < 4; i++)
		close(fd[i]);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_socket_file),
	RNGD_FIXTURE_TEST(test_socket_symlink_race),
	RNGD_FIXTURE_TEST(test_every_command),
	RNGD_FIXTURE_TEST(test_malformed_others_unaffected),
	RNGD_FIXTURE_TEST(test_64_clients),
	RNGD_FIXTURE_TEST(test_client_cap),
	RNGD_FIXTURE_TEST(test_hung_up_give_way_at_cap),
	RNGD_FIXTURE_TEST(test_stall_and_flood),
	RNGD_FIXTURE_TEST(test_gone_mid_reply),
	RNGD_FIXTURE_TEST(test_rate_measured),
	RNGD_FIXTURE_TEST(test_waiting_on_empty_reserve_sleeps),
	RNGD_FIXTURE_TEST(test_hangup_with_full_queue),
	RNGD_FIXTURE_TEST(test_half_closed_client_still_served),
	RNGD_FIXTURE_TEST(test_accept_at_fd_limit),
	RNGD_FIXTURE_TEST(test_rate_per_uid_across_reconnects),
	RNGD_FIXTURE_TEST(test_silent_evicted_at_cap),
	RNGD_FIXTURE_TEST(test_other_uid_gets_in)
)
