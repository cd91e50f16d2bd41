/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uevent filter and the drain loop. The drain reads a socketpair
 * standing in for the netlink socket (SO_PASSCRED gives it the sender's
 * credentials the same way), so no real event is involved.
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

#include "rngd/device_watch.h"

/* A literal message and its length with the final NUL, as the kernel sends. */
#define MSG(text) text, sizeof(text)

/* "action@devpath\0ACTION=..\0DEVPATH=..\0SUBSYSTEM=..\0" as the kernel sends. */
static size_t uevent(char *buf, size_t size, const char *action, const char *subsystem,
		     const char *devpath)
{
	int n = snprintf(buf, size, "%s@%s%cACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=7", action,
			 devpath, 0, action, 0, devpath, 0, subsystem, 0);

	assert_true(n > 0 && (size_t)n < size);
	return (size_t)n + 1;
}

static void test_relevant_subsystems(void **state)
{
	static const struct {
		const char *action, *subsystem, *devpath;
		bool relevant;
	} cases[] = {
		{ "bind", "virtio", "/devices/pci0000:00/0000:00:04.0/virtio1", true },
		{ "unbind", "virtio", "/devices/pci0000:00/0000:00:04.0/virtio1", true },
		{ "add", "tpm", "/devices/platform/MSFT0101:00/tpm/tpm0", true },
		{ "remove", "platform", "/devices/platform/omap_rng", true },
		{ "add", "module", "/module/intel_rng", true },
		{ "add", "misc", "/devices/virtual/misc/hw_random", true },
		{ "add", "misc", "/devices/virtual/misc/fuse", false },
		{ "add", "block", "/devices/virtual/block/loop0", false },
		{ "change", "net", "/devices/virtual/net/lo", false },
		{ "add", "virtiofoo", "/devices/x", false },
	};
	char msg[512], what[160];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = uevent(msg, sizeof(msg), cases[i].action, cases[i].subsystem, cases[i].devpath);

		what[0] = '\0';
		if (device_watch_relevant(msg, len, what, sizeof(what)) != cases[i].relevant)
			fail_msg("case %zu (%s %s) misjudged", i, cases[i].subsystem, cases[i].devpath);
		if (cases[i].relevant) {
			char expect[160];

			(void)snprintf(expect, sizeof(expect), "%s %s %s", cases[i].action, cases[i].subsystem,
				       cases[i].devpath);
			assert_string_equal(what, expect);
		}
	}
}

static void test_malformed_ignored(void **state)
{
	char msg[512], what[160];
	size_t len = uevent(msg, sizeof(msg), "add", "virtio", "/devices/virtio1");

	(void)state;
	/* Cut anywhere: never a read past the end, never relevant without its fields. */
	for (size_t cut = 0; cut < len - 1; cut++)
		assert_false(device_watch_relevant(msg, cut, what, sizeof(what)) &&
			     cut < strlen(msg) + 1);
	/* No "action@devpath" header (udevd's "libudev" messages). */
	assert_false(device_watch_relevant(MSG("libudev\0ACTION=add\0SUBSYSTEM=virtio\0DEVPATH=/x"), what,
					   sizeof(what)));
	/* Missing fields. */
	assert_false(device_watch_relevant(MSG("add@/x\0ACTION=add\0DEVPATH=/x"), what, sizeof(what)));
	assert_false(device_watch_relevant(MSG("add@/x\0SUBSYSTEM=virtio\0DEVPATH=/x"), what, sizeof(what)));
	/* The same with every field: relevant (the control for the above). */
	assert_true(device_watch_relevant(MSG("add@/x\0ACTION=add\0DEVPATH=/x\0SUBSYSTEM=virtio"), what,
					  sizeof(what)));
	/* Its last field without the terminating NUL. */
	assert_false(device_watch_relevant("add@/x\0ACTION=add\0DEVPATH=/x\0SUBSYSTEM=virtio",
					   sizeof("add@/x\0ACTION=add\0DEVPATH=/x\0SUBSYSTEM=virtio") - 1,
					   what, sizeof(what)));
}

static void test_drain_counts_and_filters(void **state)
{
	struct device_watch w = { .fd = -1 };
	const int one = 1;
	char msg[512], what[160] = "";
	int sv[2];
	size_t len;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)), 0);
	w.fd = sv[0];
	assert_int_equal(device_watch_drain(&w, what, sizeof(what)), 0);

	len = uevent(msg, sizeof(msg), "add", "block", "/devices/virtual/block/loop0");
	assert_int_equal(send(sv[1], msg, len, 0), (ssize_t)len);
	len = uevent(msg, sizeof(msg), "bind", "virtio", "/devices/virtio1");
	assert_int_equal(send(sv[1], msg, len, 0), (ssize_t)len);
	len = uevent(msg, sizeof(msg), "add", "net", "/devices/virtual/net/lo");
	assert_int_equal(send(sv[1], msg, len, 0), (ssize_t)len);
	if (geteuid() == 0) {
		assert_int_equal(device_watch_drain(&w, what, sizeof(what)), 1);
		assert_string_equal(what, "bind virtio /devices/virtio1");
		assert_int_equal(w.events, 1);
		assert_int_equal(w.ignored, 2);
	} else {
		/* Not root's: nothing counts. */
		assert_int_equal(device_watch_drain(&w, what, sizeof(what)), 0);
		assert_int_equal(w.ignored, 3);
	}
	/* Drained: nothing left. */
	assert_int_equal(device_watch_drain(&w, what, sizeof(what)), 0);
	device_watch_close(&w);
	assert_int_equal(w.fd, -1);
	assert_int_equal(device_watch_drain(&w, what, sizeof(what)), -EBADF);
	(void)close(sv[1]);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_relevant_subsystems),
	cmocka_unit_test(test_malformed_ignored),
	cmocka_unit_test(test_drain_counts_and_filters)
)
