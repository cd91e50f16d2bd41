/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording stand-in for the kernel calls behind struct
 * kernel_entropy_ops, linked into a test build of rngd (rngd-mockkernel)
 * in place of rngd/kernel_entropy.c: no ioctl, no getrandom, nothing can
 * reach this machine's pool. It plays linux 5.18+'s input pool: credit
 * counts until 256 bits (the pool is then ready for good), is ignored
 * after. The pool outlives rngd like a kernel's would: its count lives in
 * $RNGD_MOCK_KERNEL_STATE, so a restarted rngd finds it as left.
 *
 * It is some other kernel than the one whose generator this machine's
 * /dev/urandom is, so that stands in for a hardware RNG here; with
 * $RNGD_MOCK_KERNEL_IS_THIS=1 it plays this machine's kernel, whose own
 * output rngd must not credit back (rngd/credit.h).
 *
 * Every call is appended to $RNGD_MOCK_KERNEL_LOG, one line each:
 *   open PID PATH
 *   add LEN CREDIT COUNTED READY_BEFORE HEX   (RNDADDENTROPY)
 *   reseed                                    (RNDRESEEDCRNG)
 *   close
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/kernel_entropy.h"

/* linux 6.1 drivers/char/random.c: POOL_READY_BITS = POOL_BITS = 256. */
#define MOCK_POOL_BITS 256

static const char *env_path(const char *name)
{
	const char *p = getenv(name);

	return p && p[0] ? p : NULL;
}

static int read_init_bits(void)
{
	const char *path = env_path("RNGD_MOCK_KERNEL_STATE");
	FILE *f;
	int bits = 0;

	if (!path || !(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%d", &bits) != 1)
		bits = 0;
	(void)fclose(f);
	return bits;
}

static int write_init_bits(int bits)
{
	const char *path = env_path("RNGD_MOCK_KERNEL_STATE");
	FILE *f;

	if (!path)
		return -EINVAL;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", bits);
	return fclose(f) == 0 ? 0 : -EIO;
}

static int mock_open_device(const char *path)
{
	const char *log = env_path("RNGD_MOCK_KERNEL_LOG");
	int fd;

	if (!log || !env_path("RNGD_MOCK_KERNEL_STATE"))
		return -ENODEV;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	dprintf(fd, "open %ld %s\n", (long)getpid(), path);
	return fd;
}

static void mock_close_device(int fd)
{
	dprintf(fd, "close\n");
	(void)close(fd);
}

static int mock_add_entropy(int fd, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	int bits = read_init_bits();
	int ready = bits >= MOCK_POOL_BITS;
	unsigned int counted = 0;
	char *hex;

	if (credit_bits > len * 8)
		return -EINVAL;
	if (!ready && credit_bits) {
		/* _credit_init_bits(): add min(bits, POOL_BITS), saturate. */
		int add = credit_bits > MOCK_POOL_BITS ? MOCK_POOL_BITS : (int)credit_bits;
		int now = bits + add > MOCK_POOL_BITS ? MOCK_POOL_BITS : bits + add;

		counted = (unsigned int)(now - bits);
		if (write_init_bits(now) < 0)
			return -EIO;
	}
	hex = malloc(len * 2 + 1);
	if (!hex)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		(void)snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	dprintf(fd, "add %zu %u %u %d %s\n", len, credit_bits, counted, ready, hex);
	free(hex);
	return 0;
}

static int mock_reseed(int fd)
{
	dprintf(fd, "reseed\n");
	return 0;
}

static int mock_pool_ready(void)
{
	return read_init_bits() >= MOCK_POOL_BITS;
}

static int mock_entropy_avail(void)
{
	return read_init_bits();
}

static int mock_poolsize(void)
{
	return MOCK_POOL_BITS;
}

static int mock_version(unsigned int *major, unsigned int *minor)
{
	*major = 6;
	*minor = 1;
	return 0;
}

static const struct kernel_entropy_ops kernel_entropy_mock = {
	.open_device = mock_open_device,
	.close_device = mock_close_device,
	.add_entropy = mock_add_entropy,
	.reseed = mock_reseed,
	.pool_ready = mock_pool_ready,
	.entropy_avail = mock_entropy_avail,
	.poolsize = mock_poolsize,
	.version = mock_version,
};

int rng_sink_kernel_open(struct rng_sink *s, const struct rng_sink_kernel_config *cfg)
{
	const char *is_this = getenv("RNGD_MOCK_KERNEL_IS_THIS");
	int r = rng_sink_kernel_open_ops(s, cfg, &kernel_entropy_mock);

	if (r == 0 && is_this && strcmp(is_this, "1") == 0)
		s->feeds_this_kernel = true;
	return r;
}
