/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd notification: the test plays systemd's notify socket, at a path
 * and at an abstract ('@') name. Built with the protocol (the default)
 * every call must arrive as the right datagram; built with
 * --disable-systemd, nothing may arrive.
 */
#include <config.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/notify.h"

static int sock = -1;
static char sock_dir[64];
static char sock_path[96];

static int setup(void **state)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	(void)state;
	(void)snprintf(sock_dir, sizeof(sock_dir), "/tmp/ksink-notify-XXXXXX");
	assert_non_null(mkdtemp(sock_dir));
	(void)snprintf(sock_path, sizeof(sock_path), "%s/notify", sock_dir);
	(void)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock_path);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(sock >= 0);
	assert_int_equal(bind(sock, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(setenv("NOTIFY_SOCKET", sock_path, 1), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	(void)close(sock);
	(void)unlink(sock_path);
	(void)rmdir(sock_dir);
	(void)unsetenv("NOTIFY_SOCKET");
	return 0;
}

/* The next datagram, or "" if none is waiting. */
static const char *next_message(void)
{
	static char buf[512];
	ssize_t n = recv(sock, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	if (n < 0) {
		assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
		n = 0;
	}
	buf[n] = '\0';
	return buf;
}

static void test_each_notify_call_sends_its_message_in_order(void **state)
{
	(void)state;
	notify_ready();
	notify_status("%d sources, %llu bits credited", 2, 123456ull);
	notify_watchdog();
	notify_stopping();
#ifdef RNGD_SD_NOTIFY
	assert_string_equal(next_message(), "READY=1");
	assert_string_equal(next_message(), "STATUS=2 sources, 123456 bits credited");
	assert_string_equal(next_message(), "WATCHDOG=1");
	assert_string_equal(next_message(), "STOPPING=1");
#endif
	assert_string_equal(next_message(), "");
}

static void test_status_is_one_bounded_line(void **state)
{
	char big[1000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	notify_status("%s", big);
#ifdef RNGD_SD_NOTIFY
	{
		const char *m = next_message();

		assert_int_equal(strncmp(m, "STATUS=xxx", 10), 0);
		assert_true(strlen(m) < 300);
	}
#endif
	assert_string_equal(next_message(), "");
}

static void test_watchdog_usec(void **state)
{
	char pid[32];

	(void)state;
	(void)snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	assert_int_equal(setenv("WATCHDOG_USEC", "30000000", 1), 0);
	assert_int_equal(setenv("WATCHDOG_PID", pid, 1), 0);
#ifdef RNGD_SD_NOTIFY
	assert_int_equal(notify_watchdog_usec(), 30000000);
#else
	assert_int_equal(notify_watchdog_usec(), 0);
#endif
	/* Meant for another process (a parent before fork): not ours. */
	(void)snprintf(pid, sizeof(pid), "%ld", (long)getppid());
	assert_int_equal(setenv("WATCHDOG_PID", pid, 1), 0);
	assert_int_equal(notify_watchdog_usec(), 0);
	assert_int_equal(unsetenv("WATCHDOG_USEC"), 0);
	assert_int_equal(unsetenv("WATCHDOG_PID"), 0);
	assert_int_equal(notify_watchdog_usec(), 0);
}

/* WATCHDOG=1 at half the interval; never every 0 ms when one was asked. */
static void test_watchdog_every_half_the_interval(void **state)
{
	static const struct {
		const char *usec;
		uint64_t every_ms;
	} cases[] = {
		{ "30000000", 15000 }, { "2000", 1 }, { "1999", 1 }, { "1", 1 }, { "0", 0 },
	};

	(void)state;
	assert_int_equal(unsetenv("WATCHDOG_PID"), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(setenv("WATCHDOG_USEC", cases[i].usec, 1), 0);
#ifdef RNGD_SD_NOTIFY
		assert_int_equal(notify_watchdog_every_ms(), cases[i].every_ms);
#else
		assert_int_equal(notify_watchdog_every_ms(), 0);
#endif
	}
	assert_int_equal(unsetenv("WATCHDOG_USEC"), 0);
	assert_int_equal(notify_watchdog_every_ms(), 0);
}

static void test_no_socket_is_silent(void **state)
{
	(void)state;
	assert_int_equal(unsetenv("NOTIFY_SOCKET"), 0);
	notify_ready();
	notify_watchdog();
	assert_string_equal(next_message(), "");
}

/* systemd's abstract-namespace socket: NOTIFY_SOCKET=@name. */
static void test_abstract_socket(void **state)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char name[64], buf[64];
	socklen_t len;
	ssize_t n;
	int abs_sock;

	(void)state;
	(void)snprintf(name, sizeof(name), "@rngd-notify-test-%ld", (long)getpid());
	memcpy(addr.sun_path + 1, name + 1, strlen(name) - 1);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name));
	abs_sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(abs_sock >= 0);
	assert_int_equal(bind(abs_sock, (struct sockaddr *)&addr, len), 0);
	assert_int_equal(setenv("NOTIFY_SOCKET", name, 1), 0);
	notify_ready();
	n = recv(abs_sock, buf, sizeof(buf) - 1, MSG_DONTWAIT);
#ifdef RNGD_SD_NOTIFY
	assert_int_equal(n, 7);
	buf[n] = '\0';
	assert_string_equal(buf, "READY=1");
#else
	assert_int_equal(n, -1);
#endif
	(void)close(abs_sock);
	/* Nothing went to the path socket. */
	assert_string_equal(next_message(), "");
}

static void test_socket_address(void **state)
{
	struct sockaddr_un addr;
	char longname[sizeof(addr.sun_path) + 2];
	socklen_t len;

	(void)state;
#ifdef RNGD_SD_NOTIFY
	assert_int_equal(notify_socket_address("/run/systemd/notify", &addr, &len), 0);
	assert_string_equal(addr.sun_path, "/run/systemd/notify");
	assert_int_equal(len, offsetof(struct sockaddr_un, sun_path) + strlen("/run/systemd/notify") + 1);
	assert_int_equal(notify_socket_address("@abc", &addr, &len), 0);
	assert_int_equal(addr.sun_path[0], '\0');
	assert_memory_equal(addr.sun_path + 1, "abc", 3);
	/* Exact length: the abstract name is "\0abc", not "\0abc\0...". */
	assert_int_equal(len, offsetof(struct sockaddr_un, sun_path) + 4);
	assert_int_equal(notify_socket_address(NULL, &addr, &len), -EAFNOSUPPORT);
	assert_int_equal(notify_socket_address("relative", &addr, &len), -EAFNOSUPPORT);
	assert_int_equal(notify_socket_address("vsock:2:1234", &addr, &len), -EAFNOSUPPORT);
	assert_int_equal(notify_socket_address("@", &addr, &len), -EINVAL);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(notify_socket_address(longname, &addr, &len), -EINVAL);
#else
	assert_int_equal(notify_socket_address("/run/systemd/notify", &addr, &len), -EAFNOSUPPORT);
#endif
}

/* WATCHDOG_USEC is a plain decimal; anything else means no watchdog. */
static void test_watchdog_usec_malformed(void **state)
{
	static const char *const bad[] = { "", "-5", "+5", "12x", " 12", "99999999999999999999999" };

	(void)state;
	assert_int_equal(unsetenv("WATCHDOG_PID"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(setenv("WATCHDOG_USEC", bad[i], 1), 0);
		assert_int_equal(notify_watchdog_usec(), 0);
	}
	/* Without WATCHDOG_PID the interval is ours. */
	assert_int_equal(setenv("WATCHDOG_USEC", "500000", 1), 0);
#ifdef RNGD_SD_NOTIFY
	assert_int_equal(notify_watchdog_usec(), 500000);
#else
	assert_int_equal(notify_watchdog_usec(), 0);
#endif
	assert_int_equal(setenv("WATCHDOG_PID", "notapid", 1), 0);
	assert_int_equal(notify_watchdog_usec(), 0);
	assert_int_equal(unsetenv("WATCHDOG_PID"), 0);
	assert_int_equal(unsetenv("WATCHDOG_USEC"), 0);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_each_notify_call_sends_its_message_in_order),
	RNGD_FIXTURE_TEST(test_status_is_one_bounded_line),
	RNGD_FIXTURE_TEST(test_watchdog_usec),
	RNGD_FIXTURE_TEST(test_watchdog_every_half_the_interval),
	RNGD_FIXTURE_TEST(test_no_socket_is_silent),
	RNGD_FIXTURE_TEST(test_abstract_socket),
	RNGD_FIXTURE_TEST(test_socket_address),
	RNGD_FIXTURE_TEST(test_watchdog_usec_malformed)
)
