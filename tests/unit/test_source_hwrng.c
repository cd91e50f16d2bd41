/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hwrng source (sources/hwrng.c) on stand-in character devices
 * (/dev/zero, /dev/null): probe names what is wrong, -O device is checked,
 * and the device fd outlives close() so that a re-open after the
 * privilege drop (the path now unreadable) still reads the same device;
 * destroy() really closes it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/source_fixture.h"
#include "tests/lib/test_main.h"

#include "sources/hwrng.h"
#include "sources/source.h"

extern const struct rng_source_ops rng_source_hwrng_ops;

static int setup(void **state)
{
	*state = fixture_source_new(&rng_source_hwrng_ops);
	return 0;
}

/* Whether rng_quality is the kernel's credit for what this source reads:
 * the device it opened, or before an open the one its path names, against
 * the kernel's hwrng device number (here a stand-in, /dev/zero); with no
 * device there, /dev/hwrng by path. */
static void test_kernel_hwrng_told_by_device_then_path(void **state)
{
	struct rng_source *src = *state;
	const uint64_t misc_hwrng = makedev(HWRNG_KERNEL_DEVICE_MAJOR, HWRNG_KERNEL_DEVICE_MINOR);
	const uint64_t zero = makedev(1, 5);

	/* /dev/hwrng: the kernel's device where there is one, by path where
	 * there is none yet. */
	assert_true(hwrng_source_reads_kernel_hwrng(src, misc_hwrng));
	assert_int_equal(src->ops->set_option(src, "device", "/nonexistent/ttyACM0"), 0);
	assert_false(hwrng_source_reads_kernel_hwrng(src, misc_hwrng));
	/* Before an open: the device the path names (a link counts). */
	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	assert_true(hwrng_source_reads_kernel_hwrng(src, zero));
	assert_false(hwrng_source_reads_kernel_hwrng(src, misc_hwrng));
	assert_int_equal(src->ops->open(src), 0);
	assert_true(hwrng_source_reads_kernel_hwrng(src, zero));
	assert_false(hwrng_source_reads_kernel_hwrng(src, misc_hwrng));
	src->ops->close(src);
}

static void test_probe_names_what_is_wrong(void **state)
{
	struct rng_source *src = *state;
	char tmp[] = "/tmp/test_source_hwrng.XXXXXX";
	int fd = mkstemp(tmp);

	assert_true(fd >= 0);
	assert_int_equal(src->ops->set_option(src, "device", "/nonexistent/hwrng"), 0);
	assert_int_equal(src->ops->probe(src), -ENOENT);
	assert_non_null(strstr(src->why, "no /nonexistent/hwrng"));
	assert_int_equal(src->ops->open(src), -ENOENT);

	assert_int_equal(src->ops->set_option(src, "device", tmp), 0);
	assert_int_equal(src->ops->probe(src), -ENODEV);
	assert_non_null(strstr(src->why, "not a character device"));
	assert_int_equal(src->ops->open(src), -ENODEV);
	assert_int_equal(rng_source_wait_fd(src), -1);
	(void)close(fd);
	(void)unlink(tmp);

	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	assert_int_equal(src->ops->probe(src), 0);
	assert_string_equal(src->why, "/dev/zero");
}

static void test_device_option_is_checked(void **state)
{
	struct rng_source *src = *state;
	char longpath[300];

	assert_int_equal(src->ops->set_option(src, "device", "dev/zero"), -EINVAL);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(src->ops->set_option(src, "device", longpath), -EINVAL);
	assert_int_equal(src->ops->set_option(src, "path", "/dev/zero"), -EINVAL);
}

static void test_reads_the_device(void **state)
{
	struct rng_source *src = *state;
	uint8_t buf[2500], zero[2500] = { 0 };

	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_true(rng_source_wait_fd(src) >= 0);
	/* /dev/zero (1:5) is not the hw_random misc device: its ENODEV would be for good. */
	assert_false(hwrng_source_follows_device(src));
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_memory_equal(buf, zero, sizeof(buf));
	src->ops->close(src);
	assert_int_equal(rng_source_wait_fd(src), -1);

	/* End of data is 0, for the loop to close and re-open with back-off. */
	assert_int_equal(src->ops->set_option(src, "device", "/dev/null"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 0);
}

/* rngd -r /dev/urandom: the fact the daemon zeroes the credit by, told by
 * the device's number (1:8, 1:9), not its name; /dev/zero shares the major. */
static void test_kernel_generator_told_by_number(void **state)
{
	struct rng_source *src = *state;

	assert_false(src->ops->reads_kernel_generator(src));
	assert_int_equal(src->ops->set_option(src, "device", "/dev/urandom"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->ops->reads_kernel_generator(src));
	src->ops->close(src);
	assert_int_equal(src->ops->set_option(src, "device", "/dev/random"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_true(src->ops->reads_kernel_generator(src));
	src->ops->close(src);
	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_false(src->ops->reads_kernel_generator(src));
}

/* After -D the path is root-only: the fd from the first open still reads. */
static void test_fd_outlives_close_until_release(void **state)
{
	struct rng_source *src = *state;
	uint8_t buf[64];
	int kept;

	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	assert_int_equal(src->ops->open(src), 0);
	kept = rng_source_wait_fd(src);
	src->ops->close(src);
	assert_int_equal(rng_source_wait_fd(src), -1);
	assert_true(fcntl(kept, F_GETFD) >= 0);

	/* The path cannot be opened now (as after the drop): the kept fd. */
	assert_int_equal(src->ops->set_option(src, "device", "/nonexistent/hwrng"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(rng_source_wait_fd(src), kept);
	assert_non_null(strstr(src->why, "the fd kept from before"));
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));

	/* A path that opens again replaces the kept fd, closing the old one. */
	assert_int_equal(src->ops->set_option(src, "device", "/dev/zero"), 0);
	src->ops->close(src);
	assert_int_equal(src->ops->open(src), 0);
	assert_true(rng_source_wait_fd(src) >= 0);
	if (rng_source_wait_fd(src) != kept)
		assert_int_equal(fcntl(kept, F_GETFD), -1);
	kept = rng_source_wait_fd(src);

	src->ops->close(src);
	rng_source_release(src);
	assert_null(src->priv);
	assert_int_equal(fcntl(kept, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	/* For the teardown: a released source starts afresh. */
	assert_int_equal(rng_source_init(src, &rng_source_hwrng_ops), 0);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN fixture_source_teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_probe_names_what_is_wrong),
	RNGD_FIXTURE_TEST(test_device_option_is_checked),
	RNGD_FIXTURE_TEST(test_reads_the_device),
	RNGD_FIXTURE_TEST(test_kernel_generator_told_by_number),
	RNGD_FIXTURE_TEST(test_fd_outlives_close_until_release),
	RNGD_FIXTURE_TEST(test_kernel_hwrng_told_by_device_then_path)
)
