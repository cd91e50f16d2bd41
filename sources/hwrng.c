/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /dev/hwrng, or any character device named with -O hwrng:device:PATH.
 * The kernel's hw_random core serves whatever rng_current names; the
 * daemon watches that file (rngd/hwrng_watch.c) and resets this
 * source's gate when it changes.
 *
 * The device fd outlives close(): /dev/hwrng is root-only, and after -D
 * a re-open (SIGHUP, a read error) would fail with EACCES for good. An fd
 * on /dev/hwrng follows rng_current by itself (ENODEV while there is no
 * device), so open() tries the path afresh (a node that was re-created,
 * or made readable by the udev rule, is taken) and falls back on the fd it
 * kept from the last open. release() really closes it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sources/close_fd.h"
#include "sources/hwrng.h"
#include "sources/kernel_generator.h"
#include "sources/source.h"

#define HWRNG_DEFAULT_DEVICE "/dev/hwrng"

struct hwrng_priv {
	char device[256];
	int kept_fd;            /* the last open's fd, kept across close(); -1 */
	int fd;                 /* kept_fd while open, else -1 */
	int kernel_generator;   /* fact for reads_kernel_generator(), atomic */
	uint64_t opened_rdev;   /* the last open's st_rdev, 0 before one; atomic */
};

static const struct hwrng_priv hwrng_defaults = {
	.device = HWRNG_DEFAULT_DEVICE,
	.kept_fd = -1,
	.fd = -1,
};

/* The driver behind /dev/hwrng, for messages; "" when unknown. */
static void hwrng_current(char *buf, size_t len)
{
	FILE *f = fopen(RNG_HWRNG_SYSFS_DIR "/rng_current", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	(void)fclose(f);
}

static int hwrng_probe(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;
	char current[64];
	struct stat st;

	if (stat(p->device, &st) < 0)
		return rng_source_why(src, -errno, "no %s (%s)", p->device, strerror(errno));
	if (!S_ISCHR(st.st_mode))
		return rng_source_why(src, -ENODEV, "%s is not a character device", p->device);
	/* Known before the open too, for rngd -l's credit; the open sets it
	 * again from what it opened. */
	__atomic_store_n(&p->kernel_generator, rng_stat_is_kernel_generator(&st), __ATOMIC_RELEASE);
	hwrng_current(current, sizeof(current));
	if (access(p->device, R_OK) < 0)
		return rng_source_why(src, -errno, "%s: %s (reading it needs root)", p->device,
				      strerror(errno));
	/* Its driver may load later (boot, hot-plug): the fd waits for it. */
	if (strcmp(p->device, HWRNG_DEFAULT_DEVICE) == 0 && strcmp(current, "none") == 0)
		rng_source_why(src, 0, "%s (no hardware RNG bound yet: waiting for one)", p->device);
	else if (current[0] && strcmp(p->device, HWRNG_DEFAULT_DEVICE) == 0)
		rng_source_why(src, 0, "%s (rng_current: %s)", p->device, current);
	else
		rng_source_why(src, 0, "%s", p->device);
	return 0;
}

static int hwrng_open(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;
	struct stat st;
	int fd RNG_CLOSE_ON_RETURN = open(p->device, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		int err = errno;

		if (p->kept_fd < 0)
			return rng_source_why(src, -err, "open %s: %s", p->device, strerror(err));
		/* Root-only after the privilege drop: the fd from before does. */
		p->fd = p->kept_fd;
		rng_source_why(src, 0, "%s (the fd kept from before; open: %s)", p->device, strerror(err));
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return rng_source_why(src, -ENODEV, "%s is not a character device", p->device);
	rng_close_fd(&p->kept_fd);
	p->kept_fd = rng_take_fd(&fd);
	p->fd = p->kept_fd;
	__atomic_store_n(&p->kernel_generator, rng_stat_is_kernel_generator(&st), __ATOMIC_RELEASE);
	__atomic_store_n(&p->opened_rdev, (uint64_t)st.st_rdev, __ATOMIC_RELEASE);
	return 0;
}

static const char *hwrng_path(const struct rng_source *src)
{
	const struct hwrng_priv *p = src->priv;

	return p->device;
}

static bool hwrng_reads_kernel_generator(const struct rng_source *src)
{
	const struct hwrng_priv *p = src->priv;

	return p && __atomic_load_n(&p->kernel_generator, __ATOMIC_ACQUIRE);
}

static ssize_t hwrng_read(struct rng_source *src, void *buf, size_t len)
{
	const struct hwrng_priv *p = src->priv;

	for (;;) {
		ssize_t n = read(p->fd, buf, len);

		if (n >= 0)
			return n;
		if (errno != EINTR)
			return rng_source_why(src, -errno, "read: %s", strerror(errno));
	}
}

/* Kept open for the next open() (see the top of this file). */
static void hwrng_close(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;

	p->fd = -1;
}

static int hwrng_wait_fd(const struct rng_source *src)
{
	const struct hwrng_priv *p = src->priv;

	return p->fd;
}

bool hwrng_source_follows_device(const struct rng_source *src)
{
	const struct hwrng_priv *p = src->priv;

	return src->ops == &rng_source_hwrng_ops && p &&
	       __atomic_load_n(&p->opened_rdev, __ATOMIC_ACQUIRE) ==
		       (uint64_t)makedev(HWRNG_KERNEL_DEVICE_MAJOR, HWRNG_KERNEL_DEVICE_MINOR);
}

bool hwrng_source_reads_kernel_hwrng(const struct rng_source *src, uint64_t kernel_hwrng_rdev)
{
	const struct hwrng_priv *p = src->priv;
	uint64_t rdev;

	if (src->ops != &rng_source_hwrng_ops || !p)
		return false;
	rdev = __atomic_load_n(&p->opened_rdev, __ATOMIC_ACQUIRE);
	if (rdev == 0) {
		struct stat st;

		/* Not opened yet (still opening, or to be retried): the
		 * device the path names now, a udev link included. */
		if (stat(p->device, &st) == 0 && S_ISCHR(st.st_mode))
			rdev = (uint64_t)st.st_rdev;
	}
	if (rdev != 0)
		return rdev == kernel_hwrng_rdev;
	return strcmp(p->device, HWRNG_DEFAULT_DEVICE) == 0;
}

static int hwrng_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct hwrng_priv *p = src->priv;

	return rng_option_only_text(src, key, value, "device", p->device, sizeof(p->device), true);
}

static void hwrng_release(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;

	rng_close_fd(&p->kept_fd);
}

const struct rng_source_ops rng_source_hwrng_ops = {
	.name = "hwrng",
	.summary = "kernel hardware RNG /dev/hwrng, or any character device (-O hwrng:device:PATH)",
	.keys = "device=/dev/hwrng: the character device read",
	.default_entropy_per_bit = 0.5,
	.default_priority = 10,
	.priv_size = sizeof(struct hwrng_priv),
	.priv_defaults = &hwrng_defaults,
	.probe = hwrng_probe,
	.open = hwrng_open,
	.read = hwrng_read,
	.close = hwrng_close,
	.set_option = hwrng_set_option,
	.release = hwrng_release,
	.wait_fd = hwrng_wait_fd,
	.reads_kernel_generator = hwrng_reads_kernel_generator,
	.path = hwrng_path,
};
