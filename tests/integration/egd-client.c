/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An EGD client for the host tests, independent of rngd's code:
 *   egd-client SOCK level                 print "level N"
 *   egd-client SOCK pid                   print "pid N"
 *   egd-client SOCK read N [OUT]          non-blocking read; print "count K"
 *   egd-client SOCK get N [OUT]           blocking reads of 64 bytes, 4 in
 *                                         flight (QEMU's pattern) until N
 *                                         bytes; exit 3 on time-out
 *   egd-client SOCK partial N             one blocking read of N <= 255,
 *                                         its reply read one byte at a time
 *   egd-client SOCK hangup N K            ask N (requests of 255), read K
 *                                         bytes, close
 *   egd-client SOCK raw HEX [REPEAT]      send bytes; print "closed" and exit
 *                                         0 if the server hangs up within
 *                                         2 s, else print "open", exit 1
 *   egd-client SOCK many C N DIR          C clients at once, each gets N
 *                                         bytes into DIR/C.<i>
 *   egd-client SOCK wait C SECONDS        C clients, each with one blocking
 *                                         read of 64 bytes in flight; print
 *                                         "waiting C" once all sent, hold
 *                                         them SECONDS, print the bytes
 *                                         they got, close
 *   egd-client SOCK unread SECONDS        blocking reads of 255 sent, no
 *                                         reply read, until the replies
 *                                         stop piling up; print "unread
 *                                         BYTES" (queued), hold SECONDS
 *   egd-client SOCK rate SECONDS SKIP     read SKIP bytes (the burst), then
 *                                         measure; print "rate BYTES/S"
 *   egd-client check EXPECT FILE...       every byte of the FILEs is a byte
 *                                         of EXPECT, none used twice
 *   egd-client prefix EXPECT FILE         FILE is a prefix of EXPECT
 * Time-out per read: EGD_CLIENT_TIMEOUT_MS (default 10000).
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/slurp.h"

static int timeout_ms = 10000;

static void die(const char *what)
{
	fprintf(stderr, "egd-client: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int dial(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		die(path);
	}
	strcpy(sa.sun_path, path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(path);
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("send");
		p += n;
		len -= (size_t)n;
	}
}

/* Exactly @len bytes, or exit: 3 on time-out, 4 when the server hangs up. */
static void recv_all(int fd, uint8_t *buf, size_t len, size_t step)
{
	size_t got = 0;

	while (got < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		size_t want = len - got < step ? len - got : step;
		ssize_t n;

		if (poll(&p, 1, timeout_ms) == 0) {
			fprintf(stderr, "egd-client: time-out after %zu of %zu bytes\n", got, len);
			exit(3);
		}
		n = recv(fd, buf + got, want, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("recv");
		if (n == 0) {
			fprintf(stderr, "egd-client: server closed after %zu of %zu bytes\n", got, len);
			exit(4);
		}
		got += (size_t)n;
	}
}

static FILE *open_out(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "ab");
	if (!f)
		die(path);
	return f;
}

static void write_out(FILE *f, const uint8_t *buf, size_t len)
{
	if (f && fwrite(buf, 1, len, f) != len)
		die("write");
}

static void close_out(FILE *f)
{
	if (f && fclose(f) != 0)
		die("close");
}

/* Blocking reads of 64 with 4 in flight, as QEMU's rng-egd sends them. */
static void get_bytes(int fd, size_t total, FILE *out)
{
	size_t asked = 0, got = 0;
	uint8_t buf[64];

	while (got < total) {
		while (asked < total && asked - got < 4 * 64) {
			uint8_t n = (uint8_t)(total - asked < 64 ? total - asked : 64);
			uint8_t req[2] = { 0x02, n };

			send_all(fd, req, 2);
			asked += n;
		}
		size_t n = total - got < 64 ? total - got : 64;

		recv_all(fd, buf, n, n);
		write_out(out, buf, n);
		got += n;
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *buf = test_slurp(path, len);

	if (!buf)
		die(path);
	return buf;
}

/* Every run of the FILEs is found in EXPECT (8-byte windows of random
 * data are unique) and no stretch of EXPECT is claimed twice. A run is
 * extended while bytes agree, so where two runs meet a byte or two may
 * agree by chance (1 in 256 each): overlaps count as duplicates only from
 * 8 bytes on. Runs shorter than a window (a reserve that ran dry
 * mid-part) are counted, not matched. */
static int check(int argc, char **argv)
{
	size_t elen, matched = 0, loose = 0, total = 0, dup = 0, worst = 0;
	uint8_t *exp = slurp(argv[0], &elen);
	uint8_t *used = calloc(elen ? elen : 1, 1);

	if (!used)
		die("calloc");
	for (int i = 1; i < argc; i++) {
		size_t len, p = 0;
		uint8_t *b = slurp(argv[i], &len);

		total += len;
		while (p < len) {
			const uint8_t *at = len - p >= 8 ? memmem(exp, elen, b + p, 8) : NULL;
			size_t o, k = 0;

			if (!at) {
				loose++;
				p++;
				continue;
			}
			o = (size_t)(at - exp);
			while (p + k < len && o + k < elen && b[p + k] == exp[o + k]) {
				if (used[o + k] < 255)
					used[o + k]++;
				k++;
			}
			matched += k;
			p += k;
		}
		free(b);
	}
	for (size_t o = 0; o < elen; o++) {
		dup = used[o] > 1 ? dup + 1 : 0;
		if (dup > worst)
			worst = dup;
	}
	printf("bytes %zu matched %zu unmatched %zu longest-overlap %zu\n", total, matched, loose, worst);
	free(exp);
	free(used);
	if (worst >= 8) {
		fprintf(stderr, "egd-client: %zu bytes in a row were served twice\n", worst);
		return 1;
	}
	/* A served byte that is not a gate-passed byte would show up here. */
	return loose * 100 > total ? 1 : 0;
}

static int prefix(const char *expect, const char *file)
{
	size_t elen, flen;
	uint8_t *e = slurp(expect, &elen), *f = slurp(file, &flen);
	int ok = flen <= elen && memcmp(e, f, flen) == 0;

	printf("%s: %zu bytes %s a prefix of %s\n", file, flen, ok ? "are" : "are NOT", expect);
	free(e);
	free(f);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *env = getenv("EGD_CLIENT_TIMEOUT_MS");
	uint8_t buf[512];
	int fd;

	if (env)
		timeout_ms = atoi(env);
	if (argc >= 3 && strcmp(argv[1], "check") == 0)
		return check(argc - 2, argv + 2);
	if (argc == 4 && strcmp(argv[1], "prefix") == 0)
		return prefix(argv[2], argv[3]);
	if (argc < 3) {
		fprintf(stderr, "usage: egd-client SOCK level|pid|read|get|partial|hangup|raw|many|wait|rate ...\n");
		return 2;
	}
	const char *sock = argv[1], *cmd = argv[2];

	if (strcmp(cmd, "level") == 0) {
		fd = dial(sock);
		send_all(fd, "\x00", 1);
		recv_all(fd, buf, 4, 4);
		printf("level %u\n", (unsigned int)buf[0] << 24 | (unsigned int)buf[1] << 16 |
		       (unsigned int)buf[2] << 8 | buf[3]);
	} else if (strcmp(cmd, "pid") == 0) {
		fd = dial(sock);
		send_all(fd, "\x04", 1);
		recv_all(fd, buf, 1, 1);
		recv_all(fd, buf + 1, buf[0], buf[0]);
		printf("pid %.*s\n", buf[0], (char *)buf + 1);
	} else if (strcmp(cmd, "read") == 0 && argc >= 4) {
		uint8_t req[2] = { 0x01, (uint8_t)atoi(argv[3]) };
		FILE *out = open_out(argc > 4 ? argv[4] : NULL);

		fd = dial(sock);
		send_all(fd, req, 2);
		recv_all(fd, buf, 1, 1);
		recv_all(fd, buf + 1, buf[0], buf[0]);
		write_out(out, buf + 1, buf[0]);
		close_out(out);
		printf("count %u\n", buf[0]);
	} else if (strcmp(cmd, "get") == 0 && argc >= 4) {
		FILE *out = open_out(argc > 4 ? argv[4] : NULL);
		size_t n = strtoul(argv[3], NULL, 10);

		fd = dial(sock);
		get_bytes(fd, n, out);
		close_out(out);
		printf("got %zu\n", n);
	} else if (strcmp(cmd, "partial") == 0 && argc == 4) {
		uint8_t req[2] = { 0x02, (uint8_t)atoi(argv[3]) };

		fd = dial(sock);
		send_all(fd, req, 2);
		for (unsigned int i = 0; i < req[1]; i++) {
			recv_all(fd, buf + i, 1, 1);
			usleep(2000);
		}
		/* Then a level request: the stream is still in step. */
		send_all(fd, "\x00", 1);
		recv_all(fd, buf, 4, 4);
		printf("partial %u then level %u\n", req[1],
		       (unsigned int)buf[0] << 24 | (unsigned int)buf[1] << 16 | (unsigned int)buf[2] << 8 | buf[3]);
	} else if (strcmp(cmd, "hangup") == 0 && argc == 5) {
		size_t n = strtoul(argv[3], NULL, 10), k = strtoul(argv[4], NULL, 10);

		if (k > sizeof(buf) || k > n)
			return 2;
		fd = dial(sock);
		/* All of it asked at once, in requests of at most 255. */
		for (size_t asked = 0; asked < n;) {
			uint8_t req[2] = { 0x02, (uint8_t)(n - asked < 255 ? n - asked : 255) };

			send_all(fd, req, 2);
			asked += req[1];
		}
		recv_all(fd, buf, k, k);
		printf("read %zu of %zu, hanging up\n", k, n);
	} else if (strcmp(cmd, "raw") == 0 && argc >= 4) {
		size_t len = strlen(argv[3]) / 2;
		int repeat = argc > 4 ? atoi(argv[4]) : 1;
		struct pollfd p;

		if (len > sizeof(buf))
			return 2;
		for (size_t i = 0; i < len; i++) {
			int hi = hexval(argv[3][2 * i]), lo = hexval(argv[3][2 * i + 1]);

			if (hi < 0 || lo < 0)
				return 2;
			buf[i] = (uint8_t)(hi << 4 | lo);
		}
		fd = dial(sock);
		for (int i = 0; i < repeat; i++)
			send_all(fd, buf, len);
		for (double end = now_s() + 2.0; now_s() < end;) {
			p = (struct pollfd){ .fd = fd, .events = POLLIN };
			if (poll(&p, 1, 100) > 0) {
				ssize_t n = recv(fd, buf, sizeof(buf), 0);

				if (n <= 0) {
					printf("closed\n");
					return 0;
				}
			}
		}
		printf("open\n");
		return 1;
	} else if (strcmp(cmd, "many") == 0 && argc == 6) {
		int c = atoi(argv[3]);
		size_t n = strtoul(argv[4], NULL, 10);
		int fds[1024], bad = 0;

		if (c < 1 || c > 1024)
			return 2;
		/* All connected before anyone reads: they are served at once. */
		for (int i = 0; i < c; i++)
			fds[i] = dial(sock);
		for (int i = 0; i < c; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char path[4096];
				FILE *out;

				snprintf(path, sizeof(path), "%s/c.%d", argv[5], i);
				out = open_out(path);
				get_bytes(fds[i], n, out);
				close_out(out);
				_exit(0);
			}
		}
		for (int i = 0; i < c; i++) {
			int st;

			if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				bad++;
		}
		printf("clients %d each %zu bytes, failed %d\n", c, n, bad);
		return bad ? 1 : 0;
	} else if (strcmp(cmd, "wait") == 0 && argc == 5) {
		int c = atoi(argv[3]), fds[1024];
		double secs = atof(argv[4]);
		size_t got = 0;

		if (c < 1 || c > 1024)
			return 2;
		for (int i = 0; i < c; i++) {
			fds[i] = dial(sock);
			send_all(fds[i], "\x02\x40", 2);
		}
		printf("waiting %d\n", c);
		fflush(stdout);
		usleep((useconds_t)(secs * 1e6));
		for (int i = 0; i < c; i++) {
			struct pollfd p = { .fd = fds[i], .events = POLLIN };

			while (poll(&p, 1, 0) > 0) {
				ssize_t n = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);

				if (n <= 0)
					break;
				got += (size_t)n;
			}
			close(fds[i]);
		}
		printf("got %zu\n", got);
		return 0;
	} else if (strcmp(cmd, "unread") == 0 && argc == 4) {
		int held = dial(sock), queued = -1, now = 0, same = 0;
		double secs = atof(argv[3]);

		/* A few more blocking reads of 255 at a time (under the flooding
		 * bound) while the replies pile up unread in the socket, until
		 * three looks in a row find no more: the socket and rngd's reply
		 * buffer are full, and rngd has reads left to answer. */
		for (int round = 0; round < 400 && same < 3; round++) {
			send_all(held, "\x02\xff\x02\xff\x02\xff\x02\xff", 8);
			usleep(150000);
			if (ioctl(held, FIONREAD, &now) < 0)
				return 1;
			same = now == queued ? same + 1 : 0;
			queued = now;
		}
		printf("unread %d\n", now);
		fflush(stdout);
		usleep((useconds_t)(secs * 1e6));
		close(held);
		return 0;
	} else if (strcmp(cmd, "rate") == 0 && argc == 5) {
		double secs = atof(argv[3]), t0, t1;
		size_t skip = strtoul(argv[4], NULL, 10), got = 0;

		fd = dial(sock);
		get_bytes(fd, skip, NULL);
		t0 = now_s();
		while ((t1 = now_s()) - t0 < secs) {
			get_bytes(fd, 1024, NULL);
			got += 1024;
		}
		printf("rate %.0f\n", (double)got / (t1 - t0));
	} else {
		fprintf(stderr, "egd-client: unknown command or arguments\n");
		return 2;
	}
	close(fd);
	return 0;
}
