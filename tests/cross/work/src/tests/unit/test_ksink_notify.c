/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd notification: the test plays systemd's notify socket. Built
 * with libsystemd every call must arrive as the right datagram; built
 * without it, nothing may arrive.
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

static void test_messages(void **state)
{
	(void)state;
	notify_ready();
	notify_status("%d sources, %llu bits credited", 2, 123456ull);
	notify_watchdog();
	notify_stopping();
#ifdef HAVE_LIBSYSTEMD
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
#ifdef HAVE_LIBSYSTEMD
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
#ifdef HAVE_LIBSYSTEMD
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

static void test_no_socket_is_silent(void **state)
{
	(void)state;
	assert_int_equal(unsetenv("NOTIFY_SOCKET"), 0);
	notify_ready();
	notify_watchdog();
	assert_string_equal(next_message(), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_messages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_is_one_bounded_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_usec, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_socket_is_silent, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
