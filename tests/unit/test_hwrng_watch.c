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
#include <setjmp.h>
#include <stdarg.h>
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

/* Messages read so far, relevant or not (whether a sender counts as the
 * kernel depends on who runs the test). */
static uint64_t messages_read(const struct hwrng_watch *w)
{
	return w->events.events + w->events.ignored;
}

static void test_events_read_only_after_mark_readable(void **state)
{
	struct rngd_log log;
	struct hwrng_watch w;
	struct rngd_slot *slot = (struct rngd_slot *)&wakes; /* never dereferenced: stubs */
	const int one = 1;
	int sv[2];

	(void)state;
	rngd_log_init(&log, true, LOG_ERR);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)), 0);
	memset(&w, 0, sizeof(w));
	w.log = &log;
	w.slot = slot;
	w.events.fd = sv[0];
	w.next_check_ms = NOW_MS + HWRNG_SAFETY_POLL_MS;
	assert_int_equal(hwrng_watch_fd(&w), sv[0]);

	/* Queued but not marked: left for the loop's poll() to report. */
	send_event(sv[1]);
	assert_int_equal(hwrng_watch_run(&w, NOW_MS), NOW_MS + HWRNG_SAFETY_POLL_MS);
	assert_int_equal(messages_read(&w), 0);

	hwrng_watch_mark_readable(&w);
	hwrng_watch_run(&w, NOW_MS);
	assert_int_equal(messages_read(&w), 1);

	/* Read once per mark: a later event waits for the next one. */
	send_event(sv[1]);
	hwrng_watch_run(&w, NOW_MS + 1);
	assert_int_equal(messages_read(&w), 1);
	hwrng_watch_mark_readable(&w);
	hwrng_watch_run(&w, NOW_MS + 2);
	assert_int_equal(messages_read(&w), 2);

	assert_int_equal(wakes, 0);     /* the reader has its device open */
	hwrng_watch_close(&w);
	(void)close(sv[1]);
	rngd_log_close(&log);
}

RNGD_TEST_MAIN(cmocka_unit_test(test_events_read_only_after_mark_readable))
