/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few kernel calls the kernel sink makes, behind one small struct so
 * unit tests replace every one of them with mocks and never touch this
 * machine's pool. kernel_entropy_linux is the real thing.
 *
 * Every function returns a negative errno on failure.
 */
#ifndef RNGD_KERNEL_ENTROPY_H
#define RNGD_KERNEL_ENTROPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rngd/sink.h"

struct kernel_entropy_ops {
	/* open(@path, O_WRONLY): the fd, or -errno. */
	int (*open_device)(const char *path);
	void (*close_device)(int fd);
	/* ioctl(RNDADDENTROPY) of @len bytes crediting exactly @credit_bits. */
	int (*add_entropy)(int fd, const uint8_t *buf, size_t len, unsigned int credit_bits);
	/* ioctl(RNDRESEEDCRNG): mix the input pool into the CRNG now. */
	int (*reseed)(int fd);
	/* 1 once getrandom(GRND_NONBLOCK) works, 0 while it says EAGAIN. */
	int (*pool_ready)(void);
	/* /proc/sys/kernel/random/entropy_avail and poolsize, in bits. */
	int (*entropy_avail)(void);
	int (*poolsize)(void);
	/* The running kernel's major.minor, from uname(2). */
	int (*version)(unsigned int *major, unsigned int *minor);
	/* The calls reach this machine's kernel, the one whose generator
	 * /dev/urandom is (a mock stands for some other kernel). */
	bool is_this_kernel;
};

extern const struct kernel_entropy_ops kernel_entropy_linux;

/* rng_sink_kernel_open() with the kernel calls of @k (tests pass mocks). */
int rng_sink_kernel_open_ops(struct rng_sink *s, const struct rng_sink_kernel_config *cfg,
			     const struct kernel_entropy_ops *k);

#endif /* RNGD_KERNEL_ENTROPY_H */
