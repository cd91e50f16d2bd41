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
 * kept from the last open. destroy() really closes it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources/source.h"

#define HWRNG_DEFAULT_DEVICE "/dev/hwrng"

struct hwrng_priv {
	char device[256];
	int kept_fd;            /* the last open's fd, kept across close(); -1 */
};

static struct hwrng_priv *hwrng_priv(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;

	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		snprintf(p->device, sizeof(p->device), "%s", HWRNG_DEFAULT_DEVICE);
		p->kept_fd = -1;
		src->priv = p;
	}
	return p;
}

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
	struct hwrng_priv *p = hwrng_priv(src);
	char current[64];
	struct stat st;

	if (!p)
		return rng_source_why(src, -ENOMEM, "out of memory");
	if (stat(p->device, &st) < 0)
		return rng_source_why(src, -errno, "no %s (%s)", p->device, strerror(errno));
	if (!S_ISCHR(st.st_mode))
		return rng_source_why(src, -ENODEV, "%s is not a character device", p->device);
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
	struct hwrng_priv *p = hwrng_priv(src);
	struct stat st;
	int fd, err;

	if (!p)
		return rng_source_why(src, -ENOMEM, "out of memory");
	fd = open(p->device, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (p->kept_fd < 0)
			return rng_source_why(src, -err, "open %s: %s", p->device, strerror(err));
		/* Root-only after the privilege drop: the fd from before does. */
		src->fd = p->kept_fd;
		rng_source_why(src, 0, "%s (the fd kept from before; open: %s)", p->device, strerror(err));
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		(void)close(fd);
		return rng_source_why(src, -ENODEV, "%s is not a character device", p->device);
	}
	if (p->kept_fd >= 0)
		(void)close(p->kept_fd);
	p->kept_fd = fd;
	src->fd = fd;
	return 0;
}

static ssize_t hwrng_read(struct rng_source *src, void *buf, size_t len)
{
	for (;;) {
		ssize_t n = read(src->fd, buf, len);

		if (n >= 0)
			return n;
		if (errno != EINTR)
			return rng_source_why(src, -errno, "read: %s", strerror(errno));
	}
}

/* Kept open for the next open() (see the top of this file). */
static void hwrng_close(struct rng_source *src)
{
	src->fd = -1;
}

static int hwrng_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct hwrng_priv *p = hwrng_priv(src);

	if (!p)
		return -ENOMEM;
	if (strcmp(key, "device") == 0) {
		if (value[0] != '/' || strlen(value) >= sizeof(p->device))
			return -EINVAL;
		snprintf(p->device, sizeof(p->device), "%s", value);
		return 0;
	}
	return -EINVAL;
}

static void hwrng_destroy(struct rng_source *src)
{
	struct hwrng_priv *p = src->priv;

	if (p && p->kept_fd >= 0)
		(void)close(p->kept_fd);
	free(src->priv);
	src->priv = NULL;
}

const struct rng_source_ops rng_source_hwrng_ops = {
	.name = "hwrng",
	.summary = "kernel hardware RNG /dev/hwrng, or any character device (-O hwrng:device:PATH)",
	.keys = "device=/dev/hwrng: the character device read",
	.default_entropy_per_bit = 0.5,
	.default_priority = 10,
	.probe = hwrng_probe,
	.open = hwrng_open,
	.read = hwrng_read,
	.close = hwrng_close,
	.set_option = hwrng_set_option,
	.destroy = hwrng_destroy,
};
