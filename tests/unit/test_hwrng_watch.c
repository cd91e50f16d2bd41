/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd/hwrng_watch.c as the loop drives it: the events waiting on the
 * watch's socket are read on the run after the loop marked it readable,
 * and only then. A socketpair stands in for the uevent socket; the slot
 * the watch wakes is a stub, as is the rest of the loop.
 */
#include <config.h>

#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_watch.h"
#include "rngd/loop.h"
#include "rngd/reader.h"

/* ---- the loop, stubbed ----------------------------------------------------- */

static const struct rng_source hwrng_source = { .name = "hwrng" };
static unsigned int wakes;

const struct rng_source *rngd_slot_source(const struct rngd_slot *s)
{
	(void)s;
	return &hwrng_source;
}

void rngd_slot_reset_gate(struct rngd_slot *slot)
{
	(void)slot;
}

void rngd_slot_wake(struct rngd_slot *slot)
{
	(void)slot;
	wakes++;
}

/* A reader with its device open and no error: only the events count. */
struct rngd_reader_snapshot rngd_slot_reader_snapshot(struct rngd_slot *s)
{
	(void)s;
	return (struct rngd_reader_snapshot){ .open = true };
}

/* Not reached: the watch under test has no rng_quality (hwq NULL). */
int hwrng_quality_check(struct hwrng_quality *q)
{
	(void)q;
	fail_msg("hwrng_quality_check() called without a hwq");
	return -EINVAL;
}

/* ---- the test ------------------------------------------------------------- */

#define NOW_MS 1000000u

/* One "bind virtio" uevent as the kernel sends it. */
static void send_event(int fd)
{
	char msg[256];
	int n = snprintf(msg, sizeof(msg), "bind@/devices/virtio1%cACTION=bind%cDEVPATH=/devices/virtio1%cSUBSYSTEM=virtio",
			 0, 0, 0);

	assert_true(n > 0 && (size_t)n < sizeof(msg));
	assert_int_equal(send(fd, msg, (size_t)n + 1, 0), n + 1);
}

/* Is a message still queued on @fd, unread by the watch? */
static bool event_waiting(int fd)
{
	char c;

	return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) >= 0;
}

static void test_events_read_only_after_mark_readable(void **state)
{
	struct rngd_log log;
	struct hwrng_watch *w;
	struct rngd_slot *slot = (struct rngd_slot *)&wakes; /* never dereferenced: stubs */
	const int one = 1;
	int sv[2];

	(void)state;
	rngd_log_init(&log, true, LOG_ERR);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)), 0);
	w = hwrng_watch_new(&log, slot, NULL, sv[0], NOW_MS);
	assert_non_null(w);
	assert_int_equal(hwrng_watch_fd(w), sv[0]);

	/* Queued but not marked: left for the loop's poll() to report. */
	send_event(sv[1]);
	assert_int_equal(hwrng_watch_run(w, NOW_MS), NOW_MS + HWRNG_SAFETY_POLL_MS);
	assert_true(event_waiting(sv[0]));

	/* Marked: read. Only root's messages count as the kernel's (so a
	 * second look follows soon); another user's are read and ignored. */
	hwrng_watch_mark_readable(w);
	assert_int_equal(hwrng_watch_run(w, NOW_MS),
			 NOW_MS + (geteuid() == 0 ? HWRNG_FOLLOWUP_MS : HWRNG_SAFETY_POLL_MS));
	assert_false(event_waiting(sv[0]));

	/* Read once per mark: a later event waits for the next one. */
	send_event(sv[1]);
	hwrng_watch_run(w, NOW_MS + 1);
	assert_true(event_waiting(sv[0]));
	hwrng_watch_mark_readable(w);
	hwrng_watch_run(w, NOW_MS + 2);
	assert_false(event_waiting(sv[0]));

	assert_int_equal(wakes, 0);     /* the reader has its device open */
	hwrng_watch_free(w);
	/* The watch closed the socket it took over. */
	assert_int_equal(fcntl(sv[0], F_GETFD), -1);
	(void)close(sv[1]);
	rngd_log_close(&log);
}

/* Without an event socket it polls, at the fallback interval. */
static void test_no_socket_polls(void **state)
{
	struct rngd_log log;
	struct hwrng_watch *w;

	(void)state;
	rngd_log_init(&log, true, LOG_CRIT);
	w = hwrng_watch_new(&log, (struct rngd_slot *)&wakes, NULL, -EAFNOSUPPORT, NOW_MS);
	assert_non_null(w);
	assert_int_equal(hwrng_watch_fd(w), -1);
	assert_int_equal(hwrng_watch_run(w, NOW_MS), NOW_MS + HWRNG_FALLBACK_POLL_MS);
	assert_int_equal(hwrng_watch_run(w, NOW_MS + HWRNG_FALLBACK_POLL_MS),
			 NOW_MS + 2 * HWRNG_FALLBACK_POLL_MS);
	hwrng_watch_free(w);
	hwrng_watch_free(NULL);
	rngd_log_close(&log);
}

RNGD_TEST_MAIN(cmocka_unit_test(test_events_read_only_after_mark_readable),
	       cmocka_unit_test(test_no_socket_polls))
