/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_KERNEL_GENERATOR_H
#define RNGD_KERNEL_GENERATOR_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The mem driver's numbers of /dev/random and /dev/urandom (devices.txt). */
#define RNG_MEM_MAJOR 1
#define RNG_RANDOM_MINOR 8
#define RNG_URANDOM_MINOR 9

/*
 * True for this machine's own kernel generator, by device number rather
 * than by path, so a node made elsewhere (a chroot's, mknod's) is known
 * too. Its bytes are the kernel's output: fed back to the same kernel
 * they must earn no credit (source.h, reads_kernel_generator).
 */
static inline bool rng_stat_is_kernel_generator(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == RNG_MEM_MAJOR &&
	       (minor(st->st_rdev) == RNG_RANDOM_MINOR || minor(st->st_rdev) == RNG_URANDOM_MINOR);
}

#endif /* RNGD_KERNEL_GENERATOR_H */
