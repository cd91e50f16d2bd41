/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real kernel calls behind struct kernel_entropy_ops. Only the daemon
 * links this file; unit tests of the kernel sink link mocks instead.
 */
#include <config.h>

#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/random.h>

#include "rngd/kernel_entropy.h"

static int linux_open_device(const char *path)
{
	/*
	 * RNDADDENTROPY checks CAP_SYS_ADMIN, not the open mode; O_WRONLY
	 * keeps the fd from ever reading the pool. Opened before privileges
	 * drop because /dev/random may not be writable by the rngd user.
	 */
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	return fd < 0 ? -errno : fd;
}

static void linux_close_device(int fd)
{
	(void)close(fd);
}

static int linux_add_entropy(int fd, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct rand_pool_info *info;
	int r = 0;

	if (len > (size_t)INT_MAX / 8 || credit_bits > len * 8)
		return -EINVAL;
	info = malloc(sizeof(*info) + len);
	if (!info)
		return -ENOMEM;
	info->entropy_count = (int)credit_bits;
	info->buf_size = (int)len;
	memcpy(info->buf, buf, len);
	if (ioctl(fd, RNDADDENTROPY, info) < 0)
		r = -errno;
	/* The copy holds bytes about to seed the kernel's CRNG. */
	explicit_bzero(info->buf, len);
	free(info);
	return r;
}

static int linux_reseed(int fd)
{
	return ioctl(fd, RNDRESEEDCRNG) < 0 ? -errno : 0;
}

static int linux_pool_ready(void)
{
	uint8_t byte;
	ssize_t n;

	/* GRND_NONBLOCK never triggers the kernel's jitter self-seeding. */
	do
		n = getrandom(&byte, 1, GRND_NONBLOCK);
	while (n < 0 && errno == EINTR);
	explicit_bzero(&byte, sizeof(byte));
	if (n == 1)
		return 1;
	if (n < 0 && errno == EAGAIN)
		return 0;
	return n < 0 ? -errno : -EIO;
}

static int read_proc_int(const char *path)
{
	char text[32];
	char *end;
	long v;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	if (n < 0)
		n = -errno;
	(void)close(fd);
	if (n < 0)
		return (int)n;
	text[n] = '\0';
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v < 0 || v > INT_MAX)
		return -EBADMSG;
	return (int)v;
}

static int linux_entropy_avail(void)
{
	return read_proc_int("/proc/sys/kernel/random/entropy_avail");
}

static int linux_poolsize(void)
{
	return read_proc_int("/proc/sys/kernel/random/poolsize");
}

static int linux_version(unsigned int *major, unsigned int *minor)
{
	struct utsname u;

	unsigned long v;
	char *end;

	if (uname(&u) < 0)
		return -errno;
	/* "6.1.0-18-amd64": only the first two numbers matter. */
	errno = 0;
	v = strtoul(u.release, &end, 10);
	if (errno || end == u.release || *end != '.' || v > UINT_MAX)
		return -EBADMSG;
	*major = (unsigned int)v;
	v = strtoul(end + 1, &end, 10);
	if (errno || v > UINT_MAX)
		return -EBADMSG;
	*minor = (unsigned int)v;
	return 0;
}

const struct kernel_entropy_ops kernel_entropy_linux = {
	.open_device = linux_open_device,
	.close_device = linux_close_device,
	.add_entropy = linux_add_entropy,
	.reseed = linux_reseed,
	.pool_ready = linux_pool_ready,
	.entropy_avail = linux_entropy_avail,
	.poolsize = linux_poolsize,
	.version = linux_version,
	.is_this_kernel = true,
};

/* Here rather than in sink_kernel.c, so its tests link without real calls. */
int rng_sink_kernel_open(struct rng_sink *s, const struct rng_sink_kernel_config *cfg)
{
	return rng_sink_kernel_open_ops(s, cfg, &kernel_entropy_linux);
}
